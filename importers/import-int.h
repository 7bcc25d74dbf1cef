/*
 * What every importer shares: how a probe scores a path, what a loader
 * knows of its unit, the importer table's entries, the CSV reader and
 * column finder, the rows every CSV-like source yields (import-rows.c),
 * profiler metadata, and little-endian loads for the binary decoders.
 * Only files under importers/ (and their unit tests) include this file.
 */
#ifndef IMPORT_INT_H
#define IMPORT_INT_H

#include "importer.h"

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
	int64_t		 model;		/* a legacy file name's model and */
	int64_t		 iter;		/* iteration (import_rows_file()) */
	bool		 several;	/* one of several profiles */
	bool		 cann_floors;	/* profiler_info: CANN 8.3 on */
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

/* import-csv.c: the CSV reader every text importer shares. */
#define IMPORT_CSV_MAX_ROW	(16 << 20)	/* bytes of one row */
/*
 * Bytes read at a time: few enough that what read() copied is still in
 * the core's cache when it is parsed. A 10M-row kernel_details.csv
 * imported in 7.4-8.0 s (median 7.5) and 14.1-14.8 CPU-s with 256 KB,
 * against 7.5-8.0 s (median 7.7) and 14.5-14.9 CPU-s with 1 MB, in four
 * interleaved rounds on a 2-vCPU machine; 128 KB was no faster.
 */
#define IMPORT_CSV_BLOCK	(256 << 10)
#define IMPORT_CSV_MAX_FIELDS	10000		/* cells of one row */
struct csv;
struct csv	*import_csv_open(const char *, char **);
void		 import_csv_free(struct csv *);
int		 import_csv_next(struct csv *, char ***, size_t *);
int		 import_csv_header(struct csv *, char ***, size_t *, char **);
int64_t		 import_csv_offset(struct csv *);
const char	*import_csv_path(struct csv *);
int64_t		 import_csv_line(struct csv *);
int64_t		 import_csv_bytes(struct csv *);
int64_t		 import_csv_skipped(struct csv *, int64_t *, int64_t *);
void		 import_csv_report(struct csv *, struct store *);

/* import-columns.c: find columns by header name. */
struct csv_cols;

/* import-memory.c: memory_record.csv as counter series */
#define IMPORT_MEMORY_NVALS	3
struct import_memory {
	int		 ts;
	int		 comp;
	int		 dev;
	int		 val[IMPORT_MEMORY_NVALS];
	bool		 on;		/* the file has a time and values */
};
void		 import_memory_init(struct import_memory *, struct csv_cols *);
int		 import_memory_row(struct store *, const struct import_memory *,
		     char **, size_t, const struct import_ctx *);

struct csv_cols	*import_columns_create(char **, size_t);
void		 import_columns_free(struct csv_cols *);
int		 import_columns_find(struct csv_cols *, const char *);
int		 import_columns_find_any(struct csv_cols *,
		     const char *const *);
bool		 import_columns_unused(struct csv_cols *, size_t);
const char	*import_columns_name(struct csv_cols *, size_t);
size_t		 import_columns_count(struct csv_cols *);
const char	*import_columns_clashes(struct csv_cols *);

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
const char	*import_rows_superseded(char **, size_t, size_t);
char		*import_rows_legacy(const char *, int64_t *, int64_t *);
int		 import_rows_file(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_dir(struct store *, const char *,
		     struct import_ctx *, char **);

/* import-comm.c */
/* The phases of a KFC server turn (the first 6), then of a compute turn. */
#define IMPORT_COMM_KFC_SERVER	6
#define IMPORT_COMM_KFC_PHASES	8
extern const char *const import_comm_kfc_phases[IMPORT_COMM_KFC_PHASES];
int		 import_comm_kfc_phase(const char *);
int64_t		 import_comm_dir(struct store *, const char *,
		     struct import_ctx *, char **);

/* import-meta.c */
int		 import_meta_profiler_info(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_meta_profiler_metadata(struct store *, const char *,
		     const struct import_ctx *, char **);

/* The probes and loaders of importer.c's table, one pair per family. */
int		 import_msprof_probe(const char *, bool);
int		 import_msprof_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_msprof_summary_probe(const char *, bool);
int		 import_msprof_summary_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_pytorch_probe(const char *, bool);
int		 import_pytorch_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_db_probe(const char *, bool);
int		 import_db_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_job_probe(const char *, bool);
int		 import_job_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_tracedir_probe(const char *, bool);
int		 import_tracedir_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_prof_probe(const char *, bool);
int		 import_prof_load(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_trace_probe(const char *, bool);
int		 import_trace_load(struct store *, const char *,
		     struct import_ctx *, char **);

/* Little-endian loads from a record buffer (doc/formats.md section 0). */
static inline uint16_t
importer_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
importer_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
importer_le64(const unsigned char *p)
{
	return (uint64_t)importer_le32(p) | (uint64_t)importer_le32(p
	    + 4) << 32;
}

#endif /* IMPORT_INT_H */
