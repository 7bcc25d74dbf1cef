/*
 * What only the export's own files share: the output files, the kinds'
 * entry points, and the state of one trace being written
 * (export-chrome.c, export-trace.c, export-tracks.c). Nothing outside
 * src/export/ includes this file but the export unit test.
 */
#ifndef EXPORT_INT_H
#define EXPORT_INT_H

#include "export.h"

/* An output file written under a temporary name until committed. */
struct export_file {
	FILE		*f;
	char		*path;		/* the final name */
	char		*tmp;
};

/* export-file.c */
void		 export_file_stamp(char *, size_t);
struct export_file *export_file_open(const char *, const char *, char **);
int		 export_file_close(struct export_file *, char **);
int		 export_file_commit(struct export_file *, char **);
void		 export_file_abort(struct export_file *);
int		 export_file_check_free(const char *, bool, char **);

/* export-summary.c */
int		 export_summary(struct store *, const struct export_opts *,
		     const char *, const char *, char **);

/* export-chrome.c */
int		 export_chrome(struct store *, const struct export_opts *,
		     const char *, const char *, char **);

/* A stream (LEVEL NULL) or host thread that has events. */
struct chrome_lane {
	int64_t		 rank;
	int64_t		 device;
	int64_t		 id;		/* stream or tid */
	char		*level;
	char		*name;		/* a row of its own on a device (an MC2
					   group's), or NULL */
};

/* A process with counter tracks, under the pid it is written with. */
struct chrome_track {
	int64_t		 rank;
	int64_t		 pid;		/* as stored */
	int64_t		 out;		/* as written */
	char		*process;
	char		*labels;
	int64_t		 sort;
};

struct chrome {
	const struct export_opts	 *o;
	struct store_query		  q;
	const char			 *dir;
	const char			 *stamp;
	struct chrome_lane		 *lanes;
	size_t				  nlanes;
	char				**levels;	/* not CANN, sorted */
	size_t				  nlevels;
	struct chrome_track		 *tracks;
	size_t				  ntracks;
	struct export_file		**files;
	size_t				  nfiles;
	struct export_file		 *ef;	/* the slice being written */
	struct json			 *json;	/* its JSON writer */
	int64_t				  events;	/* in this slice */
	int64_t				  items;	/* JSON values in it */
	int64_t				  total;
	bool				  open;	/* a C event is open */
	int64_t				  bad_args; /* spans' args left out */
	char				**cause;
	int				(*slice)(struct chrome *);
					/* open the next slice file */
};

/* export-trace.c */
int64_t		 export_trace_pid(int64_t, int, int64_t);
void		 export_trace_ts(struct json *, int64_t);
void		 export_trace_head(struct json *, const char *, int64_t,
		     int64_t, int64_t);
void		 export_trace_dur(struct json *, int64_t);
struct json	*export_trace_sep(struct chrome *);
struct json	*export_trace_event(struct chrome *);
int		 export_trace_slice(struct chrome *, const char *);
void		 export_trace_end(struct chrome *);
void		 export_trace_process(struct chrome *, int64_t, const char *,
		     const char *, int);
void		 export_trace_thread(struct chrome *, int64_t, int64_t,
		     const char *);

/* export-tracks.c */
int		 export_tracks_load(struct store *, struct chrome *);
void		 export_tracks_metadata(struct chrome *);
int		 export_tracks_write(struct store *, struct chrome *);
void		 export_tracks_free(struct chrome *);

#endif /* EXPORT_INT_H */
