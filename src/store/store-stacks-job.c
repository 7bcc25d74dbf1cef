/*
 * A call tree built in the background, for the UI: on a raw collection a
 * tree walks every API span and task and takes seconds, which the flame
 * view spends showing that it is building instead of freezing the
 * terminal. The job runs store_stacks_build() in a thread of its own, on
 * a connection of its own to the store's file (as the scans of
 * store-scan.c do); the view polls it, and freeing it cancels it: every
 * statement on that connection fails from then on.
 */
#include <pthread.h>
#include <stdlib.h>

#include "store-int.h"

struct store_stacks_job {
	struct store		*ws;		/* the worker's connection */
	struct store_stacks_opts o;
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	bool			 done;
	bool			 cancel;
	struct store_stacks	*st;		/* the result, or NULL */
	char			*error;
};

/* SQLite's progress handler: a cancelled job's statements stop. */
static int
store_stacks_job_check(void *arg)
{
	struct store_stacks_job	*j = arg;
	bool			 cancel;

	pthread_mutex_lock(&j->lock);
	cancel = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return cancel;
}

static void *
store_stacks_job_main(void *arg)
{
	struct store_stacks_job	*j = arg;
	struct store_stacks	*st;
	char			*cause = NULL;

	st = store_stacks_build(j->ws, &j->o, &cause);
	pthread_mutex_lock(&j->lock);
	j->st = st;
	j->error = st == NULL ? (cause != NULL ? cause :
	    xstrdup("cannot build the call tree")) : NULL;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/*
 * Build the tree of options O of store S in the background. NULL with
 * *cause set if the thread or the second connection cannot be had.
 */
struct store_stacks_job *
store_stacks_job_start(struct store *s, const struct store_stacks_opts *o,
    char **cause)
{
	struct store_stacks_job	*j;

	j = xcalloc(1, sizeof *j);
	if ((j->ws = store_open(store_path(s), cause)) == NULL) {
		free(j);
		return NULL;
	}
	j->o = *o;
	pthread_mutex_init(&j->lock, NULL);
	sqlite3_progress_handler(j->ws->db, 1000, store_stacks_job_check, j);
	if (pthread_create(&j->thread, NULL, store_stacks_job_main, j) != 0) {
		xasprintf(cause, "cannot start a thread to build the call "
		    "tree");
		pthread_mutex_destroy(&j->lock);
		store_free(j->ws);
		free(j);
		return NULL;
	}
	return j;
}

/*
 * Whether job J is done: 0 while it runs; 1 with the tree in *ST (the
 * caller's from then on); -1 with *cause set if the build failed.
 */
int
store_stacks_job_poll(struct store_stacks_job *j, struct store_stacks **st,
    char **cause)
{
	int	 rc = 0;

	pthread_mutex_lock(&j->lock);
	if (j->done && j->st != NULL) {
		*st = j->st;
		j->st = NULL;
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
store_stacks_job_free(struct store_stacks_job *j)
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
	store_stacks_free(j->st);
	free(j->error);
	free(j);
}
