/*
 * The store: load, commit by rename, abort, statistics computed from task
 * rows and spans, queries with sort and filter, staleness; rows written by
 * the load's writer thread, many to a statement or one by one; the
 * progress a load tells.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "store-int.h"
#include "tap.h"

static void
add_task(struct store *s, const char *type, const char *core, int64_t start,
    int64_t dur)
{
	struct store_task	 t;

	memset(&t, 0, sizeof t);
	t.device = 0;
	t.rank = NP_NA;
	t.model_id = t.stream = t.task = t.batch = t.context = NP_NA;
	t.wait_ns = t.block_num = t.mix_block_num = NP_NA;
	t.step = t.conn = t.api = NP_NA;
	t.start_ns = start;
	t.dur_ns = dur;
	t.op_type = type;
	t.task_type = core;
	t.name = type;
	store_load_task(s, &t);
}

/* Add the span NAME from START for DUR ns, with ARGS (or NULL). */
static void
add_api_args(struct store *s, const char *name, int64_t start, int64_t dur,
    const char *args)
{
	struct store_api	 a;

	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = NP_NA;
	a.pid = a.tid = 1;
	a.conn = a.parent = NP_NA;
	a.start_ns = start;
	a.end_ns = start + dur;
	a.level = "acl";
	a.name = name;
	a.args = args;
	store_load_api(s, &a);
}

static void
add_api(struct store *s, const char *name, int64_t start, int64_t dur)
{
	add_api_args(s, name, start, dur, NULL);
}

/* Whether column NAME of table TNAME of S is among its empty columns. */
static int
empty_col(struct store *s, const char *tname, const char *name)
{
	const struct store_table	*t = store_tables_find(s, tname);
	char				*names[64];
	bool				 empty[64];
	size_t				 i;

	if (t == NULL || t->ncols > 64)
		return -1;
	for (i = 0; i < t->ncols; i++)
		names[i] = (char *)t->cols[i].name;
	store_empty_cols(s, t, names, t->ncols, empty);
	for (i = 0; i < t->ncols; i++) {
		if (strcmp(names[i], name) == 0)
			return empty[i];
	}
	return -1;
}

/*
 * The empty columns the commit works out from the task values seen as
 * they load: op_summary's from the rows it lists, task_time's from all;
 * N/A, '' and 4294967295 are no value; a fourth value is one.
 */
static void
test_empty(const char *db, const char *dir)
{
	struct store	*s;
	struct store_task t;
	struct store_api a;
	char		*cause = NULL, shape[16];
	int		 i;

	s = store_load_begin(db, dir, &cause);
	for (i = 0; i < 8; i++) {
		memset(&t, 0, sizeof t);
		t.device = 0;
		t.rank = t.batch = t.wait_ns = t.mix_block_num = NP_NA;
		t.step = t.conn = t.api = t.block_num = NP_NA;
		t.model_id = 4294967295LL;
		t.start_ns = 1000 * (i + 1);
		t.dur_ns = 100;
		t.name = t.op_type = "Add";
		t.task_type = "AI_CORE";
		/* Listed rows have no stream, the others one. */
		t.unlisted = i >= 6;
		t.stream = t.unlisted ? 3 : NP_NA;
		t.task = i;
		t.context = i % 2 == 0 ? 4294967295LL : NP_NA;
		t.hf32 = i % 2 == 0 ? "N/A" : "";
		snprintf(shape, sizeof shape, "%d", i % 4);
		t.in_shapes = i < 4 ? "N/A" : shape;
		t.in_dtypes = i < 5 ? "" : "FLOAT";
		store_load_task(s, &t);
	}
	/*
	 * Spans: no connection id, names N/A or '', levels given by a
	 * trace's metadata after they loaded, the second inside the first.
	 */
	for (i = 0; i < 2; i++) {
		memset(&a, 0, sizeof a);
		a.device = NP_HOST_DEVICE;
		a.rank = a.conn = a.depth = a.parent = NP_NA;
		a.pid = 7;
		a.tid = 8;
		a.start_ns = 1000 + 10 * i;
		a.end_ns = 2000 - 10 * i;
		a.name = i == 0 ? "N/A" : "";
		store_load_api(s, &a);
	}
	store_trace_load_api_level(s, NP_NA, 7, "python");
	ok(store_load_commit(s, &cause) == 0, "commit tasks with empty cells");
	if ((s = store_open(db, &cause)) == NULL) {
		printf("# %s\n", cause);
		return;
	}
	is_int(empty_col(s, "op_summary", "Stream ID"), 1,
	    "a column with values only in tasks op_summary leaves out is "
	    "empty there");
	is_int(empty_col(s, "task_time", "stream_id"), 0,
	    "and not in task_time, which lists them");
	is_int(empty_col(s, "op_summary", "Model ID"), 1,
	    "4294967295 is no value");
	is_int(empty_col(s, "op_summary", "Context ID"), 1,
	    "nor is it with NULL");
	is_int(empty_col(s, "op_summary", "HF32 Eligible"), 1,
	    "N/A and '' are no value");
	is_int(empty_col(s, "op_summary", "Input Shapes"), 0,
	    "values after N/A are");
	is_int(empty_col(s, "op_summary", "Input Data Types"), 0,
	    "a value after '' is");
	is_int(empty_col(s, "op_summary", "Task ID"), 0,
	    "many values are");
	is_int(empty_col(s, "op_summary", "Block Num"), 1,
	    "NULL only is no value");
	is_int(empty_col(s, "spans", "Connection ID"), 1,
	    "a span column with no value is empty");
	is_int(empty_col(s, "spans", "Name"), 1, "N/A and '' names too");
	is_int(empty_col(s, "spans", "Thread ID"), 0, "one with values is not");
	is_int(empty_col(s, "spans", "Level"), 0,
	    "levels given after the spans loaded are values");
	is_int(empty_col(s, "spans", "Parent ID"), 0,
	    "so are the parents the nesting gives");
	store_free(s);
	unlink(db);
}

/* Two batches of the writer and a part, not a whole number of 32s. */
#define ASYNC_N	(2 * 4096 + 77)

/* The PMU blob of task I of test_async(): every third has one. */
static bool
async_pmu(struct strbuf *b, int64_t i)
{
	strbuf_reset(b);
	if (i % 3 != 0)
		return false;
	store_pmu_num(b, (double)i / 8, 3);
	store_pmu_name(b, i % 2 ? "odd" : "even");
	return true;
}

/* Span I of test_async(): every fifth has args. */
static void
async_api(struct store *s, int64_t i)
{
	char	 name[32], args[32];

	snprintf(name, sizeof name, "api_%lld", (long long)i % 13);
	snprintf(args, sizeof args, "{\"i\": %lld}", (long long)i);
	add_api_args(s, name, 500 + i, i + 2, i % 5 == 0 ? args : NULL);
}

/*
 * Tasks and spans handed to the writer thread, interleaved, with new
 * strings throughout and PMU blobs and args on some, come back as loaded,
 * in order. LIMIT, if not 0, is the parameters the connection allows: 999
 * (SQLite before 3.32) takes 31 tasks a statement, 40 tasks one by one
 * and 3 spans a statement.
 */
static void
test_async(const char *db, const char *dir, int limit)
{
	struct store		*s;
	struct store_task	 t;
	struct strbuf		 b;
	sqlite3			*q;
	sqlite3_stmt		*st;
	char			 name[32], api[32], args[32], *cause = NULL;
	char			 mode[32];
	int64_t			 i, n, bad;

	if (limit != 0)
		snprintf(mode, sizeof mode, "%d parameters", limit);
	else
		snprintf(mode, sizeof mode, "SQLite's own limit");
	strbuf_init(&b);
	if ((s = store_load_begin(db, dir, &cause)) == NULL) {
		ok(0, "%s: begin a load: %s", mode, cause);
		free(cause);
		return;
	}
	if (limit != 0)
		sqlite3_limit(s->db, SQLITE_LIMIT_VARIABLE_NUMBER, limit);
	store_load_async_begin(s);
	ok(s->async != NULL, "%s: a writer thread", mode);
	for (i = 0; i < ASYNC_N; i++) {
		memset(&t, 0, sizeof t);
		t.device = 0;
		t.rank = t.model_id = t.task = t.batch = t.context = NP_NA;
		t.wait_ns = t.block_num = t.mix_block_num = NP_NA;
		t.step = t.conn = t.api = NP_NA;
		t.stream = i % 7;
		t.start_ns = 1000 + i * 10;
		t.dur_ns = i + 1;
		snprintf(name, sizeof name, "Op_%lld", (long long)i);
		t.name = name;
		t.op_type = "Add";
		t.task_type = "AI_CORE";
		if (async_pmu(&b, i)) {
			t.pmu = b.s;
			t.pmu_len = b.len;
		}
		store_load_task(s, &t);
		if (i % 2 == 0)
			async_api(s, i);
	}
	store_load_async_end(s);
	ok(s->async == NULL, "%s: the writer stopped", mode);
	ok(store_load_commit(s, &cause) == 0, "%s: commit", mode);
	if (sqlite3_open(db, &q) != SQLITE_OK) {
		ok(0, "%s: open the store", mode);
		sqlite3_close(q);
		strbuf_release(&b);
		unlink(db);
		return;
	}

	n = bad = 0;
	sqlite3_prepare_v2(q, "SELECT t.id, t.stream, t.start_ns, t.dur_ns,"
	    " s.s, t.pmu FROM task t LEFT JOIN str s ON s.id = t.name"
	    " ORDER BY t.id", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		i = n++;
		snprintf(name, sizeof name, "Op_%lld", (long long)i);
		if (sqlite3_column_int64(st, 0) != i + 1 ||
		    sqlite3_column_int64(st, 1) != i % 7 ||
		    sqlite3_column_int64(st, 2) != 1000 + i * 10 ||
		    sqlite3_column_int64(st, 3) != i + 1 ||
		    sqlite3_column_text(st, 4) == NULL ||
		    strcmp((const char *)sqlite3_column_text(st, 4), name) != 0)
			bad++;
		else if (async_pmu(&b, i) ? sqlite3_column_type(st, 5) !=
		    SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, 5) !=
		    b.len || memcmp(sqlite3_column_blob(st, 5), b.s, b.len) !=
		    0 : sqlite3_column_type(st, 5) != SQLITE_NULL)
			bad++;
	}
	sqlite3_finalize(st);
	is_int(n, ASYNC_N, "%s: every task row", mode);
	is_int(bad, 0, "%s: each as loaded, in order", mode);

	n = bad = 0;
	sqlite3_prepare_v2(q, "SELECT a.id, a.start_ns, a.end_ns, s.s, a.args"
	    " FROM api a LEFT JOIN str s ON s.id = a.name ORDER BY a.id", -1,
	    &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		i = 2 * n++;
		snprintf(api, sizeof api, "api_%lld", (long long)i % 13);
		snprintf(args, sizeof args, "{\"i\": %lld}", (long long)i);
		if (sqlite3_column_int64(st, 0) != i / 2 + 1 ||
		    sqlite3_column_int64(st, 1) != 500 + i ||
		    sqlite3_column_int64(st, 2) != 500 + i + i + 2 ||
		    sqlite3_column_text(st, 3) == NULL ||
		    strcmp((const char *)sqlite3_column_text(st, 3), api) != 0)
			bad++;
		else if (i % 5 == 0 ? sqlite3_column_text(st, 4) == NULL ||
		    strcmp((const char *)sqlite3_column_text(st, 4), args) !=
		    0 : sqlite3_column_type(st, 4) != SQLITE_NULL)
			bad++;
	}
	sqlite3_finalize(st);
	is_int(n, (ASYNC_N + 1) / 2, "%s: every span", mode);
	is_int(bad, 0, "%s: each as loaded, in order", mode);
	sqlite3_close(q);
	strbuf_release(&b);
	unlink(db);
}

/* What the progress callback was told, one call a row. */
struct progress_log {
	char	phase[16];
	char	file[32];
	int64_t	records;
	int64_t	done;
	int64_t	total;
};
struct progress_calls {
	struct progress_log	 v[16];
	int			 n;
};

static void
progress_cb(void *arg, const struct store_progress *p)
{
	struct progress_calls	*c = arg;
	struct progress_log	*l;

	if (c->n == (int)(sizeof c->v / sizeof *c->v))
		return;
	l = &c->v[c->n++];
	snprintf(l->phase, sizeof l->phase, "%s", p->phase);
	snprintf(l->file, sizeof l->file, "%s", p->file != NULL ? p->file :
	    "-");
	l->records = p->records;
	l->done = p->bytes_done;
	l->total = p->bytes_total;
}

static void *
progress_thread(void *arg)
{
	store_load_read(arg, 500);
	return NULL;
}

/*
 * The progress a load tells: again with the records stored since, every
 * 65536, when the importer counts no bytes (and its file is a copy, good
 * after the importer let go of it); bytes counted by store_load_read(),
 * from any thread, told by the one that started the count; no fraction
 * once the reading is over.
 */
static void
test_progress(const char *db, const char *dir)
{
	struct progress_calls	 c;
	struct store		*s;
	pthread_t		 t;
	char			 file[] = "in.csv", *cause = NULL;
	int			 i;

	memset(&c, 0, sizeof c);
	if ((s = store_load_begin(db, dir, &cause)) == NULL) {
		ok(0, "progress: begin a load: %s", cause);
		free(cause);
		return;
	}
	store_load_set_progress(s, progress_cb, &c);
	store_load_progress_files(s, 0, 1);
	store_load_progress(s, "reading", file, 10, -1);
	file[0] = 'X';
	for (i = 0; i < 140000; i++)
		add_task(s, "Add", "AI_CORE", 1000 + i, 10);
	is_int(c.n, 3, "progress: told again at 65536 and 131072 records");
	ok(c.n == 3 && strcmp(c.v[2].phase, "reading") == 0 &&
	    strcmp(c.v[2].file, "in.csv") == 0 && c.v[2].done == 10 &&
	    c.v[2].total == -1 && c.v[1].records == 65536 &&
	    c.v[2].records == 131072, "progress: as last told, file kept");
	store_load_progress_bytes(s, "host", "dir", 1000);
	store_load_read(s, 250);
	if (pthread_create(&t, NULL, progress_thread, s) == 0)
		pthread_join(t, NULL);
	else
		store_load_read(s, 500);
	store_load_progress_bytes(s, "device", "dir", -1);
	store_load_read(s, 400);
	store_load_progress_bytes(s, "join", "dir", 0);
	ok(c.n == 8 && c.v[3].done == 0 && c.v[3].total == 1000 &&
	    c.v[4].done == 250 && strcmp(c.v[5].phase, "device") == 0 &&
	    c.v[5].done == 750 && c.v[6].done == 1000 &&
	    strcmp(c.v[7].phase, "join") == 0 && c.v[7].total == 0 &&
	    strcmp(c.v[7].file, "-") == 0,
	    "progress: bytes from two threads, told by one; over at join");
	store_load_abort(s);
}

int
main(void)
{
	struct store			*s;
	struct store_rows		*r;
	struct store_query		 q;
	const struct store_table	*t;
	char				 dir[] = "/tmp/t-store.XXXXXX", *db;
	char				*cause = NULL;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);

	s = store_load_begin(db, dir, &cause);
	ok(s != NULL, "begin a load");
	add_task(s, "Cast", "AI_VECTOR_CORE", 1000, 2222);
	store_load_abort(s);
	ok(access(db, F_OK) != 0, "abort leaves no store");

	s = store_load_begin(db, dir, &cause);
	add_task(s, "Cast", "AI_VECTOR_CORE", 1000, 2000);
	add_task(s, "Cast", "AI_VECTOR_CORE", 5000, 2001);
	add_task(s, "Cast", "AI_VECTOR_CORE", 9000, 2001);
	add_task(s, "MatMul", "AI_CORE", 12000, 10000);
	add_task(s, NULL, "AI_CORE", 30000, 500);
	add_task(s, "hcom_allReduce_", "HCCL", 40000, 90000);
	add_api(s, "aclnnAdd", 100, 2370);
	add_api(s, "aclnnAdd", 5000, 11730);
	add_api(s, "aclnnAdd", 20000, 2660);
	ok(store_load_commit(s, &cause) == 0, "commit");
	ok(access(db, F_OK) == 0, "the store is in place");
	is_int(store_manifest_current(db, dir, &cause), 1, "store is current");

	s = store_open(db, &cause);
	ok(s != NULL, "open the store");
	t = store_tables_find(s, "op_statistic");
	store_query_init(&q);
	r = store_query_table(s, t, &q, &cause);
	ok(r != NULL && r->nrows == 2, "two op types (N/A and HCCL left out)");
	if (r == NULL) {
		printf("# %s\n", cause);
		return done_testing();
	}
	is_str(store_rows_cell(r, 0, 1), "MatMul", "slowest first");
	is_str(store_rows_cell(r, 1, 6), "2", "average is integer division");
	is_str(store_rows_cell(r, 1, 8), "37.508", "ratio of the total");
	store_rows_free(r);

	t = store_tables_find(s, "acl_statistic");
	r = store_query_table(s, t, &q, &cause);
	ok(r != NULL && r->nrows == 1, "one API");
	is_str(store_rows_cell(r, 0, 0), "host", "device is host");
	is_str(store_rows_cell(r, 0, 3), "16.76", "api total");
	is_str(store_rows_cell(r, 0, 5), "5.587", "api rounded average");
	is_str(store_rows_cell(r, 0, 8), "18.884", "population variance");
	store_rows_free(r);

	t = store_tables_find(s, "kernels");
	q.sort = "-task dur";
	q.filter = "Op Name:^Ca";
	r = store_query_table(s, t, &q, &cause);
	ok(r != NULL && r->nrows == 3, "filter on one column");
	is_str(store_rows_cell(r, 0, 9), "2.001", "sorted by duration");
	store_rows_free(r);
	q.sort = "nosuch";
	ok(store_query_table(s, t, &q, &cause) == NULL, "bad sort column");
	ok(cause != NULL && strstr(cause, "nosuch") != NULL,
	    "the message names it");
	free(cause);
	cause = NULL;
	q.sort = NULL;
	q.filter = "([";
	ok(store_query_table(s, t, &q, &cause) == NULL, "bad regex");
	free(cause);
	cause = NULL;
	store_free(s);

	unlink(db);
	test_empty(db, dir);
	test_async(db, dir, 0);
	test_async(db, dir, 999);
	test_async(db, dir, 40);
	test_progress(db, dir);

	ok(store_open("/nonexistent/x.db", &cause) == NULL, "missing store");
	free(cause);
	unlink(db);
	rmdir(dir);
	free(db);
	return done_testing();
}
