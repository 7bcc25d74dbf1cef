/*
 * The statistics derived from task rows and API spans, computed when a load
 * commits, exactly as the vendor computes them (FORMATS.md section 8):
 * op_statistic groups device tasks by (op type, core type) with an integer
 * average, api_statistic groups spans by (name, level) with a population
 * variance around the rounded mean.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/*
 * Task rows that never reach op_statistic: no op type, or a communication,
 * write-back or invalid core type.
 */
#define STATS_OP_SQL							\
	"INSERT INTO op_stat SELECT t.device, t.rank, o.s, ty.s, count(*),"	\
	" sum(t.dur_ns), min(t.dur_ns), sum(t.dur_ns) / count(*),"	\
	" max(t.dur_ns), 0, 1 FROM task t JOIN str o ON o.id = t.op_type" \
	" JOIN str ty ON ty.id = t.task_type WHERE o.s <> 'N/A' AND ty.s"\
	" NOT IN ('N/A', 'HCCL', 'COMMUNICATION', 'HCCL_AI_CPU',"	\
	" 'WRITE_BACK', 'INVALID') GROUP BY t.device, t.rank, t.op_type," \
	" t.task_type;"							\
	"UPDATE op_stat SET ratio = round(total_ns * 100.0 / (SELECT"	\
	" sum(p.total_ns) FROM op_stat p WHERE p.origin = 1 AND"	\
	" p.device IS op_stat.device AND p.rank IS op_stat.rank), 6)"	\
	" WHERE origin = 1;"

#define STATS_API_SQL							\
	"SELECT a.rank, l.s, n.s, a.end_ns - a.start_ns FROM api a"	\
	" JOIN str l ON l.id = a.level JOIN str n ON n.id = a.name"	\
	" WHERE l.s IN ('acl', 'model', 'node', 'communication', 'hccl',"\
	" 'runtime') AND a.start_ns > 0 ORDER BY a.rank, l.s, n.s"

struct stats_group {
	int64_t		 rank;
	char		*level;
	char		*name;
	int64_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	double		 sum_us;
	double		 sum_sq_us;
};

/* Round a positive mean of COUNT values totalling TOTAL ns to whole ns. */
static int64_t
stats_round_div(int64_t total, int64_t count)
{
	if (total >= 0)
		return (2 * total + count) / (2 * count);
	return -((2 * -total + count) / (2 * count));
}

static void
stats_api_flush(struct store *s, struct stats_group *g)
{
	struct store_api_stat	 a;
	double			 avg_us, var;
	char			 buf[64];

	if (g->count == 0)
		return;
	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = g->rank;
	a.level = g->level;
	a.name = g->name;
	a.total_ns = g->total;
	a.count = g->count;
	/*
	 * The vendor divides a double sum of us and rounds the binary result
	 * to 3 decimals: 7.27 / 4 = 1.8175 prints 1.817, not 1.818.
	 */
	snprintf(buf, sizeof buf, "%.3f", g->total / 1000.0 / g->count);
	if (util_parse_ns(buf, strlen(buf), &a.avg_ns) != 0)
		a.avg_ns = stats_round_div(g->total, g->count);
	a.min_ns = g->min;
	a.max_ns = g->max;
	avg_us = a.avg_ns / 1000.0;
	/* Population variance around the rounded mean, in us squared. */
	var = (g->sum_sq_us - 2 * avg_us * g->sum_us +
	    g->count * avg_us * avg_us) / g->count;
	a.variance = round(fmax(var, 0) * 1000.0) / 1000.0;
	a.origin = STORE_FROM_TASKS;
	store_load_api_stat(s, &a);
	free(g->level);
	free(g->name);
	memset(g, 0, sizeof *g);
}

static int
stats_api(struct store *s, char **cause)
{
	struct stats_group	 g;
	sqlite3_stmt		*stmt;
	const char		*level, *name;
	int64_t			 rank, d;
	double			 us;
	int			 rc;

	if (store_prepare(s, &stmt, STATS_API_SQL, cause) != 0)
		return -1;
	memset(&g, 0, sizeof g);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		rank = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 0);
		level = (const char *)sqlite3_column_text(stmt, 1);
		name = (const char *)sqlite3_column_text(stmt, 2);
		d = sqlite3_column_int64(stmt, 3);
		if (g.count != 0 && (g.rank != rank ||
		    strcmp(g.level, level) != 0 || strcmp(g.name, name) != 0))
			stats_api_flush(s, &g);
		if (g.count == 0) {
			g.rank = rank;
			g.level = xstrdup(level);
			g.name = xstrdup(name);
			g.min = g.max = d;
		}
		g.count++;
		g.total += d;
		g.min = d < g.min ? d : g.min;
		g.max = d > g.max ? d : g.max;
		us = d / 1000.0;
		g.sum_us += us;
		g.sum_sq_us += us * us;
	}
	stats_api_flush(s, &g);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot compute api_statistic: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/*
 * Compute op_statistic from the task rows and api_statistic from the API
 * spans; rows read from the tool's own files stay beside them. On failure
 * return -1 and set *cause.
 */
int
store_stats_compute(struct store *s, char **cause)
{
	store_load_progress(s, "statistics", NULL, 0, 0);
	if (store_exec(s, STATS_OP_SQL, cause) != 0)
		return -1;
	return stats_api(s, cause);
}
