/*
 * Reading SQLite databases that are not ours: the vendor's msprof_*.db and
 * ascend_pytorch_profiler*.db exports. They are opened read-only and
 * immutable (no journal, no lock, nothing written beside them, even on a
 * read-only mount) and read through a small row iterator of integers and
 * text, so that importers never see SQLite itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

struct store_foreign {
	sqlite3		*db;
	char		*path;
	struct util_map	 nostr;		/* string ids STRING_IDS lacks */
	char		 nostr_first[32];
	char		*nostr_where;	/* the column of the first */
};

struct store_foreign_rows {
	struct store_foreign	*f;
	sqlite3_stmt		*stmt;
	int64_t			 nonint;	/* rows with a cell that is */
	bool			 row_nonint;	/* no integer, this row's */
	char			*nonint_col;	/* the first one's column */
};

/*
 * The aggregates np_pmu_pack(value) and np_pmu_names(name): a group's
 * values, or names, packed as store-pmu.c packs them, so a task's PMU
 * values come out of the vendor's database as one blob.
 */
static void
store_foreign_pmu_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct strbuf	**b;
	const char	 *t;
	bool		  names = sqlite3_user_data(ctx) != NULL;

	(void)argc;
	if ((b = sqlite3_aggregate_context(ctx, sizeof *b)) == NULL)
		return;
	if (*b == NULL) {
		*b = xcalloc(1, sizeof **b);
		strbuf_init(*b);
	}
	t = (const char *)sqlite3_value_text(argv[0]);
	if (names)
		store_pmu_name(*b, t != NULL ? t : "?");
	else if (sqlite3_value_type(argv[0]) == SQLITE_INTEGER &&
	    sqlite3_value_int64(argv[0]) >= 0)
		store_pmu_u64(*b, (uint64_t)sqlite3_value_int64(argv[0]));
	else
		store_pmu_text(*b, t != NULL ? t : "",
		    t != NULL ? (size_t)sqlite3_value_bytes(argv[0]) : 0);
}

static void
store_foreign_pmu_final(sqlite3_context *ctx)
{
	struct strbuf	**b = sqlite3_aggregate_context(ctx, 0);

	if (b == NULL || *b == NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	sqlite3_result_blob(ctx, (*b)->s != NULL ? (*b)->s : "",
	    (int)(*b)->len, SQLITE_TRANSIENT);
	strbuf_release(*b);
	free(*b);
}

/*
 * np_no_string(id, where): what a string id that STRING_IDS lacks reads
 * as, "(string id N)", kept so that the row is not lost; WHERE names the
 * column for the warning. Each such id is counted once per database. Text
 * is taken as the string itself.
 */
static void
store_foreign_no_string(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_foreign	*f = sqlite3_user_data(ctx);
	const char		*where;
	int64_t			 id;
	uint64_t		 seen, key;
	double			 d;
	char			 buf[64], text[32];

	(void)argc;
	switch (sqlite3_value_type(argv[0])) {
	case SQLITE_NULL:
		sqlite3_result_null(ctx);
		return;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		/* A column that holds the text itself (some versions). */
		sqlite3_result_value(ctx, argv[0]);
		return;
	}
	/* A fraction is no id STRING_IDS can hold: said as it is. */
	d = sqlite3_value_double(argv[0]);
	if (sqlite3_value_type(argv[0]) == SQLITE_FLOAT && !(d > -9.2e18 &&
	    d < 9.2e18 && d == (double)(int64_t)d)) {
		snprintf(text, sizeof text, "%.17g", d);
		memcpy(&key, &d, sizeof key);
		key ^= 0x8000000000000001ULL;
	} else {
		id = sqlite3_value_int64(argv[0]);
		snprintf(text, sizeof text, "%lld", (long long)id);
		key = (uint64_t)id;
	}
	if (!util_map_get(&f->nostr, key, &seen)) {
		if (f->nostr.n == 0) {
			snprintf(f->nostr_first, sizeof f->nostr_first, "%s",
			    text);
			where = (const char *)sqlite3_value_text(argv[1]);
			f->nostr_where = xstrdup(where != NULL ? where : "?");
		}
		util_map_set(&f->nostr, key, 0);
	}
	snprintf(buf, sizeof buf, "(string id %s)", text);
	sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/*
 * The string ids rows named that STRING_IDS lacks: how many, the first
 * in *FIRST (as text: a fraction is one too) and its column in *WHERE.
 */
size_t
store_foreign_missing_strings(struct store_foreign *f, const char **first,
    const char **where)
{
	*first = f->nostr_first;
	*where = f->nostr_where;
	return f->nostr.n;
}

/*
 * Open the database PATH read-only. On failure (not SQLite, unreadable)
 * return NULL and set *cause.
 */
struct store_foreign *
store_foreign_open(const char *path, char **cause)
{
	struct store_foreign	*f;
	struct strbuf		 uri;
	const char		*p;
	sqlite3_stmt		*stmt;
	int			 fd;

	/* SQLite would block opening a FIFO: refuse all but files first. */
	if ((fd = util_open_input(path)) == -1) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    util_input_error(errno));
		return NULL;
	}
	close(fd);
	strbuf_init(&uri);
	strbuf_adds(&uri, "file:");
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			strbuf_addf(&uri, "%%%02X", (unsigned char)*p);
		else
			strbuf_addc(&uri, *p);
	}
	strbuf_adds(&uri, "?immutable=1");
	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	store_open_init();
	if (sqlite3_open_v2(uri.s, &f->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(f->db, "SELECT count(*) FROM sqlite_master",
	    -1, &stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    f->db != NULL ? sqlite3_errmsg(f->db) : "out of memory");
		strbuf_release(&uri);
		store_foreign_free(f);
		return NULL;
	}
	sqlite3_finalize(stmt);
	strbuf_release(&uri);
	sqlite3_create_function(f->db, "np_pmu_pack", 1, SQLITE_UTF8, NULL,
	    NULL, store_foreign_pmu_step, store_foreign_pmu_final);
	sqlite3_create_function(f->db, "np_pmu_names", 1, SQLITE_UTF8, f,
	    NULL, store_foreign_pmu_step, store_foreign_pmu_final);
	sqlite3_create_function(f->db, "np_no_string", 2, SQLITE_UTF8, f,
	    store_foreign_no_string, NULL, NULL);
	return f;
}

void
store_foreign_free(struct store_foreign *f)
{
	if (f == NULL)
		return;
	sqlite3_close(f->db);
	util_map_release(&f->nostr);
	free(f->nostr_where);
	free(f->path);
	free(f);
}

/* True if the database has table NAME with column COL (NULL: any). */
bool
store_foreign_has(struct store_foreign *f, const char *name, const char *col)
{
	sqlite3_stmt	*stmt;
	bool		 found = false;

	if (sqlite3_prepare_v2(f->db, "SELECT 1 FROM pragma_table_info(?1)"
	    " WHERE ?2 IS NULL OR name = ?2", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	store_load_bind_str(stmt, 2, col);
	found = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return found;
}

/* True if the database has every table named in the list TABLES. */
bool
store_foreign_has_all(struct store_foreign *f, const char *tables)
{
	char	*copy, *p, *name;
	bool	 all = true;

	copy = p = xstrdup(tables);
	while (all && (name = strsep(&p, " ")) != NULL)
		all = store_foreign_has(f, name, NULL);
	free(copy);
	return all;
}

/*
 * Run the query SQL; read its rows with store_foreign_next(). On failure
 * return NULL and set *cause.
 */
struct store_foreign_rows *
store_foreign_query(struct store_foreign *f, const char *sql, char **cause)
{
	struct store_foreign_rows	*r;

	r = xcalloc(1, sizeof *r);
	r->f = f;
	if (sqlite3_prepare_v2(f->db, sql, -1, &r->stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "cannot read '%s': %s", f->path,
		    sqlite3_errmsg(f->db));
		free(r);
		return NULL;
	}
	return r;
}

/*
 * Step to the next row: 1 if there is one, 0 at the end, -1 on error
 * (with *cause set).
 */
int
store_foreign_next(struct store_foreign_rows *r, char **cause)
{
	int	 rc;

	if (r->row_nonint) {
		r->nonint++;
		r->row_nonint = false;
	}
	if ((rc = sqlite3_step(r->stmt)) == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	xasprintf(cause, "cannot read '%s': %s", r->f->path,
	    sqlite3_errmsg(r->f->db));
	return -1;
}

/* Whether column I of the row is stored as an integer. */
bool
store_foreign_is_int(struct store_foreign_rows *r, int i)
{
	return sqlite3_column_type(r->stmt, i) == SQLITE_INTEGER;
}

/*
 * Column I of the row as an integer; NP_NA for NULL, and for a value that
 * is no integer (text such as "12x" or "1.5e3", a fraction, a blob), which
 * is counted for store_foreign_nonint() rather than cut to a number.
 */
int64_t
store_foreign_int(struct store_foreign_rows *r, int i)
{
	const char	*t;
	const char	*name;
	double		 d;
	int64_t		 v;

	switch (sqlite3_column_type(r->stmt, i)) {
	case SQLITE_NULL:
		return NP_NA;
	case SQLITE_INTEGER:
		return sqlite3_column_int64(r->stmt, i);
	case SQLITE_FLOAT:
		d = sqlite3_column_double(r->stmt, i);
		if (d > -9.2e18 && d < 9.2e18 && d == (double)(int64_t)d)
			return (int64_t)d;
		break;
	case SQLITE_TEXT:
		t = (const char *)sqlite3_column_text(r->stmt, i);
		if (t != NULL && util_parse_int(t, strlen(t), &v) == 0 &&
		    v != NP_NA)
			return v;
		break;
	}
	if (r->nonint_col == NULL) {
		name = sqlite3_column_name(r->stmt, i);
		r->nonint_col = xstrdup(name != NULL ? name : "?");
	}
	r->row_nonint = true;
	return NP_NA;
}

/*
 * The rows read so far with a cell store_foreign_int() found no integer
 * in; the first such column's name in *COL.
 */
int64_t
store_foreign_nonint(struct store_foreign_rows *r, const char **col)
{
	*col = r->nonint_col;
	return r->nonint + (r->row_nonint ? 1 : 0);
}

/*
 * Column I of the row as a double in *V, read as stored (a REAL is not
 * taken through text); -1 for NULL or text that is not a number.
 */
int
store_foreign_real(struct store_foreign_rows *r, int i, double *v)
{
	const char	*t;

	switch (sqlite3_column_type(r->stmt, i)) {
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		*v = sqlite3_column_double(r->stmt, i);
		return 0;
	case SQLITE_TEXT:
		t = (const char *)sqlite3_column_text(r->stmt, i);
		return util_parse_double(t, strlen(t), v);
	default:
		return -1;
	}
}

/* Column I of the row as text, NULL for NULL; valid until the next step. */
const char *
store_foreign_text(struct store_foreign_rows *r, int i)
{
	return (const char *)sqlite3_column_text(r->stmt, i);
}

/* The bytes of column I of the current row, *LEN of them, or NULL. */
const void *
store_foreign_blob(struct store_foreign_rows *r, int i, size_t *len)
{
	*len = (size_t)sqlite3_column_bytes(r->stmt, i);
	return sqlite3_column_blob(r->stmt, i);
}

void
store_foreign_rows_free(struct store_foreign_rows *r)
{
	if (r == NULL)
		return;
	sqlite3_finalize(r->stmt);
	free(r->nonint_col);
	free(r);
}

/*
 * Write a new database at PATH (replacing any file there) from the
 * statements in SQL: how the fuzz seeds build a vendor export without
 * SQLite leaving this layer.
 */
int
store_foreign_write(const char *path, const char *sql, char **cause)
{
	sqlite3	*db = NULL;
	char	*err = NULL;
	int	 rc;

	if (unlink(path) != 0 && errno != ENOENT) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	store_open_init();
	if ((rc = sqlite3_open(path, &db)) == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	if (rc != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, err != NULL ? err :
		    db != NULL ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_free(err);
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_close(db) != SQLITE_OK) {
		xasprintf(cause, "%s: cannot close", path);
		return -1;
	}
	return 0;
}
