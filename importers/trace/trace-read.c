/*
 * Reading a chrome-trace file: chunks go to yajl through the parser of
 * trace-parse.c. A file cut short keeps every event that closed; arrays
 * written one after the other (torch_npu appends "][" or "]\n[" when a
 * run is saved twice) are read on with one warning; anything else that
 * follows the trace is reported once, with its byte offset, and ends the
 * file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "trace-int.h"

#define TRACE_CHUNK	(256 * 1024)

/* Where yajl went wrong, as one line. */
static char *
trace_read_error(yajl_handle h, const unsigned char *buf, size_t len)
{
	unsigned char	*msg;
	char		*s, *nl;

	msg = yajl_get_error(h, 0, buf, len);
	s = xstrdup((const char *)msg);
	yajl_free_error(h, msg);
	if ((nl = strchr(s, '\n')) != NULL)
		*nl = '\0';
	return s;
}

/* Where a file stands while it is read. */
struct trace_file {
	struct store		*s;
	const char		*path;
	struct trace_parse	*p;
	yajl_handle		 h;
	int64_t			 values;	/* top-level values begun */
	bool			 stop;
};

static void
trace_read_stop(struct trace_file *f, int64_t offset, const char *why)
{
	store_load_warning(f->s, f->path, offset, "%s; %lld event%s before it "
	    "imported, the rest of the file skipped", why,
	    (long long)trace_parse_events(f->p),
	    trace_parse_events(f->p) == 1 ? "" : "s");
	f->stop = true;
}

/*
 * Between two top-level values: skip blanks and stray commas in BUF, then
 * start the next value if one begins. Return the bytes used.
 */
static size_t
trace_read_between(struct trace_file *f, const unsigned char *buf,
    size_t len, int64_t pos)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (strchr(" \t\r\n,", buf[i]) == NULL || buf[i] == '\0')
			break;
	}
	if (i == len)
		return len;
	if (buf[i] != '[' && buf[i] != '{') {
		trace_read_stop(f, pos + (int64_t)i, "the trace is followed "
		    "by something that is not JSON");
		return len;
	}
	if (f->values++ == 1)
		store_load_warning(f->s, f->path, pos + (int64_t)i, "a second "
		    "JSON value starts here (arrays written one after the "
		    "other); reading on");
	f->h = trace_parse_handle(f->p);
	return i;
}

/* Feed one chunk BUF that starts at byte POS of the file. */
static void
trace_read_chunk(struct trace_file *f, const unsigned char *buf,
    size_t len, int64_t pos)
{
	yajl_status	 st;
	size_t		 used;
	char		*why, *msg;

	while (len > 0 && !f->stop) {
		if (f->h == NULL) {
			used = trace_read_between(f, buf, len, pos);
			buf += used;
			len -= used;
			pos += (int64_t)used;
			continue;
		}
		st = yajl_parse(f->h, buf, len);
		if (st == yajl_status_ok)
			return;
		used = yajl_get_bytes_consumed(f->h);
		if (st == yajl_status_client_canceled &&
		    trace_parse_done(f->p)) {
			yajl_free(f->h);
			f->h = NULL;
			buf += used;
			len -= used;
			pos += (int64_t)used;
			continue;
		}
		if (trace_parse_too_deep(f->p))
			why = xstrdup("JSON nested too deeply");
		else
			why = trace_read_error(f->h, buf, len);
		xasprintf(&msg, "cannot parse the trace: %s", why);
		trace_read_stop(f, pos + (int64_t)used, msg);
		free(msg);
		free(why);
	}
}

/*
 * Read the chrome trace PATH and hand each complete event to CB with ARG.
 * Problems inside the file are warnings in S. Return -1 and set *cause
 * only if the file cannot be read at all.
 */
int
trace_read_file(struct store *s, const char *path, trace_event_cb cb,
    void *arg, char **cause)
{
	struct trace_file	 f;
	unsigned char		*buf;
	ssize_t			 n = 0;
	int64_t			 pos = 0, size;
	int			 fd;

	if ((fd = util_open_input(path)) == -1) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    util_input_error(errno));
		return -1;
	}
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	memset(&f, 0, sizeof f);
	f.s = s;
	f.path = path;
	f.p = trace_parse_create(cb, arg);
	buf = xmalloc(TRACE_CHUNK);
	while (!f.stop && (n = read(fd, buf, TRACE_CHUNK)) > 0) {
		trace_read_chunk(&f, buf, (size_t)n, pos);
		pos += n;
		store_load_progress(s, "reading", path, pos, size);
	}
	if (!f.stop && n < 0)
		trace_read_stop(&f, pos, strerror(errno));
	if (!f.stop && f.h != NULL && yajl_complete_parse(f.h) !=
	    yajl_status_ok && !trace_parse_done(f.p))
		trace_read_stop(&f, pos, "the file ends inside the trace "
		    "(cut short?)");
	if (!f.stop && f.values == 0)
		store_load_warning(s, path, 0, "no trace events in the file");
	if (f.h != NULL)
		yajl_free(f.h);
	free(buf);
	close(fd);
	trace_parse_free(f.p);
	return 0;
}
