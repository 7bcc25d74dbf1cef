/*
 * Walking the store's big tables row by row for export: device tasks, API
 * spans, the flows that link a launching span to its device task, and the
 * distinct streams and threads the trace metadata names. Each walk runs one
 * query and calls the caller's function per row, so memory stays bounded
 * however many rows there are; strings passed to a callback are borrowed
 * for that call only.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define ITER_TASK_SQL							\
	"SELECT t.id, t.device, t.rank, t.model_id, t.stream, t.task,"	\
	" t.batch, t.context, t.start_ns, t.dur_ns, t.conn, t.api,"	\
	" n.s, o.s, ty.s FROM task t LEFT JOIN str n ON n.id = t.name"	\
	" LEFT JOIN str o ON o.id = t.op_type"				\
	" LEFT JOIN str ty ON ty.id = t.task_type"

#define ITER_API_SQL							\
	"SELECT a.id, a.device, a.rank, a.pid, a.tid, a.start_ns,"	\
	" a.end_ns, a.conn, a.depth, a.parent, l.s, n.s, a.args FROM api a"\
	" LEFT JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id = a.name"

/*
 * A task's launching span: the one its api column names, else the first
 * span of the same rank with the task's connection id.
 */
#define ITER_FLOW_SQL							\
	"SELECT t.id, t.rank, t.device, t.stream, t.start_ns,"		\
	" t.context, a.id, a.pid, a.tid, a.start_ns, l.s,"		\
	" coalesce(t.conn, a.conn) FROM task t JOIN api a"		\
	" ON a.id = coalesce(t.api, (SELECT min(b.id) FROM api b"	\
	" WHERE b.conn = t.conn AND b.rank IS t.rank))"			\
	" LEFT JOIN str l ON l.id = a.level"

struct store_iter_sql {
	struct strbuf	 b;
	int64_t		 binds[8];
	int		 nbinds;
};

static const struct store_iter_field store_iter_task_fields[] = {
	{ .kind = ITER_I64, .off = offsetof(struct store_task, device) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, rank) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, model_id) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, stream) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, task) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, batch) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, context) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, start_ns) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, dur_ns) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, conn) },
	{ .kind = ITER_I64, .off = offsetof(struct store_task, api) },
	{ .kind = ITER_STR, .off = offsetof(struct store_task, name) },
	{ .kind = ITER_STR, .off = offsetof(struct store_task, op_type) },
	{ .kind = ITER_STR, .off = offsetof(struct store_task, task_type) }
};

static const struct store_iter_field store_iter_api_fields[] = {
	{ .kind = ITER_I64, .off = offsetof(struct store_api, device) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, rank) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, pid) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, tid) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, start_ns) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, end_ns) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, conn) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, depth) },
	{ .kind = ITER_I64, .off = offsetof(struct store_api, parent) },
	{ .kind = ITER_STR, .off = offsetof(struct store_api, level) },
	{ .kind = ITER_STR, .off = offsetof(struct store_api, name) },
	{ .kind = ITER_STR, .off = offsetof(struct store_api, args) }
};

static const struct store_iter_field store_iter_link_fields[] = {
	{ .kind = ITER_ID, .off = offsetof(struct store_link, task_id) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, rank) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, device) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, stream) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, task_start_ns) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, context) },
	{ .kind = ITER_ID, .off = offsetof(struct store_link, api_id) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, pid) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, tid) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, api_start_ns) },
	{ .kind = ITER_STR, .off = offsetof(struct store_link, level) },
	{ .kind = ITER_I64, .off = offsetof(struct store_link, conn) }
};

int64_t
store_iter_i64(sqlite3_stmt *stmt, int i)
{
	if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, i);
}

const char *
store_iter_str(sqlite3_stmt *stmt, int i)
{
	return (const char *)sqlite3_column_text(stmt, i);
}

/* A copy of the text of column I, "" for NULL. */
char *
store_iter_dup(sqlite3_stmt *stmt, int i)
{
	const char	*t = (const char *)sqlite3_column_text(stmt, i);

	return xstrdup(t != NULL ? t : "");
}

/* Add " AND EXPR ?" with V bound to it. */
/* Fill OUT from the columns FIRST onwards of the current row of STMT. */
void
store_iter_fill(sqlite3_stmt *stmt, int first,
    const struct store_iter_field *fields, size_t n, void *out)
{
	char	*base = out;
	size_t	 i;
	int	 col;

	for (i = 0; i < n; i++) {
		col = first + (int)i;
		switch (fields[i].kind) {
		case ITER_I64:
			*(int64_t *)(base + fields[i].off) =
			    store_iter_i64(stmt, col);
			break;
		case ITER_ID:
			*(int64_t *)(base + fields[i].off) =
			    sqlite3_column_int64(stmt, col);
			break;
		case ITER_STR:
			*(const char **)(base + fields[i].off) =
			    store_iter_str(stmt, col);
			break;
		case ITER_REAL:
			*(double *)(base + fields[i].off) =
			    sqlite3_column_double(stmt, col);
			break;
		}
	}
}

static void
store_iter_bind(struct store_iter_sql *q, const char *expr, int64_t v)
{
	strbuf_addf(&q->b, " AND %s ?", expr);
	q->binds[q->nbinds++] = v;
}

/*
 * The WHERE clause of a task walk: device, rank, and tasks that overlap the
 * window (from_ns <= end and start < to_ns).
 */
static void
store_iter_task_where(struct store_iter_sql *sql, const struct store_query *q)
{
	strbuf_adds(&sql->b, " WHERE 1");
	if (q->device != NP_NA)
		store_iter_bind(sql, "t.device =", q->device);
	if (q->rank != NP_NA)
		store_iter_bind(sql, "t.rank =", q->rank);
	if (q->from_ns != NP_NA)
		store_iter_bind(sql, "t.start_ns + t.dur_ns >=", q->from_ns);
	if (q->to_ns != NP_NA)
		store_iter_bind(sql, "t.start_ns <", q->to_ns);
}

/* The same for spans: host spans stay whatever device is asked for. */
static void
store_iter_api_where(struct store_iter_sql *sql, const struct store_query *q,
    bool first)
{
	strbuf_adds(&sql->b, first ? " WHERE 1" : "");
	if (q->device != NP_NA) {
		strbuf_addf(&sql->b, " AND (a.device IS NULL OR a.device = %d"
		    " OR a.device = ?)", NP_HOST_DEVICE);
		sql->binds[sql->nbinds++] = q->device;
	}
	if (q->rank != NP_NA)
		store_iter_bind(sql, "a.rank =", q->rank);
	if (q->from_ns != NP_NA)
		store_iter_bind(sql, "a.end_ns >=", q->from_ns);
	if (q->to_ns != NP_NA)
		store_iter_bind(sql, "a.start_ns <", q->to_ns);
}

static sqlite3_stmt *
store_iter_prepare(struct store *s, struct store_iter_sql *sql, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 i;

	if (store_prepare(s, &stmt, sql->b.s, cause) != 0) {
		strbuf_release(&sql->b);
		return NULL;
	}
	strbuf_release(&sql->b);
	for (i = 0; i < sql->nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, sql->binds[i]);
	return stmt;
}

/* Finish a walk: the callback's stop value, or -1 on an SQL error. */
int
store_iter_finish(struct store *s, sqlite3_stmt *stmt, int rc, int ret,
    const char *what, char **cause)
{
	if (ret == 0 && rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read %s: %s", what,
		    sqlite3_errmsg(s->db));
		ret = -1;
	}
	sqlite3_finalize(stmt);
	return ret;
}

static void
store_iter_init(struct store_iter_sql *sql, const char *select)
{
	memset(sql, 0, sizeof *sql);
	strbuf_init(&sql->b);
	strbuf_adds(&sql->b, select);
}

/*
 * Call CB for every task Q selects (device, rank, time window), by device
 * and start time. Return 0, CB's non-zero value, or -1 with *cause set.
 */
int
store_iter_tasks(struct store *s, const struct store_query *q,
    store_task_cb cb, void *arg, char **cause)
{
	struct store_iter_sql	 sql;
	struct store_task	 t;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	store_iter_init(&sql, ITER_TASK_SQL);
	store_iter_task_where(&sql, q);
	strbuf_adds(&sql.b, " ORDER BY t.device, t.start_ns, t.id");
	if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		memset(&t, 0, sizeof t);
		store_iter_fill(stmt, 1, store_iter_task_fields,
		    sizeof store_iter_task_fields /
		    sizeof store_iter_task_fields[0], &t);
		ret = cb(arg, sqlite3_column_int64(stmt, 0), &t);
	}
	return store_iter_finish(s, stmt, rc, ret, "tasks", cause);
}

/*
 * Call CB for every API span Q selects, by thread and start time. Host
 * spans are kept whatever device Q names.
 */
int
store_iter_apis(struct store *s, const struct store_query *q,
    store_api_cb cb, void *arg, char **cause)
{
	struct store_iter_sql	 sql;
	struct store_api	 a;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	store_iter_init(&sql, ITER_API_SQL);
	store_iter_api_where(&sql, q, true);
	strbuf_adds(&sql.b, " ORDER BY a.tid, a.start_ns, a.id");
	if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		memset(&a, 0, sizeof a);
		store_iter_fill(stmt, 1, store_iter_api_fields,
		    sizeof store_iter_api_fields /
		    sizeof store_iter_api_fields[0], &a);
		ret = cb(arg, sqlite3_column_int64(stmt, 0), &a);
	}
	return store_iter_finish(s, stmt, rc, ret, "API spans", cause);
}

/*
 * Call CB for every task Q selects that has a launching span (by the
 * task's api column or its connection id), when both the task and the
 * span are in Q's window.
 */
int
store_iter_links(struct store *s, const struct store_query *q,
    store_link_cb cb, void *arg, char **cause)
{
	struct store_iter_sql	 sql;
	struct store_link	 f;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	store_iter_init(&sql, ITER_FLOW_SQL);
	store_iter_task_where(&sql, q);
	store_iter_api_where(&sql, q, false);
	strbuf_adds(&sql.b, " ORDER BY t.device, t.start_ns, t.id");
	if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		memset(&f, 0, sizeof f);
		store_iter_fill(stmt, 0, store_iter_link_fields,
		    sizeof store_iter_link_fields /
		    sizeof store_iter_link_fields[0], &f);
		ret = cb(arg, &f);
	}
	return store_iter_finish(s, stmt, rc, ret, "flows", cause);
}

/*
 * Call CB once per (rank, device, stream) that has tasks in Q, and then
 * once per (rank, level, thread, device) that has spans in Q; the level is
 * NULL for streams. This is what the trace's process and thread names
 * need.
 */
int
store_iter_lanes(struct store *s, const struct store_query *q,
    store_lane_cb cb, void *arg, char **cause)
{
	struct store_iter_sql	 sql;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	store_iter_init(&sql, "SELECT DISTINCT t.rank, t.device, t.stream"
	    " FROM task t");
	store_iter_task_where(&sql, q);
	strbuf_adds(&sql.b, " ORDER BY 1, 2, 3");
	if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ret = cb(arg, store_iter_i64(stmt, 0), store_iter_i64(stmt, 1),
		    store_iter_i64(stmt, 2), NULL, NULL);
	if ((ret = store_iter_finish(s, stmt, rc, ret, "streams", cause)) != 0)
		return ret;

	/* A lane's own name, where an importer gave it one. */
	store_iter_init(&sql, "SELECT DISTINCT a.rank, a.tid, l.s, a.device,"
	    " (SELECT n.name FROM lane n WHERE n.pid IS a.pid AND n.tid IS"
	    " a.tid AND n.rank IS a.rank LIMIT 1)"
	    " FROM api a LEFT JOIN str l ON l.id = a.level");
	store_iter_api_where(&sql, q, true);
	strbuf_adds(&sql.b, " ORDER BY 1, 3, 2, 4");
	if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		ret = cb(arg, store_iter_i64(stmt, 0), store_iter_i64(stmt, 3),
		    store_iter_i64(stmt, 1), store_iter_str(stmt, 2) != NULL ?
		    store_iter_str(stmt, 2) : "", store_iter_str(stmt, 4));
	return store_iter_finish(s, stmt, rc, ret, "threads", cause);
}

/*
 * Set *FIRST and *LAST to the earliest start and the latest end of the
 * tasks and spans of Q's device and rank (Q's window is ignored); both
 * NP_NA when there are none.
 */
int
store_iter_bounds(struct store *s, const struct store_query *q,
    int64_t *first, int64_t *last, char **cause)
{
	struct store_query	 all = *q;
	struct store_iter_sql	 sql;
	sqlite3_stmt		*stmt;
	int64_t			 v;
	int			 pass;

	all.from_ns = all.to_ns = NP_NA;
	*first = *last = NP_NA;
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0) {
			store_iter_init(&sql, "SELECT min(t.start_ns),"
			    " max(t.start_ns + t.dur_ns) FROM task t");
			store_iter_task_where(&sql, &all);
		} else {
			store_iter_init(&sql, "SELECT min(a.start_ns),"
			    " max(a.end_ns) FROM api a");
			store_iter_api_where(&sql, &all, true);
		}
		if ((stmt = store_iter_prepare(s, &sql, cause)) == NULL)
			return -1;
		if (sqlite3_step(stmt) == SQLITE_ROW) {
			v = store_iter_i64(stmt, 0);
			if (v != NP_NA && (*first == NP_NA || v < *first))
				*first = v;
			v = store_iter_i64(stmt, 1);
			if (v != NP_NA && (*last == NP_NA || v > *last))
				*last = v;
		}
		sqlite3_finalize(stmt);
	}
	return 0;
}

/*
 * True if the store has a table or view called NAME, so export can write
 * what only some importers provide (counters, markers) when it is there.
 */
bool
store_iter_exists(struct store *s, const char *name)
{
	return store_has_table(s, name);
}

/*
 * The distinct ranks with tasks, spans or statistics, ascending; NP_NA
 * stands for rows without a rank. The caller frees *RANKS.
 */
int
store_iter_ranks(struct store *s, int64_t **ranks, size_t *n, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	*ranks = NULL;
	*n = 0;
	if (store_prepare(s, &stmt, "SELECT rank FROM task UNION SELECT rank"
	    " FROM api UNION SELECT rank FROM op_stat UNION SELECT rank FROM"
	    " api_stat UNION SELECT rank FROM step ORDER BY 1", cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		*ranks = xreallocarray(*ranks, *n + 1, sizeof **ranks);
		(*ranks)[(*n)++] = store_iter_i64(stmt, 0);
	}
	return store_iter_finish(s, stmt, rc, 0, "ranks", cause);
}
