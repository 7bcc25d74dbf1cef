/*
 * MindSpore's own memory pool totals of the raw PROF generator's MindSpore
 * profile (-Z, doc/formats.md section 3.14): cpu_ms_memory_record_<rank>.txt,
 * in FRAMEWORK/ for 2.5 and later and beside it for 2.3 and 2.4, with
 * CANN's GE and APP records around them (gen-prof-mem.c), and the
 * memory_record MindSpore's analysis builds of them, as
 * ms_memory_record.csv.
 *
 * Thirty records span the collection, their nanoseconds ending in zero to
 * three zeros (a microsecond cell drops trailing zeros, as Python's
 * Decimal prints it); two are written out of time order, and GE's third
 * record falls on one's time (GE's row goes first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_MSREC_N	30

/* One record of MindSpore's, as written. */
struct gen_msrec {
	int64_t		 ts;		/* epoch ns */
	int64_t		 b[3];		/* allocated, reserved, active */
};

/* One row to merge: GE's record I, or MindSpore's. */
struct gen_msrec_ev {
	int64_t		 ts;
	size_t		 seq;
	size_t		 i;
	bool		 ge;
};

static int
gen_msrec_ev_cmp(const void *a, const void *b)
{
	const struct gen_msrec_ev	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A row of COMP at the cell TIME, of KB (divided by 1000), on DEV. */
static void
gen_msrec_row(struct strbuf *b, const char *comp, const char *time,
    const double kb[3], const char *dev)
{
	char	 buf[40];
	int	 k;

	strbuf_addf(b, "%s,%s", comp, time);
	for (k = 0; k < 3; k++) {
		util_fmt_pyfloat(buf, sizeof buf, kb[k] / 1000.0);
		strbuf_addf(b, ",%s", buf);
	}
	strbuf_addf(b, ",%s\n", dev);
}

/*
 * The records into V (file order) and their times into P (time order):
 * on host ticks, then moved to end in 0 to 3 zeros, but the thirteenth
 * in time, on which GE's third record falls.
 */
static void
gen_msrec_make(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_msrec *v, struct gen_mem_pta *p)
{
	static const int64_t	 ends[] = { 0, 500, 120, 123 };
	int64_t			 step, ts, pool = 5 << 20;
	size_t			 k, j;

	step = (c->end - c->begin) / (GEN_MSREC_N + 1);
	for (k = 0; k < GEN_MSREC_N; k++) {
		ts = gen_prof_core_align(c, c->begin + (int64_t)(k + 1) *
		    step) + g->local_off;
		if (k != 12)
			ts = ts - ts % 1000 + ends[k % 4];
		pool += (int64_t)(gen_prof_core_rand(g) % 700000) - 300000;
		if (pool < 1 << 20)
			pool = 1 << 20;
		memset(&p[k], 0, sizeof p[k]);
		p[k].ts = ts;
		p[k].seq = k;
		/* Written out of order: the sixth and seventh swap. */
		j = k == 5 ? 6 : k == 6 ? 5 : k;
		v[j].ts = ts;
		v[j].b[0] = pool + 333;
		v[j].b[1] = (pool + (4 << 20)) / (2 << 20) * (2 << 20);
		v[j].b[2] = pool / 2 + 1;
	}
}

/* The expected rows of the records V and CANN's MC, on rank RANK. */
static void
gen_msrec_rows(struct strbuf *b, const struct gen_msrec *v,
    const struct gen_mem_cann *mc, int rank)
{
	struct gen_msrec_ev	*ev;
	double			 last[2][3], kb[3];
	char			 time[40], dev[32];
	size_t			 n = 0, i;
	int			 k, me;

	snprintf(dev, sizeof dev, "NPU:%d", rank);
	ev = xreallocarray(NULL, mc->nge + GEN_MSREC_N, sizeof *ev);
	for (i = 0; i < mc->nge; i++, n++)
		ev[n] = (struct gen_msrec_ev){ mc->ge[i].ts, n, i, true };
	for (i = 0; i < GEN_MSREC_N; i++, n++)
		ev[n] = (struct gen_msrec_ev){ v[i].ts, n, i, false };
	qsort(ev, n, sizeof *ev, gen_msrec_ev_cmp);
	memset(last, 0, sizeof last);
	for (i = 0; i < n; i++) {
		me = ev[i].ge ? 0 : 1;
		if (ev[i].ge) {
			kb[0] = gen_prof_mem_kb(mc->ge[ev[i].i].allocated);
			kb[1] = gen_prof_mem_kb(mc->ge[ev[i].i].reserved);
			kb[2] = 0.0;
			util_fmt_us(time, sizeof time, ev[i].ts, 3, false);
			gen_msrec_row(b, "GE", time, kb, "NPU:0");
		} else {
			for (k = 0; k < 3; k++)
				kb[k] = (double)v[ev[i].i].b[k] / 1024.0;
			util_fmt_us(time, sizeof time, ev[i].ts, 3, true);
			gen_msrec_row(b, "MindSpore", time, kb, dev);
		}
		memcpy(last[me], kb, sizeof kb);
		for (k = 0; k < 3; k++)
			kb[k] += last[1 - me][k];
		gen_msrec_row(b, "MindSpore+GE", time, kb, dev);
	}
	free(ev);
	for (i = 0; i < mc->napp; i++) {
		kb[0] = kb[2] = 0.0;
		kb[1] = gen_prof_mem_kb(mc->app[i].bytes);
		util_fmt_us(time, sizeof time, mc->app[i].ts, 3, false);
		gen_msrec_row(b, "APP", time, kb, dev);
	}
}

/*
 * CANN's records MC as msprof's CSVs would give them, for a check against
 * MindSpore's own analysis: ms_cann_memory.txt of GE|time cell|allocated
 * bytes|reserved bytes|device and APP|time cell|bytes lines.
 */
static int
gen_msrec_cann(const struct gen_mem_cann *mc, const char *expect,
    char **cause)
{
	struct strbuf	 b;
	char		 time[40];
	size_t		 i;
	int		 rc;

	strbuf_init(&b);
	for (i = 0; i < mc->nge; i++) {
		util_fmt_us(time, sizeof time, mc->ge[i].ts, 3, false);
		strbuf_addf(&b, "GE|%s|%lld|%lld|0\n", time,
		    (long long)mc->ge[i].allocated,
		    (long long)mc->ge[i].reserved);
	}
	for (i = 0; i < mc->napp; i++) {
		util_fmt_us(time, sizeof time, mc->app[i].ts, 3, false);
		strbuf_addf(&b, "APP|%s|%lld\n", time,
		    (long long)mc->app[i].bytes);
	}
	rc = gen_prof_bin_write(expect, "ms_cann_memory.txt", b.s, b.len,
	    cause);
	strbuf_release(&b);
	return rc;
}

/*
 * Write MindSpore's pool totals of rank RANK into DIR, and CANN's memory
 * records into the collection ROOT; the expected memory_record and
 * CANN's records as msprof's CSVs hold them into EXPECT if set.
 */
int
gen_prof_msrec(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *dir, const char *root, int rank, const char *expect,
    char **cause)
{
	struct gen_msrec	 v[GEN_MSREC_N];
	struct gen_mem_pta	 p[GEN_MSREC_N];
	struct gen_mem_cann	 mc;
	struct strbuf		 file, rows, ops;
	char			 name[64];
	size_t			 i;
	int			 rc;

	memset(&mc, 0, sizeof mc);
	gen_msrec_make(g, c, v, p);
	strbuf_init(&file);
	strbuf_init(&rows);
	strbuf_init(&ops);
	strbuf_adds(&file, "Timestamp(ns),Total Allocated(Byte),"
	    "Total Reserved(Byte),Total Active(Byte)\n");
	for (i = 0; i < GEN_MSREC_N; i++)
		strbuf_addf(&file, "%lld,%lld,%lld,%lld\n", (long long)v[i].ts,
		    (long long)v[i].b[0], (long long)v[i].b[1],
		    (long long)v[i].b[2]);
	snprintf(name, sizeof name, "cpu_ms_memory_record_%d.txt", rank);
	rc = gen_prof_bin_write(dir, name, file.s, file.len, cause);
	if (rc == 0)
		rc = gen_prof_mem_cann(g, c, root, p, GEN_MSREC_N, &mc, &ops,
		    cause);
	strbuf_adds(&rows, "Component,Timestamp(us),Total Allocated(MB),"
	    "Total Reserved(MB),Total Active(MB),Device Type\n");
	gen_msrec_rows(&rows, v, &mc, rank);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_memory_record.csv", rows.s,
		    rows.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_msrec_cann(&mc, expect, cause);
	free(mc.ge);
	free(mc.app);
	strbuf_release(&file);
	strbuf_release(&rows);
	strbuf_release(&ops);
	return rc;
}
