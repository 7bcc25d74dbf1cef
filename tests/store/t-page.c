/*
 * The UI's pager over a task table: a filter, or a sort keyset paging
 * cannot follow, runs as a scan in a thread; the pages it gives, once the
 * scan is done, must be the rows show prints for the same query, in the
 * same order, and a scan freed while it runs must stop cleanly.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"
#include "tap.h"

#define NTASKS	20000
#define NORDERED 20000
#define SHOW(s)	((s) != NULL ? (s) : "-")

/* The threads of this process, or -1 where /proc cannot tell. */
static int
threads(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	if ((d = opendir("/proc/self/task")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] != '.')
			n++;
	}
	closedir(d);
	return n;
}

static const char *types[] = { "Relu", "Cast", "MatMulV2", "Conv2D", "Add" };

static void
add_tasks(struct store *s)
{
	struct store_task	 t;
	char			 name[32];
	int64_t			 i;

	for (i = 0; i < NTASKS; i++) {
		memset(&t, 0, sizeof t);
		t.device = i % 3 == 0 ? 1 : 0;
		t.rank = 0;
		t.model_id = t.batch = t.context = NP_NA;
		t.wait_ns = t.mix_block_num = t.step = t.conn = t.api = NP_NA;
		t.stream = i % 4;
		t.task = i;
		t.block_num = (i * 7919) % 13;
		t.start_ns = 1000000 + ((i * 104729) % NTASKS) * 1000;
		t.dur_ns = 100 + (i * 31) % 977;
		t.op_type = types[i % 5];
		snprintf(name, sizeof name, "%s_%lld", types[i % 5],
		    (long long)(i % 37));
		t.name = name;
		t.task_type = i % 5 < 2 ? "AI_VECTOR_CORE" : "AI_CORE";
		store_load_task(s, &t);
	}
}

/*
 * Tasks for the in-memory sorts: some keys are NULL, some strings
 * missing, many equal, and there are ids enough for two halves.
 */
static void
add_ordered(struct store *s)
{
	static const char	*states[] = { "dynamic", "static", NULL };
	struct store_task	 t;
	char			 name[32], shape[32];
	int64_t			 i;

	for (i = 0; i < NORDERED; i++) {
		memset(&t, 0, sizeof t);
		t.device = i < NORDERED / 3 ? 0 : 1;
		t.rank = 0;
		t.model_id = i % 11 == 0 ? NP_NA : i % 3;
		t.batch = t.context = NP_NA;
		t.mix_block_num = t.step = t.conn = t.api = NP_NA;
		t.wait_ns = i % 7 == 0 ? NP_NA : (i * 7877) % 100003;
		t.stream = i % 4;
		t.task = i % 65536;
		t.block_num = i % 5 == 0 ? NP_NA : (i * 7919) % 13 - 4;
		t.start_ns = 1000000 + (i / 2) * 1000;
		t.dur_ns = 100 + (i * 31) % 977;
		t.op_type = types[i % 5];
		t.op_state = states[i % 3];
		snprintf(name, sizeof name, "%s_%lld", types[(i / 3) % 5],
		    (long long)(i % 37));
		t.name = name;
		snprintf(shape, sizeof shape, "%lld,%lld", (long long)(i % 9),
		    (long long)(i % 4));
		t.in_shapes = i % 6 == 0 ? NULL : shape;
		t.task_type = i % 5 < 2 ? "AI_VECTOR_CORE" : "AI_CORE";
		store_load_task(s, &t);
	}
}

/* Poll P until its scan is done (20 s at most); false on a time out. */
static bool
wait_done(struct store_page *p)
{
	struct store_page_state	 st;
	struct timespec		 ts = { 0, 5000000 };
	int			 i;

	for (i = 0; i < 4000; i++) {
		store_page_state(p, &st);
		if (st.phase == NULL)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* Page through SORT and FILTER and compare with store_query_table(). */
static bool	 last_in_memory;

static void
check(struct store *s, const struct store_table *t, const char *sort,
    const char *filter, int64_t device)
{
	struct store_query	 q;
	struct store_page	*p;
	struct store_rows	*all, *r;
	struct store_page_state	 st;
	char			*cause = NULL;
	int64_t			 off = 0;
	size_t			 i, j, bad = 0, n = 0;
	bool			 ids = true;

	store_query_init(&q);
	q.sort = sort;
	q.filter = filter;
	q.device = device;
	all = store_query_table(s, t, &q, &cause);
	p = store_page_create(s, t, &q, &cause);
	if (all == NULL || p == NULL) {
		ok(0, "sort '%s' filter '%s': %s", SHOW(sort), SHOW(filter),
		    cause);
		free(cause);
		store_rows_free(all);
		store_page_free(p);
		return;
	}
	ok(wait_done(p), "sort '%s' filter '%s': the scan ends", SHOW(sort),
	    SHOW(filter));
	is_int(store_page_count(p), (int64_t)all->nrows, "it counts the rows");
	store_page_state(p, &st);
	if (st.error != NULL)
		printf("# the scan failed: %s\n", st.error);
	is_int(st.found, (int64_t)all->nrows, "and found them all");
	last_in_memory = st.in_memory;
	for (;;) {
		if ((r = store_page_fetch(p, off, 97, &cause)) == NULL)
			break;
		for (i = 0; i < r->nrows && n + i < all->nrows; i++) {
			for (j = 0; j < r->ncols; j++) {
				if (strcmp(store_rows_cell(r, i, j),
				    store_rows_cell(all, n + i, j)) != 0)
					bad++;
			}
		}
		ids = ids && (r->nrows == 0 || r->ids != NULL);
		n += r->nrows;
		off += 97;
		if (r->nrows < 97) {
			store_rows_free(r);
			break;
		}
		store_rows_free(r);
	}
	is_int((int64_t)n, (int64_t)all->nrows, "the pages hold every row");
	is_int((int64_t)bad, 0, "in the order show prints them");
	ok(ids, "each page row has its task id");
	store_rows_free(all);
	store_page_free(p);
}

/* The rows filter F keeps in op_summary. */
static int64_t
kept(struct store *s, const char *f)
{
	struct store_query	 q;
	struct store_rows	*r;
	char			*cause = NULL;
	int64_t			 n;

	store_query_init(&q);
	q.filter = f;
	if ((r = store_query_table(s, store_tables_find(s, "op_summary"), &q,
	    &cause)) == NULL) {
		free(cause);
		return -1;
	}
	n = (int64_t)r->nrows;
	store_rows_free(r);
	return n;
}

/*
 * Filters match a string column by its str id, once per id: the counts
 * here come from how add_ordered() made the tasks.
 */
static void
filters(struct store *s)
{
	int64_t	 i, n;

	is_int(kept(s, "OP State:^N/A$"), NORDERED / 3, "N/A for no state");
	is_int(kept(s, "OP State:^static$"), (NORDERED + 1) / 3,
	    "a state by name");
	is_int(kept(s, "Input Shapes:^N/A$"), (NORDERED + 5) / 6,
	    "N/A for no shapes");
	is_int(kept(s, "Input Shapes:^8,"), NORDERED / 9, "a shape");
	is_int(kept(s, "OP Type:^(Relu|Cast)$"), NORDERED * 2 / 5,
	    "two op types");
	is_int(kept(s, "Task Type:VECTOR"), NORDERED * 2 / 5, "a task type");
	for (i = 0, n = 0; i < NORDERED; i++)
		n += (i / 3) % 5 == 1 && i % 37 == 36;
	is_int(kept(s, "^Cast_36$"), n, "an op name");
	is_int(kept(s, "^Cast_37$"), 0, "no name of the kind");
	is_int(kept(s, "Block Num:^N/A$"), NORDERED / 5, "N/A for a number");
}

/*
 * Filters walking an order kept from a sort (store-scan-walk.c): by the
 * rows' tuples, a filter on numbers by looking rows up, and, with the
 * tuples given up (a limit of 10), by looking rows up again.
 */
static void
walks(struct store *s, const struct store_table *t)
{
	check(s, t, "Op Name", NULL, NP_NA);
	check(s, t, "Op Name", "Cast|Conv", NP_NA);
	ok(last_in_memory, "a filter walks the sorted order");
	check(s, t, "Op Name", "OP State:^N/A$", NP_NA);
	check(s, t, "Op Name", "Input Shapes:^8,", NP_NA);
	check(s, t, "Op Name", "^1\\.2", NP_NA);
	store_scan_tuple_limit = 10;
	check(s, t, "-Task Type", NULL, 1);
	check(s, t, "-Task Type", "Cast|Conv", 1);
	check(s, t, "-Task Type", "no such op", 1);
	store_scan_tuple_limit = 1 << 20;
}

/* Wait until the tuples of all T's rows are read (20 s at most). */
static void
tuples(struct store *s, const struct store_table *t)
{
	struct store_tuple_build	*b;
	const struct store_tuples	*tu;
	struct store_query		 q;
	struct timespec			 ts = { 0, 5000000 };
	int				 i, r = 0;

	store_query_init(&q);
	if ((b = store_scan_tuple_find(s, t, &q)) == NULL) {
		ok(0, "the rows' tuples");
		return;
	}
	for (i = 0; i < 4000 && (r = store_scan_tuple_ready(b, &tu)) == 0;
	    i++)
		nanosleep(&ts, NULL);
	is_int(r, 1, "the rows' tuples are read");
	store_scan_tuple_unref(b);
}

/* Every column of T both ways, and with a device or a filter. */
static void
ordered(struct store *s, const struct store_table *t)
{
	struct store_rows	*r;
	struct store_query	 q;
	char			*cause = NULL, sort[64];
	const char		*name;
	size_t			 j;
	bool			 scan;

	store_query_init(&q);
	q.limit = 1;
	if ((r = store_query_table(s, t, &q, &cause)) == NULL) {
		ok(0, "the columns: %s", cause);
		free(cause);
		return;
	}
	for (j = 0; j < r->ncols; j++) {
		name = r->names[j];
		snprintf(sort, sizeof sort, "%s%s", j % 2 ? "-" : "", name);
		check(s, t, sort, NULL, NP_NA);
		/*
		 * The duration has an index (the start has one too, but with
		 * two devices it does not give the order), the device first
		 * is the default order, the stop time is an expression.
		 */
		scan = j > 0 && strstr(name, "Duration") == NULL &&
		    strstr(name, "task_time") == NULL &&
		    strstr(name, "stop") == NULL;
		ok(last_in_memory == scan, "sort '%s' %s in memory", sort,
		    scan ? "ran" : "did not run");
	}
	check(s, t, "-stream", NULL, 1);
	ok(last_in_memory, "one device's rows are sorted in memory");
	check(s, t, "-Device_id", "AI_VECTOR|Add", NP_NA);
	ok(last_in_memory, "and so are a filter's");
	check(s, t, "stream", "^Relu_3", 0);
	ok(last_in_memory, "and a device's filtered rows");
	store_rows_free(r);
}

int
main(void)
{
	struct store			*s;
	struct store_query		 q;
	struct store_page		*p;
	const struct store_table	*t;
	char				 dir[] = "/tmp/t-page.XXXXXX", *db;
	char				*cause = NULL;
	struct timespec			 ts = { 0, 5000000 };
	size_t				 walked;
	int				 before, i;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);
	s = store_load_begin(db, dir, &cause);
	add_tasks(s);
	ok(store_load_commit(s, &cause) == 0, "commit %d tasks", NTASKS);
	s = store_open(db, &cause);
	ok(s != NULL, "open the store");
	t = store_tables_find(s, "op_summary");

	check(s, t, "-Block Num", NULL, NP_NA);
	check(s, t, "Op Name", NULL, NP_NA);
	check(s, t, "Device_id", NULL, NP_NA);
	check(s, t, "Task Start", NULL, NP_NA);
	check(s, t, "-Task Start", NULL, 1);
	check(s, t, NULL, "OP Type:^Relu$", NP_NA);
	check(s, t, NULL, "Cast|Conv", 1);
	check(s, t, "-Stream ID", "_1[0-9]$", NP_NA);
	check(s, t, "Task Duration", "MatMul", NP_NA);
	check(s, t, NULL, "no such op", NP_NA);

	store_query_init(&q);
	q.filter = "Conv(";
	p = store_page_create(s, t, &q, &cause);
	ok(p == NULL && cause != NULL, "a bad regex is refused at once");
	free(cause);
	cause = NULL;
	q.filter = NULL;
	q.sort = "no such column";
	p = store_page_create(s, t, &q, &cause);
	ok(p == NULL && cause != NULL, "so is a bad sort column");
	free(cause);
	cause = NULL;

	q.sort = "Op Name";
	q.filter = "o";
	before = threads();
	p = store_page_create(s, t, &q, &cause);
	ok(p != NULL, "a scan starts");
	store_page_free(p);
	/* The rows' tuples, kept with the store, may be read a while yet. */
	for (i = 0; i < 400 && threads() != before; i++)
		nanosleep(&ts, NULL);
	ok(threads() == before, "and is stopped when freed while it runs");

	store_free(s);
	unlink(db);

	/* Every column, sorted in memory, as show sorts it. */
	s = store_load_begin(db, dir, &cause);
	add_ordered(s);
	ok(store_load_commit(s, &cause) == 0, "commit %d more tasks",
	    NORDERED);
	s = store_open(db, &cause);
	ok(s != NULL, "open the store");
	filters(s);
	walks(s, store_tables_find(s, "op_summary"));
	ordered(s, store_tables_find(s, "op_summary"));
	/*
	 * Again with the rows' tuples read before the sorts: the walks test
	 * rows by their tuples from the first one, and text sorts take their
	 * keys from them.
	 */
	tuples(s, store_tables_find(s, "op_summary"));
	walked = store_scan_walk_by_positions;
	walks(s, store_tables_find(s, "op_summary"));
	ok(store_scan_walk_by_positions >= walked + 3, "with the tuples read"
	    " before the sort, filters test the sorted positions' tuples"
	    " (%zu walks)", store_scan_walk_by_positions - walked);
	tuples(s, store_tables_find(s, "op_summary"));
	ordered(s, store_tables_find(s, "op_summary"));
	ordered(s, store_tables_find(s, "task_time"));
	store_free(s);
	unlink(db);
	rmdir(dir);
	free(db);
	return done_testing();
}
