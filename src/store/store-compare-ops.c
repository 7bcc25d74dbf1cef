/*
 * op_compare and memory_compare: the top PyTorch ops of two runs (the
 * ops a ProfilerStep holds, or that no op holds) grouped by name, as
 * msprof-analyze compare's OperatorCompareStatistic and
 * MemoryCompareStatistic sheets group them: per name the device time of
 * the kernels the op and the ops under it launched (their async_npu
 * flows), or the time and size of the memory they allocated
 * (operator_memory.csv, a CANN op's allocation placed at the enqueue of
 * the dequeue it happened in), and how many such ops; the names in the
 * base run's order, then the others, sorted by the difference, largest
 * first.
 */
#include <sys/types.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* A flow's launch time and the duration of the kernel it launched. */
struct ops_launch {
	int64_t		 at;		/* the flow's start, ns */
	double		 us;
};

/* An allocation: where the tool places it, its time and size. */
struct ops_mem {
	int64_t		 at;		/* ns */
	size_t		 order;
	double		 ms;
	double		 mb;
};

/* A name's group of top ops in one run. */
struct ops_group {
	char		*name;
	double		 a;		/* device ms, or allocated ms */
	double		 b;		/* allocated MB */
	int64_t		 n;
	bool		 used;
};

struct ops_side {
	struct ops_group	*v;
	size_t			 n;
};

static int	store_compare_ops_db_launches(struct store *, int64_t,
		    struct ops_launch **, size_t *, char **);

static int
store_compare_ops_launch_cmp(const void *a, const void *b)
{
	const struct ops_launch	*x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static int
store_compare_ops_mem_cmp(const void *a, const void *b)
{
	const struct ops_mem	*x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* A kernel's key: which process kind (0 device, 1 HCCL), lane, start. */
static uint64_t
store_compare_ops_key(int kind, int64_t tid, int64_t start)
{
	return ((uint64_t)start * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)tid <<
	    1) ^ (uint64_t)kind;
}

/*
 * The kernels the async_npu flows of S launched, by the flow's start, in
 * *L (sorted): a flow ends on a device task or span, or on an HCCL op.
 */
static int
store_compare_ops_launches(struct store *s, int64_t rank,
    struct ops_launch **l, size_t *nl, char **cause)
{
	struct util_map	 kern;
	struct store_npu_flow *fl = NULL;
	sqlite3_stmt	*stmt;
	int64_t		 hw = -1, hccl = -1, pid;
	double		*dur = NULL;
	const char	*name;
	uint64_t	 at, key;
	size_t		 n = 0, nk = 0, i;
	int		 rc;

	*l = NULL;
	*nl = 0;
	if (store_prepare(s, &stmt, "SELECT pid, name FROM lane WHERE tid IS"
	    " NULL AND name IN ('Ascend Hardware', 'HCCL', 'Communication')"
	    " AND (?1 IS NULL OR rank = ?1) ORDER BY id", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(stmt, 1);
		if (strcmp(name, "Ascend Hardware") == 0)
			hw = sqlite3_column_int64(stmt, 0);
		else
			hccl = sqlite3_column_int64(stmt, 0);
	}
	sqlite3_finalize(stmt);
	/* The kernels a flow may end on: device tasks, spans, HCCL ops. */
	util_map_init(&kern);
	if (store_prepare(s, &stmt, "SELECT 0, stream, start_ns, dur_ns FROM"
	    " task WHERE (?1 IS NULL OR rank = ?1) UNION ALL SELECT CASE WHEN"
	    " a.pid = ?2 THEN 0 ELSE 1 END, a.tid, a.start_ns, a.end_ns -"
	    " a.start_ns FROM api a WHERE (a.pid = ?2 OR (a.pid = ?3 AND"
	    " EXISTS (SELECT 1 FROM lane c WHERE c.pid = a.pid AND c.tid ="
	    " a.tid AND c.name LIKE '%Communication%'))) AND (?1 IS NULL OR"
	    " a.rank = ?1)", cause) != 0) {
		util_map_release(&kern);
		return -1;
	}
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, hw);
	sqlite3_bind_int64(stmt, 3, hccl);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		key = store_compare_ops_key(sqlite3_column_int(stmt, 0),
		    sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2));
		dur = util_grow(dur, nk, 1, sizeof *dur);
		dur[nk++] = (double)sqlite3_column_int64(stmt, 3) / 1000.0;
		util_map_set(&kern, key, nk);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		goto fail;
	if (store_npu_flows(s, rank, &fl, &n, cause) != 0) {
		free(dur);
		util_map_release(&kern);
		return -1;
	}
	if (n == 0) {
		free(dur);
		util_map_release(&kern);
		return store_compare_ops_db_launches(s, rank, l, nl, cause);
	}
	for (i = 0; i < n; i++) {
		if (fl[i].start == INT64_MIN || fl[i].end == INT64_MIN)
			continue;
		pid = fl[i].pid;
		if ((pid != hw && pid != hccl) || !util_map_get(&kern,
		    store_compare_ops_key(pid == hw ? 0 : 1, fl[i].tid,
		    fl[i].end), &at))
			continue;
		*l = util_grow(*l, *nl, 1, sizeof **l);
		(*l)[*nl].at = fl[i].start;
		(*l)[(*nl)++].us = dur[at - 1];
	}
	if (*nl > 1)
		qsort(*l, *nl, sizeof **l, store_compare_ops_launch_cmp);
	free(fl);
	free(dur);
	util_map_release(&kern);
	return 0;
fail:
	xasprintf(cause, "cannot read the kernels of '%s': %s", s->path,
	    sqlite3_errmsg(s->db));
	free(dur);
	util_map_release(&kern);
	return -1;
}

/*
 * A database export has no flows: its PyTorch ops name the connection
 * ids of what they launched (their args' connection_ids) and its compute
 * tasks carry theirs, as the tool joins them. The kernels of S's ops so,
 * into *L (sorted) by the op's start.
 */
static int
store_compare_ops_db_launches(struct store *s, int64_t rank,
    struct ops_launch **l, size_t *nl, char **cause)
{
	struct util_map	 conn;
	sqlite3_stmt	*stmt;
	double		*dur = NULL;
	uint64_t	 at;
	size_t		 n = 0;
	int		 rc;

	util_map_init(&conn);
	if (store_prepare(s, &stmt, "SELECT t.conn, t.dur_ns FROM task t LEFT"
	    " JOIN str y ON y.id = t.task_type WHERE t.conn IS NOT NULL AND"
	    " (y.s IS NULL OR y.s <> 'COMMUNICATION') AND (?1 IS NULL OR"
	    " t.rank = ?1) ORDER BY t.id", cause) != 0) {
		util_map_release(&conn);
		return -1;
	}
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		dur = util_grow(dur, n, 1, sizeof *dur);
		dur[n++] = (double)sqlite3_column_int64(stmt, 1) / 1000.0;
		util_map_set(&conn, (uint64_t)sqlite3_column_int64(stmt, 0), n);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE || store_prepare(s, &stmt, "SELECT a.start_ns,"
	    " j.value FROM api a JOIN str l ON l.id = a.level, json_each(CASE"
	    " WHEN json_valid(a.args) THEN a.args ELSE '{}' END,"
	    " '$.connection_ids') j WHERE l.s = 'python' AND (?1 IS NULL OR"
	    " a.rank = ?1)", cause) != 0) {
		if (rc != SQLITE_DONE)
			xasprintf(cause, "cannot read the tasks of '%s': %s",
			    s->path, sqlite3_errmsg(s->db));
		free(dur);
		util_map_release(&conn);
		return -1;
	}
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 1) != SQLITE_INTEGER ||
		    !util_map_get(&conn, (uint64_t)sqlite3_column_int64(stmt,
		    1), &at))
			continue;
		*l = util_grow(*l, *nl, 1, sizeof **l);
		(*l)[*nl].at = sqlite3_column_int64(stmt, 0);
		(*l)[(*nl)++].us = dur[at - 1];
	}
	sqlite3_finalize(stmt);
	free(dur);
	util_map_release(&conn);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the PyTorch ops of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	if (*nl > 1)
		qsort(*l, *nl, sizeof **l, store_compare_ops_launch_cmp);
	return 0;
}

/*
 * An allocation's time in ms as the tool works it out from a database
 * export: each of its nanosecond times divided into a binary float of
 * microseconds first, which keeps a quarter of a microsecond at most
 * today, then their difference.
 */
static double
store_compare_ops_db_ms(int64_t alloc, int64_t rel)
{
	double	 a = (double)((long double)alloc / 1000.0L);
	double	 r = (double)((long double)rel / 1000.0L);

	return (r - a) / 1000.0;
}

/* The correlation id in the arguments ARGS of a queue span, or -1. */
static int64_t
store_compare_ops_corr(const char *args)
{
	const char	*p;

	if (args == NULL || (p = strstr(args, "\"correlation_id\"")) == NULL)
		return -1;
	p += strlen("\"correlation_id\"");
	while (*p == ' ' || *p == ':')
		p++;
	return *p >= '0' && *p <= '9' ? strtoll(p, NULL, 10) : -1;
}

/*
 * The allocations of operator_memory.csv in *M, sorted by where the tool
 * places them: at the allocation, or for a CANN op at the enqueue of the
 * dequeue span the allocation falls in (at 0 when that enqueue is not
 * there); an allocation in no dequeue, or without a time, is left out.
 */
static int
store_compare_ops_mems(struct store *s, int64_t rank, struct ops_mem **m,
    size_t *nm, char **cause)
{
	struct util_map	 enq;
	sqlite3_stmt	*stmt;
	int64_t		*ds = NULL, *de = NULL, *dc = NULL, corr, alloc, rel;
	const char	*level, *name;
	uint64_t	 at;
	size_t		 nd = 0, lo, hi, mid;
	int		 rc;
	bool		 db;

	*m = NULL;
	*nm = 0;
	if (!store_has_table(s, "operator_memory"))
		return 0;
	db = store_exists(s, "SELECT 1 FROM meta WHERE key LIKE 'db.%'");
	util_map_init(&enq);
	if (store_prepare(s, &stmt, "SELECT l.s, a.start_ns, a.end_ns, a.args"
	    " FROM api a JOIN str l ON l.id = a.level WHERE l.s IN"
	    " ('enqueue', 'dequeue') AND (?1 IS NULL OR a.rank = ?1) ORDER BY"
	    " a.start_ns, a.id", cause) != 0) {
		util_map_release(&enq);
		return -1;
	}
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		level = (const char *)sqlite3_column_text(stmt, 0);
		corr = store_compare_ops_corr((const char *)
		    sqlite3_column_text(stmt, 3));
		if (strcmp(level, "enqueue") == 0) {
			if (corr >= 0)
				util_map_set(&enq, (uint64_t)corr, (uint64_t)
				    sqlite3_column_int64(stmt, 1));
			continue;
		}
		ds = util_grow(ds, nd, 1, sizeof *ds);
		de = util_grow(de, nd, 1, sizeof *de);
		dc = util_grow(dc, nd, 1, sizeof *dc);
		ds[nd] = sqlite3_column_int64(stmt, 1);
		de[nd] = sqlite3_column_int64(stmt, 2);
		dc[nd++] = corr;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE || store_prepare(s, &stmt, "SELECT Name,"
	    " np_ns(\"Allocation Time(us)\"), np_ns(\"Release Time(us)\"),"
	    " CAST(\"Size(KB)\" AS REAL) FROM operator_memory WHERE (?1 IS"
	    " NULL OR _rank = ?1) ORDER BY rowid", cause) != 0) {
		if (rc != SQLITE_DONE)
			xasprintf(cause, "cannot read the task queue of '%s': %s",
			    s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 1) == SQLITE_NULL ||
		    (alloc = sqlite3_column_int64(stmt, 1)) == 0)
			continue;
		rel = sqlite3_column_type(stmt, 2) == SQLITE_NULL ? 0 :
		    sqlite3_column_int64(stmt, 2);
		name = (const char *)sqlite3_column_text(stmt, 0);
		*m = util_grow(*m, *nm, 1, sizeof **m);
		(*m)[*nm].at = alloc;
		(*m)[*nm].order = *nm;
		(*m)[*nm].ms = rel == 0 ? 0 : db ?
		    store_compare_ops_db_ms(alloc, rel) : (double)(rel - alloc) /
		    1000.0 / 1000.0;
		(*m)[*nm].mb = sqlite3_column_double(stmt, 3) / 1024.0;
		if (name != NULL && strstr(name, "cann::") != NULL) {
			/* The last dequeue starting at or before it. */
			lo = 0;
			hi = nd;
			while (lo < hi) {
				mid = lo + (hi - lo) / 2;
				if (ds[mid] <= alloc)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == 0 || alloc > de[lo - 1])
				continue;
			(*m)[*nm].at = util_map_get(&enq, (uint64_t)dc[lo - 1],
			    &at) ? (int64_t)at : 0;
		}
		(*nm)++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		xasprintf(cause, "cannot read operator_memory of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
	else if (*nm > 1)
		qsort(*m, *nm, sizeof **m, store_compare_ops_mem_cmp);
out:
	free(ds);
	free(de);
	free(dc);
	util_map_release(&enq);
	if (rc != SQLITE_DONE) {
		free(*m);
		*m = NULL;
		*nm = 0;
		return -1;
	}
	return 0;
}

static void
store_compare_ops_side_free(struct ops_side *sd)
{
	size_t	 i;

	for (i = 0; i < sd->n; i++)
		free(sd->v[i].name);
	free(sd->v);
}

/* Op I of OPS into its name's group of SD. */
static void
store_compare_ops_add(struct ops_side *sd, const struct store_compare_op *o,
    bool memory)
{
	size_t	 i;

	for (i = 0; i < sd->n; i++) {
		if (strcmp(sd->v[i].name, o->name) == 0)
			break;
	}
	if (i == sd->n) {
		sd->v = util_grow(sd->v, sd->n, 1, sizeof *sd->v);
		memset(&sd->v[i], 0, sizeof sd->v[i]);
		sd->v[i].name = xstrdup(o->name);
		sd->n++;
	}
	sd->v[i].a += memory ? o->mem_ms : o->dev;
	sd->v[i].b += o->mem_mb;
	sd->v[i].n++;
}

/*
 * The top ops of S (RANK's; under step STEP's ProfilerStep, NP_NA for
 * all) grouped by name in *SD, each with the device time of its
 * subtree's kernels, or (MEMORY) its allocations.
 */
static int
store_compare_ops_of(struct store *s, int64_t rank, int64_t step,
    bool memory, struct ops_side *sd, char **cause)
{
	struct store_compare_op	*ops = NULL;
	struct ops_launch	*l = NULL;
	struct ops_mem		*m = NULL;
	size_t			 n = 0, nl = 0, nm = 0, i, k, lo, hi, mid;
	int64_t			 last = -1, kid, want;
	const char		*p;
	int			 rc = -1;

	memset(sd, 0, sizeof *sd);
	if (store_compare_tree(s, rank, &ops, &n, cause) != 0)
		return -1;
	if (!memory && store_compare_ops_launches(s, rank, &l, &nl,
	    cause) != 0)
		goto out;
	if (memory && store_compare_ops_mems(s, rank, &m, &nm, cause) != 0)
		goto out;
	/* Each op's kernels: those its start launched, as the tool keys. */
	for (i = 0; i < n && nl > 0; i++) {
		lo = 0;
		hi = nl;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (l[mid].at < ops[i].start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < nl && l[lo].at == ops[i].start; lo++)
			ops[i].dev += l[lo].us / 1000.0;
	}
	/* Each allocation to the op open at it, ops first where they tie. */
	for (i = k = 0; k < nm; ) {
		if (i < n && ops[i].start <= m[k].at) {
			last = (int64_t)i++;
			continue;
		}
		while (last >= 0 && m[k].at > ops[last].end)
			last = ops[last].parent;
		if (last >= 0) {
			ops[last].mem_ms += m[k].ms;
			ops[last].mem_mb += m[k].mb;
		}
		k++;
	}
	/* Subtrees: a child comes after its parent. */
	for (i = n; i > 0; i--) {
		if (ops[i - 1].parent < 0)
			continue;
		ops[ops[i - 1].parent].dev += ops[i - 1].dev;
		ops[ops[i - 1].parent].mem_ms += ops[i - 1].mem_ms;
		ops[ops[i - 1].parent].mem_mb += ops[i - 1].mem_mb;
	}
	for (i = 0; i < n; i++) {
		if (ops[i].parent != -1)
			continue;
		if (!ops[i].step) {
			if (step == NP_NA)
				store_compare_ops_add(sd, &ops[i], memory);
			continue;
		}
		p = strstr(ops[i].name, "ProfilerStep#") + 13;
		want = *p >= '0' && *p <= '9' ? strtoll(p, NULL, 10) : NP_NA;
		if (step != NP_NA && want != step)
			continue;
		for (kid = ops[i].kid; kid >= 0; kid = ops[kid].next)
			store_compare_ops_add(sd, &ops[kid], memory);
	}
	rc = 0;
out:
	store_compare_tree_free(ops, n);
	free(l);
	free(m);
	if (rc != 0)
		store_compare_ops_side_free(sd);
	return rc;
}

/* A row and its difference, for the sort. */
struct ops_row {
	char		**cells;
	struct store_val *vals;
	double		 diff;
	size_t		 order;
};

static int
store_compare_ops_row_cmp(const void *a, const void *b)
{
	const struct ops_row	*x = a, *y = b;

	if (x->diff != y->diff)
		return x->diff > y->diff ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Cells AT.. of group G (NULL: none): time (and size), count. */
static void
store_compare_ops_cells(char **cells, struct store_val *vals, size_t at,
    const struct ops_group *g, bool memory)
{
	store_compare_num(cells, vals, at++, g != NULL ?
	    store_compare_round(g->a, 6) + 0.0 : 0);
	if (memory)
		store_compare_num(cells, vals, at++, g != NULL ?
		    store_compare_round(g->b, 6) + 0.0 : 0);
	xasprintf(&cells[at], "%lld", (long long)(g != NULL ? g->n : 0));
	vals[at].kind = VAL_INT;
	vals[at].i = g != NULL ? g->n : 0;
}

/* Table op_compare (MEMORY: memory_compare) of BASE and NEW. */
static struct store_rows *
store_compare_ops_table(struct store *base, struct store *new,
    const struct store_compare *o, bool memory, char **cause)
{
	static const char *const op_names[] = { "Top", "Operator Name",
	    "Base Device Duration(ms)", "Base Operator Number",
	    "Comparison Device Duration(ms)", "Comparison Operator Number",
	    "Diff Duration(ms)", "Diff Ratio" };
	static const char *const mem_names[] = { "Top", "Operator Name",
	    "Base Allocated Duration(ms)", "Base Allocated Memory(MB)",
	    "Base Operator Number", "Comparison Allocated Duration(ms)",
	    "Comparison Allocated Memory(MB)", "Comparison Operator Number",
	    "Diff Memory(MB)", "Diff Ratio" };
	struct ops_side		 b, c;
	struct ops_row		*rows = NULL, *row;
	struct store_rows	*r;
	const struct ops_group	*bg, *cg;
	size_t			 nc = memory ? 10 : 8, n = 0, i, j;
	double			 x, y;

	if (store_compare_ops_of(base, o->base_rank, o->base_step, memory, &b,
	    cause) != 0)
		return NULL;
	if (store_compare_ops_of(new, o->rank, o->step, memory, &c,
	    cause) != 0) {
		store_compare_ops_side_free(&b);
		return NULL;
	}
	if ((o->base_step != NP_NA && b.n == 0) || (o->step != NP_NA &&
	    c.n == 0)) {
		xasprintf(cause, "the %s run has no PyTorch ops under "
		    "ProfilerStep#%lld", b.n == 0 ? "base" : "comparison",
		    (long long)(b.n == 0 ? o->base_step : o->step));
		store_compare_ops_side_free(&b);
		store_compare_ops_side_free(&c);
		return NULL;
	}
	r = store_compare_rows(memory ? mem_names : op_names, nc, memory ?
	    "ITRRIRRIRR" : "ITRIRIRR");
	for (i = 0; i < b.n + c.n; i++) {
		bg = i < b.n ? &b.v[i] : NULL;
		cg = NULL;
		if (bg != NULL) {
			for (j = 0; j < c.n && cg == NULL; j++) {
				if (!c.v[j].used && strcmp(c.v[j].name,
				    bg->name) == 0)
					cg = &c.v[j];
			}
			if (cg != NULL)
				c.v[cg - c.v].used = true;
		} else if (!c.v[i - b.n].used)
			cg = &c.v[i - b.n];
		else
			continue;
		rows = util_grow(rows, n, 1, sizeof *rows);
		row = &rows[n];
		row->cells = xcalloc(nc, sizeof *row->cells);
		row->vals = xcalloc(nc, sizeof *row->vals);
		row->order = n++;
		row->cells[1] = xstrdup(bg != NULL ? bg->name : cg->name);
		store_compare_ops_cells(row->cells, row->vals, 2, bg, memory);
		store_compare_ops_cells(row->cells, row->vals, memory ? 5 : 4,
		    cg, memory);
		x = bg == NULL ? 0 : memory ? bg->b : bg->a;
		y = cg == NULL ? 0 : memory ? cg->b : cg->a;
		row->diff = store_compare_round(y - x, 2) + 0.0;
		store_compare_num(row->cells, row->vals, nc - 2, row->diff);
		store_compare_num(row->cells, row->vals, nc - 1,
		    store_compare_ratio(x, y));
	}
	if (n > 1)
		qsort(rows, n, sizeof *rows, store_compare_ops_row_cmp);
	for (i = 0; i < n; i++) {
		xasprintf(&rows[i].cells[0], "%zu", i + 1);
		rows[i].vals[0].kind = VAL_INT;
		rows[i].vals[0].i = (int64_t)i + 1;
		store_rows_add(r, rows[i].cells, rows[i].vals);
		free(rows[i].cells);
		free(rows[i].vals);
	}
	free(rows);
	store_compare_ops_side_free(&b);
	store_compare_ops_side_free(&c);
	return r;
}

/*
 * What op_compare (MEMORY: memory_compare) cannot see in S, as a sentence
 * for a warning, or NULL: the tool then shows zeros, and so do we.
 */
const char *
store_compare_ops_gap(struct store *s, bool memory)
{
	if (!store_exists(s, "SELECT 1 FROM api a JOIN str l ON l.id ="
	    " a.level WHERE l.s = 'python' LIMIT 1"))
		return "has no PyTorch ops";
	if (memory)
		return store_has_table(s, "operator_memory") ? NULL : "has no"
		    " operator_memory.csv: its allocations count as 0";
	if (!store_exists(s, "SELECT 1 FROM flow f JOIN str c ON c.id ="
	    " f.cat WHERE lower(c.s) = 'async_npu' LIMIT 1") &&
	    !store_exists(s, "SELECT 1 FROM api a JOIN str l ON l.id ="
	    " a.level WHERE l.s = 'python' AND json_valid(a.args) AND"
	    " json_array_length(a.args, '$.connection_ids') > 0 LIMIT 1"))
		return "has no async_npu flows (nor connection ids) from its"
		    " PyTorch ops to their kernels: its device durations count"
		    " as 0";
	return NULL;
}

/* op_compare of BASE and NEW; NULL with *cause set on failure. */
struct store_rows *
store_compare_ops(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	return store_compare_ops_table(base, new, o, false, cause);
}

/* memory_compare of BASE and NEW; NULL with *cause set on failure. */
struct store_rows *
store_compare_memory(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	return store_compare_ops_table(base, new, o, true, cause);
}
