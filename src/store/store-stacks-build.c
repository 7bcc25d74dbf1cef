/*
 * Call trees from the store, for store-stacks.c to print: which source a
 * build uses, the step or time window it keeps, and the sources that need
 * no span walk (store-stacks-walk.c does the CANN call path and Python
 * spans): Python call stacks from the operator_details table of a PyTorch
 * profile, and, when only kernel rows exist, op type > op name > input
 * shapes, weighted by device time.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static bool
store_stacks_build_have(struct store *s, enum store_stacks_source src,
    bool details)
{
	switch (src) {
	case STACKS_CANN:
		return store_exists(s, "SELECT 1 FROM api a JOIN str l"
		    " ON l.id = a.level WHERE l.s IN " STORE_STACKS_CANN_LEVELS
		    " LIMIT 1");
	case STACKS_PYTHON:
		/*
		 * The column first: SQLite reads a quoted name that is no
		 * column as a string (MindSpore's table has no stacks).
		 */
		if (details)
			return store_exists(s, "SELECT 1 FROM"
			    " pragma_table_info('operator_details')"
			    " WHERE name = 'Call Stack'") &&
			    store_exists(s, "SELECT 1 FROM"
			    " operator_details WHERE \"Call Stack\" <> ''"
			    " LIMIT 1");
		return store_exists(s, "SELECT 1 FROM api a JOIN str l"
		    " ON l.id = a.level WHERE l.s = 'python' AND a.args LIKE"
		    " '%\"Call stack\"%' LIMIT 1");
	case STACKS_OPS:
		return store_exists(s, "SELECT 1 FROM task LIMIT 1");
	case STACKS_MINDSPORE:
		return store_exists(s, "SELECT 1 FROM api a JOIN str l"
		    " ON l.id = a.level WHERE l.s = 'MindSpore' LIMIT 1");
	case STACKS_MODULES:
		return store_exists(s, "SELECT 1 FROM api a JOIN str l"
		    " ON l.id = a.level JOIN str n ON n.id = a.name WHERE"
		    " l.s = 'python_function' AND n.s LIKE 'nn.Module:%'"
		    " LIMIT 1");
	default:
		return false;
	}
}

/*
 * Whether S has the task sums: task_sum is left empty when a sum did not
 * fit in 64 bits.
 */
static bool
store_stacks_build_summed(struct store *s)
{
	return store_exists(s, "SELECT 1 FROM task_sum LIMIT 1");
}

/*
 * Turn the step of W's options into a filter on the tasks' own step ids,
 * when they have them, and into a time window for spans: the step's
 * interval in the step table, else the span of its tasks, kept in *WIN.
 * -1 with *cause if the profile has no such step.
 */
static int
store_stacks_build_step(struct store *s, struct stacks_where *w,
    struct store_window *win, char **cause)
{
	int	 found;

	found = store_window_step(s, w->o->step, w->o->device, w->o->rank,
	    win, cause);
	if (found < 0)
		return -1;
	if (found == 0) {
		xasprintf(cause, "no step %lld in this profile",
		    (long long)w->o->step);
		return -1;
	}
	w->step = win->step;
	w->from = win->from_ns;
	w->to = win->to_ns;
	return 0;
}

/*
 * op type > op name > input shapes, weighted by device time: from the
 * task sums of store-task-sum.c unless W is a time window (a step is one
 * only when the tasks have no step ids), else from every task.
 */
static int
store_stacks_build_ops(struct store *s, struct store_stacks *st,
    const struct stacks_where *w, char **cause)
{
	struct store_frame	*f;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	const char		*shapes;
	int64_t			 n;
	int			 rc;
	bool			 summed;

	summed = (w->from == NP_NA || w->step != NP_NA) &&
	    store_stacks_build_summed(s);
	strbuf_init(&b);
	strbuf_addf(&b, "SELECT COALESCE(o.s, ty.s), n.s, sh.s, SUM(t.dur_ns),"
	    " %s FROM %s t", summed ? "SUM(t.count)" : "COUNT(*)",
	    summed ? "task_sum" : "task");
	strbuf_adds(&b, " LEFT JOIN str o ON o.id = t.op_type"
	    " LEFT JOIN str ty ON ty.id = t.task_type"
	    " LEFT JOIN str n ON n.id = t.name"
	    " LEFT JOIN str sh ON sh.id = t.in_shapes WHERE 1");
	store_stacks_walk_where(&b, w, "t", true);
	strbuf_adds(&b, " GROUP BY t.op_type, t.task_type, t.name,"
	    " t.in_shapes");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		n = sqlite3_column_int64(stmt, 4);
		f = store_stacks_frame_child(st->root,
		    store_stacks_walk_text(stmt, 0));
		f->count += n;
		f = store_stacks_frame_child(f, store_stacks_walk_text(stmt,
		    1));
		f->count += n;
		shapes = (const char *)sqlite3_column_text(stmt, 2);
		if (shapes != NULL && !util_is_na(shapes, strlen(shapes))) {
			f = store_stacks_frame_child(f, shapes);
			f->count += n;
		}
		f->self += sqlite3_column_int64(stmt, 3);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read tasks: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	st->from = "kernel rows (op type, op name, input shapes)";
	return 0;
}

static int64_t
store_stacks_build_us(sqlite3_stmt *stmt, int col)
{
	const char	*v = (const char *)sqlite3_column_text(stmt, col);
	int64_t		 ns;

	if (v == NULL || util_parse_ns(v, strlen(v), &ns) != 0 || ns < 0)
		return 0;
	return ns;
}

/* Python stacks from operator_details: one row per op call, no times. */
static int
store_stacks_build_details(struct store *s, struct store_stacks *st,
    const struct stacks_where *w, char **cause)
{
	struct store_frame	*f;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	const char		*stack;
	int			 rc;

	if (w->from != NP_NA) {
		xasprintf(cause, "operator_details has no times: a step or a "
		    "time window needs the Python spans of trace_view.json");
		return -1;
	}
	strbuf_init(&b);
	strbuf_addf(&b, "SELECT \"Name\", \"Call Stack\", \"%s\" FROM"
	    " operator_details WHERE 1", st->weight == STACKS_HOST ?
	    "Host Self Duration(us)" : "Device Self Duration(us)");
	if (w->o->rank != NP_NA)
		strbuf_addf(&b, " AND _rank = %lld", (long long)w->o->rank);
	if (w->o->device != NP_NA)
		strbuf_addf(&b, " AND _device IN (-1, %lld)",
		    (long long)w->o->device);
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		stack = (const char *)sqlite3_column_text(stmt, 1);
		f = store_stacks_python(st->root, stack != NULL ? stack : "");
		f = store_stacks_frame_child(f, store_stacks_walk_text(stmt,
		    0));
		f->self += store_stacks_build_us(stmt, 2);
		f->count++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read operator_details: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	st->from = "operator_details.csv (Python call stacks)";
	return 0;
}


/* Pick the source auto means for this store, or -1 with *cause. */
static int
store_stacks_build_pick(struct store *s, const struct stacks_where *w,
    bool *details, char **cause)
{
	enum store_stacks_source	src = w->o->source;

	*details = false;
	if (src == STACKS_PYTHON || src == STACKS_AUTO) {
		if (store_stacks_build_have(s, STACKS_PYTHON, false))
			return STACKS_PYTHON;
		if (store_stacks_build_have(s, STACKS_PYTHON, true) &&
		    (src == STACKS_PYTHON || w->from == NP_NA)) {
			*details = true;
			return STACKS_PYTHON;
		}
	}
	if ((src == STACKS_MINDSPORE || src == STACKS_AUTO) &&
	    store_stacks_build_have(s, STACKS_MINDSPORE, false))
		return STACKS_MINDSPORE;
	if ((src == STACKS_CANN || src == STACKS_AUTO) &&
	    store_stacks_build_have(s, STACKS_CANN, false))
		return STACKS_CANN;
	if ((src == STACKS_OPS || src == STACKS_AUTO) &&
	    store_stacks_build_have(s, STACKS_OPS, false))
		return STACKS_OPS;
	if (src == STACKS_MODULES && store_stacks_build_have(s, src, false))
		return STACKS_MODULES;
	if (src == STACKS_MODULES)
		xasprintf(cause, "no nn.Module spans in this profile "
		    "(profile with with_modules=True)");
	else if (src == STACKS_PYTHON)
		xasprintf(cause, "no Python call stacks in this profile "
		    "(profile with with_stack=True)");
	else if (src == STACKS_CANN)
		xasprintf(cause, "no CANN API spans in this profile");
	else if (src == STACKS_MINDSPORE)
		xasprintf(cause, "no MindSpore op ranges in this profile");
	else
		xasprintf(cause, "no stacks: no API spans, Python call stacks "
		    "or kernel rows in this profile");
	return -1;
}

/*
 * Build the call tree O asks for from S. The caller frees it with
 * store_stacks_free(). NULL with *cause if the store has no such data.
 */
struct store_stacks *
store_stacks_build(struct store *s, const struct store_stacks_opts *o,
    char **cause)
{
	struct store_stacks	*st;
	struct stacks_where	 w = { .o = o, .from = o->from_ns,
				    .to = o->to_ns, .step = NP_NA };
	struct store_window	 win;
	bool			 details;
	int			 src, rc;

	if (w.from != NP_NA || w.to != NP_NA) {
		if (w.from == NP_NA)
			w.from = INT64_MIN + 1;
		if (w.to == NP_NA)
			w.to = INT64_MAX;
	}
	if (o->step != NP_NA && store_stacks_build_step(s, &w, &win, cause) !=
	    0)
		return NULL;
	if ((src = store_stacks_build_pick(s, &w, &details, cause)) < 0)
		return NULL;
	/* Spans, and tasks without step ids, are kept by the interval. */
	if (o->step != NP_NA && (src != STACKS_OPS || w.step == NP_NA) &&
	    store_window_one_rank(&win, cause) != 0)
		return NULL;
	if (src == STACKS_OPS && o->weight == STACKS_HOST) {
		xasprintf(cause, "kernel rows have device time only "
		    "(use the device weight)");
		return NULL;
	}
	st = store_stacks_create(src, o->weight);
	if (src == STACKS_OPS)
		rc = store_stacks_build_ops(s, st, &w, cause);
	else if (details)
		rc = store_stacks_build_details(s, st, &w, cause);
	else
		rc = store_stacks_walk(s, st, &w, src, cause);
	if (rc != 0) {
		store_stacks_free(st);
		return NULL;
	}
	store_stacks_finish(st);
	return st;
}
