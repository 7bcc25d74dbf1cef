/*
 * export timeline: the store as a chrome trace-event JSON array like the
 * vendor's msprof_<YYYYMMDDhhmmss>.json, which Perfetto and
 * chrome://tracing load. Processes follow the vendor's layers: "Ascend
 * Hardware" per device with a thread per stream, "CANN" on the host with a
 * thread per OS thread for the CANN API levels, and one host process per
 * other span level (Python, markers, ...). Trace pids are (base << 10) |
 * (layer << 5) | device as the vendor computes them, with the rank as base.
 * Device tasks and host spans are "X" events with "ts" in epoch
 * microseconds as a 3-decimal string; each task whose launching span is
 * known gets an "s"/"f" flow pair; mstx and msproftx markers (a span of
 * no length) are instant "i" events. Counter tracks are written by
 * export-tracks.c. Events stream from the store to the file; --split-mb
 * starts a new _slice_<i> file, with the metadata repeated, whenever one
 * grows past the limit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export-int.h"

/* The vendor's layer sort indices (and the middle bits of a trace pid). */
#define TL_LAYER_FRAMEWORK	6
#define TL_LAYER_CANN		7
#define TL_LAYER_HARDWARE	13

/* The low pid bits of the host, and the tid of tasks without a stream. */
#define TL_HOST_BITS		31
#define TL_NO_STREAM		2147483647

/* How the vendor names the CANN API levels in span names. */
static const struct {
	const char	*level;
	const char	*prefix;
} export_chrome_cann_levels[] = {
	{ "acl", "AscendCL" },
	{ "model", "Model" },
	{ "node", "Node" },
	{ "runtime", "Runtime" },
	{ "communication", "Communication" },
	{ "hccl", "Hccl" }
};

#define TL_NCANN							\
	(sizeof export_chrome_cann_levels / sizeof export_chrome_cann_levels[0])

static const char *
export_chrome_cann_prefix(const char *level)
{
	size_t	 i;

	for (i = 0; level != NULL && i < TL_NCANN; i++) {
		if (strcmp(export_chrome_cann_levels[i].level, level) == 0)
			return export_chrome_cann_levels[i].prefix;
	}
	return NULL;
}

/* The trace pid of a host span of LEVEL. */
static int64_t
export_chrome_api_pid(struct chrome *tl, int64_t rank, const char *level)
{
	size_t	 i;

	if (export_chrome_cann_prefix(level) != NULL)
		return export_trace_pid(rank, TL_LAYER_CANN, TL_HOST_BITS);
	for (i = 0; i < tl->nlevels; i++) {
		if (strcmp(tl->levels[i], level != NULL ? level : "") == 0)
			break;
	}
	return export_trace_pid(rank, TL_LAYER_FRAMEWORK,
	    TL_HOST_BITS - (int64_t)i);
}

static int64_t
export_chrome_task_pid(int64_t rank, int64_t device)
{
	return export_trace_pid(rank, TL_LAYER_HARDWARE, device != NP_NA ?
	    device : 0);
}

/* Does lane I start a new process (the lanes are sorted)? */
static bool
export_chrome_new_process(struct chrome *tl, size_t i)
{
	const struct chrome_lane	*a = &tl->lanes[i], *b;

	if (i == 0)
		return true;
	b = &tl->lanes[i - 1];
	if (a->rank != b->rank || (a->level == NULL) != (b->level == NULL))
		return true;
	if (a->level == NULL)
		return a->device != b->device;
	if (export_chrome_cann_prefix(a->level) != NULL)
		return export_chrome_cann_prefix(b->level) == NULL;
	return export_chrome_cann_prefix(b->level) != NULL ||
	    strcmp(a->level, b->level) != 0;
}

/* The metadata events naming every process and thread. */
static void
export_chrome_metadata(struct chrome *tl)
{
	const struct chrome_lane	*l;
	char				 name[64];
	int64_t				 pid;
	size_t				 i;
	bool				 cann;

	for (i = 0; i < tl->nlanes; i++) {
		l = &tl->lanes[i];
		if (l->level == NULL) {
			pid = export_chrome_task_pid(l->rank, l->device);
			if (export_chrome_new_process(tl, i)) {
				snprintf(name, sizeof name, "NPU %lld",
				    (long long)(l->device != NP_NA ?
				    l->device : 0));
				export_trace_process(tl, pid, "Ascend Hardware",
				    name, TL_LAYER_HARDWARE);
			}
			if (l->id == NP_NA)
				snprintf(name, sizeof name, "Stream N/A");
			else
				snprintf(name, sizeof name, "Stream %lld",
				    (long long)l->id);
			export_trace_thread(tl, pid, l->id != NP_NA ? l->id :
			    TL_NO_STREAM, name);
			continue;
		}
		pid = export_chrome_api_pid(tl, l->rank, l->level);
		cann = export_chrome_cann_prefix(l->level) != NULL;
		if (export_chrome_new_process(tl, i))
			export_trace_process(tl, pid, cann ? "CANN" : l->level,
			    "CPU", cann ? TL_LAYER_CANN : TL_LAYER_FRAMEWORK);
		if (i > 0 && !export_chrome_new_process(tl, i) &&
		    tl->lanes[i - 1].level != NULL &&
		    tl->lanes[i - 1].id == l->id)
			continue;
		snprintf(name, sizeof name, "Thread %lld", (long long)(l->id !=
		    NP_NA ? l->id : 0));
		export_trace_thread(tl, pid, l->id != NP_NA ? l->id : 0, name);
	}
	export_tracks_metadata(tl);
}

/* Start a new slice file, beginning with the metadata. */
static int
export_chrome_slice(struct chrome *tl)
{
	char	*name;

	xasprintf(&name, "msprof_slice_%zu_%s.json", tl->nfiles, tl->stamp);
	tl->ef = export_file_open(tl->dir, name, tl->cause);
	free(name);
	if (tl->ef == NULL)
		return -1;
	tl->files = xreallocarray(tl->files, tl->nfiles + 1,
	    sizeof *tl->files);
	tl->files[tl->nfiles++] = tl->ef;
	tl->events = 0;
	tl->items = 0;
	fputs("[\n", tl->ef->f);
	export_chrome_metadata(tl);
	return 0;
}

static void
export_chrome_arg_int(FILE *f, const char *key, int64_t v, bool *first)
{
	if (v == NP_NA)
		return;
	fprintf(f, "%s\"%s\":%lld", *first ? "" : ",", key, (long long)v);
	*first = false;
}

static int
export_chrome_task(void *arg, int64_t id, const struct store_task *t)
{
	struct chrome	*tl = arg;
	FILE		*f;
	bool		 first = true;
	const char	*name;

	if ((f = export_trace_event(tl)) == NULL)
		return -1;
	name = t->name != NULL ? t->name : t->task_type != NULL ?
	    t->task_type : "N/A";
	fputs("{\"name\":", f);
	util_json_string(f, name);
	fprintf(f, ",\"pid\":%lld,\"tid\":%lld,\"ts\":",
	    (long long)export_chrome_task_pid(t->rank, t->device),
	    (long long)(t->stream != NP_NA ? t->stream : TL_NO_STREAM));
	export_trace_ts(f, t->start_ns);
	fputs(",\"dur\":", f);
	export_trace_dur(f, t->dur_ns);
	fputs(",\"ph\":\"X\",\"args\":{", f);
	export_chrome_arg_int(f, "Model Id", t->model_id, &first);
	if (t->task_type != NULL) {
		fprintf(f, "%s\"Task Type\":", first ? "" : ",");
		util_json_string(f, t->task_type);
		first = false;
	}
	export_chrome_arg_int(f, "Physic Stream Id", t->stream, &first);
	export_chrome_arg_int(f, "Task Id", t->task, &first);
	export_chrome_arg_int(f, "Batch Id", t->batch, &first);
	export_chrome_arg_int(f, "Subtask Id", t->context, &first);
	export_chrome_arg_int(f, "connection_id", t->conn, &first);
	fputs("}}", f);
	return 0;
}

/* The inside of a span's own args object, or NULL if it has none. */
static const char *
export_chrome_args_inner(const char *args, size_t *len)
{
	size_t	 n;

	if (args == NULL)
		return NULL;
	while (*args == ' ' || *args == '\n' || *args == '\t')
		args++;
	n = strlen(args);
	while (n > 0 && (args[n - 1] == ' ' || args[n - 1] == '\n' ||
	    args[n - 1] == '\t'))
		n--;
	if (n < 2 || args[0] != '{' || args[n - 1] != '}')
		return NULL;
	args++;
	n -= 2;
	while (n > 0 && (*args == ' ' || *args == '\n' || *args == '\t')) {
		args++;
		n--;
	}
	*len = n;
	return n > 0 ? args : NULL;
}

/* An mstx or msproftx marker: a point in time, not a range. */
static bool
export_chrome_is_marker(const struct store_api *a)
{
	return a->level != NULL && a->end_ns == a->start_ns &&
	    (strcmp(a->level, "mstx") == 0 ||
	    strcmp(a->level, "msproftx") == 0);
}

static int
export_chrome_api(void *arg, int64_t id, const struct store_api *a)
{
	struct chrome	*tl = arg;
	FILE		*f;
	const char	*prefix = export_chrome_cann_prefix(a->level), *inner,
	    *name;
	struct strbuf	 b;
	size_t		 plen, ilen;
	int64_t		 tid = a->tid != NP_NA ? a->tid : 0;

	if ((f = export_trace_event(tl)) == NULL)
		return -1;
	name = a->name != NULL ? a->name : "N/A";
	plen = prefix != NULL ? strlen(prefix) : 0;
	fputs("{\"name\":", f);
	if (prefix != NULL && !(strncmp(name, prefix, plen) == 0 &&
	    name[plen] == '@')) {
		strbuf_init(&b);
		strbuf_addf(&b, "%s@%s", prefix, name);
		util_json_string(f, b.s);
		strbuf_release(&b);
	} else
		util_json_string(f, name);
	fprintf(f, ",\"pid\":%lld,\"tid\":%lld,\"ts\":",
	    (long long)export_chrome_api_pid(tl, a->rank, a->level),
	        (long long)tid);
	export_trace_ts(f, a->start_ns);
	if (export_chrome_is_marker(a))
		fputs(",\"ph\":\"i\",\"s\":\"t\"", f);
	else {
		fputs(",\"dur\":", f);
		export_trace_dur(f, a->end_ns - a->start_ns);
		fputs(",\"ph\":\"X\"", f);
	}
	fprintf(f, ",\"args\":{\"Thread Id\":%lld", (long long)tid);
	if (a->level != NULL) {
		fputs(",\"level\":", f);
		util_json_string(f, a->level);
	}
	if (a->conn != NP_NA)
		fprintf(f, ",\"connection_id\":%lld", (long long)a->conn);
	if ((inner = export_chrome_args_inner(a->args, &ilen)) != NULL) {
		fputc(',', f);
		fwrite(inner, 1, ilen, f);
	}
	fputs("}}", f);
	return 0;
}

/*
 * The id of a flow: the vendor's connection id << 32 (plus the context id
 * of an FFTS+ subtask), or, for a task linked to its span without a
 * connection id, 2^63 + the task's row id, which cannot clash with those.
 */
static uint64_t
export_chrome_flow_id(const struct store_link *fl)
{
	uint64_t	 ctx = 0;

	if (fl->conn == NP_NA || fl->conn < 0 || fl->conn > 0x7fffffff)
		return (1ULL << 63) | (uint64_t)fl->task_id;
	if (fl->context != NP_NA && fl->context >= 0 &&
	    fl->context < 0xffffffffLL)
		ctx = (uint64_t)fl->context;
	return ((uint64_t)fl->conn << 32) | ctx;
}

/* A flow pair: start at the launching span, end at the task. */
static int
export_chrome_flow(void *arg, const struct store_link *fl)
{
	struct chrome	*tl = arg;
	FILE		*f;
	uint64_t	 id = export_chrome_flow_id(fl);

	if ((f = export_trace_event(tl)) == NULL)
		return -1;
	fprintf(f, "{\"name\":\"HostToDevice%llu\",\"pid\":%lld,"
	    "\"tid\":%lld,\"ph\":\"s\",\"cat\":\"HostToDevice\","
	    "\"id\":\"%llu\",\"ts\":", (unsigned long long)id,
	    (long long)export_chrome_api_pid(tl, fl->rank, fl->level),
	    (long long)(fl->tid != NP_NA ? fl->tid : 0),
	    (unsigned long long)id);
	export_trace_ts(f, fl->api_start_ns);
	fputs("}", f);
	f = export_trace_sep(tl);
	fprintf(f, "{\"name\":\"HostToDevice%llu\",\"pid\":%lld,"
	    "\"tid\":%lld,\"ph\":\"f\",\"cat\":\"HostToDevice\","
	    "\"id\":\"%llu\",\"ts\":", (unsigned long long)id,
	    (long long)export_chrome_task_pid(fl->rank, fl->device),
	    (long long)(fl->stream != NP_NA ? fl->stream : TL_NO_STREAM),
	    (unsigned long long)id);
	export_trace_ts(f, fl->task_start_ns);
	fputs(",\"bp\":\"e\"}", f);
	return 0;
}

static int
export_chrome_lane(void *arg, int64_t rank, int64_t device, int64_t id,
    const char *level)
{
	struct chrome	*tl = arg;
	struct chrome_lane	*l;
	size_t		 i;

	tl->lanes = xreallocarray(tl->lanes, tl->nlanes + 1,
	    sizeof *tl->lanes);
	l = &tl->lanes[tl->nlanes++];
	l->rank = rank;
	l->device = device;
	l->id = id;
	l->level = level != NULL ? xstrdup(level) : NULL;
	if (level == NULL || export_chrome_cann_prefix(level) != NULL)
		return 0;
	for (i = 0; i < tl->nlevels; i++) {
		if (strcmp(tl->levels[i], level) == 0)
			return 0;
	}
	tl->levels = xreallocarray(tl->levels, tl->nlevels + 1,
	    sizeof *tl->levels);
	tl->levels[tl->nlevels++] = xstrdup(level);
	return 0;
}

/* CANN threads first, then the other levels, each by rank and thread. */
static int
export_chrome_lane_cmp(const void *va, const void *vb)
{
	const struct chrome_lane	*a = va, *b = vb;
	int			 ca, cb, c;

	if ((a->level == NULL) != (b->level == NULL))
		return a->level == NULL ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->level == NULL) {
		if (a->device != b->device)
			return a->device < b->device ? -1 : 1;
		return a->id < b->id ? -1 : a->id > b->id;
	}
	ca = export_chrome_cann_prefix(a->level) != NULL;
	cb = export_chrome_cann_prefix(b->level) != NULL;
	if (ca != cb)
		return ca ? -1 : 1;
	if (!ca && (c = strcmp(a->level, b->level)) != 0)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

static void
export_chrome_release(struct chrome *tl)
{
	size_t	 i;

	for (i = 0; i < tl->nlanes; i++)
		free(tl->lanes[i].level);
	free(tl->lanes);
	for (i = 0; i < tl->nlevels; i++)
		free(tl->levels[i]);
	free(tl->levels);
	for (i = 0; i < tl->nfiles; i++)
		export_file_abort(tl->files[i]);
	free(tl->files);
	export_tracks_free(tl);
}

/* Refuse to overwrite an earlier export of the same second. */
static int
export_chrome_check_free(struct chrome *tl)
{
	char	*name, *path;
	size_t	 i;
	int	 rc = 0;

	for (i = 0; rc == 0; i++) {
		if (i == 0)
			xasprintf(&name, "msprof_%s.json", tl->stamp);
		else
			xasprintf(&name, "msprof_slice_%zu_%s.json", i - 1,
			    tl->stamp);
		path = util_path_join(tl->dir, name);
		free(name);
		rc = export_file_check_free(path, tl->o->force, tl->cause);
		if (rc == 0 && i > 0 && access(path, F_OK) != 0) {
			free(path);
			break;
		}
		free(path);
	}
	return rc;
}

/*
 * Close the last slice and rename every slice into place; a single slice
 * is called msprof_<stamp>.json.
 */
static int
export_chrome_commit(struct chrome *tl)
{
	char	*name;
	size_t	 i;
	int	 rc = 0;

	fputs("\n]\n", tl->ef->f);
	if (tl->nfiles == 1) {
		free(tl->files[0]->path);
		xasprintf(&name, "msprof_%s.json", tl->stamp);
		tl->files[0]->path = util_path_join(tl->dir, name);
		free(name);
	}
	for (i = 0; i < tl->nfiles; i++) {
		if (rc == 0)
			rc = export_file_commit(tl->files[i], tl->cause);
		else
			export_file_abort(tl->files[i]);
	}
	tl->nfiles = 0;
	return rc;
}

/*
 * Write the timeline of store S into DIR with time stamp STAMP. On failure
 * return -1 and set *cause; no file is left behind.
 */
int
export_chrome(struct store *s, const struct export_opts *o,
    const char *dir, const char *stamp, char **cause)
{
	struct chrome	 tl;
	int64_t		 first, last;
	int		 rc = -1;

	memset(&tl, 0, sizeof tl);
	tl.o = o;
	tl.slice = export_chrome_slice;
	tl.dir = dir;
	tl.stamp = stamp;
	tl.cause = cause;
	store_query_init(&tl.q);
	tl.q.device = o->device;
	tl.q.rank = o->rank;
	if (export_chrome_check_free(&tl) != 0 ||
	    store_iter_bounds(s, &tl.q, &first, &last, cause) != 0)
		goto out;
	if (o->range != NULL && export_file_parse_range(o->range, first,
	    &tl.q.from_ns, &tl.q.to_ns, cause) != 0)
		goto out;
	if (store_iter_lanes(s, &tl.q, export_chrome_lane, &tl, cause) != 0 ||
	    export_tracks_load(s, &tl) != 0)
		goto out;
	qsort(tl.lanes, tl.nlanes, sizeof *tl.lanes, export_chrome_lane_cmp);
	if (store_iter_tasks(s, &tl.q, export_chrome_task, &tl, cause) != 0 ||
	    store_iter_apis(s, &tl.q, export_chrome_api, &tl, cause) != 0 ||
	    store_iter_links(s, &tl.q, export_chrome_flow, &tl, cause) != 0 ||
	    export_tracks_write(s, &tl) != 0)
		goto out;
	if (tl.total == 0) {
		xasprintf(cause, "no tasks or API spans to export%s",
		    o->range != NULL ? " in this range" : "");
		goto out;
	}
	rc = export_chrome_commit(&tl);
out:
	export_chrome_release(&tl);
	return rc;
}
