/*
 * The row ids a scan's filter matches, as a bitmap, read in sequence in
 * the background: the walk of a sorted order (store-scan-walk.c) tests
 * its ids against it once it is whole, instead of looking each row up.
 * Reading the rows is what costs, so two threads each read half of the
 * ids on a connection of their own; the halves meet between two words of
 * the bitmap, so no word has two writers.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* How often a reader hears whether to stop, in rows. */
#define BITS_TICK	4096

/* Below this many ids one reader does it all. */
#define BITS_SPLIT	16384

/* One reader: the ids from LO to HI. */
struct store_scan_bits_half {
	struct store_scan_bits	*b;
	struct store		*ws;
	pthread_t		 thread;
	bool			 started;
	int64_t			 lo;
	int64_t			 hi;
	int64_t			 ticks;
	struct matcher		*m;
	bool			 over;		/* under sc->lock */
	bool			 ready;		/* under sc->lock */
};

struct store_scan_bits {
	struct store_scan		*sc;
	uint64_t			*v;
	int64_t				 maxid;
	bool				 stop;		/* under sc->lock */
	int64_t				 read;		/* rows, sc->lock */
	struct store_scan_bits_half	 h[2];
	size_t				 nh;
};

/* SQL np_match() for a reader: now and then, whether to stop. */
static void
store_scan_bits_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_scan_bits_half	*h = sqlite3_user_data(ctx);
	struct store_scan		*sc = h->b->sc;
	bool				 stop;

	if (++h->ticks % BITS_TICK == 0) {
		pthread_mutex_lock(&sc->lock);
		stop = h->b->stop || sc->cancel;
		h->b->read += BITS_TICK;
		pthread_mutex_unlock(&sc->lock);
		if (stop)
			sqlite3_interrupt(h->ws->db);
	}
	store_match_result(ctx, h->m, argc, argv);
}

/* Read the matching ids of H's range into the bitmap. */
static void *
store_scan_bits_main(void *arg)
{
	struct store_scan_bits_half	*h = arg;
	struct store_scan		*sc = h->b->sc;
	sqlite3_stmt			*stmt = NULL;
	int64_t				 binds[12], id;
	int				 nbinds, i, rc = SQLITE_ERROR;
	char				*sql, *cause = NULL, range[64];

	snprintf(range, sizeof range, "t.id BETWEEN %lld AND %lld",
	    (long long)h->lo, (long long)h->hi);
	sql = store_query_keys_sql(h->ws, sc->t, &sc->q, "t.id", range,
	    binds, &nbinds, &h->m, &cause);
	if (sql == NULL)
		goto out;
	sqlite3_create_function(h->ws->db, "np_match", -1, SQLITE_UTF8, h,
	    store_scan_bits_match, NULL, NULL);
	if (store_prepare(h->ws, &stmt, sql, &cause) != 0)
		goto out;
	for (i = 0; i < nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		id = sqlite3_column_int64(stmt, 0);
		if (id >= h->lo && id <= h->hi)
			h->b->v[id / 64] |= (uint64_t)1 << (id % 64);
	}
out:
	sqlite3_finalize(stmt);
	free(sql);
	free(cause);
	/* Without the whole bitmap the walk goes on looking rows up. */
	pthread_mutex_lock(&sc->lock);
	h->ready = rc == SQLITE_DONE;
	h->over = true;
	pthread_mutex_unlock(&sc->lock);
	return NULL;
}

/*
 * Start reading the bitmap of scan SC's filter over the ids up to MAXID;
 * NULL if no connection or thread could be had.
 */
struct store_scan_bits *
store_scan_bits_start(struct store_scan *sc, int64_t maxid)
{
	struct store_scan_bits		*b;
	struct store_scan_bits_half	*h;
	int64_t				 mid;
	size_t				 i;
	char				*why = NULL;

	b = xcalloc(1, sizeof *b);
	b->sc = sc;
	b->maxid = maxid < 0 ? 0 : maxid;
	b->v = xcalloc((size_t)b->maxid / 64 + 1, sizeof *b->v);
	mid = b->maxid >= BITS_SPLIT ? b->maxid / 2 / 64 * 64 : b->maxid + 1;
	b->nh = mid <= b->maxid ? 2 : 1;
	for (i = 0; i < b->nh; i++) {
		h = &b->h[i];
		h->b = b;
		h->lo = i == 0 ? 0 : mid;
		h->hi = i == 0 ? mid - 1 : b->maxid;
		if ((h->ws = store_open_reader(store_path(sc->ws), &why)) ==
		    NULL)
			break;
		if (pthread_create(&h->thread, NULL, store_scan_bits_main,
		    h) != 0)
			break;
		h->started = true;
	}
	free(why);
	if (i < b->nh) {
		store_scan_bits_free(b);
		return NULL;
	}
	return b;
}

/*
 * Whether all of B was read: *READY says whether the bitmap is whole (a
 * reader may have failed). B may be NULL: then it is over, not ready.
 */
bool
store_scan_bits_over(struct store_scan_bits *b, bool *ready)
{
	size_t	 i;
	bool	 over = true;

	*ready = b != NULL;
	if (b == NULL)
		return true;
	pthread_mutex_lock(&b->sc->lock);
	for (i = 0; i < b->nh; i++) {
		over = over && b->h[i].over;
		*ready = *ready && b->h[i].ready;
	}
	pthread_mutex_unlock(&b->sc->lock);
	*ready = *ready && over;
	return over;
}

/* How many rows B's readers looked at so far; under SC's lock. */
int64_t
store_scan_bits_read_locked(const struct store_scan_bits *b)
{
	return b != NULL ? b->read : 0;
}

/* Whether ID matched; only once B is over and ready. */
bool
store_scan_bits_has(const struct store_scan_bits *b, int64_t id)
{
	return id >= 0 && id <= b->maxid &&
	    (b->v[id / 64] >> (id % 64) & 1) != 0;
}

/* Stop B's readers if they still run, and free it. */
void
store_scan_bits_free(struct store_scan_bits *b)
{
	struct store_scan_bits_half	*h;
	size_t				 i;

	if (b == NULL)
		return;
	pthread_mutex_lock(&b->sc->lock);
	b->stop = true;
	pthread_mutex_unlock(&b->sc->lock);
	for (i = 0; i < b->nh; i++) {
		h = &b->h[i];
		if (h->started) {
			sqlite3_interrupt(h->ws->db);
			pthread_join(h->thread, NULL);
		}
		matcher_free(h->m);
		store_free(h->ws);
	}
	free(b->v);
	free(b);
}
