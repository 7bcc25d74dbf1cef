/*
 * Columns without a value. At the end of a load, a search per column of
 * each table for a row with a value finds the columns in which no row has
 * one: every cell NULL, empty, "N/A", or the vendor's "not set"
 * 4294967295 (a Model ID outside graph mode). Most searches end at the
 * first row; only an empty column is read to the end. The columns found
 * are kept in table empty_col, and the UI hides them until the user asks
 * for them (the column chooser); show and export print every column.
 * Strings joined from str are tested by their id, so a search reads the
 * task table alone, with no join.
 *
 * A column of the task table itself needs no search: as task rows load,
 * the first few distinct values of each column are kept, for all rows and
 * for those op_summary lists, and the commit tests those. A load that
 * changes task rows once written searches as before. The same goes for
 * the columns of the API spans that no later statement changes (all but
 * their id, depth, parent and level), so that an empty one, such as the
 * connection id of every span of a raw collection, is not a read of the
 * whole table.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Distinct values kept of a task column; one more means it has a value. */
#define EMPTY_KEEP	3

/*
 * The values seen so far: [EMPTY_ALL] of all task rows, [EMPTY_LISTED] of
 * those op_summary lists, [EMPTY_API] of the API spans.
 */
enum { EMPTY_ALL, EMPTY_LISTED, EMPTY_API, EMPTY_KINDS };

struct empty_seen {
	int64_t		 v[EMPTY_KINDS][TASK_NV][EMPTY_KEEP];
	uint8_t		 n[EMPTY_KINDS][TASK_NV];
	uint32_t	 many[EMPTY_KINDS];	/* columns past EMPTY_KEEP
						   values */
	bool		 stale;		/* task rows changed once loaded */
};

/* The ids of the strings that are no value. */
#define EMPTY_STR_IDS	"(SELECT id FROM str WHERE s IN ('', 'N/A'))"

/* Append to SB the test that column expression EXPR of T has a value. */
static void
store_empty_test(const struct store_table *t, const char *expr,
    struct strbuf *sb)
{
	char	 col[64];

	if (store_query_str_col(t, expr, col, sizeof col))
		strbuf_addf(sb, "%s IS NOT NULL AND %s NOT IN " EMPTY_STR_IDS,
		    col, col);
	else
		strbuf_addf(sb, "(%s) IS NOT NULL AND (%s) NOT IN ('', 'N/A',"
		    " 4294967295, '4294967295')", expr, expr);
}

/* Keep what the NV values V of a row add to those seen of kind K. */
static void
store_empty_keep(struct store *s, int k, const int64_t *v, int nv)
{
	struct empty_seen	*e;
	uint32_t		 todo;
	int			 i, j;

	if ((e = s->seen) == NULL)
		e = s->seen = xcalloc(1, sizeof *s->seen);
	todo = ~e->many[k] & (nv < 32 ? (1U << nv) - 1 : ~0U);
	for (; todo != 0; todo &= todo - 1) {
		i = __builtin_ctz(todo);
		if ((k != EMPTY_API && i == TASK_PMU) || v[i] == NP_NA)
			continue;
		for (j = 0; j < e->n[k][i] && e->v[k][i][j] != v[i]; j++)
			;
		if (j < e->n[k][i])
			continue;
		if (e->n[k][i] == EMPTY_KEEP)
			e->many[k] |= 1U << i;
		else
			e->v[k][i][e->n[k][i]++] = v[i];
	}
}

/* Keep what task row V (the insert's values) adds to the values seen. */
void
store_empty_task(struct store *s, const int64_t *v)
{
	store_empty_keep(s, EMPTY_ALL, v, TASK_NV);
	if (v[TASK_UNLISTED] == NP_NA)
		store_empty_keep(s, EMPTY_LISTED, v, TASK_NV);
}

/* The same for span V, the API_NV values of its insert. */
void
store_empty_api(struct store *s, const int64_t *v)
{
	store_empty_keep(s, EMPTY_API, v, API_NV);
}

/* Task rows already written changed: the values seen no longer tell. */
void
store_empty_stale(struct store *s)
{
	if (s->seen == NULL)
		s->seen = xcalloc(1, sizeof *s->seen);
	s->seen->stale = true;
}

void
store_empty_free(struct store *s)
{
	free(s->seen);
	s->seen = NULL;
}

/* Whether string STR_ID is a value ('' and N/A are not). */
static int
store_empty_str_value(struct store *s, int64_t str_id, char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*v;
	int		 rc;

	if (store_prepare(s, &stmt, "SELECT s FROM str WHERE id = ?",
	    cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, str_id);
	rc = 1;
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		v = (const char *)sqlite3_column_text(stmt, 0);
		rc = v != NULL && *v != '\0' && strcmp(v, "N/A") != 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * Which values seen tell of table T (an EMPTY_ kind), or -1: T lists the
 * task rows, all or those of op_summary, or the API spans, all of them.
 */
static int
store_empty_kind(const struct store_table *t)
{
	if (strncmp(t->from, "task t", 6) == 0 && (t->from[6] == '\0' ||
	    t->from[6] == ' ')) {
		if (t->where == NULL)
			return EMPTY_ALL;
		if (strcmp(t->where, "t.unlisted IS NULL") == 0)
			return EMPTY_LISTED;
	} else if (strncmp(t->from, "api a", 5) == 0 && (t->from[5] ==
	    '\0' || t->from[5] == ' ') && t->where == NULL)
		return EMPTY_API;
	return -1;
}

/*
 * The index in the insert's values of column NAME of kind K's table, or
 * -1 for one the values seen do not tell of: a span's id (given by SQLite
 * unless a writer thread inserts), depth and parent (the nesting may take
 * them back) and level (a trace's metadata may give it later), or when
 * the table is not laid out as the insert is. -2 on failure, with *CAUSE.
 */
static int
store_empty_insert_col(struct store *s, int k, const char *name,
    char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*n;
	int		 cid, c = -1;

	if (k == EMPTY_API && (strcmp(name, "id") == 0 ||
	    strcmp(name, "depth") == 0 || strcmp(name, "parent") == 0 ||
	    strcmp(name, "level") == 0))
		return -1;
	if (store_prepare(s, &stmt, k == EMPTY_API ? "SELECT cid, name"
	    " FROM pragma_table_info('api')" : "SELECT cid, name FROM"
	    " pragma_table_info('task')", cause) != 0)
		return -2;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		if ((n = (const char *)sqlite3_column_text(stmt, 1)) == NULL)
			continue;
		/* A task insert's values are its columns after the id. */
		cid = sqlite3_column_int(stmt, 0) - (k != EMPTY_API);
		if (k == EMPTY_API ? cid == API_NAME && strcmp(n, "name") !=
		    0 : cid == TASK_UNLISTED && strcmp(n, "unlisted") != 0) {
			c = -1;
			break;
		}
		if (strcmp(n, name) == 0)
			c = cid;
	}
	sqlite3_finalize(stmt);
	if (c >= (k == EMPTY_API ? API_NV : TASK_NV) ||
	    (k != EMPTY_API && c == TASK_PMU))
		return -1;
	return c;
}

/*
 * From the values seen, whether column I of T is empty: 1 or 0, -2 when
 * they cannot tell (a search must), -1 on failure with *CAUSE. They tell
 * for a column, or a string of one, of the task rows or API spans
 * (store_empty_kind()).
 */
static int
store_empty_seen_col(struct store *s, const struct store_table *t,
    size_t i, char **cause)
{
	const struct empty_seen	*e = s->seen;
	const char		*expr = t->cols[i].expr;
	char			 col[64];
	bool			 str;
	int			 k, c, j, rc;

	if (e == NULL || (k = store_empty_kind(t)) < 0 ||
	    (k != EMPTY_API && e->stale))
		return -2;
	if ((str = store_query_str_col(t, expr, col, sizeof col)))
		expr = col;
	if (expr[0] != (k == EMPTY_API ? 'a' : 't') || expr[1] != '.' ||
	    strspn(expr + 2, STORE_IDENT_CHARS) != strlen(expr + 2))
		return -2;
	if ((c = store_empty_insert_col(s, k, expr + 2, cause)) == -2)
		return -1;
	if (c < 0)
		return -2;
	if (e->many[k] & 1U << c)
		return 0;
	for (j = 0; j < e->n[k][c]; j++) {
		if (!str) {
			if (e->v[k][c][j] != 4294967295LL)
				return 0;
			continue;
		}
		if ((rc = store_empty_str_value(s, e->v[k][c][j], cause)) != 0)
			return rc < 0 ? -1 : 0;
	}
	/* A trace's metadata may give spans loaded without one a level. */
	return 1;
}

/*
 * Whether column I of T has no value in any row: a search for a row that
 * has one, which ends at the first for most columns and reads the whole
 * table only for the empty ones. -1 on failure, with *cause.
 */
static int
store_empty_col(struct store *s, const struct store_table *t, size_t i,
    char **cause)
{
	struct strbuf	 sql;
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((rc = store_empty_seen_col(s, t, i, cause)) != -2)
		return rc;
	strbuf_init(&sql);
	strbuf_addf(&sql, "SELECT 1 FROM %s WHERE ", t->from);
	if (t->where != NULL)
		strbuf_addf(&sql, "%s AND ", t->where);
	store_empty_test(t, t->cols[i].expr, &sql);
	strbuf_adds(&sql, " LIMIT 1");
	rc = store_prepare(s, &stmt, sql.s, cause);
	strbuf_release(&sql);
	if (rc != 0)
		return -1;
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_DONE;
	xasprintf(cause, "cannot find the empty columns of %s: %s", t->name,
	    sqlite3_errmsg(s->db));
	return -1;
}

/* Record the columns of T without a value; a table without rows has none. */
static int
store_empty_table(struct store *s, const struct store_table *t, char **cause)
{
	sqlite3_stmt	*ins;
	char		*sql;
	size_t		 i;
	int		 empty;

	xasprintf(&sql, "SELECT 1 FROM %s WHERE %s LIMIT 1", t->from,
	    t->where != NULL ? t->where : "1");
	empty = !store_exists(s, sql);
	free(sql);
	if (empty)
		return 0;
	if (store_prepare(s, &ins, "INSERT INTO empty_col(tbl, col)"
	    " VALUES (?, ?)", cause) != 0)
		return -1;
	for (i = 0; i < t->ncols; i++) {
		if ((empty = store_empty_col(s, t, i, cause)) < 0)
			break;
		if (!empty)
			continue;
		sqlite3_bind_text(ins, 1, t->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, t->cols[i].name, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			xasprintf(cause, "cannot write the empty columns of "
			    "%s: %s", t->name, sqlite3_errmsg(s->db));
			empty = -1;
			break;
		}
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	return empty < 0 ? -1 : 0;
}

/* At the end of a load: the columns without a value of every table. */
int
store_empty_write(struct store *s, char **cause)
{
	const struct store_table	*t;
	const char			**names;
	size_t				 n, i;
	int				 rc = 0;

	n = store_tables_list(s, &names);
	for (i = 0; i < n && rc == 0; i++) {
		if ((t = store_tables_find_base(s, names[i])) != NULL)
			rc = store_empty_table(s, t, cause);
	}
	free(names);
	return rc;
}

/*
 * Set EMPTY[i] for each of the NCOLS columns NAMES of table T that has
 * no value in this store. A store without the record hides nothing.
 */
void
store_empty_cols(struct store *s, const struct store_table *t,
    char *const *names, size_t ncols, bool *empty)
{
	sqlite3_stmt	*stmt;
	const char	*col;
	size_t		 i;

	memset(empty, 0, ncols * sizeof *empty);
	if (sqlite3_prepare_v2(s->db, "SELECT col FROM empty_col WHERE"
	    " tbl = ?", -1, &stmt, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(stmt, 1, t->name, -1, SQLITE_STATIC);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		col = (const char *)sqlite3_column_text(stmt, 0);
		for (i = 0; col != NULL && i < ncols; i++) {
			if (strcmp(names[i], col) == 0)
				empty[i] = true;
		}
	}
	sqlite3_finalize(stmt);
}
