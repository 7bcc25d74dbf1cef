/*
 * op_statistic gathered while a load runs: each device task is counted
 * into its (device, rank, op type, core type) group in a hash table, far
 * cheaper than a GROUP BY over millions of rows at commit, where
 * store-stats-write.c turns the groups into rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The hash of a group key, for the indexes of the statistics groups. */
uint64_t
store_stats_hash(int64_t device, int64_t rank, int64_t op, int64_t core)
{
	uint64_t	 h = 0x9E3779B97F4A7C15ULL;

	h = (h ^ (uint64_t)device) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)rank) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)op) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)core) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/*
 * Count task T (its op type and core type interned as OP and CORE) into
 * op_statistic as it is loaded: a hash table of groups is far cheaper
 * than a GROUP BY over millions of rows at commit.
 */
void
store_stats_add_task(struct store *s, const struct store_task *t, int64_t op,
    int64_t core)
{
	struct stats_ops	*o;
	struct stats_op		*g = NULL;
	uint64_t		 h, head = 0;
	size_t			 j;

	if (op == NP_NA || core == NP_NA || t->dur_ns == NP_NA)
		return;
	if (s->ops == NULL)
		s->ops = xcalloc(1, sizeof *s->ops);
	o = s->ops;
	h = store_stats_hash(t->device, t->rank, op, core);
	if (util_map_get(&o->index, h, &head)) {
		for (j = (size_t)head; j != 0; j = o->v[j - 1].same) {
			g = &o->v[j - 1];
			if (g->device == t->device && g->rank == t->rank &&
			    g->op == op && g->core == core)
				break;
			g = NULL;
		}
	}
	if (g == NULL) {
		o->v = util_grow(o->v, o->n, 1, sizeof *o->v);
		g = &o->v[o->n++];
		memset(g, 0, sizeof *g);
		g->device = t->device;
		g->rank = t->rank;
		g->op = op;
		g->core = core;
		g->min = g->max = t->dur_ns;
		g->same = (size_t)head;
		util_map_set(&o->index, h, o->n);
	}
	g->count++;
	/* A total that does not fit stays N/A (store-stats-write.c). */
	util_add(g->total, t->dur_ns, &g->total);
	if (t->dur_ns < g->min)
		g->min = t->dur_ns;
	if (t->dur_ns > g->max)
		g->max = t->dur_ns;
}

void
store_stats_free(struct store *s)
{
	if (s->ops == NULL)
		return;
	free(s->ops->v);
	util_map_release(&s->ops->index);
	free(s->ops);
	s->ops = NULL;
}

/* TOTAL / COUNT rounded half away from zero, without overflow. */
int64_t
store_stats_round_div(int64_t total, int64_t count)
{
	__int128	 t = total, c = count;

	if (t >= 0)
		return (int64_t)((2 * t + c) / (2 * c));
	return (int64_t)-((2 * -t + c) / (2 * c));
}
