/*
 * The step trace of CANN-era legacy JOBs: ts_track.data slices of 40-byte
 * records (decoded by dev-tstrack.c) whose step trace records (tag 10)
 * carry an iteration index, a model id and a point: 2 FP start, 3 BP end,
 * 4 iteration end, 10000 and up all-reduce points (start and end in
 * turn, per stream). Each iteration end becomes a step_trace row of its
 * model, timed from the previous end of the same model (from its FP start
 * for the first); the all-reduce spans go to step_trace_reduce. A JOB
 * with a MindSpore training_trace uses that instead.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_TS_FP		2
#define JOB_TS_BP		3
#define JOB_TS_END		4
#define JOB_TS_REDUCE		10000
#define JOB_TS_GETNEXT		20000

/* One model's iteration under way. */
struct job_ts_model {
	uint64_t	 model;
	uint64_t	 index;
	uint64_t	 fp, bp, prev_end;
	bool		 have_fp, have_bp, have_prev;
	uint32_t	 open_stream[16];
	uint64_t	 open_at[16];
	int		 open_tag[16];
	size_t		 nopen;
};

struct job_ts {
	struct job		*j;
	struct job_ts_model	*m;
	size_t			 nm;
	int64_t			 steps, bad;
};

static struct job_ts_model *
job_tstrack_model(struct job_ts *t, uint64_t model, uint64_t index)
{
	struct job_ts_model	*m;
	size_t			 i;

	for (i = 0; i < t->nm; i++) {
		m = &t->m[i];
		if (m->model != model)
			continue;
		if (m->index != index) {
			m->index = index;
			m->have_fp = m->have_bp = false;
			m->nopen = 0;
		}
		return m;
	}
	t->m = xreallocarray(t->m, t->nm + 1, sizeof *t->m);
	m = &t->m[t->nm++];
	memset(m, 0, sizeof *m);
	m->model = model;
	m->index = index;
	return m;
}

static void
job_tstrack_reduce(struct job_ts *t, struct job_ts_model *m,
    const struct dev_tstrack *r)
{
	const struct job_clock	*c = &t->j->clock;
	char			 v[7][32], *cells[7];
	size_t			 i;
	int			 k;

	for (i = 0; i < m->nopen; i++) {
		if (m->open_stream[i] != r->stream)
			continue;
		snprintf(v[0], sizeof v[0], "%llu",
		    (unsigned long long)m->index);
		snprintf(v[1], sizeof v[1], "%u", r->stream);
		snprintf(v[2], sizeof v[2], "%d", m->open_tag[i]);
		snprintf(v[3], sizeof v[3], "%d", r->tag_id);
		util_fmt_us(v[4], sizeof v[4], job_clock_ns(c,
		    m->open_at[i]), 3, false);
		util_fmt_us(v[5], sizeof v[5], job_clock_ns(c, r->syscnt), 3,
		    false);
		util_fmt_us(v[6], sizeof v[6], job_clock_dur(c,
		    m->open_at[i], r->syscnt), 3, false);
		for (k = 0; k < 7; k++)
			cells[k] = v[k];
		store_load_generic_row(t->j->s, cells, 7);
		m->nopen--;
		m->open_stream[i] = m->open_stream[m->nopen];
		m->open_at[i] = m->open_at[m->nopen];
		m->open_tag[i] = m->open_tag[m->nopen];
		return;
	}
	if (m->nopen < 16) {
		m->open_stream[m->nopen] = r->stream;
		m->open_at[m->nopen] = r->syscnt;
		m->open_tag[m->nopen++] = r->tag_id;
	}
}

static void
job_tstrack_end(struct job_ts *t, struct job_ts_model *m, uint64_t end)
{
	uint64_t		 start;

	t->j->iter_end = util_grow(t->j->iter_end, t->j->niter, 1,
	    sizeof *t->j->iter_end);
	t->j->iter_end[t->j->niter++] = end;
	if (!m->have_fp || !m->have_bp || m->fp > m->bp || m->bp > end) {
		t->bad++;
		goto next;
	}
	start = m->have_prev ? m->prev_end : m->fp;
	job_clock_step(t->j, (int64_t)m->model, (int64_t)m->index, m->fp, m->bp,
	    start, end);
	t->steps++;
next:
	m->prev_end = end;
	m->have_prev = true;
	m->have_fp = m->have_bp = false;
	m->nopen = 0;
}

static void
job_tstrack_record(struct job_ts *t, const struct dev_tstrack *r)
{
	struct job_ts_model	*m;

	if (r->tag != DEV_TS_STEP)
		return;
	m = job_tstrack_model(t, r->model_id, r->index_id);
	if (r->tag_id == JOB_TS_FP) {
		m->fp = r->syscnt;
		m->have_fp = true;
	} else if (r->tag_id == JOB_TS_BP) {
		m->bp = r->syscnt;
		m->have_bp = true;
	} else if (r->tag_id == JOB_TS_END)
		job_tstrack_end(t, m, r->syscnt);
	else if (r->tag_id >= JOB_TS_REDUCE && r->tag_id < JOB_TS_GETNEXT)
		job_tstrack_reduce(t, m, r);
}

/*
 * Load the ts_track step trace of J. Return the number of steps, or -1 if
 * the JOB has no ts_track file.
 */
int
job_tstrack_load(struct job *j)
{
	struct job_ts		 t;
	struct dev_tstrack	 r;
	char			*data;
	size_t			 len, off;

	if (job_files_read_table(j, JOB_TS_TRACK, "step_trace_reduce",
	    job_trace_cols, JOB_TRACE_NCOLS, &data, &len) != 0)
		return -1;
	memset(&t, 0, sizeof t);
	t.j = j;
	for (off = 0; off + DEV_TSTRACK_SIZE <= len; off += DEV_TSTRACK_SIZE) {
		dev_tstrack_decode((const unsigned char *)data + off, &r);
		job_tstrack_record(&t, &r);
	}
	if (len % DEV_TSTRACK_SIZE != 0)
		store_load_warning(j->s, job_files_first(j, JOB_TS_TRACK),
		    (int64_t)(len - len % DEV_TSTRACK_SIZE), "%zu trailing "
		    "bytes are not a whole 40-byte record",
		    len % DEV_TSTRACK_SIZE);
	if (t.bad > 0)
		store_load_warning(j->s, job_files_first(j, JOB_TS_TRACK), -1,
		    "%lld iteration%s without FP start and BP end in order "
		    "skipped", (long long)t.bad, t.bad == 1 ? "" : "s");
	free(t.m);
	free(data);
	return (int)t.steps;
}
