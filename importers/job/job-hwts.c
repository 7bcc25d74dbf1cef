/*
 * Per-op device times of a legacy JOB: the 64-byte HWTS task logs
 * (decoded by dev-hwts.c) paired start to end per (stream, task) as the
 * vendor's Python parser pairs them (the last start of a stream-task
 * meets the next end), batch ids counted the legacy way (doc/formats.md 4.7:
 * per iteration and stream, a task id not above the task id of the
 * stream's previous start begins a new batch), then joined to the ops of
 * the task description on (stream, task, batch) (doc/formats.md 4.8).
 * When the task description carries no batch ids (the text form, static
 * graphs) the batch is not part of the key. MindSpore-era text task
 * descriptions give logical stream ids that differ from the hardware
 * streams in the HWTS log; when
 * no (stream, task) pair matches at all, the join falls back to the task
 * id alone for task ids seen on a single HWTS stream, and says so. Each
 * matched pair is a task row, so op_statistic follows at commit. The logs
 * are streamed twice through a bounded buffer (job-stream.c), once to
 * choose the join and once to write the rows, so memory does not grow
 * with the length of the log.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_HWTS_NO_STREAM	(-1)
#define JOB_HWTS_MANY		(-2)

/* A start waiting for its end, keyed by stream << 16 | task. */
struct job_hwts_slot {
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
	size_t			 nslot;
	struct util_map		 slots;		/* key -> index in slot */
	struct job_hwts_stream	 st[2048];
	int64_t			 orphans;
	int64_t			 bad_times;	/* start or length unfit */
	const struct job_op	**by_task;	/* ops sorted by task id */
	bool			 by_batch;	/* the ops carry batch ids */
	bool			 join;		/* second pass: write rows */
	bool			 by_stream;	/* join on (stream, task) */
	int32_t			*task_stream;	/* task id: its one stream */
	int64_t			 npair;
	int64_t			 matches;	/* pairs whose stream-task an
						   op has */
	int64_t			 rows;
	struct strbuf		 pmu;		/* PMU columns of a task */
};

/* The slot of KEY, empty if new; valid until the next new one. */
static struct job_hwts_slot *
job_hwts_slot(struct job_hwts *h, uint32_t key)
{
	uint64_t	 i;

	if (util_map_get(&h->slots, key, &i))
		return &h->slot[i];
	h->slot = util_grow(h->slot, h->nslot, 1, sizeof *h->slot);
	memset(&h->slot[h->nslot], 0, sizeof *h->slot);
	util_map_set(&h->slots, key, h->nslot);
	return &h->slot[h->nslot++];
}

/* The iteration SYSCNT falls in: 1 + the iteration ends before it. */
static int64_t
job_hwts_iter(const struct job *j, uint64_t syscnt)
{
	return (int64_t)util_count_below(j->iter_end, j->niter, syscnt) + 1;
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

static void	job_hwts_pair(struct job_hwts *, const struct job_hwts_pair *);

static void
job_hwts_record(struct job_hwts *h, const struct dev_hwts *r)
{
	struct job_hwts_slot	*sl;
	struct job_hwts_pair	 p;
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
	p.stream = r->stream;
	p.task = r->task;
	p.batch = sl->batch;
	p.iter = job_hwts_iter(h->j, sl->syscnt);
	p.sqe = r->sqe_type;
	p.start = sl->syscnt;
	p.end = r->syscnt;
	job_hwts_pair(h, &p);
}

/*
 * One pass over the HWTS logs of R: start and end logs paired, each pair
 * handed to job_hwts_pair(). Return the number of records.
 */
static int64_t
job_hwts_pass(struct job_hwts *h, struct job_stream *r)
{
	const unsigned char	*rec;
	struct dev_hwts		 d;
	int64_t			 n = 0;
	int			 i;

	free(h->slot);
	h->slot = NULL;
	h->nslot = 0;
	util_map_release(&h->slots);
	util_map_init(&h->slots);
	h->orphans = 0;
	for (i = 0; i < 2048; i++) {
		h->st[i].iter = -1;
		h->st[i].max_task = h->st[i].batch = 0;
	}
	while ((rec = job_stream_next(r)) != NULL) {
		dev_hwts_decode(rec, &d);
		n++;
		if (d.log_type == DEV_HWTS_START || d.log_type == DEV_HWTS_END)
			job_hwts_record(h, &d);
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
	t.dur_ns = job_clock_dur(c, p->start, p->end);
	if (t.start_ns == NP_NA || t.dur_ns == NP_NA) {
		h->bad_times++;
		return;
	}
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
		t.pmu_len = h->pmu.len;
		h->j->pmu_used++;
	}
	store_load_task(h->j->s, &t);
}

/*
 * A start/end pair: in the first pass, count whether an op has its stream
 * and task and note which streams its task id runs on; in the second,
 * join it to its op and write the task row.
 */
static void
job_hwts_pair(struct job_hwts *h, const struct job_hwts_pair *p)
{
	const struct job_op	*op;
	int32_t			*ts = &h->task_stream[p->task & 0xffff];

	if (!h->join) {
		h->npair++;
		if (job_hwts_op(h, p->stream, p->task, NP_NA) != NULL)
			h->matches++;
		if (*ts == JOB_HWTS_NO_STREAM)
			*ts = (int32_t)p->stream;
		else if (*ts != (int32_t)p->stream)
			*ts = JOB_HWTS_MANY;
		return;
	}
	if (!h->by_stream && *ts < 0)
		return;
	op = job_hwts_op(h, h->by_stream ? (int64_t)p->stream : NP_NA,
	    p->task, h->by_batch ? p->batch : NP_NA);
	if (op == NULL)
		return;
	job_hwts_task(h, p, op);
	h->rows++;
}

/* Sort the ops by task id for job_hwts_op(). */
static void
job_hwts_ops(struct job_hwts *h)
{
	size_t	 i;

	h->by_task = xreallocarray(NULL, h->j->nops > 0 ? h->j->nops : 1,
	    sizeof *h->by_task);
	for (i = 0; i < h->j->nops; i++) {
		h->by_task[i] = &h->j->ops[i];
		if (h->j->ops[i].batch != 0)
			h->by_batch = true;
	}
	qsort(h->by_task, h->j->nops, sizeof *h->by_task, job_hwts_cmp);
	h->task_stream = xreallocarray(NULL, 65536, sizeof *h->task_stream);
	for (i = 0; i < 65536; i++)
		h->task_stream[i] = JOB_HWTS_NO_STREAM;
}

/* Report a cut log, end logs without a start and unmatched pairs. */
static void
job_hwts_report(struct job_hwts *h, struct job_stream *r)
{
	struct job	*j = h->j;
	const char	*first = job_files_first(j, JOB_HWTS);
	int64_t		 off;
	size_t		 rest;

	if ((rest = job_stream_trailing(r, &off)) > 0)
		store_load_warning(j->s, first, off, "%zu trailing bytes "
		    "are not a whole 64-byte record", rest);
	if (h->bad_times > 0)
		store_load_warning(j->s, first, -1, "%lld task%s skipped: "
		    "start or duration out of range (end before start, or a "
		    "time past 64 bits of ns)", (long long)h->bad_times,
		    h->bad_times == 1 ? "" : "s");
	if (h->orphans > 0)
		store_load_warning(j->s, first, -1, "%lld task end log%s "
		    "without a start skipped", (long long)h->orphans,
		    h->orphans == 1 ? "" : "s");
	if (!h->by_stream && h->rows > 0)
		store_load_warning(j->s, first, -1, "no task_desc stream id "
		    "matches an HWTS stream (logical stream ids); ops joined "
		    "by task id alone, on task ids seen on one HWTS stream "
		    "only");
	if (j->nops > 0 && h->rows < h->npair)
		store_load_warning(j->s, first, -1, "%lld of %lld HWTS tasks "
		    "match no op of the task description",
		    (long long)(h->npair - h->rows), (long long)h->npair);
}

/*
 * Load J's HWTS logs as task rows of the ops they ran. Return the number
 * of task rows, or -1 if the JOB has no HWTS log.
 */
int
job_hwts_load(struct job *j)
{
	struct job_hwts		 h;
	struct job_stream	 r;

	if (job_stream_open(&r, j, JOB_HWTS, DEV_HWTS_SIZE) == 0)
		return -1;
	memset(&h, 0, sizeof h);
	h.j = j;
	job_hwts_ops(&h);
	job_hwts_pass(&h, &r);
	h.by_stream = h.matches > 0;
	if (j->nops > 0) {
		h.join = true;
		job_stream_rewind(&r);
		job_hwts_pass(&h, &r);
	}
	job_hwts_report(&h, &r);
	job_stream_close(&r);
	strbuf_release(&h.pmu);
	free(h.task_stream);
	free(h.by_task);
	free(h.slot);
	util_map_release(&h.slots);
	return (int)h.rows;
}
