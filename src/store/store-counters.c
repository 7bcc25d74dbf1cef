/*
 * Walking the counter tracks of a store for the timeline export: the
 * processes that hold counters, with the name, labels and sort index the
 * trace gave them, and the samples themselves in the order a trace writes
 * them (one event per process, thread, name and time, its keys in the
 * order they were read). Strings passed to a callback are borrowed for
 * that call only.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define COUNTERS_TRACK_SQL						\
	"SELECT c.rank, c.device, c.pid, (SELECT l.name FROM lane l"	\
	" WHERE l.pid = c.pid AND l.tid IS NULL AND l.rank IS c.rank),"	\
	" (SELECT l.labels FROM lane l WHERE l.pid = c.pid AND l.tid IS"\
	" NULL AND l.rank IS c.rank), (SELECT l.sort_index FROM lane l"	\
	" WHERE l.pid = c.pid AND l.tid IS NULL AND l.rank IS c.rank)"	\
	" FROM (SELECT DISTINCT rank, device, pid FROM counter c"

#define COUNTERS_SQL							\
	"SELECT c.device, c.rank, c.pid, c.tid, n.s, k.s, c.ts_ns,"	\
	" c.value FROM counter c LEFT JOIN str n ON n.id = c.name"	\
	" LEFT JOIN str k ON k.id = c.key"

static int64_t
store_counters_i64(sqlite3_stmt *stmt, int i)
{
	if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, i);
}

/*
 * Prepare SELECT with Q's device, rank and window (samples in [from, to))
 * and then TAIL. NULL with *cause on failure.
 */
static sqlite3_stmt *
store_counters_prepare(struct store *s, const char *select, const char *tail,
    const struct store_query *q, char **cause)
{
	struct strbuf	 b;
	sqlite3_stmt	*stmt;
	int64_t		 binds[4];
	int		 n = 0, i;

	strbuf_init(&b);
	strbuf_addf(&b, "%s WHERE 1", select);
	if (q->device != NP_NA) {
		strbuf_adds(&b, " AND c.device = ?");
		binds[n++] = q->device;
	}
	if (q->rank != NP_NA) {
		strbuf_adds(&b, " AND c.rank = ?");
		binds[n++] = q->rank;
	}
	if (q->from_ns != NP_NA) {
		strbuf_adds(&b, " AND c.ts_ns >= ?");
		binds[n++] = q->from_ns;
	}
	if (q->to_ns != NP_NA) {
		strbuf_adds(&b, " AND c.ts_ns < ?");
		binds[n++] = q->to_ns;
	}
	strbuf_adds(&b, tail);
	if (store_prepare(s, &stmt, b.s, cause) != 0)
		stmt = NULL;
	for (i = 0; stmt != NULL && i < n; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	strbuf_release(&b);
	return stmt;
}

static int
store_counters_finish(struct store *s, sqlite3_stmt *stmt, int rc, int ret,
    char **cause)
{
	if (ret == 0 && rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read counters: %s",
		    sqlite3_errmsg(s->db));
		ret = -1;
	}
	sqlite3_finalize(stmt);
	return ret;
}

/*
 * Call CB for every process that has counter samples Q selects, by rank
 * and pid. A non-zero return of CB stops the walk and is returned; on an
 * SQL error return -1 and set *cause.
 */
int
store_counters_tracks(struct store *s, const struct store_query *q,
    store_track_cb cb, void *arg, char **cause)
{
	struct store_track	 t;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	if (!store_has_table(s, "counter"))
		return 0;
	if ((stmt = store_counters_prepare(s, COUNTERS_TRACK_SQL,
	    ") c ORDER BY 1, 3", q, cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		t.rank = store_counters_i64(stmt, 0);
		t.device = store_counters_i64(stmt, 1);
		t.pid = store_counters_i64(stmt, 2);
		t.process = (const char *)sqlite3_column_text(stmt, 3);
		t.labels = (const char *)sqlite3_column_text(stmt, 4);
		t.sort = store_counters_i64(stmt, 5);
		ret = cb(arg, &t);
	}
	return store_counters_finish(s, stmt, rc, ret, cause);
}

/*
 * Call CB for every counter sample Q selects, ordered by rank, pid, tid,
 * name, time and then as read. Stops and returns as store_counters_tracks().
 */
int
store_counters_each(struct store *s, const struct store_query *q,
    store_counter_cb cb, void *arg, char **cause)
{
	struct store_counter	 c;
	sqlite3_stmt		*stmt;
	int			 rc = SQLITE_DONE, ret = 0;

	if (!store_has_table(s, "counter"))
		return 0;
	if ((stmt = store_counters_prepare(s, COUNTERS_SQL, " ORDER BY"
	    " c.rank, c.pid, c.tid, c.name, c.ts_ns, c.rowid", q,
	    cause)) == NULL)
		return -1;
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		c.device = store_counters_i64(stmt, 0);
		c.rank = store_counters_i64(stmt, 1);
		c.pid = store_counters_i64(stmt, 2);
		c.tid = store_counters_i64(stmt, 3);
		c.name = (const char *)sqlite3_column_text(stmt, 4);
		c.key = (const char *)sqlite3_column_text(stmt, 5);
		c.ts_ns = sqlite3_column_int64(stmt, 6);
		c.value = sqlite3_column_double(stmt, 7);
		ret = cb(arg, &c);
	}
	return store_counters_finish(s, stmt, rc, ret, cause);
}
