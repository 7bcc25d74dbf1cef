/*
 * The SQL layer every store file shares: prepared statements and checks
 * for rows and tables, the formats cells are printed in, and the SQL
 * functions and collation the queries use (regex filters, numeric text
 * order); a store's path and meta values, and where the store of a path
 * lives by default. Opening a store is store-open.c, closing it
 * store-free.c; its manifest is store-manifest.c.
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

	/* After a failed write of a load, that failure is the answer. */
	if (s->failed != NULL) {
		*cause = xstrdup(s->failed);
		return -1;
	}
	if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		xasprintf(cause, "store '%s': %s", s->path,
		    err != NULL ? err : sqlite3_errmsg(s->db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* The largest task row id of S, 0 if there is none. */
int64_t
store_task_maxid(struct store *s)
{
	sqlite3_stmt	*stmt;
	int64_t		 n = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT max(id) FROM task", -1, &stmt,
	    NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
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

/* True if table TABLE has the column COL (any case). */
bool
store_has_column(struct store *s, const char *table, const char *col)
{
	sqlite3_stmt	*stmt;
	bool		 found;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info(?)"
	    " WHERE name = ? COLLATE NOCASE", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(stmt, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, col, -1, SQLITE_STATIC);
	found = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return found;
}

/*
 * R rounded to N decimals as SQLite's round(R, N) rounds it (through its
 * own printf's decimal digits, half away from zero), for numbers the
 * vendor's tools round in SQL.
 */
double
store_sql_round(double r, int n)
{
	char	*buf;
	double	 v;

	if (r < -4503599627370496.0 || r > 4503599627370496.0)
		return r;
	if (n <= 0)
		return (double)(int64_t)(r + (r < 0 ? -0.5 : 0.5));
	if ((buf = sqlite3_mprintf("%!.*f", n, r)) == NULL)
		return r;
	v = strtod(buf, NULL);
	sqlite3_free(buf);
	return v;
}

/* Keep the first failure of the load S, from sqlite3 result RC. */
static void
store_fail(struct store *s, int rc)
{
	if (s->failed != NULL)
		return;
	xasprintf(&s->failed, "cannot write the store '%s': %s",
	    s->tmp != NULL ? s->tmp : s->path, rc == SQLITE_FULL ?
	    "the disk is full" : sqlite3_errmsg(s->db));
}

/*
 * Run the write statement STMT of a load and reset it. Its first failure
 * is kept and fails the load (store_failed()); after it, nothing more is
 * written.
 */
void
store_write(struct store *s, sqlite3_stmt *stmt)
{
	int	 rc;

	if (s->failed == NULL && (rc = sqlite3_step(stmt)) != SQLITE_DONE &&
	    rc != SQLITE_ROW)
		store_fail(s, rc);
	sqlite3_reset(stmt);
}

/*
 * Step the query STMT of a load: true for a row. A failure is kept as
 * store_write() keeps it, and reads as no row.
 */
bool
store_read(struct store *s, sqlite3_stmt *stmt)
{
	int	 rc;

	if (s->failed != NULL)
		return false;
	if ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		return true;
	if (rc != SQLITE_DONE)
		store_fail(s, rc);
	return false;
}

/*
 * Prepare SQL for a write of the load S; a failure is kept as
 * store_write() keeps it. Return -1 on failure.
 */
int
store_load_prepare(struct store *s, sqlite3_stmt **stmt, const char *sql)
{
	int	 rc;

	if ((rc = sqlite3_prepare_v2(s->db, sql, -1, stmt, NULL)) ==
	    SQLITE_OK)
		return 0;
	*stmt = NULL;
	store_fail(s, rc);
	return -1;
}

/* Run SQL in the load S; a failure is kept as store_write() keeps it. */
void
store_load_exec(struct store *s, const char *sql)
{
	int	 rc;

	if (s->failed == NULL && (rc = sqlite3_exec(s->db, sql, NULL, NULL,
	    NULL)) != SQLITE_OK)
		store_fail(s, rc);
}

/* -1 with *CAUSE set if a write of the load S failed, else 0. */
int
store_failed(struct store *s, char **cause)
{
	if (s->failed == NULL)
		return 0;
	*cause = xstrdup(s->failed);
	return -1;
}

static void
store_match_finalize(void *stmt)
{
	sqlite3_finalize(stmt);
}

/*
 * Whether M matches the string of str id ID on DB (-1 for NULL, N/A as
 * the join would show it, as for an id without a string). Each id is
 * matched once: M remembers the answer, and a statement to read strings
 * with.
 */
bool
store_match_str_id(sqlite3 *db, struct matcher *m, int64_t id)
{
	sqlite3_stmt	*stmt;
	const char	*t = "N/A";
	size_t		 len = 3;
	int		 r;

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

/* Whether M matches value V of a str id column: an id, NULL or text. */
static bool
store_match_str(sqlite3 *db, struct matcher *m, sqlite3_value *v)
{
	const char	*t;

	if (sqlite3_value_type(v) == SQLITE_INTEGER)
		return store_match_str_id(db, m, sqlite3_value_int64(v));
	if (sqlite3_value_type(v) == SQLITE_NULL)
		return store_match_str_id(db, m, -1);
	t = (const char *)sqlite3_value_text(v);
	return t != NULL && matcher_match(m, t, (size_t)sqlite3_value_bytes(v));
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
	int		 i, fmt, type;
	bool		 nums;

	nums = matcher_may_match_chars(m, STORE_NUM_CHARS);
	for (i = 0; i + 1 < argc; i += 2) {
		fmt = sqlite3_value_int(argv[i + 1]);
		if (fmt == STORE_FMT_STRID) {
			if (store_match_str(db, m, argv[i]))
				return true;
			continue;
		}
		type = sqlite3_value_type(argv[i]);
		if (!nums && (type == SQLITE_INTEGER || type == SQLITE_FLOAT))
			continue;
		t = store_fmt_cell(argv[i], (enum store_fmt)fmt, buf, &len);
		if (matcher_match(m, t, len))
			return true;
	}
	return false;
}

/*
 * The result of an np_match() call with filter M: whether M matches any
 * of the values of ARGV (store_match_values()), or an error that ends the
 * query once M gave up on a string, which would pass for a string without
 * a match.
 */
void
store_match_result(sqlite3_context *ctx, struct matcher *m, int argc,
    sqlite3_value **argv)
{
	char	*cause;
	bool	 r;

	r = store_match_values(sqlite3_context_db_handle(ctx), m, argc, argv);
	if (matcher_failed(m, &cause)) {
		sqlite3_result_error(ctx, cause, -1);
		free(cause);
		return;
	}
	sqlite3_result_int(ctx, r);
}

/* SQL np_match(v, fmt, ...): whether the query's regex matches a value. */
static void
store_sql_match(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	store_match_result(ctx, sqlite3_user_data(ctx), argc, argv);
}

/*
 * np_pmu(blob, k): the value of a task's PMU column K, for sorting on it:
 * a number, or NULL where the task has none (N/A sorts first).
 */
static void
store_sql_pmu(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			*t;
	int64_t			 k, i = 0;

	(void)argc;
	k = sqlite3_value_int64(argv[1]);
	store_pmu_iter_init(&it, sqlite3_value_blob(argv[0]),
	    (size_t)sqlite3_value_bytes(argv[0]));
	while (store_pmu_next(&it, &t, &v)) {
		free(t);
		if (i++ != k)
			continue;
		if (v.kind == VAL_REAL)
			sqlite3_result_double(ctx, v.d);
		else if (v.kind == VAL_INT || v.kind == VAL_NS)
			sqlite3_result_int64(ctx, v.i);
		else
			sqlite3_result_null(ctx);
		return;
	}
	sqlite3_result_null(ctx);
}

/*
 * np_ns(text): a time in microseconds written as text, as vendor CSVs
 * give it ("1736408883573957.920", a TAB after it), as integer ns, exactly;
 * NULL if it is not one. Generic tables' time columns go through it.
 */
static void
store_sql_ns(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char	*c = (const char *)sqlite3_value_text(argv[0]);
	int64_t		 ns;

	(void)argc;
	if (c == NULL || util_parse_ns(c, strlen(c), &ns) != 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, ns);
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
	sqlite3_create_function(s->db, "np_pmu", 2, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, store_sql_pmu, NULL, NULL);
	sqlite3_create_function(s->db, "np_ns", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, store_sql_ns, NULL, NULL);
}

/* Register np_match() for one query with matcher M (borrowed). */
void
store_register_match(struct store *s, struct matcher *m)
{
	sqlite3_create_function(s->db, "np_match", -1, SQLITE_UTF8, m,
	    store_sql_match, NULL, NULL);
}

/*
 * Format one value as show prints it (SQL NULL is N/A): return the text,
 * the value's own or written into BUF (STORE_CELL_MAX bytes), and its
 * length in *LEN.
 */
const char *
store_fmt_cell(sqlite3_value *v, enum store_fmt fmt, char *buf, size_t *len)
{
	int64_t		 i;
	const char	*t;

	if (sqlite3_value_type(v) == SQLITE_NULL) {
		*len = 3;
		return "N/A";
	}
	if (sqlite3_value_type(v) == SQLITE_TEXT || fmt == FMT_TEXT ||
	    fmt == FMT_NUMTEXT || fmt == FMT_REAL) {
		t = (const char *)sqlite3_value_text(v);
		*len = (size_t)sqlite3_value_bytes(v);
		return t != NULL ? t : "";
	}
	i = sqlite3_value_int64(v);
	switch (fmt) {
	case FMT_DEVICE:
		if (i == NP_HOST_DEVICE) {
			*len = 4;
			return "host";
		}
		/* FALLTHROUGH */
	case FMT_INT:
		if (i < 0) {
			buf[0] = '-';
			*len = (size_t)(util_fmt_u64(buf + 1, (uint64_t)0 -
			    (uint64_t)i) - buf);
		} else
			*len = (size_t)(util_fmt_u64(buf, (uint64_t)i) - buf);
		return buf;
	case FMT_US:
		util_fmt_us(buf, STORE_CELL_MAX, i, 3, true);
		break;
	case FMT_US3:
		util_fmt_us(buf, STORE_CELL_MAX, i, 3, false);
		break;
	case FMT_US6:
		if (i == 0)
			snprintf(buf, STORE_CELL_MAX, "0");
		else
			util_fmt_us(buf, STORE_CELL_MAX, i, 6, false);
		break;
	case FMT_REAL3:
		util_fmt_fixed(buf, STORE_CELL_MAX, sqlite3_value_double(v), 3,
		    true);
		break;
	default:
		fatalx("%s: bad format %d", __func__, fmt);
	}
	*len = strlen(buf);
	return buf;
}

/*
 * The value of V into VAL: integers and reals as they are (integers of
 * the FMT_US formats as times in ns), the text of a FMT_NUMTEXT column
 * (the stored form of a number) as the number it holds, anything else as
 * no value.
 */
static void
store_fmt_val(sqlite3_value *v, enum store_fmt fmt, struct store_val *val)
{
	const char	*t;

	val->kind = VAL_NONE;
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		val->kind = fmt == FMT_US || fmt == FMT_US3 || fmt == FMT_US6 ?
		    VAL_NS : VAL_INT;
		val->i = sqlite3_value_int64(v);
		break;
	case SQLITE_FLOAT:
		val->kind = VAL_REAL;
		val->d = sqlite3_value_double(v);
		break;
	case SQLITE_TEXT:
		t = (const char *)sqlite3_value_text(v);
		if (fmt == FMT_NUMTEXT && t != NULL && util_parse_double(t,
		    (size_t)sqlite3_value_bytes(v), &val->d) == 0)
			val->kind = VAL_REAL;
		break;
	}
}

/* A cell of a row: V formatted with FMT, a copy, and its value in *VAL. */
char *
store_fmt_dup(sqlite3_value *v, enum store_fmt fmt, struct store_val *val)
{
	char		 buf[STORE_CELL_MAX];
	const char	*t;
	size_t		 len;

	t = store_fmt_cell(v, fmt, buf, &len);
	store_fmt_val(v, fmt, val);
	return xstrndup(t, len);
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
	/* Only the cache is made here: a --db's folder must exist. */
	(void)util_mkdir_p(cache, 0750);
	free(base);
	free(cache);
	free(real);
	return path;
}

/* True for columns that hold numbers (right-aligned in tables). */
bool
store_fmt_numeric(enum store_fmt fmt)
{
	return fmt != FMT_TEXT && fmt != FMT_DEVICE;
}
