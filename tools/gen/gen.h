/*
 * The project's own profile generators: deterministic synthetic profiles
 * for the demo, the tests and the benchmarks, written byte for byte as the
 * vendor's tools write them, with the expected statistics computed from
 * the generated values (never by the decoders).
 */
#ifndef GEN_H
#define GEN_H

#include "demo.h"

/* The JOB generator's flags, beside enum demo_flags in the same word. */
enum gen_flags {
	GEN_BINARY = 1 << 2,	/* JOB: binary GE task records */
	GEN_PMU = 1 << 3,	/* JOB: aicore.data PMU records */
	GEN_ANCHOR = 1 << 4	/* JOB: epoch clocks, ACL spans in iterations */
};

/* gen-prof.c: raw PROF_* collections (doc/formats.md sections 1-4). */
enum gen_prof_chip {
	GEN_PROF_910B,		/* STARS: stars_soc, FFTS+ contexts */
	GEN_PROF_910A,		/* HWTS: hwts.data */
	GEN_PROF_310P,		/* HWTS: hwts.data */
	GEN_PROF_950		/* STARS chip V6: 32-byte logs, 32-bit ids */
};
/* True for the generator's chips whose task logs are stars_soc. */
#define GEN_PROF_STARS(o)	((o)->chip == GEN_PROF_910B ||	\
				 (o)->chip == GEN_PROF_950)

struct gen_prof_opts {
	uint64_t	 seed;
	int64_t		 ops;
	int		 streams;	/* per device */
	int		 threads;
	int		 devices;
	int		 apis;		/* standalone API calls */
	int		 chip;		/* enum gen_prof_chip */
	int		 host_mhz;	/* 100, or 0 for mono-ns hosts */
	int64_t		 host_slice;	/* bytes, cut on records; 0 none */
	int64_t		 dev_slice;	/* bytes, cut anywhere; 0 none */
	int		 head_skip;	/* stray bytes before device data */
	int		 event_pct;	/* ACL spans written as event halves */
	int		 static_pct;	/* op names of static-graph ops */
	int		 model_pct;	/* ops inside a model span */
	bool		 wrap;		/* start task ids near 65535 */
	bool		 missing_dict;	/* leave an op type out of hash_dic */
	bool		 pmu;		/* AI Core PMU records */
	int		 steps;		/* step trace iterations per model */
	int		 markers;	/* mstx markers */
	bool		 arith;		/* ArithmeticUtilization PMU events */
	bool		 freq;		/* AI Core frequency changes (910B) */
	bool		 extras;	/* graph, fusion, attr, HCCL, memcpy,
					   capture records */
	bool		 copies;	/* memcpy tasks on the devices too */
	bool		 track_v2;	/* task_track records in the V2 layout */
	bool		 aicpu;		/* AI CPU ops, their aicpu.data runs */
	bool		 hccl;		/* HCCL ops whose tasks run (-L) */
	bool		 nest;		/* -C's device 1 kernel launched in
					   an HCCL op's node (-N) */
	bool		 torch;		/* in a torch_npu folder with
					   FRAMEWORK/ records (-Y) */
	bool		 mindspore;	/* in a MindSpore folder with
					   FRAMEWORK/ records (-Z) */
	bool		 ms25;		/* as MindSpore 2.5 writes them:
					   op_range_<rank> (-O) */
	bool		 ms24;		/* with it, as 2.4 (-V 2.4) */
	bool		 ms23;		/* or as 2.3 (-V 2.3) */
	int		 ms23rc;	/* and as its release candidate
					   1 or 2 (-V 2.3rc1, 2.3rc2) */
	bool		 modmem;	/* npu_module_mem records (-K) */
	int		 rank;		/* rank_id of info.json, -1 none */
	int		 ranks;		/* of the HCCL groups, with rank */
	const char	*expect;	/* directory for the expected CSVs */
};

void		 gen_prof_opts_init(struct gen_prof_opts *);
int		 gen_prof_write(const char *, const struct gen_prof_opts *,
		     char **);

/* gen-prof-bin.c: byte buffers, records and slices of a raw collection. */
struct gen_buf {
	unsigned char	*p;
	size_t		 len;
	size_t		 size;
};
void		 gen_prof_bin_buf_add(struct gen_buf *, const void *, size_t);
void		 gen_prof_bin_buf_u16(struct gen_buf *, uint16_t);
void		 gen_prof_bin_buf_u32(struct gen_buf *, uint32_t);
void		 gen_prof_bin_buf_u64(struct gen_buf *, uint64_t);
void		 gen_prof_bin_buf_pad(struct gen_buf *, size_t);
char		*gen_prof_bin_fwk_dir(const char *, char **);
void		 gen_prof_bin_tlv_field(struct gen_buf *, uint16_t,
		     const char *);
void		 gen_prof_bin_tlv_record(struct gen_buf *, uint16_t,
		     struct gen_buf *);
void		 gen_prof_bin_buf_free(struct gen_buf *);
void		 gen_prof_bin_put(struct strbuf *, size_t, uint64_t, int);
size_t		 gen_prof_bin_record(struct strbuf *, size_t, uint16_t);
int		 gen_prof_bin_slices(const char *, const char *,
		     const struct gen_buf *, int64_t, size_t, char **);
int		 gen_prof_bin_text(const char *, const char *, const char *,
		     char **);
void		 gen_prof_bin_api(struct gen_buf *, uint16_t, uint32_t,
		     uint32_t,
		     uint32_t, uint64_t, uint64_t, uint64_t);
void		 gen_prof_bin_head(struct gen_buf *, uint16_t, uint32_t,
		     uint32_t,
		     uint32_t, uint64_t);
void		 gen_prof_bin_stars(struct gen_buf *, int, int, int, uint16_t,
		     uint16_t, uint64_t, int, uint16_t);
void		 gen_prof_bin_stars_v6(struct gen_buf *, int, int, int,
		     uint32_t, uint64_t);
void		 gen_prof_bin_track_ids(struct gen_buf *, bool, int, int,
		     uint32_t, uint32_t);
void		 gen_prof_bin_hwts(struct gen_buf *, int, int, int, uint16_t,
		     uint16_t, uint64_t);
void		 gen_prof_bin_flip(struct gen_buf *, uint64_t, uint16_t,
		     uint16_t);
void		 gen_prof_bin_pmu(struct gen_buf *, bool, int, uint16_t,
		     uint16_t,
		     int, uint16_t, uint64_t, const uint64_t *, uint64_t,
		     uint64_t);
/* gen-job.c */
int		 gen_prof_bin_write(const char *, const char *, const char *,
		     size_t,
		     char **);
int		 gen_job_write(const char *, const struct demo_opts *, char **);

/* gen-job-pmu.c */
void		 gen_job_pmu_task(struct strbuf *, struct strbuf *, uint64_t *,
		     int *, int, int, int);
const char	*gen_job_pmu_sample(void);

/* gen-ge.c */
void		 gen_ge_tensor(struct strbuf *, int, int, int, const char *);
void		 gen_ge_step(struct strbuf *, struct strbuf *, int, int,
		     uint64_t);
void		 gen_ge_id_map(struct strbuf *, struct strbuf *, uint64_t);

/* gen-tracedir.c: CANN 6.x device_N/timeline/ folders. */
int		 gen_tracedir_write(const char *, const struct demo_opts *,
		     char **);
void		 gen_tracedir_span(struct strbuf *, int64_t, int64_t);

/* gen-svp.c */
int		 gen_svp_write(const char *, const struct demo_opts *, char **);

/* gen-acl.c */
int		 gen_acl_job(const char *, const struct demo_opts *, uint64_t *,
		     const uint64_t *, int, int, char **);
int		 gen_acl_aicpu(const char *, const struct demo_opts *,
		     uint64_t *, char **);
int		 gen_acl_runtime(const char *, const struct demo_opts *,
		     uint64_t *, char **);

#endif /* GEN_H */
