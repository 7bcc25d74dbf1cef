/*
 * Call trees from API spans: the spans of the CANN levels (or of level
 * python) are walked thread by thread in start order (by thread id only:
 * a chrome trace puts one thread's Python and CANN spans in different
 * pseudo-processes), each nested in its
 * recorded parent or in the innermost open span that holds it; its host
 * self time is its duration less that of the spans nested in it. Device
 * time comes from the tasks: below the span that launched each one (by
 * the task's API row, else its connection id), or, for Python stacks,
 * below the Python op whose thread issued the launch: the launching span's
 * own thread, or, when the launch ran in a dequeue of torch_npu's task
 * queue, the thread and time of the matching enqueue (same correlation
 * id). A task no span launched (a Level0 trace has no CANN spans) goes
 * below the op, or the dequeue, its async_npu flow starts in.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* A span still open on the thread being walked. */
struct stacks_open {
	int64_t			 id;
	int64_t			 end;
	int64_t			 dur;
	int64_t			 kids;		/* time of nested spans */
	size_t			 idx;		/* in the walk's spans */
	struct store_frame	*frame;
};

/* A span walked, kept to find the one that holds a time on a thread. */
struct stacks_span {
	int64_t			 tid;
	int64_t			 start;
	int64_t			 end;
	int64_t			 key;		/* row id or correlation id */
	size_t			 parent;	/* index, or SIZE_MAX */
	struct store_frame	*frame;
};

struct stacks_spans {
	struct stacks_span	*v;
	size_t			 n;
};

/*
 * A torch_npu async_npu flow of a trace: the kernel it ends on (stream
 * and start) and the thread and time it starts at, in a PyTorch op or a
 * dequeue.
 */
struct stacks_flow {
	int64_t			 stream;
	int64_t			 start;
	int64_t			 tid;
	int64_t			 ts;
};

struct stacks_walk {
	struct store_stacks	*st;
	struct stacks_open	*open;
	size_t			 nopen;
	size_t			 size;
	struct stacks_spans	 spans;		/* in (tid, start) order */
	struct stacks_spans	 ids;		/* by row id */
	struct stacks_spans	 conns;		/* by connection id */
	struct stacks_spans	 deq;		/* dequeues, by thread, start */
	struct stacks_spans	 enq;		/* enqueues, by correlation */
	struct stacks_flow	*flows;		/* by stream, then start */
	size_t			 nflows;
};

static struct stacks_span *
store_stacks_walk_add(struct stacks_spans *v)
{
	v->v = util_grow(v->v, v->n, 1, sizeof *v->v);
	memset(&v->v[v->n], 0, sizeof v->v[v->n]);
	v->v[v->n].parent = SIZE_MAX;
	return &v->v[v->n++];
}

static void
store_stacks_walk_key(struct stacks_spans *v, int64_t key,
    struct store_frame *f)
{
	struct stacks_span	*sp;

	if (key == NP_NA)
		return;
	sp = store_stacks_walk_add(v);
	sp->key = key;
	sp->frame = f;
}

/* Close the innermost open span: its self time is what nested ones left. */
static void
store_stacks_walk_close(struct stacks_walk *wk)
{
	struct stacks_open	*o = &wk->open[--wk->nopen];
	int64_t			 self = o->dur - o->kids;

	if (wk->st->weight == STACKS_HOST)
		o->frame->self += self > 0 ? self : 0;
}

static int64_t
store_stacks_walk_i64(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, col);
}

/* Close open spans until the one PARENT, or one that holds END, is on top. */
static void
store_stacks_walk_unwind(struct stacks_walk *wk, int64_t parent, int64_t end)
{
	size_t	 k;

	for (k = wk->nopen; parent != NP_NA && k > 0; k--) {
		if (wk->open[k - 1].id == parent)
			break;
	}
	if (parent != NP_NA && k > 0) {
		while (wk->nopen > k)
			store_stacks_walk_close(wk);
		return;
	}
	while (wk->nopen > 0 && wk->open[wk->nopen - 1].end < end)
		store_stacks_walk_close(wk);
}

/*
 * One span of the walk: close the open spans that do not hold it, then
 * open it under the innermost one left (an outermost Python op goes under
 * its call stack).
 */
static void
store_stacks_walk_span(struct stacks_walk *wk, sqlite3_stmt *stmt, bool python)
{
	struct stacks_open	*o;
	struct stacks_span	*sp;
	struct store_frame	*caller;
	int64_t			 start, end;
	const char		*stack;

	start = sqlite3_column_int64(stmt, 3);
	end = sqlite3_column_int64(stmt, 4);
	store_stacks_walk_unwind(wk, store_stacks_walk_i64(stmt, 5), end);
	if (wk->nopen > 0)
		caller = wk->open[wk->nopen - 1].frame;
	else if (python) {
		stack = (const char *)sqlite3_column_text(stmt, 8);
		caller = store_stacks_python(wk->st->root,
		    stack != NULL ? stack : "");
	} else
		caller = wk->st->root;
	/* A stack: its depth falls, so util_grow() cannot size it. */
	if (wk->nopen == wk->size) {
		wk->size = wk->size == 0 ? 16 : wk->size * 2;
		wk->open = xreallocarray(wk->open, wk->size, sizeof *wk->open);
	}
	sp = store_stacks_walk_add(&wk->spans);
	if (wk->nopen > 0) {
		wk->open[wk->nopen - 1].kids += end - start;
		sp->parent = wk->open[wk->nopen - 1].idx;
	}
	o = &wk->open[wk->nopen++];
	o->id = sqlite3_column_int64(stmt, 0);
	o->end = end;
	o->dur = end - start;
	o->kids = 0;
	o->idx = wk->spans.n - 1;
	o->frame = store_stacks_frame_child(caller, store_stacks_walk_text(stmt,
	    7));
	o->frame->count++;
	sp->tid = sqlite3_column_int64(stmt, 2);
	sp->start = start;
	sp->end = end;
	sp->frame = o->frame;
	store_stacks_walk_key(&wk->ids, o->id, o->frame);
	store_stacks_walk_key(&wk->conns, store_stacks_walk_i64(stmt, 6),
	    o->frame);
}

static int
store_stacks_walk_key_cmp(const void *a, const void *b)
{
	const struct stacks_span	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return 0;
}

static struct stacks_span *
store_stacks_walk_find_key(const struct stacks_spans *v, int64_t key)
{
	struct stacks_span	 k = { .key = key };

	if (key == NP_NA || v->n == 0)
		return NULL;
	return bsearch(&k, v->v, v->n, sizeof *v->v, store_stacks_walk_key_cmp);
}

/* The last span of V (in thread, start order) on TID starting by T. */
static struct stacks_span *
store_stacks_walk_at(const struct stacks_spans *v, int64_t tid, int64_t t)
{
	struct stacks_span	*sp;
	size_t			 lo = 0, hi = v->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		sp = &v->v[mid];
		if (sp->tid < tid || (sp->tid == tid && sp->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	sp = &v->v[lo - 1];
	return sp->tid == tid ? sp : NULL;
}

/* The innermost walked span of thread TID that holds time T, or NULL. */
static struct store_frame *
store_stacks_walk_holder(struct stacks_walk *wk, int64_t tid, int64_t t)
{
	struct stacks_span	*sp;

	if ((sp = store_stacks_walk_at(&wk->spans, tid, t)) == NULL)
		return NULL;
	for (;;) {
		if (sp->end >= t)
			return sp->frame;
		if (sp->parent == SIZE_MAX)
			return NULL;
		sp = &wk->spans.v[sp->parent];
	}
}

/*
 * The Python op that issued a launch at T on thread TID: the one holding
 * it on that thread, else, if a dequeue of the task queue holds it, the
 * one holding the matching enqueue.
 */
static struct store_frame *
store_stacks_walk_issuer(struct stacks_walk *wk, int64_t tid, int64_t t)
{
	struct stacks_span	*d, *e;
	struct store_frame	*f;

	if ((f = store_stacks_walk_holder(wk, tid, t)) != NULL)
		return f;
	d = store_stacks_walk_at(&wk->deq, tid, t);
	if (d == NULL || d->end < t ||
	    (e = store_stacks_walk_find_key(&wk->enq, d->key)) == NULL)
		return NULL;
	return store_stacks_walk_holder(wk, e->tid, e->start);
}

/*
 * Load the enqueue and dequeue spans of torch_npu's task queue, paired by
 * the trace's correlation id or, from a .db, by their connection id.
 */
static int
store_stacks_walk_queue(struct store *s, struct stacks_walk *wk, char **cause)
{
	struct stacks_span	*sp;
	sqlite3_stmt		*stmt;
	const char		*level;
	int			 rc;

	if (store_prepare(s, &stmt, "SELECT a.tid, a.tid, a.start_ns,"
	    " a.end_ns, COALESCE(json_extract(a.args, '$.correlation_id'),"
	    " json_extract(a.args, '$.connection_ids[0]')), l.s"
	    " FROM api a JOIN str l ON l.id = a.level WHERE l.s IN"
	    " ('enqueue', 'dequeue') AND json_valid(a.args)"
	    " ORDER BY a.tid, a.start_ns", cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 4) != SQLITE_INTEGER)
			continue;
		level = (const char *)sqlite3_column_text(stmt, 5);
		sp = store_stacks_walk_add(strcmp(level, "enqueue") == 0 ?
		    &wk->enq : &wk->deq);
		sp->tid = sqlite3_column_int64(stmt, 1);
		sp->start = sqlite3_column_int64(stmt, 2);
		sp->end = sqlite3_column_int64(stmt, 3);
		sp->key = sqlite3_column_int64(stmt, 4);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the task queue: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	if (wk->enq.n > 1)
		qsort(wk->enq.v, wk->enq.n, sizeof *wk->enq.v,
		    store_stacks_walk_key_cmp);
	return 0;
}

static int
store_stacks_walk_flow_cmp(const void *a, const void *b)
{
	const struct stacks_flow	*x = a, *y = b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/*
 * Load the async_npu flows of a trace: where an analysed torch_npu
 * profile has no CANN spans (Level0), they are what ties a kernel to the
 * PyTorch op (or the dequeue) that launched it.
 */
static int
store_stacks_walk_flows(struct store *s, struct stacks_walk *wk, char **cause)
{
	struct stacks_flow	*fl;
	sqlite3_stmt		*stmt;
	int			 rc;

	if (store_prepare(s, &stmt, "SELECT e.tid, e.ts_ns, b.tid, b.ts_ns"
	    " FROM flow b JOIN flow e ON e.id = b.id AND e.cat = b.cat"
	    " AND e.rank IS b.rank AND e.phase = 'f' JOIN str c"
	    " ON c.id = b.cat WHERE b.phase = 's' AND lower(c.s) ="
	    " 'async_npu'", cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		wk->flows = util_grow(wk->flows, wk->nflows, 1,
		    sizeof *wk->flows);
		fl = &wk->flows[wk->nflows++];
		fl->stream = sqlite3_column_int64(stmt, 0);
		fl->start = sqlite3_column_int64(stmt, 1);
		fl->tid = sqlite3_column_int64(stmt, 2);
		fl->ts = sqlite3_column_int64(stmt, 3);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the flows: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	if (wk->nflows > 1)
		qsort(wk->flows, wk->nflows, sizeof *wk->flows,
		    store_stacks_walk_flow_cmp);
	return 0;
}

/* The frame of the async_npu flow ending on the task STREAM at START. */
static struct store_frame *
store_stacks_walk_flow(struct stacks_walk *wk, int64_t stream, int64_t start)
{
	struct stacks_flow	 k, *fl;

	if (wk->nflows == 0)
		return NULL;
	k.stream = stream;
	k.start = start;
	if ((fl = bsearch(&k, wk->flows, wk->nflows, sizeof *wk->flows,
	    store_stacks_walk_flow_cmp)) == NULL)
		return NULL;
	return store_stacks_walk_issuer(wk, fl->tid, fl->ts);
}

/* The frame the task of the current row of STMT goes below. */
static struct store_frame *
store_stacks_walk_task_frame(struct stacks_walk *wk, sqlite3_stmt *stmt,
    bool python)
{
	struct stacks_span	*sp;

	if ((sp = store_stacks_walk_find_key(&wk->ids,
	    store_stacks_walk_i64(stmt, 0))) != NULL ||
	    (sp = store_stacks_walk_find_key(&wk->conns,
	    store_stacks_walk_i64(stmt, 1))) != NULL)
		return sp->frame;
	if (!python)
		return NULL;
	/* No CANN span launched it: the trace's flow may say who did. */
	if (sqlite3_column_type(stmt, 4) == SQLITE_NULL)
		return sqlite3_column_type(stmt, 7) == SQLITE_NULL ? NULL :
		    store_stacks_walk_flow(wk, sqlite3_column_int64(stmt, 7),
		    sqlite3_column_int64(stmt, 8));
	return store_stacks_walk_issuer(wk, sqlite3_column_int64(stmt, 5),
	    sqlite3_column_int64(stmt, 6));
}

/*
 * Put the device time of each task below the frame that launched it, or
 * below "[unlinked device tasks]".
 */
static int
store_stacks_walk_tasks(struct store *s, struct stacks_walk *wk,
    const struct stacks_where *w, bool python, char **cause)
{
	struct store_frame	*f;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	int			 rc;

	if (wk->ids.n > 1)
		qsort(wk->ids.v, wk->ids.n, sizeof *wk->ids.v,
		    store_stacks_walk_key_cmp);
	if (wk->conns.n > 1)
		qsort(wk->conns.v, wk->conns.n, sizeof *wk->conns.v,
		    store_stacks_walk_key_cmp);
	if (python && (store_stacks_walk_queue(s, wk, cause) != 0 ||
	    store_stacks_walk_flows(s, wk, cause) != 0))
		return -1;
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT t.api, t.conn, t.dur_ns, n.s, l.pid, l.tid,"
	    " l.start_ns, t.stream, t.start_ns FROM task t"
	    " LEFT JOIN str n ON n.id = t.name"
	    " LEFT JOIN api l ON l.id = COALESCE(t.api, (SELECT c.id FROM"
	    " api c WHERE c.conn = t.conn ORDER BY c.id LIMIT 1)) WHERE 1");
	store_stacks_walk_where(&b, w, "t", true);
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		f = store_stacks_walk_task_frame(wk, stmt, python);
		if (f == NULL)
			f = store_stacks_frame_child(wk->st->root,
			    "[unlinked device tasks]");
		f = store_stacks_frame_child(f, store_stacks_walk_text(stmt,
		    3));
		f->self += sqlite3_column_int64(stmt, 2);
		f->count++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read tasks: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

static void
store_stacks_walk_free(struct stacks_walk *wk)
{
	free(wk->open);
	free(wk->spans.v);
	free(wk->ids.v);
	free(wk->conns.v);
	free(wk->deq.v);
	free(wk->enq.v);
	free(wk->flows);
}

/*
 * Build ST from the spans of the CANN levels (under MindSpore's ranges,
 * level MindSpore, for that source), of level python, or of the
 * nn.Module spans and level python (SRC), that W selects. -1 with *cause
 * on failure.
 */
int
store_stacks_walk(struct store *s, struct store_stacks *st,
    const struct stacks_where *w, enum store_stacks_source src, char **cause)
{
	bool			 python = src != STACKS_CANN &&
				    src != STACKS_MINDSPORE;
	struct stacks_walk	 wk;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	int64_t			 tid = NP_NA;
	int			 rc;

	memset(&wk, 0, sizeof wk);
	wk.st = st;
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT a.id, a.pid, a.tid, a.start_ns, a.end_ns,"
	    " a.parent, a.conn, n.s, CASE WHEN json_valid(a.args) THEN"
	    " json_extract(a.args, '$.\"Call stack\"') END FROM api a"
	    " JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id = a.name"
	    " WHERE ");
	if (src == STACKS_MODULES)
		strbuf_adds(&b, "(l.s = 'python' OR (l.s = 'python_function'"
		    " AND n.s LIKE 'nn.Module:%'))");
	else if (src == STACKS_MINDSPORE)
		strbuf_adds(&b, "(l.s = 'MindSpore' OR l.s IN "
		    STORE_STACKS_CANN_LEVELS ")");
	else
		strbuf_adds(&b, python ? "l.s = 'python'" :
		    "l.s IN " STORE_STACKS_CANN_LEVELS);
	store_stacks_walk_where(&b, w, "a", false);
	strbuf_adds(&b, " ORDER BY a.tid, a.start_ns, a.end_ns DESC,"
	    " a.id");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	if (rc != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_int64(stmt, 2) != tid) {
			while (wk.nopen > 0)
				store_stacks_walk_close(&wk);
			tid = sqlite3_column_int64(stmt, 2);
		}
		store_stacks_walk_span(&wk, stmt, src == STACKS_PYTHON);
	}
	while (wk.nopen > 0)
		store_stacks_walk_close(&wk);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read spans: %s",
		    sqlite3_errmsg(s->db));
		rc = -1;
	} else if (st->weight == STACKS_DEVICE)
		rc = store_stacks_walk_tasks(s, &wk, w, python, cause);
	else
		rc = 0;
	store_stacks_walk_free(&wk);
	st->from = src == STACKS_MODULES ? "nn.Module spans and PyTorch ops" :
	    src == STACKS_MINDSPORE ? "MindSpore op ranges and CANN API"
	    " spans" : python ? "Python spans with call stacks" :
	    "CANN API spans";
	return rc;
}

/* Append the restriction of W on table alias T to B. */
void
store_stacks_walk_where(struct strbuf *b, const struct stacks_where *w,
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

/* The text of column COL, "?" if it is empty. */
const char *
store_stacks_walk_text(sqlite3_stmt *stmt, int col)
{
	const char	*v = (const char *)sqlite3_column_text(stmt, col);

	return v != NULL && *v != '\0' ? v : "?";
}
