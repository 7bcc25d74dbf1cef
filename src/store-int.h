/*
 * What the store's own files share: the struct behind the opaque
 * struct store, and helpers between store*.c. Nothing outside src/store*.c
 * includes this file.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <sqlite3.h>

#include "store.h"

struct store_intern;
struct stats_ops;
struct store_tl;

enum store_table_flags {
	TABLE_PMU = 1 << 0,		/* PMU columns follow the fixed ones */
	TABLE_FILE_FIRST = 1 << 1,	/* a vendor file of this name wins */
	TABLE_GENERIC = 1 << 2		/* a vendor CSV kept as it is */
};

/* A table show and the UI know by name. */
struct store_table {
	const char		*name;
	const char		*aliases;	/* " a b " */
	const char		*title;
	const char		*from;		/* SQL FROM clause */
	const struct store_col	*cols;
	size_t			 ncols;
	const char		*device;	/* column of the device id */
	const char		*rank;
	const char		*time;		/* column of the start time */
	const char		*order;		/* default ORDER BY */
	const char		*fallback;	/* generic table when empty */
	const char		*all;		/* FROM for a chosen origin */
	int			 flags;
};

enum store_stmt {
	STMT_TASK,
	STMT_API,
	STMT_OP_STAT,
	STMT_API_STAT,
	STMT_STEP,
	STMT_STR,
	STMT_WARNING,
	STMT_INPUT,
	STMT_GENERIC,
	STMT_COUNT
};

struct store {
	sqlite3			*db;
	char			*path;		/* final path */
	char			*tmp;		/* temporary path while loading */
	char			*root;		/* the PATH the store is for */
	bool			 loading;
	sqlite3_stmt		*stmt[STMT_COUNT];
	struct store_intern	*intern;
	struct stats_ops	*ops;		/* op_statistic being gathered */
	int64_t			 records;
	size_t			 generic_ncols;
	int64_t			 pmu_set;
	char			*pmu_names;
	store_progress_cb	 progress;
	void			*progress_arg;
	int64_t			 warnings;
	int64_t			 files_done;
	int64_t			 files_total;
	struct store_table	**dyn;		/* generic table specs */
	size_t			 ndyn;
	struct store_tl		*tl;		/* timeline statements */
};

/* store-schema.c */
extern const char	*store_schema_sql;
extern const char	*store_schema_index_sql;
extern const char	*store_schema_view_sql;
extern const char	*store_schema_lanes_sql;

/* store.c */
int		 store_prepare(struct store *, sqlite3_stmt **, const char *,
		     char **);
int		 store_open_db(struct store *, const char *, int, char **);
void		 store_register_functions(struct store *);
void		 store_register_match(struct store *, struct matcher *);
int		 store_manifest_write(struct store *, char **);
bool		 store_has_table(struct store *, const char *);

/* store-load.c */
void		 store_bind_i64(sqlite3_stmt *, int, int64_t);
void		 store_bind_str(sqlite3_stmt *, int, const char *);
void		 store_quote_ident(struct strbuf *, const char *);

/* store-tables.c */
void		 store_tables_free(struct store *);

/* store-load.c */
const char	*store_load_string(struct store *, int64_t);

/* store-stats.c */
void		 store_stats_add_task(struct store *, const struct store_task *,
		     int64_t, int64_t);
void		 store_stats_free(struct store *);

/* store-timeline.c */
void		 store_timeline_free(struct store *);

/* store-query.c */
void		 store_fmt_value(sqlite3_value *, enum store_fmt,
		     struct strbuf *);

#endif /* STORE_INT_H */
