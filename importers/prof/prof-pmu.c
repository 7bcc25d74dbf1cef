/*
 * Task-based AI Core PMU (doc/formats.md section 5): the context-level records
 * of ffts_profile.data (STARS chips) or the records of aicore.data (HWTS
 * chips) are matched to device tasks on (stream, task, context) in time
 * order, and turned into op_summary's PMU columns: the total cycles, the
 * AI Core time of section 5.3 and, for the PipeUtilization event set, the
 * vector, cube (mac), scalar and MTE ratios and times and the icache miss
 * rate, for ArithmeticUtilization the cube and vector ratios by data type
 * and their operation counts. Counters map to the event ids of
 * sample.json in their order; times use the AI Core frequency in effect
 * at the record's end (prof-freq.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* PipeUtilization: column stem and event id, in the vendor's order. */
static const struct {
	const char	*name;
	int		 event;
} prof_pmu_pipe[] = {
	{ "vec", 0x8 }, { "mac", 0xa }, { "scalar", 0x9 }, { "mte1", 0xb },
	{ "mte2", 0xc }, { "mte3", 0xd }
};

#define PROF_PMU_NPIPE	(sizeof prof_pmu_pipe / sizeof prof_pmu_pipe[0])

/*
 * ArithmeticUtilization: the ratio columns in the vendor's order, each
 * the sum of up to two events over the total cycles (vec_fp16 counts the
 * 128-lane and 64-lane events), then cube_fops and vector_fops.
 */
static const struct {
	const char	*name;
	int		 event[2];
} prof_pmu_arith[] = {
	{ "mac_fp16_ratio", { 0x49, 0 } }, { "mac_int8_ratio", { 0x4a, 0 } },
	{ "vec_fp32_ratio", { 0x4b, 0 } }, { "vec_fp16_ratio", { 0x4c, 0x4d } },
	{ "vec_int32_ratio", { 0x4e, 0 } }, { "vec_misc_ratio", { 0x4f, 0 } }
};

#define PROF_PMU_NARITH	(sizeof prof_pmu_arith / sizeof prof_pmu_arith[0])

/*
 * Operations per event as the vendor's C++ analysis counts them: a cube
 * instruction is a 16x16x16 (fp16) or 16x16x32 (int8) multiply-add, a
 * vector one 128 (fp16, 128 lanes), 64 (fp16 64 lanes, fp32, int32) or 32
 * (other) operations; on the V3 chips (platform_version 2-4, 310P) int32
 * and other vector instructions count 16.
 */
static const struct {
	int		 event;
	double		 ops;
	double		 ops_v3;
	bool		 cube;
} prof_pmu_fops[] = {
	{ 0x49, 16.0 * 16 * 16 * 2, 16.0 * 16 * 16 * 2, true },
	{ 0x4a, 16.0 * 16 * 32 * 2, 16.0 * 16 * 32 * 2, true },
	{ 0x4b, 64, 64, false }, { 0x4c, 128, 128, false },
	{ 0x4d, 64, 64, false }, { 0x4e, 64, 16, false },
	{ 0x4f, 32, 16, false }
};

#define PROF_PMU_NFOPS	(sizeof prof_pmu_fops / sizeof prof_pmu_fops[0])

static uint64_t
prof_pmu_key(uint32_t stream, uint32_t task, uint32_t context)
{
	return (uint64_t)(stream & 0xFFFF) << 48 | (uint64_t)(task & 0xFFFF) <<
	    16 | (context & 0xFFFF);
}

static int
prof_pmu_cmp(const void *a, const void *b)
{
	const struct prof_pmu_rec	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The counter index of event EV, or -1. */
static int
prof_pmu_counter(const struct prof_pmu *p, int ev)
{
	int	 i;

	for (i = 0; i < p->nevents; i++) {
		if (p->events[i] == ev)
			return i;
	}
	return -1;
}

/* Parse the event list ("0x8,0xa,...") and name the columns. */
static void
prof_pmu_columns(struct prof_pmu *p, const char *events, const char *metric)
{
	struct strbuf	*b = &p->names;
	const char	*e = events;
	char		*end, name[64];
	size_t		 i;

	while (e != NULL && *e != '\0' && p->nevents < DEV_PMU_COUNTERS) {
		p->events[p->nevents++] = (int)strtol(e, &end, 16);
		e = strchr(end, ',') != NULL ? strchr(end, ',') + 1 : NULL;
	}
	p->pipe = metric != NULL && strcmp(metric, "PipeUtilization") == 0 &&
	    prof_pmu_counter(p, 0x54) >= 0 && prof_pmu_counter(p, 0x55) >= 0;
	for (i = 0; p->pipe && i < PROF_PMU_NPIPE; i++)
		p->pipe = prof_pmu_counter(p, prof_pmu_pipe[i].event) >= 0;
	p->arith = metric != NULL &&
	    strcmp(metric, "ArithmeticUtilization") == 0;
	for (i = 0; p->arith && i < PROF_PMU_NFOPS; i++)
		p->arith = prof_pmu_counter(p, prof_pmu_fops[i].event) >= 0;
	strbuf_reset(b);
	store_pmu_name(b, "aicore_time(us)");
	store_pmu_name(b, "total_cycles");
	if (p->arith) {
		for (i = 0; i < PROF_PMU_NARITH; i++)
			store_pmu_name(b, prof_pmu_arith[i].name);
		store_pmu_name(b, "cube_fops");
		store_pmu_name(b, "vector_fops");
	} else if (p->pipe) {
		for (i = 0; i < PROF_PMU_NPIPE; i++) {
			snprintf(name, sizeof name, "%s_time(us)",
			    prof_pmu_pipe[i].name);
			store_pmu_name(b, name);
			snprintf(name, sizeof name, "%s_ratio",
			    prof_pmu_pipe[i].name);
			store_pmu_name(b, name);
		}
		store_pmu_name(b, "icache_miss_rate");
	} else {
		for (i = 0; i < (size_t)p->nevents; i++) {
			snprintf(name, sizeof name, "pmu_0x%x", p->events[i]);
			store_pmu_name(b, name);
		}
	}
}

/* Add the decoded record D to P. */
void
prof_pmu_add(struct prof_pmu *p, const struct dev_pmu *d)
{
	p->v = util_grow(p->v, p->n, 1, sizeof *p->v);
	p->v[p->n].key = prof_pmu_key(d->stream, d->task, d->context);
	p->v[p->n].total = d->total_cycle;
	p->v[p->n].end = 0;
	memcpy(p->v[p->n].pmu, d->pmu, sizeof d->pmu);
	p->v[p->n].seq = (uint32_t)p->n;
	p->v[p->n].aiv = strcmp(dev_pmu_accel(d), "AIV") == 0;
	p->n++;
}

/*
 * Index the records added to P for prof_pmu_values() with the frequencies,
 * core counts and events of M; WHERE names the data for a warning.
 */
void
prof_pmu_finish(struct store *s, const char *where, const struct prof_meta *m,
    struct prof_pmu *p)
{
	size_t	 i;

	p->m = m;
	if (p->n == 0)
		return;
	if (m->aic.num == 0)
		store_load_warning(s, where, -1, "no aic_frequency: PMU "
		    "times unknown");
	qsort(p->v, p->n, sizeof *p->v, prof_pmu_cmp);
	util_map_init(&p->next);
	for (i = p->n; i-- > 0; )
		util_map_set(&p->next, p->v[i].key, i);
	prof_pmu_columns(p, m->aic_events, m->aic_metrics);
}

/*
 * True if ffts_profile record R reads as one, for prof_slices_open_lined:
 * of function type 40 or 41.
 */
static bool
prof_pmu_ffts_ok(const unsigned char *r, const unsigned char *prev,
    void *arg)
{
	unsigned	 kind = importer_le16(r) & 0x3F;

	(void)prev;
	(void)arg;
	return kind == DEV_PMU_CONTEXT || kind == DEV_PMU_BLOCK;
}

/*
 * Read the PMU records of device data directory DATA (metadata M) into P;
 * P->n stays 0 when there are none.
 */

void
prof_pmu_read(struct store *s, const char *data, const struct prof_meta *m,
    bool expand, struct prof_pmu *p)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	struct dev_pmu		 d;
	const unsigned char	*r;
	bool			 stars = prof_meta_is_stars(m);

	memset(p, 0, sizeof *p);
	prof_slices_list(data, stars ? "ffts_profile.data" : "aicore.data",
	    false, &f);
	prof_slices_open_lined(&st, s, &f, DEV_PMU_SIZE, stars ?
	    prof_pmu_ffts_ok : prof_slices_counted, NULL, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (stars)
			dev_pmu_decode_ffts(r, expand, &d);
		else
			dev_pmu_decode_aicore(r, &d);
		if (stars && d.kind != DEV_PMU_CONTEXT)
			continue;
		prof_pmu_add(p, &d);
		p->v[p->n - 1].end = stars ? d.end : 0;
	}
	prof_slices_close(&st);
	prof_slices_release(&f);
	if (stars && p->n > 0)
		prof_freq_read(s, data, &p->freqs);
	prof_pmu_finish(s, data, m, p);
}

void
prof_pmu_release(struct prof_pmu *p)
{
	free(p->v);
	strbuf_release(&p->names);
	util_map_release(&p->next);
	prof_freq_release(&p->freqs);
	memset(p, 0, sizeof *p);
}

/* Add V, shown with 3 decimals. */
static void
prof_pmu_num(struct strbuf *b, double v)
{
	store_pmu_num(b, v, 3);
}

/* The ArithmeticUtilization columns of record R into B. */
static void
prof_pmu_arith_values(const struct prof_pmu *p, const struct prof_pmu_rec *r,
    struct strbuf *b)
{
	double		 v, ops, cube = 0, vec = 0;
	size_t		 i, j;
	uint64_t	 c;
	bool		 v3;

	for (i = 0; i < PROF_PMU_NARITH; i++) {
		v = 0;
		for (j = 0; j < 2 && prof_pmu_arith[i].event[j] != 0; j++)
			v += (double)r->pmu[prof_pmu_counter(p,
			    prof_pmu_arith[i].event[j])];
		prof_pmu_num(b, r->total > 0 ? v / (double)r->total : 0);
	}
	v3 = p->m != NULL && p->m->chip >= 2 && p->m->chip <= 4;
	for (i = 0; i < PROF_PMU_NFOPS; i++) {
		c = r->pmu[prof_pmu_counter(p, prof_pmu_fops[i].event)];
		ops = v3 ? prof_pmu_fops[i].ops_v3 : prof_pmu_fops[i].ops;
		if (prof_pmu_fops[i].cube)
			cube += (double)c * ops;
		else
			vec += (double)c * ops;
	}
	prof_pmu_num(b, cube);
	prof_pmu_num(b, vec);
}

/*
 * The PMU column values of the next unused record of (STREAM, TASK,
 * CONTEXT) for a task of BLOCKS blocks (NP_NA if unknown) into B; false if
 * there is none.
 */
bool
prof_pmu_values(struct prof_pmu *p, uint32_t stream, uint32_t task,
    uint32_t context, int64_t blocks, struct strbuf *b)
{
	const struct prof_pmu_rec	*r;
	uint64_t			 k, i;
	double				 mhz, t, ratio;
	int64_t				 cores, nb;
	size_t				 j;

	k = prof_pmu_key(stream, task, context);
	if (p->n == 0 || !util_map_get(&p->next, k, &i) || i >= p->n ||
	    p->v[i].key != k)
		return false;
	r = &p->v[i];
	util_map_set(&p->next, k, i + 1);
	mhz = p->m->aic.num != 0 ? (double)p->m->aic.num / p->m->aic.den : 0;
	mhz = prof_freq_at(&p->freqs, r->end, mhz);
	cores = r->aiv ? p->m->aiv_num : p->m->ai_core_num;
	if (cores <= 0)
		cores = 1;
	nb = blocks != NP_NA && blocks > 0 ? blocks : 1;
	/* Section 5.3: cycles over frequency, per block, in core waves. */
	t = mhz > 0 ? (double)r->total / mhz / (double)nb *
	    (double)((nb + cores - 1) / cores) : 0;
	strbuf_reset(b);
	prof_pmu_num(b, t);
	store_pmu_u64(b, r->total);
	if (p->arith) {
		prof_pmu_arith_values(p, r, b);
		return true;
	}
	if (!p->pipe) {
		for (j = 0; j < (size_t)p->nevents; j++)
			store_pmu_u64(b, r->pmu[j]);
		return true;
	}
	for (j = 0; j < PROF_PMU_NPIPE; j++) {
		ratio = r->total > 0 ? (double)r->pmu[prof_pmu_counter(p,
		    prof_pmu_pipe[j].event)] / (double)r->total : 0;
		prof_pmu_num(b, t * ratio);
		prof_pmu_num(b, ratio);
	}
	ratio = r->pmu[prof_pmu_counter(p, 0x54)] > 0 ?
	    (double)r->pmu[prof_pmu_counter(p, 0x55)] /
	    (double)r->pmu[prof_pmu_counter(p, 0x54)] : 0;
	prof_pmu_num(b, ratio);
	return true;
}
