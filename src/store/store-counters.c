/*
 * Walking the counter tracks of a store for the timeline export: the
 * processes that hold counters, with the name, labels and sort index the
 * trace gave them, and the samples themselves in the order a trace writes
 * them (one event per process, thread, name and time, its keys in the
 * order they were read). Strings passed to a callback are borrowed for
 * that call only.
 */
#include <stddef.h>
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

/*
 * Prepare SELECT with Q's device, rank and window (samples in [from, to))
 * and then TAIL. NULL with *cause on failure.
 */
/* The columns of the two statements, as the structs they fill. */
static const struct store_iter_field store_counters_track_fields[] = {
	{ .kind = ITER_I64, .off = offsetof(struct store_track, rank) },
	{ .kind = ITER_I64, .off = offsetof(struct store_track, device) },
	{ .kind = ITER_I64, .off = offsetof(struct store_track, pid) },
	{ .kind = ITER_STR, .off = offsetof(struct store_track, process) },
	{ .kind = ITER_STR, .off = offsetof(struct store_track, labels) },
	{ .kind = ITER_I64, .off = offsetof(struct store_track, sort) }
};

static const struct store_iter_field store_counters_sample_fields[] = {
	{ .kind = ITER_I64, .off = offsetof(struct store_counter, device) },
	{ .kind = ITER_I64, .off = offsetof(struct store_counter, rank) },
	{ .kind = ITER_I64, .off = offsetof(struct store_counter, pid) },
	{ .kind = ITER_I64, .off = offsetof(struct store_counter, tid) },
	{ .kind = ITER_STR, .off = offsetof(struct store_counter, name) },
	{ .kind = ITER_STR, .off = offsetof(struct store_counter, key) },
	{ .kind = ITER_ID, .off = offsetof(struct store_counter, ts_ns) },
	{ .kind = ITER_REAL, .off = offsetof(struct store_counter, value) }
};

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
		store_iter_fill(stmt, 0, store_counters_track_fields,
		    sizeof store_counters_track_fields /
		    sizeof store_counters_track_fields[0], &t);
		ret = cb(arg, &t);
	}
	return store_iter_finish(s, stmt, rc, ret, "counters", cause);
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
		store_iter_fill(stmt, 0, store_counters_sample_fields,
		    sizeof store_counters_sample_fields /
		    sizeof store_counters_sample_fields[0], &c);
		ret = cb(arg, &c);
	}
	return store_iter_finish(s, stmt, rc, ret, "counters", cause);
}
