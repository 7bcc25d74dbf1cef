/* Opening a finished store read-only. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

static void
store_open_setup(void)
{
	/*
	 * No count of SQLite's memory: it is never asked for, and keeping
	 * it takes a global lock around every allocation, which the load's
	 * two threads (and the UI's readers) would share.
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* SQLite set up as the store uses it, before its first connection. */
void
store_open_init(void)
{
	static pthread_once_t	 once = PTHREAD_ONCE_INIT;

	pthread_once(&once, store_open_setup);
}

int
store_open_db(struct store *s, const char *path, int flags, char **cause)
{
	store_open_init();
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		xasprintf(cause, "cannot open store '%s': %s", path,
		    s->db != NULL ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite3_close(s->db);
		s->db = NULL;
		return -1;
	}
	sqlite3_busy_timeout(s->db, 2000);
	store_register_functions(s);
	return 0;
}

/*
 * A second connection to the store at PATH for a helper thread of the
 * UI's (a scan's half, a bitmap's or tuples' reader), with a small cache:
 * it reads the table through once. NULL with *cause set on failure.
 */
struct store *
store_open_reader(const char *path, char **cause)
{
	struct store	*s;

	if ((s = store_open(path, cause)) != NULL)
		sqlite3_exec(s->db, "PRAGMA cache_size = -8192", NULL, NULL,
		    NULL);
	return s;
}

/* The schema version of the store S has open, -1 if it has none. */
int
store_open_version(struct store *s)
{
	sqlite3_stmt	*stmt;
	int		 version = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &stmt,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			version = sqlite3_column_int(stmt, 0);
		sqlite3_finalize(stmt);
	}
	return version;
}

/*
 * Open the finished store at PATH for reading. On failure (missing file,
 * not a store, wrong schema version) return NULL and set *cause.
 */
struct store *
store_open(const char *path, char **cause)
{
	struct store	*s;
	struct stat	 st;
	int		 version;

	/* SQLite would wait on a FIFO forever. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		xasprintf(cause, "'%s' is not a store: not a regular file",
		    path);
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	/*
	 * A connection is only ever used by the thread that opened it (the
	 * UI's background scans open their own), so SQLite need not lock
	 * around every call: a timeline frame makes thousands of them.
	 */
	if (store_open_db(s, path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
	    cause) != 0) {
		store_free(s);
		return NULL;
	}
	if ((version = store_open_version(s)) != STORE_SCHEMA_VERSION) {
		xasprintf(cause, "'%s' is not a store of this version (schema "
		    "%d, expected %d)", path, version, STORE_SCHEMA_VERSION);
		store_free(s);
		return NULL;
	}
	store_meta_get(s, "root", &s->root);
	return s;
}

