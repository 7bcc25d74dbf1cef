/*
 * The timeline queries against brute force: random overlapping and
 * zero-length tasks on two streams (one long enough for the bins), busy
 * time and span counts per cell at many random frames and cell counts,
 * the spans of a window, the span at an instant, next and previous, and
 * the flow between API spans and the tasks they launched.
 */
#include <stdlib.h>
#include <unistd.h>

#include "store.h"
#include "tap.h"

#define NLONG	30000
#define NSHORT	500

struct iv {
	int64_t		 a;
	int64_t		 b;
};

static struct iv	 spans[2][NLONG];
static size_t		 nspans[2];
static uint64_t		 rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(uint64_t n)
{
	return util_rand_next(&rng) % n;
}

static void
add_task(struct store *s, int64_t stream, int64_t start, int64_t dur,
    const char *core, int64_t api, int64_t conn)
{
	struct store_task	 t;

	memset(&t, 0, sizeof t);
	t.device = 0;
	t.rank = 0;
	t.model_id = t.task = t.batch = t.context = NP_NA;
	t.wait_ns = t.block_num = t.mix_block_num = t.step = NP_NA;
	t.stream = stream;
	t.start_ns = start;
	t.dur_ns = dur;
	t.api = api;
	t.conn = conn;
	t.task_type = core;
	t.op_type = "Op";
	t.name = core;
	store_load_task(s, &t);
}

static int64_t
add_api(struct store *s, const char *name, int64_t start, int64_t end,
    int64_t depth, int64_t conn)
{
	struct store_api	 a;

	store_load_api_init(&a, 11, start, end, "runtime", name);
	a.rank = 0;
	a.pid = 10;
	a.conn = conn;
	a.depth = depth;
	return store_load_api(s, &a);
}

/* Remove the store DB and the timeline file built beside it. */
static void
unlink_store(const char *db)
{
	char	*side;

	xasprintf(&side, "%s-timeline", db);
	unlink(side);
	unlink(db);
	free(side);
}

/* Begin a load of a store of its own, NAME in DIR; its path in *DB. */
static struct store *
side_begin(const char *dir, const char *name, char **db)
{
	struct store	*s;
	char		*cause = NULL;

	xasprintf(db, "%s/%s", dir, name);
	s = store_load_begin(*db, dir, &cause);
	free(cause);
	return s;
}

/* Commit the load S into DB and open the store, checked as WHAT, or NULL. */
static struct store *
side_open(struct store *s, const char *db, const char *what)
{
	char	*cause = NULL;

	ok(store_load_commit(s, &cause) == 0 && (s = store_open(db,
	    &cause)) != NULL, "%s", what);
	if (cause != NULL)
		printf("# %s\n", cause);
	free(cause);
	return s;
}

/* Free the store S, if any, and remove its files at DB, which is freed. */
static void
side_end(struct store *s, char *db)
{
	if (s != NULL)
		store_free(s);
	unlink_store(db);
	free(db);
}

static int
cmp_iv(const void *x, const void *y)
{
	const struct iv	*a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a;
}

/* Busy time of lane L inside [a, b), from the spans alone. */
static int64_t
truth_busy(int l, int64_t a, int64_t b)
{
	int64_t	 busy = 0, lo, hi, reach = INT64_MIN;
	size_t	 i;

	for (i = 0; i < nspans[l]; i++) {
		lo = spans[l][i].a > reach ? spans[l][i].a : reach;
		hi = spans[l][i].b;
		if (hi <= lo)
			continue;
		reach = hi;
		if (lo < a)
			lo = a;
		if (hi > b)
			hi = b;
		if (hi > lo)
			busy += hi - lo;
	}
	return busy;
}

static int64_t
truth_starts(int l, int64_t a, int64_t b)
{
	int64_t	 n = 0;
	size_t	 i;

	for (i = 0; i < nspans[l]; i++)
		n += spans[l][i].a >= a && spans[l][i].a < b;
	return n;
}

static int64_t
truth_meet(int l, int64_t a, int64_t b)
{
	int64_t	 n = 0;
	size_t	 i;

	for (i = 0; i < nspans[l]; i++)
		n += (spans[l][i].a < b && spans[l][i].b > a) ||
		    (spans[l][i].a >= a && spans[l][i].a < b);
	return n;
}

static void
fill(struct store *s)
{
	static const char *cores[] = { "AI_CORE", "AI_VECTOR_CORE",
	    "MIX_AIC", "HCCL" };
	int64_t		 t, d;
	size_t		 i;
	int		 l;

	for (l = 0; l < 2; l++) {
		t = 1000000;
		nspans[l] = l == 0 ? NLONG : NSHORT;
		for (i = 0; i < nspans[l]; i++) {
			t += (int64_t)rnd(3000) - 500;	/* may overlap */
			d = rnd(10) == 0 ? 0 : (int64_t)rnd(4000);
			if (rnd(500) == 0)
				d = 3000000;		/* a long one */
			spans[l][i].a = t;
			spans[l][i].b = t + d;
			add_task(s, 40 + l, t, d, cores[rnd(4)], NP_NA,
			    NP_NA);
			t += d / 2;
		}
		qsort(spans[l], nspans[l], sizeof spans[l][0], cmp_iv);
	}
}

static void
check_cells(struct store *s, int64_t lane, int l, int frames)
{
	struct store_cell	 c[300];
	int64_t			 lo, hi, t0, t1, a, b, bad = 0, badn = 0;
	int64_t			 badtype = 0;
	size_t			 w, i;
	char			*cause = NULL;
	int			 f;

	lo = spans[l][0].a - 5000;
	hi = spans[l][nspans[l] - 1].b + 5000;
	for (f = 0; f < frames; f++) {
		w = 1 + (size_t)rnd(299);
		t0 = lo + (int64_t)rnd((uint64_t)(hi - lo));
		t1 = t0 + 1 + (int64_t)rnd(((uint64_t)(hi - t0) >>
		    rnd(20)) + 1);
		if (f == 0) {
			t0 = lo;
			t1 = hi;
			w = 200;
		}
		if (store_timeline_cells(s, lane, t0, t1, w, c, &cause) != 0) {
			ok(0, "cells: %s", cause);
			return;
		}
		for (i = 0; i < w; i++) {
			a = store_timeline_cell_edge(t0, t1, w, i);
			b = store_timeline_cell_edge(t0, t1, w, i + 1);
			bad += c[i].busy_ns != truth_busy(l, a, b);
			badn += c[i].spans != truth_starts(l, a, b);
			badtype += (c[i].type < 0) != (c[i].busy_ns == 0 &&
			    c[i].spans == 0);
		}
	}
	is_int(bad, 0, "lane %d: busy time of every cell is exact", l);
	is_int(badn, 0, "lane %d: spans starting in every cell", l);
	is_int(badtype, 0, "lane %d: a cell has a type iff it has work", l);
}

static void
check_spans(struct store *s, int64_t lane, int l)
{
	struct store_span	*v, sp, next;
	int64_t			 t0, t1, bad = 0;
	size_t			 n, i;
	char			*cause = NULL;
	int			 f, found;

	for (f = 0; f < 50; f++) {
		t0 = spans[l][rnd(nspans[l])].a + (int64_t)rnd(3000) - 1500;
		t1 = t0 + (int64_t)rnd(20000);
		if (store_spans_of_lane(s, lane, t0, t1, 100000, &v, &n,
		    &cause) != 0) {
			ok(0, "spans: %s", cause);
			return;
		}
		bad += (int64_t)n != truth_meet(l, t0, t1);
		for (i = 0; i < n; i++) {
			bad += i > 0 && v[i].start_ns < v[i - 1].start_ns;
			bad += v[i].name == NULL;
			store_spans_release(&v[i]);
		}
		free(v);
	}
	is_int(bad, 0, "lane %d: the spans meeting a window, in order", l);

	found = store_spans_at(s, lane, spans[l][7].a, &sp, &cause);
	ok(found == 1 && sp.start_ns <= spans[l][7].a &&
	    (sp.end_ns > spans[l][7].a || sp.start_ns == spans[l][7].a),
	    "lane %d: the span at an instant covers it", l);
	found = store_spans_step(s, lane, &sp, 0, SPAN_NEXT, &next,
	    &cause);
	ok(found == 1 && next.ord == sp.ord + 1, "next span");
	store_spans_release(&sp);
	found = store_spans_step(s, lane, &next, 0, SPAN_PREV, &sp,
	    &cause);
	ok(found == 1 && sp.ord == next.ord - 1, "previous span");
	store_spans_release(&sp);
	store_spans_release(&next);
	found = store_spans_step(s, lane, NULL, INT64_MIN + 1, SPAN_PREV,
	    &sp, &cause);
	is_int(found, 0, "nothing before the first span");
}

/*
 * Every span of lane L by SPAN_NEXT from before the first and back by
 * SPAN_PREV from the last, across its packed blocks: the truth's starts
 * and ends in order, positions one apart, each named and, every 97th,
 * found again by its task's row id. The span at random instants: the
 * latest-starting one covering it.
 */
static void
check_walk(struct store *s, int64_t lane, int l)
{
	struct store_span	 sp, next, back;
	int64_t			 t, late, bad = 0, badat = 0, badid = 0;
	size_t			 n = 0, i;
	char			*cause = NULL;
	int			 found, f;

	found = store_spans_step(s, lane, NULL, INT64_MIN + 1, SPAN_NEXT,
	    &sp, &cause);
	while (found == 1) {
		bad += n >= nspans[l] || sp.ord != (int64_t)n ||
		    sp.start_ns != spans[l][n].a || sp.name == NULL;
		if (n % 97 == 0 && (store_jump_task_span(s, sp.id, &back,
		    &cause) != 1 || back.lane != lane || back.ord != sp.ord))
			badid++;
		if (n % 97 == 0)
			store_spans_release(&back);
		n++;
		found = store_spans_step(s, lane, &sp, 0, SPAN_NEXT, &next,
		    &cause);
		store_spans_release(&sp);
		sp = next;
	}
	is_int(found, 0, "lane %d: a walk to the last span", l);
	is_int((int64_t)n, (int64_t)nspans[l], "meets every span");
	is_int(bad, 0, "in start order, one position apart, named");
	is_int(badid, 0, "each found again by its row id");
	found = store_spans_step(s, lane, NULL, INT64_MAX, SPAN_PREV, &sp,
	    &cause);
	for (bad = 0; found == 1; n--) {
		bad += n == 0 || sp.ord != (int64_t)n - 1 ||
		    sp.start_ns != spans[l][n - 1].a;
		found = store_spans_step(s, lane, &sp, 0, SPAN_PREV, &next,
		    &cause);
		store_spans_release(&sp);
		sp = next;
	}
	ok(found == 0 && n == 0 && bad == 0,
	    "lane %d: and back to the first", l);
	for (f = 0; f < 300; f++) {
		t = spans[l][rnd(nspans[l])].a + (int64_t)rnd(4000) - 2000;
		for (late = INT64_MIN, i = 0; i < nspans[l]; i++) {
			if (spans[l][i].a <= t && (spans[l][i].b > t ||
			    spans[l][i].a == t))
				late = spans[l][i].a;
		}
		found = store_spans_at(s, lane, t, &sp, &cause);
		badat += found != (late != INT64_MIN) ||
		    (found == 1 && sp.start_ns != late);
		if (found == 1)
			store_spans_release(&sp);
	}
	is_int(badat, 0, "lane %d: the span at an instant", l);
}

static void
check_flow(struct store *s, struct store_lane *lanes, size_t n)
{
	struct store_span	 sp, to;
	struct store_rows	*r;
	char			*cause = NULL;
	size_t			 i;
	int64_t			 api = -1, flane = -1;

	for (i = 0; i < n; i++) {
		if (lanes[i].kind == LANE_API && lanes[i].depth == 1)
			api = lanes[i].id;
		if (lanes[i].kind == LANE_STREAM && lanes[i].stream == 7)
			flane = lanes[i].id;
	}
	ok(api > 0 && flane > 0, "nested API spans and a stream lane");
	if (api <= 0 || flane <= 0)
		return;
	ok(store_spans_at(s, flane, 50000100, &sp, &cause) == 1,
	    "the launched task");
	ok(store_spans_flow(s, &sp, &to, &cause) == 1 && to.lane == api &&
	    to.start_ns == 50000000 && to.name != NULL &&
	    strcmp(to.name, "aclrtLaunchKernel") == 0,
	    "flow from a task to its API span (by connection id)");
	r = store_spans_detail(s, &sp, &cause);
	ok(r != NULL && r->nrows == 10 &&
	    strcmp(store_rows_cell(r, 9, 1), "aclrtLaunchKernel") == 0,
	    "task details name the launching API");
	store_rows_free(r);
	store_spans_release(&sp);
	ok(store_spans_flow(s, &to, &sp, &cause) == 1 && sp.lane == flane &&
	    sp.start_ns == 50000100, "flow back from the API to the task");
	store_spans_release(&sp);
	store_spans_release(&to);
	ok(store_spans_at(s, flane, 60000100, &sp, &cause) == 1 &&
	    store_spans_flow(s, &sp, &to, &cause) == 1 &&
	    to.start_ns == 60000000, "flow by API row id");
	store_spans_release(&sp);
	store_spans_release(&to);
}

/*
 * Jumps to what two lanes share a key for: the mstx markers of one pid and
 * thread id on two ranks (each found on its own lane), and two steps of
 * one iteration (two models): the earlier.
 */
static void
check_jump_lanes(const char *dir)
{
	struct store		*s;
	struct store_api	 a;
	struct store_step	 st;
	struct store_span	 sp;
	char			*db, *cause = NULL;
	int			 r, found;

	s = side_begin(dir, "lanes.db", &db);
	for (r = 0; r < 2; r++) {
		store_load_api_init(&a, 43, 100 + 200 * r, 200 + 200 * r,
		    "mstx", "mark");
		a.rank = r;
		a.pid = 42;
		store_load_api(s, &a);
		memset(&st, 0, sizeof st);
		st.device = 0;
		st.rank = 0;
		st.model_id = 9 - r;
		st.iter = 1;
		st.fp_start_ns = st.bp_end_ns = st.fp_bp_ns = NP_NA;
		st.refresh_ns = st.data_aug_ns = NP_NA;
		st.iter_end_ns = 2000 - 500 * r;
		st.iter_time_ns = 1000;
		store_load_step(s, &st);
	}
	add_task(s, 3, 100, 10, "AI_CORE", NP_NA, NP_NA);
	if ((s = side_open(s, db, "a store of markers on two ranks")) == NULL)
		goto out;
	for (r = 0; r < 2; r++) {
		found = store_jump_marker_span(s, 42, 43, 100 + 200 * r, "m",
		    &sp, &cause);
		ok(found == 1 && sp.start_ns == 100 + 200 * r &&
		    sp.end_ns == 200 + 200 * r, "the marker of rank %d", r);
		if (found == 1)
			store_spans_release(&sp);
	}
	found = store_jump_step_span(s, 0, NP_NA, 1, &sp, &cause);
	ok(found == 1 && sp.start_ns == 500, "of two steps of an iteration,"
	    " the earlier");
	if (found == 1)
		store_spans_release(&sp);
out:
	side_end(s, db);
	free(cause);
}

/*
 * More threads than the builder keeps lanes open for at once, their spans
 * interleaved: a lane each, of two spans.
 */
static void
check_many_threads(const char *dir)
{
	struct store		*s;
	struct store_api	 a;
	struct store_lane	*lanes;
	char			*db, *cause = NULL;
	size_t			 n = 0, i, good = 0;
	int			 k;

	s = side_begin(dir, "threads.db", &db);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 4200; i++) {
			store_load_api_init(&a, 1000 + (int64_t)i, 1000 * k +
			    (int64_t)i, 1000 * k + (int64_t)i + 10, "acl", "t");
			store_load_api(s, &a);
		}
	}
	if ((s = side_open(s, db, "a store of 4200 threads")) == NULL)
		goto out;
	if (store_lanes(s, &lanes, &n, &cause) == 0) {
		for (i = 0; i < n; i++)
			good += lanes[i].nspans == 2;
		store_lanes_free(lanes, n);
	}
	ok(n == 4200 && good == n, "a lane each, of both spans");
out:
	side_end(s, db);
	free(cause);
}

/*
 * API spans an importer wrote out of start order (a thread's, last first,
 * beside another thread's in order): the timeline reads them sorted.
 */
static void
check_unordered(const char *dir)
{
	struct store		*s;
	struct store_api	 a;
	struct store_lane	*lanes;
	struct store_span	 sp, next;
	char			*db, *cause = NULL;
	size_t			 n, i;
	int64_t			 prev = INT64_MIN, bad = 0;
	int			 found, k = 0;

	s = side_begin(dir, "unordered.db", &db);
	for (i = 0; i < 300; i++) {
		store_load_api_init(&a, 5, 1000000 - 1000 * (int64_t)i,
		    1000000 - 1000 * (int64_t)i + 500, "acl", "late");
		store_load_api(s, &a);
		store_load_api_init(&a, 6, 1000 * (int64_t)i,
		    1000 * (int64_t)i + 500, "acl", "early");
		store_load_api(s, &a);
	}
	if ((s = side_open(s, db, "a store of spans out of start order")) ==
	    NULL)
		goto out;
	ok(store_lanes(s, &lanes, &n, &cause) == 0 && n == 2 &&
	    lanes[0].nspans == 300 && lanes[1].nspans == 300,
	    "two lanes of 300 spans");
	found = n > 0 ? store_spans_step(s, lanes[0].id, NULL, INT64_MIN + 1,
	    SPAN_NEXT, &sp, &cause) : 0;
	for (; found == 1; k++) {
		bad += sp.start_ns < prev;
		prev = sp.start_ns;
		found = store_spans_step(s, lanes[0].id, &sp, 0, SPAN_NEXT,
		    &next, &cause);
		store_spans_release(&sp);
		sp = next;
	}
	ok(k == 300 && bad == 0, "each in start order");
	if (n > 0)
		store_lanes_free(lanes, n);
out:
	side_end(s, db);
	free(cause);
}

/* An epoch start in ns shows to the ns: a double of us would round it. */
static void
check_detail_times(const char *dir)
{
	struct store		*s;
	struct store_span	 sp;
	struct store_rows	*r;
	char			*db, *cause = NULL;

	s = side_begin(dir, "epoch.db", &db);
	add_task(s, 3, INT64_C(1782291497409494491), 1234567, "AI_CORE",
	    NP_NA, NP_NA);
	if ((s = side_open(s, db, "epoch store")) == NULL)
		goto out;
	r = NULL;
	if (store_jump_task_span(s, 1, &sp, &cause) == 1) {
		r = store_spans_detail(s, &sp, &cause);
		store_spans_release(&sp);
	}
	ok(r != NULL && r->nrows == 10, "epoch task details");
	if (r != NULL) {
		is_str(store_rows_cell(r, 4, 1), "1782291497409494.491",
		    "start to the ns");
		is_str(store_rows_cell(r, 5, 1), "1234.567", "duration");
		ok(store_rows_num(r, 5, 1) == 1234.567, "duration as a number");
	}
	store_rows_free(r);
out:
	side_end(s, db);
	free(cause);
}

int
main(void)
{
	struct store		*s;
	struct store_lane	*lanes;
	struct store_cell	 c[3];
	char			 dir[] = "/tmp/t-timeline.XXXXXX", *db;
	char			*cause = NULL;
	size_t			 n;
	int64_t			 a2;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);
	s = store_load_begin(db, dir, &cause);
	fill(s);
	add_api(s, "aclnnAdd", 49000000, 51000000, 0, NP_NA);
	add_api(s, "aclrtLaunchKernel", 50000000, 50000500, 1, 77);
	add_task(s, 7, 50000100, 900, "AI_CORE", NP_NA, 77);
	a2 = add_api(s, "aclrtLaunchKernel", 60000000, 60000400, 1, NP_NA);
	add_task(s, 7, 60000100, 900, "SDMA", a2, NP_NA);
	ok(store_load_commit(s, &cause) == 0, "commit");
	s = store_open(db, &cause);
	ok(s != NULL, "open");

	ok(store_lanes(s, &lanes, &n, &cause) == 0 && n == 5, "five lanes");
	is_str(lanes[0].name, "Thread 11", "host thread first");
	is_str(lanes[1].name, "Thread 11.1", "then its nested row");
	is_str(lanes[2].name, "Stream 7", "then the streams");
	is_str(lanes[2].group, "Rank 0 Device 0", "grouped per device");
	is_int(lanes[3].nspans, NLONG, "every span on its lane");

	check_cells(s, lanes[3].id, 0, 400);
	check_cells(s, lanes[4].id, 1, 400);
	check_spans(s, lanes[3].id, 0);
	check_spans(s, lanes[4].id, 1);
	check_walk(s, lanes[3].id, 0);
	check_walk(s, lanes[4].id, 1);
	check_flow(s, lanes, n);

	ok(store_timeline_cells(s, lanes[2].id, 60000000, 60001003, 3, c,
	    &cause) == 0 && c[0].type == SPAN_MEMCPY &&
	    c[0].busy_ns == 234 && c[1].busy_ns == 334 &&
	    c[2].busy_ns == 332, "SDMA is memcpy; cells at odd edges");
	ok(store_timeline_cells(s, lanes[2].id, 10, 10, 3, c, &cause) == -1,
	    "an empty frame is refused");
	free(cause);
	is_str(store_lanes_type_name(SPAN_COMM), "comm", "type names");
	is_str(store_lanes_type_name(-1), "none", "no type");
	store_lanes_free(lanes, n);
	store_free(s);
	check_detail_times(dir);
	check_jump_lanes(dir);
	check_unordered(dir);
	check_many_threads(dir);
	unlink_store(db);
	rmdir(dir);
	free(db);
	return done_testing();
}
