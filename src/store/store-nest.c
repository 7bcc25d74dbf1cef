/*
 * Span nesting: every API span loaded without a depth (chrome traces, the
 * vendor's databases, legacy JOBs; a raw profile's host spans beside a
 * framework's) gets its depth and the row id of its parent, the innermost
 * span of the same thread that holds it, as the raw PROF path records
 * them while it decodes. Host spans of one rank nest by
 * thread id alone: a chrome trace puts one thread's Python and CANN spans
 * in different pseudo-processes, and a Python op does hold the CANN calls
 * it makes. Device spans (HCCL planes, hardware streams) nest within their
 * own process and thread. Ties go as the stacks walk breaks them: the
 * earlier start, then the longer span, then the lower row id is outside.
 *
 * The walk reads the spans in thread and time order from the index
 * api_start, which holds every column it needs, so it neither sorts nor
 * reads the wide span rows. What it works out is written back in batches
 * sorted by row id, each by one UPDATE that passes over the batch's range
 * of rows in order and takes a row's values from the batch (np_nest()):
 * in thread order the rows of a trace whose threads interleave are met at
 * random, and an UPDATE of one row at a time costs a search of the table
 * for each (a batch spread thin over the table is still written so).
 * Groups whose spans loaded in the walk's order were nested as they
 * loaded (store-nest-live.c); the walk passes over them. When the spans
 * of the other groups were all kept in memory as they loaded, they are
 * nested from there in the same order and written back the same way,
 * and neither the index nor the table is read.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The depth and parent worked out for one span, not yet written. */
struct nest_set {
	int64_t	 id;
	int64_t	 depth;
	int64_t	 parent;
};

/* Spans written back at a time: 24 MB. */
#define NEST_BATCH	(1 << 20)

struct nest_walk {
	struct nest_group	*g;
	size_t			 ng;
	struct nest_set		*set;
	size_t			 nset;
	size_t			 cap;		/* of set: a batch at most */
	size_t			 at;		/* store_nest_find() was here */
	bool			 live;		/* groups nested as loaded */
	int64_t			 lo;		/* dense: set[id - lo] */
	bool			 dense;
};

static int64_t
store_nest_i64(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, col);
}

/*
 * The group of RANK, DEVICE, PID on thread TID, made if new; owned if its
 * spans nested as they loaded and the walk reads them all (W->live).
 */
static struct nest_group *
store_nest_group(struct store *s, struct nest_walk *w, int64_t tid,
    int64_t rank, int64_t device, int64_t pid)
{
	struct nest_group	*g;
	size_t			 i;

	if (device == NP_HOST_DEVICE)
		device = pid = NP_NA;
	for (i = 0; i < w->ng; i++) {
		g = &w->g[i];
		if (g->rank == rank && g->device == device && g->pid == pid)
			return g;
	}
	w->g = util_grow(w->g, w->ng, 1, sizeof *w->g);
	g = &w->g[w->ng++];
	memset(g, 0, sizeof *g);
	g->rank = rank;
	g->device = device;
	g->pid = pid;
	g->owned = w->live && store_nest_live_owns(s, tid, g);
	return g;
}

/* A new thread: no group has an open span. */
static void
store_nest_reset(struct nest_walk *w)
{
	size_t	 i;

	for (i = 0; i < w->ng; i++)
		free(w->g[i].open);
	w->ng = 0;
}

static int
store_nest_set_cmp(const void *a, const void *b)
{
	const struct nest_set	*x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The span ID of W's batch (sorted by id), or NULL. The UPDATE asks for
 * its rows in id order, so the search starts where the last one ended.
 */
static const struct nest_set *
store_nest_find(struct nest_walk *w, int64_t id)
{
	size_t	 lo = 0, hi = w->nset, mid;

	if (w->dense) {
		if (id < w->lo || (uint64_t)(id - w->lo) >= w->cap ||
		    w->set[id - w->lo].id != id)
			return NULL;
		return &w->set[id - w->lo];
	}
	if (w->at < w->nset && w->set[w->at].id <= id) {
		while (w->at < w->nset && w->set[w->at].id < id)
			w->at++;
		return w->at < w->nset && w->set[w->at].id == id ?
		    &w->set[w->at] : NULL;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->set[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	w->at = lo;
	return lo < w->nset && w->set[lo].id == id ? &w->set[lo] : NULL;
}

/*
 * SQL np_nest(ID, WHAT): of span ID in the batch, whether it is there
 * (WHAT 0), its depth (1) or its parent (2, NULL for none).
 */
static void
store_nest_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct nest_walk	*w = sqlite3_user_data(ctx);
	const struct nest_set	*e;

	(void)argc;
	e = store_nest_find(w, sqlite3_value_int64(argv[0]));
	switch (sqlite3_value_int(argv[1])) {
	case 0:
		sqlite3_result_int(ctx, e != NULL);
		break;
	case 1:
		if (e != NULL)
			sqlite3_result_int64(ctx, e->depth);
		break;
	default:
		if (e != NULL && e->parent != NP_NA)
			sqlite3_result_int64(ctx, e->parent);
		break;
	}
}

/*
 * Write the batch of W back with UPD, in row order, and empty it: by one
 * pass over its range of rows when it holds most of them, else row by
 * row (a batch of a trace too big for one spreads over the table).
 */
static void
store_nest_flush(struct store *s, struct nest_walk *w, sqlite3_stmt *upd)
{
	int64_t	 lo, hi;
	size_t	 i;

	if (w->nset == 0)
		return;
	if (w->dense) {
		sqlite3_bind_int64(upd, 1, w->lo);
		sqlite3_bind_int64(upd, 2, w->lo + (int64_t)w->cap - 1);
		store_write(s, upd);
		w->nset = 0;
		return;
	}
	qsort(w->set, w->nset, sizeof *w->set, store_nest_set_cmp);
	w->at = 0;
	lo = w->set[0].id;
	hi = w->set[w->nset - 1].id;
	if ((uint64_t)(hi - lo) / 4 < w->nset) {
		sqlite3_bind_int64(upd, 1, lo);
		sqlite3_bind_int64(upd, 2, hi);
		store_write(s, upd);
	} else {
		for (i = 0; i < w->nset; i++) {
			sqlite3_bind_int64(upd, 1, w->set[i].id);
			sqlite3_bind_int64(upd, 2, w->set[i].id);
			store_write(s, upd);
		}
	}
	w->nset = 0;
}

/*
 * Make ready to write the nesting of W back: SQL np_nest() and its UPDATE
 * into *UPD, a batch. On failure return -1 and set *cause.
 */
static int
store_nest_begin(struct store *s, struct nest_walk *w, sqlite3_stmt **upd,
    char **cause)
{
	memset(w, 0, sizeof *w);
	if (sqlite3_create_function(s->db, "np_nest", 2, SQLITE_UTF8, w,
	    store_nest_fn, NULL, NULL) != SQLITE_OK) {
		xasprintf(cause, "cannot nest spans: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	if (store_prepare(s, upd, "UPDATE api SET depth = np_nest(id, 1),"
	    " parent = np_nest(id, 2) WHERE id BETWEEN ?1 AND ?2 AND"
	    " np_nest(id, 0)", cause) != 0) {
		sqlite3_create_function(s->db, "np_nest", 2, SQLITE_UTF8, NULL,
		    NULL, NULL, NULL);
		return -1;
	}
	w->cap = s->nest_todo > 0 && s->nest_todo < NEST_BATCH ?
	    (size_t)s->nest_todo : NEST_BATCH;
	w->set = xreallocarray(NULL, w->cap, sizeof *w->set);
	return 0;
}

/* Write what is left of W's batch and let go of it. */
static void
store_nest_end(struct store *s, struct nest_walk *w, sqlite3_stmt *upd)
{
	store_nest_flush(s, w, upd);
	store_nest_reset(w);
	free(w->set);
	free(w->g);
	sqlite3_finalize(upd);
	sqlite3_create_function(s->db, "np_nest", 2, SQLITE_UTF8, NULL, NULL,
	    NULL, NULL);
}

/*
 * Add span ID's DEPTH and PARENT to W's batch, written when it is full (a
 * dense batch holds every span to nest, by row id).
 */
static void
store_nest_add(struct store *s, struct nest_walk *w, sqlite3_stmt *upd,
    int64_t id, int64_t depth, int64_t parent)
{
	struct nest_set	*e;

	if (w->dense) {
		e = &w->set[id - w->lo];
		w->nset++;
	} else
		e = &w->set[w->nset++];
	e->id = id;
	e->depth = depth;
	e->parent = parent;
	if (!w->dense && w->nset == w->cap)
		store_nest_flush(s, w, upd);
}

/*
 * Set the nesting of the spans that have none. When no span came with a
 * depth the walk needs nothing but the index. On failure return -1 and set
 * *cause.
 */
static int
store_nest_walk(struct store *s, char **cause)
{
	struct nest_walk	 w;
	struct nest_group	*g;
	sqlite3_stmt		*sel, *upd;
	int64_t			 tid, last = NP_NA, parent, depth, id;
	bool			 first = true;
	int			 rc;

	/*
	 * Spans given a depth by their importer are known by their depth
	 * alone, read from the table; spans nested as they loaded are known
	 * by their group, and the walk keeps to the index.
	 */
	if (store_prepare(s, &sel, s->nest_given > 0 ? "SELECT tid, id,"
	    " end_ns, rank, device, pid FROM api INDEXED BY api_start"
	    " WHERE depth IS NULL ORDER BY tid, start_ns, end_ns DESC, id" :
	    "SELECT tid, id, end_ns, rank, device, pid FROM api"
	    " INDEXED BY api_start ORDER BY tid, start_ns, end_ns DESC, id",
	    cause) != 0)
		return -1;
	if (store_nest_begin(s, &w, &upd, cause) != 0) {
		sqlite3_finalize(sel);
		return -1;
	}
	w.live = s->nest_given == 0 && s->nest_done > 0;
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		tid = store_nest_i64(sel, 0);
		if (first || tid != last)
			store_nest_reset(&w);
		first = false;
		last = tid;
		id = sqlite3_column_int64(sel, 1);
		g = store_nest_group(s, &w, tid, store_nest_i64(sel, 3),
		    store_nest_i64(sel, 4), store_nest_i64(sel, 5));
		if (g->owned)
			continue;
		depth = store_nest_live_close(g, sqlite3_column_int64(sel, 2),
		    &parent);
		store_nest_live_open(g, id, sqlite3_column_int64(sel, 2));
		store_nest_add(s, &w, upd, id, depth, parent);
	}
	store_nest_end(s, &w, upd);
	sqlite3_finalize(sel);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot nest spans: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/* What store_nest_kept() hands store_nest_live_walk(). */
struct nest_kept {
	struct store		*s;
	struct nest_walk	*w;
	sqlite3_stmt		*upd;
};

static void
store_nest_put(void *arg, int64_t id, int64_t depth, int64_t parent)
{
	struct nest_kept	*k = arg;

	store_nest_add(k->s, k->w, k->upd, id, depth, parent);
}

/*
 * Set the nesting of the spans that have none from the spans kept as they
 * loaded (store_nest_live_kept()). On failure return -1 and set *cause.
 */
static int
store_nest_kept(struct store *s, char **cause)
{
	struct nest_walk	 w;
	struct nest_kept	 k;

	int64_t			 lo, hi;

	if (store_nest_begin(s, &w, &k.upd, cause) != 0)
		return -1;
	/*
	 * Rows kept as they loaded are mostly one run of row ids: their
	 * nesting goes into an array by row id (48 MB at most), which
	 * neither the batch's sort nor its search then needs.
	 */
	store_nest_live_ids(s, &lo, &hi);
	if (hi >= lo && (uint64_t)(hi - lo) < 2 * (uint64_t)s->nest_todo &&
	    (uint64_t)(hi - lo) < 2 * NEST_BATCH) {
		free(w.set);
		w.cap = (size_t)(hi - lo) + 1;
		w.set = xcalloc(w.cap, sizeof *w.set);
		w.lo = lo;
		w.dense = true;
	}
	k.s = s;
	k.w = &w;
	store_nest_live_walk(s, store_nest_put, &k);
	store_nest_end(s, &w, k.upd);
	return 0;
}

/*
 * Set depth and parent of the spans that have none: from memory when they
 * were all kept as they loaded, else by the walk of the index api_start,
 * made here. On failure return -1 and set *cause.
 */
int
store_nest_spans(struct store *s, char **cause)
{
	int	 rc = 0;

	if (s->nest_todo > 0)
		store_load_progress(s, "nesting spans", NULL, 0, 0);
	if (s->nest_todo > 0 && store_nest_live_kept(s))
		rc = store_nest_kept(s, cause);
	else if (s->nest_todo > 0 &&
	    (rc = store_exec(s, STORE_API_START_SQL, cause)) == 0)
		rc = store_nest_walk(s, cause);
	store_nest_live_free(s);
	return rc;
}
