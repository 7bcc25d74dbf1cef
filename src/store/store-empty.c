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
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

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
