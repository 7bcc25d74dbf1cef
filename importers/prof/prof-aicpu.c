/*
 * The AI CPU records of a device (doc/formats.md section 4.10): 256-byte
 * additional records of level 6000 in aicpu.data, one per AI CPU kernel
 * run, with its start and end on the device counter and the times the
 * kernel spent computing, copying and being dispatched. They become table
 * aicpu, the vendor's aicpu summary: a run takes the op name of the AI
 * CPU task its end falls in (the same stream and task id), found while
 * the device tasks are joined (prof-join.c), N/A if none holds it.
 * Records of kind 1 (data preprocessing: a queue's action, its source and
 * the buffer it holds) become table dp, those of kind 3 (MindSpore's
 * waits on its data queue) table aicpu_mi, as the vendor exports them.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_AICPU_SIZE		256
#define PROF_AICPU_LEVEL	6000
#define PROF_AICPU_NODE		0
#define PROF_AICPU_DP		1
#define PROF_AICPU_MODEL	2	/* model with queue: step points */
#define PROF_AICPU_STEP_MAX	4	/* the step trace's points used */
#define PROF_AICPU_MI		3
#define PROF_AICPU_KFC_COMM	4	/* a KFC server turn */
#define PROF_AICPU_KFC_COMPUTE	5	/* a KFC compute turn */


/* The pairing key of a run: stream and task id. */
static uint64_t
prof_aicpu_key(uint32_t stream, uint32_t task)
{
	return (uint64_t)stream << 32 | task;
}

static int
prof_aicpu_cmp(const void *a, const void *b)
{
	const struct prof_aicpu	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Decode node record R into A's next run. */
static void
prof_aicpu_node(struct prof_aicpus *a, const unsigned char *r, bool expand)
{
	struct prof_aicpu	*u;

	a->v = util_grow(a->v, a->n, 1, sizeof *a->v);
	u = &a->v[a->n];
	memset(u, 0, sizeof *u);
	u->seq = a->n++;
	dev_stars_unpack(importer_le16(r + 24), importer_le16(r + 26), 1,
	    expand, &u->stream, &u->task);
	u->start = importer_le64(r + 40);
	u->compute_us = (int64_t)(importer_le64(r + 56) -
	    importer_le64(r + 48));
	u->memcpy_us = (int64_t)(importer_le64(r + 64) -
	    importer_le64(r + 56));
	u->end = importer_le64(r + 80);
	u->total = importer_le64(r + 120) - importer_le64(r + 96);
	u->dispatch_us = importer_le32(r + 132);
}

/* A NUL-ended text field of at most N bytes at P, its bad UTF-8 left out. */
static void
prof_aicpu_text(char *out, const unsigned char *p, size_t n)
{
	size_t	 i = 0, k, o = 0;

	while (i < n && p[i] != '\0') {
		if ((k = util_utf8_len(p + i, n - i)) == 0 ||
		    memchr(p + i, '\0', k) != NULL) {
			i++;
			continue;
		}
		memcpy(out + o, p + i, k);
		o += k;
		i += k;
	}
	out[o] = '\0';
}

/* A data preprocessing record (kind 1). */
static void
prof_aicpu_dp(struct prof_aicpus *a, const unsigned char *r)
{
	struct prof_aicpu_dp	*d;

	a->dp = util_grow(a->dp, a->ndp, 1, sizeof *a->dp);
	d = &a->dp[a->ndp++];
	d->ts = importer_le64(r + 16);
	prof_aicpu_text(d->action, r + 24, 16);
	prof_aicpu_text(d->source, r + 40, 64);
	d->size = importer_le64(r + 112);
}

/* A MindSpore data queue wait (kind 3). */
static void
prof_aicpu_mi(struct prof_aicpus *a, const unsigned char *r)
{
	struct prof_aicpu_mi	*q;

	a->mi = util_grow(a->mi, a->nmi, 1, sizeof *a->mi);
	q = &a->mi[a->nmi++];
	q->tag = importer_le32(r + 24);
	q->queue = importer_le64(r + 32);
	q->start = importer_le64(r + 40);
	q->end = importer_le64(r + 48);
}

/*
 * A KFC turn of KIND (4 or 5), record R of file PATH: its phase bounds
 * (server: seven counter values from @24; compute: three), stream and task
 * fields (@92 and @94, or @60 and @62) and current turn (@98 or @66).
 */
static void
prof_aicpu_kfc(struct prof_aicpus *a, const unsigned char *r, uint32_t kind,
    const char *path)
{
	struct prof_aicpu_kfc	*k;
	size_t			 at = kind == PROF_AICPU_KFC_COMM ? 92 : 60, i;

	if (a->kfc_path == NULL)
		a->kfc_path = xstrdup(path);
	a->kfc = util_grow(a->kfc, a->nkfc, 1, sizeof *a->kfc);
	k = &a->kfc[a->nkfc++];
	memset(k, 0, sizeof *k);
	k->nphase = kind == PROF_AICPU_KFC_COMM ? IMPORT_COMM_KFC_SERVER :
	    IMPORT_COMM_KFC_PHASES - IMPORT_COMM_KFC_SERVER;
	for (i = 0; i <= k->nphase; i++)
		k->t[i] = importer_le64(r + 24 + 8 * i);
	k->stream = importer_le16(r + at);
	k->task = importer_le16(r + at + 2);
	k->turn = r[at + 6];
}

/*
 * The stream and task of an AI CPU record's stream field S and task field
 * T, read from A. Off chip V6 they are unpacked as a run's; where that
 * keeps the task field as it is, all 32 bits of a wider one are kept, as
 * the vendor's rules do. On chip V6, as the vendor: the task is T, or
 * with MERGE T << 16 | S; with LOOKUP the stream is the host task's of
 * that id, else S.
 */
void
prof_aicpu_ids(const struct prof_aicpus *a, bool merge, bool lookup,
    uint16_t s, uint32_t t, uint32_t *stream, uint32_t *task)
{
	uint64_t	 v;

	if (a->v6 != NULL) {
		*task = merge ? (uint32_t)(t << 16 | s) : t;
		*stream = lookup && util_map_get(a->v6, *task, &v) ?
		    (uint32_t)v : s;
		return;
	}
	dev_stars_unpack(s, (uint16_t)t, 1, a->expand, stream, task);
	if (a->expand ? (s & 0x8000) == 0 : (s & 0x3000) == 0)
		*task = t;
}

/*
 * Keep model-with-queue record R, read from ST, for the step trace
 * (prof-step.c): its points 0 to 4, the ones the step trace uses.
 */
static void
prof_aicpu_step(struct prof_aicpus *a, const struct prof_stream *st,
    const unsigned char *r)
{
	struct prof_aicpu_step	*e;

	if (importer_le16(r + 36) > PROF_AICPU_STEP_MAX)
		return;
	if (a->npaths == 0 || strcmp(a->paths[a->npaths - 1], st->path) != 0) {
		a->paths = util_grow(a->paths, a->npaths, 1, sizeof *a->paths);
		a->paths[a->npaths++] = xstrdup(st->path);
	}
	a->steps = util_grow(a->steps, a->nsteps, 1, sizeof *a->steps);
	e = &a->steps[a->nsteps++];
	e->ts = importer_le64(r + 16);
	e->index = importer_le64(r + 24);
	e->model = importer_le32(r + 32);
	e->tag = importer_le16(r + 36);
	e->path = a->paths[a->npaths - 1];
	e->offset = st->offset;
}

/* True if R starts with the records' magic (prof_slices_open_lined). */
static bool
prof_aicpu_ok(const unsigned char *r, const unsigned char *prev,
    void *arg)
{
	(void)prev;
	(void)arg;
	return importer_le16(r) == PROF_RECORD_MAGIC;
}

/*
 * Read the aicpu.data records of device data directory DATA into A,
 * sorted by start, indexed by stream and task, and its data
 * preprocessing and queue wait records in file order. EXPAND: the streams
 * were expanded (section 4.2). Records of other kinds, and runs without a
 * start or an end, are counted in one warning each; a stream cut at its
 * end is read from its first byte (prof_slices_open_lined).
 */
void
prof_aicpu_read(struct store *s, const char *data, bool expand,
    struct prof_aicpus *a)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	const unsigned char	*r;
	const char		*path = NULL;
	size_t			 other = 0, open = 0, i;
	uint64_t		 v;
	uint32_t		 kind;

	memset(a, 0, sizeof *a);
	a->expand = expand;
	util_map_init(&a->index);
	prof_slices_list(data, "aicpu.data", false, &f);
	a->bytes = f.total;
	if (f.n == 0) {
		prof_slices_release(&f);
		return;
	}
	prof_slices_open_lined(&st, s, &f, PROF_AICPU_SIZE, prof_aicpu_ok,
	    NULL, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		path = st.path;
		kind = importer_le32(r + 4);
		if (importer_le16(r + 2) != PROF_AICPU_LEVEL)
			kind = UINT32_MAX;
		switch (kind) {
		case PROF_AICPU_NODE:
			if (importer_le64(r + 40) == 0 ||
			    importer_le64(r + 80) == 0)
				open++;
			else
				prof_aicpu_node(a, r, expand);
			break;
		case PROF_AICPU_DP:
			prof_aicpu_dp(a, r);
			break;
		case PROF_AICPU_MODEL:
			prof_aicpu_step(a, &st, r);
			break;
		case PROF_AICPU_MI:
			prof_aicpu_mi(a, r);
			break;
		case PROF_AICPU_KFC_COMM:
		case PROF_AICPU_KFC_COMPUTE:
			prof_aicpu_kfc(a, r, kind, st.path);
			break;
		case PROF_AICPU_HCCL_OP:
		case PROF_AICPU_FLIP:
		case PROF_AICPU_MASTER:
		case PROF_AICPU_KFC_INFO:
			prof_aicpu_comm_keep(a, r, kind);
			break;
		default:
			other++;
			break;
		}
	}
	/* The warnings name a file of the list: before it is freed. */
	if (other > 0)
		store_load_warning(s, path, -1, "%zu AI CPU record%s of an "
		    "unknown kind or level, not decoded", other, other == 1 ?
		    "" : "s");
	if (open > 0)
		store_load_warning(s, path, -1, "%zu AI CPU run%s without a "
		    "start or an end time, skipped as the vendor does", open,
		    open == 1 ? "" : "s");
	prof_slices_close(&st);
	prof_slices_release(&f);
	prof_sort(a->v, a->n, sizeof *a->v, prof_aicpu_cmp);
	/* Chain the runs of each key, in start order. */
	for (i = a->n; i-- > 0;) {
		a->v[i].same = util_map_get(&a->index, prof_aicpu_key(
		    a->v[i].stream, a->v[i].task), &v) ? v : 0;
		util_map_set(&a->index, prof_aicpu_key(a->v[i].stream,
		    a->v[i].task), i + 1);
	}
}

/*
 * The AI CPU task STREAM/TASK ran from START_NS to END_NS on the device
 * of A (M's times), as op NAME (NULL: none the vendor names): each run of
 * that task whose end falls in it, and that has no op yet, takes it.
 */
void
prof_aicpu_task(struct prof_aicpus *a, const struct prof_meta *m,
    uint32_t stream, uint32_t task, int64_t start_ns, int64_t end_ns,
    const char *name)
{
	struct prof_aicpu	*u;
	uint64_t		 j;
	int64_t			 t;

	if (!util_map_get(&a->index, prof_aicpu_key(stream, task), &j))
		return;
	for (; j != 0; j = u->same) {
		u = &a->v[j - 1];
		if (u->matched)
			continue;
		t = prof_meta_dev_ns(m, u->end);
		if (t < start_ns || t > end_ns)
			continue;
		u->matched = true;
		u->name = xstrdup(name != NULL ? name : "N/A");
	}
}

/* US microseconds as the vendor writes its float. */
static void
prof_aicpu_us(struct prof_row *row, double us)
{
	if (row->n >= PROF_ROW_MAX)
		return;
	util_fmt_pyfloat(row->buf[row->n], sizeof row->buf[row->n], us);
	row->cells[row->n] = row->buf[row->n];
	row->n++;
}

/* A's data preprocessing records and queue waits: tables dp, aicpu_mi. */
static void
prof_aicpu_queues(struct store *s, const struct prof_aicpus *a,
    const struct prof_meta *m, int64_t device, int64_t rank)
{
	static const char *const dp[] = { "Timestamp(us)", "Action",
	    "Source", "Cached Buffer Size" };
	static const char *const mi[] = { "Node Name", "Start Time(us)",
	    "End Time(us)", "Queue Size" };
	struct prof_row		 row;
	size_t			 i;

	memset(&row, 0, sizeof row);
	if (a->ndp > 0 && prof_extra_table_begin(s, "dp", device, rank, dp,
	    sizeof dp / sizeof dp[0])) {
		for (i = 0; i < a->ndp; i++) {
			/* The vendor takes the stamp for monotonic ns. */
			prof_extra_row_us(&row, a->dp[i].ts > INT64_MAX / 2 ?
			    NP_NA : (int64_t)a->dp[i].ts + m->local_off);
			prof_extra_row_str(&row, a->dp[i].action);
			prof_extra_row_str(&row, a->dp[i].source);
			prof_extra_row_u64(&row, a->dp[i].size);
			prof_extra_row_load(s, &row);
		}
	}
	if (a->nmi > 0 && prof_extra_table_begin(s, "aicpu_mi", device, rank,
	    mi, sizeof mi / sizeof mi[0])) {
		for (i = 0; i < a->nmi; i++) {
			prof_extra_row_str(&row, a->mi[i].tag == 1 ?
			    "GetNext_dequeue_wait" : "");
			prof_extra_row_u64(&row, a->mi[i].start);
			prof_extra_row_u64(&row, a->mi[i].end);
			prof_extra_row_u64(&row, a->mi[i].queue);
			prof_extra_row_load(s, &row);
		}
	}
}

/* The name of phase P of KFC turn K. */
static const char *
prof_aicpu_kfc_phase(const struct prof_aicpu_kfc *k, size_t p)
{
	return import_comm_kfc_phases[(k->nphase == IMPORT_COMM_KFC_SERVER ? 0 :
	    IMPORT_COMM_KFC_SERVER) + p];
}

/*
 * Phase P of KFC turn K as span A (its name in NAME): from the phase's
 * start to the next phase's, 0 long if that comes first, as the vendor
 * draws it. False if the start is 0 (never written) or either end is no
 * time a collection can have.
 */
static bool
prof_aicpu_kfc_span(const struct prof_aicpu_kfc *k, size_t p,
    const struct prof_meta *m, struct store_api *a, char *name, size_t size)
{
	int64_t	 dur = 0;

	if (k->t[p] == 0)
		return false;
	a->start_ns = prof_meta_dev_ns(m, k->t[p]);
	if (k->t[p + 1] > k->t[p])
		dur = prof_meta_dev_dur(m, k->t[p + 1] - k->t[p]);
	if (!prof_meta_sane(a->start_ns) || !prof_meta_sane(dur) ||
	    !prof_meta_sane(a->start_ns + dur))
		return false;
	a->end_ns = a->start_ns + dur;
	snprintf(name, size, "%s %u", prof_aicpu_kfc_phase(k, p), k->turn);
	return true;
}

/*
 * A's KFC turns of DEVICE (RANK): table kfc_turn, a row per phase, and the
 * phases as spans on a lane per stream. A phase whose start was never
 * written, or whose times are out of range, is counted in a warning.
 */
static void
prof_aicpu_kfc_load(struct store *s, const struct prof_aicpus *a,
    const struct prof_meta *m, int64_t device, int64_t rank)
{
	static const char *const cols[] = { "Device_id", "Stream ID",
	    "Task ID", "Turn", "Phase", "Start Time(us)", "Duration(us)" };
	const struct prof_aicpu_kfc	*k;
	struct store_api		 sp;
	struct prof_row			 row;
	struct util_map			 lanes;
	char				 name[48], args[96], lane[48];
	size_t				 i, p, unset = 0;
	uint32_t			 stream, task;
	uint64_t			 v;

	if (a->nkfc == 0 || !prof_extra_table_begin(s, "kfc_turn", device,
	    rank, cols, sizeof cols / sizeof cols[0]))
		return;
	memset(&row, 0, sizeof row);
	util_map_init(&lanes);
	store_load_api_init(&sp, 0, 0, 0, "kfc", name);
	sp.device = device;
	sp.rank = rank;
	sp.pid = device;
	sp.args = args;
	for (i = 0; i < a->nkfc; i++) {
		k = &a->kfc[i];
		prof_aicpu_ids(a, true, true, k->stream, k->task, &stream,
		    &task);
		for (p = 0; p < k->nphase; p++) {
			if (!prof_aicpu_kfc_span(k, p, m, &sp, name,
			    sizeof name)) {
				unset++;
				continue;
			}
			if (!util_map_get(&lanes, stream, &v)) {
				util_map_set(&lanes, stream, 1);
				snprintf(lane, sizeof lane, "Stream %u KFC",
				    stream);
				store_trace_load_lane(s, device, rank, device,
				    stream, "name", lane);
			}
			sp.tid = stream;
			/*
			 * Server turns on the lane's first row, compute
			 * turns on the second: they overlap, and neither
			 * holds the other.
			 */
			sp.depth = k->nphase == IMPORT_COMM_KFC_SERVER ? 0 : 1;
			snprintf(args, sizeof args, "{\"Physic Stream Id\":%u,"
			    "\"Task Id\":%u}", stream, task);
			store_load_api(s, &sp);
			prof_extra_row_u64(&row, (uint64_t)device);
			prof_extra_row_u64(&row, stream);
			prof_extra_row_u64(&row, task);
			prof_extra_row_u64(&row, k->turn);
			prof_extra_row_str(&row, prof_aicpu_kfc_phase(k, p));
			prof_extra_row_us(&row, sp.start_ns);
			prof_extra_row_us(&row, sp.end_ns - sp.start_ns);
			prof_extra_row_load(s, &row);
		}
	}
	util_map_release(&lanes);
	if (unset > 0)
		store_load_warning(s, a->kfc_path, -1, "%zu KFC turn phase%s "
		    "without a start time, or with a time out of range, left "
		    "out", unset, unset == 1 ? "" : "s");
}

/*
 * Write A's runs of DEVICE (RANK), but those that started before the
 * collection, as table aicpu; and its tables dp and aicpu_mi.
 */
void
prof_aicpu_load(struct store *s, const struct prof_aicpus *a,
    const struct prof_meta *m, int64_t device, int64_t rank)
{
	static const char *const cols[] = { "Device_id", "Timestamp(us)",
	    "Node", "Compute_time(us)", "Memcpy_time(us)", "Task_time(us)",
	    "Dispatch_time(us)", "Total_time(us)", "Stream ID", "Task ID" };
	const struct prof_aicpu	*u;
	struct prof_row		 row;
	int64_t			 begin = prof_meta_begin_ns(m), start;
	size_t			 i;
	bool			 begun = false;

	prof_aicpu_queues(s, a, m, device, rank);
	prof_aicpu_kfc_load(s, a, m, device, rank);
	memset(&row, 0, sizeof row);
	for (i = 0; i < a->n; i++) {
		u = &a->v[i];
		start = prof_meta_dev_ns(m, u->start);
		if (start < begin)
			continue;
		if (!begun && !(begun = prof_extra_table_begin(s, "aicpu",
		    device, rank, cols, sizeof cols / sizeof cols[0])))
			return;
		prof_extra_row_u64(&row, (uint64_t)device);
		prof_extra_row_us(&row, start);
		prof_extra_row_str(&row, u->name != NULL ? u->name : "N/A");
		prof_aicpu_us(&row, (double)u->compute_us);
		prof_aicpu_us(&row, (double)u->memcpy_us);
		prof_aicpu_us(&row, (double)prof_meta_dev_dur(m,
		    u->end - u->start) / 1000.0);
		prof_aicpu_us(&row, (double)u->dispatch_us);
		prof_aicpu_us(&row, (double)prof_meta_dev_dur(m, u->total) /
		    1000.0);
		prof_extra_row_u64(&row, u->stream);
		prof_extra_row_u64(&row, u->task);
		prof_extra_row_load(s, &row);
	}
}

void
prof_aicpu_release(struct prof_aicpus *a)
{
	size_t	 i;

	for (i = 0; i < a->n; i++)
		free(a->v[i].name);
	free(a->v);
	free(a->dp);
	free(a->mi);
	free(a->kfc);
	free(a->kfc_path);
	free(a->comm);
	free(a->steps);
	util_strv_free(a->paths, a->npaths);
	util_map_release(&a->index);
	if (a->v6 != NULL)
		util_map_release(&a->v6_map);
	memset(a, 0, sizeof *a);
}
