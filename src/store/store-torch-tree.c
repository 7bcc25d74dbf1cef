/*
 * torch_npu's op tree of a raw profile (doc/formats.md section 3.11), as
 * its analysis builds it. The PyTorch ops and the enqueues, in time order
 * (ties: ops first, in file order), nest by time alone: an event that
 * starts after the open op's end closes it, whatever the threads, and an
 * op starts a child of the op still open. An enqueue gives its
 * correlation id's kernels to the open op when that op ran on the
 * enqueue's thread: as the op's own, and to it and every op above it as
 * their total. Without a task queue, each launch time instead goes down
 * the tree from the top: an op holds it when the op is the last child (by
 * start) starting at or before it and ends after it; every op on the way
 * gets the launch's kernels in its total, the last one in its own too.
 * Each sum adds the kernels' microseconds as floats in the vendor's order.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* An event of the tree's build: an op or an enqueue. */
struct torch_event {
	int64_t		 ts;
	int		 kind;		/* 0 op, 1 enqueue */
	size_t		 order;
	size_t		 node;		/* op: its node */
	int64_t		 tid;
	int64_t		 corr;		/* enqueue */
};

static char *
store_torch_tree_text(sqlite3_stmt *stmt, int col)
{
	const char	*t = (const char *)sqlite3_column_text(stmt, col);

	return xstrdup(t != NULL ? t : "");
}

static int
store_torch_tree_event_cmp(const void *a, const void *b)
{
	const struct torch_event	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->order > y->order) - (x->order < y->order);
}

/* Read RANK's ops (into T) and, with a queue, its enqueues, as events. */
static int
store_torch_tree_events(struct store *s, int64_t rank, bool queue,
    struct store_torch_tree *t, struct torch_event **out, size_t *nout)
{
	struct torch_event	*v = NULL;
	struct store_torch_node	*nd;
	sqlite3_stmt		*stmt;
	size_t			 n = 0;
	int			 rc;

	if (store_load_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, a.tid,"
	    " n.s, json_extract(a.args, '$.\"Input Dims\"'),"
	    " json_extract(a.args, '$.\"Call stack\"'), a.pid FROM api a"
	    " JOIN str l ON l.id = a.level JOIN str n ON n.id = a.name"
	    " WHERE l.s = 'python' AND a.rank IS ?1 AND (a.args IS NULL"
	    " OR json_valid(a.args)) ORDER BY a.id") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		t->n = util_grow(t->n, t->nn, 1, sizeof *t->n);
		nd = &t->n[t->nn];
		memset(nd, 0, sizeof *nd);
		nd->start = sqlite3_column_int64(stmt, 0);
		nd->end = sqlite3_column_int64(stmt, 1);
		nd->tid = sqlite3_column_int64(stmt, 2);
		nd->pid = sqlite3_column_int64(stmt, 6);
		nd->name = store_torch_tree_text(stmt, 3);
		nd->dims = store_torch_tree_text(stmt, 4);
		nd->stack = store_torch_tree_text(stmt, 5);
		v = util_grow(v, n, 1, sizeof *v);
		v[n].ts = nd->start;
		v[n].kind = 0;
		v[n].order = n;
		v[n].node = t->nn++;
		n++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		goto fail;
	if (queue) {
		/* The vendor lists them in the order their ends were marked. */
		if (store_load_prepare(s, &stmt, "SELECT a.start_ns, a.tid,"
		    " json_extract(a.args, '$.correlation_id') FROM api a"
		    " JOIN str l ON l.id = a.level WHERE l.s = 'enqueue'"
		    " AND a.rank IS ?1 AND json_valid(a.args)"
		    " ORDER BY a.end_ns, a.id") != 0)
			goto fail;
		store_load_bind_i64(stmt, 1, rank);
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			if (sqlite3_column_type(stmt, 2) != SQLITE_INTEGER)
				continue;
			v = util_grow(v, n, 1, sizeof *v);
			v[n].ts = sqlite3_column_int64(stmt, 0);
			v[n].kind = 1;
			v[n].order = n;
			v[n].tid = sqlite3_column_int64(stmt, 1);
			v[n].corr = sqlite3_column_int64(stmt, 2);
			n++;
		}
		sqlite3_finalize(stmt);
		if (rc != SQLITE_DONE)
			goto fail;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, store_torch_tree_event_cmp);
	*out = v;
	*nout = n;
	return 0;
fail:
	free(v);
	return -1;
}

/* Add the kernels of launch L of R to sum K (and K + 2, AI Core) of ND. */
static void
store_torch_tree_add(struct store_torch_node *nd, int k,
    const struct store_torch *r,
    const struct store_torch_launch *l)
{
	size_t	 i;

	for (i = l->k0; i < l->k0 + l->nk; i++) {
		nd->sum[k] += r->k[i].dur_us;
		nd->any[k] = true;
		if (r->k[i].aicore) {
			nd->sum[k + 2] += r->k[i].dur_us;
			nd->any[k + 2] = true;
		}
	}
}

/* An enqueue of CORR under open op AT: own and total kernels up the tree. */
static void
store_torch_tree_enqueue(struct store_torch_tree *t, size_t at, int64_t corr,
    const struct store_torch *r)
{
	const struct store_torch_corr	*c;
	size_t				 i, n, k;

	/* Every op up the tree has the id, kernels or not (steps use it). */
	for (k = at; k != SIZE_MAX; k = t->n[k].parent)
		t->n[k].corrs = true;
	if ((c = store_torch_corr(r, corr, &n)) == NULL)
		return;
	for (i = 0; i < n; i++)
		store_torch_tree_add(&t->n[at], 0, r, &r->l[c[i].l]);
	for (k = at; k != SIZE_MAX; k = t->n[k].parent) {
		if (!t->n[k].kcorrs || corr < t->n[k].cmin)
			t->n[k].cmin = corr;
		if (!t->n[k].kcorrs || corr > t->n[k].cmax)
			t->n[k].cmax = corr;
		t->n[k].kcorrs = true;
		for (i = 0; i < n; i++)
			store_torch_tree_add(&t->n[k], 1, r, &r->l[c[i].l]);
	}
}

/* Build the tree from events V (N), as the vendor does. */
static void
store_torch_tree_build(struct store_torch_tree *t, const struct torch_event *v,
    size_t n, const struct store_torch *r)
{
	size_t	 i, open = SIZE_MAX, *fill, k, m;

	for (i = 0; i < n; i++) {
		while (open != SIZE_MAX && v[i].ts > t->n[open].end)
			open = t->n[open].parent;
		if (v[i].kind == 1) {
			if (open != SIZE_MAX && t->n[open].tid == v[i].tid &&
			    r != NULL)
				store_torch_tree_enqueue(t, open, v[i].corr, r);
			continue;
		}
		k = v[i].node;
		t->n[k].parent = open;
		if (open != SIZE_MAX) {
			t->n[open].nkids++;
			t->n[open].kids_ns += t->n[k].end - t->n[k].start;
		} else
			t->ntop++;
		open = k;
	}
	/* The children of each node, in the order they were made. */
	t->kids = xcalloc(t->nn + 1, sizeof *t->kids);
	t->top = xcalloc(t->ntop + 1, sizeof *t->top);
	fill = xcalloc(t->nn + 1, sizeof *fill);
	for (i = 0, k = 0; i < t->nn; i++) {
		t->n[i].kid0 = k;
		k += t->n[i].nkids;
	}
	t->ntop = 0;
	t->order = xcalloc(t->nn + 1, sizeof *t->order);
	for (i = 0, m = 0; i < n; i++) {
		if (v[i].kind != 0)
			continue;
		k = v[i].node;
		t->order[m++] = k;
		if (t->n[k].parent == SIZE_MAX)
			t->top[t->ntop++] = k;
		else
			t->kids[t->n[t->n[k].parent].kid0 +
			    fill[t->n[k].parent]++] = k;
	}
	free(fill);
}

/*
 * The child among KIDS (N, by start) that holds TS: the last one starting
 * at or before it (the first if none does), if it ends after TS.
 */
static size_t
store_torch_tree_match(const struct store_torch_tree *t, const size_t *kids,
    size_t n, int64_t ts)
{
	size_t	 lo = 0, hi, mid;

	if (n == 0)
		return SIZE_MAX;
	hi = n - 1;
	while (hi > lo) {
		mid = lo + (hi - lo + 1) / 2;
		if (ts >= t->n[kids[mid]].start)
			lo = mid;
		else
			hi = mid - 1;
	}
	return t->n[kids[lo]].end > ts ? kids[lo] : SIZE_MAX;
}

/* Without a queue: each launch time down the tree. */
static void
store_torch_tree_launches(struct store_torch_tree *t,
    const struct store_torch *r)
{
	size_t	 i, j, m, at, next;

	for (i = 0; i < r->nl; i = j) {
		/* One launch time is one key of the vendor's. */
		for (j = i + 1; j < r->nl && r->l[j].start == r->l[i].start;
		    j++)
			;
		at = store_torch_tree_match(t, t->top, t->ntop, r->l[i].start);
		while (at != SIZE_MAX) {
			next = store_torch_tree_match(t, t->kids +
			    t->n[at].kid0, t->n[at].nkids, r->l[i].start);
			for (m = i; m < j; m++) {
				store_torch_tree_add(&t->n[at], 1, r, &r->l[m]);
				if (next == SIZE_MAX)
					store_torch_tree_add(&t->n[at], 0, r,
					    &r->l[m]);
			}
			at = next;
		}
	}
}

/*
 * Build the op tree of rank RANK into *T; with the relation R (NULL for
 * the tree alone) the enqueues and launches give the ops their kernels.
 * Return -1 if the store cannot be read.
 */
int
store_torch_tree_load(struct store *s, int64_t rank,
    const struct store_torch *r, struct store_torch_tree *t)
{
	struct torch_event	*v = NULL;
	size_t			 n = 0;

	memset(t, 0, sizeof *t);
	if (store_torch_tree_events(s, rank, r != NULL && r->queue, t, &v,
	    &n) != 0)
		return -1;
	store_torch_tree_build(t, v, n, r);
	if (r != NULL && !r->queue)
		store_torch_tree_launches(t, r);
	free(v);
	return 0;
}

void
store_torch_tree_release(struct store_torch_tree *t)
{
	size_t	 i;

	for (i = 0; i < t->nn; i++) {
		free(t->n[i].name);
		free(t->n[i].dims);
		free(t->n[i].stack);
	}
	free(t->n);
	free(t->kids);
	free(t->top);
	free(t->order);
	memset(t, 0, sizeof *t);
}
