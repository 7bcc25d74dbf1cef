/*
 * Reading a vendor database: one query's rows handed one by one to the
 * function that loads them, for every table the .db importer reads. A
 * row the function cannot load (a NULL time, say), or loads with a loss
 * (a level no table names), is counted, and each reason is reported in
 * one warning per query.
 */
#include <stdlib.h>

#include "db-int.h"

/* Reasons counted apart: more than any loader has. */
#define DB_ROWS_REASONS	8

/*
 * Run SQL on F (file PATH) and hand each row to FN; WHAT names the rows
 * in the warning about skipped ones. Return the rows loaded, or -1 with
 * *cause set if the query fails.
 */
int64_t
db_rows(struct store *s, struct store_foreign *f, const char *path,
    const char *what, const char *sql, db_row_fn fn, struct import_ctx *ctx,
    char **cause)
{
	struct store_foreign_rows	*r;
	struct {
		const char	*why;
		bool		 loaded;
		int64_t		 n;
	}				 skip[DB_ROWS_REASONS];
	const char			*why;
	int64_t				 n = 0, total = 0;
	size_t				 i, nskip = 0;
	int				 rc;
	bool				 loaded;

	if ((r = store_foreign_query(f, sql, cause)) == NULL)
		return -1;
	while ((rc = store_foreign_next(r, cause)) == 1) {
		why = NULL;
		total++;
		if ((loaded = fn(s, r, ctx, &why)))
			n++;
		if (why == NULL)
			continue;
		/* Reasons are constant strings: one count for each. */
		for (i = 0; i < nskip && skip[i].why != why; i++)
			;
		if (i == nskip && nskip < DB_ROWS_REASONS) {
			skip[nskip].why = why;
			skip[nskip].loaded = loaded;
			skip[nskip++].n = 0;
		}
		skip[i < nskip ? i : nskip - 1].n++;
	}
	db_rows_nonint(s, path, what, r, total);
	store_foreign_rows_free(r);
	for (i = 0; i < nskip; i++)
		store_load_warning(s, path, -1, "%lld of %lld %s rows%s: %s",
		    (long long)skip[i].n, (long long)total, what,
		    skip[i].loaded ? "" : " skipped", skip[i].why);
	return rc < 0 ? -1 : n;
}

/*
 * Warn if rows of R (TOTAL of them, named WHAT) of file PATH had a value
 * that is no integer where one belongs: store_foreign_int() read it as
 * N/A, which the loader either kept or skipped the row for.
 */
void
db_rows_nonint(struct store *s, const char *path, const char *what,
    struct store_foreign_rows *r, int64_t total)
{
	const char	*col;
	int64_t		 n;

	if ((n = store_foreign_nonint(r, &col)) > 0)
		store_load_warning(s, path, -1, "%lld of %lld %s rows: a value "
		    "that is no integer (the first in column %s) read as N/A",
		    (long long)n, (long long)total, what, col);
}

/*
 * The duration of a row from START to END into *DUR; false, with why in
 * *WHY, if either is NULL (or no integer), END is before START, the
 * difference does not fit, or a time is before 1970 or after 2116.
 */
bool
db_rows_dur(int64_t start, int64_t end, int64_t *dur, const char **why)
{
	if (start == NP_NA || end == NP_NA) {
		*why = "no startNs or endNs";
		return false;
	}
	if (!util_sub(end, start, dur)) {
		*why = "endNs - startNs out of range";
		return false;
	}
	/* No tool writes an end before its start: a damaged row. */
	if (*dur < 0) {
		*why = "endNs before startNs";
		return false;
	}
	/* INT64_MAX and the like are sentinels, not times (raw PROF too). */
	if (start < 0 || end >= (int64_t)1 << 62) {
		*why = "a time before 1970 or after 2116";
		return false;
	}
	return true;
}

/* DB_STR(COL, WHERE) appended to SQL. */
void
db_str(struct strbuf *sql, const char *col, const char *where)
{
	strbuf_addf(sql, "ifnull((SELECT value FROM STRING_IDS WHERE id = %s),"
	    " np_no_string(%s, '%s'))", col, col, where);
}

/*
 * Warn if the rows of F (file PATH) named string ids that STRING_IDS
 * lacks: np_no_string() showed them as "(string id N)".
 */
void
db_rows_missing_strings(struct store *s, struct store_foreign *f,
    const char *path)
{
	const char	*where, *first;
	size_t		 n;

	if ((n = store_foreign_missing_strings(f, &first, &where)) > 0)
		store_load_warning(s, path, -1, "%zu string id%s that STRING_IDS"
		    " lacks (the first %s, in %s): such a name reads as "
		    "\"(string id N)\", and a row chosen by its name (an NPU_MEM"
		    " type of app, say) may be left out", n, n == 1 ? "" : "s",
		    first, where);
}

/*
 * Run SQL on F, a statement that makes a temporary table or index of the
 * connection's own; a failure shows when a query needs it.
 */
void
db_exec(struct store_foreign *f, const char *sql)
{
	struct store_foreign_rows	*r;
	char				*why = NULL;

	if ((r = store_foreign_query(f, sql, &why)) != NULL) {
		store_foreign_next(r, &why);
		store_foreign_rows_free(r);
	}
	free(why);
}
