/*
 * The demo profile: a deterministic PyTorch-style *_ascend_pt folder
 * (kernel_details.csv, op_statistic.csv, api_statistic.csv,
 * step_trace_time.csv, profiler_info_N.json) made from a seed, with
 * several op types, streams, steps and ranks and realistic durations. The
 * expected op_statistic is computed here from the generated values, so
 * tests can check the importers against it. It is the one generator the
 * product links (npuprof-tui demo); the others live in tools/gen/.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define DEMO_EPOCH_NS	1780000000000000000LL

struct demo_op {
	const char	*type;
	const char	*core;
	int64_t		 mean_ns;
	const char	*shape;
	const char	*dtype;
};

static const struct demo_op demo_ops[] = {
	{ "MatMulV2", "AI_CORE", 45000, "32,1024;1024,1024",
	    "FLOAT16;FLOAT16" },
	{ "Conv2D", "AI_CORE", 82000, "8,64,56,56;64,64,3,3",
	    "FLOAT16;FLOAT16" },
	{ "TransData", "AI_CORE", 6200, "8,64,56,56", "FLOAT16" },
	{ "Add", "AI_VECTOR_CORE", 4100, "32,1024;32,1024", "FLOAT;FLOAT" },
	{ "Cast", "AI_VECTOR_CORE", 2500, "32,1024", "FLOAT16" },
	{ "Relu", "AI_VECTOR_CORE", 3300, "8,64,56,56", "FLOAT16" },
	{ "SoftmaxV2", "AI_VECTOR_CORE", 12400, "32,16,128,128", "FLOAT16" },
	{ "LayerNorm", "AI_VECTOR_CORE", 9100, "32,128,1024", "FLOAT" },
	{ "BatchMatMulV2", "MIX_AIC", 61000, "32,16,128,64;32,16,64,128",
	  "FLOAT16;FLOAT16" },
	{ "FlashAttentionScore", "MIX_AIV", 140000, "32,16,128,64",
	  "FLOAT16" },
	{ "hcom_allReduce_", "HCCL", 210000, "N/A", "N/A" },
	{ "MemSet", "AI_CPU", 15000, "N/A", "N/A" }
};

#define DEMO_NOPS	(sizeof demo_ops / sizeof demo_ops[0])

static const char *demo_apis[] = {
	"aclnnMatmul", "aclnnConvolution", "aclnnAdd", "aclnnCast",
	"aclnnRelu", "aclnnSoftmax", "aclnnLayerNorm", "aclrtMemcpyAsync",
	"aclrtSynchronizeStream", "aclnnFlashAttentionScore"
};

#define DEMO_NAPIS	(sizeof demo_apis / sizeof demo_apis[0])

struct util_state {
	uint64_t	 rng;
	FILE		*f;
	const char	*eol;
	struct util_stat	 op[DEMO_NOPS];
	struct util_stat	 api[DEMO_NAPIS];
};

/* The defaults: one rank of 2,000 tasks on three streams over five steps. */
void
demo_opts_init(struct demo_opts *g)
{
	memset(g, 0, sizeof *g);
	g->seed = 1;
	g->tasks = 2000;
	g->streams = 3;
	g->steps = 5;
	g->ranks = 1;
	g->apis = 400;
}

/* A duration around MEAN, in whole 20 ns ticks of a 50 MHz counter. */
static int64_t
demo_duration(struct util_state *st, int64_t mean)
{
	int64_t	 d;

	d = mean / 2 + (int64_t)(util_rand_next(&st->rng) % (uint64_t)mean);
	d -= d % 20;
	return d < 20 ? 20 : d;
}

static void
demo_us(char *buf, size_t size, int64_t ns, bool strip)
{
	util_fmt_us(buf, size, ns, 3, strip);
}

/* Write kernel_details.csv of one rank and gather the statistics. */
static int
demo_kernels(struct util_state *st, const char *dir, int rank,
    const struct demo_opts *g, char **cause)
{
	char		 start[32], dur[32], wait[32];
	int64_t		 i, t, d, prev = 0;
	int64_t		*taskid, per_step;
	const struct demo_op *op;
	int		 stream;
	bool		 quirks = (g->flags & DEMO_QUIRKS) != 0;

	t = DEMO_EPOCH_NS + (int64_t)rank * 1000;
	st->f = util_file_create(dir, "kernel_details.csv", cause);
	if (st->f == NULL)
		return -1;
	if (quirks)
		fputs("\xef\xbb\xbf", st->f);
	fprintf(st->f, "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,"
	    "OP State,Accelerator Core,Start Time(us),Duration(us),"
	    "Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,"
	    "Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	    "Output Data Types,Output Formats,Context ID,aicore_time(us),"
	    "aic_total_cycles%s", st->eol);
	taskid = xcalloc((size_t)g->streams, sizeof *taskid);
	per_step = g->tasks / (g->steps > 0 ? g->steps : 1) + 1;
	for (i = 0; i < g->tasks; i++) {
		op = &demo_ops[util_rand_next(&st->rng) % DEMO_NOPS];
		stream = (int)(util_rand_next(&st->rng) % (uint64_t)g->streams);
		d = demo_duration(st, op->mean_ns);
		t += 500 + (int64_t)(util_rand_next(&st->rng) % 4000);
		demo_us(start, sizeof start, t, false);
		demo_us(dur, sizeof dur, d, false);
		if (i == 0 || t - prev <= 0)
			snprintf(wait, sizeof wait, "0");
		else
			util_fmt_us(wait, sizeof wait, t - prev, 6, false);
		fprintf(st->f, "%lld,%d,4294967295,%lld,%d,%s_%s_%lld,%s,"
		    "dynamic,%s,%s\t,%s,%s,%d,0,NO,\"\"\"%s\"\"\",%s,ND,"
		    "\"\"\"%s\"\"\",%s,ND,N/A,%s,%lld%s",
		    (long long)(i / per_step + 1), rank,
		    (long long)taskid[stream], 40 + stream, "aclnn", op->type,
		    (long long)i % 7, op->type, op->core, start, dur, wait,
		    (int)(util_rand_next(&st->rng) % 48) + 1, op->shape,
		    op->dtype, op->shape, op->dtype, dur,
		    (long long)(d * 18 / 10), st->eol);
		taskid[stream] = (taskid[stream] + 1) & 0xffff;
		util_stat_add(&st->op[op - demo_ops], d);
		prev = t + d;
		t += d;
	}
	if (quirks) {
		/* A row the statistics leave out: no op type. */
		demo_us(start, sizeof start, t + 1000, false);
		fprintf(st->f, "%d,%d,4294967295,0,%d,trans_TransData_0,N/A,"
		    "N/A,N/A,%s\t,5.000,0,0,0,NO,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
		    "N/A,N/A", g->steps, rank, 40, start);
	}
	free(taskid);
	return util_file_close(st->f, dir, "kernel_details.csv", cause);
}

static int
demo_cmp_total(const void *a, const void *b)
{
	const struct util_stat	*x = *(const struct util_stat *const *)a;
	const struct util_stat	*y = *(const struct util_stat *const *)b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

/* Write op_statistic.csv as the vendor computes it (doc/formats.md 8.1). */
static int
demo_op_statistic(struct util_state *st, const char *dir, int rank,
    char **cause)
{
	const struct util_stat	*order[DEMO_NOPS];
	char			 b[5][32];
	int64_t			 sum = 0;
	size_t			 i, n = 0, k;
	FILE			*f;

	for (i = 0; i < DEMO_NOPS; i++) {
		if (st->op[i].count == 0 ||
		    strcmp(demo_ops[i].core, "HCCL") == 0)
			continue;
		order[n++] = &st->op[i];
		sum += st->op[i].total;
	}
	qsort(order, n, sizeof order[0], demo_cmp_total);
	if ((f = util_file_create(dir, "op_statistic.csv", cause)) == NULL)
		return -1;
	fputs("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
	    "Avg Time(us),Max Time(us),Ratio(%)\n", f);
	for (i = 0; i < n; i++) {
		k = (size_t)(order[i] - st->op);
		demo_us(b[0], sizeof b[0], order[i]->total, true);
		demo_us(b[1], sizeof b[1], order[i]->min, true);
		/* torch_npu rounds the average to whole ns. */
		demo_us(b[2], sizeof b[2], (2 * order[i]->total +
		    order[i]->count) / (2 * order[i]->count), true);
		demo_us(b[3], sizeof b[3], order[i]->max, true);
		util_fmt_fixed(b[4], sizeof b[4], (double)order[i]->total *
		    100.0 / (double)sum, 3, true);
		fprintf(f, "%d,%s,%s,%lld,%s,%s,%s,%s,%s\n", rank,
		    demo_ops[k].type, demo_ops[k].core,
		    (long long)order[i]->count, b[0], b[1], b[2], b[3], b[4]);
	}
	return util_file_close(f, dir, "op_statistic.csv", cause);
}

/* Write api_statistic.csv from generated host API durations. */
static int
demo_api_statistic(struct util_state *st, const char *dir,
    const struct demo_opts *g, char **cause)
{
	char		 b[4][32];
	int64_t		 i, d, *durs[DEMO_NAPIS];
	size_t		 k, j;
	double		 avg, var;
	FILE		*f;

	memset(durs, 0, sizeof durs);
	for (k = 0; k < DEMO_NAPIS; k++)
		durs[k] = xcalloc((size_t)g->apis + 1, sizeof *durs[k]);
	for (i = 0; i < g->apis; i++) {
		k = util_rand_next(&st->rng) % DEMO_NAPIS;
		d = 10 * (100 + (int64_t)(util_rand_next(&st->rng) % 3000));
		durs[k][st->api[k].count] = d;
		util_stat_add(&st->api[k], d);
	}
	if ((f = util_file_create(dir, "api_statistic.csv", cause)) == NULL)
		return -1;
	fputs("Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),"
	    "Max(us),Variance\n", f);
	for (k = 0; k < DEMO_NAPIS; k++) {
		if (st->api[k].count == 0)
			continue;
		demo_us(b[0], sizeof b[0], st->api[k].total, true);
		/*
		 * The vendor rounds the double mean in binary (1.8175 ->
		 * 1.817), then takes the variance around what it prints.
		 */
		snprintf(b[1], sizeof b[1], "%.3f", (double)st->api[k].total /
		    1000.0 / (double)st->api[k].count);
		avg = strtod(b[1], NULL);
		var = 0;
		for (j = 0; j < (size_t)st->api[k].count; j++)
			var += (durs[k][j] / 1000.0 - avg) *
			    (durs[k][j] / 1000.0 - avg);
		util_fmt_fixed(b[1], sizeof b[1], avg, 3, true);
		demo_us(b[2], sizeof b[2], st->api[k].min, true);
		demo_us(b[3], sizeof b[3], st->api[k].max, true);
		fprintf(f, "host,acl,%s,%s,%lld,%s,%s,%s,", demo_apis[k], b[0],
		    (long long)st->api[k].count, b[1], b[2], b[3]);
		util_fmt_fixed(b[0], sizeof b[0], var / st->api[k].count, 3,
		    true);
		fprintf(f, "%s\n", b[0]);
	}
	for (k = 0; k < DEMO_NAPIS; k++)
		free(durs[k]);
	return util_file_close(f, dir, "api_statistic.csv", cause);
}

/* The rank's info file; with quirks rank_id is a string, as torch_npu 2.7. */
static int
demo_info(const char *top, int rank, bool quirks, char **cause)
{
	char	 name[64];
	FILE	*f;

	snprintf(name, sizeof name, "profiler_info_%d.json", rank);
	if ((f = util_file_create(top, name, cause)) == NULL)
		return -1;
	fprintf(f, "{\n    \"config\": {\"experimental_config\": "
	    "{\"_profiler_level\": \"Level1\"}},\n    \"torch_npu_version\": "
	    "\"demo\",\n    \"cann_version\": \"demo\",\n"
	    "    \"rank_id\": %s%d%s\n}\n", quirks ? "\"" : "", rank,
	    quirks ? "\"" : "");
	return util_file_close(f, top, name, cause);
}

static int
demo_rank(const char *dir, int rank, const struct demo_opts *g, char **cause)
{
	struct util_state	 st;
	char			*top, *out, name[64];
	int			 rc;

	memset(&st, 0, sizeof st);
	st.rng = (g->seed + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)rank;
	st.eol = (g->flags & DEMO_QUIRKS) ? "\r\n" : "\n";
	snprintf(name, sizeof name, "demo_rank%d_ascend_pt", rank);
	top = util_path_join(dir, name);
	out = util_path_join(top, "ASCEND_PROFILER_OUTPUT");
	if (util_mkdir_p(out, 0750) != 0) {
		xasprintf(cause, "cannot create '%s': %s", out,
		    strerror(errno));
		rc = -1;
	} else
		rc = demo_info(top, rank, (g->flags & DEMO_QUIRKS) != 0,
		    cause);
	if (rc == 0)
		rc = demo_kernels(&st, out, rank, g, cause);
	if (rc == 0 && (g->flags & DEMO_STATS))
		rc = demo_op_statistic(&st, out, rank, cause);
	if (rc == 0 && g->expect != NULL) {
		char *e;

		snprintf(name, sizeof name, "rank%d", rank);
		e = util_path_join(g->expect, name);
		if (util_mkdir_p(e, 0750) != 0) {
			xasprintf(cause, "cannot create '%s'", e);
			rc = -1;
		} else
			rc = demo_op_statistic(&st, e, rank, cause);
		free(e);
	}
	if (rc == 0 && (g->flags & DEMO_STATS))
		rc = demo_api_statistic(&st, out, g, cause);
	free(out);
	free(top);
	return rc;
}

/*
 * Write the demo profile (one *_ascend_pt folder per rank) under DIR. On
 * failure return -1 and set *cause.
 */
int
demo_write(const char *dir, const struct demo_opts *g, char **cause)
{
	int	 r;

	if (g->tasks < 0 || g->streams < 1 || g->ranks < 1) {
		xasprintf(cause, "bad generator sizes");
		return -1;
	}
	for (r = 0; r < g->ranks; r++) {
		if (demo_rank(dir, r, g, cause) != 0)
			return -1;
	}
	return 0;
}
