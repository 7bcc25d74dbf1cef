/*
 * Task id flips: each stream's times at which its 16-bit task ids wrapped
 * round (ts_track tag 14 on the device, task_track flip records on the
 * host, doc/formats.md section 4.6). A task's batch id is the number of
 * flips of its stream before it; device logs and host tasks both count
 * them through this one index.
 */
#include <stdlib.h>

#include "prof-int.h"

static int
prof_flips_cmp(const void *a, const void *b)
{
	const uint64_t	*x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* A flip index with no flips: one list per possible stream id. */
struct prof_flips *
prof_flips_create(void)
{
	return xcalloc(PROF_FLIPS_STREAMS, sizeof (struct prof_flips));
}

/* Add a flip of STREAM at TS to FL. */
void
prof_flips_add(struct prof_flips *fl, uint32_t stream, uint64_t ts)
{
	struct prof_flips	*p = &fl[stream % PROF_FLIPS_STREAMS];

	p->ts = util_grow(p->ts, p->n, 1, sizeof *p->ts);
	p->ts[p->n++] = ts;
}

/* Sort each stream's flips, once all are added. */
void
prof_flips_sort(struct prof_flips *fl)
{
	size_t	 i;

	for (i = 0; i < PROF_FLIPS_STREAMS; i++) {
		if (fl[i].n > 1)
			qsort(fl[i].ts, fl[i].n, sizeof *fl[i].ts,
			    prof_flips_cmp);
	}
}

/* The batch id of a task of STREAM at TS: its stream's flips before TS. */
uint16_t
prof_flips_batch(const struct prof_flips *fl, uint32_t stream, uint64_t ts)
{
	const struct prof_flips	*p = &fl[stream % PROF_FLIPS_STREAMS];

	return (uint16_t)util_count_below(p->ts, p->n, ts);
}

void
prof_flips_free(struct prof_flips *fl)
{
	size_t	 i;

	if (fl == NULL)
		return;
	for (i = 0; i < PROF_FLIPS_STREAMS; i++)
		free(fl[i].ts);
	free(fl);
}
