/*
 * What the timeline export's files share: the state of one timeline being
 * written (export-timeline.c) and the counter tracks it carries
 * (export-tracks.c). Nothing outside src/export*.c includes this file.
 */
#ifndef EXPORT_INT_H
#define EXPORT_INT_H

#include "export.h"

/* A stream (LEVEL NULL) or host thread that has events. */
struct timeline_lane {
	int64_t		 rank;
	int64_t		 device;
	int64_t		 id;		/* stream or tid */
	char		*level;
};

/* A process with counter tracks, under the pid it is written with. */
struct timeline_track {
	int64_t		 rank;
	int64_t		 pid;		/* as stored */
	int64_t		 out;		/* as written */
	char		*process;
	char		*labels;
	int64_t		 sort;
};

struct timeline {
	const struct export_opts	 *o;
	struct store_query		  q;
	const char			 *dir;
	const char			 *stamp;
	struct timeline_lane		 *lanes;
	size_t				  nlanes;
	char				**levels;	/* not CANN, sorted */
	size_t				  nlevels;
	struct timeline_track		 *tracks;
	size_t				  ntracks;
	struct export_file		**files;
	size_t				  nfiles;
	struct export_file		 *ef;	/* the slice being written */
	int64_t				  events;	/* in this slice */
	int64_t				  items;	/* JSON values in it */
	int64_t				  total;
	bool				  open;	/* a C event is open */
	char				**cause;
};

/* export-timeline.c */
int64_t		 timeline_pid(int64_t, int, int64_t);
void		 timeline_ts(FILE *, int64_t);
FILE		*timeline_event(struct timeline *);
void		 timeline_process(struct timeline *, int64_t, const char *,
		     const char *, int);

/* export-tracks.c */
int		 export_tracks_load(struct store *, struct timeline *);
void		 export_tracks_metadata(struct timeline *);
int		 export_tracks_write(struct store *, struct timeline *);
void		 export_tracks_free(struct timeline *);

#endif /* EXPORT_INT_H */
