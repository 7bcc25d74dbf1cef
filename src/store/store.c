/*
 * Opening a finished store, finding where a PATH's store lives, and the
 * manifest of input files that tells whether a store is still current.
 * The SQL functions the queries use (formatting, regex filters, numeric
 * text collation) are registered here.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

#define STORE_NAME		"npuprof-tui.db"
#define STORE_MANIFEST_MAX	200000
#define STORE_MANIFEST_DEPTH	12

struct store_manifest_entry {
	char		*path;
	int64_t		 size;
	int64_t		 mtime_ns;
};

struct store_manifest {
	struct store_manifest_entry	*v;
	size_t				 n;
	size_t				 size;
};

int
store_prepare(struct store *s, sqlite3_stmt **stmt, const char *sql,
    char **cause)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "cannot prepare query: %s",
		    sqlite3_errmsg(s->db));
		*stmt = NULL;
		return -1;
	}
	return 0;
}

int
store_exec(struct store *s, const char *sql, char **cause)
{
	char	*err = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		xasprintf(cause, "store '%s': %s", s->path,
		    err != NULL ? err : sqlite3_errmsg(s->db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* True if SQL (a query, usually ending in LIMIT 1) yields a row. */
bool
store_exists(struct store *s, const char *sql)
{
	sqlite3_stmt	*stmt;
	bool		 found = false;

	if (sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) == SQLITE_OK) {
		found = sqlite3_step(stmt) == SQLITE_ROW;
		sqlite3_finalize(stmt);
	}
	return found;
}

bool
store_has_table(struct store *s, const char *name)
{
	sqlite3_stmt	*stmt;
	bool		 found;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE"
	    " name = ?", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return found;
}

static void
store_match_finalize(void *stmt)
{
	sqlite3_finalize(stmt);
}

/*
 * Whether M matches the string of str id V on DB (N/A for NULL or an id
 * without a string, as the join would show it). Each id is matched once:
 * M remembers the answer, and a statement to read strings with.
 */
static bool
store_match_str(sqlite3 *db, struct matcher *m, sqlite3_value *v)
{
	sqlite3_stmt	*stmt;
	const char	*t = "N/A";
	int64_t		 id = -1;
	size_t		 len = 3;
	int		 r;

	if (sqlite3_value_type(v) == SQLITE_INTEGER)
		id = sqlite3_value_int64(v);
	else if (sqlite3_value_type(v) != SQLITE_NULL) {
		t = (const char *)sqlite3_value_text(v);
		return t != NULL && matcher_match(m, t,
		    (size_t)sqlite3_value_bytes(v));
	}
	/* Ids from 0 up are remembered from 1 up, NULL as 0. */
	if (id < -1 || (r = matcher_memo_get(m, id + 1)) < 0) {
		if ((stmt = matcher_aux(m)) == NULL && sqlite3_prepare_v2(db,
		    "SELECT s FROM str WHERE id = ?", -1, &stmt, NULL) ==
		    SQLITE_OK)
			matcher_set_aux(m, stmt, store_match_finalize);
		if (id >= 0 && stmt != NULL) {
			sqlite3_bind_int64(stmt, 1, id);
			if (sqlite3_step(stmt) == SQLITE_ROW &&
			    sqlite3_column_type(stmt, 0) != SQLITE_NULL) {
				t = (const char *)sqlite3_column_text(stmt, 0);
				len = (size_t)sqlite3_column_bytes(stmt, 0);
			}
		}
		r = t != NULL && matcher_match(m, t, len);
		if (stmt != NULL)
			sqlite3_reset(stmt);
		if (id >= -1)
			matcher_memo_set(m, id + 1, r);
	}
	return r != 0;
}

/*
 * Whether M matches any of the values of ARGV, pairs of a value and its
 * format (ARGC values in all), each formatted as show prints it. The
 * formatting happens here, in a buffer on the stack, rather than in an
 * SQL function per cell: a filter formats every cell of millions of rows.
 */
bool
store_match_values(sqlite3 *db, struct matcher *m, int argc,
    sqlite3_value **argv)
{
	char		 buf[STORE_CELL_MAX];
	const char	*t;
	size_t		 len;
	int		 i, fmt;

	for (i = 0; i + 1 < argc; i += 2) {
		fmt = sqlite3_value_int(argv[i + 1]);
		if (fmt == STORE_FMT_STRID) {
			if (store_match_str(db, m, argv[i]))
				return true;
			continue;
		}
		t = store_fmt_cell(argv[i], (enum store_fmt)fmt, buf, &len);
		if (matcher_match(m, t, len))
			return true;
	}
	return false;
}

/* SQL np_match(v, fmt, ...): whether the query's regex matches a value. */
static void
store_sql_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_result_int(ctx, store_match_values(
	    sqlite3_context_db_handle(ctx), sqlite3_user_data(ctx), argc,
	    argv));
}

/*
 * Collation NUMTEXT: numbers stored as text compare as numbers, anything
 * else as text after all numbers.
 */
static int
store_sql_numtext(void *arg, int na, const void *a, int nb, const void *b)
{
	double	 x, y;
	int	 okx, oky, c;

	okx = util_parse_double(a, (size_t)na, &x) == 0;
	oky = util_parse_double(b, (size_t)nb, &y) == 0;
	if (okx && oky)
		return x < y ? -1 : x > y;
	if (okx != oky)
		return okx ? -1 : 1;
	c = memcmp(a, b, (size_t)(na < nb ? na : nb));
	return c != 0 ? c : na - nb;
}

void
store_register_functions(struct store *s)
{
	sqlite3_create_collation(s->db, "NUMTEXT", SQLITE_UTF8, NULL,
	    store_sql_numtext);
}

/* Register np_match() for one query with matcher M (borrowed). */
void
store_register_match(struct store *s, struct matcher *m)
{
	sqlite3_create_function(s->db, "np_match", -1, SQLITE_UTF8, m,
	    store_sql_match, NULL, NULL);
}

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
static bool
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

static void
store_manifest_add(struct store_manifest *m, const char *path,
    const struct stat *st)
{
	struct store_manifest_entry	*e;

	if (m->n == m->size) {
		m->size = m->size == 0 ? 64 : m->size * 2;
		m->v = xreallocarray(m->v, m->size, sizeof *m->v);
	}
	e = &m->v[m->n++];
	e->path = xstrdup(path);
	e->size = st->st_size;
	e->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 +
	    st->st_mtim.tv_nsec;
}

static void
store_manifest_walk(struct store_manifest *m, const char *path, int depth,
    const char *skip)
{
	struct stat	 st;
	DIR		*d;
	struct dirent	*de;
	char		*child;

	if (stat(path, &st) != 0 || m->n >= STORE_MANIFEST_MAX)
		return;
	if (S_ISREG(st.st_mode)) {
		if (!store_is_own_file(util_basename(path)) &&
		    (skip == NULL || !util_has_prefix(path, skip)))
			store_manifest_add(m, path, &st);
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth > STORE_MANIFEST_DEPTH ||
	    (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		child = util_path_join(path, de->d_name);
		store_manifest_walk(m, child, depth + 1, skip);
		free(child);
	}
	closedir(d);
}

static int
store_manifest_cmp(const void *a, const void *b)
{
	const struct store_manifest_entry	*x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* List the files under ROOT, leaving out the store SKIP and its temporaries. */
static void
store_manifest_build(struct store_manifest *m, const char *root,
    const char *skip)
{
	char	*real;

	memset(m, 0, sizeof *m);
	real = skip != NULL ? util_abspath(skip) : NULL;
	store_manifest_walk(m, root, 0, real);
	free(real);
	if (m->n > 1)
		qsort(m->v, m->n, sizeof *m->v, store_manifest_cmp);
}

static void
store_manifest_release(struct store_manifest *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
}

/* Record every input file under the store's root with size and mtime. */
int
store_manifest_write(struct store *s, char **cause)
{
	struct store_manifest	 m;
	sqlite3_stmt		*stmt;
	size_t			 i;

	if (store_prepare(s, &stmt, "INSERT OR REPLACE INTO manifest"
	    " VALUES (?, ?, ?)", cause) != 0)
		return -1;
	store_manifest_build(&m, s->root, s->path);
	for (i = 0; i < m.n; i++) {
		sqlite3_bind_text(stmt, 1, m.v[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 2, m.v[i].size);
		sqlite3_bind_int64(stmt, 3, m.v[i].mtime_ns);
		sqlite3_step(stmt);
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	store_manifest_release(&m);
	return 0;
}

/*
 * Return 1 if the store at PATH was built from ROOT as it is now (same
 * schema, same files with the same sizes and times), 0 if it must be
 * rebuilt (and set *cause to why), -1 if it does not exist.
 */
int
store_is_current(const char *path, const char *root, char **cause)
{
	struct store		*s;
	struct store_manifest	 m;
	sqlite3_stmt		*stmt;
	char			*why = NULL, *real;
	size_t			 i = 0;
	int			 rc;

	if (access(path, F_OK) != 0)
		return -1;
	if ((s = store_open(path, &why)) == NULL) {
		*cause = why;
		return 0;
	}
	if ((real = realpath(root, NULL)) == NULL)
		real = xstrdup(root);
	if (s->root == NULL || strcmp(s->root, real) != 0) {
		xasprintf(cause, "store was built for '%s'",
		    s->root != NULL ? s->root : "?");
		free(real);
		store_free(s);
		return 0;
	}
	store_manifest_build(&m, real, path);
	free(real);
	rc = 1;
	if (sqlite3_prepare_v2(s->db, "SELECT path, size, mtime_ns FROM"
	    " manifest ORDER BY path", -1, &stmt, NULL) != SQLITE_OK)
		rc = 0;
	while (rc == 1 && sqlite3_step(stmt) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(stmt, 0);

		if (i >= m.n || strcmp(p, m.v[i].path) != 0) {
			xasprintf(cause, "input '%s' was removed or added",
			    i < m.n && strcmp(p, m.v[i].path) > 0 ?
			    m.v[i].path : p);
			rc = 0;
		} else if (sqlite3_column_int64(stmt, 1) != m.v[i].size ||
		    sqlite3_column_int64(stmt, 2) != m.v[i].mtime_ns) {
			xasprintf(cause, "input '%s' changed", p);
			rc = 0;
		}
		i++;
	}
	if (rc == 1 && i != m.n) {
		xasprintf(cause, "input '%s' is new", m.v[i].path);
		rc = 0;
	}
	sqlite3_finalize(stmt);
	store_manifest_release(&m);
	store_free(s);
	return rc;
}
