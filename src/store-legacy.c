/*
 * The tables as legacy (CANN <= 6.0) and SVP tools wrote them, for export:
 * the legacy headers (FORMATS.md 7.4) and, first, a File column naming the
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
	struct store_table	*t;
	struct store_col	*cols;
	struct strbuf		 b;
	char			*name;
	size_t			 i, n = 1;

	xasprintf(&name, "legacy:%s", g->name);
	for (i = 0; i < s->ndyn; i++) {
		if (strcmp(s->dyn[i]->name, name) == 0) {
			free(name);
			return s->dyn[i];
		}
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
	t = xcalloc(1, sizeof *t);
	t->name = name;
	t->aliases = " ";
	t->title = g->title;
	t->from = strbuf_detach(&b);
	t->cols = cols;
	t->ncols = n;
	t->device = "_device";
	t->rank = "_rank";
	t->order = "_file, _device, _row";
	t->flags = TABLE_GENERIC;
	s->dyn = xreallocarray(s->dyn, s->ndyn + 1, sizeof *s->dyn);
	s->dyn[s->ndyn++] = t;
	return t;
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
	for (i = 0; i < STORE_NLEGACY; i++) {
		if (strcmp(store_legacy_tables[i].name, t->name) == 0)
			return &store_legacy_tables[i];
	}
	return NULL;
}
