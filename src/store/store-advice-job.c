/*
 * The advice worked out in the background, for the UI: on a run of a
 * million kernels its rules take seconds, which the Advice view spends
 * saying so instead of freezing the terminal. As the call tree's job
 * (store-stacks-job.c), it runs store_advice() in a thread of its own on
 * a connection of its own to the store's file; freeing it cancels it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "store-int.h"

struct store_advice_job {
	struct store		*ws;		/* the worker's connection */
	int64_t			 rank;
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	bool			 done;
	bool			 cancel;
	struct store_rows	*rows;		/* the result, or NULL */
	char			*skipped;
	char			*error;
};

/* SQLite's progress handler: a cancelled job's statements stop. */
static int
store_advice_job_check(void *arg)
{
	struct store_advice_job	*j = arg;
	bool			 cancel;

	pthread_mutex_lock(&j->lock);
	cancel = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return cancel;
}

static void *
store_advice_job_main(void *arg)
{
	struct store_advice_job	*j = arg;
	struct store_rows	*r;
	char			*cause = NULL, *skipped = NULL;

	r = store_advice(j->ws, j->rank, &skipped, &cause);
	pthread_mutex_lock(&j->lock);
	j->rows = r;
	j->skipped = skipped;
	j->error = r == NULL ? (cause != NULL ? cause :
	    xstrdup("cannot work out the advice")) : NULL;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/*
 * Work out the advice of S (RANK's findings, NP_NA: all) in the
 * background. NULL with *cause set if the thread or the second
 * connection cannot be had.
 */
struct store_advice_job *
store_advice_job_start(struct store *s, int64_t rank, char **cause)
{
	struct store_advice_job	*j;

	j = xcalloc(1, sizeof *j);
	if ((j->ws = store_open(store_path(s), cause)) == NULL) {
		free(j);
		return NULL;
	}
	j->rank = rank;
	pthread_mutex_init(&j->lock, NULL);
	sqlite3_progress_handler(j->ws->db, 1000, store_advice_job_check, j);
	if (pthread_create(&j->thread, NULL, store_advice_job_main, j) != 0) {
		xasprintf(cause, "cannot start a thread for the advice");
		pthread_mutex_destroy(&j->lock);
		store_free(j->ws);
		free(j);
		return NULL;
	}
	return j;
}

/*
 * Whether job J is done: 0 while it runs; 1 with the findings in *R and
 * the rules not applied in *SKIPPED (the caller's from then on); -1 with
 * *cause set if it failed.
 */
int
store_advice_job_poll(struct store_advice_job *j, struct store_rows **r,
    char **skipped, char **cause)
{
	int	 rc = 0;

	pthread_mutex_lock(&j->lock);
	if (j->done && j->rows != NULL) {
		*r = j->rows;
		*skipped = j->skipped;
		j->rows = NULL;
		j->skipped = NULL;
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
store_advice_job_free(struct store_advice_job *j)
{
	if (j == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	j->cancel = true;
	pthread_mutex_unlock(&j->lock);
	sqlite3_interrupt(j->ws->db);
	pthread_join(j->thread, NULL);
	pthread_mutex_destroy(&j->lock);
	store_free(j->ws);
	store_rows_free(j->rows);
	free(j->skipped);
	free(j->error);
	free(j);
}
