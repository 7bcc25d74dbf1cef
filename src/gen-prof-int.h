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
	uint16_t	 task;
	uint16_t	 batch;
	int64_t		 model;		/* model id or GEN_PROF_NO_MODEL */
	uint32_t	 block_dim;
	bool		 hf32;
	bool		 is_static;
	int		 nctx;
	uint16_t	 ctx[GEN_PROF_MAX_CTX];
	int64_t		 dur[GEN_PROF_MAX_CTX];	/* device ns */
	size_t		 index;
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
	int64_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	__int128	 sumsq;
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
	int64_t				 local_off;	/* epoch - mono */
	char				 names[16][GEN_PROF_NAMES][48];
	char				 missing[32];	/* unlisted type id */
};

/* gen-prof.c */
uint64_t	 gen_prof_hash(const char *);
const char	*gen_prof_type_name(const struct gen_prof *,
		     const struct gen_prof_op *);
void		 gen_prof_shape(const struct gen_prof *,
		     const struct gen_prof_op *, int, uint32_t *);

bool		 gen_prof_pmu(const struct gen_prof *, size_t, uint64_t *,
		     uint64_t *);
int		 gen_prof_cores(const struct gen_prof *);
double		 gen_prof_aic_mhz(const struct gen_prof *);

/* gen-prof-expect.c */
void		 gen_prof_api_add(struct gen_prof *, const char *,
		     const char *, int64_t);
int		 gen_prof_expect(struct gen_prof *, const char *, char **);

#endif /* GEN_PROF_INT_H */
