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
export_trace_ts(FILE *f, int64_t ns)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf, ns, 3, false);
	fprintf(f, "\"%s\"", buf);
}

/* A duration as a JSON number of microseconds, as Python prints floats. */
void
export_trace_dur(FILE *f, int64_t ns)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf, ns > 0 ? ns : 0, 3, true);
	fprintf(f, "%s%s", buf, strchr(buf, '.') == NULL ? ".0" : "");
}

/* Separate the next value of the array from the one before. */
FILE *
export_trace_sep(struct chrome *tl)
{
	if (tl->items++ > 0)
		fputs(",\n", tl->ef->f);
	return tl->ef->f;
}

static void
export_trace_meta(struct chrome *tl, const char *name, int64_t pid,
    int64_t tid, const char *key, const char *text, int64_t num)
{
	FILE	*f = export_trace_sep(tl);

	fprintf(f, "{\"name\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"ph\":\"M\","
	    "\"args\":{\"%s\":", name, (long long)pid, (long long)tid, key);
	if (text != NULL)
		util_json_string(f, text);
	else
		fprintf(f, "%lld", (long long)num);
	fputs("}}", f);
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
 * full. Return the file to write it to, or NULL with *cause set.
 */
FILE *
export_trace_event(struct chrome *tl)
{
	if (tl->ef != NULL && tl->o->split_bytes > 0 && tl->events > 0 &&
	    ftello(tl->ef->f) >= tl->o->split_bytes) {
		fputs("\n]\n", tl->ef->f);
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
