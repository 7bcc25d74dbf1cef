/*
 * Opening a finished store read-only, closing it, reading its meta table,
 * and where the store of a PATH lives by default.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

#define STORE_NAME		"npuprof-tui.db"

int
store_open_db(struct store *s, const char *path, int flags, char **cause)
{
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
 * Open the finished store at PATH for reading. On failure (missing file,
 * not a store, wrong schema version) return NULL and set *cause.
 */
struct store *
store_open(const char *path, char **cause)
{
	struct store	*s;
	sqlite3_stmt	*stmt;
	int		 version = -1;

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
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &stmt,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			version = sqlite3_column_int(stmt, 0);
		sqlite3_finalize(stmt);
	}
	if (version != STORE_SCHEMA_VERSION) {
		xasprintf(cause, "'%s' is not a store of this version (schema "
		    "%d, expected %d)", path, version, STORE_SCHEMA_VERSION);
		store_free(s);
		return NULL;
	}
	store_meta_get(s, "root", &s->root);
	return s;
}

void
store_free(struct store *s)
{
	int	 i;

	if (s == NULL)
		return;
	for (i = 0; i < STMT_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	store_timeline_free(s);
	store_tables_free(s);
	sqlite3_close(s->db);
	free(s->path);
	free(s->tmp);
	free(s->root);
	free(s->pmu_names);
	free(s->legacy);
	free(s);
}

const char *
store_path(struct store *s)
{
	return s->path;
}

/* Set *value to the meta value of KEY (caller frees); -1 if absent. */
int
store_meta_get(struct store *s, const char *key, char **value)
{
	sqlite3_stmt	*stmt;
	int		 rc = -1;

	*value = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_text(stmt, 0) != NULL) {
		*value = xstrdup((const char *)sqlite3_column_text(stmt, 0));
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* True for our own store files, which the manifest leaves out. */
bool
store_is_own_file(const char *name)
{
	return strstr(name, STORE_NAME) != NULL;
}

/*
 * The store for ROOT: beside the data when that directory is writable,
 * otherwise under $XDG_CACHE_HOME/npuprof-tui/. The caller frees it.
 */
char *
store_default_path(const char *root)
{
	struct stat	 st;
	char		*real, *dir, *path, *cache, *base;
	const char	*xdg, *home;
	bool		 isdir;

	if ((real = realpath(root, NULL)) == NULL)
		real = xstrdup(root);
	isdir = stat(real, &st) == 0 && S_ISDIR(st.st_mode);
	if (isdir) {
		dir = xstrdup(real);
		path = util_path_join(real, STORE_NAME);
	} else {
		dir = xstrdup(real);
		*strrchr(dir, '/') = '\0';
		if (*dir == '\0')
			strcpy(dir, "/");
		xasprintf(&path, "%s.%s", real, STORE_NAME);
	}
	if (access(dir, W_OK) == 0 || (access(path, F_OK) == 0 &&
	    access(path, W_OK) == 0)) {
		free(dir);
		free(real);
		return path;
	}
	free(path);
	free(dir);
	if ((xdg = getenv("XDG_CACHE_HOME")) != NULL && *xdg == '/')
		cache = util_path_join(xdg, "npuprof-tui");
	else {
		if ((home = getenv("HOME")) == NULL || *home == '\0')
			home = "/tmp";
		xasprintf(&cache, "%s/.cache/npuprof-tui", home);
	}
	base = xstrdup(util_basename(real));
	if (*base == '\0') {
		free(base);
		base = xstrdup("root");
	}
	xasprintf(&path, "%s/%s-%016llx.db", cache, base,
	    (unsigned long long)util_hash64(real, strlen(real)));
	free(base);
	free(cache);
	free(real);
	return path;
}
