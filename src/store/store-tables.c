/*
 * The tables show and the UI know by name: for each, the vendor's column
 * headers, the SQL that yields them from the store and how each column is
 * printed. Generic tables (vendor CSVs kept as they are) get a spec made
 * from their columns when first asked for.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

#define TASK_FROM							\
	"task t LEFT JOIN str n ON n.id = t.name"			\
	" LEFT JOIN str o ON o.id = t.op_type"				\
	" LEFT JOIN str st ON st.id = t.op_state"			\
	" LEFT JOIN str ty ON ty.id = t.task_type"			\
	" LEFT JOIN str h ON h.id = t.hf32"				\
	" LEFT JOIN str is_ ON is_.id = t.in_shapes"			\
	" LEFT JOIN str idt ON idt.id = t.in_dtypes"			\
	" LEFT JOIN str ifm ON ifm.id = t.in_formats"			\
	" LEFT JOIN str os_ ON os_.id = t.out_shapes"			\
	" LEFT JOIN str odt ON odt.id = t.out_dtypes"			\
	" LEFT JOIN str ofm ON ofm.id = t.out_formats"

static const struct store_col store_tables_op_stat[] = {
	{ .name = "Device_id", .expr = "device", .fmt = FMT_DEVICE },
	{ .name = "OP Type", .expr = "op_type", .fmt = FMT_TEXT },
	{ .name = "Core Type", .expr = "core_type", .fmt = FMT_TEXT },
	{ .name = "Count", .expr = "count", .fmt = FMT_INT },
	{ .name = "Total Time(us)", .expr = "total_ns", .fmt = FMT_US },
	{ .name = "Min Time(us)", .expr = "min_ns", .fmt = FMT_US },
	{ .name = "Avg Time(us)", .expr = "avg_ns", .fmt = FMT_US },
	{ .name = "Max Time(us)", .expr = "max_ns", .fmt = FMT_US },
	{ .name = "Ratio(%)", .expr = "ratio", .fmt = FMT_REAL3 }
};

static const struct store_col store_tables_api_stat[] = {
	{ .name = "Device_id", .expr = "device", .fmt = FMT_DEVICE },
	{ .name = "Level", .expr = "level", .fmt = FMT_TEXT },
	{ .name = "API Name", .expr = "name", .fmt = FMT_TEXT },
	{ .name = "Time(us)", .expr = "total_ns", .fmt = FMT_US },
	{ .name = "Count", .expr = "count", .fmt = FMT_INT },
	{ .name = "Avg(us)", .expr = "avg_ns", .fmt = FMT_US },
	{ .name = "Min(us)", .expr = "min_ns", .fmt = FMT_US },
	{ .name = "Max(us)", .expr = "max_ns", .fmt = FMT_US },
	{ .name = "Variance", .expr = "variance", .fmt = FMT_REAL3 }
};

static const struct store_col store_tables_op_summary[] = {
	{ .name = "Device_id", .expr = "t.device", .fmt = FMT_DEVICE },
	{ .name = "Model ID", .expr = "t.model_id", .fmt = FMT_INT },
	{ .name = "Task ID", .expr = "t.task", .fmt = FMT_INT },
	{ .name = "Stream ID", .expr = "t.stream", .fmt = FMT_INT },
	{ .name = "Op Name", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "OP Type", .expr = "o.s", .fmt = FMT_TEXT },
	{ .name = "OP State", .expr = "st.s", .fmt = FMT_TEXT },
	{ .name = "Task Type", .expr = "ty.s", .fmt = FMT_TEXT },
	{ .name = "Task Start Time(us)", .expr = "t.start_ns",
	  .fmt = FMT_US3 },
	{ .name = "Task Duration(us)", .expr = "t.dur_ns", .fmt = FMT_US3 },
	{ .name = "Task Wait Time(us)", .expr = "t.wait_ns", .fmt = FMT_US6 },
	{ .name = "Block Num", .expr = "t.block_num", .fmt = FMT_INT },
	{ .name = "Mix Block Num", .expr = "t.mix_block_num", .fmt = FMT_INT },
	{ .name = "HF32 Eligible", .expr = "h.s", .fmt = FMT_TEXT },
	{ .name = "Input Shapes", .expr = "is_.s", .fmt = FMT_TEXT },
	{ .name = "Input Data Types", .expr = "idt.s", .fmt = FMT_TEXT },
	{ .name = "Input Formats", .expr = "ifm.s", .fmt = FMT_TEXT },
	{ .name = "Output Shapes", .expr = "os_.s", .fmt = FMT_TEXT },
	{ .name = "Output Data Types", .expr = "odt.s", .fmt = FMT_TEXT },
	{ .name = "Output Formats", .expr = "ofm.s", .fmt = FMT_TEXT },
	{ .name = "Context ID", .expr = "t.context", .fmt = FMT_INT }
};

static const struct store_col store_tables_task_time[] = {
	{ .name = "Device_id", .expr = "t.device", .fmt = FMT_DEVICE },
	{ .name = "kernel_name", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "kernel_type", .expr = "ty.s", .fmt = FMT_TEXT },
	{ .name = "stream_id", .expr = "t.stream", .fmt = FMT_INT },
	{ .name = "task_id", .expr = "t.task", .fmt = FMT_INT },
	{ .name = "task_time(us)", .expr = "t.dur_ns", .fmt = FMT_US3 },
	{ .name = "task_start(us)", .expr = "t.start_ns", .fmt = FMT_US3 },
	{ .name = "task_stop(us)", .expr = "t.start_ns + t.dur_ns",
	  .fmt = FMT_US3 }
};

static const struct store_col store_tables_step[] = {
	{ .name = "Device_id", .expr = "device", .fmt = FMT_DEVICE },
	{ .name = "Iteration ID", .expr = "iter", .fmt = FMT_INT },
	{ .name = "FP Start(us)", .expr = "fp_start_ns", .fmt = FMT_US3 },
	{ .name = "BP End(us)", .expr = "bp_end_ns", .fmt = FMT_US3 },
	{ .name = "Iteration End(us)", .expr = "iter_end_ns", .fmt = FMT_US3 },
	{ .name = "Iteration Time(us)", .expr = "iter_time_ns", .fmt = FMT_US },
	{ .name = "FP to BP Time(us)", .expr = "fp_bp_ns", .fmt = FMT_US },
	{ .name = "Iteration Refresh(us)", .expr = "refresh_ns",
	  .fmt = FMT_US },
	{ .name = "Data Aug Bound(us)", .expr = "data_aug_ns", .fmt = FMT_US },
	{ .name = "Model ID", .expr = "model_id", .fmt = FMT_INT }
};

static const struct store_col store_tables_info[] = {
	{ .name = "Key", .expr = "key", .fmt = FMT_TEXT },
	{ .name = "Value", .expr = "value", .fmt = FMT_TEXT }
};

static const struct store_col store_tables_warnings[] = {
	{ .name = "File", .expr = "file", .fmt = FMT_TEXT },
	{ .name = "Offset", .expr = "offset", .fmt = FMT_INT },
	{ .name = "Message", .expr = "message", .fmt = FMT_TEXT }
};

#define TABLE_COLS(a)	.cols = (a), .ncols = sizeof (a) / sizeof (a)[0]

static const struct store_table store_tables[] = {
	{ .name = "op_statistic", .aliases = " op_stat ",
	  .title = "Op Statistic", .from = "op_stat_best", .all = "op_stat",
	  TABLE_COLS(store_tables_op_stat), .device = "device",
	  .rank = "rank", .fallback = "op_statistic_csv",
	  .order = "device, total_ns DESC, op_type, core_type" },
	{ .name = "api_statistic", .aliases = " acl_statistic api_stat ",
	  .title = "API Statistic", .from = "api_stat_best",
	  .all = "api_stat",
	  TABLE_COLS(store_tables_api_stat), .device = "device",
	  .rank = "rank", .order = "device, name, level" },
	{ .name = "op_summary", .aliases = " kernels kernel_details ",
	  .title = "Op Summary", .from = TASK_FROM,
	  TABLE_COLS(store_tables_op_summary), .device = "t.device",
	  .where = "t.unlisted IS NULL",
	  .rank = "t.rank", .time = "t.start_ns", .step = "t.step",
	  .flags = TABLE_PMU | TABLE_STEP, .order = STORE_TASK_ORDER },
	{ .name = "task_time", .aliases = " ", .title = "Task Time",
	  .from = TASK_FROM, TABLE_COLS(store_tables_task_time),
	  .device = "t.device", .rank = "t.rank", .time = "t.start_ns",
	  .step = "t.step", .flags = TABLE_FILE_FIRST,
	  .order = STORE_TASK_ORDER },
	{ .name = "step_trace", .aliases = " steps ", .title = "Step Trace",
	  .from = "step", TABLE_COLS(store_tables_step), .device = "device",
	  .rank = "rank", .step = "iter", .fallback = "step_trace_time",
	  .order = "device, model_id, iter" },
	{ .name = "info", .aliases = " meta ", .title = "Info",
	  .from = "info", TABLE_COLS(store_tables_info), .order = "key" },
	{ .name = "warnings", .aliases = " ", .title = "Warnings",
	  .from = "warning", TABLE_COLS(store_tables_warnings),
	  .order = "id" }
};

#define STORE_NTABLES	(sizeof store_tables / sizeof store_tables[0])

void
store_tables_free(struct store *s)
{
	size_t	 i, j;

	for (i = 0; i < s->ndyn; i++) {
		for (j = 0; j < s->dyn[i]->ncols; j++) {
			free((char *)s->dyn[i]->cols[j].name);
			free((char *)s->dyn[i]->cols[j].expr);
		}
		free((struct store_col *)s->dyn[i]->cols);
		/* A generic table owns its time; a masked one has a copy. */
		if (s->dyn[i]->flags & TABLE_GENERIC)
			free((char *)s->dyn[i]->time);
		free((char *)s->dyn[i]->name);
		free((char *)s->dyn[i]->from);
		free(s->dyn[i]);
	}
	free(s->dyn);
	s->dyn = NULL;
	s->ndyn = 0;
	if (s->stepped != NULL)
		free((struct store_col *)s->stepped->cols);
	free(s->stepped);
	s->stepped = NULL;
	free(s->window[0]);
	free(s->window[1]);
	s->window[0] = s->window[1] = NULL;
	for (i = 0; i < s->nranked; i++) {
		free((struct store_col *)s->ranked[i]->cols);
		free((char *)s->ranked[i]->order);
		free(s->ranked[i]);
	}
	free(s->ranked);
	free(s->ranked_of);
	s->ranked = NULL;
	s->ranked_of = NULL;
	s->nranked = 0;
	s->multirank = 0;
}

/*
 * T with a Step Id column first where the producer showed one: when a
 * kernel_details or op_summary file of the store had a Step Id column
 * (torch_npu's, older msprof's); else T. Raw and database sources know
 * steps too, but the vendor's op_summary of them has no such column.
 */
static const struct store_table *
store_tables_stepped(struct store *s, const struct store_table *t)
{
	struct store_col	*cols;

	if (!(t->flags & TABLE_STEP))
		return t;
	if (s->steps == 0)
		s->steps = store_exists(s, STORE_STEP_FILES_SQL) ? 1 : -1;
	if (s->steps < 0)
		return t;
	if (s->stepped != NULL)
		return s->stepped;
	cols = xreallocarray(NULL, t->ncols + 1, sizeof *cols);
	cols[0].name = "Step Id";
	cols[0].expr = "t.step";
	cols[0].fmt = FMT_INT;
	memcpy(cols + 1, t->cols, t->ncols * sizeof *cols);
	s->stepped = xmalloc(sizeof *s->stepped);
	*s->stepped = *t;
	s->stepped->cols = cols;
	s->stepped->ncols = t->ncols + 1;
	return s->stepped;
}

/* Whether a vendor table's column NAME holds instants in microseconds. */
static bool
store_tables_time_col(const char *name)
{
	static const char *const names[] = { "Timestamp(us)",
	    "Start_time(us)", "Start Time(us)", "Start(us)",
	    "Task Start Time(us)", "task_start(us)", NULL };
	size_t	 i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcasecmp(name, names[i]) == 0)
			return true;
	}
	return false;
}

/* The spec of the table kept from vendor files called NAME, or NULL. */
const struct store_table *
store_tables_dyn_find(struct store *s, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->ndyn; i++) {
		if (strcmp(s->dyn[i]->name, name) == 0)
			return s->dyn[i];
	}
	return NULL;
}

/*
 * What keeps a rank's rows of generic table NAME: its _rank, and for the
 * rows of a link between two ranks, either end: the matrix's Src and Dst
 * Rank, a slow link finding's "S-D group" (store-cluster-find.c). With a
 * '?', the expression takes the rank there (store-query.c).
 */
static const char *
store_tables_dyn_rank(const char *name)
{
	if (strcmp(name, "cluster_communication_matrix") == 0)
		return "? IN (CAST(\"Src Rank\" AS INTEGER),"
		    " CAST(\"Dst Rank\" AS INTEGER))";
	if (strcmp(name, "cluster_findings") == 0)
		return "? IN (_rank, CASE WHEN \"Finding\" = 'slow link' THEN"
		    " CAST(\"Where\" AS INTEGER) END, CASE WHEN \"Finding\" ="
		    " 'slow link' THEN CAST(substr(\"Where\", instr(\"Where\","
		    " '-') + 1) AS INTEGER) END)";
	return "_rank";
}

/*
 * Add the spec of a table kept from vendor files: columns COLS (N of
 * them) read FROM in ORDER, titled TITLE (NULL: NAME). Takes ownership of
 * NAME, FROM and COLS; the spec lives until the store is freed.
 */
const struct store_table *
store_tables_dyn_add(struct store *s, char *name, const char *title,
    char *from, struct store_col *cols, size_t n, const char *order)
{
	struct store_table	*t;
	size_t			 i;
	char			*time;

	t = xcalloc(1, sizeof *t);
	t->name = name;
	t->aliases = " ";
	t->title = title != NULL ? title : name;
	t->from = from;
	t->cols = cols;
	t->ncols = n;
	t->device = "_device";
	t->rank = store_tables_dyn_rank(name);
	t->order = order;
	t->flags = TABLE_GENERIC;
	/*
	 * torch_npu's step_trace_time and others name the step "Step"; a
	 * start or timestamp in microseconds makes the rows' time, for a
	 * step or time window.
	 */
	for (i = 0; i < n; i++) {
		if (strcmp(cols[i].name, "Step") == 0)
			t->step = cols[i].expr;
		if (t->time == NULL && store_tables_time_col(cols[i].name)) {
			xasprintf(&time, "np_ns(%s)", cols[i].expr);
			t->time = time;
		}
	}
	s->dyn = xreallocarray(s->dyn, s->ndyn + 1, sizeof *s->dyn);
	s->dyn[s->ndyn++] = t;
	return t;
}

/* A spec for the generic table NAME, or NULL if the store has none. */
static const struct store_table *
store_tables_generic(struct store *s, const char *name)
{
	const struct store_table *t;
	struct store_col	*cols = NULL;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	size_t			 n = 0;
	const char		*col;

	if ((t = store_tables_dyn_find(s, name)) != NULL)
		return t;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM generic WHERE name = ?",
	    -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return NULL;
	}
	sqlite3_finalize(stmt);
	if (sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info(?)",
	    -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	strbuf_init(&b);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		col = (const char *)sqlite3_column_text(stmt, 0);
		if (col[0] == '_')
			continue;
		cols = xreallocarray(cols, n + 1, sizeof *cols);
		cols[n].name = xstrdup(col);
		strbuf_reset(&b);
		store_load_quote_ident(&b, col);
		cols[n].expr = xstrdup(b.s);
		cols[n].fmt = FMT_NUMTEXT;
		n++;
	}
	sqlite3_finalize(stmt);
	strbuf_reset(&b);
	store_load_quote_ident(&b, name);
	return store_tables_dyn_add(s, xstrdup(name), NULL, strbuf_detach(&b),
	    cols, n, "rowid");
}

static bool
store_tables_empty(struct store *s, const struct store_table *t)
{
	char		*sql;
	bool		 empty;

	xasprintf(&sql, "SELECT 1 FROM %s WHERE %s LIMIT 1", t->from,
	    t->where != NULL ? t->where : "1");
	empty = !store_exists(s, sql);
	free(sql);
	return empty;
}

/*
 * T with a Rank column first and its rows ordered by rank first (but for
 * the task tables, see below), when
 * the store holds more than one rank, so that no row of a cluster is
 * shown without the rank it belongs to. Rows without a rank are of a
 * profile that did not say; with one known rank they are its own.
 */
static const struct store_table *
store_tables_ranked(struct store *s, const struct store_table *t)
{
	struct store_table	*rt;
	struct store_col	*cols;
	int64_t			*ids;
	char			*order, *cause = NULL;
	size_t			 n, i, known;

	/* The cluster tables name their ranks themselves, in their order. */
	if (t == NULL || t->rank == NULL || strncmp(t->name, "cluster_", 8)
	    == 0)
		return t;
	if (s->multirank == 0 && store_meta_get(s, "ranks", &cause) == 0) {
		/* Counted at the end of the load, vendor tables too. */
		s->multirank = strtoll(cause, NULL, 10) > 1 ? 1 : -1;
		free(cause);
		cause = NULL;
	}
	if (s->multirank == 0) {
		if (store_query_ranks(s, &ids, &n, &cause) != 0)
			n = 0;
		for (i = 0, known = 0; i < n; i++)
			known += ids[i] != NP_NA;
		free(cause);
		free(ids);
		s->multirank = known > 1 ? 1 : -1;
	}
	if (s->multirank < 0)
		return t;
	for (i = 0; i < s->nranked; i++) {
		if (s->ranked_of[i] == t)
			return s->ranked[i];
	}
	cols = xreallocarray(NULL, t->ncols + 1, sizeof *cols);
	cols[0].name = "Rank";
	cols[0].expr = t->rank;
	cols[0].fmt = FMT_INT;
	memcpy(cols + 1, t->cols, t->ncols * sizeof *cols);
	/*
	 * Task tables keep the order their index and keyset paging follow
	 * (device, start): each row still says its rank.
	 */
	if (t->order != NULL && strcmp(t->order, STORE_TASK_ORDER) == 0)
		order = xstrdup(t->order);
	else if (t->order != NULL)
		xasprintf(&order, "%s, %s", t->rank, t->order);
	else
		order = xstrdup(t->rank);
	rt = xmalloc(sizeof *rt);
	*rt = *t;
	rt->cols = cols;
	rt->ncols = t->ncols + 1;
	rt->order = order;
	s->ranked = xreallocarray(s->ranked, s->nranked + 1,
	    sizeof *s->ranked);
	s->ranked_of = xreallocarray(s->ranked_of, s->nranked + 1,
	    sizeof *s->ranked_of);
	s->ranked[s->nranked] = rt;
	s->ranked_of[s->nranked++] = t;
	return rt;
}

/*
 * The table called NAME, as the UI and show print it: with a Rank column
 * when the store holds several ranks (store_tables_ranked).
 */
const struct store_table *
store_tables_find(struct store *s, const char *name)
{
	return store_tables_ranked(s, store_tables_find_base(s, name));
}

/*
 * The table called NAME as shown for rank RANK: NP_NA (all ranks) as
 * store_tables_find(); one rank without the Rank column, which would
 * repeat what the user chose.
 */
const struct store_table *
store_tables_find_rank(struct store *s, const char *name, int64_t rank)
{
	if (rank != NP_NA)
		return store_tables_find_base(s, name);
	return store_tables_find(s, name);
}

/*
 * The table called NAME (or an alias of it), with the vendor's columns
 * only. A generic table of the same
 * name wins over an alias and over tables marked TABLE_FILE_FIRST; an
 * empty table gives way to its fallback; op_summary may gain a Step Id
 * (store_tables_stepped). NULL if there is no such table.
 */
const struct store_table *
store_tables_find_base(struct store *s, const char *name)
{
	const struct store_table	*t = NULL, *g;
	char				 key[128];
	size_t				 i;

	snprintf(key, sizeof key, " %s ", name);
	for (i = 0; i < STORE_NTABLES; i++) {
		if (strcasecmp(store_tables[i].name, name) == 0 ||
		    strcasestr(store_tables[i].aliases, key) != NULL) {
			t = &store_tables[i];
			break;
		}
	}
	for (i = 0; t == NULL && i < store_tables_ntrace; i++) {
		if (strcasecmp(store_tables_trace[i].name, name) == 0 ||
		    strcasestr(store_tables_trace[i].aliases, key) != NULL)
			t = &store_tables_trace[i];
	}
	/*
	 * A vendor CSV named as a table the store fills itself is kept as
	 * NAME_csv (import-rows.c): found by its name where nothing else is.
	 */
	if (t == NULL && (g = store_tables_generic(s, name)) == NULL &&
	    strlen(name) < sizeof key - 5) {
		snprintf(key, sizeof key, "%s_csv", name);
		return store_tables_generic(s, key);
	}
	if (t == NULL)
		return g;
	if ((strcasecmp(t->name, name) != 0 || (t->flags & TABLE_FILE_FIRST))
	    && (g = store_tables_generic(s, name)) != NULL)
		return g;
	if (t->fallback != NULL && store_tables_empty(s, t) &&
	    (g = store_tables_generic(s, t->fallback)) != NULL)
		return g;
	return store_tables_stepped(s, t);
}


const char *
store_tables_name(const struct store_table *t)
{
	return t->name;
}

const char *
store_tables_title(const struct store_table *t)
{
	return t->title;
}

/* The names of the built-in tables, for usage and error messages. */
const char *
store_tables_names_help(void)
{
	return "op_statistic, api_statistic (acl_statistic), op_summary "
	    "(kernels), task_time, step_trace (step_trace_time where the "
	    "input has no step records: torch_npu outputs, raw collections "
	    "with HCCL ops), info, warnings, spans, lanes, counters, flows, "
	    "tables (the "
	    "list of tables), for legacy JOBs task_desc, step_trace_reduce, "
	    "training_points, aicpu, tdt, runtime_task_track, msproftx, "
	    "tensor_data_info, ge_step_info, ge_id_map, "
	    "for raw PROF_* collections msprof_tx, memcpy_info, aicpu, "
	    "dp, aicpu_mi, kfc_turn, kfc_info, device_hccl_op_info, "
	    "aicpu_flip, aicpu_master_task, mc2_comm_info, kfc_op, "
	    "kfc_task, hccl_op_info, "
	    "hccl_info, "
	    "fusion_op, graph_id_map, "
	    "node_attr_info, capture_stream_info, npu_mem (process and "
	    "device memory), npu_module_mem (the memory of each driver "
	    "module), for un-analysed "
	    "torch_npu folders operator_details (MindSpore too), "
	    "operator_memory (MindSpore 2.5 and later too), memory_record "
	    "(MindSpore 2.3 and later too), param_tensor_info, for "
	    "MindSpore folders minddata_pipeline_raw, "
	    "minddata_pipeline_summary (the dataset pipeline and its "
	    "CPU use, analysed or not), for SVP "
	    "runs "
	    "aa_core_metrics, frequency, for torch_npu outputs and raw "
	    "collections with HCCL ops "
	    "communication, communication_bandwidth, communication_matrix, "
	    "communication_statistic (raw collections), "
	    "for torch_npu outputs distributed_args, parallel_group_info, "
	    "with several ranks cluster_step_trace_time, "
	    "cluster_communication, cluster_communication_bandwidth, "
	    "cluster_communication_matrix, cluster_findings, "
	    "or a table kept from a vendor CSV "
	    "(memory_record, operator_details, ...)";
}

static bool
store_tables_listed(const char **v, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i], name) == 0)
			return true;
	}
	return false;
}

/*
 * Set *NAMES to the tables with rows in this store, built-in ones first
 * (the array is the caller's, the strings are not). Return the count.
 */
size_t
store_tables_list(struct store *s, const char ***names)
{
	const char	**v = NULL;
	sqlite3_stmt	 *stmt;
	size_t		  n = 0, i;

	for (i = 0; i < STORE_NTABLES; i++) {
		if (store_tables_empty(s, &store_tables[i]))
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = store_tables[i].name;
	}
	for (i = 0; i < store_tables_ntrace; i++) {
		if (store_tables_empty(s, &store_tables_trace[i]))
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = store_tables_trace[i].name;
	}
	if (sqlite3_prepare_v2(s->db, "SELECT name FROM generic ORDER BY name",
	    -1, &stmt, NULL) == SQLITE_OK) {
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			const struct store_table *t = store_tables_generic(s,
			    (const char *)sqlite3_column_text(stmt, 0));

			if (t == NULL || store_tables_listed(v, n, t->name))
				continue;
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = t->name;
		}
		sqlite3_finalize(stmt);
	}
	*names = v;
	return n;
}

/*
 * The pseudo-table "tables": every table with rows in this store, its
 * title and how many rows Q selects from it. NULL with *cause on error.
 */
struct store_rows *
store_tables_summary(struct store *s, const struct store_query *q,
    char **cause)
{
	const struct store_table	 *t;
	struct store_rows		 *r;
	const char			**names;
	char				 *cells[3];
	struct store_val		  vals[3] = { { .kind = VAL_NONE },
	    { .kind = VAL_NONE }, { .kind = VAL_INT } };
	size_t				  n, i;
	int64_t				  count;

	r = store_rows_create(3);
	r->names[0] = xstrdup("Table");
	r->names[1] = xstrdup("Title");
	r->names[2] = xstrdup("Rows");
	r->fmts[0] = r->fmts[1] = FMT_TEXT;
	r->fmts[2] = FMT_INT;
	n = store_tables_list(s, &names);
	for (i = 0; i < n; i++) {
		t = store_tables_find(s, names[i]);
		if (t == NULL || (count = store_query_count(s, t, q,
		    cause)) < 0) {
			if (t == NULL)
				continue;
			store_rows_free(r);
			free(names);
			return NULL;
		}
		if (count == 0)
			continue;	/* rows none of which Q keeps */
		cells[0] = xstrdup(t->name);
		cells[1] = xstrdup(t->title);
		xasprintf(&cells[2], "%lld", (long long)count);
		vals[2].i = count;
		store_rows_add(r, cells, vals);
	}
	free(names);
	return r;
}
