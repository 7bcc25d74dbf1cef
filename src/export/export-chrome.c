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

/*
 * Whether a span of LEVEL on DEVICE is drawn on a row of its device's
 * process: on the stream's row (its thread id), as the vendor draws a KFC
 * turn's phases, or, for an MC2 op, on its group's row (named as the
 * vendor names it). (A trace's other device-side spans keep a process of
 * their level: their threads are the trace's, not always streams.)
 */
static bool
export_chrome_on_stream(const char *level, int64_t device)
{
	return device != NP_NA && device != NP_HOST_DEVICE && level != NULL &&
	    (strcmp(level, "kfc") == 0 || strcmp(level, "mc2") == 0);
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
			if (l->name != NULL)
				snprintf(name, sizeof name, "%s", l->name);
			else if (l->id == NP_NA)
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
	int	 rc;

	xasprintf(&name, "msprof_slice_%zu_%s.json", tl->nfiles, tl->stamp);
	rc = export_trace_slice(tl, name);
	free(name);
	if (rc != 0)
		return -1;
	tl->files = xreallocarray(tl->files, tl->nfiles + 1,
	    sizeof *tl->files);
	tl->files[tl->nfiles++] = tl->ef;
	export_chrome_metadata(tl);
	return 0;
}

/* KEY: V, unless V is not known. */
static void
export_chrome_arg_int(struct json *j, const char *key, int64_t v)
{
	if (v == NP_NA)
		return;
	json_str(j, key);
	json_int(j, v);
}

static int
export_chrome_task(void *arg, int64_t id, const struct store_task *t)
{
	struct chrome	*tl = arg;
	struct json	*j;
	const char	*name;

	if ((j = export_trace_event(tl)) == NULL)
		return -1;
	name = t->name != NULL ? t->name : t->task_type != NULL ?
	    t->task_type : "N/A";
	export_trace_head(j, name, export_chrome_task_pid(t->rank,
	    t->device), t->stream != NP_NA ? t->stream : TL_NO_STREAM,
	    t->start_ns);
	json_str(j, "dur");
	export_trace_dur(j, t->dur_ns);
	json_str(j, "ph");
	json_str(j, "X");
	json_str(j, "args");
	json_map_open(j);
	export_chrome_arg_int(j, "Model Id", t->model_id);
	if (t->task_type != NULL) {
		json_str(j, "Task Type");
		json_str(j, t->task_type);
	}
	export_chrome_arg_int(j, "Physic Stream Id", t->stream);
	export_chrome_arg_int(j, "Task Id", t->task);
	export_chrome_arg_int(j, "Batch Id", t->batch);
	export_chrome_arg_int(j, "Subtask Id", t->context);
	export_chrome_arg_int(j, "connection_id", t->conn);
	json_map_close(j);
	json_map_close(j);
	return 0;
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
	struct json	*j;
	const char	*prefix = export_chrome_cann_prefix(a->level), *name;
	struct strbuf	 b;
	size_t		 plen;
	int64_t		 tid = a->tid != NP_NA ? a->tid : 0;
	bool		 stream = export_chrome_on_stream(a->level, a->device);

	/* A span on a stream's row without a stream: as such tasks. */
	if (stream && a->tid == NP_NA)
		tid = TL_NO_STREAM;
	if ((j = export_trace_event(tl)) == NULL)
		return -1;
	name = a->name != NULL ? a->name : "N/A";
	plen = prefix != NULL ? strlen(prefix) : 0;
	strbuf_init(&b);
	if (prefix != NULL && !(strncmp(name, prefix, plen) == 0 &&
	    name[plen] == '@')) {
		strbuf_addf(&b, "%s@%s", prefix, name);
		name = b.s;
	}
	export_trace_head(j, name, stream ? export_chrome_task_pid(a->rank,
	    a->device) : export_chrome_api_pid(tl, a->rank, a->level), tid,
	    a->start_ns);
	strbuf_release(&b);
	if (export_chrome_is_marker(a)) {
		json_str(j, "ph");
		json_str(j, "i");
		json_str(j, "s");
		json_str(j, "t");
	} else {
		json_str(j, "dur");
		export_trace_dur(j, a->end_ns - a->start_ns);
		json_str(j, "ph");
		json_str(j, "X");
	}
	json_str(j, "args");
	json_map_open(j);
	json_str(j, "Thread Id");
	json_int(j, tid);
	if (a->level != NULL) {
		json_str(j, "level");
		json_str(j, a->level);
	}
	export_chrome_arg_int(j, "connection_id", a->conn);
	/* The span's own args, checked and written again, not pasted. */
	if (a->args != NULL && !json_members(j, a->args))
		tl->bad_args++;
	json_map_close(j);
	json_map_close(j);
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

/* One end (PH "s" or "f") of flow ID, its object left open. */
static void
export_chrome_flow_end(struct json *j, uint64_t id, const char *ph,
    int64_t pid, int64_t tid, int64_t ts)
{
	char	 buf[64];

	json_map_open(j);
	json_str(j, "name");
	snprintf(buf, sizeof buf, "HostToDevice%llu", (unsigned long long)id);
	json_str(j, buf);
	json_str(j, "pid");
	json_int(j, pid);
	json_str(j, "tid");
	json_int(j, tid);
	json_str(j, "ph");
	json_str(j, ph);
	json_str(j, "cat");
	json_str(j, "HostToDevice");
	json_str(j, "id");
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)id);
	json_str(j, buf);
	json_str(j, "ts");
	export_trace_ts(j, ts);
}

/* A flow pair: start at the launching span, end at the task. */
static int
export_chrome_flow(void *arg, const struct store_link *fl)
{
	struct chrome	*tl = arg;
	struct json	*j;
	uint64_t	 id = export_chrome_flow_id(fl);

	if ((j = export_trace_event(tl)) == NULL)
		return -1;
	export_chrome_flow_end(j, id, "s", export_chrome_api_pid(tl,
	    fl->rank, fl->level), fl->tid != NP_NA ? fl->tid : 0,
	    fl->api_start_ns);
	json_map_close(j);
	j = export_trace_sep(tl);
	export_chrome_flow_end(j, id, "f", export_chrome_task_pid(fl->rank,
	    fl->device), fl->stream != NP_NA ? fl->stream : TL_NO_STREAM,
	    fl->task_start_ns);
	json_str(j, "bp");
	json_str(j, "e");
	json_map_close(j);
	return 0;
}

static int
export_chrome_lane(void *arg, int64_t rank, int64_t device, int64_t id,
    const char *level, const char *name)
{
	struct chrome	*tl = arg;
	struct chrome_lane	*l;
	size_t		 i;
	bool		 mc2 = level != NULL && strcmp(level, "mc2") == 0;

	/*
	 * Spans on a stream's row name that row as its tasks would; an MC2
	 * group's row keeps its own name.
	 */
	if (export_chrome_on_stream(level, device))
		level = NULL;
	else if (level != NULL)
		device = NP_NA;
	tl->lanes = xreallocarray(tl->lanes, tl->nlanes + 1,
	    sizeof *tl->lanes);
	l = &tl->lanes[tl->nlanes++];
	l->rank = rank;
	l->device = device;
	l->id = id;
	l->level = level != NULL ? xstrdup(level) : NULL;
	l->name = mc2 && level == NULL && name != NULL ? xstrdup(name) : NULL;
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

/*
 * Drop the sorted lanes that repeat the one before them: a stream with
 * tasks and spans on its row is one thread, and so is a level's thread
 * with spans on several devices.
 */
static void
export_chrome_lanes_unique(struct chrome *tl)
{
	struct chrome_lane	*a, *b;
	size_t			 i, n = 0;

	for (i = 0; i < tl->nlanes; i++) {
		a = &tl->lanes[i];
		b = n > 0 ? &tl->lanes[n - 1] : NULL;
		if (b != NULL && a->rank == b->rank && a->device == b->device &&
		    a->id == b->id && (a->level == NULL ? b->level == NULL :
		    b->level != NULL && strcmp(a->level, b->level) == 0)) {
			free(a->level);
			free(a->name);
			continue;
		}
		tl->lanes[n++] = *a;
	}
	tl->nlanes = n;
}

static void
export_chrome_release(struct chrome *tl)
{
	size_t	 i;

	for (i = 0; i < tl->nlanes; i++) {
		free(tl->lanes[i].level);
		free(tl->lanes[i].name);
	}
	free(tl->lanes);
	for (i = 0; i < tl->nlevels; i++)
		free(tl->levels[i]);
	free(tl->levels);
	for (i = 0; i < tl->nfiles; i++)
		export_file_abort(tl->files[i]);
	free(tl->files);
	json_free(tl->json);
	tl->json = NULL;
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

	export_trace_end(tl);
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
	if (export_chrome_check_free(&tl) != 0)
		goto out;
	if (o->range != NULL && export_file_window(s, o->range, o->device,
	    o->rank, false, &tl.q.from_ns, &tl.q.to_ns, cause) != 0)
		goto out;
	if (store_iter_lanes(s, &tl.q, export_chrome_lane, &tl, cause) != 0 ||
	    export_tracks_load(s, &tl) != 0)
		goto out;
	if (tl.nlanes > 1)
		qsort(tl.lanes, tl.nlanes, sizeof *tl.lanes,
		    export_chrome_lane_cmp);
	export_chrome_lanes_unique(&tl);
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
	if (tl.bad_args > 0)
		log_warnx("%lld spans' args were not a JSON object of valid "
		    "UTF-8 and were left out of the trace",
		    (long long)tl.bad_args);
out:
	export_chrome_release(&tl);
	return rc;
}
