/*
 * Span nesting: every API span loaded without a depth (chrome traces, the
 * vendor's databases, legacy JOBs) gets its depth and the row id of its
 * parent, the innermost span of the same thread that holds it, as the raw
 * PROF path records them while it decodes. Host spans of one rank nest by
 * thread id alone: a chrome trace puts one thread's Python and CANN spans
 * in different pseudo-processes, and a Python op does hold the CANN calls
 * it makes. Device spans (HCCL planes, hardware streams) nest within their
 * own process and thread. Ties go as the stacks walk breaks them: the
 * earlier start, then the longer span, then the lower row id is outside.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define NEST_KEYS	5

/* One span still open on the thread being nested. */
struct nest_open {
	int64_t	 id;
	int64_t	 end;
};

static int64_t
store_nest_i64(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, col);
}

/*
 * Set depth and parent of the spans that have none, thread by thread. On
 * failure return -1 and set *cause.
 */
int
store_nest_spans(struct store *s, char **cause)
{
	sqlite3_stmt		*sel, *upd;
	struct nest_open	*open = NULL;
	size_t			 n = 0, size = 0;
	int64_t			 key[NEST_KEYS], last[NEST_KEYS], id, end;
	bool			 first = true;
	int			 rc, i;

	if (store_prepare(s, &sel, "SELECT rank, device = 64,"
	    " CASE WHEN device = 64 THEN NULL ELSE device END,"
	    " CASE WHEN device = 64 THEN NULL ELSE pid END, tid, id, end_ns"
	    " FROM api WHERE depth IS NULL ORDER BY 1, 2, 3, 4, 5, start_ns,"
	    " end_ns DESC, id", cause) != 0)
		return -1;
	if (store_prepare(s, &upd, "UPDATE api SET depth = ?2, parent = ?3"
	    " WHERE id = ?1", cause) != 0) {
		sqlite3_finalize(sel);
		return -1;
	}
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		for (i = 0; i < NEST_KEYS; i++)
			key[i] = store_nest_i64(sel, i);
		if (first || memcmp(key, last, sizeof key) != 0)
			n = 0;
		memcpy(last, key, sizeof last);
		first = false;
		id = sqlite3_column_int64(sel, 5);
		end = sqlite3_column_int64(sel, 6);
		while (n > 0 && open[n - 1].end < end)
			n--;
		sqlite3_bind_int64(upd, 1, id);
		sqlite3_bind_int64(upd, 2, (int64_t)n);
		store_bind_i64(upd, 3, n > 0 ? open[n - 1].id : NP_NA);
		sqlite3_step(upd);
		sqlite3_reset(upd);
		if (n == size) {
			size = size == 0 ? 64 : size * 2;
			open = xreallocarray(open, size, sizeof *open);
		}
		open[n].id = id;
		open[n++].end = end;
	}
	free(open);
	sqlite3_finalize(upd);
	sqlite3_finalize(sel);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot nest spans: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}
