/*
 * Device task logs into device tasks (doc/formats.md sections 4.1-4.7): the
 * start and end logs of stars_soc.data (STARS chips) or hwts.data (HWTS
 * chips) are put in time order, each start log gets its batch id from the
 * ts_track flip records of its stream (a flip counts only for logs
 * strictly later than it, as the vendor's C++ path does), and an end log
 * pairs with the latest start of the same (stream, task, context) that is
 * not later than it; a start that another start of the same key follows
 * before any end is orphaned, as the vendor's queue rule drops it.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"


/* One start or end log, kept small: there are two per task. */
struct prof_log {
	uint64_t	 ts;
	uint32_t	 task;
	uint32_t	 context;
	uint16_t	 stream;
	uint8_t		 end;
	uint8_t		 type;
	uint8_t		 ffts;
};

struct prof_logs {
	struct store	*s;
	struct prof_log	*v;
	size_t		 n;
	bool		 sorted;
	int		 cnt;		/* previous 4-bit counter, or -1 */
	bool		 lost;		/* counter gap already reported */
};

static void
prof_logs_add(struct prof_logs *l, const struct prof_log *g)
{
	l->v = util_grow(l->v, l->n, 1, sizeof *l->v);
	if (l->n > 0 && l->v[l->n - 1].ts > g->ts)
		l->sorted = false;
	l->v[l->n++] = *g;
}

/* Check the 4-bit rolling counter; a gap means lost records. */
static void
prof_logs_cnt(struct prof_logs *l, const struct prof_stream *st, int cnt)
{
	if (l->cnt >= 0 && cnt != ((l->cnt + 1) & 0xF) && !l->lost) {
		store_load_warning(l->s, st->path, st->offset, "record "
		    "counter jumps from %d to %d: device records were lost",
		    l->cnt, cnt);
		l->lost = true;
	}
	l->cnt = cnt;
}

/*
 * Read the stars_soc stream. Records with a wrong magic are counted and
 * skipped, unless every record has one (older firmware), section 11.2.
 * With TAIL the records line up from the first byte (the stream lost
 * bytes at its end, not at its head); the cut record left at the end is
 * counted in *CUT.
 */
static void
prof_logs_stars(struct prof_logs *l, struct prof_files *f, bool v6,
    bool expand, bool accept_all, bool tail, int64_t *bad, int64_t *cut)
{
	struct prof_stream	 st;
	struct prof_log		 g;
	struct dev_stars	 d;
	const unsigned char	*r;
	int64_t			 first_bad = -1;
	const char		*bad_path = NULL;

	*bad = 0;
	prof_slices_open(&st, l->s, f, v6 ? DEV_STARS_V6_SIZE :
	    DEV_STARS_SIZE, false);
	if (tail) {
		*cut = st.skip;
		st.skip = 0;
	}
	while ((r = prof_slices_next(&st)) != NULL) {
		if (dev_stars_decode(r, st.recsize, expand, &d) != 0 &&
		    !accept_all) {
			if ((*bad)++ == 0) {
				first_bad = st.offset;
				bad_path = st.path;
			}
			continue;
		}
		prof_logs_cnt(l, &st, d.cnt);
		if (d.func_type != DEV_STARS_ACSQ_START &&
		    d.func_type != DEV_STARS_ACSQ_END &&
		    d.func_type != DEV_STARS_FFTS_START &&
		    d.func_type != DEV_STARS_FFTS_END)
			continue;
		memset(&g, 0, sizeof g);
		g.ts = d.syscnt;
		g.task = d.task;
		g.context = d.context;
		g.stream = (uint16_t)d.stream;
		g.end = d.func_type == DEV_STARS_ACSQ_END ||
		    d.func_type == DEV_STARS_FFTS_END;
		g.ffts = d.func_type >= DEV_STARS_FFTS_START;
		g.type = (uint8_t)(g.ffts ? d.sub_task_type : d.sqe_type);
		prof_logs_add(l, &g);
	}
	/* With no record kept, the caller tries the other readings. */
	if (*bad > 0 && !accept_all && l->n > 0)
		store_load_warning(l->s, bad_path, first_bad, "%lld records "
		    "without the 0x6BD3 magic, skipped", (long long)*bad);
	prof_slices_close(&st);
}

static void
prof_logs_hwts(struct prof_logs *l, struct prof_files *f)
{
	struct prof_stream	 st;
	struct prof_log		 g;
	struct dev_hwts		 d;
	const unsigned char	*r;

	prof_slices_open_lined(&st, l->s, f, DEV_HWTS_SIZE, prof_slices_counted,
	    NULL, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		dev_hwts_decode(r, &d);
		prof_logs_cnt(l, &st, d.cnt);
		if (d.log_type != DEV_HWTS_START && d.log_type != DEV_HWTS_END)
			continue;
		memset(&g, 0, sizeof g);
		g.ts = d.syscnt;
		g.task = d.task;
		g.context = DEV_NO_CONTEXT;
		g.stream = (uint16_t)d.stream;
		g.end = d.log_type == DEV_HWTS_END;
		g.type = (uint8_t)d.sqe_type;
		prof_logs_add(l, &g);
	}
	prof_slices_close(&st);
}

static int
prof_logs_cmp(const void *a, const void *b)
{
	const struct prof_log	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return (int)x->end - (int)y->end;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->context != y->context)
		return x->context < y->context ? -1 : 1;
	return 0;
}

/*
 * Read the ts_track flips of DATA into FL, one list per stream, and with
 * their flip numbers into D (the MC2 ops' tasks take their batches the
 * vendor's way, prof-kfc.c).
 */
static void
prof_logs_flips(struct store *s, const char *data, struct prof_flips *fl,
    struct prof_dev *d)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	struct dev_tstrack	 t;
	const unsigned char	*r;

	prof_slices_list(data, "ts_track.data", false, &f);
	/* prof-step.c reads them too, and says if they were cut. */
	prof_slices_open_lined(&st, s, &f, DEV_TSTRACK_SIZE, dev_tstrack_ok,
	    NULL, false);
	while ((r = prof_slices_next(&st)) != NULL) {
		dev_tstrack_decode(r, &t);
		if (t.tag != DEV_TS_FLIP)
			continue;
		prof_flips_add(fl, t.stream, t.syscnt);
		d->flips = util_grow(d->flips, d->nflips, 1,
		    sizeof *d->flips);
		d->flips[d->nflips].syscnt = t.syscnt;
		d->flips[d->nflips].stream = t.stream;
		d->flips[d->nflips++].num = (uint32_t)t.flip_num;
	}
	prof_slices_close(&st);
	prof_slices_release(&f);
	prof_flips_sort(fl);
}

/*
 * The pairing key of log G: 16 bits of stream, the task id's 32 (chip V6
 * uses them all), 16 of context, 0xFFFF standing for none (FFTS+ context
 * ids are far smaller).
 */
static uint64_t
prof_logs_key(const struct prof_log *g)
{
	return (uint64_t)g->stream << 48 | (uint64_t)g->task << 16 |
	    (g->context == DEV_NO_CONTEXT ? 0xFFFF : g->context & 0xFFFF);
}

/* A start log waiting for its end: what its task takes from it. */
struct prof_logs_open {
	uint64_t	 ts;
	uint32_t	 context;	/* the key holds its low 16 bits */
	uint16_t	 batch;
	uint8_t		 type;
	uint8_t		 ffts;
};

/*
 * Pair the time-ordered logs of L into D's tasks (section 4.6); count in
 * LONE[0] the start logs, in LONE[1] the end logs left without a pair.
 * The tasks are written over the logs already read (a task is 32 bytes,
 * and each took two logs of 24 before it), so the logs and the tasks
 * are never held side by side; the starts still open are kept apart.
 * L's logs are gone after.
 */
static void
prof_logs_pair(struct prof_logs *l, struct prof_flips *fl,
    struct prof_dev *d, size_t *lone)
{
	struct util_map		 open;
	struct prof_dtask	 t;
	struct prof_log		 g;
	struct prof_logs_open	*op = NULL;
	unsigned char		*out = (unsigned char *)l->v;
	uint64_t		*spare = NULL;
	size_t			*next, i, nop = 0, nspare = 0, ntasks = 0;
	size_t			 starts = 0;
	uint64_t		 k, j;

	next = xcalloc(PROF_FLIPS_STREAMS, sizeof *next);
	util_map_init(&open);
	for (i = 0; i < l->n; i++) {
		g = l->v[i];
		k = prof_logs_key(&g);
		if (!g.end) {
			starts++;
			while (next[g.stream] < fl[g.stream].n &&
			    fl[g.stream].ts[next[g.stream]] < g.ts)
				next[g.stream]++;
			/* A later start of a key takes the earlier's place. */
			if (!util_map_get(&open, k, &j) ||
			    j == UINT64_MAX - 1) {
				if (nspare > 0)
					j = spare[--nspare];
				else {
					/* A freed slot is one made: as many. */
					op = util_grow(op, nop, 1, sizeof *op);
					spare = util_grow(spare, nop, 1,
					    sizeof *spare);
					j = nop++;
				}
				util_map_set(&open, k, j);
			}
			op[j].ts = g.ts;
			op[j].context = g.context;
			op[j].batch = (uint16_t)next[g.stream];
			op[j].type = g.type;
			op[j].ffts = g.ffts;
			continue;
		}
		if (!util_map_get(&open, k, &j) || j == UINT64_MAX - 1) {
			lone[1]++;
			continue;
		}
		util_map_set(&open, k, UINT64_MAX - 1);
		spare[nspare++] = j;
		memset(&t, 0, sizeof t);
		t.start = op[j].ts;
		t.end = g.ts;
		t.stream = g.stream;
		t.task = g.task;
		t.context = op[j].context;
		t.batch = op[j].batch;
		t.type = op[j].type;
		t.ffts = op[j].ffts;
		/*
		 * The logs read so far, up to I, are 24 * (I + 1) >=
		 * 48 * (NTASKS + 1) bytes, as each task took two of them; the
		 * task ends by byte 32 * (NTASKS + 1), within them.
		 */
		if (2 * sizeof *l->v < sizeof t)
			fatalx("%s: a task outgrows two logs", __func__);
		memcpy(out + ntasks++ * sizeof t, &t, sizeof t);
	}
	lone[0] += starts - ntasks;
	d->tasks = xreallocarray(out, ntasks + 1, sizeof *d->tasks);
	d->ntasks = ntasks;
	l->v = NULL;
	l->n = 0;
	util_map_release(&open);
	free(next);
	free(spare);
	free(op);
}

/*
 * Read the task logs and flips of device data directory DATA (metadata M;
 * EXPAND from the host's expand_stream_spec) into D's tasks, in start
 * order of their end logs.
 */
void
prof_logs_read(struct store *s, const char *data, const struct prof_meta *m,
    bool expand, struct prof_dev *d)
{
	struct prof_logs	 l;
	struct prof_flips	*fl;
	struct prof_files	 f;
	int64_t			 bad = 0, cut = 0;
	size_t			 lone[2] = { 0, 0 };
	bool			 stars = prof_meta_is_stars(m);

	memset(d, 0, sizeof *d);
	memset(&l, 0, sizeof l);
	l.s = s;
	l.sorted = true;
	l.cnt = -1;
	prof_slices_list(data, stars ? "stars_soc.data" : "hwts.data", false,
	    &f);
	if (m->chip < 0 && f.n == 0) {
		/* No platform_version: try the other log kind. */
		prof_slices_release(&f);
		stars = true;
		prof_slices_list(data, "stars_soc.data", false, &f);
	}
	if (stars) {
		prof_logs_stars(&l, &f, prof_meta_is_v6(m), expand, false,
		    false, &bad, &cut);
		/*
		 * The vendor's rule takes bytes that are not a whole record
		 * for the head of the stream; if no record then has the
		 * magic, the stream may have lost its tail instead.
		 */
		f.uncounted = true;
		if (l.n == 0 && bad > 0 && f.total % (prof_meta_is_v6(m) ?
		    DEV_STARS_V6_SIZE : DEV_STARS_SIZE) != 0) {
			l.cnt = -1;
			prof_logs_stars(&l, &f, prof_meta_is_v6(m), expand,
			    false, true, &bad, &cut);
			if (l.n > 0)
				store_load_warning(s, f.paths[f.n - 1], -1,
				    "the records line up from the first byte: "
				    "the last %lld bytes are a cut record, "
				    "dropped", (long long)cut);
		}
		if (l.n == 0 && bad > 0) {
			store_load_warning(s, f.paths[0], -1, "no record has "
			    "the 0x6BD3 magic: reading them all");
			l.cnt = -1;
			prof_logs_stars(&l, &f, prof_meta_is_v6(m), expand,
			    true, false, &bad, &cut);
		}
	} else
		prof_logs_hwts(&l, &f);
	prof_slices_release(&f);
	d->logs = (int64_t)l.n;
	if (!l.sorted)
		prof_sort(l.v, l.n, sizeof *l.v, prof_logs_cmp);
	fl = prof_flips_create();
	prof_logs_flips(s, data, fl, d);
	prof_logs_pair(&l, fl, d, lone);
	if (lone[0] + lone[1] > 0)
		store_load_warning(s, data, -1, "%zu start and %zu end task "
		    "logs without their other half, dropped", lone[0],
		    lone[1]);
	prof_flips_free(fl);
	free(l.v);
}

void
prof_logs_release(struct prof_dev *d)
{
	free(d->tasks);
	free(d->flips);
	memset(d, 0, sizeof *d);
}

/* The device's name for the type of task T (section 4.8). */
const char *
prof_logs_type_name(const struct prof_dtask *t, bool stars)
{
	const char	*n;

	if (t->ffts)
		n = dev_stars_subtask_name(t->type);
	else if (stars)
		n = dev_stars_sqe_name(t->type);
	else
		n = dev_hwts_sqe_name(t->type);
	return n != NULL ? n : "UNKNOWN";
}
