/*
 * Private to prof-fwk-msdata.c, prof-fwk-mdsum.c (and its parts
 * prof-fwk-mdcpu.c, prof-fwk-mdtrace.c, prof-fwk-mdrow.c,
 * prof-fwk-mdfind.c) and prof-fwk-mspy.c:
 * MindSpore's dataset pipeline files (doc/formats.md section 3.12), held
 * as the JSON values yajl parses and read with Python's rules, since
 * MindSpore's analysis is Python: its truth, its dict keys, its str().
 */
#ifndef PROF_MSDATA_H
#define PROF_MSDATA_H

#include <yajl/yajl_tree.h>

#include "prof-int.h"

#define MSDATA_MAX	(16 << 20)	/* bytes of a file read */

/* One op of the pipeline, as the analysis changes it. */
struct msdata_op {
	yajl_val	 v;		/* its object */
	yajl_val	 id;
	yajl_val	 children;	/* its own, or NULL */
	yajl_val	*kept;		/* once replaced (updated) */
	size_t		 nkept;
	bool		 updated;	/* children replaced */
	yajl_val	 parent;	/* the parent's id; NULL: None */
};

/* The pipeline file, as the raw viewer leaves it for the summary. */
struct msdata {
	struct prof_fwk		*fw;
	struct msdata_op	*ops;
	size_t			 nops;
	struct util_map		 byid;
	const char		*why;		/* the analysis fails */
	size_t			 work;
	size_t			 bytes;
	bool			 guard;		/* stopped by WORK or BYTES */
	yajl_val		*made;		/* ids made of strings, keys */
	size_t			 nmade;
	yajl_val		**lists;	/* and the lists of them */
	size_t			 nlists;
};

/* minddata_pipeline_summary as it is built (prof-fwk-mdsum.c). */
/* A number as the summary computes it: an int (-1, 0) or a float. */
struct mdsum_num {
	double	 d;
	bool	 isf;
};

struct mdsum_op {
	struct msdata_op	*o;
	char			*name;		/* op_type less two chars */
	yajl_val		 workers;
	struct mdsum_num	 avg;		/* queue mean size */
	struct mdsum_num	 use;		/* its share of the length */
	struct mdsum_num	 empty;		/* samples empty, % */
	yajl_val		 kidsv;		/* children, if not replaced */
	yajl_val		*kids;		/* and iterated */
	size_t			 nkids;
	yajl_val		 parent;	/* NULL: -1 */
	struct mdsum_num	 cpu;
	struct mdsum_num	 wcpu;		/* per worker */
};

/* A row: its key and values. */
struct mdsum_row {
	char	**cells;
	size_t	  n;
};

struct mdsum {
	struct msdata		*m;
	const char		*why;		/* the summary fails */
	char			*wpath;		/* about the file WPATH */
	int64_t			 woff;
	struct mdsum_op		*ops;
	size_t			 n;
	struct mdsum_num	*cpu;
	size_t			 ncpu;
	struct mdsum_num	 times[3];	/* pipeline, push, batch */
	struct mdsum_row	*rows;
	size_t			 nrows;
};

/* How the analysis of the findings ends (prof-fwk-mdfind.c). */
enum mdsum_an {
	MDSUM_OK,
	MDSUM_INDEX,		/* an IndexError: no findings */
	MDSUM_FAIL,		/* any other: no summary */
	MDSUM_SKIP		/* an op the analysis passes over */
};


/* prof-fwk-mspy.c */
yajl_val	 prof_mspy_get(yajl_val, const char *);
bool		 prof_mspy_falsy(yajl_val);
bool		 prof_mspy_numeric(yajl_val, double *);
bool		 prof_mspy_int(yajl_val, int64_t *);
uint64_t	 prof_mspy_hash(yajl_val);
bool		 prof_mspy_eq(yajl_val, yajl_val);
bool		 prof_mspy_hashable(yajl_val);
bool		 prof_mspy_first(yajl_val, size_t);
bool		 prof_mspy_len(yajl_val, size_t *);
void		 prof_mspy_repr(struct strbuf *, yajl_val);
void		 prof_mspy_str(struct strbuf *, yajl_val);
char		*prof_mspy_cell(yajl_val);
bool		 prof_mspy_arith(yajl_val, double *);
uint64_t	 prof_mspy_key(struct util_map *, yajl_val **, size_t *,
		     yajl_val);
bool		 prof_mspy_iter(struct msdata *, yajl_val, yajl_val **,
		     size_t *);

/* prof-fwk-mdrow.c */
void		 prof_mdrow_fmt(struct strbuf *, struct mdsum_num);
struct mdsum_num prof_mdrow_round(double, int);
struct mdsum_num prof_mdrow_int(double);
struct mdsum_row *prof_mdrow_row(struct mdsum *, const char *);
void		 prof_mdrow_add(struct mdsum_row *, struct strbuf *);
void		 prof_mdrow_put(struct mdsum_row *, char *);
void		 prof_mdrow_nums(struct mdsum *, const char *, const void *,
		     size_t, size_t);
void		 prof_mdrow_op(struct strbuf *, const struct mdsum_op *);

/* prof-fwk-mdcpu.c */
bool		 prof_mdcpu_read(struct mdsum *);

/* prof-fwk-mdtrace.c */
bool		 prof_mdtrace_read(struct mdsum *, bool);

/* prof-fwk-mdfind.c */
bool		 prof_mdfind_workers(struct mdsum *);
bool		 prof_mdfind_analyse(struct mdsum *);

/* prof-fwk-mdsum.c */
char		*prof_mdsum_beside(const char *, const char *, int64_t);
void		 prof_mdsum_load(struct msdata *, const char *, int64_t);

#endif /* PROF_MSDATA_H */
