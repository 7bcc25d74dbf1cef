/*
 * Chrome-trace events into the store. Metadata (M) names processes and
 * threads: lanes. Complete events (X) become API spans, except device tasks
 * (the Ascend Hardware events with Task Id and stream), which become task
 * rows or, when a CSV of the same run loaded the tasks first, are linked
 * to those rows. CANN spans are named "<Layer>@<API>" and get the vendor's
 * level (AscendCL is acl, Node node, ...); Python spans get level python,
 * or their category (python_function, enqueue, ...); spans of any other
 * process get the process name as level. Counters (C) and flow endpoints
 * (s, t, f) go to their own tables; other phases are counted and reported.
 * Legacy timeline/ files (import-tracedir.c) name their processes the old
 * way (Task Scheduler for tasks, AscendCL for ACL spans), use plain process
 * ids as pids and host monotonic times, which trace_event_legacy() sets up.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace-int.h"

enum trace_kind {
	KIND_UNKNOWN,
	KIND_PYTHON,
	KIND_CANN,
	KIND_HARDWARE,
	KIND_ACL,
	KIND_OTHER
};

struct trace_proc {
	int64_t		 pid;
	enum trace_kind	 kind;
	int64_t		 labelled;	/* the device its labels name, + 1 */
	char		*name;
	bool		 pending;	/* spans loaded before the name */
	bool		 early;		/* flows or counters, likewise */
};

struct trace_load {
	struct store		*s;
	const char		*path;
	struct import_ctx	*ctx;
	bool			 link;		/* tasks came from a CSV */
	struct trace_proc	*procs;
	size_t			 nprocs;
	int64_t			 at;		/* the event's file offset */
	int64_t			 bad;
	char			*bad_why;
	int64_t			 bad_at;	/* the first one's offset */
	int64_t			 badids;	/* task ids read as N/A */
	int64_t			 badids_at;
	int64_t			 badvals;	/* counter values not numbers */
	int64_t			 badvals_at;
	int64_t			 other;		/* events of other phases */
	int64_t			 other_at;
	char			 phases[16];
	int64_t			 unlinked;
	bool			 legacy;	/* a legacy timeline/ file */
	int64_t			 model;		/* its model and iteration */
	int64_t			 iter;
	int64_t			 mono_offset;	/* monotonic to epoch ns */
	int64_t			 mono_below;	/* times below are monotonic */
};

static const struct {
	const char	*layer;
	const char	*level;
} trace_layers[] = {
	{ "AscendCL", "acl" }, { "Node", "node" }, { "Runtime", "runtime" },
	{ "Hccl", "hccl" }, { "Model", "model" },
	{ "Communication", "communication" }
};

/*
 * Load the events of PATH for the unit CTX. LINK says the unit's tasks
 * were loaded from a CSV already, so device tasks link to them.
 */
struct trace_load *
trace_event_create(struct store *s, const char *path, struct import_ctx *ctx,
    bool link)
{
	struct trace_load	*l;

	l = xcalloc(1, sizeof *l);
	l->s = s;
	l->path = path;
	l->ctx = ctx;
	l->link = link;
	return l;
}

/*
 * Mark L as a legacy timeline/ file (doc/formats.md 7.4) of model MODEL and
 * iteration ITER (NP_NA if unknown): its pids are process ids, not the
 * device-coded pids of msprof, and its tasks carry neither model id nor
 * step. Times below BELOW are host monotonic ns and get OFFSET added to
 * become epoch ns (doc/formats.md 2.6 step 4); BELOW 0 leaves times alone.
 */
void
trace_event_legacy(struct trace_load *l, int64_t model, int64_t iter,
    int64_t offset, int64_t below)
{
	l->legacy = true;
	l->model = model;
	l->iter = iter;
	l->mono_offset = offset;
	l->mono_below = below;
}

/* TS on the store's clock: monotonic times of a legacy file made epoch. */
static int64_t
trace_event_time(const struct trace_load *l, int64_t ts)
{
	return ts < l->mono_below ? ts + l->mono_offset : ts;
}

static struct trace_proc *
trace_event_proc(struct trace_load *l, int64_t pid)
{
	size_t	 i;

	for (i = 0; i < l->nprocs; i++) {
		if (l->procs[i].pid == pid)
			return &l->procs[i];
	}
	l->procs = xreallocarray(l->procs, l->nprocs + 1, sizeof *l->procs);
	memset(&l->procs[l->nprocs], 0, sizeof *l->procs);
	l->procs[l->nprocs].pid = pid;
	return &l->procs[l->nprocs++];
}

static void
trace_event_bad(struct trace_load *l, const struct trace_event *ev,
    const char *why)
{
	if (l->bad++ == 0) {
		xasprintf(&l->bad_why, "%s (event '%s')", why,
		    ev->name.len > 0 ? ev->name.s : "");
		l->bad_at = l->at;
	}
}

/* An integer field or arg; a string that is no number gets a hash. */
static int64_t
trace_event_int(const char *text)
{
	int64_t	 v;

	if (text == NULL || *text == '\0')
		return NP_NA;
	if (util_parse_int(text, strlen(text), &v) == 0)
		return v;
	return (int64_t)(util_hash64(text, strlen(text)) >> 2);
}

/*
 * A task's Model, Stream, Task, Batch or Subtask Id: an integer, else
 * NP_NA counted in L (not a hash, which would pass for an id).
 */
static int64_t
trace_event_task_id(struct trace_load *l, const char *text)
{
	int64_t	 v;

	if (text == NULL || *text == '\0')
		return NP_NA;
	if (util_parse_int(text, strlen(text), &v) == 0)
		return v;
	if (l->badids++ == 0)
		l->badids_at = l->at;
	return NP_NA;
}

/*
 * An id of up to 64 bits, unsigned in the vendor's files, kept as the
 * int64 of the same bits; NP_NA if TEXT is not one.
 */
static int64_t
trace_event_id(const char *text)
{
	uint64_t	 v = 0;
	const char	*p;

	if (text == NULL || *text == '\0' || strlen(text) > 20)
		return NP_NA;
	for (p = text; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - (*p - '0')) / 10)
			return NP_NA;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	return (int64_t)v;
}

/*
 * The device of an event in process PID: msprof encodes it in the pid; a
 * pid below 1024 (the process of rank 0 in our own export) by the
 * process's labels ("NPU 0"), if it has some.
 */
static int64_t
trace_event_device(struct trace_load *l, int64_t pid, enum trace_kind kind)
{
	struct trace_proc	*p;

	if (kind == KIND_PYTHON || kind == KIND_CANN || kind == KIND_ACL)
		return NP_HOST_DEVICE;
	if (pid >= 1024 && !l->legacy)
		return (pid & 31) == 31 ? NP_HOST_DEVICE : pid & 31;
	if (!l->legacy && (p = trace_event_proc(l, pid))->labelled > 0)
		return p->labelled - 1;
	return l->ctx->device;
}

/* True if EV is a device task: a task id and a stream. */
static bool
trace_event_is_task(const struct trace_event *ev)
{
	return trace_parse_arg(ev, "Task Id") != NULL &&
	    (trace_parse_arg(ev, "Physic Stream Id") != NULL ||
	    trace_parse_arg(ev, "Stream Id") != NULL);
}

/* What an X event of unknown process looks like. */
static enum trace_kind
trace_event_guess(const struct trace_event *ev)
{
	if (trace_event_is_task(ev))
		return KIND_HARDWARE;
	if (ev->cat.len > 0)
		return KIND_PYTHON;
	if (strchr(ev->name.s, '@') != NULL &&
	    trace_parse_arg(ev, "connection_id") != NULL)
		return KIND_CANN;
	return KIND_UNKNOWN;
}

static enum trace_kind
trace_event_kind_of(const char *process)
{
	if (strcmp(process, "Python") == 0)
		return KIND_PYTHON;
	if (strcmp(process, "CANN") == 0)
		return KIND_CANN;
	/* Task Scheduler: the device tasks of legacy task_time_*.json. */
	if (strcmp(process, "Ascend Hardware") == 0 ||
	    strcmp(process, "Task Scheduler") == 0)
		return KIND_HARDWARE;
	if (strcmp(process, "AscendCL") == 0)
		return KIND_ACL;
	return KIND_OTHER;
}

/* Split a CANN span name "<Layer>@<API>" into level and name. */
static void
trace_event_cann(struct store_api *a, const struct trace_event *ev,
    struct strbuf *level)
{
	const char	*at, *lv;
	size_t		 i, len;

	strbuf_reset(level);
	a->name = ev->name.s;
	if ((at = strchr(ev->name.s, '@')) == NULL) {
		lv = trace_parse_arg(ev, "level");
		strbuf_adds(level, lv != NULL ? lv : "cann");
		return;
	}
	a->name = at + 1;
	len = (size_t)(at - ev->name.s);
	for (i = 0; i < sizeof trace_layers / sizeof *trace_layers; i++) {
		if (strlen(trace_layers[i].layer) == len &&
		    strncmp(trace_layers[i].layer, ev->name.s, len) == 0) {
			strbuf_adds(level, trace_layers[i].level);
			return;
		}
	}
	for (lv = ev->name.s; lv < at; lv++)
		strbuf_addc(level, (char)(*lv >= 'A' && *lv <= 'Z' ?
		    *lv - 'A' + 'a' : *lv));
}

/*
 * Span A of event EV on DEVICE, thread TID of PID, from START for DUR ns:
 * no connection, depth or parent yet, the event's name and args.
 */
static void
trace_event_span(struct store_api *a, const struct trace_load *l,
    const struct trace_event *ev, int64_t device, int64_t pid, int64_t tid,
    int64_t start, int64_t dur)
{
	memset(a, 0, sizeof *a);
	a->device = device;
	a->rank = l->ctx->rank;
	a->pid = pid;
	a->tid = tid;
	a->start_ns = start;
	a->end_ns = start + dur;
	a->conn = a->depth = a->parent = NP_NA;
	a->name = ev->name.s;
	a->args = ev->args.len > 0 ? ev->args.s : NULL;
}

/*
 * A device task: a new task row, or a link to the CSV row it describes.
 * With CSV rows loaded, a task the CSV left out (the vendor's kernel lists
 * leave out notify, memcpy and other non-kernel tasks) is kept as a span of
 * its lane, so the task table still holds exactly the CSV's rows.
 */
static void
trace_event_task(struct trace_load *l, const struct trace_event *ev,
    int64_t pid, int64_t tid, int64_t start, int64_t dur)
{
	struct store_task	 t;
	struct store_api	 a;
	const char		*stream;
	int64_t			 id;
	int			 row;

	/*
	 * A KFC turn's phase ("StartServer 3", no task type) sits on a
	 * stream's row but is no task: a span of level kfc, as the raw
	 * collection's (doc/formats.md section 4.10), a server turn's on
	 * the lane's first row, a compute turn's on the second.
	 */
	if ((row = import_comm_kfc_phase(ev->name.s)) >= 0 &&
	    trace_parse_arg(ev, "Task Type") == NULL) {
		trace_event_span(&a, l, ev, trace_event_device(l, pid,
		    KIND_HARDWARE), pid, tid, start, dur);
		a.depth = row;
		a.level = "kfc";
		store_load_api(l->s, &a);
		return;
	}
	memset(&t, 0, sizeof t);
	t.device = trace_event_device(l, pid, KIND_HARDWARE);
	t.rank = l->ctx->rank;
	t.model_id = trace_event_task_id(l, trace_parse_arg(ev, "Model Id"));
	if (t.model_id == NP_NA && l->legacy)
		t.model_id = l->model;
	if ((stream = trace_parse_arg(ev, "Physic Stream Id")) == NULL)
		stream = trace_parse_arg(ev, "Stream Id");
	t.stream = trace_event_task_id(l, stream);
	t.task = trace_event_task_id(l, trace_parse_arg(ev, "Task Id"));
	t.batch = trace_event_task_id(l, trace_parse_arg(ev, "Batch Id"));
	t.context = trace_event_task_id(l, trace_parse_arg(ev,
	    "Subtask Id"));
	if (t.context == 4294967295LL)
		t.context = NP_NA;
	t.start_ns = start;
	t.dur_ns = dur;
	t.wait_ns = t.block_num = t.mix_block_num = NP_NA;
	/* A legacy timeline's file name says the model and iteration. */
	if (t.model_id == NP_NA)
		t.model_id = l->ctx->model;
	t.step = l->legacy ? l->iter : l->ctx->iter;
	t.api = NP_NA;
	t.conn = trace_event_id(trace_parse_arg(ev, "connection_id"));
	t.name = ev->name.s;
	t.task_type = trace_parse_arg(ev, "Task Type");
	if ((id = store_trace_load_task_find(l->s, &t, !l->link)) > 0) {
		store_trace_load_task_link(l->s, id, &t);
		return;
	}
	if (!l->link) {
		store_load_task(l->s, &t);
		return;
	}
	l->unlinked++;
	trace_event_span(&a, l, ev, t.device, pid, tid, start, dur);
	a.conn = t.conn;
	a.level = "Ascend Hardware";
	store_load_api(l->s, &a);
}

/* What a counter's value written as a string holds. */
enum trace_number {
	NUMBER_YES,		/* a JSON number, maybe past a double's range */
	NUMBER_NONE,		/* NaN or Infinity, of any case and sign */
	NUMBER_LABEL		/* other text */
};

/* What the string S of LEN bytes, blanks around it aside, holds. */
static enum trace_number
trace_event_number(const char *s, size_t len)
{
	const char	*e = s + len;
	size_t		 n;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (s < e && (*s == '-' || *s == '+'))
		s++;
	n = (size_t)(e - s);
	if ((n == 3 && strncasecmp(s, "nan", 3) == 0) ||
	    (n == 3 && strncasecmp(s, "inf", 3) == 0) ||
	    (n == 8 && strncasecmp(s, "infinity", 8) == 0))
		return NUMBER_NONE;
	/* digits [. digits] [e [sign] digits], as JSON writes a number */
	if (s == e || !isdigit((unsigned char)*s))
		return NUMBER_LABEL;
	while (s < e && isdigit((unsigned char)*s))
		s++;
	if (s < e && *s == '.') {
		if (++s == e || !isdigit((unsigned char)*s))
			return NUMBER_LABEL;
		while (s < e && isdigit((unsigned char)*s))
			s++;
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		if (++s < e && (*s == '-' || *s == '+'))
			s++;
		if (s == e || !isdigit((unsigned char)*s))
			return NUMBER_LABEL;
		while (s < e && isdigit((unsigned char)*s))
			s++;
	}
	return s == e ? NUMBER_YES : NUMBER_LABEL;
}

/* A complete event: a span or a device task. */
static void
trace_event_x(struct trace_load *l, const struct trace_event *ev, int64_t pid,
    int64_t tid)
{
	struct trace_proc	*p;
	struct store_api	 a;
	struct strbuf		 level;
	enum trace_kind		 kind;
	int64_t			 start, dur = 0;
	const char		*lv;

	if (ev->ts.len == 0 ||
	    util_parse_ns(ev->ts.s, ev->ts.len, &start) != 0) {
		trace_event_bad(l, ev, "bad or missing ts");
		return;
	}
	start = trace_event_time(l, start);
	if (ev->dur.len > 0 && (util_parse_ns(ev->dur.s, ev->dur.len, &dur) !=
	    0 || dur < 0)) {
		trace_event_bad(l, ev, dur < 0 ? "negative dur" : "bad dur");
		return;
	}
	p = trace_event_proc(l, pid);
	kind = p->kind != KIND_UNKNOWN ? p->kind : trace_event_guess(ev);
	if ((kind == KIND_HARDWARE || p->kind == KIND_UNKNOWN) &&
	    trace_event_is_task(ev)) {
		trace_event_task(l, ev, pid, tid, start, dur);
		return;
	}
	strbuf_init(&level);
	trace_event_span(&a, l, ev, trace_event_device(l, pid, kind), pid, tid,
	    start, dur);
	switch (kind) {
	case KIND_CANN:
		trace_event_cann(&a, ev, &level);
		a.level = level.s;
		a.conn = trace_event_id(trace_parse_arg(ev, "connection_id"));
		break;
	case KIND_ACL:
		a.level = "acl";
		break;
	case KIND_PYTHON:
		a.level = ev->cat.len == 0 || strcmp(ev->cat.s, "cpu_op") ==
		    0 ? "python" : ev->cat.s;
		break;
	case KIND_UNKNOWN:
		p->pending = true;
		a.level = NULL;
		break;
	default:
		a.level = p->name;
		/*
		 * An MC2 op as our export writes it (doc/formats.md section
		 * 4.11): on its group's row of the device, level mc2.
		 */
		if (kind == KIND_HARDWARE && (lv = trace_parse_arg(ev,
		    "level")) != NULL && strcmp(lv, "mc2") == 0)
			a.level = "mc2";
		break;
	}
	store_load_api(l->s, &a);
	strbuf_release(&level);
}

/* The metadata events kept as they are, with the member each one sets. */
static const struct {
	const char	*event;
	const char	*key;
	bool		 thread;
} trace_load_meta[] = {
	{ .event = "process_labels", .key = "labels", .thread = false },
	{ .event = "process_sort_index", .key = "sort_index", .thread = false },
	{ .event = "thread_name", .key = "name", .thread = true },
	{ .event = "thread_sort_index", .key = "sort_index", .thread = true }
};

/* The device labels LABELS give process P: "NPU 3", or "CPU" the host. */
static void
trace_event_labels(struct trace_proc *p, const char *labels)
{
	int64_t	 d;

	if (strcmp(labels, "CPU") == 0)
		p->labelled = NP_HOST_DEVICE + 1;
	else if (strncmp(labels, "NPU ", 4) == 0 && util_parse_int(labels + 4,
	    strlen(labels + 4), &d) == 0 && d >= 0 && d < NP_HOST_DEVICE)
		p->labelled = d + 1;
}

/* A metadata event: process and thread names and sort order. */
static void
trace_event_m(struct trace_load *l, const struct trace_event *ev, int64_t pid,
    int64_t tid)
{
	struct trace_proc	*p;
	const char		*v, *n = ev->name.s;
	int64_t			 device;
	size_t			 i;

	p = trace_event_proc(l, pid);
	if (strcmp(n, "process_labels") == 0 &&
	    (v = trace_parse_arg(ev, "labels")) != NULL)
		trace_event_labels(p, v);
	device = trace_event_device(l, pid, p->kind);
	if (strcmp(n, "process_name") == 0 &&
	    (v = trace_parse_arg(ev, "name")) != NULL) {
		free(p->name);
		p->name = xstrdup(v);
		p->kind = trace_event_kind_of(v);
		store_trace_load_lane(l->s, trace_event_device(l, pid, p->kind),
		    l->ctx->rank, pid, NP_NA, "name", v);
		return;
	}
	for (i = 0; i < sizeof trace_load_meta / sizeof trace_load_meta[0];
	    i++) {
		if (strcmp(n, trace_load_meta[i].event) == 0 &&
		    (v = trace_parse_arg(ev, trace_load_meta[i].key)) != NULL) {
			store_trace_load_lane(l->s, device, l->ctx->rank, pid,
			    trace_load_meta[i].thread ? tid : NP_NA,
			    trace_load_meta[i].key, v);
			break;
		}
	}
}

/* A counter event: one sample per numeric member of args. */
static void
trace_event_c(struct trace_load *l, const struct trace_event *ev, int64_t pid,
    int64_t tid)
{
	struct store_counter	 c;
	struct trace_proc	*p;
	enum trace_number	 n;
	size_t			 i;

	if (ev->ts.len == 0 ||
	    util_parse_ns(ev->ts.s, ev->ts.len, &c.ts_ns) != 0) {
		trace_event_bad(l, ev, "bad or missing ts");
		return;
	}
	c.ts_ns = trace_event_time(l, c.ts_ns);
	p = trace_event_proc(l, pid);
	p->early |= p->kind == KIND_UNKNOWN;
	c.device = trace_event_device(l, pid, p->kind);
	c.rank = l->ctx->rank;
	c.pid = pid;
	c.tid = tid;
	c.name = ev->name.s;
	/*
	 * A JSON number written as a string ("2160.0") is one too; other
	 * text (hex too) is a label, no sample; null, true, false, 1e999, and
	 * "NaN" or "Infinity" as a string are counted.
	 */
	for (i = 0; i < ev->nargs; i++) {
		n = ev->argv[i].str ? trace_event_number(ev->argv[i].val.s,
		    ev->argv[i].val.len) : NUMBER_YES;
		if (n == NUMBER_LABEL)
			continue;
		if (n == NUMBER_NONE || util_parse_double(ev->argv[i].val.s,
		    ev->argv[i].val.len, &c.value) != 0 ||
		    !isfinite(c.value)) {
			if (l->badvals++ == 0)
				l->badvals_at = l->at;
			continue;
		}
		c.key = ev->argv[i].key.s;
		store_trace_load_counter(l->s, &c);
	}
}

/* A flow endpoint. */
static void
trace_event_flow(struct trace_load *l, const struct trace_event *ev,
    int64_t pid, int64_t tid)
{
	struct store_flow	 f;
	struct trace_proc	*p;

	if (ev->ts.len == 0 ||
	    util_parse_ns(ev->ts.s, ev->ts.len, &f.ts_ns) != 0)
		f.ts_ns = NP_NA;
	else
		f.ts_ns = trace_event_time(l, f.ts_ns);
	p = trace_event_proc(l, pid);
	p->early |= p->kind == KIND_UNKNOWN;
	f.device = trace_event_device(l, pid, p->kind);
	f.rank = l->ctx->rank;
	f.pid = pid;
	f.tid = tid;
	f.id = ev->id.len > 0 ? ev->id.s : NULL;
	f.cat = ev->cat.len > 0 ? ev->cat.s : NULL;
	f.name = ev->name.len > 0 ? ev->name.s : NULL;
	f.phase = ev->ph.s;
	f.bp = ev->bp.len > 0 ? ev->bp.s : NULL;
	store_trace_load_flow(l->s, &f);
}

/* Take one event of the trace (a trace_event_cb). */
void
trace_event_event(void *arg, const struct trace_event *ev)
{
	struct trace_load	*l = arg;
	int64_t			 pid, tid;
	char			 ph;

	l->at = ev->offset;
	if (ev->ph.len != 1 || ev->pid.len == 0) {
		trace_event_bad(l, ev, "no ph or pid");
		return;
	}
	pid = trace_event_int(ev->pid.s);
	tid = trace_event_int(ev->tid.s);
	switch (ph = ev->ph.s[0]) {
	case 'X':
		trace_event_x(l, ev, pid, tid);
		break;
	case 'M':
		trace_event_m(l, ev, pid, tid);
		break;
	case 'C':
		trace_event_c(l, ev, pid, tid);
		break;
	case 's':
	case 't':
	case 'f':
		trace_event_flow(l, ev, pid, tid);
		break;
	default:
		if (l->other == 0)
			l->other_at = l->at;
		if (l->other++ < 1000 && strchr(l->phases, ph) == NULL &&
		    strlen(l->phases) < sizeof l->phases - 1)
			l->phases[strlen(l->phases)] = ph;
		break;
	}
}

/*
 * Finish the file: spans that came before their process's name get their
 * level, flows and counters of a host process named after them the host
 * device, tasks get the span that launched them, problems are reported.
 */
void
trace_event_free(struct trace_load *l)
{
	struct trace_proc	*p;
	size_t			 i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nprocs; i++) {
		p = &l->procs[i];
		if (p->pending)
			store_trace_load_api_level(l->s, l->ctx->rank, p->pid,
			    p->kind == KIND_PYTHON ? "python" : p->kind ==
			    KIND_CANN ? "cann" : p->kind == KIND_ACL ? "acl" :
			    p->name != NULL ? p->name : "unknown");
		if (p->early && (p->kind == KIND_PYTHON ||
		    p->kind == KIND_CANN || p->kind == KIND_ACL))
			store_trace_load_trace_host(l->s, l->ctx->rank, p->pid);
		free(p->name);
	}
	free(l->procs);
	store_trace_load_api_link(l->s, l->ctx->rank);
	/* Each at the first one's offset. */
	if (l->bad > 0)
		store_load_warning(l->s, l->path, l->bad_at, "%s; %lld event%s "
		    "skipped", l->bad_why, (long long)l->bad,
		    l->bad == 1 ? "" : "s");
	if (l->badids > 0)
		store_load_warning(l->s, l->path, l->badids_at, "%lld task "
		    "id%s (Model, Stream, Task, Batch or Subtask Id) not an "
		    "integer, read as N/A", (long long)l->badids, l->badids ==
		    1 ? "" : "s");
	if (l->badvals > 0)
		store_load_warning(l->s, l->path, l->badvals_at, "%lld counter "
		    "value%s not a finite number, no sample%s",
		    (long long)l->badvals, l->badvals == 1 ? "" : "s",
		    l->badvals == 1 ? "" : "s");
	if (l->other > 0)
		store_load_warning(l->s, l->path, l->other_at, "%lld event%s "
		    "of phase '%s' not imported (only M, X, C, s, t and f "
		    "are)",
		    (long long)l->other, l->other == 1 ? "" : "s", l->phases);
	free(l->bad_why);
	free(l);
}
