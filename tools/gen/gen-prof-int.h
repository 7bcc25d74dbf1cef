/*
 * Private to the raw PROF generator (gen-prof.c, gen-prof-expect.c): the
 * generated operator launches and device tasks, from which both the raw
 * bytes and the expected tables are made.
 */
#ifndef GEN_PROF_INT_H
#define GEN_PROF_INT_H

#include "gen.h"

#define GEN_PROF_MAX_CTX	3
#define GEN_PROF_NAMES		4	/* op names per op type */
#define GEN_PROF_NO_MODEL	4294967295LL
#define GEN_PROF_FREQS		3	/* AI Core frequency changes */

/* An operator type of the catalogue. */
struct gen_prof_kind {
	const char	*type;
	int		 ge;		/* GE task type (section 3.5) */
	int		 rt;		/* runtime task type */
	int		 sqe;		/* device SQE type */
	const char	*acl;
	int64_t		 mean_ns;
	int		 ntensors;
	bool		 ffts;		/* FFTS+ op with context ids */
};

/* One operator launch. */
struct gen_prof_op {
	int64_t		 tt;		/* task_track time, host mono ns */
	uint32_t	 tid;
	int		 kind;
	int		 name;
	int		 device;
	int		 stream;
	uint32_t	 task;		/* 16 bits, 32 on chip V6 */
	uint16_t	 batch;
	int64_t		 model;		/* model id or GEN_PROF_NO_MODEL */
	uint32_t	 block_dim;
	bool		 hf32;
	bool		 is_static;
	int		 nctx;
	uint16_t	 ctx[GEN_PROF_MAX_CTX];
	int64_t		 dur[GEN_PROF_MAX_CTX];	/* device ns */
	size_t		 index;
	int64_t		 acl_b;		/* its ACL span, host mono ns */
	int64_t		 acl_e;
	int64_t		 node_b;	/* its launch (node) span's start */
};

/* One device task (a context of an FFTS+ op is one too). */
struct gen_prof_task {
	int64_t		 start;		/* device time as host mono ns */
	int64_t		 dur;
	uint32_t	 op;		/* index into the ops */
	uint32_t	 index;		/* in generation order */
	int		 ctx;		/* -1 for no context */
};

/* A group of a statistic, in ns. */
struct gen_prof_stat {
	const char	*a;
	const char	*b;
	int		 device;
	struct util_stat v;
	__int128	 sumsq;
};

/* Host and device clocks (section 2.6), all in host mono ns. */
struct gen_prof_clock {
	int64_t		 tick;		/* host tick ns (1: mono ns) */
	int64_t		 dtick;		/* device tick ns */
	int64_t		 begin;		/* collection start, mono */
	int64_t		 begin_us;	/* collection start, epoch us */
	int64_t		 end;
	int64_t		 sync;		/* host anchor, mono */
	uint64_t	 sync_cnt;
	int64_t		 diff;		/* cntvct_diff */
	int64_t		 dsync;		/* device anchor, mono */
	uint64_t	 dsync_cnt;
};

/* The device files being built. */
struct gen_prof_dev {
	struct gen_buf	 logs;
	struct gen_buf	 flips;
	struct gen_buf	 pmu;
	struct gen_buf	 freq;		/* lpmFreqConv.data */
	struct gen_buf	 aicpu;		/* aicpu.data (-C) */
};

/* One generated step trace iteration, mono ns; FP or BP -1 if missing. */
struct gen_prof_iter {
	int		 device;
	int64_t		 model;
	int64_t		 iter;
	int64_t		 start;
	int64_t		 end;
	int64_t		 fp;
	int64_t		 bp;
};

/* One generated mstx marker; times in host mono ns. */
struct gen_prof_marker {
	int64_t		 start;
	int64_t		 end;
	uint64_t	 payload;
	uint64_t	 mark;
	uint64_t	 domain;
	char		*msg;
	uint32_t	 pid;
	uint32_t	 tid;
	uint32_t	 category;
	int		 event;
	int		 payload_type;
	int		 msg_type;
};

/* The expected tables of the smaller host record kinds (-g). */
enum gen_prof_xtable {
	GX_GRAPH,
	GX_FUSION,
	GX_HCCL,
	GX_ATTR,
	GX_HCCL_OP,
	GX_CAPTURE,
	GX_MEMCPY,
	GX_AICPU,
	GX_DP,
	GX_MI,
	GX_KFC,
	GX_KFC_INFO,
	GX_DEV_OP,
	GX_FLIP,
	GX_MASTER,
	GX_MC2,
	GX_KFC_OP,
	GX_KFC_TASK,
	GX_NTABLES
};
struct gen_prof_xrow {
	uint64_t	 k1;
	uint64_t	 k2;
	size_t		 seq;
	char		*line;
};
struct gen_prof_xtab {
	struct gen_prof_xrow	*v;
	size_t			 n;
};

/* One memcpy task (-g), run on its device with -G. */
struct gen_prof_copy {
	int64_t		 ts;		/* task_track time, host mono */
	uint64_t	 size;
	const char	*dir;
	uint32_t	 tid;
	uint32_t	 task;		/* 16 bits, 32 on chip V6 */
	int		 device;
};

/* One HCCL task (-L), gen-prof-hccl.c's. */
struct gen_hccl_step;
struct gen_prof_htask {
	int64_t				 tt;	/* task_track, host mono */
	int64_t				 op_b;	/* its op's node span */
	int64_t				 op_e;
	int64_t				 start;	/* device, host mono */
	int64_t				 dur;
	uint64_t			 size;
	const struct gen_hccl_step	*step;
	uint32_t			 tid;
	uint32_t			 task;	/* 16 bits, wrapping */
	uint16_t			 batch;	/* the stream's flips so far */
	int				 device;
	int				 stream;
	int				 kind;
	int				 op;
	int				 ctx;	/* FFTS+ context, or -1 */
};
struct gen_prof {
	const struct gen_prof_opts	*o;
	const struct gen_prof_kind	*kinds;
	int				 nkinds;
	uint64_t			 rng;
	struct gen_prof_op		*ops;
	size_t				 nops;
	struct gen_prof_task		*tasks;
	size_t				 ntasks;
	struct gen_prof_stat		*api;
	size_t				 napi;
	struct gen_prof_iter		*iters;
	size_t				 niters;
	struct gen_prof_marker		*markers;
	size_t				 nmarkers;
	int64_t				 freq_at[GEN_PROF_FREQS];
	int				 freq_mhz[GEN_PROF_FREQS];
	int				 nfreq;
	int64_t				 local_off;	/* epoch - mono */
	char				 names[16][GEN_PROF_NAMES][48];
	char				 missing[32];	/* unlisted type id */
	struct gen_prof_xtab		 xtabs[GX_NTABLES];
	char				**hccl_names;
	size_t				 nhccl;
	int				 nmemcpy;
	uint16_t			 mc_task[8];	/* per device */
	struct gen_prof_copy		*copies;
	size_t				 ncopies;
	struct gen_prof_htask		*htasks;
	size_t				 nhtasks;
	int				 nhops;
	void				*hstreams;
	void				*hflips;	/* HCCL streams' flips */
	size_t				 nhflips;
};

/* Host record buffers, one per file. */
enum gen_prof_file {
	GF_API_AGING,
	GF_API_UNAGING,
	GF_NODE_AGING,
	GF_NODE_UNAGING,
	GF_TRACK,
	GF_TENSOR,
	GF_CTX,
	GF_MSTX,
	GF_GRAPH,
	GF_FUSION,
	GF_HCCL,
	GF_ATTR,
	GF_HCCL_OP,
	GF_CAPTURE,
	GF_MEMCPY,
	GF_MC2,
	GF_NFILES
};

struct gen_prof_host {
	struct gen_buf		 f[GF_NFILES];
	uint32_t		*tids;
	uint32_t		*request;
	int64_t			*cursor;
};

/* gen-prof.c */
void		 gen_prof_freqs(struct gen_prof *,
		     const struct gen_prof_clock *, struct gen_prof_dev *);

/* gen-prof-core.c */
uint64_t	 gen_prof_core_rand(struct gen_prof *);
int64_t		 gen_prof_core_range(struct gen_prof *, int64_t, int64_t);
uint64_t	 gen_prof_core_host_raw(const struct gen_prof_clock *, int64_t);
int64_t		 gen_prof_core_align(const struct gen_prof_clock *, int64_t);
uint64_t	 gen_prof_core_syscnt(const struct gen_prof_clock *, int64_t);
uint64_t	 gen_prof_core_hash(const char *);
int64_t		 gen_prof_core_gap(struct gen_prof *,
		     const struct gen_prof_clock *,
		     int64_t, int64_t);
void		 gen_prof_core_span(struct gen_prof *, struct gen_prof_host *,
		     const struct gen_prof_clock *, int, int, uint16_t,
		     uint32_t, int64_t, int64_t, uint64_t, const char *,
		     const char *);
const char	*gen_prof_core_type_name(const struct gen_prof *,
		     const struct gen_prof_op *);
void		 gen_prof_core_shape(const struct gen_prof *,
		     const struct gen_prof_op *, int, uint32_t *);
bool		 gen_prof_core_pmu(const struct gen_prof *, size_t, uint64_t *,
		     uint64_t *);
int		 gen_prof_core_cores(const struct gen_prof *);
double		 gen_prof_core_aic_mhz(const struct gen_prof *, int64_t);
const char	*gen_prof_core_events(const struct gen_prof *);
struct gen_prof_stat *gen_prof_core_stat_find(struct gen_prof_stat **, size_t *,
		     int, const char *, const char *);
void		 gen_prof_core_stat_add(struct gen_prof_stat *, int64_t);
void		 gen_prof_core_api_add(struct gen_prof *, const char *,
		     const char *, int64_t);

/* gen-prof-expect.c */
int		 gen_prof_expect(struct gen_prof *, const char *, char **);

/* gen-prof-modmem.c: npu_module_mem records (-K). */
int		 gen_prof_modmem(struct gen_prof *,
		     const struct gen_prof_clock *, const char *, const char *,
		     char **);

/* gen-prof-mstx.c */
void		 gen_prof_mstx(struct gen_prof *, const struct gen_prof_clock *,
		     const uint32_t *, struct gen_buf *);
int		 gen_prof_mstx_expect(struct gen_prof *, const char *,
		     char **);
void		 gen_prof_mstx_free(struct gen_prof *);

/* gen-prof-extra.c */
struct gen_prof_host;
void		 gen_prof_extra_mc2(struct gen_prof *, struct gen_prof_host *,
		     const struct gen_prof_clock *);
void		 gen_prof_extra_graphs(struct gen_prof *,
		     struct gen_prof_host *,
		     const struct gen_prof_clock *);
void		 gen_prof_extra_op(struct gen_prof *, struct gen_prof_host *,
		     const struct gen_prof_clock *, int,
		     const struct gen_prof_op *, int64_t, int64_t, int64_t);
void		 gen_prof_extra_hccl(struct gen_prof *, struct gen_prof_host *,
		     const struct gen_prof_clock *, int);
void		 gen_prof_extra_memcpy(struct gen_prof *,
		     struct gen_prof_host *, const struct gen_prof_clock *,
		     int);
void		 gen_prof_extra_copies(struct gen_prof *,
		     const struct gen_prof_clock *, struct gen_prof_dev *);
void		 gen_prof_extra_aicpu(struct gen_prof *,
		     const struct gen_prof_clock *, struct gen_prof_dev *);
void		 gen_prof_extra_captures(struct gen_prof *,
		     struct gen_prof_host *, const struct gen_prof_clock *);
void		 gen_prof_extra_dicts(struct gen_prof *, struct strbuf *,
		     struct strbuf *);
int		 gen_prof_extra_expect(struct gen_prof *, const char *,
		     char **);
void		 gen_prof_extra_free(struct gen_prof *);

/* gen-prof-hccl.c */
void		 gen_prof_hccl_op(struct gen_prof *, struct gen_prof_host *,
		     const struct gen_prof_clock *, int);
void		 gen_prof_hccl_dicts(struct gen_prof *, struct strbuf *,
		     struct strbuf *);
void		 gen_prof_hccl_logs(struct gen_prof *,
		     const struct gen_prof_clock *, struct gen_prof_dev *);
int		 gen_prof_hccl_expect(struct gen_prof *,
		     const struct gen_prof_clock *, const char *, char **);
void		 gen_prof_hccl_free(struct gen_prof *);
void		 gen_prof_track(struct gen_buf *, const struct gen_prof_clock *,
		     bool, uint32_t, int64_t, int, int, uint32_t, uint32_t,
		     uint64_t);
/* gen-prof-ms.c */
int		 gen_prof_ms(struct gen_prof *, const struct gen_prof_clock *,
		     const char *, const char *, const char *, char **);
/* gen-prof-msshape.c */
int		 gen_prof_msshape(struct gen_prof *, const char *, const char *,
		     char **);
/* gen-prof-msmem.c */
int		 gen_prof_msmem(struct gen_prof *, const char *, const char *,
		     int, char **);

/* gen-prof-fwk.c */
int		 gen_prof_fwk(struct gen_prof *, const struct gen_prof_clock *,
		     const uint32_t *, const char *, const char *,
		     const char *, char **);

/* gen-prof-mem.c: CANN's memory records beside torch_npu's. */
struct gen_mem_pta {
	int64_t		 ts;		/* the row's epoch ns */
	size_t		 seq;
	int64_t		 allocated;	/* bytes */
	int64_t		 reserved;
	int64_t		 active;
	uint64_t	 stream;
	bool		 ws;		/* a WORKSPACE row */
};
int		 gen_prof_mem(struct gen_prof *, const struct gen_prof_clock *,
		     const char *, struct gen_mem_pta *, size_t, const char *,
		     char **);
/* One GE record, as the importer reads it. */
struct gen_mem_ge {
	int64_t		 mono;
	int64_t		 ts;		/* epoch ns */
	int64_t		 allocated;
	int64_t		 reserved;
	int64_t		 size;
	uint64_t	 addr;
	uint64_t	 node;
};

/* One APP sample of npu_mem, as the importer reads it. */
struct gen_mem_app {
	int64_t		 ts;		/* epoch ns */
	int64_t		 bytes;
};
/* CANN's memory records of a generated collection. */
struct gen_mem_cann {
	struct gen_mem_ge	*ge;
	size_t			 nge;
	struct gen_mem_app	*app;
	size_t			 napp;
};
int		 gen_prof_mem_cann(struct gen_prof *,
		     const struct gen_prof_clock *, const char *,
		     const struct gen_mem_pta *, size_t, struct gen_mem_cann *,
		     struct strbuf *, char **);
double		 gen_prof_mem_kb(int64_t);
/* gen-prof-msrec.c: MindSpore's pool totals and its memory_record. */
int		 gen_prof_msrec(struct gen_prof *, const struct gen_prof_clock *,
		     const char *, const char *, int, const char *, char **);

/* gen-prof-step.c */
void		 gen_prof_step_all(struct gen_prof *,
		     const struct gen_prof_clock *, struct gen_prof_dev *);
int		 gen_prof_step_expect(struct gen_prof *, const char *,
		     char **);

#endif /* GEN_PROF_INT_H */
