/*
 * Sorting and filtering a task table for the UI without freezing it. On
 * ten million rows a sort on a column without an index, or a filter that
 * matches rarely, takes SQLite seconds; the scan runs that query in a
 * thread of its own, on a connection of its own, and collects the row ids
 * it yields in order. The UI polls: it shows the rows found so far (a
 * filter's first page comes as soon as it is filled), says how far the
 * scan got, and stays free to take keys; closing the scan interrupts it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* How often the worker publishes what it found, in rows looked at. */
#define SCAN_PUBLISH	4096


/* Publish the ids found since the last time and the rows looked at. */
static void
store_scan_publish(struct store_scan *sc)
{
	pthread_mutex_lock(&sc->lock);
	if (sc->cancel)
		sqlite3_interrupt(sc->ws->db);
	store_scan_walk_append_locked(sc);
	sc->scanned = sc->ticks;
	pthread_mutex_unlock(&sc->lock);
}


/*
 * Count a row looked at; publish now and then. Counting the rows to look
 * at takes a cold connection a good part of a second, so it waits until
 * the first rows are out (SQLite lets a function run a query of its own).
 */
static void
store_scan_tick(struct store_scan *sc)
{
	if (++sc->ticks % SCAN_PUBLISH != 0)
		return;
	store_scan_publish(sc);
	if (sc->ticks == 2 * SCAN_PUBLISH)
		store_scan_sort_count(sc);
}

/* SQL np_tick(id): counts the rows the scan looks at; always true. */
static void
store_scan_sql_tick(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	store_scan_tick(sqlite3_user_data(ctx));
	sqlite3_result_int(ctx, 1);
}

/* SQL np_match() for the worker: np_tick() and the filter in one call. */
static void
store_scan_sql_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_scan	*sc = sqlite3_user_data(ctx);

	store_scan_tick(sc);
	store_match_result(ctx, sc->m, argc, argv);
}

/*
 * Prepare SQL with its NBINDS values BINDS on the worker's connection;
 * the filter's matcher M becomes the worker's, and np_match() counts.
 */
static sqlite3_stmt *
store_scan_prepare(struct store_scan *sc, const char *sql,
    const int64_t *binds, int nbinds, struct matcher *m, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 i;

	sc->m = m;
	sqlite3_create_function(sc->ws->db, "np_match", -1, SQLITE_UTF8, sc,
	    store_scan_sql_match, NULL, NULL);
	if (store_prepare(sc->ws, &stmt, sql, cause) != 0)
		return NULL;
	for (i = 0; i < nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	return stmt;
}

/*
 * The ids of a whole sort, unfiltered, become an order the UI's store can
 * keep, for a filter to walk next (store-scan-walk.c).
 */
static void
store_scan_share(struct store_scan *sc)
{
	pthread_mutex_lock(&sc->lock);
	sc->base = store_scan_walk_order(sc, sc->ids, sc->nids);
	sc->shared = true;
	pthread_mutex_unlock(&sc->lock);
}

/* Run the scan's query on the worker's connection; set ERROR if it fails. */
static void
store_scan_run(struct store_scan *sc)
{
	struct store_sort_key	 k;
	sqlite3_stmt		*stmt = NULL;
	struct matcher		*m = NULL;
	int64_t			 binds[12], total;
	int			 nbinds, rc;
	char			*sql = NULL, *cause = NULL;

	/* The largest task row id: room enough for the ids of any scan. */
	total = store_task_maxid(sc->ws);
	if (sc->base != NULL) {
		store_scan_walk_run(sc, total, &cause);
		goto out;
	}
	if (sc->walk != NULL && sc->filter != NULL) {
		store_scan_walk_index(sc, total, &cause);
		goto out;
	}
	if (store_sort_plan(sc->t, sc->sort, &k)) {
		if ((rc = store_scan_sort_ids(sc, &k, total, &cause)) == 1 &&
		    sc->filter == NULL)
			store_scan_share(sc);
		if (rc != 0)
			goto out;
	}
	/* Room for every row: pages never touched cost no memory. */
	pthread_mutex_lock(&sc->lock);
	sc->ticks = sc->scanned = 0;
	if (total > 0) {
		sc->size = (size_t)total;
		sc->ids = xreallocarray(NULL, sc->size, sizeof *sc->ids);
	}
	pthread_mutex_unlock(&sc->lock);
	sql = store_query_ids_sql(sc->ws, sc->t, &sc->q, sc->filter == NULL ?
	    "np_tick(t.id)" : NULL, binds, &nbinds, &m, &cause);
	if (sql == NULL)
		goto out;
	sc->pend = xreallocarray(NULL, SCAN_PUBLISH, sizeof *sc->pend);
	if ((stmt = store_scan_prepare(sc, sql, binds, nbinds, m, &cause)) ==
	    NULL)
		goto out;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		sc->pend[sc->npend++] = sqlite3_column_int64(stmt, 0);
		if (sc->npend >= SCAN_PUBLISH)
			store_scan_publish(sc);
	}
	if (rc != SQLITE_DONE)
		xasprintf(&cause, "cannot read %s: %s", sc->t->name,
		    sqlite3_errmsg(sc->ws->db));
out:
	sqlite3_finalize(stmt);
	sc->m = NULL;
	matcher_free(m);
	free(sql);
	store_scan_publish(sc);
	/*
	 * The rows are out; before the scan is done, the order it sorted or
	 * walked gets its positions' tuples if it has none yet, while the UI
	 * shows the first page (so after a view's first sort, whose tuples
	 * are read after it, its first filter does it).
	 */
	if (sc->base != NULL && cause == NULL)
		store_scan_walk_tuples_of(sc);
	pthread_mutex_lock(&sc->lock);
	sc->error = cause;
	sc->done = true;
	pthread_mutex_unlock(&sc->lock);
}

static void *
store_scan_main(void *arg)
{
	store_scan_run(arg);
	return NULL;
}

/*
 * Check Q on task table T of store S (a bad sort column or regex is
 * reported here, with *cause set, and NULL returned), then start the scan
 * in a thread on a second connection to S's file. WALK, if not NULL, is
 * the ORDER BY of an index that gives Q's order (store-scan-walk.c).
 */
struct store_scan *
store_scan_start(struct store *s, const struct store_table *t,
    const struct store_query *q, const char *walk, char **cause)
{
	struct store_scan	*sc;
	struct matcher		*m = NULL;
	sqlite3_stmt		*stmt;
	int64_t			 binds[12];
	int			 nbinds;
	char			*sql;

	if ((sql = store_query_ids_sql(s, t, q, NULL, binds, &nbinds, &m,
	    cause)) == NULL)
		return NULL;
	if (store_prepare(s, &stmt, sql, cause) != 0) {
		free(sql);
		matcher_free(m);
		return NULL;
	}
	sqlite3_finalize(stmt);
	free(sql);
	matcher_free(m);

	sc = xcalloc(1, sizeof *sc);
	if ((sc->ws = store_open(store_path(s), cause)) == NULL) {
		free(sc);
		return NULL;
	}
	sc->s = s;
	sc->base = store_scan_walk_find(s, t, q);
	sc->tuples = store_scan_tuple_find(s, t, q);
	sc->walk = walk != NULL ? xstrdup(walk) : NULL;
	sqlite3_exec(sc->ws->db, "PRAGMA cache_size = -32768", NULL, NULL,
	    NULL);
	sqlite3_create_function(sc->ws->db, "np_tick", 1, SQLITE_UTF8, sc,
	    store_scan_sql_tick, NULL, NULL);
	sc->t = t;
	sc->q = *q;
	sc->sort = q->sort != NULL ? xstrdup(q->sort) : NULL;
	sc->filter = q->filter != NULL && *q->filter != '\0' ?
	    xstrdup(q->filter) : NULL;
	sc->q.sort = sc->sort;
	sc->q.filter = sc->filter;
	sc->total = -1;
	pthread_mutex_init(&sc->lock, NULL);
	if (pthread_create(&sc->thread, NULL, store_scan_main, sc) != 0) {
		xasprintf(cause, "cannot start a thread to sort");
		pthread_mutex_destroy(&sc->lock);
		store_scan_walk_unref(sc->base);
		store_scan_tuple_unref(sc->tuples);
		free(sc->walk);
		store_free(sc->ws);
		free(sc->sort);
		free(sc->filter);
		free(sc);
		return NULL;
	}
	return sc;
}

/*
 * The scan's order (the one it sorted once it has, or the one it walks)
 * stays on the UI's store for the next query, once the UI has seen it:
 * not when the scan is freed, after the next query let it go.
 */
static void
store_scan_keep(struct store_scan *sc)
{
	struct store_order	*o;

	pthread_mutex_lock(&sc->lock);
	o = sc->base;
	pthread_mutex_unlock(&sc->lock);
	if (o != NULL)
		store_scan_walk_keep(sc->s, o);
}

/* Stop the scan if it still runs, and free it. */
void
store_scan_free(struct store_scan *sc)
{
	if (sc == NULL)
		return;
	pthread_mutex_lock(&sc->lock);
	sc->cancel = true;
	pthread_mutex_unlock(&sc->lock);
	sqlite3_interrupt(sc->ws->db);
	pthread_join(sc->thread, NULL);
	pthread_mutex_destroy(&sc->lock);
	store_free(sc->ws);
	if (!sc->shared)
		free(sc->ids);
	store_scan_walk_unref(sc->base);
	store_scan_tuple_unref(sc->tuples);
	free(sc->pend);
	free(sc->error);
	free(sc->sort);
	free(sc->filter);
	free(sc->walk);
	free(sc);
}

/* Copy up to N ids from position OFF into OUT; return how many. */
size_t
store_scan_ids(struct store_scan *sc, int64_t off, size_t n, int64_t *out)
{
	size_t	 got = 0;

	pthread_mutex_lock(&sc->lock);
	if (off >= 0 && (size_t)off < sc->nids) {
		got = sc->nids - (size_t)off;
		if (got > n)
			got = n;
		memcpy(out, sc->ids + off, got * sizeof *out);
	}
	pthread_mutex_unlock(&sc->lock);
	return got;
}

/* How far the scan got; PHASE is NULL once it is done. */
void
store_scan_state(struct store_scan *sc, struct store_page_state *st)
{
	pthread_mutex_lock(&sc->lock);
	st->phase = sc->done ? NULL : sc->filter != NULL &&
	    (sc->sort == NULL || sc->nids > 0 || sc->base != NULL ||
	    sc->walk != NULL) ? "filtering" : "sorting";
	st->found = (int64_t)sc->nids;
	st->scanned = sc->scanned;
	st->total = sc->total;
	st->error = sc->done ? sc->error : NULL;
	st->in_memory = sc->in_memory;
	pthread_mutex_unlock(&sc->lock);
	store_scan_keep(sc);
}
