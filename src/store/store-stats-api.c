/*
 * api_statistic from the API spans, as the vendor computes it
 * (doc/formats.md section 8.2): spans grouped by rank, level and name, an
 * average rounded as its binary division rounds and a population variance
 * around that rounded mean. The load writes it for the whole run
 * (store-stats-write.c); the UI asks for the spans starting in a time
 * window, a step (store-window.c). The spans are scanned in table order
 * and grouped in a hash table: a sort of millions of spans by their names
 * was most of the commit of a large raw collection. The load groups them
 * as they come instead (store_stats_api_load(), in the order their row
 * ids are given, so the sums are the scan's), and its commit reads the
 * table only if a span changed once written (a trace's levels).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define STATS_API_SQL							\
	"SELECT rank, level, name, end_ns - start_ns FROM api"		\
	" WHERE start_ns > 0 AND level IS NOT NULL AND name IS NOT NULL"\
	" AND (?1 IS NULL OR start_ns >= ?1) AND (?2 IS NULL OR"	\
	" start_ns < ?2) AND (?3 IS NULL OR rank = ?3)"

/* Where the rows go, and how string ids become strings. */
struct stats_sink {
	store_stats_api_emit	 emit;
	void			*arg;
	sqlite3_stmt		*str;	/* NULL: the load's strings */
};

/* The levels api_statistic has (doc/formats.md 8.2). */
static const char *const store_stats_api_levels[] = {
	"acl", "model", "node", "communication", "hccl", "runtime", NULL
};

struct stats_group {
	int64_t		 rank;
	int64_t		 level_id;	/* str ids */
	int64_t		 name_id;
	char		*level;
	char		*name;
	int64_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	double		 sum_us;
	double		 sum_sq_us;
	size_t		 same;		/* 1 + the group before of its hash */
};

/* The groups in the order they came, indexed by a hash of their key. */
struct stats_groups {
	struct stats_group	*v;
	size_t			 n;
	struct util_map		 index;	/* hash -> 1 + the newest group */
	bool			 stale;	/* the load's: spans changed */
};

static void
store_stats_api_flush(struct store *s, struct stats_group *g,
    const struct stats_sink *k)
{
	struct store_api_stat	 a;
	double			 avg_us, var;
	char			 buf[64];

	if (g->count == 0)
		return;
	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = g->rank;
	a.level = g->level;
	a.name = g->name;
	a.total_ns = g->total;
	a.count = g->count;
	if (g->total == NP_NA) {
		a.avg_ns = NP_NA;
		a.min_ns = g->min;
		a.max_ns = g->max;
		a.variance = NAN;
		a.origin = STORE_FROM_TASKS;
		k->emit(s, &a, k->arg);
		goto out;
	}
	/*
	 * The vendor divides a double sum of us and rounds the binary result
	 * to 3 decimals: 7.27 / 4 = 1.8175 prints 1.817, not 1.818.
	 */
	snprintf(buf, sizeof buf, "%.3f", g->total / 1000.0 / g->count);
	if (util_parse_ns(buf, strlen(buf), &a.avg_ns) != 0)
		a.avg_ns = store_stats_round_div(g->total, g->count);
	a.min_ns = g->min;
	a.max_ns = g->max;
	avg_us = a.avg_ns / 1000.0;
	/* Population variance around the rounded mean, in us squared. */
	var = (g->sum_sq_us - 2 * avg_us * g->sum_us +
	    g->count * avg_us * avg_us) / g->count;
	a.variance = round(fmax(var, 0) * 1000.0) / 1000.0;
	a.origin = STORE_FROM_TASKS;
	k->emit(s, &a, k->arg);
out:
	free(g->level);
	free(g->name);
	memset(g, 0, sizeof *g);
}

/* The group of (RANK, LEVEL, NAME) in A, made empty if new. */
static struct stats_group *
store_stats_api_groups_find(struct stats_groups *a, int64_t rank,
    int64_t level, int64_t name)
{
	struct stats_group	*g;
	uint64_t		 h, head = 0;
	size_t			 j;

	h = store_stats_hash(0, rank, level, name);
	if (util_map_get(&a->index, h, &head)) {
		for (j = (size_t)head; j != 0; j = a->v[j - 1].same) {
			g = &a->v[j - 1];
			if (g->rank == rank && g->level_id == level &&
			    g->name_id == name)
				return g;
		}
	}
	a->v = util_grow(a->v, a->n, 1, sizeof *a->v);
	g = &a->v[a->n++];
	memset(g, 0, sizeof *g);
	g->rank = rank;
	g->level_id = level;
	g->name_id = name;
	g->same = (size_t)head;
	util_map_set(&a->index, h, a->n);
	return g;
}

/* Count a span of D ns into G. */
static void
store_stats_api_add(struct stats_group *g, int64_t d)
{
	double	 us;

	if (g->count == 0)
		g->min = g->max = d;
	g->count++;
	util_add(g->total, d, &g->total);
	g->min = d < g->min ? d : g->min;
	g->max = d > g->max ? d : g->max;
	us = d / 1000.0;
	g->sum_us += us;
	g->sum_sq_us += us * us;
}

/*
 * Count a span of the load into its group: of RANK, LEVEL and NAME
 * (string ids) from START_NS to END_NS, as the scan would take it.
 */
void
store_stats_api_load(struct store *s, int64_t rank, int64_t level,
    int64_t name, int64_t start_ns, int64_t end_ns)
{
	if (s->api_groups == NULL)
		s->api_groups = xcalloc(1, sizeof *s->api_groups);
	if (s->api_groups->stale || start_ns <= 0 || level == NP_NA ||
	    name == NP_NA)
		return;
	store_stats_api_add(store_stats_api_groups_find(s->api_groups, rank,
	    level, name), end_ns - start_ns);
}

/* Spans already loaded changed: the commit scans the table. */
void
store_stats_api_stale(struct store *s)
{
	if (s->api_groups == NULL)
		s->api_groups = xcalloc(1, sizeof *s->api_groups);
	s->api_groups->stale = true;
}

void
store_stats_api_free(struct store *s)
{
	if (s->api_groups == NULL)
		return;
	free(s->api_groups->v);
	util_map_release(&s->api_groups->index);
	free(s->api_groups);
	s->api_groups = NULL;
}

static bool
store_stats_api_level(const char *level)
{
	int	 i;

	for (i = 0; level != NULL && store_stats_api_levels[i] != NULL;
	    i++) {
		if (strcmp(level, store_stats_api_levels[i]) == 0)
			return true;
	}
	return false;
}

/* The string of id ID: the load's, or the store's through K->str. */
static const char *
store_stats_api_str(struct store *s, const struct stats_sink *k, int64_t id)
{
	if (k->str == NULL)
		return store_load_string(s, id);
	sqlite3_reset(k->str);
	sqlite3_bind_int64(k->str, 1, id);
	if (sqlite3_step(k->str) != SQLITE_ROW)
		return NULL;
	return (const char *)sqlite3_column_text(k->str, 0);
}

/* Emit the groups of A whose level api_statistic has, and free them. */
static void
store_stats_api_write(struct store *s, struct stats_groups *a,
    const struct stats_sink *k)
{
	struct stats_group	*g;
	const char		*level, *name;
	size_t			 i;

	for (i = 0; i < a->n; i++) {
		g = &a->v[i];
		if ((level = store_stats_api_str(s, k, g->level_id)) == NULL ||
		    !store_stats_api_level(level))
			continue;
		g->level = xstrdup(level);
		if ((name = store_stats_api_str(s, k, g->name_id)) == NULL) {
			free(g->level);
			continue;
		}
		g->name = xstrdup(name);
		store_stats_api_flush(s, g, k);
	}
	free(a->v);
	util_map_release(&a->index);
}

/*
 * Group the API spans starting in [FROM, TO) (NP_NA: no bound) of RANK
 * (NP_NA: all) and hand each api_statistic row to EMIT with ARG. The load
 * passes NP_NA for all three. Return 0, or -1 with *cause.
 */
int
store_stats_api(struct store *s, const struct store_stats_window *w,
    store_stats_api_emit emit, void *arg, char **cause)
{
	struct stats_sink	 k = { emit, arg, NULL };
	struct stats_groups	 a;
	struct stats_group	*g;
	sqlite3_stmt		*stmt;
	int64_t			 rank;
	int			 rc;

	/* The load's own groups, whole unless spans changed. */
	if (w == NULL && s->loading && s->api_groups != NULL &&
	    !s->api_groups->stale) {
		store_stats_api_write(s, s->api_groups, &k);
		free(s->api_groups);
		s->api_groups = NULL;
		return 0;
	}
	if (store_prepare(s, &stmt, STATS_API_SQL, cause) != 0)
		return -1;
	if (w != NULL) {
		store_load_bind_i64(stmt, 1, w->from_ns);
		store_load_bind_i64(stmt, 2, w->to_ns);
		store_load_bind_i64(stmt, 3, w->rank);
		if (store_prepare(s, &k.str, "SELECT s FROM str WHERE id = ?",
		    cause) != 0) {
			sqlite3_finalize(stmt);
			return -1;
		}
	}
	memset(&a, 0, sizeof a);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		rank = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 0);
		g = store_stats_api_groups_find(&a, rank,
		    sqlite3_column_int64(stmt, 1),
		    sqlite3_column_int64(stmt, 2));
		store_stats_api_add(g, sqlite3_column_int64(stmt, 3));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		free(a.v);
		util_map_release(&a.index);
		sqlite3_finalize(k.str);
		xasprintf(cause, "cannot compute api_statistic: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	store_stats_api_write(s, &a, &k);
	sqlite3_finalize(k.str);
	return 0;
}
