/*
 * Step ids of the kernels of a raw torch_npu profile, from its
 * ProfilerStep#N ops (doc/formats.md section 3.11), as torch_npu's
 * analysis gives kernel_details its Step Id. Only steps at the top of
 * the op tree (store-torch-tree.c) count: the tree nests by time alone,
 * so a step that starts while an op of another thread is open counts
 * not. A step's launches are those of the enqueues the tree gave it or,
 * without a queue, the launches that start inside it (any thread). Its
 * device range runs from the earliest kernel start of its first launch
 * to the later of the step's end and the latest kernel end of its last;
 * a step without launches has no range. Each kernel without a step takes
 * the first step, in start order, whose range holds its start.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

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
int64_t
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
		store_empty_stale(s);
	}
	free(v);
	return (int64_t)nv;
}
