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
};

/* An output file written under a temporary name until committed. */
struct export_file {
	FILE		*f;
	char		*path;		/* the final name */
	char		*tmp;
};

/* export.c */
void		 export_opts_init(struct export_opts *);
int		 export_run(struct store *, const char *,
		     const struct export_opts *, char **);
const char	*export_kinds(void);
bool		 export_kind_valid(const char *);
void		 export_stamp(char *, size_t);
struct export_file *export_file_open(const char *, const char *, char **);
int		 export_file_close(struct export_file *, char **);
int		 export_file_commit(struct export_file *, char **);
void		 export_file_abort(struct export_file *);
int		 export_check_free(const char *, bool, char **);
void		 export_json_string(FILE *, const char *);
int		 export_parse_range(const char *, int64_t, int64_t *, int64_t *,
		     char **);

/* export-summary.c */
int		 export_summary(struct store *, const struct export_opts *,
		     const char *, const char *, char **);

/* export-folded.c */
struct store_stacks *export_stacks(struct store *, const struct export_opts *,
		     char **);
int		 export_folded(struct store *, const struct export_opts *,
		     char **);

/* export-timeline.c */
int		 export_timeline(struct store *, const struct export_opts *,
		     const char *, const char *, char **);

#endif /* EXPORT_H */
