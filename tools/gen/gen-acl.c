/*
 * The host-side and AI CPU logs of a generated legacy JOB: AclModule
 * 128-byte ACL API records (doc/formats.md 3.8) split into acl_op and
 * acl_model files, Runtime.api and Runtime.task_track records,
 * Msprof.msproftx markers (doc/formats.md 6.2) and the DATA_PREPROCESS AICPU
 * text log, with the expected acl_statistic (grouped by API name,
 * doc/formats.md 8.3), runtime API totals, task_track, msproftx and aicpu
 * tables computed from the generated values.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_ACL_MONO_NS	5000000000ULL

struct gen_acl_api {
	const char	*name;
	uint32_t	 type;		/* 1 op, 2 model */
	int64_t		 mean_ns;
	struct util_stat st;
	uint32_t	 pid, tid;
};

static int
gen_acl_cmp(const void *x, const void *y)
{
	const struct gen_acl_api	*a = x, *b = y;

	if (a->st.total != b->st.total)
		return a->st.total > b->st.total ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The expected acl_statistic rows, as the legacy tool computed them. */
static void
gen_acl_expect(struct strbuf *e, struct gen_acl_api *api, size_t n)
{
	static const char *const types[] = { "", "ACL_OP", "ACL_MODEL" };
	char		 buf[4][48];
	int64_t		 all = 0;
	size_t		 i;

	for (i = 0; i < n; i++)
		all += api[i].st.total;
	qsort(api, n, sizeof *api, gen_acl_cmp);
	strbuf_adds(e, "Name,Type,Time(%),Time(us),Count,Avg(us),Min(us),"
	    "Max(us),Process ID,Thread ID\n");
	for (i = 0; i < n; i++) {
		if (api[i].st.count == 0)
			continue;
		util_fmt_fixed(buf[0], sizeof buf[0], 100.0 * api[i].st.total /
		    all, 6, true);
		util_fmt_us(buf[1], sizeof buf[1], api[i].st.total, 3, true);
		util_fmt_fixed(buf[2], sizeof buf[2], api[i].st.total / 1000.0 /
		    api[i].st.count, 3, true);
		strbuf_addf(e, "%s,%s,%s,%s,%lld,%s,", api[i].name,
		    types[api[i].type], buf[0], buf[1],
		    (long long)api[i].st.count, buf[2]);
		util_fmt_us(buf[1], sizeof buf[1], api[i].st.min, 3, true);
		util_fmt_us(buf[2], sizeof buf[2], api[i].st.max, 3, true);
		strbuf_addf(e, "%s,%s,%u,%u\n", buf[1], buf[2], api[i].pid,
		    api[i].tid);
	}
}

/*
 * The expected acl_statistic of each of the NWIN iterations of model
 * MODEL, acl_statistic_0_<model>_<iter>.csv, from the groups IT holds.
 */
static int
gen_acl_expect_iters(const struct demo_opts *g, struct gen_acl_api *it,
    size_t n, int nwin, int model, char **cause)
{
	struct strbuf	 e;
	char		 name[64];
	int		 w, rc = 0;

	for (w = 0; w < nwin && rc == 0; w++) {
		strbuf_init(&e);
		gen_acl_expect(&e, it + (size_t)w * n, n);
		snprintf(name, sizeof name, "acl_statistic_0_%d_%d.csv", model,
		    w + 1);
		rc = gen_prof_bin_write(g->expect, name, e.s, e.len, cause);
		strbuf_release(&e);
	}
	return rc;
}

/*
 * Write DIR/AclModule.acl_op.0.slice_0 and acl_model.0.slice_0 and the
 * expected acl_statistic.csv. With NWIN iteration windows WIN (pairs of
 * host monotonic ns, start and end), call K starts in window K % NWIN and
 * the expected acl_statistic of each iteration of model MODEL is written
 * too. On failure return -1 and set *cause.
 */
int
gen_acl_job(const char *dir, const struct demo_opts *g, uint64_t *rng,
    const uint64_t *win, int nwin, int model, char **cause)
{
	struct gen_acl_api	 api[] = {
		{ .name = "aclopCompileAndExecute", .type = 1,
		  .mean_ns = 41000 },
		{ .name = "aclopExecuteV2", .type = 1, .mean_ns = 9000 },
		{ .name = "aclmdlExecute", .type = 2, .mean_ns = 880000 },
		{ .name = "aclmdlLoadFromFile", .type = 2, .mean_ns = 3200000 }
	};
	struct strbuf		 f[2], e;
	struct gen_acl_api	*it = NULL, *a;
	size_t			 n = sizeof api / sizeof api[0], i, off;
	uint64_t		 t = GEN_ACL_MONO_NS, d, at;
	int			 k, z, w, count, rc = -1;

	strbuf_init(&f[0]);
	strbuf_init(&f[1]);
	strbuf_init(&e);
	if (nwin > 0) {
		it = xreallocarray(NULL, (size_t)nwin * n, sizeof *it);
		for (w = 0; w < nwin; w++)
			memcpy(it + (size_t)w * n, api, sizeof api);
	}
	count = g->apis < 1 ? 1 : g->apis > 2000 ? 2000 : g->apis;
	for (k = 0; k < count; k++) {
		i = (size_t)(util_rand_next(rng) % n);
		d = (uint64_t)api[i].mean_ns / 2 + util_rand_next(rng) %
		    (uint64_t)api[i].mean_ns;
		api[i].pid = 4242;
		api[i].tid = 4300 + (uint32_t)i;
		at = t;
		if (nwin > 0) {
			/* 10 ns apart, well inside a window of microseconds. */
			w = k % nwin;
			at = win[2 * w] + 1 + (uint64_t)(k / nwin) * 10;
			a = &it[(size_t)w * n + i];
			a->pid = api[i].pid;
			a->tid = api[i].tid;
			util_stat_add(&a->st, (int64_t)d);
		}
		off = f[api[i].type - 1].len;
		for (z = 0; z < 128; z++)
			strbuf_addc(&f[api[i].type - 1], '\0');
		gen_prof_bin_put(&f[api[i].type - 1], off, 0x5a5a, 2);
		gen_prof_bin_put(&f[api[i].type - 1], off + 4, api[i].type, 4);
		gen_prof_bin_put(&f[api[i].type - 1], off + 8, at, 8);
		gen_prof_bin_put(&f[api[i].type - 1], off + 16, at + d, 8);
		gen_prof_bin_put(&f[api[i].type - 1], off + 24, api[i].pid, 4);
		gen_prof_bin_put(&f[api[i].type - 1], off + 28, api[i].tid, 4);
		memcpy(f[api[i].type - 1].s + off + 32, api[i].name,
		    strlen(api[i].name));
		util_stat_add(&api[i].st, (int64_t)d);
		t += d + 1000;
	}
	gen_acl_expect(&e, api, n);
	if ((f[0].len > 0 && gen_prof_bin_write(dir,
	    "AclModule.acl_op.0.slice_0",
	    f[0].s, f[0].len, cause) != 0) || (f[1].len > 0 &&
	    gen_prof_bin_write(dir, "AclModule.acl_model.0.slice_0", f[1].s,
	    f[1].len, cause) != 0))
		goto out;
	if (g->expect != NULL && (gen_prof_bin_write(g->expect,
	    "acl_statistic.csv",
	    e.s, e.len, cause) != 0 || gen_acl_expect_iters(g, it, n, nwin,
	    model, cause) != 0))
		goto out;
	rc = 0;
out:
	free(it);
	strbuf_release(&f[0]);
	strbuf_release(&f[1]);
	strbuf_release(&e);
	return rc;
}

/*
 * The name the AI CPU table gives a kernel: the six-field records name
 * the op by its path, which the table cuts to the type.
 */
static const char *
gen_acl_kernel(const char *name, bool six, char *buf)
{
	const char	*p = strrchr(name, '/');

	if (!six)
		return name;
	snprintf(buf, 64, "%s", p != NULL ? p + 1 : name);
	buf[strcspn(buf, "-")] = '\0';
	return buf;
}

/*
 * Write DIR/DATA_PREPROCESS.dev.AICPU.0.slice_0 (NUL-separated node and
 * thread records, both node forms, a thread record without its node and a
 * node without its thread record)
 * and the expected aicpu.csv. On failure return -1 and set *cause.
 */
int
gen_acl_aicpu(const char *dir, const struct demo_opts *g, uint64_t *rng,
    char **cause)
{
	static const char *const names[] = { "GetNext", "InitData",
	    "Default/net/DropoutGenMask-op12", "Default/net/RandomChoice-op3" };
	struct strbuf	 f, e;
	char		 buf[3][64];
	int64_t		 start = 7000000, total, dispatch;
	int		 i, rc = -1;

	strbuf_init(&f);
	strbuf_init(&e);
	strbuf_adds(&e, "serial_number,node_type_name,total_time(ms),"
	    "dispatch_time(ms),run_start,run_end\n");
	for (i = 0; i < 8; i++) {
		total = 200 + (int64_t)(util_rand_next(rng) % 2000);
		dispatch = 20 + (int64_t)(util_rand_next(rng) % 150);
		if (i % 2 == 0)
			strbuf_addf(&f, "[%lld] Node:%s, Run start:%lld, Run "
			    "end:%lld", (long long)start - 50, names[i % 4],
			    (long long)start, (long long)start + total);
		else
			strbuf_addf(&f, "[%lld] Node:%s, Run start:%lld, "
			    "compute start:%lld, memcpy start:%lld, memcpy "
			    "end:%lld,Run end:%lld", (long long)start - 50,
			    names[i % 4], (long long)start,
			    (long long)start + 5, (long long)start + 9,
			    (long long)start + 11, (long long)start + total);
		strbuf_addc(&f, '\0');
		strbuf_addf(&f, "Thread[%2d] process device[0]:aicpu[ 0] task "
		    "end, tickDrvTopHalf=1,tickDrvBottomHalf=2, "
		    "tickBeforeRun=3,tickAfterRun=4, dispatchTime=%lld us, "
		    "totalTime=%lld us.", i, (long long)dispatch,
		    (long long)total);
		strbuf_addc(&f, '\0');
		util_fmt_fixed(buf[0], sizeof buf[0], total / 1000.0, 3, true);
		util_fmt_fixed(buf[1], sizeof buf[1], dispatch / 1000.0, 3,
		    true);
		strbuf_addf(&e, "%d,%s,%s,%s,%lld,%lld\n", i + 1,
		    gen_acl_kernel(names[i % 4], i % 2 == 1, buf[2]), buf[0],
		    buf[1], (long long)start, (long long)start + total);
		start += total + 1000;
	}
	/* A thread record whose node record was lost, as real logs have. */
	strbuf_addf(&f, "Thread[ 3] process device[0]:aicpu[ 0] task end, "
	    "tickDrvTopHalf=1,tickDrvBottomHalf=2, tickBeforeRun=3,"
	    "tickAfterRun=4, dispatchTime=7 us, totalTime=70 us.");
	strbuf_addc(&f, '\0');
	/* A node the tool stopped writing before its thread record. */
	strbuf_addf(&f, "[%lld] Node:GetNext, Run start:%lld, Run end:%lld",
	    (long long)start, (long long)start, (long long)start + 10);
	strbuf_addc(&f, '\0');
	if (gen_prof_bin_write(dir, "DATA_PREPROCESS.dev.AICPU.0.slice_0", f.s,
	    f.len, cause) != 0 || (g->expect != NULL &&
	    gen_prof_bin_write(g->expect, "aicpu.csv", e.s, e.len, cause) != 0))
		goto out;
	rc = 0;
out:
	strbuf_release(&f);
	strbuf_release(&e);
	return rc;
}

struct gen_rt_api {
	const char	*name;
	struct util_stat st;
};

static void
gen_acl_rt_api(struct strbuf *f, struct gen_rt_api *api, uint64_t t,
    uint64_t d, uint32_t tid)
{
	size_t	 off = f->len;
	int	 z;

	for (z = 0; z < 256; z++)
		strbuf_addc(f, '\0');
	gen_prof_bin_put(f, off, 0x5a5a, 2);
	gen_prof_bin_put(f, off + 2, 40, 2);
	gen_prof_bin_put(f, off + 4, tid, 4);
	gen_prof_bin_put(f, off + 8, t, 8);
	gen_prof_bin_put(f, off + 16, t + d, 8);
	memcpy(f->s + off + 32, api->name, strlen(api->name));
	gen_prof_bin_put(f, off + 100, 3, 4);
	util_stat_add(&api->st, (int64_t)d);
}

static void
gen_acl_track(struct strbuf *f, struct strbuf *e, uint64_t t, int task,
    int stream)
{
	size_t	 off = f->len;
	char	 buf[48];
	int	 z;

	for (z = 0; z < 64; z++)
		strbuf_addc(f, '\0');
	gen_prof_bin_put(f, off, 0x5a5a, 2);
	gen_prof_bin_put(f, off + 2, 41, 2);
	gen_prof_bin_put(f, off + 4, 4301, 4);
	gen_prof_bin_put(f, off + 8, t, 8);
	memcpy(f->s + off + 16, "KERNEL_AICORE", 13);
	gen_prof_bin_put(f, off + 48, (uint64_t)task, 2);
	gen_prof_bin_put(f, off + 50, 0, 2);
	/* The upper bits of the stream field are not the stream. */
	gen_prof_bin_put(f, off + 52, (uint64_t)stream | 0x800, 2);
	util_fmt_us(buf, sizeof buf, (int64_t)t, 3, false);
	strbuf_addf(e, "4301,%s,KERNEL_AICORE,%d,%d,0\n", buf, stream, task);
}

/* An msproftx range (TYPE 2) or, with D 0, a marker (TYPE 0). */
static void
gen_acl_tx(struct strbuf *f, struct strbuf *e, uint64_t t, uint64_t d,
    int i)
{
	int	 type = d == 0 ? 0 : 2;
	size_t	 off = f->len;
	char	 msg[32], a[48], b[48];
	int	 z;

	for (z = 0; z < 256; z++)
		strbuf_addc(f, '\0');
	snprintf(msg, sizeof msg, "step %d", i);
	gen_prof_bin_put(f, off, 0x5a5a, 2);
	gen_prof_bin_put(f, off + 2, 120, 2);
	gen_prof_bin_put(f, off + 4, 4242, 4);
	gen_prof_bin_put(f, off + 8, 4300, 4);
	gen_prof_bin_put(f, off + 12, 1, 4);
	gen_prof_bin_put(f, off + 16, (uint64_t)type, 4);
	gen_prof_bin_put(f, off + 20, 0, 4);
	gen_prof_bin_put(f, off + 24, (uint64_t)i * 11, 8);
	gen_prof_bin_put(f, off + 32, t, 8);
	gen_prof_bin_put(f, off + 40, t + d, 8);
	gen_prof_bin_put(f, off + 48, 0, 4);
	memcpy(f->s + off + 52, msg, strlen(msg));
	util_fmt_us(a, sizeof a, (int64_t)t, 3, false);
	util_fmt_us(b, sizeof b, (int64_t)(t + d), 3, false);
	strbuf_addf(e, "4242,4300,1,%d,0,%d,%s,%s,0,%s\n", type, i * 11, a, b,
	    msg);
}

/*
 * Write DIR/Runtime.api.0.slice_0, Runtime.task_track.0.slice_0 and
 * Msprof.msproftx.slice_0, and the expected runtime API totals
 * (runtime_api.csv: Level, API Name, Time(us), Count, Min(us), Max(us)),
 * runtime_task_track.csv and msproftx.csv. On failure return -1 and set
 * *cause.
 */
int
gen_acl_runtime(const char *dir, const struct demo_opts *g, uint64_t *rng,
    char **cause)
{
	struct gen_rt_api	 api[] = {
		{ .name = "rtKernelLaunch" }, { .name = "rtMemcpyAsync" },
		{ .name = "rtStreamSynchronize" }
	};
	struct strbuf		 fa, ft, fx, ea, et, ex;
	char			 b[3][48];
	uint64_t		 t = 6000000000ULL, d;
	size_t			 i, k;
	int			 rc = -1;

	strbuf_init(&fa);
	strbuf_init(&ft);
	strbuf_init(&fx);
	strbuf_init(&ea);
	strbuf_init(&et);
	strbuf_init(&ex);
	strbuf_adds(&et, "Thread ID,Timestamp(us),Task Type,Stream ID,"
	    "Task ID,Batch ID\n");
	strbuf_adds(&ex, "Process ID,Thread ID,Category,Event Type,"
	    "Payload Type,Payload,Start(us),End(us),Message Type,Message\n");
	for (i = 0; i < 60; i++) {
		k = (size_t)(util_rand_next(rng) % 3);
		d = 500 + util_rand_next(rng) % 20000;
		gen_acl_rt_api(&fa, &api[k], t, d, 4300);
		if (k == 0)
			gen_acl_track(&ft, &et, t + d / 2, (int)i,
			    (int)(i % 4));
		t += d + 700;
	}
	for (i = 0; i < 5; i++) {
		d = 400000 + util_rand_next(rng) % 100000;
		gen_acl_tx(&fx, &ex, 6000000000ULL + i * 1000000, i == 2 ? 0 :
		    d, (int)i);
	}
	strbuf_adds(&ea, "Level,API Name,Time(us),Count,Min(us),Max(us)\n");
	for (k = 0; k < 3; k++) {
		if (api[k].st.count == 0)
			continue;
		util_fmt_us(b[0], sizeof b[0], api[k].st.total, 3, true);
		util_fmt_us(b[1], sizeof b[1], api[k].st.min, 3, true);
		util_fmt_us(b[2], sizeof b[2], api[k].st.max, 3, true);
		strbuf_addf(&ea, "runtime,%s,%s,%lld,%s,%s\n", api[k].name,
		    b[0], (long long)api[k].st.count, b[1], b[2]);
	}
	if (gen_prof_bin_write(dir, "Runtime.api.0.slice_0", fa.s, fa.len,
	    cause) != 0 || gen_prof_bin_write(dir,
	    "Runtime.task_track.0.slice_0",
	    ft.s, ft.len, cause) != 0 || gen_prof_bin_write(dir,
	    "Msprof.msproftx.slice_0", fx.s, fx.len, cause) != 0)
		goto out;
	if (g->expect != NULL && (gen_prof_bin_write(g->expect,
	    "runtime_api.csv",
	    ea.s, ea.len, cause) != 0 || gen_prof_bin_write(g->expect,
	    "runtime_task_track.csv", et.s, et.len, cause) != 0 ||
	    gen_prof_bin_write(g->expect, "msproftx.csv", ex.s, ex.len,
	    cause) != 0))
		goto out;
	rc = 0;
out:
	strbuf_release(&fa);
	strbuf_release(&ft);
	strbuf_release(&fx);
	strbuf_release(&ea);
	strbuf_release(&et);
	strbuf_release(&ex);
	return rc;
}
