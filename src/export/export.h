/*
 * Export: writing the vendor's files (summary CSV/JSON, timeline trace
 * JSON) from a store, so scripts written for msprof's own export read ours
 * unchanged. Export reads only through the store's interface.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include "store.h"

enum export_format {
	EXPORT_CSV,
	EXPORT_JSON
};

/* The tables export summary writes: a cluster's are written once. */
enum export_tables {
	EXPORT_TABLES_ALL,
	EXPORT_TABLES_RANK,		/* all but the cluster tables */
	EXPORT_TABLES_CLUSTER		/* the cluster tables only */
};

struct export_opts {
	const char		*output;	/* directory */
	enum export_format	 format;
	int64_t			 device;	/* NP_NA for all */
	int64_t			 rank;		/* NP_NA for all */
	bool			 force;		/* overwrite existing files */
	const char		*range;		/* START:END, or NULL */
	int64_t			 split_bytes;	/* 0: one file */
	bool			 quiet;
	bool			 folded;	/* export --folded */
	const char		*stacks;	/* --folded: source, or NULL */
	const char		*weight;	/* --folded: "host" or NULL */
	const char		*filter;	/* --folded: a regex, or NULL */
	int64_t			 step;		/* --folded: NP_NA or one */
	int64_t			 from_ns;	/* --folded: NP_NA or window */
	int64_t			 to_ns;
	enum export_tables	 tables;	/* summary: which to write */
};

/* export.c */
void		 export_opts_init(struct export_opts *);
int		 export_run(struct store *, const char *,
		     const struct export_opts *, char **);
const char	*export_kinds(void);
bool		 export_kind_valid(const char *);

/* export-file.c */
int		 export_file_parse_range(const char *, int64_t, int64_t *,
		     int64_t *,
		     char **);
int		 export_file_window(struct store *, const char *, int64_t,
		     int64_t, bool, int64_t *, int64_t *, char **);

/* export-folded.c */
struct store_stacks *export_folded_stacks(struct store *,
		     const struct export_opts *, char **);
int		 export_folded(struct store *, const struct export_opts *,
		     char **);

#endif /* EXPORT_H */
