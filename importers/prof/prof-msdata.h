/*
 * Private to prof-fwk-msdata.c, prof-fwk-mdsum.c and prof-fwk-mspy.c:
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

/* prof-fwk-mspy.c */
yajl_val	 prof_mspy_get(yajl_val, const char *);
bool		 prof_mspy_falsy(yajl_val);
bool		 prof_mspy_numeric(yajl_val, double *);
bool		 prof_mspy_int(yajl_val, int64_t *);
uint64_t	 prof_mspy_hash(yajl_val);
bool		 prof_mspy_eq(yajl_val, yajl_val);
bool		 prof_mspy_hashable(yajl_val);
void		 prof_mspy_repr(struct strbuf *, yajl_val);
void		 prof_mspy_str(struct strbuf *, yajl_val);
char		*prof_mspy_cell(yajl_val);
bool		 prof_mspy_arith(yajl_val, double *);
bool		 prof_mspy_iter(struct msdata *, yajl_val, yajl_val **,
		     size_t *);

/* prof-fwk-mdsum.c */
void		 prof_mdsum_load(struct msdata *, const char *, int64_t);

#endif /* PROF_MSDATA_H */
