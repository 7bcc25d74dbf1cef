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
	store_foreign_rows_free(r);
	for (i = 0; i < nskip; i++)
		store_load_warning(s, path, -1, "%lld of %lld %s rows%s: %s",
		    (long long)skip[i].n, (long long)total, what,
		    skip[i].loaded ? "" : " skipped", skip[i].why);
	return rc < 0 ? -1 : n;
}

/*
 * The duration of a row from START to END into *DUR; false, with why in
 * *WHY, if either is NULL or the difference does not fit.
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
	return true;
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
