/*
 * The legacy timeline generator: device_N/ directories as CANN 6.x
 * msprof --export left them (doc/formats.md 1.5, 2.4, 7.4), with info.json.N,
 * start_info.N, end_info.N and timeline/ holding, per iteration I of model
 * M, msprof_N_M_I.json (every module merged: Ascend Hardware tasks, the
 * iteration's step trace, HCCL, a GE span), task_time_N_M_I.json and
 * hccl_N_M_I.json (the same tasks and HCCL events again) and
 * step_trace_N_M_I.json (the step trace of every iteration, as the real
 * files repeat it). Times are host monotonic microseconds written as
 * Python writes floats, the shortest text that reads back as the same
 * double; durations are differences of those floats. The expected tables
 * (task_time and step_trace in epoch time, HCCL span counts) are computed
 * from the generated integer nanoseconds.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_TL_BEGIN_US		1692340024324979LL
#define GEN_TL_HCCL		4	/* HCCL events per iteration */

struct gen_tracedir {
	const struct demo_opts	*g;
	uint64_t		 rng;
	int64_t			 off;		/* epoch ns - mono ns */
	int			 device;
	int			 model;
	struct strbuf		 tasks;		/* expected task_time rows */
	struct strbuf		 steps;		/* expected step_trace rows */
	struct strbuf		 counts;
};

/* One iteration: its step trace points in monotonic ns. */
struct gen_tracedir_iter {
	int64_t		 fp, bp, end, prev_end;
	int64_t		 reduce_start, reduce_end;
};

/* NS monotonic nanoseconds as the microseconds a Python float prints. */
static void
gen_tracedir_float(struct strbuf *b, double us)
{
	char	 buf[64];
	int	 p;

	for (p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*g", p, us);
		if (strtod(buf, NULL) == us)
			break;
	}
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strbuf_addf(b, "%s.0", buf);
	else
		strbuf_adds(b, buf);
}

static void
gen_tracedir_ts(struct strbuf *b, const char *key, int64_t ns)
{
	strbuf_addf(b, "\"%s\": ", key);
	gen_tracedir_float(b, (double)ns / 1000);
}

/* "ts": start, "dur": end - start, both as floats of microseconds. */
void
gen_tracedir_span(struct strbuf *b, int64_t start, int64_t end)
{
	gen_tracedir_ts(b, "ts", start);
	strbuf_adds(b, ", \"dur\": ");
	gen_tracedir_float(b, (double)end / 1000 - (double)start / 1000);
}

static void
gen_tracedir_meta(struct strbuf *b, const char *what, int pid, int tid,
    const char *key, const char *value)
{
	strbuf_addf(b, "{\"name\": \"%s\", \"pid\": %d, \"tid\": %d, \"args\": "
	    "{\"%s\": %s}, \"ph\": \"M\"}, ", what, pid, tid, key, value);
}

/* The step trace events of iteration IT on PID, TID. */
static void
gen_tracedir_step_events(struct gen_tracedir *t, struct strbuf *b, int pid,
    int tid,
    int i, const struct gen_tracedir_iter *it)
{
	strbuf_addf(b, "{\"name\": \"Iteration %d\", \"pid\": %d, "
	    "\"tid\": %d, ", i, pid, tid);
	gen_tracedir_span(b, i == 1 ? it->fp : it->prev_end, it->end);
	strbuf_addf(b, ", \"args\": {\"Iteration ID\": %d, ", i);
	gen_tracedir_ts(b, "FP Start", it->fp);
	strbuf_adds(b, ", ");
	gen_tracedir_ts(b, "BP End", it->bp);
	strbuf_adds(b, ", ");
	gen_tracedir_ts(b, "Iteration End", it->end);
	strbuf_addf(b, ", \"Iteration Time(ns)\": %lld.0}, \"cat\": "
	    "\"Iteration Time\", \"ph\": \"X\"}, ", (long long)(it->end -
	    (i == 1 ? it->fp : it->prev_end)));
	strbuf_addf(b, "{\"name\": \"FP_BP Time %d\", \"pid\": %d, "
	    "\"tid\": %d, ", i, pid, tid);
	gen_tracedir_span(b, it->fp, it->bp);
	strbuf_addf(b, ", \"args\": {\"Iteration ID\": %d, \"FP_BP Time(ns)\": "
	    "%lld.0}, \"cat\": \"FP_BP Time\", \"ph\": \"X\"}, ", i,
	    (long long)(it->bp - it->fp));
	strbuf_addf(b, "{\"name\": \"Iteration Refresh %d\", \"pid\": %d, "
	    "\"tid\": %d, ", i, pid, tid);
	gen_tracedir_span(b, it->bp, it->end);
	strbuf_addf(b, ", \"args\": {\"Iteration ID\": %d, \"Iteration "
	    "Refresh(ns)\": %lld.0}, \"cat\": \"Iteration Refresh\", \"ph\": "
	    "\"X\"}, ", i, (long long)(it->end - it->bp));
	strbuf_addf(b, "{\"name\": \"Reduce_%d_0\", \"pid\": %d, \"tid\": %d, ",
	    i, pid, tid);
	gen_tracedir_span(b, it->reduce_start, it->reduce_end);
	strbuf_addf(b, ", \"args\": {\"Iteration ID\": %d}, \"cat\": "
	    "\"Reduce\", \"ph\": \"X\"}, ", i);
	strbuf_addf(b, "{\"name\": \"Data_aug Bound %d\", \"cat\": \"Data_aug "
	    "Bound\", \"ph\": \"s\", ", i);
	gen_tracedir_ts(b, "ts", it->end);
	strbuf_addf(b, ", \"pid\": %d, \"tid\": %d, \"id\": \"Data_aug Bound "
	    "%d\", \"args\": {\"Iteration ID\": %d}}, ", pid, tid, i, i);
	strbuf_addf(b, "{\"name\": \"Data_aug Bound %d\", \"cat\": \"Data_aug "
	    "Bound\", \"ph\": \"t\", ", i);
	gen_tracedir_ts(b, "ts", it->end);
	strbuf_addf(b, ", \"pid\": %d, \"tid\": %d, \"id\": \"Data_aug Bound "
	    "%d\", \"args\": {\"Data_aug Bound(us)\": ", pid, tid, i);
	gen_tracedir_float(b, i == 1 ? 0 : (double)(it->fp
	    - it->prev_end) / 1000);
	strbuf_adds(b, "}}, ");
	(void)t;
}

/* Close a JSON array whose last element ends in ", ". */
static void
gen_tracedir_close(struct strbuf *b)
{
	if (b->len >= 2 && b->s[b->len - 2] == ',')
		b->len -= 2;
	strbuf_adds(b, "]");
}

/* The expected step_trace row of iteration I. */
static void
gen_tracedir_step_row(struct gen_tracedir *t, int i,
    const struct gen_tracedir_iter *it)
{
	char	 v[7][40];

	util_fmt_us(v[0], sizeof v[0], it->fp + t->off, 3, false);
	util_fmt_us(v[1], sizeof v[1], it->bp + t->off, 3, false);
	util_fmt_us(v[2], sizeof v[2], it->end + t->off, 3, false);
	util_fmt_us(v[3], sizeof v[3], it->end - (i == 1 ? it->fp :
	    it->prev_end), 3, true);
	util_fmt_us(v[4], sizeof v[4], it->bp - it->fp, 3, true);
	util_fmt_us(v[5], sizeof v[5], it->end - it->bp, 3, true);
	util_fmt_us(v[6], sizeof v[6], i == 1 ? 0 : it->fp - it->prev_end, 3,
	    true);
	strbuf_addf(&t->steps, "%d,%d,%s,%s,%s,%s,%s,%s,%s,%d\n", t->device, i,
	    v[0], v[1], v[2], v[3], v[4], v[5], v[6], t->model);
}

/*
 * The tasks and HCCL events of iteration I from monotonic ns AT on: tasks
 * into TASKS (as task_time and msprof events), HCCL into HCCL. Returns
 * the end of the last task.
 */
static int64_t
gen_tracedir_tasks(struct gen_tracedir *t, struct strbuf *tasks,
    struct strbuf *hccl,
    int i, int64_t at)
{
	static const char *const types[] = { "Conv2D", "MatMul", "ReLU",
	    "Cast", "TransData" };
	int64_t		 n, k, dur, h0, start = at, end = at;
	const char	*type;
	char		 v[3][40];
	int		 stream, hp = 1000000 + 2 * 100 + 11;

	n = t->g->tasks / t->g->steps > 0 ? t->g->tasks / t->g->steps : 1;
	for (k = 0; k < n; k++) {
		stream = 2 + (int)(k % t->g->streams);
		start += 1000 + (int64_t)(util_rand_next(&t->rng) % 40000);
		dur = 10 * (int64_t)(1 + util_rand_next(&t->rng) % 30000);
		strbuf_addf(tasks, "{\"name\": \"Default/net/%s-op%lld\", "
		    "\"pid\": 3, \"tid\": %d, ", types[k % 5], (long long)k,
		    stream);
		gen_tracedir_span(tasks, start, start + dur);
		type = k % 7 == 3 ? "AI_CPU" : "AI_CORE";
		strbuf_addf(tasks, ", \"args\": {\"Task Type\": \"%s\", "
		    "\"Stream Id\": %d, \"Task Id\": %lld, \"Batch Id\": 0}, "
		    "\"ph\": \"X\"}, ", type, stream, (long long)k + 1);
		util_fmt_us(v[0], sizeof v[0], dur, 3, false);
		util_fmt_us(v[1], sizeof v[1], start + t->off, 3, false);
		util_fmt_us(v[2], sizeof v[2], start + dur + t->off, 3, false);
		strbuf_addf(&t->tasks, "%d,Default/net/%s-op%lld,%s,%d,%lld,%s,"
		    "%s,%s\n", t->device, types[k % 5], (long long)k, type,
		    stream, (long long)k + 1, v[0], v[1], v[2]);
		end = start + dur > end ? start + dur : end;
	}
	for (k = 0; k < GEN_TL_HCCL; k++) {
		strbuf_addf(hccl, "{\"name\": \"Notify_Wait\", \"pid\": %d, "
		    "\"tid\": %lld, ", hp, (long long)k % 2);
		h0 = at + 5000 * (k + 1);
		gen_tracedir_span(hccl, h0, h0 + 3250);
		strbuf_addf(hccl, ", \"args\": {\"notify_id\": %lld, "
		    "\"stream id\": 12, \"task id\": %lld, \"task type\": "
		    "\"Notify_Wait\", \"src rank\": 0, \"dst rank\": "
		    "4294967295}, \"ph\": \"X\"}, ", 160 + (long long)k,
		    (long long)k + 2);
	}
	(void)i;
	return end;
}

/* Write NAME_<device>_<model>_<I>.json into DIR. */
static int
gen_tracedir_write_file(struct gen_tracedir *t, const char *dir,
    const char *name, int i,
    struct strbuf *b, char **cause)
{
	char	*file;
	int	 rc;

	gen_tracedir_close(b);
	xasprintf(&file, "%s_%d_%d_%d.json", name, t->device, t->model, i);
	rc = gen_prof_bin_write(dir, file, b->s, b->len, cause);
	free(file);
	return rc;
}

/* The files of iteration I: msprof_*, task_time_*, hccl_*. */
static int
gen_tracedir_iteration(struct gen_tracedir *t, const char *dir, int i,
    struct gen_tracedir_iter *it, int64_t *at, char **cause)
{
	struct strbuf	 tasks, hccl, b;
	int		 k, rc = -1, hp = 1000000 + 2 * 100 + 11;

	strbuf_init(&tasks);
	strbuf_init(&hccl);
	strbuf_init(&b);
	it->prev_end = *at;
	it->fp = *at + 20000 + (int64_t)(util_rand_next(&t->rng) % 100000);
	*at = gen_tracedir_tasks(t, &tasks, &hccl, i, it->fp);
	it->bp = it->fp + (*at - it->fp) * 2 / 3;
	it->end = *at + 5000 + (int64_t)(util_rand_next(&t->rng) % 10000);
	it->reduce_start = it->bp + 100;
	it->reduce_end = it->end - 100;
	*at = it->end;

	strbuf_adds(&b, "[");
	gen_tracedir_meta(&b, "process_name", 3, 0, "name",
	    "\"Ascend Hardware\"");
	for (k = 0; k < t->g->streams; k++)
		strbuf_addf(&b, "{\"name\": \"thread_name\", \"pid\": 3, "
		    "\"tid\": %d, \"args\": {\"name\": \"Stream %d\"}, \"ph\": "
		    "\"M\"}, ", k + 2, k + 2);
	strbuf_add(&b, tasks.s, tasks.len);
	if (gen_tracedir_write_file(t, dir, "task_time", i, &b, cause) != 0)
		goto out;
	strbuf_reset(&b);
	strbuf_adds(&b, "[");
	gen_tracedir_meta(&b, "process_name", hp, 0, "name", "\"HCCL\"");
	gen_tracedir_meta(&b, "thread_name", hp, 0, "name", "\"Plane 0\"");
	gen_tracedir_meta(&b, "thread_name", hp, 1, "name", "\"Plane 1\"");
	strbuf_add(&b, hccl.s, hccl.len);
	if (gen_tracedir_write_file(t, dir, "hccl", i, &b, cause) != 0)
		goto out;
	/* msprof_*: every module again, and this iteration's step trace. */
	strbuf_reset(&b);
	strbuf_adds(&b, "[");
	gen_tracedir_meta(&b, "process_name", 3, 0, "name",
	    "\"Ascend Hardware\"");
	gen_tracedir_meta(&b, "thread_name", 3, 10036, "name",
	    "\"Step Trace(Model ID)\"");
	gen_tracedir_meta(&b, "process_name", 1000202, 0, "name", "\"CANN\"");
	gen_tracedir_meta(&b, "process_name", hp, 0, "name", "\"HCCL\"");
	strbuf_adds(&b, "{\"name\": \"GE@Infer\", \"pid\": 1000202, \"tid\": "
	    "16027, ");
	gen_tracedir_span(&b, it->fp - 300, it->end + 200);
	strbuf_addf(&b, ", \"args\": {\"Model Name\": null, \"Model Id\": %d}, "
	    "\"ph\": \"X\"}, ", t->model);
	gen_tracedir_step_events(t, &b, 3, 10036, i, it);
	strbuf_add(&b, tasks.s, tasks.len);
	strbuf_add(&b, hccl.s, hccl.len);
	if (gen_tracedir_write_file(t, dir, "msprof", i, &b, cause) != 0)
		goto out;
	gen_tracedir_step_row(t, i, it);
	rc = 0;
out:
	strbuf_release(&tasks);
	strbuf_release(&hccl);
	strbuf_release(&b);
	return rc;
}

/* Write TEXT (freed) to DEV/STEM.N for the device N of T. */
static int
gen_tracedir_meta_file(struct gen_tracedir *t, const char *dev,
    const char *stem,
    char *text, char **cause)
{
	char	*name;
	int	 rc;

	xasprintf(&name, "%s.%d", stem, t->device);
	rc = gen_prof_bin_write(dev, name, text, strlen(text), cause);
	free(text);
	free(name);
	return rc;
}

/* The control files of device_N: info.json.N, start_info.N, end_info.N. */
static int
gen_tracedir_meta_files(struct gen_tracedir *t, const char *dev, int64_t mono0,
    int64_t end_mono, char **cause)
{
	char	*info, *start, *end;

	xasprintf(&info, "{\"jobInfo\":\"NA\",\"version\":\"1.0\",\"devices\":"
	    "\"%d\",\"DeviceInfo\":[{\"id\":%d,\"hwts_frequency\":\"100\","
	    "\"aic_frequency\":\"1000\",\"ai_core_num\":32}],"
	    "\"platform_version\":\"1\",\"rank_id\":%d,\"pid_name\":"
	    "\"python\"}", t->device, t->device, t->device);
	xasprintf(&start, "{\"collectionDateBegin\":\"\","
	    "\"collectionTimeBegin\":\"%lld\",\"clockMonotonicRaw\":"
	    "\"%lld\"}", (long long)(t->off + mono0) / 1000,
	    (long long)mono0);
	xasprintf(&end, "{\"collectionDateEnd\":\"\",\"collectionTimeEnd\":"
	    "\"%lld\",\"clockMonotonicRaw\":\"%lld\"}", (long long)
	    (t->off + end_mono) / 1000, (long long)end_mono);
	if (gen_tracedir_meta_file(t, dev, "info.json", info, cause) != 0) {
		free(start);
		free(end);
		return -1;
	}
	if (gen_tracedir_meta_file(t, dev, "start_info", start, cause) != 0) {
		free(end);
		return -1;
	}
	return gen_tracedir_meta_file(t, dev, "end_info", end, cause);
}

/* One device_N directory of the run. */
static int
gen_tracedir_device(struct gen_tracedir *t, const char *dir, char **cause)
{
	struct gen_tracedir_iter	*its;
	struct strbuf		 b;
	char			*dev, *tl, *name;
	int64_t			 mono0, at;
	int			 i, k, steps = t->g->steps, rc = -1;

	xasprintf(&name, "device_%d", t->device);
	dev = util_path_join(dir, name);
	free(name);
	tl = util_path_join(dev, "timeline");
	its = xcalloc((size_t)steps + 1, sizeof *its);
	strbuf_init(&b);
	if (util_mkdir_p(tl, 0755) != 0) {
		xasprintf(cause, "cannot create '%s'", tl);
		goto out;
	}
	/* start_info: monotonic ns at collection start, microsecond epoch. */
	mono0 = 50000000000000LL + (int64_t)(util_rand_next(&t->rng) %
	    1000000000000ULL);
	t->off = (GEN_TL_BEGIN_US + 1000 * t->device) * 1000 - mono0;
	at = mono0 + 2000000000LL;
	for (i = 1; i <= steps; i++) {
		if (gen_tracedir_iteration(t, tl, i, &its[i], &at, cause) != 0)
			goto out;
	}
	/* Each step_trace_* file repeats the step trace of every iteration. */
	for (i = 1; i <= steps; i++) {
		strbuf_reset(&b);
		strbuf_adds(&b, "[");
		gen_tracedir_meta(&b, "process_name", 10036, 0, "name",
		    "\"Step Trace\"");
		for (k = 1; k <= steps; k++)
			gen_tracedir_step_events(t, &b, 10036, 10036, k,
			    &its[k]);
		if (gen_tracedir_write_file(t, tl, "step_trace", i, &b,
		    cause) != 0)
			goto out;
	}
	strbuf_addf(&t->counts, "%d|%lld\n", t->device,
	    (long long)steps * GEN_TL_HCCL);
	rc = gen_tracedir_meta_files(t, dev, mono0, at + 1000000000LL, cause);
out:
	strbuf_release(&b);
	free(its);
	free(tl);
	free(dev);
	return rc;
}

/*
 * Write G->ranks device_N directories of a CANN 6.x run into DIR and, with
 * G->expect, the expected task_time, step_trace and HCCL counts. On
 * failure return -1 and set *cause.
 */
int
gen_tracedir_write(const char *dir, const struct demo_opts *g, char **cause)
{
	struct gen_tracedir	 t;
	int		 d, rc = -1;

	memset(&t, 0, sizeof t);
	t.g = g;
	t.rng = g->seed * 0x9E3779B97F4A7C15ULL + 29;
	strbuf_init(&t.tasks);
	strbuf_init(&t.steps);
	strbuf_init(&t.counts);
	strbuf_adds(&t.tasks, "Device_id,kernel_name,kernel_type,stream_id,"
	    "task_id,task_time(us),task_start(us),task_stop(us)\n");
	strbuf_adds(&t.steps, "Device_id,Iteration ID,FP Start(us),BP End(us),"
	    "Iteration End(us),Iteration Time(us),FP to BP Time(us),Iteration "
	    "Refresh(us),Data Aug Bound(us),Model ID\n");
	for (d = 0; d < (g->ranks > 0 ? g->ranks : 1); d++) {
		t.device = d;
		t.model = 2 + d;
		if (gen_tracedir_device(&t, dir, cause) != 0)
			goto out;
	}
	if (g->expect != NULL && (util_mkdir_p(g->expect, 0755) != 0 ||
	    gen_prof_bin_write(g->expect, "task_time.csv", t.tasks.s,
	    t.tasks.len,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "step_trace.csv", t.steps.s,
	    t.steps.len,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "hccl.txt", t.counts.s, t.counts.len,
	    cause) != 0)) {
		if (*cause == NULL)
			xasprintf(cause, "cannot create '%s'", g->expect);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&t.tasks);
	strbuf_release(&t.steps);
	strbuf_release(&t.counts);
	return rc;
}
