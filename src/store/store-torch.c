/*
 * How torch_npu's analysis ties the PyTorch ops of a raw profile to its
 * kernels (doc/formats.md section 3.11): the relation both the kernels'
 * Step Id (here) and operator_details (store-torch-ops.c) are built on.
 * A launch is the time of host task records with kernels (task.launch_ns,
 * where the vendor's host-to-device flows start). With task queue marks each
 * launch belongs to the first dequeue, in the order their ends were
 * marked, that holds its start, walked as the vendor walks them; the
 * enqueue of the same correlation id then stands for it.
 *
 * Steps: only ProfilerStep#N ops at the top of the op tree count (the
 * tree nests by time alone, so a step that starts while an op of another
 * thread is open counts not). A step's launches are those of the enqueues
 * the tree gave it or, without a queue, the launches that start inside it
 * (any thread). Its device range runs from the earliest kernel
 * start of its first launch to the later of the step's end and the latest
 * kernel end of its last; a step without launches has no range. Each
 * kernel without a step takes the first step, in start order, whose range
 * holds its start.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/*
 * Read the launches of RANK with their kernels, in time order: a launch is
 * the time of the host tasks (task_track records) its kernels came from,
 * the start of the vendor's host-to-device flows.
 */
static int
store_torch_launches(struct store *s, int64_t rank, struct store_torch *r)
{
	struct store_torch_launch	*l = NULL;
	sqlite3_stmt			*stmt;
	int64_t				 at, ks, ke;
	int				 rc;

	if (store_load_prepare(s, &stmt, "SELECT t.launch_ns, t.start_ns,"
	    " t.dur_ns, tt.s = 'AI_CORE' FROM task t LEFT JOIN str tt"
	    " ON tt.id = t.task_type WHERE t.rank IS ?1"
	    " AND t.launch_ns IS NOT NULL"
	    " ORDER BY t.launch_ns, t.start_ns, t.id") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		at = sqlite3_column_int64(stmt, 0);
		if (r->nl == 0 || at != l->start) {
			r->l = util_grow(r->l, r->nl, 1, sizeof *r->l);
			l = &r->l[r->nl++];
			l->start = at;
			l->kmin = INT64_MAX;
			l->kmax = INT64_MIN;
			l->corr = -1;
			l->k0 = r->nk;
			l->nk = 0;
		}
		ks = sqlite3_column_int64(stmt, 1);
		ke = ks + sqlite3_column_int64(stmt, 2);
		l->kmin = ks < l->kmin ? ks : l->kmin;
		l->kmax = ke > l->kmax ? ke : l->kmax;
		r->k = util_grow(r->k, r->nk, 1, sizeof *r->k);
		r->k[r->nk].dur_us = (double)sqlite3_column_int64(stmt, 2) /
		    1000.0;
		r->k[r->nk].aicore = sqlite3_column_int(stmt, 3) == 1;
		r->nk++;
		l->nk++;
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
store_torch_corr_cmp(const void *a, const void *b)
{
	const struct store_torch_corr	*x = a, *y = b;

	if (x->corr != y->corr)
		return (x->corr > y->corr) - (x->corr < y->corr);
	return (x->l > y->l) - (x->l < y->l);
}

/* Index the launches by correlation id, each id's in launch order. */
static void
store_torch_corrs(struct store_torch *r)
{
	size_t	 i;

	for (i = 0; i < r->nl; i++) {
		if (r->l[i].corr < 0)
			continue;
		r->c = util_grow(r->c, r->nc, 1, sizeof *r->c);
		r->c[r->nc].corr = r->l[i].corr;
		r->c[r->nc].l = i;
		r->nc++;
	}
	if (r->nc > 1)
		qsort(r->c, r->nc, sizeof *r->c, store_torch_corr_cmp);
}

/*
 * The launches of correlation id CORR: the first index entry, and their
 * number in *N (0, with NULL, if it has none).
 */
const struct store_torch_corr *
store_torch_corr(const struct store_torch *r, int64_t corr, size_t *n)
{
	size_t	 lo = 0, hi = r->nc, mid, k;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->c[mid].corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < r->nc && r->c[k].corr == corr; k++)
		;
	*n = k - lo;
	return *n > 0 ? &r->c[lo] : NULL;
}

/*
 * Read the dequeues of RANK, in the order their ends were marked, and
 * give each launch the first dequeue from the current one on that holds
 * its start, as the vendor walks them.
 */
static int
store_torch_dequeues(struct store *s, int64_t rank, struct store_torch *r)
{
	sqlite3_stmt	*stmt;
	int64_t		*ds = NULL, *de = NULL, *dc = NULL;
	size_t		 i, k = 0, nd = 0;
	int		 rc;

	if (store_load_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns,"
	    " json_extract(a.args, '$.correlation_id') FROM api a"
	    " JOIN str l ON l.id = a.level WHERE l.s = 'dequeue'"
	    " AND a.rank IS ?1 AND json_valid(a.args)"
	    " ORDER BY a.end_ns, a.id") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 2) != SQLITE_INTEGER)
			continue;
		ds = util_grow(ds, nd, 1, sizeof *ds);
		de = util_grow(de, nd, 1, sizeof *de);
		dc = util_grow(dc, nd, 1, sizeof *dc);
		ds[nd] = sqlite3_column_int64(stmt, 0);
		de[nd] = sqlite3_column_int64(stmt, 1);
		dc[nd++] = sqlite3_column_int64(stmt, 2);
	}
	sqlite3_finalize(stmt);
	for (i = 0; rc == SQLITE_DONE && i < r->nl; i++) {
		while (k < nd && ds[k] <= r->l[i].start) {
			if (r->l[i].start <= de[k]) {
				r->l[i].corr = dc[k];
				break;
			}
			k++;
		}
	}
	free(ds);
	free(de);
	free(dc);
	if (rc != SQLITE_DONE)
		return -1;
	store_torch_corrs(r);
	return 0;
}

/* Load the relation of RANK's ops and kernels; QUEUE if it has marks. */
int
store_torch_load(struct store *s, int64_t rank, bool queue,
    struct store_torch *r)
{
	memset(r, 0, sizeof *r);
	r->queue = queue;
	if (store_torch_launches(s, rank, r) != 0)
		return -1;
	if (queue && store_torch_dequeues(s, rank, r) != 0)
		return -1;
	return 0;
}

void
store_torch_release(struct store_torch *r)
{
	free(r->l);
	free(r->k);
	free(r->c);
	memset(r, 0, sizeof *r);
}

/* The kernels' first start (LAST: last end) of correlation id CORR. */
static int64_t
store_torch_steps_corr(const struct store_torch *r, int64_t corr, bool last)
{
	const struct store_torch_corr	*c;
	const struct store_torch_launch	*l;
	int64_t				 v = last ? INT64_MIN : INT64_MAX;
	size_t				 i, n;

	if ((c = store_torch_corr(r, corr, &n)) == NULL)
		return v;
	for (i = 0; i < n; i++) {
		l = &r->l[c[i].l];
		if (last)
			v = l->kmax > v ? l->kmax : v;
		else
			v = l->kmin < v ? l->kmin : v;
	}
	return v;
}

/*
 * The device range of step op ND of a profile with a task queue, by the
 * enqueue ids the tree gave it, into *DMIN and *DMAX. Return false if it
 * has none.
 */
static bool
store_torch_steps_queued(const struct store_torch_node *nd,
    const struct store_torch *r, int64_t *dmin, int64_t *dmax)
{
	int64_t	 hi;

	if (!nd->corrs)
		return false;
	*dmin = nd->start;
	*dmax = nd->end;
	if (!nd->kcorrs)
		return true;
	/* The lowest and the highest ids that have kernels. */
	*dmin = store_torch_steps_corr(r, nd->cmin, false);
	hi = store_torch_steps_corr(r, nd->cmax, true);
	*dmax = hi > nd->end ? hi : nd->end;
	return true;
}

/* The first launch of R that starts at or after T. */
static size_t
store_torch_steps_bisect(const struct store_torch *r, int64_t t)
{
	size_t	 lo = 0, hi = r->nl, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->l[mid].start < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The same for a profile without a task queue: launches by time. */
static bool
store_torch_steps_direct(int64_t start, int64_t end,
    const struct store_torch *r, int64_t *dmin, int64_t *dmax)
{
	size_t	 first, last;

	first = store_torch_steps_bisect(r, start);
	last = end == INT64_MAX ? r->nl : store_torch_steps_bisect(r,
	    end + 1);
	if (first >= last)
		return false;
	*dmin = r->l[first].kmin;
	*dmax = r->l[last - 1].kmax;
	if (end > *dmax)
		*dmax = end;
	return true;
}

/* A step with a device range. */
struct torch_range {
	int64_t		 step;
	int64_t		 dmin;
	int64_t		 dmax;
};

/*
 * Give each kernel of RANK without a step the first of the N ranges V (in
 * start order) that holds its start: the kernels are read once, in start
 * order, and each range takes those of its stretch still without one.
 */
static void
store_torch_steps_assign(struct store *s, int64_t rank,
    const struct torch_range *v, size_t n)
{
	sqlite3_stmt	*stmt, *up;
	int64_t		*id = NULL, *st = NULL, *step;
	size_t		 nt = 0, i, k, lo, hi, mid;
	int		 rc;

	if (store_load_prepare(s, &stmt, "SELECT id, start_ns FROM task"
	    " WHERE rank IS ?1 AND step IS NULL ORDER BY start_ns, id") != 0)
		return;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		id = util_grow(id, nt, 1, sizeof *id);
		st = util_grow(st, nt, 1, sizeof *st);
		id[nt] = sqlite3_column_int64(stmt, 0);
		st[nt++] = sqlite3_column_int64(stmt, 1);
	}
	sqlite3_finalize(stmt);
	step = xcalloc(nt + 1, sizeof *step);
	for (i = 0; i < nt; i++)
		step[i] = INT64_MIN;
	for (k = 0; rc == SQLITE_DONE && k < n; k++) {
		for (lo = 0, hi = nt; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (st[mid] < v[k].dmin)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < nt && st[i] <= v[k].dmax; i++)
			if (step[i] == INT64_MIN)
				step[i] = v[k].step;
	}
	if (store_load_prepare(s, &up, "UPDATE task SET step = ?1 WHERE"
	    " id = ?2") == 0) {
		for (i = 0; i < nt; i++) {
			if (step[i] == INT64_MIN)
				continue;
			sqlite3_bind_int64(up, 1, step[i]);
			sqlite3_bind_int64(up, 2, id[i]);
			store_write(s, up);
			sqlite3_reset(up);
		}
		sqlite3_finalize(up);
	}
	free(id);
	free(st);
	free(step);
}

/*
 * Give the kernels of rank RANK the steps of its ProfilerStep#N ops at the
 * top of the op tree T (only those count for the vendor), by the relation
 * R. Return the number of steps given a range.
 */
static int64_t
store_torch_steps(struct store *s, int64_t rank, const struct store_torch *r,
    const struct store_torch_tree *t)
{
	const struct store_torch_node	*nd;
	struct torch_range		*v = NULL;
	const char			*num;
	char				*endp;
	long long			 n;
	int64_t				 dmin, dmax;
	size_t				 i, nv = 0;
	bool				 have;

	for (i = 0; i < t->ntop; i++) {
		nd = &t->n[t->top[i]];
		if (strstr(nd->name, "ProfilerStep#") == NULL)
			continue;
		num = strrchr(nd->name, '#') + 1;
		n = strtoll(num, &endp, 10);
		if (*endp != '\0' || endp == num)
			continue;
		if (r->queue)
			have = store_torch_steps_queued(nd, r, &dmin, &dmax);
		else
			have = store_torch_steps_direct(nd->start, nd->end, r,
			    &dmin, &dmax);
		if (!have)
			continue;
		v = util_grow(v, nv, 1, sizeof *v);
		v[nv].step = n;
		v[nv].dmin = dmin;
		v[nv++].dmax = dmax;
	}
	if (nv > 0) {
		store_torch_steps_assign(s, rank, v, nv);
		store_load_meta(s, "torch_steps", "kernel Step Id from the "
		    "ProfilerStep#N ops of FRAMEWORK/");
		store_task_sum_stale(s);
	}
	free(v);
	return (int64_t)nv;
}

/*
 * Tie rank RANK's PyTorch ops to its kernels as torch_npu's analysis
 * does, QUEUE if the profile has task queue marks: the kernels' steps
 * and table operator_details (on device DEVICE). Return -1 with *cause
 * set if the store cannot be read.
 */
int
store_trace_load_torch(struct store *s, int64_t rank, bool queue,
    int64_t device, char **cause)
{
	struct store_torch	 r;
	struct store_torch_tree	 t;
	int			 rc = 0;

	memset(&t, 0, sizeof t);
	if (store_torch_load(s, rank, queue, &r) != 0) {
		xasprintf(cause, "cannot read the launches: %s",
		    sqlite3_errmsg(s->db));
		store_torch_release(&r);
		return -1;
	}
	if (store_torch_tree_load(s, rank, &r, &t) != 0) {
		xasprintf(cause, "cannot read the PyTorch ops: %s",
		    sqlite3_errmsg(s->db));
		rc = -1;
	} else {
		(void)store_torch_steps(s, rank, &r, &t);
		rc = store_torch_ops(s, rank, device, &t, cause);
	}
	store_torch_tree_release(&t);
	store_torch_release(&r);
	return rc;
}
