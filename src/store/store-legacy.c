/*
 * The tables as legacy (CANN <= 6.0) and SVP tools wrote them, for export:
 * the legacy headers (doc/formats.md 7.4) and, first, a File column naming the
 * file each row goes to, <name>_<device>_<model>_<iteration>, so a walk
 * in table order writes one file after the other. Rows read from a legacy
 * or SVP file go back to the file they came from; an unknown model or
 * iteration is 0 in the name (legacy iterations count from 1, so 0 stands
 * for the whole run). Columns and rows the importer derived are left out.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define LEGACY_TASK_FROM						\
	"task t LEFT JOIN str n ON n.id = t.name"			\
	" LEFT JOIN str o ON o.id = t.op_type"				\
	" LEFT JOIN str ty ON ty.id = t.task_type"			\
	" LEFT JOIN str mn ON mn.id = t.model_name"			\
	" LEFT JOIN str is_ ON is_.id = t.in_shapes"			\
	" LEFT JOIN str idt ON idt.id = t.in_dtypes"			\
	" LEFT JOIN str ifm ON ifm.id = t.in_formats"			\
	" LEFT JOIN str os_ ON os_.id = t.out_shapes"			\
	" LEFT JOIN str odt ON odt.id = t.out_dtypes"			\
	" LEFT JOIN str ofm ON ofm.id = t.out_formats"

#define LEGACY_FILE(name, dev, model, iter)				\
	"printf('" name "_%d_%d_%d', " dev ", ifnull(" model ", 0),"	\
	" ifnull(" iter ", 0))"

static const struct store_col store_legacy_op_summary_cols[] = {
	{ .name = "File", .expr = LEGACY_FILE("op_summary", "t.device",
	  "t.model_id", "t.step"), .fmt = FMT_TEXT },
	{ .name = "Model Name", .expr = "mn.s", .fmt = FMT_TEXT },
	{ .name = "Model ID", .expr = "t.model_id", .fmt = FMT_INT },
	{ .name = "Task ID", .expr = "t.task", .fmt = FMT_INT },
	{ .name = "Stream ID", .expr = "t.stream", .fmt = FMT_INT },
	{ .name = "Infer ID", .expr = "t.step", .fmt = FMT_INT },
	{ .name = "Op Name", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "OP Type", .expr = "o.s", .fmt = FMT_TEXT },
	{ .name = "Task Type", .expr = "ty.s", .fmt = FMT_TEXT },
	{ .name = "Task Start Time", .expr = "t.start_ns", .fmt = FMT_US3 },
	{ .name = "Task Duration(us)", .expr = "t.dur_ns", .fmt = FMT_US3 },
	{ .name = "Task Wait Time(us)", .expr = "t.wait_ns", .fmt = FMT_US6 },
	{ .name = "Block Dim", .expr = "t.block_num", .fmt = FMT_INT },
	{ .name = "Mix Block Dim", .expr = "t.mix_block_num", .fmt = FMT_INT },
	{ .name = "Input Shapes", .expr = "is_.s", .fmt = FMT_TEXT },
	{ .name = "Input Data Types", .expr = "idt.s", .fmt = FMT_TEXT },
	{ .name = "Input Formats", .expr = "ifm.s", .fmt = FMT_TEXT },
	{ .name = "Output Shapes", .expr = "os_.s", .fmt = FMT_TEXT },
	{ .name = "Output Data Types", .expr = "odt.s", .fmt = FMT_TEXT },
	{ .name = "Output Formats", .expr = "ofm.s", .fmt = FMT_TEXT }
};

static const struct store_col store_legacy_op_stat_cols[] = {
	{ .name = "File", .expr = LEGACY_FILE("op_statistic", "device",
	  "model_id", "iter"), .fmt = FMT_TEXT },
	{ .name = "Model Name", .expr = "model_name", .fmt = FMT_TEXT },
	{ .name = "OP Type", .expr = "op_type", .fmt = FMT_TEXT },
	{ .name = "Core Type", .expr = "core_type", .fmt = FMT_TEXT },
	{ .name = "Count", .expr = "count", .fmt = FMT_INT },
	{ .name = "Total Time(us)", .expr = "total_ns", .fmt = FMT_US },
	{ .name = "Min Time(us)", .expr = "min_ns", .fmt = FMT_US },
	{ .name = "Avg Time(us)", .expr = "avg_ns", .fmt = FMT_US },
	{ .name = "Max Time(us)", .expr = "max_ns", .fmt = FMT_US },
	{ .name = "Ratio(%)", .expr = "ratio", .fmt = FMT_REAL3 }
};

/*
 * op_statistic per device, model and iteration from the task rows, by the
 * rules store-stats.c follows for the whole run: what a raw legacy JOB
 * exports, one file per iteration as the legacy tools wrote it.
 */
#define LEGACY_OP_STAT_ITER_FROM					\
	"(SELECT device, rank, model_id, iter, model_name, op_type,"	\
	" core_type, count, total_ns, min_ns, total_ns / count AS avg_ns,"\
	" max_ns, " STORE_OP_STAT_RATIO_SQL("total_ns",			\
	"device, rank, model_id, iter") " AS ratio FROM"		\
	" (SELECT t.device AS device, t.rank AS rank, t.model_id AS"	\
	" model_id, t.step AS iter, max(mn.s) AS model_name, o.s AS"	\
	" op_type, c.s AS core_type, count(*) AS count, sum(t.dur_ns) AS"\
	" total_ns, min(t.dur_ns) AS min_ns, max(t.dur_ns) AS max_ns"	\
	" FROM task t JOIN str o ON o.id = t.op_type JOIN str c ON"	\
	" c.id = t.task_type LEFT JOIN str mn ON mn.id = t.model_name"	\
	" WHERE " STORE_OP_STAT_KEEP_SQL " GROUP BY t.device, t.rank,"	\
	" t.model_id, t.step, t.op_type, t.task_type))"

/*
 * The legacy acl_statistic (doc/formats.md 8.3) per iteration: the ACL spans
 * starting in the iteration's window of the step trace, grouped by name,
 * Type from the whole run's table and the ids from the group's first span.
 */
#define LEGACY_ACL_ITER_FROM						\
	"(SELECT device, rank, model_id, iter, name, count, total_ns,"	\
	" min_ns, max_ns, pid, tid, (SELECT \"Type\" FROM acl_statistic g"\
	" WHERE g.\"Name\" = x.name LIMIT 1) AS type, total_ns * 100.0 /"\
	" sum(total_ns) OVER (PARTITION BY device, rank, model_id, iter)"\
	" AS pct FROM (SELECT s.device AS device, s.rank AS rank,"	\
	" s.model_id AS model_id, s.iter AS iter, n.s AS name, count(*)"\
	" AS count, sum(a.end_ns - a.start_ns) AS total_ns,"		\
	" min(a.end_ns - a.start_ns) AS min_ns, max(a.end_ns -"		\
	" a.start_ns) AS max_ns, min(a.start_ns) AS first, a.pid AS pid,"\
	" a.tid AS tid FROM step s JOIN api a ON a.start_ns >="		\
	" s.iter_end_ns - s.iter_time_ns AND a.start_ns < s.iter_end_ns"\
	" AND a.rank IS s.rank JOIN str l ON l.id = a.level AND l.s ="	\
	" 'acl' JOIN str n ON n.id = a.name WHERE s.iter_end_ns IS NOT"	\
	" NULL AND s.iter_time_ns IS NOT NULL GROUP BY s.device, s.rank,"\
	" s.model_id, s.iter, a.name) x)"

static const struct store_col store_legacy_acl_iter_cols[] = {
	{ .name = "File", .expr = LEGACY_FILE("acl_statistic", "device",
	  "model_id", "iter"), .fmt = FMT_TEXT },
	{ .name = "Name", .expr = "name", .fmt = FMT_TEXT },
	{ .name = "Type", .expr = "type", .fmt = FMT_TEXT },
	{ .name = "Time(%)", .expr = "rtrim(rtrim(printf('%.6f', pct), '0'),"
	  " '.')", .fmt = FMT_TEXT },
	{ .name = "Time(us)", .expr = "total_ns", .fmt = FMT_US },
	{ .name = "Count", .expr = "count", .fmt = FMT_INT },
	{ .name = "Avg(us)", .expr = "total_ns / 1000.0 / count",
	  .fmt = FMT_REAL3 },
	{ .name = "Min(us)", .expr = "min_ns", .fmt = FMT_US },
	{ .name = "Max(us)", .expr = "max_ns", .fmt = FMT_US },
	{ .name = "Process ID", .expr = "pid", .fmt = FMT_INT },
	{ .name = "Thread ID", .expr = "tid", .fmt = FMT_INT }
};

static const struct store_col store_legacy_step_cols[] = {
	{ .name = "File", .expr = LEGACY_FILE("step_trace", "device",
	  "model_id", "iter"), .fmt = FMT_TEXT },
	{ .name = "Iteration ID", .expr = "iter", .fmt = FMT_INT },
	{ .name = "FP Start", .expr = "fp_start_ns", .fmt = FMT_US3 },
	{ .name = "BP End", .expr = "bp_end_ns", .fmt = FMT_US3 },
	{ .name = "Iteration End", .expr = "iter_end_ns", .fmt = FMT_US3 },
	{ .name = "Iteration Time(us)", .expr = "iter_time_ns", .fmt = FMT_US },
	{ .name = "FP to BP Time(us)", .expr = "fp_bp_ns", .fmt = FMT_US },
	{ .name = "Iteration Refresh(us)", .expr = "refresh_ns",
	  .fmt = FMT_US },
	{ .name = "Data Aug Bound(us)", .expr = "data_aug_ns", .fmt = FMT_US }
};

#define LEGACY_COLS(a)	.cols = (a), .ncols = sizeof (a) / sizeof (a)[0]

static const struct store_table store_legacy_tables[] = {
	{ .name = "op_summary", .aliases = " ", .title = "Op Summary",
	  .from = LEGACY_TASK_FROM, LEGACY_COLS(store_legacy_op_summary_cols),
	  .device = "t.device", .rank = "t.rank", .time = "t.start_ns",
	  .flags = TABLE_PMU, .order = "t.device, ifnull(t.model_id, 0),"
	  " ifnull(t.step, 0), t.start_ns, t.id" },
	{ .name = "op_statistic", .aliases = " ", .title = "Op Statistic",
	  .from = "op_stat_best", LEGACY_COLS(store_legacy_op_stat_cols),
	  .device = "device", .rank = "rank", .order = "device,"
	  " ifnull(model_id, 0), ifnull(iter, 0), total_ns DESC, op_type,"
	  " core_type" },
	{ .name = "step_trace", .aliases = " ", .title = "Step Trace",
	  .from = "step", LEGACY_COLS(store_legacy_step_cols),
	  .device = "device", .rank = "rank", .order = "device,"
	  " ifnull(model_id, 0), ifnull(iter, 0)" }
};

#define STORE_NLEGACY							\
	(sizeof store_legacy_tables / sizeof store_legacy_tables[0])

static const struct store_table store_legacy_op_stat_iter = {
	.name = "op_statistic", .aliases = " ", .title = "Op Statistic",
	.from = LEGACY_OP_STAT_ITER_FROM,
	LEGACY_COLS(store_legacy_op_stat_cols), .device = "device",
	.rank = "rank", .order = "device, ifnull(model_id, 0), ifnull(iter,"
	" 0), total_ns DESC, op_type, core_type"
};

static const struct store_table store_legacy_acl_iter = {
	.name = "acl_statistic", .aliases = " ", .title = "ACL Statistic",
	.from = LEGACY_ACL_ITER_FROM,
	LEGACY_COLS(store_legacy_acl_iter_cols), .device = "device",
	.rank = "rank", .order = "device, ifnull(model_id, 0), ifnull(iter,"
	" 0), total_ns DESC, name"
};

/*
 * True if the op_statistic of S was computed from task rows that know
 * their iteration, as for a raw legacy JOB with a step trace, rather than
 * read from legacy files, which name their own iterations.
 */
static bool
store_legacy_op_stat_by_iter(struct store *s)
{
	char	*sql;
	bool	 file;

	xasprintf(&sql, "SELECT 1 FROM op_stat_best WHERE origin = %d LIMIT 1",
	    STORE_FROM_FILE);
	file = store_exists(s, sql);
	free(sql);
	return !file && store_exists(s, "SELECT 1 FROM task WHERE step IS NOT"
	    " NULL LIMIT 1");
}

/*
 * True if the acl_statistic of S was computed by the JOB importer (no row
 * names a file) and its ACL spans can be placed in the iterations of the
 * step trace: the JOB's host and device clocks are both epoch time.
 */
static bool
store_legacy_acl_by_iter(struct store *s)
{
	char	*clock = NULL;
	bool	 epoch;

	epoch = store_meta_get(s, "job.clock", &clock) == 0 &&
	    strncmp(clock, "epoch", 5) == 0;
	free(clock);
	return epoch && !store_exists(s, "SELECT 1 FROM acl_statistic WHERE"
	    " _file IS NOT NULL LIMIT 1") && store_exists(s, "SELECT 1 FROM"
	    " step WHERE iter_end_ns IS NOT NULL AND iter_time_ns IS NOT"
	    " NULL LIMIT 1");
}

/* True if S holds data of a legacy JOB or of legacy or SVP files. */
bool
store_legacy(struct store *s)
{
	char	*v = NULL;
	bool	 yes;

	yes = store_meta_get(s, "layout", &v) == 0 && strcmp(v, "legacy") == 0;
	free(v);
	return yes;
}

static void
store_legacy_quote(struct strbuf *b, const char *s)
{
	strbuf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_addc(b, '\'');
		strbuf_addc(b, *s);
	}
	strbuf_addc(b, '\'');
}

/*
 * The legacy spec of the generic table G: a File column, then G's columns
 * but those listed in DERIVED. When some rows came from a legacy file,
 * rows without one were derived by the importer and are left out.
 */
static const struct store_table *
store_legacy_generic(struct store *s, const struct store_table *g,
    const char *derived)
{
	const struct store_table *t;
	struct store_col	*cols;
	struct strbuf		 b;
	char			*name;
	size_t			 i, n = 1;

	xasprintf(&name, "legacy:%s", g->name);
	if ((t = store_tables_dyn_find(s, name)) != NULL) {
		free(name);
		return t;
	}
	cols = xcalloc(g->ncols + 1, sizeof *cols);
	strbuf_init(&b);
	strbuf_adds(&b, "ifnull(_file, ");
	store_legacy_quote(&b, g->name);
	strbuf_adds(&b, " || '_' || max(_device, 0) || '_0_0')");
	cols[0].name = xstrdup("File");
	cols[0].expr = strbuf_detach(&b);
	cols[0].fmt = FMT_TEXT;
	for (i = 0; i < g->ncols; i++) {
		if (derived != NULL && util_listed(derived,
		    g->cols[i].name))
			continue;
		cols[n].name = xstrdup(g->cols[i].name);
		cols[n].expr = xstrdup(g->cols[i].expr);
		cols[n++].fmt = g->cols[i].fmt;
	}
	strbuf_init(&b);
	strbuf_addf(&b, "(SELECT rowid AS _row, * FROM %s WHERE _file IS NOT"
	    " NULL OR NOT EXISTS (SELECT 1 FROM %s WHERE _file IS NOT NULL))",
	    g->from, g->from);
	return store_tables_dyn_add(s, name, g->title, strbuf_detach(&b), cols,
	    n, "_file, _device, _row");
}

/*
 * True if a table kept from vendor files holds rows of an op_summary file:
 * an SVP board's op_summary (its AA Core metrics), which the board writes
 * in place of the task list the legacy tools call op_summary.
 */
static bool
store_legacy_board_summary(struct store *s)
{
	char		*sql;
	bool		 found = false;
	size_t		 i;

	for (i = 0; i < s->ndyn && !found; i++) {
		if (!(s->dyn[i]->flags & TABLE_GENERIC) ||
		    strncmp(s->dyn[i]->name, "legacy:", 7) == 0)
			continue;
		xasprintf(&sql, "SELECT 1 FROM %s WHERE _file LIKE"
		    " 'op\\_summary%%' ESCAPE '\\' LIMIT 1", s->dyn[i]->from);
		found = store_exists(s, sql);
		free(sql);
	}
	return found;
}

/*
 * The legacy spec of table T, for export: its first column, File, names
 * the file of each row. NULL for tables the legacy tools did not write
 * (task_time and api_statistic, whose legacy forms are other tables, and
 * tables the importer derived whole).
 */
const struct store_table *
store_legacy_table(struct store *s, const struct store_table *t)
{
	const struct store_table	*r = NULL;
	char				*key, *derived = NULL;
	size_t				 i;

	if ((t->flags & TABLE_GENERIC) && strcmp(t->name,
	    "acl_statistic") == 0 && store_legacy_acl_by_iter(s))
		return &store_legacy_acl_iter;
	if (t->flags & TABLE_GENERIC) {
		xasprintf(&key, "derived.%s", t->name);
		if (store_meta_get(s, key, &derived) != 0)
			derived = NULL;
		free(key);
		if (derived == NULL || strcmp(derived, "*") != 0)
			r = store_legacy_generic(s, t, derived);
		free(derived);
		return r;
	}
	if (strcmp(t->name, "op_summary") == 0 &&
	    store_legacy_board_summary(s))
		return NULL;
	if (strcmp(t->name, "op_statistic") == 0 &&
	    store_legacy_op_stat_by_iter(s))
		return &store_legacy_op_stat_iter;
	for (i = 0; i < STORE_NLEGACY; i++) {
		if (strcmp(store_legacy_tables[i].name, t->name) == 0)
			return &store_legacy_tables[i];
	}
	return NULL;
}
