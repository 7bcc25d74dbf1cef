/*
 * Communication in the vendor's SQLite exports, as the trace shows it in
 * its HCCL process: each task of COMMUNICATION_TASK_INFO (joined to TASK
 * for its times) becomes a span of level HCCL named by its task type, on
 * lane (thread) plane id + 1, and each op of COMMUNICATION_OP a span of
 * level HCCL on lane 0 carrying its connection id. Their args are the
 * trace's (notify_id, src rank, dst rank, transport type, size(Byte), ...)
 * with the enum tables' names where the database has them. The op's task
 * row of type COMMUNICATION is import-db.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/* The name of enum value COL in table ENUM, or COL if there is no table. */
static void
db_comm_enum(struct strbuf *sql, struct store_foreign *f, const char *key,
    const char *e, const char *col)
{
	if (e != NULL && store_foreign_has(f, e, "name"))
		strbuf_addf(sql, ", '%s', coalesce((SELECT name FROM %s"
		    " WHERE id = %s), %s)", key, e, col, col);
	else
		strbuf_addf(sql, ", '%s', %s", key, col);
}

/* Column COL of TABLE as arg KEY, when the table has it. */
static void
db_comm_arg(struct strbuf *sql, struct store_foreign *f, const char *table,
    const char *alias, const char *key, const char *col, const char *e,
    bool str)
{
	char	*ref, *where;

	if (!store_foreign_has(f, table, col))
		return;
	xasprintf(&ref, "%s.%s", alias, col);
	if (str) {
		strbuf_addf(sql, ", '%s', ", key);
		xasprintf(&where, "%s.%s", table, col);
		db_str(sql, ref, where);
		free(where);
	} else
		db_comm_enum(sql, f, key, e, ref);
	free(ref);
}

static bool
db_comm_span(struct store *s, struct store_foreign_rows *r,
    struct import_ctx *ctx, const char **why)
{
	struct store_api	 a;
	const char		*name;
	int64_t			 dur;

	memset(&a, 0, sizeof a);
	a.start_ns = store_foreign_int(r, 0);
	a.end_ns = store_foreign_int(r, 1);
	a.device = store_foreign_int(r, 2);
	/* A task's plane + 1 (its op is on 0); read whole, then added. */
	if ((a.tid = store_foreign_int(r, 3)) != NP_NA && a.tid < INT64_MAX)
		a.tid++;
	a.conn = store_foreign_int(r, 4);
	name = store_foreign_text(r, 5);
	a.name = name != NULL ? name : "unknown";
	a.args = store_foreign_text(r, 6);
	a.rank = ctx->rank;
	a.pid = NP_NA;
	a.depth = a.parent = NP_NA;
	a.level = "HCCL";
	if (!db_rows_dur(a.start_ns, a.end_ns, &dur, why))
		return false;
	if (a.device == NP_NA)
		a.device = ctx->device;
	store_load_api(s, &a);
	return true;
}

/* The SQL of the communication tasks: TASK x COMMUNICATION_TASK_INFO. */
static void
db_comm_tasks_sql(struct strbuf *sql, struct store_foreign *f)
{
	const char	*c = "COMMUNICATION_TASK_INFO";

	strbuf_adds(sql, "SELECT t.startNs, t.endNs, t.deviceId,"
	    " i.planeId, NULL, "
	    DB_STR("i.taskType", "COMMUNICATION_TASK_INFO.taskType")
	    ", json_object('notify_id', i.notifyId,"
	    " 'stream id', t.streamId, 'task id', t.taskId,"
	    " 'context id', t.contextId, 'model id', t.modelId");
	db_comm_arg(sql, f, c, "i", "task type", "taskType", NULL, true);
	db_comm_arg(sql, f, c, "i", "op name", "name", NULL, true);
	db_comm_arg(sql, f, c, "i", "group name", "groupName", NULL, true);
	db_comm_arg(sql, f, c, "i", "plane id", "planeId", NULL, false);
	db_comm_arg(sql, f, c, "i", "src rank", "srcRank", NULL, false);
	db_comm_arg(sql, f, c, "i", "dst rank", "dstRank", NULL, false);
	db_comm_arg(sql, f, c, "i", "transport type", "transportType",
	    "ENUM_HCCL_TRANSPORT_TYPE", false);
	db_comm_arg(sql, f, c, "i", "size(Byte)", "size", NULL, false);
	db_comm_arg(sql, f, c, "i", "data type", "dataType",
	    "ENUM_HCCL_DATA_TYPE", false);
	db_comm_arg(sql, f, c, "i", "link type", "linkType",
	    "ENUM_HCCL_LINK_TYPE", false);
	db_comm_arg(sql, f, c, "i", "rdma type", "rdmaType",
	    "ENUM_HCCL_RDMA_TYPE", false);
	db_comm_arg(sql, f, c, "i", "op id", "opId", NULL, false);
	db_comm_arg(sql, f, c, "i", "bandwidth(GB/s)", "bandwidth", NULL,
	    false);
	strbuf_adds(sql, ") FROM TASK t JOIN COMMUNICATION_TASK_INFO i"
	    " ON i.globalTaskId = t.globalTaskId ORDER BY t.startNs, t.rowid");
}

/*
 * The SQL expression of the device of the COMMUNICATION_OP row aliased O:
 * the device of its tasks when the table has no deviceId (before schema
 * 1.2).
 */
void
db_comm_device(struct strbuf *sql, struct store_foreign *f)
{
	if (store_foreign_has(f, "COMMUNICATION_OP", "deviceId"))
		strbuf_adds(sql, "o.deviceId");
	else if (store_foreign_has_all(f, "COMMUNICATION_TASK_INFO TASK")) {
		/* Made once and indexed: a join for each op is quadratic. */
		db_exec(f, "CREATE TEMP TABLE IF NOT EXISTS np_comm_dev AS"
		    " SELECT i.opId AS opId, t.deviceId AS deviceId"
		    " FROM COMMUNICATION_TASK_INFO i JOIN TASK t"
		    " ON t.globalTaskId = i.globalTaskId");
		db_exec(f, "CREATE INDEX IF NOT EXISTS temp.np_comm_dev_op ON"
		    " np_comm_dev(opId)");
		strbuf_adds(sql, "(SELECT deviceId FROM np_comm_dev"
		    " WHERE opId = o.opId LIMIT 1)");
	} else
		strbuf_adds(sql, "NULL");
}

/* The SQL of the communication ops. */
static void
db_comm_ops_sql(struct strbuf *sql, struct store_foreign *f)
{
	const char	*c = "COMMUNICATION_OP";

	strbuf_adds(sql, "SELECT o.startNs, o.endNs, ");
	db_comm_device(sql, f);
	/* Lane 0: the "plane" -1 db_comm_span() adds one to. */
	strbuf_adds(sql, ", -1, o.connectionId, "
	    DB_STR("o.opName", "COMMUNICATION_OP.opName")
	    ", json_object('connection_id',"
	    " o.connectionId");
	db_comm_arg(sql, f, c, "o", "op type", "opType", NULL, true);
	db_comm_arg(sql, f, c, "o", "group name", "groupName", NULL, true);
	db_comm_arg(sql, f, c, "o", "alg_type", "algType", NULL, true);
	db_comm_arg(sql, f, c, "o", "data_type", "dataType",
	    "ENUM_HCCL_DATA_TYPE", false);
	db_comm_arg(sql, f, c, "o", "count", "count", NULL, false);
	db_comm_arg(sql, f, c, "o", "op id", "opId", NULL, false);
	db_comm_arg(sql, f, c, "o", "relay", "relay", NULL, false);
	db_comm_arg(sql, f, c, "o", "retry", "retry", NULL, false);
	db_comm_arg(sql, f, c, "o", "rank size", "rankSize", NULL, false);
	db_comm_arg(sql, f, c, "o", "wait ns", "waitNs", NULL, false);
	strbuf_adds(sql, ") FROM COMMUNICATION_OP o"
	    " ORDER BY o.startNs, o.rowid");
}

/*
 * Load the communication tasks and ops of the vendor database F (file
 * PATH) as HCCL spans. Return the spans loaded; a table that cannot be
 * read is a warning.
 */
int64_t
db_comm_load(struct store *s, struct store_foreign *f, const char *path,
    struct import_ctx *ctx)
{
	struct strbuf	 sql;
	char		*why = NULL;
	int64_t		 n, total = 0;
	int		 i;

	strbuf_init(&sql);
	for (i = 0; i < 2; i++) {
		strbuf_reset(&sql);
		if (i == 0 && store_foreign_has_all(f,
		    "TASK COMMUNICATION_TASK_INFO STRING_IDS"))
			db_comm_tasks_sql(&sql, f);
		else if (i == 1 && store_foreign_has_all(f,
		    "COMMUNICATION_OP STRING_IDS"))
			db_comm_ops_sql(&sql, f);
		else
			continue;
		/* Ops load twice, as spans here and as tasks: said apart. */
		if ((n = db_rows(s, f, path, i == 0 ?
		    "COMMUNICATION_TASK_INFO" : "COMMUNICATION_OP (as spans)",
		    sql.s,
		    db_comm_span, ctx, &why)) < 0) {
			store_load_warning(s, path, -1, "%s not imported: %s",
			    i == 0 ? "COMMUNICATION_TASK_INFO" :
			    "COMMUNICATION_OP", why);
			free(why);
			why = NULL;
		} else
			total += n;
	}
	strbuf_release(&sql);
	return total;
}
