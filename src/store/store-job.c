/*
 * Work done in the background for the UI: a call tree, the advice or a
 * comparison table can take seconds on a large run, which a view spends
 * saying so instead of freezing the terminal. A job runs its function in
 * a thread of its own, on connections of its own to the stores' files
 * (as the scans of store-scan.c do); the view polls it, and freeing it
 * cancels it: every statement on those connections fails from then on.
 * The call tree's, the advice's and the comparison's jobs below are that
 * one job with their own arguments and result.
 */
#include <pthread.h>
#include <stdlib.h>

#include "store-int.h"

#define STORE_JOB_MAX	2		/* connections of a job */

/* What a job does on its connections WS; NULL with *cause set on error. */
typedef void	*(*store_job_fn)(struct store **, void *, char **);

struct store_job {
	struct store		*ws[STORE_JOB_MAX];
	size_t			 nws;
	store_job_fn		 run;
	void			*arg;
	void			 (*free_result)(void *);
	const char		*what;		/* for a failure without cause */
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	bool			 done;
	bool			 cancel;
	void			*result;	/* or NULL */
	char			*error;
};

/* SQLite's progress handler: a cancelled job's statements stop. */
static int
store_job_check(void *arg)
{
	struct store_job	*j = arg;
	bool			 cancel;

	pthread_mutex_lock(&j->lock);
	cancel = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return cancel;
}

static void *
store_job_main(void *arg)
{
	struct store_job	*j = arg;
	void			*r;
	char			*cause = NULL;

	r = j->run(j->ws, j->arg, &cause);
	pthread_mutex_lock(&j->lock);
	j->result = r;
	j->error = r == NULL ? (cause != NULL ? cause : xstrdup(j->what)) :
	    NULL;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

static void
store_job_close(struct store_job *j)
{
	size_t	 i;

	for (i = 0; i < j->nws; i++)
		store_free(j->ws[i]);
}

/*
 * Run RUN(connections, ARG) in the background on connections of its own
 * to the N stores S; FREE_RESULT frees a result nobody took, WHAT is the
 * error of a failure that gives no cause. NULL with *cause set if the
 * thread or the connections cannot be had.
 */
static struct store_job *
store_job_start(struct store **s, size_t n, store_job_fn run, void *arg,
    void (*free_result)(void *), const char *what, char **cause)
{
	struct store_job	*j;
	size_t			 i;

	j = xcalloc(1, sizeof *j);
	for (i = 0; i < n; i++) {
		if ((j->ws[i] = store_open(store_path(s[i]), cause)) == NULL) {
			store_job_close(j);
			free(j);
			return NULL;
		}
		j->nws++;
		sqlite3_progress_handler(j->ws[i]->db, 1000, store_job_check,
		    j);
	}
	j->run = run;
	j->arg = arg;
	j->free_result = free_result;
	j->what = what;
	pthread_mutex_init(&j->lock, NULL);
	if (pthread_create(&j->thread, NULL, store_job_main, j) != 0) {
		xasprintf(cause, "%s: cannot start a thread", what);
		pthread_mutex_destroy(&j->lock);
		store_job_close(j);
		free(j);
		return NULL;
	}
	return j;
}

/*
 * Whether job J is done: 0 while it runs; 1 with its result in *R (the
 * caller's from then on); -1 with *cause set if it failed.
 */
static int
store_job_poll(struct store_job *j, void **r, char **cause)
{
	int	 rc = 0;

	pthread_mutex_lock(&j->lock);
	if (j->done && j->result != NULL) {
		*r = j->result;
		j->result = NULL;
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
static void
store_job_free(struct store_job *j)
{
	size_t	 i;

	if (j == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	j->cancel = true;
	pthread_mutex_unlock(&j->lock);
	for (i = 0; i < j->nws; i++)
		sqlite3_interrupt(j->ws[i]->db);
	pthread_join(j->thread, NULL);
	pthread_mutex_destroy(&j->lock);
	store_job_close(j);
	if (j->result != NULL)
		j->free_result(j->result);
	free(j->error);
	free(j);
}

/* The call tree: store_stacks_build() of options O. */
struct store_stacks_job {
	struct store_job	*job;
	struct store_stacks_opts o;
};

static void *
store_stacks_job_run(struct store **ws, void *arg, char **cause)
{
	return store_stacks_build(ws[0], arg, cause);
}

static void
store_stacks_job_result_free(void *r)
{
	store_stacks_free(r);
}

struct store_stacks_job *
store_stacks_job_start(struct store *s, const struct store_stacks_opts *o,
    char **cause)
{
	struct store_stacks_job	*sj;

	sj = xcalloc(1, sizeof *sj);
	sj->o = *o;
	if ((sj->job = store_job_start(&s, 1, store_stacks_job_run, &sj->o,
	    store_stacks_job_result_free, "cannot build the call tree",
	    cause)) == NULL) {
		free(sj);
		return NULL;
	}
	return sj;
}

int
store_stacks_job_poll(struct store_stacks_job *sj, struct store_stacks **st,
    char **cause)
{
	void	*r;
	int	 rc;

	if ((rc = store_job_poll(sj->job, &r, cause)) == 1)
		*st = r;
	return rc;
}

void
store_stacks_job_free(struct store_stacks_job *sj)
{
	if (sj == NULL)
		return;
	store_job_free(sj->job);
	free(sj);
}

/* The advice: store_advice() of RANK's findings (NP_NA: all). */
struct store_advice_job {
	struct store_job	*job;
	int64_t			 rank;
};

/* The advice's result: the findings and the rules not applied. */
struct store_advice_result {
	struct store_rows	*rows;
	char			*skipped;
};

static void *
store_advice_job_run(struct store **ws, void *arg, char **cause)
{
	struct store_advice_result	*ar;
	struct store_rows		*r;
	char				*skipped = NULL;

	if ((r = store_advice(ws[0], *(int64_t *)arg, &skipped, cause)) ==
	    NULL) {
		free(skipped);
		return NULL;
	}
	ar = xcalloc(1, sizeof *ar);
	ar->rows = r;
	ar->skipped = skipped;
	return ar;
}

static void
store_advice_job_result_free(void *r)
{
	struct store_advice_result	*ar = r;

	store_rows_free(ar->rows);
	free(ar->skipped);
	free(ar);
}

struct store_advice_job *
store_advice_job_start(struct store *s, int64_t rank, char **cause)
{
	struct store_advice_job	*aj;

	aj = xcalloc(1, sizeof *aj);
	aj->rank = rank;
	if ((aj->job = store_job_start(&s, 1, store_advice_job_run, &aj->rank,
	    store_advice_job_result_free, "cannot work out the advice",
	    cause)) == NULL) {
		free(aj);
		return NULL;
	}
	return aj;
}

/*
 * As store_job_poll(), with the findings in *R and the rules not applied
 * in *SKIPPED.
 */
int
store_advice_job_poll(struct store_advice_job *aj, struct store_rows **r,
    char **skipped, char **cause)
{
	struct store_advice_result	*ar;
	void				*v;
	int				 rc;

	if ((rc = store_job_poll(aj->job, &v, cause)) == 1) {
		ar = v;
		*r = ar->rows;
		*skipped = ar->skipped;
		free(ar);
	}
	return rc;
}

void
store_advice_job_free(struct store_advice_job *aj)
{
	if (aj == NULL)
		return;
	store_job_free(aj->job);
	free(aj);
}

/* A comparison table: MAKE(base, new, O). */
struct store_compare_job {
	struct store_job	*job;
	struct store_compare	 o;
	store_compare_fn	 make;
};

static void *
store_compare_job_run(struct store **ws, void *arg, char **cause)
{
	struct store_compare_job	*cj = arg;

	return cj->make(ws[0], ws[1], &cj->o, cause);
}

static void
store_compare_job_result_free(void *r)
{
	store_rows_free(r);
}

struct store_compare_job *
store_compare_job_start(struct store *base, struct store *new,
    const struct store_compare *o, store_compare_fn make, char **cause)
{
	struct store_compare_job	*cj;
	struct store			*s[2] = { base, new };

	cj = xcalloc(1, sizeof *cj);
	cj->o = *o;
	cj->make = make;
	if ((cj->job = store_job_start(s, 2, store_compare_job_run, cj,
	    store_compare_job_result_free, "cannot make the comparison table",
	    cause)) == NULL) {
		free(cj);
		return NULL;
	}
	return cj;
}

int
store_compare_job_poll(struct store_compare_job *cj, struct store_rows **r,
    char **cause)
{
	void	*v;
	int	 rc;

	if ((rc = store_job_poll(cj->job, &v, cause)) == 1)
		*r = v;
	return rc;
}

void
store_compare_job_free(struct store_compare_job *cj)
{
	if (cj == NULL)
		return;
	store_job_free(cj->job);
	free(cj);
}
