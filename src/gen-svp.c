/*
 * The SVP generator: a JOB directory as an SS928/SS927 board leaves it
 * after the acl.json profiling flow and an export: data/ with AclModule
 * records and a raw device file of the unpublished format, info.json.0,
 * and summary/ with the exported op_summary (AA Core metrics per layer,
 * named op_summary_{device}.{model}.{model_id}.{batch}.{pics}.{count}.
 * {icache}.{freq}.csv), acl_statistic and op_statistic files. The expected
 * tables (aa_core_metrics with Memory Bound and the total row, frequency,
 * the SVP op_statistic and acl_statistic) are computed here from the
 * generated values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_SVP_LAYERS	12

static const char *const gen_svp_types[] = {
	"Convolution", "Pooling", "ReLU", "InnerProduct", "Eltwise"
};

/*
 * R holds the ratios in file order: Mac Busy, Mac Ppen, Vec Busy, Vec
 * Ppen, Dstr, Dtrans, DLD, WLD; R[8] is the Time Ratio of the total row.
 */
struct gen_svp_layer {
	double	 time_us;
	double	 r[9];
	int64_t	 rd, wr;
};

static void
gen_svp_num(struct strbuf *b, double v, const char *sep)
{
	char	 buf[64];

	util_fmt_fixed(buf, sizeof buf, v, 6, true);
	strbuf_addf(b, "%s%s", buf, sep);
}

/* V as the file holds it: printed with 6 decimals and read back. */
static double
gen_svp_round(double v)
{
	char	 buf[64];

	util_fmt_fixed(buf, sizeof buf, v, 6, true);
	return strtod(buf, NULL);
}

static double
gen_svp_bound(const double *r)
{
	return fmax(r[4], fmax(r[6], r[7])) / fmax(r[0], r[3]);
}

/* The layer table as exported and as the vendor's show prints it. */
static void
gen_svp_layers(struct strbuf *csv, struct strbuf *exp, uint64_t *rng)
{
	struct gen_svp_layer	 l[GEN_SVP_LAYERS], tot;
	const char		*head = "Layer Id,Ori Layer Name,Layer Name,"
	    "Layer Type,Time(us),Time Ratio,Mac Busy Ratio,Mac Ppen Ratio,"
	    "Vec Busy Ratio,Vec Ppen Ratio,Dstr Ratio,Dtrans Ratio,DLD Ratio,"
	    "WLD Ratio,DDR Read(bytes),DDR Write(bytes),DDR Total(bytes)";
	double			 all = 0;
	int			 i, k;

	memset(&tot, 0, sizeof tot);
	for (i = 0; i < GEN_SVP_LAYERS; i++) {
		l[i].time_us = (double)(50 + gen_rand_next(rng) % 4000) / 8;
		for (k = 0; k < 8; k++)
			l[i].r[k] = (double)(1 + gen_rand_next(rng) % 999) /
			    1000;
		l[i].rd = 4096 * (int64_t)(1 + gen_rand_next(rng) % 5000);
		l[i].wr = 4096 * (int64_t)(1 + gen_rand_next(rng) % 3000);
		all += l[i].time_us;
	}
	strbuf_addf(csv, "%s\n", head);
	strbuf_addf(exp, "%s,Memory Bound\n", head);
	for (i = 0; i < GEN_SVP_LAYERS; i++) {
		strbuf_addf(csv, "%d,conv%d_ori,conv%d,%s,", i, i, i,
		    gen_svp_types[i % 5]);
		strbuf_addf(exp, "%d,conv%d_ori,conv%d,%s,", i, i, i,
		    gen_svp_types[i % 5]);
		gen_svp_num(csv, l[i].time_us, ",");
		gen_svp_num(exp, l[i].time_us, ",");
		gen_svp_num(csv, l[i].time_us / all, ",");
		gen_svp_num(exp, l[i].time_us / all, ",");
		tot.time_us += l[i].time_us;
		tot.r[8] += gen_svp_round(l[i].time_us / all);
		for (k = 0; k < 8; k++) {
			gen_svp_num(csv, l[i].r[k], ",");
			gen_svp_num(exp, l[i].r[k], ",");
			tot.r[k] += l[i].r[k] * l[i].time_us;
		}
		strbuf_addf(csv, "%lld,%lld,%lld\n", (long long)l[i].rd,
		    (long long)l[i].wr, (long long)(l[i].rd + l[i].wr));
		strbuf_addf(exp, "%lld,%lld,%lld,", (long long)l[i].rd,
		    (long long)l[i].wr, (long long)(l[i].rd + l[i].wr));
		gen_svp_num(exp, gen_svp_bound(l[i].r), "\n");
		tot.rd += l[i].rd;
		tot.wr += l[i].wr;
	}
	/* The total row: sums, and ratios weighted by layer time. */
	strbuf_adds(exp, "-,-,-,-,");
	gen_svp_num(exp, tot.time_us, ",");
	gen_svp_num(exp, tot.r[8], ",");
	for (k = 0; k < 8; k++) {
		tot.r[k] = gen_svp_round(tot.r[k] / tot.time_us);
		gen_svp_num(exp, tot.r[k], ",");
	}
	strbuf_addf(exp, "%lld,%lld,%lld,", (long long)tot.rd,
	    (long long)tot.wr, (long long)(tot.rd + tot.wr));
	gen_svp_num(exp, gen_svp_bound(tot.r), "\n");
}

/* The exported op_statistic and acl_statistic, kept as written. */
static void
gen_svp_stats(struct strbuf *op, struct strbuf *acl, uint64_t *rng)
{
	static const char *const apis[] = { "svp_acl_mdl_execute",
	    "svp_acl_mdl_load_from_file", "svp_acl_rt_malloc" };
	int64_t		 count, avg;
	int		 i;

	strbuf_adds(op, "Task ID,Stream ID,OP Name,Task Type,Total Time "
	    "Ratio(%),Total Time(us),Count,Avg(us),Max(us),Min(us)\n");
	for (i = 0; i < 4; i++) {
		count = 10;
		avg = 100 + (int64_t)(gen_rand_next(rng) % 900);
		strbuf_addf(op, "%d,0,subgraph_%d,AA_CORE,%d.5,%lld,%lld,%lld,"
		    "%lld,%lld\n", i + 1, i, 40 - 10 * i, (long long)(avg *
		    count), (long long)count, (long long)avg,
		    (long long)avg + 7, (long long)avg - 5);
	}
	strbuf_adds(acl, "Process ID,Thread ID,Type,Name,Total Time Ratio(%),"
	    "Total Time(us),Count,Avg(us),Max(us),Min(us)\n");
	for (i = 0; i < 3; i++) {
		avg = 50 + (int64_t)(gen_rand_next(rng) % 9000);
		strbuf_addf(acl, "1200,1201,%s,%s,%d.25,%lld,2,%lld,%lld,%lld\n",
		    i == 2 ? "ACL_RTS" : "ACL_MODEL", apis[i], 60 - 20 * i,
		    (long long)avg * 2, (long long)avg, (long long)avg + 3,
		    (long long)avg - 3);
	}
}

/*
 * Write an SVP JOB directory DIR and, with G->expect, the expected
 * aa_core_metrics, frequency, op_statistic and acl_statistic tables. On
 * failure return -1 and set *cause.
 */
int
gen_svp_write(const char *dir, const struct gen_opts *g, char **cause)
{
	static const char info[] = "{\"DeviceInfo\":[{\"id\":0}]}\n";
	static const char raw[] = "\x11\x22\x33\x44 board raw log";
	static const char freq[] = "Device_id,Model Name,Model ID,Batch,Pics,"
	    "Count,ICache,Frequency\n0,resnet18,1,1,1,10,0,800\n";
	struct strbuf	 layers, exp, op, acl;
	char		*data, *sum;
	uint64_t	 rng = g->seed * 0x9E3779B97F4A7C15ULL + 11;
	int		 rc = -1;

	strbuf_init(&layers);
	strbuf_init(&exp);
	strbuf_init(&op);
	strbuf_init(&acl);
	data = util_path_join(dir, "data");
	sum = util_path_join(dir, "summary");
	if (util_mkdir_p(data, 0755) != 0 || util_mkdir_p(sum, 0755) != 0 ||
	    (g->expect != NULL && util_mkdir_p(g->expect, 0755) != 0)) {
		xasprintf(cause, "cannot create '%s'", sum);
		goto out;
	}
	gen_svp_layers(&layers, &exp, &rng);
	gen_svp_stats(&op, &acl, &rng);
	if (gen_job_file(dir, "info.json.0", info, sizeof info - 1,
	    cause) != 0 ||
	    gen_job_file(data, "aacore.data.0.slice_0", raw, sizeof raw - 1,
	    cause) != 0 ||
	    gen_job_acl(data, g, &rng, cause) != 0 ||
	    gen_job_file(sum, "op_summary_0.resnet18.1.1.1.10.0.800.csv",
	    layers.s, layers.len, cause) != 0 ||
	    gen_job_file(sum, "op_statistic_0_1_10_1.csv", op.s, op.len,
	    cause) != 0 ||
	    gen_job_file(sum, "acl_statistic_0_1_1.csv", acl.s, acl.len,
	    cause) != 0)
		goto out;
	if (g->expect != NULL && (gen_job_file(g->expect,
	    "aa_core_metrics.csv", exp.s, exp.len, cause) != 0 ||
	    gen_job_file(g->expect, "op_statistic.csv", op.s, op.len,
	    cause) != 0 ||
	    gen_job_file(g->expect, "svp_acl_statistic.csv", acl.s, acl.len,
	    cause) != 0 ||
	    gen_job_file(g->expect, "frequency.csv", freq, sizeof freq - 1,
	    cause) != 0))
		goto out;
	rc = 0;
out:
	strbuf_release(&layers);
	strbuf_release(&exp);
	strbuf_release(&op);
	strbuf_release(&acl);
	free(data);
	free(sum);
	return rc;
}
