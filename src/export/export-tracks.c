/*
 * The counter tracks of the timeline export: each process of counters
 * (AI Core Freq, HBM, NPU MEM, QoS, ...) keeps the name, labels and sort
 * index its trace gave it and gets a trace pid built as the vendor builds
 * them, with its sort index as the layer; each sample time of a track is
 * one "C" event whose args hold the values of all its keys, in the order
 * they were read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export-int.h"

/* The layers export-chrome.c gives its own processes. */
#define TRACKS_FIRST_FREE	24
#define TRACKS_LAST_LAYER	31

/* The samples of the event being written. */
struct tracks_walk {
	struct chrome	*tl;
	int64_t		 rank;
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 ts;
	char		*name;
	size_t		 track;		/* of the last sample */
};

static bool
export_tracks_taken(int layer)
{
	return layer == 6 || layer == 7 || layer == 13;
}

static int
export_tracks_add(void *arg, const struct store_track *t)
{
	struct chrome		*tl = arg;
	struct chrome_track	*k;
	int			 layer;

	tl->tracks = xreallocarray(tl->tracks, tl->ntracks + 1,
	    sizeof *tl->tracks);
	k = &tl->tracks[tl->ntracks++];
	k->rank = t->rank;
	k->pid = t->pid;
	k->process = xstrdup(t->process != NULL ? t->process : "Counters");
	k->labels = xstrdup(t->labels != NULL ? t->labels : "NPU");
	k->sort = t->sort;
	if (t->sort != NP_NA && t->sort >= 0 && t->sort <= TRACKS_LAST_LAYER &&
	    !export_tracks_taken((int)t->sort))
		layer = (int)t->sort;
	else {
		layer = TRACKS_FIRST_FREE + (int)(tl->ntracks - 1) %
		    (TRACKS_LAST_LAYER - TRACKS_FIRST_FREE + 1);
		if (k->sort == NP_NA)
			k->sort = layer;
	}
	k->out = export_trace_pid(t->rank, layer, t->device != NP_NA &&
	    t->device != NP_HOST_DEVICE ? t->device : 0);
	return 0;
}

/*
 * Gather the processes of the counters TL's query selects. On failure
 * return -1 and set TL's *cause.
 */
int
export_tracks_load(struct store *s, struct chrome *tl)
{
	return store_counters_tracks(s, &tl->q, export_tracks_add, tl,
	    tl->cause);
}

/* Name the counter processes, after the other metadata of a slice. */
void
export_tracks_metadata(struct chrome *tl)
{
	const struct chrome_track	*k;
	size_t				 i, j;

	for (i = 0; i < tl->ntracks; i++) {
		k = &tl->tracks[i];
		for (j = 0; j < i && tl->tracks[j].out != k->out; j++)
			;
		if (j == i)
			export_trace_process(tl, k->out, k->process, k->labels,
			    (int)k->sort);
	}
}

void
export_tracks_free(struct chrome *tl)
{
	size_t	 i;

	for (i = 0; i < tl->ntracks; i++) {
		free(tl->tracks[i].process);
		free(tl->tracks[i].labels);
	}
	free(tl->tracks);
	tl->tracks = NULL;
	tl->ntracks = 0;
}

/*
 * A double as JSON: a whole number as an integer, as the vendor writes
 * them, else the shortest text that reads back the same.
 */
static void
export_tracks_value(struct json *j, double v)
{
	char	 buf[64];
	int	 prec;

	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, sizeof buf, "%.0f", v);
		json_number(j, buf);
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof buf, "%.*g", prec, v);
	if (!json_number(j, buf))
		json_null(j);
}

/* End the open "C" event: its args, then itself. */
static void
export_tracks_close(struct chrome *tl)
{
	json_map_close(tl->json);
	json_map_close(tl->json);
	tl->open = false;
}

/* The written pid of the counter process (RANK, PID). */
static int64_t
export_tracks_pid(struct tracks_walk *w, int64_t rank, int64_t pid)
{
	struct chrome	*tl = w->tl;
	size_t		 i;

	if (w->track < tl->ntracks && tl->tracks[w->track].pid == pid &&
	    tl->tracks[w->track].rank == rank)
		return tl->tracks[w->track].out;
	for (i = 0; i < tl->ntracks; i++) {
		if (tl->tracks[i].pid == pid && tl->tracks[i].rank == rank) {
			w->track = i;
			return tl->tracks[i].out;
		}
	}
	return pid;
}

static int
export_tracks_sample(void *arg, const struct store_counter *c)
{
	struct tracks_walk	*w = arg;
	struct json		*j;
	const char		*name = c->name != NULL ? c->name : "";

	if (!w->tl->open || c->rank != w->rank || c->pid != w->pid ||
	    c->tid != w->tid || c->ts_ns != w->ts || strcmp(name,
	    w->name) != 0) {
		if (w->tl->open)
			export_tracks_close(w->tl);
		if ((j = export_trace_event(w->tl)) == NULL)
			return -1;
		w->tl->open = true;
		w->rank = c->rank;
		w->pid = c->pid;
		w->tid = c->tid;
		w->ts = c->ts_ns;
		free(w->name);
		w->name = xstrdup(name);
		export_trace_head(j, name, export_tracks_pid(w, c->rank,
		    c->pid), c->tid != NP_NA ? c->tid : 0, c->ts_ns);
		json_str(j, "ph");
		json_str(j, "C");
		json_str(j, "args");
		json_map_open(j);
	} else
		j = w->tl->json;
	json_str(j, c->key != NULL ? c->key : "value");
	export_tracks_value(j, c->value);
	return 0;
}

/*
 * Write the counter samples TL's query selects as "C" events. On failure
 * return -1 and set TL's *cause.
 */
int
export_tracks_write(struct store *s, struct chrome *tl)
{
	struct tracks_walk	 w;
	int			 rc;

	memset(&w, 0, sizeof w);
	w.tl = tl;
	w.track = (size_t)-1;
	rc = store_counters_each(s, &tl->q, export_tracks_sample, &w,
	    tl->cause);
	if (tl->open && tl->ef != NULL)
		export_tracks_close(tl);
	tl->open = false;
	free(w.name);
	return rc;
}
