/*
 * The vendor's SQLite exports: msprof_*.db and the PyTorch profiler's
 * ascend_pytorch_profiler[_N].db (doc/formats.md 7.2 and 7.3). Text in them is
 * interned in STRING_IDS. Compute tasks (TASK joined to COMPUTE_TASK_INFO)
 * become task rows, the other device tasks spans of level Ascend
 * Hardware; CANN_API spans keep the level ENUM_API_TYPE names, PYTORCH_API
 * spans become level python (op) or the enum's name, with their call stack
 * and input shapes as args; COMMUNICATION_OP rows become tasks of type
 * COMMUNICATION; MSTX_EVENTS spans of level mstx, GC_RECORD spans of
 * level gc; TASK_PMU_INFO gives the tasks their PMU metrics. Communication
 * tasks and ops (db-comm.c), memory tables (db-tables.c), counter tables
 * (db-counters.c) and steps (db-steps.c) follow. Missing tables are
 * skipped, tables other tools added are ignored, and the files are only
 * ever read (the temporary index of PMU values goes where SQLite keeps
 * temporary files, never beside the data).
 */
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/* ALIAS.A, or ALIAS.B, whichever column TABLE has; else "NULL". */
static const char *
import_db_col(struct store_foreign *f, const char *table, const char *alias,
    const char *a, const char *b, struct strbuf *buf)
{
	strbuf_reset(buf);
	if (store_foreign_has(f, table, a))
		strbuf_addf(buf, "%s.%s", alias, a);
	else if (b != NULL && store_foreign_has(f, table, b))
		strbuf_addf(buf, "%s.%s", alias, b);
	else
		strbuf_adds(buf, "NULL");
	return buf->s;
}

/* A string id column as its text. */
static void
import_db_str(struct strbuf *sql, struct store_foreign *f, const char *table,
    const char *col)
{
	char	*ref, *where;

	if (store_foreign_has(f, table, col)) {
		xasprintf(&ref, "c.%s", col);
		xasprintf(&where, "%s.%s", table, col);
		strbuf_adds(sql, ", ");
		db_str(sql, ref, where);
		free(where);
		free(ref);
	} else
		strbuf_adds(sql, ", NULL");
}

static bool
import_db_task(struct store *s, struct store_foreign_rows *r,
    struct import_ctx *ctx, const char **why)
{
	struct store_task	 t;
	int			 i = 0;

	memset(&t, 0, sizeof t);
	t.start_ns = store_foreign_int(r, i++);
	if (!db_rows_dur(t.start_ns, store_foreign_int(r, i++), &t.dur_ns,
	    why))
		return false;
	t.device = store_foreign_int(r, i++);
	t.conn = store_foreign_int(r, i++);
	t.stream = store_foreign_int(r, i++);
	t.task = store_foreign_int(r, i++);
	t.context = store_foreign_int(r, i++);
	if (t.context == 4294967295LL)
		t.context = NP_NA;
	t.model_id = store_foreign_int(r, i++);
	t.block_num = store_foreign_int(r, i++);
	t.mix_block_num = store_foreign_int(r, i++);
	t.wait_ns = store_foreign_int(r, i++);
	t.name = store_foreign_text(r, i++);
	t.task_type = store_foreign_text(r, i++);
	t.op_type = store_foreign_text(r, i++);
	t.op_state = store_foreign_text(r, i++);
	t.hf32 = store_foreign_text(r, i++);
	t.in_shapes = store_foreign_text(r, i++);
	t.in_dtypes = store_foreign_text(r, i++);
	t.in_formats = store_foreign_text(r, i++);
	t.out_shapes = store_foreign_text(r, i++);
	t.out_dtypes = store_foreign_text(r, i++);
	t.out_formats = store_foreign_text(r, i++);
	t.pmu = store_foreign_blob(r, i++, &t.pmu_len);
	t.rank = ctx->rank;
	t.batch = t.step = t.api = NP_NA;
	store_load_task(s, &t);
	return true;
}

/*
 * The PMU metrics of TASK_PMU_INFO(globalTaskId, name, value): their
 * names, packed in name id order, into NAMES for store_load_pmu_names(),
 * and temporary tables of the values indexed by task and of the names,
 * so each task's values are a few lookups. False if there are none.
 */
static bool
import_db_pmu_names(struct store_foreign *f, struct strbuf *names)
{
	struct store_foreign_rows	*r;
	const void			*blob;
	size_t				 len;
	char				*why = NULL;

	if (!store_foreign_has(f, "TASK_PMU_INFO", "globalTaskId") ||
	    !store_foreign_has(f, "TASK_PMU_INFO", "name") ||
	    !store_foreign_has(f, "TASK_PMU_INFO", "value") ||
	    !store_foreign_has(f, "STRING_IDS", NULL))
		return false;
	db_exec(f, "CREATE TEMP TABLE np_pmu AS SELECT globalTaskId,"
	    " name, value FROM TASK_PMU_INFO");
	db_exec(f, "CREATE INDEX temp.np_pmu_task ON"
	    " np_pmu(globalTaskId, name)");
	/* Each task reads them: a scan of np_pmu each time is quadratic. */
	db_exec(f, "CREATE TEMP TABLE np_pmu_name AS SELECT DISTINCT"
	    " name FROM np_pmu ORDER BY name");
	if ((r = store_foreign_query(f, "SELECT np_pmu_names(n) FROM"
	    " (SELECT " DB_STR("name", "TASK_PMU_INFO.name") " AS n"
	    " FROM np_pmu_name ORDER BY name)", &why)) != NULL) {
		if (store_foreign_next(r, &why) == 1 &&
		    (blob = store_foreign_blob(r, 0, &len)) != NULL)
			strbuf_add(names, blob, len);
		store_foreign_rows_free(r);
	}
	free(why);
	return names->len > 0;
}

/* TASK x COMPUTE_TASK_INFO: the compute tasks, as task rows. */
static int64_t
import_db_tasks(struct store *s, struct store_foreign *f, const char *path,
    struct import_ctx *ctx, char **cause)
{
	static const char *const strs[] = { "name", "taskType", "opType",
	    "opState", "hf32Eligible", "inputShapes", "inputDataTypes",
	    "inputFormats", "outputShapes", "outputDataTypes",
	    "outputFormats", NULL };
	struct strbuf	 sql, col, pmu;
	int64_t		 n;
	size_t		 i;

	if (!store_foreign_has(f, "TASK", NULL) ||
	    !store_foreign_has(f, "COMPUTE_TASK_INFO", NULL))
		return 0;
	strbuf_init(&sql);
	strbuf_init(&col);
	strbuf_init(&pmu);
	strbuf_adds(&sql, "SELECT t.startNs, t.endNs, t.deviceId,"
	    " t.connectionId, t.streamId, t.taskId, t.contextId, t.modelId");
	strbuf_addf(&sql, ", %s", import_db_col(f, "COMPUTE_TASK_INFO", "c",
	    "blockNum", "blockDim", &col));
	strbuf_addf(&sql, ", %s", import_db_col(f, "COMPUTE_TASK_INFO", "c",
	    "mixBlockNum", "mixBlockDim", &col));
	strbuf_addf(&sql, ", %s", import_db_col(f, "COMPUTE_TASK_INFO", "c",
	    "waitNs", NULL, &col));
	for (i = 0; strs[i] != NULL; i++)
		import_db_str(&sql, f, "COMPUTE_TASK_INFO", strs[i]);
	/* A task's PMU values in the order of the names; N/A if absent. */
	if (import_db_pmu_names(f, &pmu))
		strbuf_adds(&sql, ", CASE WHEN EXISTS (SELECT 1 FROM np_pmu p"
		    " WHERE p.globalTaskId = t.globalTaskId) THEN (SELECT"
		    " np_pmu_pack(v) FROM (SELECT (SELECT"
		    " p.value FROM np_pmu p WHERE p.globalTaskId ="
		    " t.globalTaskId AND p.name = n.name) AS v FROM"
		    " np_pmu_name n ORDER BY n.name)) END");
	else
		strbuf_adds(&sql, ", NULL");
	strbuf_adds(&sql, " FROM TASK t JOIN COMPUTE_TASK_INFO c"
	    " ON c.globalTaskId = t.globalTaskId ORDER BY t.startNs");
	store_load_pmu_names(s, &pmu);
	n = db_rows(s, f, path, "TASK", sql.s, import_db_task, ctx, cause);
	store_load_pmu_names(s, NULL);
	strbuf_release(&pmu);
	strbuf_release(&sql);
	strbuf_release(&col);
	return n;
}

/*
 * The store's level of a span of ENUM_API_TYPE's LEVEL, named as the
 * chrome trace names it, so both paths feed the same views: PyTorch ops
 * are level python, torch_npu's task queue is split into its enqueue and
 * dequeue halves (the stacks pair them to find which op issued a launch),
 * and the Python function trace is python_function.
 */
static const char *
import_db_level(const char *level, const char *name)
{
	if (level == NULL)
		return "unknown";
	if (strcmp(level, "op") == 0)
		return "python";
	if (strcmp(level, "trace") == 0)
		return "python_function";
	if (strcmp(level, "queue") == 0 && name != NULL) {
		if (strncmp(name, "Enqueue", 7) == 0)
			return "enqueue";
		if (strncmp(name, "Dequeue", 7) == 0)
			return "dequeue";
	}
	return level;
}

static bool
import_db_api(struct store *s, struct store_foreign_rows *r,
    struct import_ctx *ctx, const char **why)
{
	struct store_api	 a;
	int64_t			 gtid, dur;
	const char		*level;

	memset(&a, 0, sizeof a);
	a.start_ns = store_foreign_int(r, 0);
	a.end_ns = store_foreign_int(r, 1);
	gtid = store_foreign_int(r, 2);
	a.pid = gtid == NP_NA ? NP_NA : (int64_t)((uint64_t)gtid >> 32);
	a.tid = gtid == NP_NA ? NP_NA : gtid & 0xffffffffLL;
	a.conn = store_foreign_int(r, 3);
	a.name = store_foreign_text(r, 4);
	level = store_foreign_text(r, 5);
	a.level = import_db_level(level, a.name);
	a.args = store_foreign_text(r, 6);
	a.device = store_foreign_int(r, 7);
	if (a.device == NP_NA)
		a.device = NP_HOST_DEVICE;
	a.rank = ctx->rank;
	a.depth = a.parent = NP_NA;
	if (!db_rows_dur(a.start_ns, a.end_ns, &dur, why))
		return false;
	if (level == NULL)
		*why = "type number no ENUM_API_TYPE row names: level unknown, "
		    "kept in the timeline but not in api_statistic";
	store_load_api(s, &a);
	return true;
}

/*
 * Tables the span queries read but can do without: when one is missing, a
 * temporary stand-in of the same name takes its place, and a warning says
 * what is lost. ENUM_API_TYPE's ids are the vendor's fixed level numbers,
 * so its stand-in holds them.
 */
static const struct {
	const char	*table;
	const char	*users;		/* the tables that read it */
	const char	*sql;
	const char	*loss;
} import_db_standins[] = {
	{ "ENUM_API_TYPE", "CANN_API PYTORCH_API",
	    "CREATE TEMP TABLE ENUM_API_TYPE AS SELECT column1 AS id,"
	    " column2 AS name FROM (VALUES (20000, 'acl'), (15000, 'model'),"
	    " (10000, 'node'), (5500, 'hccl'), (5000, 'runtime'),"
	    " (50001, 'op'), (50002, 'queue'), (50003, 'trace'),"
	    " (50004, 'mstx'))",
	    "API levels are taken from the vendor's fixed type numbers, and"
	    " an unknown number is level unknown" },
	{ "PYTORCH_CALLCHAINS", "PYTORCH_API",
	    "CREATE TEMP TABLE PYTORCH_CALLCHAINS(id, stack, stackDepth)",
	    "PyTorch ops have no call stacks" },
	{ "CONNECTION_IDS", "PYTORCH_API",
	    "CREATE TEMP TABLE CONNECTION_IDS(id, connectionId)",
	    "PyTorch ops are not linked to the CANN APIs they called" }
};

/* Put stand-ins in F (file PATH) for the tables it lacks, with warnings. */
static void
import_db_stand_in(struct store *s, struct store_foreign *f,
    const char *path)
{
	struct store_foreign_rows	*r;
	char				*why = NULL, *users, *p, *t;
	bool				 used;
	size_t				 i;

	for (i = 0; i < sizeof import_db_standins /
	    sizeof *import_db_standins; i++) {
		if (store_foreign_has(f, import_db_standins[i].table, NULL))
			continue;
		used = false;
		users = p = xstrdup(import_db_standins[i].users);
		while ((t = strsep(&p, " ")) != NULL)
			used = used || store_foreign_has(f, t, NULL);
		free(users);
		if (!used)
			continue;
		if ((r = store_foreign_query(f, import_db_standins[i].sql,
		    &why)) != NULL) {
			while (store_foreign_next(r, &why) == 1)
				;
			store_foreign_rows_free(r);
		}
		store_load_warning(s, path, -1, "no %s table: %s",
		    import_db_standins[i].table, why != NULL ? why :
		    import_db_standins[i].loss);
		free(why);
		why = NULL;
	}
}

/*
 * The span queries: each selects start, end, global tid, connection id,
 * name, level, args JSON and device. A device task's lane is its stream,
 * as in the trace.
 */
static const struct {
	const char	*what;		/* the table its rows come from */
	const char	*tables;	/* the tables it needs */
	const char	*sql;
} import_db_spans[] = {
	{ "CANN_API", "CANN_API STRING_IDS",
	    "SELECT a.startNs, a.endNs, a.globalTid, a.connectionId,"
	    " " DB_STR("a.name", "CANN_API.name") ","
	    " (SELECT name FROM ENUM_API_TYPE WHERE id = a.type), NULL, NULL"
	    " FROM CANN_API a ORDER BY a.startNs" },
	{ "PYTORCH_API", "PYTORCH_API STRING_IDS",
	    "SELECT p.startNs, p.endNs, p.globalTid, NULL,"
	    " " DB_STR("p.name", "PYTORCH_API.name") ","
	    " (SELECT name FROM ENUM_API_TYPE WHERE id = p.type),"
	    " json_object('Sequence number', p.sequenceNumber,"
	    " 'Fwd thread id', p.fwdThreadId,"
	    " 'Input Dims', " DB_STR("p.inputShapes", "PYTORCH_API.inputShapes")
	    ", 'Input type', " DB_STR("p.inputDtypes", "PYTORCH_API.inputDtypes")
	    ", 'Call stack', (SELECT group_concat(v, ';' || char(13, 10))"
	    " FROM (SELECT " DB_STR("c.stack", "PYTORCH_CALLCHAINS.stack")
	    " AS v FROM np_chain c WHERE c.id = p.callchainId"
	    " ORDER BY c.stackDepth)),"
	    " 'connection_ids', (SELECT json_group_array(connectionId)"
	    " FROM np_conn WHERE id = p.connectionId)), NULL"
	    " FROM PYTORCH_API p ORDER BY CAST(p.startNs AS INTEGER)" },
	{ "GC_RECORD", "GC_RECORD",
	    "SELECT g.startNs, g.endNs, g.globalTid, NULL, 'GC',"
	    " 'gc', NULL, NULL FROM GC_RECORD g ORDER BY g.startNs" },
	{ "MSTX_EVENTS", "MSTX_EVENTS STRING_IDS",
	    "SELECT m.startNs, m.endNs, m.globalTid,"
	    " m.connectionId, " DB_STR("m.message", "MSTX_EVENTS.message")
	    ", 'mstx', NULL, NULL FROM MSTX_EVENTS m"
	    " ORDER BY m.startNs" },
	{ "TASK (non-compute)", "TASK COMPUTE_TASK_INFO STRING_IDS",
	    "SELECT t.startNs, t.endNs, t.streamId, t.connectionId,"
	    " " DB_STR("t.taskType", "TASK.taskType") ","
	    " 'Ascend Hardware', json_object('Physic Stream Id', t.streamId,"
	    " 'Task Id', t.taskId, 'Subtask Id', t.contextId), t.deviceId"
	    " FROM TASK t WHERE NOT EXISTS (SELECT 1 FROM COMPUTE_TASK_INFO c"
	    " WHERE c.globalTaskId = t.globalTaskId) ORDER BY t.startNs" }
};

static bool
import_db_comm_task(struct store *s, struct store_foreign_rows *r,
    struct import_ctx *ctx, const char **why)
{
	struct store_task	 t;

	memset(&t, 0, sizeof t);
	t.start_ns = store_foreign_int(r, 0);
	if (!db_rows_dur(t.start_ns, store_foreign_int(r, 1), &t.dur_ns,
	    why))
		return false;
	t.conn = store_foreign_int(r, 2);
	t.device = store_foreign_int(r, 3);
	t.name = store_foreign_text(r, 4);
	t.op_type = store_foreign_text(r, 5);
	t.wait_ns = store_foreign_int(r, 6);
	t.task_type = "COMMUNICATION";
	t.rank = ctx->rank;
	t.model_id = t.stream = t.task = t.batch = t.context = NP_NA;
	t.block_num = t.mix_block_num = t.step = t.api = NP_NA;
	store_load_task(s, &t);
	return true;
}

/*
 * Copies of PYTORCH_CALLCHAINS and CONNECTION_IDS of F indexed by id, as
 * each PYTORCH_API row looks up its call stack and connection ids: the
 * vendor's tables have no index, and a scan of them for each row is
 * quadratic (hours for a few million rows). The copies keep the rows'
 * order, so a row's connection ids come in the same order as before.
 */
static void
import_db_chains(struct store_foreign *f)
{
	if (!store_foreign_has(f, "PYTORCH_API", NULL))
		return;
	if (store_foreign_has(f, "PYTORCH_CALLCHAINS", NULL)) {
		db_exec(f, "CREATE TEMP TABLE np_chain AS SELECT id,"
		    " stackDepth, stack FROM PYTORCH_CALLCHAINS");
		db_exec(f, "CREATE INDEX temp.np_chain_id ON"
		    " np_chain(id, stackDepth)");
	}
	if (store_foreign_has(f, "CONNECTION_IDS", NULL)) {
		db_exec(f, "CREATE TEMP TABLE np_conn AS SELECT id,"
		    " connectionId FROM CONNECTION_IDS");
		db_exec(f, "CREATE INDEX temp.np_conn_id ON"
		    " np_conn(id)");
	}
}

/*
 * The rows a query loaded, N; or, when it failed (N < 0), 0 and a warning
 * with the reason in *WHY, which is freed.
 */
static int64_t
import_db_counted(struct store *s, const char *path, int64_t n, char **why)
{
	if (n >= 0)
		return n;
	store_load_warning(s, path, -1, "%s", *why);
	free(*why);
	*why = NULL;
	return 0;
}

/* META_DATA and SESSION_TIME_INFO into the store's meta table. */
static void
import_db_meta(struct store *s, struct store_foreign *f)
{
	struct store_foreign_rows	*r;
	char				*key, *why = NULL;

	if (store_foreign_has(f, "META_DATA", "name") &&
	    (r = store_foreign_query(f, "SELECT name, value FROM META_DATA",
	    &why)) != NULL) {
		while (store_foreign_next(r, &why) == 1) {
			if (store_foreign_text(r, 0) == NULL)
				continue;
			xasprintf(&key, "db.%s", store_foreign_text(r, 0));
			store_load_meta(s, key, store_foreign_text(r, 1));
			free(key);
		}
		store_foreign_rows_free(r);
	}
	free(why);
}

/*
 * Warn if rows of TABLE in F (file PATH) name a task TASK lacks: the join
 * leaves them out.
 */
static void
import_db_orphan_rows(struct store *s, struct store_foreign *f,
    const char *path, const char *table)
{
	struct store_foreign_rows	*r;
	char				*sql, *why = NULL;
	int64_t				 n = 0, all = 0;

	if (!store_foreign_has(f, "TASK", "globalTaskId") ||
	    !store_foreign_has(f, table, "globalTaskId"))
		return;
	xasprintf(&sql, "SELECT count(*), sum(NOT EXISTS (SELECT 1 FROM TASK"
	    " t WHERE t.globalTaskId = x.globalTaskId)) FROM %s x", table);
	if ((r = store_foreign_query(f, sql, &why)) != NULL) {
		if (store_foreign_next(r, &why) == 1) {
			all = store_foreign_int(r, 0);
			n = store_foreign_int(r, 1);
		}
		store_foreign_rows_free(r);
	}
	free(why);
	free(sql);
	if (n > 0 && n != NP_NA)
		store_load_warning(s, path, -1, "%lld of %lld %s rows name a "
		    "task TASK does not hold: not imported", (long long)n,
		    (long long)all, table);
}

/*
 * Warn where F (file PATH) has a table whose rows need another it lacks:
 * the device tasks' facts without TASK's times, or TASK without the
 * table that says which tasks are kernels. Nothing of them is imported.
 */
static void
import_db_orphans(struct store *s, struct store_foreign *f,
    const char *path)
{
	static const char *const need_task[] = { "COMPUTE_TASK_INFO",
	    "COMMUNICATION_TASK_INFO", "TASK_PMU_INFO" };
	size_t	 i;

	for (i = 0; i < sizeof need_task / sizeof *need_task; i++)
		if (!store_foreign_has(f, "TASK", NULL) &&
		    store_foreign_has(f, need_task[i], NULL))
			store_load_warning(s, path, -1, "no TASK table: the "
			    "rows of %s have no times and are not imported",
			    need_task[i]);
	if (store_foreign_has(f, "TASK", NULL) &&
	    !store_foreign_has(f, "COMPUTE_TASK_INFO", NULL))
		store_load_warning(s, path, -1, "no COMPUTE_TASK_INFO table: "
		    "TASK's kernels and other device tasks are not imported");
	for (i = 0; i < 2; i++)
		import_db_orphan_rows(s, f, path, need_task[i]);
}

/* True if F (file PATH) is torch_npu's database rather than msprof's. */
static bool
import_db_is_pytorch(struct store_foreign *f, const char *path)
{
	return util_has_prefix(util_basename(path),
	    "ascend_pytorch_profiler") || store_foreign_has(f, "PYTORCH_API",
	    NULL) || store_foreign_has(f, "MEMORY_RECORD", NULL);
}

/*
 * Load the vendor database PATH for the unit CTX. Tables that cannot be
 * read are warnings; return -1 and set *cause if the file cannot be opened
 * or gives nothing.
 */
int
import_db_file(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct store_foreign	*f;
	struct strbuf		 sql;
	char			*why = NULL;
	int64_t			 n, total = 0;
	size_t			 i;

	if ((f = store_foreign_open(path, cause)) == NULL)
		return -1;
	store_load_file(s, path);
	store_load_progress(s, "reading", path, 0, -1);
	import_db_meta(s, f);
	import_db_orphans(s, f, path);
	if ((n = import_db_tasks(s, f, path, ctx, &why)) < 0) {
		store_load_warning(s, path, -1, "%s", why);
		free(why);
		why = NULL;
	} else
		total += n;
	import_db_stand_in(s, f, path);
	import_db_chains(f);
	for (i = 0; i < sizeof import_db_spans / sizeof *import_db_spans;
	    i++) {
		if (!store_foreign_has_all(f, import_db_spans[i].tables))
			continue;
		n = db_rows(s, f, path, import_db_spans[i].what,
		    import_db_spans[i].sql, import_db_api, ctx, &why);
		total += import_db_counted(s, path, n, &why);
	}
	if (store_foreign_has_all(f, "COMMUNICATION_OP STRING_IDS")) {
		strbuf_init(&sql);
		strbuf_adds(&sql, "SELECT o.startNs, o.endNs, o.connectionId,"
		    " ");
		db_comm_device(&sql, f);
		strbuf_adds(&sql, ", " DB_STR("o.opName",
		    "COMMUNICATION_OP.opName") ", " DB_STR("o.opType",
		    "COMMUNICATION_OP.opType") ", NULL FROM COMMUNICATION_OP o"
		    " ORDER BY o.startNs");
		n = db_rows(s, f, path, "COMMUNICATION_OP", sql.s,
		    import_db_comm_task, ctx, &why);
		strbuf_release(&sql);
		total += import_db_counted(s, path, n, &why);
	}
	total += db_comm_load(s, f, path, ctx);
	total += db_tables_load(s, f, path, ctx, import_db_is_pytorch(f,
	    path));
	total += db_counters_load(s, f, path, ctx);
	if (total > 0)
		store_trace_load_api_link(s, ctx->rank);
	total += db_steps_load(s, f, path, ctx);
	db_rows_missing_strings(s, f, path);
	store_foreign_free(f);
	if (total == 0) {
		xasprintf(cause, "'%s' holds none of the vendor's tables",
		    path);
		return -1;
	}
	return 0;
}

/* True if FILE is one of the vendor's databases, not one of our stores. */
bool
import_db_is_vendor(const char *file)
{
	struct store_foreign	*f;
	char			*why = NULL;
	bool			 yes;

	if (!util_has_suffix(file, ".db"))
		return false;
	if ((f = store_foreign_open(file, &why)) == NULL) {
		free(why);
		return false;
	}
	yes = store_foreign_has(f, "STRING_IDS", NULL) &&
	    (store_foreign_has(f, "TASK", NULL) ||
	    store_foreign_has(f, "META_DATA", NULL)) &&
	    !store_foreign_has(f, "manifest", NULL);
	store_foreign_free(f);
	return yes;
}

int
import_db_probe(const char *path, bool isdir)
{
	char	**names, *p;
	size_t	  n, i;
	bool	  found = false;

	if (!isdir)
		return import_db_is_vendor(path) ? IMPORT_YES : IMPORT_NO;
	names = util_dir_list(path, &n);
	for (i = 0; i < n && !found; i++) {
		p = util_path_join(path, names[i]);
		found = import_db_is_vendor(p);
		free(p);
	}
	util_strv_free(names, n);
	return found ? IMPORT_YES : IMPORT_NO;
}

/* A vendor database given as PATH, or a folder of them. */
int
import_db_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	char	**names, *p, *why = NULL;
	size_t	  n, i, ok = 0;

	store_load_meta(s, "format", "db");
	store_load_avg_rounded(s);
	if (util_has_suffix(path, ".db"))
		return import_db_file(s, path, ctx, cause);
	names = util_dir_list(path, &n);
	for (i = 0; i < n; i++) {
		p = util_path_join(path, names[i]);
		if (import_db_is_vendor(p)) {
			if (import_db_file(s, p, ctx, &why) == 0)
				ok++;
			else {
				store_load_warning(s, p, -1, "%s", why);
				free(why);
				why = NULL;
			}
		}
		free(p);
	}
	util_strv_free(names, n);
	if (ok == 0) {
		xasprintf(cause, "no vendor database in '%s' could be read",
		    path);
		return -1;
	}
	return 0;
}
