/*
 * What the store's own files share: the struct behind the opaque
 * struct store, and helpers between store*.c. Nothing outside src/store*.c
 * includes this file.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>

#include "store.h"

struct store_intern;
struct store_tl;
struct store_tl_job;
struct store_async;
struct task_sums;
struct nest_live;

enum store_table_flags {
	TABLE_PMU = 1 << 0,		/* PMU columns follow the fixed ones */
	TABLE_FILE_FIRST = 1 << 1,	/* a vendor file of this name wins */
	TABLE_GENERIC = 1 << 2,		/* a vendor CSV kept as it is */
	TABLE_STEP = 1 << 3		/* Step Id leads when tasks have one */
};

/* The characters of a column's name in the task tables' SQL. */
#define STORE_IDENT_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789_"

/* The default order of the task tables. */
#define STORE_TASK_ORDER	"t.device, t.start_ns, t.id"

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
	const char		*step;		/* column of the step id */
	const char		*order;		/* default ORDER BY */
	const char		*fallback;	/* generic table when empty */
	const char		*all;		/* FROM for a chosen origin */
	const char		*where;		/* which rows of FROM, or NULL */
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
	STMT_COUNTER,
	STMT_FLOW,
	STMT_TASK_FIND,
	STMT_TASK_LINK,
	STMT_COUNT
};

/* One (device, rank, op type, core type) group of op_statistic. */
struct stats_op {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 op;		/* str ids */
	int64_t		 core;
	int64_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	size_t		 same;		/* 1 + the group before of its hash */
};

/* The groups in the order they came, indexed by a hash of their key. */
struct stats_ops {
	struct stats_op	*v;
	size_t		 n;
	struct util_map	 index;		/* hash -> 1 + the newest group */
};

struct store {
	sqlite3			*db;
	char			*path;		/* final path */
	char			*tmp;		/* the path while loading */
	char			*root;		/* the PATH the store is for */
	bool			 loading;
	bool			 locked;	/* lock is open */
	int			 lock;		/* tmp, flock()ed */
	sqlite3_stmt		*stmt[STMT_COUNT];
	struct store_intern	*intern;
	struct stats_ops	*ops;		/* op_statistic so far */
	struct task_sums	*sums;		/* task_sum so far */
	struct empty_seen	*seen;		/* task values so far */
	struct stats_groups	*api_groups;	/* api_statistic so far */
	int64_t			 records;
	int64_t			 unlisted;	/* tasks not in op_summary */
	size_t			 generic_ncols;
	int64_t			 pmu_set;
	store_progress_cb	 progress;
	void			*progress_arg;
	int64_t			 warnings;
	int64_t			 files_done;
	int64_t			 files_total;
	const char		*prog_phase;	/* reading counted in bytes */
	int64_t			 prog_total;	/* its bytes, 0 if none */
	bool			 prog_done;	/* all read: no fraction */
	int64_t			 prog_next;	/* records to tell again at */
	int64_t			 prog_read;	/* so far (atomic) */
	struct store_progress	 prog_last;	/* as last told */
	char			*prog_file;	/* its file (a copy) */
	struct store_table	**dyn;		/* generic table specs */
	size_t			 ndyn;
	struct store_table	*stepped;	/* op_summary with Step Id */
	struct store_table	*window[2];	/* op, api stats of a window */
	struct store_table	**ranked;	/* tables with a Rank column */
	const struct store_table **ranked_of;	/* and the tables they copy */
	size_t			 nranked;
	int			 multirank;	/* ranks > 1: 1, 0, -1 */
	int			 set;		/* a set of stores: 1, 0, -1 */
	char			**rank_dirs;	/* the profile of each rank */
	int64_t			*rank_ids;
	size_t			 nrank_dirs;
	int64_t			 origin;	/* store_lanes_origin(), once */
	bool			 origin_known;
	int			 steps;		/* Step Id files: 1, 0, -1 */
	bool			 avg_rounded;	/* averages round, not floor */
	struct store_tl		*tl;		/* timeline statements */
	char			*tl_side;	/* its attached file, or NULL */
	bool			 tl_temp;	/* a temporary one */
	struct store_tl_job	*tl_job;	/* its build, or NULL */
	struct store_async	*async;		/* the row writer, or NULL */
	int64_t			 api_next;	/* its next span's row id */
	int64_t			 first_task_ns;	/* the first start written */
	int64_t			 first_api_ns;	/* of each, or INT64_MAX */
	char			*legacy;	/* the legacy file being read */
	int64_t			 colset;	/* its task columns, or 0 */
	int64_t			 nest_todo;	/* spans loaded without depth */
	int64_t			 nest_done;	/* and with one */
	int64_t			 nest_given;	/* of them, by an importer */
	struct nest_live	*live;		/* store-nest-live.c keeps */
	char			*failed;	/* the first failed write */
	struct store_order	*order;		/* store-scan-walk.c keeps */
	struct store_tuple_build *tuples;	/* store-scan-tuple.c keeps */
};

/* store-cluster.c */
struct cluster_num {			/* a number as Python holds it: */
	double		 v;		/* an int until a float is added */
	bool		 real;
};
struct cluster_out {			/* a cluster table being written */
	sqlite3_stmt	*stmt;		/* its insert: rank, then cells */
	size_t		 ncols;
};
struct cluster_block {			/* a step of a rank set written: */
	int64_t		 id;		/* its first row's number, or -1 */
	char		*set;		/* rows come a block at a time */
	char		*step;
};
/* The group of an op: what follows its last "@" (all of it without). */
#define CLUSTER_GROUP(c)						\
	"substr(" c ", length(rtrim(" c ", replace(" c ", '@', ''))) + 1)"
int		 store_cluster_write(struct store *, char **);
int		 store_cluster_ranks_stmt(struct store *, sqlite3_stmt **,
		     char **);
void		 store_cluster_block_start(struct cluster_block *,
		     sqlite3_stmt *, int);
void		 store_cluster_block_end(struct cluster_block *);
int		 store_cluster_begin(struct store *, struct cluster_out *,
		     const char *, const char *const *, size_t, char **);
void		 store_cluster_row(struct store *, struct cluster_out *,
		     int64_t, const char *const *);
void		 store_cluster_end(struct cluster_out *);
bool		 store_cluster_input(struct store *, const char *);
const char	*store_cluster_text(sqlite3_stmt *, int);
bool		 store_cluster_add(struct cluster_num *, const char *);
void		 store_cluster_fmt(char *, size_t, const struct cluster_num *);
void		 store_cluster_ratio(char *, size_t, double, double);
char		*store_cluster_tuple(const int64_t *, size_t);
int		 store_cluster_each_group(struct store *, void (*)(void *,
		     const char *, const char *, const int64_t *, size_t),
		     void *, char **);

/* store-cluster-bw.c */
int		 store_cluster_bandwidth(struct store *, char **);

/* store-cluster-steps.c */
int		 store_cluster_steps(struct store *, char **);

/* store-cluster-find.c */
int		 store_cluster_find(struct store *, char **);

/* store-schema.c */
extern const char	*store_schema_sql;
extern const char	*store_schema_index_order_sql;
extern const char	*store_schema_index_sql;
extern const char	*store_schema_view_sql;
extern const char	*store_schema_lanes_sql;

/* store.c */
int		 store_prepare(struct store *, sqlite3_stmt **, const char *,
		     char **);
int		 store_open_db(struct store *, const char *, int, char **);
int		 store_open_version(struct store *);
void		 store_open_init(void);
void		 store_register_functions(struct store *);
void		 store_register_match(struct store *, struct matcher *);
int		 store_manifest_write(struct store *, char **);
bool		 store_exists(struct store *, const char *);
int64_t		 store_task_maxid(struct store *);
struct store	*store_open_reader(const char *, char **);
bool		 store_has_table(struct store *, const char *);
bool		 store_has_column(struct store *, const char *, const char *);
void		 store_write(struct store *, sqlite3_stmt *);
bool		 store_read(struct store *, sqlite3_stmt *);
int		 store_load_prepare(struct store *, sqlite3_stmt **,
		     const char *);
void		 store_load_exec(struct store *, const char *);

/* store-tables.c: specs of the tables kept from vendor files */
const struct store_table *store_tables_dyn_find(struct store *, const char *);
const struct store_table *store_tables_dyn_add(struct store *, char *,
		     const char *, char *, struct store_col *, size_t,
		     const char *);

/* How a row of a statement fills a struct, column by column (store-iter.c). */
enum store_iter_kind {
	ITER_I64,		/* NULL is NP_NA */
	ITER_ID,		/* never NULL: read as it is */
	ITER_STR,		/* borrowed until the next step */
	ITER_REAL
};

struct store_iter_field {
	enum store_iter_kind	 kind;
	size_t			 off;
};

int64_t		 store_iter_i64(sqlite3_stmt *, int);
const char	*store_iter_str(sqlite3_stmt *, int);
char		*store_iter_dup(sqlite3_stmt *, int);
void		 store_iter_fill(sqlite3_stmt *, int,
		     const struct store_iter_field *, size_t, void *);
int		 store_iter_finish(struct store *, sqlite3_stmt *, int, int,
		     const char *, char **);

/* store-open.c */
bool		 store_is_own_file(const char *);

/* store-load.c */
#define TASK_NV		32	/* the parameters of a task row's insert */
#define API_NV		12	/* a span row's, but its args */
#define TASK_PMU	27	/* the PMU blob's, from 0 */
#define TASK_UNLISTED	30	/* unlisted's */
#define TASK_START	7	/* start_ns's */
#define API_START	5	/* a span's start_ns */
#define API_LEVEL	10	/* its level's string id */
#define API_NAME	11	/* its name's */
void		 store_load_task_bind(struct store *, sqlite3_stmt *, int,
		     const int64_t *, const void *, size_t);
void		 store_load_task_write(struct store *, const int64_t *,
		     const void *, size_t);
void		 store_load_api_bind(struct store *, sqlite3_stmt *, int,
		     const int64_t *, const char *);
void		 store_load_api_write(struct store *, const int64_t *,
		     const char *);
extern const char	*store_load_pragmas;
void		 store_load_sweep(const char *);
void		 store_load_bind_i64(sqlite3_stmt *, int, int64_t);
void		 store_load_bind_str(sqlite3_stmt *, int, const char *);
void		 store_load_quote_ident(struct strbuf *, const char *);

/* store-nest.c */
/* The index of spans by thread and time; it holds what the nesting reads. */
#define STORE_API_START_SQL						\
	"CREATE INDEX IF NOT EXISTS api_start ON api(tid, start_ns,"	\
	" end_ns DESC, rank, device, pid)"
/* One span still open. */
struct nest_open {
	int64_t	 id;
	int64_t	 end;
};
/* The open spans of one group (rank, device, process) of a thread. */
struct nest_group {
	int64_t			 rank;
	int64_t			 device;	/* NP_NA for host spans */
	int64_t			 pid;		/* NP_NA for host spans */
	struct nest_open	*open;
	size_t			 n;
	size_t			 size;
	bool			 owned;		/* nested as loaded */
};
int		 store_nest_spans(struct store *, char **);

/* store-nest-live.c */
int64_t		 store_nest_live_close(struct nest_group *, int64_t, int64_t *);
void		 store_nest_live_open(struct nest_group *, int64_t, int64_t);
bool		 store_nest_live_owns(struct store *, int64_t,
		     const struct nest_group *);
void		 store_nest_live_begin(struct store *, const struct store_api *,
		     int64_t *, int64_t *, size_t *);
void		 store_nest_live_end(struct store *, size_t, int64_t,
		     int64_t, int64_t);
/* Given a nested span's id, depth and parent (NP_NA for none). */
typedef void	 (*store_nest_put_fn)(void *, int64_t, int64_t, int64_t);
bool		 store_nest_live_kept(const struct store *);
void		 store_nest_live_ids(const struct store *, int64_t *,
		     int64_t *);
void		 store_nest_live_walk(struct store *, store_nest_put_fn,
		     void *);
void		 store_nest_live_free(struct store *);

/*
 * The core types whose tasks op_statistic leaves out (doc/formats.md 8.1),
 * each as X("name"): the one list both the SQL below and the C check in
 * store-stats-write.c are built from.
 */
#define STORE_OP_STAT_EXCLUDED(X)					\
	X("N/A") X("HCCL") X("COMMUNICATION") X("HCCL_AI_CPU")		\
	X("WRITE_BACK") X("INVALID")
#define STORE_OP_STAT_SQL_ITEM(name)	"'" name "', "

/*
 * The tasks op_statistic counts, with o and c the str rows of the op type
 * and core type. The list ends with a repeat of N/A: SQL wants no comma
 * after the last item.
 */
#define STORE_OP_STAT_KEEP_SQL						\
	"o.s <> 'N/A' AND c.s NOT IN ("					\
	STORE_OP_STAT_EXCLUDED(STORE_OP_STAT_SQL_ITEM) "'N/A')"

/*
 * An op_statistic ratio in SQL: TOTAL's percentage of its sum over the
 * window PART, rounded to 6 decimals as store-stats-write.c rounds it.
 */
#define STORE_OP_STAT_RATIO_SQL(total, part)				\
	"round(" total " * 100.0 / sum(" total ") OVER (PARTITION BY "	\
	part ") * 1e6) / 1e6"

/*
 * The counter series as timeline lanes, in the columns store_lanes()
 * reads: ids below zero, kind LANE_COUNTER (3), the series' name and key
 * ids as stream and depth, its name (with the key when the name has
 * several, as an Acc PMU's acc_id and value), group, samples, first and
 * last time, unit, lowest and highest value.
 */
#define STORE_COUNTER_LANES_SQL						\
	"SELECT -row_number() OVER (ORDER BY c.name, c.key, c.device,"	\
	" c.rank, c.pid, c.tid), 3, c.device, c.rank, c.pid, c.tid,"	\
	" c.name, c.key, CASE WHEN count(*) OVER (PARTITION BY c.name,"	\
	" c.device, c.rank, c.pid, c.tid) > 1 THEN n.s || ' ' ||"	\
	" ifnull(k.s, '') ELSE n.s END, CASE WHEN c.rank IS NULL THEN ''"\
	" ELSE"								\
	" 'Rank ' || c.rank || ' ' END || CASE WHEN ifnull(c.device, 64)"\
	" = 64 THEN 'Host pid ' || c.pid ELSE 'Device ' || c.device END,"\
	" count(*), min(c.ts_ns), max(c.ts_ns), k.s, min(c.value),"	\
	" max(c.value) FROM counter c LEFT JOIN str n ON n.id = c.name"	\
	" LEFT JOIN str k ON k.id = c.key WHERE c.value IS NOT NULL"	\
	" GROUP BY c.name, c.key, c.device, c.rank, c.pid, c.tid"

/* store-tables.c */
void		 store_tables_free(struct store *);

/* store-tables-trace.c */
extern const struct store_table	store_tables_trace[];
extern const size_t		store_tables_ntrace;

/* store-load.c */
const char	*store_load_string(struct store *, int64_t);
int		 store_load_close(struct store *, char **);

/* store-stats.c */
uint64_t	 store_stats_hash(int64_t, int64_t, int64_t, int64_t);
int64_t		 store_stats_round_div(int64_t, int64_t);
void		 store_stats_add_task(struct store *, const struct store_task *,
		     int64_t, int64_t);
void		 store_stats_free(struct store *);

/* store-stats-write.c */
int		 store_stats_write(struct store *, char **);

/* store-stats-api.c: api_statistic of all spans, or of a window's */
struct store_stats_window {
	int64_t		 from_ns;	/* NP_NA: no bound */
	int64_t		 to_ns;
	int64_t		 rank;		/* NP_NA: every rank */
};
typedef void	(*store_stats_api_emit)(struct store *,
		     const struct store_api_stat *, void *);
void		 store_stats_api_load(struct store *, int64_t, int64_t,
		     int64_t, int64_t, int64_t);
void		 store_stats_api_stale(struct store *);
void		 store_stats_api_free(struct store *);
int		 store_stats_api(struct store *,
		     const struct store_stats_window *, store_stats_api_emit,
		     void *, char **);

/* The key of a task_sum group: str ids and numbers, NP_NA for NULL. */
struct task_sum_key {
	int64_t		 device;
	int64_t		 rank;
	int64_t		 step;
	int64_t		 op;
	int64_t		 core;
	int64_t		 name;
	int64_t		 shapes;
};

/* store-task-sum.c */
void		 store_task_sum_add(struct store *,
		     const struct task_sum_key *, int64_t, int64_t);
bool		 store_task_sum_steps(struct store *, void (*)(struct store *,
		     const int64_t *, void *), void *);
void		 store_task_sum_stale(struct store *);
void		 store_task_sum_free(struct store *);
int		 store_task_sum_write(struct store *, char **);

/* store-load-async.c */
void		 store_load_async_str(struct store *, int64_t, const char *);
void		 store_load_async_task(struct store *, const int64_t *,
		     const void *, size_t);
void		 store_load_async_api(struct store *, const int64_t *,
		     const char *);

/* store-lanes.c */
int		 store_lanes_build(struct store *, const char *,
		     int (*)(void *), void *, char **);

/* store-pieces.c */
#define STORE_PIECES_BLOCK	64	/* pieces packed in a tl_block row */
#define PIECES_NSTMT		3

/* A span of a timeline lane: see store-lanes.c. */
struct store_piece {
	int64_t		 start;
	int64_t		 ord;		/* position on the lane, from 0 */
	int64_t		 end;
	int64_t		 id;		/* row id in task, api or step */
	int64_t		 cum;		/* the lane's busy time up to cend */
	int64_t		 cend;		/* the furthest end so far */
	int64_t		 clen;		/* busy time the piece adds */
	int		 type;
};

/* A cursor on the pieces of a lane: p[i] is the piece it is on. */
struct store_pieces {
	struct store		*s;
	int64_t			 lane;
	sqlite3_stmt		*stmt[PIECES_NSTMT];
	struct store_piece	 p[STORE_PIECES_BLOCK];	/* a block */
	size_t			 n;
	size_t			 i;
	int64_t			 from_start;	/* what the last seek */
	int64_t			 from_ord;	/* asked for */
};
uint64_t	 store_pieces_varint(const uint8_t **, const uint8_t *);
void		 store_pieces_init(struct store_pieces *, struct store *,
		     int64_t);
void		 store_pieces_release(struct store_pieces *);
int		 store_pieces_seek(struct store_pieces *, int64_t, int64_t,
		     char **);
int		 store_pieces_next(struct store_pieces *, char **);
int		 store_pieces_prev(struct store_pieces *, char **);
int		 store_pieces_find(struct store_pieces *, int64_t, int64_t,
		     char **);
void		 store_pieces_span(const struct store_pieces *,
		     struct store_span *);

/* store-lanes-read.c */
#define LANES_NCOLS	12		/* columns of a source row */
struct store_lanes_read;
struct store_lanes_read *store_lanes_read_create(const char *,
		     const char *, bool, uint32_t, int (*)(void *), void *);
int		 store_lanes_read_next(struct store_lanes_read *, int64_t *,
		     char **);
void		 store_lanes_read_free(struct store_lanes_read *);

/* store-lanes-side.c */
/* The layout of the timeline's tables: 2 packs the pieces (no tl_piece). */
#define STORE_TIMELINE_LAYOUT	2
char		*store_timeline_side(const char *);
void		 store_timeline_job_free(struct store *);
void		 store_timeline_release(struct store *);

/* store-index.c */
#define STORE_INDEX_WAIT_MS	30000
#define STORE_INDEX_LOCK_MS	1000
void		 store_index_wait_order(struct store *);

/* store-timeline.c */
void		 store_timeline_free(struct store *);
sqlite3_stmt	*store_timeline_name_stmt(struct store *, int);

/* The levels of the CANN call path in the api table. */
#define STORE_STACKS_CANN_LEVELS					\
	"('acl', 'model', 'node', 'hccl', 'communication', 'runtime')"

/* The restriction a stacks build applies to spans and tasks. */
struct stacks_where {
	const struct store_stacks_opts	*o;
	int64_t				 from;	/* NP_NA or a window */
	int64_t				 to;
	int64_t				 step;	/* NP_NA or tasks' step */
};

/* store-stacks-build.c */
void		 store_stacks_walk_where(struct strbuf *,
		     const struct stacks_where *, const char *, bool);
const char	*store_stacks_walk_text(sqlite3_stmt *, int);
struct store_frame *store_stacks_python(struct store_frame *, const char *);

/* store-stacks-walk.c */
int		 store_stacks_walk(struct store *, struct store_stacks *,
		     const struct stacks_where *, enum store_stacks_source,
		     char **);

/* store-query.c */
#define STORE_MAX_KEYS	4
struct store_keyset {
	const char	*keys;		/* key expressions, selected last */
	const char	*order;		/* ORDER BY over them */
	const char	*where;		/* a position in that order, or NULL */
	int64_t		 at[STORE_MAX_KEYS];	/* its bound values */
	int		 nkeys;
	int64_t		 first[STORE_MAX_KEYS];	/* keys of the first row */
	int64_t		 last[STORE_MAX_KEYS];	/* and of the last */
	int64_t		*ids;		/* the last key of each row, or NULL */
	size_t		 nids;
};
#define STORE_CELL_MAX	64	/* a number formatted as show prints it */

/* A row if some task file had a Step Id column (its colset says "step"). */
#define STORE_STEP_FILES_SQL						\
	"SELECT 1 WHERE EXISTS (SELECT 1 FROM colset"			\
	" WHERE ',' || names || ',' LIKE '%,step,%') OR EXISTS"		\
	" (SELECT 1 FROM meta WHERE key = 'torch_steps')"
#define STORE_FMT_STRID	100	/* np_match(): a str id, matched as its text */
/*
 * Every character a number can be shown with, in any format: digits,
 * signs, exponents, inf, NaN as N/A, and "host" for a device.
 */
#define STORE_NUM_CHARS	"0123456789+-./eEinfINFaAhost"
/* store-window.c */
void		 store_window_devices(struct store *, struct strbuf *);

/* store-empty.c */
int		 store_empty_write(struct store *, char **);
void		 store_empty_task(struct store *, const int64_t *);
void		 store_empty_api(struct store *, const int64_t *);
void		 store_empty_stale(struct store *);
void		 store_empty_free(struct store *);

bool		 store_query_str_col(const struct store_table *, const char *,
		     char *, size_t);
const char	*store_fmt_cell(sqlite3_value *, enum store_fmt, char *,
		     size_t *);
char		*store_fmt_dup(sqlite3_value *, enum store_fmt,
		     struct store_val *);
int		 store_query_col(const struct store_table *, const char *,
		     size_t);
bool		 store_match_values(sqlite3 *, struct matcher *, int,
		     sqlite3_value **);
void		 store_match_result(sqlite3_context *, struct matcher *, int,
		     sqlite3_value **);
bool		 store_match_str_id(sqlite3 *, struct matcher *, int64_t);
int		 store_query_filter_cols(const struct store_table *,
		     const char *, bool *, struct matcher **, char **);
struct store_rows *store_query_run(struct store *, const struct store_table *,
		     const struct store_query *, struct store_keyset *,
		     char **);
char		*store_query_ids_sql(struct store *, const struct store_table *,
		     const struct store_query *, const char *, int64_t *,
		     int *, struct matcher **, char **);
char		*store_query_keys_sql(struct store *,
		     const struct store_table *, const struct store_query *,
		     const char *, const char *, int64_t *, int *,
		     struct matcher **, char **);
struct store_rows *store_query_by_ids(struct store *,
		     const struct store_table *, const struct store_query *,
		     const int64_t *, size_t, char **);

/* store-scan.c: the UI's sorts and filters of task tables, in a thread */
struct store_scan {
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	struct store		*s;		/* the UI's: it keeps orders */
	struct store		*ws;		/* the worker's connection */
	const struct store_table *t;
	struct store_query	 q;
	char			*sort;
	char			*filter;
	struct matcher		*m;		/* the worker's filter */

	/* Shared with the UI, under LOCK. */
	int64_t			*ids;
	size_t			 nids;
	size_t			 size;
	int64_t			 scanned;
	int64_t			 total;
	bool			 done;
	bool			 cancel;
	bool			 in_memory;	/* store-scan-sort.c sorted */
	char			*error;
	struct store_order	*base;		/* the order, filter aside */
	struct store_tuple_build *tuples;	/* the rows' strings, or NULL */
	char			*walk;		/* or an index's ORDER BY */
	bool			 shared;	/* ids are the base's */

	/* The worker's own, published every SCAN_PUBLISH rows. */
	int64_t			 ticks;
	int64_t			*pend;
	size_t			 npend;
};
void		 store_scan_sort_count(struct store_scan *);
struct store_scan *store_scan_start(struct store *, const struct store_table *,
		     const struct store_query *, const char *, char **);
void		 store_scan_free(struct store_scan *);
size_t		 store_scan_ids(struct store_scan *, int64_t, size_t,
		     int64_t *);
void		 store_scan_state(struct store_scan *,
		     struct store_page_state *);


/* store-scan-bits.c: the ids a scan's filter matches, read in halves */
struct store_scan_bits;
struct store_scan_bits *store_scan_bits_start(struct store_scan *, int64_t);
bool		 store_scan_bits_over(struct store_scan_bits *, bool *);
bool		 store_scan_bits_has(const struct store_scan_bits *, int64_t);
int64_t		 store_scan_bits_read_locked(const struct store_scan_bits *);
void		 store_scan_bits_free(struct store_scan_bits *);

/* store-scan-tuple.c: each task row's strings as one number */
struct store_tuples;
struct store_tuple_build;
extern size_t	 store_scan_tuple_limit;
struct store_tuple_build *store_scan_tuple_find(struct store *,
		     const struct store_table *, const struct store_query *);
void		 store_scan_tuple_unref(struct store_tuple_build *);
int		 store_scan_tuple_ready(struct store_tuple_build *,
		     const struct store_tuples **);
bool		 store_scan_tuple_fits(const struct store_tuple_build *,
		     const char *);
uint64_t	*store_scan_tuple_match(const struct store_tuples *, sqlite3 *,
		     const char *);
int		 store_scan_tuple_has(const struct store_tuples *,
		     const uint64_t *, int64_t);
void		 store_scan_tuple_prefetch(const struct store_tuples *,
		     int64_t);
/* A row written after the tuples were read: looked up, not tested. */
#define TUPLE_UNREAD	UINT32_MAX
/* Whether tuple K (an index plus one) is in BITS (store_scan_tuple_match). */
static inline bool
store_scan_tuple_bit(const uint64_t *bits, uint32_t k)
{
	k--;
	return (bits[k / 64] >> (k % 64) & 1) != 0;
}
uint64_t	 store_scan_tuple_serial(const struct store_tuples *);
void		 store_scan_tuple_rows(const struct store_tuples *,
		     const int64_t *, size_t, uint32_t *);
struct store_sort;
bool		 store_scan_tuple_sort(const struct store_tuples *, int,
		     const uint64_t *, struct store_sort *, const uint32_t *,
		     size_t);

/* store-scan-walk.c: a filter walking an order already sorted */
struct store_order;
struct store_order *store_scan_walk_find(struct store *,
		     const struct store_table *, const struct store_query *);
struct store_order *store_scan_walk_order(const struct store_scan *,
		     int64_t *, size_t);
void		 store_scan_walk_unref(struct store_order *);
void		 store_scan_walk_forget(struct store *,
		     const struct store_table *, const struct store_query *);
void		 store_scan_walk_keep(struct store *, struct store_order *);
void		 store_scan_walk_append_locked(struct store_scan *);
int		 store_scan_walk_run(struct store_scan *, int64_t, char **);
int		 store_scan_walk_index(struct store_scan *, int64_t, char **);
void		 store_scan_walk_tuples_of(struct store_scan *);
extern size_t	 store_scan_walk_by_positions;

/* store-sort.c: the in-memory sort behind the scan's sorts */
struct store_sort_key {
	char		 expr[64];	/* what to select: "t.block_num" */
	int		 col;		/* its column of the table */
	bool		 text;		/* a str id, sorted by its string */
	bool		 desc;
};
struct store_sort {
	uint64_t	*v;		/* keys, then packed words */
	size_t		 n;
	size_t		 size;
	uint64_t	*ids;		/* bitmap of the ids added */
	int64_t		 maxid;
	int64_t		 lastid;
	int64_t		 min;
	int64_t		 max;
	int64_t		 nkeys;
	bool		 ok;
	bool		 owner;		/* of the arrays */
};
bool		 store_sort_plan(const struct store_table *, const char *,
		     struct store_sort_key *);
uint32_t	*store_sort_ranks(struct store *, size_t *, char **);
void		 store_sort_init(struct store_sort *, int64_t);
void		 store_sort_part(struct store_sort *, const struct store_sort *,
		     size_t, size_t);
void		 store_sort_join(struct store_sort *, const struct store_sort *,
		     const struct store_sort *);
bool		 store_sort_add_str(struct store_sort *, int64_t, int64_t,
		     const uint32_t *, size_t);
void		 store_sort_free(struct store_sort *);
bool		 store_sort_add(struct store_sort *, int64_t, sqlite3_value *,
		     const uint32_t *, size_t);
int64_t		*store_sort_finish(struct store_sort *, bool, size_t *);

/* store-scan-sort.c: a scan's sort in memory, in two halves */
int		 store_scan_sort_ids(struct store_scan *,
		     const struct store_sort_key *, int64_t, char **);

/* store-compare.c: the helpers of the comparison tables */
/* A PyTorch op of a run, a node of the tool's tree of ops. */
struct store_compare_op {
	int64_t		 start;		/* ns */
	int64_t		 end;
	int64_t		 tid;
	double		 dur;		/* us, as the trace says it */
	double		 kids;		/* the us of its children, summed */
	int64_t		 parent;	/* index, or -1 */
	int64_t		 kid;		/* its first child, or -1 */
	int64_t		 lastkid;
	int64_t		 next;		/* its next sibling, or -1 */
	char		*name;
	bool		 step;		/* a ProfilerStep#N */
	double		 dev;		/* its subtree's kernels, ms */
	double		 mem_ms;	/* its subtree's allocations: time */
	double		 mem_mb;	/* and size */
};
int		 store_compare_tree(struct store *, int64_t,
		     struct store_compare_op **, size_t *, char **);
void		 store_compare_tree_free(struct store_compare_op *, size_t);
struct store_rows *store_compare_rows(const char *const *, size_t,
		     const char *);
double		 store_compare_round(double, int);
void		 store_compare_num(char **, struct store_val *, size_t,
		     double);
double		 store_compare_ratio(double, double);

/* store-overall.c: where one run's time goes, as the tool splits it */
struct store_overall_part {
	double		 us;
	int64_t		 n;
};
struct store_overall {
	double		 e2e;		/* us, from the overlap analysis */
	double		 compute;
	double		 not_overlapped;
	double		 lccl;
	int64_t		 nlccl;
	bool		 hide;		/* no PMU columns: no split */
	struct store_overall_part fa[2][2];	/* [fwd, bwd][cube, vector] */
	struct store_overall_part conv[2][2];
	struct store_overall_part mm[2];	/* cube, vector */
	struct store_overall_part vec[2];	/* trans, no trans */
	struct store_overall_part pa;
	struct store_overall_part sdma_tm;
	struct store_overall_part cube;
	struct store_overall_part sdma;		/* on computing streams */
	struct store_overall_mc2 {
		char	*name;
		double	 us;
		double	 compute;
		double	 comm;
		int64_t	 n;
	}		*mc2;
	size_t		 nmc2;
	struct store_overall_group {
		char	*name;		/* "Group 0 Communication" */
		char	*pg;		/* its name in the metadata, or NULL */
		double	 wait;		/* us */
		double	 transmit;
	}		*groups;
	size_t		 ngroups;
	struct store_overall_pair {
		char	*a;
		char	*b;
		double	 ms;
	}		*pairs;
	size_t		 npairs;
};
struct store_npu_flow {
	int64_t		 start;		/* ns, or INT64_MIN */
	int64_t		 end;
	int64_t		 pid;		/* of the end */
	int64_t		 tid;
};
int		 store_npu_flows(struct store *, int64_t,
		     struct store_npu_flow **, size_t *, char **);
struct store_overall *store_overall_of(struct store *, int64_t, int64_t,
		     char **);
void		 store_overall_free(struct store_overall *);
void		 store_pmu_places(struct store *, int64_t, const char *const *,
		     size_t, int64_t *);
void		 store_pmu_values(const void *, size_t, const int64_t *, size_t,
		     double *);

/* store-compare-overall.c: the parts of one run, as the table has them */
void		 store_overall_parts(const struct store_overall *,
		     void (*)(void *, const char *, double, double, int64_t),
		     void *);

/* store-torch.c: PyTorch ops tied to kernels as torch_npu ties them. */
struct store_torch_launch {
	int64_t		 start;		/* its host tasks' time */
	int64_t		 kmin;		/* its kernels' first start */
	int64_t		 kmax;		/* and last end */
	int64_t		 corr;		/* its dequeue's id, or -1 */
	size_t		 k0;		/* its kernels in the kernel array */
	size_t		 nk;
};
struct store_torch_kernel {
	double		 dur_us;
	bool		 aicore;
};
struct store_torch_corr {
	int64_t		 corr;
	size_t		 l;		/* a launch of it */
};
/* A dequeue or enqueue of the task queue. */
struct store_torch_mark {
	int64_t		 start;
	int64_t		 end;
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 corr;
	size_t		 idx;		/* in end order */
};
struct store_torch {
	bool				 queue;
	struct store_torch_launch	*l;	/* in start order */
	size_t				 nl;
	struct store_torch_kernel	*k;
	size_t				 nk;
	struct store_torch_corr		*c;	/* by id, then launch */
	size_t				 nc;
};
int		 store_torch_load(struct store *, int64_t, bool,
		     struct store_torch *);
void		 store_torch_release(struct store_torch *);
const struct store_torch_corr *store_torch_corr(const struct store_torch *,
		     int64_t, size_t *);
int		 store_torch_marks(struct store *, int64_t, const char *,
		     struct store_torch_mark **, size_t *);

/* store-torch-tree.c: torch_npu's op tree. */
struct store_torch_node {
	int64_t		 start;
	int64_t		 end;
	int64_t		 tid;
	int64_t		 pid;
	int64_t		 kids_ns;	/* duration of the children */
	size_t		 parent;	/* index, or SIZE_MAX for the top */
	size_t		 kid0;		/* children, in kids[] */
	size_t		 nkids;
	double		 sum[4];	/* self, total, self AIC, total AIC */
	bool		 any[4];	/* a kernel (an AI Core one) added */
	bool		 corrs;		/* an enqueue's id in its total */
	bool		 kcorrs;	/* one with kernels: cmin..cmax */
	int64_t		 cmin;
	int64_t		 cmax;
	char		*name;
	char		*dims;
	char		*stack;
};
struct store_torch_tree {
	struct store_torch_node	*n;		/* in the store's order */
	size_t			 nn;
	size_t			*order;		/* the tree's order */
	size_t			*kids;		/* children of each node */
	size_t			*top;		/* the top's children */
	size_t			 ntop;
};

/* store-torch-tree.c */
int		 store_torch_tree_load(struct store *, int64_t,
		     const struct store_torch *, struct store_torch_tree *);
void		 store_torch_tree_release(struct store_torch_tree *);

/* store-torch-steps.c */
int64_t		 store_torch_steps(struct store *, int64_t,
		     const struct store_torch *,
		     const struct store_torch_tree *);

#endif /* STORE_INT_H */
