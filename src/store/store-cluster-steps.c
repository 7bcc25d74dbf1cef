/*
 * cluster_step_trace_time, as msprof-analyze's cluster analysis writes it
 * (doc/formats.md section 8.5):
 *
 * - a row per rank and row of its step_trace_time, each value read as a
 *   number (0 when it is none) and written as Python writes a float;
 * - with the pipeline groups of profiler_metadata.json (point-to-point
 *   groups whose name starts with "pp"), per step a row per stage: the
 *   most of each column over the stage's ranks. A stage is a set of ranks
 *   joined by collective groups that hold at most one rank of any
 *   pipeline; ranks in no stage make the stage "()";
 * - with distributed_args (the Megatron sizes), the DP, PP and TP Index
 *   of each rank, NA on stage rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

#define CLUSTER_MAX_WORLD	(INT64_C(1) << 24)	/* ranks in a layout */

/* A set of ranks, ascending. */
struct cluster_set {
	int64_t		*r;
	size_t		 n;
};

/* A rank's row of step_trace_time, its values read. */
struct cluster_steprow {
	char		*step;
	int64_t		 rank;
	double		*v;
	signed char	*kind;		/* 0 none (NULL), 1 a float, 2 int 0 */
	size_t		 stage;		/* index into the stages, or -1 */
};

static bool
store_cluster_set_has(const struct cluster_set *a, int64_t r)
{
	size_t	 i;

	for (i = 0; i < a->n; i++) {
		if (a->r[i] == r)
			return true;
	}
	return false;
}

/* How many ranks A and B share. */
static size_t
store_cluster_set_common(const struct cluster_set *a,
    const struct cluster_set *b)
{
	size_t	 i, n = 0;

	for (i = 0; i < a->n; i++)
		n += store_cluster_set_has(b, a->r[i]);
	return n;
}

static int
store_cluster_by_rank(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sets by their first (smallest) rank. */
static int
store_cluster_by_first(const void *a, const void *b)
{
	const struct cluster_set *x = a, *y = b;

	return x->r[0] < y->r[0] ? -1 : x->r[0] > y->r[0];
}

/* Add B's ranks to A, keeping A ascending and without repeats. */
static void
store_cluster_set_union(struct cluster_set *a, const struct cluster_set *b)
{
	size_t	 i;

	for (i = 0; i < b->n; i++) {
		if (store_cluster_set_has(a, b->r[i]))
			continue;
		a->r = xreallocarray(a->r, a->n + 1, sizeof *a->r);
		a->r[a->n++] = b->r[i];
	}
	if (a->n > 0)
		qsort(a->r, a->n, sizeof *a->r, store_cluster_by_rank);
}

/* The number torch_npu names a group with: a double hash of its id. */
static uint64_t
store_cluster_hash(const char *id)
{
	uint32_t	 h0 = 0, h1 = 0;
	const unsigned char *p;

	for (p = (const unsigned char *)id; *p != '\0'; p++) {
		h0 = h0 * 29 + *p;
		h1 = h1 * 131 + *p;
	}
	return (uint64_t)h0 << 32 | h1;
}

/* Parse "0,1,2" into S. */
static void
store_cluster_set_parse(struct cluster_set *s, const char *text)
{
	const char	*p = text;
	char		*end;
	long long	 v;

	while (p != NULL && *p != '\0') {
		v = strtoll(p, &end, 10);
		if (end == p)
			break;
		s->r = xreallocarray(s->r, s->n + 1, sizeof *s->r);
		s->r[s->n++] = v;
		p = *end == ',' ? end + 1 : NULL;
	}
	if (s->n > 0)
		qsort(s->r, s->n, sizeof *s->r, store_cluster_by_rank);
}

/* The groups a stage is made of, as store_cluster_each_group() gives. */
struct cluster_groupset {
	sqlite3_stmt		*pg;		/* parallel_group_info */
	struct cluster_set	*coll, *pipe;
	size_t			 ncoll, npipe;
};

/*
 * Keep group GRP of TYPE (its N RANKS): its ranks replaced by the global
 * ranks its parallel_group_info entry lists; a collective group, or a
 * pipeline (a point-to-point group whose name starts with "pp").
 */
static void
store_cluster_stage_group(void *arg, const char *type, const char *grp,
    const int64_t *ranks, size_t n)
{
	struct cluster_groupset	*gs = arg;
	struct cluster_set	 g = { NULL, 0 }, add = { NULL, 0 };
	const char		*name = NULL;
	char			 key[32];

	sqlite3_reset(gs->pg);
	while (sqlite3_step(gs->pg) == SQLITE_ROW) {
		snprintf(key, sizeof key, "%llu", (unsigned long long)
		    store_cluster_hash((const char *)
		    sqlite3_column_text(gs->pg, 0)));
		if (strcmp(key, grp) != 0)
			continue;
		name = (const char *)sqlite3_column_text(gs->pg, 1);
		store_cluster_set_parse(&add, (const char *)
		    sqlite3_column_text(gs->pg, 2));
		break;
	}
	if (add.n > 0)
		g = add;
	else {
		g.r = xreallocarray(NULL, n > 0 ? n : 1, sizeof *g.r);
		memcpy(g.r, ranks, n * sizeof *g.r);
		g.n = n;
	}
	if (strcmp(type, "collective") == 0) {
		gs->coll = xreallocarray(gs->coll, gs->ncoll + 1,
		    sizeof *gs->coll);
		gs->coll[gs->ncoll++] = g;
	} else if (name != NULL && strncasecmp(name, "pp", 2) == 0) {
		gs->pipe = xreallocarray(gs->pipe, gs->npipe + 1,
		    sizeof *gs->pipe);
		gs->pipe[gs->npipe++] = g;
	} else
		free(g.r);
}

/* Empty A into B, joined: their ranks share a stage. */
static void
store_cluster_set_move(struct cluster_set *b, struct cluster_set *a)
{
	store_cluster_set_union(b, a);
	free(a->r);
	a->r = NULL;
	a->n = 0;
}

/*
 * The stages into *STAGES: from the groups of temp.cl_c and temp.cl_l
 * (store_cluster_stage_group), the pipelines joined where they share a
 * rank, then each collective group that holds at most one rank of any
 * pipeline joined with the stages it shares a rank with, sorted by their
 * first rank. None without a pipeline.
 */
static int
store_cluster_stages(struct store *s, struct cluster_set **stages,
    size_t *nstages, char **cause)
{
	struct cluster_groupset	 gs;
	struct cluster_set	 add, *st = NULL;
	size_t			 i, j, n = 0;
	bool			 bad;

	*stages = NULL;
	*nstages = 0;
	/* temp.cl_c and temp.cl_l exist where the ranks have communication. */
	if (!store_exists(s, "SELECT 1 FROM temp.sqlite_master WHERE name ="
	    " 'cl_c'") || !store_has_table(s, "parallel_group_info"))
		return 0;
	memset(&gs, 0, sizeof gs);
	if (store_prepare(s, &gs.pg, "SELECT \"Group Id\", \"Group Name\","
	    " \"Global Ranks\" FROM parallel_group_info ORDER BY _rank, rowid",
	    cause) != 0)
		return -1;
	if (store_cluster_each_group(s, store_cluster_stage_group, &gs,
	    cause) != 0) {
		sqlite3_finalize(gs.pg);
		return -1;
	}
	sqlite3_finalize(gs.pg);
	for (i = 0; i < gs.npipe; i++) {
		for (j = 0; j < i; j++) {
			if (store_cluster_set_common(&gs.pipe[i],
			    &gs.pipe[j]) > 0)
				store_cluster_set_move(&gs.pipe[i],
				    &gs.pipe[j]);
		}
	}
	for (i = 0; gs.npipe > 0 && i < gs.ncoll; i++) {
		for (j = 0, bad = false; j < gs.npipe && !bad; j++)
			bad = store_cluster_set_common(&gs.coll[i],
			    &gs.pipe[j]) > 1;
		if (bad)
			continue;
		add.r = NULL;
		add.n = 0;
		store_cluster_set_union(&add, &gs.coll[i]);
		for (j = 0; j < n; j++) {
			if (store_cluster_set_common(&add, &st[j]) > 0)
				store_cluster_set_move(&add, &st[j]);
		}
		st = xreallocarray(st, n + 1, sizeof *st);
		st[n++] = add;
	}
	for (i = j = 0; i < n; i++) {
		if (st[i].n > 0)
			st[j++] = st[i];
	}
	if (j > 0)
		qsort(st, j, sizeof *st, store_cluster_by_first);
	*stages = st;
	*nstages = j;
	for (i = 0; i < gs.ncoll; i++)
		free(gs.coll[i].r);
	for (i = 0; i < gs.npipe; i++)
		free(gs.pipe[i].r);
	free(gs.coll);
	free(gs.pipe);
	return 0;
}

/*
 * The Megatron layout of distributed_args (the first rank's that has
 * one): *MAP gets (DP, PP, TP Index) per rank below *WORLD, -1 where a
 * rank has none. Return false where msprof-analyze writes no index
 * columns: no or bad sizes (not integers, a world size that is not
 * tp x pp x dp, a dp not divisible by ep or cp x dp by ep), a layout the
 * tool fails on, or fewer ranks in it than ranks with steps (NRANKS).
 */
static bool
store_cluster_layout(struct store *s, size_t nranks, int64_t **map,
    int64_t *world)
{
	sqlite3_stmt	*stmt;
	int64_t		 v[6] = { 1, 1, 1, 1, 1, 1 }, w, tp, pp, dp, cp, ep;
	int64_t		 npg, i, k, j, g, m, *dpg, ndpg = 0;
	const char	*t;
	bool		 ok = true;

	*map = NULL;
	if (!store_has_table(s, "distributed_args") || sqlite3_prepare_v2(s->db,
	    "SELECT world_size, tensor_model_parallel_size,"
	    " pipeline_model_parallel_size, data_parallel_size,"
	    " context_parallel_size, expert_model_parallel_size"
	    " FROM distributed_args WHERE _rank IS NOT NULL ORDER BY _rank"
	    " LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return false;
	}
	for (i = 0; i < 6; i++) {
		t = (const char *)sqlite3_column_text(stmt, (int)i);
		if (t == NULL)
			continue;
		if (util_parse_int(t, strlen(t), &v[i]) != 0)
			ok = false;
	}
	sqlite3_finalize(stmt);
	w = v[0];
	tp = v[1] == 0 ? 1 : v[1];
	pp = v[2] == 0 ? 1 : v[2];
	dp = v[3] == 0 ? 1 : v[3];
	cp = v[4];
	ep = v[5] == 0 ? 1 : v[5];
	/*
	 * Every size is at least 1 and at most the world (larger ones make
	 * no layout, and their products would overflow); a data-parallel
	 * group wider than a stage is one the tool finds empty and fails on.
	 */
	if (!ok || w < 1 || w > CLUSTER_MAX_WORLD || tp < 1 || tp > w ||
	    pp < 1 || pp > w || dp < 1 || dp > w || cp < 1 || cp > w ||
	    ep < 1 || ep > w || tp * pp > w || tp * pp * dp != w ||
	    dp % ep != 0 || dp * cp % ep != 0 || (size_t)w < nranks ||
	    tp * cp > w / pp)
		return false;
	/* The data-parallel groups, then per model-parallel group i the
	 * i-th rank of each: its ranks tp at a time are the stages. */
	npg = w / pp;
	dpg = xreallocarray(NULL, (size_t)(pp * tp * cp), sizeof *dpg);
	for (i = 0; i < pp; i++)
		for (k = 0; k < tp * cp; k++)
			dpg[ndpg++] = npg * i + k;
	*map = xreallocarray(NULL, (size_t)w * 3, sizeof **map);
	for (i = 0; i < w * 3; i++)
		(*map)[i] = -1;
	for (i = 0; i < dp && ok; i++) {
		for (g = 0, m = 0; g < ndpg && ok; g++, m++) {
			/* Rank i of group g: its first rank plus i steps. */
			j = dpg[g] + i * tp * cp;
			if (j >= npg * (g / (tp * cp) + 1)) {
				/* The tool reads past a group, gives up. */
				ok = false;
				break;
			}
			(*map)[j * 3] = i;
			(*map)[j * 3 + 1] = m / tp;
			(*map)[j * 3 + 2] = m % tp;
		}
	}
	free(dpg);
	if (!ok) {
		free(*map);
		*map = NULL;
		return false;
	}
	*world = w;
	return true;
}

/* Free the N rows of V. */
static void
store_cluster_steprows_free(struct cluster_steprow *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].step);
		free(v[i].v);
		free(v[i].kind);
	}
	free(v);
}

/* Cell I of row R as the tool writes it, into BUF; NULL for none. */
static const char *
store_cluster_stepcell(const struct cluster_steprow *r, size_t i, char *buf,
    size_t size)
{
	if (r->kind[i] == 0)
		return NULL;
	if (r->kind[i] == 2)
		return "0";
	util_fmt_pyfloat(buf, size, r->v[i]);
	return buf;
}

/*
 * Write the stage rows of the N rank rows of V (NV values each): per
 * step and stage in the order the rank rows first name them, the most of
 * each value over the stage's ranks (the first of equal ones).
 */
static void
store_cluster_stage_rows(struct store *s, struct cluster_out *o,
    struct cluster_steprow *v, size_t n, size_t nv,
    const struct cluster_set *stages, bool ptd)
{
	struct cluster_steprow	 m;
	const char		**cells;
	char			(*num)[64], *index;
	size_t			 i, j, k, ncols = 3 + nv + (ptd ? 3 : 0);
	bool			*done;

	done = xcalloc(n > 0 ? n : 1, sizeof *done);
	cells = xcalloc(ncols, sizeof *cells);
	num = xcalloc(nv > 0 ? nv : 1, sizeof *num);
	m.v = xcalloc(nv > 0 ? nv : 1, sizeof *m.v);
	m.kind = xcalloc(nv > 0 ? nv : 1, sizeof *m.kind);
	for (i = 0; i < n; i++) {
		if (done[i])
			continue;
		memset(m.kind, 0, nv);
		for (j = i; j < n; j++) {
			if (done[j] || v[j].stage != v[i].stage ||
			    strcmp(v[j].step, v[i].step) != 0)
				continue;
			done[j] = true;
			for (k = 0; k < nv; k++) {
				if (v[j].kind[k] == 0 || (m.kind[k] != 0 &&
				    !(v[j].v[k] > m.v[k])))
					continue;
				m.v[k] = v[j].v[k];
				m.kind[k] = v[j].kind[k];
			}
		}
		if (v[i].stage == (size_t)-1)
			index = store_cluster_tuple(NULL, 0);
		else
			index = store_cluster_tuple(stages[v[i].stage].r,
			    stages[v[i].stage].n);
		cells[0] = v[i].step;
		cells[1] = "stage";
		cells[2] = index;
		for (k = 0; k < nv; k++)
			cells[3 + k] = store_cluster_stepcell(&m, k, num[k],
			    sizeof num[k]);
		for (k = 3 + nv; k < ncols; k++)
			cells[k] = "NA";
		store_cluster_row(s, o, NP_NA, cells);
		free(index);
	}
	free(m.v);
	free(m.kind);
	free(num);
	free(cells);
	free(done);
}

/* cluster_step_trace_time from the ranks' step_trace_time rows. */
int
store_cluster_steps(struct store *s, char **cause)
{
	struct cluster_out	 o = { NULL, 0 };
	struct cluster_steprow	*v = NULL, *r;
	struct cluster_set	*stages = NULL;
	struct strbuf		 b;
	sqlite3_stmt		*stmt;
	const char		**cols = NULL, *cell, **cells;
	char			(*num)[64], rank[32], dpi[3][32];
	size_t			 ncols = 3, nv, n = 0, nstages = 0, nranks;
	size_t			 i, k;
	int64_t			*map = NULL, world = 0, last = NP_NA;
	bool			 ptd;
	int			 rc;
	double			 d;

	if (!store_cluster_input(s, "step_trace_time"))
		return 0;
	if (store_prepare(s, &stmt, "SELECT name FROM"
	    " pragma_table_info('step_trace_time')", cause) != 0)
		return -1;
	cols = xreallocarray(NULL, 3, sizeof *cols);
	cols[0] = "Step";
	cols[1] = "Type";
	cols[2] = "Index";
	strbuf_init(&b);
	strbuf_adds(&b, "SELECT _rank, \"Step\"");
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		cell = (const char *)sqlite3_column_text(stmt, 0);
		if (cell == NULL || cell[0] == '_' ||
		    strcmp(cell, "Step") == 0 || strcmp(cell, "Device_id") == 0)
			continue;
		cols = xreallocarray(cols, ncols + 1, sizeof *cols);
		cols[ncols++] = xstrdup(cell);
		strbuf_adds(&b, ", ");
		store_load_quote_ident(&b, cell);
	}
	sqlite3_finalize(stmt);
	nv = ncols - 3;
	strbuf_adds(&b, " FROM step_trace_time WHERE _rank IS NOT NULL"
	    " ORDER BY _rank, rowid");
	rc = store_prepare(s, &stmt, b.s, cause);
	strbuf_release(&b);
	for (nranks = 0; rc == 0 && sqlite3_step(stmt) == SQLITE_ROW; n++) {
		v = util_grow(v, n, 1, sizeof *v);
		r = &v[n];
		cell = (const char *)sqlite3_column_text(stmt, 1);
		r->step = xstrdup(cell != NULL ? cell : "");
		r->rank = sqlite3_column_int64(stmt, 0);
		nranks += n == 0 || r->rank != last;
		last = r->rank;
		r->v = xcalloc(nv > 0 ? nv : 1, sizeof *r->v);
		r->kind = xcalloc(nv > 0 ? nv : 1, sizeof *r->kind);
		r->stage = (size_t)-1;
		for (k = 0; k < nv; k++) {
			cell = (const char *)sqlite3_column_text(stmt,
			    2 + (int)k);
			if (cell == NULL)
				continue;
			if (util_parse_double(cell, strlen(cell), &d) != 0)
				r->kind[k] = 2;
			else {
				r->v[k] = d;
				r->kind[k] = 1;
			}
		}
	}
	if (rc == 0)
		sqlite3_finalize(stmt);
	if (rc == 0)
		rc = store_cluster_stages(s, &stages, &nstages, cause);
	ptd = rc == 0 && store_cluster_layout(s, nranks, &map, &world);
	if (ptd) {
		cols = xreallocarray(cols, ncols + 3, sizeof *cols);
		cols[ncols++] = "DP Index";
		cols[ncols++] = "PP Index";
		cols[ncols++] = "TP Index";
	}
	if (rc == 0)
		rc = store_cluster_begin(s, &o, "cluster_step_trace_time",
		    cols, ncols, cause);
	cells = xcalloc(ncols, sizeof *cells);
	num = xcalloc(nv > 0 ? nv : 1, sizeof *num);
	for (i = 0; rc == 0 && i < n; i++) {
		r = &v[i];
		for (k = 0; k < nstages && r->stage == (size_t)-1; k++) {
			if (store_cluster_set_has(&stages[k], r->rank))
				r->stage = k;
		}
		snprintf(rank, sizeof rank, "%lld", (long long)r->rank);
		cells[0] = r->step;
		cells[1] = "rank";
		cells[2] = rank;
		for (k = 0; k < nv; k++)
			cells[3 + k] = store_cluster_stepcell(r, k, num[k],
			    sizeof num[k]);
		for (k = 0; ptd && k < 3; k++) {
			if (r->rank >= 0 && r->rank < world &&
			    map[r->rank * 3] >= 0)
				snprintf(dpi[k], sizeof dpi[k], "%lld",
				    (long long)map[r->rank * 3 + (int64_t)k]);
			else
				snprintf(dpi[k], sizeof dpi[k], "NA");
			cells[3 + nv + k] = dpi[k];
		}
		store_cluster_row(s, &o, r->rank, cells);
	}
	if (rc == 0 && nstages > 0)
		store_cluster_stage_rows(s, &o, v, n, nv, stages, ptd);
	store_cluster_end(&o);
	for (i = 3; i < 3 + nv; i++)
		free((char *)cols[i]);
	for (i = 0; i < nstages; i++)
		free(stages[i].r);
	free(stages);
	free(map);
	free(cols);
	free(cells);
	free(num);
	store_cluster_steprows_free(v, n);
	return rc;
}
