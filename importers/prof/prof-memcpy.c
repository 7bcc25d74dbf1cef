/*
 * memcpy_info records (doc/formats.md section 3.5) shared out over the
 * MEMCPY_ASYNC host tasks, as the vendor does: a record belongs to the
 * tasks of the same thread and time stamp; taken in (batch, task) order,
 * each task copies at most the record's maxSize of what is left, a task
 * with nothing left or no record copies 0 bytes in direction "other".
 * The layout is the producer's and the C++ analysis's (u64 dataSize @24,
 * u64 maxSize @32, u16 direction @40, dataLen 18); a record of dataLen 10
 * has the older layout (direction @32, no maxSize: one task copies it
 * all). Table memcpy_info gets one row per task, with the times of its
 * device task when one joined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_MEMCPY_OTHER	65535

static const char *const prof_memcpy_dirs[] = {
	"host to host", "host to device", "device to host",
	"device to device", "managed memory", "addr device to device",
	"host to device ex", "device to host ex"
};

struct prof_memcpy_sort {
	uint16_t	 batch;
	uint32_t	 task;
	uint32_t	 track;
};

static int
prof_memcpy_cmp(const void *a, const void *b)
{
	const struct prof_memcpy_sort	*x = a, *y = b;

	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

/* The last memcpy_info record of thread TID at TS, or -1. */
static ssize_t
prof_memcpy_find(const struct prof_recs *x, uint32_t tid, uint64_t ts)
{
	size_t	 lo = 0, hi = x->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (x->ix[mid].tid < tid || (x->ix[mid].tid == tid &&
		    x->ix[mid].ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || x->ix[lo - 1].tid != tid || x->ix[lo - 1].ts != ts)
		return -1;
	return (ssize_t)(lo - 1);
}

/* Share record J (thread and time order) out to task M. */
static void
prof_memcpy_share(struct prof_host *h, ssize_t j, struct prof_memcpy *mc)
{
	const struct prof_recs	*x = &h->extra[PX_MEMCPY];
	const unsigned char	*r;
	uint64_t		 max, *left;
	uint16_t		 dir;

	mc->size = 0;
	mc->dir = PROF_MEMCPY_OTHER;
	if (j < 0)
		return;
	r = prof_extra_rec(x, (size_t)j);
	left = &h->mc_left[x->ix[j].i];
	if (importer_le32(r + 12) >= 18) {
		max = importer_le64(r + 32);
		dir = importer_le16(r + 40);
	} else {
		max = *left;
		dir = importer_le16(r + 32);
	}
	if (*left == 0)
		return;
	if (*left <= max) {
		mc->size = *left;
		*left = 0;
	} else {
		mc->size = max;
		*left -= max;
	}
	if (dir < sizeof prof_memcpy_dirs / sizeof prof_memcpy_dirs[0])
		mc->dir = dir;
}

/* True if runtime task type TYPE is MEMCPY_ASYNC. */
static bool
prof_memcpy_is(const struct prof_host *h, uint32_t type)
{
	char	 buf[32];

	return strcmp(prof_dict_type(&h->dicts, PROF_LEVEL_RUNTIME, type, buf,
	    sizeof buf), "MEMCPY_ASYNC") == 0;
}

/*
 * Find the copy of every MEMCPY_ASYNC host task of DEVICE; the tasks must
 * have their batch ids (prof-join.c). Without any memcpy_info record
 * (older runtimes) there is nothing to say of the copies: no rows.
 */
void
prof_memcpy_plan(struct prof_host *h, int64_t device)
{
	const struct prof_recs	*x = &h->extra[PX_MEMCPY];
	struct prof_memcpy_sort	*v;
	struct prof_memcpy	*mc;
	const struct prof_track	*t;
	size_t			 i, n = 0;

	if (x->n == 0)
		return;
	if (h->mc_left == NULL) {
		h->mc_left = xreallocarray(NULL, x->n + 1, sizeof *h->mc_left);
		for (i = 0; i < x->n; i++)
			h->mc_left[i] = importer_le64(x->v + i * x->size + 24);
	}
	v = xreallocarray(NULL, h->ntracks + 1, sizeof *v);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		if (t->device != device || !prof_memcpy_is(h, t->type))
			continue;
		v[n].batch = t->batch;
		v[n].task = t->task;
		v[n++].track = (uint32_t)i;
	}
	qsort(v, n, sizeof *v, prof_memcpy_cmp);
	for (i = 0; i < n; i++) {
		t = &h->tracks[v[i].track];
		h->mcs = util_grow(h->mcs, h->nmcs, 1, sizeof *h->mcs);
		mc = &h->mcs[h->nmcs];
		mc->track = v[i].track;
		mc->start_ns = mc->dur_ns = NP_NA;
		prof_memcpy_share(h, prof_memcpy_find(x, t->tid, t->ts), mc);
		util_map_set(&h->mc_map, v[i].track, h->nmcs++);
	}
	free(v);
}

/* The device task of host task TRACK ran from START_NS for DUR_NS. */
void
prof_memcpy_task(struct prof_host *h, uint64_t track, int64_t start_ns,
    int64_t dur_ns)
{
	uint64_t	 j;

	if (h->nmcs == 0 || !util_map_get(&h->mc_map, track, &j))
		return;
	h->mcs[j].start_ns = start_ns;
	h->mcs[j].dur_ns = dur_ns;
}

static void
prof_memcpy_row(struct prof_row *row, const struct prof_host *h,
    const struct prof_memcpy *mc)
{
	const struct prof_track	*t = &h->tracks[mc->track];

	prof_extra_row_u64(row, t->device);
	prof_extra_row_u64(row, t->tid);
	prof_extra_row_u64(row, t->stream);
	prof_extra_row_u64(row, t->task);
	prof_extra_row_u64(row, t->batch);
	if (mc->start_ns == NP_NA) {
		prof_extra_row_str(row, "N/A");
		prof_extra_row_str(row, "N/A");
	} else {
		prof_extra_row_us(row, mc->start_ns);
		prof_extra_row_us(row, mc->dur_ns);
	}
	prof_extra_row_u64(row, mc->size);
	if (mc->start_ns == NP_NA)
		prof_extra_row_str(row, "N/A");
	else {
		snprintf(row->buf[row->n], sizeof row->buf[0], "%.3f",
		    mc->dur_ns > 0 ? (double)mc->size / (double)mc->dur_ns :
		    0.0);
		prof_extra_row_str(row, row->buf[row->n]);
	}
	prof_extra_row_str(row, mc->dir == PROF_MEMCPY_OTHER ? "other" :
	    prof_memcpy_dirs[mc->dir]);
}

/* Write the memcpy_info rows of DEVICE's MEMCPY_ASYNC tasks. */
void
prof_memcpy_load(struct store *s, struct prof_host *h, int64_t device,
    int64_t rank)
{
	static const char *const cols[] = { "Device_id", "Thread ID",
	    "Stream ID", "Task ID", "Batch ID", "Task Start Time(us)",
	    "Task Duration(us)", "Size(B)", "Bandwidth(GB/s)", "Operation" };
	struct prof_row		 row;
	size_t			 i;
	bool			 begun = false;

	memset(&row, 0, sizeof row);
	for (i = 0; i < h->nmcs; i++) {
		if (h->tracks[h->mcs[i].track].device != device)
			continue;
		if (!begun && !(begun = prof_extra_table_begin(s, "memcpy_info",
		    device, rank, cols, sizeof cols / sizeof cols[0])))
			return;
		prof_memcpy_row(&row, h, &h->mcs[i]);
		prof_extra_row_load(s, &row);
	}
}
