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

/* The hash of a group key, for the open-addressing tables of statistics. */
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

static void
store_stats_grow(struct stats_ops *o)
{
	struct stats_op	*old = o->v;
	size_t		 oldsize = o->size, i, j;

	o->size = oldsize == 0 ? 256 : oldsize * 2;
	o->v = xcalloc(o->size, sizeof *o->v);
	for (i = 0; i < oldsize; i++) {
		if (!old[i].used)
			continue;
		j = store_stats_hash(old[i].device, old[i].rank, old[i].op,
		    old[i].core) & (o->size - 1);
		while (o->v[j].used)
			j = (j + 1) & (o->size - 1);
		o->v[j] = old[i];
	}
	free(old);
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
	struct stats_op		*g;
	size_t			 j;

	if (op == NP_NA || core == NP_NA || t->dur_ns == NP_NA)
		return;
	if (s->ops == NULL)
		s->ops = xcalloc(1, sizeof *s->ops);
	o = s->ops;
	if ((o->n + 1) * 2 > o->size)
		store_stats_grow(o);
	j = store_stats_hash(t->device, t->rank, op, core) & (o->size - 1);
	for (;; j = (j + 1) & (o->size - 1)) {
		g = &o->v[j];
		if (!g->used) {
			memset(g, 0, sizeof *g);
			g->used = true;
			g->device = t->device;
			g->rank = t->rank;
			g->op = op;
			g->core = core;
			g->min = g->max = t->dur_ns;
			o->n++;
			break;
		}
		if (g->device == t->device && g->rank == t->rank &&
		    g->op == op && g->core == core)
			break;
	}
	g->count++;
	g->total += t->dur_ns;
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
	free(s->ops);
	s->ops = NULL;
}
