/*
 * operator_memory of a raw torch_npu profile (doc/formats.md section
 * 3.11): torch_npu's NPU memory records of its own allocator, paired into
 * blocks and named by the PyTorch op that asked for them, as torch_npu's
 * analysis does. Per pointer, in time order, a block starts at a malloc
 * and takes the records after it while they are of a type it does not
 * have yet, up to three (malloc, free, block free). A block is named by
 * its malloc: one made inside a dequeue of the task queue (the last of its
 * thread's to start at or before it, if it holds it) belongs to the
 * enqueue of the same correlation id, and so to the aten (or npu) op, or
 * the first such above it, that was the last to start on the enqueue's
 * thread when the enqueue ended; any other to the op that was the last to
 * start on its own thread, or the first above it still open. The
 * vendor's lookups move forward only, one cursor per thread and kind, and
 * so do these. Only the first process, in time order, that has PyTorch
 * ops is listed, as torch_npu lists it.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The ops of one thread, by start, and the two cursors over them. */
struct torch_thread {
	int64_t		 tid;
	size_t		*ops;
	size_t		 nops;
	size_t		 at[2];		/* direct, through an enqueue */
};

/* The dequeues of one thread of one process, and the cursor. */
struct torch_deqs {
	int64_t				 pid;
	int64_t				 tid;
	const struct store_torch_mark	*v;
	size_t				 n;
	size_t				 at;
};

struct torch_mem {
	const struct store_torch_tree	*t;
	struct torch_thread		*th;
	size_t				 nth;
	struct store_torch_mark		*deq;
	size_t				 ndeq;
	struct torch_deqs		*dg;
	size_t				 ndg;
	struct store_torch_mark		*enq;	/* by correlation id */
	size_t				 nenq;
};

static const char *const store_torch_mem_cols[] = { "Name", "Size(KB)",
	"Allocation Time(us)", "Release Time(us)", "Active Release Time(us)",
	"Duration(us)", "Active Duration(us)",
	"Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
	"Allocation Total Active(MB)", "Release Total Allocated(MB)",
	"Release Total Reserved(MB)", "Release Total Active(MB)", "Stream Ptr",
	"Device Type" };
#define TORCH_MEM_NCOLS							\
	(sizeof store_torch_mem_cols / sizeof *store_torch_mem_cols)

static int
store_torch_mem_mark_cmp(const void *a, const void *b)
{
	const struct store_torch_mark	*x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int
store_torch_mem_corr_cmp(const void *a, const void *b)
{
	const struct store_torch_mark	*x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Group the dequeues by process and thread; index the enqueues by id. */
static void
store_torch_mem_index(struct torch_mem *x)
{
	size_t	 i, j;

	if (x->ndeq > 1)
		qsort(x->deq, x->ndeq, sizeof *x->deq,
		    store_torch_mem_mark_cmp);
	for (i = 0; i < x->ndeq; i = j) {
		for (j = i + 1; j < x->ndeq && x->deq[j].pid == x->deq[i].pid &&
		    x->deq[j].tid == x->deq[i].tid; j++)
			;
		x->dg = util_grow(x->dg, x->ndg, 1, sizeof *x->dg);
		x->dg[x->ndg].pid = x->deq[i].pid;
		x->dg[x->ndg].tid = x->deq[i].tid;
		x->dg[x->ndg].v = &x->deq[i];
		x->dg[x->ndg].n = j - i;
		x->dg[x->ndg].at = 0;
		x->ndg++;
	}
	if (x->nenq > 1)
		qsort(x->enq, x->nenq, sizeof *x->enq,
		    store_torch_mem_corr_cmp);
}

/* The ops of process PID per thread, by start, but two kinds. */
static void
store_torch_mem_threads(struct torch_mem *x, int64_t pid)
{
	const struct store_torch_node	*nd;
	struct torch_thread		*th;
	size_t				 i, k;

	for (i = 0; i < x->t->nn; i++) {
		nd = &x->t->n[x->t->order[i]];
		if (nd->pid != pid || strcmp(nd->name, "empty_tensor") == 0 ||
		    strcmp(nd->name, "malloc_workspace") == 0)
			continue;
		for (k = 0; k < x->nth && x->th[k].tid != nd->tid; k++)
			;
		if (k == x->nth) {
			x->th = util_grow(x->th, x->nth, 1, sizeof *x->th);
			memset(&x->th[k], 0, sizeof x->th[k]);
			x->th[k].tid = nd->tid;
			x->nth++;
		}
		th = &x->th[k];
		th->ops = util_grow(th->ops, th->nops, 1, sizeof *th->ops);
		th->ops[th->nops++] = x->t->order[i];
	}
}

/* The last op of thread TID to start at or before TS, by cursor K. */
static size_t
store_torch_mem_last_op(struct torch_mem *x, int k, int64_t tid, int64_t ts)
{
	struct torch_thread	*th;
	size_t			 i;

	for (i = 0; i < x->nth && x->th[i].tid != tid; i++)
		;
	if (i == x->nth)
		return SIZE_MAX;
	th = &x->th[i];
	while (th->at[k] < th->nops && x->t->n[th->ops[th->at[k]]].start <= ts)
		th->at[k]++;
	return th->at[k] == 0 ? SIZE_MAX : th->ops[th->at[k] - 1];
}

/* The dequeue that holds malloc M, or NULL. */
static const struct store_torch_mark *
store_torch_mem_dequeue(struct torch_mem *x, const struct store_torch_mem *m)
{
	struct torch_deqs	*g;
	const struct store_torch_mark	*d;
	size_t			 i;
	bool			 pid = false, tid = false;

	for (i = 0; i < x->ndg; i++) {
		pid = pid || x->dg[i].pid == m->pid;
		tid = tid || x->dg[i].tid == m->tid;
	}
	if (!pid || !tid)
		return NULL;
	for (i = 0; i < x->ndg; i++)
		if (x->dg[i].pid == m->pid && x->dg[i].tid == m->tid)
			break;
	if (i == x->ndg)
		return NULL;
	g = &x->dg[i];
	while (g->at < g->n && g->v[g->at].start <= m->ts)
		g->at++;
	if (g->at == 0)
		return NULL;
	d = &g->v[g->at - 1];
	return d->start <= m->ts && m->ts < d->end ? d : NULL;
}

/* The last enqueue of correlation id CORR, or NULL. */
static const struct store_torch_mark *
store_torch_mem_enqueue(const struct torch_mem *x, int64_t corr)
{
	size_t	 lo = 0, hi = x->nenq, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->enq[mid].corr <= corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && x->enq[lo - 1].corr == corr ? &x->enq[lo - 1] : NULL;
}

/* The name of the op malloc M belongs to, or "". */
static const char *
store_torch_mem_name(struct torch_mem *x, const struct store_torch_mem *m)
{
	const struct store_torch_tree	*t = x->t;
	const struct store_torch_mark	*d, *e;
	size_t				 at;

	if ((d = store_torch_mem_dequeue(x, m)) != NULL) {
		if ((e = store_torch_mem_enqueue(x, d->corr)) == NULL)
			return "";
		at = store_torch_mem_last_op(x, 1, e->tid, e->end);
		while (at != SIZE_MAX && strncmp(t->n[at].name, "aten", 4) !=
		    0 && strncmp(t->n[at].name, "npu", 3) != 0)
			at = t->n[at].parent;
		return at != SIZE_MAX ? t->n[at].name : "";
	}
	at = store_torch_mem_last_op(x, 0, m->tid, m->ts);
	while (at != SIZE_MAX && t->n[at].end < m->ts)
		at = t->n[at].parent;
	return at != SIZE_MAX ? t->n[at].name : "";
}

static int
store_torch_mem_cmp(const void *a, const void *b)
{
	const struct store_torch_mem	*x = *(const struct store_torch_mem
	    *const *)a;
	const struct store_torch_mem	*y = *(const struct store_torch_mem
	    *const *)b;

	if (x->ptr != y->ptr)
		return x->ptr < y->ptr ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A block: its records (malloc first), and where its pointer came first. */
struct torch_block {
	const struct store_torch_mem	*r[3];
	int				 n;
	int64_t				 first_ts;
	size_t				 first;
};

static int
store_torch_mem_block_cmp(const void *a, const void *b)
{
	const struct torch_block	*x = a, *y = b;

	if (x->r[0]->ts != y->r[0]->ts)
		return x->r[0]->ts < y->r[0]->ts ? -1 : 1;
	/* Ties keep the pointers in the order they first came. */
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->r[0] < y->r[0] ? -1 : x->r[0] > y->r[0];
}

/* Whether block B already has a record of TYPE. */
static bool
store_torch_mem_has(const struct torch_block *b, int type)
{
	int	 i;

	for (i = 0; i < b->n; i++)
		if (b->r[i]->type == type)
			return true;
	return false;
}

/*
 * Pair the records of P (N, one pointer's, in time order; the pointer
 * first seen at FIRST_TS, record FIRST) into blocks as the vendor does;
 * append them to *B.
 */
static void
store_torch_mem_pair(const struct store_torch_mem **p, size_t n,
    int64_t first_ts, size_t first, struct torch_block **b, size_t *nb)
{
	struct torch_block	 cur;
	size_t			 l = 0, r = 0;

	memset(&cur, 0, sizeof cur);
	while (l < n && r < n) {
		if (p[l]->type != 0) {
			r = ++l;
			continue;
		}
		if (cur.n < 3 && !store_torch_mem_has(&cur, p[r]->type)) {
			cur.r[cur.n++] = p[r++];
			continue;
		}
		cur.first_ts = first_ts;
		cur.first = first;
		*b = util_grow(*b, *nb, 1, sizeof **b);
		(*b)[(*nb)++] = cur;
		memset(&cur, 0, sizeof cur);
		l = r;
	}
	if (cur.n > 0) {
		cur.first_ts = first_ts;
		cur.first = first;
		*b = util_grow(*b, *nb, 1, sizeof **b);
		(*b)[(*nb)++] = cur;
	}
}

/* A time or a span of ns as the vendor prints it, into BUF. */
static void
store_torch_mem_us(char *buf, size_t size, int64_t ns)
{
	util_fmt_us(buf, size, ns, 3, false);
}

static void
store_torch_mem_mb(char *buf, size_t size, int64_t bytes)
{
	util_fmt_pyfloat(buf, size, (double)bytes / (1024.0 * 1024.0));
}

/* Write block B's row, named NAME, on device tag DEV. */
static void
store_torch_mem_row(struct store *s, const struct torch_block *b,
    const char *name, const char *dev, int64_t *incomplete)
{
	const struct store_torch_mem	*a = b->r[0], *fr = NULL, *ac = NULL;
	const struct store_torch_mem	*rel;
	char				 c[TORCH_MEM_NCOLS][48];
	char				*row[TORCH_MEM_NCOLS];
	size_t				 i;
	int				 k;

	for (i = 0; i < TORCH_MEM_NCOLS; i++) {
		c[i][0] = '\0';
		row[i] = c[i];
	}
	for (k = 1; k < b->n; k++) {
		if (b->r[k]->type == 1)
			fr = b->r[k];
		else if (b->r[k]->type == 2)
			ac = b->r[k];
	}
	/* Caching blocks without a free or a block free are incomplete. */
	if (!a->workspace)
		*incomplete += b->n == 1 ? 2 : b->n == 2 ? 1 : 0;
	snprintf(c[0], sizeof c[0], "%s", name);
	row[0] = (char *)name;
	util_fmt_pyfloat(c[1], sizeof c[1], (double)a->size / 1024.0);
	store_torch_mem_us(c[2], sizeof c[2], a->ts);
	if (fr != NULL) {
		store_torch_mem_us(c[3], sizeof c[3], fr->ts);
		store_torch_mem_us(c[5], sizeof c[5], fr->ts - a->ts);
	}
	if (ac != NULL) {
		store_torch_mem_us(c[4], sizeof c[4], ac->ts);
		store_torch_mem_us(c[6], sizeof c[6], ac->ts - a->ts);
	}
	store_torch_mem_mb(c[7], sizeof c[7], a->allocated);
	store_torch_mem_mb(c[8], sizeof c[8], a->reserved);
	store_torch_mem_mb(c[9], sizeof c[9], a->active);
	/* Released: with three records the free's totals, else the 2nd's. */
	rel = b->n == 3 ? fr : b->n == 2 ? b->r[1] : NULL;
	if (rel != NULL) {
		store_torch_mem_mb(c[10], sizeof c[10], rel->allocated);
		store_torch_mem_mb(c[11], sizeof c[11], rel->reserved);
		store_torch_mem_mb(c[12], sizeof c[12], rel->active);
	}
	snprintf(c[13], sizeof c[13], "%lld", (long long)a->stream);
	snprintf(c[14], sizeof c[14], "%s", dev);
	store_load_generic_row(s, row, TORCH_MEM_NCOLS);
}

/*
 * Write table operator_memory of rank RANK from the N memory records M
 * (any order), DEVICE the collection's one device (NP_NA if several).
 * Set *INCOMPLETE to the vendor's count of incomplete records. Return -1
 * with *cause set on failure.
 */
int
store_torch_mem_load(struct store *s, int64_t rank, int64_t device,
    const struct store_torch_mem *m, size_t n, int64_t *incomplete,
    char **cause)
{
	struct store_torch_tree		  t;
	struct torch_mem		  x;
	struct torch_block		 *b = NULL;
	const struct store_torch_mem	**p = NULL, *first = NULL;
	struct util_map			  pids;
	char				  dev[32];
	size_t				  np = 0, nb = 0, i, j, k;
	uint64_t			  v;
	int64_t				  pid = 0;
	int				  rc = -1;

	*incomplete = 0;
	memset(&x, 0, sizeof x);
	if (store_torch_tree_load(s, rank, NULL, &t) != 0 ||
	    store_torch_marks(s, rank, "dequeue", &x.deq, &x.ndeq) != 0 ||
	    store_torch_marks(s, rank, "enqueue", &x.enq, &x.nenq) != 0) {
		xasprintf(cause, "cannot read the PyTorch ops: %s",
		    sqlite3_errmsg(s->db));
		goto out;
	}
	x.t = &t;
	store_torch_mem_index(&x);
	/* The first process, in time order, that has PyTorch ops. */
	util_map_init(&pids);
	for (k = 0; k < t.nn; k++)
		util_map_set(&pids, (uint64_t)t.n[k].pid, 1);
	for (i = 0; i < n; i++) {
		if (!m[i].inner || (first != NULL && (m[i].ts > first->ts ||
		    (m[i].ts == first->ts && &m[i] > first))))
			continue;
		if (util_map_get(&pids, (uint64_t)m[i].pid, &v))
			first = &m[i];
	}
	util_map_release(&pids);
	if (first == NULL) {
		rc = 0;
		goto out;
	}
	pid = first->pid;
	store_torch_mem_threads(&x, pid);
	for (i = 0; i < n; i++)
		if (m[i].inner && m[i].pid == pid) {
			p = util_grow(p, np, 1, sizeof *p);
			p[np++] = &m[i];
		}
	/* Per pointer, in time order; pointers by their first record. */
	if (np > 1)
		qsort(p, np, sizeof *p, store_torch_mem_cmp);
	for (i = 0; i < np; i = j) {
		for (j = i + 1; j < np && p[j]->ptr == p[i]->ptr; j++)
			;
		store_torch_mem_pair(p + i, j - i, p[i]->ts, (size_t)(p[i] -
		    m), &b, &nb);
	}
	if (nb > 1)
		qsort(b, nb, sizeof *b, store_torch_mem_block_cmp);
	if (store_load_generic_begin(s, "operator_memory", device, rank,
	    (char **)store_torch_mem_cols, TORCH_MEM_NCOLS, cause) != 0)
		goto out;
	for (i = 0; i < nb; i++) {
		snprintf(dev, sizeof dev, "NPU:%lld", device != NP_NA ?
		    (long long)device : (long long)b[i].r[0]->device);
		store_torch_mem_row(s, &b[i], store_torch_mem_name(&x,
		    b[i].r[0]), dev, incomplete);
	}
	rc = 0;
out:
	store_torch_tree_release(&t);
	for (i = 0; i < x.nth; i++)
		free(x.th[i].ops);
	free(x.th);
	free(x.deq);
	free(x.enq);
	free(x.dg);
	free(p);
	free(b);
	return rc;
}
