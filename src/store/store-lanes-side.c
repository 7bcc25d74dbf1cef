/*
 * The timeline's own file. An import does not build the timeline tables
 * (store-lanes.c): no statistic needs them. They are built the first time
 * a timeline is asked for, into STORE-timeline beside the store (or a
 * temporary file when that folder cannot be written), which is then
 * attached to the store's connection as schema "tl", so the timeline's
 * queries read them as if they were the store's. The file names the store
 * it was built for (the store's random store_id), the schema version and
 * the version of its own tables' layout; one that does not match is built
 * again. The UI builds it in a thread while the other views
 * work (store_timeline_prefetch(), store_timeline_poll()); everyone else
 * builds it when first needed (store_timeline_ensure()). Either builds the
 * store's own indexes when they are not there yet (store-index.c): that
 * of the default order first, the others in a thread beside the build.
 */
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

/* A build of the timeline's file in a thread of its own. */
struct store_tl_job {
	char		*store;		/* the store's path */
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	bool		 done;
	bool		 cancel;
	bool		 indexing;	/* building the store's indexes */
	bool		 timeline;	/* building the timeline (beside them) */
	bool		 begun;		/* with the file to itself */
	bool		 index_only;	/* the timeline is there */
	char		*side;		/* the file built, once done */
	bool		 temp;		/* it is a temporary file */
	char		*error;		/* or why not */
	double		 t0;
};

/*
 * The store's indexes, built in a thread beside the timeline's tables once
 * the index of the default order is in, which the UI's pages wait for.
 */
struct store_tl_index {
	const char		*path;		/* the store's */
	struct store_tl_job	*j;		/* or NULL */
	pthread_t		 thread;
	bool			 threaded;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	bool			 ordered;	/* the default order's is in */
	bool			 done;		/* the build is over */
};

/* The timeline's file of the store at PATH; the caller frees it. */
char *
store_timeline_side(const char *path)
{
	char	*side;

	xasprintf(&side, "%s-timeline", path);
	return side;
}

/* SQLite's progress handler: a cancelled build's statements stop. */
static int
store_timeline_check(void *arg)
{
	struct store_tl_job	*j = arg;
	bool			 cancel;

	if (j == NULL)
		return 0;
	pthread_mutex_lock(&j->lock);
	cancel = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return cancel;
}

/* store_index_ensure() has the file: it builds the indexes now. */
static void
store_timeline_begun(void *arg)
{
	struct store_tl_job	*j = arg;

	if (j == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	j->begun = true;
	pthread_mutex_unlock(&j->lock);
}

static int
store_timeline_index_check(void *arg)
{
	struct store_tl_index	*x = arg;

	return store_timeline_check(x->j);
}

static void
store_timeline_index_begun(void *arg)
{
	struct store_tl_index	*x = arg;

	store_timeline_begun(x->j);
}

/* The index of the default order is in: the timeline may start. */
static void
store_timeline_index_ordered(void *arg)
{
	struct store_tl_index	*x = arg;

	pthread_mutex_lock(&x->lock);
	x->ordered = true;
	pthread_cond_broadcast(&x->cond);
	pthread_mutex_unlock(&x->lock);
}

/*
 * Build the indexes of the store at x->path for job x->j (or NULL), if it
 * can: a store that cannot be written goes on without them.
 */
static void
store_timeline_index(struct store_tl_index *x)
{
	struct store_tl_job	*j = x->j;
	char			*why = NULL;

	if (store_index_ensure(x->path, true, store_timeline_index_check,
	    store_timeline_index_begun, store_timeline_index_ordered, x,
	    &why) != 0)
		free(why);
	if (j != NULL) {
		pthread_mutex_lock(&j->lock);
		j->indexing = false;
		pthread_mutex_unlock(&j->lock);
	}
	pthread_mutex_lock(&x->lock);
	x->done = true;
	pthread_cond_broadcast(&x->cond);
	pthread_mutex_unlock(&x->lock);
}

static void *
store_timeline_index_main(void *arg)
{
	store_timeline_index(arg);
	return NULL;
}

/*
 * Start building the indexes of the store at PATH for job J (or NULL) into
 * X: in a thread of their own when THREADED and one can be had (the
 * timeline builds meanwhile), else here and now.
 */
static void
store_timeline_index_start(struct store_tl_index *x, const char *path,
    struct store_tl_job *j, bool threaded)
{
	memset(x, 0, sizeof *x);
	x->path = path;
	x->j = j;
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->cond, NULL);
	x->threaded = threaded && pthread_create(&x->thread, NULL,
	    store_timeline_index_main, x) == 0;
	if (!x->threaded)
		store_timeline_index(x);
}

/*
 * Wait until X's index of the default order is in, or its build is over
 * (built, stopped or failed); then the timeline builds, which the status
 * line says from now on.
 */
static void
store_timeline_index_wait(struct store_tl_index *x)
{
	struct store_tl_job	*j = x->j;

	pthread_mutex_lock(&x->lock);
	while (!x->done && !x->ordered)
		pthread_cond_wait(&x->cond, &x->lock);
	pthread_mutex_unlock(&x->lock);
	if (j != NULL) {
		pthread_mutex_lock(&j->lock);
		j->timeline = true;
		pthread_mutex_unlock(&j->lock);
	}
}

/* Wait for X's build to end and let go of X. */
static void
store_timeline_index_end(struct store_tl_index *x)
{
	if (x->threaded)
		pthread_join(x->thread, NULL);
	pthread_mutex_destroy(&x->lock);
	pthread_cond_destroy(&x->cond);
}

/*
 * A new temporary file for the timeline of the store at PATH: beside the
 * store, or in TMPDIR when its folder cannot be written (*TEMP set). The
 * file is created with mode 0600 and stays locked while its builder lives
 * (*LOCK). NULL with *cause set if neither place works.
 */
static char *
store_timeline_tmp(const char *path, bool *temp, int *lock, char **cause)
{
	const char	*dir;
	char		*side, *tmp;
	int		 fd;

	side = store_timeline_side(path);
	store_load_sweep(side);
	xasprintf(&tmp, "%s.tmp-XXXXXX", side);
	free(side);
	*temp = false;
	if ((fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
		free(tmp);
		if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
			dir = "/tmp";
		xasprintf(&tmp, "%s/npuprof-timeline-XXXXXX", dir);
		if ((fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
			xasprintf(cause, "cannot create the timeline of '%s':"
			    " %s", path, strerror(errno));
			free(tmp);
			return NULL;
		}
		*temp = true;
	}
	/* The mark of a live build for store_load_sweep(). */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		fd = -1;
	}
	*lock = fd;
	return tmp;
}

/*
 * Build the tables of store-lanes.c from the store at PATH into the new
 * file TMP: TMP is the connection's main schema, the store is attached
 * beside it, so the builder's queries read the store and its writes go to
 * TMP. The job x->j (or NULL) may cancel it; the store's indexes build in
 * X meanwhile. -1 with *cause set on failure.
 */
static int
store_timeline_fill(const char *path, const char *tmp,
    struct store_tl_index *x, char **cause)
{
	struct store_tl_job	*j = x->j;
	struct store		*b;
	sqlite3_stmt		*stmt;
	char			 buf[64];
	int			 rc = -1;

	b = xcalloc(1, sizeof *b);
	b->path = xstrdup(tmp);
	if (store_open_db(b, tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
	    cause) != 0)
		goto out;
	sqlite3_progress_handler(b->db, 1000, store_timeline_check, j);
	/*
	 * The store is attached as any reader opens it, not locked for this
	 * connection alone: the UI may read it, and a build of its indexes
	 * write ahead in it, meanwhile (store-index.c). An 8 MB cache, as
	 * the import's: the builder appends in key order. Raw 1M built in
	 * the same 5.4 s with 26 MB less at the peak than with 32 MB, demo
	 * 10M in 14.4 s instead of 16.0 s, with 26 MB less.
	 */
	if (store_exec(b, store_load_pragmas, cause) != 0 ||
	    store_exec(b, "PRAGMA cache_size = -8192", cause) != 0 ||
	    store_exec(b, "PRAGMA locking_mode = NORMAL;"
	    " PRAGMA main.locking_mode = EXCLUSIVE", cause) != 0 ||
	    store_prepare(b, &stmt, "ATTACH DATABASE ? AS st", cause) != 0)
		goto out;
	sqlite3_bind_text(stmt, 1, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the store '%s': %s", path,
		    sqlite3_errmsg(b->db));
		rc = -1;
		goto out;
	}
	snprintf(buf, sizeof buf, "INSERT INTO main.meta VALUES ('schema',"
	    " '%d.%d')", STORE_SCHEMA_VERSION, STORE_TIMELINE_LAYOUT);
	rc = -1;
	if (store_exec(b, "BEGIN; CREATE TABLE main.meta(key TEXT PRIMARY"
	    " KEY, value TEXT); INSERT INTO main.meta SELECT key, value FROM"
	    " st.meta WHERE key = 'store_id'", cause) != 0 ||
	    store_lanes_build(b, path, store_timeline_check, j, cause) != 0 ||
	    store_exec(b, buf, cause) != 0 ||
	    store_exec(b, "COMMIT", cause) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0 && j != NULL && store_timeline_check(j)) {
		free(*cause);
		*cause = xstrdup("the timeline's build was cancelled");
	}
	store_free(b);
	return rc;
}

/*
 * Build the timeline's file of the store at PATH; on success set *SIDE to
 * its path (the caller's) and *TEMP if it is a temporary file, not the
 * one beside the store. J (or NULL) may cancel the build. -1 with *cause
 * set on failure; no file is left behind then.
 */
static int
store_timeline_make(const char *path, struct store_tl_job *j, char **side,
    bool *temp, char **cause)
{
	struct store_tl_index	 x;
	char			*tmp, *final;
	int			 lock, rc;

	/*
	 * The store's indexes, if its import left them to the UI: the index
	 * of the default order first, which the build's task query and the
	 * UI's pages read by, then the others beside the build, on the other
	 * core. The build reads none of them: its connections see the store
	 * as it was when they began (the index of connection ids, which its
	 * flows are looked up by, comes with the import that fills them).
	 */
	store_timeline_index_start(&x, path, j, true);
	store_timeline_index_wait(&x);
	if ((tmp = store_timeline_tmp(path, temp, &lock, cause)) == NULL) {
		store_timeline_index_end(&x);
		return -1;
	}
	rc = store_timeline_fill(path, tmp, &x, cause);
	store_timeline_index_end(&x);
	/*
	 * The build of the indexes left the store writing ahead if the
	 * timeline's readers were still in the way: back to a rollback
	 * journal now, if no other reader is.
	 */
	if (x.threaded)
		store_index_settle(path);
	if (rc != 0) {
		unlink(tmp);
		free(tmp);
		if (lock != -1)
			close(lock);
		return -1;
	}
	/*
	 * Built without a journal: on disk before its name is, so a crash
	 * cannot leave a named file of missing pages that would pass the
	 * identity check.
	 */
	if (lock != -1) {
		(void)fsync(lock);
		close(lock);
	}
	if (*temp) {
		*side = tmp;
		return 0;
	}
	final = store_timeline_side(path);
	if (rename(tmp, final) != 0) {
		xasprintf(cause, "cannot rename '%s' to '%s': %s", tmp, final,
		    strerror(errno));
		unlink(tmp);
		free(tmp);
		free(final);
		return -1;
	}
	free(tmp);
	*side = final;
	return 0;
}

/*
 * Attach the timeline's file SIDE to S if it was built for S: the same
 * store_id and schema version. False if it was not, or cannot be read.
 */
static bool
store_timeline_attach(struct store *s, const char *side, bool temp)
{
	sqlite3_stmt	*stmt;
	bool		 ok = false;
	int		 rc;

	if (access(side, R_OK) != 0 || sqlite3_prepare_v2(s->db,
	    "ATTACH DATABASE ? AS tl", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(stmt, 1, side, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return false;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM tl.meta m, main.meta n,"
	    " tl.meta v WHERE m.key = 'store_id' AND n.key = 'store_id' AND"
	    " m.value = n.value AND v.key = 'schema' AND v.value = ?1 || '.'"
	    " || ?2", -1, &stmt, NULL) == SQLITE_OK) {
		sqlite3_bind_int(stmt, 1, STORE_SCHEMA_VERSION);
		sqlite3_bind_int(stmt, 2, STORE_TIMELINE_LAYOUT);
		ok = sqlite3_step(stmt) == SQLITE_ROW;
		sqlite3_finalize(stmt);
	}
	if (!ok) {
		sqlite3_exec(s->db, "DETACH DATABASE tl", NULL, NULL, NULL);
		return false;
	}
	free(s->tl_side);
	s->tl_side = xstrdup(side);
	s->tl_temp = temp;
	return true;
}

/* True if S has its timeline attached, attaching a current file if any. */
static bool
store_timeline_ready(struct store *s)
{
	char	*side;
	bool	 ok;

	if (s->tl_side != NULL)
		return true;
	if (s->loading)
		return false;
	side = store_timeline_side(s->path);
	ok = store_timeline_attach(s, side, false);
	free(side);
	return ok;
}

static void *
store_timeline_job_main(void *arg)
{
	struct store_tl_job	*j = arg;
	struct store_tl_index	 x;
	char			*side = NULL, *cause = NULL;
	bool			 temp = false;
	int			 rc;

#ifdef __linux__
	/*
	 * Yield to the UI's own work (its scans and sorts): on Linux a
	 * thread has a nice value of its own.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
	/* With the timeline there, only the indexes are missing. */
	if (j->index_only) {
		store_timeline_index_start(&x, j->store, j, false);
		store_timeline_index_end(&x);
		rc = 0;
	} else
		rc = store_timeline_make(j->store, j, &side, &temp, &cause);
	pthread_mutex_lock(&j->lock);
	j->side = side;
	j->temp = temp;
	j->error = rc == 0 ? NULL : cause;
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Cancel S's build if it runs, wait for it, and forget it. */
void
store_timeline_job_free(struct store *s)
{
	struct store_tl_job	*j = s->tl_job;

	if (j == NULL)
		return;
	pthread_mutex_lock(&j->lock);
	j->cancel = true;
	pthread_mutex_unlock(&j->lock);
	pthread_join(j->thread, NULL);
	pthread_mutex_destroy(&j->lock);
	if (j->side != NULL && j->temp)
		unlink(j->side);
	free(j->side);
	free(j->error);
	free(j->store);
	free(j);
	s->tl_job = NULL;
}

/*
 * Start building S's indexes and timeline in the background unless they
 * are there or being built (once a session: a store whose indexes could
 * not be built beside a timeline that could is tried again only by the
 * next). -1 with *cause set if no thread could be had.
 */
int
store_timeline_prefetch(struct store *s, char **cause)
{
	struct store_tl_job	*j;
	char			*v = NULL;
	bool			 index_only = false;

	if (s->tl_job != NULL)
		return 0;
	if (store_timeline_ready(s)) {
		store_meta_get(s, "indexes", &v);
		index_only = v == NULL || strcmp(v, "built") != 0;
		free(v);
		if (!index_only)
			return 0;
	}
	j = xcalloc(1, sizeof *j);
	j->store = xstrdup(s->path);
	j->t0 = util_now();
	j->indexing = true;
	j->index_only = index_only;
	pthread_mutex_init(&j->lock, NULL);
	if (pthread_create(&j->thread, NULL, store_timeline_job_main, j) !=
	    0) {
		pthread_mutex_destroy(&j->lock);
		free(j->store);
		free(j);
		xasprintf(cause, "cannot start a thread to build the timeline");
		return -1;
	}
	s->tl_job = j;
	return 0;
}

/*
 * What S's background build is doing, without taking its result (as
 * store_timeline_poll() does): STORE_BUSY_NONE (none runs, or it is done),
 * STORE_BUSY_WAITING (for the file, to build the indexes),
 * STORE_BUSY_INDEXES or STORE_BUSY_TIMELINE; *SECS (NULL allowed) since
 * it started.
 */
int
store_timeline_state(struct store *s, double *secs)
{
	struct store_tl_job	*j = s != NULL ? s->tl_job : NULL;
	int			 busy;

	if (j == NULL)
		return STORE_BUSY_NONE;
	pthread_mutex_lock(&j->lock);
	busy = j->done ? STORE_BUSY_NONE : j->timeline || !j->indexing ?
	    STORE_BUSY_TIMELINE : j->begun ? STORE_BUSY_INDEXES :
	    STORE_BUSY_WAITING;
	pthread_mutex_unlock(&j->lock);
	if (secs != NULL)
		*secs = util_now() - j->t0;
	return busy;
}

/*
 * Where S's timeline is: 1 ready (attached), 0 being built, *secs since it
 * started (NULL allowed), -1 with *cause set if the build failed.
 */
int
store_timeline_poll(struct store *s, double *secs, char **cause)
{
	struct store_tl_job	*j = s->tl_job;
	bool			 done;
	int			 rc;

	if (store_timeline_ready(s))
		return 1;
	if (j == NULL) {
		xasprintf(cause, "the timeline of '%s' is not built", s->path);
		return -1;
	}
	pthread_mutex_lock(&j->lock);
	done = j->done;
	pthread_mutex_unlock(&j->lock);
	if (!done) {
		if (secs != NULL)
			*secs = util_now() - j->t0;
		return 0;
	}
	rc = 1;
	if (j->error != NULL) {
		*cause = j->error;
		j->error = NULL;
		rc = -1;
	} else if (!store_timeline_attach(s, j->side, j->temp)) {
		xasprintf(cause, "cannot read the timeline '%s'", j->side);
		rc = -1;
	} else if (j->temp) {
		/* The store unlinks it when done with it. */
		free(j->side);
		j->side = NULL;
	}
	store_timeline_job_free(s);
	return rc;
}

/*
 * Make S's timeline ready: attach it, wait for a build under way, or build
 * it here. -1 with *cause set on failure.
 */
int
store_timeline_ensure(struct store *s, char **cause)
{
	char	*side = NULL;
	bool	 temp;
	int	 rc;

	if (store_timeline_ready(s))
		return 0;
	if (s->loading) {
		xasprintf(cause, "store '%s' has no timeline yet", s->path);
		return -1;
	}
	if (s->tl_job != NULL) {
		while ((rc = store_timeline_poll(s, NULL, cause)) == 0)
			usleep(10000);
		return rc == 1 ? 0 : -1;
	}
	if (store_timeline_make(s->path, NULL, &side, &temp, cause) != 0)
		return -1;
	rc = 0;
	if (!store_timeline_attach(s, side, temp)) {
		xasprintf(cause, "cannot read the timeline '%s'", side);
		if (temp)
			unlink(side);
		rc = -1;
	}
	free(side);
	return rc;
}

/*
 * Stop S's background build (its indexes and its timeline) if one runs;
 * store_timeline_prefetch() starts it again.
 */
void
store_timeline_stop(struct store *s)
{
	store_timeline_job_free(s);
}

/* Let go of S's timeline: a build is cancelled, a temporary file goes. */
void
store_timeline_release(struct store *s)
{
	store_timeline_job_free(s);
	if (s->tl_side != NULL && s->tl_temp)
		unlink(s->tl_side);
	free(s->tl_side);
	s->tl_side = NULL;
}
