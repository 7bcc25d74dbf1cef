/*
 * The tokens of a chrome trace (a top-level array of events, or an object
 * whose traceEvents member is that array) turned into events. yajl calls
 * back token by token; numbers arrive as their text, so that a timestamp
 * in us with 3 decimals becomes exact ns and a 64-bit id stays exact. Each
 * event is handed on as soon as its object closes, with its args
 * re-written as compact JSON text, so memory stays flat whatever the size
 * of the file. trace-read.c feeds the file and decides what happens
 * between and after top-level values.
 */
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "trace-int.h"

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
	struct trace_parse_arg	*slot;		/* the arg a key opened */
	bool			 done;		/* the top value closed */
	bool			 too_deep;
	int64_t			 events;
	int64_t			 ev_bytes;	/* text of the event so far */
	bool			 ev_big;	/* it is being dropped */
	int64_t			 big;		/* events dropped for size */
	int64_t			 big_offset;	/* where the first one ended */
	int64_t			 dups;		/* keys repeated in an event */
	int64_t			 dup_offset;	/* where the first one was */
	bool			 ev_over;	/* it has args past the last */
	bool			 over_key;	/* such a key; its value next */
	int64_t			 over;		/* events with such args */
	int64_t			 over_offset;	/* where the first one was */
	int64_t			 base;		/* file offset of the chunk */
	yajl_handle		 h;
};

static const struct {
	const char		*key;
	size_t			 len;
	enum trace_field	 field;
} trace_fields[] = {
	{ "ph", 2, F_PH }, { "name", 4, F_NAME }, { "cat", 3, F_CAT },
	{ "id", 2, F_ID }, { "pid", 3, F_PID }, { "tid", 3, F_TID },
	{ "ts", 2, F_TS }, { "dur", 3, F_DUR }, { "bp", 2, F_BP },
	{ "args", 4, F_ARGS }
};

/* The text of member KEY of the event's args, or NULL. */
const char *
trace_parse_arg(const struct trace_event *ev, const char *key)
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
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i, from = 0;
	char			 esc[6] = { '\\', 'u', '0', '0' };

	strbuf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (s[i] != '"' && s[i] != '\\' && s[i] >= 0x20)
			continue;
		strbuf_add(b, (const char *)s + from, i - from);
		if (s[i] == '"' || s[i] == '\\') {
			strbuf_addc(b, '\\');
			strbuf_addc(b, (char)s[i]);
		} else {
			esc[4] = hex[s[i] >> 4];
			esc[5] = hex[s[i] & 0xf];
			strbuf_add(b, esc, sizeof esc);
		}
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

/*
 * Stop keeping the event being read: it is too big. Its text is freed, and
 * it is counted, not handed on, when it closes.
 */
void
trace_parse_drop(struct trace_parse *p)
{
	if (!p->in_event || p->ev_big)
		return;
	p->ev_big = true;
	trace_parse_release(&p->ev);
	p->ev.nargs = 0;
	trace_parse_reset(&p->ev);
	p->ev_over = p->over_key = false;
	p->slot = NULL;
}

/* Count N more bytes of the event; false once it is being dropped. */
static bool
trace_parse_keep(struct trace_parse *p, size_t n)
{
	if (p->ev_big)
		return false;
	p->ev_bytes += (int64_t)n;
	if (p->ev_bytes <= TRACE_MAX_EVENT)
		return true;
	trace_parse_drop(p);
	return false;
}

/*
 * A key of the event read again: its last value counts, as in Python's
 * json, which msprof reads with. F is the value so far, emptied.
 */
static void
trace_parse_once(struct trace_parse *p, struct strbuf *f)
{
	if (f->len == 0)
		return;
	if (p->dups++ == 0)
		p->dup_offset = p->base + (int64_t)yajl_get_bytes_consumed(p->h);
	strbuf_reset(f);
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
	if (p->in_event && !trace_parse_keep(p, len + 2))
		return 1;
	if (trace_parse_in_args(p)) {
		trace_parse_sep(p);
		if (str)
			trace_parse_quote(&p->ev.args, text, len);
		else
			strbuf_add(&p->ev.args, (const char *)text, len);
		if (p->over_key && p->depth == p->args_depth) {
			p->ev_over = true;
			if (p->over++ == 0)
				p->over_offset = p->base +
				    (int64_t)yajl_get_bytes_consumed(p->h);
		}
		p->over_key = false;
		if (p->slot != NULL && p->depth == p->args_depth) {
			trace_parse_once(p, &p->slot->val);
			strbuf_add(&p->slot->val, (const char *)text, len);
			p->slot->str = str;
			if (p->slot == &p->ev.argv[p->ev.nargs])
				p->ev.nargs++;
		}
		p->slot = NULL;
		return 1;
	}
	if (p->in_event && p->depth == p->ev_array + 1) {
		if ((f = trace_parse_field(&p->ev, p->field)) != NULL) {
			trace_parse_once(p, f);
			/*
			 * "ts": "" or "dur": "" is no time, not an absent one
			 * (a span of 0): kept as written, so that it reads as
			 * a bad number.
			 */
			if (len == 0 && str && (p->field == F_TS || p->field ==
			    F_DUR))
				strbuf_add(f, "\"\"", 2);
			else
				strbuf_add(f, (const char *)text, len);
		}
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
		if (trace_parse_keep(p, 2)) {
			trace_parse_sep(p);
			strbuf_addc(&p->ev.args, open);
		}
		p->slot = NULL;
		/* A nested value is never read one by one: none lost. */
		p->over_key = false;
	} else if (p->in_event && p->field == F_ARGS && open == '{' &&
	    p->depth == p->ev_array + 1) {
		p->args_depth = p->depth + 1;
		p->after_key = false;
		strbuf_addc(&p->ev.args, '{');
	} else if (open == '{' && p->ev_array != 0 &&
	    p->depth == p->ev_array && !p->in_event) {
		trace_parse_reset(&p->ev);
		p->ev_over = p->over_key = false;
		/* Where the event starts: its '{' was just read. */
		p->ev.offset = p->base + (int64_t)yajl_get_bytes_consumed(p->h) -
		    1;
		p->in_event = true;
		p->ev_bytes = 0;
		p->ev_big = false;
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
	struct trace_parse_arg	*a;
	size_t			 i;

	if (p->depth == 1 && p->top == '{')
		p->events_key = len == 11 &&
		    memcmp(key, "traceEvents", 11) == 0;
	if (p->in_event && !trace_parse_keep(p, len + 3)) {
		p->field = F_NONE;
		return 1;
	}
	if (trace_parse_in_args(p)) {
		trace_parse_sep(p);
		trace_parse_quote(&p->ev.args, key, len);
		strbuf_addc(&p->ev.args, ':');
		p->after_key = true;
		p->slot = NULL;
		if (p->depth != p->args_depth)
			return 1;
		/* A key given again fills its first slot (the last wins). */
		for (i = 0; i < (size_t)p->ev.nargs; i++) {
			a = &p->ev.argv[i];
			if (a->key.len == len && memcmp(a->key.s, key, len) ==
			    0) {
				p->slot = a;
				return 1;
			}
		}
		if (p->ev.nargs < TRACE_MAX_ARGS) {
			a = &p->ev.argv[p->ev.nargs];
			trace_parse_empty(&a->key);
			trace_parse_empty(&a->val);
			strbuf_add(&a->key, (const char *)key, len);
			p->slot = a;
		} else
			p->over_key = !p->ev_over;	/* if its value is one */
		return 1;
	}
	if (p->in_event && p->depth == p->ev_array + 1) {
		p->field = F_NONE;
		for (i = 0; i < sizeof trace_fields / sizeof *trace_fields;
		    i++) {
			if (trace_fields[i].len == len &&
			    memcmp(trace_fields[i].key, key, len) == 0) {
				p->field = trace_fields[i].field;
				break;
			}
		}
	}
	return 1;
}

/* A map or array closes: CLOSE is '}' or ']'. */
static int
trace_parse_close(struct trace_parse *p, char close)
{
	if (trace_parse_in_args(p)) {
		if (trace_parse_keep(p, 1))
			strbuf_addc(&p->ev.args, close);
		if (p->depth == p->args_depth)
			p->args_depth = 0;
	} else if (p->in_event && p->depth == p->ev_array + 1) {
		p->in_event = false;
		if (p->ev_big) {
			if (p->big++ == 0)
				p->big_offset = p->base + (int64_t)
				    yajl_get_bytes_consumed(p->h);
		} else {
			p->events++;
			p->cb(p->arg, &p->ev);
		}
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

/* A parser for the events of one file, handed to CB with ARG. */
struct trace_parse *
trace_parse_create(trace_event_cb cb, void *arg)
{
	struct trace_parse	*p;

	p = xcalloc(1, sizeof *p);
	p->cb = cb;
	p->arg = arg;
	return p;
}

void
trace_parse_free(struct trace_parse *p)
{
	if (p == NULL)
		return;
	trace_parse_release(&p->ev);
	free(p);
}

/*
 * A new yajl handle for the next top-level value of the file; the caller
 * frees it with yajl_free().
 */
struct yajl_handle_t *
trace_parse_handle(struct trace_parse *p)
{
	yajl_handle	 h;

	memset(p->first, 0, sizeof p->first);
	p->done = false;
	p->depth = 0;
	p->ev_array = 0;
	p->in_event = false;
	p->args_depth = 0;
	p->slot = NULL;
	if ((h = yajl_alloc(&trace_parse_callbacks, NULL, p)) == NULL)
		fatalx("%s: yajl_alloc failed", __func__);
	p->h = h;
	return h;
}

/* True once the top-level value the handle was made for has closed. */
bool
trace_parse_done(struct trace_parse *p)
{
	return p->done;
}

/* True if the parse stopped at JSON nested too deeply. */
bool
trace_parse_too_deep(struct trace_parse *p)
{
	return p->too_deep;
}

/* The next bytes fed to the handle start at file offset BASE. */
void
trace_parse_at(struct trace_parse *p, int64_t base)
{
	p->base = base;
}

/*
 * How many events were dropped for being over TRACE_MAX_EVENT; *OFFSET is
 * where the first one ended.
 */
int64_t
trace_parse_big(struct trace_parse *p, int64_t *offset)
{
	*offset = p->big_offset;
	return p->big;
}

/*
 * How many keys events repeated (the last value taken); *OFFSET is about
 * where the first one was.
 */
int64_t
trace_parse_dups(struct trace_parse *p, int64_t *offset)
{
	*offset = p->dup_offset;
	return p->dups;
}

/*
 * How many events had more than TRACE_MAX_ARGS arguments, those past it
 * not read one by one (a counter's series, the ids a task is found by);
 * *OFFSET is about where the first one was.
 */
int64_t
trace_parse_over(struct trace_parse *p, int64_t *offset)
{
	*offset = p->over_offset;
	return p->over;
}

/* How many events were handed on so far. */
int64_t
trace_parse_events(struct trace_parse *p)
{
	return p->events;
}
