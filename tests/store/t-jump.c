/*
 * From tables to the timeline, against brute force over random tasks on
 * two ranks: the op statistic of random windows (and of the whole run,
 * which must equal the computed op_statistic cell for cell), the walk
 * over an op type's instances both ways, and a task found from its row
 * and placed on its stream's lane.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "store.h"
#include "tap.h"

#define NTASKS	3000
#define NOPS	4
#define NCORES	3

struct task {
	int64_t		 rank;
	int64_t		 stream;
	int64_t		 task;
	int64_t		 start;
	int64_t		 dur;
	int		 op;
	int		 core;
	int64_t		 id;
};

static const char *ops[NOPS] = { "MatMul", "Add", "N/A", "Cast" };
static const char *cores[NCORES] = { "AI_CORE", "AI_VECTOR_CORE", "HCCL" };
static struct task	 tasks[NTASKS];
static uint64_t		 rng = 0x2545f4914f6cdd1dULL;

static uint64_t
rnd(uint64_t n)
{
	return util_rand_next(&rng) % n;
}

static void
fill(struct store *s)
{
	struct store_task	 t;
	size_t			 i;

	for (i = 0; i < NTASKS; i++) {
		memset(&t, 0, sizeof t);
		t.device = 0;
		t.rank = tasks[i].rank = (int64_t)rnd(2);
		t.model_id = t.batch = t.context = NP_NA;
		t.wait_ns = t.block_num = t.mix_block_num = t.step = NP_NA;
		t.api = t.conn = NP_NA;
		t.stream = tasks[i].stream = 40 + (int64_t)rnd(3);
		t.task = tasks[i].task = (int64_t)i;
		/* Some starts repeat, so ties are broken by row id. */
		t.start_ns = tasks[i].start = 1000000 + (int64_t)rnd(500) * 997;
		t.dur_ns = tasks[i].dur = 1 + (int64_t)rnd(5000);
		tasks[i].op = (int)rnd(NOPS);
		tasks[i].core = (int)rnd(NCORES);
		t.op_type = ops[tasks[i].op];
		t.task_type = cores[tasks[i].core];
		t.name = "k";
		tasks[i].id = store_load_task(s, &t);
	}
}

/* The window's statistic by brute force against WINDOW's rows. */
static void
check_window(struct store *s, int64_t from, int64_t to)
{
	struct store_rows	*r;
	int64_t			 n, total, mn, mx, sum[2], ns;
	size_t			 i, row;
	int			 op, core, rank, bad = 0, groups = 0;
	char			*cause = NULL;
	double			 ratio;

	r = store_window_op_stat(s, from, to, NP_NA, NP_NA, &cause);
	ok(r != NULL, "window [%lld, %lld)", (long long)from, (long long)to);
	if (r == NULL)
		return;
	sum[0] = sum[1] = 0;
	for (i = 0; i < NTASKS; i++) {
		if (tasks[i].start >= from && tasks[i].start < to &&
		    tasks[i].op != 2 && tasks[i].core != 2)
			sum[tasks[i].rank] += tasks[i].dur;
	}
	row = 0;
	for (rank = 0; rank < 2; rank++) {
		for (op = 0; op < NOPS; op++) {
			for (core = 0; core < 2; core++) {
				n = total = mx = 0;
				mn = INT64_MAX;
				for (i = 0; i < NTASKS; i++) {
					if (tasks[i].rank != rank ||
					    tasks[i].op != op ||
					    tasks[i].core != core ||
					    tasks[i].start < from ||
					    tasks[i].start >= to)
						continue;
					n++;
					total += tasks[i].dur;
					mn = tasks[i].dur < mn ? tasks[i].dur :
					    mn;
					mx = tasks[i].dur > mx ? tasks[i].dur :
					    mx;
				}
				if (n == 0 || op == 2)
					continue;
				groups++;
				/* Rows come by rank, then total. */
				for (row = 0; row < r->nrows; row++) {
					if (strcmp(store_rows_cell(r, row, 1),
					    ops[op]) == 0 && strcmp(
					    store_rows_cell(r, row, 2),
					    cores[core]) == 0 &&
					    r->vals[row * r->ncols + 4].i ==
					    total)
						break;
				}
				if (row == r->nrows) {
					bad++;
					continue;
				}
				ratio = round((double)total * 100.0 /
				    (double)sum[rank] * 1e6) / 1e6;
				if (atoll(store_rows_cell(r, row, 3)) != n ||
				    util_parse_ns(store_rows_cell(r, row, 5),
				    strlen(store_rows_cell(r, row, 5)), &ns) !=
				    0 || ns != mn || util_parse_ns(
				    store_rows_cell(r, row, 6), strlen(
				    store_rows_cell(r, row, 6)), &ns) != 0 ||
				    ns != total / n || util_parse_ns(
				    store_rows_cell(r, row, 7), strlen(
				    store_rows_cell(r, row, 7)), &ns) != 0 ||
				    ns != mx || fabs(atof(store_rows_cell(r,
				    row, 8)) - ratio) > 0.0005)
					bad++;
			}
		}
	}
	is_int(bad, 0, "every group of the window as brute force");
	is_int((int64_t)r->nrows, groups,
	    "no other groups (N/A, HCCL left out)");
	store_rows_free(r);
}

/* The window over everything is the computed op_statistic. */
static void
check_whole(struct store *s)
{
	const struct store_table	*t;
	struct store_query		 q;
	struct store_rows		*a, *b;
	size_t				 i, j;
	int				 bad = 0;
	char				*cause = NULL;

	a = store_window_op_stat(s, INT64_MIN, INT64_MAX, NP_NA, NP_NA,
	    &cause);
	t = store_tables_find_base(s, "op_statistic");
	store_query_init(&q);
	q.origin = STORE_FROM_TASKS;
	b = t != NULL ? store_query_table(s, t, &q, &cause) : NULL;
	ok(a != NULL && b != NULL && a->nrows == b->nrows &&
	    a->ncols == b->ncols,
	    "the whole run: as many rows as op_statistic");
	if (a == NULL || b == NULL || a->nrows != b->nrows ||
	    a->ncols != b->ncols) {
		store_rows_free(a);
		store_rows_free(b);
		return;
	}
	/* Rows of both ranks interleave alike: compare as sets. */
	for (i = 0; i < a->nrows; i++) {
		for (j = 0; j < b->nrows; j++) {
			size_t	 k;

			for (k = 0; k < a->ncols; k++) {
				if (strcmp(store_rows_cell(a, i, k),
				    store_rows_cell(b, j, k)) != 0)
					break;
			}
			if (k == a->ncols)
				break;
		}
		if (j == b->nrows)
			bad++;
	}
	is_int(bad, 0, "every row equals a computed op_statistic row");
	store_rows_free(a);
	store_rows_free(b);
}

static int
cmp_task(const void *x, const void *y)
{
	const struct task	*a = *(const struct task *const *)x;
	const struct task	*b = *(const struct task *const *)y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Walk MatMul on AI_CORE of rank 1 both ways. */
static void
check_instances(struct store *s)
{
	struct store_op_instances	 q;
	const struct task		*want[NTASKS];
	size_t				 n = 0, i, k;
	int64_t				 id = 0, start = 0;
	int				 bad = 0;
	char				*cause = NULL;

	for (i = 0; i < NTASKS; i++) {
		if (tasks[i].op == 0 && tasks[i].core == 0 &&
		    tasks[i].rank == 1)
			want[n++] = &tasks[i];
	}
	qsort(want, n, sizeof *want, cmp_task);
	memset(&q, 0, sizeof q);
	q.op_type = "MatMul";
	q.core_type = "AI_CORE";
	q.device = 0;
	q.rank = 1;
	q.from_ns = q.to_ns = NP_NA;
	is_int(store_jump_op_count(s, &q, &cause), (int64_t)n,
	    "the instances are counted");
	for (k = 0; k < n; k++) {
		if (store_jump_op_instance(s, &q, start, id, SPAN_NEXT, &id,
		    &start, &cause) != 1 || id != want[k]->id)
			bad++;
	}
	is_int(bad, 0, "next walks the %zu instances in start order", n);
	ok(store_jump_op_instance(s, &q, start, id, SPAN_NEXT, &id, &start,
	    &cause) == 0, "none after the last");
	bad = 0;
	for (k = n - 1; k > 0; k--) {
		if (store_jump_op_instance(s, &q, start, id, SPAN_PREV, &id,
		    &start, &cause) != 1 || id != want[k - 1]->id)
			bad++;
	}
	is_int(bad, 0, "previous walks them back");
	q.from_ns = want[n / 2]->start;
	q.to_ns = want[n - 1]->start;
	ok(store_jump_op_instance(s, &q, 0, 0, SPAN_NEXT, &id, &start,
	    &cause) == 1 && start >= q.from_ns, "a window starts the walk");
}

/* A task found from what its row shows, then placed on its lane. */
static void
check_locate(struct store *s)
{
	struct store_lane	*lanes;
	struct store_span	 sp;
	size_t			 n, i, l;
	int64_t			 id;
	int			 bad = 0;
	char			*cause = NULL;

	ok(store_lanes(s, &lanes, &n, &cause) == 0, "lanes");
	for (i = 0; i < NTASKS; i += 97) {
		if (store_jump_locate(s, 0, tasks[i].rank, tasks[i].stream,
		    tasks[i].task, tasks[i].start, &id, &cause) != 1 ||
		    id != tasks[i].id ||
		    store_jump_task_span(s, id, &sp, &cause) != 1) {
			bad++;
			continue;
		}
		for (l = 0; l < n && lanes[l].id != sp.lane; l++)
			continue;
		if (l == n || lanes[l].stream != tasks[i].stream ||
		    lanes[l].rank != tasks[i].rank ||
		    sp.start_ns != tasks[i].start ||
		    sp.end_ns != tasks[i].start + tasks[i].dur ||
		    sp.name == NULL || strcmp(sp.name, "k") != 0)
			bad++;
		store_spans_release(&sp);
	}
	is_int(bad, 0, "tasks located and placed on their stream's lane");
	ok(store_jump_locate(s, 0, NP_NA, 40, 99999, 1, &id, &cause) == 0,
	    "no such task");
	store_lanes_free(lanes, n);
}

int
main(void)
{
	struct store	*s;
	char		 dir[] = "/tmp/t-jump.XXXXXX", *db;
	char		*cause = NULL;
	int		 i;
	int64_t		 a, b;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);
	s = store_load_begin(db, dir, &cause);
	fill(s);
	ok(store_load_commit(s, &cause) == 0, "commit");
	s = store_open(db, &cause);
	ok(s != NULL, "open");
	check_whole(s);
	for (i = 0; i < 6; i++) {
		a = 1000000 + (int64_t)rnd(500000);
		b = a + (int64_t)rnd(300000);
		check_window(s, a, b);
	}
	check_window(s, 0, 1);
	check_instances(s);
	check_locate(s);
	store_free(s);
	unlink(db);
	/* The timeline the lanes were built into, beside the store. */
	free(db);
	xasprintf(&db, "%s/x.db-timeline", dir);
	unlink(db);
	rmdir(dir);
	free(db);
	return done_testing();
}
