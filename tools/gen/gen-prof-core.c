/*
 * What every writer of a generated raw collection shares: seeded choices,
 * the host and device clocks, op names and shapes, API spans (counted
 * into the expected api_statistic as they are written), the AI Core
 * frequency and PMU values of a task, and the statistics groups the
 * expected tables are made from. gen-prof.c drives the writers.
 */
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

/* The group of (DEVICE, A, B) in *V, added empty if new. */
struct gen_prof_stat *
gen_prof_core_stat_find(struct gen_prof_stat **v, size_t *n, int device,
    const char *a, const char *b)
{
	size_t	 i;

	for (i = 0; i < *n; i++) {
		if ((*v)[i].device == device && strcmp((*v)[i].a, a) == 0 &&
		    strcmp((*v)[i].b, b) == 0)
			return &(*v)[i];
	}
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	memset(&(*v)[*n], 0, sizeof **v);
	(*v)[*n].device = device;
	(*v)[*n].a = a;
	(*v)[*n].b = b;
	return &(*v)[(*n)++];
}

/* Count a value of D ns into the group S. */
void
gen_prof_core_stat_add(struct gen_prof_stat *s, int64_t d)
{
	util_stat_add(&s->v, d);
	s->sumsq += (__int128)d * d;
}

/* Count one API span of NAME at LEVEL lasting DUR ns. */
void
gen_prof_core_api_add(struct gen_prof *g, const char *name, const char *level,
    int64_t dur)
{
	gen_prof_core_stat_add(gen_prof_core_stat_find(&g->api, &g->napi, 64,
	    name,
	    level), dur);
}

uint64_t
gen_prof_core_rand(struct gen_prof *g)
{
	uint64_t	 z = (g->rng += 0x9E3779B97F4A7C15ULL);

	z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ z >> 27) * 0x94D049BB133111EBULL;
	return z ^ z >> 31;
}

int64_t
gen_prof_core_range(struct gen_prof *g, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(gen_prof_core_rand(g) % (uint64_t)(hi - lo));
}

/* The id of a dictionary string: two polynomial hashes (section 3.4). */
uint64_t
gen_prof_core_hash(const char *s)
{
	uint32_t	 h29 = 0, h131 = 0;

	for (; *s != '\0'; s++) {
		h29 = h29 * 29 + (unsigned char)*s;
		h131 = h131 * 131 + (unsigned char)*s;
	}
	return (uint64_t)h29 << 32 | h131;
}

/* The op type as the vendor prints it: the id when the name is missing. */
const char *
gen_prof_core_type_name(const struct gen_prof *g, const struct gen_prof_op *op)
{
	const char	*t = g->kinds[op->kind].type;

	if (g->o->missing_dict && strcmp(t, "DropOutDoMask") == 0)
		return g->missing;
	return t;
}

/*
 * The dims of tensor I of OP (0-terminated, up to 4): fixed per op name,
 * as a model's ops keep their shapes from step to step.
 */
void
gen_prof_core_shape(const struct gen_prof *g, const struct gen_prof_op *op,
    int i, uint32_t *dims)
{
	uint64_t	 h = (uint64_t)(op->kind * GEN_PROF_NAMES + op->name
	    + 1) *
	    0x9E3779B97F4A7C15ULL ^
	    (uint64_t)i * 0xBF58476D1CE4E5B9ULL ^ g->o->seed;
	int		 n, j;

	n = 1 + (int)(h % 4);
	for (j = 0; j < 4; j++) {
		h = h * 6364136223846793005ULL + 1442695040888963407ULL;
		dims[j] = j < n ? 1 + (uint32_t)(h >> 33) % 128 : 0;
	}
}

/* NS rounded down to a whole tick of clock C. */
int64_t
gen_prof_core_align(const struct gen_prof_clock *c, int64_t ns)
{
	return ns - ns % c->tick;
}

uint64_t
gen_prof_core_host_raw(const struct gen_prof_clock *c, int64_t mono)
{
	if (c->tick == 1)
		return (uint64_t)mono;
	return c->sync_cnt + (uint64_t)((mono - c->sync) / c->tick);
}

uint64_t
gen_prof_core_syscnt(const struct gen_prof_clock *c, int64_t mono)
{
	return c->dsync_cnt + (uint64_t)((mono - c->dsync) / c->dtick);
}

/* A host gap of LO..HI ns in whole host ticks, at least one. */
int64_t
gen_prof_core_gap(struct gen_prof *g, const struct gen_prof_clock *c,
    int64_t lo,
    int64_t hi)
{
	int64_t	 v = gen_prof_core_align(c, gen_prof_core_range(g, lo, hi));

	return v < c->tick ? c->tick : v;
}

/* An API span: one record, or two event halves for some ACL spans. */
void
gen_prof_core_span(struct gen_prof *g, struct gen_prof_host *h,
    const struct gen_prof_clock *c, int t, int file, uint16_t level,
    uint32_t type, int64_t b, int64_t e, uint64_t item, const char *name,
    const char *lname)
{
	struct gen_buf	*buf = &h->f[file];

	if (level == 20000 && (int)(gen_prof_core_rand(g) % 100) <
	    g->o->event_pct) {
		h->request[t]++;
		gen_prof_bin_api(buf, level, type, h->tids[t], h->request[t],
		    gen_prof_core_host_raw(c, b), UINT64_MAX, item);
		gen_prof_bin_api(buf, level, type, h->tids[t], h->request[t],
		    gen_prof_core_host_raw(c, e), UINT64_MAX, item);
	} else
		gen_prof_bin_api(buf, level, type, h->tids[t], 0,
		    gen_prof_core_host_raw(c, b), gen_prof_core_host_raw(c, e),
		    item);
	gen_prof_core_api_add(g, name, lname, e - b);
}

int
gen_prof_core_cores(const struct gen_prof *g)
{
	return GEN_PROF_STARS(g->o) ? 24 : 8;
}

/*
 * The AI Core MHz at mono time T: the last frequency change at or before
 * it, else aic_frequency.
 */
double
gen_prof_core_aic_mhz(const struct gen_prof *g, int64_t t)
{
	int	 i;

	for (i = g->nfreq; i-- > 0;) {
		if (g->freq_at[i] <= t)
			return g->freq_mhz[i];
	}
	return GEN_PROF_STARS(g->o) ? 1800 : g->o->chip ==
	    GEN_PROF_910A ? 1000 : 1080;
}

/*
 * The PMU events of sample.json, in counter order: PipeUtilization, or
 * the ArithmeticUtilization events out of numeric order, so that only
 * decoding by event id gets the columns right.
 */
const char *
gen_prof_core_events(const struct gen_prof *g)
{
	if (g->o->arith)
		return "0x4f,0x49,0x4b,0x4a,0x4d,0x4c,0x4e,0x8";
	return "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55";
}

/*
 * The PMU values of task I (PipeUtilization counters in event order
 * 0x8, 0xa, 0x9, 0xb, 0xc, 0xd, 0x54, 0x55): AI Core and MIX tasks have
 * them when PMU is on, vector tasks not.
 */
bool
gen_prof_core_pmu(const struct gen_prof *g, size_t i, uint64_t *total,
    uint64_t *pmu)
{
	const struct gen_prof_task *t = &g->tasks[i];
	const struct gen_prof_op *op = &g->ops[t->op];
	uint64_t	 h = (i + 1) * 0x9E3779B97F4A7C15ULL ^ g->o->seed;
	int		 j;

	if (!g->o->pmu || g->kinds[op->kind].ge == 2)
		return false;
	*total = (uint64_t)t->dur * 9 / 5 * (op->block_dim & 0xFFFF) + 1;
	for (j = 0; j < 8; j++) {
		h = h * 6364136223846793005ULL + 1442695040888963407ULL;
		pmu[j] = j < 6 ? *total * ((h >> 33) % 100) / 100 :
		    1000 + (h >> 33) % 5000;
	}
	if (pmu[7] > pmu[6])
		pmu[7] = pmu[6] / 3;
	return true;
}
