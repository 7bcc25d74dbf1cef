/*
 * Reading a vendor database: one query's rows handed one by one to the
 * function that loads them, for every table the .db importer reads.
 */
#include "db-int.h"

/* Run SQL and hand each row to FN; return the rows read or -1. */
int64_t
db_rows(struct store *s, struct store_foreign *f, const char *sql,
    void (*fn)(struct store *, struct store_foreign_rows *,
    struct import_ctx *), struct import_ctx *ctx, char **cause)
{
	struct store_foreign_rows	*r;
	int64_t				 n = 0;
	int				 rc;

	if ((r = store_foreign_query(f, sql, cause)) == NULL)
		return -1;
	while ((rc = store_foreign_next(r, cause)) == 1) {
		fn(s, r, ctx);
		n++;
	}
	store_foreign_rows_free(r);
	return rc < 0 ? -1 : n;
}
