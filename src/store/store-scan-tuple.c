/*
 * Each task row's strings as one number, for filters on them. The text
 * columns of a task table hold str ids, and rows repeat a few hundred
 * combinations of them (an op's name, type, shapes, formats) over
 * millions of tasks. Once a sort in memory has given a view its order
 * (store-scan-sort.c), two threads read those ids of every row of the
 * view (SQL np_tuple()), and each distinct combination, a tuple, gets a
 * number; a row keeps only its tuple's. A filter on text columns is then
 * decided once per tuple (its regex once per string, as ever), and the
 * walk of the sorted order (store-scan-walk.c) tests each row by its
 * tuple without reading it again: the first page is there at once,
 * wherever the matches lie. A sort on a text column takes its keys from
 * the tuples too (store-scan-sort.c), and so reads no row either.
 *
 * Each thread fills a set of its own (over one rows array, in ranges of
 * ids that do not overlap); the last to end joins them. Too many tuples
 * (as many as rows, say, when every name differs) and the set is given
 * up: the walk reads rows as before. Reading the ids is left out of the
 * sort itself, where it made the first page of a sort a third slower.
 */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

/*
 * Past this many distinct tuples a set is given up (a variable, so that a
 * test can reach it).
 */
size_t	 store_scan_tuple_limit = 1 << 20;

/* The most text columns a tuple holds. */
#define TUPLE_COLS	32

struct store_tuples {
	const struct store_table *t;
	size_t			 ncols;
	int			 col[TUPLE_COLS];	/* into t->cols */
	char			*select;		/* ", np_tuple(...)" */

	/* Row id to its tuple's index plus one; 0 for a row not read. */
	uint32_t		*row;
	int64_t			 maxid;
	bool			 owns_row;

	/* The tuples, NCOLS values each: a str id plus one, 0 for NULL. */
	uint32_t		*tv;
	size_t			 n;
	size_t			 size;
	uint32_t		*slot;			/* index plus one */
	size_t			 nslot;
	bool			 failed;
	uint64_t		 serial;		/* no two sets alike */
};

/* The serial number of the last set made. */
static uint64_t	 store_scan_tuple_serials;

/*
 * An empty set for the rows up to MAXID of task table T, or NULL if T is
 * not the task table or has no str id column.
 */
static struct store_tuples *
store_scan_tuple_create(const struct store_table *t, int64_t maxid)
{
	struct store_tuples	*tu;
	struct strbuf		 b;
	char			 col[64];
	size_t			 i;

	if (strncmp(t->from, "task t", 6) != 0 || (t->from[6] != '\0' &&
	    t->from[6] != ' ') || maxid < 0)
		return NULL;
	tu = xcalloc(1, sizeof *tu);
	strbuf_init(&b);
	strbuf_adds(&b, ", np_tuple(t.id");
	for (i = 0; i < t->ncols && tu->ncols < TUPLE_COLS; i++) {
		if (!store_query_str_col(t, t->cols[i].expr, col, sizeof col))
			continue;
		tu->col[tu->ncols++] = (int)i;
		strbuf_addf(&b, ", %s", col);
	}
	strbuf_adds(&b, ")");
	if (tu->ncols == 0) {
		strbuf_release(&b);
		free(tu);
		return NULL;
	}
	tu->t = t;
	tu->select = strbuf_detach(&b);
	tu->maxid = maxid;
	tu->row = xcalloc((size_t)maxid + 1, sizeof *tu->row);
	tu->owns_row = true;
	tu->serial = __atomic_add_fetch(&store_scan_tuple_serials, 1,
	    __ATOMIC_RELAXED);
	return tu;
}

/* A second, empty set for the same rows as TU, to join into it later. */
static struct store_tuples *
store_scan_tuple_part(const struct store_tuples *tu)
{
	struct store_tuples	*p;

	p = xcalloc(1, sizeof *p);
	p->t = tu->t;
	p->ncols = tu->ncols;
	memcpy(p->col, tu->col, sizeof p->col);
	p->select = xstrdup(tu->select);
	p->row = tu->row;
	p->maxid = tu->maxid;
	p->serial = __atomic_add_fetch(&store_scan_tuple_serials, 1,
	    __ATOMIC_RELAXED);
	return p;
}

static void
store_scan_tuple_free(struct store_tuples *tu)
{
	if (tu == NULL)
		return;
	if (tu->owns_row)
		free(tu->row);
	free(tu->select);
	free(tu->tv);
	free(tu->slot);
	free(tu);
}

/* The column to add to a SELECT that notes its rows: ", np_tuple(...)". */
static const char *
store_scan_tuple_select(const struct store_tuples *tu)
{
	return tu->select;
}

/* Whether TU gave up (too many tuples, or a value not a str id). */
static bool
store_scan_tuple_failed(const struct store_tuples *tu)
{
	return tu->failed;
}

static uint32_t
store_scan_tuple_hash(const uint32_t *v, size_t n)
{
	uint32_t	 h = 2166136261u;
	size_t		 i;

	for (i = 0; i < n; i++)
		h = (h ^ v[i]) * 16777619u;
	return h ^ h >> 15;
}

/* Room for twice the tuples there are, slots for four times. */
static void
store_scan_tuple_grow(struct store_tuples *tu)
{
	uint32_t	 h;
	size_t		 i, j;

	if (tu->n < tu->size)
		return;
	tu->size = tu->size == 0 ? 256 : tu->size * 2;
	tu->tv = xreallocarray(tu->tv, tu->size, tu->ncols * sizeof *tu->tv);
	free(tu->slot);
	tu->nslot = tu->size * 2;
	tu->slot = xcalloc(tu->nslot, sizeof *tu->slot);
	for (i = 0; i < tu->n; i++) {
		h = store_scan_tuple_hash(tu->tv + i * tu->ncols, tu->ncols);
		for (j = h & (tu->nslot - 1); tu->slot[j] != 0;
		    j = (j + 1) & (tu->nslot - 1))
			;
		tu->slot[j] = (uint32_t)i + 1;
	}
}

/* The index plus one of tuple V in TU, added if new; 0 if TU is full. */
static uint32_t
store_scan_tuple_intern(struct store_tuples *tu, const uint32_t *v)
{
	uint32_t	 h, k;
	size_t		 j;

	if (tu->size == 0)
		store_scan_tuple_grow(tu);
	h = store_scan_tuple_hash(v, tu->ncols);
	for (j = h & (tu->nslot - 1); (k = tu->slot[j]) != 0;
	    j = (j + 1) & (tu->nslot - 1)) {
		if (memcmp(tu->tv + (k - 1) * tu->ncols, v, tu->ncols *
		    sizeof *v) == 0)
			return k;
	}
	if (tu->n >= store_scan_tuple_limit)
		return 0;
	if (tu->n == tu->size) {
		store_scan_tuple_grow(tu);
		for (j = h & (tu->nslot - 1); tu->slot[j] != 0;
		    j = (j + 1) & (tu->nslot - 1))
			;
	}
	memcpy(tu->tv + tu->n * tu->ncols, v, tu->ncols * sizeof *v);
	tu->slot[j] = (uint32_t)++tu->n;
	return (uint32_t)tu->n;
}

/* Note row ID, whose str ids are the N values V; false once TU gave up. */
static bool
store_scan_tuple_add(struct store_tuples *tu, int64_t id, sqlite3_value **v,
    size_t n)
{
	uint32_t	 x[TUPLE_COLS];
	int64_t		 k;
	size_t		 i;

	if (tu->failed)
		return false;
	for (i = 0; i < n && i < tu->ncols; i++) {
		switch (sqlite3_value_type(v[i])) {
		case SQLITE_NULL:
			x[i] = 0;
			break;
		case SQLITE_INTEGER:
			k = sqlite3_value_int64(v[i]);
			if (k >= 0 && k < UINT32_MAX - 1) {
				x[i] = (uint32_t)k + 1;
				break;
			}
			/* FALLTHROUGH */
		default:
			tu->failed = true;
			return false;
		}
	}
	if (i < tu->ncols || id < 0 || id > tu->maxid ||
	    (tu->row[id] = store_scan_tuple_intern(tu, x)) == 0)
		tu->failed = true;
	return !tu->failed;
}

/*
 * Join part P, which noted the rows LO to HI, into TU, and free P. False
 * (and TU given up) if either gave up.
 */
static bool
store_scan_tuple_join(struct store_tuples *tu, struct store_tuples *p,
    int64_t lo, int64_t hi)
{
	uint32_t	*map;
	size_t		 i;
	int64_t		 id;

	if (p->failed)
		tu->failed = true;
	if (tu->failed || p->n == 0) {
		store_scan_tuple_free(p);
		return !tu->failed;
	}
	map = xreallocarray(NULL, p->n + 1, sizeof *map);
	map[0] = 0;
	for (i = 0; i < p->n && !tu->failed; i++) {
		if ((map[i + 1] = store_scan_tuple_intern(tu, p->tv + i *
		    p->ncols)) == 0)
			tu->failed = true;
	}
	for (id = lo; id <= hi && id <= tu->maxid && !tu->failed; id++)
		tu->row[id] = map[tu->row[id]];
	free(map);
	store_scan_tuple_free(p);
	return !tu->failed;
}

/* The position in TU's tuples of column COL of its table, or -1. */
static int
store_scan_tuple_at(const struct store_tuples *tu, int col)
{
	size_t	 j;

	for (j = 0; j < tu->ncols; j++)
		if (tu->col[j] == col)
			return (int)j;
	return -1;
}

/*
 * The positions in TU's tuples of the columns filter FILTER reads, into
 * AT (*NAT of them), and its matcher into *M (the caller frees it); false
 * if the filter is not valid or reads a column the tuples do not hold (a
 * number, or text not by id).
 */
static bool
store_scan_tuple_plan(const struct store_tuples *tu, const char *filter,
    int *at, int *nat, struct matcher **m)
{
	bool	*use, fits;
	size_t	 i;
	char	*cause = NULL;

	*nat = 0;
	use = xcalloc(tu->t->ncols > 0 ? tu->t->ncols : 1, sizeof *use);
	fits = store_query_filter_cols(tu->t, filter, use, m, &cause) == 0;
	for (i = 0; i < tu->t->ncols && fits; i++) {
		if (!use[i])
			continue;
		if ((at[*nat] = store_scan_tuple_at(tu, (int)i)) < 0)
			fits = false;
		else
			(*nat)++;
	}
	free(use);
	free(cause);
	return fits;
}

/* How often a reader hears whether to stop, in rows. */
#define TUPLE_TICK	4096

/* Below this many ids one reader does it all. */
#define TUPLE_SPLIT	16384

/* One reader: the rows with ids from LO to HI, on a connection of its own. */
struct store_tuple_half {
	struct store_tuple_build *b;
	struct store		*ws;
	struct store_tuples	*tu;
	pthread_t		 thread;
	bool			 started;
	int64_t			 lo;
	int64_t			 hi;
	int64_t			 ticks;
	int			 rc;
};

struct store_tuple_build {
	int			 refs;		/* on the UI's thread */
	pthread_mutex_t		 lock;
	const struct store_table *t;
	struct store_query	 q;
	struct store_tuples	*tu;		/* the whole, once joined */
	struct store_tuple_half	 h[2];
	size_t			 nh;
	size_t			 running;	/* under LOCK */
	int			 state;		/* LOCK: 0, 1 ready, -1 lost */
	bool			 cancel;	/* under LOCK */
};

/*
 * SQL np_tuple(id, str id, ...): note the row in its reader's set. The
 * arguments are read as values, not as a statement's columns, which cost
 * ten times as much each.
 */
static void
store_scan_tuple_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct store_tuple_half	*h = sqlite3_user_data(ctx);
	bool			 stop;

	if (++h->ticks % TUPLE_TICK == 0) {
		pthread_mutex_lock(&h->b->lock);
		stop = h->b->cancel;
		pthread_mutex_unlock(&h->b->lock);
		if (stop || store_scan_tuple_failed(h->tu))
			sqlite3_interrupt(h->ws->db);
	}
	if (argc > 0)
		store_scan_tuple_add(h->tu, sqlite3_value_int64(argv[0]),
		    argv + 1, (size_t)argc - 1);
	sqlite3_result_null(ctx);
}

/* Read H's rows into its set; the last reader to end joins the sets. */
static void *
store_scan_tuple_main(void *arg)
{
	struct store_tuple_half	*h = arg;
	struct store_tuple_build *b = h->b;
	sqlite3_stmt		*stmt = NULL;
	struct matcher		*m = NULL;
	int64_t			 binds[12];
	int			 nbinds, i;
	bool			 ok;
	char			*sql, *cols, *cause = NULL, range[64];

#ifdef __linux__
	/* A background job: the UI's own scans come first. */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
	snprintf(range, sizeof range, "t.id BETWEEN %lld AND %lld",
	    (long long)h->lo, (long long)h->hi);
	xasprintf(&cols, "t.id%s", store_scan_tuple_select(h->tu));
	h->rc = SQLITE_ERROR;
	sql = store_query_keys_sql(h->ws, b->t, &b->q, cols, range, binds,
	    &nbinds, &m, &cause);
	free(cols);
	sqlite3_create_function(h->ws->db, "np_tuple", -1, SQLITE_UTF8, h,
	    store_scan_tuple_sql, NULL, NULL);
	if (sql != NULL && store_prepare(h->ws, &stmt, sql, &cause) == 0) {
		for (i = 0; i < nbinds; i++)
			sqlite3_bind_int64(stmt, i + 1, binds[i]);
		while ((h->rc = sqlite3_step(stmt)) == SQLITE_ROW)
			;
	}
	sqlite3_finalize(stmt);
	matcher_free(m);
	free(sql);
	free(cause);

	pthread_mutex_lock(&b->lock);
	if (--b->running > 0) {
		pthread_mutex_unlock(&b->lock);
		return NULL;
	}
	pthread_mutex_unlock(&b->lock);
	ok = true;
	for (i = 0; i < (int)b->nh; i++)
		ok = ok && b->h[i].rc == SQLITE_DONE &&
		    !store_scan_tuple_failed(b->h[i].tu);
	if (ok && b->nh == 2) {
		ok = store_scan_tuple_join(b->h[0].tu, b->h[1].tu, b->h[1].lo,
		    b->h[1].hi);
		b->h[1].tu = NULL;
	}
	pthread_mutex_lock(&b->lock);
	b->tu = ok ? b->h[0].tu : NULL;
	b->state = ok ? 1 : -1;
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/*
 * Start reading the tuples of the rows Q selects from task table T of the
 * store at PATH (Q's filter and sort aside), row ids up to MAXID, in the
 * background; NULL if T has no strings by id.
 */
static struct store_tuple_build *
store_scan_tuple_build(const char *path, const struct store_table *t,
    const struct store_query *q, int64_t maxid)
{
	struct store_tuple_build *b;
	struct store_tuple_half	*h;
	struct store_tuples	*tu;
	int64_t			 mid;
	size_t			 i;
	char			*why = NULL;

	if ((tu = store_scan_tuple_create(t, maxid)) == NULL)
		return NULL;
	b = xcalloc(1, sizeof *b);
	b->refs = 1;
	pthread_mutex_init(&b->lock, NULL);
	b->t = t;
	b->q = *q;
	b->q.filter = NULL;
	b->q.sort = NULL;
	mid = maxid >= TUPLE_SPLIT ? maxid / 2 : maxid + 1;
	b->nh = mid <= maxid ? 2 : 1;
	b->running = b->nh;
	for (i = 0; i < b->nh; i++) {
		h = &b->h[i];
		h->b = b;
		h->lo = i == 0 ? 0 : mid;
		h->hi = i == 0 ? mid - 1 : maxid;
		h->tu = i == 0 ? tu : store_scan_tuple_part(tu);
	}
	for (i = 0; i < b->nh; i++) {
		h = &b->h[i];
		if ((h->ws = store_open_reader(path, &why)) == NULL)
			break;
		if (pthread_create(&h->thread, NULL, store_scan_tuple_main,
		    h) != 0)
			break;
		h->started = true;
	}
	free(why);
	if (i < b->nh) {
		/* A reader that never started never ends: none joins. */
		store_scan_tuple_unref(b);
		return NULL;
	}
	return b;
}

/*
 * Whether B's tuples are there: 1 with them in *TU, 0 while they are
 * read, -1 if they were given up.
 */
int
store_scan_tuple_ready(struct store_tuple_build *b,
    const struct store_tuples **tu)
{
	int	 state;

	pthread_mutex_lock(&b->lock);
	state = b->state;
	*tu = b->tu;
	pthread_mutex_unlock(&b->lock);
	return state;
}

/* Whether filter FILTER reads only strings B's tuples hold. */
bool
store_scan_tuple_fits(const struct store_tuple_build *b, const char *filter)
{
	struct matcher	*m = NULL;
	int		 at[TUPLE_COLS], nat;
	bool		 fits;

	fits = store_scan_tuple_plan(b->h[0].tu, filter, at, &nat, &m);
	matcher_free(m);
	return fits;
}

/*
 * Drop a reference to B; the last one stops its readers if they still
 * run, and frees it with its tuples.
 */
void
store_scan_tuple_unref(struct store_tuple_build *b)
{
	size_t	 i;

	if (b == NULL || --b->refs > 0)
		return;
	pthread_mutex_lock(&b->lock);
	b->cancel = true;
	pthread_mutex_unlock(&b->lock);
	for (i = 0; i < b->nh; i++)
		if (b->h[i].started)
			sqlite3_interrupt(b->h[i].ws->db);
	/* Both before any set goes: the second reader fills the rows array
	 * the first set owns. */
	for (i = 0; i < b->nh; i++)
		if (b->h[i].started)
			pthread_join(b->h[i].thread, NULL);
	for (i = 0; i < b->nh; i++) {
		store_free(b->h[i].ws);
		store_scan_tuple_free(b->h[i].tu);
	}
	pthread_mutex_destroy(&b->lock);
	free(b);
}

/* Whether B reads the rows Q selects from T, filter and sort aside. */
static bool
store_scan_tuple_same(const struct store_tuple_build *b,
    const struct store_table *t, const struct store_query *q)
{
	return b->t == t && b->q.device == q->device &&
	    b->q.rank == q->rank && b->q.step == q->step &&
	    b->q.origin == q->origin && b->q.from_ns == q->from_ns &&
	    b->q.to_ns == q->to_ns;
}

/*
 * The tuples of the rows Q selects from task table T of S, with a
 * reference for the caller: the ones S keeps if they are of the same
 * rows, else new ones, read from now on in the background and kept
 * instead (one set is kept, the latest). NULL if T has no strings by id.
 * Called on the UI's thread.
 */
struct store_tuple_build *
store_scan_tuple_find(struct store *s, const struct store_table *t,
    const struct store_query *q)
{
	if (s->tuples == NULL || !store_scan_tuple_same(s->tuples, t, q)) {
		store_scan_tuple_unref(s->tuples);
		s->tuples = store_scan_tuple_build(store_path(s), t, q,
		    store_task_maxid(s));
	}
	if (s->tuples != NULL)
		s->tuples->refs++;
	return s->tuples;
}

/*
 * Which tuples of TU filter FILTER matches, as a bitmap, deciding each
 * string once with the strings of DB; NULL if the filter reads a column
 * TU does not hold (a number, or text not by id), or is not valid.
 */
uint64_t *
store_scan_tuple_match(const struct store_tuples *tu, sqlite3 *db,
    const char *filter)
{
	struct matcher	*m = NULL;
	uint64_t	*bits = NULL;
	size_t		 i, k;
	int		 at[TUPLE_COLS], nat;

	if (!tu->failed && store_scan_tuple_plan(tu, filter, at, &nat, &m)) {
		bits = xcalloc(tu->n / 64 + 1, sizeof *bits);
		for (i = 0; i < tu->n; i++) {
			for (k = 0; k < (size_t)nat; k++) {
				if (store_match_str_id(db, m, (int64_t)tu->tv[
				    i * tu->ncols + at[k]] - 1)) {
					bits[i / 64] |= (uint64_t)1 << (i % 64);
					break;
				}
			}
		}
	}
	/* Strings it gave up on: the filter's own query says so. */
	if (matcher_failed(m, NULL)) {
		free(bits);
		bits = NULL;
	}
	matcher_free(m);
	return bits;
}

/*
 * Whether row ID's tuple is in BITS (from store_scan_tuple_match()): 1
 * or 0 (also for a row not among those read: not of the query), or -1
 * for a row written since.
 */
int
store_scan_tuple_has(const struct store_tuples *tu, const uint64_t *bits,
    int64_t id)
{
	uint32_t	 k;

	if (id < 0 || id > tu->maxid)
		return -1;
	if ((k = tu->row[id]) == 0)
		return 0;
	return store_scan_tuple_bit(bits, k);
}

/* TU's serial number: a set freed and another made differ in it. */
uint64_t
store_scan_tuple_serial(const struct store_tuples *tu)
{
	return tu->serial;
}

/*
 * The tuple of each of the N rows IDS into OUT: its index plus one, 0 for
 * a row TU did not read (not of the query), TUPLE_UNREAD for a row
 * written since. IDS come in a sorted order, so the rows array is met at
 * random: each is fetched some ids ahead.
 */
void
store_scan_tuple_rows(const struct store_tuples *tu, const int64_t *ids,
    size_t n, uint32_t *out)
{
	size_t	 i;
	int64_t	 id;

	for (i = 0; i < n; i++) {
		if (i + 32 < n && ids[i + 32] >= 0 && ids[i + 32] <= tu->maxid)
			__builtin_prefetch(&tu->row[ids[i + 32]]);
		id = ids[i];
		out[i] = id < 0 || id > tu->maxid ? TUPLE_UNREAD : tu->row[id];
	}
}

/*
 * Have row ID's tuple fetched into the cache ahead of its test: a walk of
 * a sorted order goes through the rows array at random, and waiting for
 * memory was most of its time.
 */
void
store_scan_tuple_prefetch(const struct store_tuples *tu, int64_t id)
{
	if (id >= 0 && id <= tu->maxid)
		__builtin_prefetch(&tu->row[id]);
}

/*
 * Add to SO every row TU read (only those whose tuple is in BITS, unless
 * BITS is NULL), in id order, with the string of T's column COL as the
 * key, ranked by RANK (NRANK ids): a sort on a text column without
 * reading a row. False if TU does not hold the column or SO gave up.
 */
bool
store_scan_tuple_sort(const struct store_tuples *tu, int col,
    const uint64_t *bits, struct store_sort *so, const uint32_t *rank,
    size_t nrank)
{
	int64_t		 id;
	uint32_t	 k;
	int		 j;

	if ((j = store_scan_tuple_at(tu, col)) < 0)
		return false;
	for (id = 0; id <= tu->maxid; id++) {
		if ((k = tu->row[id]) == 0)
			continue;
		k--;
		if (bits != NULL && (bits[k / 64] >> (k % 64) & 1) == 0)
			continue;
		if (!store_sort_add_str(so, id, (int64_t)tu->tv[(size_t)k *
		    tu->ncols + (size_t)j] - 1, rank, nrank))
			return false;
	}
	return true;
}
