/*
 * Reading a chrome-trace file: chunks go to yajl through the parser of
 * trace-parse.c, on a thread of its own whose events and warnings reach
 * the importer through trace-pipe.c. A file cut short keeps every event
 * that closed; arrays written one after the other (torch_npu appends "]["
 * or "]\n[" when a run is saved twice) are read on with one warning;
 * anything else that follows the trace is reported once, with its byte
 * offset, and ends the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
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

/*
 * Where the bytes fed to yajl stand in JSON's strings. yajl keeps a string
 * whole in memory however long it is, so a string longer than
 * TRACE_MAX_STRING is cut: the rest of it, up to its closing quote, is
 * never fed, and the event holding it is dropped.
 */
struct trace_scan {
	bool		 in_str;
	bool		 dropping;	/* inside a string being cut */
	int		 esc;		/* 1 after a backslash, 2-5 in \uXXXX */
	int64_t		 len;		/* bytes of the string so far */
};

/* Where a file stands while it is read. */
struct trace_file {
	struct store		*s;
	const char		*path;
	int			 fd;
	int64_t			 size;
	struct trace_pipe	*pipe;		/* NULL: parsed by the caller */
	trace_event_cb		 cb;
	void			*arg;
	struct trace_parse	*p;
	yajl_handle		 h;
	int64_t			 values;	/* top-level values begun */
	bool			 stop;
	struct trace_scan	 scan;
	int64_t			 cuts;		/* strings cut */
	int64_t			 cut_offset;	/* where the first one was */
};

/* A warning at byte OFFSET of the file, through the pipe if there is one. */
static void PRINTFLIKE(3, 4)
trace_read_warn(struct trace_file *f, int64_t offset, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (f->pipe != NULL)
		trace_pipe_warning(f->pipe, offset, msg);
	else
		store_load_warning(f->s, f->path, offset, "%s", msg);
	free(msg);
}

/* An event F's parser closed: into the pipe, or straight to the importer. */
static void
trace_read_event(void *arg, const struct trace_event *ev)
{
	struct trace_file	*f = arg;

	if (f->pipe != NULL)
		trace_pipe_event(f->pipe, ev);
	else
		f->cb(f->arg, ev);
}

/* Move the escape state of T over the string byte B. */
static void
trace_read_escape(struct trace_scan *t, unsigned char b)
{
	if (t->esc == 1)
		t->esc = b == 'u' ? 5 : 0;
	else if (t->esc > 1)
		t->esc = t->esc == 2 ? 0 : t->esc - 1;
	else if (b == '\\')
		t->esc = 1;
}

/*
 * Where the next C is in BUF (LEN bytes) from FROM on, LEN if nowhere;
 * *AT keeps the answer, which stands while FROM has not passed it.
 */
static size_t
trace_read_next(const unsigned char *buf, size_t len, size_t from, int c,
    size_t *at)
{
	const unsigned char	*p;

	if (*at == SIZE_MAX || *at < from) {
		p = memchr(buf + from, c, len - from);
		*at = p != NULL ? (size_t)(p - buf) : len;
	}
	return *at;
}

/*
 * Scan BUF for feeding. Return how many bytes may be fed; if CUT, stop
 * where a string grows over the limit and start dropping it there. Runs
 * of plain bytes (to the next quote or backslash, whose places are kept
 * so that each byte is searched once) are taken whole while the string
 * stays under the limit; quotes, escapes and the bytes at the limit are
 * looked at one by one.
 */
static size_t
trace_read_scan(struct trace_scan *t, const unsigned char *buf, size_t len,
    bool cut)
{
	size_t		 i = 0, run, quote = SIZE_MAX, bslash = SIZE_MAX, end;
	unsigned char	 b;

	while (i < len) {
		if (!t->in_str) {
			if ((i = trace_read_next(buf, len, i, '"', &quote)) ==
			    len)
				return len;
			i++;
			t->in_str = true;
			t->len = 0;
			t->esc = 0;
			continue;
		}
		if (t->esc == 0) {
			end = trace_read_next(buf, len, i, '"', &quote);
			if (trace_read_next(buf, len, i, '\\', &bslash) < end)
				end = bslash;
			run = end - i;
			if (cut && t->len + (int64_t)run > TRACE_MAX_STRING)
				run = t->len < TRACE_MAX_STRING ?
				    (size_t)(TRACE_MAX_STRING - t->len) : 0;
			t->len += (int64_t)run;
			i += run;
			if (i == len)
				break;
		}
		b = buf[i++];
		if (t->esc == 0 && b == '"') {
			t->in_str = false;
			continue;
		}
		if (cut && t->esc == 0 && t->len >= TRACE_MAX_STRING &&
		    (b & 0xc0) != 0x80) {
			t->dropping = true;
			return i - 1;
		}
		trace_read_escape(t, b);
		t->len++;
	}
	return len;
}

/* Skip the bytes of a string being cut, up to its closing quote. */
static size_t
trace_read_drop(struct trace_scan *t, const unsigned char *buf, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (t->esc == 0 && buf[i] == '"') {
			t->dropping = false;
			break;
		}
		trace_read_escape(t, buf[i]);
	}
	return i;
}

/*
 * Feed BUF, at file offset POS, to the handle, leaving out what is cut of
 * long strings. On a status other than ok, *USED is how many bytes of BUF
 * the handle took.
 */
static yajl_status
trace_read_feed(struct trace_file *f, const unsigned char *buf, size_t len,
    int64_t pos, size_t *used)
{
	struct trace_scan	 save;
	yajl_status		 st;
	size_t			 i = 0, run, took;

	while (i < len) {
		if (f->scan.dropping) {
			i += trace_read_drop(&f->scan, buf + i, len - i);
			continue;
		}
		save = f->scan;
		run = trace_read_scan(&f->scan, buf + i, len - i, true);
		trace_parse_at(f->p, pos + (int64_t)i);
		st = yajl_parse(f->h, buf + i, run);
		if (st != yajl_status_ok) {
			took = yajl_get_bytes_consumed(f->h);
			f->scan = save;
			trace_read_scan(&f->scan, buf + i, took, false);
			*used = i + took;
			return st;
		}
		i += run;
		if (f->scan.dropping) {
			if (f->cuts++ == 0)
				f->cut_offset = pos + (int64_t)i;
			trace_parse_drop(f->p);
		}
	}
	return yajl_status_ok;
}

static void
trace_read_stop(struct trace_file *f, int64_t offset, const char *why)
{
	trace_read_warn(f, offset, "%s; %lld event%s before it "
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
	size_t	 i = 0;

	/* A UTF-8 byte order mark before the trace. */
	if (pos == 0 && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (; i < len; i++) {
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
		trace_read_warn(f, pos + (int64_t)i, "a second "
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
		st = trace_read_feed(f, buf, len, pos, &used);
		if (st == yajl_status_ok)
			return;
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

/* Say once what was cut or dropped for its size. */
static void
trace_read_report(struct trace_file *f)
{
	int64_t	 n, offset;

	if (f->cuts > 0)
		trace_read_warn(f, f->cut_offset, "string over "
		    "the limit of %d MiB cut here (%lld string%s); an event "
		    "holding one is skipped", TRACE_MAX_STRING >> 20,
		    (long long)f->cuts, f->cuts == 1 ? "" : "s");
	if ((n = trace_parse_big(f->p, &offset)) > 0)
		trace_read_warn(f, offset, "event over the "
		    "limit of %d MiB or holding a cut string skipped (%lld "
		    "event%s; the offset is where the first one ends)",
		    TRACE_MAX_EVENT >> 20,
		    (long long)n, n == 1 ? "" : "s");
	if ((n = trace_parse_dups(f->p, &offset)) > 0)
		trace_read_warn(f, offset, "a key given twice in an event "
		    "(%lld time%s, the first about here): its last value is "
		    "taken, as Python's json takes it", (long long)n, n == 1 ?
		    "" : "s");
	if ((n = trace_parse_over(f->p, &offset)) > 0)
		trace_read_warn(f, offset, "an event with more than %d "
		    "arguments (%lld event%s, the first about here): those "
		    "past the first %d are kept in its args text only, not "
		    "read as a counter's series or ids", TRACE_MAX_ARGS,
		    (long long)n, n == 1 ? "" : "s", TRACE_MAX_ARGS);
}

/*
 * Read and parse the file of F (a struct trace_file) to its end, on the
 * parsing thread if F has a pipe.
 */
static void *
trace_read_run(void *arg)
{
	struct trace_file	*f = arg;
	unsigned char		*buf;
	ssize_t			 n = 0;
	int64_t			 pos = 0;

	buf = xmalloc(TRACE_CHUNK);
	while (!f->stop && (n = read(f->fd, buf, TRACE_CHUNK)) > 0) {
		trace_read_chunk(f, buf, (size_t)n, pos);
		pos += n;
		if (f->pipe != NULL)
			trace_pipe_progress(f->pipe, pos, f->size);
		else
			store_load_progress(f->s, "reading", f->path, pos,
			    f->size);
	}
	if (!f->stop && n < 0)
		trace_read_stop(f, pos, strerror(errno));
	if (!f->stop && f->h != NULL && yajl_complete_parse(f->h) !=
	    yajl_status_ok && !trace_parse_done(f->p))
		trace_read_stop(f, pos, "the file ends inside the trace "
		    "(cut short?)");
	if (!f->stop && f->values == 0)
		trace_read_warn(f, 0, "no trace events in the file");
	trace_read_report(f);
	free(buf);
	if (f->pipe != NULL)
		trace_pipe_close(f->pipe);
	return NULL;
}

/*
 * Read the chrome trace PATH and hand each complete event to CB with ARG,
 * on the caller's thread, in the file's order. Problems inside the file
 * are warnings in S. Return -1 and set *cause only if the file cannot be
 * read at all.
 */
int
trace_read_file(struct store *s, const char *path, trace_event_cb cb,
    void *arg, char **cause)
{
	struct trace_pipe_sink	 k;
	struct trace_file	 f;
	int			 fd;

	if ((fd = util_open_input(path)) == -1) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    util_input_error(errno));
		return -1;
	}
	memset(&f, 0, sizeof f);
	f.s = s;
	f.path = path;
	f.fd = fd;
	f.size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	f.cb = cb;
	f.arg = arg;
	f.p = trace_parse_create(trace_read_event, &f);
	if (trace_pipe_start(&f.pipe, trace_read_run, &f) == 0) {
		k.s = s;
		k.path = path;
		k.cb = cb;
		k.arg = arg;
		trace_pipe_drain(f.pipe, &k);
		f.pipe = NULL;
	} else
		trace_read_run(&f);
	if (f.h != NULL)
		yajl_free(f.h);
	close(fd);
	trace_parse_free(f.p);
	return 0;
}
