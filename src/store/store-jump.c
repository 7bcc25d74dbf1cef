/*
 * From a table row to the timeline: the task a row of op_summary names
 * (device, stream, task id and start), the timeline span of a task, and
 * the instances of an op type one after another, in start order, for the
 * table views' jump key and the timeline's n and N. The instances are
 * walked through the (op type, start) index, one seek per step. The
 * timeline's search walks the tasks whose name matches a regex the same
 * way, the regex tried once per distinct name.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/*
 * The row id of the task on DEVICE and STREAM with task id TASK starting
 * at START_NS, on RANK if it is not NP_NA, in *ID. Return 1 if found, 0
 * if not, -1 with *cause set on failure.
 */
int
store_jump_locate(struct store *s, int64_t device, int64_t rank,
    int64_t stream, int64_t task, int64_t start_ns, int64_t *id,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found;

	if (store_prepare(s, &stmt, "SELECT id FROM task WHERE device IS ?1"
	    " AND start_ns = ?2 AND stream IS ?3 AND task IS ?4 AND"
	    " (?5 IS NULL OR rank = ?5) ORDER BY rank, id LIMIT 1",
	    cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, device);
	sqlite3_bind_int64(stmt, 2, start_ns);
	store_load_bind_i64(stmt, 3, stream);
	store_load_bind_i64(stmt, 4, task);
	store_load_bind_i64(stmt, 5, rank);
	if ((found = sqlite3_step(stmt) == SQLITE_ROW))
		*id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return found;
}

/* Prepare SQL over the timeline tables, which an old store may lack. */
static int
store_jump_prepare(struct store *s, sqlite3_stmt **stmt, const char *sql,
    char **cause)
{
	if (store_timeline_ensure(s, cause) != 0)
		return -1;
	return store_prepare(s, stmt, sql, cause);
}

/*
 * Step STMT, whose rows give a lane, a start and a row id (NULL: any), and
 * put in *SP, unnamed, the first of their lanes' pieces that starts there
 * with that row id: several lanes may match what a row names (the marker
 * lanes of one thread id on two ranks). Return 1 if found, 0 if not, -1
 * with *cause set.
 */
static int
store_jump_read_span(struct store *s, sqlite3_stmt *stmt,
    struct store_span *sp, char **cause)
{
	struct store_pieces	 c;
	int			 found = 0;

	memset(sp, 0, sizeof *sp);
	while (found == 0 && sqlite3_step(stmt) == SQLITE_ROW) {
		store_pieces_init(&c, s, sqlite3_column_int64(stmt, 0));
		found = store_pieces_find(&c, sqlite3_column_int64(stmt, 1),
		    sqlite3_column_type(stmt, 2) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 2), cause);
		if (found == 1)
			store_pieces_span(&c, sp);
		store_pieces_release(&c);
	}
	return found;
}

/*
 * The timeline span of the task with row id ID in *SP, named. Return 1 if
 * found, 0 if not (no such task, or no timeline), -1 with *cause set.
 */
int
store_jump_task_span(struct store *s, int64_t id, struct store_span *sp,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found;

	if (store_jump_prepare(s, &stmt, "SELECT l.id, t.start_ns, t.id"
	    " FROM task t JOIN tl_lane l ON l.kind = 2"
	    " AND l.device IS t.device AND l.rank IS t.rank"
	    " AND l.stream IS t.stream WHERE t.id = ?", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, id);
	found = store_jump_read_span(s, stmt, sp, cause);
	sqlite3_finalize(stmt);
	if (found == 1)
		sp->name = store_jump_task_name(s, id);
	return found;
}

/*
 * The task after the one at START_NS with row id ID in start order (before
 * it with SPAN_PREV) whose name M matches, on DEVICE and RANK unless they
 * are NP_NA, in *OUT. Return 1 if found, 0 if not, -1 with *cause set.
 */
int
store_jump_search(struct store *s, struct matcher *m, int64_t device,
    int64_t rank, int64_t start_ns, int64_t id, enum store_span_dir dir,
    int64_t *out, char **cause)
{
	sqlite3_stmt	*stmt;
	char		*sql;
	int		 found, rc;
	bool		 next = dir == SPAN_NEXT;

	xasprintf(&sql, "SELECT t.id FROM task t WHERE (t.start_ns %s ?1 OR"
	    " (t.start_ns = ?1 AND t.id %s ?2)) AND (?3 IS NULL OR"
	    " t.device = ?3) AND (?4 IS NULL OR t.rank = ?4) AND"
	    " np_match(t.name, %d) ORDER BY t.start_ns %s, t.id %s LIMIT 1",
	    next ? ">" : "<", next ? ">" : "<", STORE_FMT_STRID,
	    next ? "" : "DESC", next ? "" : "DESC");
	store_register_match(s, m);
	found = store_prepare(s, &stmt, sql, cause);
	free(sql);
	if (found != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, start_ns);
	sqlite3_bind_int64(stmt, 2, id);
	store_load_bind_i64(stmt, 3, device);
	store_load_bind_i64(stmt, 4, rank);
	if ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		*out = sqlite3_column_int64(stmt, 0);
	/* Not "not found": a regex PCRE2 gave up on ends the query. */
	else if (rc != SQLITE_DONE)
		xasprintf(cause, "%s", sqlite3_errmsg(s->db));
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The timeline span of step ITER of DEVICE (on RANK unless NP_NA) in *SP,
 * named "Step ITER": of the lowest rank's, the earliest (a rank has one
 * per model). Return 1 if found, 0 if not, -1 with *cause set.
 */
int
store_jump_step_span(struct store *s, int64_t device, int64_t rank,
    int64_t iter, struct store_span *sp, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found;

	if (store_jump_prepare(s, &stmt, "SELECT l.id, st.iter_end_ns -"
	    " st.iter_time_ns, st.rowid FROM step st JOIN tl_lane l ON"
	    " l.kind = 1 AND l.device IS st.device AND l.rank IS st.rank"
	    " WHERE st.device IS ?1 AND (?2 IS NULL OR st.rank = ?2)"
	    " AND st.iter = ?3 AND st.iter_end_ns IS NOT NULL AND"
	    " st.iter_time_ns IS NOT NULL ORDER BY st.rank, 2, st.rowid"
	    " LIMIT 1",
	    cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, device);
	store_load_bind_i64(stmt, 2, rank);
	sqlite3_bind_int64(stmt, 3, iter);
	if ((found = store_jump_read_span(s, stmt, sp, cause)) == 1)
		xasprintf(&sp->name, "Step %lld", (long long)iter);
	sqlite3_finalize(stmt);
	return found;
}

/*
 * The timeline span of the mstx marker or range of thread TID of process
 * PID starting at START_NS, on that thread's marker lane, in *SP, named
 * NAME. Return 1 if found, 0 if not, -1 with *cause set.
 */
int
store_jump_marker_span(struct store *s, int64_t pid, int64_t tid,
    int64_t start_ns, const char *name, struct store_span *sp, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found;

	if (store_jump_prepare(s, &stmt, "SELECT l.id, ?3, NULL FROM tl_lane l"
	    " WHERE l.kind = 0 AND l.depth = -1 AND l.pid IS ?1 AND l.tid IS"
	    " ?2 ORDER BY l.rank, l.device", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, pid);
	store_load_bind_i64(stmt, 2, tid);
	sqlite3_bind_int64(stmt, 3, start_ns);
	if ((found = store_jump_read_span(s, stmt, sp, cause)) == 1 &&
	    name != NULL)
		sp->name = xstrdup(name);
	sqlite3_finalize(stmt);
	return found;
}

/* The name of task ID, or NULL. */
char *
store_jump_task_name(struct store *s, int64_t id)
{
	sqlite3_stmt	*stmt;
	char		*name = NULL;

	if (sqlite3_prepare_v2(s->db, "SELECT n.s FROM task t JOIN str n"
	    " ON n.id = t.name WHERE t.id = ?", -1, &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(stmt, 1, id);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_text(stmt, 0) != NULL)
		name = xstrdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return name;
}

/*
 * Bind what the instance queries share: ?1 the op type, ?2 the core type
 * (NULL: any), ?3 the device, ?4 the rank, and starts in [LO, HI) as ?5
 * and ?6.
 */
static void
store_jump_bind(sqlite3_stmt *stmt, const struct store_op_instances *q,
    int64_t lo, int64_t hi)
{
	sqlite3_bind_text(stmt, 1, q->op_type, -1, SQLITE_STATIC);
	if (q->core_type != NULL)
		sqlite3_bind_text(stmt, 2, q->core_type, -1, SQLITE_STATIC);
	store_load_bind_i64(stmt, 3, q->device);
	store_load_bind_i64(stmt, 4, q->rank);
	sqlite3_bind_int64(stmt, 5, lo);
	sqlite3_bind_int64(stmt, 6, hi);
}

/*
 * The instance of Q's op type after (SPAN_NEXT) or before (SPAN_PREV) the
 * task with row id AFTER_ID starting at AFTER_NS, in start order; with
 * AFTER_ID 0, the first (or last). Its row id and start go to *ID and
 * *START. Return 1 if there is one, 0 if not, -1 with *cause set.
 */
int
store_jump_op_instance(struct store *s, const struct store_op_instances *q,
    int64_t after_ns, int64_t after_id, enum store_span_dir dir,
    int64_t *id, int64_t *start, char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 lo, hi;
	int		 found;

	lo = q->from_ns != NP_NA ? q->from_ns : INT64_MIN;
	hi = q->to_ns != NP_NA ? q->to_ns : INT64_MAX;
	/* The index range starts (or ends) at the instance we are on. */
	if (after_id == 0) {
		after_ns = dir == SPAN_NEXT ? INT64_MIN : INT64_MAX;
		after_id = dir == SPAN_NEXT ? INT64_MIN : INT64_MAX;
	} else if (dir == SPAN_NEXT && after_ns > lo)
		lo = after_ns;
	else if (dir == SPAN_PREV && after_ns < hi)
		hi = after_ns + 1;
	if (store_prepare(s, &stmt, dir == SPAN_NEXT ? "SELECT t.id,"
	    " t.start_ns FROM task t WHERE t.op_type = (SELECT id FROM str"
	    " WHERE s = ?1) AND (?2 IS NULL OR t.task_type = (SELECT id FROM"
	    " str WHERE s = ?2)) AND (?3 IS NULL OR t.device = ?3) AND"
	    " (?4 IS NULL OR t.rank = ?4) AND t.start_ns >= ?5 AND"
	    " t.start_ns < ?6 AND (t.start_ns > ?7 OR t.id > ?8)"
	    " ORDER BY t.start_ns, t.id LIMIT 1" : "SELECT t.id, t.start_ns"
	    " FROM task t WHERE t.op_type = (SELECT id FROM str WHERE s = ?1)"
	    " AND (?2 IS NULL OR t.task_type = (SELECT id FROM str WHERE"
	    " s = ?2)) AND (?3 IS NULL OR t.device = ?3) AND (?4 IS NULL OR"
	    " t.rank = ?4) AND t.start_ns >= ?5 AND t.start_ns < ?6 AND"
	    " (t.start_ns < ?7 OR t.id < ?8)"
	    " ORDER BY t.start_ns DESC, t.id DESC LIMIT 1", cause) != 0)
		return -1;
	store_jump_bind(stmt, q, lo, hi);
	sqlite3_bind_int64(stmt, 7, after_ns);
	sqlite3_bind_int64(stmt, 8, after_id);
	if ((found = sqlite3_step(stmt) == SQLITE_ROW)) {
		*id = sqlite3_column_int64(stmt, 0);
		*start = sqlite3_column_int64(stmt, 1);
	}
	sqlite3_finalize(stmt);
	return found;
}

/* How many tasks Q walks, or -1 with *cause set. */
int64_t
store_jump_op_count(struct store *s, const struct store_op_instances *q,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 n = -1;

	if (store_prepare(s, &stmt, "SELECT count(*) FROM task t WHERE"
	    " t.op_type = (SELECT id FROM str WHERE s = ?1) AND (?2 IS NULL"
	    " OR t.task_type = (SELECT id FROM str WHERE s = ?2)) AND"
	    " (?3 IS NULL OR t.device = ?3) AND (?4 IS NULL OR t.rank = ?4)"
	    " AND t.start_ns >= ?5 AND t.start_ns < ?6", cause) != 0)
		return -1;
	store_jump_bind(stmt, q, q->from_ns != NP_NA ? q->from_ns : INT64_MIN,
	    q->to_ns != NP_NA ? q->to_ns : INT64_MAX);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	else
		xasprintf(cause, "cannot count the instances: %s",
		    sqlite3_errmsg(s->db));
	sqlite3_finalize(stmt);
	return n;
}
