/*
 * The load interface of chrome-trace data: lanes (the processes and threads
 * named by metadata events), counter samples, flow endpoints, and the link
 * between device tasks a trace describes and the task rows a CSV of the
 * same run already loaded, so that one task stays one row. The statements
 * are prepared on first use, and so are the indexes the lookups need.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static const char *store_trace_sql[STMT_COUNT] = {
	[STMT_COUNTER] = "INSERT INTO counter VALUES (?, ?, ?, ?, ?, ?, ?,"
	    " ?)",
	[STMT_FLOW] = "INSERT INTO flow VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?)",
	/*
	 * A CSV row that leaves a key out (Level0 kernel_details has no
	 * stream or task id) matches any value; a row already linked to a
	 * trace event is not taken twice. A CSV's device is no key (a
	 * kernel_details.csv without Device_id says device 0 for the trace's
	 * 1); between tasks of traces it is, or the tasks of two devices (or
	 * of two ranks whose rank is unknown) starting on the same stream at
	 * the same time would be taken for one.
	 */
	[STMT_TASK_FIND] = "SELECT id FROM task WHERE start_ns = ?1"
	    " AND (device IS NULL OR ?2 IS NULL OR device = ?2)"
	    " AND rank IS ?3"
	    " AND (stream IS NULL OR stream = ?4)"
	    " AND (task IS NULL OR task = ?5)"
	    " AND (batch IS NULL OR batch = ?6)"
	    " AND (context IS NULL OR context = ?7) AND conn IS NULL"
	    " ORDER BY id LIMIT 1",
	[STMT_TASK_LINK] = "UPDATE task SET conn = ?2,"
	    " device = coalesce(device, ?3), model_id = coalesce(model_id, ?4),"
	    " stream = coalesce(stream, ?5), task = coalesce(task, ?6),"
	    " batch = coalesce(batch, ?7), context = coalesce(context, ?8),"
	    " task_type = coalesce(task_type, ?9) WHERE id = ?1"
};

/* The statement I, prepared on first use; NULL if SQLite refuses it. */
static sqlite3_stmt *
store_trace_stmt(struct store *s, enum store_stmt i)
{
	if (s->stmt[i] == NULL) {
		if (i == STMT_TASK_FIND)
			store_load_exec(s, "CREATE INDEX IF NOT EXISTS"
			    " task_link ON task(start_ns)");
		if (store_load_prepare(s, &s->stmt[i], store_trace_sql[i]) !=
		    0)
			return NULL;
	}
	return s->stmt[i];
}

/*
 * Set FIELD ("name", "labels" or "sort_index") of the lane PID/TID (TID
 * NP_NA for the process itself) to VALUE. A repeated metadata event
 * replaces the value it repeats.
 */
void
store_trace_load_lane(struct store *s, int64_t device, int64_t rank,
    int64_t pid, int64_t tid, const char *field, const char *value)
{
	sqlite3_stmt	*stmt;
	char		*sql;
	int		 i;

	if (strcmp(field, "name") != 0 && strcmp(field, "labels") != 0 &&
	    strcmp(field, "sort_index") != 0)
		fatalx("%s: bad field %s", __func__, field);
	for (i = 0; i < 2; i++) {
		if (i == 0)
			xasprintf(&sql, "UPDATE lane SET %s = ?4 WHERE rank IS"
			    " ?1 AND pid = ?2 AND tid IS ?3", field);
		else
			xasprintf(&sql, "INSERT INTO lane (rank, pid, tid, %s,"
			    " device) VALUES (?1, ?2, ?3, ?4, ?5)", field);
		if (store_load_prepare(s, &stmt, sql) != 0) {
			free(sql);
			return;
		}
		free(sql);
		store_load_bind_i64(stmt, 1, rank);
		sqlite3_bind_int64(stmt, 2, pid);
		store_load_bind_i64(stmt, 3, tid);
		if (strcmp(field, "sort_index") == 0)
			sqlite3_bind_int64(stmt, 4, strtoll(value, NULL, 10));
		else
			store_load_bind_str(stmt, 4, value);
		if (i == 1)
			store_load_bind_i64(stmt, 5, device);
		store_write(s, stmt);
		sqlite3_finalize(stmt);
		if (i == 0 && sqlite3_changes(s->db) > 0)
			return;
	}
}

/* Add one flow endpoint. */
void
store_trace_load_flow(struct store *s, const struct store_flow *f)
{
	sqlite3_stmt	*stmt;
	int		 i = 1;

	if ((stmt = store_trace_stmt(s, STMT_FLOW)) == NULL)
		return;
	store_load_bind_i64(stmt, i++, f->device);
	store_load_bind_i64(stmt, i++, f->rank);
	store_load_bind_i64(stmt, i++, store_load_intern(s, f->cat));
	store_load_bind_i64(stmt, i++, store_load_intern(s, f->name));
	store_load_bind_str(stmt, i++, f->id);
	store_load_bind_str(stmt, i++, f->phase);
	store_load_bind_i64(stmt, i++, f->pid);
	store_load_bind_i64(stmt, i++, f->tid);
	store_load_bind_i64(stmt, i++, f->ts_ns);
	store_load_bind_str(stmt, i++, f->bp);
	store_write(s, stmt);
	s->records++;
}

/* Add one counter sample. */
void
store_trace_load_counter(struct store *s, const struct store_counter *c)
{
	sqlite3_stmt	*stmt;
	int		 i = 1;

	if ((stmt = store_trace_stmt(s, STMT_COUNTER)) == NULL)
		return;
	store_load_bind_i64(stmt, i++, c->device);
	store_load_bind_i64(stmt, i++, c->rank);
	store_load_bind_i64(stmt, i++, c->pid);
	store_load_bind_i64(stmt, i++, c->tid);
	store_load_bind_i64(stmt, i++, store_load_intern(s, c->name));
	store_load_bind_i64(stmt, i++, store_load_intern(s, c->key));
	sqlite3_bind_int64(stmt, i++, c->ts_ns);
	sqlite3_bind_double(stmt, i++, c->value);
	store_write(s, stmt);
	s->records++;
}

/*
 * The row id of a task loaded earlier (from a CSV) that T describes: the
 * same start and rank, and stream, task, batch and context where the row
 * has them, and not yet linked; with BY_DEVICE (rows of traces, whose
 * devices are known, not a CSV's guess) the same device too. Return 0 if
 * there is none.
 */
int64_t
store_trace_load_task_find(struct store *s, const struct store_task *t,
    bool by_device)
{
	sqlite3_stmt	*stmt;
	int64_t		 id = 0;

	if ((stmt = store_trace_stmt(s, STMT_TASK_FIND)) == NULL)
		return 0;
	sqlite3_bind_int64(stmt, 1, t->start_ns);
	store_load_bind_i64(stmt, 2, by_device ? t->device : NP_NA);
	store_load_bind_i64(stmt, 3, t->rank);
	store_load_bind_i64(stmt, 4, t->stream);
	store_load_bind_i64(stmt, 5, t->task);
	store_load_bind_i64(stmt, 6, t->batch);
	store_load_bind_i64(stmt, 7, t->context);
	if (store_read(s, stmt))
		id = sqlite3_column_int64(stmt, 0);
	sqlite3_reset(stmt);
	return id;
}

/*
 * Link the task row ID to the trace event T: it takes T's connection id
 * and the keys the row left out.
 */
void
store_trace_load_task_link(struct store *s, int64_t id,
    const struct store_task *t)
{
	sqlite3_stmt	*stmt;
	int		 i = 1;

	if ((stmt = store_trace_stmt(s, STMT_TASK_LINK)) == NULL)
		return;
	sqlite3_bind_int64(stmt, i++, id);
	store_load_bind_i64(stmt, i++, t->conn);
	store_load_bind_i64(stmt, i++, t->device);
	store_load_bind_i64(stmt, i++, t->model_id);
	store_load_bind_i64(stmt, i++, t->stream);
	store_load_bind_i64(stmt, i++, t->task);
	store_load_bind_i64(stmt, i++, t->batch);
	store_load_bind_i64(stmt, i++, t->context);
	store_load_bind_i64(stmt, i++, store_load_intern(s, t->task_type));
	store_write(s, stmt);
	store_task_sum_stale(s);
	store_empty_stale(s);
}

/* How many task rows of rank RANK (NP_NA: unknown rank) are loaded. */
int64_t
store_trace_load_task_count(struct store *s, int64_t rank)
{
	sqlite3_stmt	*stmt;
	int64_t		 n = 0;

	if (store_load_prepare(s, &stmt, "SELECT count(*) FROM task WHERE rank"
	    " IS ?") != 0)
		return 0;
	store_load_bind_i64(stmt, 1, rank);
	if (store_read(s, stmt))
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

/* How many step rows of device DEVICE and rank RANK are loaded. */
int64_t
store_trace_load_step_count(struct store *s, int64_t device, int64_t rank)
{
	sqlite3_stmt	*stmt;
	int64_t		 n = 0;

	if (store_load_prepare(s, &stmt, "SELECT count(*) FROM step WHERE"
	    " device IS ?1 AND rank IS ?2") != 0)
		return 0;
	store_load_bind_i64(stmt, 1, device);
	store_load_bind_i64(stmt, 2, rank);
	if (store_read(s, stmt))
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

/*
 * Give the API spans of process PID (rank RANK) loaded without a level,
 * because they came before the metadata naming their process, LEVEL.
 */
void
store_trace_load_api_level(struct store *s, int64_t rank, int64_t pid,
    const char *level)
{
	sqlite3_stmt	*stmt;

	if (store_load_prepare(s, &stmt, "UPDATE api SET level = ?1 WHERE"
	    " level IS NULL AND pid = ?2 AND rank IS ?3") != 0)
		return;
	store_load_bind_i64(stmt, 1, store_load_intern(s, level));
	sqlite3_bind_int64(stmt, 2, pid);
	store_load_bind_i64(stmt, 3, rank);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	store_stats_api_stale(s);
}

/*
 * Point every task of rank RANK that has a connection id but no API at the
 * host span that launched it: the span of the same rank with the same
 * connection id.
 */
void
store_trace_load_api_link(struct store *s, int64_t rank)
{
	sqlite3_stmt	*stmt;

	store_load_exec(s, "CREATE INDEX IF NOT EXISTS api_conn ON"
	    " api(conn) WHERE conn IS NOT NULL");
	if (store_load_prepare(s, &stmt, "UPDATE task SET api = (SELECT a.id"
	    " FROM api a WHERE a.conn = task.conn AND a.rank IS task.rank"
	    " AND a.device = 64 ORDER BY a.id LIMIT 1) WHERE api IS NULL"
	    " AND conn IS NOT NULL AND rank IS ?1") != 0)
		return;
	store_load_bind_i64(stmt, 1, rank);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	store_empty_stale(s);
}

/*
 * Give the tasks of rank RANK that have no step yet step ITER when the
 * host span that launched them (or, for a task with none, the task itself)
 * starts within START..END.
 */
void
store_trace_load_task_step(struct store *s, int64_t rank, int64_t iter,
    int64_t start, int64_t end)
{
	sqlite3_stmt	*stmt;

	if (store_load_prepare(s, &stmt, "UPDATE task SET step = ?1 WHERE"
	    " step IS NULL AND rank IS ?2 AND coalesce((SELECT a.start_ns"
	    " FROM api a WHERE a.id = task.api), start_ns) BETWEEN ?3 AND"
	    " ?4") != 0)
		return;
	sqlite3_bind_int64(stmt, 1, iter);
	store_load_bind_i64(stmt, 2, rank);
	sqlite3_bind_int64(stmt, 3, start);
	sqlite3_bind_int64(stmt, 4, end);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	store_task_sum_stale(s);
	store_empty_stale(s);
}

/*
 * The flows and counters of process PID (rank RANK) are the host's: they
 * were loaded before the metadata said so, with a device read from the
 * pid.
 */
void
store_trace_load_trace_host(struct store *s, int64_t rank, int64_t pid)
{
	sqlite3_stmt	*stmt;
	const char	*sql[] = {
		"UPDATE flow SET device = 64 WHERE pid = ?1 AND rank IS ?2",
		"UPDATE counter SET device = 64 WHERE pid = ?1 AND rank IS ?2"
	};
	size_t		 i;

	for (i = 0; i < sizeof sql / sizeof *sql; i++) {
		if (store_load_prepare(s, &stmt, sql[i]) != 0)
			continue;
		sqlite3_bind_int64(stmt, 1, pid);
		store_load_bind_i64(stmt, 2, rank);
		store_write(s, stmt);
		sqlite3_finalize(stmt);
	}
}
