/*
 * Two runs side by side, as msprof-analyze's compare tool puts them: the
 * kernels of each grouped by op type and input shapes, their time summed,
 * averaged and bounded in microseconds (kernel_compare); the PyTorch ops
 * grouped by name, their time and self time in milliseconds
 * (api_compare); and the ratios of the comparison run (NEW) to the base.
 * The numbers are rounded as the tool rounds them (half to even on the
 * binary value, as Python's round()), and groups come in its order.
 */
#include <sys/types.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

struct compare_group {
	char		*type;
	char		*shape;
	int64_t		 type_order;	/* its op type's first appearance */
	int64_t		 order;		/* its own */
	double		 sum;		/* us, summed in the tasks' order */
	double		 max;
	double		 min;
	int64_t		 n;
	bool		 matched;	/* a group of the other run has it */
};

struct compare_side {
	struct compare_group	*v;
	size_t			 n;
};

/* X rounded to N decimals as Python's round() does. */
double
store_compare_round(double x, int n)
{
	char	 buf[512];

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof buf, "%.*f", n, x);
	return strtod(buf, NULL);
}

static int
store_compare_cmp(const void *a, const void *b)
{
	const struct compare_group	*x = a, *y = b;

	if (x->type_order != y->type_order)
		return x->type_order < y->type_order ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
store_compare_side_free(struct compare_side *cs)
{
	size_t	 i;

	for (i = 0; i < cs->n; i++) {
		free(cs->v[i].type);
		free(cs->v[i].shape);
	}
	free(cs->v);
}

/*
 * The kernel groups of S (of rank RANK and step STEP, NP_NA for all) in
 * *CS. Kernels without an op type are left out, as the tool leaves them;
 * an empty shape is "N/A". -1 with *cause set on failure.
 */
static int
store_compare_kernels_of(struct store *s, int64_t rank, int64_t step,
    struct compare_side *cs, char **cause)
{
	struct util_map		 groups, types;
	struct compare_group	*g;
	sqlite3_stmt		*stmt;
	const char		*type, *shape;
	uint64_t		 key, at;
	int64_t			 ntypes = 0;
	double			 us;
	int			 rc;

	memset(cs, 0, sizeof *cs);
	if (store_prepare(s, &stmt, "SELECT t.op_type, t.in_shapes, o.s,"
	    " sh.s, t.dur_ns FROM task t LEFT JOIN str o ON o.id = t.op_type"
	    " LEFT JOIN str sh ON sh.id = t.in_shapes WHERE t.unlisted IS NULL"
	    " AND (?1 IS NULL OR t.rank = ?1) AND (?2 IS NULL OR t.step = ?2)"
	    " ORDER BY t.id",
	    cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	store_load_bind_i64(stmt, 2, step);
	util_map_init(&groups);
	util_map_init(&types);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		type = (const char *)sqlite3_column_text(stmt, 2);
		shape = (const char *)sqlite3_column_text(stmt, 3);
		if (type == NULL || *type == '\0' || strcmp(type, "N/A") == 0)
			continue;
		if (shape == NULL || *shape == '\0')
			shape = "N/A";
		key = (uint64_t)sqlite3_column_int64(stmt, 0) << 32 ^
		    (uint64_t)sqlite3_column_int64(stmt, 1);
		us = (double)sqlite3_column_int64(stmt, 4) / 1000.0;
		if (util_map_get(&groups, key, &at)) {
			g = &cs->v[at - 1];
			g->sum += us;
			g->max = us > g->max ? us : g->max;
			g->min = us < g->min ? us : g->min;
			g->n++;
			continue;
		}
		cs->v = xreallocarray(cs->v, cs->n + 1, sizeof *cs->v);
		g = &cs->v[cs->n++];
		memset(g, 0, sizeof *g);
		g->type = xstrdup(type);
		g->shape = xstrdup(shape);
		if (!util_map_get(&types, (uint64_t)sqlite3_column_int64(stmt,
		    0), &at)) {
			at = (uint64_t)++ntypes;
			util_map_set(&types, (uint64_t)sqlite3_column_int64(
			    stmt, 0), at);
		}
		g->type_order = (int64_t)at;
		g->order = (int64_t)cs->n;
		g->sum = g->max = g->min = us;
		g->n = 1;
		util_map_set(&groups, key, cs->n);
	}
	sqlite3_finalize(stmt);
	util_map_release(&groups);
	util_map_release(&types);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the kernels of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		store_compare_side_free(cs);
		return -1;
	}
	if (cs->n > 1)
		qsort(cs->v, cs->n, sizeof *cs->v, store_compare_cmp);
	return 0;
}

/*
 * An empty table of N columns NAMES, each of the format its letter in
 * FMTS says: I an integer, R a real, T text.
 */
struct store_rows *
store_compare_rows(const char *const *names, size_t n, const char *fmts)
{
	struct store_rows	*r;
	size_t			 i;

	r = store_rows_create(n);
	for (i = 0; i < n; i++) {
		r->names[i] = xstrdup(names[i]);
		r->fmts[i] = fmts[i] == 'I' ? FMT_INT : fmts[i] == 'R' ?
		    FMT_REAL : FMT_TEXT;
	}
	return r;
}

/* The key of a group's op type and shape, the same in both runs. */
static uint64_t
store_compare_key(const struct compare_group *g)
{
	return util_hash64(g->type, strlen(g->type)) * 31 ^
	    util_hash64(g->shape, strlen(g->shape));
}

/* The group of C with G's op type and shape not matched yet, or -1. */
static ssize_t
store_compare_find(struct compare_side *c, const struct util_map *m,
    const struct compare_group *g)
{
	uint64_t	 at;
	size_t		 j;

	/* No group of C has the key: none has the type and shape. */
	if (!util_map_get(m, store_compare_key(g), &at))
		return -1;
	if (!c->v[at - 1].matched && strcmp(c->v[at - 1].type, g->type) ==
	    0 && strcmp(c->v[at - 1].shape, g->shape) == 0)
		return (ssize_t)at - 1;
	/* Two keys alike: look through them all. */
	for (j = 0; j < c->n; j++) {
		if (!c->v[j].matched && strcmp(c->v[j].type, g->type) == 0 &&
		    strcmp(c->v[j].shape, g->shape) == 0)
			return (ssize_t)j;
	}
	return -1;
}

/* Cell I of *CELLS: the number V as Python prints it, kept in VALS too. */
void
store_compare_num(char **cells, struct store_val *vals, size_t i, double v)
{
	char	 buf[64];

	if (isinf(v)) {
		cells[i] = xstrdup("INF");
		vals[i].kind = VAL_NONE;
		return;
	}
	util_fmt_pyfloat(buf, sizeof buf, v);
	cells[i] = xstrdup(buf);
	vals[i].kind = VAL_REAL;
	vals[i].d = v;
}

/* The tool's ratio of C to B: 1 when both are 0, INF when B alone is. */
double
store_compare_ratio(double b, double c)
{
	if (b == 0 && c == 0)
		return 1.0;
	return b == 0 ? INFINITY : store_compare_round(c / b, 4);
}

/*
 * Cells 3 + 5 * SIDE on of a group G (NULL: the run has none): total,
 * average, max, min and count; *TOTAL and *AVG get the first two.
 */
static void
store_compare_group_cells(char **cells, struct store_val *vals,
    size_t at, const struct compare_group *g, double *total, double *avg)
{
	*total = g != NULL ? store_compare_round(g->sum, 2) : 0;
	*avg = g != NULL && *total != 0 ? store_compare_round(*total /
	    (double)g->n, 2) : 0;
	store_compare_num(cells, vals, at, *total);
	store_compare_num(cells, vals, at + 1, *avg);
	if (g == NULL) {
		cells[at + 2] = xstrdup("");
		cells[at + 3] = xstrdup("");
		cells[at + 4] = xstrdup("");
		vals[at + 2].kind = vals[at + 3].kind = vals[at + 4].kind =
		    VAL_NONE;
		return;
	}
	store_compare_num(cells, vals, at + 2, store_compare_round(g->max,
	    2));
	store_compare_num(cells, vals, at + 3, store_compare_round(g->min,
	    2));
	xasprintf(&cells[at + 4], "%lld", (long long)g->n);
	vals[at + 4].kind = VAL_INT;
	vals[at + 4].i = g->n;
}

/* Add the row of groups B and C (either NULL) to R as number ORDER. */
static void
store_compare_kernel_row(struct store_rows *r, int64_t order,
    const struct compare_group *b, const struct compare_group *c)
{
	char			*cells[15];
	struct store_val	 vals[15];
	const struct compare_group *g = b != NULL ? b : c;
	double			 bt, ba, ct, ca;

	memset(vals, 0, sizeof vals);
	xasprintf(&cells[0], "%lld", (long long)order);
	vals[0].kind = VAL_INT;
	vals[0].i = order;
	cells[1] = xstrdup(g->type);
	cells[2] = xstrdup(g->shape);
	store_compare_group_cells(cells, vals, 3, b, &bt, &ba);
	store_compare_group_cells(cells, vals, 8, c, &ct, &ca);
	store_compare_num(cells, vals, 13, store_compare_ratio(bt, ct));
	store_compare_num(cells, vals, 14, store_compare_ratio(ba, ca));
	store_rows_add(r, cells, vals);
}

/*
 * kernel_compare of BASE and NEW (each of its rank and step, NP_NA for
 * all): a row per op type and input shapes of either run. NULL with
 * *cause set on failure.
 */
struct store_rows *
store_compare_kernels(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "Order Id", "Kernel",
	    "Input Shape", "Base Total Duration(us)",
	    "Base Avg Duration(us)", "Base Max Duration(us)",
	    "Base Min Duration(us)", "Base Calls",
	    "Comparison Total Duration(us)", "Comparison Avg Duration(us)",
	    "Comparison Max Duration(us)", "Comparison Min Duration(us)",
	    "Comparison Calls", "Diff Total Ratio", "Diff Avg Ratio" };
	struct compare_side	 b, c;
	struct store_rows	*r;
	struct util_map		 m;
	size_t			 i, j;
	ssize_t			 k;
	int64_t			 order = 0;

	if (store_compare_kernels_of(base, o->base_rank, o->base_step, &b,
	    cause) != 0)
		return NULL;
	if (store_compare_kernels_of(new, o->rank, o->step, &c, cause) != 0) {
		store_compare_side_free(&b);
		return NULL;
	}
	/* A step asked for that a run has not: say so, as the tool does. */
	if ((o->base_step != NP_NA && b.n == 0) || (o->step != NP_NA &&
	    c.n == 0)) {
		xasprintf(cause, "the %s run has no kernels in step %lld",
		    b.n == 0 ? "base" : "comparison", (long long)(b.n == 0 ?
		    o->base_step : o->step));
		store_compare_side_free(&b);
		store_compare_side_free(&c);
		return NULL;
	}
	r = store_compare_rows(names, 15, "ITTRRRRIRRRRIRR");
	util_map_init(&m);
	for (j = c.n; j > 0; j--)
		util_map_set(&m, store_compare_key(&c.v[j - 1]), j);
	/* The tool shows nothing unless both runs have kernels. */
	for (i = 0; c.n > 0 && i < b.n; i++) {
		if ((k = store_compare_find(&c, &m, &b.v[i])) >= 0)
			c.v[k].matched = true;
		store_compare_kernel_row(r, ++order, &b.v[i], k >= 0 ?
		    &c.v[k] : NULL);
	}
	util_map_release(&m);
	for (j = 0; b.n > 0 && j < c.n; j++) {
		if (!c.v[j].matched)
			store_compare_kernel_row(r, ++order, NULL, &c.v[j]);
	}
	store_compare_side_free(&b);
	store_compare_side_free(&c);
	return r;
}

struct compare_api {
	char		*name;
	double		 total;		/* us */
	double		 self;
	int64_t		 n;
	bool		 matched;
};

struct compare_apis {
	struct compare_api	*v;
	size_t			 n;
	struct util_map		 index;	/* hash of the name -> 1 + index */
};

static void
store_compare_apis_free(struct compare_apis *ca)
{
	size_t	 i;

	for (i = 0; i < ca->n; i++)
		free(ca->v[i].name);
	free(ca->v);
	util_map_release(&ca->index);
}

/*
 * The group of ops named NAME in CA, or NULL. The index holds one group
 * per hash: only when another has NAME's hash are all looked through.
 */
static struct compare_api *
store_compare_api_find(const struct compare_apis *ca, const char *name)
{
	uint64_t	 at;
	size_t		 i;

	if (!util_map_get(&ca->index, util_hash64(name, strlen(name)), &at))
		return NULL;
	if (strcmp(ca->v[at - 1].name, name) == 0)
		return &ca->v[at - 1];
	for (i = 0; i < ca->n; i++) {
		if (strcmp(ca->v[i].name, name) == 0)
			return &ca->v[i];
	}
	return NULL;
}

/* The group of ops named NAME in CA, made if new. */
static struct compare_api *
store_compare_api_group(struct compare_apis *ca, const char *name)
{
	struct compare_api	*g;
	uint64_t		 h = util_hash64(name, strlen(name));

	if ((g = store_compare_api_find(ca, name)) != NULL)
		return g;
	ca->v = xreallocarray(ca->v, ca->n + 1, sizeof *ca->v);
	memset(&ca->v[ca->n], 0, sizeof ca->v[ca->n]);
	ca->v[ca->n].name = xstrdup(name);
	util_map_set(&ca->index, h, ++ca->n);
	return &ca->v[ca->n - 1];
}

/* Add op I of OPS to its name's group. */
static void
store_compare_api_add(struct compare_apis *ca, const struct store_compare_op *ops,
    size_t i)
{
	struct compare_api	*g = store_compare_api_group(ca, ops[i].name);

	g->total += ops[i].dur;
	g->self += ops[i].dur - ops[i].kids;
	g->n++;
}

void
store_compare_tree_free(struct store_compare_op *ops, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(ops[i].name);
	free(ops);
}

/*
 * The PyTorch ops of S (of RANK, NP_NA for all) in *OPS, as the tool
 * builds its tree of them: the ops of every thread in one tree by start
 * time, an op the child of the last one still open at its start (ending
 * at it included). -1 with *cause set on failure.
 */
int
store_compare_tree(struct store *s, int64_t rank, struct store_compare_op **out,
    size_t *nout, char **cause)
{
	struct store_compare_op	*ops = NULL;
	sqlite3_stmt		*stmt;
	size_t			 n = 0;
	int64_t			 last = -1;
	const char		*name;
	int			 rc;

	*out = NULL;
	*nout = 0;
	if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, n.s, a.tid"
	    " FROM api a JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id ="
	    " a.name WHERE l.s = 'python' AND (?1 IS NULL OR a.rank = ?1)"
	    " ORDER BY a.start_ns, a.id", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		ops = util_grow(ops, n, 1, sizeof *ops);
		memset(&ops[n], 0, sizeof ops[n]);
		ops[n].start = sqlite3_column_int64(stmt, 0);
		ops[n].end = sqlite3_column_int64(stmt, 1);
		ops[n].dur = (double)(ops[n].end - ops[n].start) / 1000.0;
		name = (const char *)sqlite3_column_text(stmt, 2);
		ops[n].name = xstrdup(name != NULL ? name : "");
		ops[n].step = strstr(ops[n].name, "ProfilerStep#") != NULL;
		ops[n].tid = sqlite3_column_type(stmt, 3) == SQLITE_NULL ?
		    NP_NA : sqlite3_column_int64(stmt, 3);
		/* Close the ops that ended before this one starts. */
		while (last >= 0 && ops[n].start > ops[last].end)
			last = ops[last].parent;
		ops[n].parent = last;
		ops[n].kid = ops[n].lastkid = ops[n].next = -1;
		if (last >= 0) {
			ops[last].kids += ops[n].dur;
			if (ops[last].lastkid >= 0)
				ops[ops[last].lastkid].next = (int64_t)n;
			else
				ops[last].kid = (int64_t)n;
			ops[last].lastkid = (int64_t)n;
		}
		last = (int64_t)n++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the PyTorch ops of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		store_compare_tree_free(ops, n);
		return -1;
	}
	*out = ops;
	*nout = n;
	return 0;
}

/*
 * The PyTorch ops of S (of RANK, and under step STEP's ProfilerStep, NP_NA
 * for all) grouped by name into *CA, as the tool groups them: without a
 * step every op but the ProfilerSteps in start order, with one those
 * under its ProfilerStep, breadth first. -1 with *cause set on failure.
 */
static int
store_compare_apis_of(struct store *s, int64_t rank, int64_t step,
    struct compare_apis *ca, char **cause)
{
	struct store_compare_op	*ops;
	size_t			 n, i, head, tail, *queue;
	int64_t			 top, kid;
	char			 want[48];

	memset(ca, 0, sizeof *ca);
	util_map_init(&ca->index);
	if (store_compare_tree(s, rank, &ops, &n, cause) != 0) {
		store_compare_apis_free(ca);
		return -1;
	}
	if (step == NP_NA) {
		for (i = 0; i < n; i++) {
			if (!ops[i].step)
				store_compare_api_add(ca, ops, i);
		}
		store_compare_tree_free(ops, n);
		return 0;
	}
	/* Breadth first from the ops the step's ProfilerStep holds. */
	snprintf(want, sizeof want, "ProfilerStep#%lld", (long long)step);
	queue = xcalloc(n + 1, sizeof *queue);
	head = tail = 0;
	for (top = 0; (size_t)top < n; top++) {
		if (ops[top].parent != -1 || !ops[top].step ||
		    strcmp(strstr(ops[top].name, "ProfilerStep#"), want) != 0)
			continue;
		for (kid = ops[top].kid; kid >= 0; kid = ops[kid].next)
			queue[tail++] = (size_t)kid;
	}
	while (head < tail) {
		store_compare_api_add(ca, ops, queue[head]);
		for (kid = ops[queue[head]].kid; kid >= 0; kid = ops[kid].next)
			queue[tail++] = (size_t)kid;
		head++;
	}
	free(queue);
	store_compare_tree_free(ops, n);
	return 0;
}

/* Cells AT on of group G (NULL: none): total, self, average (ms), calls. */
static void
store_compare_api_cells(char **cells, struct store_val *vals, size_t at,
    const struct compare_api *g, double *v)
{
	v[0] = g != NULL ? store_compare_round(g->total / 1000.0, 2) : 0;
	v[1] = g != NULL ? store_compare_round(g->self / 1000.0, 2) : 0;
	v[2] = g != NULL && g->n > 0 ? store_compare_round(v[0] /
	    (double)g->n, 2) : 0;
	v[3] = g != NULL ? (double)g->n : 0;
	store_compare_num(cells, vals, at, v[0]);
	store_compare_num(cells, vals, at + 1, v[1]);
	store_compare_num(cells, vals, at + 2, v[2]);
	xasprintf(&cells[at + 3], "%lld", (long long)v[3]);
	vals[at + 3].kind = VAL_INT;
	vals[at + 3].i = (int64_t)v[3];
}

static void
store_compare_api_row(struct store_rows *r, int64_t order,
    const struct compare_api *b, const struct compare_api *c)
{
	char			*cells[14];
	struct store_val	 vals[14];
	double			 bv[4], cv[4];
	size_t			 i;

	memset(vals, 0, sizeof vals);
	xasprintf(&cells[0], "%lld", (long long)order);
	vals[0].kind = VAL_INT;
	vals[0].i = order;
	cells[1] = xstrdup(b != NULL ? b->name : c->name);
	store_compare_api_cells(cells, vals, 2, b, bv);
	store_compare_api_cells(cells, vals, 6, c, cv);
	for (i = 0; i < 4; i++)
		store_compare_num(cells, vals, 10 + i, store_compare_ratio(
		    bv[i], cv[i]));
	store_rows_add(r, cells, vals);
}

/*
 * api_compare of BASE and NEW: a row per PyTorch op name of either run.
 * NULL with *cause set on failure.
 */
struct store_rows *
store_compare_apis(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "Order Id", "api name",
	    "Base Total Duration(ms)", "Base Self Time(ms)",
	    "Base Avg Duration(ms)", "Base Calls",
	    "Comparison Total Duration(ms)", "Comparison Self Time(ms)",
	    "Comparison Avg Duration(ms)", "Comparison Calls",
	    "Diff Total Ratio", "Diff Self Ratio", "Diff Avg Ratio",
	    "Diff Calls Ratio" };
	struct compare_apis	 b, c;
	struct compare_api	*g;
	struct store_rows	*r;
	size_t			 i, j;
	int64_t			 order = 0;

	if (store_compare_apis_of(base, o->base_rank, o->base_step, &b,
	    cause) != 0)
		return NULL;
	if (store_compare_apis_of(new, o->rank, o->step, &c, cause) != 0) {
		store_compare_apis_free(&b);
		return NULL;
	}
	if ((o->base_step != NP_NA && b.n == 0) || (o->step != NP_NA &&
	    c.n == 0)) {
		xasprintf(cause, "the %s run has no PyTorch ops under "
		    "ProfilerStep#%lld", b.n == 0 ? "base" : "comparison",
		    (long long)(b.n == 0 ? o->base_step : o->step));
		store_compare_apis_free(&b);
		store_compare_apis_free(&c);
		return NULL;
	}
	r = store_compare_rows(names, 14, "ITRRRIRRRIRRRR");
	/* The tool shows nothing unless both runs have ops. */
	for (i = 0; c.n > 0 && i < b.n; i++) {
		if ((g = store_compare_api_find(&c, b.v[i].name)) != NULL)
			g->matched = true;
		store_compare_api_row(r, ++order, &b.v[i], g);
	}
	for (j = 0; b.n > 0 && j < c.n; j++) {
		if (!c.v[j].matched)
			store_compare_api_row(r, ++order, NULL, &c.v[j]);
	}
	store_compare_apis_free(&b);
	store_compare_apis_free(&c);
	return r;
}

/* A communication op kind (allreduce, ...) of a run: its ops and tasks. */
struct compare_task {
	char		*name;
	double		*dur;		/* us, as met */
	size_t		 n;
};

struct compare_comm {
	char			*name;
	double			*dur;
	size_t			 n;
	struct compare_task	*task;
	size_t			 ntask;
	bool			 matched;
};

struct compare_comms {
	struct compare_comm	*v;
	size_t			 n;
};

static void
store_compare_comms_free(struct compare_comms *cc)
{
	size_t	 i, j;

	for (i = 0; i < cc->n; i++) {
		for (j = 0; j < cc->v[i].ntask; j++) {
			free(cc->v[i].task[j].name);
			free(cc->v[i].task[j].dur);
		}
		free(cc->v[i].task);
		free(cc->v[i].name);
		free(cc->v[i].dur);
	}
	free(cc->v);
}

/* The kind of op NAME as the tool names it: hcom_allReduce_... allreduce. */
static char *
store_compare_comm_name(const char *name)
{
	const char	*p = strchr(name, '_'), *q;
	char		*s, *c;

	if (p == NULL)
		return NULL;
	if ((size_t)(p - name) == 4 && strncasecmp(name, "hcom", 4) == 0) {
		q = strchr(p + 1, '_');
		s = q != NULL ? xstrndup(p + 1, (size_t)(q - p - 1)) :
		    xstrdup(p + 1);
	} else
		s = xstrndup(name, (size_t)(p - name));
	for (c = s; *c != '\0'; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}

static struct compare_comm *
store_compare_comm_kind(struct compare_comms *cc, const char *name)
{
	size_t	 i;

	for (i = 0; i < cc->n; i++) {
		if (strcmp(cc->v[i].name, name) == 0)
			return &cc->v[i];
	}
	cc->v = xreallocarray(cc->v, cc->n + 1, sizeof *cc->v);
	memset(&cc->v[cc->n], 0, sizeof cc->v[cc->n]);
	cc->v[cc->n].name = xstrdup(name);
	return &cc->v[cc->n++];
}

static void
store_compare_comm_task(struct compare_comm *k, const char *name, double us)
{
	struct compare_task	*t = NULL;
	size_t			 i;

	for (i = 0; i < k->ntask && t == NULL; i++) {
		if (strcmp(k->task[i].name, name) == 0)
			t = &k->task[i];
	}
	if (t == NULL) {
		k->task = xreallocarray(k->task, k->ntask + 1, sizeof *k->task);
		t = &k->task[k->ntask++];
		memset(t, 0, sizeof *t);
		t->name = xstrdup(name);
	}
	t->dur = util_grow(t->dur, t->n, 1, sizeof *t->dur);
	t->dur[t->n++] = us;
}

/*
 * The communication of S (of RANK; within step STEP's ProfilerStep, NP_NA
 * for all) into *CC, as the tool reads it from the trace: the spans of the
 * HCCL process, those on a thread named "...Communication..." its ops,
 * the others (the planes) their tasks; ops by kind, each task to the op
 * in whose time it starts, by name. -1 with *cause set on failure.
 */
static int
store_compare_comms_of(struct store *s, int64_t rank, int64_t step,
    struct compare_comms *cc, char **cause)
{
	struct compare_comm	*k = NULL;
	sqlite3_stmt		*stmt;
	int64_t			 from = INT64_MIN, to = INT64_MAX, end = 0;
	char			 want[48], *kind;
	const char		*name;
	bool			 op;
	int			 rc;

	memset(cc, 0, sizeof *cc);
	if (step != NP_NA) {
		snprintf(want, sizeof want, "ProfilerStep#%lld",
		    (long long)step);
		if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns FROM"
		    " api a JOIN str n ON n.id = a.name WHERE n.s = ?1 AND"
		    " (?2 IS NULL OR a.rank = ?2) ORDER BY a.start_ns LIMIT 1",
		    cause) != 0)
			return -1;
		sqlite3_bind_text(stmt, 1, want, -1, SQLITE_STATIC);
		store_load_bind_i64(stmt, 2, rank);
		if (sqlite3_step(stmt) == SQLITE_ROW) {
			from = sqlite3_column_int64(stmt, 0);
			to = sqlite3_column_int64(stmt, 1);
		}
		sqlite3_finalize(stmt);
		if (from == INT64_MIN)
			return 0;
	}
	/*
	 * Ops and tasks in one pass by start: a task starting before its
	 * op is nobody's, as in the tool; ops first where they tie.
	 */
	/*
	 * A database export has no lanes: its HCCL spans are of level
	 * HCCL, the ops on thread 0 (import-db's db-comm.c).
	 */
	if (store_prepare(s, &stmt, store_exists(s, "SELECT 1 FROM lane WHERE"
	    " tid IS NULL AND name = 'HCCL'") ? "WITH h AS (SELECT DISTINCT"
	    " pid, rank FROM lane WHERE tid IS NULL AND name = 'HCCL'),"
	    " c AS (SELECT l.pid, l.tid FROM lane l JOIN h USING (pid) WHERE"
	    " l.tid IS NOT NULL AND l.name LIKE '%Communication%')"
	    " SELECT a.start_ns, a.end_ns, n.s, EXISTS (SELECT 1 FROM c WHERE"
	    " c.pid = a.pid AND c.tid = a.tid) AS op FROM api a JOIN h ON"
	    " h.pid = a.pid AND h.rank IS a.rank LEFT JOIN str n ON"
	    " n.id = a.name WHERE (?1 IS NULL OR a.rank = ?1) AND a.start_ns"
	    " BETWEEN ?2 AND ?3 ORDER BY a.start_ns, op DESC, a.id" :
	    "SELECT a.start_ns, a.end_ns, n.s, a.tid = 0 AS op FROM api a"
	    " JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id = a.name"
	    " WHERE l.s = 'HCCL' AND a.pid IS NULL AND (?1 IS NULL OR a.rank"
	    " = ?1) AND a.start_ns BETWEEN ?2 AND ?3 ORDER BY a.start_ns, op"
	    " DESC, a.id", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, from);
	sqlite3_bind_int64(stmt, 3, to);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(stmt, 2);
		op = sqlite3_column_int(stmt, 3) != 0;
		if (name == NULL)
			name = "";
		if (!op) {
			if (k != NULL && sqlite3_column_int64(stmt, 0) <= end)
				store_compare_comm_task(k, name, (double)(
				    sqlite3_column_int64(stmt, 1) -
				    sqlite3_column_int64(stmt, 0)) / 1000.0);
			continue;
		}
		if ((kind = store_compare_comm_name(name)) == NULL)
			continue;
		k = store_compare_comm_kind(cc, kind);
		free(kind);
		end = sqlite3_column_int64(stmt, 1);
		k->dur = util_grow(k->dur, k->n, 1, sizeof *k->dur);
		k->dur[k->n++] = (double)(end - sqlite3_column_int64(stmt, 0))
		    / 1000.0;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the communication of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		store_compare_comms_free(cc);
		return -1;
	}
	return 0;
}

/*
 * Cells AT on of the durations DUR (N; none if 0): the op kind's or the
 * task's name as the tool writes it (OPNAME, TASKNAME), calls, total,
 * average, max, min, unrounded.
 */
static void
store_compare_comm_cells(char **cells, struct store_val *vals, size_t at,
    const char *opname, const char *taskname, const double *dur, size_t n)
{
	double	 sum = 0, max, min;
	size_t	 i;

	for (i = 0; i < n; i++)
		sum += dur[i];
	cells[at] = xstrdup(n > 0 ? opname : "");
	cells[at + 1] = xstrdup(n > 0 && taskname != NULL ? taskname : "");
	if (n == 0) {
		/* The tool's total of nothing is the integer 0. */
		cells[at + 2] = xstrdup("");
		cells[at + 3] = xstrdup("0");
		vals[at + 3].kind = VAL_INT;
		vals[at + 3].i = 0;
		for (i = 4; i < 7; i++)
			cells[at + i] = xstrdup("");
		return;
	}
	max = min = dur[0];
	for (i = 1; i < n; i++) {
		max = dur[i] > max ? dur[i] : max;
		min = dur[i] < min ? dur[i] : min;
	}
	xasprintf(&cells[at + 2], "%zu", n);
	vals[at + 2].kind = VAL_INT;
	vals[at + 2].i = (int64_t)n;
	store_compare_num(cells, vals, at + 3, sum);
	store_compare_num(cells, vals, at + 4, sum / (double)n);
	store_compare_num(cells, vals, at + 5, max);
	store_compare_num(cells, vals, at + 6, min);
}

/* The row of an op kind (TASK false) or of a task of it. */
static void
store_compare_comm_row(struct store_rows *r, int64_t order, bool task,
    const char *bname, const double *bdur, size_t bn, const char *cname,
    const double *cdur, size_t cn)
{
	char			*cells[17];
	struct store_val	 vals[17];
	double			 bt = 0, ct = 0;
	size_t			 i;

	memset(vals, 0, sizeof vals);
	xasprintf(&cells[0], "%lld", (long long)order);
	vals[0].kind = VAL_INT;
	vals[0].i = order;
	store_compare_comm_cells(cells, vals, 1, task ? "|" : bname,
	    task ? bname : NULL, bdur, bn);
	store_compare_comm_cells(cells, vals, 8, task ? "|" : cname,
	    task ? cname : NULL, cdur, cn);
	if (task) {
		cells[15] = xstrdup("");
		cells[16] = xstrdup("");
	} else {
		for (i = 0; i < bn; i++)
			bt += bdur[i];
		for (i = 0; i < cn; i++)
			ct += cdur[i];
		store_compare_num(cells, vals, 15, store_compare_round(ct - bt,
		    2));
		store_compare_num(cells, vals, 16, store_compare_ratio(bt, ct));
	}
	store_rows_add(r, cells, vals);
}

/*
 * The rows of op kind B and C (either NULL): the kind's, then its tasks,
 * paired as the tool pairs them, by place and not by name.
 */
static void
store_compare_comm_rows(struct store_rows *r, int64_t *order,
    const struct compare_comm *b, const struct compare_comm *c)
{
	const struct compare_comm	*g = b != NULL ? b : c;
	size_t				 bt = b != NULL ? b->ntask : 0;
	size_t				 ct = c != NULL ? c->ntask : 0;
	size_t				 i;

	store_compare_comm_row(r, ++*order, false, g->name, b != NULL ?
	    b->dur : NULL, b != NULL ? b->n : 0, g->name, c != NULL ? c->dur :
	    NULL, c != NULL ? c->n : 0);
	for (i = 0; i < bt || i < ct; i++)
		store_compare_comm_row(r, ++*order, true, i < bt ?
		    b->task[i].name : "", i < bt ? b->task[i].dur : NULL,
		    i < bt ? b->task[i].n : 0, i < ct ? c->task[i].name : "",
		    i < ct ? c->task[i].dur : NULL, i < ct ? c->task[i].n : 0);
}

/*
 * communication_compare of BASE and NEW: per kind of communication op a
 * row, then a row per kind of task in it. NULL with *cause set on
 * failure.
 */
struct store_rows *
store_compare_comms(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "Order Id",
	    "Base Communication OP Name", "Base Task Name", "Base Calls",
	    "Base Total Duration(us)", "Base Avg Duration(us)",
	    "Base Max Duration(us)", "Base Min Duration(us)",
	    "Comparison Communication OP Name", "Comparison Task Name",
	    "Comparison Calls", "Comparison Total Duration(us)",
	    "Comparison Avg Duration(us)", "Comparison Max Duration(us)",
	    "Comparison Min Duration(us)", "Diff Duration(us)",
	    "Diff Ratio" };
	struct compare_comms	 b, c;
	struct store_rows	*r;
	size_t			 i, j;
	int64_t			 order = 0;

	if (store_compare_comms_of(base, o->base_rank, o->base_step, &b,
	    cause) != 0)
		return NULL;
	if (store_compare_comms_of(new, o->rank, o->step, &c, cause) != 0) {
		store_compare_comms_free(&b);
		return NULL;
	}
	r = store_compare_rows(names, 17, "ITTIRRRRTTIRRRRRR");
	for (i = 0; i < b.n; i++) {
		for (j = 0; j < c.n; j++) {
			if (!c.v[j].matched && strcmp(c.v[j].name,
			    b.v[i].name) == 0)
				break;
		}
		if (j < c.n)
			c.v[j].matched = true;
		store_compare_comm_rows(r, &order, &b.v[i], j < c.n ? &c.v[j] :
		    NULL);
	}
	for (j = 0; j < c.n; j++) {
		if (!c.v[j].matched)
			store_compare_comm_rows(r, &order, NULL, &c.v[j]);
	}
	store_compare_comms_free(&b);
	store_compare_comms_free(&c);
	return r;
}
