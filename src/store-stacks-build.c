/*
 * Call trees from the store, for store-stacks.c to print. Three sources:
 * the CANN call path per host thread (acl > model > node > runtime spans of
 * the api table, nested by parent or by time, with the device tasks each
 * launch produced below it), Python call stacks (spans of level python
 * whose args carry "Call stack", or the operator_details table of a
 * PyTorch profile), and, when only kernel rows exist, op type > op name >
 * input shapes. Host weights are span self times; device weights are task
 * durations.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define STACKS_CANN_LEVELS						\
	"('acl', 'model', 'node', 'hccl', 'communication', 'runtime')"

/* The restriction a build applies to spans and tasks. */
struct stacks_where {
	const struct store_stacks_opts	*o;
	int64_t				 from;	/* NP_NA or a window */
	int64_t				 to;
	int64_t				 step;	/* NP_NA or tasks' step */
};

/* A span still open on the thread being walked. */
struct stacks_open {
	int64_t			 id;
	int64_t			 end;
	int64_t			 dur;
	int64_t			 kids;		/* time of nested spans */
	struct store_frame	*frame;
};

/* Where the tasks a span launched go: its frame, by row id or conn. */
struct stacks_link {
	int64_t			 key;
	struct store_frame	*frame;
};

struct stacks_walk {
	struct store_stacks	*st;
	struct stacks_open	*open;
	size_t			 nopen;
	size_t			 size;
	struct stacks_link	*ids;
	size_t			 nids;
	size_t			 sids;
	struct stacks_link	*conns;
	size_t			 nconns;
	size_t			 sconns;
};

static bool
stacks_exists(struct store *s, const char *sql)
{
	sqlite3_stmt	*stmt;
	bool		 found;

	if (sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return false;
	found = sqlite3_step(stmt) == SQLITE_ROW;
	sqlite3_finalize(stmt);
	return found;
}

static bool
store_stacks_have(struct store *s, enum store_stacks_source src,
    bool details)
{
	switch (src) {
	case STACKS_CANN:
		return stacks_exists(s, "SELECT 1 FROM api a JOIN str l ON"
		    " l.id = a.level WHERE l.s IN " STACKS_CANN_LEVELS
		    " LIMIT 1");
	case STACKS_PYTHON:
		if (details)
			return stacks_exists(s, "SELECT 1 FROM operator_details"
			    " WHERE \"Call Stack\" <> '' LIMIT 1");
		return stacks_exists(s, "SELECT 1 FROM api a JOIN str l ON"
		    " l.id = a.level WHERE l.s = 'python' AND a.args LIKE"
		    " '%\"Call stack\"%' LIMIT 1");
	case STACKS_OPS:
		return stacks_exists(s, "SELECT 1 FROM task LIMIT 1");
	default:
		return false;
	}
}

/*
 * Turn the step of W's options into a filter on the tasks' own step ids,
 * when they have them, and into a time window for spans: the step's
 * interval in the step table, else the span of its tasks. -1 with *cause
 * if the profile has no such step.
 */
static int
store_stacks_step(struct store *s, struct stacks_where *w, char **cause)
{
	sqlite3_stmt	*stmt;
	bool		 found = false;

	if (store_prepare(s, &stmt, "SELECT MIN(start_ns), MAX(start_ns +"
	    " dur_ns) FROM task WHERE step = ?", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, w->o->step);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER) {
		w->step = w->o->step;
		w->from = sqlite3_column_int64(stmt, 0);
		w->to = sqlite3_column_int64(stmt, 1) + 1;
		found = true;
	}
	sqlite3_finalize(stmt);
	if (store_prepare(s, &stmt, "SELECT MIN(CASE WHEN iter_time_ns IS NOT"
	    " NULL THEN iter_end_ns - iter_time_ns ELSE fp_start_ns END),"
	    " MAX(iter_end_ns) FROM step WHERE iter = ?1 AND (?2 IS NULL OR"
	    " device = ?2) AND (?3 IS NULL OR rank = ?3)", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, w->o->step);
	store_bind_i64(stmt, 2, w->o->device);
	store_bind_i64(stmt, 3, w->o->rank);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER &&
	    sqlite3_column_type(stmt, 1) == SQLITE_INTEGER) {
		w->from = sqlite3_column_int64(stmt, 0);
		w->to = sqlite3_column_int64(stmt, 1) + 1;
		found = true;
	}
	sqlite3_finalize(stmt);
	if (!found)
		xasprintf(cause, "no step %lld in this profile",
		    (long long)w->o->step);
	return found ? 0 : -1;
}

/* Append the restriction of W on table alias T to B. */
static void
store_stacks_where(struct strbuf *b, const struct stacks_where *w,
    const char *t, bool tasks)
{
	if (w->o->rank != NP_NA)
		strbuf_addf(b, " AND %s.rank = %lld", t,
		    (long long)w->o->rank);
	if (tasks && w->o->device != NP_NA)
		strbuf_addf(b, " AND %s.device = %lld", t,
		    (long long)w->o->device);
	if (tasks && w->step != NP_NA)
		strbuf_addf(b, " AND %s.step = %lld", t, (long long)w->step);
	else if (w->from != NP_NA)
		strbuf_addf(b, " AND %s.start_ns >= %lld AND %s.start_ns <"
		    " %lld", t, (long long)w->from, t, (long long)w->to);
}

static const char *
stacks_text(sqlite3_stmt *stmt, int col)
{
	const char	*v = (const char *)sqlite3_column_text(stmt, col);

	return v != NULL && *v != '\0' ? v : "?";
}

/* op type > op name > input shapes, weighted by device time. */
static int
store_stacks_ops(struct store *s, struct store_stacks *st,
    const struct stacks_where *w, char **cause)
{
	struct store_frame	*f;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	const char		*shapes;
	int64_t			 n;
	int			 rc;

	strbuf_init(&b);
	strbuf_adds(&b, "SELECT COALESCE(o.s, ty.s), n.s, sh.s, SUM(t.dur_ns),"
	    " COUNT(*) FROM task t LEFT JOIN str o ON o.id = t.op_type"
	    " LEFT JOIN str ty ON ty.id = t.task_type"
	    " LEFT JOIN str n ON n.id = t.name"
	    " LEFT JOIN str sh ON sh.id = t.in_shapes WHERE 1");
	store_stacks_where(&b, w, "t", true);
	strbuf_adds(&b, " GROUP BY t.op_type, t.task_type, t.name,"
	    " t.in_shapes");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		n = sqlite3_column_int64(stmt, 4);
		f = store_frame_child(st->root, stacks_text(stmt, 0));
		f->count += n;
		f = store_frame_child(f, stacks_text(stmt, 1));
		f->count += n;
		shapes = (const char *)sqlite3_column_text(stmt, 2);
		if (shapes != NULL && !util_is_na(shapes, strlen(shapes))) {
			f = store_frame_child(f, shapes);
			f->count += n;
		}
		f->self += sqlite3_column_int64(stmt, 3);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read tasks: %s", sqlite3_errmsg(s->db));
		return -1;
	}
	st->from = "kernel rows (op type, op name, input shapes)";
	return 0;
}

/*
 * Below F, the frames of a Python call stack as the profiler writes it,
 * innermost first, separated by ';' and line breaks; each frame counts
 * one more call.
 */
static struct store_frame *
store_stacks_python(struct store_frame *f, const char *stack)
{
	const char	**v = NULL, *p, *q;
	char		 *name;
	size_t		  n = 0, len;

	for (p = stack; *p != '\0'; p = q) {
		q = p + strcspn(p, ";\r\n");
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = p;
		if (*q != '\0')
			q++;
	}
	while (n > 0) {
		p = v[--n];
		len = strcspn(p, ";\r\n");
		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0)
			continue;
		name = xstrndup(p, len);
		f = store_frame_child(f, name);
		f->count++;
		free(name);
	}
	free(v);
	return f;
}

static int64_t
stacks_us(sqlite3_stmt *stmt, int col)
{
	const char	*v = (const char *)sqlite3_column_text(stmt, col);
	int64_t		 ns;

	if (v == NULL || util_parse_ns(v, strlen(v), &ns) != 0 || ns < 0)
		return 0;
	return ns;
}

/* Python stacks from operator_details: one row per op call, no times. */
static int
store_stacks_details(struct store *s, struct store_stacks *st,
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
		f = store_frame_child(f, stacks_text(stmt, 0));
		f->self += stacks_us(stmt, 2);
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

/* Close the innermost open span: its self time is what nested ones left. */
static void
stacks_walk_close(struct stacks_walk *wk)
{
	struct stacks_open	*o = &wk->open[--wk->nopen];
	int64_t			 self = o->dur - o->kids;

	if (wk->st->weight == STACKS_HOST)
		o->frame->self += self > 0 ? self : 0;
}

static void
stacks_walk_link(struct stacks_link **v, size_t *n, size_t *size,
    int64_t key, struct store_frame *f)
{
	if (key == NP_NA)
		return;
	if (*n == *size) {
		*size = *size == 0 ? 16 : *size * 2;
		*v = xreallocarray(*v, *size, sizeof **v);
	}
	(*v)[*n].key = key;
	(*v)[*n].frame = f;
	(*n)++;
}

/*
 * One span of the walk: close the open spans that do not hold it (or up
 * to its recorded parent), then open it under the innermost one left.
 */
static void
stacks_walk_span(struct stacks_walk *wk, sqlite3_stmt *stmt, bool python)
{
	struct stacks_open	*o;
	struct store_frame	*caller;
	int64_t			 id, start, end, parent;
	const char		*stack;
	size_t			 k;

	id = sqlite3_column_int64(stmt, 0);
	start = sqlite3_column_int64(stmt, 3);
	end = sqlite3_column_int64(stmt, 4);
	parent = sqlite3_column_type(stmt, 5) == SQLITE_NULL ? NP_NA :
	    sqlite3_column_int64(stmt, 5);
	for (k = wk->nopen; parent != NP_NA && k > 0; k--) {
		if (wk->open[k - 1].id == parent)
			break;
	}
	if (parent != NP_NA && k > 0) {
		while (wk->nopen > k)
			stacks_walk_close(wk);
	} else {
		while (wk->nopen > 0 && wk->open[wk->nopen - 1].end < end)
			stacks_walk_close(wk);
	}
	if (wk->nopen > 0)
		caller = wk->open[wk->nopen - 1].frame;
	else if (python) {
		stack = (const char *)sqlite3_column_text(stmt, 8);
		caller = store_stacks_python(wk->st->root,
		    stack != NULL ? stack : "");
	} else
		caller = wk->st->root;
	if (wk->nopen == wk->size) {
		wk->size = wk->size == 0 ? 16 : wk->size * 2;
		wk->open = xreallocarray(wk->open, wk->size, sizeof *wk->open);
	}
	if (wk->nopen > 0)
		wk->open[wk->nopen - 1].kids += end - start;
	o = &wk->open[wk->nopen++];
	o->id = id;
	o->end = end;
	o->dur = end - start;
	o->kids = 0;
	o->frame = store_frame_child(caller, stacks_text(stmt, 7));
	o->frame->count++;
	stacks_walk_link(&wk->ids, &wk->nids, &wk->sids, id, o->frame);
	if (sqlite3_column_type(stmt, 6) != SQLITE_NULL)
		stacks_walk_link(&wk->conns, &wk->nconns, &wk->sconns,
		    sqlite3_column_int64(stmt, 6), o->frame);
}

static int
stacks_link_cmp(const void *a, const void *b)
{
	const struct stacks_link	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return 0;
}

static struct store_frame *
stacks_link_find(const struct stacks_link *v, size_t n, int64_t key)
{
	struct stacks_link	 k = { .key = key }, *l;

	if (key == NP_NA || n == 0)
		return NULL;
	l = bsearch(&k, v, n, sizeof *v, stacks_link_cmp);
	return l != NULL ? l->frame : NULL;
}

/*
 * Put the device time of each task below the span that launched it (by
 * task.api, else by the connection id), or below "[unlinked device
 * tasks]" when no span of the walk launched it.
 */
static int
store_stacks_tasks(struct store *s, struct stacks_walk *wk,
    const struct stacks_where *w, char **cause)
{
	struct store_frame	*f;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	int64_t			 api, conn;
	int			 rc;

	qsort(wk->ids, wk->nids, sizeof *wk->ids, stacks_link_cmp);
	qsort(wk->conns, wk->nconns, sizeof *wk->conns, stacks_link_cmp);
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT t.api, t.conn, t.dur_ns, n.s FROM task t"
	    " LEFT JOIN str n ON n.id = t.name WHERE 1");
	store_stacks_where(&b, w, "t", true);
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		api = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 0);
		conn = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 1);
		if ((f = stacks_link_find(wk->ids, wk->nids, api)) == NULL &&
		    (f = stacks_link_find(wk->conns, wk->nconns, conn)) == NULL)
			f = store_frame_child(wk->st->root,
			    "[unlinked device tasks]");
		f = store_frame_child(f, stacks_text(stmt, 3));
		f->self += sqlite3_column_int64(stmt, 2);
		f->count++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read tasks: %s", sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/*
 * Walk the spans of the CANN levels (or of level python) thread by
 * thread in start order, nesting each in its parent or in the innermost
 * span that holds it.
 */
static int
store_stacks_spans(struct store *s, struct store_stacks *st,
    const struct stacks_where *w, bool python, char **cause)
{
	struct stacks_walk	 wk;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	int64_t			 pid = NP_NA, tid = NP_NA;
	int			 rc;

	memset(&wk, 0, sizeof wk);
	wk.st = st;
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT a.id, a.pid, a.tid, a.start_ns, a.end_ns,"
	    " a.parent, a.conn, n.s, CASE WHEN json_valid(a.args) THEN"
	    " json_extract(a.args, '$.\"Call stack\"') END FROM api a"
	    " JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id = a.name"
	    " WHERE ");
	strbuf_adds(&b, python ? "l.s = 'python'" :
	    "l.s IN " STACKS_CANN_LEVELS);
	store_stacks_where(&b, w, "a", false);
	strbuf_adds(&b, " ORDER BY a.pid, a.tid, a.start_ns, a.end_ns DESC,"
	    " a.id");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_int64(stmt, 1) != pid ||
		    sqlite3_column_int64(stmt, 2) != tid) {
			while (wk.nopen > 0)
				stacks_walk_close(&wk);
			pid = sqlite3_column_int64(stmt, 1);
			tid = sqlite3_column_int64(stmt, 2);
		}
		stacks_walk_span(&wk, stmt, python);
	}
	while (wk.nopen > 0)
		stacks_walk_close(&wk);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		xasprintf(cause, "cannot read spans: %s", sqlite3_errmsg(s->db));
	else if (st->weight == STACKS_DEVICE)
		rc = store_stacks_tasks(s, &wk, w, cause) == 0 ? SQLITE_DONE :
		    SQLITE_ERROR;
	free(wk.open);
	free(wk.ids);
	free(wk.conns);
	st->from = python ? "Python spans with call stacks" :
	    "CANN API spans";
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Pick the source auto means for this store, or -1 with *cause. */
static int
store_stacks_pick(struct store *s, const struct stacks_where *w,
    bool *details, char **cause)
{
	enum store_stacks_source	src = w->o->source;

	*details = false;
	if (src == STACKS_PYTHON || src == STACKS_AUTO) {
		if (store_stacks_have(s, STACKS_PYTHON, false))
			return STACKS_PYTHON;
		if (store_stacks_have(s, STACKS_PYTHON, true) &&
		    (src == STACKS_PYTHON || w->from == NP_NA)) {
			*details = true;
			return STACKS_PYTHON;
		}
	}
	if ((src == STACKS_CANN || src == STACKS_AUTO) &&
	    store_stacks_have(s, STACKS_CANN, false))
		return STACKS_CANN;
	if ((src == STACKS_OPS || src == STACKS_AUTO) &&
	    store_stacks_have(s, STACKS_OPS, false))
		return STACKS_OPS;
	if (src == STACKS_PYTHON)
		xasprintf(cause, "no Python call stacks in this profile "
		    "(profile with with_stack=True)");
	else if (src == STACKS_CANN)
		xasprintf(cause, "no CANN API spans in this profile");
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
	bool			 details;
	int			 src, rc;

	if (w.from != NP_NA || w.to != NP_NA) {
		if (w.from == NP_NA)
			w.from = INT64_MIN + 1;
		if (w.to == NP_NA)
			w.to = INT64_MAX;
	}
	if (o->step != NP_NA && store_stacks_step(s, &w, cause) != 0)
		return NULL;
	if ((src = store_stacks_pick(s, &w, &details, cause)) < 0)
		return NULL;
	if (src == STACKS_OPS && o->weight == STACKS_HOST) {
		xasprintf(cause, "kernel rows have device time only "
		    "(use the device weight)");
		return NULL;
	}
	st = store_stacks_create(src, o->weight);
	if (src == STACKS_OPS)
		rc = store_stacks_ops(s, st, &w, cause);
	else if (details)
		rc = store_stacks_details(s, st, &w, cause);
	else
		rc = store_stacks_spans(s, st, &w, src == STACKS_PYTHON,
		    cause);
	if (rc != 0) {
		store_stacks_free(st);
		return NULL;
	}
	store_stacks_finish(st);
	return st;
}
