/*
 * The statistics derived from task rows and API spans, written when a load
 * commits, exactly as the vendor computes them (doc/formats.md section 8):
 * op_statistic from the groups store-stats.c gathered, with an integer
 * average, and api_statistic grouping spans by (name, level) with a
 * population variance around the rounded mean.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define STORE_STATS_WRITE_ITEM(name)	name,
/* Core types whose tasks never reach op_statistic (doc/formats.md 8.1). */
static const char *const store_stats_write_excluded[] = {
	STORE_OP_STAT_EXCLUDED(STORE_STATS_WRITE_ITEM) NULL
};

static bool
store_stats_write_op_kept(struct store *s, const struct stats_op *g)
{
	const char	*op = store_load_string(s, g->op);
	const char	*core = store_load_string(s, g->core);
	size_t		 i;

	if (op == NULL || core == NULL || strcmp(op, "N/A") == 0)
		return false;
	for (i = 0; store_stats_write_excluded[i] != NULL; i++) {
		if (strcmp(core, store_stats_write_excluded[i]) == 0)
			return false;
	}
	return true;
}

/* No sum: a total of durations can be negative, never this. */
#define STATS_NOT_KEPT	(INT64_MIN + 1)	/* not NP_NA: a sum that overflows */

/* A kept group's place in the table, sorted by device and rank. */
struct stats_write_key {
	int64_t		 device;
	int64_t		 rank;
	size_t		 i;
};

static int
store_stats_write_by_rank(const void *a, const void *b)
{
	const struct stats_write_key	*x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return 0;
}

/*
 * The total of the kept groups of each group's device and rank into
 * SUMS (indexed as the table), STATS_NOT_KEPT for groups not kept: one
 * sort, not a scan of every group for every group.
 */
static void
store_stats_write_sums(struct store *s, const struct stats_ops *o,
    int64_t *sums)
{
	struct stats_write_key	*k;
	size_t			 n = 0, i, j;
	int64_t			 sum;

	k = xreallocarray(NULL, o->n > 0 ? o->n : 1, sizeof *k);
	for (i = 0; i < o->n; i++) {
		sums[i] = STATS_NOT_KEPT;
		if (!store_stats_write_op_kept(s, &o->v[i]))
			continue;
		k[n].device = o->v[i].device;
		k[n].rank = o->v[i].rank;
		k[n++].i = i;
	}
	qsort(k, n, sizeof *k, store_stats_write_by_rank);
	for (i = 0; i < n; i = j) {
		sum = 0;
		for (j = i; j < n && store_stats_write_by_rank(&k[i],
		    &k[j]) == 0; j++)
			util_add(sum, o->v[k[j].i].total, &sum);
		while (i < j)
			sums[k[i++].i] = sum;
	}
	free(k);
}

/*
 * Say that the total of the group A/B of TABLE does not fit in 64 bits
 * (damaged times): its total, average and ratio are N/A.
 */
static void
store_stats_write_overflow(struct store *s, const char *table,
    const char *a, const char *b)
{
	store_load_warning(s, s->root, -1, "%s: the total time of %s/%s "
	    "does not fit in 64 bits (damaged times?); its total, average "
	    "and ratio are N/A", table, a != NULL ? a : "N/A", b != NULL ? b :
	    "N/A");
}

/*
 * Write the gathered groups as op_statistic rows: the average is the
 * total by the count, floored to whole ns as msprof does, or rounded as
 * torch_npu does when an importer said its source is torch_npu's
 * (store_load_avg_rounded); the ratio is the share of the total of the
 * same device and rank, rounded to 6 decimals.
 */
static void
store_stats_write_ops_write(struct store *s)
{
	struct stats_ops	*o = s->ops;
	struct stats_op		*g;
	struct store_op_stat	 r;
	int64_t			*sums;
	size_t			 i;

	if (o == NULL)
		return;
	sums = xreallocarray(NULL, o->n > 0 ? o->n : 1, sizeof *sums);
	store_stats_write_sums(s, o, sums);
	for (i = 0; i < o->n; i++) {
		g = &o->v[i];
		if (sums[i] == STATS_NOT_KEPT)
			continue;
		memset(&r, 0, sizeof r);
		r.device = g->device;
		r.rank = g->rank;
		r.op_type = store_load_string(s, g->op);
		r.core_type = store_load_string(s, g->core);
		r.count = g->count;
		r.total_ns = g->total;
		r.min_ns = g->min;
		if (g->total == NP_NA)
			r.avg_ns = NP_NA;
		else if (s->avg_rounded)
			r.avg_ns = store_stats_round_div(g->total,
			    g->count);
		else
			r.avg_ns = g->total / g->count;
		r.max_ns = g->max;
		if (g->total == NP_NA)
			store_stats_write_overflow(s, "op_statistic", r.op_type,
			    r.core_type);
		if (g->total == NP_NA || sums[i] == NP_NA)
			r.ratio = NAN;	/* stored as NULL: N/A */
		else
			r.ratio = sums[i] > 0 ? round((double)g->total * 100.0 /
			    (double)sums[i] * 1e6) / 1e6 : 0;
		r.origin = STORE_FROM_TASKS;
		r.model_id = r.iter = NP_NA;
		store_load_op_stat(s, &r);
	}
	free(sums);
}

/* The load's sink for api_statistic rows: the api_stat table. */
static void
store_stats_write_api_row(struct store *s, const struct store_api_stat *a,
    void *arg)
{
	(void)arg;
	if (a->total_ns == NP_NA)
		store_stats_write_overflow(s, "api_statistic", a->level,
		    a->name);
	store_load_api_stat(s, a);
}

/* A step row (device, rank, step, first start, last end) by INS. */
static void
store_stats_write_step(struct store *s, const int64_t *row, void *arg)
{
	sqlite3_stmt	*ins = arg;

	store_load_bind_i64(ins, 1, row[0]);
	store_load_bind_i64(ins, 2, row[1]);
	sqlite3_bind_int64(ins, 3, row[2]);
	sqlite3_bind_int64(ins, 4, row[3]);
	sqlite3_bind_int64(ins, 5, row[4]);
	sqlite3_bind_int64(ins, 6, row[4] - row[3]);
	store_write(s, ins);
}

/*
 * Steps from the tasks' Step Id when the input has no step trace of its
 * own (a kernel_details without step_trace_time.csv, the demo): per
 * device, rank and step, the first task's start, the last task's end and
 * the time between as the Iteration Time; the other step columns stay
 * N/A. The Steps view and the timeline's step lanes then show them.
 */
static int
store_stats_write_steps(struct store *s, char **cause)
{
	sqlite3_stmt	*ins;

	if (store_exists(s, "SELECT 1 FROM step LIMIT 1") ||
	    store_exists(s, "SELECT 1 FROM generic WHERE name = "
	    "'step_trace_time' LIMIT 1") ||
	    !store_exists(s, STORE_STEP_FILES_SQL))
		return 0;
	if (store_load_prepare(s, &ins, "INSERT INTO step(device, rank,"
	    " model_id, iter, fp_start_ns, iter_end_ns, iter_time_ns)"
	    " VALUES (?, ?, NULL, ?, ?, ?, ?)") != 0)
		return store_failed(s, cause);
	/* From the task groups if they can tell, else from the task rows. */
	if (!store_task_sum_steps(s, store_stats_write_step, ins) &&
	    store_exec(s, "INSERT INTO step(device, rank, model_id, iter,"
	    " fp_start_ns, iter_end_ns, iter_time_ns)"
	    " SELECT device, rank, NULL, step, min(start_ns),"
	    " max(start_ns + dur_ns), max(start_ns + dur_ns) - min(start_ns)"
	    " FROM task WHERE step IS NOT NULL AND start_ns IS NOT NULL"
	    " AND dur_ns IS NOT NULL GROUP BY device, rank, step",
	    cause) != 0) {
		sqlite3_finalize(ins);
		return -1;
	}
	sqlite3_finalize(ins);
	if (store_failed(s, cause) != 0)
		return -1;
	store_load_meta(s, "steps", "from the Step Id of the task rows: "
	    "first task start to last task end");
	return 0;
}

/*
 * Compute op_statistic from the task rows and api_statistic from the API
 * spans; rows read from the tool's own files stay beside them. On failure
 * return -1 and set *cause.
 */
int
store_stats_write(struct store *s, char **cause)
{
	store_load_progress(s, "statistics", NULL, 0, 0);
	store_stats_write_ops_write(s);
	if (store_stats_write_steps(s, cause) != 0)
		return -1;
	return store_stats_api(s, NULL, store_stats_write_api_row, NULL,
	    cause);
}
