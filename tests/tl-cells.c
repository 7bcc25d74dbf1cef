/*
 * tl-cells: print what the timeline queries return for a store, for the
 * tests to compare with the truth they compute themselves, and time the
 * frames for bench/timeline.sh.
 *
 *   tl-cells DB lanes
 *   tl-cells DB cells LANE T0 T1 W
 *   tl-cells DB bench W LANES FRAMES [spans]
 *   tl-cells DB cold W LANES [spans]
 *
 * bench draws FRAMES frames of W cells over the first LANES lanes at each
 * zoom level from the whole extent down to about 1 us a cell (4x per
 * level), each at a pseudo-random position, and prints the p50, p99 and
 * worst frame time per level, and the p50 and p99 of the CPU time (this
 * process's, system time included), which a loaded machine inflates less.
 * cold does the same with one frame per zoom level, each right after the
 * store is opened again (so SQLite's page cache is empty), and prints its
 * CPU time: what the first frame after opening a store costs. With
 * spans, a frame also reads the spans of each lane as the timeline view
 * does (at most W / 2, with their names).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"

static int64_t
tl_num(const char *s)
{
	return strtoll(s, NULL, 10);
}

static int
tl_lanes(struct store *s)
{
	struct store_lane	*l;
	size_t			 n, i;
	char			*cause = NULL;

	if (store_lanes(s, &l, &n, &cause) != 0) {
		fprintf(stderr, "tl-cells: %s\n", cause);
		return 1;
	}
	for (i = 0; i < n; i++)
		printf("%lld\t%d\t%s\t%s\t%lld\t%lld\t%lld\t%lld\n",
		    (long long)l[i].id, (int)l[i].kind, l[i].name, l[i].group,
		    (long long)l[i].stream, (long long)l[i].nspans,
		    (long long)l[i].start_ns, (long long)l[i].end_ns);
	store_lanes_free(l, n);
	return 0;
}

static int
tl_cells(struct store *s, int64_t lane, int64_t t0, int64_t t1, size_t w)
{
	struct store_cell	*c;
	size_t			 i;
	char			*cause = NULL;

	struct store_lane	*l = NULL;
	size_t			 n = 0;
	int			 rc = 0;

	c = xcalloc(w, sizeof *c);
	if (lane < 0) {
		/* A counter lane: its series is in the lane list. */
		if (store_lanes(s, &l, &n, &cause) == 0) {
			for (i = 0; i < n && l[i].id != lane; i++)
				;
			if (i == n)
				xasprintf(&cause, "no lane %lld",
				    (long long)lane);
			else
				rc = store_counter_lanes_cells(s, &l[i], t0, t1,
				    w, c, &cause);
			if (i == n)
				rc = -1;
		} else
			rc = -1;
		store_lanes_free(l, n);
	} else
		rc = store_timeline_cells(s, lane, t0, t1, w, c, &cause);
	if (rc != 0) {
		fprintf(stderr, "tl-cells: %s\n", cause);
		free(c);
		return 1;
	}
	for (i = 0; i < w; i++) {
		printf("%zu\t%lld\t%lld\t%lld\t%lld\t%s", i,
		    (long long)store_timeline_cell_edge(t0, t1, w, i),
		    (long long)store_timeline_cell_edge(t0, t1, w, i + 1),
		    (long long)c[i].busy_ns, (long long)c[i].spans,
		    lane < 0 ? (c[i].type < 0 ? "none" : "value") :
		    store_lanes_type_name(c[i].type));
		if (lane < 0 && c[i].type >= 0)
			printf("\t%.17g", c[i].value);
		printf("\n");
	}
	free(c);
	return 0;
}

static double
tl_now(clockid_t clock)
{
	struct timespec	 ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The time the first NLANES of the N lanes L cover, into *LO and *HI;
 * return how many lanes that is.
 */
static size_t
tl_extent(const struct store_lane *l, size_t n, size_t nlanes, int64_t *lo,
    int64_t *hi)
{
	size_t	 i;

	if (nlanes > n)
		nlanes = n;
	for (i = 0; i < nlanes; i++) {
		if (l[i].start_ns < *lo)
			*lo = l[i].start_ns;
		if (l[i].end_ns > *hi)
			*hi = l[i].end_ns;
	}
	return nlanes;
}

static int
tl_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Print the peak resident size and what is resident now, anonymous memory
 * apart from mapped store pages (which the OS cache holds anyway), where
 * /proc tells.
 */
static void
tl_memory(void)
{
	FILE	*f;
	char	 line[256];

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "VmHWM:", 6) == 0 ||
		    strncmp(line, "RssAnon:", 8) == 0 ||
		    strncmp(line, "RssFile:", 8) == 0)
			printf("%s", line);
	}
	fclose(f);
}

/* Whether bench and cold also read the spans, as the timeline view does. */
static int	 tl_with_spans;

/* One frame over LANES[0..N): the cells and, with spans, the spans. */
static int
tl_frame(struct store *s, const struct store_lane *l, size_t n, int64_t t0,
    int64_t t1, size_t w, struct store_cell *c)
{
	struct store_span	*v;
	size_t			 j, k, nv;
	char			*cause = NULL;

	for (j = 0; j < n; j++) {
		if (store_timeline_cells(s, l[j].id, t0, t1, w, c,
		    &cause) != 0 ||
		    (tl_with_spans && store_spans_of_lane(s, l[j].id, t0, t1,
		    w / 2, &v, &nv, &cause) != 0)) {
			fprintf(stderr, "tl-cells: %s\n", cause);
			free(cause);
			return -1;
		}
		if (!tl_with_spans)
			continue;
		for (k = 0; k < nv; k++)
			store_spans_release(&v[k]);
		free(v);
	}
	return 0;
}

static int
tl_bench(struct store *s, size_t w, size_t nlanes, size_t frames)
{
	struct store_lane	*l;
	struct store_cell	*c;
	double			*ms, *cpu, t, c0;
	int64_t			 lo = INT64_MAX, hi = INT64_MIN, span, t0;
	uint64_t		 rng = 88172645463325252ULL;
	size_t			 n, i;
	char			*cause = NULL;

	if (store_lanes(s, &l, &n, &cause) != 0) {
		fprintf(stderr, "tl-cells: %s\n", cause);
		return 1;
	}
	nlanes = tl_extent(l, n, nlanes, &lo, &hi);
	c = xcalloc(w, sizeof *c);
	ms = xcalloc(frames, sizeof *ms);
	cpu = xcalloc(frames, sizeof *cpu);
	printf("%zu cells x %zu lanes, %zu frames per zoom level\n", w,
	    nlanes, frames);
	printf("%-14s %10s %10s %10s %10s %10s\n", "ns per cell", "p50 ms",
	    "p99 ms", "max ms", "cpu p50", "cpu p99");
	for (span = hi - lo + 1; span >= (int64_t)w * 1000; span /= 4) {
		for (i = 0; i < frames; i++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			t0 = lo + (int64_t)(rng % (uint64_t)(hi - lo - span
			    + 2));
			t = tl_now(CLOCK_MONOTONIC);
			c0 = tl_now(CLOCK_PROCESS_CPUTIME_ID);
			if (tl_frame(s, l, nlanes, t0, t0 + span, w, c) != 0)
				return 1;
			ms[i] = (tl_now(CLOCK_MONOTONIC) - t) * 1000;
			cpu[i] = (tl_now(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1000;
		}
		qsort(ms, frames, sizeof *ms, tl_cmp);
		qsort(cpu, frames, sizeof *cpu, tl_cmp);
		printf("%-14lld %10.2f %10.2f %10.2f %10.2f %10.2f\n",
		    (long long)(span / (int64_t)w), ms[frames / 2],
		    ms[(frames * 99) / 100], ms[frames - 1], cpu[frames / 2],
		    cpu[(frames * 99) / 100]);
	}
	tl_memory();
	free(ms);
	free(cpu);
	free(c);
	store_lanes_free(l, n);
	return 0;
}

/* One frame per zoom level, each on a freshly opened store. */
static int
tl_cold(const char *path, size_t w, size_t nlanes)
{
	struct store		*s;
	struct store_lane	*l;
	struct store_cell	*c;
	double			 t, c0;
	int64_t			 lo = INT64_MAX, hi = INT64_MIN, span, t0;
	size_t			 n, i;
	char			*cause = NULL;

	if ((s = store_open(path, &cause)) == NULL ||
	    store_lanes(s, &l, &n, &cause) != 0) {
		fprintf(stderr, "tl-cells: %s\n", cause);
		return 1;
	}
	store_free(s);
	nlanes = tl_extent(l, n, nlanes, &lo, &hi);
	c = xcalloc(w, sizeof *c);
	printf("cold: %zu cells x %zu lanes, the first frame after opening\n",
	    w, nlanes);
	printf("%-14s %10s %10s\n", "ns per cell", "ms", "cpu ms");
	for (span = hi - lo + 1, i = 0; span >= (int64_t)w * 1000;
	    span /= 4, i++) {
		if ((s = store_open(path, &cause)) == NULL) {
			fprintf(stderr, "tl-cells: %s\n", cause);
			return 1;
		}
		/* Somewhere new each time, away from the trace's start. */
		t0 = lo + (int64_t)((uint64_t)(hi - lo - span + 1) *
		    (i % 7) / 7);
		t = tl_now(CLOCK_MONOTONIC);
		c0 = tl_now(CLOCK_PROCESS_CPUTIME_ID);
		if (tl_frame(s, l, nlanes, t0, t0 + span, w, c) != 0)
			return 1;
		printf("%-14lld %10.2f %10.2f\n",
		    (long long)(span / (int64_t)w),
		    (tl_now(CLOCK_MONOTONIC) - t) * 1000,
		    (tl_now(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1000);
		store_free(s);
	}
	free(c);
	store_lanes_free(l, n);
	return 0;
}

int
main(int argc, char **argv)
{
	struct store	*s;
	char		*cause = NULL;
	int		 rc = 2;

	if (argc < 3) {
		fprintf(stderr, "usage: tl-cells DB lanes|cells|bench|cold"
		    " ...\n");
		return 2;
	}
	if (argc > 3 && strcmp(argv[argc - 1], "spans") == 0) {
		tl_with_spans = 1;
		argc--;
	}
	if (strcmp(argv[2], "cold") == 0 && argc == 5)
		return tl_cold(argv[1], (size_t)tl_num(argv[3]),
		    (size_t)tl_num(argv[4]));
	if ((s = store_open(argv[1], &cause)) == NULL) {
		fprintf(stderr, "tl-cells: %s\n", cause);
		return 1;
	}
	if (strcmp(argv[2], "lanes") == 0)
		rc = tl_lanes(s);
	else if (strcmp(argv[2], "cells") == 0 && argc == 7)
		rc = tl_cells(s, tl_num(argv[3]), tl_num(argv[4]),
		    tl_num(argv[5]), (size_t)tl_num(argv[6]));
	else if (strcmp(argv[2], "bench") == 0 && argc == 6)
		rc = tl_bench(s, (size_t)tl_num(argv[3]),
		    (size_t)tl_num(argv[4]), (size_t)tl_num(argv[5]));
	else
		fprintf(stderr, "tl-cells: bad arguments\n");
	store_free(s);
	return rc;
}
