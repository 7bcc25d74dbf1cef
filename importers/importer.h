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
	int64_t		 model;		/* a legacy file name's model and */
	int64_t		 iter;		/* iteration (import_rows_file()) */
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

/* import-db.c */
extern const struct importer import_db;
int		 import_db_file(struct store *, const char *,
		     struct import_ctx *, char **);
bool		 import_db_is_vendor(const char *);

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
void		 db_tables_repr(char *, size_t, double);

/* import-msprof.c */
extern const struct importer import_msprof;

/* import-prof.c */
extern const struct importer import_prof;
/* import-job.c, job-*.c: legacy JOB directories (FORMATS.md 1.5). */
extern const struct importer import_job;

enum job_kind {
	JOB_OTHER,		/* not a profiling file we know */
	JOB_META,		/* info.json, start_info, ... read elsewhere */
	JOB_TASK_DESC,		/* Framework task_desc_info, text or binary */
	JOB_GRAPH_DESC,		/* Framework graph_desc_info, text */
	JOB_POINT,		/* Framework point: fp/bp point names */
	JOB_HASH_DIC,		/* Framework or AclModule hash_dic */
	JOB_GE_OTHER,		/* other Framework records */
	JOB_ACL,		/* AclModule 128-byte API records */
	JOB_RUNTIME,		/* Runtime.api, Runtime.task_track */
	JOB_TRAINING_TRACE,	/* 20-byte step trace points */
	JOB_HWTS,		/* 64-byte HWTS task logs */
	JOB_AICORE,		/* 128-byte AI Core PMU */
	JOB_TS_TRACK,		/* 40-byte ts_track */
	JOB_AICPU,		/* DATA_PREPROCESS AICPU text log */
	JOB_PREPROCESS,		/* other DATA_PREPROCESS logs */
	JOB_MSPROFTX,		/* Msprof.msproftx 256-byte markers */
	JOB_HOST_START,		/* host_start.log[.N] */
	JOB_DEV_START		/* dev_start.log.N */
};

struct job_file {
	char		*path;
	char		*name;
	enum job_kind	 kind;
	int64_t		 device;	/* NP_NA if the name has none */
	int64_t		 slice;
};

/* One op of the task description, with what graph_desc_info adds. */
struct job_op {
	char		*name;
	char		*type;
	char		*in_shapes;
	char		*in_dtypes;
	char		*in_formats;
	char		*out_shapes;
	char		*out_dtypes;
	char		*out_formats;
	int64_t		 block_dim;
	int64_t		 task;
	int64_t		 stream;
	int64_t		 batch;
	int64_t		 model;
	bool		 ai_cpu;
};

/* Device syscnt to nanoseconds. */
struct job_clock {
	double		 freq_mhz;
	bool		 anchored;	/* syscnt_0 and ns_0 are a pair */
	int64_t		 syscnt_0;
	int64_t		 ns_0;
	bool		 host_epoch;	/* host mono ns + host_offset = epoch */
	int64_t		 host_offset;
};

struct prof_pmu;

struct job {
	struct store	*s;
	const char	*dir;
	struct import_ctx *ctx;
	struct job_file	*files;
	size_t		 nfiles;
	struct job_op	*ops;
	size_t		 nops;
	struct job_clock clock;
	int64_t		 device;
	uint64_t	*iter_end;	/* step trace iteration ends */
	size_t		 niter;
	struct prof_pmu	*pmu;		/* AI Core PMU records, or NULL */
	int64_t		 pmu_used;	/* records given to task rows */
};

/* job-files.c */
enum job_kind	 job_files_kind(const char *, int64_t *, int64_t *);
int		 job_files_scan(struct job *, const char *);
void		 job_files_free(struct job *);
bool		 job_files_any(const char *);
const char	*job_files_first(struct job *, enum job_kind);
size_t		 job_files_read_stem(struct job *, size_t, char **,
		     size_t *);
void		*job_files_grow(void *, size_t, size_t);
int		 job_files_read(struct job *, enum job_kind, const char *,
		     char **, size_t *);

/* job-stream.c: records of one kind through a bounded buffer. */
struct job_stream {
	struct job	*j;
	enum job_kind	 kind;
	size_t		 size;		/* record size */
	size_t		 next;		/* the next file to open */
	const char	*path;		/* the file being read */
	FILE		*f;
	char		*buf;
	size_t		 have;
	size_t		 pos;
	int64_t		 offset;	/* of the next record in the stream */
	bool		 rewound;
};
int		 job_stream_open(struct job_stream *, struct job *,
		     enum job_kind, size_t);
const unsigned char *job_stream_next(struct job_stream *);
size_t		 job_stream_trailing(const struct job_stream *, int64_t *);
void		 job_stream_rewind(struct job_stream *);
void		 job_stream_close(struct job_stream *);

/* job-clock.c */
void		 job_clock_init(struct job *);
int64_t		 job_clock_ns(const struct job_clock *, uint64_t);
int64_t		 job_clock_dur(const struct job_clock *, uint64_t);

/* job-text.c */
int		 job_text_task_desc(struct job *, const char *, size_t);
void		 job_text_graph_desc(struct job *, const char *, size_t);
void		 job_text_point(struct job *, const char *, size_t);
void		 job_text_hashes(struct job *, const char *, size_t);
void		 job_text_table(struct job *);
void		 job_ops_free(struct job *);

/* job-trace.c */
int		 job_trace_load(struct job *);

/* job-ge.c */
int		 job_ge_load(struct job *);

/* job-tstrack.c */
int		 job_tstrack_load(struct job *);

/* job-runtime.c */
int		 job_runtime_load(struct job *);

/* job-hwts.c */
int		 job_hwts_load(struct job *);

/* job-aicpu.c */
int		 job_aicpu_load(struct job *);

/* job-tdt.c */
int		 job_tdt_load(struct job *);

/* job-acl.c */
bool		 job_acl_check(const char *, size_t);
int		 job_acl_load(struct job *);

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
struct trace_parse;
struct yajl_handle_t;
struct trace_parse *trace_parse_create(trace_event_cb, void *);
void		 trace_parse_free(struct trace_parse *);
struct yajl_handle_t *trace_parse_handle(struct trace_parse *);
bool		 trace_parse_done(struct trace_parse *);
bool		 trace_parse_too_deep(struct trace_parse *);
int64_t		 trace_parse_events(struct trace_parse *);
const char	*trace_arg(const struct trace_event *, const char *);

/* trace-read.c */
int		 trace_read_file(struct store *, const char *,
		     trace_event_cb, void *, char **);

/* trace-event.c: chrome-trace events into the store. */
struct trace_load;
struct trace_load *trace_load_create(struct store *, const char *,
		     struct import_ctx *, bool);
void		 trace_load_event(void *, const struct trace_event *);
void		 trace_load_legacy(struct trace_load *, int64_t, int64_t,
		     int64_t, int64_t);
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
char		*import_rows_legacy(const char *, int64_t *, int64_t *);
int		 import_rows_file(struct store *, const char *,
		     struct import_ctx *, char **);
int		 import_rows_dir(struct store *, const char *,
		     struct import_ctx *, char **);

/* import-timeline.c: legacy per-device timeline/ JSON. */
extern const struct importer import_timeline;
int		 import_timeline_dir(struct store *, const char *,
		     struct import_ctx *, char **);
bool		 import_timeline_any(const char *);

/* timeline-clock.c */
struct timeline_clock {
	int64_t		 offset;	/* epoch ns minus monotonic ns */
	int64_t		 below;		/* times below are monotonic; 0 none */
	bool		 link;		/* tasks came from a CSV */
};
void		 timeline_clock_read(struct store *, const char *, int64_t,
		     struct import_ctx *, struct timeline_clock *);

/* timeline-step.c */
struct timeline_steps;
struct timeline_steps *timeline_steps_create(struct store *, int64_t,
		     int64_t, int64_t);
bool		 timeline_steps_event(struct timeline_steps *, size_t,
		     int64_t, int64_t, const struct trace_event *);
int64_t		 timeline_steps_free(struct timeline_steps *);

/* import-svp.c */
int		 import_svp_aa_core(struct store *, const char *,
		     struct import_ctx *, char **);

/* import-meta.c */
int		 import_meta_profiler_info(struct store *, const char *,
		     struct import_ctx *, char **);

/* dev-*.c: device record decoders (shared with legacy JOB) */

/* Little-endian loads from a record buffer (FORMATS.md section 0). */
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
	return (uint64_t)importer_le32(p) | (uint64_t)importer_le32(p + 4) << 32;
}

/* An unknown stream (V6 records carry none) or context (ACSQ logs). */
#define DEV_NO_STREAM	UINT32_MAX
#define DEV_NO_CONTEXT	UINT32_MAX

/* dev-hwts.c: 64-byte hwts.data task logs of HWTS chips (section 4.4). */
#define DEV_HWTS_SIZE	64
enum dev_hwts_log {
	DEV_HWTS_START = 0,
	DEV_HWTS_END = 1,
	DEV_HWTS_TYPE = 2
};
struct dev_hwts {
	int		 log_type;	/* enum dev_hwts_log, or other */
	int		 cnt;		/* 4-bit rolling counter */
	int		 sqe_type;
	uint32_t	 stream;	/* already % 2048 */
	uint32_t	 task;
	uint64_t	 syscnt;
};
void		 dev_hwts_decode(const unsigned char *, struct dev_hwts *);
const char	*dev_hwts_sqe_name(int);

/* dev-tstrack.c: 40-byte ts_track records (section 4.5). */
#define DEV_TSTRACK_SIZE	40
enum dev_tstrack_tag {
	DEV_TS_STEP = 10,
	DEV_TS_MEMCPY = 11,
	DEV_TS_TASK_TYPE = 12,
	DEV_TS_FLIP = 14,
	DEV_TS_BLOCK_NUM = 15
};
struct dev_tstrack {
	int		 tag;		/* enum dev_tstrack_tag, or other */
	uint64_t	 syscnt;
	uint32_t	 stream;
	uint32_t	 task;
	uint64_t	 index_id;	/* step trace */
	uint64_t	 model_id;	/* step trace */
	int		 tag_id;	/* step trace: 0 model start, ... */
	int		 flip_num;	/* task flip */
	int		 task_type;	/* task type record */
	int		 status;	/* memcpy and task type records */
	uint32_t	 block_num;	/* block num record */
};
void		 dev_tstrack_decode(const unsigned char *,
		     struct dev_tstrack *);

/* dev-stars.c: stars_soc task logs of STARS chips (section 4.1-4.3). */
#define DEV_STARS_SIZE		64
#define DEV_STARS_V6_SIZE	32
#define DEV_STARS_MAGIC		0x6BD3
enum dev_stars_func {
	DEV_STARS_ACSQ_START = 0,
	DEV_STARS_ACSQ_END = 1,
	DEV_STARS_FFTS_START = 34,
	DEV_STARS_FFTS_END = 35
};
struct dev_stars {
	int		 func_type;	/* enum dev_stars_func, or other */
	int		 cnt;		/* 4-bit rolling counter */
	int		 sqe_type;
	uint16_t	 magic;
	uint32_t	 stream;	/* unpacked; DEV_NO_STREAM on V6 */
	uint32_t	 task;		/* unpacked */
	uint32_t	 context;	/* FFTS+ subtask id or DEV_NO_CONTEXT */
	uint64_t	 syscnt;
	int		 sub_task_type;	/* FFTS+ */
	int		 ffts_type;	/* FFTS+ */
	int		 thread;	/* FFTS+ */
	int		 acc_id;	/* ACSQ */
	int		 acsq_id;	/* ACSQ */
};
int		 dev_stars_decode(const unsigned char *, size_t, bool,
		     struct dev_stars *);
void		 dev_stars_unpack(uint16_t, uint16_t, int, bool, uint32_t *,
		     uint32_t *);
const char	*dev_stars_sqe_name(int);
const char	*dev_stars_subtask_name(int);

/* dev-pmu.c: 128-byte task-based AI Core PMU records (section 5). */
#define DEV_PMU_SIZE	128
#define DEV_PMU_COUNTERS	8
enum dev_pmu_kind {
	DEV_PMU_CONTEXT = 40,	/* ffts_profile context level */
	DEV_PMU_BLOCK = 41,	/* ffts_profile block level */
	DEV_PMU_AICORE = 100	/* aicore.data of HWTS chips */
};
struct dev_pmu {
	int		 kind;		/* enum dev_pmu_kind, or the funcType */
	int		 cnt;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 context;	/* DEV_NO_CONTEXT unless fftsType 4 */
	int		 sub_task_type;
	int		 ffts_type;
	bool		 overflow;
	int		 core_type;	/* block level */
	int		 core_id;	/* block level */
	int		 block_id;	/* block level */
	int		 sub_block_id;	/* block level */
	uint64_t	 total_cycle;
	uint64_t	 pmu[DEV_PMU_COUNTERS];
	uint64_t	 start;		/* syscnt, STARS only */
	uint64_t	 end;
};
void		 dev_pmu_decode_ffts(const unsigned char *, bool,
		     struct dev_pmu *);
void		 dev_pmu_decode_aicore(const unsigned char *,
		     struct dev_pmu *);
const char	*dev_pmu_accel(const struct dev_pmu *);

#endif /* IMPORTER_H */
