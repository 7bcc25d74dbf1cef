/*
 * A task row's strings as one tuple (src/store/store-scan-tuple.c): once
 * the tuples of a query's rows are read, a filter on text columns decided
 * per tuple must keep exactly the rows the SQL filter keeps, for every
 * row id (rows of other devices and rows not listed in op_summary are
 * not the query's). A filter that reads a number does not fit; a set of
 * other rows is not shared; a set with too many tuples is given up.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"
#include "tap.h"

#define NT	40000

static const char *types[] = { "Relu", "Cast", "MatMulV2", "Conv2D", "Add" };
static const char *states[] = { "dynamic", "static", NULL };

static void
add(struct store *s)
{
	struct store_task	 t;
	char			 name[32], shape[32];
	int64_t			 i;

	for (i = 0; i < NT; i++) {
		memset(&t, 0, sizeof t);
		t.device = i % 3 == 0 ? 1 : 0;
		t.model_id = t.batch = t.context = t.wait_ns = NP_NA;
		t.mix_block_num = t.step = t.conn = t.api = NP_NA;
		t.stream = i % 4;
		t.task = i;
		t.block_num = i % 5 == 0 ? NP_NA : (i * 7919) % 13;
		t.start_ns = 1000000 + i * 1000;
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
		t.unlisted = i % 50 == 7;
		store_load_task(s, &t);
	}
}

/* Wait for B's tuples (20 s at most): 1 read, -1 given up, 0 timed out. */
static int
wait_ready(struct store_tuple_build *b, const struct store_tuples **tu)
{
	struct timespec	 ts = { 0, 5000000 };
	int		 i, r = 0;

	for (i = 0; i < 4000 && (r = store_scan_tuple_ready(b, tu)) == 0; i++)
		nanosleep(&ts, NULL);
	return r;
}

/* The row ids Q selects from T by SQL, as a bitmap over ids up to NT. */
static unsigned char *
sql_ids(struct store *s, const struct store_table *t,
    const struct store_query *q)
{
	sqlite3_stmt	*stmt;
	struct matcher	*m = NULL;
	unsigned char	*in;
	int64_t		 binds[12], id;
	int		 nbinds, i;
	char		*sql, *cause = NULL;

	in = calloc(NT + 2, 1);
	sql = store_query_ids_sql(s, t, q, NULL, binds, &nbinds, &m, &cause);
	if (sql == NULL || sqlite3_prepare_v2(s->db, sql, -1, &stmt, NULL) !=
	    SQLITE_OK) {
		printf("# %s\n", cause != NULL ? cause : sqlite3_errmsg(s->db));
		free(sql);
		free(cause);
		matcher_free(m);
		return in;
	}
	for (i = 0; i < nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		id = sqlite3_column_int64(stmt, 0);
		if (id >= 0 && id <= NT + 1)
			in[id] = 1;
	}
	sqlite3_finalize(stmt);
	free(sql);
	matcher_free(m);
	return in;
}

/* Filter F by TU and by SQL on Q's rows: the ids that differ. */
static int64_t
differ(struct store *s, const struct store_table *t, struct store_query q,
    const struct store_tuples *tu, const char *f, int64_t *kept)
{
	unsigned char	*want;
	uint64_t	*bits;
	int64_t		 id, bad = 0;

	q.filter = f;
	want = sql_ids(s, t, &q);
	*kept = 0;
	if ((bits = store_scan_tuple_match(tu, s->db, f)) == NULL) {
		free(want);
		return -1;
	}
	for (id = 0; id <= NT; id++) {
		*kept += want[id];
		if (store_scan_tuple_has(tu, bits, id) != want[id])
			bad++;
	}
	ok(store_scan_tuple_has(tu, bits, NT + 1) < 0,
	    "'%s': a row past those read is not known", f);
	free(bits);
	free(want);
	return bad;
}

/*
 * The tuples of rows in a sorted order, as a filter's walk tests them
 * (store_scan_tuple_rows()): each position tells what testing its id
 * tells, a row past those read (written since) as one to look up.
 */
static void
positions(struct store *s, const struct store_tuples *tu)
{
	int64_t		 ids[NT + 3], id;
	uint32_t	 out[NT + 3], k;
	uint64_t	*bits;
	size_t		 i, n = 0, bad = 0;
	int		 has, got;

	for (id = NT + 1; id >= -1; id--)	/* the sort: ids backwards */
		ids[n++] = id;
	memset(out, 0xa5, sizeof out);
	store_scan_tuple_rows(tu, ids, n, out);
	bits = store_scan_tuple_match(tu, s->db, "Cast|Conv");
	for (i = 0; i < n && bits != NULL; i++) {
		has = store_scan_tuple_has(tu, bits, ids[i]);
		k = out[i];
		if (k == TUPLE_UNREAD)
			got = -1;
		else if (k == 0)
			got = 0;
		else
			got = (bits[(k - 1) / 64] >> ((k - 1) % 64) & 1) != 0;
		if (got != has)
			bad++;
	}
	ok(bits != NULL, "a filter's tuples");
	is_int((int64_t)bad, 0, "%zu sorted positions' tuples test as their"
	    " rows do", n);
	is_int(out[0] == TUPLE_UNREAD && out[n - 1] == TUPLE_UNREAD, 1,
	    "a row past those read, and a row id below 0, are to look up");
	free(bits);
}

static const struct {
	const char	*f;
	bool		 fits;
} filters[] = {
	{ "OP Type:^Relu$", true },
	{ "Cast|Conv", true },
	{ "^Cast_36$", true },
	{ "OP State:^N/A$", true },
	{ "Input Shapes:^N/A$", true },
	{ "Input Shapes:^8,", true },
	{ "VECTOR", true },
	{ "no such op", true },
	{ "^1\\.2", false },
	{ "Block Num:^N/A$", false },
	{ "Stream ID:1", false }
};

int
main(void)
{
	struct store			*s;
	struct store_query		 q;
	struct store_tuple_build	*b, *b2;
	const struct store_tuples	*tu;
	const struct store_table	*t;
	char				 dir[] = "/tmp/t-tuples.XXXXXX", *db;
	char				*cause = NULL;
	int64_t				 bad, kept;
	size_t				 i;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);
	s = store_load_begin(db, dir, &cause);
	add(s);
	ok(store_load_commit(s, &cause) == 0, "commit %d tasks", NT);
	s = store_open(db, &cause);
	ok(s != NULL, "open the store");
	t = store_tables_find(s, "op_summary");

	store_query_init(&q);
	b = store_scan_tuple_find(s, t, &q);
	ok(b != NULL, "the tuples of op_summary are read");
	if (b == NULL)
		return done_testing();
	is_int(wait_ready(b, &tu), 1, "in the background, to the end");
	if (tu == NULL)
		return done_testing();
	b2 = store_scan_tuple_find(s, t, &q);
	ok(b2 == b, "a query of the same rows shares them");
	store_scan_tuple_unref(b2);
	for (i = 0; i < sizeof filters / sizeof filters[0]; i++) {
		is_int(store_scan_tuple_fits(b, filters[i].f), filters[i].fits,
		    "'%s' %s", filters[i].f, filters[i].fits ?
		    "reads only strings" : "reads a number");
		if (!filters[i].fits)
			continue;
		bad = differ(s, t, q, tu, filters[i].f, &kept);
		is_int(bad, 0, "'%s': the rows SQL keeps (%lld)", filters[i].f,
		    (long long)kept);
	}
	ok(kept == 0, "and none for a filter nothing matches");
	positions(s, tu);

	/* One device: the other's rows are not the query's. */
	q.device = 1;
	b2 = store_scan_tuple_find(s, t, &q);
	ok(b2 != NULL && b2 != b, "another device's rows get a set of"
	    " their own");
	store_scan_tuple_unref(b);
	is_int(wait_ready(b2, &tu), 1, "read");
	if (tu != NULL) {
		bad = differ(s, t, q, tu, "Cast|Conv", &kept);
		is_int(bad, 0, "a filter keeps that device's rows only"
		    " (%lld)", (long long)kept);
	}

	/* Too many tuples: given up, for the walk to read rows. */
	store_scan_tuple_limit = 10;
	q.device = 0;
	b = store_scan_tuple_find(s, t, &q);
	ok(b != NULL, "a set with a limit of 10 tuples");
	is_int(wait_ready(b, &tu), -1, "is given up");
	store_scan_tuple_unref(b);
	store_scan_tuple_unref(b2);

	store_free(s);
	unlink(db);
	rmdir(dir);
	free(db);
	return done_testing();
}
