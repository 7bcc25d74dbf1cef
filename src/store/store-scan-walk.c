/*
 * A filter over an order already sorted. A sort in memory of ten million
 * tasks reads every row once (store-scan-sort.c); a filter typed next
 * would read them all again and sort what it kept, so its first page came
 * seconds later. Instead the sorted ids are kept (struct store_order, on
 * the UI's store) and the filter walks them in order: each id is looked up
 * and tested, and what matches is already in its final place, so the first
 * page is there after a few hundred lookups. A lookup costs ten times a
 * row read in sequence, so two more threads read the table in sequence
 * meanwhile (store-scan-bits.c) and mark the matching ids in a bitmap.
 * Once the walk has some screens of rows, or has looked long enough, it
 * waits for that bitmap, so as not to take a core from it, and tests the
 * rest of the ids against it. Clearing the filter brings the kept order
 * back without reading anything.
 *
 * With the rows' tuples read (store-scan-tuple.c) the walk tests each id
 * by its tuple; the sort that made the order, if the tuples were there
 * when it ended, also gave the order each position's tuple, an array read
 * in sequence, so that a filter whose rows lie far down the order (five
 * million ids into ten million) finds them in a few ms rather than tens.
 *
 * A view an index orders (its own order, the start time, the duration)
 * has its order for the reading: the index gives the ids in it about as
 * fast as the bitmap's readers go, and the same walk runs over them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store-int.h"

/* Walks that tested an order's positions' tuples (a count for tests). */
size_t	 store_scan_walk_by_positions;

/* How often the walk publishes what it found, in ids looked at. */
#define WALK_PUBLISH	1024

/*
 * The walk looks rows up until it has found WALK_AHEAD, some screens
 * ahead of the first, or has looked up WALK_LOOKUPS (a quarter of a
 * second): past that the bitmap, read ten times as fast a row, is the
 * quicker way to the first page (matches sorted far down the order), and
 * lookups would only take a core from its readers.
 */
#define WALK_AHEAD	512
#define WALK_LOOKUPS	65536

/* How far ahead of its tests the walk has rows fetched into the cache. */
#define WALK_PREFETCH	32

/* The walk's bound parameter: after any that the query itself binds. */
#define WALK_PARAM	30

struct store_order {
	const struct store_table *t;
	char			*sort;
	int64_t			 device;
	int64_t			 rank;
	int64_t			 step;
	int			 origin;
	int64_t			*ids;
	size_t			 n;
	int			 refs;		/* changed on the UI's thread */
	/*
	 * Each position's tuple, once a scan of the order has it: set once
	 * (the first of two scans to finish wins), read with an acquire.
	 */
	struct store_tord	*tord;
};

/* The tuple of each position of an order (store_scan_tuple_rows()). */
struct store_tord {
	uint64_t	 serial;	/* of the tuples it holds */
	uint32_t	 v[];
};

/* Whether O is the order of Q's rows of table T, filter aside. */
static bool
store_scan_walk_fits(const struct store_order *o, const struct store_table *t,
    const struct store_query *q)
{
	return o->t == t && q->sort != NULL && strcmp(o->sort, q->sort) == 0 &&
	    o->device == q->device && o->rank == q->rank &&
	    o->step == q->step && o->origin == q->origin &&
	    q->from_ns == NP_NA;
}

/*
 * Let the order kept on S go if a new query Q on its table T does not
 * fit it: the table is read again in another order, and two orders of
 * ten million ids would double the memory a sort needs. Called on the
 * UI's thread, for every new query.
 */
void
store_scan_walk_forget(struct store *s, const struct store_table *t,
    const struct store_query *q)
{
	struct store_sort_key	 k;

	if (s->order == NULL || s->order->t != t)
		return;
	if (store_sort_plan(t, q->sort, &k) && store_scan_walk_fits(s->order,
	    t, q))
		return;
	store_scan_walk_unref(s->order);
	s->order = NULL;
}

/*
 * The order kept on S for Q on T, with a reference the caller holds, or
 * NULL. Called on the UI's thread.
 */
struct store_order *
store_scan_walk_find(struct store *s, const struct store_table *t,
    const struct store_query *q)
{
	store_scan_walk_forget(s, t, q);
	if (s->order == NULL || s->order->t != t)
		return NULL;
	s->order->refs++;
	return s->order;
}

/*
 * Wrap the N sorted ids IDS of scan SC's unfiltered query (takes IDS) as
 * an order with one reference. Called by the scan's thread before the UI
 * can see the order.
 */
struct store_order *
store_scan_walk_order(const struct store_scan *sc, int64_t *ids, size_t n)
{
	struct store_order	*o;

	o = xcalloc(1, sizeof *o);
	o->t = sc->t;
	o->sort = xstrdup(sc->sort);
	o->device = sc->q.device;
	o->rank = sc->q.rank;
	o->step = sc->q.step;
	o->origin = sc->q.origin;
	o->ids = ids;
	o->n = n;
	o->refs = 1;
	return o;
}

/* Drop a reference to O; the last one frees it. */
void
store_scan_walk_unref(struct store_order *o)
{
	if (o == NULL || --o->refs > 0)
		return;
	free(o->tord);
	free(o->ids);
	free(o->sort);
	free(o);
}

/* Keep O on S for the next query (one order is kept, the latest). */
void
store_scan_walk_keep(struct store *s, struct store_order *o)
{
	if (s->order == o)
		return;
	store_scan_walk_unref(s->order);
	o->refs++;
	s->order = o;
}

/* Whether SC was abandoned (a new query, or the view closed). */
static bool
store_scan_walk_cancelled(struct store_scan *sc)
{
	bool	 cancel;

	pthread_mutex_lock(&sc->lock);
	cancel = sc->cancel;
	pthread_mutex_unlock(&sc->lock);
	return cancel;
}

/*
 * Wait until B is read; false if the scan was abandoned first. *READY
 * says whether the bitmap is whole.
 */
static bool
store_scan_walk_wait(struct store_scan *sc, struct store_scan_bits *b,
    bool *ready)
{
	struct timespec	 ts = { 0, 2000000 };
	bool		 cancel = false;

	while (!store_scan_bits_over(b, ready)) {
		pthread_mutex_lock(&sc->lock);
		cancel = sc->cancel;
		if (store_scan_bits_read_locked(b) > sc->scanned)
			sc->scanned = store_scan_bits_read_locked(b);
		pthread_mutex_unlock(&sc->lock);
		if (cancel)
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

/*
 * Move SC's pending ids to the found ones, which grow if they must (an
 * index may hold rows written after its size was read). The caller holds
 * SC's lock; the scan and the walk both publish this way.
 */
void
store_scan_walk_append_locked(struct store_scan *sc)
{
	if (sc->nids + sc->npend > sc->size) {
		sc->size = (sc->nids + sc->npend) * 2;
		sc->ids = xreallocarray(sc->ids, sc->size, sizeof *sc->ids);
	}
	if (sc->npend > 0)
		memcpy(sc->ids + sc->nids, sc->pend, sc->npend *
		    sizeof *sc->pend);
	sc->nids += sc->npend;
	sc->npend = 0;
}

/*
 * Publish the ids found since the last time, and how far the scan got:
 * the ids the walk looked at, or the rows B's readers did if more.
 */
static bool
store_scan_walk_publish(struct store_scan *sc, const struct store_scan_bits *b,
    size_t looked)
{
	int64_t	 read;
	bool	 cancel;

	pthread_mutex_lock(&sc->lock);
	read = store_scan_bits_read_locked(b);
	if (read < (int64_t)looked)
		read = (int64_t)looked;
	if (read > sc->scanned)
		sc->scanned = read;
	store_scan_walk_append_locked(sc);
	cancel = sc->cancel;
	pthread_mutex_unlock(&sc->lock);
	return !cancel;
}

/* SQL np_match() for the walk's lookups. */
static void
store_scan_walk_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	store_match_result(ctx, sqlite3_user_data(ctx), argc, argv);
}

/*
 * Where the walk's ids come from: the kept order, or an index read as it
 * goes ("SELECT t.id FROM task t ORDER BY" the index's columns), every
 * task row in the order the view's rows take.
 */
struct store_scan_walk_src {
	const int64_t	*ids;
	size_t		 n;
	sqlite3_stmt	*stmt;
	int		 rc;		/* the stream's last step */
};

/* The next id of SRC into *ID; false at its end. */
static bool
store_scan_walk_next(struct store_scan_walk_src *src, size_t i, int64_t *id)
{
	if (src->stmt == NULL) {
		if (i >= src->n)
			return false;
		*id = src->ids[i];
		return true;
	}
	if ((src->rc = sqlite3_step(src->stmt)) != SQLITE_ROW)
		return false;
	*id = sqlite3_column_int64(src->stmt, 0);
	return true;
}

/* Whether SC's query holds row ID: one lookup on the walk's statement. */
static int
store_scan_walk_lookup(struct store_scan *sc, sqlite3_stmt *stmt, int64_t id,
    char **cause)
{
	int	 rc;

	sqlite3_bind_int64(stmt, WALK_PARAM, id);
	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	xasprintf(cause, "cannot read %s: %s", sc->t->name,
	    sqlite3_errmsg(sc->ws->db));
	return -1;
}

/* The statement that looks one row up for SC's query; NULL on an error. */
static sqlite3_stmt *
store_scan_walk_prepare(struct store_scan *sc, struct matcher **m,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 binds[12];
	int		 nbinds, j, rc;
	char		 extra[32], *sql;

	snprintf(extra, sizeof extra, "t.id = ?%d", WALK_PARAM);
	if ((sql = store_query_keys_sql(sc->ws, sc->t, &sc->q, "t.id", extra,
	    binds, &nbinds, m, cause)) == NULL)
		return NULL;
	sqlite3_create_function(sc->ws->db, "np_match", -1, SQLITE_UTF8, *m,
	    store_scan_walk_match, NULL, NULL);
	rc = store_prepare(sc->ws, &stmt, sql, cause);
	free(sql);
	if (rc != 0)
		return NULL;
	for (j = 0; j < nbinds; j++)
		sqlite3_bind_int64(stmt, j + 1, binds[j]);
	return stmt;
}

/*
 * Look the ids of SRC up one by one, in order from position START,
 * until bitmap B is whole (B may be NULL); then test the rest against
 * it. Return how many were looked at (fewer than all if the scan was
 * abandoned), or -1 with *cause set.
 */
static int64_t
store_scan_walk_ids(struct store_scan *sc, struct store_scan_walk_src *src,
    struct store_scan_bits *b, size_t start, char **cause)
{
	sqlite3_stmt	*stmt;
	struct matcher	*m = NULL;
	int64_t		 id;
	size_t		 i;
	int		 hit;
	bool		 ready = false, waited = false, cancel;

	if ((stmt = store_scan_walk_prepare(sc, &m, cause)) == NULL) {
		matcher_free(m);
		return -1;
	}
	for (i = start; store_scan_walk_next(src, i, &id); i++) {
		if (!ready && b != NULL && i % 256 == 0)
			store_scan_bits_over(b, &ready);
		if (ready)
			hit = store_scan_bits_has(b, id);
		else if ((hit = store_scan_walk_lookup(sc, stmt, id,
		    cause)) < 0)
			break;
		if (hit)
			sc->pend[sc->npend++] = id;
		if ((i + 1) % WALK_PUBLISH == 0 &&
		    !store_scan_walk_publish(sc, b, i + 1))
			break;
		if (!ready && !waited && b != NULL &&
		    (sc->nids + sc->npend >= WALK_AHEAD ||
		    i + 1 >= WALK_LOOKUPS)) {
			waited = true;
			store_scan_walk_publish(sc, b, i + 1);
			if (!store_scan_walk_wait(sc, b, &ready))
				break;
		}
	}
	cancel = store_scan_walk_cancelled(sc);
	if (*cause == NULL && src->stmt != NULL && src->rc != SQLITE_ROW &&
	    src->rc != SQLITE_DONE && !cancel)
		xasprintf(cause, "cannot read %s: %s", sc->t->name,
		    sqlite3_errmsg(sc->ws->db));
	sqlite3_finalize(stmt);
	matcher_free(m);
	return *cause != NULL ? -1 : (int64_t)i;
}

/*
 * Room for ROOM found ids (pages never touched cost no memory) of TOTAL
 * to look at, unless SC has it already.
 */
static void
store_scan_walk_room(struct store_scan *sc, size_t room, int64_t total)
{
	if (sc->pend != NULL)
		return;
	pthread_mutex_lock(&sc->lock);
	sc->size = room > 0 ? room : 1;
	sc->ids = xreallocarray(NULL, sc->size, sizeof *sc->ids);
	sc->total = total;
	pthread_mutex_unlock(&sc->lock);
	sc->pend = xreallocarray(NULL, WALK_PUBLISH, sizeof *sc->pend);
}

/*
 * Walk SRC, TOTAL ids, from position START, with a bitmap of ids up to
 * MAXID read meanwhile; the found ids get room for ROOM.
 */
static int
store_scan_walk_with_bits(struct store_scan *sc,
    struct store_scan_walk_src *src, size_t room, int64_t total,
    int64_t maxid, size_t start, char **cause)
{
	struct store_scan_bits	*b;
	int64_t			 looked;

	store_scan_walk_room(sc, room, total);
	b = store_scan_bits_start(sc, maxid);
	looked = store_scan_walk_ids(sc, src, b, start, cause);
	store_scan_walk_publish(sc, b, looked < 0 ? 0 : (size_t)looked);
	store_scan_bits_free(b);
	return looked < 0 ? -1 : 0;
}

/*
 * The scan's tuples into *TU and the bitmap of those its filter matches
 * into *BITS, once they are there; if WAIT, wait for them. Return 0
 * (*BITS is NULL while they are read), or -1 if they were given up or
 * the scan was abandoned.
 */
static int
store_scan_walk_tuple_bits(struct store_scan *sc, bool wait,
    const struct store_tuples **tu, uint64_t **bits)
{
	struct timespec	 ts = { 0, 2000000 };
	int		 r;

	while ((r = store_scan_tuple_ready(sc->tuples, tu)) == 0 && wait) {
		if (store_scan_walk_cancelled(sc))
			return -1;
		nanosleep(&ts, NULL);
	}
	if (r > 0 && (*bits = store_scan_tuple_match(*tu, sc->ws->db,
	    sc->filter)) == NULL)
		r = -1;
	return r < 0 ? -1 : 0;
}

/*
 * The rest of the walk from position I, once BITS are there, over O's
 * positions' tuples TORD: a test of a word in order for each id, where
 * the walk by ids meets the rows array at random, so that filtered pages
 * far down a sorted order come at the speed of memory read in sequence.
 * Rows written since the tuples were read are looked up. Return where
 * the walk stopped, or -1 with *cause set.
 */
static int64_t
store_scan_walk_tord(struct store_scan *sc, const struct store_order *o,
    const uint32_t *tord, const uint64_t *bits, size_t i, char **cause)
{
	sqlite3_stmt	*stmt = NULL;
	struct matcher	*m = NULL;
	size_t		 end;
	uint32_t	 k;
	int		 hit;

	while (i < o->n) {
		end = (i / WALK_PUBLISH + 1) * WALK_PUBLISH;
		if (end > o->n)
			end = o->n;
		for (; i < end; i++) {
			if ((k = tord[i]) == 0)
				continue;
			if (k != TUPLE_UNREAD) {
				if (store_scan_tuple_bit(bits, k))
					sc->pend[sc->npend++] = o->ids[i];
				continue;
			}
			if (stmt == NULL && (stmt = store_scan_walk_prepare(sc,
			    &m, cause)) == NULL)
				goto out;
			if ((hit = store_scan_walk_lookup(sc, stmt, o->ids[i],
			    cause)) < 0)
				goto out;
			if (hit)
				sc->pend[sc->npend++] = o->ids[i];
		}
		if (!store_scan_walk_publish(sc, NULL, i))
			break;
	}
out:
	sqlite3_finalize(stmt);
	matcher_free(m);
	return *cause != NULL ? -1 : (int64_t)i;
}

/*
 * The positions' tuples of the order SRC walks, if SRC is SC's kept order
 * and they are those of TU; NULL otherwise.
 */
static const uint32_t *
store_scan_walk_tord_of(struct store_scan *sc,
    const struct store_scan_walk_src *src, const struct store_tuples *tu)
{
	const struct store_tord	*tord;

	if (src->stmt != NULL || sc->base == NULL || src->ids != sc->base->ids)
		return NULL;
	tord = __atomic_load_n(&sc->base->tord, __ATOMIC_ACQUIRE);
	if (tord == NULL || tord->serial != store_scan_tuple_serial(tu))
		return NULL;
	return tord->v;
}

/*
 * After scan SC sorted or walked its order, give the order each
 * position's tuple, for the filters that walk it next, if the rows'
 * tuples are read already (they are read after a view's first sort, in
 * about a second for ten million rows). Run by the scan's thread once
 * its rows are out, before it is done (some tens of ms for ten million
 * rows); stops if the scan is abandoned.
 */
void
store_scan_walk_tuples_of(struct store_scan *sc)
{
	const struct store_tuples	*tu;
	struct store_order		*o = sc->base;
	struct store_tord		*tord, *none = NULL;
	size_t				 i, n;
	bool				 cancel;

	if ((cancel = store_scan_walk_cancelled(sc)) || o == NULL ||
	    sc->tuples == NULL ||
	    __atomic_load_n(&o->tord, __ATOMIC_ACQUIRE) != NULL ||
	    store_scan_tuple_ready(sc->tuples, &tu) <= 0)
		return;
	tord = xmalloc(sizeof *tord + o->n * sizeof *tord->v);
	tord->serial = store_scan_tuple_serial(tu);
	for (i = 0; i < o->n && !cancel; i += n) {
		n = o->n - i < 65536 ? o->n - i : 65536;
		store_scan_tuple_rows(tu, o->ids + i, n, tord->v + i);
		cancel = store_scan_walk_cancelled(sc);
	}
	if (cancel || !__atomic_compare_exchange_n(&o->tord, &none, tord,
	    false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		free(tord);
}

/*
 * Walk SRC testing each row by its tuple. Until the scan's tuples are
 * there, rows are looked up, as many as store_scan_walk_ids() would
 * before it waits for its bitmap; then the walk waits for them. Return
 * how many ids were taken from SRC: all, or fewer if the scan was
 * abandoned or the tuples given up (then *LOST is set, and the walk goes
 * on from there as without them); -1 with *cause set on an error.
 */
static int64_t
store_scan_walk_tuples(struct store_scan *sc, struct store_scan_walk_src *src,
    bool *lost, char **cause)
{
	const struct store_tuples	*tu = NULL;
	const uint32_t			*tord = NULL;
	sqlite3_stmt			*stmt = NULL;
	struct matcher			*m = NULL;
	uint64_t			*bits = NULL;
	int64_t				 id, looked;
	size_t				 i;
	int				 hit;
	bool				 wait, tried = false;

	*lost = false;
	for (i = 0;; i++) {
		wait = sc->nids + sc->npend >= WALK_AHEAD || i >= WALK_LOOKUPS;
		if (bits == NULL && (i % 256 == 0 || wait) &&
		    store_scan_walk_tuple_bits(sc, wait, &tu, &bits) != 0) {
			*lost = true;
			break;
		}
		/* Once the bits are there: the positions' tuples, if any. */
		if (bits != NULL && !tried) {
			tried = true;
			tord = store_scan_walk_tord_of(sc, src, tu);
		}
		if (tord != NULL) {
			store_scan_walk_publish(sc, NULL, i);
			__atomic_add_fetch(&store_scan_walk_by_positions, 1,
			    __ATOMIC_RELAXED);
			looked = store_scan_walk_tord(sc, sc->base, tord, bits,
			    i, cause);
			if (looked >= 0)
				i = (size_t)looked;
			break;
		}
		if (!store_scan_walk_next(src, i, &id))
			break;
		if (bits != NULL && src->stmt == NULL &&
		    i + WALK_PREFETCH < src->n)
			store_scan_tuple_prefetch(tu, src->ids[i +
			    WALK_PREFETCH]);
		hit = bits != NULL ? store_scan_tuple_has(tu, bits, id) : -1;
		if (hit < 0 && stmt == NULL &&
		    (stmt = store_scan_walk_prepare(sc, &m, cause)) == NULL)
			break;
		if (hit < 0 && (hit = store_scan_walk_lookup(sc, stmt, id,
		    cause)) < 0)
			break;
		if (hit)
			sc->pend[sc->npend++] = id;
		if ((i + 1) % WALK_PUBLISH == 0 &&
		    !store_scan_walk_publish(sc, NULL, i + 1))
			break;
	}
	store_scan_walk_publish(sc, NULL, i);
	sqlite3_finalize(stmt);
	matcher_free(m);
	free(bits);
	if (*cause == NULL && src->stmt != NULL && src->rc != SQLITE_ROW &&
	    src->rc != SQLITE_DONE && !*lost)
		xasprintf(cause, "cannot read %s: %s", sc->t->name,
		    sqlite3_errmsg(sc->ws->db));
	return *cause != NULL ? -1 : (int64_t)i;
}

/*
 * Walk SRC, TOTAL ids, by the scan's tuples if its filter reads only
 * their strings, else (or from where they were given up) with a bitmap
 * of ids up to MAXID read meanwhile; the found ids get room for ROOM.
 * Return -1 with *cause set on an error.
 */
static int
store_scan_walk_src(struct store_scan *sc, struct store_scan_walk_src *src,
    size_t room, int64_t total, int64_t maxid, char **cause)
{
	int64_t	 looked = 0;
	bool	 lost = true;

	store_scan_walk_room(sc, room, total);
	if (sc->tuples != NULL && store_scan_tuple_fits(sc->tuples,
	    sc->filter) && (looked = store_scan_walk_tuples(sc, src, &lost,
	    cause)) < 0)
		return -1;
	if (!lost)
		return 0;
	return store_scan_walk_with_bits(sc, src, room, total, maxid,
	    (size_t)looked, cause);
}

/*
 * The scan's thread, when SC holds an order of its query (of ids up to
 * MAXID): without a filter the order is the answer; with one, walk it.
 * Return -1 with *cause set on an error.
 */
int
store_scan_walk_run(struct store_scan *sc, int64_t maxid, char **cause)
{
	struct store_scan_walk_src	 src;

	pthread_mutex_lock(&sc->lock);
	sc->in_memory = true;
	if (sc->filter == NULL) {
		sc->ids = sc->base->ids;
		sc->nids = sc->size = sc->base->n;
		sc->shared = true;
		sc->scanned = sc->total = (int64_t)sc->base->n;
	}
	pthread_mutex_unlock(&sc->lock);
	if (sc->filter == NULL)
		return 0;
	memset(&src, 0, sizeof src);
	src.ids = sc->base->ids;
	src.n = sc->base->n;
	return store_scan_walk_src(sc, &src, src.n, (int64_t)src.n, maxid,
	    cause);
}

/*
 * The scan's thread, for a filter on a view an index orders (SC's walk
 * names its columns): the index gives every task id, up to MAXID, in
 * that order as it goes, and the walk keeps the rows the filter takes.
 * Return -1 with *cause set on an error.
 */
int
store_scan_walk_index(struct store_scan *sc, int64_t maxid, char **cause)
{
	struct store_scan_walk_src	 src;
	char				*sql;
	int				 ret;

	memset(&src, 0, sizeof src);
	xasprintf(&sql, "SELECT t.id FROM task t ORDER BY %s", sc->walk);
	ret = store_prepare(sc->ws, &src.stmt, sql, cause);
	free(sql);
	if (ret != 0)
		return -1;
	ret = store_scan_walk_src(sc, &src, maxid > 0 ? (size_t)maxid : 0,
	    maxid, maxid, cause);
	sqlite3_finalize(src.stmt);
	return ret;
}
