/*
 * The importer table. Each importer recognises one kind of input directory
 * or file (a "unit") and decodes it into the store through the load
 * interface. importer.c walks PATH, asks every importer to probe each
 * directory and file, keeps the best claim for every unit and runs the
 * loaders in one store transaction.
 */
#ifndef IMPORTER_H
#define IMPORTER_H

#include "store.h"

/* How strongly an importer claims a path; 0 means not ours. */
enum import_score {
	IMPORT_NO = 0,
	IMPORT_MAYBE = 10,	/* a file it can read inside a larger unit */
	IMPORT_YES = 50,	/* the unit it is made for */
	IMPORT_BEST = 90	/* the best source for this unit */
};

/* What a loader knows about the unit it loads. */
struct import_ctx {
	int64_t		 device;	/* NP_NA until a file says */
	int64_t		 rank;
	const char	*root;		/* the PATH the user gave */
};

struct importer {
	const char	*name;
	const char	*what;		/* for "looked for ..." messages */
	int		(*probe)(const char *path, bool isdir);
	int		(*load)(struct store *s, const char *path,
			    struct import_ctx *ctx, char **cause);
};

/* importer.c */
const struct importer *importer_find(const char *);
int		 importer_run(struct store *, const char *, char **);
char		*importer_looked_for(void);

/* import-csv.c: the CSV reader every text importer shares. */
struct csv;
struct csv	*csv_open(const char *, char **);
void		 csv_free(struct csv *);
int		 csv_next(struct csv *, char ***, size_t *);
int64_t		 csv_offset(struct csv *);
int64_t		 csv_line(struct csv *);
int64_t		 csv_bytes(struct csv *);

/* import-columns.c: find columns by header name. */
struct csv_cols;
struct csv_cols	*csv_cols_create(char **, size_t);
void		 csv_cols_free(struct csv_cols *);
int		 csv_cols_find(struct csv_cols *, const char *);
int		 csv_cols_find_any(struct csv_cols *, const char *const *);
bool		 csv_cols_unused(struct csv_cols *, size_t);
const char	*csv_cols_name(struct csv_cols *, size_t);
size_t		 csv_cols_count(struct csv_cols *);

/* import-msprof.c */
extern const struct importer import_msprof;

/* import-pytorch.c */
extern const struct importer import_pytorch;

/* import-trace.c */
extern const struct importer import_trace;
int		 import_trace_file(struct store *, const char *,
		     struct import_ctx *, bool, char **);
bool		 import_trace_is_msprof(const char *);

/* trace-parse.c: a streaming reader of chrome-trace JSON. */
#define TRACE_MAX_ARGS	32

struct trace_arg {
	struct strbuf	 key;
	struct strbuf	 val;		/* as written, numbers included */
	bool		 str;		/* a JSON string */
};

struct trace_event {
	struct strbuf	 ph;
	struct strbuf	 name;
	struct strbuf	 cat;
	struct strbuf	 id;
	struct strbuf	 pid;
	struct strbuf	 tid;
	struct strbuf	 ts;
	struct strbuf	 dur;
	struct strbuf	 bp;
	struct strbuf	 args;		/* the args object as JSON text */
	struct trace_arg argv[TRACE_MAX_ARGS];	/* its scalar members */
	size_t		 nargs;
};
typedef void	(*trace_event_cb)(void *, const struct trace_event *);
int		 trace_parse_file(struct store *, const char *,
		     trace_event_cb, void *, char **);
const char	*trace_arg(const struct trace_event *, const char *);

/* trace-event.c: chrome-trace events into the store. */
struct trace_load;
struct trace_load *trace_load_create(struct store *, const char *,
		     struct import_ctx *, bool);
void		 trace_load_event(void *, const struct trace_event *);
void		 trace_load_free(struct trace_load *);

/* import-summary.c */
extern const struct importer import_summary;

/* import-rows.c: the rows shared by the CSV importers. */
int		 import_rows_op_summary(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_op_statistic(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_api_statistic(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_step_trace(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_generic(struct store *, const char *,
		     const char *, struct import_ctx *, char **);
char		*import_rows_base(const char *, int64_t *);
int		 import_rows_file(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_dir(struct store *, const char *,
		     struct import_ctx *, char **);

/* import-meta.c */
int		 import_meta_profiler_info(struct store *, const char *,
		     struct import_ctx *, char **);

/* importer.c: directory helpers for probes. */
char		**importer_list_dir(const char *, size_t *);
void		 importer_free_list(char **, size_t);
bool		 importer_dir_has(const char *, const char *);

#endif /* IMPORTER_H */
