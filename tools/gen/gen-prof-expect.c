/*
 * The expected tables of a generated raw collection, computed from the
 * generated values (never by a decoder): op_statistic per device grouped
 * by (op type, GE task type) with the integer average, api_statistic per
 * (API name, level) with the population variance around the rounded mean,
 * and op_summary with one row per device task, all printed as the
 * vendor's CSVs (doc/formats.md section 8).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

static const char *
gen_prof_expect_ge(int ge)
{
	switch (ge) {
	case 0:
		return "AI_CORE";
	case 1:
		return "AI_CPU";
	case 2:
		return "AI_VECTOR_CORE";
	case 4:
		return "MIX_AIC";
	}
	return "UNKNOWN";
}

static int
gen_prof_expect_close(FILE *f, const char *name, char **cause)
{
	if (ferror(f) | (fclose(f) != 0)) {
		xasprintf(cause, "cannot write '%s'", name);
		return -1;
	}
	return 0;
}

static const char *
gen_prof_expect_us(char *buf, size_t size, int64_t ns)
{
	util_fmt_us(buf, size, ns, 3, true);
	return buf;
}

static int
gen_prof_expect_op_stat_cmp(const void *a, const void *b)
{
	const struct gen_prof_stat	*x = a, *y = b;
	int				 c;

	if (x->device != y->device)
		return x->device - y->device;
	if (x->v.total != y->v.total)
		return x->v.total > y->v.total ? -1 : 1;
	if ((c = strcmp(x->a, y->a)) != 0)
		return c;
	return strcmp(x->b, y->b);
}

static int
gen_prof_expect_op_statistic(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_stat	*v = NULL;
	const struct gen_prof_op *op;
	int64_t			 grand[8] = { 0 };
	size_t			 n = 0, i;
	char			 b[5][64];
	double			 ratio;
	FILE			*f;

	for (i = 0; i < g->ntasks; i++) {
		op = &g->ops[g->tasks[i].op];
		gen_prof_core_stat_add(gen_prof_core_stat_find(&v, &n,
		    op->device,
		    gen_prof_core_type_name(g, op),
		    gen_prof_expect_ge(g->kinds[op->kind].ge)),
		    g->tasks[i].dur);
		grand[op->device] += g->tasks[i].dur;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, gen_prof_expect_op_stat_cmp);
	if ((f = util_file_create(dir, "op_statistic.csv", cause)) ==
	    NULL) {
		free(v);
		return -1;
	}
	fprintf(f, "Device_id,OP Type,Core Type,Count,Total Time(us),"
	    "Min Time(us),Avg Time(us),Max Time(us),Ratio(%%)\n");
	for (i = 0; i < n; i++) {
		ratio = round(v[i].v.total * 100.0 / grand[v[i].device] * 1e6) /
		    1e6;
		util_fmt_fixed(b[4], sizeof b[4], ratio, 3, true);
		fprintf(f, "%d,%s,%s,%lld,%s,%s,%s,%s,%s\n", v[i].device,
		    v[i].a, v[i].b, (long long)v[i].v.count,
		    gen_prof_expect_us(b[0], sizeof b[0], v[i].v.total),
		    gen_prof_expect_us(b[1], sizeof b[1], v[i].v.min),
		    gen_prof_expect_us(b[2], sizeof b[2],
		    v[i].v.total / v[i].v.count),
		    gen_prof_expect_us(b[3], sizeof b[3], v[i].v.max), b[4]);
	}
	free(v);
	return gen_prof_expect_close(f, "op_statistic.csv", cause);
}

static int
gen_prof_expect_api_cmp(const void *a, const void *b)
{
	const struct gen_prof_stat	*x = a, *y = b;
	int				 c;

	if ((c = strcmp(x->a, y->a)) != 0)
		return c;
	return strcmp(x->b, y->b);
}

/*
 * The mean in whole ns as the vendor prints it: a double division of the
 * us total, rounded in binary to 3 decimals (7.27 / 4 = 1.8175 prints
 * 1.817, as real api_statistic files show).
 */
static int64_t
gen_prof_expect_avg(const struct gen_prof_stat *s)
{
	char	 buf[64];
	int64_t	 avg;

	snprintf(buf, sizeof buf, "%.3f", (double)s->v.total / 1000.0 /
	    (double)s->v.count);
	if (util_parse_ns(buf, strlen(buf), &avg) != 0)
		avg = (2 * s->v.total + s->v.count) / (2 * s->v.count);
	return avg;
}

/*
 * The population variance in us^2 around the mean as printed, rounded to
 * 3 decimals, computed exactly in integers.
 */
static void
gen_prof_expect_variance(char *buf, size_t size, const struct gen_prof_stat *s)
{
	int64_t		 avg = gen_prof_expect_avg(s);
	__int128	 v, den, q;

	v = s->sumsq - 2 * (__int128)avg * s->v.total +
	    (__int128)s->v.count * avg * avg;
	den = (__int128)s->v.count * 1000;
	q = (2 * v + den) / (2 * den);
	snprintf(buf, size, "%lld.%03lld", (long long)(q / 1000),
	    (long long)(q % 1000));
	util_fmt_fixed(buf, size, strtod(buf, NULL), 3, true);
}

static int
gen_prof_expect_api_statistic(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_stat	*s;
	size_t			 i;
	char			 b[5][64];
	FILE			*f;

	if (g->napi > 1)
		qsort(g->api, g->napi, sizeof *g->api, gen_prof_expect_api_cmp);
	if ((f = util_file_create(dir, "api_statistic.csv", cause)) ==
	    NULL)
		return -1;
	fprintf(f, "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),"
	    "Max(us),Variance\n");
	for (i = 0; i < g->napi; i++) {
		s = &g->api[i];
		gen_prof_expect_variance(b[4], sizeof b[4], s);
		fprintf(f, "host,%s,%s,%s,%lld,%s,%s,%s,%s\n", s->b, s->a,
		    gen_prof_expect_us(b[0], sizeof b[0], s->v.total),
		    (long long)s->v.count, gen_prof_expect_us(b[1], sizeof b[1],
		    gen_prof_expect_avg(s)),
		    gen_prof_expect_us(b[2], sizeof b[2], s->v.min),
		    gen_prof_expect_us(b[3], sizeof b[3], s->v.max), b[4]);
	}
	return gen_prof_expect_close(f, "api_statistic.csv", cause);
}

static int
gen_prof_expect_task_cmp(const void *a, const void *b, void *arg)
{
	const struct gen_prof_task	*x = a, *y = b;
	const struct gen_prof		*g = arg;
	const struct gen_prof_op	*p = &g->ops[x->op], *q
	    = &g->ops[y->op];

	if (p->device != q->device)
		return p->device - q->device;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (p->stream != q->stream)
		return p->stream - q->stream;
	if (p->task != q->task)
		return p->task < q->task ? -1 : 1;
	return x->ctx - y->ctx;
}

/* The shapes (SHAPES true), data types or formats of OP's tensors. */
static void
gen_prof_expect_tensors(struct gen_prof *g, const struct gen_prof_op *op,
    bool out,
    int what, struct strbuf *b)
{
	int		 n = g->kinds[op->kind].ntensors, i, j;
	uint32_t	 dims[4];
	bool		 any = false;

	for (i = out ? n - 1 : 0; i < (out ? n : n - 1); i++) {
		if (any)
			strbuf_addc(b, ';');
		any = true;
		if (what == 0) {
			gen_prof_core_shape(g, op, i, dims);
			for (j = 0; j < 4 && dims[j] != 0; j++)
				strbuf_addf(b, "%s%u", j > 0 ? "," : "",
				    dims[j]);
		} else if (what == 1)
			strbuf_adds(b, out ? "FLOAT" : "FLOAT16");
		else
			strbuf_adds(b, out ? "NCHW" : i % 2 == 0 ? "ND" :
			    "FRACTAL_NZ");
	}
}

static void
gen_prof_expect_csv_field(FILE *f, const char *s)
{
	if (strchr(s, ',') != NULL)
		fprintf(f, ",\"%s\"", s);
	else
		fprintf(f, ",%s", s);
}

/*
 * The ArithmeticUtilization columns from the counters PMU, which hold the
 * events 0x4f, 0x49, 0x4b, 0x4a, 0x4d, 0x4c, 0x4e, 0x8 in that order
 * (gen_prof_core_events): the cube and vector ratios by data type, vec_fp16
 * counting the 128-lane and 64-lane events, and the operation counts of a
 * 16x16x16 fp16 or 16x16x32 int8 cube instruction and of a vector one of
 * 32, 128, 64, 64 and 32 lanes.
 */
static void
gen_prof_expect_arith_cols(FILE *f, uint64_t total, const uint64_t *pmu,
    bool v3)
{
	uint64_t	 r49 = pmu[1], r4a = pmu[3], r4b = pmu[2], r4c = pmu[5];
	uint64_t	 r4d = pmu[4], r4e = pmu[6], r4f = pmu[0];
	double		 v[8];
	char		 buf[64];
	int		 j;

	v[0] = (double)r49 / (double)total;
	v[1] = (double)r4a / (double)total;
	v[2] = (double)r4b / (double)total;
	v[3] = ((double)r4c + (double)r4d) / (double)total;
	v[4] = (double)r4e / (double)total;
	v[5] = (double)r4f / (double)total;
	v[6] = (double)r49 * 8192 + (double)r4a * 16384;
	/* The C++ analysis's weights; 310P is a V3 chip. */
	v[7] = (double)r4b * 64 + (double)r4c * 128 + (double)r4d * 64 +
	    (double)r4e * (v3 ? 16 : 64) + (double)r4f * (v3 ? 16 : 32);
	for (j = 0; j < 8; j++) {
		util_fmt_fixed(buf, sizeof buf, v[j], 3, false);
		fprintf(f, ",%s", buf);
	}
}

/* The PMU columns of task I (section 5.3), or N/A when it has none. */
static void
gen_prof_expect_pmu_cols(struct gen_prof *g, FILE *f, size_t i)
{
	static const int order[] = { 0, 1, 2, 3, 4, 5 };
	const struct gen_prof_op *op = &g->ops[g->tasks[i].op];
	uint64_t	 total, pmu[8];
	double		 t, ratio, nb, cores = gen_prof_core_cores(g);
	char		 buf[64];
	int		 j;
	int64_t		 b = op->block_dim & 0xFFFF;

	if (!gen_prof_core_pmu(g, i, &total, pmu)) {
		for (j = 0; j < (g->o->arith ? 10 : 15); j++)
			fputs(",N/A", f);
		return;
	}
	nb = (double)(b > 0 ? b : 1);
	t = (double)total / gen_prof_core_aic_mhz(g, g->tasks[i].start +
	    g->tasks[i].dur) / nb *
	    (double)((int64_t)(nb + cores - 1) / (int64_t)cores);
	util_fmt_fixed(buf, sizeof buf, t, 3, false);
	fprintf(f, ",%s,%llu", buf, (unsigned long long)total);
	if (g->o->arith) {
		gen_prof_expect_arith_cols(f, total, pmu,
		    g->o->chip == GEN_PROF_310P);
		return;
	}
	for (j = 0; j < 6; j++) {
		ratio = (double)pmu[order[j]] / (double)total;
		util_fmt_fixed(buf, sizeof buf, t * ratio, 3, false);
		fprintf(f, ",%s", buf);
		util_fmt_fixed(buf, sizeof buf, ratio, 3, false);
		fprintf(f, ",%s", buf);
	}
	util_fmt_fixed(buf, sizeof buf, pmu[6] > 0 ? (double)pmu[7] /
	    (double)pmu[6] : 0, 3, false);
	fprintf(f, ",%s", buf);
}

static void
gen_prof_expect_summary_row(struct gen_prof *g, FILE *f,
    const struct gen_prof_task *t, int64_t wait)
{
	const struct gen_prof_op *op = &g->ops[t->op];
	struct strbuf		 b;
	char			 s[3][64];
	int			 i;

	util_fmt_us(s[0], sizeof s[0], t->start + g->local_off, 3, false);
	util_fmt_us(s[1], sizeof s[1], t->dur, 3, false);
	if (wait == 0)
		snprintf(s[2], sizeof s[2], "0");
	else
		util_fmt_us(s[2], sizeof s[2], wait, 6, false);
	fprintf(f, "%d,%lld,%u,%d,%s,%s,%s,%s,%s,%s,%s,%u,%u,%s", op->device,
	    (long long)op->model, op->task, op->stream + 2,
	    g->names[op->kind][op->name], gen_prof_core_type_name(g, op),
	    op->is_static ? "static" : "dynamic",
	    gen_prof_expect_ge(g->kinds[op->kind].ge), s[0], s[1], s[2],
	    op->block_dim & 0xFFFF, (op->block_dim & 0xFFFF) *
	    (op->block_dim >> 16), op->hf32 ? "YES" : "NO");
	strbuf_init(&b);
	for (i = 0; i < 6; i++) {
		strbuf_reset(&b);
		gen_prof_expect_tensors(g, op, i >= 3, i % 3, &b);
		gen_prof_expect_csv_field(f, b.s != NULL ? b.s : "");
	}
	strbuf_release(&b);
	if (t->ctx >= 0)
		fprintf(f, ",%u", op->ctx[t->ctx]);
	else
		fprintf(f, ",N/A");
	if (g->o->pmu)
		gen_prof_expect_pmu_cols(g, f, t->index);
	fputc('\n', f);
}

static int
gen_prof_expect_op_summary(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_task	*v;
	int64_t			 end = 0, wait;
	size_t			 i;
	FILE			*f;

	v = xreallocarray(NULL, g->ntasks + 1, sizeof *v);
	memcpy(v, g->tasks, g->ntasks * sizeof *v);
	qsort_r(v, g->ntasks, sizeof *v, gen_prof_expect_task_cmp, g);
	if ((f = util_file_create(dir, "op_summary.csv", cause)) == NULL) {
		free(v);
		return -1;
	}
	fprintf(f, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,"
	    "OP State,Task Type,Task Start Time(us),Task Duration(us),"
	    "Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,"
	    "Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	    "Output Data Types,Output Formats,Context ID%s\n", !g->o->pmu ?
	    "" : g->o->arith ? ",aicore_time(us),total_cycles,mac_fp16_ratio,"
	    "mac_int8_ratio,vec_fp32_ratio,vec_fp16_ratio,vec_int32_ratio,"
	    "vec_misc_ratio,cube_fops,vector_fops" :
	    ",aicore_time(us),total_cycles,vec_time(us),vec_ratio,"
	    "mac_time(us),mac_ratio,scalar_time(us),scalar_ratio,"
	    "mte1_time(us),mte1_ratio,mte2_time(us),mte2_ratio,"
	    "mte3_time(us),mte3_ratio,icache_miss_rate");
	for (i = 0; i < g->ntasks; i++) {
		wait = i == 0 || g->ops[v[i].op].device !=
		    g->ops[v[i - 1].op].device || v[i].start < end ? 0 :
		    v[i].start - end;
		end = v[i].start + v[i].dur;
		gen_prof_expect_summary_row(g, f, &v[i], wait);
	}
	free(v);
	return gen_prof_expect_close(f, "op_summary.csv", cause);
}

/* Write the expected tables into DIR. */
int
gen_prof_expect(struct gen_prof *g, const char *dir, char **cause)
{
	if (util_mkdir_p(dir, 0755) != 0) {
		xasprintf(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
		return -1;
	}
	if (gen_prof_expect_op_statistic(g, dir, cause) != 0)
		return -1;
	if (gen_prof_expect_api_statistic(g, dir, cause) != 0)
		return -1;
	return gen_prof_expect_op_summary(g, dir, cause);
}
