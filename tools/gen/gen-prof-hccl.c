/*
 * HCCL ops (-L) for the raw PROF generator, as the runtime records them
 * (doc/formats.md section 3.10): an ACL span, a node span with its
 * node_basic_info (GE type COMMUNICATION) and hccl_op_info, and inside it
 * one HCCL span per task (type master or slave), each holding the task's
 * hccl_info and task_track records. The tasks run on their device on one
 * stream per thread and plane, in launch order. Three op kinds follow the
 * patterns the vendor's analysis looks for: an all-reduce (SDMA copies on
 * chip links, reduces, notify waits on a master and a slave plane, an
 * RDMA payload closed by 4 tasks), a send on a second group (a copy on
 * chip, RDMA payloads closed by 2 tasks), a broadcast, and the
 * all-reduce in graph mode: its tasks the contexts of one FFTS+ task,
 * with a context range record at the HCCL level. With -r R/N
 * the collection is rank R of N (info.json's rank_id, the local rank of
 * every hccl_info, its peers so many ranks on, modulo N; else rank 2 of
 * 16). Each task is
 * also written to hccl_truth.csv in the expect directory, with what the
 * communication tables are made of; tests/importers/prof/hccl-expect.py
 * computes the expected tables from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_HCCL_STREAM		40	/* + 4 * thread + plane */
#define GEN_HCCL_MASTER		0x010001u
#define GEN_HCCL_SLAVE		0x010002u
#define GEN_HCCL_RANKS		16	/* ranks in a group */
#define GEN_HCCL_NO_RANK	4294967295U

/* hccl_info enums (section 3.6). */
enum { GT_SDMA, GT_RDMA };
enum { GL_ON_CHIP, GL_HCCS, GL_PCIE, GL_ROCE, GL_SIO, GL_HCCS_SW };
enum { GR_NOTIFY, GR_PAYLOAD, GR_NONE = 255 };

/* One task of an op pattern. */
struct gen_hccl_step {
	const char	*name;
	int		 plane;
	int		 transport;
	int		 link;
	int		 rdma;
	int		 remote;	/* ranks on, -1: none (0xFFFFFFFF) */
	int64_t		 dur;		/* mean ns */
	bool		 sized;
};

static const struct gen_hccl_step gen_hccl_allreduce[] = {
	{ "Notify_Wait", 0, GT_SDMA, GL_HCCS, GR_NONE, 3, 9000, false },
	{ "Notify_Record", 1, GT_SDMA, GL_HCCS, GR_NONE, 3, 600, false },
	{ "Memcpy", 0, GT_SDMA, GL_HCCS, GR_NONE, 3, 30000, true },
	{ "Memcpy", 1, GT_SDMA, GL_PCIE, GR_NONE, 5, 45000, true },
	{ "Notify_Wait", 1, GT_SDMA, GL_PCIE, GR_NONE, 5, 7000, false },
	{ "Reduce_Inline", 0, GT_SDMA, GL_HCCS_SW, GR_NONE, 6, 25000, true },
	{ "Memcpy", 0, GT_SDMA, GL_ON_CHIP, GR_NONE, -1, 8000, true },
	{ "Notify_Wait", 0, GT_SDMA, GL_HCCS, GR_NONE, 3, 4000, false },
	{ "RDMASend", 2, GT_RDMA, GL_ROCE, GR_PAYLOAD, 10, 20000, true },
	{ "RDMASend", 2, GT_RDMA, GL_ROCE, GR_NOTIFY, 10, 1500, false },
	{ "Notify_Wait", 2, GT_RDMA, GL_ROCE, GR_NONE, 10, 6000, false },
	{ "RDMASend", 2, GT_RDMA, GL_ROCE, GR_NOTIFY, 10, 1500, false },
	{ "Notify_Wait", 2, GT_RDMA, GL_ROCE, GR_NONE, 10, 3000, false },
	{ "Memcpy", 0, GT_SDMA, GL_SIO, GR_NONE, 3, 12000, true },
	{ "Notify_Record", 0, GT_SDMA, GL_HCCS, GR_NONE, 3, 500, false }
};
static const struct gen_hccl_step gen_hccl_send[] = {
	{ "Memcpy", 0, GT_SDMA, GL_ON_CHIP, GR_NONE, -1, 6000, true },
	{ "Notify_Wait", 0, GT_RDMA, GL_ROCE, GR_NONE, 7, 5000, false },
	{ "RDMASend", 0, GT_RDMA, GL_ROCE, GR_PAYLOAD, 7, 30000, true },
	{ "RDMASend", 0, GT_RDMA, GL_ROCE, GR_PAYLOAD, 7, 30000, true },
	{ "RDMASend", 0, GT_RDMA, GL_ROCE, GR_NOTIFY, 7, 1000, false },
	{ "Notify_Wait", 0, GT_RDMA, GL_ROCE, GR_NONE, 7, 4000, false },
	{ "Notify_Record", 0, GT_RDMA, GL_ROCE, GR_NONE, 7, 500, false }
};
static const struct gen_hccl_step gen_hccl_bcast[] = {
	{ "Notify_Wait", 0, GT_SDMA, GL_HCCS, GR_NONE, 1, 2000, false },
	{ "Memcpy", 0, GT_SDMA, GL_HCCS, GR_NONE, 1, 15000, true },
	{ "Memcpy", 1, GT_SDMA, GL_HCCS, GR_NONE, 15, 15000, true },
	{ "Notify_Wait", 1, GT_SDMA, GL_HCCS, GR_NONE, 15, 2500, false },
	{ "Notify_Record", 0, GT_SDMA, GL_HCCS, GR_NONE, 1, 400, false }
};

static const struct {
	const char			*acl;
	const char			*node;
	const char			*type;
	const char			*group;
	const struct gen_hccl_step	*steps;
	size_t				 nsteps;
	bool				 ffts;	/* one FFTS+ task */
} gen_hccl_kinds[] = {
	{ "HcclAllReduce", "hcom_allReduce_", "HcomAllReduce",
	  "10.0.0.1%enp189s0f0_60000_0_1749700000586", gen_hccl_allreduce,
	  sizeof gen_hccl_allreduce / sizeof gen_hccl_allreduce[0], false },
	{ "HcclSend", "hcom_send_", "HcomSend",
	  "10.0.0.1%enp189s0f0_60001_0_1749700000822", gen_hccl_send,
	  sizeof gen_hccl_send / sizeof gen_hccl_send[0], false },
	{ "HcclBroadcast", "hcom_broadcast_", "HcomBroadcast",
	  "10.0.0.1%enp189s0f0_60000_0_1749700000586", gen_hccl_bcast,
	  sizeof gen_hccl_bcast / sizeof gen_hccl_bcast[0], false },
	/* Graph mode: the all-reduce's tasks as contexts of one FFTS+ task. */
	{ "HcclAllReduce", "hcom_allReduce_", "HcomAllReduce",
	  "10.0.0.1%enp189s0f0_60000_0_1749700000586", gen_hccl_allreduce,
	  sizeof gen_hccl_allreduce / sizeof gen_hccl_allreduce[0], true }
};
#define GEN_HCCL_NKINDS	(sizeof gen_hccl_kinds / sizeof gen_hccl_kinds[0])

/* Runtime task types of the HCCL tasks, from 5000_40 on. */
static const char *const gen_hccl_rt[] = {
	"NOTIFY_WAIT", "NOTIFY_RECORD", "MEMCPY_ADDR_ASYNC", "RDMA_SEND",
	"FFTS_PLUS"
};
#define GEN_HCCL_RT_FFTS	44

static int
gen_prof_hccl_rt_type(const char *name)
{
	if (strcmp(name, "Notify_Wait") == 0)
		return 40;
	if (strcmp(name, "Notify_Record") == 0)
		return 41;
	if (strcmp(name, "RDMASend") == 0)
		return 43;
	return 42;
}

/* This collection's rank in its groups: -r, else 2. */
static uint32_t
gen_prof_hccl_local(const struct gen_prof *g)
{
	return g->o->rank >= 0 ? (uint32_t)g->o->rank : 2;
}

/* The ranks of a group: -r's, else 16. */
static uint32_t
gen_prof_hccl_ranks(const struct gen_prof *g)
{
	return g->o->rank >= 0 ? (uint32_t)g->o->ranks : GEN_HCCL_RANKS;
}

/* The remote rank of step S: so many ranks on (never itself), or none. */
static uint32_t
gen_prof_hccl_remote(const struct gen_prof *g, const struct gen_hccl_step *s)
{
	uint32_t	 n = gen_prof_hccl_ranks(g), r;

	if (s->remote < 0)
		return GEN_HCCL_NO_RANK;
	r = (gen_prof_hccl_local(g) + (uint32_t)s->remote) % n;
	return r != gen_prof_hccl_local(g) || n == 1 ? r : (r + 1) % n;
}

/*
 * The per-stream state: the last task id, the flips so far and when the
 * stream is free.
 */
struct gen_hccl_stream {
	uint32_t	 next;
	uint16_t	 batch;
	bool		 started;
	int64_t		 free;
};

/* A flip of an HCCL stream's task ids: written with the device's logs. */
struct gen_hccl_flip {
	int		 device;
	int		 stream;
	uint16_t	 batch;
	int64_t		 at;		/* host mono ns, after the last end */
};

static struct gen_hccl_stream *
gen_prof_hccl_stream(struct gen_prof *g, int device, int stream)
{
	size_t	 i = (size_t)device * 64 + (size_t)(stream - GEN_HCCL_STREAM);

	if (g->hstreams == NULL)
		g->hstreams = xcalloc(8 * 64, sizeof (struct gen_hccl_stream));
	return &((struct gen_hccl_stream *)g->hstreams)[i];
}

/*
 * The next task id of stream ST (DEVICE, STREAM) for a task launched at
 * TT on thread T. Ids are 16 bits: past 65535 the stream flips, as the
 * runtime does, with a FLIP task_track record on the host and a flip in
 * the device's ts_track, and the ids start again at 1. With -w the ids
 * start near the wrap, so that small collections flip too.
 */
static uint32_t
gen_prof_hccl_next(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int device, int stream,
    struct gen_hccl_stream *st, int64_t tt)
{
	struct gen_hccl_flip	*f;

	if (!st->started) {
		st->started = true;
		if (g->o->wrap)
			st->next = 0xFFFF - 40;
	}
	if (st->next >= 0xFFFF) {
		st->batch++;
		st->next = 0;
		gen_prof_track(&h->f[GF_TRACK], c, g->o->track_v2, h->tids[t],
		    tt - c->tick, device, stream, (uint32_t)st->batch << 16,
		    98, 0);
		g->hflips = util_grow(g->hflips, g->nhflips, 1, sizeof *f);
		f = &((struct gen_hccl_flip *)g->hflips)[g->nhflips++];
		f->device = device;
		f->stream = stream;
		f->batch = st->batch;
		f->at = st->free;
	}
	return ++st->next;
}

/* The hccl_info record of step S at TS. */
static void
gen_prof_hccl_info(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int64_t ts,
    const struct gen_hccl_step *s, const char *group, uint64_t size,
    uint32_t ctx)
{
	struct gen_buf	*f = &h->f[GF_HCCL];
	double		 est = (double)s->dur;

	gen_prof_bin_head(f, 5500, 2, h->tids[t], 116,
	    gen_prof_core_host_raw(c, ts));
	gen_prof_bin_buf_u64(f, gen_prof_core_hash(s->name));
	gen_prof_bin_buf_u64(f, 0);
	gen_prof_bin_buf_u64(f, gen_prof_core_hash(group));
	gen_prof_bin_buf_u32(f, gen_prof_hccl_local(g));
	gen_prof_bin_buf_u32(f, gen_prof_hccl_remote(g, s));
	gen_prof_bin_buf_u32(f, gen_prof_hccl_ranks(g));	/* rank size */
	gen_prof_bin_buf_u32(f, 0);			/* work flow mode */
	gen_prof_bin_buf_u32(f, (uint32_t)s->plane);
	gen_prof_bin_buf_u32(f, ctx);			/* context id */
	gen_prof_bin_buf_u64(f, gen_prof_core_rand(g) % 100000);
	gen_prof_bin_buf_u32(f, 0);			/* stage */
	gen_prof_bin_buf_u32(f, 0);			/* role */
	gen_prof_bin_buf_u64(f, 0);
	memcpy(f->p + f->len - 8, &est, 8);
	gen_prof_bin_buf_u64(f, 0x1000);
	gen_prof_bin_buf_u64(f, 0x2000);
	gen_prof_bin_buf_u64(f, size);
	gen_prof_bin_buf_u32(f, 0);			/* reduce op */
	gen_prof_bin_buf_u32(f, 3);			/* FP16 */
	gen_prof_bin_buf_u32(f, (uint32_t)s->link);
	gen_prof_bin_buf_u32(f, (uint32_t)s->transport);
	gen_prof_bin_buf_u32(f, s->rdma == GR_NONE ? 255 : (uint32_t)s->rdma);
	gen_prof_bin_buf_pad(f, 256);
}

/* The bytes step S moves: up to 2 MB, one in eight above 32 MB. */
static uint64_t
gen_prof_hccl_size(struct gen_prof *g, const struct gen_hccl_step *s)
{
	if (!s->sized)
		return 0;
	if (gen_prof_core_rand(g) % 8 == 0)
		return 33554432 + 1024 * (gen_prof_core_rand(g) % 8192);
	return 256 * (1 + gen_prof_core_rand(g) % 8192);
}

/* Run step S of an op on DEVICE from host time TT: its device times. */
static void
gen_prof_hccl_run(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_hccl_stream *st, int64_t tt, const struct gen_hccl_step *s,
    int64_t *start, int64_t *dur)
{
	*start = tt + gen_prof_core_range(g, 2000, 6000);
	if (*start < st->free + 100)
		*start = st->free + gen_prof_core_range(g, 100, 900);
	*start = c->dsync + (*start - c->dsync + c->dtick - 1) / c->dtick *
	    c->dtick;
	*dur = s->dur / 2 + gen_prof_core_range(g, 0, s->dur);
	*dur = (*dur + c->dtick - 1) / c->dtick * c->dtick;
	st->free = *start + *dur;
}

/* Step S of op kind K on thread T, in HCCL span HB..HE, on DEVICE. */
static void
gen_prof_hccl_task(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int device, int k,
    const struct gen_hccl_step *s, int64_t hb, int64_t he)
{
	struct gen_prof_htask	*x;
	struct gen_hccl_stream	*st;
	struct gen_buf		*b = &h->f[GF_TRACK];
	int			 stream = GEN_HCCL_STREAM + 4 * t + s->plane;
	uint64_t		 size;

	size = gen_prof_hccl_size(g, s);
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 5500, s->plane == 0 ?
	    GEN_HCCL_MASTER : GEN_HCCL_SLAVE, hb, he, gen_prof_core_hash(
	    s->name), s->name, "communication");
	/*
	 * Outside an FFTS+ task the record's context id names no device
	 * context (the vendor's parser keeps it only to tell tasks apart):
	 * some ids here, so that a decoder using it would miss the join.
	 */
	gen_prof_hccl_info(g, h, c, t, hb + c->tick, s, gen_hccl_kinds[k].group,
	    size, gen_prof_core_rand(g) % 2 == 0 ? GEN_HCCL_NO_RANK :
	    (uint32_t)(gen_prof_core_rand(g) % 4));
	st = gen_prof_hccl_stream(g, device, stream);
	g->htasks = util_grow(g->htasks, g->nhtasks, 1, sizeof *g->htasks);
	x = &g->htasks[g->nhtasks++];
	memset(x, 0, sizeof *x);
	x->device = device;
	x->tid = h->tids[t];
	x->tt = hb + 2 * c->tick;
	x->kind = k;
	x->step = s;
	x->stream = stream;
	x->task = gen_prof_hccl_next(g, h, c, t, device, stream, st, x->tt);
	x->batch = st->batch;
	x->size = size;
	x->op = g->nhops;
	x->ctx = -1;
	gen_prof_hccl_run(g, c, st, x->tt, s, &x->start, &x->dur);
	gen_prof_bin_head(b, 5000, 802, h->tids[t], 33,
	    gen_prof_core_host_raw(c, x->tt));
	gen_prof_bin_track_ids(b, g->o->track_v2, device, stream,
	    (uint32_t)x->batch << 16 | x->task,
	    (uint32_t)gen_prof_hccl_rt_type(s->name));
	gen_prof_bin_buf_u64(b, 0);
	gen_prof_bin_buf_pad(b, 64);
}

/*
 * The steps of op kind K as the contexts 0..n-1 of one FFTS+ task on
 * thread T, in one master HCCL span HB..HE holding the context range, a
 * hccl_info per context and the task's task_track; on the device the
 * planes run side by side, each plane's contexts one after another.
 */
static void
gen_prof_hccl_ffts(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int device, int k, int64_t hb,
    int64_t he)
{
	const struct gen_hccl_step *s;
	struct gen_prof_htask	*x;
	struct gen_hccl_stream	*st;
	struct gen_buf		*b = &h->f[GF_CTX];
	int			 stream = GEN_HCCL_STREAM + 4 * t;
	int64_t			 tt = hb + 2 * c->tick, base, at[3];
	size_t			 i, n = gen_hccl_kinds[k].nsteps;
	uint32_t		 task;

	gen_prof_core_span(g, h, c, t, GF_API_AGING, 5500, GEN_HCCL_MASTER, hb,
	    he, gen_prof_core_hash("AllReduceFfts"), "AllReduceFfts",
	    "communication");
	gen_prof_bin_head(b, 5500, 4, h->tids[t], 20,
	    gen_prof_core_host_raw(c, hb + c->tick));
	gen_prof_bin_buf_u64(b, gen_prof_core_hash("AllReduceFfts"));
	gen_prof_bin_buf_u32(b, 2);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u32(b, (uint32_t)(n - 1));
	gen_prof_bin_buf_pad(b, 256);
	st = gen_prof_hccl_stream(g, device, stream);
	task = gen_prof_hccl_next(g, h, c, t, device, stream, st, tt);
	b = &h->f[GF_TRACK];
	gen_prof_bin_head(b, 5000, 802, h->tids[t], 33,
	    gen_prof_core_host_raw(c, tt));
	gen_prof_bin_track_ids(b, g->o->track_v2, device, stream,
	    (uint32_t)st->batch << 16 | task, GEN_HCCL_RT_FFTS);
	gen_prof_bin_buf_u64(b, 0);
	gen_prof_bin_buf_pad(b, 64);
	base = tt + gen_prof_core_range(g, 2000, 6000);
	if (base < st->free + 100)
		base = st->free + gen_prof_core_range(g, 100, 900);
	at[0] = at[1] = at[2] = base;
	for (i = 0; i < n; i++) {
		s = &gen_hccl_kinds[k].steps[i];
		g->htasks = util_grow(g->htasks, g->nhtasks, 1,
		    sizeof *g->htasks);
		x = &g->htasks[g->nhtasks++];
		memset(x, 0, sizeof *x);
		x->device = device;
		x->tid = h->tids[t];
		x->tt = tt;
		x->kind = k;
		x->step = s;
		x->stream = stream;
		x->task = task;
		x->batch = st->batch;
		x->ctx = (int)i;
		x->op = g->nhops;
		x->size = gen_prof_hccl_size(g, s);
		gen_prof_hccl_info(g, h, c, t, hb + c->tick, s,
		    gen_hccl_kinds[k].group, x->size, (uint32_t)i);
		x->start = c->dsync + (at[s->plane] - c->dsync + c->dtick - 1) /
		    c->dtick * c->dtick;
		x->dur = (s->dur / 2 + gen_prof_core_range(g, 0, s->dur) +
		    c->dtick - 1) / c->dtick * c->dtick;
		at[s->plane] = x->start + x->dur + gen_prof_core_range(g, 100,
		    900);
		if (x->start + x->dur > st->free)
			st->free = x->start + x->dur;
	}
}

/* The node_basic_info and hccl_op_info records of op kind K at TS. */
static void
gen_prof_hccl_node(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int k, int64_t ts)
{
	struct gen_buf	*b = &h->f[GF_NODE_AGING];
	uint8_t		 bits = 0, dtype = 3;

	gen_prof_bin_head(b, 10000, 0, h->tids[t], 28,
	    gen_prof_core_host_raw(c, ts));
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(gen_hccl_kinds[k].node));
	gen_prof_bin_buf_u32(b, 9);			/* COMMUNICATION */
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(gen_hccl_kinds[k].type));
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_pad(b, 64);
	b = &h->f[GF_HCCL_OP];
	gen_prof_bin_head(b, 10000, 10, h->tids[t], 26,
	    gen_prof_core_host_raw(c, ts + c->tick));
	gen_prof_bin_buf_add(b, &bits, 1);
	gen_prof_bin_buf_add(b, &dtype, 1);
	gen_prof_bin_buf_u64(b, gen_prof_core_hash("RING-NHR"));
	gen_prof_bin_buf_u64(b, gen_prof_core_rand(g) % 1000000);
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(gen_hccl_kinds[k].group));
	gen_prof_bin_buf_pad(b, 64);
}

/*
 * One HCCL op on thread T: ACL > node > one HCCL span per task, each
 * with its hccl_info and task_track; the tasks run on the op's device.
 */
void
gen_prof_hccl_op(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t)
{
	int		 k = (int)(gen_prof_core_rand(g) % GEN_HCCL_NKINDS);
	int		 device = g->nhops % g->o->devices;
	int64_t		 acl_b, node_b, nbi, hb, he, node_e, acl_e;
	size_t		 i, first = g->nhtasks;

	acl_b = h->cursor[t];
	node_b = acl_b + gen_prof_core_gap(g, c, 500, 2000);
	nbi = node_b + gen_prof_core_gap(g, c, 200, 900);
	gen_prof_hccl_node(g, h, c, t, k, nbi);
	hb = nbi + 2 * c->tick + gen_prof_core_gap(g, c, 300, 900);
	for (i = 0; i < gen_hccl_kinds[k].nsteps; i++) {
		he = hb + gen_prof_core_gap(g, c, 1500, 4000);
		if (gen_hccl_kinds[k].ffts)
			gen_prof_hccl_ffts(g, h, c, t, device, k, hb, he);
		else
			gen_prof_hccl_task(g, h, c, t, device, k,
			    &gen_hccl_kinds[k].steps[i], hb, he);
		hb = he + gen_prof_core_gap(g, c, 300, 900);
		if (gen_hccl_kinds[k].ffts)
			break;
	}
	node_e = hb + gen_prof_core_gap(g, c, 300, 900);
	acl_e = node_e + gen_prof_core_gap(g, c, 300, 900);
	h->cursor[t] = acl_e + gen_prof_core_gap(g, c, 2000, 30000);
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 20000, 7u << 16 |
	    (uint32_t)(210 + k), acl_b, acl_e, 0, gen_hccl_kinds[k].acl, "acl");
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 10000, 5, node_b, node_e,
	    gen_prof_core_hash(gen_hccl_kinds[k].node), "launch", "node");
	for (i = first; i < g->nhtasks; i++) {
		g->htasks[i].op_b = node_b;
		g->htasks[i].op_e = node_e;
	}
	g->nhops++;
}

/* The dictionary entries of the HCCL ops' names and types. */
void
gen_prof_hccl_dicts(struct gen_prof *g, struct strbuf *hash,
    struct strbuf *types)
{
	static const char *const names[] = { "Notify_Wait", "Notify_Record",
	    "Memcpy", "Reduce_Inline", "RDMASend", "RING-NHR",
	    "AllReduceFfts" };
	size_t	 i;

	if (!g->o->hccl)
		return;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		strbuf_addf(hash, "%llu:%s\n", (unsigned long long)
		    gen_prof_core_hash(names[i]), names[i]);
	for (i = 0; i < GEN_HCCL_NKINDS; i++) {
		strbuf_addf(hash, "%llu:%s\n%llu:%s\n%llu:%s\n",
		    (unsigned long long)gen_prof_core_hash(
		    gen_hccl_kinds[i].node), gen_hccl_kinds[i].node,
		    (unsigned long long)gen_prof_core_hash(
		    gen_hccl_kinds[i].type), gen_hccl_kinds[i].type,
		    (unsigned long long)gen_prof_core_hash(
		    gen_hccl_kinds[i].group), gen_hccl_kinds[i].group);
		strbuf_addf(types, "20000_%u:%s\n", 7u << 16 |
		    (uint32_t)(210 + i), gen_hccl_kinds[i].acl);
	}
	for (i = 0; i < sizeof gen_hccl_rt / sizeof gen_hccl_rt[0]; i++)
		strbuf_addf(types, "5000_%zu:%s\n", 40 + i, gen_hccl_rt[i]);
	strbuf_addf(types, "5500_%u:master\n5500_%u:slave\n", GEN_HCCL_MASTER,
	    GEN_HCCL_SLAVE);
}

static int
gen_prof_hccl_log_cmp(const void *a, const void *b)
{
	const uint64_t	*x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The start and end logs of the HCCL tasks, after each device's others. */
void
gen_prof_hccl_logs(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	const struct gen_prof_htask	*x;
	const struct gen_hccl_flip	*f;
	uint64_t			*l;
	size_t				 i, n = 2 * g->nhtasks;
	struct gen_buf			*b;

	if (n == 0)
		return;
	l = xreallocarray(NULL, n, 2 * sizeof *l);
	for (i = 0; i < g->nhtasks; i++) {
		l[4 * i] = gen_prof_core_syscnt(c, g->htasks[i].start);
		l[4 * i + 1] = 2 * i;
		l[4 * i + 2] = gen_prof_core_syscnt(c, g->htasks[i].start +
		    g->htasks[i].dur);
		l[4 * i + 3] = 2 * i + 1;
	}
	qsort(l, n, 2 * sizeof *l, gen_prof_hccl_log_cmp);
	for (i = 0; i < n; i++) {
		x = &g->htasks[l[2 * i + 1] / 2];
		b = &dev[x->device].logs;
		if (x->ctx >= 0)
			gen_prof_bin_stars(b, 34 + (int)(l[2 * i + 1] % 2),
			    (int)(b->len / 64), 11, (uint16_t)x->stream,
			    (uint16_t)x->task, l[2 * i], 6, (uint16_t)x->ctx);
		else
			gen_prof_bin_stars(b, (int)(l[2 * i + 1] % 2),
			    (int)(b->len / 64), 11, (uint16_t)x->stream,
			    (uint16_t)x->task, l[2 * i], 0, 0);
	}
	free(l);
	/* Just after the stream's last end: before its next start. */
	for (i = 0; i < g->nhflips; i++) {
		f = &((const struct gen_hccl_flip *)g->hflips)[i];
		gen_prof_bin_flip(&dev[f->device].flips, gen_prof_core_syscnt(c,
		    f->at) + 1, (uint16_t)f->stream, f->batch);
	}
}

static const char *
gen_prof_hccl_enum(int v, const char *const *names, size_t n)
{
	return v >= 0 && (size_t)v < n ? names[v] : "RESERVED";
}

/*
 * hccl_truth.csv in DIR: one row per HCCL task in launch order, host
 * times in host raw ticks, device times in epoch ns, the task id with the
 * stream's flips before it (batch); its first line the collection's start
 * in epoch ns.
 */
int
gen_prof_hccl_expect(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *dir, char **cause)
{
	static const char *const tr[] = { "SDMA", "RDMA" };
	static const char *const lk[] = { "ON_CHIP", "HCCS", "PCIE", "ROCE",
	    "SIO", "HCCS_SW" };
	static const char *const rd[] = { "RDMA_SEND_NOTIFY",
	    "RDMA_SEND_PAYLOAD" };
	const struct gen_prof_htask	*x;
	const struct gen_hccl_step	*s;
	struct strbuf			 b;
	size_t				 i;
	int				 rc;

	if (!g->o->hccl)
		return 0;
	strbuf_init(&b);
	strbuf_addf(&b, "begin_ns,%lld\ndevice,tid,host_ts,op,op_begin,op_end,"
	    "op_name,op_type,op_group,name,group,plane,master,stream,task,"
	    "ctx,start_ns,dur_ns,local,remote,transport,link,rdma,size,"
	    "batch\n",
	    (long long)c->begin_us * 1000);
	for (i = 0; i < g->nhtasks; i++) {
		x = &g->htasks[i];
		s = x->step;
		strbuf_addf(&b, "%d,%u,%llu,%d,%llu,%llu,%s,%s,%s,%s,%s,%d,%d,"
		    "%d,%u,%u,%lld,%lld,%u,%u,%s,%s,%s,%llu,%u\n", x->device,
		    x->tid,
		    (unsigned long long)gen_prof_core_host_raw(c, x->tt), x->op,
		    (unsigned long long)gen_prof_core_host_raw(c, x->op_b),
		    (unsigned long long)gen_prof_core_host_raw(c, x->op_e),
		    gen_hccl_kinds[x->kind].node, gen_hccl_kinds[x->kind].type,
		    gen_hccl_kinds[x->kind].group, s->name,
		    gen_hccl_kinds[x->kind].group, s->plane, s->plane == 0 ||
		    x->ctx >= 0, x->stream, x->task, x->ctx >= 0 ?
		    (unsigned)x->ctx : GEN_HCCL_NO_RANK,
		    (long long)(x->start + g->local_off),
		    (long long)x->dur, gen_prof_hccl_local(g),
		    gen_prof_hccl_remote(g, s), tr[s->transport],
		    gen_prof_hccl_enum(s->link, lk, 6), s->rdma == GR_NONE ?
		    "RESERVED" : rd[s->rdma], (unsigned long long)x->size,
		    (unsigned)x->batch);
	}
	rc = gen_prof_bin_text(dir, "hccl_truth.csv", b.s, cause);
	strbuf_release(&b);
	return rc;
}

void
gen_prof_hccl_free(struct gen_prof *g)
{
	free(g->htasks);
	free(g->hstreams);
	free(g->hflips);
}
