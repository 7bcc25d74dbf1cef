/*
 * What only the legacy JOB importer's files share (importers/job/),
 * including the per-device timeline/ JSON of CANN 6.x exports. Legacy JOB
 * decodes device logs and PMU records as raw PROF does, so it builds on
 * prof-int.h; its timeline/ JSON is read through the trace family.
 */
#ifndef JOB_INT_H
#define JOB_INT_H

#include "prof-int.h"
#include "trace-int.h"

/* import-job.c, job-*.c: legacy JOB directories (doc/formats.md 1.5). */

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
	bool		 name_hash;	/* name/type: a hash id, as digits */
	bool		 type_hash;
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
	bool		 mindspore;	/* MindSpore wrote it: its enums */
};

/* job-files.c */
enum job_kind	 job_files_kind(const char *, int64_t *, int64_t *);
int		 job_files_scan(struct job *, const char *);
void		 job_files_free(struct job *);
bool		 job_files_any(const char *);
const char	*job_files_first(struct job *, enum job_kind);
size_t		 job_files_read_stem(struct job *, size_t, char **,
		     size_t *);
int		 job_files_read(struct job *, enum job_kind, const char *,
		     char **, size_t *);
char		*job_files_named(struct job *, const char *);
int		 job_files_read_table(struct job *, enum job_kind,
		     const char *, char **, size_t, char **, size_t *);
int		 job_files_table(struct job *, const char *, const char *,
		     char **, size_t);

/* job-stream.c: records of one kind through a bounded buffer. */
struct job_stream {
	struct job	*j;
	enum job_kind	 kind;
	size_t		 size;		/* record size */
	size_t		 next;		/* the next file to open */
	const char	*path;		/* the file being read */
	FILE		*f;
	int64_t		 file_read;	/* bytes read of it */
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
int64_t		 job_clock_dur(const struct job_clock *, uint64_t, uint64_t);
int64_t		 job_clock_host(const struct job_clock *, uint64_t);
void		 job_clock_step(struct job *, int64_t, int64_t, uint64_t,
		     uint64_t, uint64_t, uint64_t);

/* job-text.c */
int		 job_text_task_desc(struct job *, const char *, size_t);
void		 job_text_graph_desc(struct job *, const char *, size_t);
void		 job_text_point(struct job *, const char *, size_t);
void		 job_text_hashes(struct job *, const char *, size_t);
void		 job_text_table(struct job *);
void		 job_text_ops_free(struct job *);

/* job-trace.c */
#define JOB_TRACE_NCOLS	7
extern char	*job_trace_cols[JOB_TRACE_NCOLS];
int		 job_trace_load(struct job *);

/* job-ge.c */
int		 job_ge_load(struct job *);
void		 job_ge_enum(struct strbuf *, uint32_t, bool, bool);

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

/* import-tracedir.c: legacy per-device timeline/ JSON. */
int		 import_tracedir_dir(struct store *, const char *,
		     struct import_ctx *, char **);
bool		 import_tracedir_any(const char *);

/* tracedir-clock.c */
struct tracedir_clock {
	int64_t		 offset;	/* epoch ns minus monotonic ns */
	int64_t		 below;		/* times below are monotonic; 0 none */
	bool		 link;		/* tasks came from a CSV */
};
void		 tracedir_clock_read(struct store *, const char *, int64_t,
		     struct import_ctx *, struct tracedir_clock *);

/* tracedir-step.c */
struct tracedir_steps;
struct tracedir_steps *tracedir_step_create(struct store *, int64_t,
		     int64_t, int64_t);
bool		 tracedir_step_event(struct tracedir_steps *, size_t,
		     int64_t, int64_t, const struct trace_event *);
int64_t		 tracedir_step_free(struct tracedir_steps *);

/* job-pmu.c: the aicore.data of a legacy JOB, through prof-pmu.c. */
int64_t		 job_pmu_load(struct job *, struct prof_pmu *,
		     struct prof_meta *);
void		 job_pmu_release(struct prof_pmu *, struct prof_meta *);

#endif /* JOB_INT_H */
