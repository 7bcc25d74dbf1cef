/*
 * What the chrome-trace JSON importer's files share (importers/trace/),
 * and what the legacy timeline/ and msprof importers reuse of them.
 */
#ifndef TRACE_INT_H
#define TRACE_INT_H

#include "import-int.h"

/* import-trace.c */
int		 import_trace_file(struct store *, const char *,
		     struct import_ctx *, bool, char **);
bool		 import_trace_is_msprof(const char *);

/* trace-parse.c: a streaming reader of chrome-trace JSON. */
#define TRACE_MAX_ARGS	32
#define TRACE_MAX_EVENT	(16 << 20)	/* bytes of one event's text */
#define TRACE_MAX_STRING (4 << 20)	/* bytes of one JSON string */

struct trace_parse_arg {
	struct strbuf	 key;
	struct strbuf	 val;		/* as written, numbers included */
	bool		 str;		/* a JSON string */
};

struct trace_event {
	struct strbuf	 ph;
	struct strbuf	 name;
	struct strbuf	 cat;
	struct strbuf	 id;
	struct strbuf	 pid;
	struct strbuf	 tid;
	struct strbuf	 ts;
	struct strbuf	 dur;
	struct strbuf	 bp;
	struct strbuf	 args;		/* the args object as JSON text */
	struct trace_parse_arg argv[TRACE_MAX_ARGS];	/* its scalar members */
	size_t		 nargs;
	int64_t		 offset;	/* about where it starts in the file */
};
typedef void	(*trace_event_cb)(void *, const struct trace_event *);
struct trace_parse;
struct yajl_handle_t;
struct trace_parse *trace_parse_create(trace_event_cb, void *);
void		 trace_parse_free(struct trace_parse *);
struct yajl_handle_t *trace_parse_handle(struct trace_parse *);
bool		 trace_parse_done(struct trace_parse *);
bool		 trace_parse_too_deep(struct trace_parse *);
int64_t		 trace_parse_events(struct trace_parse *);
void		 trace_parse_drop(struct trace_parse *);
void		 trace_parse_at(struct trace_parse *, int64_t);
int64_t		 trace_parse_big(struct trace_parse *, int64_t *);
int64_t		 trace_parse_dups(struct trace_parse *, int64_t *);
int64_t		 trace_parse_over(struct trace_parse *, int64_t *);
const char	*trace_parse_arg(const struct trace_event *, const char *);

/* trace-pipe.c: events from the parsing thread to the loading one. */
struct trace_pipe;
struct trace_pipe_sink {
	struct store	*s;
	const char	*path;
	trace_event_cb	 cb;
	void		*arg;
};
int		 trace_pipe_start(struct trace_pipe **, void *(*)(void *),
		     void *);
void		 trace_pipe_event(struct trace_pipe *,
		     const struct trace_event *);
void		 trace_pipe_warning(struct trace_pipe *, int64_t,
		     const char *);
void		 trace_pipe_progress(struct trace_pipe *, int64_t, int64_t);
void		 trace_pipe_close(struct trace_pipe *);
void		 trace_pipe_drain(struct trace_pipe *,
		     const struct trace_pipe_sink *);

/* trace-read.c */
int		 trace_read_file(struct store *, const char *,
		     trace_event_cb, void *, char **);

/* trace-event.c: chrome-trace events into the store. */
struct trace_load;
struct trace_load *trace_event_create(struct store *, const char *,
		     struct import_ctx *, bool);
void		 trace_event_event(void *, const struct trace_event *);
void		 trace_event_legacy(struct trace_load *, int64_t, int64_t,
		     int64_t, int64_t);
void		 trace_event_free(struct trace_load *);

#endif /* TRACE_INT_H */
