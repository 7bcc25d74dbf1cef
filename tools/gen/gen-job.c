/*
 * The legacy JOB generator: a deterministic MindSpore-era JOB directory
 * (doc/formats.md 1.5) with text task_desc_info and graph_desc_info, the
 * point file, a 20-byte training_trace step trace, 64-byte HWTS task logs
 * (on the streams the task description names, task ids repeating every
 * iteration), 128-byte AclModule API records and the DATA_PREPROCESS AICPU
 * text log, written byte for byte as the old tools wrote them. With
 * --quirks the layout is the partly flattened one (Framework files at the
 * JOB root under the later vm_ names, no info.json, so the 100 MHz
 * default clock applies); with --binary the task description is 256-byte
 * GE records naming ops by hash id through hash_dic, with batch ids where
 * task ids wrap, the step trace is in ts_track records and the AI CPU log
 * is 128-byte records, as CANN-era JOBs have them; with --pmu each HWTS
 * task has an aicore.data PMU record (gen-job-pmu.c). The expected tables
 * are computed here from the generated values.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_JOB_BASE_TICKS	1000000000ULL

/*
 * With --anchor: the host monotonic clock when the device counter reads
 * GEN_JOB_BASE_TICKS (dev_start.log, host_start.log) and the epoch time
 * of host monotonic GEN_JOB_MONO_NS (start_info), so device and host times
 * both become epoch nanoseconds.
 */
#define GEN_JOB_MONO_NS		5000000000ULL
#define GEN_JOB_EPOCH_US	1700000000000000LL

struct gen_job_op {
	const char	*type;
	int		 mean_ticks;
	const char	*shape;
};

static const struct gen_job_op gen_job_ops[] = {
	{ "MatMul", 900, "32,1024" },
	{ "Conv2D", 1600, "8,64,56,56" },
	{ "TransData", 150, "8,4,56,56,16" },
	{ "Add", 80, "32,1024" },
	{ "Cast", 60, "32,1024" },
	{ "ReLU", 70, "8,64,56,56" }
};

#define GEN_JOB_NOPS	(sizeof gen_job_ops / sizeof gen_job_ops[0])

static void
gen_job_trace(struct strbuf *b, uint64_t tag, uint16_t task, uint16_t stream,
    uint64_t syscnt)
{
	size_t	 off = gen_prof_bin_record(b, 20, 0);

	gen_prof_bin_put(b, off, tag, 8);
	gen_prof_bin_put(b, off + 8, task, 2);
	gen_prof_bin_put(b, off + 10, stream, 2);
	gen_prof_bin_put(b, off + 12, syscnt, 8);
}

/* A ts_track step trace record (tag 10) of model 1. */
static void
gen_job_ts(struct strbuf *b, int point, uint64_t index, uint16_t stream,
    uint64_t syscnt)
{
	size_t	 off = gen_prof_bin_record(b, 40, 0);

	b->s[off + 1] = 10;
	gen_prof_bin_put(b, off + 8, syscnt, 8);
	gen_prof_bin_put(b, off + 16, index, 8);
	gen_prof_bin_put(b, off + 24, 1, 8);
	gen_prof_bin_put(b, off + 32, stream, 2);
	gen_prof_bin_put(b, off + 36, (uint16_t)point, 2);
}

static void
gen_job_hwts(struct strbuf *b, int type, int *cnt, uint16_t task,
    uint32_t stream, uint64_t syscnt)
{
	size_t	 off = gen_prof_bin_record(b, 64, 0);

	b->s[off] = (char)(type | (*cnt & 0xf) << 4);
	(*cnt)++;
	gen_prof_bin_put(b, off + 6, task, 2);
	gen_prof_bin_put(b, off + 8, syscnt, 8);
	gen_prof_bin_put(b, off + 16, (uint16_t)stream, 2);
}

struct gen_job_stat {
	const char	*type;
	struct util_stat v;
};

struct gen_job {
	const struct demo_opts	*g;
	uint64_t		 rng;
	double			 mhz;
	int			 nops;
	struct strbuf		 task, graph, trace, hwts, steps, ops, stat;
	struct strbuf		 dic, tensor, gstep, gstep_e, idmap, idmap_e;
	struct strbuf		 pmu, pmu_e;
	int			 pmu_cnt;
	bool			 binary;
	struct gen_job_stat	 st[GEN_JOB_NOPS];
	struct gen_job_stat	(*st_it)[GEN_JOB_NOPS];	/* per iteration */
	uint64_t		*win;	/* per iteration: start, end ticks */
	int			 nwin;
	int64_t			 epoch;	/* added to device ns with --anchor */
};

static int64_t
gen_job_ns(const struct gen_job *j, uint64_t ticks)
{
	return (int64_t)(ticks * 1000 / (uint64_t)j->mhz);
}

static void
gen_job_us(struct strbuf *b, int64_t ns, bool strip, const char *sep)
{
	char	 buf[48];

	util_fmt_us(buf, sizeof buf, ns, 3, strip);
	strbuf_addf(b, "%s%s", buf, sep);
}

static int
gen_job_stat_cmp(const void *a, const void *b)
{
	const struct gen_job_stat	*x = a, *y = b;

	if (x->v.total != y->v.total)
		return x->v.total > y->v.total ? -1 : 1;
	return strcmp(x->type, y->type);
}

/*
 * An expected op_statistic from the groups ST: every op ran on an AI
 * Core. Each row starts with FIRST: the device id in the vendor's current
 * table, the Model Name (N/A) in a legacy per-iteration file.
 */
static void
gen_job_op_stat_rows(struct strbuf *b, struct gen_job_stat *st,
    const char *head, const char *first)
{
	struct gen_job_stat	*s;
	char			 r[32];
	int64_t			 sum = 0;
	size_t			 i;

	for (i = 0; i < GEN_JOB_NOPS; i++) {
		st[i].type = gen_job_ops[i].type;
		sum += st[i].v.total;
	}
	qsort(st, GEN_JOB_NOPS, sizeof st[0], gen_job_stat_cmp);
	strbuf_addf(b, "%s,OP Type,Core Type,Count,Total Time(us),"
	    "Min Time(us),Avg Time(us),Max Time(us),Ratio(%%)\n", head);
	for (i = 0; i < GEN_JOB_NOPS; i++) {
		s = &st[i];
		if (s->v.count == 0)
			continue;
		strbuf_addf(b, "%s,%s,AI_CORE,%lld,", first, s->type,
		    (long long)s->v.count);
		gen_job_us(b, s->v.total, true, ",");
		gen_job_us(b, s->v.min, true, ",");
		gen_job_us(b, s->v.total / s->v.count, true, ",");
		gen_job_us(b, s->v.max, true, ",");
		util_fmt_fixed(r, sizeof r, (double)s->v.total * 100.0 /
		    (double)sum, 3, true);
		strbuf_addf(b, "%s\n", r);
	}
}

/*
 * The expected op_statistic of the whole run, and of each iteration as
 * the legacy export writes it, op_statistic_0_<model>_<iter>.csv.
 */
static int
gen_job_op_statistic(struct gen_job *j, char **cause)
{
	struct strbuf	 b;
	char		 name[64];
	int		 w, rc = 0;

	gen_job_op_stat_rows(&j->stat, j->st, "Device_id", "0");
	for (w = 0; w < j->nwin && j->g->expect != NULL && rc == 0; w++) {
		strbuf_init(&b);
		gen_job_op_stat_rows(&b, j->st_it[w], "Model Name", "N/A");
		snprintf(name, sizeof name, "op_statistic_0_%d_%d.csv",
		    j->binary ? 1 : 0, w + 1);
		rc = gen_prof_bin_write(j->g->expect, name, b.s, b.len, cause);
		strbuf_release(&b);
	}
	return rc;
}

/*
 * With --anchor, the files that tie the device counter and the host
 * monotonic clock to epoch time: dev_start.log, host_start.log and
 * start_info, beside data/.
 */
static int
gen_job_anchor(struct gen_job *j, const char *dir, char **cause)
{
	char	 dev[64], host[64], start[128];

	if (!(j->g->flags & GEN_ANCHOR))
		return 0;
	snprintf(dev, sizeof dev, "cntvct: %llu\n",
	    (unsigned long long)GEN_JOB_BASE_TICKS);
	snprintf(host, sizeof host, "clock_monotonic_raw: %llu\n",
	    (unsigned long long)GEN_JOB_MONO_NS);
	snprintf(start, sizeof start, "{\"collectionTimeBegin\": \"%lld\","
	    " \"clockMonotonicRaw\": \"%llu\"}\n",
	    (long long)GEN_JOB_EPOCH_US, (unsigned long long)GEN_JOB_MONO_NS);
	return gen_prof_bin_write(dir, "dev_start.log.0", dev, strlen(dev),
	    cause) != 0 || gen_prof_bin_write(dir, "host_start.log.0", host,
	    strlen(host), cause) != 0 || gen_prof_bin_write(dir, "start_info.0",
	    start, strlen(start), cause) != 0 ? -1 : 0;
}

/*
 * The iteration windows as host monotonic ns for the ACL spans of an
 * anchored JOB, or NULL.
 */
static uint64_t *
gen_job_host_windows(const struct gen_job *j)
{
	uint64_t	*w;
	int		 i;

	if (!(j->g->flags & GEN_ANCHOR))
		return NULL;
	w = xreallocarray(NULL, (size_t)j->nwin * 2, sizeof *w);
	for (i = 0; i < 2 * j->nwin; i++)
		w[i] = GEN_JOB_MONO_NS + (uint64_t)gen_job_ns(j, j->win[i] -
		    GEN_JOB_BASE_TICKS);
	return w;
}

static int
gen_job_stream(const struct gen_job *j, int i)
{
	return i % (j->g->streams > 0 ? j->g->streams : 1);
}

/*
 * The task id of op I. Binary descriptions carry batch ids, so there the
 * second half of the ops reuses the task ids of the first (batch 1), as
 * a wrap of the 16-bit task id does; text ones give each op its own id.
 */
static int
gen_job_task(const struct gen_job *j, int i, int *batch)
{
	int	 s = j->g->streams > 0 ? j->g->streams : 1;
	int	 half = j->nops / 2 / s * s;

	/*
	 * A multiple of the stream count, so op I and op I - HALF share a
	 * stream and a task id and only the batch tells them apart.
	 */
	*batch = 0;
	if (!j->binary || half == 0 || i < half)
		return i + 1;
	*batch = 1;
	return i - half + 1;
}

/* A 256-byte GE task record: name by hash id, type inline, model 1. */
static void
gen_job_ge(struct gen_job *j, int i, const char *type)
{
	size_t	 off = gen_prof_bin_record(&j->task, 256, 0);
	int	 batch, task = gen_job_task(j, i, &batch);
	uint64_t hash = 0x1000 + (uint64_t)i * 7919;

	gen_prof_bin_put(&j->task, off, 0x5a5a, 2);
	gen_prof_bin_put(&j->task, off + 2, 20, 2);
	gen_prof_bin_put(&j->task, off + 16, hash, 8);
	j->task.s[off + 136] = 1;
	memcpy(j->task.s + off + 144, type, strlen(type));
	gen_prof_bin_put(&j->task, off + 220, (uint16_t)(1 + i % 32), 2);
	/* Model 1, the model of the ts_track step trace. */
	gen_prof_bin_put(&j->task, off + 224, 1, 2);
	gen_prof_bin_put(&j->task, off + 228, (uint16_t)gen_job_stream(j, i),
	    2);
	gen_prof_bin_put(&j->task, off + 232, (uint16_t)task, 2);
	gen_prof_bin_put(&j->task, off + 234, (uint16_t)batch, 2);
	/* Op 1's id is missing from the dictionary: it shows in hex. */
	if (i != 1)
		strbuf_addf(&j->dic, "%llu:Default/net/%s-op%d\n",
		    (unsigned long long)hash, type, i);
}

/* The op table: task_desc_info, graph_desc_info and the expected rows. */
static void
gen_job_describe(struct gen_job *j)
{
	const struct gen_job_op	*o;
	int			 i, stream, task, batch;

	strbuf_adds(&j->ops, "Task ID,Stream ID,Block Dim,Op Name,OP Type,"
	    "Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	    "Output Data Types,Output Formats\n");
	for (i = 0; i < j->nops; i++) {
		o = &gen_job_ops[i % GEN_JOB_NOPS];
		stream = gen_job_stream(j, i);
		task = gen_job_task(j, i, &batch);
		if (j->binary) {
			gen_job_ge(j, i, o->type);
			gen_ge_tensor(&j->tensor, stream, task, batch,
			    o->shape);
			strbuf_addf(&j->ops, "%d,%d,%d,", task, stream,
			    1 + i % 32);
			if (i == 1)
				strbuf_addf(&j->ops, "0x%016llx,",
				    (unsigned long long)(0x1000 + 7919));
			else
				strbuf_addf(&j->ops, "Default/net/%s-op%d,",
				    o->type, i);
			strbuf_addf(&j->ops, "%s,\";%s\",FLOAT16;FLOAT32,"
			    "DEFAULT;ND,\"%s\",FLOAT16,DEFAULT\n", o->type,
			    o->shape, o->shape);
			continue;
		}
		strbuf_addf(&j->task, "Default/net/%s-op%d %d %d %d\n",
		    o->type, i, 1 + i % 32, task, stream);
		strbuf_addf(&j->graph, "op_name:Default/net/%s-op%d "
		    "op_type:%s input_id:0 input_format:DefaultFormat "
		    "input_data_type:40 input_shape:\"%s\" input_id:1 "
		    "input_format:NC1HWC0 input_data_type:39 input_shape:\"\" "
		    "output_id:0 output_format:DefaultFormat "
		    "output_data_type:39 output_shape:\"%s\"\n", o->type, i,
		    o->type, o->shape, o->shape);
		strbuf_addf(&j->ops, "%d,%d,%d,Default/net/%s-op%d,%s,\"%s;\","
		    "FLOAT32;FLOAT16,DefaultFormat;NC1HWC0,\"%s\",FLOAT16,"
		    "DefaultFormat\n", task, stream, 1 + i % 32, o->type, i,
		    o->type, o->shape, o->shape);
	}
}

/*
 * A step trace point: text-era JOBs write training_trace (FP 1, BP 2,
 * end 255, all-reduce 3 and 4), binary-era ones ts_track (FP 2, BP 3,
 * end 4, all-reduce 10000 and 10001).
 */
static void
gen_job_point(struct gen_job *j, int point, int iter, uint16_t stream,
    uint64_t syscnt)
{
	static const int	 ts[] = { 0, 2, 3, 10000, 10001 };
	static const int	 tt[] = { 10010, 1, 2, 3, 4 };

	if (point == 255 && j->binary)
		gen_job_ts(&j->trace, 4, (uint64_t)iter, stream, syscnt);
	else if (point == 255)
		gen_job_trace(&j->trace, 255, 0, stream, syscnt);
	else if (j->binary && point > 0)
		gen_job_ts(&j->trace, ts[point], (uint64_t)iter, stream,
		    syscnt);
	else if (!j->binary)
		gen_job_trace(&j->trace, (uint64_t)tt[point], 0, stream,
		    syscnt);
}

/* One iteration: step trace points and HWTS logs; return its end. */
static uint64_t
gen_job_iteration(struct gen_job *j, int iter, uint64_t t, int *cnt,
    uint64_t prev_end)
{
	uint64_t	 fp, bp, end, r0, r1, d;
	int		 i, task, batch;

	gen_job_point(j, 0, iter, 0, t);
	fp = t + 200 + util_rand_next(&j->rng) % 300;
	gen_job_point(j, 1, iter, 0, fp);
	t = fp + 50;
	r0 = t + 100;
	for (i = 0; i < j->nops; i++) {
		d = (uint64_t)gen_job_ops[i % GEN_JOB_NOPS].mean_ticks / 2 +
		    util_rand_next(&j->rng) % (uint64_t)gen_job_ops[i %
		    GEN_JOB_NOPS].mean_ticks;
		util_stat_add(&j->st[i % GEN_JOB_NOPS].v, gen_job_ns(j, d));
		util_stat_add(&j->st_it[iter - 1][i % GEN_JOB_NOPS].v,
		    gen_job_ns(j, d));
		task = gen_job_task(j, i, &batch);
		gen_job_hwts(&j->hwts, 0, cnt, (uint16_t)task,
		    (uint32_t)gen_job_stream(j, i), t);
		gen_job_hwts(&j->hwts, 1, cnt, (uint16_t)task,
		    (uint32_t)gen_job_stream(j, i), t + d);
		if (j->g->flags & GEN_PMU)
			gen_job_pmu_task(&j->pmu, &j->pmu_e, &j->rng,
			    &j->pmu_cnt, task, gen_job_stream(j, i),
			    1 + i % 32);
		t += d + 5;
	}
	r1 = t - 10;
	gen_job_point(j, 3, iter, 100, r0);
	gen_job_point(j, 4, iter, 100, r1);
	bp = t + 20;
	gen_job_point(j, 2, iter, 0, bp);
	end = bp + 400 + util_rand_next(&j->rng) % 500;
	gen_job_point(j, 255, iter, 0, end);
	j->win[2 * (iter - 1)] = iter > 1 ? prev_end : fp;
	j->win[2 * (iter - 1) + 1] = end;
	strbuf_addf(&j->steps, "0,%d,", iter);
	gen_job_us(&j->steps, j->epoch + gen_job_ns(j, fp), false, ",");
	gen_job_us(&j->steps, j->epoch + gen_job_ns(j, bp), false, ",");
	gen_job_us(&j->steps, j->epoch + gen_job_ns(j, end), false, ",");
	gen_job_us(&j->steps, gen_job_ns(j, end - (iter > 1 ? prev_end : fp)),
	    true, ",");
	gen_job_us(&j->steps, gen_job_ns(j, bp - fp), true, ",");
	gen_job_us(&j->steps, gen_job_ns(j, end - bp), true, ",");
	gen_job_us(&j->steps, gen_job_ns(j, iter > 1 ? fp - prev_end : 0),
	    true, j->binary ? ",1\n" : ",N/A\n");
	return end;
}

static int
gen_job_expect(const struct demo_opts *g, const char *name, struct strbuf *b,
    char **cause)
{
	if (g->expect == NULL)
		return 0;
	return gen_prof_bin_write(g->expect, name, b->s, b->len, cause);
}

static void
gen_job_release(struct gen_job *j)
{
	strbuf_release(&j->task);
	strbuf_release(&j->graph);
	strbuf_release(&j->trace);
	strbuf_release(&j->hwts);
	strbuf_release(&j->steps);
	strbuf_release(&j->ops);
	strbuf_release(&j->stat);
	strbuf_release(&j->dic);
	strbuf_release(&j->tensor);
	strbuf_release(&j->gstep);
	strbuf_release(&j->gstep_e);
	strbuf_release(&j->idmap);
	strbuf_release(&j->idmap_e);
	strbuf_release(&j->pmu);
	strbuf_release(&j->pmu_e);
}

/* The binary Framework files beside the task description. */
static int
gen_job_ge_files(struct gen_job *j, const char *fw, char **cause)
{
	int		 i;

	static const int tags[] = { 0, 2, 3, 4, 1 };
	uint64_t	 t;
	int		 k;

	for (i = 1; i <= (j->g->steps > 0 ? j->g->steps : 1); i++) {
		t = 7000000000ULL + (uint64_t)i * 1000000;
		for (k = 0; k < 5; k++)
			gen_ge_step(&j->gstep, &j->gstep_e, i, tags[k],
			    t + (uint64_t)k * 200000);
	}
	/* A tag of no known meaning is shown as its number. */
	gen_ge_step(&j->gstep, &j->gstep_e, i, 9, t + 1000000);
	gen_ge_id_map(&j->idmap, &j->idmap_e, 6900000000ULL);
	if (gen_prof_bin_write(fw, "Framework.tensor_data_info.0.slice_0",
	    j->tensor.s, j->tensor.len, cause) != 0 ||
	    gen_prof_bin_write(fw, "Framework.step_info.0.slice_0", j->gstep.s,
	    j->gstep.len, cause) != 0 ||
	    gen_prof_bin_write(fw, "Framework.id_map_info.0.slice_0",
	    j->idmap.s,
	    j->idmap.len, cause) != 0 ||
	    gen_job_expect(j->g, "ge_step_info.csv", &j->gstep_e, cause) != 0 ||
	    gen_job_expect(j->g, "ge_id_map.csv", &j->idmap_e, cause) != 0)
		return -1;
	return 0;
}

/*
 * The binary AI CPU slice of a CANN-era JOB: 128-byte records (magic
 * 0x5A5A, tag 60) for the first ops (batch 0), one of a task the task
 * description does not have, and one with a bad magic, with the expected
 * aicpu table (times on the JOB's clock in microseconds).
 */
static int
gen_job_aicpu_bin(struct gen_job *j, const char *dir, char **cause)
{
	struct strbuf	 f, e;
	char		 tot[32], disp[32];
	uint64_t	 t = GEN_JOB_BASE_TICKS + 5000, run, sub, after;
	uint32_t	 dispatch;
	int		 i, n = j->nops / 2 < 6 ? j->nops / 2 : 6, batch, task;
	size_t		 off;
	int		 rc;

	strbuf_init(&f);
	strbuf_init(&e);
	strbuf_adds(&e, "serial_number,node_type_name,total_time(ms),"
	    "dispatch_time(ms),run_start,run_end\n");
	for (i = 0; i <= n + 1; i++) {
		run = 200 + util_rand_next(&j->rng) % 5000;
		sub = 20 + util_rand_next(&j->rng) % 100;
		after = run + sub + util_rand_next(&j->rng) % 50;
		dispatch = 10 + (uint32_t)(util_rand_next(&j->rng) % 900);
		task = i < n ? gen_job_task(j, i, &batch) : 60000;
		off = gen_prof_bin_record(&f, 128, 0);
		gen_prof_bin_put(&f, off, i == n + 1 ? 0x5a5b : 0x5a5a, 2);
		gen_prof_bin_put(&f, off + 2, 60, 2);
		gen_prof_bin_put(&f, off + 4, (uint16_t)gen_job_stream(j,
		    i), 2);
		gen_prof_bin_put(&f, off + 6, (uint16_t)task, 2);
		gen_prof_bin_put(&f, off + 16, t, 8);
		gen_prof_bin_put(&f, off + 56, t + run, 8);
		gen_prof_bin_put(&f, off + 72, t - sub, 8);
		gen_prof_bin_put(&f, off + 96, t + after, 8);
		gen_prof_bin_put(&f, off + 108, dispatch, 4);
		if (i <= n) {
			util_fmt_fixed(tot, sizeof tot, (double)(gen_job_ns(j,
			    t + after) - gen_job_ns(j, t - sub)) / 1e6, 3,
			    true);
			util_fmt_fixed(disp, sizeof disp, dispatch / 1000.0, 3,
			    true);
			strbuf_addf(&e, "%d,%s,%s,%s,%lld,%lld\n", i + 1,
			    i < n ? gen_job_ops[i % GEN_JOB_NOPS].type : "",
			    tot, disp, (long long)((j->epoch + gen_job_ns(j,
			    t)) / 1000), (long long)((j->epoch + gen_job_ns(j,
			    t + run)) / 1000));
		}
		t += run + 1000;
	}
	rc = gen_prof_bin_write(dir, "DATA_PREPROCESS.AICPU.0.slice_0", f.s,
	    f.len, cause);
	if (rc == 0 && j->g->expect != NULL)
		rc = gen_prof_bin_write(j->g->expect, "aicpu.csv", e.s, e.len,
		    cause);
	strbuf_release(&f);
	strbuf_release(&e);
	return rc;
}

/*
 * Write a legacy JOB directory DIR for device 0 and, with G->expect, the
 * expected task_desc, step_trace, op_statistic, acl_statistic and aicpu
 * tables as CSV.
 * On failure return -1 and set *cause.
 */
int
gen_job_write(const char *dir, const struct demo_opts *g, char **cause)
{
	struct gen_job	 j;
	char		*data, *fw;
	uint64_t	 t = GEN_JOB_BASE_TICKS, end = 0, *hostwin = NULL;
	int		 i, cnt = 0, rc = -1;
	bool		 flat = (g->flags & DEMO_QUIRKS) != 0;
	static const char point[] = "1 Default/net/MatMul-op0\n"
	    "2 Default/net/MatMul-op0\n";
	static const char info[] = "{\"DeviceInfo\":[{\"id\":0,"
	    "\"hwts_frequency\":\"50.000000\",\"aic_frequency\":\"1000\","
	    "\"ai_core_num\":32}]}\n";

	memset(&j, 0, sizeof j);
	j.g = g;
	j.rng = g->seed * 0x9E3779B97F4A7C15ULL + 7;
	j.mhz = flat ? 100 : 50;
	j.nops = g->tasks < 1 ? 1 : g->tasks > 64 ? 64 : (int)g->tasks;
	j.binary = (g->flags & GEN_BINARY) != 0;
	data = util_path_join(dir, "data");
	fw = flat ? xstrdup(dir) : xstrdup(data);
	if (util_mkdir_p(data, 0755) != 0 || (g->expect != NULL &&
	    util_mkdir_p(g->expect, 0755) != 0)) {
		xasprintf(cause, "cannot create '%s'", data);
		goto out;
	}
	gen_job_describe(&j);
	j.nwin = g->steps > 0 ? g->steps : 1;
	j.win = xcalloc((size_t)j.nwin * 2, sizeof *j.win);
	j.st_it = xcalloc((size_t)j.nwin, sizeof *j.st_it);
	if (g->flags & GEN_ANCHOR)
		j.epoch = GEN_JOB_EPOCH_US * 1000 - gen_job_ns(&j,
		    GEN_JOB_BASE_TICKS);
	strbuf_adds(&j.steps, "Device_id,Iteration ID,FP Start(us),BP End(us),"
	    "Iteration End(us),Iteration Time(us),FP to BP Time(us),"
	    "Iteration Refresh(us),Data Aug Bound(us),Model ID\n");
	for (i = 1; i <= (g->steps > 0 ? g->steps : 1); i++) {
		end = gen_job_iteration(&j, i, t, &cnt, end);
		t = end + 10;
	}
	hostwin = gen_job_host_windows(&j);
	if (gen_job_op_statistic(&j, cause) != 0 ||
	    gen_job_anchor(&j, dir, cause) != 0 ||
	    (!flat && gen_prof_bin_write(dir, "info.json.0", info,
	    sizeof info - 1, cause) != 0) ||
	    gen_prof_bin_write(fw, flat ?
	    "Framework.host.vm_task_desc_info.0.slice_0" :
	    "Framework.host.vm.task_desc_info.0.slice_0",
	    j.task.s, j.task.len, cause) != 0 ||
	    (j.binary && gen_prof_bin_write(fw, "Framework.hash_dic.0.slice_0",
	    j.dic.s, j.dic.len, cause) != 0) ||
	    (!j.binary && gen_prof_bin_write(fw, flat ?
	    "Framework.host.vm_graph_desc_info.0.slice_0" :
	    "Framework.host.vm.graph_desc_info.0.slice_0", j.graph.s,
	    j.graph.len, cause) != 0) ||
	    (j.binary && gen_job_ge_files(&j, fw, cause) != 0) ||
	    gen_prof_bin_write(fw, flat ? "Framework.host.vm_point.0.slice_0" :
	    "Framework.host.vm.point.0.slice_0", point, strlen(point),
	    cause) != 0 ||
	    gen_prof_bin_write(data, j.binary ? "ts_track.data.0.slice_0" :
	    "training_trace.46.dev.profiler_default_tag.0.slice_0", j.trace.s,
	    j.trace.len, cause) != 0 ||
	    gen_prof_bin_write(fw, "hwts.log.data.45.dev.profiler_default_tag.0"
	    ".slice_0", j.hwts.s, j.hwts.len, cause) != 0 ||
	    gen_acl_job(data, g, &j.rng, hostwin, hostwin != NULL ? j.nwin :
	    0, j.binary ? 1 : 0, cause) != 0 ||
	    (!j.binary && gen_acl_aicpu(data, g, &j.rng, cause) != 0) ||
	    (j.binary && gen_job_aicpu_bin(&j, data, cause) != 0) ||
	    gen_acl_runtime(data, g, &j.rng, cause) != 0 ||
	    gen_job_expect(g, "task_desc.csv", &j.ops, cause) != 0 ||
	    gen_job_expect(g, "step_trace.csv", &j.steps, cause) != 0 ||
	    gen_job_expect(g, "op_statistic.csv", &j.stat, cause) != 0)
		goto out;
	if ((g->flags & GEN_PMU) && (gen_prof_bin_write(data,
	    "aicore.data.0.slice_0", j.pmu.s, j.pmu.len, cause) != 0 ||
	    gen_prof_bin_write(dir, "sample.json", gen_job_pmu_sample(),
	    strlen(gen_job_pmu_sample()), cause) != 0 ||
	    gen_job_expect(g, "pmu.csv", &j.pmu_e, cause) != 0))
		goto out;
	rc = 0;
out:
	gen_job_release(&j);
	free(j.win);
	free(j.st_it);
	free(hostwin);
	free(data);
	free(fw);
	return rc;
}
