/*
 * The smaller host record kinds of a raw collection (doc/formats.md sections
 * 3.5-3.6), for the generator's -g option: graph_id_map records of the
 * models, fusion_op_info inside model spans (and one outside any),
 * node_attr_info of some launches, communication ops (an ACL span holding
 * a node span with hccl_op_info, holding HCCL spans with hccl_info),
 * memcpys (memcpy_info shared over one or more MEMCPY_ASYNC task_track
 * records, some lost or redundant, some in the older 10-byte layout) and
 * capture_stream_info records that give some ops a model id. Each record
 * adds its expected row, computed from the values written here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_PROF_MAX_COPY	67108864ULL
/* -C's MC2 kernel: one per device on the KFC server's stream. */
#define GEN_PROF_MC2_KERNEL	"MatmulAllReduceAicpuKernel"
/* -N: device 1's kernel launched inside an HCCL op's node. */
#define GEN_PROF_KFC_HOST_OP	"hcom_allReduce_kfc_0"
#define GEN_PROF_KFC_INIT	"hcomAicpuInit"
#define GEN_PROF_MC2_TYPE	"MatmulAllReduce"
#define GEN_PROF_KFC_STREAM	60
#define GEN_PROF_KFC_TASK	7
#define GEN_PROF_CAPTURE_MODEL	77

static const char *const gen_prof_extra_names[GX_NTABLES] = {
	"graph_id_map", "fusion_op", "hccl_info", "node_attr_info",
	"hccl_op_info", "capture_stream_info", "memcpy_info", "aicpu", "dp",
	"aicpu_mi", "kfc_turn", "kfc_info", "device_hccl_op_info",
	"aicpu_flip", "aicpu_master_task", "mc2_comm_info", "kfc_op",
	"kfc_task"
};

static const char *const gen_prof_extra_heads[GX_NTABLES] = {
	"Thread ID,Timestamp(us),Model ID,Graph ID,Model Name",
	"Device_id,Model Name,Model ID,Fusion Op,Original Ops,"
	"Memory Input(KB),Memory Output(KB),Memory Weight(KB),"
	"Memory Workspace(KB),Memory Total(KB)",
	"Thread ID,Name,Start(us),Duration(us),Group Name,Plane ID,Src Rank,"
	"Dst Rank,Rank Size,Transport Type,Link Type,Rdma Type,Data Type,"
	"Reduce Op,Size(Byte),Notify ID,Stage,Role,Work Flow Mode,"
	"Duration Estimated(us),Context ID",
	"Thread ID,Timestamp(us),Op Name,Attr Type,Attr Info",
	"Thread ID,Op Name,Start(us),Duration(us),Relay,Retry,Data Type,"
	"Alg Type,Count,Group Name",
	"Device_id,Model ID,Model Stream ID,Original Stream ID,Batch ID,"
	"Capture Status,Timestamp(us)",
	"Device_id,Thread ID,Stream ID,Task ID,Batch ID,Task Start Time(us),"
	"Task Duration(us),Size(B),Bandwidth(GB/s),Operation",
	"Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),"
	"Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID",
	"Timestamp(us),Action,Source,Cached Buffer Size",
	"Node Name,Start Time(us),End Time(us),Queue Size",
	"Device_id,Stream ID,Task ID,Turn,Phase,Start Time(us),Duration(us)",
	"Device_id,Timestamp(us),Name,CCL Tag,Group Name,Src Rank,Dst Rank,"
	"Rank Size,Work Flow Mode,Plane ID,Notify ID,Stage,Role,"
	"Duration Estimated(us),Src Addr,Dst Addr,Size(Byte),Reduce Op,"
	"Data Type,Link Type,Transport Type,Rdma Type,Stream ID,Task ID",
	"Device_id,Timestamp(us),Relay,Retry,Data Type,Alg Type,Count,"
	"Group Name,Rank Size,Stream ID,Task ID",
	"Device_id,Timestamp(us),Stream ID,Task ID,Flip Num",
	"Device_id,Timestamp(us),AI CPU Stream ID,AI CPU Task ID,Stream ID,"
	"Task ID,Type",
	"Thread ID,Timestamp(us),Group Name,Rank Size,Rank ID,Usr Rank ID,"
	"Stream ID,Comm Stream IDs",
	"Device_id,Model ID,Op Name,Start Time(us),Duration(us),Group Name,"
	"Op Type,Relay,Retry,Data Type,Alg Type,Count,Rank Size,Source,"
	"Stream ID,Task ID",
	"Device_id,Model ID,Op Name,Op Start Time(us),HCCL Name,Group Name,"
	"Plane ID,Start Time(us),Duration(us),Is Master,Stream ID,Task ID,"
	"Duration Estimated(us),Src Rank,Dst Rank,Transport Type,Size(Byte),"
	"Data Type,Link Type,Bandwidth(GB/s),Context ID,Notify ID,Batch ID,"
	"Rdma Type,Source"
};

static const char *const gen_prof_extra_dtypes[] = {
	"INT8", "INT16", "INT32", "FP16", "FP32", "INT64", "UINT64", "UINT8",
	"UINT16", "UINT32", "FP64", "BFP16"
};
static const char *const gen_prof_extra_links[] = {
	"ON_CHIP", "HCCS", "PCIE", "ROCE", "SIO"
};
static const char *const gen_prof_extra_transports[] = {
	"SDMA", "RDMA", "LOCAL"
};
static const char *const gen_prof_extra_dirs[] = {
	"host to host", "host to device", "device to host",
	"device to device", "managed memory", "addr device to device",
	"host to device ex", "device to host ex"
};

/* Strings the hash dictionary lists. */
static const char *const gen_prof_extra_dict[] = {
	"graph-model-1", "graph-model-2", "HD-MESH", "RING-NHR", "group-world",
	"Memcpy", "Notify_Wait", "fused-conv-bn", "fused-matmul-add",
	"fused-softmax"
};

static const char *gen_prof_extra_named(const struct gen_prof *,
		     const char *, char *, size_t);

/* Add an expected row of TABLE with sort keys K1, K2 (then order). */
static void
gen_prof_extra_row(struct gen_prof *g, int table, uint64_t k1, uint64_t k2,
    char *line)
{
	struct gen_prof_xtab	*x = &g->xtabs[table];

	x->v = xreallocarray(x->v, x->n + 1, sizeof *x->v);
	x->v[x->n].k1 = k1;
	x->v[x->n].k2 = k2;
	x->v[x->n].seq = x->n;
	x->v[x->n].line = line;
	x->n++;
}

/* Epoch microseconds of host mono time MONO, three decimals. */
static const char *
gen_prof_extra_us(const struct gen_prof *g, char *buf, size_t size,
    int64_t mono)
{
	util_fmt_us(buf, size, mono + g->local_off, 3, false);
	return buf;
}

static const char *
gen_prof_extra_dur(char *buf, size_t size, int64_t ns)
{
	util_fmt_us(buf, size, ns, 3, false);
	return buf;
}

/* graph_id_map records of models 1 and 2 (model 3 has none). */
void
gen_prof_extra_graphs(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c)
{
	struct gen_buf	*b = &h->f[GF_GRAPH];
	int64_t		 ts;
	char		*line, tb[32];
	int		 m;

	for (m = 1; m <= 2; m++) {
		ts = c->begin + (10 + m) * c->tick;
		gen_prof_bin_head(b, 15000, 0, h->tids[0], 16,
		    gen_prof_core_host_raw(c, ts));
		gen_prof_bin_buf_u64(b, gen_prof_core_hash(gen_prof_extra_dict[m
		    - 1]));
		gen_prof_bin_buf_u32(b, (uint32_t)(100 + m));
		gen_prof_bin_buf_u32(b, (uint32_t)m);
		gen_prof_bin_buf_pad(b, 256);
		xasprintf(&line, "%u,%s,%d,%d,%s", h->tids[0],
		    gen_prof_extra_us(g, tb, sizeof tb, ts), m, 100 + m,
		    gen_prof_extra_dict[m - 1]);
		gen_prof_extra_row(g, GX_GRAPH, h->tids[0], (uint64_t)ts, line);
	}
}

/*
 * With -N, the start of device DEVICE's kernel launch on thread 0: the
 * node span of an HCCL op, GEN_PROF_KFC_HOST_OP from mono time *AT to
 * *END (set), holding an init node, an HCCL span with a host HCCL task of
 * the device on stream 62 (never run) and then the launch's node, the
 * last node right inside it: the vendor names an HCCL op's kernel (device
 * 1's) after the host op then, not an MC2 op's (device 0's). *AT moves to
 * where the launch's node may start.
 */
static void
gen_prof_extra_kfc_host_op(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int device, int64_t *at, int64_t *end)
{
	int64_t	 p_b = *at, s_b, s_e, hb, he;

	s_b = p_b + gen_prof_core_gap(g, c, 200, 900);
	s_e = s_b + gen_prof_core_gap(g, c, 300, 900);
	gen_prof_core_span(g, h, c, 0, GF_API_AGING, 10000, 5, s_b, s_e,
	    gen_prof_core_hash(GEN_PROF_KFC_INIT), "launch", "node");
	hb = s_e + gen_prof_core_gap(g, c, 200, 900);
	he = hb + 4 * c->tick + gen_prof_core_gap(g, c, 300, 900);
	gen_prof_core_span(g, h, c, 0, GF_API_AGING, 5500, 0x010000, hb, he,
	    gen_prof_core_hash("Memcpy"), "Memcpy", "communication");
	gen_prof_track(&h->f[GF_TRACK], c, g->o->track_v2, h->tids[0],
	    hb + 2 * c->tick, device, 62, 500 + (uint32_t)device, 0, 0);
	*at = he + gen_prof_core_gap(g, c, 200, 900);
	/* The launch's node takes at most this long (see below). */
	*end = *at + 6 * c->tick + 3 * gen_prof_core_align(c, 900) +
	    gen_prof_core_gap(g, c, 300, 900);
	gen_prof_core_span(g, h, c, 0, GF_API_AGING, 10000, 5, p_b, *end,
	    gen_prof_core_hash(GEN_PROF_KFC_HOST_OP), "launch", "node");
}

/*
 * The launch of device DEVICE's MC2 kernel on thread 0 (-C): a node span
 * holding its node_basic_info (GE type HCCL_AI_CPU) and its task_track, a
 * KERNEL_AICPU task on the KFC server's stream; with -N, devices 0 and
 * 1's inside an HCCL op's node (gen_prof_extra_kfc_host_op).
 */
static void
gen_prof_extra_mc2_launch(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int device)
{
	struct gen_buf	*b = &h->f[GF_NODE_AGING];
	int64_t		 node_b, nbi, tt, node_e, p_e = -1;

	node_b = h->cursor[0];
	if (g->o->nest && device < 2)
		gen_prof_extra_kfc_host_op(g, h, c, device, &node_b, &p_e);
	nbi = node_b + gen_prof_core_gap(g, c, 200, 900);
	tt = nbi + 2 * c->tick + gen_prof_core_gap(g, c, 300, 900);
	node_e = tt + gen_prof_core_gap(g, c, 300, 900);
	if (p_e >= 0)
		node_e = node_e < p_e ? node_e : p_e - c->tick;
	h->cursor[0] = (p_e > node_e ? p_e : node_e) +
	    gen_prof_core_gap(g, c, 2000, 30000);
	gen_prof_core_span(g, h, c, 0, GF_API_AGING, 10000, 5, node_b, node_e,
	    gen_prof_core_hash(GEN_PROF_MC2_KERNEL), "launch", "node");
	gen_prof_bin_head(b, 10000, 0, h->tids[0], 28,
	    gen_prof_core_host_raw(c, nbi));
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(GEN_PROF_MC2_KERNEL));
	gen_prof_bin_buf_u32(b, 256);			/* HCCL_AI_CPU */
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(GEN_PROF_MC2_TYPE));
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_pad(b, 64);
	gen_prof_track(&h->f[GF_TRACK], c, g->o->track_v2, h->tids[0], tt,
	    device, GEN_PROF_KFC_STREAM, GEN_PROF_KFC_TASK, 1, 0);
}

/*
 * mc2_comm_info of -C: the group of the KFC server on AI CPU stream 60
 * with its two communication streams, and a group with the most streams
 * a record can list (8).
 */
void
gen_prof_extra_mc2(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c)
{
	static const char *const groups[] = { "group-world", "HD-MESH" };
	struct gen_buf	*b = &h->f[GF_MC2];
	struct strbuf	 ids;
	int64_t		 ts;
	char		*line, tb[32], gb[32];
	int		 i, j, n;

	for (i = 0; i < 2; i++) {
		ts = c->begin + (20 + i) * c->tick;
		n = i == 0 ? 2 : 8;
		gen_prof_bin_head(b, 10000, 12, h->tids[0], 64,
		    gen_prof_core_host_raw(c, ts));
		gen_prof_bin_buf_u64(b, gen_prof_core_hash(groups[i]));
		gen_prof_bin_buf_u32(b, 8);
		gen_prof_bin_buf_u32(b, (uint32_t)i);
		gen_prof_bin_buf_u32(b, (uint32_t)i + 10);
		gen_prof_bin_buf_u32(b, (uint32_t)(60 + 20 * i));
		gen_prof_bin_buf_u32(b, (uint32_t)n);
		strbuf_init(&ids);
		for (j = 0; j < n; j++) {
			gen_prof_bin_buf_u32(b, (uint32_t)(61 + 20 * i + j));
			strbuf_addf(&ids, "%s%d", j > 0 ? "," : "",
			    61 + 20 * i + j);
		}
		gen_prof_bin_buf_pad(b, 256);
		xasprintf(&line, "%u,%s,%s,8,%d,%d,%d,\"%s\"", h->tids[0],
		    gen_prof_extra_us(g, tb, sizeof tb, ts),
		    gen_prof_extra_named(g, groups[i], gb, sizeof gb), i,
		    i + 10, 60 + 20 * i, ids.s);
		strbuf_release(&ids);
		gen_prof_extra_row(g, GX_MC2, h->tids[0], (uint64_t)ts, line);
	}
	for (i = 0; i < g->o->devices; i++)
		gen_prof_extra_mc2_launch(g, h, c, i);
}

/* SQLite's text of BYTES / 1024.0, as the vendor's KB columns. */
static void
gen_prof_extra_kb(struct strbuf *b, uint64_t bytes)
{
	char	 buf[64];

	snprintf(buf, sizeof buf, "%.15g", (double)bytes / 1024.0);
	strbuf_addf(b, ",%s%s", buf, strchr(buf, '.') == NULL ? ".0" : "");
}

/* A fusion_op_info record at TS on thread T inside model MODEL. */
static void
gen_prof_extra_fusion(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int64_t ts, int64_t model)
{
	struct gen_buf	*b = &h->f[GF_FUSION];
	struct strbuf	 line;
	uint64_t	 mem[5];
	int		 i, n = 1 + (int)(gen_prof_core_rand(g) % 3), f, k;

	f = 7 + (int)(gen_prof_core_rand(g) % 3);
	k = (int)(gen_prof_core_rand(g) % (uint64_t)g->nkinds);
	for (i = 0; i < 4; i++)
		mem[i] = gen_prof_core_rand(g) % (i == 2 ? 1 : 50000000);
	mem[4] = mem[0] + mem[1] + mem[2] + mem[3];
	gen_prof_bin_head(b, 10000, 2, h->tids[t], 116,
	    gen_prof_core_host_raw(c, ts));
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(gen_prof_extra_dict[f]));
	gen_prof_bin_buf_u32(b, (uint32_t)n);
	for (i = 0; i < 5; i++)
		gen_prof_bin_buf_u64(b, mem[i]);
	for (i = 0; i < 8; i++)
		gen_prof_bin_buf_u64(b, i < n
		    ? gen_prof_core_hash(g->names[k][i]) : 0);
	gen_prof_bin_buf_pad(b, 256);
	strbuf_init(&line);
	strbuf_addf(&line, "host,%s,%lld,%s,", model == 1 || model == 2 ?
	    gen_prof_extra_dict[model - 1] : "", (long long)model,
	    gen_prof_extra_dict[f]);
	for (i = 0; i < n; i++)
		strbuf_addf(&line, "%s%s", i > 0 ? ";" : "", g->names[k][i]);
	for (i = 0; i < 5; i++)
		gen_prof_extra_kb(&line, mem[i]);
	gen_prof_extra_row(g, GX_FUSION, h->tids[t], (uint64_t)ts, line.s);
}

/* A node_attr_info record of OP at TS on thread T. */
static void
gen_prof_extra_attr(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int64_t ts,
    const struct gen_prof_op *op)
{
	struct gen_buf	*b = &h->f[GF_ATTR];
	char		 attr[64], tb[32], *line;
	uint32_t	 type = gen_prof_core_rand(g) % 5 == 0 ? 1 : 0;
	uint64_t	 id;

	snprintf(attr, sizeof attr, "attr:%s:%d", g->kinds[op->kind].type,
	    op->name);
	id = gen_prof_core_hash(attr);
	gen_prof_bin_head(b, 10000, 9, h->tids[t], 20, gen_prof_core_host_raw(c,
	    ts));
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(
	    g->names[op->kind][op->name]));
	gen_prof_bin_buf_u32(b, type);
	gen_prof_bin_buf_u64(b, id);
	gen_prof_bin_buf_pad(b, 64);
	/* The dictionary lists no attribute of an op's fourth name. */
	if (op->name == GEN_PROF_NAMES - 1)
		snprintf(attr, sizeof attr, "%llu", (unsigned long long)id);
	xasprintf(&line, "%u,%s,%s,%s,%s", h->tids[t], gen_prof_extra_us(g, tb,
	    sizeof tb, ts), g->names[op->kind][op->name], type == 0 ?
	    "OP_ATTR" : "1", attr);
	gen_prof_extra_row(g, GX_ATTR, h->tids[t], (uint64_t)ts, line);
}

/*
 * The records of launch OP on thread T: a fusion record inside its model
 * span (from MOD_B) or outside any (from ACL_B), an attribute at ATTR_TS.
 */
void
gen_prof_extra_op(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, const struct gen_prof_op *op,
    int64_t mod_b, int64_t acl_b, int64_t attr_ts)
{
	if (!g->o->extras)
		return;
	if (op->model != GEN_PROF_NO_MODEL && gen_prof_core_rand(g) % 3 == 0)
		gen_prof_extra_fusion(g, h, c, t, mod_b + c->tick, op->model);
	else if (op->model == GEN_PROF_NO_MODEL
	    && gen_prof_core_rand(g) % 10 == 0)
		gen_prof_extra_fusion(g, h, c, t, acl_b + c->tick,
		    GEN_PROF_NO_MODEL);
	if (gen_prof_core_rand(g) % 4 == 0)
		gen_prof_extra_attr(g, h, c, t, attr_ts, op);
}

/* The hccl_info record of HCCL task NAME at TS, held by B..E or none. */
static void
gen_prof_extra_hccl_task(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int64_t ts, const char *name,
    int64_t b, int64_t e)
{
	struct gen_buf	*f = &h->f[GF_HCCL];
	uint32_t	 v[8];
	uint64_t	 notify = gen_prof_core_rand(g) % 100000, size;
	double		 est = (double)(gen_prof_core_rand(g) % 100000) / 8.0;
	char		 sb[32], db[32], *line;
	int		 i;

	for (i = 0; i < 8; i++)
		v[i] = (uint32_t)(gen_prof_core_rand(g) % 8);
	size = gen_prof_core_rand(g) % 10000000;
	gen_prof_bin_head(f, 5500, 2, h->tids[t], 116, gen_prof_core_host_raw(c,
	    ts));
	gen_prof_bin_buf_u64(f, gen_prof_core_hash(name));
	gen_prof_bin_buf_u64(f, 0);
	gen_prof_bin_buf_u64(f, gen_prof_core_hash("group-world"));
	gen_prof_bin_buf_u32(f, v[0]);			/* local rank */
	gen_prof_bin_buf_u32(f, v[1]);			/* remote rank */
	gen_prof_bin_buf_u32(f, 8);			/* rank size */
	gen_prof_bin_buf_u32(f, v[2]);			/* work flow mode */
	gen_prof_bin_buf_u32(f, v[3]);			/* plane id */
	gen_prof_bin_buf_u32(f, v[4]);			/* context id */
	gen_prof_bin_buf_u64(f, notify);
	gen_prof_bin_buf_u32(f, v[5]);			/* stage */
	gen_prof_bin_buf_u32(f, v[6] % 2);		/* role */
	gen_prof_bin_buf_u64(f, 0);
	memcpy(f->p + f->len - 8, &est, 8);
	gen_prof_bin_buf_u64(f, 0x1000);
	gen_prof_bin_buf_u64(f, 0x2000);
	gen_prof_bin_buf_u64(f, size);
	gen_prof_bin_buf_u32(f, v[7] % 4);		/* reduce op */
	gen_prof_bin_buf_u32(f, v[0] % 12);		/* data type */
	gen_prof_bin_buf_u32(f, v[1] % 5);		/* link type */
	gen_prof_bin_buf_u32(f, v[2] % 3);		/* transport type */
	gen_prof_bin_buf_u32(f, v[3] % 3 == 2 ? 0xFFFFFFFFu : v[3] % 2);
	gen_prof_bin_buf_pad(f, 256);
	if (b >= 0)
		xasprintf(&line, "%u,%s,%s,%s", h->tids[t], name,
		    gen_prof_extra_us(g, sb, sizeof sb, b),
		    gen_prof_extra_dur(db, sizeof db, e - b));
	else
		xasprintf(&line, "%u,%s,%s,N/A", h->tids[t], name,
		    gen_prof_extra_us(g, sb, sizeof sb, ts));
	snprintf(sb, sizeof sb, "%.3f", est);
	gen_prof_extra_row(g, GX_HCCL, h->tids[t], (uint64_t)ts, NULL);
	xasprintf(&g->xtabs[GX_HCCL].v[g->xtabs[GX_HCCL].n - 1].line,
	    "%s,group-world,%u,%u,%u,8,%s,%s,%s,%s,%s,%llu,%llu,%u,%u,%u,%s,%u",
	    line, v[3], v[0], v[1], gen_prof_extra_transports[v[2] % 3],
	    gen_prof_extra_links[v[1] % 5], v[3] % 3 == 2 ? "INVALID_TYPE" :
	    (v[3] % 2 ? "RDMA_SEND_PAYLOAD" : "RDMA_SEND_NOTIFY"),
	    gen_prof_extra_dtypes[v[0] % 12],
	    (const char *[]){ "SUM", "MUL", "MAX", "MIN" }[v[7] % 4],
	    (unsigned long long)size, (unsigned long long)notify, v[5],
	    v[6] % 2, v[2], sb, v[4]);
	free(line);
}

/* One communication op on thread T: ACL > node > two HCCL spans. */
void
gen_prof_extra_hccl(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t)
{
	static const char *const tasks[] = { "Memcpy", "Notify_Wait" };
	struct gen_buf	*b = &h->f[GF_HCCL_OP];
	int64_t		 acl_b, node_b, node_e, acl_e, hb, he, ts;
	uint64_t	 count = gen_prof_core_rand(g) % 1000000;
	uint8_t		 bits = (uint8_t)(gen_prof_core_rand(g) % 4);
	uint8_t		 dtype = (uint8_t)(gen_prof_core_rand(g) % 12);
	bool		 ring = gen_prof_core_rand(g) % 2 == 0;
	char		 name[64], sb[32], db[32], *line;
	int		 i;

	snprintf(name, sizeof name, "hcom_allReduce__%d_0",
	    (int)(gen_prof_core_rand(g) % 900));
	acl_b = h->cursor[t];
	node_b = acl_b + gen_prof_core_gap(g, c, 500, 2000);
	hb = node_b + gen_prof_core_gap(g, c, 500, 2000);
	for (i = 0; i < 2; i++) {
		he = hb + gen_prof_core_gap(g, c, 2000, 9000);
		gen_prof_core_span(g, h, c, t, GF_API_AGING, 5500, 0x010000,
		    hb, he, gen_prof_core_hash(tasks[i]), tasks[i],
		    "communication");
		gen_prof_extra_hccl_task(g, h, c, t, hb + c->tick, tasks[i],
		    hb, he);
		hb = he + gen_prof_core_gap(g, c, 300, 900);
	}
	node_e = hb + gen_prof_core_gap(g, c, 300, 900);
	acl_e = node_e + gen_prof_core_gap(g, c, 300, 900);
	h->cursor[t] = acl_e + gen_prof_core_gap(g, c, 2000, 30000);
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 20000, 7u << 16 | 200,
	    acl_b,
	    acl_e, 0, "HcclAllReduce", "acl");
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 10000, 5, node_b, node_e,
	    gen_prof_core_hash(name), "launch", "node");
	if (gen_prof_core_rand(g) % 4 == 0)
		gen_prof_extra_hccl_task(g, h, c, t, acl_b + c->tick,
		    tasks[0], -1, -1);
	ts = node_b + c->tick;
	gen_prof_bin_head(b, 10000, 10, h->tids[t], 26,
	    gen_prof_core_host_raw(c, ts));
	gen_prof_bin_buf_add(b, &bits, 1);
	gen_prof_bin_buf_add(b, &dtype, 1);
	gen_prof_bin_buf_u64(b, gen_prof_core_hash(ring ? "RING-NHR"
	    : "HD-MESH"));
	gen_prof_bin_buf_u64(b, count);
	gen_prof_bin_buf_u64(b, gen_prof_core_hash("group-world"));
	gen_prof_bin_buf_pad(b, 64);
	xasprintf(&line, "%u,%s,%s,%s,%d,%d,%s,%s,%llu,group-world",
	    h->tids[t], name, gen_prof_extra_us(g, sb, sizeof sb, node_b),
	    gen_prof_extra_dur(db, sizeof db, node_e - node_b), bits & 1,
	    bits >> 1 & 1, gen_prof_extra_dtypes[dtype],
	    ring ? "RING-NHR" : "HD-MESH", (unsigned long long)count);
	gen_prof_extra_row(g, GX_HCCL_OP, h->tids[t], (uint64_t)ts, line);
	g->hccl_names = xreallocarray(g->hccl_names, g->nhccl + 1,
	    sizeof *g->hccl_names);
	g->hccl_names[g->nhccl++] = xstrdup(name);
}

/* The task_track of one memcpy task on DEVICE; its row comes later. */
static void
gen_prof_extra_copy(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int64_t ts, int device,
    uint64_t size, const char *dir)
{
	struct gen_buf		*b = &h->f[GF_TRACK];
	struct gen_prof_copy	*cp;

	g->copies = xreallocarray(g->copies, g->ncopies + 1,
	    sizeof *g->copies);
	cp = &g->copies[g->ncopies++];
	cp->device = device;
	cp->tid = h->tids[t];
	/* Chip V6's task ids are one space per device: keep off the ops'. */
	cp->task = (g->o->chip == GEN_PROF_950 ? 1u << 20 : 0) +
	    g->mc_task[device]++;
	cp->ts = ts;
	cp->size = size;
	cp->dir = dir;
	gen_prof_bin_head(b, 5000, 802, h->tids[t], 33,
	    gen_prof_core_host_raw(c, ts));
	gen_prof_bin_track_ids(b, g->o->track_v2, device, 1, cp->task, 5);
	gen_prof_bin_buf_u64(b, 0);
	gen_prof_bin_buf_pad(b, 64);
}

/*
 * The start and end logs of a memcpy task on stream 1: an SDMA task,
 * its record counter going on from the device's last record.
 */
static void
gen_prof_extra_log(struct gen_prof *g, struct gen_buf *b, uint16_t task,
    uint64_t start, uint64_t end)
{
	int	 i, cnt;

	for (i = 0; i < 2; i++) {
		cnt = (int)(b->len / 64);
		if (g->o->chip != GEN_PROF_910B)
			gen_prof_bin_hwts(b, i, cnt, 9, 1, task, i == 0
			    ? start :
			    end);
		else
			gen_prof_bin_stars(b, i, cnt, 11, 1, task, i == 0
			    ? start :
			    end, 0, 0);
	}
}

/*
 * The expected memcpy_info rows; with -G each copy also runs on its
 * device, on stream 1 after the last copy there, at 200 bytes a ns: its
 * start and end logs go to the end of its device's logs in DEV.
 */
void
gen_prof_extra_copies(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	struct gen_prof_copy	*cp;
	int64_t			 start, dur, free_at[8] = { 0 };
	char			 sb[32], db[32], *line;
	size_t			 i;

	for (i = 0; i < g->ncopies; i++) {
		cp = &g->copies[i];
		if (!g->o->copies) {
			xasprintf(&line, "%d,%u,1,%u,0,N/A,N/A,%llu,N/A,%s",
			    cp->device, cp->tid, cp->task,
			    (unsigned long long)cp->size, cp->dir);
			gen_prof_extra_row(g, GX_MEMCPY, (uint64_t)cp->device,
			    cp->task, line);
			continue;
		}
		start = cp->ts + 3000;
		if (start < free_at[cp->device])
			start = free_at[cp->device];
		start = c->dsync + (start - c->dsync + c->dtick - 1) /
		    c->dtick * c->dtick;
		dur = ((int64_t)(cp->size / 200) + c->dtick) / c->dtick *
		    c->dtick;
		free_at[cp->device] = start + dur + c->dtick;
		gen_prof_extra_log(g, &dev[cp->device].logs, cp->task,
		    gen_prof_core_syscnt(c, start), gen_prof_core_syscnt(c,
		    start + dur));
		xasprintf(&line, "%d,%u,1,%u,0,%s,%s,%llu,%.3f,%s", cp->device,
		    cp->tid, cp->task, gen_prof_extra_us(g, sb, sizeof sb,
		    start), gen_prof_extra_dur(db, sizeof db, dur),
		    (unsigned long long)cp->size, (double)cp->size /
		    (double)dur, cp->dir);
		gen_prof_extra_row(g, GX_MEMCPY, (uint64_t)cp->device, cp->task,
		    line);
	}
}

/*
 * One aclrtMemcpyAsync on thread T: its memcpy_info record and task_track
 * records, the copy shared out 64 MiB a task; sometimes the record is
 * lost, sometimes there is one task too many, sometimes the record has
 * the older layout without maxSize.
 */
void
gen_prof_extra_memcpy(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t)
{
	struct gen_buf	*b = &h->f[GF_MEMCPY];
	int64_t		 acl_b, rt_b, rt_e, acl_e, ts;
	uint64_t	 size, left;
	uint16_t	 dir = (uint16_t)(gen_prof_core_rand(g) % 9);
	int		 device = g->nmemcpy++ % g->o->devices, kind, i, n;
	const char	*dname = dir < 8 ? gen_prof_extra_dirs[dir] : "other";

	/* 0 lost, 1 extra, 2 old */
	kind = (int)(gen_prof_core_rand(g) % 8);
	size = 1 + gen_prof_core_rand(g) % (kind == 2 ? 1000000 : 200000000);
	acl_b = h->cursor[t];
	rt_b = acl_b + gen_prof_core_gap(g, c, 300, 900);
	ts = rt_b + c->tick;
	rt_e = ts + gen_prof_core_gap(g, c, 2000, 6000);
	acl_e = rt_e + gen_prof_core_gap(g, c, 300, 900);
	h->cursor[t] = acl_e + gen_prof_core_gap(g, c, 2000, 30000);
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 20000, 3u << 16 | 201,
	    acl_b,
	    acl_e, 0, "aclrtMemcpyAsync", "acl");
	gen_prof_core_span(g, h, c, t, GF_API_AGING, 5000, 1103, rt_b, rt_e, 0,
	    "MemcpyAsync", "runtime");
	if (kind != 0) {
		gen_prof_bin_head(b, 5000, 0, h->tids[t], kind == 2 ? 10 : 18,
		    gen_prof_core_host_raw(c, ts));
		gen_prof_bin_buf_u64(b, size);
		if (kind == 2)
			gen_prof_bin_buf_u16(b, dir);
		else {
			gen_prof_bin_buf_u64(b, GEN_PROF_MAX_COPY);
			gen_prof_bin_buf_u16(b, dir);
		}
		gen_prof_bin_buf_pad(b, 64);
	}
	n = kind == 2 ? 1 : (int)((size + GEN_PROF_MAX_COPY - 1) /
	    GEN_PROF_MAX_COPY);
	left = size;
	for (i = 0; i < n + (kind == 1); i++) {
		if (kind == 0 || left == 0)
			gen_prof_extra_copy(g, h, c, t, ts, device, 0, "other");
		else if (kind == 2 || left <= GEN_PROF_MAX_COPY) {
			gen_prof_extra_copy(g, h, c, t, ts, device, left,
			    dname);
			left = 0;
		} else {
			gen_prof_extra_copy(g, h, c, t, ts, device,
			    GEN_PROF_MAX_COPY, dname);
			left -= GEN_PROF_MAX_COPY;
		}
	}
}

static void
gen_prof_extra_cap(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int64_t ts, uint16_t status,
    int batch)
{
	struct gen_buf	*b = &h->f[GF_CAPTURE];
	char		 tb[32], *line;

	gen_prof_bin_head(b, 5000, 3, h->tids[0], 10, gen_prof_core_host_raw(c,
	    ts));
	gen_prof_bin_buf_u16(b, status);
	gen_prof_bin_buf_u16(b, 2);
	gen_prof_bin_buf_u16(b, 9);
	gen_prof_bin_buf_u16(b, GEN_PROF_CAPTURE_MODEL);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_pad(b, 64);
	if (batch < 0)
		return;
	xasprintf(&line, "0,%d,2,9,%d,%u,%s", GEN_PROF_CAPTURE_MODEL, batch,
	    status, gen_prof_extra_us(g, tb, sizeof tb, ts));
	gen_prof_extra_row(g, GX_CAPTURE, 0, (uint64_t)ts, line);
}

/*
 * Capture records of stream 2 on device 0, the ops sorted by launch
 * time: a start at the middle op (and a duplicate of it), an end at
 * three quarters (the first end of a model, which the vendor drops) and
 * one after the last op. Batch 0 of the stream is then captured from the
 * start on, batch 1 up to the last end; ops there without a model span
 * take the capture's model id.
 */
void
gen_prof_extra_captures(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c)
{
	struct gen_prof_op	*op;
	int64_t			 x, y, z;
	size_t			 i;

	if (!g->o->extras || g->nops < 4)
		return;
	x = g->ops[g->nops / 2].tt;
	y = g->ops[g->nops * 3 / 4].tt;
	z = g->ops[g->nops - 1].tt + c->tick;
	gen_prof_extra_cap(g, h, c, x, 0, 0);
	gen_prof_extra_cap(g, h, c, x, 0, -1);
	gen_prof_extra_cap(g, h, c, y, 1, -1);
	gen_prof_extra_cap(g, h, c, z, 1, 1);
	for (i = 0; i < g->nops; i++) {
		op = &g->ops[i];
		if (op->model != GEN_PROF_NO_MODEL || op->device != 0 ||
		    op->stream != 0)
			continue;
		if ((op->batch == 0 && op->tt >= x) || (op->batch == 1 &&
		    op->tt <= z))
			op->model = GEN_PROF_CAPTURE_MODEL;
	}
}

/* Dictionary lines of the strings above. */
void
gen_prof_extra_dicts(struct gen_prof *g, struct strbuf *hash,
    struct strbuf *types)
{
	char	 attr[64];
	size_t	 i;
	int	 k, n;

	if (g->o->aicpu)
		strbuf_addf(hash, "%llu:%s\n%llu:%s\n", (unsigned long long)
		    gen_prof_core_hash(GEN_PROF_MC2_KERNEL),
		    GEN_PROF_MC2_KERNEL, (unsigned long long)
		    gen_prof_core_hash(GEN_PROF_MC2_TYPE), GEN_PROF_MC2_TYPE);
	if (g->o->nest)
		strbuf_addf(hash, "%llu:%s\n%llu:%s\n%llu:Memcpy\n",
		    (unsigned long long)gen_prof_core_hash(GEN_PROF_KFC_HOST_OP),
		    GEN_PROF_KFC_HOST_OP, (unsigned long long)
		    gen_prof_core_hash(GEN_PROF_KFC_INIT), GEN_PROF_KFC_INIT,
		    (unsigned long long)gen_prof_core_hash("Memcpy"));
	if (!g->o->extras)
		return;
	for (i = 0; i < sizeof gen_prof_extra_dict /
	    sizeof gen_prof_extra_dict[0]; i++)
		strbuf_addf(hash, "%llu:%s\n", (unsigned long long)
		    gen_prof_core_hash(gen_prof_extra_dict[i]),
		    gen_prof_extra_dict[i]);
	for (k = 0; k < g->nkinds; k++) {
		for (n = 0; n < GEN_PROF_NAMES - 1; n++) {
			snprintf(attr, sizeof attr, "attr:%s:%d",
			    g->kinds[k].type, n);
			strbuf_addf(hash, "%llu:%s\n", (unsigned long long)
			    gen_prof_core_hash(attr), attr);
		}
	}
	for (i = 0; i < g->nhccl; i++)
		strbuf_addf(hash, "%llu:%s\n", (unsigned long long)
		    gen_prof_core_hash(g->hccl_names[i]), g->hccl_names[i]);
	strbuf_addf(types, "5000_5:MEMCPY_ASYNC\n5000_1103:MemcpyAsync\n"
	    "20000_%u:HcclAllReduce\n20000_%u:aclrtMemcpyAsync\n",
	    7u << 16 | 200, 3u << 16 | 201);
}

static int
gen_prof_extra_cmp(const void *a, const void *b)
{
	const struct gen_prof_xrow	*x = a, *y = b;

	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * One aicpu.data node record (section 4.10) of a run on STREAM/TASK from
 * mono ns RUN_B to RUN_E, submitted at SUBMIT and done at AFTER, and its
 * expected aicpu row named NODE: compute, memcpy and dispatch times in
 * whole us.
 */
static void
gen_prof_extra_aicpu_run(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, uint16_t stream, uint16_t task,
    int64_t run_b, int64_t run_e, int64_t submit, int64_t after,
    const char *node)
{
	char		 t[4][32], sb[40];
	uint64_t	 compute = 1000000 + (uint64_t)gen_prof_core_range(g, 0,
			     900000);
	uint64_t	 mc_b = compute + (uint64_t)gen_prof_core_range(g, 3,
			     60);
	uint64_t	 mc_e = mc_b + (uint64_t)gen_prof_core_range(g, 1, 25);
	uint32_t	 dispatch = (uint32_t)gen_prof_core_range(g, 1, 40);
	char		*line;

	gen_prof_bin_head(b, 6000, 0, 4242, 232,
	    gen_prof_core_syscnt(c, submit));
	gen_prof_bin_buf_u16(b, stream);
	gen_prof_bin_buf_u16(b, task);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u64(b, (uint64_t)run_b / 1000);
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, run_b));
	gen_prof_bin_buf_u64(b, compute);
	gen_prof_bin_buf_u64(b, mc_b);
	gen_prof_bin_buf_u64(b, mc_e);
	gen_prof_bin_buf_u64(b, (uint64_t)run_e / 1000);
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, run_e));
	gen_prof_bin_buf_u32(b, 4243);
	gen_prof_bin_buf_u32(b, (uint32_t)device);
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, submit));
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, submit + c->dtick));
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, run_b - c->dtick));
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, after));
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u32(b, dispatch);
	gen_prof_bin_buf_u32(b, (uint32_t)((after - submit) / 1000));
	gen_prof_bin_buf_pad(b, 256);
	util_fmt_pyfloat(t[0], sizeof t[0], (double)(mc_b - compute));
	util_fmt_pyfloat(t[1], sizeof t[1], (double)(mc_e - mc_b));
	util_fmt_pyfloat(t[2], sizeof t[2], (double)(run_e - run_b) / 1000.0);
	util_fmt_pyfloat(t[3], sizeof t[3], (double)(after - submit) / 1000.0);
	xasprintf(&line, "%d,%s,%s,%s,%s,%s,%u.0,%s,%u,%u", device,
	    gen_prof_extra_us(g, sb, sizeof sb, run_b), node, t[0], t[1], t[2],
	    dispatch, t[3], stream, task);
	gen_prof_extra_row(g, GX_AICPU, (uint64_t)device, (uint64_t)run_b,
	    line);
}

/*
 * Device DEVICE's other AI CPU records of -C at mono time AT: three data
 * preprocessing records (one source name with a byte that is not UTF-8,
 * left out) and three queue waits (one of an unknown tag: no name).
 */
static void
gen_prof_extra_aicpu_queues(struct gen_prof *g, struct gen_buf *b,
    int device, int64_t at)
{
	static const char *const actions[] = { "Last queue dequeue",
	    "Queue enqueue", "Dequeue" };
	char		 text[64], *line, us[40];
	uint64_t	 size, start, n = g->xtabs[GX_DP].n;
	int		 i;

	for (i = 0; i < 3; i++) {
		size = (uint64_t)gen_prof_core_range(g, 1, 4096);
		gen_prof_bin_head(b, 6000, 1, 4244, 232,
		    (uint64_t)(at + i * 1000));
		memset(text, 0, sizeof text);
		snprintf(text, 16, "%s", actions[i]);
		gen_prof_bin_buf_add(b, text, 16);
		memset(text, 0, sizeof text);
		snprintf(text, sizeof text, "iterator_default%s",
		    i == 1 ? "\xff_x" : "");
		gen_prof_bin_buf_add(b, text, 64);
		gen_prof_bin_buf_u64(b, (uint64_t)i);
		gen_prof_bin_buf_u64(b, size);
		gen_prof_bin_buf_pad(b, 256);
		util_fmt_us(us, sizeof us, at + i * 1000 + g->local_off, 3,
		    false);
		xasprintf(&line, "%s,%.15s,iterator_default%s,%llu", us,
		    actions[i], i == 1 ? "_x" : "", (unsigned long long)size);
		gen_prof_extra_row(g, GX_DP, (uint64_t)device, n + (uint64_t)i,
		    line);
	}
	n = g->xtabs[GX_MI].n;
	for (i = 0; i < 3; i++) {
		start = (uint64_t)(at / 1000) + (uint64_t)i * 50;
		size = (uint64_t)gen_prof_core_range(g, 0, 64);
		gen_prof_bin_head(b, 6000, 3, 4245, 232, (uint64_t)at);
		gen_prof_bin_buf_u32(b, i == 2 ? 7 : 1);
		gen_prof_bin_buf_u32(b, 0);
		gen_prof_bin_buf_u64(b, size);
		gen_prof_bin_buf_u64(b, start);
		gen_prof_bin_buf_u64(b, start + 20 + (uint64_t)i);
		gen_prof_bin_buf_pad(b, 256);
		xasprintf(&line, "%s,%llu,%llu,%llu", i == 2 ? "" :
		    "GetNext_dequeue_wait", (unsigned long long)start,
		    (unsigned long long)(start + 20 + (uint64_t)i),
		    (unsigned long long)size);
		gen_prof_extra_row(g, GX_MI, (uint64_t)device, n + (uint64_t)i,
		    line);
	}
}

/*
 * Device DEVICE's KFC turns of -C from mono time AT (on its counter's
 * grid): three server turns (kind 4) on stream 60, task 7, the last one
 * ending before its Finalize phase starts (a phase of 0 us), and three
 * compute turns (kind 5) on task 8 at the same time, with their expected
 * kfc_turn rows.
 */
static void
gen_prof_extra_kfc(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t at)
{
	static const char *const comm[] = { "StartServer", "TaskWaitRequest",
	    "TaskOrchestration", "TaskLaunch", "TaskExecute", "Finalize" };
	static const char *const compute[] = { "WaitCompute", "Compute" };
	uint64_t	 cnt[7], n = g->xtabs[GX_KFC].n;
	int64_t		 mono[7], first = at;
	char		 us[40], dur[40], *line;
	int		 turn, kind, np, p;

	for (kind = 4; kind <= 5; kind++) {
		np = kind == 4 ? 6 : 2;
		/* The compute turns run while the server's do. */
		if (kind == 5)
			at = first + c->dtick * 3;
		for (turn = 0; turn < 3; turn++) {
			mono[0] = at;
			for (p = 1; p <= np; p++)
				mono[p] = mono[p - 1] + c->dtick *
				    gen_prof_core_range(g, 1, 400);
			if (kind == 4 && turn == 2)
				mono[6] = mono[5] - c->dtick;
			for (p = 0; p <= np; p++)
				cnt[p] = gen_prof_core_syscnt(c, mono[p]);
			at = mono[np] + c->dtick * 50;
			gen_prof_bin_head(b, 6000, (uint32_t)kind, 4246, 232,
			    cnt[0]);
			for (p = 0; p <= np; p++)
				gen_prof_bin_buf_u64(b, cnt[p]);
			gen_prof_bin_buf_u64(b, 0);
			gen_prof_bin_buf_u32(b, (uint32_t)device);
			gen_prof_bin_buf_u16(b, 60);
			gen_prof_bin_buf_u16(b, kind == 4 ? 7 : 8);
			gen_prof_bin_buf_add(b, "\001\003", 2);
			gen_prof_bin_buf_add(b, (char []){ (char)turn }, 1);
			gen_prof_bin_buf_pad(b, 256);
			for (p = 0; p < np; p++) {
				util_fmt_us(us, sizeof us, mono[p] +
				    g->local_off, 3, false);
				util_fmt_us(dur, sizeof dur, mono[p + 1] >
				    mono[p] ? mono[p + 1] - mono[p] : 0, 3,
				    false);
				xasprintf(&line, "%d,60,%d,%d,%s,%s,%s",
				    device, kind == 4 ? 7 : 8, turn, kind == 4 ?
				    comm[p] : compute[p], us, dur);
				gen_prof_extra_row(g, GX_KFC,
				    (uint64_t)device, n++, line);
			}
		}
	}
}

/* The names of HCCL tasks; the last is never in the dictionary. */
static const char *const gen_prof_kfc_names[] = { "Notify_Wait", "Memcpy",
    "kfc-unlisted" };

/* Name S as the importer shows it: from the dictionary (-g), else its hash. */
static const char *
gen_prof_extra_named(const struct gen_prof *g, const char *s, char *buf,
    size_t size)
{
	if (g->o->extras && s != gen_prof_kfc_names[2])
		return s;
	snprintf(buf, size, "%llu", (unsigned long long)gen_prof_core_hash(s));
	return buf;
}

/*
 * One HCCL information of a kind 13 record, the I-th of device DEVICE
 * (group 0, and no row, when NONE), at counter T, and its kfc_info row.
 */
static const char *const gen_prof_kfc_dtypes[] = { "INT8", "FP16", "BFP16" };
/*
 * No RDMA payload: the MC2 ops' tasks join the communication tables, and
 * a payload there needs the tasks that close it (hccl_info's have them);
 * prof-gen.sh and prof-kfc-vendor.sh make some of them payloads.
 */
static const char *const gen_prof_kfc_rdma[] = { "RDMA_SEND_NOTIFY",
    "RESERVED", "RDMA_SEND_NOTIFY" };

/*
 * The transport of -C's I-th KFC HCCL information: task 301, a Memcpy on
 * HCCS, is an SDMA copy, so the MC2 op has transit time.
 */
static const uint8_t gen_prof_kfc_transport[] = { 0, 0, 2, 1, 0, 1 };

/* The communication stream of -C's I-th KFC HCCL information's task. */
static int
gen_prof_extra_kfc_stream(int i)
{
	return i == 2 || i == 3 ? 62 : 61;
}

static void
gen_prof_extra_kfc_info(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int i, int64_t mono, bool none)
{
	static const char *const *const names = gen_prof_kfc_names;
	static const char *const *const dtypes = gen_prof_kfc_dtypes;
	static const char *const *const rdma = gen_prof_kfc_rdma;
	static const char *const reduce[] = { "SUM", "MUL", "MAX", "MIN" };
	static const uint8_t dtype_v[] = { 0, 3, 11 }, rdma_v[] = { 0, 255,
	    0 };
	const char	*name = names[i % 3];
	char		 us[40], nb[32], gb[32], *line;
	uint32_t	 task = 300 + (uint32_t)i;
	uint64_t	 size = 1024 * (uint64_t)(i + 1), est_bits;
	double		 est = 1.25 * i;

	gen_prof_bin_buf_u64(b, gen_prof_core_hash(name));
	gen_prof_bin_buf_u64(b, 7000 + (uint64_t)i);
	gen_prof_bin_buf_u64(b, none ? 0 : gen_prof_core_hash("group-world"));
	gen_prof_bin_buf_u32(b, (uint32_t)device);
	gen_prof_bin_buf_u32(b, (uint32_t)(device + 1 + i) % 8);
	gen_prof_bin_buf_u32(b, 8);
	gen_prof_bin_buf_u32(b, (uint32_t)i % 3);	/* stage */
	gen_prof_bin_buf_u64(b, 900 + (uint64_t)i);	/* notify */
	gen_prof_bin_buf_u64(b, gen_prof_core_syscnt(c, mono));
	memcpy(&est_bits, &est, sizeof est_bits);
	gen_prof_bin_buf_u64(b, est_bits);
	gen_prof_bin_buf_u64(b, 0x10000 + (uint64_t)i);
	gen_prof_bin_buf_u64(b, 0x20000 + (uint64_t)i);
	gen_prof_bin_buf_u64(b, size);
	gen_prof_bin_buf_u32(b, task);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u16(b, (uint16_t)gen_prof_extra_kfc_stream(i));
	gen_prof_bin_buf_u16(b, (uint16_t)(i % 4));	/* plane */
	gen_prof_bin_buf_add(b, (uint8_t []){ (uint8_t)(i % 4), dtype_v[i %
	    3], (uint8_t)(i % 5), gen_prof_kfc_transport[i], rdma_v[i % 3],
	    (uint8_t)(i % 2), (uint8_t)(i % 2 + 1), 0, 0, 0, 0, 0, 0, 0, 0,
	    0 }, 16);
	if (none)
		return;
	util_fmt_us(us, sizeof us, mono + g->local_off, 3, false);
	xasprintf(&line, "%d,%s,%s,%d,%s,%d,%d,8,%d,%d,%d,%d,%s,%.3f,%d,%d,"
	    "%llu,%s,%s,%s,%s,%s,%d,%u", device, us,
	    gen_prof_extra_named(g, name, nb, sizeof nb), 7000 + i,
	    gen_prof_extra_named(g, "group-world", gb, sizeof gb), device,
	    (device + 1 + i) % 8, i % 2 + 1, i % 4, 900 + i, i % 3,
	    i % 2 ? "SRC" : "DST", est, 0x10000 + i, 0x20000 + i,
	    (unsigned long long)size, reduce[i % 4], dtypes[i % 3],
	    gen_prof_extra_links[i % 5],
	    gen_prof_extra_transports[gen_prof_kfc_transport[i]],
	    rdma[i % 3], gen_prof_extra_kfc_stream(i), task);
	gen_prof_extra_row(g, GX_KFC_INFO, (uint64_t)device,
	    g->xtabs[GX_KFC_INFO].n, line);
}

/*
 * Device DEVICE's records of its AI CPU's own communication for -C, from
 * mono time AT on: three kind 13 records (the last with its second slot
 * empty), two kind 10 ops, two kind 11 flips and a kind 12 first and
 * last task, with their expected rows.
 */
static void
gen_prof_extra_aicpu_comm(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t at)
{
	static const uint32_t kinds[] = { 13, 13, 13, 10, 10, 12, 12, 11, 11 };
	int		 ost = device == 1 ? GEN_PROF_KFC_STREAM : 61;
	char	 us[40], ab[32], gb[32], *line;
	int	 i, k;

	for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++) {
		at += c->dtick * 20;
		i = k < 3 ? k : (k - 3) % 2;
		/* HCCL writes kind 13 with no time stamp in the head. */
		gen_prof_bin_head(b, 6000, kinds[k], 4247, 232, kinds[k] == 13 ?
		    0 : gen_prof_core_syscnt(c, at));
		util_fmt_us(us, sizeof us, at + g->local_off, 3, false);
		switch (kinds[k]) {
		case 13:
			gen_prof_extra_kfc_info(g, c, b, device, 2 * i, at,
			    false);
			gen_prof_extra_kfc_info(g, c, b, device, 2 * i + 1,
			    at + 5 * c->dtick, i == 2);
			gen_prof_bin_buf_pad(b, 256);
			continue;
		case 10:
			gen_prof_bin_buf_add(b, (uint8_t []){ (uint8_t)(i + 1),
			    (uint8_t)(i ? 3 : 4) }, 2);
			gen_prof_bin_buf_u64(b, gen_prof_core_hash(i ?
			    "RING-NHR" : "HD-MESH"));
			gen_prof_bin_buf_u64(b, 4096 * (uint64_t)(i + 1));
			gen_prof_bin_buf_u64(b,
			    gen_prof_core_hash("group-world"));
			gen_prof_bin_buf_u32(b, 8);
			gen_prof_bin_buf_u16(b, (uint16_t)ost);
			gen_prof_bin_buf_u32(b, 290 + (uint32_t)i);
			xasprintf(&line, "%d,%s,%d,%d,%s,%s,%d,%s,8,%d,%d",
			    device, us, (i + 1) & 1, (i + 1) >> 1 & 1, i ?
			    "FP16" : "FP32", gen_prof_extra_named(g, i ?
			    "RING-NHR" : "HD-MESH", ab, sizeof ab), 4096 *
			    (i + 1), gen_prof_extra_named(g, "group-world", gb,
			    sizeof gb), ost, 290 + i);
			gen_prof_extra_row(g, GX_DEV_OP, (uint64_t)device,
			    g->xtabs[GX_DEV_OP].n, line);
			break;
		case 11:
			gen_prof_bin_buf_u16(b, 61);
			gen_prof_bin_buf_u16(b, (uint16_t)(65535 - i));
			gen_prof_bin_buf_u32(b, (uint32_t)i + 1);
			xasprintf(&line, "%d,%s,61,%d,%d", device, us,
			    65535 - i, i + 1);
			gen_prof_extra_row(g, GX_FLIP, (uint64_t)device,
			    g->xtabs[GX_FLIP].n, line);
			break;
		default:
			gen_prof_bin_buf_u16(b, GEN_PROF_KFC_STREAM);
			gen_prof_bin_buf_u16(b, GEN_PROF_KFC_TASK);
			gen_prof_bin_buf_u16(b, 61);
			gen_prof_bin_buf_u16(b, (uint16_t)(300 + 4 * i));
			gen_prof_bin_buf_u16(b, (uint16_t)i);
			xasprintf(&line, "%d,%s,%d,%d,61,%d,%d", device, us,
			    GEN_PROF_KFC_STREAM, GEN_PROF_KFC_TASK, 300 + 4 * i,
			    i);
			gen_prof_extra_row(g, GX_MASTER, (uint64_t)device,
			    g->xtabs[GX_MASTER].n, line);
			break;
		}
		gen_prof_bin_buf_pad(b, 256);
	}
}

/*
 * Device DEVICE's MC2 op for -C, from mono time AT, the time of its AI
 * CPU records (gen_prof_extra_aicpu_comm): the kernel on the KFC stream
 * and one task per KFC HCCL information on the communication streams
 * (with a last one without), and the op's expected kfc_op and kfc_task
 * rows. The first and last task records name tasks 300 and 304, so the
 * op runs from the start of the one to the end of the other. Task 303 is
 * a C_CORE_SQE task: the main stream moves to its stream. Device 1's op
 * info is on the KFC stream, which makes its op an HCCL op's.
 */
static void
gen_prof_extra_mc2_tasks(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_buf *b, int device, int64_t at)
{
	static const int mc2_master[] = { 1, 1, 0, 1, 0 };
	static const int mc2_plane[] = { 0, 0, 1, 0, 2 };
	static const int hccl_master[] = { 0, 1, 0, 0, 0 };
	static const int hccl_plane[] = { 1, 1, 2, 2, 3 };
	bool		 hccl = device == 1;
	char		 hash[24], name[96], os[40], od[40], ts[40], td[40];
	char		 gb[32], nb[32], *line;
	int64_t		 dt = c->dtick, st;
	double		 bw;
	int		 i;

	/* The kernel, then its tasks, each start before its end. */
	gen_prof_bin_stars(b, 0, (int)(b->len / 64), 1, GEN_PROF_KFC_STREAM,
	    GEN_PROF_KFC_TASK, gen_prof_core_syscnt(c, at + 50 * dt), 0, 0);
	for (i = 0; i < 6; i++) {
		st = i < 5 ? gen_prof_extra_kfc_stream(i) : 61;
		gen_prof_bin_stars(b, 0, (int)(b->len / 64), i == 3 ? 20 : 11,
		    (uint16_t)st, (uint16_t)(300 + i), gen_prof_core_syscnt(c,
		    at + (60 + 20 * i) * dt), 0, 0);
		gen_prof_bin_stars(b, 1, (int)(b->len / 64), i == 3 ? 20 : 11,
		    (uint16_t)st, (uint16_t)(300 + i), gen_prof_core_syscnt(c,
		    at + (70 + 20 * i) * dt), 0, 0);
	}
	gen_prof_bin_stars(b, 1, (int)(b->len / 64), 1, GEN_PROF_KFC_STREAM,
	    GEN_PROF_KFC_TASK, gen_prof_core_syscnt(c, at + 200 * dt), 0, 0);
	snprintf(hash, sizeof hash, "%llu", (unsigned long long)
	    gen_prof_core_hash("group-world"));
	/* With -N, device 1's op is named after its host HCCL op. */
	snprintf(name, sizeof name, "%s_%s_0_1", hccl && g->o->nest ?
	    GEN_PROF_KFC_HOST_OP : GEN_PROF_MC2_KERNEL,
	    hash + strlen(hash) - 3);
	util_fmt_us(os, sizeof os, at + 60 * dt + g->local_off, 3, false);
	util_fmt_us(od, sizeof od, 90 * dt, 3, false);
	if (hccl)
		xasprintf(&line, "%d,4294967295,%s,%s,%s,%s,%s,1,0,FP32,%s,"
		    "4096,8,HCCL,%d,%d", device, name, os, od,
		    gen_prof_extra_named(g, "group-world", gb, sizeof gb),
		    GEN_PROF_MC2_TYPE,
		    gen_prof_extra_named(g, "HD-MESH", nb, sizeof nb),
		    GEN_PROF_KFC_STREAM, GEN_PROF_KFC_TASK);
	else
		xasprintf(&line, "%d,4294967295,%s,%s,%s,%s,%s,N/A,N/A,N/A,"
		    "N/A,N/A,N/A,MC2,%d,%d", device, name, os, od,
		    gen_prof_extra_named(g, "group-world", gb, sizeof gb),
		    GEN_PROF_MC2_TYPE, GEN_PROF_KFC_STREAM, GEN_PROF_KFC_TASK);
	gen_prof_extra_row(g, GX_KFC_OP, (uint64_t)device, 0, line);
	for (i = 0; i < 5; i++) {
		util_fmt_us(ts, sizeof ts, at + (60 + 20 * i) * dt +
		    g->local_off, 3, false);
		util_fmt_us(td, sizeof td, 10 * dt, 3, false);
		/* Size over duration, with the vendor's factors. */
		bw = ((double)(1024 * (i + 1)) * pow(0.001, 3)) /
		    ((double)(10 * dt) * pow(0.001, 3));
		xasprintf(&line, "%d,4294967295,%s,%s,%s,%s,%d,%s,%s,%d,%d,%d,"
		    "%.3f,%d,%d,%s,%llu,%s,%s,%.4f,N/A,%d,0,%s,%s", device,
		    name, os,
		    gen_prof_extra_named(g, gen_prof_kfc_names[i % 3], nb,
		    sizeof nb), gen_prof_extra_named(g, "group-world", gb,
		    sizeof gb), hccl ? hccl_plane[i] : mc2_plane[i], ts, td,
		    hccl ? hccl_master[i] : mc2_master[i],
		    gen_prof_extra_kfc_stream(i), 300 + i, 1.25 * i,
		    device, (device + 1 + i) % 8,
		    gen_prof_extra_transports[gen_prof_kfc_transport[i]],
		    (unsigned long long)(1024 * (uint64_t)(i + 1)),
		    gen_prof_kfc_dtypes[i % 3], gen_prof_extra_links[i % 5],
		    bw, 900 + i, gen_prof_kfc_rdma[i % 3], hccl ? "HCCL" :
		    "MC2");
		gen_prof_extra_row(g, GX_KFC_TASK, (uint64_t)device,
		    (uint64_t)i, line);
	}
}

/*
 * The aicpu.data of -C: a node record for each task of an AI CPU op,
 * running inside it, and after each device's first one a run of the same
 * task after it ended, which no task holds: its Node is N/A. Each device
 * starts with its data preprocessing records, queue waits and KFC turns,
 * and ends with the records of its AI CPU's own communication.
 */
void
gen_prof_extra_aicpu(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_prof_dev *dev)
{
	const struct gen_prof_task	*t;
	const struct gen_prof_op	*op;
	bool				*late;
	int64_t				 b, e;
	size_t				 i;

	late = xcalloc((size_t)g->o->devices, sizeof *late);
	for (i = 0; i < (size_t)g->o->devices; i++) {
		gen_prof_extra_aicpu_queues(g, &dev[i].aicpu, (int)i,
		    c->begin + 3000000);
		gen_prof_extra_kfc(g, c, &dev[i].aicpu, (int)i, c->dsync +
		    c->dtick * ((c->begin - c->dsync) / c->dtick + 1000));
	}
	for (i = 0; i < g->ntasks; i++) {
		t = &g->tasks[i];
		op = &g->ops[t->op];
		if (g->kinds[op->kind].ge != 1)
			continue;
		b = t->start + c->dtick;
		e = t->start + t->dur - c->dtick;
		gen_prof_extra_aicpu_run(g, c, &dev[op->device].aicpu,
		    op->device, (uint16_t)(op->stream + 2), (uint16_t)op->task,
		    b, e, t->start - c->dtick * gen_prof_core_range(g, 20, 200),
		    t->start + t->dur + c->dtick * gen_prof_core_range(g, 1, 30),
		    g->names[op->kind][op->name]);
		if (late[op->device])
			continue;
		late[op->device] = true;
		b = t->start + t->dur + 2 * c->dtick;
		gen_prof_extra_aicpu_run(g, c, &dev[op->device].aicpu,
		    op->device, (uint16_t)(op->stream + 2), (uint16_t)op->task,
		    b, b + 3 * c->dtick, b - 10 * c->dtick, b + 5 * c->dtick,
		    "N/A");
	}
	for (i = 0; i < (size_t)g->o->devices; i++) {
		/* Apart on each device, as no two devices run in step. */
		b = c->dsync + c->dtick * ((c->begin - c->dsync) / c->dtick +
		    3000 + 250 * (int64_t)i);
		gen_prof_extra_aicpu_comm(g, c, &dev[i].aicpu, (int)i, b);
		gen_prof_extra_mc2_tasks(g, c, &dev[i].logs, (int)i, b);
	}
	free(late);
}

/* Write the expected table of every kind that has rows. */
int
gen_prof_extra_expect(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_xtab	*x;
	FILE			*f;
	char			*name;
	size_t			 i;
	int			 t, rc = 0;

	for (t = 0; rc == 0 && t < GX_NTABLES; t++) {
		x = &g->xtabs[t];
		if (x->n == 0)
			continue;
		qsort(x->v, x->n, sizeof *x->v, gen_prof_extra_cmp);
		xasprintf(&name, "%s.csv", gen_prof_extra_names[t]);
		if ((f = util_file_create(dir, name, cause)) == NULL) {
			free(name);
			return -1;
		}
		fprintf(f, "%s\n", gen_prof_extra_heads[t]);
		for (i = 0; i < x->n; i++)
			fprintf(f, "%s\n", x->v[i].line);
		rc = util_file_close(f, dir, name, cause);
		free(name);
	}
	return rc;
}

void
gen_prof_extra_free(struct gen_prof *g)
{
	size_t	 i;
	int	 t;

	for (t = 0; t < GX_NTABLES; t++) {
		for (i = 0; i < g->xtabs[t].n; i++)
			free(g->xtabs[t].v[i].line);
		free(g->xtabs[t].v);
	}
	for (i = 0; i < g->nhccl; i++)
		free(g->hccl_names[i]);
	free(g->hccl_names);
	free(g->copies);
}
