/*
 * MindSpore's FRAMEWORK/mindspore.op_range of a generated un-analysed
 * profile (-Z, doc/formats.md section 3.12), and the spans and flows
 * expected of it. Each generated op launch gets MindSpore's launch range
 * around its ACL span on the same thread (Kernel::KernelLaunch::NAME, a
 * microsecond on each side, more than the cntvct_diff that moves CANN's
 * times and not MindSpore's),
 * every seventh a graph's range instead, every fifth a RunOp stage around
 * it and every ninth a Python frame around that, every eleventh a
 * PyNative launch task (whose async_npu flows start there, the outer
 * range, and not at the kernel launch inside it); every fourth launch
 * starts with a "flow" range of the flow id the launch range carries.
 * Besides: a range of no length, one starting at 0, one of an unknown
 * module, one whose name is not UTF-8 and a flow id with two starts.
 * Every third launch range of op_range_<rank> (-O, -V) has a call stack.
 * 2.3's release candidates (-V 2.3rc1, 2.3rc2) have no flow ids: no
 * "flow" ranges then, and every range is a launch range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_MS_NO_FLOW	UINT64_MAX
/* A call stack: frames split by ';' before 2.3.0, by '|' from it on. */
#define GEN_MS_CALLS	"model.py(3): f;train.py(9): g|run.py(1): main"

/* A launch range: where MindSpore's async_npu flows start. */
struct gen_ms_launch {
	uint64_t	 tid;
	int64_t		 b;		/* epoch ns, MindSpore's clock */
	int64_t		 e;
};

struct gen_ms {
	struct gen_prof			*g;
	const struct gen_prof_clock	*c;
	struct gen_buf			 ops;
	struct strbuf			 spans;		/* expected */
	struct strbuf			 args;		/* 2.5's */
	struct strbuf			 flows;
	int64_t				 shift;		/* vendor's clock */
	struct gen_ms_launch		*launch;
	size_t				 nlaunch;
};

/* What kind of range, and so how MindSpore names it. */
enum gen_ms_kind {
	GEN_MS_PLAIN,		/* module::event::full name */
	GEN_MS_GRAPH,		/* module graph::event graph::name */
	GEN_MS_STAGE,		/* the stage's name */
	GEN_MS_STACK		/* the name */
};

/* One range; its expected span when EXPECT names it. */
struct gen_ms_range {
	uint64_t		 tid;
	uint64_t		 flow;
	int64_t			 b;		/* mono ns */
	int64_t			 e;
	uint16_t		 module;
	uint16_t		 event;
	uint16_t		 stage;
	enum gen_ms_kind	 kind;
	const char		*name;
	const char		*full;
	const char		*expect;	/* or NULL: no span */
	int64_t			 seq;		/* 2.5: sequence number */
	int			 custom;	/* 2.5: custom info's kind */
	bool			 stack;		/* with GEN_MS_CALLS */
};

/*
 * MindSpore 2.5's custom info of each kind, and the args its trace makes
 * of it (NULL: none; kind 4 is one its reader fails on), and 2.4's (which
 * reads every pair, and fails on kind 5's empty part).
 */
static const struct {
	const char	*info;
	const char	*args;
	const char	*args24;
} gen_ms_customs[] = {
	{ "batch:1;size:64",
	    ",\"custom_info\":{\"batch\":\"1\",\"size\":\"64\"}",
	    ",\"custom_info\":{\"batch\":\"1\",\"size\":\"64\"}" },
	{ "only:one", ",\"custom_info\":{}",
	    ",\"custom_info\":{\"only\":\"one\"}" },
	{ NULL, "", "" },
	{ "", ",\"custom_info\":\"\"", ",\"custom_info\":\"\"" },
	{ "a:b:c;d:e", "", ",\"custom_info\":{\"a\":\"b\",\"d\":\"e\"}" },
	{ "x:1;;y:2;z:3", ",\"custom_info\":{\"x\":\"1\",\"y\":\"2\"}",
	    "" }
};

/* The counter ticks of mono time T; 0 stays 0 (a damaged record). */
static uint64_t
gen_ms_raw(const struct gen_ms *m, int64_t t)
{
	return t == 0 ? 0 : gen_prof_core_host_raw(m->c, t);
}

/* Range R is one of MindSpore's launch ranges. */
static void
gen_ms_launch(struct gen_ms *m, const struct gen_ms_range *r)
{
	m->launch = util_grow(m->launch, m->nlaunch, 1, sizeof *m->launch);
	m->launch[m->nlaunch].tid = r->tid;
	m->launch[m->nlaunch].b = r->b + m->g->local_off + m->shift;
	m->launch[m->nlaunch++].e = r->e + m->g->local_off + m->shift;
}

/*
 * Range R in MindSpore 2.5's layout: its name written whole (EXPECT, or
 * its own), the sequence number and thread ids, custom info of its kind.
 */
static void
gen_ms_range25(struct gen_ms *m, const struct gen_ms_range *r)
{
	struct gen_buf	 rec;
	uint8_t		 b[2] = { 0, 0 };	/* level, not async */
	const char	*info = gen_ms_customs[r->custom].info;
	bool		 v23 = m->g->o->ms23, rc = m->g->o->ms23rc != 0;

	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, gen_ms_raw(m, r->b));
	gen_prof_bin_buf_u64(&rec, gen_ms_raw(m, r->e));
	gen_prof_bin_buf_u64(&rec, (uint64_t)r->seq);
	gen_prof_bin_buf_u64(&rec, 0);			/* process */
	gen_prof_bin_buf_u64(&rec, r->tid);		/* start thread */
	gen_prof_bin_buf_u64(&rec, r->tid);		/* end thread */
	gen_prof_bin_buf_u64(&rec, r->tid);		/* forward thread */
	/* 2.3's release candidates have no flow id or step. */
	if (!rc) {
		gen_prof_bin_buf_u64(&rec, r->flow);
		gen_prof_bin_buf_u64(&rec, 1);		/* step */
	}
	/* 2.3 has no level: its asynchronous flag only. */
	gen_prof_bin_buf_add(&rec, b, v23 ? 1 : 2);
	gen_prof_bin_tlv_field(&rec, 3, r->expect != NULL &&
	    strcmp(r->expect, "N/A") != 0 ? r->expect : r->expect != NULL ?
	    "Kernel::KernelLaunch::Op\xff\xfe" : r->full);
	if (r->stack)
		gen_prof_bin_tlv_field(&rec, 6, GEN_MS_CALLS);
	if (info != NULL && !v23)
		gen_prof_bin_tlv_field(&rec, 9, info);
	gen_prof_bin_tlv_record(&m->ops, 1, &rec);	/* an op range */
	free(rec.p);
	if (r->expect != NULL)
		strbuf_addf(&m->args, "%s|%llu|%lld|{\"Sequence number\":%lld,"
		    "\"Fwd thread id\":%llu%s%s}\n", r->expect,
		    (unsigned long long)r->tid,
		    (long long)(r->b + m->g->local_off + m->shift),
		    (long long)r->seq, (unsigned long long)r->tid,
		    !r->stack ? "" : rc ? ",\"Call stack\":\"model.py(3): f;"
		    "\\r\\ntrain.py(9): g|run.py(1): main\"" :
		    ",\"Call stack\":\"model.py(3): f;train.py(9): g\\r\\n"
		    "run.py(1): main\"",
		    v23 ? "" : m->g->o->ms24 ?
		    gen_ms_customs[r->custom].args24 :
		    gen_ms_customs[r->custom].args);
	/* The candidates take every range as a launch range. */
	if (rc && r->expect != NULL)
		gen_ms_launch(m, r);
}

/* Write range R, and say what span it should give. */
static void
gen_ms_range(struct gen_ms *m, const struct gen_ms_range *r)
{
	struct gen_buf	 rec;
	uint8_t		 b[4];
	int32_t		 pid = 4242;

	if (m->g->o->ms25) {
		gen_ms_range25(m, r);
		/* 2.3's trace gives a range its record's process (0). */
		if (r->expect != NULL)
			strbuf_addf(&m->spans, "%s|%d|%llu|%lld|%lld\n",
			    r->expect, m->g->o->ms23 ? 0 : 1,
			    (unsigned long long)r->tid,
			    (long long)(r->b + m->g->local_off + m->shift),
			    (long long)(r->e + m->g->local_off + m->shift));
		return;
	}
	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, r->tid);
	gen_prof_bin_buf_u64(&rec, r->flow);
	gen_prof_bin_buf_u64(&rec, 1);			/* step */
	gen_prof_bin_buf_u64(&rec, gen_ms_raw(m, r->b));
	gen_prof_bin_buf_u64(&rec, gen_ms_raw(m, r->e));
	gen_prof_bin_buf_u32(&rec, (uint32_t)pid);
	gen_prof_bin_buf_u16(&rec, r->module);
	gen_prof_bin_buf_u16(&rec, r->event);
	gen_prof_bin_buf_u16(&rec, r->stage);
	b[0] = 0;					/* level */
	b[1] = r->kind == GEN_MS_GRAPH;
	b[2] = r->kind == GEN_MS_STAGE;
	b[3] = r->kind == GEN_MS_STACK;
	gen_prof_bin_buf_add(&rec, b, 4);
	gen_prof_bin_tlv_field(&rec, 13, r->name);
	gen_prof_bin_tlv_field(&rec, 14, r->full);
	if (r->kind == GEN_MS_GRAPH) {
		gen_prof_bin_tlv_field(&rec, 15, "Graph");
		gen_prof_bin_tlv_field(&rec, 16, "Launch");
	}
	gen_prof_bin_tlv_field(&rec, 17, "batch:1;size:64;");
	gen_prof_bin_tlv_record(&m->ops, 0, &rec);	/* an op range */
	free(rec.p);
	if (r->expect != NULL)
		strbuf_addf(&m->spans, "%s|1|%llu|%lld|%lld\n", r->expect,
		    (unsigned long long)r->tid,
		    (long long)(r->b + m->g->local_off + m->shift),
		    (long long)(r->e + m->g->local_off + m->shift));
}

/* An expected flow end of flow ID. */
static void
gen_ms_flow(struct gen_ms *m, const char *ph, uint64_t id, uint64_t tid,
    int64_t ts)
{
	strbuf_addf(&m->flows, "%s|%llu|%llu|%lld\n", ph,
	    (unsigned long long)id, (unsigned long long)tid,
	    (long long)(ts + m->g->local_off + m->shift));
}

/* The ranges of launch K (op OP). */
static void
gen_ms_op(struct gen_ms *m, const struct gen_prof_op *op, size_t k)
{
	struct gen_ms_range	 r;
	int64_t			 t = m->c->tick;
	uint64_t		 flow;
	char			 full[64], name[128], gname[32];

	memset(&r, 0, sizeof r);
	r.tid = op->tid;
	r.flow = GEN_MS_NO_FLOW;
	r.custom = 2;			/* none */
	if (k % 9 == 8) {
		r.b = op->acl_b - 300 * t;
		r.e = op->acl_e + 300 * t;
		r.kind = GEN_MS_STACK;
		r.name = r.full = r.expect = "model.py(12): construct";
		gen_ms_range(m, &r);
	}
	if (k % 5 == 1) {
		r.b = op->acl_b - 200 * t;
		r.e = op->acl_e + 200 * t;
		r.kind = GEN_MS_STAGE;
		r.stage = 5;
		r.name = r.full = "";
		r.expect = "RunOp";
		gen_ms_range(m, &r);
		r.stage = 0;
	}
	if (k % 4 == 0 && m->g->o->ms23rc == 0) {
		r.flow = 1000 + k;
		r.b = op->acl_b - 150 * t;
		r.e = op->acl_b - 140 * t;
		r.kind = GEN_MS_PLAIN;
		r.name = r.full = "flow";
		r.expect = NULL;
		gen_ms_range(m, &r);
		gen_ms_flow(m, "s", r.flow, r.tid, r.b);
		gen_ms_flow(m, "f", r.flow, r.tid, op->acl_b - 100 * t);
	}
	snprintf(full, sizeof full, "Default/network/Op%zu", k);
	if (k % 11 == 10) {
		/* A PyNative launch task around the launch range. */
		flow = r.flow;
		r.flow = GEN_MS_NO_FLOW;
		r.b = op->acl_b - 120 * t;
		r.e = op->acl_e + 120 * t;
		r.module = 3;		/* PynativeFramework */
		r.event = 32;		/* PyNativeLaunchTask */
		r.kind = GEN_MS_PLAIN;
		r.name = "op";
		r.full = full;
		snprintf(name, sizeof name,
		    "PynativeFramework::PyNativeLaunchTask::%s", full);
		r.expect = name;
		gen_ms_range(m, &r);
		if (m->g->o->ms23rc == 0)
			gen_ms_launch(m, &r);
		r.flow = flow;
	}
	/* Wider than the host's cntvct_diff, which CANN's times get. */
	r.b = op->acl_b - 100 * t;
	r.e = op->acl_e + 100 * t;
	r.module = 4;			/* Kernel */
	r.event = 4;			/* KernelLaunch */
	if (k % 7 == 3) {
		snprintf(gname, sizeof gname, "gop%zu", k);
		r.kind = GEN_MS_GRAPH;
		r.name = gname;
		r.full = full;
		snprintf(name, sizeof name, "Graph::Launch::%s", gname);
	} else if (k == 5) {
		/* Unknown to MindSpore: named Default. */
		r.kind = GEN_MS_PLAIN;
		r.module = 99;
		r.name = "op";
		r.full = full;
		snprintf(name, sizeof name, "Default::KernelLaunch::%s", full);
	} else if (k == 6) {
		r.kind = GEN_MS_PLAIN;
		r.name = "op";
		r.full = "Op\xff\xfe";
		/* 2.5 writes the name whole: all of it reads N/A. */
		snprintf(name, sizeof name, m->g->o->ms25 ? "N/A" :
		    "Kernel::KernelLaunch::N/A");
	} else {
		r.kind = GEN_MS_PLAIN;
		r.name = "op";
		r.full = full;
		snprintf(name, sizeof name, "Kernel::KernelLaunch::%s", full);
	}
	r.expect = name;
	r.seq = (int64_t)k;
	r.custom = (int)(k % 6);
	r.stack = m->g->o->ms25 && k % 3 == 0;
	gen_ms_range(m, &r);
	if (strstr(name, "KernelLaunch") != NULL && m->g->o->ms23rc == 0)
		gen_ms_launch(m, &r);
}

/*
 * The expected async_npu flows (ms_npu_flows.txt: the launch range's
 * thread and start, the task's device, stream and start): a task whose
 * host task record lies in a launch range of its thread has one, from
 * the earliest-starting such range. MindSpore 2.3 takes the
 * earliest-starting range not ended, if it starts at most 1 ms after
 * (its release candidates: no later than the launch).
 */
static int
gen_ms_npu_flows(struct gen_ms *m, const char *expect, char **cause)
{
	const struct gen_prof_op	*op;
	struct strbuf			 b;
	size_t				 i, j;
	int64_t				 at, from;
	int				 rc;
	bool				 v23 = m->g->o->ms23 &&
					    m->g->o->ms23rc == 0;

	strbuf_init(&b);
	for (i = 0; i < m->g->ntasks; i++) {
		op = &m->g->ops[m->g->tasks[i].op];
		if (op->acl_e == 0)
			continue;
		at = op->tt + m->g->local_off;
		from = INT64_MAX;
		for (j = 0; j < m->nlaunch; j++) {
			if (m->launch[j].tid == op->tid &&
			    (v23 || m->launch[j].b <= at) &&
			    at <= m->launch[j].e && m->launch[j].b < from)
				from = m->launch[j].b;
		}
		if (v23 && from != INT64_MAX && from - 1000000 > at)
			from = INT64_MAX;
		if (from != INT64_MAX)
			strbuf_addf(&b, "%u|%lld|%d|%d|%lld\n", op->tid,
			    (long long)from, op->device, op->stream + 2,
			    (long long)(m->g->tasks[i].start +
			    m->g->local_off));
	}
	rc = gen_prof_bin_write(expect, "ms_npu_flows.txt", b.s, b.len,
	    cause);
	strbuf_release(&b);
	return rc;
}

/* The records no span comes of, and a flow id of two starts. */
static void
gen_ms_odd(struct gen_ms *m, const struct gen_prof_op *op)
{
	struct gen_ms_range	 r;

	memset(&r, 0, sizeof r);
	r.tid = op->tid;
	r.flow = GEN_MS_NO_FLOW;
	r.custom = 2;
	r.kind = GEN_MS_PLAIN;
	r.name = "op";
	r.full = "Instant";
	/* 2.3 draws it as a span of no length. */
	if (m->g->o->ms23)
		r.expect = "Instant";
	r.b = r.e = op->acl_b - 5 * m->c->tick;
	gen_ms_range(m, &r);
	r.expect = NULL;
	r.full = "AtZero";
	r.b = 0;
	r.e = op->acl_b;
	gen_ms_range(m, &r);
	/* The candidates write no flow ids: a range named "flow" is one. */
	if (m->g->o->ms23rc != 0) {
		r.name = r.full = r.expect = "flow";
		r.b = op->acl_b - 50 * m->c->tick;
		r.e = op->acl_b - 45 * m->c->tick;
		gen_ms_range(m, &r);
		return;
	}
	r.name = r.full = "flow";
	r.flow = 7;
	r.b = op->acl_b - 50 * m->c->tick;
	r.e = op->acl_b - 45 * m->c->tick;
	gen_ms_range(m, &r);
	gen_ms_range(m, &r);
	/* 2.3's and 2.4's readers link any two ranges of a flow id. */
	if (m->g->o->ms24 || m->g->o->ms23) {
		gen_ms_flow(m, "s", r.flow, r.tid, r.b);
		gen_ms_flow(m, "f", r.flow, r.tid, r.b);
	}
}

/*
 * MindSpore's host CPU ops, cpu_op_execute_timestamp_<RANK>.txt in DIR,
 * and the spans expected of them in EXPECT (ms_cpu_spans.txt: name, pid,
 * tid, start and end epoch ns, args): a line per op of runs "start epoch
 * ns,duration ms,thread", the durations as C++ prints a float (six
 * significant digits, exponents below 1e-4), rounded to the ns half to
 * even, one line ending in CR LF; an empty line, a line of two fields
 * and two bad runs, which give no span; a line of four fields, whose
 * runs are its last; a name holding a quote; two lines parted by a CR
 * alone; a line that is not UTF-8 (skipped); durations just past a half,
 * and of .6 and .7 of a ns; a line with white space around it; and a
 * duration of a clock stepped back (out of range, skipped).
 */
static int
gen_ms_cpu(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *dir, const char *expect, int rank, char **cause)
{
	static const struct {
		const char	*line;		/* "name;type;" or NULL: the
						   line goes on */
		const char	*args;		/* its args, as JSON */
		int		 tid;		/* -1: no thread */
		const char	*dur;		/* ms, as written; NULL none */
		int64_t		 ns;		/* -1: a bad run */
		const char	*end;		/* after the run */
	} runs[] = {
		{ "Default/network/Add-op1;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 3, "0.0125", 12500, " " },
		{ NULL, NULL, 3, "1.5e-05", 15, " \n" },
		{ "Default/network/Mul-op2;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 4, "2.5e-06", 2, " " },
		{ NULL, NULL, 4, "3.5e-06", 4, " " },
		{ NULL, NULL, 4, "1.23457e-05", 12, " \r\n\n" },
		{ "Default/network/Cast-op3;HostCpuOps", NULL, 0, NULL, -1,
		    "\n" },
		{ "Default/network/Sub-op4;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 5, "0.5", 500000, " " },
		{ NULL, NULL, -1, "0.25", -1, " " },
		{ NULL, NULL, 5, "x", -1, " \n" },
		{ "Default/network/Div-op5;Ops;extra;",
		    "{\"type\":\"Ops\"}", 6, "1", 1000000, "\n" },
		{ "Default/q\"uote-op6;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 3, "0.001", 1000, " \n" },
		{ "Default/network/Pow-op7;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 7, "0.002", 2000, "\r" },
		{ "Default/network/Exp-op8;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 7, "0.003", 3000, " \n" },
		{ "Default/\xff-op9;HostCpuOps;", NULL, 3, "1", -1, "\n" },
		{ "Default/network/Abs-op10;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 3, "1.25001e-05", 13, " " },
		{ NULL, NULL, 3, "1.27e-05", 13, " " },
		{ NULL, NULL, 3, "1.26e-05", 13, " " },
		{ NULL, NULL, 3, "1.84467e+13", -1, " \n" },
		{ " \tDefault/network/Neg-op11;HostCpuOps;",
		    "{\"type\":\"HostCpuOps\"}", 4, "0.004", 4000, " \t\n" }
	};
	struct strbuf	 b, e;
	char		 name[64];
	const char	*args = NULL, *name0;
	size_t		 i, op = 0;
	int64_t		 t;
	int		 rc;

	strbuf_init(&b);
	strbuf_init(&e);
	t = c->begin + g->local_off + 1000000;
	for (i = 0; i < sizeof runs / sizeof *runs; i++) {
		t += 2000000;
		if (runs[i].line != NULL) {
			strbuf_adds(&b, runs[i].line);
			op = i;
			args = runs[i].args;
		}
		if (runs[i].dur != NULL && runs[i].tid < 0)
			strbuf_addf(&b, "%lld,%s", (long long)t, runs[i].dur);
		else if (runs[i].dur != NULL)
			strbuf_addf(&b, "%lld,%s,%d", (long long)t,
			    runs[i].dur, runs[i].tid);
		strbuf_adds(&b, runs[i].end);
		/*
		 * The name: the line's text up to its first ';', without
		 * the white space before it.
		 */
		name0 = runs[op].line + strspn(runs[op].line, " \t");
		if (runs[i].ns >= 0)
			strbuf_addf(&e, "%.*s|2|%d|%lld|%lld|%s\n",
			    (int)strcspn(name0, ";"), name0,
			    runs[i].tid, (long long)t,
			    (long long)(t + runs[i].ns), args);
	}
	snprintf(name, sizeof name, "cpu_op_execute_timestamp_%d.txt", rank);
	rc = gen_prof_bin_write(dir, name, b.s, b.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_cpu_spans.txt", e.s, e.len,
		    cause);
	strbuf_release(&b);
	strbuf_release(&e);
	return rc;
}

/*
 * MindData's dataset pipeline, pipeline_profiling_<RANK>.json in DIR, as
 * its profiler writes it (root first, an inlined op's metrics null, a
 * queue without samples), and the minddata_pipeline_raw MindSpore's
 * analysis makes of it in EXPECT (ms_minddata.csv): the inlined MapOp is
 * passed over for its children, the averages and usage rates as Python's
 * repr() prints them. Beside it, as the profiler writes them too (2.5's
 * parser wants them), the ops' CPU use and the device queue's trace, and
 * the minddata_pipeline_summary of all three in EXPECT
 * (ms_minddata_summary.csv): an op the walk never reaches (6) still
 * listed, CPU use of op -1 left out, a short trace line skipped, the
 * findings of high and low CPU use, a leaf and an internal queue.
 */
static int
gen_ms_minddata(const char *dir, const char *expect, int rank,
    char **cause)
{
	static const char json[] = "{\"op_info\":["
	    "{\"children\":[1],\"metrics\":null,\"num_workers\":1,"
	    "\"op_id\":0,\"op_type\":\"DataQueueOp\"},"
	    "{\"children\":[2],\"metrics\":{\"output_queue\":{\"length\":64,"
	    "\"size\":[10,12,13]}},\"num_workers\":4,\"op_id\":1,"
	    "\"op_type\":\"BatchOp\"},"
	    "{\"children\":[3,4],\"metrics\":null,\"num_workers\":8,"
	    "\"op_id\":2,\"op_type\":\"MapOp\"},"
	    "{\"children\":[5],\"metrics\":{\"output_queue\":{\"length\":16,"
	    "\"size\":[4,5]}},\"num_workers\":2,\"op_id\":3,"
	    "\"op_type\":\"FilterOp\"},"
	    "{\"metrics\":{\"output_queue\":{\"length\":8,\"size\":[0,2,1]}},"
	    "\"num_workers\":8,\"op_id\":4,\"op_type\":\"ImageFolderOp\"},"
	    "{\"metrics\":{\"output_queue\":{\"length\":4,\"size\":[4,4,3]}},"
	    "\"num_workers\":1,\"op_id\":5,\"op_type\":\"TFReaderOp\"},"
	    "{\"children\":[0],\"metrics\":{\"output_queue\":{\"length\":2,"
	    "\"size\":[1]}},\"num_workers\":1,\"op_id\":6,"
	    "\"op_type\":\"ShuffleOp\"}],"
	    "\"sampling_interval\":10}";
	static const char csv[] = "op_id,op_type,num_workers,"
	    "output_queue_size,output_queue_average_size,output_queue_length,"
	    "output_queue_usage_rate,sample_interval,parent_id,children_id\n"
	    "0,DataQueueOp,1,,,,,10,,[1]\n"
	    "1,BatchOp,4,\"[10, 12, 13]\",11.666666666666666,64,"
	    "0.18229166666666666,10,0,\"[3, 4]\"\n"
	    "3,FilterOp,2,\"[4, 5]\",4.5,16,0.28125,10,1,[5]\n"
	    "4,ImageFolderOp,8,\"[0, 2, 1]\",1.0,8,0.125,10,1,\n"
	    "5,TFReaderOp,1,\"[4, 4, 3]\",3.6666666666666665,4,"
	    "0.9166666666666666,10,3,\n";
	/* Our findings' words; their ops and numbers are MindSpore's. */
	static const char sum[] =
	    "op_ids,0,1,2,3,4,5,6\n"
	    "op_names,DataQueue,Batch,Map,Filter,ImageFolder,TFReader,S"
	    "huffle\n"
	    "pipeline_ops,DataQueue(id=0),Batch(id=1),Map(id=2),Filter("
	    "id=3),ImageFolder(id=4),TFReader(id=5),Shuffle(id=6)\n"
	    "num_workers,1,4,8,2,8,1,1\n"
	    "queue_average_size,-1,11.67,-1,4.5,1.0,3.67,1.0\n"
	    "queue_utilization_pct,-1,18.23,-1,28.12,12.5,91.75,50.0\n"
	    "queue_empty_freq_pct,-1,0.0,-1,0.0,33.33,0.0,0.0\n"
	    "children_ids,[1],\"[3, 4]\",\"[3, 4]\",[5],[],[],[0]\n"
	    "parent_id,6,0,-1,2,2,3,-1\n"
	    "avg_cpu_pct,5.0,320.0,40.5,7.0,121.5,0,2.0\n"
	    "per_pipeline_time,6.5\n"
	    "per_push_queue_time,3.5\n"
	    "per_batch_time,9.0\n"
	    "avg_cpu_pct_per_worker,5.0,80.0,5.06,3.5,15.19,0.0,2.0\n"
	    "cpu_analysis_details,\"Batch(id=1): 80.0% CPU per worker, n"
	    "um_parallel_workers 4: more workers may help\",\"Map(id=2): "
	    "5.06% CPU per worker, num_parallel_workers 8: fewer worker"
	    "s would do as well\",\"Filter(id=3): 3.5% CPU per worker, nu"
	    "m_parallel_workers 2: fewer workers would do as well\",\"Ima"
	    "geFolder(id=4): 15.19% CPU per worker, num_parallel_worker"
	    "s 8: fewer workers would do as well\"\n"
	    "queue_analysis_details,\"Filter(id=3): input queue 91.75% u"
	    "sed, output queue 28.12%: its child TFReader(id=5) makes r"
	    "ows faster than it takes them; with little CPU use, raise "
	    "its prefetch_size or workers\",\"ImageFolder(id=4), a leaf: "
	    "output queue 12.5% used, num_parallel_workers 8: more work"
	    "ers may read faster\"\n"
	    "bottleneck_warning,Batch(id=1)\n"
	    "bottleneck_suggestion,\"Batch(id=1): 80.0% CPU per worker, "
	    "num_parallel_workers 4: more workers may help\"\n";
	char	 name[64];
	int	 rc;

	static const char cpu[] = "{\"cpu_processor_num\":8,\"device_info\":"
	    "{\"context_switch_count\":[10,12],\"idle_utilization\":[90,88],"
	    "\"io_utilization\":[0,0],\"runnable_process\":[1,2],"
	    "\"sys_utilization\":[2,3],\"user_utilization\":[8,9]},"
	    "\"op_info\":[{\"metrics\":{\"sys_utilization\":[9,9],"
	    "\"user_utilization\":[9,9]},\"op_id\":-1},"
	    "{\"metrics\":{\"sys_utilization\":[1,2],"
	    "\"user_utilization\":[3,4]},\"op_id\":0},{\"metrics\":"
	    "{\"sys_utilization\":[50,60],\"user_utilization\":[260,270]},"
	    "\"op_id\":1},{\"metrics\":{\"sys_utilization\":[10,10],"
	    "\"user_utilization\":[30,31]},\"op_id\":2},{\"metrics\":"
	    "{\"sys_utilization\":[3],\"user_utilization\":[4,99]},"
	    "\"op_id\":3},{\"metrics\":{\"sys_utilization\":[20,21],"
	    "\"user_utilization\":[100,102]},\"op_id\":4},{\"metrics\":"
	    "{\"sys_utilization\":[],\"user_utilization\":[]},"
	    "\"op_id\":5},{\"metrics\":{\"sys_utilization\":[1],"
	    "\"user_utilization\":[1]},\"op_id\":6}],"
	    "\"process_info\":{\"sys_utilization\":[2,3],"
	    "\"user_utilization\":[8,9]},\"sampling_interval\":10,"
	    "\"time_stamp\":[1000,1010]}";
	/* type (0 time, 1 size), extra, batch, value, time stamp (ms) */
	static const char trace[] = "0 0 1 5 1000\n0 0 2 6 1010\n"
	    "0 1 2 3 1010\n1 0 2 4 1011\r\n0 0 3 7 1020\n1 64 3\n"
	    "0 2 3 9 1020\n0 1 3 4 1021\n";

	snprintf(name, sizeof name, "pipeline_profiling_%d.json", rank);
	rc = gen_prof_bin_write(dir, name, json, sizeof json - 1, cause);
	snprintf(name, sizeof name, "minddata_cpu_utilization_%d.json", rank);
	if (rc == 0)
		rc = gen_prof_bin_write(dir, name, cpu, sizeof cpu - 1, cause);
	snprintf(name, sizeof name, "device_queue_profiling_%d.txt", rank);
	if (rc == 0)
		rc = gen_prof_bin_write(dir, name, trace, sizeof trace - 1,
		    cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_minddata.csv", csv,
		    sizeof csv - 1, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_minddata_summary.csv", sum,
		    sizeof sum - 1, cause);
	return rc;
}

/*
 * Write FRAMEWORK/mindspore.op_range of the MindSpore profile TOP for the
 * launches of G, its memory records (with CANN's, in the collection
 * ROOT), and the expected spans (ms_spans.txt: name, pid, tid, start and
 * end epoch ns), flows (ms_flows.txt: phase, id, tid, time), async_npu
 * flows (ms_npu_flows.txt) and memory_record into EXPECT if set.
 */
int
gen_prof_ms(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *top, const char *root, const char *expect, char **cause)
{
	struct gen_ms	 m;
	char		*dir, name[64], info[256];
	size_t		 i, k = 0;
	int		 rc = 0, rank;

	if (c->tick == 1) {
		xasprintf(cause, "-Z: MindSpore's records are counter ticks;"
		    " -m 0 leaves the host none");
		return -1;
	}
	memset(&m, 0, sizeof m);
	m.g = g;
	m.c = c;
	/*
	 * MindSpore's conversion leaves out the host's cntvct_diff; 2.3's
	 * own clock pair has none to leave out (2.3.0rc1 has none: the
	 * host's is taken).
	 */
	m.shift = g->o->ms23 && g->o->ms23rc != 1 ? 0 : -c->diff * c->tick;
	strbuf_init(&m.spans);
	strbuf_init(&m.flows);
	strbuf_init(&m.args);
	for (i = 0; i < g->nops; i++) {
		if (g->ops[i].acl_e == 0)
			continue;
		if (k == 2)
			gen_ms_odd(&m, &g->ops[i]);
		gen_ms_op(&m, &g->ops[i], k++);
	}
	if ((dir = gen_prof_bin_fwk_dir(top, cause)) == NULL)
		rc = -1;
	rank = g->o->rank >= 0 ? g->o->rank : 0;
	if (g->o->ms25)
		snprintf(name, sizeof name, "op_range_%d", rank);
	else
		snprintf(name, sizeof name, "mindspore.op_range");
	if (rc == 0)
		rc = gen_prof_bin_write(dir, name, (const char *)m.ops.p,
		    m.ops.len, cause);
	/* MindSpore 2.5 and later record their memory pool's events. */
	if (rc == 0 && !g->o->ms23 && !g->o->ms24)
		rc = gen_prof_msmem(g, dir, expect, g->o->ms25 ? 3 : 13,
		    cause);
	/* The layout of mindspore.op_range has its recorded shapes too. */
	if (rc == 0 && !g->o->ms23 && !g->o->ms24 && !g->o->ms25)
		rc = gen_prof_msshape(g, dir, expect, cause);
	/*
	 * Pool totals, CPU ops, dataset pipeline: beside FRAMEWORK/ before
	 * 2.5, in it after.
	 */
	if (rc == 0)
		rc = gen_prof_msrec(g, c, g->o->ms23 || g->o->ms24 ? top : dir,
		    root, rank, expect, cause);
	if (rc == 0)
		rc = gen_ms_cpu(g, c, g->o->ms23 || g->o->ms24 ? top : dir,
		    expect, rank, cause);
	if (rc == 0)
		rc = gen_ms_minddata(g->o->ms23 || g->o->ms24 ? top : dir,
		    expect, rank, cause);
	/* 2.5's reader is chosen by the version its profiler_info says. */
	snprintf(name, sizeof name, "profiler_info_%d.json", rank);
	if (g->o->ms23rc == 1)
		snprintf(info, sizeof info, "{\"ms_version\":\"2.3.0rc1\","
		    "\"rank_id\":%d}\n", rank);
	else if (g->o->ms23)
		snprintf(info, sizeof info, "{\"ms_version\":\"%s\","
		    "\"rank_id\":%d,\"system_cnt\":%llu,\"system_time\":"
		    "%lld}\n", g->o->ms23rc == 2 ? "2.3.0rc2" : "2.3.1", rank,
		    (unsigned long long)gen_prof_core_host_raw(c, c->begin),
		    (long long)(c->begin + g->local_off));
	else if (g->o->ms24)
		snprintf(info, sizeof info, "{\"ms_version\":\"2.4.1\","
		    "\"rank_id\":%d}\n", rank);
	else
		snprintf(info, sizeof info, "{\"ms_version\":\"%s\","
		    "\"rank_id\":%d,\"profiler_parameters\":{"
		    "\"profile_memory\":true,\"activities\":[\"CPU\","
		    "\"NPU\"]}}\n", g->o->ms25 ? "2.5.0" : "2.6.0", rank);
	if (rc == 0)
		rc = gen_prof_bin_write(top, name, info, strlen(info), cause);
	if (rc == 0 && expect != NULL && g->o->ms25)
		rc = gen_prof_bin_write(expect, "ms_args.txt", m.args.s,
		    m.args.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_spans.txt", m.spans.s,
		    m.spans.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_flows.txt", m.flows.s,
		    m.flows.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_ms_npu_flows(&m, expect, cause);
	free(m.launch);
	free(dir);
	free(m.ops.p);
	strbuf_release(&m.spans);
	strbuf_release(&m.flows);
	strbuf_release(&m.args);
	return rc;
}
