/*
 * The store's secondary indexes, built after its load. An import renames
 * its store into place with the tables and the statistics only; the
 * indexes that pages, sorts, filters, the timeline's build and the spans'
 * queries read are added afterwards, on the finished file: first the
 * index of the task tables' default order (store_schema_index_order_sql)
 * in a transaction of its own, then the others (store_schema_index_sql)
 * in one that ends by setting meta 'indexes' to 'built'. Until then every
 * query gives the same rows, only slower. The command line builds them at
 * once, before it reads the store; the UI opens on the statistics first
 * and builds them in its background thread, the first before the
 * timeline's tables, the others beside them (store-lanes-side.c), and a
 * page of a task table in its default order waits for the first
 * (store_index_wait_order()), which comes in a fraction of the time the
 * whole table takes to read without it. A
 * build cut short (a crash, the UI quit) is
 * rolled back by SQLite's journal, played back by the next command before
 * it reads the store (store_index_recover()), which then builds them
 * again where it may write the file.
 *
 * While the UI reads the store its build writes ahead (SQLite's WAL):
 * with a rollback journal the writer locks every reader out from the
 * first page it spills to the file until it commits, and the UI's views
 * would wait for the whole build. The file goes back to a rollback
 * journal after it, once no reader is in the way (else it stays in WAL,
 * which every opening reads alike, and the next build, or the UI when it
 * is done with the store, tries again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "store-int.h"

/* True if the connection's store says its indexes are built. */
static bool
store_index_done(struct store *s)
{
	char	*v = NULL;
	bool	 done;

	store_meta_get(s, "indexes", &v);
	done = v != NULL && strcmp(v, "built") == 0;
	free(v);
	return done;
}

/*
 * A connection that may write the store at PATH (freed by store_free()),
 * or NULL with *cause set.
 */
static struct store *
store_index_open(const char *path, char **cause)
{
	struct store	*b;

	b = xcalloc(1, sizeof *b);
	b->path = xstrdup(path);
	if (store_open_db(b, path, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, cause) != 0) {
		store_free(b);
		return NULL;
	}
	return b;
}

/*
 * Whether the journal mode of S is MODE after setting it to MODE (or,
 * with SET false, without).
 */
static bool
store_index_mode(struct store *s, const char *mode, bool set)
{
	sqlite3_stmt	*stmt;
	char		 sql[64];
	bool		 ok = false;

	snprintf(sql, sizeof sql, "PRAGMA journal_mode%s%s", set ? " = " : "",
	    set ? mode : "");
	if (sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return false;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		ok = strcasecmp((const char *)sqlite3_column_text(stmt, 0),
		    mode) == 0;
	sqlite3_finalize(stmt);
	return ok;
}

static void	 store_index_settle_db(struct store *, bool);

/* How the build waits for a lock: a minute at most, and not once stopped. */
struct index_busy {
	int		(*cancel)(void *);
	void		*arg;
};

/* SQLite's busy handler: sleep 20 ms and try again, or give up. */
static int
store_index_busy(void *p, int n)
{
	struct index_busy	*w = p;

	if (n >= 3000 || (w->cancel != NULL && w->cancel(w->arg)))
		return 0;
	usleep(20000);
	return 1;
}

/*
 * Set S writing ahead, trying for some seconds. Each try waits for no
 * lock: while one waits for readers to end, SQLite keeps new readers out,
 * and the UI's would fail.
 */
static bool
store_index_wal(struct store *s, struct index_busy *w)
{
	int	 i, err;
	bool	 ok = false;

	sqlite3_busy_timeout(s->db, 0);
	for (i = 0; i < 200 && !ok; i++) {
		if ((ok = store_index_mode(s, "wal", true)) ||
		    (w->cancel != NULL && w->cancel(w->arg)))
			break;
		/* Only readers are worth waiting for, not a read-only file. */
		err = sqlite3_errcode(s->db);
		if (err != SQLITE_BUSY && err != SQLITE_LOCKED)
			break;
		usleep(50000);
	}
	sqlite3_busy_handler(s->db, store_index_busy, w);
	return ok;
}

/*
 * Build the indexes of the finished store at PATH unless it has them;
 * SHARED if others may read it meanwhile. CANCEL (or NULL) is asked now
 * and then whether to stop (with ARG); a stopped build leaves the store
 * as it was. BEGUN (or NULL) is told, with ARG, once the build has the
 * file to itself, before it builds the index of the default order, and
 * ORDERED (or NULL) once that index is in. A file
 * of another schema version is left alone. -1 with *cause set when the
 * file cannot be written (the store still reads, without the indexes) or
 * the build failed or was stopped.
 */
int
store_index_ensure(const char *path, bool shared, int (*cancel)(void *),
    void (*begun)(void *), void (*ordered)(void *), void *arg, char **cause)
{
	struct store		*b;
	struct index_busy	 w = { cancel, arg };
	int			 rc = -1;
	bool			 wal = false;

	if ((b = store_index_open(path, cause)) == NULL)
		return -1;
	/*
	 * Readers of the store (the UI's views, another command) wait for
	 * the commit rather than fail; so does this for theirs to end, or
	 * another build's, unless it is stopped.
	 */
	sqlite3_busy_handler(b->db, store_index_busy, &w);
	if (store_open_version(b) != STORE_SCHEMA_VERSION ||
	    store_index_done(b)) {
		rc = 0;
		goto out;
	}
	if (cancel != NULL)
		sqlite3_progress_handler(b->db, 1000, cancel, arg);
	if (shared && !(wal = store_index_wal(b, &w))) {
		if (sqlite3_errcode(b->db) == SQLITE_BUSY ||
		    sqlite3_errcode(b->db) == SQLITE_LOCKED)
			xasprintf(cause, "store '%s' is busy: its indexes are"
			    " built later", path);
		else
			xasprintf(cause, "store '%s' cannot be written: %s",
			    path, sqlite3_errmsg(b->db));
		goto out;
	}
	/*
	 * Not synced to disk, as the load is not: the journal still rolls
	 * back a build whose process died. A small cache, which SQLite's
	 * sorts of the index keys take their runs' size from: 4 MB built
	 * demo 10M's indexes in 9.6 s at a 14 MB peak, 32 MB in 14.5-16.0 s
	 * at 69 MB (bench/timeline.sh's input).
	 */
	if (store_exec(b, "PRAGMA cache_size = -4096; PRAGMA synchronous ="
	    " OFF; BEGIN IMMEDIATE", cause) != 0)
		goto out;
	/* Another process may have built them while this one waited. */
	if (store_index_done(b)) {
		rc = store_exec(b, "COMMIT", cause);
		goto out;
	}
	/* The task tables' pages wait for this one only (store_page.c). */
	if (begun != NULL)
		begun(arg);
	if (store_exec(b, store_schema_index_order_sql, cause) != 0 ||
	    store_exec(b, "COMMIT; BEGIN IMMEDIATE", cause) != 0) {
		sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	if (ordered != NULL)
		ordered(arg);
	if (store_exec(b, store_schema_index_sql, cause) != 0 ||
	    store_exec(b, "INSERT OR REPLACE INTO meta VALUES ('indexes',"
	    " 'built')", cause) != 0 ||
	    store_exec(b, "COMMIT", cause) != 0) {
		sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0 && cancel != NULL && cancel(arg)) {
		free(*cause);
		*cause = xstrdup("the build of the indexes was stopped");
	}
	store_index_settle_db(b, wal);
	store_free(b);
	return rc;
}

/*
 * The store of S back to a rollback journal if it writes ahead, the log
 * copied into the file (WAL if it was just set to): only when no other
 * connection reads it, else it stays so.
 */
static void
store_index_settle_db(struct store *s, bool wal)
{
	sqlite3_progress_handler(s->db, 0, NULL, NULL);
	if (!wal && !store_index_mode(s, "wal", false))
		return;
	/* A reader in the way: the next try does it. */
	sqlite3_busy_timeout(s->db, 200);
	sqlite3_exec(s->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL,
	    NULL);
	(void)store_index_mode(s, "delete", true);
}

/*
 * After the UI: the store at PATH back to a rollback journal if its
 * indexes were built while it read it, unless another reader holds it.
 */
void
store_index_settle(const char *path)
{
	struct store	*b;
	char		*cause = NULL;

	if ((b = store_index_open(path, &cause)) != NULL) {
		store_index_settle_db(b, false);
		store_free(b);
	}
	free(cause);
}

/*
 * Before a command reads the store at PATH: a journal or write-ahead log
 * left by a build of its indexes that was killed (or by a UI that did not
 * end by itself) is played back or copied in, where the file can be
 * written; a read-only opening could not, and would take the store for
 * none.
 */
void
store_index_recover(const char *path)
{
	struct store	*b;
	char		*journal, *wal, *cause = NULL;
	bool		 left;

	xasprintf(&journal, "%s-journal", path);
	xasprintf(&wal, "%s-wal", path);
	left = access(journal, F_OK) == 0 || access(wal, F_OK) == 0;
	free(journal);
	free(wal);
	if (!left)
		return;
	if ((b = store_index_open(path, &cause)) != NULL) {
		sqlite3_busy_timeout(b->db, 200);
		/* Reading the schema plays a hot journal back. */
		sqlite3_exec(b->db, "SELECT count(*) FROM sqlite_master", NULL,
		    NULL, NULL);
		store_index_settle_db(b, false);
		store_free(b);
	}
	free(cause);
}

/*
 * Wait, while the UI's background thread builds S's indexes, for the
 * index of the task tables' default order: without it a page of such a
 * table in that order reads the whole table. Not while the build waits
 * for the file (readers in the way) past STORE_INDEX_LOCK_MS, and at most
 * STORE_INDEX_WAIT_MS in all.
 */
void
store_index_wait_order(struct store *s)
{
	int	 waited, state;

	for (waited = 0; waited < STORE_INDEX_WAIT_MS; waited += 20) {
		if (store_exists(s, "SELECT 1 FROM sqlite_master WHERE"
		    " type = 'index' AND name = 'task_start'"))
			return;
		state = store_timeline_state(s, NULL);
		if (state == STORE_BUSY_NONE || state == STORE_BUSY_TIMELINE ||
		    (state == STORE_BUSY_WAITING &&
		    waited >= STORE_INDEX_LOCK_MS))
			return;
		usleep(20000);
	}
}
