/*
 * A comparison table worked out in the background, for the UI: on runs
 * of a million kernels the overall table takes seconds, which the
 * Compare view spends saying so instead of freezing the terminal. As the
 * call tree's job (store-stacks-job.c), the table is made in a thread of
 * its own, on connections of its own to both stores' files; freeing the
 * job cancels it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "store-int.h"

struct store_compare_job {
	struct store		*wb;		/* the worker's connections */
	struct store		*wn;
	struct store_compare	 o;
	store_compare_fn	 make;
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	bool			 done;
	bool			 cancel;
	struct store_rows	*rows;		/* the result, or NULL */
	char			*error;
};

/* SQLite's progress handler: a cancelled job's statements stop. */
static int
store_compare_job_check(void *arg)
{
	struct store_compare_job	*j = arg;
	bool				 cancel;

	pthread_mutex_lock(&j->lock);
	cancel = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return cancel;
}

static void *
store_compare_job_main(void *arg)
{
	struct store_compare_job	*j = arg;
	struct store_rows		*r;
	char				*cause = NULL;

	r = j->make(j->wb, j->wn, &j->o, &cause);
	pthread_mutex_lock(&j->lock);
	j->rows = r;
	j->error = r == NULL ? (cause != NULL ? cause :
	    xstrdup("cannot make the comparison table")) : NULL;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/*
 * Make table MAKE of BASE and NEW (as O says) in the background. NULL
 * with *cause set if the thread or the connections cannot be had.
 */
struct store_compare_job *
store_compare_job_start(struct store *base, struct store *new,
    const struct store_compare *o, store_compare_fn make, char **cause)
{
	struct store_compare_job	*j;

	j = xcalloc(1, sizeof *j);
	if ((j->wb = store_open(store_path(base), cause)) == NULL) {
		free(j);
		return NULL;
	}
	if ((j->wn = store_open(store_path(new), cause)) == NULL) {
		store_free(j->wb);
		free(j);
		return NULL;
	}
	j->o = *o;
	j->make = make;
	pthread_mutex_init(&j->lock, NULL);
	sqlite3_progress_handler(j->wb->db, 1000, store_compare_job_check, j);
	sqlite3_progress_handler(j->wn->db, 1000, store_compare_job_check, j);
	if (pthread_create(&j->thread, NULL, store_compare_job_main, j) != 0) {
		xasprintf(cause, "cannot start a thread for the comparison");
		pthread_mutex_destroy(&j->lock);
		store_free(j->wb);
		store_free(j->wn);
		free(j);
		return NULL;
	}
	return j;
}

/*
 * Whether job J is done: 0 while it runs; 1 with the table in *R (the
 * caller's from then on); -1 with *cause set if it failed.
 */
int
store_compare_job_poll(struct store_compare_job *j, struct store_rows **r,
    char **cause)
{
	int	 rc = 0;

	pthread_mutex_lock(&j->lock);
	if (j->done && j->rows != NULL) {
		*r = j->rows;
		j->rows = NULL;
		rc = 1;
	} else if (j->done) {
		*cause = j->error;
		j->error = NULL;
		rc = -1;
	}
	pthread_mutex_unlock(&j->lock);
	return rc;
}

/* Cancel job J if it still runs, wait for its thread, and free it. */
void
store_compare_job_free(struct store_compare_job *j)
{
	if (j == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	j->cancel = true;
	pthread_mutex_unlock(&j->lock);
	sqlite3_interrupt(j->wb->db);
	sqlite3_interrupt(j->wn->db);
	pthread_join(j->thread, NULL);
	pthread_mutex_destroy(&j->lock);
	store_free(j->wb);
	store_free(j->wn);
	store_rows_free(j->rows);
	free(j->error);
	free(j);
}
