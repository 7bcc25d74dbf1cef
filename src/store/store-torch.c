/*
 * How torch_npu's analysis ties the PyTorch ops of a raw profile to its
 * kernels (doc/formats.md section 3.11): the relation the kernels' Step Id
 * (store-torch-steps.c), the op tree and operator_details
 * (store-torch-tree.c, store-torch-ops.c) are built on. A launch is the
 * time of host task records with kernels (task.launch_ns, where the
 * vendor's host-to-device flows start). With task queue marks each launch
 * belongs to the first dequeue, in the order their ends were marked, that
 * holds its start, walked as the vendor walks them; the enqueue of the
 * same correlation id then stands for it.
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

/* Read RANK's spans of LEVEL (dequeue, enqueue), in end order. */
int
store_torch_marks(struct store *s, int64_t rank, const char *level,
    struct store_torch_mark **out, size_t *nout)
{
	struct store_torch_mark	*v = NULL;
	sqlite3_stmt		*stmt;
	size_t			 n = 0;
	int			 rc;

	*out = NULL;
	*nout = 0;
	if (store_load_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, a.pid,"
	    " a.tid, json_extract(a.args, '$.correlation_id') FROM api a"
	    " JOIN str l ON l.id = a.level WHERE l.s = ?2 AND a.rank IS ?1"
	    " AND json_valid(a.args) ORDER BY a.end_ns, a.id") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_text(stmt, 2, level, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 4) != SQLITE_INTEGER)
			continue;
		v = util_grow(v, n, 1, sizeof *v);
		v[n].start = sqlite3_column_int64(stmt, 0);
		v[n].end = sqlite3_column_int64(stmt, 1);
		v[n].pid = sqlite3_column_int64(stmt, 2);
		v[n].tid = sqlite3_column_int64(stmt, 3);
		v[n].corr = sqlite3_column_int64(stmt, 4);
		v[n].idx = n;
		n++;
	}
	sqlite3_finalize(stmt);
	*out = v;
	*nout = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Give each launch of RANK the first dequeue, in the order their ends
 * were marked, from the current one on that holds its start, as the
 * vendor walks them.
 */
static int
store_torch_dequeues(struct store *s, int64_t rank, struct store_torch *r)
{
	struct store_torch_mark	*d;
	size_t			 i, k = 0, nd;

	if (store_torch_marks(s, rank, "dequeue", &d, &nd) != 0) {
		free(d);
		return -1;
	}
	for (i = 0; i < r->nl; i++) {
		while (k < nd && d[k].start <= r->l[i].start) {
			if (r->l[i].start <= d[k].end) {
				r->l[i].corr = d[k].corr;
				break;
			}
			k++;
		}
	}
	free(d);
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
