/*
 * Raw PROF_* collections written byte for byte as doc/formats.md describes,
 * for a STARS chip (910B: stars_soc task logs, FFTS+ ops with context
 * ids) or an HWTS chip (910A, 310P: hwts.data), from a seed and sizes.
 * Operators are launched from several threads (ACL, optional model, node
 * and runtime spans, node_basic_info, tensor_info, context_id_info and
 * task_track records), scheduled in launch order on the streams of
 * several devices with 16-bit task ids that may wrap (FLIP records on
 * both sides), and written as slices with optional stray bytes before
 * the device data. gen-prof-expect.c writes the expected tables from the
 * same values; nothing here calls a decoder.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_PROF_DEV_ANCHOR	1234560		/* ns before the start */
#define GEN_PROF_HOST_ANCHOR	2345670

static const struct gen_prof_kind gen_prof_stars[] = {
	{ "MatMulV2", 0, 0, 0, "aclnnMatmul", 24000, 3, false },
	{ "Conv2D", 0, 0, 0, "aclnnConvolution", 41000, 3, false },
	{ "ConcatD", 0, 0, 0, "aclnnCat", 9000, 7, false },
	{ "Add", 2, 66, 2, "aclnnAdd", 3100, 3, false },
	{ "Cast", 2, 66, 2, "aclnnCast", 2200, 2, false },
	{ "SoftmaxV2", 2, 66, 2, "aclnnSoftmax", 6300, 2, false },
	{ "FlashAttentionScore", 4, 108, 0, "aclnnFlashAttentionScore",
	  30000, 4, true },
	{ "DropOutDoMask", 2, 66, 2, "aclnnDropoutDoMask", 4000, 3, false },
	/* With -C only: an AI CPU op (GE AI_CPU, KERNEL_AICPU, SQE AI_CPU). */
	{ "GatherV2", 1, 1, 1, "aclnnGather", 30000, 2, false }
};

static const struct gen_prof_kind gen_prof_hwts[] = {
	{ "MatMulV2", 0, 0, 0, "aclnnMatmul", 24000, 3, false },
	{ "Conv2D", 0, 0, 0, "aclnnConvolution", 41000, 3, false },
	{ "ConcatD", 0, 0, 0, "aclnnCat", 9000, 7, false },
	{ "Add", 0, 0, 0, "aclnnAdd", 3100, 3, false },
	{ "Cast", 0, 0, 0, "aclnnCast", 2200, 2, false },
	{ "SoftmaxV2", 0, 0, 0, "aclnnSoftmax", 6300, 2, false },
	{ "DropOutDoMask", 0, 0, 0, "aclnnDropoutDoMask", 4000, 3, false }
};

/* Standalone calls: ACL name and class, runtime API index or -1. */
static const struct {
	const char	*acl;
	int		 cls;
	int		 rt;
	int64_t		 mean_ns;
} gen_prof_calls[] = {
	{ "aclrtSynchronizeStream", 3, 9, 35000 },
	{ "aclrtMalloc", 3, 14, 4500 },
	{ "aclrtGetStreamAttribute", 3, -1, 900 }
};

#define GEN_PROF_NCALLS	(sizeof gen_prof_calls / sizeof gen_prof_calls[0])

/* Runtime API names by index (type 1000 + index). */
static const char *
gen_prof_rt_name(int i)
{
	switch (i) {
	case 3:
		return "KernelLaunch";
	case 9:
		return "StreamSynchronize";
	case 14:
		return "DevMalloc";
	default:
		return "KernelLaunchWithHandle";
	}
}

static const char *const gen_prof_chips[] = { "910B", "910A", "310P", "950" };

void
gen_prof_opts_init(struct gen_prof_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->ops = 2000;
	o->streams = 2;
	o->threads = 2;
	o->rank = -1;
	o->devices = 1;
	o->apis = 200;
	o->host_mhz = 100;
	o->static_pct = 20;
}

static const char *const gen_prof_files[GF_NFILES] = {
	"aging.api_event.data", "unaging.api_event.data",
	"aging.compact.node_basic_info", "unaging.compact.node_basic_info",
	"aging.compact.task_track", "aging.additional.tensor_info",
	"aging.additional.context_id_info", "aging.additional.msproftx",
	"aging.additional.graph_id_map", "aging.additional.fusion_op_info",
	"aging.additional.hccl_info", "aging.compact.node_attr_info",
	"aging.compact.hccl_op_info", "unaging.compact.capture_stream_info",
	"aging.compact.memcpy_info", "aging.additional.mc2_comm_info"
};

static const size_t gen_prof_records[GF_NFILES] = {
	40, 40, 64, 64, 64, 256, 256, 256, 256, 256, 256, 64, 64, 64, 64, 256
};

static uint32_t
gen_prof_acl_type(struct gen_prof *g, const char *name, int cls)
{
	uint32_t	 i;

	for (i = 0; i < (uint32_t)g->nkinds; i++) {
		if (strcmp(g->kinds[i].acl, name) == 0)
			return 5u << 16 | (i + 1);
	}
	for (i = 0; i < GEN_PROF_NCALLS; i++) {
		if (strcmp(gen_prof_calls[i].acl, name) == 0)
			return (uint32_t)cls << 16 | (100 + i);
	}
	return 0;
}

static void
gen_prof_node_records(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, struct gen_prof_op *op, int t,
    int64_t nbi, bool is_static)
{
	const struct gen_prof_kind *k = &g->kinds[op->kind];
	struct gen_buf	*b = &h->f[is_static ? GF_NODE_UNAGING :
	    GF_NODE_AGING];
	uint64_t	 name = gen_prof_core_hash(
	    g->names[op->kind][op->name]);
	uint32_t	 dims[4];
	int		 i, j, n;

	gen_prof_bin_head(b, 10000, 0, h->tids[t], 28, gen_prof_core_host_raw(c,
	    nbi));
	gen_prof_bin_buf_u64(b, name);
	gen_prof_bin_buf_u32(b, (uint32_t)k->ge);
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(k->type));
	gen_prof_bin_buf_u32(b, op->block_dim);
	gen_prof_bin_buf_u32(b, op->hf32 ? 1 : 0);
	gen_prof_bin_buf_pad(b, 64);
	/* Tensors five to a record, same op, thread and time stamp. */
	for (i = 0; i < k->ntensors; i += 5) {
		n = k->ntensors - i < 5 ? k->ntensors - i : 5;
		b = &h->f[GF_TENSOR];
		gen_prof_bin_head(b, 10000, 1, h->tids[t], 12 + 44 * n,
		    gen_prof_core_host_raw(c, nbi + c->tick));
		gen_prof_bin_buf_u64(b, name);
		gen_prof_bin_buf_u32(b, (uint32_t)n);
		for (j = i; j < i + n; j++) {
			bool out = j == k->ntensors - 1;

			gen_prof_bin_buf_u32(b, out ? 1 : 0);
			gen_prof_bin_buf_u32(b, out ? 0 : (j % 2 == 0 ? 2
			    : 29));
			gen_prof_bin_buf_u32(b, out ? 0 : 1);
			gen_prof_core_shape(g, op, j, dims);
			gen_prof_bin_buf_u32(b, dims[0]);
			gen_prof_bin_buf_u32(b, dims[1]);
			gen_prof_bin_buf_u32(b, dims[2]);
			gen_prof_bin_buf_u32(b, dims[3]);
			gen_prof_bin_buf_u64(b, 0);
			gen_prof_bin_buf_u64(b, 0);
		}
		gen_prof_bin_buf_pad(b, 256);
	}
	if (op->nctx == 0)
		return;
	b = &h->f[GF_CTX];
	gen_prof_bin_head(b, 10000, 4, h->tids[t], 12 + 4 * op->nctx,
	    gen_prof_core_host_raw(c, nbi + 2 * c->tick));
	gen_prof_bin_buf_u64(b, name);
	gen_prof_bin_buf_u32(b, (uint32_t)op->nctx);
	for (i = 0; i < op->nctx; i++)
		gen_prof_bin_buf_u32(b, op->ctx[i]);
	gen_prof_bin_buf_pad(b, 256);
}

/* One operator launch on thread T: its spans and host records. */
static void
gen_prof_launch(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, bool *static_names)
{
	struct gen_prof_op	*op = &g->ops[g->nops];
	const struct gen_prof_kind *k;
	int64_t			 acl_b, mod_b = 0, node_b, nbi, rt_b, rt_e;
	int64_t			 node_e, mod_e = 0, acl_e;
	int			 i, rt;
	bool			 model;

	memset(op, 0, sizeof *op);
	op->index = g->nops++;
	op->kind = (int)(gen_prof_core_rand(g) % (uint64_t)g->nkinds);
	k = &g->kinds[op->kind];
	op->name = (int)(gen_prof_core_rand(g) % GEN_PROF_NAMES);
	op->tid = h->tids[t];
	op->block_dim = (uint32_t)(8 << gen_prof_core_rand(g) % 3);
	if (k->ge == 4 || k->ge == 5)
		op->block_dim |= 2u << 16;
	op->hf32 = k->ge == 0 && gen_prof_core_rand(g) % 10 < 3;
	if (k->ffts && g->o->chip != GEN_PROF_950) {
		op->nctx = 1 + (int)(gen_prof_core_rand(g) % GEN_PROF_MAX_CTX);
		for (i = 0; i < op->nctx; i++)
			op->ctx[i] = (uint16_t)(i * 2
			    + (int)(gen_prof_core_rand(g) %
			    2));
	}
	for (i = 0; i < (op->nctx > 0 ? op->nctx : 1); i++)
		op->dur[i] = k->mean_ns / 2 + gen_prof_core_range(g, 0,
		    k->mean_ns);
	model = (int)(gen_prof_core_rand(g) % 100) < g->o->model_pct;
	op->model = model ? 1 + op->kind % 3 : GEN_PROF_NO_MODEL;

	acl_b = h->cursor[t];
	if (model)
		mod_b = acl_b + gen_prof_core_gap(g, c, 300, 900);
	node_b = (model ? mod_b : acl_b) + gen_prof_core_gap(g, c, 800, 4000);
	nbi = node_b + gen_prof_core_gap(g, c, 200, 900);
	rt_b = nbi + 2 * c->tick + gen_prof_core_gap(g, c, 300, 1500);
	op->tt = rt_b + gen_prof_core_gap(g, c, 1000, 5000);
	rt_e = op->tt + gen_prof_core_gap(g, c, 300, 1200);
	node_e = rt_e + gen_prof_core_gap(g, c, 200, 800);
	if (model)
		mod_e = node_e + gen_prof_core_gap(g, c, 200, 800);
	acl_e = (model ? mod_e : node_e) + gen_prof_core_gap(g, c, 400, 2500);
	h->cursor[t] = acl_e + gen_prof_core_gap(g, c, 2000, 30000);
	op->acl_b = acl_b;
	op->acl_e = acl_e;
	op->node_b = node_b;

	gen_prof_core_span(g, h, c, t, GF_API_AGING, 20000, gen_prof_acl_type(g,
	    k->acl, 5), acl_b, acl_e, 0, k->acl, "acl");
	if (model)
		gen_prof_core_span(g, h, c, t, GF_API_AGING, 15000, 1, mod_b,
		    mod_e,
		    (uint64_t)op->model, "ModelExecute", "model");
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 10000, 5, node_b, node_e,
	    gen_prof_core_hash(g->names[op->kind][op->name]), "launch", "node");
	rt = k->ge == 0 ? 63 : 3;
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 5000, 1000 + (uint32_t)rt,
	    rt_b,
	    rt_e, 0, gen_prof_rt_name(rt), "runtime");
	op->is_static = static_names[op->kind * GEN_PROF_NAMES + op->name];
	gen_prof_node_records(g, h, c, op, t, nbi, op->is_static);
	gen_prof_extra_op(g, h, c, t, op, mod_b, acl_b, nbi + 3 * c->tick);
}

/* One standalone API call on thread T. */
static void
gen_prof_call(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t)
{
	size_t		 i = gen_prof_core_rand(g) % GEN_PROF_NCALLS;
	int		 file;
	int64_t		 b, e, len;

	file = gen_prof_core_rand(g) % 10 == 0 ? GF_API_UNAGING : GF_API_AGING;
	b = h->cursor[t];
	len = gen_prof_core_align(c, gen_prof_calls[i].mean_ns / 2 +
	    gen_prof_core_range(g, 0, gen_prof_calls[i].mean_ns));
	e = b + (len > 4 * c->tick ? len : 4 * c->tick);
	gen_prof_core_span(g, h, c, t, file, 20000, gen_prof_acl_type(g,
	    gen_prof_calls[i].acl, gen_prof_calls[i].cls), b, e, 0,
	    gen_prof_calls[i].acl, "acl");
	if (gen_prof_calls[i].rt >= 0)
		gen_prof_core_span(g, h, c, t, file, 5000,
		    1000 + (uint32_t)gen_prof_calls[i].rt, b + c->tick,
		    e - c->tick, 0, gen_prof_rt_name(gen_prof_calls[i].rt),
		    "runtime");
	h->cursor[t] = e + gen_prof_core_gap(g, c, 2000, 30000);
}

static int
gen_prof_op_cmp(const void *a, const void *b)
{
	const struct gen_prof_op	*x = a, *y = b;

	if (x->tt != y->tt)
		return x->tt < y->tt ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Per-stream scheduling state. */
struct gen_prof_stream {
	int64_t		 last_tt;
	int64_t		 free;		/* mono ns the stream is idle */
	uint64_t	 last_end;	/* syscnt */
	uint32_t	 next;
	uint16_t	 batch;
};

/* A device log: a start or end of a task, for sorting. */
struct gen_prof_log {
	uint64_t	 syscnt;
	uint32_t	 task;		/* index into the tasks */
	int		 end;
};

static int
gen_prof_log_cmp(const void *a, const void *b)
{
	const struct gen_prof_log	*x = a, *y = b;

	if (x->syscnt != y->syscnt)
		return x->syscnt < y->syscnt ? -1 : 1;
	if (x->end != y->end)
		return x->end - y->end;
	return x->task < y->task ? -1 : x->task > y->task;
}

/*
 * AI Core frequency changes of every device (section 2.7): two
 * lpmFreqConv records, at a quarter, half and three quarters of the
 * tasks' time span, on device ticks.
 */
void
gen_prof_freqs(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	static const int mhz[GEN_PROF_FREQS] = { 1500, 1800, 1300 };
	int64_t		 lo, hi, t;
	size_t		 i;
	int		 d, k, n;

	if (!g->o->freq || !g->o->pmu || g->o->chip != GEN_PROF_910B ||
	    g->ntasks == 0)
		return;
	lo = hi = g->tasks[0].start;
	for (i = 0; i < g->ntasks; i++) {
		t = g->tasks[i].start + g->tasks[i].dur;
		lo = g->tasks[i].start < lo ? g->tasks[i].start : lo;
		hi = t > hi ? t : hi;
	}
	for (k = 0; k < GEN_PROF_FREQS; k++) {
		t = lo + (hi - lo) / 4 * (k + 1);
		g->freq_at[k] = c->dsync + (t - c->dsync) / c->dtick * c->dtick;
		g->freq_mhz[k] = mhz[k];
	}
	g->nfreq = GEN_PROF_FREQS;
	for (d = 0; d < g->o->devices; d++) {
		for (k = 0; k < GEN_PROF_FREQS; k += n) {
			n = k == 0 ? 2 : 1;
			gen_prof_bin_buf_u32(&dev[d].freq, (uint32_t)n);
			gen_prof_bin_buf_u32(&dev[d].freq, 0);
			for (i = 0; i < 55; i++) {
				gen_prof_bin_buf_u64(&dev[d].freq, (int)i < n ?
				    gen_prof_core_syscnt(c, g->freq_at[k + i])
				    : 0);
				gen_prof_bin_buf_u32(&dev[d].freq, (int)i < n ?
				    (uint32_t)g->freq_mhz[k + i] : 0);
				gen_prof_bin_buf_u32(&dev[d].freq, 0);
			}
		}
	}
}

static void
gen_prof_add_task(struct gen_prof *g, size_t op, int ctx, int64_t start,
    int64_t dur)
{
	struct gen_prof_task	*t;

	if ((g->ntasks & (g->ntasks - 1)) == 0 || g->ntasks == 0)
		g->tasks = xreallocarray(g->tasks, g->ntasks == 0 ? 1 :
		    2 * g->ntasks, sizeof *g->tasks);
	t = &g->tasks[g->ntasks++];
	t->start = start;
	t->dur = dur;
	t->op = (uint32_t)op;
	t->index = (uint32_t)(g->ntasks - 1);
	t->ctx = ctx;
}

/* Write one task_track record (section 3.5). */
void
gen_prof_track(struct gen_buf *b, const struct gen_prof_clock *c,
    bool v2, uint32_t tid, int64_t ts, int device, int stream, uint32_t id,
    uint32_t type, uint64_t kernel)
{
	gen_prof_bin_head(b, 5000, 802, tid, 33, gen_prof_core_host_raw(c, ts));
	gen_prof_bin_track_ids(b, v2, device, stream, id, type);
	gen_prof_bin_buf_u64(b, kernel);
	gen_prof_bin_buf_u16(b, 8);
	gen_prof_bin_buf_u16(b, 64);
	gen_prof_bin_buf_pad(b, 64);
}

/*
 * Schedule the launches in time order on the streams of their devices:
 * task ids, batches and flips, device times; write task_track records and
 * device flips.
 */
static void
gen_prof_schedule(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, struct gen_prof_dev *dev)
{
	const struct gen_prof_opts *o = g->o;
	struct gen_prof_stream	*ss, *s;
	struct gen_prof_op	*op;
	uint32_t		*dnext;
	int64_t			 start;
	uint64_t		 cnt;
	size_t			 i;
	int			 j, k, pick;

	ss = xcalloc((size_t)(o->devices * o->streams), sizeof *ss);
	dnext = xcalloc((size_t)o->devices, sizeof *dnext);
	for (j = 0; j < o->devices && o->chip == GEN_PROF_950; j++)
		dnext[j] = o->wrap ? (uint32_t)(65536 - g->nops /
		    (size_t)o->devices / 2) : (uint32_t)gen_prof_core_range(g,
		    0, 200);
	for (j = 0; j < o->devices * o->streams; j++) {
		ss[j].last_tt = -1;
		ss[j].next = o->wrap ? (uint32_t)(65536 - (g->nops /
		    (size_t)(o->devices * o->streams)) / 2 - 1) :
		    (uint32_t)gen_prof_core_range(g, 0, 200);
	}
	qsort(g->ops, g->nops, sizeof *g->ops, gen_prof_op_cmp);
	for (i = 0; i < g->nops; i++) {
		op = &g->ops[i];
		op->device = (int)(op->index % (size_t)o->devices);
		pick = (int)(gen_prof_core_rand(g) % (uint64_t)o->streams);
		for (k = 0; k < o->streams; k++) {
			j = (pick + k) % o->streams;
			if (ss[op->device * o->streams + j].last_tt < op->tt)
				break;
		}
		op->stream = k < o->streams ? j : pick;
		s = &ss[op->device * o->streams + op->stream];
		s->last_tt = op->tt;
		start = op->tt + gen_prof_core_range(g, 2000, 9000);
		if (start < s->free + 100)
			start = s->free + gen_prof_core_range(g, 100, 1500);
		start = c->dsync + (start - c->dsync + c->dtick - 1) /
		    c->dtick * c->dtick;
		cnt = gen_prof_core_syscnt(c, start);
		if (s->next > 0xFFFF && o->chip != GEN_PROF_950) {
			s->batch++;
			gen_prof_track(&h->f[GF_TRACK], c, o->track_v2, op->tid,
			    op->tt - c->tick, op->device, op->stream + 2,
			    (uint32_t)s->batch << 16, 98, 0);
			gen_prof_bin_flip(&dev[op->device].flips, (s->last_end +
			    cnt) / 2, (uint16_t)(op->stream + 2), s->batch);
			s->next = 1;
		}
		if (o->chip == GEN_PROF_950)
			/* One 32-bit id space per device, never flipped. */
			op->task = dnext[op->device]++;
		else
			op->task = (uint16_t)s->next++;
		op->batch = s->batch;
		gen_prof_track(&h->f[GF_TRACK], c, o->track_v2, op->tid, op->tt,
		    op->device,
		    op->stream + 2, (uint32_t)op->batch << 16 | op->task,
		    (uint32_t)g->kinds[op->kind].rt, gen_prof_core_hash(
		    g->kinds[op->kind].type));
		for (k = 0; k < (op->nctx > 0 ? op->nctx : 1); k++) {
			op->dur[k] = (op->dur[k] + c->dtick - 1) / c->dtick *
			    c->dtick;
			gen_prof_add_task(g, i, op->nctx > 0 ? k : -1, start,
			    op->dur[k]);
			s->free = start + op->dur[k];
			s->last_end = gen_prof_core_syscnt(c, s->free);
			start = s->free + c->dtick * gen_prof_core_range(g, 1,
			    20);
		}
	}
	free(ss);
	free(dnext);
}

/* Write the task logs of every device, in time order (section 4). */
static void
gen_prof_logs(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	struct gen_prof_log	*l;
	const struct gen_prof_task *t;
	const struct gen_prof_op *op;
	size_t			 i, n = 0;
	int			 cnt[64] = { 0 }, pcnt[64] = { 0 }, sqe;
	uint64_t		 total, pmu[8];

	l = xreallocarray(NULL, 2 * g->ntasks + 1, sizeof *l);
	for (i = 0; i < g->ntasks; i++) {
		l[n].syscnt = gen_prof_core_syscnt(c, g->tasks[i].start);
		l[n].task = (uint32_t)i;
		l[n++].end = 0;
		l[n].syscnt = gen_prof_core_syscnt(c, g->tasks[i].start +
		    g->tasks[i].dur);
		l[n].task = (uint32_t)i;
		l[n++].end = 1;
	}
	qsort(l, n, sizeof *l, gen_prof_log_cmp);
	for (i = 0; i < n; i++) {
		t = &g->tasks[l[i].task];
		op = &g->ops[t->op];
		sqe = g->kinds[op->kind].sqe;
		if (g->o->chip == GEN_PROF_950)
			gen_prof_bin_stars_v6(&dev[op->device].logs, l[i].end,
			    cnt[op->device]++, sqe, op->task, l[i].syscnt);
		else if (g->o->chip != GEN_PROF_910B)
			gen_prof_bin_hwts(&dev[op->device].logs, l[i].end,
			    cnt[op->device]++, sqe, (uint16_t)(op->stream + 2),
			    (uint16_t)op->task, l[i].syscnt);
		else if (t->ctx >= 0)
			gen_prof_bin_stars(&dev[op->device].logs, 34 + l[i].end,
			    cnt[op->device]++, sqe, (uint16_t)(op->stream + 2),
			    (uint16_t)op->task, l[i].syscnt, 6, op->ctx[t->ctx]);
		else
			gen_prof_bin_stars(&dev[op->device].logs, l[i].end,
			    cnt[op->device]++, sqe, (uint16_t)(op->stream + 2),
			    (uint16_t)op->task, l[i].syscnt, 0, 0);
		if (l[i].end && gen_prof_core_pmu(g, l[i].task, &total, pmu))
			gen_prof_bin_pmu(&dev[op->device].pmu, g->o->chip ==
			    GEN_PROF_910B, pcnt[op->device]++,
			    (uint16_t)(op->stream + 2), (uint16_t)op->task,
			    t->ctx >= 0 ?
			    op->ctx[t->ctx] : -1, t->ctx >= 0 ? 6 : 0, total,
			    pmu, gen_prof_core_syscnt(c, t->start),
			    l[i].syscnt);
	}
	free(l);
}

static int
gen_prof_mkdir(const char *path, char **cause)
{
	if (util_mkdir_p(path, 0755) != 0) {
		xasprintf(cause, "cannot create '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* info.json, sample.json, start_info, end_info (section 2). */
static int
gen_prof_meta(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *dir, int device, char **cause)
{
	static const char *const plat[] = { "5", "1", "4", "15" };
	static const char *const hwts[] = { "50", "100", "100", "50" };
	static const char *const aic[] = { "1800", "1000", "1080", "1800" };
	const struct gen_prof_opts *o = g->o;
	struct strbuf	 b;
	char		 sfx[16], *name;
	int		 rc;

	snprintf(sfx, sizeof sfx, device < 0 ? "" : ".%d", device);
	strbuf_init(&b);
	strbuf_addf(&b, "{\"jobInfo\":\"NA\",\"version\":\"1.0\","
	    "\"devices\":\"%d\",\"hostname\":\"gen-node\",\"CPU\":[{\"Id\":0,"
	    "\"Name\":\"HiSilicon\",\"Frequency\":\"%s\","
	    "\"Logical_CPU_Count\":1,\"Type\":\"Kunpeng-920\"}],"
	    "\"DeviceInfo\":[", device < 0 ? 64 : device,
	    o->host_mhz > 0 ? "100.000000" : "");
	if (device >= 0)
		strbuf_addf(&b, "{\"id\":%d,\"ai_core_num\":%d,\"aiv_num\":%d,"
		    "\"hwts_frequency\":\"%s\",\"aic_frequency\":\"%s\","
		    "\"aiv_frequency\":\"%s\"}", device,
		    GEN_PROF_STARS(o) ? 24 : 8,
		    GEN_PROF_STARS(o) ? 48 : 0, hwts[o->chip],
		    aic[o->chip], aic[o->chip]);
	strbuf_addf(&b, "],\"platform_version\":\"%s\",\"pid\":\"%llu\","
	    "\"memoryTotal\":791800000,\"netCard\":[],\"rank_id\":%d,"
	    "\"drvVersion\":467732,\"cannVersion\":\"8.0.0\"}\n",
	    plat[o->chip], (unsigned long long)(o->seed * 7 + 4242), o->rank);
	xasprintf(&name, "info.json%s", sfx);
	rc = gen_prof_bin_text(dir, name, b.s, cause);
	free(name);
	strbuf_reset(&b);
	strbuf_addf(&b, "{\"devices\":\"%d\",\"profLevel\":\"l1\","
	    "\"ai_core_profiling\":\"%s\",\"ai_core_profiling_mode\":"
	    "\"task-based\",\"ai_core_metrics\":\"%s\","
	    "\"ai_core_profiling_events\":\"%s\",\"llc_profiling\":\"\"}\n",
	    device < 0 ? 64 : device, o->pmu ? "on" : "off",
	    o->arith ? "ArithmeticUtilization" : "PipeUtilization",
	    gen_prof_core_events(g));
	if (rc == 0)
		rc = gen_prof_bin_text(dir, "sample.json", b.s, cause);
	strbuf_reset(&b);
	strbuf_addf(&b, "{\"collectionDateBegin\":\"\",\"collectionTimeBegin\":"
	    "\"%lld\",\"clockMonotonicRaw\":\"%lld\"}\n",
	    (long long)c->begin_us, (long long)c->begin);
	xasprintf(&name, "start_info%s", sfx);
	if (rc == 0)
		rc = gen_prof_bin_text(dir, name, b.s, cause);
	free(name);
	strbuf_reset(&b);
	strbuf_addf(&b, "{\"collectionDateEnd\":\"\",\"collectionTimeEnd\":"
	    "\"%lld\",\"clockMonotonicRaw\":\"%lld\"}\n",
	    (long long)(c->begin_us + (c->end - c->begin) / 1000),
	    (long long)c->end);
	xasprintf(&name, "end_info%s", sfx);
	if (rc == 0)
		rc = gen_prof_bin_text(dir, name, b.s, cause);
	free(name);
	strbuf_release(&b);
	return rc;
}

/*
 * The clock pair files (section 2.5): the host's monotonic time and
 * counter read together, cntvct_diff ticks apart.
 */
static int
gen_prof_clocks(const struct gen_prof_clock *c, const char *dir, int device,
    char **cause)
{
	char	*text, *name, sect[32];
	int64_t	 sync = device < 0 ? c->sync : c->dsync;
	int	 rc;

	if (device < 0)
		snprintf(sect, sizeof sect, "Host");
	else
		snprintf(sect, sizeof sect, "Device%d", device);
	xasprintf(&text, "[%s]\nclock_monotonic_raw: %lld\ncntvct: %llu\n"
	    "cntvct_diff: %lld\n", sect, (long long)(sync - c->diff * c->tick),
	    (unsigned long long)gen_prof_core_host_raw(c, sync),
	    (long long)c->diff);
	if (device < 0)
		xasprintf(&name, "host_start.log");
	else
		xasprintf(&name, "host_start.log.%d", device);
	rc = gen_prof_bin_text(dir, name, text, cause);
	free(text);
	free(name);
	if (rc != 0 || device < 0)
		return rc;
	xasprintf(&text, "clock_monotonic_raw: %lld\ncntvct: %llu\n",
	    (long long)(c->dsync + 777), (unsigned long long)c->dsync_cnt);
	xasprintf(&name, "dev_start.log.%d", device);
	rc = gen_prof_bin_text(dir, name, text, cause);
	free(text);
	free(name);
	return rc;
}

/* hash_dic and type_info_dic (section 3.4). */
static int
gen_prof_dicts(struct gen_prof *g, const char *data, char **cause)
{
	struct strbuf	 b, types;
	int		 i, j, rc;

	strbuf_init(&b);
	strbuf_init(&types);
	gen_prof_extra_dicts(g, &b, &types);
	gen_prof_hccl_dicts(g, &b, &types);
	for (i = 0; i < g->nkinds; i++) {
		for (j = 0; j < GEN_PROF_NAMES; j++)
			strbuf_addf(&b, "%llu:%s\n", (unsigned long long)
			    gen_prof_core_hash(g->names[i][j]), g->names[i][j]);
		if (!g->o->missing_dict ||
		    strcmp(g->kinds[i].type, "DropOutDoMask") != 0)
			strbuf_addf(&b, "%llu:%s\n", (unsigned long long)
			    gen_prof_core_hash(g->kinds[i].type),
			    g->kinds[i].type);
	}
	if (g->nmarkers > 0)
		strbuf_addf(&b, "%llu:domain-net\n", (unsigned long long)
		    gen_prof_core_hash("domain-net"));
	rc = gen_prof_bin_text(data, "unaging.additional.hash_dic.slice_0", b.s,
	    cause);
	strbuf_reset(&b);
	strbuf_adds(&b, "10000_0:node_basic_info\n10000_5:launch\n"
	    "15000_1:ModelExecute\n5000_0:KERNEL_AICORE\n5000_66:KERNEL_AIVEC\n"
	    "5000_108:KERNEL_MIX_AIC\n5000_98:FLIP_TASK\n5000_6:MAINTENANCE\n"
	    "5000_802:task_track\n");
	if (g->o->aicpu)
		strbuf_adds(&b, "5000_1:KERNEL_AICPU\n");
	for (i = 0; i < 64; i++) {
		if (i == 3 || i == 9 || i == 14 || i == 63)
			strbuf_addf(&b, "5000_%d:%s\n", 1000 + i,
			    gen_prof_rt_name(i));
	}
	for (i = 0; i < g->nkinds; i++)
		strbuf_addf(&b, "20000_%u:%s\n", gen_prof_acl_type(g,
		    g->kinds[i].acl, 5), g->kinds[i].acl);
	for (i = 0; i < (int)GEN_PROF_NCALLS; i++)
		strbuf_addf(&b, "20000_%u:%s\n", gen_prof_acl_type(g,
		    gen_prof_calls[i].acl, gen_prof_calls[i].cls),
		    gen_prof_calls[i].acl);
	if (types.s != NULL)
		strbuf_adds(&b, types.s);
	if (rc == 0)
		rc = gen_prof_bin_text(data,
		    "unaging.additional.type_info_dic.slice_0",
		    b.s, cause);
	strbuf_release(&types);
	strbuf_release(&b);
	return rc;
}

static void
gen_prof_clock_init(struct gen_prof *g, struct gen_prof_clock *c)
{
	memset(c, 0, sizeof *c);
	c->tick = g->o->host_mhz > 0 ? 1000 / g->o->host_mhz : 1;
	c->dtick = GEN_PROF_STARS(g->o) ? 20 : 10;
	c->begin = gen_prof_core_range(g, 50, 900) * 1000000000000LL;
	c->begin_us = (1748736000LL + gen_prof_core_range(g, 0, 86400 * 30)) *
	    1000000 + gen_prof_core_range(g, 0, 1000000);
	c->sync = c->begin - GEN_PROF_HOST_ANCHOR * 10;
	c->sync_cnt = (uint64_t)gen_prof_core_range(g, 1000000000000LL,
	    10000000000000LL);
	c->dsync = c->begin - GEN_PROF_DEV_ANCHOR * 10;
	c->dsync_cnt = (uint64_t)gen_prof_core_range(g, 100000000000LL,
	    1000000000000LL);
	c->diff = g->o->host_mhz > 0 ? gen_prof_core_range(g, 3, 40) : 0;
	g->local_off = c->begin_us * 1000 - c->begin;
}

/* Generate every host record; the ops are left in g->ops. */
static void
gen_prof_host(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c)
{
	const struct gen_prof_opts *o = g->o;
	bool		*static_names;
	int64_t		 left_ops = o->ops, left_apis = o->apis;
	int		 i, t = 0;

	static_names = xcalloc((size_t)g->nkinds * GEN_PROF_NAMES, 1);
	for (i = 0; i < g->nkinds * GEN_PROF_NAMES; i++)
		static_names[i] = (int)(gen_prof_core_rand(
		    g) % 100) < o->static_pct;
	h->tids = xcalloc((size_t)o->threads, sizeof *h->tids);
	h->request = xcalloc((size_t)o->threads, sizeof *h->request);
	h->cursor = xcalloc((size_t)o->threads, sizeof *h->cursor);
	for (i = 0; i < o->threads; i++) {
		h->tids[i] = 100000 + (uint32_t)i * 1111 +
		    (uint32_t)(gen_prof_core_rand(g) % 1000);
		h->cursor[i] = c->begin + gen_prof_core_align(c,
		    gen_prof_core_range(g, 1000000, 5000000));
	}
	g->ops = xcalloc((size_t)o->ops + 1, sizeof *g->ops);
	if (o->extras)
		gen_prof_extra_graphs(g, h, c);
	if (o->aicpu)
		gen_prof_extra_mc2(g, h, c);
	while (left_ops + left_apis > 0) {
		if (o->hccl && gen_prof_core_rand(g) % 10 == 0)
			gen_prof_hccl_op(g, h, c, t);
		else if (o->extras && gen_prof_core_rand(g) % 16 == 0)
			gen_prof_extra_hccl(g, h, c, t);
		else if (o->extras && gen_prof_core_rand(g) % 16 == 0)
			gen_prof_extra_memcpy(g, h, c, t);
		else if ((int64_t)(gen_prof_core_rand(g) % (uint64_t)(left_ops +
		    left_apis)) < left_ops) {
			gen_prof_launch(g, h, c, t, static_names);
			left_ops--;
		} else {
			gen_prof_call(g, h, c, t);
			left_apis--;
		}
		t = (t + 1) % o->threads;
	}
	free(static_names);
}

static int
gen_prof_write_host(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, const char *root, char **cause)
{
	char	*dir, *data;
	int	 i, rc;

	dir = util_path_join(root, "host");
	data = util_path_join(dir, "data");
	rc = gen_prof_mkdir(data, cause);
	if (rc == 0)
		rc = gen_prof_meta(g, c, dir, -1, cause);
	if (rc == 0)
		rc = gen_prof_clocks(c, dir, -1, cause);
	for (i = 0; rc == 0 && i < GF_NFILES; i++) {
		if (h->f[i].len > 0)
			rc = gen_prof_bin_slices(data, gen_prof_files[i],
			    &h->f[i],
			    g->o->host_slice, gen_prof_records[i], cause);
	}
	if (rc == 0)
		rc = gen_prof_dicts(g, data, cause);
	free(data);
	free(dir);
	return rc;
}

static int
gen_prof_write_dev(struct gen_prof *g, struct gen_prof_dev *d,
    const struct gen_prof_clock *c, const char *root, int device,
    char **cause)
{
	struct gen_buf	 blob;
	char		*dir, *data, name[64];
	int		 rc, i;

	xasprintf(&dir, "%s/device_%d", root, device);
	data = util_path_join(dir, "data");
	rc = gen_prof_mkdir(data, cause);
	if (rc == 0)
		rc = gen_prof_meta(g, c, dir, device, cause);
	if (rc == 0)
		rc = gen_prof_clocks(c, dir, device, cause);
	memset(&blob, 0, sizeof blob);
	/* Bytes of a ring buffer's lost head (section 1.2). */
	for (i = 0; i < g->o->head_skip; i++)
		gen_prof_bin_buf_add(&blob, &(unsigned char){ 0xA5 }, 1);
	gen_prof_bin_buf_add(&blob, d->logs.p, d->logs.len);
	snprintf(name, sizeof name, "%s.%d", GEN_PROF_STARS(g->o) ?
	    "stars_soc.data" : "hwts.data", device);
	if (rc == 0 && blob.len > 0)
		rc = gen_prof_bin_slices(data, name, &blob, g->o->dev_slice, 0,
		    cause);
	snprintf(name, sizeof name, "%s.%d", g->o->chip == GEN_PROF_910B ?
	    "ffts_profile.data" : "aicore.data", device);
	if (rc == 0 && d->pmu.len > 0)
		rc = gen_prof_bin_slices(data, name, &d->pmu, g->o->dev_slice,
		    0,
		    cause);
	snprintf(name, sizeof name, "aicpu.data.%d", device);
	if (rc == 0 && d->aicpu.len > 0)
		rc = gen_prof_bin_slices(data, name, &d->aicpu, g->o->dev_slice,
		    256, cause);
	snprintf(name, sizeof name, "lpmFreqConv.data.%d", device);
	if (rc == 0 && d->freq.len > 0)
		rc = gen_prof_bin_slices(data, name, &d->freq, g->o->dev_slice,
		    0,
		    cause);
	snprintf(name, sizeof name, "ts_track.data.%d", device);
	if (rc == 0 && d->flips.len > 0)
		rc = gen_prof_bin_slices(data, name, &d->flips, g->o->dev_slice,
		    0,
		    cause);
	gen_prof_bin_buf_free(&blob);
	free(data);
	free(dir);
	return rc;
}

static void
gen_prof_free(struct gen_prof *g, struct gen_prof_host *h,
    struct gen_prof_dev *dev)
{
	int	 i;

	for (i = 0; i < GF_NFILES; i++)
		gen_prof_bin_buf_free(&h->f[i]);
	free(h->tids);
	free(h->request);
	free(h->cursor);
	for (i = 0; dev != NULL && i < g->o->devices; i++) {
		gen_prof_bin_buf_free(&dev[i].logs);
		gen_prof_bin_buf_free(&dev[i].flips);
		gen_prof_bin_buf_free(&dev[i].pmu);
		gen_prof_bin_buf_free(&dev[i].freq);
		gen_prof_bin_buf_free(&dev[i].aicpu);
	}
	free(dev);
	free(g->ops);
	free(g->tasks);
	free(g->api);
	free(g->iters);
	gen_prof_mstx_free(g);
	gen_prof_extra_free(g);
	gen_prof_hccl_free(g);
}

/*
 * Write a raw PROF_ collection directory under DIR as O says, and the expected
 * tables into O->expect if set. On failure return -1 and set *cause.
 */
int
gen_prof_write(const char *dir, const struct gen_prof_opts *o, char **cause)
{
	struct gen_prof		 g;
	struct gen_prof_clock	 c;
	struct gen_prof_host	 h;
	struct gen_prof_dev	*dev;
	char			*root, *top;
	int			 i, j, rc = 0;

	if (o->ops < 1 || o->streams < 1 || o->streams > 2000 ||
	    o->threads < 1 || o->devices < 1 || o->devices > 8 ||
	    o->apis < 0 || o->chip < 0 || o->chip > GEN_PROF_950) {
		xasprintf(cause, "bad generator sizes");
		return -1;
	}
	/* What chip V6's records of are not known well enough to write. */
	if (o->chip == GEN_PROF_950 && (o->pmu || o->steps > 0 ||
	    o->copies)) {
		xasprintf(cause, "chip 950: no -p, -t or -G");
		return -1;
	}
	if (o->aicpu && (o->chip != GEN_PROF_910B || o->pmu)) {
		xasprintf(cause, "-C: chip 910B only, no -p");
		return -1;
	}
	if (o->nest && (!o->aicpu || o->devices < 2)) {
		xasprintf(cause, "-N: with -C and two devices or more");
		return -1;
	}
	if (o->hccl && (o->chip != GEN_PROF_910B || o->extras || o->threads >
	    16)) {
		xasprintf(cause, "-L: chip 910B only, no -g, at most 16 "
		    "threads");
		return -1;
	}
	memset(&g, 0, sizeof g);
	memset(&h, 0, sizeof h);
	g.o = o;
	g.rng = o->seed;
	g.kinds = GEN_PROF_STARS(o) ? gen_prof_stars : gen_prof_hwts;
	g.nkinds = GEN_PROF_STARS(o) ? (int)(sizeof gen_prof_stars /
	    sizeof gen_prof_stars[0]) - (o->aicpu ? 0 : 1) :
	    (int)(sizeof gen_prof_hwts / sizeof gen_prof_hwts[0]);
	snprintf(g.missing, sizeof g.missing, "%llu", (unsigned long long)
	    gen_prof_core_hash("DropOutDoMask"));
	for (i = 0; i < g.nkinds; i++) {
		for (j = 0; j < GEN_PROF_NAMES; j++)
			snprintf(g.names[i][j], sizeof g.names[i][j], "%s-op%d",
			    g.kinds[i].type, 1
			    + (int)(gen_prof_core_rand(&g) % 400));
	}
	gen_prof_clock_init(&g, &c);
	gen_prof_host(&g, &h, &c);
	dev = xcalloc((size_t)o->devices, sizeof *dev);
	gen_prof_schedule(&g, &h, &c, dev);
	gen_prof_extra_captures(&g, &h, &c);
	gen_prof_logs(&g, &c, dev);
	gen_prof_extra_copies(&g, &c, dev);
	gen_prof_hccl_logs(&g, &c, dev);
	if (o->aicpu)
		gen_prof_extra_aicpu(&g, &c, dev);
	c.end = c.begin;
	for (i = 0; i < o->threads; i++)
		c.end = h.cursor[i] > c.end ? h.cursor[i] : c.end;
	for (i = 0; i < (int)g.ntasks; i++) {
		if (g.tasks[i].start + g.tasks[i].dur > c.end)
			c.end = g.tasks[i].start + g.tasks[i].dur;
	}
	c.end = gen_prof_core_align(&c, c.end + 5000000);
	gen_prof_step_all(&g, &c, dev);
	gen_prof_freqs(&g, &c, dev);
	gen_prof_mstx(&g, &c, h.tids, &h.f[GF_MSTX]);
	if (o->torch || o->mindspore) {
		xasprintf(&top, "%s/gen%llu_ascend_%s", dir,
		    (unsigned long long)o->seed, o->torch ? "pt" : "ms");
		if (gen_prof_mkdir(top, cause) != 0) {
			free(top);
			gen_prof_free(&g, &h, dev);
			return -1;
		}
	} else
		top = xstrdup(dir);
	/* torch_npu's analysis wants a time stamp in the name. */
	if (o->torch || o->mindspore)
		xasprintf(&root, "%s/PROF_000001_20250601000000%03llu_%sGEN",
		    top, (unsigned long long)(o->seed % 1000),
		    gen_prof_chips[o->chip]);
	else
		xasprintf(&root, "%s/PROF_000001_%s_GEN%013llu", top,
		    gen_prof_chips[o->chip], (unsigned long long)(o->seed %
		    10000000));
	rc = gen_prof_write_host(&g, &h, &c, root, cause);
	for (i = 0; rc == 0 && i < o->devices; i++)
		rc = gen_prof_write_dev(&g, &dev[i], &c, root, i, cause);
	if (rc == 0 && o->expect != NULL)
		rc = gen_prof_expect(&g, o->expect, cause);
	if (rc == 0 && o->expect != NULL)
		rc = gen_prof_step_expect(&g, o->expect, cause);
	if (rc == 0 && o->expect != NULL)
		rc = gen_prof_mstx_expect(&g, o->expect, cause);
	if (rc == 0 && o->expect != NULL)
		rc = gen_prof_extra_expect(&g, o->expect, cause);
	if (rc == 0 && o->expect != NULL)
		rc = gen_prof_hccl_expect(&g, &c, o->expect, cause);
	if (rc == 0 && o->modmem)
		rc = gen_prof_modmem(&g, &c, root, o->expect, cause);
	if (rc == 0 && o->torch)
		rc = gen_prof_fwk(&g, &c, h.tids, top, root, o->expect,
		    cause);
	else if (rc == 0 && o->mindspore)
		rc = gen_prof_ms(&g, &c, top, root, o->expect, cause);
	free(top);
	free(root);
	gen_prof_free(&g, &h, dev);
	return rc;
}
