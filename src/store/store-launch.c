/*
 * The host side of one device task, for the UI's task detail: the API span
 * that launched it (the span its api column names, else the first span of
 * its rank with its connection id, as the timeline export links them),
 * then the spans that enclose that one, through their parent column.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* How many enclosing spans are followed at most. */
#define LAUNCH_DEPTH	16

#define LAUNCH_SQL							\
	"SELECT coalesce(t.api, (SELECT min(b.id) FROM api b"		\
	" WHERE b.conn = t.conn AND b.rank IS t.rank)) FROM task t"	\
	" WHERE t.id = ?"

#define LAUNCH_SPAN_SQL							\
	"SELECT l.s, n.s, a.pid, a.tid, a.start_ns, a.end_ns - a.start_ns,"\
	" a.parent FROM api a LEFT JOIN str l ON l.id = a.level"	\
	" LEFT JOIN str n ON n.id = a.name WHERE a.id = ?"

static const struct store_col store_launch_cols[] = {
	{ .name = "Level", .fmt = FMT_TEXT },
	{ .name = "Name", .fmt = FMT_TEXT },
	{ .name = "PID", .fmt = FMT_INT },
	{ .name = "TID", .fmt = FMT_INT },
	{ .name = "Start(us)", .fmt = FMT_US3 },
	{ .name = "Duration(us)", .fmt = FMT_US3 }
};

#define LAUNCH_NCOLS	(sizeof store_launch_cols / sizeof store_launch_cols[0])

/* The row id of the span that launched task TASK, or 0 if none. */
static int64_t
store_launch_span(struct store *s, int64_t task, char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 id = 0;

	if (store_prepare(s, &stmt, LAUNCH_SQL, cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, task);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return id;
}

/* Add span ID to R; return its parent's row id, or 0. */
static int64_t
store_launch_add(sqlite3_stmt *stmt, int64_t id, struct store_rows *r)
{
	char		*cells[LAUNCH_NCOLS];
	struct store_val vals[LAUNCH_NCOLS];
	int64_t		 parent = 0;
	size_t		 i;

	sqlite3_bind_int64(stmt, 1, id);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		for (i = 0; i < LAUNCH_NCOLS; i++) {
			cells[i] = store_fmt_dup(sqlite3_column_value(stmt,
			    (int)i), store_launch_cols[i].fmt, &vals[i]);
		}
		store_rows_add(r, cells, vals);
		if (sqlite3_column_type(stmt, 6) != SQLITE_NULL)
			parent = sqlite3_column_int64(stmt, 6);
	}
	sqlite3_reset(stmt);
	return parent;
}

/*
 * The span that launched task row TASK, then the spans enclosing it,
 * innermost first: level, name, process, thread, start and duration. No
 * rows if the task has no known launcher; NULL with *cause set on an SQL
 * error.
 */
struct store_rows *
store_launch_task(struct store *s, int64_t task, char **cause)
{
	struct store_rows	*r;
	sqlite3_stmt		*stmt;
	int64_t			 id;
	size_t			 i;

	if ((id = store_launch_span(s, task, cause)) < 0 ||
	    store_prepare(s, &stmt, LAUNCH_SPAN_SQL, cause) != 0)
		return NULL;
	r = store_rows_create(LAUNCH_NCOLS);
	for (i = 0; i < LAUNCH_NCOLS; i++) {
		r->names[i] = xstrdup(store_launch_cols[i].name);
		r->fmts[i] = store_launch_cols[i].fmt;
	}
	for (i = 0; i < LAUNCH_DEPTH && id > 0; i++)
		id = store_launch_add(stmt, id, r);
	sqlite3_finalize(stmt);
	return r;
}
