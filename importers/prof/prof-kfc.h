/*
 * Private to prof-kfc.c, prof-kfc-ops.c and prof-kfc-tables.c: the
 * AI CPU's records, the ops and the task rows of the MC2 calculation
 * (doc/formats.md section 4.11).
 */
#ifndef PROF_KFC_H
#define PROF_KFC_H

#include "prof-int.h"

#define PROF_KFC_FIRST		0	/* kind 12: the op's first task */
#define PROF_KFC_LAST		1
#define PROF_KFC_NO_RANK	4294967295U

/* An HCCL information of a task (kind 13), joined to its device task. */
struct prof_kfc_info {
	const unsigned char	*p;	/* the info, NULL: a task without one */
	const struct prof_kfc_task *t;	/* its device task, or NULL */
	uint32_t		 stream;
	uint32_t		 task;
	uint32_t		 ctx;
	uint32_t		 batch;
	int64_t			 ts;
	int64_t			 start_ns;
	int64_t			 dur_ns;
	size_t			 seq;
	size_t			 rank;	/* of its stream, by first info */
	double			 bw;	/* GB/s (prof-kfc-bw.c) */
};

/* A first or last task record of an op (kind 12). */
struct prof_kfc_master {
	int64_t		 ts;
	uint32_t	 aicpu_stream;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 batch;
	uint32_t	 type;
	size_t		 seq;
	size_t		 rank;		/* of its stream, by first record */
	const struct prof_kfc_info *info;	/* the task, or NULL */
};

/*
 * A flip of an AI CPU stream's task ids (kind 11, NUM its flip number),
 * or an op's information (kind 10, R the record).
 */
struct prof_kfc_rec {
	int64_t			 ts;
	uint32_t		 stream;
	uint32_t		 num;
	const unsigned char	*r;
	size_t			 seq;
};

/* One op, as the vendor's KfcOP row. */
struct prof_kfc_op {
	const struct prof_kfc_task	*t;
	int64_t			 start_ns;
	int64_t			 dur_ns;
	uint64_t		 group;		/* a hash, 0: N/A */
	char			*name;		/* its node's, or N/A */
	char			*full;		/* as the vendor names it */
	uint64_t		 op_type;	/* a hash, 0: N/A */
	uint64_t		 first;		/* host time of its launch */
	uint32_t		 iter;
	bool			 hccl;		/* source: an HCCL op */
	const unsigned char	*opinfo;	/* kind 10, or NULL */
	size_t			 seq;
	size_t			 rank;		/* of its stream */
};

/* A kfc_task row: info F of op O, in GROUP. */
struct prof_kfc_row {
	const struct prof_kfc_op	*o;
	const struct prof_kfc_info	*f;
	uint64_t			 group;
	int64_t				 plane;
	bool				 master;
};

/* The records the calculation reads, gathered from the AI CPU's. */
struct prof_kfc_calc {
	struct prof_kfc			*k;
	const struct prof_aicpus	*a;
	const struct prof_meta		*m;
	struct prof_kfc_rec		*flips;
	size_t				 nflips;
	struct prof_kfc_rec		*opinfos;
	size_t				 nopinfos;
	struct prof_kfc_info		*infos;
	size_t				 ninfos;
	struct prof_kfc_master		*masters;
	size_t				 nmasters;
	struct prof_kfc_op		*ops;
	size_t				 nops;
	struct prof_kfc_row		*rows;		/* kfc_task */
	size_t				 nrows;
	uint64_t			*groups;	/* with tasks */
	size_t				 ngroups;
	struct util_map			 info_at;	/* task key -> info */
	struct util_map			 first;		/* first tasks' keys */
	size_t				 nomaster;	/* masters, no task */
	size_t				 noinfo_task;	/* infos, no task */
	size_t				 noname;	/* ops, no node */
	size_t				 same_time;	/* masters merged */
	size_t				 nomatch;	/* tasks, no op */
};

/* prof-kfc.c */
uint64_t	 prof_kfc_key(uint32_t, uint32_t, uint32_t, uint32_t);
int		 prof_kfc_info_pass_cmp(const struct prof_kfc_info *,
		     const struct prof_kfc_info *);
bool		 prof_kfc_ends(const char *, const char *);
const char	*prof_kfc_node(const struct prof_host *, int32_t, char *,
		     size_t);

/* prof-kfc-bw.c */
void		 prof_kfc_bw(struct prof_kfc_calc *, const struct prof_dicts *);

/* prof-kfc-ops.c */
void		 prof_kfc_ops_find(struct prof_kfc_calc *);
void		 prof_kfc_ops_work(struct prof_kfc_calc *, int64_t);
void		 prof_kfc_ops_tasks(struct prof_kfc_calc *);
size_t		 prof_kfc_ops_of_group(struct prof_kfc_calc *, uint64_t, bool,
		     const struct prof_kfc_op ***);

/* prof-kfc-tables.c */
void		 prof_kfc_tables_write(struct prof_kfc_calc *, struct store *,
		     const struct prof_meta *, int64_t);
void		 prof_kfc_tables_events(struct prof_kfc_calc *);

#endif
