/*
 * The step trace of a generated raw collection (doc/formats.md section 4.5):
 * ts_track step trace records (tag 10) on every device, and the expected
 * step_trace table computed from the generated iterations. Model 1 + dev
 * runs iterations framed by model start and model end, with an FP point
 * before a model start that does not count, iterations without FP or
 * without BP, and all-reduce points between; model 100 + dev runs
 * iterations back to back, each iteration end opening the next, and ends
 * with a model end that closes nothing, so its last iteration never ends.
 * The two models interleave, so Data Aug Bound (FP start minus the
 * nearest earlier iteration end of the device) crosses models. With AI
 * CPU data (-C), model 200 + dev runs from a queue: its model start,
 * iteration ends and model end are aicpu.data model-with-queue records
 * (kind 2), one of them written twice (the vendor counts it once).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

/* Write one 40-byte step trace record of MODEL at mono time T. */
static void
gen_prof_step_rec(struct gen_buf *b, const struct gen_prof_clock *c,
    int64_t t, uint64_t index, uint64_t model, uint16_t tag)
{
	gen_prof_bin_buf_u16(b, 10 << 8);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, t));
	gen_prof_bin_buf_u64(b, index);
	gen_prof_bin_buf_u64(b, model);
	gen_prof_bin_buf_u16(
	    b, 0x800 | 5);	/* stream 5; bit 11 is not the stream */
	gen_prof_bin_buf_u16(b, (uint16_t)(index * 3));
	gen_prof_bin_buf_u16(b, tag);
	gen_prof_bin_buf_u16(b, 0);
}

static void
gen_prof_step_add(struct gen_prof *g, int device, int64_t model, int64_t iter,
    int64_t start, int64_t end, int64_t fp, int64_t bp)
{
	struct gen_prof_iter	*it;

	g->iters = xreallocarray(g->iters, g->niters + 1, sizeof *g->iters);
	it = &g->iters[g->niters++];
	it->device = device;
	it->model = model;
	it->iter = iter;
	it->start = start;
	it->end = end;
	it->fp = fp;
	it->bp = bp;
}

/* A device time of chunk I of N in [LO, HI): on a tick, odd if ODD. */
static int64_t
gen_prof_step_at(const struct gen_prof_clock *c, int64_t lo, int64_t hi,
    int64_t i, int64_t n, int permille, bool odd)
{
	int64_t	 span = (hi - lo) / n, t, k;

	t = lo + span * i + span / 1000 * permille;
	k = (t - c->dsync) / c->dtick;
	k = k - k % 2 + (odd ? 1 : 0);
	return c->dsync + k * c->dtick;
}

/* Model 1 + DEVICE: iterations between model start and model end. */
static void
gen_prof_step_framed(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t lo, int64_t hi)
{
	int64_t	 n = g->o->steps, i, s, fp, bp, e, m = 1 + device;

	for (i = 0; i < n; i++) {
		s = gen_prof_step_at(c, lo, hi, i, n, 20, false);
		fp = gen_prof_step_at(c, lo, hi, i, n, 60 +
		    (int)gen_prof_core_range(g, 0, 100), false);
		bp = gen_prof_step_at(c, lo, hi, i, n, 500 +
		    (int)gen_prof_core_range(g, 0, 300), false);
		e = gen_prof_step_at(c, lo, hi, i, n, 900, false);
		if (i == 1)	/* before the model start: cleared */
			gen_prof_step_rec(b, c, s - 4 * c->dtick, (uint64_t)i,
			    (uint64_t)m, 2);
		gen_prof_step_rec(b, c, s, (uint64_t)i, (uint64_t)m, 0);
		if (i % 5 == 3)
			fp = -1;
		else
			gen_prof_step_rec(b, c, fp, (uint64_t)i,
			    (uint64_t)m, 2);
		gen_prof_step_rec(b, c, s + 60 * c->dtick, (uint64_t)i,
		    (uint64_t)m, 10000);
		gen_prof_step_rec(b, c, s + 90 * c->dtick, (uint64_t)i,
		    (uint64_t)m, 10001);
		if (i % 4 == 2)
			bp = -1;
		else
			gen_prof_step_rec(b, c, bp, (uint64_t)i,
			    (uint64_t)m, 3);
		gen_prof_step_rec(b, c, e, (uint64_t)i, (uint64_t)m, 4);
		gen_prof_step_rec(b, c, e + 10 * c->dtick, (uint64_t)i,
		    (uint64_t)m, 1);
		gen_prof_step_add(g, device, m, i + 1, s, e, fp, bp);
	}
}

/*
 * Model 100 + DEVICE: one model start, then iteration ends back to back;
 * the model end after the last one is ignored and the iteration that last
 * end opened is never closed.
 */
static void
gen_prof_step_chained(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t lo, int64_t hi)
{
	int64_t	 n = g->o->steps, i, s, fp, bp, e, m = 100 + device;

	s = gen_prof_step_at(c, lo, hi, 0, n, 300, true);
	gen_prof_step_rec(b, c, s, 0, (uint64_t)m, 0);
	for (i = 0; i < n; i++) {
		fp = gen_prof_step_at(c, lo, hi, i, n, 400, true);
		bp = gen_prof_step_at(c, lo, hi, i, n, 700, true);
		e = gen_prof_step_at(c, lo, hi, i, n, 950 +
		    (int)gen_prof_core_range(g, 0, 40), true);
		if (i == 0)
			fp = -1;	/* the first has no FP */
		else
			gen_prof_step_rec(b, c, fp, (uint64_t)i,
			    (uint64_t)m, 2);
		gen_prof_step_rec(b, c, bp, (uint64_t)i, (uint64_t)m, 3);
		gen_prof_step_rec(b, c, e, (uint64_t)i, (uint64_t)m, 4);
		gen_prof_step_add(g, device, m, i + 1, s, e, fp, bp);
		s = e;
	}
	gen_prof_step_rec(b, c, s + 30 * c->dtick, (uint64_t)n, (uint64_t)m,
	    1);
}

/* One 256-byte aicpu.data model-with-queue record of MODEL at mono T. */
static void
gen_prof_step_queue_rec(struct gen_buf *b, const struct gen_prof_clock *c,
    int64_t t, uint64_t index, uint32_t model, uint16_t tag)
{
	gen_prof_bin_buf_u16(b, 0x5A5A);
	gen_prof_bin_buf_u16(b, 6000);
	gen_prof_bin_buf_u32(b, 2);
	gen_prof_bin_buf_u32(b, 777);
	gen_prof_bin_buf_u32(b, 24);
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, t));
	gen_prof_bin_buf_u64(b, index);
	gen_prof_bin_buf_u32(b, model);
	gen_prof_bin_buf_u16(b, tag);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u64(b, 42);			/* event id */
	gen_prof_bin_buf_add(b, (unsigned char[208]){ 0 }, 208);
}

/*
 * Model 200 + DEVICE, run from a queue: a model start, iteration ends
 * back to back, a model end, as aicpu.data records.
 */
static void
gen_prof_step_queued(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t lo, int64_t hi)
{
	int64_t	 n = g->o->steps, i, s, e, m = 200 + device;

	s = gen_prof_step_at(c, lo, hi, 0, n, 150, false);
	gen_prof_step_queue_rec(b, c, s, 0, (uint32_t)m, 0);
	for (i = 0; i < n; i++) {
		e = gen_prof_step_at(c, lo, hi, i, n, 850, false);
		gen_prof_step_queue_rec(b, c, e, (uint64_t)i, (uint32_t)m, 4);
		if (i == 0)
			gen_prof_step_queue_rec(b, c, e, 0, (uint32_t)m, 4);
		gen_prof_step_add(g, device, m, i + 1, s, e, -1, -1);
		s = e;
	}
	gen_prof_step_queue_rec(b, c, s + 20 * c->dtick, (uint64_t)n,
	    (uint32_t)m, 1);
}

/*
 * Write the step trace records of every device into its ts_track buffer
 * and keep the iterations for the expected table. The steps fill the
 * collection window [C->begin, C->end).
 */
void
gen_prof_step_all(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	int64_t	 lo = c->begin + 1000000, hi = c->end - 1000000;
	int	 d;

	if (g->o->steps <= 0 || hi - lo < g->o->steps * 100000LL)
		return;
	for (d = 0; d < g->o->devices; d++) {
		gen_prof_step_framed(g, c, &dev[d].flips, d, lo, hi);
		if (g->o->steps >= 3)
			gen_prof_step_chained(g, c, &dev[d].flips, d, lo, hi);
		if (g->o->aicpu)
			gen_prof_step_queued(g, c, &dev[d].aicpu, d, lo, hi);
	}
}

static int
gen_prof_step_cmp(const void *a, const void *b)
{
	const struct gen_prof_iter	*x = a, *y = b;

	if (x->device != y->device)
		return x->device - y->device;
	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

static void
gen_prof_step_us(FILE *f, int64_t v, bool strip, const char *sep)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf, v, 3, strip);
	fprintf(f, "%s%s", buf, sep);
}

/* Data Aug Bound of IT: FP minus the device's nearest earlier end. */
static int64_t
gen_prof_step_aug(const struct gen_prof *g, const struct gen_prof_iter *it)
{
	int64_t	 best = -1;
	size_t	 i;

	if (it->fp < 0)
		return NP_NA;
	for (i = 0; i < g->niters; i++) {
		if (g->iters[i].device == it->device &&
		    g->iters[i].end < it->fp && g->iters[i].end > best)
			best = g->iters[i].end;
	}
	return best < 0 ? NP_NA : it->fp - best;
}

/* Write DIR/step_trace.csv as show prints it. */
int
gen_prof_step_expect(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_iter	*it;
	FILE			*f;
	size_t			 i;
	int64_t			 off = g->local_off;

	if (g->niters > 1)
		qsort(g->iters, g->niters, sizeof *g->iters,
		    gen_prof_step_cmp);
	if ((f = util_file_create(dir, "step_trace.csv", cause)) == NULL)
		return -1;
	fprintf(f, "Device_id,Iteration ID,FP Start(us),BP End(us),"
	    "Iteration End(us),Iteration Time(us),FP to BP Time(us),"
	    "Iteration Refresh(us),Data Aug Bound(us),Model ID\n");
	for (i = 0; i < g->niters; i++) {
		it = &g->iters[i];
		fprintf(f, "%d,%lld,", it->device, (long long)it->iter);
		gen_prof_step_us(f, it->fp < 0 ? NP_NA : it->fp + off, false,
		    ",");
		gen_prof_step_us(f, it->bp < 0 ? NP_NA : it->bp + off, false,
		    ",");
		gen_prof_step_us(f, it->end + off, false, ",");
		gen_prof_step_us(f, it->end - it->start, true, ",");
		gen_prof_step_us(f, it->fp < 0 || it->bp < 0 ? NP_NA :
		    it->bp - it->fp, true, ",");
		gen_prof_step_us(f, it->bp < 0 ? NP_NA : it->end - it->bp,
		    true, ",");
		gen_prof_step_us(f, gen_prof_step_aug(g, it), true, ",");
		fprintf(f, "%lld\n", (long long)it->model);
	}
	return util_file_close(f, dir, "step_trace.csv", cause);
}
