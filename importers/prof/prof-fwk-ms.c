/*
 * MindSpore's own records in the FRAMEWORK/ folder beside the raw PROF_*
 * collection of a profile that was never analysed (doc/formats.md section
 * 3.12): the op ranges of FRAMEWORK/mindspore.op_range, written by
 * MindSpore 2.6 and later, or of op_range_<rank> in 2.4's and 2.5's layout
 * (a 74-byte fixed part, the name written whole, the sequence number and
 * forward thread as args; 2.4 reads custom infos and flow ids its own
 * way) or 2.3's (73 bytes, no custom info, its own clock pair and process
 * ids, ranges of no length as spans), or that of 2.3's release
 * candidates (57 bytes: no flow id or step, so no flows of their own,
 * stacks and shapes split after their ';'). Each becomes the host span the
 * analysed twin's trace_view.json has for it, in process MindSpore (pid
 * 1) on the thread that recorded it, named as MindSpore names it
 * (module::event::name, a graph's module::event::name, a stage's name, or
 * a Python stack frame's name); ranges called "flow" are no spans but
 * start the async_mindspore flow to the one range of the same flow id.
 * Ranges of no length are instants there, which a trace's import leaves
 * out: they are counted. The host spans of the rank are then nested
 * again, the CANN ones with MindSpore's, by time on their thread, as the
 * analysed trace's are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define MS_FIXED	54		/* the fixed part of an op range */
#define MS25_FIXED	74		/* the same, MindSpore 2.4 and 2.5 */
#define MS23_FIXED	73		/* MindSpore 2.3: no level */
#define MS23RC_FIXED	57		/* its release candidates: no flow */
#define MS_PID		1		/* MindSpore's process in the trace */
#define MS_NO_FLOW	UINT64_MAX

/* The fields after the fixed part; MindSpore 2.5's first. */
enum {
	MS25_F_NAME = 3,
	MS25_F_DTYPES = 4,
	MS25_F_SHAPES = 5,
	MS25_F_STACK = 6,
	MS25_F_HIERARCHY = 7,
	MS25_F_FLOPS = 8,
	MS25_F_CUSTOM = 9,
	MS_F_NAME = 13,
	MS_F_FULL_NAME = 14,
	MS_F_MODULE_GRAPH = 15,
	MS_F_EVENT_GRAPH = 16
};

/* The names of the module, event and stage indexes, in MindSpore's order. */
static const char *const prof_ms_modules[] = {
	"Default", "GraphExecutorPy", "RuntimeFramework",
	"PynativeFramework", "Kernel", "Python", "Capture", "Other"
};

static const char *const prof_ms_events[] = {
	"Default", "KernelInfer", "KernelResize", "KernelInferAndResize",
	"KernelLaunch", "KernelLaunckCallback", "KernelUpdate",
	"KernelPrepareData", "GraphLaunch", "InputProcess", "OutputProcess",
	"WaitTaskFinish", "PreLaunch", "PostLaunch", "SendOutput",
	"MemoryAlloc", "MemoryFree", "CopyData", "StreamSync",
	"ProcessMultiStream", "WaitKernelsInferFinish",
	"WaitKernelsResizeFinish", "WaitKernelsLaunchFinish",
	"KernelInferInner", "KernelInferDataSync", "KernelResizeInner",
	"KernelLaunchInner", "BackendGraphRunInner", "RunOp",
	"PyNativeFrontendTask", "PyNativeBackendTask", "PyNativeDeviceTask",
	"PyNativeLaunchTask", "PyNativeBpropTask", "Wait",
	"PyNativeGilAcquire", "PyNativeCast", "PyNativeInfer",
	"PyNativeOpCompile", "PyNativeGradExpander",
	"PyNativeGradUpdateSens", "PyNativeGradClearTopCell",
	"PyNativeGradClearAutoGradCell", "PyBoostInferOutput",
	"PyBoostInferByOpDef", "PyBoostCreateOutputTensor",
	"PyBoostDeviceTask", "PyBoostMallocInput", "PyBoostMallocOutput",
	"PyBoostLaunchAclnn", "PyBoostLaunchAtb", "PyNativeNewGraph",
	"PyNativeEndGraph", "PythonObserved", "CaptureRunGraph",
	"CaptureProcess", "CaptureCompile", "CaptureGuard",
	"AclnnHitCacheStage1", "AclnnHitCacheStage2",
	"AclnnMissCacheStage1", "AclnnMissCacheStage2",
	"AclnnUpdateAddress", "AclnnRunOp", "RunExpanderFunc", "EmitOp",
	"Execute", "ReleaseResource", "NativeFunc"
};

static const char *const prof_ms_stages[] = {
	"Default", "Python", "Capture", "RunGraph", "RunGrad", "RunOp",
	"Asnumpy", "CompileGradGraph", "WaitPipeline", "SyncStream"
};

/* One end of a flow between op ranges. */
struct ms_end {
	uint64_t	 id;
	uint64_t	 tid;
	int64_t		 ts;
	int		 start;		/* 1 the "flow" range, 0 the other */
	size_t		 seq;		/* in file order */
	uint64_t	 pid;		/* its range's process */
};

struct prof_ms {
	struct prof_fwk		*fw;
	bool			 v25;		/* 2.3 to 2.5: op_range_N */
	bool			 v24;		/* and 2.4's reader */
	bool			 v23;		/* or 2.3's (its layout too) */
	bool			 v23rc;		/* and its candidates' */
	struct ms_end		*ends;
	size_t			 nends;
	int64_t			 instants;
	int64_t			 instant_at;
	int64_t			 zero;		/* start time 0 */
	int64_t			 zero_at;
	int64_t			 bad_index;	/* no such module, event */
	int64_t			 bad_index_at;
	int64_t			 not_utf8;
	int64_t			 not_utf8_at;
	int64_t			 bad_args;	/* 2.5 args fields not UTF-8 */
	int64_t			 bad_args_at;
	int64_t			 bad_custom;	/* custom info it cannot read */
	int64_t			 bad_custom_at;
	int64_t			 spans;
};

/* The name of index I of TABLE (N names), or Default (counted). */
static const char *
prof_ms_index(struct prof_ms *ms, const char *const *table, size_t n,
    unsigned int i)
{
	if (i < n)
		return table[i];
	if (ms->bad_index++ == 0)
		ms->bad_index_at = ms->fw->at;
	return table[0];
}

/*
 * Field TYPE of the record's tail P (LEN bytes), or NULL if it has none
 * (a cut tail noted if NOTE_CUT); N/A, as MindSpore reads it, if it is
 * not UTF-8, counted in *COUNT with the first record's offset in *AT.
 */
static char *
prof_ms_read(struct prof_ms *ms, const unsigned char *p, size_t len,
    int type, bool note_cut, int64_t *count, int64_t *at)
{
	const unsigned char	*u;
	char			*v = NULL;
	size_t			 n, k;
	bool			 cut = false;

	if (!prof_fwk_rec_field(p, len, type, &v, &cut)) {
		if (note_cut && cut && ms->fw->cut_at < 0)
			ms->fw->cut_at = ms->fw->at;
		return NULL;
	}
	u = (const unsigned char *)v;
	for (n = strlen(v); n > 0; u += k, n -= k) {
		if ((k = util_utf8_len(u, n)) == 0) {
			if ((*count)++ == 0)
				*at = ms->fw->at;
			free(v);
			return xstrdup("N/A");
		}
	}
	return v;
}

/* A name field of the record's tail P: "" if it has none. */
static char *
prof_ms_field(struct prof_ms *ms, const unsigned char *p, size_t len,
    int type)
{
	char	*v;

	v = prof_ms_read(ms, p, len, type, true, &ms->not_utf8,
	    &ms->not_utf8_at);
	return v != NULL ? v : xstrdup("");
}

/* The name MindSpore gives the op range of fixed part P and fields F. */
static char *
prof_ms_name(struct prof_ms *ms, const unsigned char *p,
    const unsigned char *f, size_t flen)
{
	char	*op, *full, *mg, *eg, *name;

	op = prof_ms_field(ms, f, flen, MS_F_NAME);
	if (p[53] != 0)			/* a Python stack frame */
		return op;
	full = prof_ms_field(ms, f, flen, MS_F_FULL_NAME);
	if (p[51] != 0) {		/* graph data */
		mg = prof_ms_field(ms, f, flen, MS_F_MODULE_GRAPH);
		eg = prof_ms_field(ms, f, flen, MS_F_EVENT_GRAPH);
		xasprintf(&name, "%s::%s::%s", mg, eg, op);
		free(mg);
		free(eg);
	} else if (p[52] != 0)		/* a stage */
		name = xstrdup(prof_ms_index(ms, prof_ms_stages,
		    sizeof prof_ms_stages / sizeof *prof_ms_stages,
		    importer_le16(p + 48)));
	else if (strcmp(op, "flow") != 0)
		xasprintf(&name, "%s::%s::%s", prof_ms_index(ms,
		    prof_ms_modules, sizeof prof_ms_modules /
		    sizeof *prof_ms_modules, importer_le16(p + 44)),
		    prof_ms_index(ms, prof_ms_events, sizeof prof_ms_events /
		    sizeof *prof_ms_events, importer_le16(p + 46)), full);
	else
		name = xstrdup(full);
	free(op);
	free(full);
	return name;
}

static void
prof_ms_end(struct prof_ms *ms, uint64_t id, uint64_t pid, uint64_t tid,
    int64_t ts, int start)
{
	struct ms_end	*e;

	ms->ends = util_grow(ms->ends, ms->nends, 1, sizeof *ms->ends);
	e = &ms->ends[ms->nends++];
	e->id = id;
	e->pid = pid;
	e->tid = tid;
	e->ts = ts;
	e->start = start;
	e->seq = ms->nends - 1;
}

/*
 * S as a JSON string's body, its lines split at SEP if not 0: '|' read
 * as CR LF (2.3.0 on), or ';' followed by one (2.3's release candidates).
 */
static void
prof_ms_json(struct strbuf *b, const char *s, int sep)
{
	char	*t, *seg, *bar;

	t = xstrdup(s);
	for (seg = t; sep != 0 && (bar = strchr(seg, sep)) != NULL;
	    seg = bar + 1) {
		*bar = '\0';
		prof_fwk_rec_json(b, seg, false);
		strbuf_adds(b, sep == ';' ? ";\\r\\n" : "\\r\\n");
	}
	prof_fwk_rec_json(b, seg, false);
	free(t);
}

/*
 * Custom info V ("k:v;k:v;...") as MindSpore 2.5's reader takes it into
 * B: an object of the first two pairs when there are two or more, else
 * {}; false if one of those two is not key:value (its reader fails).
 */
static bool
prof_ms_custom(struct strbuf *b, char *v)
{
	char	*pair[2], *c[2], *q, *save;
	size_t	 n = 0, i;

	/* Empty parts are skipped, as MindSpore's reader skips them. */
	for (q = strtok_r(v, ";", &save); q != NULL;
	    q = strtok_r(NULL, ";", &save))
		if (n < 2)
			pair[n++] = q;
		else
			n++;
	if (n < 2) {
		strbuf_adds(b, "{}");
		return true;
	}
	for (i = 0; i < 2; i++) {
		if ((c[i] = strchr(pair[i], ':')) == NULL ||
		    strchr(c[i] + 1, ':') != NULL)
			return false;
		*c[i]++ = '\0';
	}
	strbuf_adds(b, "{\"");
	/* A repeated key keeps its place and takes the second value. */
	prof_fwk_rec_json(b, pair[0], false);
	strbuf_adds(b, "\":\"");
	prof_fwk_rec_json(b, strcmp(pair[0], pair[1]) == 0 ? c[1] : c[0],
	    false);
	if (strcmp(pair[0], pair[1]) != 0) {
		strbuf_adds(b, "\",\"");
		prof_fwk_rec_json(b, pair[1], false);
		strbuf_adds(b, "\":\"");
		prof_fwk_rec_json(b, c[1], false);
	}
	strbuf_adds(b, "\"}");
	return true;
}

/*
 * Custom info V as MindSpore 2.4's reader takes it into B: an object of
 * every ';'-separated part's first two ':'-separated pieces (a repeated
 * key keeps its place and takes the later value); false if a part,
 * empty ones too, has no ':' (its reader fails).
 */
static bool
prof_ms_custom24(struct strbuf *b, const char *v)
{
	char		**keys = NULL, **vals = NULL, *t, *part, *c, *d, *save;
	size_t		 n = 0, i;
	bool		 ok = true;

	t = xstrdup(v);
	for (part = t; ok && part != NULL; part = save) {
		if ((save = strchr(part, ';')) != NULL)
			*save++ = '\0';
		if ((c = strchr(part, ':')) == NULL) {
			ok = false;
			break;
		}
		*c++ = '\0';
		if ((d = strchr(c, ':')) != NULL)
			*d = '\0';
		for (i = 0; i < n && strcmp(keys[i], part) != 0; i++)
			;
		if (i == n) {
			keys = util_grow(keys, n, 1, sizeof *keys);
			vals = util_grow(vals, n, 1, sizeof *vals);
			keys[n++] = part;
		}
		vals[i] = c;
	}
	if (ok) {
		strbuf_addc(b, '{');
		for (i = 0; i < n; i++) {
			strbuf_adds(b, i > 0 ? ",\"" : "\"");
			prof_fwk_rec_json(b, keys[i], false);
			strbuf_adds(b, "\":\"");
			prof_fwk_rec_json(b, vals[i], false);
			strbuf_addc(b, '"');
		}
		strbuf_addc(b, '}');
	}
	free(keys);
	free(vals);
	free(t);
	return ok;
}

/*
 * The args MindSpore 2.5 gives a range of fixed part P and fields F:
 * the sequence number and forward thread, then its fields as MindSpore's
 * trace writes them (shapes, types and stack with "|" as CR LF, custom
 * info as prof_ms_custom() reads it). A custom info MindSpore's reader
 * would fail on is left out, counted.
 */
static char *
prof_ms_args25(struct prof_ms *ms, const unsigned char *p,
    const unsigned char *f, size_t flen)
{
	static const struct {
		int		 type;
		const char	*key;
		bool		 lines;
	} fields[] = {
		{ MS25_F_SHAPES, "Input Dims", true },
		{ MS25_F_DTYPES, "Input type", true },
		{ MS25_F_STACK, "Call stack", true },
		{ MS25_F_HIERARCHY, "Module Hierarchy", false },
		{ MS25_F_FLOPS, "flops", false }
	};
	struct strbuf	 b, custom;
	char		*v;
	size_t		 i;

	strbuf_init(&b);
	strbuf_addf(&b, "{\"Sequence number\":%lld,\"Fwd thread id\":%llu",
	    (long long)importer_le64(p + 16),
	    (unsigned long long)importer_le64(p + 48));
	for (i = 0; i < sizeof fields / sizeof *fields; i++) {
		if ((v = prof_ms_read(ms, f, flen, fields[i].type, false,
		    &ms->bad_args, &ms->bad_args_at)) == NULL)
			continue;
		strbuf_addf(&b, ",\"%s\":\"", fields[i].key);
		prof_ms_json(&b, v, !fields[i].lines ? 0 : ms->v23rc ? ';' :
		    '|');
		strbuf_addc(&b, '"');
		free(v);
	}
	/* 2.3 writes no custom info, and its reader reads none. */
	if (!ms->v23 && (v = prof_ms_read(ms, f, flen, MS25_F_CUSTOM, false,
	    &ms->bad_args, &ms->bad_args_at)) != NULL) {
		strbuf_init(&custom);
		if (*v == '\0')
			strbuf_adds(&b, ",\"custom_info\":\"\"");
		else if (ms->v24 ? prof_ms_custom24(&custom, v) :
		    prof_ms_custom(&custom, v))
			strbuf_addf(&b, ",\"custom_info\":%s", custom.s);
		else if (ms->bad_custom++ == 0)
			ms->bad_custom_at = ms->fw->at;
		strbuf_release(&custom);
		free(v);
	}
	strbuf_addc(&b, '}');
	return strbuf_detach(&b);
}

/*
 * The flow end of an instant of MindSpore 2.4 (record P of LEN bytes,
 * thread TID, flow id FLOW, at counter RAW), as its reader links them.
 */
static void
prof_ms_instant24(struct prof_ms *ms, const unsigned char *p, size_t len,
    uint64_t tid, uint64_t flow, uint64_t raw)
{
	int64_t	 ts = prof_fwk_rec_ns(ms->fw, raw);
	char	*name;

	if (!prof_meta_sane(ts))
		return;
	name = prof_ms_field(ms, p + MS25_FIXED, len - MS25_FIXED,
	    MS25_F_NAME);
	if (strcmp(name, "flow") == 0)
		prof_ms_end(ms, flow, MS_PID, tid, ts, 1);
	else if (flow != MS_NO_FLOW)
		prof_ms_end(ms, flow, MS_PID, tid, ts, 0);
	free(name);
}

/* One op range record P of LEN bytes. */
static void
prof_ms_range(struct prof_ms *ms, const unsigned char *p, size_t len)
{
	uint64_t		 tid, flow, raw0, raw1, pid = MS_PID;
	int64_t			 start, end;
	char			*name, *args = NULL;
	size_t			 fixed = ms->v23rc ? MS23RC_FIXED : ms->v23 ?
				    MS23_FIXED : ms->v25 ? MS25_FIXED :
				    MS_FIXED;

	if (len < fixed) {
		if (ms->fw->short_recs++ == 0)
			ms->fw->short_at = ms->fw->at;
		return;
	}
	if (ms->v25) {
		tid = importer_le64(p + 32);
		flow = ms->v23rc ? MS_NO_FLOW : importer_le64(p + 56);
		raw0 = importer_le64(p);
		raw1 = importer_le64(p + 8);
		/* 2.3's trace gives a range its record's process. */
		if (ms->v23)
			pid = importer_le64(p + 24);
	} else {
		tid = importer_le64(p);
		flow = importer_le64(p + 8);
		raw0 = importer_le64(p + 24);
		raw1 = importer_le64(p + 32);
	}
	if (raw0 == 0) {
		if (ms->zero++ == 0)
			ms->zero_at = ms->fw->at;
		return;
	}
	/* 2.3 draws a range of no length as a span, not an instant. */
	if (raw0 == raw1 && !ms->v23) {
		/* 2.4's reader links instants by their flow ids too. */
		if (ms->v24)
			prof_ms_instant24(ms, p, len, tid, flow, raw0);
		if (ms->instants++ == 0)
			ms->instant_at = ms->fw->at;
		return;
	}
	start = prof_fwk_rec_ns(ms->fw, raw0);
	end = prof_fwk_rec_ns(ms->fw, raw1);
	if (end < start || !prof_meta_sane(start) || !prof_meta_sane(end)) {
		if (ms->fw->bad_times++ == 0)
			ms->fw->bad_times_at = ms->fw->at;
		return;
	}
	name = ms->v25 ? prof_ms_field(ms, p + fixed, len - fixed,
	    MS25_F_NAME) : prof_ms_name(ms, p, p + fixed, len - fixed);
	/* The candidates have no flow ids: a "flow" range is a range. */
	if (strcmp(name, "flow") == 0 && !ms->v23rc) {
		prof_ms_end(ms, flow, pid, tid, start, 1);
		free(name);
		return;
	}
	if (flow != MS_NO_FLOW)
		prof_ms_end(ms, flow, pid, tid, start, 0);
	if (ms->v25)
		args = prof_ms_args25(ms, p, p + fixed, len - fixed);
	prof_fwk_rec_span(ms->fw, pid, tid, start, end, "MindSpore", name,
	    args);
	ms->spans++;
	free(args);
	free(name);
}

/*
 * Flow ends by id, "flow" ranges first: in MindSpore 2.4's order, each
 * put before the ones before it, the others after, in file order.
 */
static int
prof_ms_end_cmp(const void *a, const void *b)
{
	const struct ms_end	*x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	if (x->start)
		return x->seq > y->seq ? -1 : x->seq < y->seq;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The async_mindspore flows: a flow id with exactly one "flow" range and
 * one other range goes from the first to the second; others are counted.
 * MindSpore 2.4 links any two ranges (or instants) of a flow id, in the
 * order prof_ms_end_cmp() puts them.
 */
static void
prof_ms_flows(struct prof_ms *ms, const char *path)
{
	struct ms_end	*e = ms->ends;
	size_t		 i, j, k;
	int64_t		 odd = 0;

	if (ms->nends == 0)
		return;
	qsort(e, ms->nends, sizeof *e, prof_ms_end_cmp);
	for (i = 0; i < ms->nends; i = j) {
		for (j = i; j < ms->nends && e[j].id == e[i].id; j++)
			;
		for (k = i; k < j && e[k].start; k++)
			;
		if ((ms->v24 || ms->v23) && j - i == 2)
			k = i + 1;
		else if (ms->v24 || ms->v23 || k - i != 1 || j - k != 1) {
			odd++;
			continue;
		}
		prof_fwk_rec_flow(ms->fw, e[i].pid, e[i].tid, e[i].ts, e[i].id,
		    "async_mindspore", "mindspore_to_self", "s");
		prof_fwk_rec_flow(ms->fw, e[k].pid, e[k].tid, e[k].ts, e[k].id,
		    "async_mindspore", "mindspore_to_self", "f");
	}
	if (odd > 0)
		store_load_warning(ms->fw->s, path, -1, "%lld flow ids without "
		    "%s: no flow drawn, as MindSpore draws none", (long long)odd,
		    ms->v24 || ms->v23 ? "exactly two ranges" : "exactly one "
		    "\"flow\" "
		    "range and one other");
}

/* Say what the file PATH's records lacked, each at its first case. */
static void
prof_ms_report(struct prof_ms *ms, const char *path)
{
	if (ms->zero > 0)
		store_load_warning(ms->fw->s, path, ms->zero_at, "%lld op "
		    "ranges starting at time 0, the first here: skipped, %s",
		    (long long)ms->zero, ms->v23 || ms->v24 ? "where MindSpore "
		    "2.3 and 2.4 draw them from the counter's zero" : "as "
		    "MindSpore skips them");
	if (ms->instants > 0)
		store_load_warning(ms->fw->s, path, ms->instant_at, "%lld op "
		    "ranges of no length, the first here: instants in "
		    "MindSpore's trace, not spans: skipped",
		    (long long)ms->instants);
	if (ms->bad_index > 0)
		store_load_warning(ms->fw->s, path, ms->bad_index_at, "%lld "
		    "module, event or stage indexes MindSpore does not know, "
		    "the first here: named Default, as MindSpore names them",
		    (long long)ms->bad_index);
	if (ms->not_utf8 > 0)
		store_load_warning(ms->fw->s, path, ms->not_utf8_at, "%lld "
		    "name fields that are not UTF-8, the first here: read as "
		    "N/A, as MindSpore reads them", (long long)ms->not_utf8);
	if (ms->bad_args > 0)
		store_load_warning(ms->fw->s, path, ms->bad_args_at, "%lld "
		    "args fields that are not UTF-8, the first here: read as "
		    "N/A, as MindSpore reads them", (long long)ms->bad_args);
	if (ms->bad_custom > 0)
		store_load_warning(ms->fw->s, path, ms->bad_custom_at, "%lld "
		    "custom infos with a pair that is not key:value, the "
		    "first here: left out of the args (MindSpore's reader "
		    "fails on them)", (long long)ms->bad_custom);
	prof_fwk_rec_report(ms->fw, path);
}

/*
 * Decode FRAMEWORK/mindspore.op_range (or op_range_<rank> in the layout
 * of MindSpore 2.VER if VER is 23 to 25, of 2.3's release candidates if
 * PROF_MS_23RC) at PATH with the clock of FW (the CANN host's, or 2.3's
 * own pair if fw->ms_anchor: MindSpore's ranges are counter ticks).
 * Return the spans loaded.
 */
int64_t
prof_fwk_ms_load(struct prof_fwk *fw, const char *path, int ver)
{
	struct prof_ms	 ms;
	unsigned char	*buf = NULL;
	size_t		 size = 0;
	ssize_t		 len;
	int64_t		 off = 0;
	FILE		*f;

	if (fw->hm->host.num == 0 || (!fw->hm->has_host_start &&
	    !fw->ms_anchor)) {
		store_load_warning(fw->s, path, -1, "no host_start.log or host "
		    "frequency in the PROF_* collection: MindSpore's times "
		    "cannot be converted, the file is not read");
		return 0;
	}
	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return 0;
	memset(&ms, 0, sizeof ms);
	ms.fw = fw;
	ms.v25 = ver >= PROF_MS_23RC && ver <= 25;
	ms.v24 = ver == 24;
	ms.v23 = ver == 23 || ver == PROF_MS_23RC;
	ms.v23rc = ver == PROF_MS_23RC;
	fw->syscnt = true;
	/* Its lanes: process MindSpore, threads "Thread N". */
	fw->proc = "MindSpore";
	for (;;) {
		fw->at = off;
		if ((len = prof_fwk_rec_next(fw, f, path, -1, &buf, &size,
		    &off)) <= 0)
			break;
		prof_ms_range(&ms, buf, (size_t)len);
	}
	fclose(f);
	free(buf);
	prof_ms_flows(&ms, path);
	prof_ms_report(&ms, path);
	/* As the analysed trace's import: one nesting by time per thread. */
	if (ms.spans > 0)
		store_nest_live_again(fw->s, fw->rank);
	free(ms.ends);
	return ms.spans;
}
