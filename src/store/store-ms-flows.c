/*
 * MindSpore's async_npu flows of a raw profile (doc/formats.md section
 * 3.12): from a MindSpore launch range to each device task launched
 * within it, as MindSpore's analysis draws them. A launch range is a
 * MindSpore span of some length whose name holds "KernelLaunch" or
 * "LaunchTask"; a task is launched at the time of its host task record
 * (task.launch_ns, where the vendor's host-to-device flow starts), on the
 * thread of the API that launched it. Per thread, the launches in time
 * order are swept against the ranges in start order: a launch belongs to
 * the first range not yet ended that holds it (ends included), so the
 * outer of two nested ranges; a launch before that range starts, or on a
 * thread with no range, gets no flow. MindSpore 2.3 takes ranges of any
 * length, and a launch up to a slack (1 ms) before the range's start;
 * its release candidates take every range of the thread, whatever its
 * name or length, without the slack.
 */
#include <stdio.h>
#include <stdlib.h>

#include "store-int.h"

/* A launch range of one thread. */
struct ms_range {
	int64_t	 tid;
	int64_t	 pid;
	int64_t	 start;
	int64_t	 end;
};

/*
 * Read RANK's launch ranges (of no length too if ANY, of any name too if
 * ALL) into *V.
 */
static int
store_ms_flows_ranges(struct store *s, int64_t rank, bool any, bool all,
    struct ms_range **v, size_t *n)
{
	sqlite3_stmt	*stmt;
	struct ms_range	*r;
	int		 rc;

	*v = NULL;
	*n = 0;
	if (store_load_prepare(s, &stmt, "SELECT a.tid, a.pid, a.start_ns,"
	    " a.end_ns FROM api a JOIN str l ON l.id = a.level JOIN str n"
	    " ON n.id = a.name WHERE l.s = 'MindSpore' AND a.rank IS ?1"
	    " AND a.tid IS NOT NULL"
	    " AND (a.end_ns > a.start_ns OR ?2) AND (?3"
	    " OR instr(n.s, 'KernelLaunch') > 0"
	    " OR instr(n.s, 'LaunchTask') > 0) ORDER BY a.tid, a.start_ns,"
	    " a.id") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int(stmt, 2, any);
	sqlite3_bind_int(stmt, 3, all);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		*v = util_grow(*v, *n, 1, sizeof **v);
		r = &(*v)[(*n)++];
		r->tid = sqlite3_column_int64(stmt, 0);
		r->pid = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 1);
		r->start = sqlite3_column_int64(stmt, 2);
		r->end = sqlite3_column_int64(stmt, 3);
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Write the two ends of the flow from range R to the task of STMT's row. */
static void
store_ms_flows_write(struct store *s, int64_t rank, const struct ms_range *r,
    sqlite3_stmt *stmt)
{
	struct store_flow	 f;
	char			 id[24];

	snprintf(id, sizeof id, "%lld", (long long)sqlite3_column_int64(stmt,
	    5));
	f.rank = rank;
	f.id = id;
	f.cat = "async_npu";
	f.name = "mindspore_to_npu";
	f.bp = "e";
	f.device = NP_HOST_DEVICE;
	f.pid = r->pid;
	f.tid = r->tid;
	f.ts_ns = r->start;
	f.phase = "s";
	store_trace_load_flow(s, &f);
	f.device = sqlite3_column_int64(stmt, 2);
	f.pid = NP_NA;
	f.tid = sqlite3_column_type(stmt, 3) == SQLITE_NULL ? NP_NA :
	    sqlite3_column_int64(stmt, 3);
	f.ts_ns = sqlite3_column_int64(stmt, 4);
	f.phase = "f";
	store_trace_load_flow(s, &f);
}

/*
 * Make RANK's async_npu flows from its MindSpore launch ranges to its
 * device tasks, a launch up to SLACK ns before a range's start in it,
 * ranges of no length taken if ANY (MindSpore 2.3's rule) and of any name
 * if ALL (its release candidates'); *MADE is how many, *MISSED how many
 * launched tasks found no range on their thread. On failure return -1 and
 * set *cause.
 */
int
store_ms_flows_load(struct store *s, int64_t rank, int64_t slack, bool any,
    bool all, int64_t *made, int64_t *missed, char **cause)
{
	struct ms_range	*v;
	sqlite3_stmt	*stmt;
	size_t		 n, i = 0;
	int64_t		 tid, at;
	int		 rc = SQLITE_ERROR;

	*made = *missed = 0;
	if (store_ms_flows_ranges(s, rank, any, all, &v, &n) != 0)
		goto out;
	if (n == 0)
		return 0;
	if (store_load_prepare(s, &stmt, "SELECT x.tid, t.launch_ns,"
	    " t.device, t.stream, t.start_ns, t.id FROM task t JOIN api x"
	    " ON x.id = t.api WHERE t.rank IS ?1 AND t.launch_ns IS NOT NULL"
	    " AND x.tid IS NOT NULL ORDER BY x.tid, t.launch_ns, t.start_ns,"
	    " t.id") != 0)
		goto out;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		tid = sqlite3_column_int64(stmt, 0);
		at = sqlite3_column_int64(stmt, 1);
		/* The ranges of this thread not yet ended. */
		while (i < n && (v[i].tid < tid || (v[i].tid == tid &&
		    v[i].end < at)))
			i++;
		if (i < n && v[i].tid == tid && v[i].start - slack <= at) {
			store_ms_flows_write(s, rank, &v[i], stmt);
			(*made)++;
		} else
			(*missed)++;
	}
	sqlite3_finalize(stmt);
out:
	free(v);
	if (rc == SQLITE_DONE)
		return 0;
	xasprintf(cause, "cannot make MindSpore's flows: %s",
	    sqlite3_errmsg(s->db));
	return -1;
}
