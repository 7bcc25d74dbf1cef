/*
 * Column masking for export: tasks read from an op_summary or
 * kernel_details CSV remember which columns the file had (the colset
 * table), and an op_summary written from them has those columns only, as
 * the vendor leaves out what a profiling level does not collect (PyTorch
 * Level0 keeps Name, Type, Accelerator Core, the times and Block Num).
 * Tasks decoded from anything else have every column.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The task column behind each masked column expression of the specs. */
static const struct {
	const char	*expr;
	const char	*col;
} store_mask_cols[] = {
	{ "t.model_id", "model_id" }, { "t.task", "task" },
	{ "t.stream", "stream" }, { "n.s", "name" }, { "o.s", "op_type" },
	{ "st.s", "op_state" }, { "ty.s", "task_type" },
	{ "t.start_ns", "start_ns" }, { "t.dur_ns", "dur_ns" },
	{ "t.wait_ns", "wait_ns" }, { "t.block_num", "block_num" },
	{ "t.mix_block_num", "mix_block_num" }, { "h.s", "hf32" },
	{ "is_.s", "in_shapes" }, { "idt.s", "in_dtypes" },
	{ "ifm.s", "in_formats" }, { "os_.s", "out_shapes" },
	{ "odt.s", "out_dtypes" }, { "ofm.s", "out_formats" },
	{ "t.context", "context" }, { "t.step", "step" }, { "t.step", "infer" },
	{ "mn.s", "model_name" }
};

#define STORE_NMASK	(sizeof store_mask_cols / sizeof store_mask_cols[0])

/*
 * Whether the column with expression EXPR is in the union ALL: any task
 * column behind it listed (a step came from Step Id or Infer ID).
 */
static bool
store_mask_kept(const char *all, const char *expr)
{
	size_t	 i;
	bool	 known = false;

	for (i = 0; i < STORE_NMASK; i++) {
		if (strcmp(store_mask_cols[i].expr, expr) != 0)
			continue;
		if (util_listed(all, store_mask_cols[i].col))
			return true;
		known = true;
	}
	return !known;
}

/*
 * The union of the column sets of the tasks Q selects, comma-joined, or
 * NULL if some task has every column. -1 with *cause on an SQL error.
 */
static int
store_mask_union(struct store *s, const struct store_query *q, char **out,
    char **cause)
{
	struct strbuf	 b;
	sqlite3_stmt	*stmt;
	const char	*names;
	int		 rc, i = 1;

	*out = NULL;
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT c.names FROM (SELECT DISTINCT colset FROM"
	    " task t WHERE 1");
	if (q->device != NP_NA)
		strbuf_adds(&b, " AND t.device = ?");
	if (q->rank != NP_NA)
		strbuf_adds(&b, " AND t.rank = ?");
	strbuf_adds(&b, ") d LEFT JOIN colset c ON c.id = d.colset");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	if (q->device != NP_NA)
		sqlite3_bind_int64(stmt, i++, q->device);
	if (q->rank != NP_NA)
		sqlite3_bind_int64(stmt, i++, q->rank);
	strbuf_init(&b);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if ((names = (const char *)sqlite3_column_text(stmt,
		    0)) == NULL)
			break;
		strbuf_addf(&b, "%s%s", b.len > 0 ? "," : "", names);
	}
	sqlite3_finalize(stmt);
	if (rc == SQLITE_ROW || b.len == 0)
		strbuf_release(&b);
	else
		*out = strbuf_detach(&b);
	return 0;
}

/*
 * T, or a copy of T without the columns no task Q selects had in its
 * file. Only task tables with PMU columns (op_summary and its legacy
 * form) are masked. NULL with *cause on an SQL error.
 */
const struct store_table *
store_mask_table(struct store *s, const struct store_table *t,
    const struct store_query *q, char **cause)
{
	struct store_table	*m;
	struct store_col	*cols;
	char			*all;
	size_t			 i, n = 0;

	if (!(t->flags & TABLE_PMU))
		return t;
	if (store_mask_union(s, q, &all, cause) != 0)
		return NULL;
	if (all == NULL)
		return t;
	cols = xcalloc(t->ncols, sizeof *cols);
	for (i = 0; i < t->ncols; i++) {
		if (!store_mask_kept(all, t->cols[i].expr))
			continue;
		cols[n].name = xstrdup(t->cols[i].name);
		cols[n].expr = xstrdup(t->cols[i].expr);
		cols[n++].fmt = t->cols[i].fmt;
	}
	free(all);
	m = xcalloc(1, sizeof *m);
	*m = *t;
	xasprintf((char **)&m->name, "masked:%s", t->name);
	m->from = xstrdup(t->from);
	m->cols = cols;
	m->ncols = n;
	s->dyn = xreallocarray(s->dyn, s->ndyn + 1, sizeof *s->dyn);
	s->dyn[s->ndyn++] = m;
	return m;
}
