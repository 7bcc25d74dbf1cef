/*
 * Span nesting as the spans load. Most files give the spans of a thread
 * in time order, outer span first; for those the depth and parent that
 * the commit's walk (store-nest.c) would work out are known the moment a
 * span comes, and are written with it, so the commit rewrites no row.
 * Each group the walk keeps its own stack for (thread, rank, and the
 * device and process of device spans) is followed here the same way.
 * The first span of a group that comes out of the walk's order (earlier
 * start, or the same start and a later end) gives the group up: the rows
 * it was given a depth on lose it again, and the walk nests the whole
 * group at the commit as before. So the result never depends on the order
 * of the file, only the time it takes does. A rank whose host spans are
 * nested again (store_nest_live_again()) leaves every host span of it,
 * of this file or a later one, to the walk.
 *
 * The spans of a group given up are kept here (start, end, row id) as
 * they load, up to NEST_KEEP in all: when every span the commit has to
 * nest is one of them, it nests them from memory (store_nest_live_walk())
 * in the walk's order, without the index api_start or a read of the
 * table; a trace in torch_npu's order, whose ops come by their end, gives
 * up every group. Past NEST_KEEP the walk reads them from the index.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/*
 * Spans of groups given up kept for the commit, in all: 96 MB of spans
 * (up to twice that in arrays that grow by doubling), or
 * NPUPROF_NEST_KEEP if it is a number (for tests).
 */
#define NEST_KEEP	(1 << 22)

/* A span of a group given up, as the walk reads it from api_start. */
struct nest_span {
	int64_t	 start;
	int64_t	 end;
	int64_t	 id;
};

/* A group of spans followed as they load. */
struct nest_lane {
	int64_t			 tid;
	struct nest_group	 g;		/* its key and open spans */
	int64_t			 start;		/* of the last span */
	int64_t			 end;
	int64_t			*ids;		/* the rows given a depth */
	size_t			 nids;
	struct nest_span	*kept;		/* given up: its spans */
	size_t			 nkept;
	bool			 given_up;	/* left to the walk */
};

struct nest_live {
	struct nest_lane	*lane;
	size_t			 n;
	struct util_map		 map;		/* key hash -> lane */
	size_t			 last;		/* the lane used last */
	sqlite3_stmt		*forget;	/* a row's depth unset */
	sqlite3_stmt		*times;		/* a row's start and end */
	int64_t			*again;		/* ranks nested again */
	size_t			 nagain;
	size_t			 nkept;		/* in all lanes */
	size_t			 keep;		/* at most */
	bool			 unkept;	/* past it */
};

/*
 * Close the spans of G that end before END, where a span ending at END
 * starts next; return the depth it takes and set *PARENT to the span that
 * holds it (NP_NA for none).
 */
int64_t
store_nest_live_close(struct nest_group *g, int64_t end,
    int64_t *parent)
{
	while (g->n > 0 && g->open[g->n - 1].end < end)
		g->n--;
	*parent = g->n > 0 ? g->open[g->n - 1].id : NP_NA;
	return (int64_t)g->n;
}

/* Open span ID ending at END in G, after store_nest_live_close(). */
void
store_nest_live_open(struct nest_group *g, int64_t id, int64_t end)
{
	/* A stack: its depth falls, so util_grow() cannot size it. */
	if (g->n == g->size) {
		g->size = g->size == 0 ? 16 : g->size * 2;
		g->open = xreallocarray(g->open, g->size, sizeof *g->open);
	}
	g->open[g->n].id = id;
	g->open[g->n++].end = end;
}

/* The key of a span's group, as store_nest_group() makes it. */
static void
store_nest_live_key(const struct store_api *a, struct nest_lane *k)
{
	memset(k, 0, sizeof *k);
	k->tid = a->tid;
	k->g.rank = a->rank;
	k->g.device = a->device;
	k->g.pid = a->pid;
	if (a->device == NP_HOST_DEVICE)
		k->g.device = k->g.pid = NP_NA;
}

static bool
store_nest_live_same(const struct nest_lane *x, const struct nest_lane *y)
{
	return x->tid == y->tid && x->g.rank == y->g.rank &&
	    x->g.device == y->g.device && x->g.pid == y->g.pid;
}

struct nest_live_probe {
	const struct nest_live	*l;
	const struct nest_lane	*key;
};

static bool
store_nest_live_probe(const void *arg, uint64_t v)
{
	const struct nest_live_probe	*p = arg;

	return store_nest_live_same(&p->l->lane[v], p->key);
}

static uint64_t
store_nest_live_hash(const struct nest_lane *key)
{
	return (uint64_t)key->tid * 0x9e3779b97f4a7c15ULL ^
	    (uint64_t)key->g.rank * 0xc2b2ae3d27d4eb4fULL ^
	    (uint64_t)key->g.device * 0x165667b19e3779f9ULL ^
	    (uint64_t)key->g.pid;
}

/*
 * The index of the lane of KEY into *V, or false with *H the free key of
 * the map a new lane takes.
 */
static bool
store_nest_live_find(const struct nest_live *l, const struct nest_lane *key,
    uint64_t *h, uint64_t *v)
{
	struct nest_live_probe	 p = { l, key };

	*h = store_nest_live_hash(key);
	return util_map_probe(&l->map, h, store_nest_live_probe, &p, v);
}

/* The lane of KEY, made if new. */
static struct nest_lane *
store_nest_live_lane(struct nest_live *l, const struct nest_lane *key)
{
	uint64_t	 h, v;

	if (l->n > 0 && store_nest_live_same(&l->lane[l->last], key))
		return &l->lane[l->last];
	if (!store_nest_live_find(l, key, &h, &v)) {
		l->lane = util_grow(l->lane, l->n, 1, sizeof *l->lane);
		v = l->n++;
		l->lane[v] = *key;
		util_map_set(&l->map, h, v);
	}
	l->last = (size_t)v;
	return &l->lane[v];
}

/* Keep span ID of lane LN, from START to END, for the commit. */
static void
store_nest_live_keep(struct nest_live *l, struct nest_lane *ln,
    int64_t start, int64_t end, int64_t id)
{
	size_t	 i;

	if (l->unkept)
		return;
	if (l->nkept == l->keep) {
		/* Too many: the walk reads them all from the index. */
		for (i = 0; i < l->n; i++) {
			free(l->lane[i].kept);
			l->lane[i].kept = NULL;
			l->lane[i].nkept = 0;
		}
		l->unkept = true;
		return;
	}
	ln->kept = util_grow(ln->kept, ln->nkept, 1, sizeof *ln->kept);
	ln->kept[ln->nkept].start = start;
	ln->kept[ln->nkept].end = end;
	ln->kept[ln->nkept++].id = id;
	l->nkept++;
}

/*
 * Leave lane LN to the walk: its rows given a depth lose it again, and
 * are kept with their times, read back, for the commit.
 */
static void
store_nest_live_give_up(struct store *s, struct nest_lane *ln)
{
	struct nest_live	*l = s->live;
	size_t			 i;

	if (ln->given_up)
		return;
	ln->given_up = true;
	if (ln->nids > 0 && l->forget == NULL && (store_load_prepare(s,
	    &l->forget, "UPDATE api SET depth = NULL, parent = NULL"
	    " WHERE id = ?1") != 0 || store_load_prepare(s, &l->times,
	    "SELECT start_ns, end_ns FROM api WHERE id = ?1") != 0))
		return;
	for (i = 0; i < ln->nids; i++) {
		sqlite3_bind_int64(l->forget, 1, ln->ids[i]);
		store_write(s, l->forget);
		if (l->unkept)
			continue;	/* the index walk nests them */
		sqlite3_bind_int64(l->times, 1, ln->ids[i]);
		if (store_read(s, l->times))
			store_nest_live_keep(l, ln,
			    store_iter_i64(l->times, 0),
			    store_iter_i64(l->times, 1), ln->ids[i]);
		else
			l->unkept = true;
		sqlite3_reset(l->times);
	}
	s->nest_todo += (int64_t)ln->nids;
	s->nest_done -= (int64_t)ln->nids;
	free(ln->ids);
	free(ln->g.open);
	ln->ids = NULL;
	ln->g.open = NULL;
	ln->nids = ln->g.n = ln->g.size = 0;
}

static void
store_nest_live_make(struct store *s)
{
	if (s->live != NULL)
		return;
	s->live = xcalloc(1, sizeof *s->live);
	util_map_init(&s->live->map);
	s->live->keep = (size_t)util_env_count("NPUPROF_NEST_KEEP", NEST_KEEP,
	    0);
}

/* Whether RANK's host spans are all left to the walk. */
static bool
store_nest_live_nested_again(const struct nest_live *l, int64_t rank)
{
	size_t	 i;

	for (i = 0; i < l->nagain; i++)
		if (l->again[i] == rank)
			return true;
	return false;
}

/*
 * Span A, loaded without a depth, is about to be written: if its group
 * still nests as it loads, set *DEPTH and *PARENT. Set *LANE to its
 * group's, or SIZE_MAX for none; call store_nest_live_end() with its row
 * id once it is written when there is one.
 */
void
store_nest_live_begin(struct store *s, const struct store_api *a,
    int64_t *depth, int64_t *parent, size_t *lane)
{
	struct nest_lane	 key, *ln;

	*lane = SIZE_MAX;
	store_nest_live_make(s);
	store_nest_live_key(a, &key);
	if (key.g.device == NP_NA && key.g.pid == NP_NA &&
	    store_nest_live_nested_again(s->live, key.g.rank))
		return;
	ln = store_nest_live_lane(s->live, &key);
	*lane = (size_t)(ln - s->live->lane);
	if (ln->given_up)
		return;
	if (ln->nids > 0 && (a->start_ns < ln->start ||
	    (a->start_ns == ln->start && a->end_ns > ln->end))) {
		store_nest_live_give_up(s, ln);
		return;
	}
	ln->start = a->start_ns;
	ln->end = a->end_ns;
	*depth = store_nest_live_close(&ln->g, a->end_ns, parent);
}

/* Span ID of LANE, from START to END, is written. */
void
store_nest_live_end(struct store *s, size_t lane, int64_t id, int64_t start,
    int64_t end)
{
	struct nest_lane	*ln = &s->live->lane[lane];

	if (ln->given_up) {
		store_nest_live_keep(s->live, ln, start, end, id);
		return;
	}
	store_nest_live_open(&ln->g, id, end);
	ln->ids = util_grow(ln->ids, ln->nids, 1, sizeof *ln->ids);
	ln->ids[ln->nids++] = id;
}

/*
 * True if the spans of thread TID in group G all nested as they loaded, so
 * that the walk has none of them to do.
 */
bool
store_nest_live_owns(struct store *s, int64_t tid, const struct nest_group *g)
{
	struct nest_lane	 key;
	uint64_t		 h, v;

	if (s->live == NULL)
		return false;
	memset(&key, 0, sizeof key);
	key.tid = tid;
	key.g.rank = g->rank;
	key.g.device = g->device;
	key.g.pid = g->pid;
	return store_nest_live_find(s->live, &key, &h, &v) &&
	    !s->live->lane[v].given_up;
}

/*
 * Let the commit nest RANK's host spans again, all of them, by time on
 * their thread: for a framework's spans loaded beside CANN's, whose own
 * records gave CANN's spans a nesting of their own (a raw MindSpore
 * profile, whose analysed trace nests them together). Spans of the rank
 * loaded from here on are left to the walk too.
 */
void
store_nest_live_again(struct store *s, int64_t rank)
{
	sqlite3_stmt	*stmt;
	size_t		 i;
	int64_t		 n;

	store_nest_live_make(s);
	if (!store_nest_live_nested_again(s->live, rank)) {
		s->live->again = util_grow(s->live->again, s->live->nagain, 1,
		    sizeof *s->live->again);
		s->live->again[s->live->nagain++] = rank;
	}
	for (i = 0; i < s->live->n; i++) {
		if (s->live->lane[i].g.rank == rank &&
		    s->live->lane[i].g.device == NP_NA &&
		    s->live->lane[i].g.pid == NP_NA)
			store_nest_live_give_up(s, &s->live->lane[i]);
	}
	if (store_load_prepare(s, &stmt, "UPDATE api SET depth = NULL,"
	    " parent = NULL WHERE device = ?1 AND rank IS ?2 AND depth IS"
	    " NOT NULL") != 0)
		return;
	sqlite3_bind_int64(stmt, 1, NP_HOST_DEVICE);
	store_load_bind_i64(stmt, 2, rank);
	store_write(s, stmt);
	n = sqlite3_changes(s->db);
	sqlite3_finalize(stmt);
	s->nest_todo += n;
	s->nest_done -= n;
}

/* The walk's order of a group's spans: by start, the longer first. */
static int
store_nest_live_cmp(const void *a, const void *b)
{
	const struct nest_span	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * True if the spans kept are all the commit has to nest: every span
 * loaded without a depth, and none past NEST_KEEP.
 */
bool
store_nest_live_kept(const struct store *s)
{
	return s->live != NULL && !s->live->unkept &&
	    (int64_t)s->live->nkept == s->nest_todo;
}

/* The lowest and highest row id of the spans kept into *LO and *HI. */
void
store_nest_live_ids(const struct store *s, int64_t *lo, int64_t *hi)
{
	const struct nest_lane	*ln;
	size_t			 i, j;

	*lo = INT64_MAX;
	*hi = INT64_MIN;
	for (i = 0; s->live != NULL && i < s->live->n; i++) {
		ln = &s->live->lane[i];
		for (j = 0; j < ln->nkept; j++) {
			if (ln->kept[j].id < *lo)
				*lo = ln->kept[j].id;
			if (ln->kept[j].id > *hi)
				*hi = ln->kept[j].id;
		}
	}
}

/*
 * Nest the spans kept, group by group in the walk's order, handing PUT
 * the depth and parent of each; the kept spans are freed.
 */
void
store_nest_live_walk(struct store *s, store_nest_put_fn put, void *arg)
{
	struct nest_lane	*ln;
	struct nest_span	*sp;
	int64_t			 depth, parent;
	size_t			 i, j;

	for (i = 0; i < s->live->n; i++) {
		ln = &s->live->lane[i];
		if (ln->nkept == 0)
			continue;
		qsort(ln->kept, ln->nkept, sizeof *ln->kept,
		    store_nest_live_cmp);
		ln->g.n = 0;
		for (j = 0; j < ln->nkept; j++) {
			sp = &ln->kept[j];
			depth = store_nest_live_close(&ln->g, sp->end, &parent);
			store_nest_live_open(&ln->g, sp->id, sp->end);
			put(arg, sp->id, depth, parent);
		}
		free(ln->kept);
		ln->kept = NULL;
		ln->nkept = 0;
	}
}

void
store_nest_live_free(struct store *s)
{
	struct nest_live	*l = s->live;
	size_t			 i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->lane[i].ids);
		free(l->lane[i].kept);
		free(l->lane[i].g.open);
	}
	free(l->lane);
	free(l->again);
	util_map_release(&l->map);
	sqlite3_finalize(l->forget);
	sqlite3_finalize(l->times);
	free(l);
	s->live = NULL;
}
