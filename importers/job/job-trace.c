/*
 * The MindSpore-era step trace of a legacy JOB: training_trace.* slices of
 * 20-byte little-endian records (u64 tag, u16 task id, u16 stream id, u64
 * syscnt). Tag 255 ends an iteration, tag 1 is the FP start, tag 2 the BP
 * end, tag 0 or a tag above 255 opens a step (it carries the job id), and
 * every other tag is one end of an all-reduce span, paired per stream in
 * order. Each iteration becomes a step_trace row; the all-reduce spans go
 * to the generic table step_trace_reduce.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_TRACE_SIZE	20
#define JOB_TRACE_END	255
#define JOB_TRACE_FP	1
#define JOB_TRACE_BP	2

/* One pending all-reduce start on a stream. */
struct job_trace_open {
	uint16_t	 stream;
	uint64_t	 tag;
	uint64_t	 syscnt;
};

struct job_trace {
	struct job		*j;
	uint64_t		 fp, bp, prev_end;
	bool			 have_fp, have_bp, have_prev;
	int64_t			 iter;
	int64_t			 bad;
	int64_t			 first_bad;
	struct job_trace_open	*open;
	size_t			 nopen;
};

static uint64_t
job_trace_u64(const unsigned char *p)
{
	uint64_t	 v = 0;
	int		 i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
job_trace_reduce_row(struct job_trace *t, uint16_t stream, uint64_t tag0,
    uint64_t tag1, uint64_t a, uint64_t b)
{
	const struct job_clock	*c = &t->j->clock;
	char			 v[7][32], *cells[7];
	int			 i;

	snprintf(v[0], sizeof v[0], "%lld", (long long)t->iter + 1);
	snprintf(v[1], sizeof v[1], "%u", stream);
	snprintf(v[2], sizeof v[2], "%llu", (unsigned long long)tag0);
	snprintf(v[3], sizeof v[3], "%llu", (unsigned long long)tag1);
	util_fmt_us(v[4], sizeof v[4], job_clock_ns(c, a), 3, false);
	util_fmt_us(v[5], sizeof v[5], job_clock_ns(c, b), 3, false);
	util_fmt_us(v[6], sizeof v[6], job_clock_dur(c, a, b), 3, false);
	for (i = 0; i < 7; i++)
		cells[i] = v[i];
	store_load_generic_row(t->j->s, cells, 7);
}

/* An all-reduce point: close the stream's open span or open one. */
static void
job_trace_reduce(struct job_trace *t, uint64_t tag, uint16_t stream,
    uint64_t syscnt)
{
	size_t	 i;

	for (i = 0; i < t->nopen; i++) {
		if (t->open[i].stream != stream)
			continue;
		job_trace_reduce_row(t, stream, t->open[i].tag, tag,
		    t->open[i].syscnt, syscnt);
		t->open[i] = t->open[--t->nopen];
		return;
	}
	t->open = xreallocarray(t->open, t->nopen + 1, sizeof *t->open);
	t->open[t->nopen].stream = stream;
	t->open[t->nopen].tag = tag;
	t->open[t->nopen++].syscnt = syscnt;
}

static void
job_trace_bad(struct job_trace *t, size_t off)
{
	if (t->bad++ == 0)
		t->first_bad = (int64_t)off;
}

/* Iteration end: emit the step if its points are there and in order. */
static void
job_trace_end(struct job_trace *t, uint64_t end, size_t off)
{
	uint64_t		 start;

	t->iter++;
	t->j->iter_end = util_grow(t->j->iter_end, t->j->niter, 1,
	    sizeof *t->j->iter_end);
	t->j->iter_end[t->j->niter++] = end;
	if (!t->have_fp || !t->have_bp || t->fp > t->bp || t->bp > end) {
		job_trace_bad(t, off);
		goto next;
	}
	start = t->have_prev ? t->prev_end : t->fp;
	job_clock_step(t->j, NP_NA, t->iter, t->fp, t->bp, start, end);
next:
	t->prev_end = end;
	t->have_prev = true;
	t->have_fp = t->have_bp = false;
	t->nopen = 0;
}

static void
job_trace_decode(struct job_trace *t, const unsigned char *d, size_t len)
{
	uint64_t	 tag, syscnt;
	uint16_t	 stream;
	size_t		 off;

	for (off = 0; off + JOB_TRACE_SIZE <= len; off += JOB_TRACE_SIZE) {
		tag = job_trace_u64(d + off);
		stream = (uint16_t)(d[off + 10] | d[off + 11] << 8);
		syscnt = job_trace_u64(d + off + 12);
		if (tag == JOB_TRACE_END)
			job_trace_end(t, syscnt, off);
		else if (tag == 0 || tag > JOB_TRACE_END)
			t->nopen = 0;
		else if (tag == JOB_TRACE_FP) {
			t->fp = syscnt;
			t->have_fp = true;
		} else if (tag == JOB_TRACE_BP) {
			t->bp = syscnt;
			t->have_bp = true;
		} else
			job_trace_reduce(t, tag, stream, syscnt);
	}
}

/* The columns of step_trace_reduce, from training_trace or ts_track. */
char	*job_trace_cols[JOB_TRACE_NCOLS] = { "Iteration ID", "Stream ID",
    "Start Tag", "End Tag", "Start(us)", "End(us)", "Duration(us)" };

/*
 * Load the step trace of J. Return the number of iterations found, or -1
 * if there is no training_trace file.
 */
int
job_trace_load(struct job *j)
{
	struct job_trace t;
	char		*data;
	size_t		 len;

	if (job_files_read_table(j, JOB_TRAINING_TRACE, "step_trace_reduce",
	    job_trace_cols, JOB_TRACE_NCOLS, &data, &len) != 0)
		return -1;
	memset(&t, 0, sizeof t);
	t.j = j;
	job_trace_decode(&t, (const unsigned char *)data, len);
	if (len % JOB_TRACE_SIZE != 0)
		store_load_warning(j->s, job_files_first(j,
		    JOB_TRAINING_TRACE), (int64_t)(len - len % JOB_TRACE_SIZE),
		    "%zu trailing bytes are not a whole 20-byte record",
		    len % JOB_TRACE_SIZE);
	if (t.bad > 0)
		store_load_warning(j->s, job_files_first(j,
		    JOB_TRAINING_TRACE), t.first_bad, "%lld iteration%s "
		    "without FP start and BP end in order skipped",
		    (long long)t.bad, t.bad == 1 ? "" : "s");
	free(t.open);
	free(data);
	return (int)(t.iter - t.bad);
}
