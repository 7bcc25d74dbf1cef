/*
 * The op statistic of a time window, for the timeline's selected range:
 * the device tasks starting in [from, to) grouped by (device, rank, op
 * type, core type) with one SQL aggregate, by the vendor's rules that
 * store-stats.c follows for the whole run (doc/formats.md section 8): the same
 * core types left out, the integer average, the ratio of the device's and
 * rank's total rounded to 6 decimals, printed as op_statistic prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/*
 * The groups of the tasks starting in [?1, ?2) on device ?3 and rank ?4
 * (NULL: all) with step id ?5 (NULL: any), in op_statistic's columns; %s
 * is the devices' IN list (store_window_devices), %s the average: floored
 * as msprof, or rounded as torch_npu when the store says so.
 */
#define WINDOW_SQL							\
	"SELECT device, rank, op AS op_type, core AS core_type,"	\
	" n AS count, total AS total_ns, mn AS min_ns, %s AS avg_ns,"	\
	" mx AS max_ns, "						\
	STORE_OP_STAT_RATIO_SQL("total", "device, rank")		\
	" AS ratio FROM (SELECT t.device AS device,"			\
	" t.rank AS rank, o.s AS op, c.s AS core, count(*) AS n,"	\
	" sum(t.dur_ns) AS total, min(t.dur_ns) AS mn,"			\
	" max(t.dur_ns) AS mx FROM task t JOIN str o ON o.id = t.op_type"\
	" JOIN str c ON c.id = t.task_type WHERE %s t.start_ns >= ?1"	\
	" AND t.start_ns < ?2 AND (?3 IS NULL OR t.device = ?3)"	\
	" AND (?4 IS NULL OR t.rank = ?4) AND (?5 IS NULL OR"		\
	" t.step = ?5) AND " STORE_OP_STAT_KEEP_SQL			\
	" GROUP BY t.device, t.rank, t.op_type, t.task_type)"		\
	" ORDER BY device, rank, total DESC, op, core"

#define WINDOW_AVG_FLOOR	"total / n"
#define WINDOW_AVG_ROUND	"(2 * total + n) / (2 * n)"

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
void
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

/* WINDOW_SQL for this store: its devices and its kind of average. */
static char *
store_window_sql(struct store *s)
{
	struct strbuf	 dev;
	char		*avg = NULL, *sql;

	strbuf_init(&dev);
	store_window_devices(s, &dev);
	if (store_meta_get(s, "stats.average", &avg) != 0)
		avg = NULL;
	xasprintf(&sql, WINDOW_SQL, avg != NULL && strncmp(avg, "rounded",
	    7) == 0 ? WINDOW_AVG_ROUND : WINDOW_AVG_FLOOR, dev.s != NULL ?
	    dev.s : "");
	free(avg);
	strbuf_release(&dev);
	return sql;
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
	sqlite3_stmt		*stmt;
	char			*sql, *cells[WINDOW_NCOLS];
	struct store_val	 vals[WINDOW_NCOLS];
	size_t			 i;
	int			 rc;

	sql = store_window_sql(s);
	rc = store_prepare(s, &stmt, sql, cause);
	free(sql);
	if (rc != 0)
		return NULL;
	sqlite3_bind_int64(stmt, 1, from);
	sqlite3_bind_int64(stmt, 2, to);
	store_load_bind_i64(stmt, 3, device);
	store_load_bind_i64(stmt, 4, rank);
	sqlite3_bind_null(stmt, 5);
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

/* The lowest step S has (of its step table or its tasks' sums), or NP_NA. */
int64_t
store_window_first_step(struct store *s)
{
	sqlite3_stmt	*stmt;
	int64_t		 step = NP_NA;

	if (store_prepare(s, &stmt, "SELECT min(v) FROM (SELECT min(iter) v"
	    " FROM step UNION ALL SELECT min(step) FROM task_sum)", NULL) != 0)
		return NP_NA;
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER)
		step = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return step;
}

/* The ranks that have step ITER on DEVICE (NP_NA: all). */
static int64_t
store_window_ranks(struct store *s, int64_t iter, int64_t device)
{
	sqlite3_stmt	*stmt;
	int64_t		 n = 0;

	if (store_prepare(s, &stmt, "SELECT count(DISTINCT rank) FROM"
	    " (SELECT rank FROM step WHERE iter = ?1 AND (?2 IS NULL OR"
	    " device = ?2) UNION ALL SELECT rank FROM task_sum WHERE step ="
	    " ?1 AND (?2 IS NULL OR device = ?2))", NULL) != 0)
		return 0;
	sqlite3_bind_int64(stmt, 1, iter);
	store_load_bind_i64(stmt, 2, device);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

/*
 * 0 if rows kept by the interval of step W are right, else -1 with
 * *cause: each rank runs a step in an interval of its own (on its own
 * clock), so one window over several ranks would keep other steps' rows
 * of each. Rows kept by their step id need no interval.
 */
int
store_window_one_rank(const struct store_window *w, char **cause)
{
	if (w->rank != NP_NA || w->ranks < 2)
		return 0;
	xasprintf(cause, "step %lld is on %lld ranks, each in an interval of "
	    "its own: choose one rank (--rank N; r in the terminal UI)",
	    (long long)w->iter, (long long)w->ranks);
	return -1;
}

/*
 * The window of step ITER on DEVICE and RANK (NP_NA: all) into *W: the
 * step's interval in the step table, else the span of the tasks with that
 * step id; W->step is ITER when the tasks carry step ids, which a filter
 * then keeps exactly, whatever their time (the window then holds both
 * intervals). Return 1, 0 if the profile has no such step, or -1 with
 * *cause.
 */
int
store_window_step(struct store *s, int64_t iter, int64_t device,
    int64_t rank, struct store_window *w, char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 from, to;
	int		 found = 0;

	w->iter = iter;
	w->step = NP_NA;
	w->device = device;
	w->rank = rank;
	w->ranks = rank == NP_NA ? store_window_ranks(s, iter, device) : 1;
	/* The task sums answer at once; the tasks need a pass over all. */
	if (store_prepare(s, &stmt, store_exists(s, "SELECT 1 FROM task_sum"
	    " LIMIT 1") ? "SELECT MIN(start_ns), MAX(end_ns) FROM task_sum"
	    " WHERE step = ?1 AND (?2 IS NULL OR device = ?2) AND (?3 IS NULL"
	    " OR rank = ?3)" : "SELECT MIN(start_ns), MAX(start_ns +"
	    " dur_ns) FROM task WHERE step = ?1 AND (?2 IS NULL OR device ="
	    " ?2) AND (?3 IS NULL OR rank = ?3)", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, iter);
	store_load_bind_i64(stmt, 2, device);
	store_load_bind_i64(stmt, 3, rank);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER) {
		w->step = iter;
		w->from_ns = sqlite3_column_int64(stmt, 0);
		w->to_ns = sqlite3_column_int64(stmt, 1) + 1;
		found = 1;
	}
	sqlite3_finalize(stmt);
	if (store_prepare(s, &stmt, "SELECT MIN(CASE WHEN iter_time_ns IS NOT"
	    " NULL THEN iter_end_ns - iter_time_ns ELSE fp_start_ns END),"
	    " MAX(iter_end_ns) FROM step WHERE iter = ?1 AND (?2 IS NULL OR"
	    " device = ?2) AND (?3 IS NULL OR rank = ?3)", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, iter);
	store_load_bind_i64(stmt, 2, device);
	store_load_bind_i64(stmt, 3, rank);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER &&
	    sqlite3_column_type(stmt, 1) == SQLITE_INTEGER) {
		from = sqlite3_column_int64(stmt, 0);
		to = sqlite3_column_int64(stmt, 1) + 1;
		/*
		 * Tasks of the step id that ran past the step's interval
		 * stay in: the window then only bounds the search.
		 */
		if (found && w->step != NP_NA) {
			w->from_ns = from < w->from_ns ? from : w->from_ns;
			w->to_ns = to > w->to_ns ? to : w->to_ns;
		} else {
			w->from_ns = from;
			w->to_ns = to;
		}
		found = 1;
	}
	sqlite3_finalize(stmt);
	return found;
}

struct window_sink {
	sqlite3_stmt	*stmt;
	bool		 failed;
};

/* The sink of a window's api_statistic: rows into temp.w_api_stat. */
static void
store_window_api_row(struct store *s, const struct store_api_stat *a,
    void *arg)
{
	struct window_sink	*k = arg;
	sqlite3_stmt		*stmt = k->stmt;

	sqlite3_reset(stmt);
	store_load_bind_i64(stmt, 1, a->device);
	store_load_bind_i64(stmt, 2, a->rank);
	sqlite3_bind_text(stmt, 3, a->level, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, a->name, -1, SQLITE_STATIC);
	store_load_bind_i64(stmt, 5, a->total_ns);
	sqlite3_bind_int64(stmt, 6, a->count);
	store_load_bind_i64(stmt, 7, a->avg_ns);
	sqlite3_bind_int64(stmt, 8, a->min_ns);
	sqlite3_bind_int64(stmt, 9, a->max_ns);
	if (isnan(a->variance))
		sqlite3_bind_null(stmt, 10);
	else
		sqlite3_bind_double(stmt, 10, a->variance);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		k->failed = true;
	(void)s;
}

/* Fill temp.w_api_stat with the api_statistic of window W. */
static int
store_window_api(struct store *s, const struct store_window *w,
    char **cause)
{
	struct store_stats_window	 sw = { w->from_ns, w->to_ns, w->rank };
	struct window_sink		 k = { NULL, false };
	int				 rc;

	if (store_exec(s, "DROP TABLE IF EXISTS temp.w_api_stat;"
	    " CREATE TEMP TABLE w_api_stat(device INTEGER, rank INTEGER,"
	    " level TEXT, name TEXT, total_ns INTEGER, count INTEGER,"
	    " avg_ns INTEGER, min_ns INTEGER, max_ns INTEGER,"
	    " variance REAL)", cause) != 0 ||
	    store_prepare(s, &k.stmt, "INSERT INTO temp.w_api_stat VALUES"
	    " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", cause) != 0)
		return -1;
	rc = store_stats_api(s, &sw, store_window_api_row, &k, cause);
	sqlite3_finalize(k.stmt);
	if (rc == 0 && k.failed) {
		xasprintf(cause, "cannot keep the API statistic of the "
		    "window: %s", sqlite3_errmsg(s->db));
		rc = -1;
	}
	return rc;
}

/* Fill temp.w_op_stat with the op statistic of window W. */
static int
store_window_ops(struct store *s, const struct store_window *w,
    char **cause)
{
	sqlite3_stmt	*stmt;
	char		*sql, *create;
	int		 rc;

	if (store_exec(s, "DROP TABLE IF EXISTS temp.w_op_stat", cause) != 0)
		return -1;
	sql = store_window_sql(s);
	xasprintf(&create, "CREATE TEMP TABLE w_op_stat AS %s", sql);
	free(sql);
	rc = store_prepare(s, &stmt, create, cause);
	free(create);
	if (rc != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, w->from_ns);
	sqlite3_bind_int64(stmt, 2, w->to_ns);
	store_load_bind_i64(stmt, 3, w->device);
	store_load_bind_i64(stmt, 4, w->rank);
	store_load_bind_i64(stmt, 5, w->step);
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot compute the op statistic of the "
		    "window: %s", sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/* The tables computed afresh for a window, and what they are made of. */
static const struct {
	const char	*name;
	const char	*from;		/* the temporary table */
	const char	*rows;		/* its source table */
	const char	*what;
	int		(*fill)(struct store *, const struct store_window *,
			    char **);
} store_window_kinds[] = {
	{ "op_statistic", "temp.w_op_stat", "task", "the tasks",
	  store_window_ops },
	{ "api_statistic", "temp.w_api_stat", "api", "the API spans",
	  store_window_api }
};

/*
 * In a set of stores S, whose tasks are in the ranks' stores, the window
 * of step ITER for its own table T kept by step id (the cluster's): by
 * id only, if the cluster has the step. Return 1 with W set, else 0.
 */
int
store_window_set_step(struct store *s, const struct store_table *t,
    int64_t iter, int64_t device, int64_t rank, struct store_window *w)
{
	char	*sql;
	bool	 yes;

	if (t->step == NULL || t->time != NULL)
		return 0;
	xasprintf(&sql, "SELECT 1 FROM cluster_step_trace_time WHERE"
	    " \"Step\" = '%lld' OR \"Step\" = %lld LIMIT 1", (long long)iter,
	    (long long)iter);
	yes = store_exists(s, sql);
	free(sql);
	if (!yes)
		return 0;
	w->from_ns = w->to_ns = NP_NA;
	w->iter = w->step = iter;
	w->device = device;
	w->rank = rank;
	w->ranks = 1;
	return 1;
}

/*
 * Table T for window W: the same table where its rows have times or step
 * ids (the query keeps the window: store_window_query), else op_statistic
 * and api_statistic computed afresh from the tasks and spans in the
 * window, as the load computes them for the whole run, into a temporary
 * table. NULL with *cause for a table the window cannot apply to.
 */
const struct store_table *
store_window_table(struct store *s, const struct store_table *t,
    const struct store_window *w, char **cause)
{
	struct store_table	*wt;
	char			*sql;
	size_t			 k;
	bool			 any;

	if (t->time != NULL && (t->step == NULL || w->step == NP_NA) &&
	    store_window_one_rank(w, cause) != 0)
		return NULL;
	/* A step id keeps a step, not a window of time (--range). */
	if (t->time != NULL || (t->step != NULL && w->iter != NP_NA))
		return t;
	for (k = 0; k < 2 && strcmp(t->name, store_window_kinds[k].name) != 0;
	    k++)
		continue;
	if (k == 2) {
		xasprintf(cause, "%s has no times to keep a step or a window "
		    "by", t->name);
		return NULL;
	}
	xasprintf(&sql, "SELECT 1 FROM %s LIMIT 1", store_window_kinds[k].rows);
	any = store_exists(s, sql);
	free(sql);
	if (!any) {
		xasprintf(cause, "%s of a step or window needs %s, and this "
		    "profile has only the tool's %s", t->name,
		    store_window_kinds[k].what, t->name);
		return NULL;
	}
	/* The op statistic takes the step's tasks by id when they have one. */
	if ((k == 1 || w->step == NP_NA) && store_window_one_rank(w, cause) !=
	    0)
		return NULL;
	if (store_window_kinds[k].fill(s, w, cause) != 0)
		return NULL;
	if ((wt = s->window[k]) == NULL)
		wt = s->window[k] = xmalloc(sizeof *wt);
	*wt = *t;
	wt->from = store_window_kinds[k].from;
	wt->where = NULL;
	wt->all = NULL;
	wt->fallback = NULL;
	return wt;
}

/*
 * Keep window W in query Q on table T (from store_window_table): rows
 * starting in it where they have times, the step's id where they have
 * one (the tasks' only when they all carry one); a table computed for
 * the window needs neither.
 */
void
store_window_query(const struct store_table *t, const struct store_window *w,
    struct store_query *q)
{
	if (t->time != NULL) {
		q->from_ns = w->from_ns;
		q->to_ns = w->to_ns;
	}
	if (t->step != NULL)
		q->step = t->time != NULL ? w->step : w->iter;
}
