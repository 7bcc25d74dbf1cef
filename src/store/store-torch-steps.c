/*
 * Step ids of the kernels of a raw torch_npu profile, from its PyTorch
 * ProfilerStep#N ops (doc/formats.md section 3.11), as torch_npu's
 * analysis gives kernel_details its Step Id. A step's launches are the
 * node launch spans that start inside it (any thread) or, when the
 * profile has a task queue, the dequeues of the enqueues its thread made
 * inside it, and the launches inside those dequeues. Its device range
 * runs from the earliest kernel start of its first launch that has
 * kernels to the later of the step's end and the latest kernel end of
 * its last such launch; a step without launches has no range. Each
 * kernel without a step takes the first step, in start order, whose range
 * holds its start.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* A launch span with kernels: its start and its kernels' extent. */
struct torch_launch {
	int64_t		 start;
	int64_t		 end;		/* of the span */
	int64_t		 kmin;
	int64_t		 kmax;
	int64_t		 corr;		/* its dequeue's, or -1 */
};

/* A dequeue of the task queue. */
struct torch_deq {
	int64_t		 start;
	int64_t		 end;
	int64_t		 corr;
};

/* What the launches of one correlation id ran on the device. */
struct torch_corr {
	int64_t		 corr;
	int64_t		 kmin;
	int64_t		 kmax;
};

struct torch_steps {
	struct torch_launch	*l;
	size_t			 nl;
	struct torch_deq	*d;
	size_t			 nd;
	struct torch_corr	*c;		/* by correlation id */
	size_t			 nc;
};

/* Read the launch spans of RANK that have kernels, in start order. */
static int
store_torch_steps_launches(struct store *s, int64_t rank,
    struct torch_steps *ts)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (store_load_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns,"
	    " min(t.start_ns), max(t.start_ns + t.dur_ns) FROM task t"
	    " JOIN api a ON a.id = t.api WHERE t.rank IS ?1"
	    " GROUP BY t.api ORDER BY a.start_ns, t.api") != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		ts->l = util_grow(ts->l, ts->nl, 1, sizeof *ts->l);
		ts->l[ts->nl].start = sqlite3_column_int64(stmt, 0);
		ts->l[ts->nl].end = sqlite3_column_int64(stmt, 1);
		ts->l[ts->nl].kmin = sqlite3_column_int64(stmt, 2);
		ts->l[ts->nl].kmax = sqlite3_column_int64(stmt, 3);
		ts->l[ts->nl].corr = -1;
		ts->nl++;
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
store_torch_steps_corr_cmp(const void *a, const void *b)
{
	const struct torch_corr	*x = a, *y = b;

	return (x->corr > y->corr) - (x->corr < y->corr);
}

/* Gather the launches' kernel extents per correlation id. */
static void
store_torch_steps_corrs(struct torch_steps *ts)
{
	struct torch_corr	*c;
	size_t			 i, j;

	for (i = 0; i < ts->nl; i++) {
		if (ts->l[i].corr < 0)
			continue;
		ts->c = util_grow(ts->c, ts->nc, 1, sizeof *ts->c);
		ts->c[ts->nc].corr = ts->l[i].corr;
		ts->c[ts->nc].kmin = ts->l[i].kmin;
		ts->c[ts->nc].kmax = ts->l[i].kmax;
		ts->nc++;
	}
	if (ts->nc > 1)
		qsort(ts->c, ts->nc, sizeof *ts->c,
		    store_torch_steps_corr_cmp);
	for (i = j = 0; i < ts->nc; i++) {
		c = &ts->c[j];
		if (j > 0 && ts->c[j - 1].corr == ts->c[i].corr) {
			c = &ts->c[j - 1];
			c->kmin = ts->c[i].kmin < c->kmin ? ts->c[i].kmin :
			    c->kmin;
			c->kmax = ts->c[i].kmax > c->kmax ? ts->c[i].kmax :
			    c->kmax;
			continue;
		}
		*c = ts->c[i];
		j++;
	}
	ts->nc = j;
}

/* The kernel extent of correlation id CORR, or NULL. */
static const struct torch_corr *
store_torch_steps_corr(const struct torch_steps *ts, int64_t corr)
{
	struct torch_corr	 key;

	key.corr = corr;
	return bsearch(&key, ts->c, ts->nc, sizeof *ts->c,
	    store_torch_steps_corr_cmp);
}

/*
 * Read the dequeues of RANK, in the order their ends were marked, and
 * give each launch the first dequeue from the current one on that holds
 * its start, as the vendor walks them.
 */
static int
store_torch_steps_dequeues(struct store *s, int64_t rank,
    struct torch_steps *ts)
{
	sqlite3_stmt	*stmt;
	size_t		 i, k = 0;
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
		ts->d = util_grow(ts->d, ts->nd, 1, sizeof *ts->d);
		ts->d[ts->nd].start = sqlite3_column_int64(stmt, 0);
		ts->d[ts->nd].end = sqlite3_column_int64(stmt, 1);
		ts->d[ts->nd].corr = sqlite3_column_int64(stmt, 2);
		ts->nd++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return -1;
	for (i = 0; i < ts->nl; i++) {
		while (k < ts->nd && ts->d[k].start <= ts->l[i].start) {
			if (ts->l[i].start <= ts->d[k].end) {
				ts->l[i].corr = ts->d[k].corr;
				break;
			}
			k++;
		}
	}
	store_torch_steps_corrs(ts);
	return 0;
}

/*
 * The device range of the step whose launches are those of RANK's
 * enqueues on thread TID within START..END (the task queue), into
 * *DMIN and *DMAX. Return false if the step has no launches.
 */
static bool
store_torch_steps_queued(struct store *s, int64_t rank, int64_t tid,
    int64_t start, int64_t end, const struct torch_steps *ts,
    int64_t *dmin, int64_t *dmax)
{
	const struct torch_corr	*c;
	sqlite3_stmt		*stmt;
	int64_t			 corr, lo = INT64_MAX, hi = INT64_MIN;
	int64_t			 first = INT64_MAX, last = INT64_MIN;
	bool			 any = false;

	if (store_load_prepare(s, &stmt, "SELECT json_extract(a.args,"
	    " '$.correlation_id') FROM api a JOIN str l ON l.id = a.level"
	    " WHERE l.s = 'enqueue' AND a.rank IS ?1 AND a.tid = ?2"
	    " AND a.start_ns BETWEEN ?3 AND ?4 AND json_valid(a.args)") != 0)
		return false;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, tid);
	sqlite3_bind_int64(stmt, 3, start);
	sqlite3_bind_int64(stmt, 4, end);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 0) != SQLITE_INTEGER)
			continue;
		any = true;
		corr = sqlite3_column_int64(stmt, 0);
		if ((c = store_torch_steps_corr(ts, corr)) == NULL)
			continue;
		/* The lowest and the highest ids that have kernels. */
		if (corr < first) {
			first = corr;
			lo = c->kmin;
		}
		if (corr > last) {
			last = corr;
			hi = c->kmax;
		}
	}
	sqlite3_finalize(stmt);
	*dmin = lo != INT64_MAX ? lo : start;
	*dmax = hi > end ? hi : end;
	return any;
}

/* The same for a profile without a task queue: launches by time. */
static bool
store_torch_steps_direct(int64_t start, int64_t end,
    const struct torch_steps *ts, int64_t *dmin, int64_t *dmax)
{
	size_t	 i, first = SIZE_MAX, last = SIZE_MAX;

	for (i = 0; i < ts->nl; i++) {
		if (ts->l[i].start < start || ts->l[i].start > end)
			continue;
		if (first == SIZE_MAX)
			first = i;
		last = i;
	}
	if (first == SIZE_MAX)
		return false;
	/* Launches of one start are one key of the vendor's. */
	*dmin = ts->l[first].kmin;
	for (i = first; i < ts->nl && ts->l[i].start == ts->l[first].start;
	    i++)
		*dmin = ts->l[i].kmin < *dmin ? ts->l[i].kmin : *dmin;
	*dmax = ts->l[last].kmax;
	for (i = last; i-- > 0 && ts->l[i].start == ts->l[last].start;)
		*dmax = ts->l[i].kmax > *dmax ? ts->l[i].kmax : *dmax;
	if (end > *dmax)
		*dmax = end;
	return true;
}

/*
 * Give the kernels of rank RANK the steps of its ProfilerStep#N ops;
 * QUEUE if the profile has task queue marks (then only enqueues count as
 * a step's launches, as for the vendor). Return the number of steps given
 * a range; 0 if there are none.
 */
int64_t
store_trace_load_torch_steps(struct store *s, int64_t rank, bool queue)
{
	struct torch_steps	 ts;
	sqlite3_stmt		*stmt, *up;
	const char		*name;
	char			*endp;
	long long		 n;
	int64_t			 b, e, tid, dmin, dmax, done = 0;
	bool			 have;

	memset(&ts, 0, sizeof ts);
	if (store_load_prepare(s, &stmt, "SELECT a.tid, a.start_ns, a.end_ns,"
	    " n.s FROM api a JOIN str l ON l.id = a.level JOIN str n"
	    " ON n.id = a.name WHERE l.s = 'python' AND a.rank IS ?1"
	    " AND n.s GLOB 'ProfilerStep#*' ORDER BY a.start_ns, a.id") != 0)
		return 0;
	store_load_bind_i64(stmt, 1, rank);
	if (store_load_prepare(s, &up, "UPDATE task SET step = ?1 WHERE"
	    " rank IS ?2 AND step IS NULL AND start_ns BETWEEN ?3 AND ?4") !=
	    0) {
		sqlite3_finalize(stmt);
		return 0;
	}
	if (store_torch_steps_launches(s, rank, &ts) != 0 ||
	    (queue && store_torch_steps_dequeues(s, rank, &ts) != 0))
		goto out;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		tid = sqlite3_column_int64(stmt, 0);
		b = sqlite3_column_int64(stmt, 1);
		e = sqlite3_column_int64(stmt, 2);
		name = (const char *)sqlite3_column_text(stmt, 3);
		n = strtoll(strrchr(name, '#') + 1, &endp, 10);
		if (*endp != '\0' || endp == strrchr(name, '#') + 1)
			continue;
		if (queue)
			have = store_torch_steps_queued(s, rank, tid, b, e,
			    &ts, &dmin, &dmax);
		else
			have = store_torch_steps_direct(b, e, &ts, &dmin,
			    &dmax);
		if (!have)
			continue;
		sqlite3_bind_int64(up, 1, n);
		store_load_bind_i64(up, 2, rank);
		sqlite3_bind_int64(up, 3, dmin);
		sqlite3_bind_int64(up, 4, dmax);
		store_write(s, up);
		sqlite3_reset(up);
		done++;
	}
	if (done > 0) {
		store_load_meta(s, "torch_steps", "kernel Step Id from the "
		    "ProfilerStep#N ops of FRAMEWORK/");
		store_task_sum_stale(s);
	}
out:
	sqlite3_finalize(stmt);
	sqlite3_finalize(up);
	free(ts.l);
	free(ts.d);
	free(ts.c);
	return done;
}
