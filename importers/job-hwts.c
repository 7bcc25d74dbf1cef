/*
 * Per-op device times of a legacy JOB: the 64-byte HWTS task logs
 * (decoded by dev-hwts.c) paired start to end per (stream, task) as the
 * vendor's Python parser pairs them (the last start of a stream-task
 * meets the next end), batch ids counted the legacy way (FORMATS.md 4.7:
 * per iteration and stream, a task id not above the largest seen starts
 * a new batch), then joined to the ops of the task description on
 * (stream, task, batch) (FORMATS.md 4.8). When the task description
 * carries no batch ids (the text form, static graphs) the batch is not
 * part of the key. MindSpore-era text task descriptions give logical
 * stream ids that differ from the hardware streams in the HWTS log; when
 * no (stream, task) pair matches at all, the join falls back to the task
 * id alone for task ids seen on a single HWTS stream, and says so. Each
 * matched pair is a task row, so op_statistic follows at commit.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define JOB_HWTS_NO_STREAM	(-1)
#define JOB_HWTS_MANY		(-2)

/* A start waiting for its end, keyed by stream << 16 | task. */
struct job_hwts_slot {
	uint32_t	 key;
	bool		 used;
	bool		 open;
	uint64_t	 syscnt;
	int64_t		 batch;
};

/* Batch counting state of one stream. */
struct job_hwts_stream {
	int64_t		 iter;
	int64_t		 max_task;
	int64_t		 batch;
};

struct job_hwts_pair {
	uint32_t	 stream;
	uint32_t	 task;
	int64_t		 batch;
	int64_t		 iter;
	int		 sqe;
	uint64_t	 start;
	uint64_t	 end;
};

struct job_hwts {
	struct job		*j;
	struct job_hwts_slot	*slot;
	size_t			 nslot;		/* a power of two */
	size_t			 used;
	struct job_hwts_stream	 st[2048];
	struct job_hwts_pair	*pair;
	size_t			 npair;
	int64_t			 orphans;
	const struct job_op	**by_task;	/* ops sorted by task id */
	struct strbuf		 pmu;		/* PMU columns of a task */
};

static struct job_hwts_slot *
job_hwts_slot(struct job_hwts *h, uint32_t key)
{
	struct job_hwts_slot	*old = h->slot;
	size_t			 oldn = h->nslot, i, k;

	if ((h->used + 1) * 2 > h->nslot) {
		h->nslot = oldn == 0 ? 4096 : oldn * 2;
		h->slot = xcalloc(h->nslot, sizeof *h->slot);
		for (i = 0; i < oldn; i++) {
			if (!old[i].used)
				continue;
			k = (old[i].key * 2654435761u) & (h->nslot - 1);
			while (h->slot[k].used)
				k = (k + 1) & (h->nslot - 1);
			h->slot[k] = old[i];
		}
		free(old);
	}
	k = (key * 2654435761u) & (h->nslot - 1);
	while (h->slot[k].used && h->slot[k].key != key)
		k = (k + 1) & (h->nslot - 1);
	if (!h->slot[k].used) {
		h->slot[k].used = true;
		h->slot[k].key = key;
		h->used++;
	}
	return &h->slot[k];
}

/* The iteration SYSCNT falls in: 1 + the iteration ends before it. */
static int64_t
job_hwts_iter(const struct job *j, uint64_t syscnt)
{
	size_t	 lo = 0, hi = j->niter, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (j->iter_end[mid] < syscnt)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo + 1;
}

/* The legacy batch id of a start of TASK on STREAM in iteration ITER. */
static int64_t
job_hwts_batch(struct job_hwts *h, uint32_t stream, uint32_t task,
    int64_t iter)
{
	struct job_hwts_stream	*s = &h->st[stream % 2048];

	if (s->iter != iter) {
		s->iter = iter;
		s->batch = 0;
	} else if ((int64_t)task <= s->max_task)
		s->batch++;
	s->max_task = task;
	return s->batch;
}

static void
job_hwts_record(struct job_hwts *h, const struct dev_hwts *r)
{
	struct job_hwts_slot	*sl;
	struct job_hwts_pair	*p;
	int64_t			 iter;

	sl = job_hwts_slot(h, r->stream << 16 | (r->task & 0xffff));
	if (r->log_type == DEV_HWTS_START) {
		iter = job_hwts_iter(h->j, r->syscnt);
		sl->open = true;
		sl->syscnt = r->syscnt;
		sl->batch = job_hwts_batch(h, r->stream, r->task, iter);
		return;
	}
	if (!sl->open || r->syscnt < sl->syscnt) {
		h->orphans++;
		return;
	}
	sl->open = false;
	h->pair = job_files_grow(h->pair, h->npair, sizeof *h->pair);
	p = &h->pair[h->npair++];
	p->stream = r->stream;
	p->task = r->task;
	p->batch = sl->batch;
	p->iter = job_hwts_iter(h->j, sl->syscnt);
	p->sqe = r->sqe_type;
	p->start = sl->syscnt;
	p->end = r->syscnt;
}

/*
 * Decode the HWTS logs of J into start/end pairs. Return the number of
 * records, or -1 if the data is not HWTS logs.
 */
static int64_t
job_hwts_decode(struct job_hwts *h, const char *data, size_t len)
{
	struct dev_hwts	 r;
	size_t		 off;
	int64_t		 n = 0;

	for (off = 0; off + DEV_HWTS_SIZE <= len; off += DEV_HWTS_SIZE) {
		dev_hwts_decode((const unsigned char *)data + off, &r);
		n++;
		if (r.log_type == DEV_HWTS_START || r.log_type == DEV_HWTS_END)
			job_hwts_record(h, &r);
	}
	return n;
}

static int
job_hwts_cmp(const void *a, const void *b)
{
	const struct job_op *const	*x = a, *const *y = b;

	if ((*x)->task != (*y)->task)
		return (*x)->task < (*y)->task ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The op of task TASK on STREAM, batch BATCH (NP_NA: any), or NULL. */
static const struct job_op *
job_hwts_op(const struct job_hwts *h, int64_t stream, uint32_t task,
    int64_t batch)
{
	const struct job_op	*op;
	size_t			 lo = 0, hi = h->j->nops, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (h->by_task[mid]->task < (int64_t)task)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < h->j->nops && h->by_task[lo]->task == (int64_t)task;
	    lo++) {
		op = h->by_task[lo];
		if ((stream == NP_NA || op->stream == stream) &&
		    (batch == NP_NA || op->batch == batch))
			return op;
	}
	return NULL;
}

static void
job_hwts_task(struct job_hwts *h, const struct job_hwts_pair *p,
    const struct job_op *op)
{
	const struct job_clock	*c = &h->j->clock;
	struct store_task	 t;
	const char		*sqe = dev_hwts_sqe_name(p->sqe);

	memset(&t, 0, sizeof t);
	t.device = h->j->device;
	t.rank = h->j->ctx->rank;
	t.model_id = op->model;
	t.stream = p->stream;
	t.task = p->task;
	t.batch = p->batch;
	t.context = t.wait_ns = t.mix_block_num = t.conn = t.api = NP_NA;
	t.start_ns = job_clock_ns(c, p->start);
	t.dur_ns = job_clock_dur(c, p->end - p->start);
	t.block_num = op->block_dim;
	t.step = p->iter;
	t.name = op->name;
	t.op_type = op->type;
	t.task_type = op->ai_cpu ? "AI_CPU" : sqe != NULL ? sqe : "UNKNOWN";
	t.in_shapes = op->in_shapes;
	t.in_dtypes = op->in_dtypes;
	t.in_formats = op->in_formats;
	t.out_shapes = op->out_shapes;
	t.out_dtypes = op->out_dtypes;
	t.out_formats = op->out_formats;
	if (h->j->pmu != NULL && prof_pmu_values(h->j->pmu, p->stream, p->task,
	    DEV_NO_CONTEXT, op->block_dim, &h->pmu)) {
		t.pmu = h->pmu.s;
		h->j->pmu_used++;
	}
	store_load_task(h->j->s, &t);
}

/*
 * Join the pairs to the ops. Return the number of task rows written.
 * TASK_STREAM maps a task id to its only HWTS stream for the fallback.
 */
static int64_t
job_hwts_join(struct job_hwts *h, bool by_stream, bool by_batch,
    const int32_t *task_stream)
{
	const struct job_hwts_pair	*p;
	const struct job_op		*op;
	size_t				 i;
	int64_t				 n = 0;

	for (i = 0; i < h->npair; i++) {
		p = &h->pair[i];
		if (!by_stream && task_stream[p->task & 0xffff] < 0)
			continue;
		op = job_hwts_op(h, by_stream ? (int64_t)p->stream : NP_NA,
		    p->task, by_batch ? p->batch : NP_NA);
		if (op == NULL)
			continue;
		job_hwts_task(h, p, op);
		n++;
	}
	return n;
}

/* Count the pairs whose (stream, task) some op has. */
static int64_t
job_hwts_matches(struct job_hwts *h)
{
	size_t	 i;
	int64_t	 n = 0;

	for (i = 0; i < h->npair; i++) {
		if (job_hwts_op(h, h->pair[i].stream, h->pair[i].task,
		    NP_NA) != NULL)
			n++;
	}
	return n;
}

static int64_t
job_hwts_tasks(struct job_hwts *h)
{
	int32_t		*ts;
	size_t		 i;
	int64_t		 n;
	bool		 by_batch = false;

	h->by_task = xreallocarray(NULL, h->j->nops, sizeof *h->by_task);
	for (i = 0; i < h->j->nops; i++) {
		h->by_task[i] = &h->j->ops[i];
		if (h->j->ops[i].batch != 0)
			by_batch = true;
	}
	qsort(h->by_task, h->j->nops, sizeof *h->by_task, job_hwts_cmp);
	if (job_hwts_matches(h) > 0)
		return job_hwts_join(h, true, by_batch, NULL);
	ts = xcalloc(65536, sizeof *ts);
	for (i = 0; i < 65536; i++)
		ts[i] = JOB_HWTS_NO_STREAM;
	for (i = 0; i < h->npair; i++) {
		int32_t *s = &ts[h->pair[i].task & 0xffff];

		if (*s == JOB_HWTS_NO_STREAM)
			*s = (int32_t)h->pair[i].stream;
		else if (*s != (int32_t)h->pair[i].stream)
			*s = JOB_HWTS_MANY;
	}
	n = job_hwts_join(h, false, by_batch, ts);
	if (n > 0)
		store_load_warning(h->j->s, job_files_first(h->j, JOB_HWTS),
		    -1, "no task_desc stream id matches an HWTS stream (logical "
		    "stream ids); ops joined by task id alone, on task ids "
		    "seen on one HWTS stream only");
	free(ts);
	return n;
}

/*
 * Load J's HWTS logs as task rows of the ops they ran. Return the number
 * of task rows, or -1 if the JOB has no HWTS log.
 */
int
job_hwts_load(struct job *j)
{
	struct job_hwts	 h;
	char		*data;
	size_t		 len;
	int64_t		 n;

	if (job_files_read(j, JOB_HWTS, NULL, &data, &len) == 0) {
		free(data);
		return -1;
	}
	memset(&h, 0, sizeof h);
	h.j = j;
	for (n = 0; n < 2048; n++)
		h.st[n].iter = -1;
	job_hwts_decode(&h, data, len);
	if (len % DEV_HWTS_SIZE != 0)
		store_load_warning(j->s, job_files_first(j, JOB_HWTS),
		    (int64_t)(len - len % DEV_HWTS_SIZE), "%zu trailing bytes "
		    "are not a whole 64-byte record", len % DEV_HWTS_SIZE);
	if (h.orphans > 0)
		store_load_warning(j->s, job_files_first(j, JOB_HWTS), -1,
		    "%lld task end log%s without a start skipped",
		    (long long)h.orphans, h.orphans == 1 ? "" : "s");
	n = j->nops > 0 ? job_hwts_tasks(&h) : 0;
	if (j->nops > 0 && n < (int64_t)h.npair)
		store_load_warning(j->s, job_files_first(j, JOB_HWTS), -1,
		    "%lld of %zu HWTS tasks match no op of the task "
		    "description", (long long)((int64_t)h.npair - n), h.npair);
	strbuf_release(&h.pmu);
	free(h.by_task);
	free(h.slot);
	free(h.pair);
	free(data);
	return (int)n;
}
