/*
 * The project's own profile generators: deterministic synthetic profiles
 * for the demo, the tests and the benchmarks, written byte for byte as the
 * vendor's tools write them, with the expected statistics computed from
 * the generated values (never by the decoders).
 */
#ifndef GEN_H
#define GEN_H

#include "npuprof.h"

enum gen_flags {
	GEN_STATS = 1 << 0,	/* write the tool's own statistic files */
	GEN_QUIRKS = 1 << 1,	/* CRLF, BOM, quoted shapes, N/A rows */
	GEN_BINARY = 1 << 2	/* JOB: binary GE task records */
};

struct gen_opts {
	uint64_t	 seed;
	int64_t		 tasks;
	int		 streams;
	int		 steps;
	int		 ranks;
	int		 apis;
	int		 flags;
	const char	*expect;	/* directory for expected tables */
};

/* gen-demo.c */
void		 gen_opts_init(struct gen_opts *);
int		 gen_demo_write(const char *, const struct gen_opts *, char **);

/* gen-job.c */
uint64_t	 gen_job_rand(uint64_t *);
int		 gen_job_file(const char *, const char *, const char *, size_t,
		     char **);
int		 gen_job_write(const char *, const struct gen_opts *, char **);

/* gen-ge.c */
void		 gen_ge_tensor(struct strbuf *, int, int, int, const char *);
void		 gen_ge_step(struct strbuf *, struct strbuf *, int, bool,
		     uint64_t);
void		 gen_ge_id_map(struct strbuf *, struct strbuf *, uint64_t);

/* gen-svp.c */
int		 gen_svp_write(const char *, const struct gen_opts *, char **);

/* gen-acl.c */
int		 gen_job_acl(const char *, const struct gen_opts *, uint64_t *,
		     char **);
int		 gen_job_aicpu(const char *, const struct gen_opts *,
		     uint64_t *, char **);
int		 gen_job_runtime(const char *, const struct gen_opts *,
		     uint64_t *, char **);

#endif /* GEN_H */
