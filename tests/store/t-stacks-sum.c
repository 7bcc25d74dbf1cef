/*
 * The ops call tree from task_sum against the same tree from every task:
 * random kernel rows (devices, ranks, steps, op and task types, names and
 * shapes, some of each missing) go into a store through the load
 * interface, and for every device, rank and step filter the tree built
 * from the sums must equal, frame by frame, the one the test builds from
 * the rows it made and, without a step, the one built from the tasks
 * under a time window that holds them all. Once more after a trace gave
 * the tasks steps when they were already loaded.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "tap.h"

#define NTASKS	4000

static const char *ops[] = { "MatMulV2", "Add", NULL };
static const char *types[] = { "AI_CORE", "AI_VECTOR_CORE", NULL };
static const char *names[] = { "mm_1", "add;2", "", NULL };
static const char *shapes[] = { "\"8,8;8,8\"", "N/A", "", NULL };

static uint64_t	rng = 88172645463325252ULL;

static uint64_t
rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* A number below N or, one time in four when NA is set, NP_NA. */
static int64_t
pick(int64_t n, bool na)
{
	if (na && rnd(4) == 0)
		return NP_NA;
	return (int64_t)rnd((uint64_t)n);
}

static void
gen_tasks(struct store *s, struct store_task *v, size_t n)
{
	size_t	 i;
	int64_t	 start = 1000000;

	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof v[i]);
		v[i].device = pick(2, true);
		v[i].rank = pick(2, true);
		v[i].step = rnd(3) ? 1 + pick(3, false) : NP_NA;
		v[i].model_id = v[i].stream = v[i].task = NP_NA;
		v[i].batch = v[i].context = v[i].wait_ns = NP_NA;
		v[i].block_num = v[i].mix_block_num = NP_NA;
		v[i].conn = v[i].api = NP_NA;
		start += (int64_t)rnd(5000);
		v[i].start_ns = start;
		v[i].dur_ns = (int64_t)rnd(100000);
		v[i].op_type = ops[rnd(3)];
		v[i].task_type = types[rnd(3)];
		v[i].name = names[rnd(4)];
		v[i].in_shapes = shapes[rnd(4)];
		store_load_task(s, &v[i]);
	}
}

static bool
want_row(const struct store_task *t, int64_t dev, int64_t rank,
    int64_t step)
{
	return (dev == NP_NA || t->device == dev) &&
	    (rank == NP_NA || t->rank == rank) &&
	    (step == NP_NA || t->step == step);
}

/* The tree store-stacks-build.c makes from the rows, built here. */
static struct store_stacks *
truth_build(const struct store_task *v, size_t n, int64_t dev, int64_t rank,
    int64_t step)
{
	struct store_stacks	*st;
	struct store_frame	*f;
	const char		*op;
	size_t			 i;

	st = store_stacks_create(STACKS_OPS, STACKS_DEVICE);
	for (i = 0; i < n; i++) {
		if (!want_row(&v[i], dev, rank, step))
			continue;
		op = v[i].op_type != NULL ? v[i].op_type : v[i].task_type;
		f = store_stacks_frame_child(st->root,
		    op != NULL && *op != '\0' ? op : "?");
		f->count++;
		f = store_stacks_frame_child(f, v[i].name != NULL &&
		    *v[i].name != '\0' ? v[i].name : "?");
		f->count++;
		if (v[i].in_shapes != NULL && !util_is_na(v[i].in_shapes,
		    strlen(v[i].in_shapes))) {
			f = store_stacks_frame_child(f, v[i].in_shapes);
			f->count++;
		}
		f->self += v[i].dur_ns;
	}
	store_stacks_finish(st);
	return st;
}

/* Every frame of F as "path self total count" lines, depth first. */
static void
tree_text(struct strbuf *b, const struct store_frame *f)
{
	char	*p;
	size_t	 i;

	if (f->parent != NULL) {
		p = store_stacks_frame_path(f);
		strbuf_addf(b, "%s %lld %lld %lld\n", p, (long long)f->self,
		    (long long)f->total, (long long)f->count);
		free(p);
	}
	for (i = 0; i < f->nkids; i++)
		tree_text(b, f->kids[i]);
}

/*
 * Whether A and B have the same frames with the same numbers; the first
 * difference is shown.
 */
static bool
tree_same(const struct store_stacks *a, const struct store_stacks *b)
{
	static bool	 shown;
	struct strbuf	 x, y;
	bool		 same;

	strbuf_init(&x);
	strbuf_init(&y);
	strbuf_adds(&x, "");
	strbuf_adds(&y, "");
	tree_text(&x, a->root);
	tree_text(&y, b->root);
	same = strcmp(x.s, y.s) == 0 && a->whole == b->whole;
	if (!same && !shown) {
		printf("# got:\n%s# want:\n%s", x.s, y.s);
		shown = true;
	}
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

static struct store_stacks *
build(struct store *s, int64_t dev, int64_t rank, int64_t step, bool window)
{
	struct store_stacks_opts	 o;
	struct store_stacks		*st;
	char				*cause = NULL;

	store_stacks_opts_init(&o);
	o.source = STACKS_OPS;
	o.device = dev;
	o.rank = rank;
	o.step = step;
	if (window) {
		o.from_ns = 0;
		o.to_ns = INT64_MAX;
	}
	if ((st = store_stacks_build(s, &o, &cause)) == NULL) {
		printf("# %s\n", cause);
		free(cause);
	}
	return st;
}

/* Check every filter of S, loaded from the N rows V, as the header says. */
static void
check_filters(struct store *s, const struct store_task *v, size_t n,
    const char *what)
{
	struct store_stacks	*st, *want, *all;
	int64_t			 dev, rank, step;
	int			 bad = 0, checked = 0;

	for (dev = -1; dev < 2; dev++) {
	for (rank = -1; rank < 2; rank++) {
	for (step = 0; step < 4; step++) {
		st = build(s, dev < 0 ? NP_NA : dev, rank < 0 ? NP_NA : rank,
		    step == 0 ? NP_NA : step, false);
		want = truth_build(v, n, dev < 0 ? NP_NA : dev,
		    rank < 0 ? NP_NA : rank, step == 0 ? NP_NA : step);
		if (st == NULL || !tree_same(st, want))
			bad++;
		if (step == 0) {
			all = build(s, dev < 0 ? NP_NA : dev, rank < 0 ?
			    NP_NA : rank, NP_NA, true);
			if (st == NULL || all == NULL || !tree_same(st, all))
				bad++;
			store_stacks_free(all);
		}
		checked++;
		store_stacks_free(st);
		store_stacks_free(want);
	}
	}
	}
	ok(bad == 0, "%s: %d filters, the sums give the tasks' trees", what,
	    checked);
	st = build(s, NP_NA, NP_NA, 7, false);
	ok(st == NULL, "%s: a step no task has is an error", what);
	store_stacks_free(st);
}

/*
 * Load the rows, then (when TRACE is set) give the tasks of rank 0 with
 * no step, starting in the middle third, step 3 as a trace's step spans
 * do once the tasks are in.
 */
static void
check_store(const char *db, bool trace)
{
	struct store_task	*v;
	struct store		*s;
	char			*cause = NULL;
	int64_t			 lo, hi;
	size_t			 i;

	v = xcalloc(NTASKS, sizeof *v);
	unlink(db);
	if ((s = store_load_begin(db, "/nonexistent-sums", &cause)) == NULL) {
		ok(0, "load: %s", cause);
		free(cause);
		free(v);
		return;
	}
	gen_tasks(s, v, NTASKS);
	if (trace) {
		lo = v[NTASKS / 3].start_ns;
		hi = v[2 * NTASKS / 3].start_ns;
		store_trace_load_task_step(s, 0, 3, lo, hi);
		for (i = 0; i < NTASKS; i++) {
			if (v[i].step == NP_NA && v[i].rank == 0 &&
			    v[i].start_ns >= lo && v[i].start_ns <= hi)
				v[i].step = 3;
		}
	}
	ok(store_load_commit(s, &cause) == 0, "commit");
	if ((s = store_open(db, &cause)) == NULL) {
		ok(0, "open: %s", cause);
		free(cause);
		free(v);
		return;
	}
	check_filters(s, v, NTASKS, trace ? "steps set after the load" :
	    "rows as loaded");
	store_free(s);
	free(v);
}

int
main(void)
{
	char	 dir[] = "/tmp/t-stacks-sum.XXXXXX", *db;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/s.db", dir);
	check_store(db, false);
	check_store(db, true);
	unlink(db);
	free(db);
	rmdir(dir);
	return done_testing();
}
