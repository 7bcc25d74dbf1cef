/*
 * The trace-event JSON writer the timeline export and its counter tracks
 * share: trace pids, time stamps and durations as the vendor prints them,
 * the metadata events that name processes and threads, and the start of
 * each event, which opens the next --split-mb slice (through the
 * timeline's slice hook) when the current one is full.
 */
#include <stdlib.h>
#include <string.h>

#include "export-int.h"

int64_t
export_trace_pid(int64_t rank, int layer, int64_t low)
{
	int64_t	 base = rank != NP_NA && rank >= 0 ? rank : 0;

	return (base << 10) | ((int64_t)layer << 5) | (low & 31);
}

/* Epoch ns as the vendor's "ts": microseconds, 3 decimals, a string. */
void
export_trace_ts(struct json *j, int64_t ns)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf, ns, 3, false);
	json_str(j, buf);
}

/* A duration as a JSON number of microseconds, as Python prints floats. */
void
export_trace_dur(struct json *j, int64_t ns)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf - 2, ns > 0 ? ns : 0, 3, true);
	if (strchr(buf, '.') == NULL)
		memcpy(buf + strlen(buf), ".0", 3);
	json_number(j, buf);
}

/* Open an event with the members every one starts with: name, pid, tid. */
static void
export_trace_open(struct json *j, const char *name, int64_t pid,
    int64_t tid)
{
	json_map_open(j);
	json_str(j, "name");
	json_str(j, name);
	json_str(j, "pid");
	json_int(j, pid);
	json_str(j, "tid");
	json_int(j, tid);
}

/* Open an event at TS: name, pid, tid, ts. */
void
export_trace_head(struct json *j, const char *name, int64_t pid,
    int64_t tid, int64_t ts)
{
	export_trace_open(j, name, pid, tid);
	json_str(j, "ts");
	export_trace_ts(j, ts);
}

/* Start slice EF's array; its events are written through TL->json. */
int
export_trace_slice(struct chrome *tl, const char *name)
{
	tl->ef = export_file_open(tl->dir, name, tl->cause);
	if (tl->ef == NULL)
		return -1;
	tl->json = json_open(tl->ef->f);
	tl->events = 0;
	tl->items = 0;
	fputs("[\n", tl->ef->f);
	return 0;
}

/* End the array of the slice being written. */
void
export_trace_end(struct chrome *tl)
{
	fputs("\n]\n", tl->ef->f);
	json_free(tl->json);
	tl->json = NULL;
}

/* Separate the next value of the array from the one before. */
struct json *
export_trace_sep(struct chrome *tl)
{
	if (tl->items++ > 0)
		fputs(",\n", tl->ef->f);
	json_next(tl->json);
	return tl->json;
}

static void
export_trace_meta(struct chrome *tl, const char *name, int64_t pid,
    int64_t tid, const char *key, const char *text, int64_t num)
{
	struct json	*j = export_trace_sep(tl);

	export_trace_open(j, name, pid, tid);
	json_str(j, "ph");
	json_str(j, "M");
	json_str(j, "args");
	json_map_open(j);
	json_str(j, key);
	if (text != NULL)
		json_str(j, text);
	else
		json_int(j, num);
	json_map_close(j);
	json_map_close(j);
}

void
export_trace_process(struct chrome *tl, int64_t pid, const char *name,
    const char *label, int sort)
{
	export_trace_meta(tl, "process_name", pid, 0, "name", name, 0);
	export_trace_meta(tl, "process_labels", pid, 0, "labels", label, 0);
	export_trace_meta(tl, "process_sort_index", pid, 0, "sort_index", NULL,
	    sort);
}

void
export_trace_thread(struct chrome *tl, int64_t pid, int64_t tid,
    const char *name)
{
	export_trace_meta(tl, "thread_name", pid, tid, "name", name, 0);
	export_trace_meta(tl, "thread_sort_index", pid, tid, "sort_index", NULL,
	    tid);
}

/*
 * Start the next event (or flow pair): a new slice first if this one is
 * full. Return the writer to write it with, or NULL with *cause set.
 */
struct json *
export_trace_event(struct chrome *tl)
{
	if (tl->ef != NULL && tl->o->split_bytes > 0 && tl->events > 0 &&
	    ftello(tl->ef->f) >= tl->o->split_bytes) {
		export_trace_end(tl);
		if (export_file_close(tl->ef, tl->cause) != 0)
			return NULL;
		tl->ef = NULL;
	}
	if (tl->ef == NULL && tl->slice(tl) != 0)
		return NULL;
	tl->events++;
	tl->total++;
	return export_trace_sep(tl);
}
