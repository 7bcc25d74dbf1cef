/*
 * A scan's sort done in memory (store-sort.c), in two halves. Reading the
 * keys of ten million rows costs SQLite most of the time; the halves read
 * the lower and upper ids, each on its own connection, the upper one in a
 * thread of its own, so that a second core halves the wait. Each half
 * counts the rows it looked at into the scan's progress, checks whether
 * the scan was abandoned, and has its own copy of the filter. A sort on
 * a text column once the rows' tuples are read (store-scan-tuple.c) reads
 * no row: the keys come from the tuples.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* How often a half adds to the scan's progress, in rows looked at. */
#define HALF_PUBLISH	4096

/* Below this many ids one half does it all. */
#define HALF_MIN	16384

/* One half of a sorted scan: the ids from LO to HI on one connection. */
struct store_scan_half {
	struct store_scan		*sc;
	struct store			*ws;
	const struct store_sort_key	*k;
	const uint32_t			*rank;
	size_t				 nrank;
	bool				 counts;	/* finds the total */
	int64_t				 lo;
	int64_t				 hi;
	struct store_sort		 so;
	struct matcher			*m;
	int64_t				 ticks;
	int64_t				 told;		/* ticks published */
	int				 rc;		/* the last step's */
	char				*cause;
	/* Keeps one half's counters off the cache line the other reads. */
	char				 pad[128];
};

/* Count a row looked at; now and then tell the scan, and hear from it. */
static void
store_scan_sort_half_tick(struct store_scan_half *h)
{
	struct store_scan	*sc = h->sc;
	bool			 cancel;

	if (++h->ticks % HALF_PUBLISH != 0)
		return;
	pthread_mutex_lock(&sc->lock);
	sc->scanned += h->ticks - h->told;
	cancel = sc->cancel;
	pthread_mutex_unlock(&sc->lock);
	h->told = h->ticks;
	if (cancel)
		sqlite3_interrupt(h->ws->db);
	if (h->counts && h->ticks == 2 * HALF_PUBLISH)
		store_scan_sort_count(sc);
}

/* SQL np_match() for a half: a tick and the half's filter. */
static void
store_scan_sort_half_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_scan_half	*h = sqlite3_user_data(ctx);

	store_scan_sort_half_tick(h);
	store_match_result(ctx, h->m, argc, argv);
}

/* Read the keys of H's ids; H->rc is SQLITE_DONE if all were read. */
static void
store_scan_sort_half_run(struct store_scan_half *h)
{
	struct store_scan	*sc = h->sc;
	sqlite3_stmt		*stmt = NULL;
	int64_t			 binds[12];
	int			 nbinds, i;
	char			*sql, cols[128], range[64];

	snprintf(cols, sizeof cols, "t.id, %s", h->k->expr);
	snprintf(range, sizeof range, "t.id BETWEEN %lld AND %lld",
	    (long long)h->lo, (long long)h->hi);
	h->rc = SQLITE_ERROR;
	sql = store_query_keys_sql(h->ws, sc->t, &sc->q, cols, range, binds,
	    &nbinds, &h->m, &h->cause);
	if (sql == NULL)
		return;
	/* The ids must come in order, not by a device's index. */
	sql = xreallocarray(sql, 1, strlen(sql) + sizeof " ORDER BY t.id");
	strcat(sql, " ORDER BY t.id");
	sqlite3_create_function(h->ws->db, "np_match", -1, SQLITE_UTF8, h,
	    store_scan_sort_half_match, NULL, NULL);
	if (store_prepare(h->ws, &stmt, sql, &h->cause) != 0) {
		free(sql);
		return;
	}
	free(sql);
	for (i = 0; i < nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	while ((h->rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sc->filter == NULL)
			store_scan_sort_half_tick(h);
		if (!store_sort_add(&h->so, sqlite3_column_int64(stmt, 0),
		    sqlite3_column_value(stmt, 1), h->rank, h->nrank))
			break;
	}
	if (h->rc != SQLITE_ROW && h->rc != SQLITE_DONE)
		xasprintf(&h->cause, "cannot read %s: %s", sc->t->name,
		    sqlite3_errmsg(h->ws->db));
	sqlite3_finalize(stmt);
	pthread_mutex_lock(&sc->lock);
	sc->scanned += h->ticks - h->told;
	pthread_mutex_unlock(&sc->lock);
	h->told = h->ticks;
}

static void *
store_scan_sort_half_main(void *arg)
{
	store_scan_sort_half_run(arg);
	return NULL;
}

/*
 * Sort scan SC's rows by text key K from the rows' tuples, if they are
 * there, hold K's column and the filter's (if any), with the strings
 * ranked by RANK (NRANK ids), among ids up to MAXID: no row is read. 1
 * with the ids in place, 0 if the tuples cannot serve.
 */
static int
store_scan_sort_tuples(struct store_scan *sc, const struct store_sort_key *k,
    const uint32_t *rank, size_t nrank, int64_t maxid)
{
	const struct store_tuples	*tu;
	struct store_sort		 so;
	uint64_t			*bits = NULL;
	int64_t				*ids = NULL;
	size_t				 n;

	if (!k->text || sc->tuples == NULL ||
	    store_scan_tuple_ready(sc->tuples, &tu) != 1)
		return 0;
	if (sc->filter != NULL && (!store_scan_tuple_fits(sc->tuples,
	    sc->filter) || (bits = store_scan_tuple_match(tu, sc->ws->db,
	    sc->filter)) == NULL))
		return 0;
	store_sort_init(&so, maxid);
	if (store_scan_tuple_sort(tu, k->col, bits, &so, rank, nrank))
		ids = store_sort_finish(&so, k->desc, &n);
	free(bits);
	store_sort_free(&so);
	if (ids == NULL)
		return 0;
	pthread_mutex_lock(&sc->lock);
	free(sc->ids);
	sc->ids = ids;
	sc->nids = sc->size = n;
	sc->scanned = sc->total = (int64_t)n;
	sc->in_memory = true;
	pthread_mutex_unlock(&sc->lock);
	return 1;
}

/*
 * Sort in memory what scan SC selects, by key K, among row ids up to
 * MAXID. Return 1 with the ids in place, 0 if SQLite must sort them after
 * all, -1 on an error (*cause set).
 */
int
store_scan_sort_ids(struct store_scan *sc, const struct store_sort_key *k,
    int64_t maxid, char **cause)
{
	struct store_scan_half	 h[2];
	struct store_sort	 whole;
	pthread_t		 thread;
	uint32_t		*rank = NULL;
	size_t			 nrank = 0, n, i, nh;
	int64_t			*ids, mid;
	char			*why = NULL;
	bool			 threaded = false;
	int			 ret = -1;

	if (k->text && (rank = store_sort_ranks(sc->ws, &nrank, cause)) ==
	    NULL)
		return -1;
	if (store_scan_sort_tuples(sc, k, rank, nrank, maxid) == 1) {
		free(rank);
		return 1;
	}
	store_sort_init(&whole, maxid);
	/* The halves split the id bitmap between two of its words. */
	mid = maxid >= HALF_MIN ? maxid / 2 / 64 * 64 : maxid + 1;
	nh = mid <= maxid ? 2 : 1;
	memset(h, 0, sizeof h);
	for (i = 0; i < nh; i++) {
		h[i].sc = sc;
		h[i].k = k;
		h[i].rank = rank;
		h[i].nrank = nrank;
		h[i].lo = i == 0 ? 0 : mid;
		h[i].hi = i == 0 ? mid - 1 : maxid;
		store_sort_part(&h[i].so, &whole, (size_t)h[i].lo,
		    (size_t)(h[i].hi - h[i].lo + 1));
	}
	h[0].ws = sc->ws;
	/* Without a device or rank, the rows to look at are the ids. */
	if (sc->q.device == NP_NA && sc->q.rank == NP_NA) {
		pthread_mutex_lock(&sc->lock);
		sc->total = maxid;
		pthread_mutex_unlock(&sc->lock);
	} else
		h[0].counts = true;
	if (nh == 2 && (h[1].ws = store_open_reader(store_path(sc->ws),
	    &why)) != NULL)
		threaded = pthread_create(&thread, NULL,
		    store_scan_sort_half_main, &h[1]) == 0;
	free(why);
	store_scan_sort_half_run(&h[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else if (nh == 2) {
		/* No second connection or thread: the lower half reads on. */
		h[1].ws = h[1].ws != NULL ? h[1].ws : sc->ws;
		if (h[0].rc == SQLITE_DONE)
			store_scan_sort_half_run(&h[1]);
	}
	for (i = 0; i < nh; i++) {
		if (h[i].cause != NULL) {
			*cause = h[i].cause;
			h[i].cause = NULL;
			goto out;
		}
	}
	ret = 0;
	if (h[0].rc != SQLITE_DONE || (nh == 2 && h[1].rc != SQLITE_DONE))
		goto out;
	store_sort_join(&whole, &h[0].so, nh == 2 ? &h[1].so : NULL);
	if ((ids = store_sort_finish(&whole, k->desc, &n)) == NULL)
		goto out;
	pthread_mutex_lock(&sc->lock);
	free(sc->ids);
	sc->ids = ids;
	sc->nids = sc->size = n;
	sc->in_memory = true;
	pthread_mutex_unlock(&sc->lock);
	ret = 1;
out:
	for (i = 0; i < nh; i++) {
		matcher_free(h[i].m);
		free(h[i].cause);
	}
	if (nh == 2 && h[1].ws != NULL && h[1].ws != sc->ws)
		store_free(h[1].ws);
	free(rank);
	store_sort_free(&whole);
	return ret;
}

/*
 * Count the rows the scan will look at (the task rows of its device and
 * rank) and publish the count as its total.
 */
void
store_scan_sort_count(struct store_scan *sc)
{
	struct store_query	 q;
	struct store_table	 base;
	char			*cause = NULL;
	int64_t			 n;

	base = *sc->t;
	base.from = "task t";
	base.all = NULL;
	store_query_init(&q);
	q.device = sc->q.device;
	q.rank = sc->q.rank;
	q.from_ns = sc->q.from_ns;
	q.to_ns = sc->q.to_ns;
	n = store_query_count(sc->ws, &base, &q, &cause);
	free(cause);
	pthread_mutex_lock(&sc->lock);
	sc->total = n;
	pthread_mutex_unlock(&sc->lock);
}
