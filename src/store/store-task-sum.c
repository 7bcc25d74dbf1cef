/*
 * The table task_sum: the task rows summed per (device, rank, step, op
 * type, task type, name, input shapes), with their count, time, first
 * start and last end. The ops call tree of store-stacks-build.c reads
 * these few rows, not millions of tasks, unless it is cut to a time
 * window. The groups are gathered in a hash table as tasks are loaded; a
 * load that changed task rows after adding them (a trace that fills in a
 * kernel row's device or step) gathers them again from the task table
 * when it commits. A sum that does not fit in 64 bits leaves the table
 * empty, and the tree is then read from the tasks.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* One group: its key, as in the task table (NP_NA for NULL), and sums. */
struct task_sum {
	struct task_sum_key	 k;
	int64_t			 count;
	int64_t			 dur;
	int64_t			 start;		/* the first start */
	int64_t			 end;		/* the last start + dur */
	size_t			 same;		/* 1 + the group before */
};

/* The groups in the order they came, indexed by a hash of their key. */
struct task_sums {
	struct task_sum		*v;
	size_t			 n;
	struct util_map		 index;		/* hash -> 1 + the newest */
	bool			 overflow;	/* a sum did not fit */
	bool			 stale;		/* tasks changed once loaded */
};

static uint64_t
store_task_sum_hash(const struct task_sum_key *k)
{
	const int64_t	 v[] = { k->device, k->rank, k->step, k->op,
			    k->core, k->name, k->shapes };
	uint64_t	 h = 0x9E3779B97F4A7C15ULL;
	size_t		 i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		h = (h ^ (uint64_t)v[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool
store_task_sum_same(const struct task_sum_key *a, const struct task_sum_key *b)
{
	return a->device == b->device && a->rank == b->rank &&
	    a->step == b->step && a->op == b->op && a->core == b->core &&
	    a->name == b->name && a->shapes == b->shapes;
}

/* The group of K in U, made empty if new. */
static struct task_sum *
store_task_sum_find(struct task_sums *u, const struct task_sum_key *k)
{
	struct task_sum	*g;
	uint64_t	 h, head = 0;
	size_t		 j;

	h = store_task_sum_hash(k);
	if (util_map_get(&u->index, h, &head)) {
		for (j = (size_t)head; j != 0; j = u->v[j - 1].same) {
			g = &u->v[j - 1];
			if (store_task_sum_same(&g->k, k))
				return g;
		}
	}
	u->v = util_grow(u->v, u->n, 1, sizeof *u->v);
	g = &u->v[u->n++];
	memset(g, 0, sizeof *g);
	g->k = *k;
	g->same = (size_t)head;
	util_map_set(&u->index, h, u->n);
	return g;
}

/* Count a task of key K starting at START and lasting DUR into S. */
void
store_task_sum_add(struct store *s, const struct task_sum_key *k,
    int64_t start, int64_t dur)
{
	struct task_sums	*u;
	struct task_sum		*g;
	int64_t			 end;

	if (start == NP_NA || dur == NP_NA)
		return;		/* not a row: the insert failed */
	if (s->sums == NULL)
		s->sums = xcalloc(1, sizeof *s->sums);
	u = s->sums;
	g = store_task_sum_find(u, k);
	if (!util_add(start, dur, &end) || !util_add(g->dur, dur, &g->dur))
		u->overflow = true;
	if (g->count == 0 || start < g->start)
		g->start = start;
	if (g->count == 0 || end > g->end)
		g->end = end;
	g->count++;
}

/*
 * Say that task rows already loaded changed in a column of the key: the
 * commit gathers the groups again from the table.
 */
void
store_task_sum_stale(struct store *s)
{
	if (s->sums != NULL)
		s->sums->stale = true;
}

void
store_task_sum_free(struct store *s)
{
	if (s->sums == NULL)
		return;
	free(s->sums->v);
	util_map_release(&s->sums->index);
	free(s->sums);
	s->sums = NULL;
}

static int64_t
store_task_sum_col(sqlite3_stmt *stmt, int col)
{
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return NP_NA;
	return sqlite3_column_int64(stmt, col);
}

/* Gather the groups again from every task row of S. */
static int
store_task_sum_scan(struct store *s, char **cause)
{
	struct task_sum_key	 k;
	sqlite3_stmt		*stmt;
	int			 rc;

	store_task_sum_free(s);
	if (store_prepare(s, &stmt, "SELECT device, rank, step, op_type,"
	    " task_type, name, in_shapes, start_ns, dur_ns FROM task",
	    cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		k.device = store_task_sum_col(stmt, 0);
		k.rank = store_task_sum_col(stmt, 1);
		k.step = store_task_sum_col(stmt, 2);
		k.op = store_task_sum_col(stmt, 3);
		k.core = store_task_sum_col(stmt, 4);
		k.name = store_task_sum_col(stmt, 5);
		k.shapes = store_task_sum_col(stmt, 6);
		store_task_sum_add(s, &k, sqlite3_column_int64(stmt, 7),
		    sqlite3_column_int64(stmt, 8));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot sum the tasks: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/*
 * Write the groups into task_sum when the load commits; nothing if a sum
 * overflowed. On failure return -1 and set *cause.
 */
int
store_task_sum_write(struct store *s, char **cause)
{
	struct task_sum	*g;
	sqlite3_stmt	*stmt;
	size_t		 i;
	int		 c;

	if (s->sums != NULL && s->sums->stale &&
	    store_task_sum_scan(s, cause) != 0)
		return -1;
	if (s->sums == NULL || s->sums->overflow)
		return 0;
	if (store_load_prepare(s, &stmt, "INSERT INTO task_sum VALUES"
	    " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") != 0)
		return store_failed(s, cause);
	for (i = 0; i < s->sums->n; i++) {
		g = &s->sums->v[i];
		c = 1;
		store_load_bind_i64(stmt, c++, g->k.device);
		store_load_bind_i64(stmt, c++, g->k.rank);
		store_load_bind_i64(stmt, c++, g->k.step);
		store_load_bind_i64(stmt, c++, g->k.op);
		store_load_bind_i64(stmt, c++, g->k.core);
		store_load_bind_i64(stmt, c++, g->k.name);
		store_load_bind_i64(stmt, c++, g->k.shapes);
		sqlite3_bind_int64(stmt, c++, g->count);
		sqlite3_bind_int64(stmt, c++, g->dur);
		sqlite3_bind_int64(stmt, c++, g->start);
		sqlite3_bind_int64(stmt, c++, g->end);
		store_write(s, stmt);
	}
	sqlite3_finalize(stmt);
	store_task_sum_free(s);
	return store_failed(s, cause);
}

/* A step of the groups: its key, first start and last end. */
struct task_sum_step {
	int64_t	 device;
	int64_t	 rank;
	int64_t	 step;
	int64_t	 start;
	int64_t	 end;
};

static int
store_task_sum_step_cmp(const void *a, const void *b)
{
	const struct task_sum_step	*x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return 0;
}

/*
 * The steps of the tasks loaded, from their groups rather than a read of
 * the task table: per device, rank and step (not NULL), the first start
 * and the last end, handed to EMIT in the order of those keys (NULL
 * first, as SQL groups them). False, with nothing emitted, when the
 * groups cannot tell: none kept, a sum that overflowed, or rows changed
 * since they were loaded.
 */
bool
store_task_sum_steps(struct store *s, void (*emit)(struct store *,
    const int64_t *, void *), void *arg)
{
	struct task_sums	*u = s->sums;
	struct task_sum_step	*v;
	int64_t			 row[5];
	size_t			 n = 0, i, j;

	if (u == NULL || u->overflow || u->stale)
		return false;
	v = xreallocarray(NULL, u->n > 0 ? u->n : 1, sizeof *v);
	for (i = 0; i < u->n; i++) {
		if (u->v[i].k.step == NP_NA)
			continue;
		v[n].device = u->v[i].k.device;
		v[n].rank = u->v[i].k.rank;
		v[n].step = u->v[i].k.step;
		v[n].start = u->v[i].start;
		v[n++].end = u->v[i].end;
	}
	/* NP_NA is the least number: NULL keys sort first. */
	qsort(v, n, sizeof *v, store_task_sum_step_cmp);
	for (i = 0; i < n; i = j) {
		row[0] = v[i].device;
		row[1] = v[i].rank;
		row[2] = v[i].step;
		row[3] = v[i].start;
		row[4] = v[i].end;
		for (j = i + 1; j < n &&
		    store_task_sum_step_cmp(&v[i], &v[j]) == 0; j++) {
			if (v[j].start < row[3])
				row[3] = v[j].start;
			if (v[j].end > row[4])
				row[4] = v[j].end;
		}
		emit(s, row, arg);
	}
	free(v);
	return true;
}
