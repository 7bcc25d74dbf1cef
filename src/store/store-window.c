/*
 * The op statistic of a time window, for the timeline's selected range:
 * the device tasks starting in [from, to) grouped by (device, rank, op
 * type, core type) with one SQL aggregate, by the vendor's rules that
 * store-stats.c follows for the whole run (doc/formats.md section 8): the same
 * core types left out, the integer average, the ratio of the device's and
 * rank's total rounded to 6 decimals, printed as op_statistic prints.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define WINDOW_SQL							\
	"SELECT device, rank, op, core, n, total, mn, total / n, mx,"	\
	" " STORE_OP_STAT_RATIO_SQL("total", "device, rank")		\
	" AS ratio FROM (SELECT t.device AS device,"			\
	" t.rank AS rank, o.s AS op, c.s AS core, count(*) AS n,"	\
	" sum(t.dur_ns) AS total, min(t.dur_ns) AS mn,"			\
	" max(t.dur_ns) AS mx FROM task t JOIN str o ON o.id = t.op_type"\
	" JOIN str c ON c.id = t.task_type WHERE %s t.start_ns >= ?1"	\
	" AND t.start_ns < ?2 AND (?3 IS NULL OR t.device = ?3)"	\
	" AND (?4 IS NULL OR t.rank = ?4) AND " STORE_OP_STAT_KEEP_SQL	\
	" GROUP BY t.device, t.rank, t.op_type, t.task_type)"		\
	" ORDER BY device, rank, total DESC, op, core"

static const struct {
	const char	*name;
	int		 col;		/* in WINDOW_SQL's result */
	enum store_fmt	 fmt;
} store_window_cols[] = {
	{ "Device_id", 0, FMT_DEVICE },
	{ "OP Type", 2, FMT_TEXT },
	{ "Core Type", 3, FMT_TEXT },
	{ "Count", 4, FMT_INT },
	{ "Total Time(us)", 5, FMT_US },
	{ "Min Time(us)", 6, FMT_US },
	{ "Avg Time(us)", 7, FMT_US },
	{ "Max Time(us)", 8, FMT_US },
	{ "Ratio(%)", 9, FMT_REAL3 }
};

#define WINDOW_NCOLS	(sizeof store_window_cols / sizeof store_window_cols[0])

/*
 * The tasks' devices as "t.device IN (...) AND", so that the window is
 * found through the (device, start) index rather than by a pass over
 * every task; empty if a device is unknown.
 */
static void
store_window_devices(struct store *s, struct strbuf *sb)
{
	sqlite3_stmt	*stmt;
	int64_t		*ids;
	size_t		 n, i;
	char		*cause = NULL;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM task WHERE device IS"
	    " NULL LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
		return;
	i = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	if (i != 0 || store_query_devices(s, &ids, &n, &cause) != 0 || n == 0) {
		free(cause);
		return;
	}
	strbuf_adds(sb, "t.device IN (");
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%lld", i > 0 ? ", " : "", (long long)ids[i]);
	strbuf_adds(sb, ") AND");
	free(ids);
}

/*
 * The op statistic of the tasks starting in [FROM, TO) on DEVICE and RANK
 * (NP_NA for all), with op_statistic's columns. The caller frees the
 * rows. On failure return NULL and set *cause.
 */
struct store_rows *
store_window_op_stat(struct store *s, int64_t from, int64_t to,
    int64_t device, int64_t rank, char **cause)
{
	struct store_rows	*r;
	struct strbuf		 dev;
	sqlite3_stmt		*stmt;
	char			*sql, *cells[WINDOW_NCOLS];
	struct store_val	 vals[WINDOW_NCOLS];
	size_t			 i;
	int			 rc;

	strbuf_init(&dev);
	store_window_devices(s, &dev);
	xasprintf(&sql, WINDOW_SQL, dev.s != NULL ? dev.s : "");
	strbuf_release(&dev);
	rc = store_prepare(s, &stmt, sql, cause);
	free(sql);
	if (rc != 0)
		return NULL;
	sqlite3_bind_int64(stmt, 1, from);
	sqlite3_bind_int64(stmt, 2, to);
	store_load_bind_i64(stmt, 3, device);
	store_load_bind_i64(stmt, 4, rank);
	r = store_rows_create(WINDOW_NCOLS);
	for (i = 0; i < WINDOW_NCOLS; i++) {
		r->names[i] = xstrdup(store_window_cols[i].name);
		r->fmts[i] = store_window_cols[i].fmt;
	}
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (i = 0; i < WINDOW_NCOLS; i++) {
			cells[i] = store_fmt_dup(sqlite3_column_value(stmt,
			    store_window_cols[i].col), store_window_cols[i].fmt,
			    &vals[i]);
		}
		store_rows_add(r, cells, vals);
	}
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot compute the op statistic of the "
		    "window: %s", sqlite3_errmsg(s->db));
		store_rows_free(r);
		r = NULL;
	}
	sqlite3_finalize(stmt);
	return r;
}
