/*
 * The store: one SQLite file per input PATH that holds everything the
 * importers decoded, in integer nanoseconds, with interned strings and the
 * views named after the vendor's tables. Importers write through the load
 * interface (store-load.c), inside one transaction on a temporary file that
 * store_load_commit() renames into place; show and the UI read through the
 * query interface (store-query.c), which hands out plain copies.
 */
#ifndef STORE_H
#define STORE_H

#include "npuprof.h"

/* Bumped whenever the schema changes; an older store is re-imported. */
#define STORE_SCHEMA_VERSION	19

struct store;

/*
 * One device task (a row of op_summary / kernel_details). Integer fields use
 * NP_NA when unknown, strings NULL. Times are epoch nanoseconds.
 */
struct store_task {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 model_id;
	int64_t		 stream;
	int64_t		 task;
	int64_t		 batch;
	int64_t		 context;
	int64_t		 start_ns;
	int64_t		 dur_ns;
	int64_t		 wait_ns;
	int64_t		 block_num;
	int64_t		 mix_block_num;
	int64_t		 step;
	int64_t		 conn;		/* connection id linking to the API */
	int64_t		 api;		/* row id of the launching API span */
	const char	*name;
	const char	*op_type;
	const char	*task_type;	/* the core type: AI_CORE, ... */
	const char	*op_state;
	const char	*hf32;
	const char	*in_shapes;
	const char	*in_dtypes;
	const char	*in_formats;
	const char	*out_shapes;
	const char	*out_dtypes;
	const char	*out_formats;
	const char	*pmu;		/* packed (store-pmu.c), or NULL */
	size_t		 pmu_len;
	const char	*model_name;	/* legacy op_summary's Model Name */
	bool		 unlisted;	/* not a row of the vendor's op_summary */
	int64_t		 launch_ns;	/* raw: its host task's time, or 0 */
};

/* One host API span (CANN levels, Python ops, markers). */
struct store_api {
	int64_t		 device;	/* NP_HOST_DEVICE for host data */
	int64_t		 rank;
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 start_ns;
	int64_t		 end_ns;
	int64_t		 conn;
	int64_t		 depth;
	int64_t		 parent;	/* row id of the enclosing span */
	const char	*level;		/* acl, model, node, hccl, runtime */
	const char	*name;
	const char	*args;		/* JSON object text or NULL */
};

/* Where a statistic row came from. */
enum store_origin {
	STORE_FROM_FILE,	/* the tool's own statistic file */
	STORE_FROM_TASKS	/* computed by us from task rows */
};

/* One row of op_statistic as the vendor prints it. */
struct store_op_stat {
	int64_t		 device;
	int64_t		 rank;
	const char	*op_type;
	const char	*core_type;
	int64_t		 count;
	int64_t		 total_ns;
	int64_t		 min_ns;
	int64_t		 avg_ns;
	int64_t		 max_ns;
	double		 ratio;
	enum store_origin origin;
	int64_t		 model_id;	/* legacy files: the model and */
	int64_t		 iter;		/* iteration of the file name */
	const char	*model_name;	/* legacy files' first column */
};

/* One row of api_statistic. */
struct store_api_stat {
	int64_t		 device;	/* NP_HOST_DEVICE prints "host" */
	int64_t		 rank;
	const char	*level;
	const char	*name;
	int64_t		 total_ns;
	int64_t		 count;
	int64_t		 avg_ns;
	int64_t		 min_ns;
	int64_t		 max_ns;
	double		 variance;
	enum store_origin origin;
};

/* One row of step_trace. Times are epoch ns; durations ns. */
struct store_step {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 model_id;
	int64_t		 iter;
	int64_t		 fp_start_ns;
	int64_t		 bp_end_ns;
	int64_t		 iter_end_ns;
	int64_t		 iter_time_ns;
	int64_t		 fp_bp_ns;
	int64_t		 refresh_ns;
	int64_t		 data_aug_ns;
};

/* timeline */

/* The span types the timeline colours by; names are theme-role suffixes. */
#define STORE_SPAN_TYPES(X)						\
	X(AI_CORE,	"ai_core")					\
	X(AI_VECTOR_CORE, "ai_vector_core")				\
	X(MIX,		"mix")						\
	X(AI_CPU,	"ai_cpu")					\
	X(COMM,		"comm")						\
	X(MEMCPY,	"memcpy")					\
	X(EVENT,	"event")					\
	X(OTHER,	"other")					\
	X(API,		"api")						\
	X(STEP,		"step")

#define STORE_SPAN_TYPE_ENUM(n, s)	SPAN_##n,
enum store_span_type {
	STORE_SPAN_TYPES(STORE_SPAN_TYPE_ENUM)
	SPAN_NTYPES
};
#undef STORE_SPAN_TYPE_ENUM

/* What a timeline lane holds. */
enum store_lane_kind {
	LANE_API,		/* host API spans of one thread at one depth */
	LANE_STEP,		/* step (iteration) spans of a device */
	LANE_STREAM,		/* device tasks of one stream */
	LANE_COUNTER		/* one counter series, as a sparkline */
};

/* One lane of the timeline, in display order. */
struct store_lane {
	int64_t			 id;
	enum store_lane_kind	 kind;
	int64_t			 device;
	int64_t			 rank;
	int64_t			 pid;
	int64_t			 tid;
	int64_t			 stream;
	int64_t			 depth;
	char			*name;		/* "Stream 40", "Thread 7/1" */
	char			*group;		/* "Rank 0 Device 0", ... */
	/* Counter lanes: the series' name and key (str ids) are in stream
	 * and depth; its unit (the key) and lowest and highest value. */
	char			*unit;
	double			 vmin;
	double			 vmax;
	int64_t			 nspans;
	int64_t			 start_ns;	/* first span start */
	int64_t			 end_ns;	/* last span end */
};

/*
 * One cell of a lane: BUSY_NS is the exact time inside the cell covered
 * by at least one span, SPANS the number of spans starting in the cell and
 * TYPE the span type covering most of the cell (-1 if the cell is empty).
 */
struct store_cell {
	int64_t		 busy_ns;
	int64_t		 spans;
	int		 type;
	double		 value;		/* counter lanes: the highest */
};

/* One span of a lane, as the timeline draws and describes it. */
struct store_span {
	int64_t		 lane;
	int64_t		 ord;		/* position on the lane, from 0 */
	int64_t		 id;		/* row id in task, api or step */
	int64_t		 start_ns;
	int64_t		 end_ns;
	int		 type;
	char		*name;		/* of the task, API or step, or NULL */
};

/* Where store_spans_step() moves. */
enum store_span_dir {
	SPAN_NEXT,
	SPAN_PREV
};

/* Which tasks store_jump_op_instance() walks: one op type, in start order. */
struct store_op_instances {
	const char	*op_type;
	const char	*core_type;	/* the task type, or NULL for any */
	int64_t		 device;	/* NP_NA for any */
	int64_t		 rank;		/* NP_NA for any */
	int64_t		 from_ns;	/* NP_NA, or a time window */
	int64_t		 to_ns;
};

/* One endpoint of a chrome-trace flow (ph s, t or f). */
struct store_flow {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 ts_ns;
	const char	*id;		/* as written: ids reach 2^64-1 */
	const char	*cat;
	const char	*name;
	const char	*phase;
	const char	*bp;
};

/* One sample of a chrome-trace counter track (ph C). */
struct store_counter {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 ts_ns;
	const char	*name;
	const char	*key;
	double		 value;
};

/* How a column of a query result is printed. */
enum store_fmt {
	FMT_TEXT,	/* as stored */
	FMT_INT,	/* integer, NP_NA as N/A */
	FMT_US,		/* ns printed as us, 3 decimals, zeros stripped */
	FMT_US3,	/* ns printed as us, exactly 3 decimals */
	FMT_US6,	/* ns printed as us, 6 decimals, 0 as "0" */
	FMT_REAL3,	/* double, 3 decimals, zeros stripped */
	FMT_DEVICE,	/* device id, 64 printed as host */
	FMT_REAL,	/* double, printed as SQLite prints it */
	FMT_NUMTEXT	/* text holding a number: sorts as a number */
};

struct store_col {
	const char	*name;		/* the vendor's header */
	const char	*expr;		/* SQL over the table's source */
	enum store_fmt	 fmt;
};

/* A query result: formatted cells, row-major. */
/*
 * A cell's value as the query read it, before it was formatted: what
 * readers compute with, so no number is printed and parsed back.
 */
struct store_val {
	enum {
		VAL_NONE,	/* NULL or text */
		VAL_INT,	/* i */
		VAL_NS,		/* i, a time in ns drawn in us */
		VAL_REAL	/* d */
	}		 kind;
	union {
		int64_t	 i;
		double	 d;
	};
};

/* A reader of packed PMU values (store-pmu.c). */
struct store_pmu_iter {
	const unsigned char	*p;
	const unsigned char	*end;
};

struct store_rows {
	size_t		  ncols;
	char		**names;
	enum store_fmt	 *fmts;
	size_t		  nrows;
	size_t		  size;
	char		**cells;	/* nrows * ncols, never NULL */
	struct store_val *vals;		/* the cells' values, as read */
	int64_t		 *ids;		/* task row ids, or NULL */
};

/* What a table query selects. */
struct store_query {
	const char	*sort;		/* "col" or "-col" (descending), NULL */
	const char	*filter;	/* regex over all cells, or col:regex */
	int64_t		 device;	/* NP_NA for all */
	int64_t		 rank;		/* NP_NA for all */
	int64_t		 offset;
	int64_t		 limit;		/* < 0 for no limit */
	int64_t		 from_ns;	/* NP_NA, or a time window */
	int64_t		 to_ns;
	int64_t		 step;		/* NP_NA, or the tasks' step id */
	int		 origin;	/* -1 auto, or an enum store_origin */
	bool		 any_order;	/* rows in no set order (whether */
};					/* there is one: no sort to pay) */

struct store_table;

enum store_print_format {
	PRINT_TABLE,
	PRINT_CSV,
	PRINT_TSV,
	PRINT_JSON
};

struct store_print_opts {
	enum store_print_format	 format;
	int			 width;		/* 0: no limit */
	bool			 utf8;
	bool			 color;
	const char		*indent;	/* JSON nesting */
	size_t			*widths;	/* if set: each column's, out */
};

/* A row of store_query_each(): CELLS is NULL for the header call. */
typedef int	(*store_row_cb)(void *, const struct store_rows *, char **,
		    const struct store_val *);

/*
 * A task and the span that launched it, for the timeline's flow events
 * (store-iter.c). Times are epoch ns; unknown integers are NP_NA.
 */
struct store_link {
	int64_t		 task_id;	/* row ids */
	int64_t		 api_id;
	int64_t		 rank;
	int64_t		 device;	/* the task's */
	int64_t		 stream;
	int64_t		 context;
	int64_t		 task_start_ns;
	int64_t		 pid;		/* the span's */
	int64_t		 tid;
	int64_t		 api_start_ns;
	const char	*level;
	int64_t		 conn;		/* the connection id, if known */
};

/* Callbacks of the export walks; a non-zero return stops the walk. */
typedef int	(*store_task_cb)(void *, int64_t, const struct store_task *);
typedef int	(*store_api_cb)(void *, int64_t, const struct store_api *);
typedef int	(*store_link_cb)(void *, const struct store_link *);
typedef int	(*store_lane_cb)(void *, int64_t, int64_t, int64_t,
		    const char *, const char *);

/* A process holding counter tracks, for the timeline (store-counters.c). */
struct store_track {
	int64_t		 rank;
	int64_t		 device;
	int64_t		 pid;		/* as the trace wrote it */
	const char	*process;	/* its process_name, or NULL */
	const char	*labels;
	int64_t		 sort;		/* process_sort_index, or NP_NA */
};
typedef int	(*store_track_cb)(void *, const struct store_track *);
typedef int	(*store_counter_cb)(void *, const struct store_counter *);

/* Progress of an import, passed to the caller's callback. */
struct store_progress {
	const char	*phase;
	const char	*file;
	int64_t		 files_done;
	int64_t		 files_total;
	int64_t		 records;
	int64_t		 bytes_done;
	int64_t		 bytes_total;
};
typedef void	(*store_progress_cb)(void *, const struct store_progress *);

/* stacks: where the time goes, by call path (store-stacks*.c). */
enum store_stacks_source {
	STACKS_AUTO,		/* python, mindspore, cann, else ops */
	STACKS_CANN,		/* acl > model > node > runtime > tasks */
	STACKS_PYTHON,		/* Python call stacks of PyTorch ops */
	STACKS_OPS,		/* op type > op name > input shapes */
	STACKS_MODULES,		/* nn.Module hierarchy > PyTorch ops */
	STACKS_MINDSPORE	/* MindSpore's ranges > cann */
};

enum store_stacks_weight {
	STACKS_DEVICE,		/* ns of device (task) time */
	STACKS_HOST		/* ns of host (span self) time */
};

/* One frame of a call tree: a name under its caller, summed over calls. */
struct store_frame {
	char			 *name;
	int64_t			  total;	/* self plus callees */
	int64_t			  self;
	int64_t			  count;	/* calls: spans, tasks, rows */
	struct store_frame	 *parent;
	struct store_frame	**kids;		/* sorted by name */
	size_t			  nkids;
};

/* What store_stacks_build() gathers. */
struct store_stacks_opts {
	enum store_stacks_source source;
	enum store_stacks_weight weight;
	int64_t			 device;	/* NP_NA for all */
	int64_t			 rank;		/* NP_NA for all */
	int64_t			 from_ns;	/* NP_NA, or a time window */
	int64_t			 to_ns;
	int64_t			 step;		/* NP_NA, or one step */
};

/* A call tree. The root frame is "all" and is never printed. */
struct store_stacks {
	struct store_frame	*root;
	enum store_stacks_source source;	/* the one auto picked */
	enum store_stacks_weight weight;
	const char		*from;		/* what it was built from */
	int64_t			 whole;		/* total before pruning */
};

/* store.c */
struct store	*store_open(const char *, char **);
void		 store_free(struct store *);
char		*store_default_path(const char *);
int		 store_manifest_current(const char *, const char *, char **);
int64_t		 store_manifest_bytes(const char *);
int64_t		 store_manifest_sum(struct store *);
const char	*store_path(struct store *);
int		 store_exec(struct store *, const char *, char **);
int		 store_meta_get(struct store *, const char *, char **);

/* store-load.c */
struct store	*store_load_begin(const char *, const char *, char **);
int		 store_load_commit(struct store *, char **);
void		 store_load_abort(struct store *);
int		 store_failed(struct store *, char **);
void		 store_load_meta(struct store *, const char *, const char *);
void		 store_load_rank(struct store *, int64_t, const char *);
void		 store_load_avg_rounded(struct store *);
void		 store_load_avg_floored(struct store *);
void		 store_load_file(struct store *, const char *);
struct store_defer;
void		 store_load_defer_begin(struct store_defer **);
void		 store_load_defer_stop(void);
void		 store_load_defer_end(struct store *, struct store_defer *);
void		 store_load_warning(struct store *, const char *, int64_t,
		     const char *, ...) PRINTFLIKE(4, 5);
int64_t		 store_load_task(struct store *, const struct store_task *);
void		 store_load_api_init(struct store_api *, int64_t, int64_t,
		     int64_t,
		     const char *, const char *);
int64_t		 store_load_api(struct store *, const struct store_api *);
void		 store_load_op_stat(struct store *,
		     const struct store_op_stat *);
void		 store_load_api_stat(struct store *,
		     const struct store_api_stat *);
void		 store_load_step(struct store *, const struct store_step *);
#define STORE_GENERIC_MAX_COLS	1000	/* columns kept of a vendor CSV */
int		 store_load_generic_begin(struct store *, const char *,
		     int64_t, int64_t, char **, size_t, char **);
void		 store_load_generic_row(struct store *, char **, size_t);
void		 store_load_generic_device(struct store *, int64_t, int64_t);
double		 store_sql_round(double, int);
void		 store_load_legacy(struct store *, const char *);
void		 store_load_task_cols(struct store *, const char *);
int64_t		 store_load_intern(struct store *, const char *);
void		 store_load_pmu_names(struct store *, const struct strbuf *);
const char	*store_load_tmp(void);
void		 store_load_set_progress(struct store *, store_progress_cb,
		     void *);
void		 store_load_progress(struct store *, const char *,
		     const char *, int64_t, int64_t);
void		 store_load_progress_files(struct store *, int64_t, int64_t);
void		 store_load_progress_bytes(struct store *, const char *,
		     const char *, int64_t);
void		 store_load_read(struct store *, int64_t);
int64_t		 store_load_count(struct store *);

/* store-nest-live.c: span nesting as spans load */
void		 store_nest_live_again(struct store *, int64_t);

/* store-load-async.c: task rows written by a thread of their own */
void		 store_load_async_begin(struct store *);
void		 store_load_async_end(struct store *);

/* store-lanes.c: timeline */
const char	*store_lanes_type_name(int);

/* store-index.c: the secondary indexes, built after the load */
int		 store_index_ensure(const char *, bool, int (*)(void *),
		     void (*)(void *), void (*)(void *), void *, char **);
void		 store_index_settle(const char *);
void		 store_index_recover(const char *);

/* store-lanes-side.c: the timeline's own file, built when first needed */
int		 store_timeline_ensure(struct store *, char **);
int		 store_timeline_prefetch(struct store *, char **);
int		 store_timeline_poll(struct store *, double *, char **);
#define STORE_BUSY_NONE		0
#define STORE_BUSY_WAITING	1	/* for the file, to index it */
#define STORE_BUSY_INDEXES	2
#define STORE_BUSY_TIMELINE	3
int		 store_timeline_state(struct store *, double *);
void		 store_timeline_stop(struct store *);

/* store-timeline.c: timeline */
int64_t		 store_lanes_origin(struct store *);
int		 store_lanes(struct store *, struct store_lane **, size_t *,
		     char **);
void		 store_lanes_free(struct store_lane *, size_t);
int64_t		 store_timeline_cell_edge(int64_t, int64_t, size_t, size_t);
int		 store_timeline_cells(struct store *, int64_t, int64_t, int64_t,
		     size_t, struct store_cell *, char **);
int		 store_spans_of_lane(struct store *, int64_t, int64_t, int64_t,
		     size_t, struct store_span **, size_t *, char **);
int		 store_spans_at(struct store *, int64_t, int64_t,
		     struct store_span *, char **);
int		 store_spans_step(struct store *, int64_t,
		     const struct store_span *, int64_t, enum store_span_dir,
		     struct store_span *, char **);
int		 store_spans_flow(struct store *, const struct store_span *,
		     struct store_span *, char **);
struct store_rows *store_spans_detail(struct store *,
		     const struct store_span *, char **);
void		 store_spans_release(struct store_span *);

/* store-counter-lanes.c: counter series as timeline lanes */
int		 store_counter_lanes_cells(struct store *,
		     const struct store_lane *,
		     int64_t, int64_t, size_t, struct store_cell *, char **);
int		 store_counter_lanes_peak(struct store *,
		     const struct store_lane *, int64_t *);
int		 store_counter_lanes_at(struct store *,
		     const struct store_lane *, int64_t, double *);

/* store-jump.c: from a table row to the timeline */
int		 store_jump_locate(struct store *, int64_t, int64_t, int64_t,
		     int64_t, int64_t, int64_t *, char **);
int		 store_jump_task_span(struct store *, int64_t,
		     struct store_span *,
		     char **);
char		*store_jump_task_name(struct store *, int64_t);
int		 store_jump_step_span(struct store *, int64_t, int64_t,
		     int64_t, struct store_span *, char **);
int		 store_jump_marker_span(struct store *, int64_t, int64_t,
		     int64_t, const char *, struct store_span *, char **);
int		 store_jump_search(struct store *, struct matcher *, int64_t,
		     int64_t, int64_t, int64_t, enum store_span_dir,
		     int64_t *, char **);
int		 store_jump_op_instance(struct store *,
		     const struct store_op_instances *, int64_t, int64_t,
		     enum store_span_dir, int64_t *, int64_t *, char **);
int64_t		 store_jump_op_count(struct store *,
		     const struct store_op_instances *, char **);

/* store-empty.c: the columns in which no row has a value */
void		 store_empty_cols(struct store *, const struct store_table *,
		     char *const *, size_t, bool *);

/* A step or a time window: [from_ns, to_ns), and the tasks' step id. */
struct store_window {
	int64_t		 from_ns;
	int64_t		 to_ns;
	int64_t		 iter;		/* the step asked for */
	int64_t		 step;		/* NP_NA: tasks have no step ids */
	int64_t		 device;	/* NP_NA for all */
	int64_t		 rank;
	int64_t		 ranks;		/* with the step, if RANK is NP_NA */
};

/* store-window.c: the op statistic of a time window */
int64_t		 store_window_first_step(struct store *);
int		 store_window_step(struct store *, int64_t, int64_t, int64_t,
		     struct store_window *, char **);
int		 store_window_one_rank(const struct store_window *, char **);
int		 store_window_set_step(struct store *,
		     const struct store_table *, int64_t, int64_t, int64_t,
		     struct store_window *);
const struct store_table *store_window_table(struct store *,
		     const struct store_table *, const struct store_window *,
		     char **);
void		 store_window_query(const struct store_table *,
		     const struct store_window *, struct store_query *);
struct store_rows *store_window_op_stat(struct store *, int64_t, int64_t,
		     int64_t, int64_t, char **);

/* store-trace.c: trace JSON */
void		 store_trace_load_lane(struct store *, int64_t, int64_t,
		     int64_t, int64_t, const char *, const char *);
void		 store_trace_load_flow(struct store *,
		     const struct store_flow *);
void		 store_trace_load_counter(struct store *,
		     const struct store_counter *);
int64_t		 store_trace_load_task_find(struct store *,
		     const struct store_task *, bool);
void		 store_trace_load_task_link(struct store *, int64_t,
		     const struct store_task *);
int64_t		 store_trace_load_task_count(struct store *, int64_t);
int64_t		 store_trace_load_step_count(struct store *, int64_t, int64_t);
void		 store_trace_load_api_level(struct store *, int64_t, int64_t,
		     const char *);
void		 store_trace_load_api_link(struct store *, int64_t);
void		 store_trace_load_task_step(struct store *, int64_t, int64_t,
		     int64_t, int64_t);
/* One torch_npu memory record of an NPU (store-torch-mem.c). */
struct store_torch_mem {
	int64_t		 ts;
	int64_t		 ptr;
	int64_t		 size;		/* bytes */
	int64_t		 allocated;
	int64_t		 reserved;
	int64_t		 active;
	int64_t		 stream;
	int64_t		 tid;
	int64_t		 pid;
	int		 device;
	int		 type;		/* 0 malloc, 1 free, 2 block free */
	bool		 workspace;
	bool		 inner;		/* torch_npu's own allocator */
};

/* store-torch-mem.c */
int		 store_torch_mem_load(struct store *, int64_t, int64_t,
		     const struct store_torch_mem *, size_t, int64_t *,
		     char **);

/* store-ms-flows.c */
int		 store_ms_flows_load(struct store *, int64_t, int64_t, bool,
		     bool, int64_t *, int64_t *, char **);

/* store-torch-ops.c */
int		 store_torch_ops_load(struct store *, int64_t, bool, int64_t,
		     char **);
void		 store_trace_load_trace_host(struct store *, int64_t, int64_t);

/* store-foreign.c: the vendor's SQLite exports, read-only */
struct store_foreign;
struct store_foreign_rows;
struct store_foreign *store_foreign_open(const char *, char **);
void		 store_foreign_free(struct store_foreign *);
bool		 store_foreign_has_all(struct store_foreign *, const char *);
bool		 store_foreign_has(struct store_foreign *, const char *,
		     const char *);
struct store_foreign_rows *store_foreign_query(struct store_foreign *,
		     const char *, char **);
int		 store_foreign_next(struct store_foreign_rows *, char **);
int64_t		 store_foreign_int(struct store_foreign_rows *, int);
int64_t		 store_foreign_nonint(struct store_foreign_rows *,
		     const char **);
size_t		 store_foreign_missing_strings(struct store_foreign *,
		     const char **, const char **);
bool		 store_foreign_is_int(struct store_foreign_rows *, int);
const char	*store_foreign_text(struct store_foreign_rows *, int);
const void	*store_foreign_blob(struct store_foreign_rows *, int,
		     size_t *);
int		 store_foreign_real(struct store_foreign_rows *, int, double *);
void		 store_foreign_rows_free(struct store_foreign_rows *);
int		 store_foreign_write(const char *, const char *, char **);

/* store-cluster-find.c: findings */
bool		 store_step_is_run(const char *);

/* store-set.c: a cluster kept as one store per rank */
int		 store_set_add(struct store *, const char *, const char *,
		     char **);
bool		 store_set_is(struct store *);
int		 store_set_current(struct store *, char **);
bool		 store_set_holds(struct store *, const char *);
int		 store_set_list(struct store *, char ***, int64_t **, size_t *,
		     char **);
void		 store_set_list_free(char **, int64_t *, size_t);
struct store	*store_set_open(struct store *, int64_t, char **);
struct store	*store_set_open_path(struct store *, const char *, bool,
		     char **);

/* store-compare.c: two runs side by side */
struct store_compare {
	int64_t		 base_rank;	/* NP_NA: all */
	int64_t		 base_step;
	int64_t		 rank;		/* of the comparison run */
	int64_t		 step;
};
struct store_rows *store_compare_kernels(struct store *, struct store *,
		     const struct store_compare *, char **);
struct store_rows *store_compare_apis(struct store *, struct store *,
		     const struct store_compare *, char **);
struct store_rows *store_compare_comms(struct store *, struct store *,
		     const struct store_compare *, char **);
/* store-advice.c: what to fix, with the numbers that prove it */
int		 store_advice_set(const char *, double);
struct store_rows *store_advice_rules_table(void);
struct store_rows *store_advice(struct store *, int64_t, char **, char **);

/* store-job.c: the advice worked out in a thread */
struct store_advice_job;
struct store_advice_job *store_advice_job_start(struct store *, int64_t,
		     char **);
int		 store_advice_job_poll(struct store_advice_job *,
		     struct store_rows **, char **, char **);
void		 store_advice_job_free(struct store_advice_job *);

/* store-job.c: a comparison table made in a thread */
typedef struct store_rows *(*store_compare_fn)(struct store *,
		     struct store *, const struct store_compare *, char **);
struct store_compare_job;
struct store_compare_job *store_compare_job_start(struct store *,
		     struct store *, const struct store_compare *,
		     store_compare_fn, char **);
int		 store_compare_job_poll(struct store_compare_job *,
		     struct store_rows **, char **);
void		 store_compare_job_free(struct store_compare_job *);

/* store-compare-stats.c */
struct store_rows *store_compare_op_stats(struct store *, struct store *,
		     const struct store_compare *, char **);
struct store_rows *store_compare_api_stats(struct store *, struct store *,
		     const struct store_compare *, char **);

/* store-compare-ops.c */
const char	*store_compare_ops_gap(struct store *, bool);
struct store_rows *store_compare_ops(struct store *, struct store *,
		     const struct store_compare *, char **);
struct store_rows *store_compare_memory(struct store *, struct store *,
		     const struct store_compare *, char **);

/* store-compare-overall.c */
struct store_rows *store_compare_overall(struct store *, struct store *,
		     const struct store_compare *, char **);

/* store-floor.c: for bench/floor */
int		 store_floor(const char *, int64_t, double *, double *,
		     char **);
int		 store_floor_blocks(const char *, int64_t, double *, int64_t *,
		     char **);
double		 store_floor_cpu(void);

/* store-tables.c */
const struct store_table *store_tables_find(struct store *, const char *);
const struct store_table *store_tables_find_base(struct store *,
		     const char *);
const struct store_table *store_tables_find_rank(struct store *,
		     const char *, int64_t);
const char	*store_tables_name(const struct store_table *);
const char	*store_tables_title(const struct store_table *);
size_t		 store_tables_list(struct store *, const char ***);
const char	*store_tables_names_help(void);

/* store-legacy.c: for export */
const struct store_table *store_legacy_table(struct store *,
		     const struct store_table *);
bool		 store_legacy(struct store *);

/* store-mask.c: for export */
const struct store_table *store_mask_table(struct store *,
		     const struct store_table *, const struct store_query *,
		     char **);
struct store_rows *store_tables_summary(struct store *,
		     const struct store_query *, char **);

/* store-query.c */
struct store_rows *store_query_table_ids(struct store *,
		     const struct store_table *, const struct store_query *,
		     char **);
struct store_rows *store_query_table(struct store *,
		     const struct store_table *, const struct store_query *,
		     char **);
int		 store_query_each(struct store *, const struct store_table *,
		     const struct store_query *, store_row_cb, void *,
		     char **);
int64_t		 store_query_count(struct store *, const struct store_table *,
		     const struct store_query *, char **);
void		 store_query_init(struct store_query *);
bool		 store_query_has_device(struct store *, int64_t);
bool		 store_query_has_rank(struct store *, int64_t);
int		 store_query_devices(struct store *, int64_t **, size_t *,
		     char **);
int		 store_query_ranks(struct store *, int64_t **, size_t *,
		     char **);

/* store-iter.c: for export */
int		 store_iter_tasks(struct store *, const struct store_query *,
		     store_task_cb, void *, char **);
int		 store_iter_apis(struct store *, const struct store_query *,
		     store_api_cb, void *, char **);
int		 store_iter_links(struct store *, const struct store_query *,
		     store_link_cb, void *, char **);
int		 store_iter_lanes(struct store *, const struct store_query *,
		     store_lane_cb, void *, char **);
int		 store_iter_bounds(struct store *, const struct store_query *,
		     int64_t *, int64_t *, char **);
bool		 store_iter_exists(struct store *, const char *);
int		 store_iter_ranks(struct store *, int64_t **, size_t *,
		     char **);

/* store-counters.c: for export */
int		 store_counters_tracks(struct store *,
		     const struct store_query *,
		     store_track_cb, void *, char **);
int		 store_counters_each(struct store *, const struct store_query *,
		     store_counter_cb, void *, char **);

/* UI paging */
/* store-page.c */
struct store_page;
struct store_page *store_page_create(struct store *,
		     const struct store_table *, const struct store_query *,
		     char **);
void		 store_page_free(struct store_page *);
struct store_rows *store_page_fetch(struct store_page *, int64_t, int64_t,
		     char **);
int64_t		 store_page_count(struct store_page *);

/* How far a sort or filter the UI waits for has got. */
struct store_page_state {
	const char	*phase;		/* "sorting", "filtering"; NULL: done */
	int64_t		 found;		/* rows in order so far */
	int64_t		 scanned;	/* rows looked at */
	int64_t		 total;		/* rows to look at, -1 unknown */
	const char	*error;		/* why it failed, or NULL */
	bool		 in_memory;	/* sorted in memory (store-sort.c) */
};
void		 store_page_state(struct store_page *,
		     struct store_page_state *);

/* store-launch.c */
struct store_rows *store_launch_task(struct store *, int64_t, char **);

/* store-print.c */
#define STORE_READABLE_MAX	64	/* store_print_readable()'s buffer */
void		 store_print_rows(FILE *, const struct store_rows *,
		     const struct store_print_opts *);
size_t		 store_print_frac(const char *);
bool		 store_print_numeric(const struct store_rows *, size_t);
const char	*store_print_readable(const struct store_rows *, size_t,
		     size_t, char *);
void		 store_print_json_row(struct json *, const struct store_rows *,
		     char *const *, const struct store_val *);
int		 store_print_format(const char *);

/* store-rows.c */
struct store_rows *store_rows_create(size_t);
void		 store_rows_free(struct store_rows *);
size_t		 store_rows_append(struct store_rows *, struct store_rows *);
void		 store_rows_drop_last(struct store_rows *);
int		 store_rows_sort(struct store_rows *, const char *, char **);
void		 store_rows_permute(struct store_rows *, const size_t *);
void		 store_rows_add(struct store_rows *, char **,
		     const struct store_val *);
const char	*store_rows_cell(const struct store_rows *, size_t, size_t);
int		 store_rows_col(const struct store_rows *, const char *);
double		 store_rows_num(const struct store_rows *, size_t, size_t);
double		 store_rows_val_num(const struct store_val *);
bool		 store_fmt_numeric(enum store_fmt);

/* store-pmu.c */
void		 store_pmu_num(struct strbuf *, double, int);
void		 store_pmu_u64(struct strbuf *, uint64_t);
void		 store_pmu_name(struct strbuf *, const char *);
void		 store_pmu_text(struct strbuf *, const char *, size_t);
void		 store_pmu_iter_init(struct store_pmu_iter *, const void *,
		     size_t);
bool		 store_pmu_next(struct store_pmu_iter *, char **,
		     struct store_val *);
size_t		 store_pmu_count(const void *, size_t);

/* stacks */
/* store-stacks.c */
void		 store_stacks_opts_init(struct store_stacks_opts *);
struct store_stacks *store_stacks_create(enum store_stacks_source,
		     enum store_stacks_weight);
void		 store_stacks_free(struct store_stacks *);
struct store_frame *store_stacks_frame_child(struct store_frame *,
		     const char *);
void		 store_stacks_finish(struct store_stacks *);
int		 store_stacks_source_parse(const char *);
const char	*store_stacks_source_name(enum store_stacks_source);
const char	*store_stacks_unit(const struct store_stacks *);
bool		 store_stacks_host(const struct store_stacks *);
void		 store_stacks_fold(FILE *, const struct store_stacks *);
void		 store_stacks_fold_diff(FILE *, const struct store_stacks *,
		     const struct store_stacks *);
struct store_rows *store_stacks_rows(const struct store_stacks *);
int64_t		 store_stacks_search(const struct store_stacks *,
		     struct matcher *, int64_t *);
bool		 store_stacks_frame_match(const struct store_frame *,
		     struct matcher *);
char		*store_stacks_frame_path(const struct store_frame *);
void		 store_stacks_prune(struct store_stacks *, struct matcher *);

/* store-stacks-invert.c */
struct store_stacks *store_stacks_invert(const struct store_stacks *);
void		 store_stacks_invert_sandwich(const struct store_stacks *,
		     const char *, struct store_stacks **,
		     struct store_stacks **);

/* store-stacks-build.c */
struct store_stacks *store_stacks_build(struct store *,
		     const struct store_stacks_opts *, char **);

/* store-job.c: a call tree built in a thread */
struct store_stacks_job;
struct store_stacks_job *store_stacks_job_start(struct store *,
		     const struct store_stacks_opts *, char **);
int		 store_stacks_job_poll(struct store_stacks_job *,
		     struct store_stacks **, char **);
void		 store_stacks_job_free(struct store_stacks_job *);

#endif /* STORE_H */
