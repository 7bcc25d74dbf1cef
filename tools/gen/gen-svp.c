/*
 * The SVP generator: a JOB directory as an SS928/SS927 board leaves it
 * after the acl.json profiling flow and an export: data/ with AclModule
 * records and a raw device file of the unpublished format, info.json.0,
 * and summary/ with the exported op_summary (AA Core metrics per layer,
 * named op_summary_{device}.{model}.{model_id}.{batch}.{pics}.{count}.
 * {icache}.{freq}.csv), acl_statistic and op_statistic files, and
 * timeline/ with the task_time and acl traces behind them. The expected
 * tables (aa_core_metrics with Memory Bound and the total row, frequency,
 * the SVP op_statistic and acl_statistic) are computed here from the
 * generated values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_SVP_LAYERS	12

static const char *const apis[] = {
	"svp_acl_mdl_execute", "svp_acl_mdl_load_from_file", "svp_acl_rt_malloc"
};

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
		l[i].time_us = (double)(50 + util_rand_next(rng) % 4000) / 8;
		for (k = 0; k < 8; k++)
			l[i].r[k] = (double)(1 + util_rand_next(rng) % 999) /
			    1000;
		l[i].rd = 4096 * (int64_t)(1 + util_rand_next(rng) % 5000);
		l[i].wr = 4096 * (int64_t)(1 + util_rand_next(rng) % 3000);
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
gen_svp_stats(struct strbuf *op, struct strbuf *acl, uint64_t *rng,
    int64_t *opavg, int64_t *aclavg)
{
	int64_t		 count, avg;
	int		 i;

	strbuf_adds(op, "Task ID,Stream ID,OP Name,Task Type,Total Time "
	    "Ratio(%),Total Time(us),Count,Avg(us),Max(us),Min(us)\n");
	for (i = 0; i < 4; i++) {
		count = 10;
		avg = 100 + (int64_t)(util_rand_next(rng) % 900);
		opavg[i] = avg;
		strbuf_addf(op, "%d,0,subgraph_%d,AA_CORE,%d.5,%lld,%lld,%lld,"
		    "%lld,%lld\n", i + 1, i, 40 - 10 * i, (long long)(avg *
		    count), (long long)count, (long long)avg,
		    (long long)avg + 7, (long long)avg - 5);
	}
	strbuf_adds(acl, "Process ID,Thread ID,Type,Name,Total Time Ratio(%),"
	    "Total Time(us),Count,Avg(us),Max(us),Min(us)\n");
	for (i = 0; i < 3; i++) {
		avg = 50 + (int64_t)(util_rand_next(rng) % 9000);
		aclavg[i] = avg;
		strbuf_addf(acl,
		    "1200,1201,%s,%s,%d.25,%lld,2,%lld,%lld,%lld\n",
		    i == 2 ? "ACL_RTS" : "ACL_MODEL", apis[i], 60 - 20 * i,
		    (long long)avg * 2, (long long)avg, (long long)avg + 3,
		    (long long)avg - 3);
	}
}

/*
 * The exported timeline/ of the run, on the board's monotonic clock (it
 * has no start_info): task_time_0_1_1.json, the Task Scheduler's tasks
 * behind op_statistic (per task id ten runs with its min, max and total),
 * and acl_0_1_1.json, the AscendCL spans behind acl_statistic (two calls
 * per API, avg - 3 and avg + 3 us). EXP gets the task_time table and API
 * Level, Name, Time, Count, Min, Max as show prints them.
 */
static int
gen_svp_timeline(const char *dir, const int64_t *opavg, const int64_t *aclavg,
    struct strbuf *tt, struct strbuf *api, char **cause)
{
	static const int	 spread[10] = { -5, 7, -2 };
	struct strbuf		 b;
	char			*tl, v[3][40];
	int64_t			 at = 3600000000000LL, d;
	int			 i, k, rc = -1;

	strbuf_init(&b);
	tl = util_path_join(dir, "timeline");
	strbuf_adds(tt, "Device_id,kernel_name,kernel_type,stream_id,task_id,"
	    "task_time(us),task_start(us),task_stop(us)\n");
	strbuf_adds(&b, "[{\"name\": \"process_name\", \"pid\": 0, \"tid\": 0, "
	    "\"args\": {\"name\": \"Task Scheduler\"}, \"ph\": \"M\"}, "
	    "{\"name\": \"thread_name\", \"pid\": 0, \"tid\": 0, \"args\": "
	    "{\"name\": \"Stream 0\"}, \"ph\": \"M\"}");
	for (k = 0; k < 10; k++) {
		for (i = 0; i < 4; i++) {
			d = (opavg[i] + spread[k]) * 1000;
			at += 2000 + 10 * k;
			strbuf_addf(&b, ", {\"name\": \"subgraph_%d\", "
			    "\"pid\": 0, \"tid\": 0, ", i);
			gen_tracedir_span(&b, at, at + d);
			strbuf_addf(&b, ", \"args\": {\"Task Type\": "
			    "\"AA_CORE\", \"Stream Id\": 0, \"Task Id\": %d}, "
			    "\"ph\": \"X\"}", i + 1);
			util_fmt_us(v[0], sizeof v[0], d, 3, false);
			util_fmt_us(v[1], sizeof v[1], at, 3, false);
			util_fmt_us(v[2], sizeof v[2], at + d, 3, false);
			strbuf_addf(tt, "0,subgraph_%d,AA_CORE,0,%d,%s,%s,%s\n",
			    i, i + 1, v[0], v[1], v[2]);
			at += d;
		}
	}
	strbuf_adds(&b, "]");
	if (util_mkdir_p(tl, 0755) != 0 || gen_prof_bin_write(tl,
	    "task_time_0_1_1.json", b.s, b.len, cause) != 0)
		goto out;
	strbuf_reset(&b);
	strbuf_adds(&b, "[{\"name\": \"process_name\", \"pid\": 1200, "
	    "\"tid\": 0, \"args\": {\"name\": \"AscendCL\"}, \"ph\": "
	    "\"M\"}, {\"name\": \"thread_name\", \"pid\": 1200, \"tid\": "
	    "1201, \"args\": {\"name\": \"Thread 1201\"}, \"ph\": \"M\"}");
	strbuf_adds(api, "Level,API Name,Time(us),Count,Min(us),Max(us)\n");
	at = 3500000000000LL;
	for (i = 0; i < 3; i++) {
		for (k = 0; k < 2; k++) {
			d = (aclavg[i] + (k == 0 ? -3 : 3)) * 1000;
			at += 5000;
			strbuf_addf(&b, ", {\"name\": \"%s\", \"pid\": 1200, "
			    "\"tid\": 1201, ", apis[i]);
			gen_tracedir_span(&b, at, at + d);
			strbuf_addf(&b, ", \"args\": {\"Mode\": \"%s\", "
			    "\"Process Id\": 1200, \"Thread Id\": 1201}, "
			    "\"ph\": \"X\"}", i == 2 ? "ACL_RTS" : "ACL_MODEL");
			at += d;
		}
	}
	/* The computed api_statistic is sorted by name, as apis[] is. */
	for (i = 0; i < 3; i++)
		strbuf_addf(api, "acl,%s,%lld,2,%lld,%lld\n", apis[i],
		    (long long)aclavg[i] * 2, (long long)aclavg[i] - 3,
		    (long long)aclavg[i] + 3);
	strbuf_adds(&b, "]");
	if (gen_prof_bin_write(tl, "acl_0_1_1.json", b.s, b.len, cause) != 0)
		goto out;
	rc = 0;
out:
	free(tl);
	strbuf_release(&b);
	return rc;
}

/*
 * Write an SVP JOB directory DIR and, with G->expect, the expected
 * aa_core_metrics, frequency, op_statistic and acl_statistic tables. On
 * failure return -1 and set *cause.
 */
int
gen_svp_write(const char *dir, const struct demo_opts *g, char **cause)
{
	static const char info[] = "{\"DeviceInfo\":[{\"id\":0}]}\n";
	static const char raw[] = "\x11\x22\x33\x44 board raw log";
	static const char freq[] = "Device_id,Model Name,Model ID,Batch,Pics,"
	    "Count,ICache,Frequency\n0,resnet18,1,1,1,10,0,800\n";
	struct strbuf	 layers, exp, op, acl, tt, api;
	char		*data, *sum;
	int64_t		 opavg[4], aclavg[3];
	uint64_t	 rng = g->seed * 0x9E3779B97F4A7C15ULL + 11;
	int		 rc = -1;

	strbuf_init(&layers);
	strbuf_init(&exp);
	strbuf_init(&op);
	strbuf_init(&acl);
	strbuf_init(&tt);
	strbuf_init(&api);
	data = util_path_join(dir, "data");
	sum = util_path_join(dir, "summary");
	if (util_mkdir_p(data, 0755) != 0 || util_mkdir_p(sum, 0755) != 0 ||
	    (g->expect != NULL && util_mkdir_p(g->expect, 0755) != 0)) {
		xasprintf(cause, "cannot create '%s'", sum);
		goto out;
	}
	gen_svp_layers(&layers, &exp, &rng);
	gen_svp_stats(&op, &acl, &rng, opavg, aclavg);
	if (gen_prof_bin_write(dir, "info.json.0", info, sizeof info - 1,
	    cause) != 0 ||
	    gen_prof_bin_write(data, "aacore.data.0.slice_0", raw, sizeof raw
	    - 1,
	    cause) != 0 ||
	    gen_acl_job(data, g, &rng, NULL, 0, 0, cause) != 0 ||
	    gen_prof_bin_write(sum, "op_summary_0.resnet18.1.1.1.10.0.800.csv",
	    layers.s, layers.len, cause) != 0 ||
	    gen_prof_bin_write(sum, "op_statistic_0_1_10_1.csv", op.s, op.len,
	    cause) != 0 ||
	    gen_prof_bin_write(sum, "acl_statistic_0_1_1.csv", acl.s, acl.len,
	    cause) != 0 ||
	    gen_svp_timeline(dir, opavg, aclavg, &tt, &api, cause) != 0)
		goto out;
	if (g->expect != NULL && (gen_prof_bin_write(g->expect,
	    "aa_core_metrics.csv", exp.s, exp.len, cause) != 0 ||
	    gen_prof_bin_write(g->expect, "op_statistic.csv", op.s, op.len,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "svp_acl_statistic.csv", acl.s,
	    acl.len,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "frequency.csv", freq, sizeof freq
	    - 1,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "svp_task_time.csv", tt.s, tt.len,
	    cause) != 0 ||
	    gen_prof_bin_write(g->expect, "svp_acl_api.csv", api.s, api.len,
	    cause) != 0))
		goto out;
	rc = 0;
out:
	strbuf_release(&layers);
	strbuf_release(&exp);
	strbuf_release(&op);
	strbuf_release(&acl);
	strbuf_release(&tt);
	strbuf_release(&api);
	free(data);
	free(sum);
	return rc;
}
