/*
 * A device's step_trace_time from its compute tasks and HCCL ops
 * (doc/formats.md section 8.8), as msprof-analyze works it out for an
 * msprof database, which has no step trace of its own: computing is the
 * merged time of the compute tasks, communication that of the HCCL ops,
 * and one walk over both, in start order, splits the time into
 * communication not overlapped and free gaps; the receive ops are the
 * bubble. One row without a step, in microseconds. The walk is the
 * vendor's, quirks and all (a compute range that a later one outlasts is
 * not extended, and a merged range keeps the kind of its first member).
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

struct prof_overlap_range {
	int64_t		 start;
	int64_t		 end;
	bool		 comm;
	bool		 recv;
	size_t		 seq;		/* for a stable sort */
};

static int
prof_overlap_cmp(const void *a, const void *b)
{
	const struct prof_overlap_range	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Merge the N ranges V in place, as the vendor merges them: sorted by
 * start, each range joins the current group when it starts by its end,
 * which the group's first range takes on. Return the number of groups,
 * now at the front of V (TMP has room for N). *RECV is the time of the
 * receive ranges as the merge left them: the first of a group with the
 * group's end.
 */
static size_t
prof_overlap_merge(struct prof_overlap_range *v, size_t n,
    struct prof_overlap_range *tmp, int64_t *recv)
{
	size_t	 i, k = 0, cur = 0;

	*recv = 0;
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		v[i].seq = i;
	qsort(v, n, sizeof *v, prof_overlap_cmp);
	for (i = 1; i <= n; i++) {
		if (i < n && v[i].start <= v[cur].end) {
			if (v[i].end > v[cur].end)
				v[cur].end = v[i].end;
			if (v[i].recv)
				*recv += v[i].end - v[i].start;
			continue;
		}
		if (v[cur].recv)
			*recv += v[cur].end - v[cur].start;
		tmp[k++] = v[cur];
		cur = i;
	}
	memcpy(v, tmp, k * sizeof *v);
	return k;
}

static struct prof_overlap_range
prof_overlap_make(int64_t start, int64_t end, bool comm)
{
	return (struct prof_overlap_range){ start, end, comm, false, 0 };
}

/*
 * The vendor's walk over the N merged ranges V (communication, then
 * compute): the sums of the communication no compute covers (*PURE) and
 * of the gaps between ranges (*FREE_NS).
 */
static void
prof_overlap_walk(struct prof_overlap_range *v, size_t n, int64_t *pure,
    int64_t *free_ns)
{
	struct prof_overlap_range	 min, t;
	size_t				 i;

	*pure = *free_ns = 0;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		v[i].seq = i;
	qsort(v, n, sizeof *v, prof_overlap_cmp);
	min = v[0];
	for (i = 1; i < n; i++) {
		t = v[i];
		if (min.end - t.start < 0) {
			*free_ns += t.start - min.end;
			if (min.comm)
				*pure += min.end - min.start;
			min = t;
			continue;
		}
		if (min.end - t.end < 0) {
			if (min.comm) {
				*pure += t.start - min.start;
				min = prof_overlap_make(min.end, t.end, false);
			}
			if (t.comm)
				min = prof_overlap_make(min.end, t.end, true);
		} else {
			if (min.comm) {
				*pure += t.start - min.start;
				min = prof_overlap_make(t.end, min.end, true);
			}
			if (t.comm)
				min = prof_overlap_make(t.end, min.end, false);
		}
	}
	if (min.comm)
		*pure += min.end - min.start;
}

static int64_t
prof_overlap_sum(const struct prof_overlap_range *v, size_t n)
{
	int64_t	 sum = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		sum += v[i].end - v[i].start;
	return sum;
}

/* A number of ns as the vendor writes it: ns / 1000 as Python's float. */
static void
prof_overlap_cell(struct prof_row *row, int64_t ns)
{
	if (row->n >= PROF_ROW_MAX)
		return;
	util_fmt_pyfloat(row->buf[row->n], sizeof row->buf[0],
	    (double)ns / 1000.0);
	prof_extra_row_str(row, row->buf[row->n]);
}

/*
 * Write the step_trace_time of device directory DM: its NC compute
 * ranges CS (start, end pairs in ns, in any order) and the NH HCCL ops of
 * HR. The arrays are the caller's.
 */
void
prof_overlap_load(struct store *s, const struct prof_meta *dm, int64_t rank,
    const int64_t *cs, size_t nc, const struct prof_hrow *hr, size_t nh)
{
	static const char *const cols[] = { "Step", "Computing",
	    "Communication(Not Overlapped)", "Overlapped", "Communication",
	    "Free", "Stage", "Bubble",
	    "Communication(Not Overlapped and Exclude Receive)", "Preparing" };
	struct prof_overlap_range	*comm, *comp, *tmp;
	struct prof_row			 row;
	int64_t				 c, m, pure, free_ns, bubble, none;
	size_t				 i, ncm, npm;

	comm = xreallocarray(NULL, nh + nc + 1, sizeof *comm);
	comp = xreallocarray(NULL, nc + 1, sizeof *comp);
	tmp = xreallocarray(NULL, nh + nc + 1, sizeof *tmp);
	for (i = 0; i < nh; i++) {
		comm[i] = prof_overlap_make(hr[i].start_ns, hr[i].start_ns +
		    hr[i].dur_ns, true);
		comm[i].recv = strncmp(hr[i].name, "hcom_receive", 12) == 0;
	}
	for (i = 0; i < nc; i++)
		comp[i] = prof_overlap_make(cs[2 * i], cs[2 * i + 1], false);
	ncm = prof_overlap_merge(comm, nh, tmp, &bubble);
	npm = prof_overlap_merge(comp, nc, tmp, &none);
	m = prof_overlap_sum(comm, ncm);
	c = prof_overlap_sum(comp, npm);
	/* The walk: communication first at one start, then compute. */
	memcpy(comm + ncm, comp, npm * sizeof *comp);
	prof_overlap_walk(comm, ncm + npm, &pure, &free_ns);
	memset(&row, 0, sizeof row);
	if (prof_extra_table_begin(s, "step_trace_time", dm->device, rank,
	    cols, sizeof cols / sizeof cols[0])) {
		prof_extra_row_str(&row, NULL);
		prof_overlap_cell(&row, c);
		prof_overlap_cell(&row, pure);
		prof_overlap_cell(&row, m - pure);
		prof_overlap_cell(&row, m);
		prof_overlap_cell(&row, free_ns);
		prof_overlap_cell(&row, free_ns + c + pure - bubble);
		prof_overlap_cell(&row, bubble);
		prof_overlap_cell(&row, pure - bubble);
		prof_overlap_cell(&row, 0);
		prof_extra_row_load(s, &row);
	}
	free(comm);
	free(comp);
	free(tmp);
}
