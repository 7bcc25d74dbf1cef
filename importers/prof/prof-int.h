/*
 * Private to the raw PROF_* importer (import-prof.c and prof-*.c): the
 * metadata of one collection directory, the slice reader, the host record
 * arrays and the device task arrays that the join turns into store rows.
 * doc/formats.md sections 1-4 are the specification.
 */
#ifndef PROF_INT_H
#define PROF_INT_H

#include <pthread.h>

#include "import-int.h"
#include "prof-dev.h"

/* Levels of host API spans (section 3.3). */
#define PROF_LEVEL_ACL		20000
#define PROF_LEVEL_MODEL	15000
#define PROF_LEVEL_NODE		10000
#define PROF_LEVEL_HCCL		5500
#define PROF_LEVEL_RUNTIME	5000

/* Runtime task types with a meaning of their own (section 3.5). */
#define PROF_TASK_FLIP		98
#define PROF_TASK_MAINTENANCE	6

/* A frequency in MHz as an exact fraction NUM / DEN (e.g. 384 / 10). */
struct prof_freq {
	int64_t		 num;
	int64_t		 den;
};

/* The control files of one host or device_N directory (section 2). */
struct prof_meta {
	char		*dir;
	int64_t		 device;	/* NP_HOST_DEVICE for host */
	int		 chip;		/* platform_version, -1 unknown */
	int64_t		 rank;		/* NP_NA if none */
	int64_t		 pid;
	int64_t		 drv_version;
	bool		 info_v2;	/* info.json "version" 2.0 */
	struct prof_freq hwts;		/* device syscnt; num 0 if unknown */
	struct prof_freq aic;
	struct prof_freq host;		/* num 0: host times are mono ns */
	int		 ai_core_num;
	int		 aiv_num;
	char		*prof_level;
	char		*aic_metrics;
	char		*aic_events;
	char		*aiv_events;
	bool		 has_start;
	int64_t		 begin_us;	/* collectionTimeBegin */
	int64_t		 begin_mono;	/* clockMonotonicRaw */
	bool		 has_end;
	int64_t		 end_us;
	bool		 has_host_start;
	int64_t		 hs_mono;	/* host_start.log */
	int64_t		 hs_cnt;
	int64_t		 hs_diff;
	bool		 has_realtime;	/* older host_start.log */
	int64_t		 realtime_off;	/* clock_realtime - mono */
	bool		 has_dev_start;
	int64_t		 ds_cnt;	/* dev_start.log cntvct */
	int64_t		 anchor_ns;	/* corrected host mono anchor */
	int64_t		 local_off;	/* epoch ns minus mono ns */
};

/* prof-meta.c */
int		 prof_meta_read(struct store *, const char *, int64_t,
		     struct prof_meta *);
void		 prof_meta_release(struct prof_meta *);
int		 prof_meta_freq_parse(const char *, struct prof_freq *);
int64_t		 prof_meta_dev_ns(const struct prof_meta *, uint64_t);
int64_t		 prof_meta_dev_dur(const struct prof_meta *, uint64_t);
int64_t		 prof_meta_host_ns(const struct prof_meta *, uint64_t);
int64_t		 prof_meta_begin_ns(const struct prof_meta *);
bool		 prof_meta_sane(int64_t);
bool		 prof_meta_is_stars(const struct prof_meta *);
bool		 prof_meta_is_v6(const struct prof_meta *);
const char	*prof_meta_chip_name(int);

/* prof-slices.c: ordered slices read as one record stream. */
struct prof_files {
	char		**paths;
	bool		 *unaging;
	int64_t		 *sizes;
	int64_t		 *shorts;	/* bytes short of the .done's size */
	size_t		  n;
	int64_t		  total;
	bool		  uncounted;	/* read before: progress and warnings
					   have it */
};
struct prof_stream {
	struct store		*s;
	struct prof_files	*files;
	size_t			 recsize;
	bool			 per_file;	/* host: records per file */
	size_t			 cur;		/* file being read */
	FILE			*f;
	int64_t			 file_off;	/* offset of buf[pos] in file */
	int64_t			 file_read;	/* bytes read of the file */
	unsigned char		*buf;
	size_t			 len;
	size_t			 pos;
	int64_t			 skip;
	int64_t			 records;
	bool			 unaging;	/* of the current record */
	const char		*path;		/* of the current record */
	int64_t			 offset;	/* of the current record */
	bool			 quiet;		/* no warnings: a probe */
	int64_t			 nomagic;	/* records without the magic */
	const char		*nomagic_path;	/* and the first one's */
	int64_t			 nomagic_off;
	int64_t			 soff;		/* stream offset of buf[pos] */
	struct prof_hole {
		size_t		 file;		/* the slice cut short */
		int64_t		 at;		/* stream offset of the cut */
		int64_t		 pad;		/* bytes put in for it */
		int64_t		 lost;		/* records it spoilt */
	}			*holes;
	size_t			 nholes;
};
void		 prof_slices_list(const char *, const char *, bool,
		     struct prof_files *);
void		 prof_slices_release(struct prof_files *);
int64_t		 prof_slices_written(const struct prof_files *, size_t);
void		 prof_slices_open(struct prof_stream *, struct store *,
		     struct prof_files *, size_t, bool);
void		 prof_slices_open_lined(struct prof_stream *, struct store *,
		     struct prof_files *, size_t, bool (*)(const unsigned char *,
		     const unsigned char *, void *), void *, bool);
bool		 prof_slices_counted(const unsigned char *,
		     const unsigned char *, void *);
const unsigned char *prof_slices_next(struct prof_stream *);
void		 prof_slices_close(struct prof_stream *);
bool		 prof_slices_magic(struct prof_stream *, const unsigned char *);
#define PROF_RECORD_MAGIC	0x5A5A
#define PROF_LINE_MAX		(1 << 20)	/* of a dictionary line */
int		 prof_slices_lines_read(struct store *, struct prof_files *,
		     void (*)(void *, char *, size_t), void *);
int64_t		 prof_slices_bytes(const char *, const char *);

/* prof-dict.c: 64-bit keyed maps and the hash_dic/type_info_dic text. */
struct prof_dicts {
	struct util_map	 hash;		/* hash id -> strs index */
	struct util_map	 type;		/* level << 32 | type -> strs index */
	char		**strs;
	size_t		  nstrs;
};
void		 prof_dict_read(struct store *, const char *,
		     struct prof_dicts *);
void		 prof_dict_parse(struct store *, const char *, const char *,
		     size_t, struct prof_dicts *);
void		 prof_dict_release(struct prof_dicts *);
const char	*prof_dict_hash(const struct prof_dicts *, uint64_t, char *,
		     size_t);
const char	*prof_dict_type(const struct prof_dicts *, unsigned,
		     uint64_t, char *, size_t);
bool		 prof_dict_has_type(const struct prof_dicts *, unsigned,
		     uint64_t);

/* prof-host.c: the host records of sections 3.2-3.6. */
/*
 * One API span, 40 bytes: a large collection has millions. AUX holds the
 * record's reserve (an event's request id) while events are paired, then
 * the span's store row once it is loaded (0 if none).
 */
struct prof_span {
	uint64_t	 begin;		/* host raw */
	uint64_t	 end;
	uint64_t	 item;
	uint32_t	 tid;
	uint32_t	 type;
	uint32_t	 aux;
	uint16_t	 level;
};
/* The order spans are stored and swept in: thread, begin, outer first. */
static inline int
prof_span_order(const struct prof_span *x, const struct prof_span *y)
{
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	if (x->level != y->level)
		return x->level > y->level ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->item != y->item)
		return x->item < y->item ? -1 : 1;
	return 0;
}

struct prof_host;
/* Sorted runs of API spans in an unlinked temporary file (prof-runs.c). */
struct prof_run {
	int64_t		 off;		/* byte offset */
	size_t		 n;		/* spans */
};
struct prof_runs {
	bool		 open;
	int		 fd;
	struct prof_run	*v;
	size_t		 n;
	int64_t		 end;		/* bytes written */
	bool		 off;		/* cannot write: spans stay in memory */
};
struct prof_runs_src {
	struct prof_span *buf;
	size_t		 len;
	size_t		 pos;
	size_t		 cap;		/* spans BUF holds */
	int64_t		 off;		/* next byte of the run to read */
	size_t		 left;		/* spans of the run not read yet */
	bool		 mem;		/* the spans still in memory */
};
struct prof_runs_merge {
	int			 fd;
	struct prof_runs_src	*src;
	size_t			 nsrc;
	size_t			*heap;		/* of src indices */
	size_t			 nheap;
	bool			 failed;	/* a run could not be read */
	char			*cause;
};
size_t		 prof_runs_size(void);
void		 prof_runs_spill(struct store *, const char *,
		     struct prof_host *);
void		 prof_runs_merge_start(struct prof_host *,
		     struct prof_runs_merge *);
bool		 prof_runs_merge_next(struct prof_runs_merge *,
		     struct prof_span *);
void		 prof_runs_merge_end(struct prof_runs_merge *);
void		 prof_runs_release(struct prof_runs *);
int		 prof_span_cmp(const void *, const void *);
/* Every record attached to a span starts like this. */
struct prof_rec {
	uint64_t	 ts;
	uint32_t	 tid;
};
/* The order records are attached in: thread, then time. */
static inline int
prof_rec_order(const struct prof_rec *x, const struct prof_rec *y)
{
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return 0;
}
/* What a node_basic_info record says: one of each (prof-dedup.c). */
struct prof_nkind {
	uint64_t	 name;
	uint64_t	 op_type;
	uint32_t	 block_dim;
	uint32_t	 op_flag;
	uint16_t	 ge_type;
	bool		 is_static;	/* from an unaging file */
};
/* A node_basic_info record: when, on which thread, and what it says. */
struct prof_node {
	uint64_t	 ts;
	uint32_t	 tid;
	uint32_t	 kind;		/* nkinds index */
};
/*
 * One task_track record (64 bytes in the file, 56 here): there is one per
 * device task.
 */
struct prof_track {
	uint64_t	 ts;
	uint32_t	 tid;
	uint32_t	 type;		/* runtime task type */
	uint16_t	 device;
	uint16_t	 stream;
	uint32_t	 task;		/* 16 bits; chip V6: 32 (prof-join.c) */
	uint16_t	 batch;
	uint16_t	 task_hi;	/* high half of the id: chip V6's task */
	int32_t		 node;		/* nkinds index or -1 */
	int32_t		 span;		/* node span index or -1 */
	int32_t		 model;		/* model span index or -1, then
					   (prof_ops_finish) models index */
	int32_t		 tensor;	/* tkinds index or -1 */
	int32_t		 ctx;		/* cinfos index or -1 */
	uint32_t	 row;		/* bytes 36-39 until prof_host_track_v2
					   reads them, then the store row of
					   the node span, or 0 */
	uint32_t	 item;		/* items index of the node span's item
					   (prof_ops_finish) */
};
/* One tensor of tensor_info (section 3.6). */
struct prof_tensor {
	uint32_t	 type;		/* 0 input, 1 output */
	uint32_t	 format;
	uint32_t	 dtype;
	uint32_t	 shape[8];
};
/* The tensor columns of one op, as ids of strings in tstrs. */
struct prof_tkind {
	uint32_t	 str[6];	/* in/out shapes, dtypes, formats */
};
/* A tensor_info op: when, on which thread, and its columns. */
struct prof_tinfo {
	uint64_t	 ts;
	uint32_t	 tid;
	uint32_t	 kind;		/* tkinds index */
};
/* Tensor lists already turned into strings: TENSORS[FIRST..FIRST+N). */
struct prof_tmemo {
	uint32_t	 str[6];
	uint32_t	 first;
	uint32_t	 n;
};
/* The context ids of one op, in the host's ctx_ids array. */
struct prof_list {
	uint64_t	 ts;
	uint32_t	 tid;
	uint32_t	 first;
	uint32_t	 n;
	uint64_t	 name;
};
/*
 * Host records of one smaller kind (prof-extra.c): V holds N
 * records of SIZE bytes in file order, IX their thread and time order.
 */
struct prof_xref {
	uint64_t	 ts;
	uint32_t	 tid;
	uint32_t	 i;		/* index into v */
};
struct prof_recs {
	unsigned char		*v;
	struct prof_xref	*ix;
	size_t			 n;
	size_t			 size;
};
enum prof_extra_kind {
	PX_GRAPH,		/* additional.graph_id_map */
	PX_FUSION,		/* additional.fusion_op_info */
	PX_HCCL,		/* additional.hccl_info */
	PX_ATTR,		/* compact.node_attr_info */
	PX_HCCL_OP,		/* compact.hccl_op_info */
	PX_CAPTURE,		/* compact.capture_stream_info */
	PX_MEMCPY,		/* compact.memcpy_info */
	PX_MC2,			/* additional.mc2_comm_info */
	PX_NKINDS
};
/*
 * What the HCCL tasks read of an hccl_info record (section 3.6), packed
 * once its table is written (prof_hccl_pack): 56 bytes, not 144.
 */
struct prof_hinfo {
	uint64_t	 name;		/* @24, a hash */
	uint64_t	 group;		/* @40, a hash */
	uint64_t	 size;		/* @112 */
	uint32_t	 src;		/* @48, local rank */
	uint32_t	 dst;		/* @52, remote rank */
	uint32_t	 plane;		/* @64 */
	uint32_t	 ctx;		/* @68, context id */
	uint32_t	 link;		/* @128, link type */
	uint32_t	 transport;	/* @132 */
	uint32_t	 rdma;		/* @136, RDMA type */
};
/*
 * One HCCL task (section 3.10): a task_track record under an HCCL span,
 * once per hccl_info record of that span with its own context id.
 */
struct prof_hdesc {
	uint32_t	 track;		/* index into tracks */
	int32_t		 info;		/* hccl_info record (ix order) or -1 */
	uint32_t	 key;		/* its context id: one task per key */
	uint32_t	 ctx;		/* the device context: the key if the
					   span's range holds it, else none */
	int32_t		 same;		/* next task of the track and ctx */
	bool		 master;	/* the span's type is "master" */
	int64_t		 start_ns;	/* of its device task, NP_NA if none */
	int64_t		 dur_ns;
};
/* One HCCL op: a node span holding HCCL tasks. */
struct prof_hop {
	uint64_t	 begin;		/* host raw */
	uint64_t	 end;
	uint64_t	 item;		/* op name hash */
	uint64_t	 op_type;	/* node_basic_info's, 0 if none */
	uint64_t	 group;		/* hccl_op_info's, 0 if none */
	uint32_t	 tid;
	uint32_t	 track;		/* its first task */
	int32_t		 kfc_span;	/* the last node span right inside
					   its node span, -1 if none */
	uint16_t	 device;
};
/* A capture time range of a model stream (section 3.5). */
struct prof_capture {
	uint64_t	 start;		/* host raw */
	uint64_t	 end;
	uint64_t	 model;
};
/* The copy one MEMCPY_ASYNC host task made. */
struct prof_memcpy {
	uint32_t	 track;		/* index into tracks */
	uint16_t	 dir;		/* 65535: unknown */
	uint64_t	 size;
	int64_t		 start_ns;	/* of its device task, or NP_NA */
	int64_t		 dur_ns;
};
struct prof_host {
	const struct prof_meta	*meta;		/* the host's, or NULL */
	struct prof_dicts	 dicts;
	struct prof_recs	 extra[PX_NKINDS];
	struct prof_capture	*caps;
	size_t			 ncaps;
	struct util_map		 cap_map;	/* device, stream, batch */
	struct prof_memcpy	*mcs;
	size_t			 nmcs;
	uint64_t		*mc_left;	/* per memcpy_info record */
	struct util_map		 mc_map;	/* track index -> mcs index */
	struct prof_span	*spans;
	size_t			 nspans;
	struct prof_runs	 runs;		/* spans spilled to disk */
	int32_t			*span_node;	/* per span: its nkinds, */
	int32_t			*span_tensor;	/* tkinds and cinfos index, */
	int32_t			*span_ctx;	/* or -1 (prof_ops_build) */
	uint64_t		*models;	/* tasks' model ids, once */
	size_t			 nmodels;
	uint64_t		*items;		/* tasks' op items, once each */
	size_t			 nitems;
	struct prof_node	*nodes;
	size_t			 nnodes;
	struct prof_nkind	*nkinds;	/* what nodes say, once each */
	size_t			 nnkinds;
	struct util_map		 nkind_map;
	struct prof_tkind	*tkinds;	/* tensor columns, once each */
	size_t			 ntkinds;
	struct util_map		 tkind_map;
	struct prof_track	*tracks;
	size_t			 ntracks;
	struct prof_tinfo	*tinfos;
	size_t			 ntinfos;
	uint64_t		 tinfo_name;	/* op of the last tinfo */
	struct prof_tensor	*tensors;	/* of the op being read */
	size_t			 ntensors;
	char			**tstrs;	/* distinct tensor strings, but
						   [0] is NULL: none */
	size_t			 ntstrs;
	struct util_map		 tstr_map;
	struct prof_tmemo	*tmemo;
	size_t			 ntmemo;
	struct prof_tensor	*tmemo_tensors;
	size_t			 ntmemo_tensors;
	struct util_map		 tmemo_map;
	struct prof_list	*cinfos;
	size_t			 ncinfos;
	struct prof_list	*hcinfos;	/* HCCL level: first, count */
	size_t			 nhcinfos;
	size_t			 hctx_bad;	/* of them, not a range */
	uint32_t		*ctx_ids;
	size_t			 nctx_ids;
	struct prof_hdesc	*hdescs;	/* HCCL tasks (prof-hccl.c) */
	size_t			 nhdescs;
	size_t			 hdesc_lost;	/* beyond PROF_HCCL_MAX_TASKS */
	struct prof_hinfo	*hinfos;	/* hccl_info, in ix order; from
						   then extra[PX_HCCL] keeps
						   its ix and n, not its v */
	struct util_map32	 hdesc_at;	/* track, ctx -> first hdesc */
	struct prof_hop		*hops;		/* HCCL ops */
	size_t			 nhops;
	struct prof_opstat	*opstats;	/* communication_statistic rows
						   of the devices read */
	size_t			 nopstats;
	bool			 expand;	/* expand_stream_spec */
	bool			 track_v2;	/* task_track in the V2 layout */
};
void		 prof_host_read(struct store *, const char *,
		     struct prof_host *);
struct prof_host_nodes {		/* the node records' reader */
	pthread_t		 thread;
	bool			 threaded;
	struct store		*s;
	char			*data;
	struct prof_host	*h;
	struct store_defer	*defer;
};
void		 prof_host_nodes_start(struct prof_host_nodes *,
		     struct store *, const char *, struct prof_host *);
void		 prof_host_nodes_join(struct prof_host_nodes *);
void		 prof_host_read_records(struct store *, const char *,
		     struct prof_host *);
bool		 prof_host_read_expand(struct store *, const char *);
void		 prof_host_release(struct prof_host *);
const char	*prof_host_ge_type(uint32_t);

/* prof-extra.c: the smaller host record kinds and their tables (3.5-3.6). */
#define PROF_ROW_MAX	28
/* A generic table row being built: cells point at strings or into buf. */
struct prof_row {
	const char	*cells[PROF_ROW_MAX];
	char		 buf[PROF_ROW_MAX][32];
	size_t		 n;
};
void		 prof_extra_row_str(struct prof_row *, const char *);
void		 prof_extra_row_u64(struct prof_row *, uint64_t);
void		 prof_extra_row_us(struct prof_row *, int64_t);
void		 prof_extra_row_load(struct store *, struct prof_row *);
bool		 prof_extra_table_begin(struct store *, const char *, int64_t,
		     int64_t, const char *const *, size_t);
void		 prof_extra_read(struct store *, const char *,
		     struct prof_host *);
const unsigned char *prof_extra_rec(const struct prof_recs *, size_t);
void		 prof_extra_tables(struct store *, struct prof_host *,
		     const struct prof_meta *, int64_t);
int64_t		 prof_extra_model(const struct prof_host *,
		     const struct prof_track *);
void		 prof_extra_release(struct prof_host *);

/* prof-comm.c: the tables of records owned by API spans. */
void		 prof_comm_load(struct store *, const struct prof_host *,
		     const struct prof_meta *, int64_t);
/* The vendor's names of the enum columns of HCCL records (prof-comm.c). */
enum prof_comm_enum {
	PCE_DTYPE,
	PCE_LINK,
	PCE_TRANSPORT,
	PCE_RDMA,
	PCE_REDUCE,
	PCE_ROLE
};
void		 prof_comm_enum_row(struct prof_row *, enum prof_comm_enum,
		     uint32_t);
void		 prof_comm_row_us(struct prof_row *, double);

/* prof-hccl.c: HCCL ops, their tasks and their op_summary rows. */
#define PROF_HCCL_MAX_TASKS	(1 << 24)	/* HCCL tasks kept */
struct prof_hrow {			/* a COMMUNICATION row of op_summary */
	int64_t		 start_ns;
	int64_t		 dur_ns;
	int64_t		 model_id;
	char		*name;
	const char	*op_type;
};
int32_t		 prof_hccl_kfc_span(const struct prof_host *, size_t);
const char	*prof_hccl_op_type(const struct prof_host *, uint32_t);
void		 prof_hccl_build(struct prof_host *);
int64_t		 prof_hccl_first(const struct prof_host *, size_t);
void		 prof_hccl_pack(struct prof_host *);
void		 prof_hccl_time(struct prof_host *, uint64_t, uint32_t, int64_t,
		     int64_t);
void		 prof_hccl_rows_free(struct prof_hrow *, size_t);
void		 prof_hccl_release(struct prof_host *);

/* prof-hccl-join.c: a device's HCCL tasks given to their ops. */
struct prof_hevent;
struct prof_opstat;
struct prof_hindex {			/* the vendor's op index of a group */
	uint64_t	 group;
	bool		 aicpu;		/* AI CPU kernels count apart */
	uint64_t	 first;		/* the launch last counted */
	int64_t		 count;
};
int64_t		 prof_hccl_join_index(struct prof_hindex **, size_t *,
		     uint64_t, const char *, bool, uint64_t);
size_t		 prof_hccl_join_device(struct store *, struct prof_host *,
		     const struct prof_meta *, int64_t, struct prof_hrow **,
		     const struct prof_hevent *, size_t);
int		 prof_hccl_join_task(const struct prof_host *,
		     const struct prof_hinfo *);

/* prof-hccl-opstat.c: msprof's communication_statistic. */
void		 prof_hccl_opstat_add(struct prof_host *,
		     const struct prof_hevent *, size_t,
		     const struct prof_meta *, int64_t);
void		 prof_hccl_opstat_write(struct store *, struct prof_host *,
		     const char *);
void		 prof_hccl_opstat_free(struct prof_host *);

/* prof-hccl-stats.c: communication statistics from the HCCL tasks. */
struct prof_hevent {			/* an HCCL task given to its op */
	const struct prof_hdesc	*d;
	const struct prof_hinfo	*info;	/* its hccl_info record, or NULL */
	char			*op;	/* the op's name, as the vendor's */
	char			*group;
	char			*key;	/* op@group */
	uint32_t		 iter;
	int			 task;	/* what its record names it */
	uint32_t		 seq;	/* in the merge's order */
	uint32_t		 hop;	/* its op (hops index): its begin and
					   type; its host time and model id
					   are its track's */
};
/* The task names the statistics look for (prof_hevent.task). */
enum { HT_TASK_OTHER, HT_TASK_MEMCPY, HT_TASK_REDUCE, HT_TASK_WAIT };
#define HS_NTRANS	5		/* RDMA, HCCS, PCIE, SDMA, SIO */
enum { HS_RDMA, HS_HCCS, HS_PCIE, HS_SDMA, HS_SIO };
/* hccl_info's enums (section 3.6). */
#define HS_TR_SDMA	0
#define HS_TR_RDMA	1
#define HS_TR_LOCAL	2
#define HS_LK_ON_CHIP	0
#define HS_LK_HCCS	1
#define HS_LK_PCIE	2
#define HS_LK_SIO	4
#define HS_LK_HCCS_SW	5
#define HS_PAYLOAD	1
#define HS_NO_RANK	4294967295U

/* A number as Python holds it: an int until a float is added. */
struct prof_hnum {
	double		 v;
	bool		 real;
};

struct prof_hdist {			/* the packets of one size */
	double		 size;
	struct prof_hnum	 count;
	struct prof_hnum	 dur;
};
struct prof_hbw {				/* one transport of an op */
	struct prof_hnum	 size;
	struct prof_hnum	 time;
	struct prof_hnum	 bw;
	struct prof_hnum	 large;
	struct prof_hdist	*dist;
	size_t		 ndist;
	struct util_map	 dist_at;	/* a size's bits -> dist index */
};
struct prof_hlink {			/* one src-dst link of an op */
	uint64_t	 id;		/* src << 32 | dst */
	int		 type;		/* HCCS 0 PCIE 1 RDMA 2 LOCAL 3 SIO 4 */
	struct prof_hnum	 size;
	struct prof_hnum	 time;
	int64_t		 large;
	int64_t		 packets;
	const char	*op;		/* the op's name, for the matrix */
};
struct prof_hstat {
	const char	*key;
	bool		 p2p;
	bool		 dropped;	/* no master task */
	size_t		*ev;		/* its events, in order */
	size_t		 nev;
	struct prof_hnum	 t[8];		/* the time columns */
	struct prof_hbw	*bw;		/* HS_NTRANS, only while its bandwidth
					   rows are made (prof_hs_bw_begin) */
	struct prof_hlink	*links;
	size_t		 nlinks;
	struct util_map	 link_at;	/* src << 32 | dst -> links index */
};
/* The time columns, in the table's order. */
enum { HT_START, HT_ELAPSE, HT_TRANSIT, HT_WAIT, HT_SYNC, HT_IDLE,
    HT_WRATIO, HT_SRATIO };

struct prof_hstats {
	struct store		*s;
	struct prof_hevent	*ev;
	struct prof_hstat		*ops;
	size_t			 nops;
	size_t			 odd;		/* payloads of odd transports */
	size_t			 open;		/* payloads never closed */
	size_t			 nomaster;
};
struct prof_hnum	 prof_hs_real(double);
void		 prof_hs_add(struct prof_hnum *, struct prof_hnum);
struct prof_hnum prof_hs_link_bw(const struct prof_hlink *);
void		 prof_hs_ratios(struct prof_hnum *);
void		 prof_hs_bandwidth(struct prof_hbw *, int);
void		 prof_hs_dist(struct prof_hbw *, double, struct prof_hnum,
		     struct prof_hnum);
void		 prof_hs_release(struct prof_hstat *);
void		 prof_hs_bw_begin(struct prof_hstats *, struct prof_hstat *,
		     bool);
void		 prof_hs_bw_end(struct prof_hstat *);
void		 prof_hccl_stats(struct prof_hstats *, struct store *,
		     struct prof_hevent *, size_t, const struct prof_meta *);
void		 prof_hs_free(struct prof_hstats *);

/* prof-hccl-tables.c: the communication tables written. */
void		 prof_ht_write(struct prof_hstats *, int64_t, int64_t);

/* prof-kfc.c: the communication ops of MC2 and AI CPU HCCL kernels. */
struct prof_kfc_task {			/* a device task it reads */
	int64_t		 start_ns;
	int64_t		 dur_ns;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 ctx;		/* DEV_NO_CONTEXT: none */
	uint16_t	 batch;
	int32_t		 track;		/* its host task, or -1 */
	bool		 c_core;	/* of device type C_CORE_SQE */
};
struct prof_kfc {
	const struct prof_host	*h;
	struct prof_kfc_task	*v;
	size_t			 n;
	struct util_map		 kfc;		/* KFC stream -> mc2 record */
	struct util_map		 comm;		/* communication streams */
	bool			 on;		/* the host lists MC2 groups */
	struct prof_hevent	*ev;		/* the ops' tasks, for the */
	size_t			 nev;		/* communication tables */
	struct prof_hdesc	*descs;		/* what EV points at */
	struct prof_hinfo	*infos;
	char			**strs;
	size_t			 nstrs;
	struct util_map		 strs_at;	/* hash -> strs index */
	const char		*probe;		/* the string looked up */
};
struct prof_dtask;
struct prof_aicpus;
void		 prof_kfc_begin(struct prof_kfc *, const struct prof_host *);
void		 prof_kfc_keep(struct prof_kfc *, const struct prof_dtask *,
		     int64_t, int64_t, int32_t, const char *);
void		 prof_kfc_load(struct prof_kfc *, struct store *,
		     const struct prof_aicpus *, const struct prof_meta *,
		     int64_t);
void		 prof_kfc_release(struct prof_kfc *);

/* prof-overlap.c: step_trace_time from compute tasks and HCCL ops. */
void		 prof_overlap_load(struct store *, const struct prof_meta *,
		     int64_t, const int64_t *, size_t, const struct prof_hrow *,
		     size_t);

/* prof-memcpy.c: memcpy_info shared out over MEMCPY_ASYNC tasks. */
void		 prof_memcpy_plan(struct prof_host *, int64_t);
void		 prof_memcpy_task(struct prof_host *, uint64_t, int64_t,
		     int64_t);
void		 prof_memcpy_load(struct store *, struct prof_host *, int64_t,
		     int64_t);

/* prof-additional.c: tensor_info and context_id_info (section 3.6). */
void		 prof_additional_read(struct store *, const char *,
		     struct prof_host *);
void		 prof_additional_release(struct prof_host *);
void		 prof_additional_enum(struct strbuf *, uint32_t, bool);

/* prof-ops.c: ops rebuilt by time containment (section 3.7). */
void		 prof_ops_sort_records(struct prof_host *);
void		 prof_ops_attach_records(struct prof_host *);
void		 prof_ops_attach_free(struct prof_host *);
void		 prof_ops_build(struct prof_host *);
int		 prof_ops_load_spans(struct store *, struct prof_host *,
		     const struct prof_meta *, int64_t, char **);
void		 prof_ops_finish(struct prof_host *);
void		 prof_ops_keep(struct prof_host *);
int64_t		 prof_track_model(const struct prof_host *,
		     const struct prof_track *);
uint64_t	 prof_track_item(const struct prof_host *,
		     const struct prof_track *);
void		 prof_ops_owners(const struct prof_host *, const void *, size_t,
		     size_t, unsigned, int32_t *);

/* prof-dedup.c: one node and tensor record of each distinct content. */
uint32_t	 prof_dedup_node(struct prof_host *, const struct prof_nkind *);
uint32_t	 prof_dedup_tensor(struct prof_host *, const uint32_t *);
void		 prof_dedup_free(struct prof_host *);
void		 prof_dedup_release(struct prof_host *);

/* prof-logs.c: device task logs paired into tasks (sections 4.1-4.7). */
struct prof_dtask {
	uint64_t	 start;		/* syscnt */
	uint64_t	 end;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 context;	/* DEV_NO_CONTEXT for ACSQ/HWTS */
	uint16_t	 batch;
	uint8_t		 type;		/* SQE or FFTS+ subtask type */
	bool		 ffts;
};
/* A flip of a stream's task ids in ts_track, with its number. */
struct prof_dflip {
	uint64_t	 syscnt;
	uint32_t	 stream;
	uint32_t	 num;
};
struct prof_dev {
	struct prof_dtask	*tasks;
	size_t			 ntasks;
	int64_t			 logs;
	struct prof_dflip	*flips;		/* in file order */
	size_t			 nflips;
};
void		 prof_logs_read(struct store *, const char *,
		     const struct prof_meta *, bool, struct prof_dev *);
void		 prof_logs_release(struct prof_dev *);
const char	*prof_logs_type_name(const struct prof_dtask *, bool);

/* prof-freq.c: AI Core frequency changes, lpmFreqConv.data (2.7). */
struct prof_freq_change {
	uint64_t	 syscnt;
	uint32_t	 mhz;
	uint32_t	 seq;
};
struct prof_freqs {
	struct prof_freq_change	*v;
	size_t			 n;
};
void		 prof_freq_read(struct store *, const char *,
		     struct prof_freqs *);
void		 prof_freq_release(struct prof_freqs *);
double		 prof_freq_at(const struct prof_freqs *, uint64_t, double);

/* prof-pmu.c: task-based AI Core PMU records matched to tasks (5.1-5.3). */
struct prof_pmu_rec {
	uint64_t	 key;		/* stream, task, context */
	uint64_t	 total;
	uint64_t	 end;		/* syscnt, 0 if the record has none */
	uint64_t	 pmu[DEV_PMU_COUNTERS];
	uint32_t	 seq;
	bool		 aiv;		/* counts AI Vector cores */
};
struct prof_pmu {
	struct prof_pmu_rec	*v;
	size_t			 n;
	struct util_map		 next;		/* key -> next unused index */
	int			 events[DEV_PMU_COUNTERS];
	int			 nevents;
	bool			 pipe;		/* PipeUtilization metrics */
	bool			 arith;		/* ArithmeticUtilization */
	struct prof_freqs	 freqs;
	struct strbuf		 names;		/* packed (store-pmu.c) */
	const struct prof_meta	*m;
};
void		 prof_pmu_read(struct store *, const char *,
		     const struct prof_meta *, bool, struct prof_pmu *);
void		 prof_pmu_add(struct prof_pmu *, const struct dev_pmu *);
void		 prof_pmu_finish(struct store *, const char *,
		     const struct prof_meta *, struct prof_pmu *);
void		 prof_pmu_release(struct prof_pmu *);
bool		 prof_pmu_values(struct prof_pmu *, uint32_t, uint32_t,
		     uint32_t, int64_t, struct strbuf *);

/* prof-mstx.c: msproftx markers into mstx spans and msprof_tx (6.1). */
size_t		 prof_mstx_load(struct store *, const char *,
		     const struct prof_host *, const struct prof_meta *,
		     int64_t);

/* prof-sort.c: an in-place sort for the large host arrays. */
void		 prof_sort_spans(struct prof_span *, size_t);
void		 prof_sort_recs(void *, size_t, size_t);
void		 prof_sort(void *, size_t, size_t,
		     int (*)(const void *, const void *));

/* prof-step.c: ts_track step trace into step_trace rows (4.5). */
struct prof_aicpus;
size_t		 prof_step_load(struct store *, const char *,
		     const struct prof_meta *, const struct prof_aicpus *,
		     int64_t);

/* prof-flips.c: each stream's task id flips, for batch ids (4.6). */
#define PROF_FLIPS_STREAMS	65536
struct prof_flips {
	uint64_t	*ts;
	size_t		 n;
};
struct prof_flips *prof_flips_create(void);
void		 prof_flips_add(struct prof_flips *, uint32_t, uint64_t);
void		 prof_flips_sort(struct prof_flips *);
uint16_t	 prof_flips_batch(const struct prof_flips *, uint32_t,
		     uint64_t);
void		 prof_flips_free(struct prof_flips *);

/* prof-aicpu.c: AI CPU runs of aicpu.data, table aicpu (4.10). */
struct prof_aicpu {
	uint64_t	 start;		/* device counter */
	uint64_t	 end;
	uint64_t	 total;		/* submit to after the run, ticks */
	int64_t		 compute_us;
	int64_t		 memcpy_us;
	uint32_t	 dispatch_us;
	uint32_t	 stream;
	uint32_t	 task;
	size_t		 seq;		/* file order */
	uint64_t	 same;		/* next run of the key + 1, or 0 */
	bool		 matched;
	char		*name;		/* the op, once matched */
};
struct prof_aicpu_dp {
	uint64_t	 ts;		/* taken for monotonic ns */
	char		 action[17];
	char		 source[65];
	uint64_t	 size;
};
struct prof_aicpu_mi {
	uint32_t	 tag;
	uint64_t	 queue;
	uint64_t	 start;		/* µs, as written */
	uint64_t	 end;
};
/* A model-with-queue record (kind 2): a point of the step trace. */
struct prof_aicpu_step {
	uint64_t	 ts;		/* device counter */
	uint64_t	 index;
	uint32_t	 model;
	uint16_t	 tag;
	const char	*path;		/* in the paths of prof_aicpus */
	int64_t		 offset;
};
/*
 * A KFC turn: kind 4, the communication server's (six phases), or kind 5,
 * a compute turn (two). T holds the phases' starts and the last one's end.
 */
struct prof_aicpu_kfc {
	uint64_t	 t[7];		/* device counter */
	uint16_t	 stream;	/* the fields as written */
	uint16_t	 task;
	uint8_t		 turn;		/* the current turn */
	uint8_t		 nphase;
};
/* The kinds of aicpu.data records about the AI CPU's own communication. */
#define PROF_AICPU_HCCL_OP	10	/* the op of a KFC or HCCL task */
#define PROF_AICPU_FLIP		11	/* an AI CPU stream's task id flip */
#define PROF_AICPU_MASTER	12	/* an op's first or last main task */
#define PROF_AICPU_KFC_INFO	13	/* two tasks' HCCL information */
struct prof_aicpus {
	struct prof_aicpu	*v;
	size_t			 n;
	struct util_map		 index;	/* key -> first run + 1 */
	int64_t			 bytes;
	struct prof_aicpu_dp	*dp;	/* kind 1, in file order */
	size_t			 ndp;
	struct prof_aicpu_mi	*mi;	/* kind 3 */
	size_t			 nmi;
	struct prof_aicpu_kfc	*kfc;	/* kinds 4 and 5, in file order */
	size_t			 nkfc;
	unsigned char		*comm;	/* kinds 10 to 13, as read */
	size_t			 ncomm;	/* bytes */
	uint32_t		 comm_kinds;	/* 1 << each kind read */
	char			*kfc_path;	/* the first file with turns */
	bool			 expand;	/* expand_stream_spec */
	struct util_map		 v6_map;	/* chip V6: task id -> stream, */
	const struct util_map	*v6;	/* made by the join (or NULL) */
	struct prof_aicpu_step	*steps;	/* kind 2, in file order */
	size_t			 nsteps;
	char			**paths;	/* of the files holding them */
	size_t			 npaths;
};
void		 prof_aicpu_read(struct store *, const char *, bool,
		     struct prof_aicpus *);
void		 prof_aicpu_task(struct prof_aicpus *, const struct prof_meta *,
		     uint32_t, uint32_t, int64_t, int64_t, const char *);
void		 prof_aicpu_load(struct store *, const struct prof_aicpus *,
		     const struct prof_meta *, int64_t, int64_t);
void		 prof_aicpu_release(struct prof_aicpus *);
void		 prof_aicpu_ids(const struct prof_aicpus *, bool, bool,
		     uint16_t, uint32_t, uint32_t *, uint32_t *);
const unsigned char *prof_aicpu_comm_info(const unsigned char *, size_t);
void		 prof_aicpu_comm_keep(struct prof_aicpus *,
		     const unsigned char *, uint32_t);
void		 prof_aicpu_comm_load(struct store *,
		     const struct prof_aicpus *, const struct prof_meta *,
		     const struct prof_dicts *, int64_t, int64_t);

/* prof-join.c: host and device tasks joined into store rows (4.7-4.8). */
void		 prof_join_load(struct store *, struct prof_host *,
		     struct prof_dev *, const struct prof_meta *,
		     struct prof_pmu *, struct prof_aicpus *, int64_t);

/* prof-mem.c: CANN's own memory records (3.13). */
struct prof_ge_mem {
	int64_t		 ts;		/* epoch ns */
	uint64_t	 raw;		/* host counter ticks */
	int64_t		 allocated;	/* bytes, GE's pool */
	int64_t		 reserved;
	int64_t		 size;		/* below 0: a release */
	uint64_t	 addr;
	uint64_t	 node;		/* hash id of its op's name */
	int64_t		 device;
	size_t		 idx;		/* in file order */
};
struct prof_app_mem {
	int64_t		 ts;		/* epoch ns */
	int64_t		 bytes;		/* ddr + hbm */
	int64_t		 device;
};
struct prof_mems {
	struct prof_ge_mem	*ge;
	size_t			 nge;
	struct prof_app_mem	*app;
	size_t			 napp;
};
void		 prof_mem_ge_read(struct store *, const char *,
		     const struct prof_meta *, struct prof_mems *);
/* The driver's memory samples, npu_mem (4.13). */
struct prof_npumem {
	int64_t		 ts;		/* epoch ns */
	int64_t		 ddr;
	int64_t		 hbm;
	int64_t		 device;
	int64_t		 rank;
	uint32_t	 event;		/* 0 APP, 1 Device */
	uint32_t	 slice;		/* its file's slice number */
	uint32_t	 channel;	/* 0 npu_mem.app, 1 npu_mem.data */
	size_t		 seq;		/* in reading order */
	bool		 early;		/* before the collection start */
};
struct prof_npumems {
	struct prof_npumem	*v;
	size_t			 n;
};
void		 prof_npumem_read(struct store *, const char *,
		     const struct prof_meta *, int64_t, struct prof_npumems *);
void		 prof_mem_app_take(const struct prof_npumems *, size_t,
		     struct prof_mems *);
void		 prof_npumem_write(struct store *, const struct prof_npumems *,
		     const char *);
void		 prof_npumems_release(struct prof_npumems *);
void		 prof_mems_release(struct prof_mems *);

/* prof-modmem.c: the memory of each driver module on a device (4.12). */
struct prof_modmem {
	int64_t		 ts;		/* epoch ns */
	int64_t		 bytes;
	int64_t		 device;
	int64_t		 rank;
	size_t		 seq;		/* in reading order */
	uint32_t	 module;
};
struct prof_modmems {
	struct prof_modmem	*v;
	size_t			 n;
};
void		 prof_modmem_read(struct store *, const char *,
		     const struct prof_meta *, int64_t, struct prof_modmems *);
void		 prof_modmem_write(struct store *, struct prof_modmems *, bool,
		     const char *);
void		 prof_modmems_release(struct prof_modmems *);
/* The system memory tables a collection's devices add up to. */
struct prof_devmem {
	struct prof_npumems	 npu;		/* npu_mem (4.13) */
	struct prof_modmems	 mod;		/* npu_module_mem (4.12) */
};

/* prof-fwk.c: torch_npu's FRAMEWORK/ records into host spans (3.11). */
struct prof_fwk_lane {
	uint64_t	 pid;
	uint64_t	 tid;
	const char	*proc;		/* its process's name, NULL Python */
};

struct fwk_names;		/* the Python tracer's (prof-fwk-py.c) */
struct prof_fwk {
	struct store		*s;
	const struct prof_meta	*hm;
	int64_t			 rank;
	int64_t			 device;
	bool			 syscnt;	/* records hold counter ticks */
	char			 ms_version[32];	/* MindSpore's, or "" */
	bool			 ms_pair;	/* 2.3 has its clock pair: */
	uint64_t		 ms_cnt;	/* counter ticks at */
	int64_t			 ms_time;	/* epoch ns */
	bool			 ms_anchor;	/* times go through the pair */
	int64_t			 freq_mhz;
	uint64_t		 start_cnt;
	int64_t			 start_mono;
	int64_t			 local_off;	/* epoch ns minus mono ns */
	const char		*proc;		/* new lanes' process, or
						   NULL: Python */
	struct prof_fwk_lane	*lanes;
	size_t			 nlanes;
	struct util_map		 lane_map;
	struct prof_fwk_lane	 want;		/* the lane looked up */
	uint64_t		 gc_pid;
	struct fwk_fwd		*fwd;		/* by sequence number */
	size_t			 nfwd;
	struct util_map		 seqs;
	int64_t			 ops;
	int64_t			 calls;
	int64_t			 at;		/* offset of the record read */
	int64_t			 short_recs;	/* counts of the file read, */
	int64_t			 bad_ops;	/* each with its first offset */
	int64_t			 bad_cats;
	int64_t			 bad_times;
	int64_t			 bad_tags;
	int64_t			 unpaired[2];	/* enqueue, dequeue ends */
	int64_t			 short_at;
	int64_t			 bad_op_at;
	int64_t			 bad_cats_at;
	int64_t			 bad_times_at;
	int64_t			 bad_tags_at;
	int64_t			 unpaired_at[2];
	int64_t			 cut_at;
	bool			 empty_ok;	/* records of no bytes read */
	struct store_torch_mem	*mem;		/* NPU memory records */
	size_t			 nmem;
	char			*mem_path;	/* the file they came from */
	int64_t			 mem_device;
};
/*
 * What a FRAMEWORK/ folder leaves for after the device folders: torch_npu's
 * NPU memory records in time order, for memory_record, and whether it
 * was MindSpore's.
 */
/* One line of MindSpore's cpu_ms_memory_record_<rank>.txt. */
struct prof_ms_mem {
	int64_t		 ts;		/* epoch ns */
	int64_t		 bytes[3];	/* allocated, reserved, active */
};
struct prof_fwk_out {
	struct store_torch_mem	*v;
	size_t			 n;
	char			*path;		/* torch.memory_usage */
	struct prof_ms_mem	*msv;		/* MindSpore's pool totals */
	size_t			 nms;
	char			*ms_path;	/* their file, if read */
	int			 ms_memory;	/* profile_memory: 0, 1, -1 */
	int64_t			 ms_rank;	/* MindSpore's rank_id */
	bool			 ms_cpu_off;	/* activities without CPU */
	int64_t			 device;	/* NP_NA: each record's own */
	bool			 done;		/* FRAMEWORK/ was read */
	bool			 mindspore;
	int			 ms_ver;	/* 22 to 26: its op ranges' */
};
bool		 prof_fwk_is_ms(const char *);
bool		 prof_fwk_load(struct store *, const char *, const char *,
		     const struct prof_meta *, const struct import_ctx *,
		     int64_t, size_t, bool *, struct prof_fwk_out *);

/* prof-fwk-rec.c: what the FRAMEWORK/ decoders share. */
#define FWK_MAX_RECORD	(64 << 20)	/* bytes of one TLV record */
#define FWK_REC_EMPTY	(-2)		/* a record of no bytes */
FILE		*prof_fwk_rec_open(struct prof_fwk *, const char *);
void		 prof_fwk_params_load(struct prof_fwk *, const char *,
		     struct fwk_names *);
ssize_t		 prof_fwk_rec_next(struct prof_fwk *, FILE *, const char *,
		     int, unsigned char **, size_t *, int64_t *);
bool		 prof_fwk_rec_field(const unsigned char *, size_t, int,
		     char **, bool *);
bool		 prof_fwk_rec_utf8(const char *, size_t);
/* A count of one problem of a file, and the offset of its first. */
struct prof_tally {
	size_t		 n;
	int64_t		 at;
};
void		 prof_tally_add(struct prof_tally *, int64_t);
void		 prof_fwk_rec_flow(struct prof_fwk *, uint64_t, uint64_t,
		     int64_t, uint64_t, const char *, const char *,
		     const char *);
int64_t		 prof_fwk_rec_ns(const struct prof_fwk *, uint64_t);
void		 prof_fwk_rec_span(struct prof_fwk *, uint64_t, uint64_t,
		     int64_t, int64_t, const char *, const char *,
		     const char *);
void		 prof_fwk_rec_thread(struct prof_fwk *, uint64_t, uint64_t);
void		 prof_fwk_rec_json(struct strbuf *, const char *, bool);
void		 prof_fwk_rec_report(struct prof_fwk *, const char *);

/* prof-fwk-mem.c: torch_npu's memory records into memory_record (3.11). */
void		 prof_fwk_mem_load(struct prof_fwk *, const char *, int64_t);
void		 prof_fwk_mem_ops(struct prof_fwk *, const char *, int64_t);

/* prof-mem-record.c: memory_record of a torch_npu profile (3.13). */
void		 prof_mem_record_write(struct store *,
		     const struct prof_fwk_out *, const struct prof_mems *,
		     const char *, int64_t, const struct import_ctx *);
double		 prof_mem_record_kb(int64_t);
void		 prof_mem_record_ops(struct store *, const struct prof_mems *,
		     const struct prof_dicts *, const struct prof_meta *,
		     int64_t, int64_t);

/* prof-ms-mem-record.c: memory_record of a MindSpore profile (3.14). */
void		 prof_ms_mem_read(struct store *, const char *,
		     struct prof_fwk_out *);
void		 prof_ms_mem_write(struct store *,
		     const struct prof_fwk_out *, const struct prof_mems *,
		     const char *, int64_t, const struct import_ctx *);

/* prof-fwk-ms.c: MindSpore's op ranges into host spans (3.12). */
#define PROF_MS_23RC	22	/* 2.3's release candidates' layout */
int64_t		 prof_fwk_ms_load(struct prof_fwk *, const char *, int);
/* prof-fwk-msmem.c: MindSpore's memory records into operator_memory. */
void		 prof_fwk_msmem_load(struct prof_fwk *, const char *, int);
/* prof-fwk-msdata.c: MindSpore's dataset pipeline (3.12). */
void		 prof_fwk_msdata_load(struct prof_fwk *, const char *, int64_t,
		     bool);
/* prof-fwk-mscpu.c: MindSpore's host CPU ops into spans (3.12). */
int64_t		 prof_fwk_mscpu_load(struct prof_fwk *, const char *);
/* prof-fwk-msshape.c: MindSpore's input shapes into operator_details. */
void		 prof_fwk_msshape_load(struct prof_fwk *, const char *);

/* prof-fwk-py.c: the Python tracer's calls replayed into spans (3.11). */
void		 prof_fwk_py_load(struct prof_fwk *, const char *,
		     struct fwk_names *);
struct fwk_names *prof_fwk_py_names_create(struct prof_fwk *, const char *);
const char	*prof_fwk_py_names_find(struct fwk_names *, uint64_t);
void		 prof_fwk_py_names_free(struct fwk_names *);

/* prof-early.c */
struct prof_early {			/* a device directory read early */
	pthread_t		 thread;
	bool			 started;
	bool			 joined;
	bool			 taken;
	struct store		*s;
	char			*dir;
	int64_t			 device;
	bool			 expand;
	int			 meta_rc;
	struct prof_meta	 m;
	struct prof_dev		 d;
	struct prof_pmu		 p;
	struct prof_aicpus	 a;
	struct store_defer	*defer_meta;	/* what its info.json read */
	struct store_defer	*defer_data;	/* what its records' read */
};
void		 prof_early_start(struct prof_early *, struct store *,
		     const char *, int64_t, bool);
bool		 prof_early_has(const struct prof_early *, const char *);
int		 prof_early_meta(struct prof_early *, struct prof_meta *);
void		 prof_early_take(struct prof_early *, struct prof_dev *,
		     struct prof_pmu *, struct prof_aicpus *);
void		 prof_early_release(struct prof_early *);

#endif /* PROF_INT_H */
