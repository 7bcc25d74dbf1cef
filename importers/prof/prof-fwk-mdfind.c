/*
 * The findings of minddata_pipeline_summary (prof-fwk-mdsum.c): each op's
 * CPU use per worker, then the ops whose CPU use or queues look wrong and
 * the bottleneck, by MindSpore's rules (doc/formats.md section 3.12): its
 * thresholds, its lists indexed by op id as Python indexes them (an
 * IndexError drops the findings, any other failure the summary). The ops
 * and figures are MindSpore's, the words ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

#define MDSUM_DEPTH	990	/* Python's recursion, about */

/* Each op's CPU use per worker, where the ops and the CPU use agree. */
bool
prof_mdfind_workers(struct mdsum *s)
{
	struct mdsum_op	*p;
	double		 w;
	size_t		 i;

	for (i = 0; i < s->n; i++) {
		p = &s->ops[i];
		p->cpu = s->cpu[i];
		p->wcpu = prof_mdrow_int(-1);
		/* As Python's c >= 0: NaN is no CPU use either. */
		if (!(p->cpu.d >= 0))
			continue;
		if (!prof_mspy_arith(p->workers, &w)) {
			s->why = "num_workers that is not a number";
			return false;
		}
		if (w != 0)
			p->wcpu = prof_mdrow_round(p->cpu.d / w, 2);
	}
	return true;
}

static bool
prof_mdfind_none(yajl_val id)
{
	double	 d;

	return prof_mspy_numeric(id, &d) && d == -1;
}

/* Python's L[ID] of a list of the ops: the position into *I. */
static enum mdsum_an
prof_mdfind_at(const struct mdsum *s, yajl_val id, size_t *i)
{
	int64_t	 k;

	if (id == NULL || !prof_mspy_int(id, &k))
		return MDSUM_FAIL;
	if (k < -(int64_t)s->n || k >= (int64_t)s->n)
		return MDSUM_INDEX;
	*i = (size_t)(k < 0 ? k + (int64_t)s->n : k);
	return MDSUM_OK;
}

/*
 * The first child of op CUR down its first children that has an output
 * queue, into *C (NULL: none, MindSpore's -1).
 */
static enum mdsum_an
prof_mdfind_child(const struct mdsum *s, yajl_val cur, yajl_val *c)
{
	const struct mdsum_op	*p;
	enum mdsum_an		 r;
	size_t			 i, depth;

	for (depth = 0; depth < MDSUM_DEPTH; depth++) {
		*c = NULL;
		if (prof_mdfind_none(cur))
			return MDSUM_OK;
		if ((r = prof_mdfind_at(s, cur, &i)) != MDSUM_OK)
			return r;
		p = &s->ops[i];
		if (p->o->updated ? p->nkids == 0 : p->kidsv == NULL ||
		    prof_mspy_falsy(p->kidsv))
			return MDSUM_OK;
		if (!p->o->updated && !YAJL_IS_ARRAY(p->kidsv))
			return MDSUM_FAIL;	/* "12"[0], {...}[0] */
		cur = p->kids[0];
		if ((r = prof_mdfind_at(s, cur, &i)) != MDSUM_OK)
			return r;
		if (s->ops[i].avg.d != -1) {
			*c = prof_mdfind_none(cur) ? NULL : cur;
			return MDSUM_OK;
		}
	}
	return MDSUM_FAIL;			/* a RecursionError */
}

/* What the analysis finds: the rows it adds after the numbers. */
struct mdsum_found {
	struct mdsum_row	*cpu;
	struct mdsum_row	*queue;
	struct strbuf		 neck;		/* the bottleneck op */
	struct strbuf		 why;		/* and our words for it */
};

static bool
prof_mdfind_single(const struct mdsum_op *p)
{
	static const char *const single[] = {
		"Barrier", "Concat", "EpochCtrl", "Rename", "Repeat",
		"Shuffle", "Skip", "Take", "Zip"
	};
	size_t	 i;

	for (i = 0; i < sizeof single / sizeof single[0]; i++)
		if (strcmp(p->name, single[i]) == 0)
			return true;
	return false;
}

/* Our words for op P's CPU use per worker, high or low, into B. */
static void
prof_mdfind_say_cpu(struct strbuf *b, const struct mdsum_op *p, bool high)
{
	prof_mdrow_op(b, p);
	strbuf_adds(b, ": ");
	prof_mdrow_fmt(b, p->wcpu);
	strbuf_adds(b, "% CPU per worker, num_parallel_workers ");
	prof_mspy_str(b, p->workers);
	strbuf_adds(b, high ? ": more workers may help" :
	    ": fewer workers would do as well");
}

/* Ops of high or low CPU use per worker, into F->cpu. */
static enum mdsum_an
prof_mdfind_an_cpu(struct mdsum *s, struct mdsum_found *f, struct strbuf *b)
{
	const struct mdsum_op	*p;
	enum mdsum_an		 r;
	size_t			 i, k;
	double			 w;

	for (k = 0; k < s->n; k++) {
		if (prof_mdfind_none(s->ops[k].o->id))
			continue;
		if ((r = prof_mdfind_at(s, s->ops[k].o->id, &i)) != MDSUM_OK)
			return r;
		p = &s->ops[i];
		if (prof_mdfind_single(p))
			continue;
		if (p->wcpu.d > 75 && *p->name != '\0') {
			prof_mdfind_say_cpu(b, p, true);
			prof_mdrow_add(f->cpu, b);
		} else if (p->wcpu.d < 20) {
			if (!prof_mspy_numeric(p->workers, &w))
				return MDSUM_FAIL;
			if (w > 1) {
				prof_mdfind_say_cpu(b, p, false);
				prof_mdrow_add(f->cpu, b);
			}
		}
	}
	return MDSUM_OK;
}

/*
 * The op of the K-th id into *P and its input (its first child with a
 * queue, down first children) into *IN, NULL if none; MDSUM_SKIP for an
 * op the analysis passes over: -1, a single-threaded op, one named SKIP.
 */
static enum mdsum_an
prof_mdfind_pair(const struct mdsum *s, size_t k, const char *skip,
    const struct mdsum_op **p, const struct mdsum_op **in)
{
	enum mdsum_an	 r;
	yajl_val	 c;
	size_t		 i;

	if (prof_mdfind_none(s->ops[k].o->id))
		return MDSUM_SKIP;
	if ((r = prof_mdfind_at(s, s->ops[k].o->id, &i)) != MDSUM_OK)
		return r;
	*p = &s->ops[i];
	if (prof_mdfind_single(*p) || strcmp((*p)->name, skip) == 0)
		return MDSUM_SKIP;
	if ((r = prof_mdfind_child(s, s->ops[k].o->id, &c)) != MDSUM_OK)
		return r;
	*in = NULL;
	/* The child's index was checked on the way down. */
	if (c != NULL && prof_mdfind_at(s, c, &i) == MDSUM_OK)
		*in = &s->ops[i];
	return MDSUM_OK;
}

/* Ops whose queues look wrong, into F->queue. */
static enum mdsum_an
prof_mdfind_an_queue(struct mdsum *s, struct mdsum_found *f,
    struct strbuf *b)
{
	const struct mdsum_op	*p, *c;
	enum mdsum_an		 r;
	size_t			 k;

	for (k = 0; k < s->n; k++) {
		if ((r = prof_mdfind_pair(s, k, "Batch", &p, &c)) ==
		    MDSUM_SKIP)
			continue;
		if (r != MDSUM_OK)
			return r;
		if (c == NULL && p->use.d != -1) {
			if (p->use.d >= 50)
				continue;
			/* A leaf whose readers may be too few. */
			prof_mdrow_op(b, p);
			strbuf_adds(b, ", a leaf: output queue ");
			prof_mdrow_fmt(b, p->use);
			strbuf_adds(b, "% used, num_parallel_workers ");
			prof_mspy_str(b, p->workers);
			strbuf_adds(b, ": more workers may read faster");
		} else if (strcmp(p->name, "DeviceQueue") == 0 && c != NULL) {
			if (c->empty.d <= 60)
				continue;
			prof_mdrow_op(b, p);
			strbuf_adds(b, ": its input queue is empty ");
			prof_mdrow_fmt(b, c->empty);
			strbuf_adds(b, "% of the time, when the device waits "
			    "for the host");
		} else if (c != NULL && p->use.d != -1) {
			if (c->use.d == -1 || c->use.d - p->use.d <= 50)
				continue;
			prof_mdrow_op(b, p);
			strbuf_adds(b, ": input queue ");
			prof_mdrow_fmt(b, c->use);
			strbuf_adds(b, "% used, output queue ");
			prof_mdrow_fmt(b, p->use);
			strbuf_adds(b, "%: its child ");
			prof_mdrow_op(b, c);
			strbuf_adds(b, " makes rows faster than it takes them; "
			    "with little CPU use, raise its prefetch_size or "
			    "workers");
		} else
			continue;
		prof_mdrow_add(f->queue, b);
	}
	return MDSUM_OK;
}

/*
 * The bottleneck: of the ops by id from the last, the first (the lowest
 * id wins) whose CPU per worker is high, or low with a starved or
 * lagging input queue.
 */
static enum mdsum_an
prof_mdfind_an_neck(struct mdsum *s, struct mdsum_found *f)
{
	const struct mdsum_op	*p, *c, *in;
	enum mdsum_an		 r;
	size_t			 k;

	for (k = s->n; k-- > 0;) {
		if ((r = prof_mdfind_pair(s, k, "DeviceQueue", &p, &c)) ==
		    MDSUM_SKIP)
			continue;
		if (r != MDSUM_OK)
			return r;
		/* With no input, MindSpore reads the queue of -1: the last. */
		in = c != NULL ? c : &s->ops[s->n - 1];
		if (p->wcpu.d > 75) {
			strbuf_reset(&f->neck);
			strbuf_reset(&f->why);
			prof_mdrow_op(&f->neck, p);
			prof_mdfind_say_cpu(&f->why, p, true);
		} else if (p->wcpu.d < 20 && c != NULL && (in->use.d < 10 ||
		    p->use.d - in->use.d > 50)) {
			strbuf_reset(&f->neck);
			strbuf_reset(&f->why);
			prof_mdrow_op(&f->neck, p);
			prof_mdrow_op(&f->why, p);
			strbuf_adds(&f->why, ": ");
			prof_mdrow_fmt(&f->why, p->wcpu);
			strbuf_adds(&f->why, "% CPU per worker, its input "
			    "queue starved or lagging: try a larger "
			    "prefetch_size");
		}
	}
	return MDSUM_OK;
}

/* The findings: false (S->why set) where the summary fails on them. */
bool
prof_mdfind_analyse(struct mdsum *s)
{
	struct mdsum_found	 f;
	struct mdsum_row	*r;
	struct strbuf		 b;
	enum mdsum_an		 an;
	size_t			 i;

	memset(&f, 0, sizeof f);
	f.cpu = xcalloc(1, sizeof *f.cpu);
	f.queue = xcalloc(1, sizeof *f.queue);
	strbuf_init(&f.neck);
	strbuf_init(&f.why);
	strbuf_init(&b);
	if ((an = prof_mdfind_an_cpu(s, &f, &b)) == MDSUM_OK &&
	    (an = prof_mdfind_an_queue(s, &f, &b)) == MDSUM_OK)
		an = prof_mdfind_an_neck(s, &f);
	if (an == MDSUM_FAIL)
		s->why = "op ids, children or workers its analysis cannot "
		    "index or compare";
	if (an == MDSUM_OK && f.cpu->n > 0) {
		r = prof_mdrow_row(s, "cpu_analysis_details");
		for (i = 0; i < f.cpu->n; i++)
			prof_mdrow_put(r, f.cpu->cells[i]);
		f.cpu->n = 0;
	}
	if (an == MDSUM_OK && f.queue->n > 0) {
		r = prof_mdrow_row(s, "queue_analysis_details");
		for (i = 0; i < f.queue->n; i++)
			prof_mdrow_put(r, f.queue->cells[i]);
		f.queue->n = 0;
	}
	if (an == MDSUM_OK && f.neck.len > 0) {
		prof_mdrow_put(prof_mdrow_row(s, "bottleneck_warning"),
		    strbuf_detach(&f.neck));
		prof_mdrow_put(prof_mdrow_row(s, "bottleneck_suggestion"),
		    strbuf_detach(&f.why));
	}
	for (i = 0; i < f.cpu->n; i++)
		free(f.cpu->cells[i]);
	for (i = 0; i < f.queue->n; i++)
		free(f.queue->cells[i]);
	free(f.cpu->cells);
	free(f.queue->cells);
	free(f.cpu);
	free(f.queue);
	strbuf_release(&f.neck);
	strbuf_release(&f.why);
	strbuf_release(&b);
	return an != MDSUM_FAIL;
}

