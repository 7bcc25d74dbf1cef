/*
 * The timeline's source rows, read ahead. The lane builder (store-lanes.c)
 * reads the spans, steps and tasks of a store through a few queries, in
 * the store's order or, for spans an importer wrote out of order, sorted
 * by lane; the builder's own inserts into the timeline's file take as long
 * again. So each query runs on a connection and in a thread of its own,
 * which hands its rows over in batches, in order, while the builder
 * writes: two cores instead of one. All of them start at once, before the
 * builder wants their rows; the first, the spans, when sorted, with
 * SQLite's own sorting threads. A row is the
 * query's columns as integers; NULL reads as NP_NA in the columns the
 * caller names, else as 0, as SQLite reads it. Without a thread the rows
 * are read on the caller's thread, one batch at a time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define READ_BATCH	4096		/* rows a batch holds */
#define READ_DEPTH	3		/* batches in flight */

struct read_batch {
	int64_t		 v[READ_BATCH * LANES_NCOLS];
	size_t		 n;
	bool		 full;		/* handed over */
};

struct store_lanes_read {
	char			*path;
	const char		*sql;		/* the caller's */
	int			(*check)(void *);
	void			*arg;
	bool			 sort_threads;	/* SQLite's, to sort */
	uint32_t		 na;		/* columns of NULL as NP_NA */
	struct store		*s;		/* the reading connection */
	sqlite3_stmt		*stmt;
	bool			 finished;	/* its last row read */
	pthread_t		 thread;
	bool			 threaded;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct read_batch	 b[READ_DEPTH];
	size_t			 fill;		/* the batch the reader fills */
	size_t			 next;		/* the one the builder takes */
	size_t			 at;		/* its next row */
	bool			 held;		/* the builder has it */
	bool			 stop;		/* the builder gave up */
	bool			 done;		/* the reader has finished */
	char			*error;		/* why it failed */
};

/* SQLite's progress handler on the reading connection. */
static int
store_lanes_read_check(void *arg)
{
	struct store_lanes_read	*r = arg;
	bool			 stop;

	pthread_mutex_lock(&r->lock);
	stop = r->stop;
	pthread_mutex_unlock(&r->lock);
	return stop || (r->check != NULL && r->check(r->arg));
}

/*
 * Fill batch B with the query's next rows. False when there are none left
 * (or on an error, in r->error).
 */
static bool
store_lanes_read_batch(struct store_lanes_read *r, struct read_batch *b)
{
	int64_t	*v;
	int	 rc, i, ncol;
	char	*cause = NULL;

	b->n = 0;
	if (r->finished || r->error != NULL)
		return false;
	if (r->s == NULL && (r->s = store_open_reader(r->path,
	    &cause)) != NULL) {
		sqlite3_progress_handler(r->s->db, 1000,
		    store_lanes_read_check, r);
		if (r->sort_threads)
			sqlite3_exec(r->s->db, "PRAGMA threads = 2", NULL,
			    NULL, NULL);
	}
	if (r->s == NULL) {
		r->error = cause;
		return false;
	}
	if (r->stmt == NULL && store_prepare(r->s, &r->stmt, r->sql,
	    &cause) != 0) {
		r->error = cause;
		return false;
	}
	ncol = sqlite3_column_count(r->stmt);
	if (ncol > LANES_NCOLS)
		ncol = LANES_NCOLS;
	while (b->n < READ_BATCH &&
	    (rc = sqlite3_step(r->stmt)) == SQLITE_ROW) {
		v = b->v + b->n++ * LANES_NCOLS;
		for (i = 0; i < ncol; i++)
			v[i] = (r->na & 1u << i) != 0 && sqlite3_column_type(
			    r->stmt, i) == SQLITE_NULL ? NP_NA :
			    sqlite3_column_int64(r->stmt, i);
		for (; i < LANES_NCOLS; i++)
			v[i] = NP_NA;
	}
	if (b->n == READ_BATCH)
		return true;
	if (rc != SQLITE_DONE) {
		xasprintf(&r->error, "cannot build timeline lanes: %s",
		    sqlite3_errmsg(r->s->db));
		return false;
	}
	sqlite3_finalize(r->stmt);
	r->stmt = NULL;
	r->finished = true;
	return b->n > 0;
}

static void *
store_lanes_read_main(void *arg)
{
	struct store_lanes_read	*r = arg;
	struct read_batch	*b;
	bool			 more;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (r->b[r->fill].full && !r->stop)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop)
			break;
		b = &r->b[r->fill];
		pthread_mutex_unlock(&r->lock);
		more = store_lanes_read_batch(r, b);
		pthread_mutex_lock(&r->lock);
		if (!more)
			break;
		b->full = true;
		r->fill = (r->fill + 1) % READ_DEPTH;
		pthread_cond_broadcast(&r->cond);
	}
	r->done = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	sqlite3_finalize(r->stmt);
	r->stmt = NULL;
	store_free(r->s);
	r->s = NULL;
	return NULL;
}

/*
 * Read the query SQL (which must outlive R) of the store at PATH ahead,
 * sorting with SQLite's threads when SORT_THREADS (each holds a sort
 * buffer of its own); NULL reads as NP_NA in the columns of the mask NA
 * (bit i for column i). CHECK (or NULL), called with ARG, says when to
 * give up.
 */
struct store_lanes_read *
store_lanes_read_create(const char *path, const char *sql, bool sort_threads,
    uint32_t na, int (*check)(void *), void *arg)
{
	struct store_lanes_read	*r;

	r = xcalloc(1, sizeof *r);
	r->path = xstrdup(path);
	r->sql = sql;
	r->sort_threads = sort_threads;
	r->na = na;
	r->check = check;
	r->arg = arg;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->threaded = pthread_create(&r->thread, NULL, store_lanes_read_main,
	    r) == 0;
	return r;
}

/*
 * Take the next batch B for the builder: wait for the reader, or read it
 * here. False when no batch is left.
 */
static bool
store_lanes_read_take(struct store_lanes_read *r, struct read_batch *b)
{
	bool	 ok;

	if (!r->threaded)
		return store_lanes_read_batch(r, b);
	pthread_mutex_lock(&r->lock);
	while (!b->full && !r->done)
		pthread_cond_wait(&r->cond, &r->lock);
	ok = b->full;
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* Hand the builder's batch B back to the reader. */
static void
store_lanes_read_give(struct store_lanes_read *r, struct read_batch *b)
{
	if (r->threaded) {
		pthread_mutex_lock(&r->lock);
		b->full = false;
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
	}
	r->held = false;
	r->next = (r->next + 1) % READ_DEPTH;
}

/*
 * The next row into V (LANES_NCOLS values): 1, or 0 when there are no
 * more, or -1 with *cause set when the rows cannot be read.
 */
int
store_lanes_read_next(struct store_lanes_read *r, int64_t *v, char **cause)
{
	struct read_batch	*b;

	for (;;) {
		b = &r->b[r->next];
		if (!r->held) {
			if (!store_lanes_read_take(r, b)) {
				if (r->error == NULL)
					return 0;
				*cause = xstrdup(r->error);
				return -1;
			}
			r->held = true;
			r->at = 0;
		}
		if (r->at < b->n) {
			memcpy(v, b->v + r->at++ * LANES_NCOLS,
			    LANES_NCOLS * sizeof *v);
			return 1;
		}
		store_lanes_read_give(r, b);
	}
}

/* Stop reading and free R. */
void
store_lanes_read_free(struct store_lanes_read *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	if (r->threaded)
		pthread_join(r->thread, NULL);
	else {
		sqlite3_finalize(r->stmt);
		store_free(r->s);
	}
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	free(r->error);
	free(r->path);
	free(r);
}
