/*
 * The step trace of a raw device directory (doc/formats.md section 4.5): the
 * ts_track step trace records (tag 10) carry a model id, a tag and a
 * device syscnt; so do the AI CPU's model-with-queue records (aicpu.data
 * kind 2, section 4.10), which the vendor adds to them. Records the same
 * in index, model, time, tag and stream count once, as the vendor's
 * DISTINCT makes them. Per model and in time order, the vendor's state machine
 * cuts iterations: a model start (tag 0) opens one; an iteration end
 * (tag 4) closes it and opens the next at the same instant; a model end
 * (tag 1) closes one that a model start opened, and is ignored after an
 * iteration end. FP (tag 2) and BP (tag 3) set the open iteration's
 * points. Iterations are numbered from 1 per model in the order they
 * close; one still open at the end of the data has no end and is left
 * out, as is one that ends where it starts. Data Aug Bound is the FP
 * start minus the nearest earlier iteration end on the device (all
 * models, in end order).
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_STEP_MODEL_START	0
#define PROF_STEP_MODEL_END	1
#define PROF_STEP_FP		2
#define PROF_STEP_BP		3
#define PROF_STEP_ITER_END	4

/* One step trace record, in file order. */
struct prof_step_rec {
	uint64_t	 ts;
	uint64_t	 model;
	uint64_t	 index;
	uint32_t	 stream;	/* 0 for the AI CPU's */
	size_t		 seq;
	const char	*path;		/* where it was read, for warnings */
	int64_t		 offset;
	uint16_t	 tag;
};

/* One finished iteration, in syscnt; 0 marks a missing FP or BP. */
struct prof_step_iter {
	uint64_t	 model;
	int64_t		 iter;
	uint64_t	 start;
	uint64_t	 end;
	uint64_t	 fp;
	uint64_t	 bp;
};

struct prof_step {
	struct prof_step_rec	*r;
	size_t			 nr;
	struct prof_step_iter	*it;
	size_t			 nit;
	int64_t			 empty;		/* start == end, dropped */
	const struct prof_step_rec *first_empty;
};

static int
prof_step_rec_cmp(const void *a, const void *b)
{
	const struct prof_step_rec	*x = a, *y = b;

	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
prof_step_iter_cmp(const void *a, const void *b)
{
	const struct prof_step_iter	*x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

/* Keep one record of P. */
static void
prof_step_add(struct prof_step *p, const char *path, int64_t offset,
    uint64_t ts, uint64_t model, uint64_t index, uint32_t stream, int tag)
{
	struct prof_step_rec	*r;

	p->r = util_grow(p->r, p->nr, 1, sizeof *p->r);
	r = &p->r[p->nr];
	r->ts = ts;
	r->model = model;
	r->index = index;
	r->stream = stream;
	r->seq = p->nr++;
	r->path = path;
	r->offset = offset;
	r->tag = (uint16_t)tag;
}

/*
 * Read the step trace records of DATA's ts_track slices F into P, then
 * add the model-with-queue records of its aicpu.data, read in A.
 */
static void
prof_step_read(struct store *s, const char *data, struct prof_step *p,
    struct prof_files *f, const struct prof_aicpus *a)
{
	struct prof_stream	 st;
	struct dev_tstrack	 t;
	const unsigned char	*r;
	size_t			 i;

	prof_slices_list(data, "ts_track.data", false, f);
	f->uncounted = true;	/* prof_logs_flips() read them first */
	prof_slices_open_lined(&st, s, f, DEV_TSTRACK_SIZE, dev_tstrack_ok,
	    NULL, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (r[1] != DEV_TS_STEP)
			continue;
		dev_tstrack_decode(r, &t);
		if (t.tag_id > PROF_STEP_ITER_END)
			continue;	/* all-reduce, get-next, step points */
		prof_step_add(p, st.path, st.offset, t.syscnt, t.model_id,
		    t.index_id, t.stream, t.tag_id);
	}
	prof_slices_close(&st);
	for (i = 0; i < a->nsteps; i++)
		prof_step_add(p, a->steps[i].path, a->steps[i].offset,
		    a->steps[i].ts, a->steps[i].model, a->steps[i].index, 0,
		    a->steps[i].tag);
}

/* True if records A and B are the same to the vendor's DISTINCT. */
static bool
prof_step_same(const struct prof_step_rec *a, const struct prof_step_rec *b)
{
	return a->model == b->model && a->ts == b->ts && a->index ==
	    b->index && a->tag == b->tag && a->stream == b->stream;
}

/*
 * Drop the records of P (sorted by model and time) that repeat an earlier
 * one of the same model and time.
 */
static void
prof_step_distinct(struct prof_step *p)
{
	size_t	 i, j, first = 0, n = 0;

	for (i = 0; i < p->nr; i++) {
		if (n > 0 && (p->r[i].model != p->r[n - 1].model ||
		    p->r[i].ts != p->r[n - 1].ts))
			first = n;
		for (j = first; j < n && !prof_step_same(&p->r[j], &p->r[i]);
		    j++)
			;
		if (j == n)
			p->r[n++] = p->r[i];
	}
	p->nr = n;
}

/* Close the open iteration CUR at the time of record R and keep it. */
static void
prof_step_finish(struct prof_step *p, struct prof_step_iter *cur,
    const struct prof_step_rec *r)
{
	cur->end = r->ts;
	if (cur->start == cur->end) {
		if (p->empty++ == 0)
			p->first_empty = r;
	} else {
		p->it = util_grow(p->it, p->nit, 1, sizeof *p->it);
		p->it[p->nit++] = *cur;
	}
	cur->iter++;
}

/* Open the next iteration of CUR at START. */
static void
prof_step_start(struct prof_step_iter *cur, uint64_t start)
{
	cur->start = start;
	cur->fp = cur->bp = 0;
}

/* Run the state machine over the sorted records of each model. */
static void
prof_step_cut(struct prof_step *p)
{
	struct prof_step_iter	 cur;
	struct prof_step_rec	*r;
	size_t			 i;
	int			 state = PROF_STEP_MODEL_END;

	memset(&cur, 0, sizeof cur);
	for (i = 0; i < p->nr; i++) {
		r = &p->r[i];
		if (i == 0 || r->model != p->r[i - 1].model) {
			memset(&cur, 0, sizeof cur);
			cur.model = r->model;
			cur.iter = 1;
			state = PROF_STEP_MODEL_END;
		}
		switch (r->tag) {
		case PROF_STEP_MODEL_START:
			if (state == PROF_STEP_MODEL_START)
				break;
			prof_step_start(&cur, r->ts);
			state = r->tag;
			break;
		case PROF_STEP_MODEL_END:
			if (state != PROF_STEP_MODEL_START)
				break;
			prof_step_finish(p, &cur, r);
			state = r->tag;
			break;
		case PROF_STEP_ITER_END:
			if (state == PROF_STEP_MODEL_END)
				break;
			prof_step_finish(p, &cur, r);
			prof_step_start(&cur, r->ts);
			state = r->tag;
			break;
		case PROF_STEP_FP:
			cur.fp = r->ts;
			break;
		case PROF_STEP_BP:
			cur.bp = r->ts;
			break;
		}
	}
}

/* Store the iterations of P, in end order, as step_trace rows. */
static void
prof_step_store(struct store *s, struct prof_step *p,
    const struct prof_meta *m, int64_t rank)
{
	struct store_step	 st;
	struct prof_step_iter	*it;
	size_t			 i, j, bad = 0;
	int64_t			 end;

	if (p->nit > 1)
		qsort(p->it, p->nit, sizeof *p->it, prof_step_iter_cmp);
	for (i = 0; i < p->nit; i++) {
		it = &p->it[i];
		memset(&st, 0, sizeof st);
		st.device = m->device;
		st.rank = rank;
		st.model_id = (int64_t)it->model;
		st.iter = it->iter;
		st.fp_start_ns = it->fp != 0 ? prof_meta_dev_ns(m, it->fp) :
		    NP_NA;
		st.bp_end_ns = it->bp != 0 ? prof_meta_dev_ns(m, it->bp) :
		    NP_NA;
		st.iter_end_ns = prof_meta_dev_ns(m, it->end);
		st.iter_time_ns = prof_meta_dev_dur(m, it->end - it->start);
		if (!prof_meta_sane(st.iter_end_ns) ||
		    !prof_meta_sane(st.iter_time_ns) || (it->fp != 0 &&
		    !prof_meta_sane(st.fp_start_ns)) || (it->bp != 0 &&
		    !prof_meta_sane(st.bp_end_ns))) {
			bad++;
			continue;
		}
		st.fp_bp_ns = it->fp != 0 && it->bp != 0 ?
		    st.bp_end_ns - st.fp_start_ns : NP_NA;
		st.refresh_ns = it->bp != 0 ? st.iter_end_ns - st.bp_end_ns :
		    NP_NA;
		st.data_aug_ns = NP_NA;
		for (j = i; it->fp != 0 && j-- > 0;) {
			if (it->fp > p->it[j].end) {
				end = prof_meta_dev_ns(m, p->it[j].end);
				if (prof_meta_sane(end))
					st.data_aug_ns = st.fp_start_ns - end;
				break;
			}
		}
		store_load_step(s, &st);
	}
	if (bad > 0)
		store_load_warning(s, m->dir, -1, "%zu step trace iteration%s "
		    "with impossible times, skipped", bad, bad == 1 ? "" : "s");
}

/*
 * Load the step trace of device data directory DATA (metadata M), with
 * the model-with-queue records of its aicpu.data read in A, as
 * step_trace rows of RANK. Return the number of iterations.
 */
size_t
prof_step_load(struct store *s, const char *data, const struct prof_meta *m,
    const struct prof_aicpus *a, int64_t rank)
{
	struct prof_step	 p;
	struct prof_files	 f;
	size_t			 n;

	memset(&p, 0, sizeof p);
	prof_step_read(s, data, &p, &f, a);
	if (p.nr > 1)
		qsort(p.r, p.nr, sizeof *p.r, prof_step_rec_cmp);
	prof_step_distinct(&p);
	prof_step_cut(&p);
	prof_step_store(s, &p, m, rank);
	if (p.empty > 0)
		store_load_warning(s, p.first_empty->path,
		    p.first_empty->offset, "%lld step trace iteration%s "
		    "ending where %s started left out", (long long)p.empty,
		    p.empty == 1 ? "" : "s", p.empty == 1 ? "it" : "they");
	prof_slices_release(&f);
	n = p.nit;
	free(p.r);
	free(p.it);
	return n;
}
