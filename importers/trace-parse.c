/*
 * A streaming reader of chrome-trace JSON (a top-level array of events, or
 * an object whose traceEvents member is that array). yajl delivers tokens
 * chunk by chunk; numbers arrive as their text, so that a timestamp in us
 * with 3 decimals becomes exact ns and a 64-bit id stays exact. Each event
 * is handed to the caller as soon as its object closes, with its args
 * re-written as compact JSON text, so memory stays flat whatever the size
 * of the file. A file cut short keeps every event that closed; arrays
 * written one after the other (torch_npu appends "][" or "]\n[" when a
 * run is saved twice) are read on; anything else that follows the trace is
 * reported once, with its byte offset, and ends the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "importer.h"

#define TRACE_CHUNK	(256 * 1024)
#define TRACE_MAX_DEPTH	64

enum trace_field {
	F_NONE,
	F_PH,
	F_NAME,
	F_CAT,
	F_ID,
	F_PID,
	F_TID,
	F_TS,
	F_DUR,
	F_BP,
	F_ARGS
};

struct trace_parse {
	struct trace_event	 ev;
	trace_event_cb		 cb;
	void			*arg;
	int			 depth;		/* containers open */
	int			 top;		/* '[' or '{' */
	int			 ev_array;	/* depth of the event array */
	bool			 events_key;	/* "traceEvents" just read */
	bool			 in_event;
	enum trace_field	 field;
	int			 args_depth;	/* depth of the args map */
	bool			 after_key;
	bool			 first[TRACE_MAX_DEPTH + 1];
	struct trace_arg	*slot;		/* the arg a key opened */
	bool			 done;		/* the top value closed */
	bool			 too_deep;
	int64_t			 events;
};

static const struct {
	const char		*key;
	enum trace_field	 field;
} trace_fields[] = {
	{ "ph", F_PH }, { "name", F_NAME }, { "cat", F_CAT }, { "id", F_ID },
	{ "pid", F_PID }, { "tid", F_TID }, { "ts", F_TS }, { "dur", F_DUR },
	{ "bp", F_BP }, { "args", F_ARGS }
};

/* The text of member KEY of the event's args, or NULL. */
const char *
trace_arg(const struct trace_event *ev, const char *key)
{
	size_t	 i;

	for (i = 0; i < ev->nargs; i++) {
		if (strcmp(ev->argv[i].key.s, key) == 0)
			return ev->argv[i].val.s;
	}
	return NULL;
}

static struct strbuf *
trace_parse_field(struct trace_event *ev, enum trace_field f)
{
	switch (f) {
	case F_PH:	return &ev->ph;
	case F_NAME:	return &ev->name;
	case F_CAT:	return &ev->cat;
	case F_ID:	return &ev->id;
	case F_PID:	return &ev->pid;
	case F_TID:	return &ev->tid;
	case F_TS:	return &ev->ts;
	case F_DUR:	return &ev->dur;
	case F_BP:	return &ev->bp;
	default:	return NULL;
	}
}

/* Empty B, and give it a buffer so that its text is never NULL. */
static void
trace_parse_empty(struct strbuf *b)
{
	strbuf_reset(b);
	if (b->s == NULL)
		strbuf_add(b, "", 0);
}

static void
trace_parse_reset(struct trace_event *ev)
{
	size_t	 i;

	trace_parse_empty(&ev->ph);
	trace_parse_empty(&ev->name);
	trace_parse_empty(&ev->cat);
	trace_parse_empty(&ev->id);
	trace_parse_empty(&ev->pid);
	trace_parse_empty(&ev->tid);
	trace_parse_empty(&ev->ts);
	trace_parse_empty(&ev->dur);
	trace_parse_empty(&ev->bp);
	trace_parse_empty(&ev->args);
	for (i = 0; i < ev->nargs; i++) {
		trace_parse_empty(&ev->argv[i].key);
		trace_parse_empty(&ev->argv[i].val);
	}
	ev->nargs = 0;
}

static void
trace_parse_release(struct trace_event *ev)
{
	size_t	 i;

	strbuf_release(&ev->ph);
	strbuf_release(&ev->name);
	strbuf_release(&ev->cat);
	strbuf_release(&ev->id);
	strbuf_release(&ev->pid);
	strbuf_release(&ev->tid);
	strbuf_release(&ev->ts);
	strbuf_release(&ev->dur);
	strbuf_release(&ev->bp);
	strbuf_release(&ev->args);
	for (i = 0; i < TRACE_MAX_ARGS; i++) {
		strbuf_release(&ev->argv[i].key);
		strbuf_release(&ev->argv[i].val);
	}
}

/* Write S as a JSON string. */
static void
trace_parse_quote(struct strbuf *b, const unsigned char *s, size_t len)
{
	size_t	 i, from = 0;
	char	 esc[8];

	strbuf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (s[i] != '"' && s[i] != '\\' && s[i] >= 0x20)
			continue;
		strbuf_add(b, (const char *)s + from, i - from);
		if (s[i] == '"' || s[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)s[i];
			esc[2] = '\0';
		} else
			snprintf(esc, sizeof esc, "\\u%04x", s[i]);
		strbuf_adds(b, esc);
		from = i + 1;
	}
	strbuf_add(b, (const char *)s + from, len - from);
	strbuf_addc(b, '"');
}

/* The comma before a value or key of the args JSON, where one is due. */
static void
trace_parse_sep(struct trace_parse *p)
{
	if (p->after_key)
		p->after_key = false;
	else if (!p->first[p->depth])
		strbuf_addc(&p->ev.args, ',');
	p->first[p->depth] = false;
}

static bool
trace_parse_in_args(struct trace_parse *p)
{
	return p->args_depth != 0 && p->depth >= p->args_depth;
}

/* A string, number or literal: TEXT of LEN bytes, a JSON string if STR. */
static int
trace_parse_scalar(struct trace_parse *p, const unsigned char *text,
    size_t len, bool str)
{
	struct strbuf	*f;

	if (p->depth == 0) {
		p->done = true;
		return 0;
	}
	if (trace_parse_in_args(p)) {
		trace_parse_sep(p);
		if (str)
			trace_parse_quote(&p->ev.args, text, len);
		else
			strbuf_add(&p->ev.args, (const char *)text, len);
		if (p->slot != NULL && p->depth == p->args_depth) {
			strbuf_add(&p->slot->val, (const char *)text, len);
			p->slot->str = str;
			p->ev.nargs++;
		}
		p->slot = NULL;
		return 1;
	}
	if (p->in_event && p->depth == p->ev_array + 1) {
		if ((f = trace_parse_field(&p->ev, p->field)) != NULL)
			strbuf_add(f, (const char *)text, len);
		p->field = F_NONE;
	}
	return 1;
}

static int
trace_parse_null(void *arg)
{
	return trace_parse_scalar(arg, (const unsigned char *)"null", 4,
	    false);
}

static int
trace_parse_boolean(void *arg, int v)
{
	return trace_parse_scalar(arg, (const unsigned char *)(v ? "true" :
	    "false"), v ? 4 : 5, false);
}

static int
trace_parse_number(void *arg, const char *text, size_t len)
{
	return trace_parse_scalar(arg, (const unsigned char *)text, len,
	    false);
}

static int
trace_parse_string(void *arg, const unsigned char *text, size_t len)
{
	return trace_parse_scalar(arg, text, len, true);
}

/* A map or array opens: OPEN is '{' or '['. */
static int
trace_parse_open(struct trace_parse *p, char open)
{
	if (p->depth == 0) {
		p->top = open;
		p->depth = 1;
		p->first[1] = true;
		if (open == '[')
			p->ev_array = 1;
		return 1;
	}
	if (p->depth >= TRACE_MAX_DEPTH) {
		p->too_deep = true;
		return 0;
	}
	if (trace_parse_in_args(p)) {
		trace_parse_sep(p);
		strbuf_addc(&p->ev.args, open);
		p->slot = NULL;
	} else if (p->in_event && p->field == F_ARGS && open == '{' &&
	    p->depth == p->ev_array + 1) {
		p->args_depth = p->depth + 1;
		p->after_key = false;
		strbuf_addc(&p->ev.args, '{');
	} else if (open == '{' && p->ev_array != 0 &&
	    p->depth == p->ev_array && !p->in_event) {
		trace_parse_reset(&p->ev);
		p->in_event = true;
	} else if (open == '[' && p->depth == 1 && p->top == '{' &&
	    p->events_key)
		p->ev_array = 2;
	p->field = F_NONE;
	p->depth++;
	p->first[p->depth] = true;
	return 1;
}

static int
trace_parse_start_map(void *arg)
{
	return trace_parse_open(arg, '{');
}

static int
trace_parse_start_array(void *arg)
{
	return trace_parse_open(arg, '[');
}

static int
trace_parse_key(void *arg, const unsigned char *key, size_t len)
{
	struct trace_parse	*p = arg;
	struct trace_arg	*a;
	size_t			 i;

	if (p->depth == 1 && p->top == '{')
		p->events_key = len == 11 && memcmp(key, "traceEvents", 11) == 0;
	if (trace_parse_in_args(p)) {
		trace_parse_sep(p);
		trace_parse_quote(&p->ev.args, key, len);
		strbuf_addc(&p->ev.args, ':');
		p->after_key = true;
		p->slot = NULL;
		if (p->depth == p->args_depth && p->ev.nargs < TRACE_MAX_ARGS) {
			a = &p->ev.argv[p->ev.nargs];
			trace_parse_empty(&a->key);
			trace_parse_empty(&a->val);
			strbuf_add(&a->key, (const char *)key, len);
			p->slot = a;
		}
		return 1;
	}
	if (p->in_event && p->depth == p->ev_array + 1) {
		p->field = F_NONE;
		for (i = 0; i < sizeof trace_fields / sizeof *trace_fields;
		    i++) {
			if (strlen(trace_fields[i].key) == len &&
			    memcmp(trace_fields[i].key, key, len) == 0)
				p->field = trace_fields[i].field;
		}
	}
	return 1;
}

/* A map or array closes: CLOSE is '}' or ']'. */
static int
trace_parse_close(struct trace_parse *p, char close)
{
	if (trace_parse_in_args(p)) {
		strbuf_addc(&p->ev.args, close);
		if (p->depth == p->args_depth)
			p->args_depth = 0;
	} else if (p->in_event && p->depth == p->ev_array + 1) {
		p->in_event = false;
		p->events++;
		p->cb(p->arg, &p->ev);
	} else if (p->depth == p->ev_array)
		p->ev_array = 0;
	p->slot = NULL;
	p->field = F_NONE;
	if (--p->depth == 0) {
		p->done = true;
		return 0;
	}
	return 1;
}

static int
trace_parse_end_map(void *arg)
{
	return trace_parse_close(arg, '}');
}

static int
trace_parse_end_array(void *arg)
{
	return trace_parse_close(arg, ']');
}

static const yajl_callbacks trace_parse_callbacks = {
	.yajl_null = trace_parse_null,
	.yajl_boolean = trace_parse_boolean,
	.yajl_number = trace_parse_number,
	.yajl_string = trace_parse_string,
	.yajl_start_map = trace_parse_start_map,
	.yajl_map_key = trace_parse_key,
	.yajl_end_map = trace_parse_end_map,
	.yajl_start_array = trace_parse_start_array,
	.yajl_end_array = trace_parse_end_array
};

/* Where yajl went wrong, as one line. */
static char *
trace_parse_error(yajl_handle h, const unsigned char *buf, size_t len)
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

static yajl_handle
trace_parse_handle(struct trace_parse *p)
{
	yajl_handle	 h;

	h = yajl_alloc(&trace_parse_callbacks, NULL, p);
	if (h == NULL)
		fatalx("%s: yajl_alloc failed", __func__);
	return h;
}

static void
trace_parse_stop(struct trace_file *f, int64_t offset, const char *why)
{
	store_load_warning(f->s, f->path, offset, "%s; %lld event%s before it "
	    "imported, the rest of the file skipped", why,
	    (long long)f->p->events, f->p->events == 1 ? "" : "s");
	f->stop = true;
}

/*
 * Between two top-level values: skip blanks and stray commas in BUF, then
 * start the next value if one begins. Return the bytes used.
 */
static size_t
trace_parse_between(struct trace_file *f, const unsigned char *buf,
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
		trace_parse_stop(f, pos + (int64_t)i, "the trace is followed "
		    "by something that is not JSON");
		return len;
	}
	if (f->values++ == 1)
		store_load_warning(f->s, f->path, pos + (int64_t)i, "a second "
		    "JSON value starts here (arrays written one after the "
		    "other); reading on");
	memset(f->p->first, 0, sizeof f->p->first);
	f->p->done = false;
	f->p->depth = 0;
	f->p->ev_array = 0;
	f->p->in_event = false;
	f->p->args_depth = 0;
	f->h = trace_parse_handle(f->p);
	return i;
}

/* Feed one chunk BUF that starts at byte POS of the file. */
static void
trace_parse_chunk(struct trace_file *f, const unsigned char *buf,
    size_t len, int64_t pos)
{
	yajl_status	 st;
	size_t		 used;
	char		*why, *msg;

	while (len > 0 && !f->stop) {
		if (f->h == NULL) {
			used = trace_parse_between(f, buf, len, pos);
			buf += used;
			len -= used;
			pos += (int64_t)used;
			continue;
		}
		st = yajl_parse(f->h, buf, len);
		if (st == yajl_status_ok)
			return;
		used = yajl_get_bytes_consumed(f->h);
		if (st == yajl_status_client_canceled && f->p->done) {
			yajl_free(f->h);
			f->h = NULL;
			buf += used;
			len -= used;
			pos += (int64_t)used;
			continue;
		}
		if (f->p->too_deep)
			why = xstrdup("JSON nested too deeply");
		else
			why = trace_parse_error(f->h, buf, len);
		xasprintf(&msg, "cannot parse the trace: %s", why);
		trace_parse_stop(f, pos + (int64_t)used, msg);
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
trace_parse_file(struct store *s, const char *path, trace_event_cb cb,
    void *arg, char **cause)
{
	struct trace_parse	 p;
	struct trace_file	 f;
	unsigned char		*buf;
	ssize_t			 n = 0;
	int64_t			 pos = 0, size;
	int			 fd;

	if ((fd = open(path, O_RDONLY)) == -1) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	memset(&p, 0, sizeof p);
	p.cb = cb;
	p.arg = arg;
	memset(&f, 0, sizeof f);
	f.s = s;
	f.path = path;
	f.p = &p;
	buf = xmalloc(TRACE_CHUNK);
	while (!f.stop && (n = read(fd, buf, TRACE_CHUNK)) > 0) {
		trace_parse_chunk(&f, buf, (size_t)n, pos);
		pos += n;
		store_load_progress(s, "reading", path, pos, size);
	}
	if (!f.stop && n < 0)
		trace_parse_stop(&f, pos, strerror(errno));
	if (!f.stop && f.h != NULL && yajl_complete_parse(f.h) !=
	    yajl_status_ok && !p.done)
		trace_parse_stop(&f, pos, "the file ends inside the trace "
		    "(cut short?)");
	if (!f.stop && f.values == 0)
		store_load_warning(s, path, 0, "no trace events in the file");
	if (f.h != NULL)
		yajl_free(f.h);
	free(buf);
	close(fd);
	trace_parse_release(&p.ev);
	return 0;
}
