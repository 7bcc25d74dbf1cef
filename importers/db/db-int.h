/*
 * What only the vendor .db importer's files share (importers/db/).
 */
#ifndef DB_INT_H
#define DB_INT_H

#include "import-int.h"

/* import-db.c */
int		 import_db_file(struct store *, const char *,
		     struct import_ctx *, char **);
bool		 import_db_is_vendor(const char *);

/* db-analysis.c */
int64_t		 db_analysis_load(struct store *, const char *,
		     struct import_ctx *, char **);

/* db-comm.c */
int64_t		 db_comm_load(struct store *, struct store_foreign *,
		     const char *, struct import_ctx *);
void		 db_comm_device(struct strbuf *,
		     struct store_foreign *);

/* db-counters.c */
int64_t		 db_counters_load(struct store *, struct store_foreign *,
		     const char *, struct import_ctx *);

/* db-steps.c */
int64_t		 db_steps_load(struct store *, struct store_foreign *,
		     const char *, struct import_ctx *);

/* db-tables.c */
int64_t		 db_tables_load(struct store *, struct store_foreign *,
		     const char *, struct import_ctx *, bool);

/*
 * db-rows.c: a row loader returns whether it loaded the row; *WHY says why
 * it did not, or what the loaded row lacks.
 */
typedef bool	(*db_row_fn)(struct store *, struct store_foreign_rows *,
		     struct import_ctx *, const char **);
int64_t		 db_rows(struct store *, struct store_foreign *, const char *,
		     const char *, const char *, db_row_fn, struct import_ctx *,
		     char **);
bool		 db_rows_dur(int64_t, int64_t, int64_t *, const char **);
void		 db_rows_nonint(struct store *, const char *, const char *,
		     struct store_foreign_rows *, int64_t);
void		 db_rows_missing_strings(struct store *,
		     struct store_foreign *, const char *);

/*
 * The text of string id column COL (an SQL expression), or, where
 * STRING_IDS lacks it, "(string id N)", counted as a string of column
 * WHERE (store-foreign.c); db_str() is the same into a query being built.
 */
#define DB_STR(col, where)						\
	"ifnull((SELECT value FROM STRING_IDS WHERE id = " col "),"	\
	" np_no_string(" col ", '" where "'))"
void		 db_str(struct strbuf *, const char *, const char *);
void		 db_exec(struct store_foreign *, const char *);

#endif /* DB_INT_H */
