/*
 * Sorting task rows in memory for the UI. SQLite sorts ten million rows
 * on a column without an index in tens of seconds: it copies each row
 * into its sorter and merges runs on disk. Here the scan (store-scan.c)
 * hands over only each row's sort key, and the keys are packed with the
 * row id into one 64-bit word: the key, mapped to a small unsigned range,
 * in the high bits and the id in the low bits. An in-place radix sort of
 * those words is the whole sort, in the memory the ids need anyway, and
 * the sorted words become the ids by masking off the key.
 *
 * Ties come out by row id, ascending in an ascending sort and descending
 * in a descending one, as the SQL of a sorted task table orders them
 * (store-query.c): a descending sort is the ascending one reversed. The
 * sort gives up on a value that is not an integer, or on a key range that
 * leaves no room for the ids; the scan then asks SQLite.
 */
#include <sys/mman.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Below this many words a bucket is sorted by insertion. */
#define SORT_SMALL	48

/* From this many words the sort uses a second thread. */
#define SORT_THREADED	(1 << 14)

/* The alignment of the keys' array: a huge page. */
#define SORT_HUGE	(2 * 1024 * 1024)

/*
 * Whether SORT (one column, "col" or "-col") on task table T can be
 * sorted here, and if so its key in *K: an integer column of the task
 * table, or a string the table joins from str by id.
 */
bool
store_sort_plan(const struct store_table *t, const char *sort,
    struct store_sort_key *k)
{
	const struct store_col	*c;
	const char		*name;
	int			 col;

	memset(k, 0, sizeof *k);
	if (sort == NULL || *sort == '\0' || strchr(sort, ',') != NULL)
		return false;
	k->desc = *sort == '-';
	name = *sort == '-' || *sort == '+' ? sort + 1 : sort;
	if ((col = store_query_col(t, name, strlen(name))) < 0)
		return false;
	c = &t->cols[col];
	k->col = col;
	if (c->fmt == FMT_NUMTEXT || c->fmt == FMT_REAL3 || c->fmt == FMT_REAL)
		return false;
	/* Ascending on the default order's first column is that order. */
	if (!k->desc && strncmp(t->order, c->expr, strlen(c->expr)) == 0 &&
	    t->order[strlen(c->expr)] == ',')
		return false;
	if (strncmp(c->expr, "t.", 2) == 0 && strspn(c->expr + 2,
	    STORE_IDENT_CHARS) == strlen(c->expr + 2)) {
		if (strlen(c->expr) >= sizeof k->expr)
			return false;
		snprintf(k->expr, sizeof k->expr, "%s", c->expr);
		return true;
	}
	if (!store_query_str_col(t, c->expr, k->expr, sizeof k->expr))
		return false;
	k->text = true;
	return true;
}

/*
 * The rank of every string of S's str table in SQLite's order of its
 * values (equal strings share a rank), by string id: ranks start at 1,
 * 0 is for ids without a string. *N gets the array's length.
 */
uint32_t *
store_sort_ranks(struct store *s, size_t *n, char **cause)
{
	sqlite3_stmt	*stmt;
	uint32_t	*rank, r = 0;
	int64_t		 max = 0, id;
	const void	*v;
	char		*prev = NULL;
	int		 type, ptype = -1, len, plen = 0;

	if (store_prepare(s, &stmt, "SELECT max(id) FROM str", cause) != 0)
		return NULL;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		max = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (max < 0 || max > (int64_t)UINT32_MAX - 1) {
		xasprintf(cause, "too many strings to sort by");
		return NULL;
	}
	if (store_prepare(s, &stmt, "SELECT id, s FROM str ORDER BY s, id",
	    cause) != 0)
		return NULL;
	*n = (size_t)max + 1;
	rank = xcalloc(*n, sizeof *rank);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		id = sqlite3_column_int64(stmt, 0);
		type = sqlite3_column_type(stmt, 1);
		v = type == SQLITE_BLOB ? sqlite3_column_blob(stmt, 1) :
		    sqlite3_column_text(stmt, 1);
		len = sqlite3_column_bytes(stmt, 1);
		if (prev == NULL || type != ptype || len != plen ||
		    (len > 0 && memcmp(v, prev, (size_t)len) != 0)) {
			r++;
			free(prev);
			prev = xmalloc((size_t)len + 1);
			if (len > 0)
				memcpy(prev, v, (size_t)len);
			ptype = type;
			plen = len;
		}
		if (id >= 0 && id <= max)
			rank[id] = r;
	}
	free(prev);
	if (sqlite3_finalize(stmt) != SQLITE_OK) {
		xasprintf(cause, "cannot read the strings: %s",
		    sqlite3_errmsg(s->db));
		free(rank);
		return NULL;
	}
	return rank;
}

/* The key that stands for NULL while collecting (real keys cannot be). */
#define SORT_NULL	INT64_MIN

/*
 * Start collecting the keys of rows with ids up to MAXID. The keys' array
 * asks for huge pages: a first touch of ten million keys otherwise costs
 * twenty thousand page faults.
 */
void
store_sort_init(struct store_sort *so, int64_t maxid)
{
	void	*p;
	size_t	 len;

	memset(so, 0, sizeof *so);
	so->maxid = maxid > 0 ? maxid : 0;
	so->size = (size_t)so->maxid + 1;
	len = so->size * sizeof *so->v;
	if (posix_memalign(&p, SORT_HUGE, len) != 0)
		fatalx("%s: out of memory (%zu bytes)", __func__, len);
#ifdef MADV_HUGEPAGE
	madvise(p, len, MADV_HUGEPAGE);
#endif
	so->v = p;
	so->ids = xcalloc((size_t)so->maxid / 64 + 1, sizeof *so->ids);
	so->lastid = -1;
	so->ok = true;
	so->owner = true;
}

/*
 * Make PART collect into WHOLE's arrays from position FROM, for at most
 * SIZE rows: each part of a scan reads its own range of ids, and the
 * ranges split the id bitmap between its words.
 */
void
store_sort_part(struct store_sort *part, const struct store_sort *whole,
    size_t from, size_t size)
{
	memset(part, 0, sizeof *part);
	part->v = whole->v + from;
	part->size = size;
	part->ids = whole->ids;
	part->maxid = whole->maxid;
	part->lastid = -1;
	part->ok = true;
}

/*
 * Append what parts A and B (B's ids all above A's; B may be NULL)
 * collected to WHOLE, whose arrays they share: B's keys move down next to
 * A's.
 */
void
store_sort_join(struct store_sort *whole, const struct store_sort *a,
    const struct store_sort *b)
{
	const struct store_sort	*p[2] = { a, b };
	int			 i;

	for (i = 0; i < 2 && p[i] != NULL; i++) {
		if (!p[i]->ok)
			whole->ok = false;
		if (p[i]->n == 0)
			continue;
		if (p[i]->v != whole->v + whole->n)
			memmove(whole->v + whole->n, p[i]->v, p[i]->n *
			    sizeof *whole->v);
		if (whole->nkeys == 0 || (p[i]->nkeys > 0 && p[i]->min <
		    whole->min))
			whole->min = p[i]->min;
		if (whole->nkeys == 0 || (p[i]->nkeys > 0 && p[i]->max >
		    whole->max))
			whole->max = p[i]->max;
		whole->nkeys += p[i]->nkeys;
		whole->n += p[i]->n;
	}
}

void
store_sort_free(struct store_sort *so)
{
	if (so->owner) {
		free(so->v);
		free(so->ids);
	}
	memset(so, 0, sizeof *so);
}

/* Note row ID, above the ids added so far; false if that cannot be. */
static bool
store_sort_take(struct store_sort *so, int64_t id)
{
	if (!so->ok)
		return false;
	if (id <= so->lastid || id > so->maxid || so->n >= so->size) {
		so->ok = false;
		return false;
	}
	so->lastid = id;
	so->ids[id / 64] |= (uint64_t)1 << (id % 64);
	return true;
}

/* Append the key of the row just taken: KEY, or NULL (SORT_NULL). */
static void
store_sort_key(struct store_sort *so, int64_t key)
{
	if (key != SORT_NULL) {
		if (so->nkeys == 0 || key < so->min)
			so->min = key;
		if (so->nkeys == 0 || key > so->max)
			so->max = key;
		so->nkeys++;
	}
	so->v[so->n++] = (uint64_t)key;
}

/*
 * Add the row ID, above the ids added so far, with key V (an sqlite3
 * value: an integer, NULL, or for a text key a string id RANK maps).
 * Return false once sorting here is known to be impossible.
 */
bool
store_sort_add(struct store_sort *so, int64_t id, sqlite3_value *v,
    const uint32_t *rank, size_t nrank)
{
	int64_t	 key;
	int	 type = sqlite3_value_type(v);

	if (rank != NULL && (type == SQLITE_INTEGER || type == SQLITE_NULL))
		return store_sort_add_str(so, id, type == SQLITE_NULL ? -1 :
		    sqlite3_value_int64(v), rank, nrank);
	if (!store_sort_take(so, id))
		return false;
	if (type == SQLITE_NULL)
		key = SORT_NULL;
	else if (type != SQLITE_INTEGER || rank != NULL ||
	    (key = sqlite3_value_int64(v)) == SORT_NULL) {
		so->ok = false;
		return false;
	}
	store_sort_key(so, key);
	return true;
}

/*
 * Add the row ID, above the ids added so far, with the string of str id
 * STR (-1 for NULL) as its key, by its rank in RANK. False once sorting
 * here is known to be impossible.
 */
bool
store_sort_add_str(struct store_sort *so, int64_t id, int64_t str,
    const uint32_t *rank, size_t nrank)
{
	int64_t	 key;

	if (!store_sort_take(so, id))
		return false;
	key = str >= 0 && (uint64_t)str < nrank ? rank[str] : 0;
	store_sort_key(so, key == 0 ? SORT_NULL : key);
	return true;
}

/* The number of bits needed to hold X. */
static int
store_sort_bits(uint64_t x)
{
	int	 b = 0;

	while (x != 0) {
		b++;
		x >>= 1;
	}
	return b;
}

/*
 * Move the N words of A into buckets by their digit at SHIFT, in place;
 * COUNT gets each bucket's size.
 */
static void
store_sort_spread(uint64_t *a, size_t n, int shift, size_t *count)
{
	size_t		 pos[256], end[256], i, j, b;
	uint64_t	 v, w;

	memset(count, 0, 256 * sizeof *count);
	for (i = 0; i < n; i++)
		count[(a[i] >> shift) & 0xff]++;
	for (b = 0, i = 0; b < 256; b++) {
		pos[b] = i;
		i += count[b];
		end[b] = i;
	}
	/* Put each word where its digit's bucket fills next. */
	for (b = 0; b < 256; b++) {
		while (pos[b] < end[b]) {
			v = a[pos[b]];
			while ((j = (v >> shift) & 0xff) != b) {
				w = a[pos[j]];
				a[pos[j]++] = v;
				v = w;
			}
			a[pos[b]++] = v;
		}
	}
}

/* Sort the N words of A by their bits below SHIFT + 8, in place. */
static void
store_sort_radix(uint64_t *a, size_t n, int shift)
{
	size_t		 count[256], i, j, b;
	uint64_t	 v;

	if (n < SORT_SMALL) {
		for (i = 1; i < n; i++) {
			v = a[i];
			for (j = i; j > 0 && a[j - 1] > v; j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
		return;
	}
	store_sort_spread(a, n, shift, count);
	if (shift == 0)
		return;
	for (b = 0, i = 0; b < 256; i += count[b], b++) {
		if (count[b] > 1)
			store_sort_radix(a + i, count[b], shift - 8);
	}
}

/* The buckets a second thread sorts: words A to A + N at SHIFT. */
struct store_sort_job {
	uint64_t	*a;
	size_t		 n;
	const size_t	*count;
	size_t		 from;		/* first bucket */
	size_t		 to;		/* past the last */
	int		 shift;
};

/* Sort the buckets [FROM, TO) of a spread array. */
static void *
store_sort_buckets(void *arg)
{
	struct store_sort_job	*j = arg;
	size_t			 b, i;

	for (b = j->from, i = 0; b < j->to; i += j->count[b], b++) {
		if (j->count[b] > 1)
			store_sort_radix(j->a + i, j->count[b], j->shift);
	}
	return NULL;
}

/*
 * Sort the N words of A by their bits below SHIFT + 8: spread them by the
 * top digit, then sort the buckets in two threads, split by words.
 */
static void
store_sort_top(uint64_t *a, size_t n, int shift)
{
	struct store_sort_job	 lo, hi;
	pthread_t		 thread;
	size_t			 count[256], b, i;

	if (n < SORT_THREADED || shift == 0) {
		store_sort_radix(a, n, shift);
		return;
	}
	store_sort_spread(a, n, shift, count);
	for (b = 0, i = 0; b < 256 && i + count[b] <= n / 2; b++)
		i += count[b];
	lo = (struct store_sort_job){ a, i, count, 0, b, shift - 8 };
	hi = (struct store_sort_job){ a + i, n - i, count, b, 256,
	    shift - 8 };
	if (pthread_create(&thread, NULL, store_sort_buckets, &hi) != 0) {
		store_sort_buckets(&hi);
		store_sort_buckets(&lo);
		return;
	}
	store_sort_buckets(&lo);
	pthread_join(thread, NULL);
}

/*
 * Sort what SO collected (DESC: keys descending, NULL last, ties by id
 * descending, as SQL does) and return the ids in that order, *N of them;
 * SO no longer owns the array. NULL if the rows could not be sorted here.
 */
int64_t *
store_sort_finish(struct store_sort *so, bool desc, size_t *n)
{
	uint64_t	 range, key, *a = so->v, word;
	int64_t		*out, id;
	size_t		 i;
	int		 kbits, ibits, bits;

	*n = 0;
	if (!so->ok)
		return NULL;
	/* Keys 1 to range ascending, or range-1 to 0 descending; NULL. */
	range = so->nkeys == 0 ? 0 : (uint64_t)so->max - (uint64_t)so->min;
	if (range >= UINT64_MAX - 2)
		return NULL;
	kbits = store_sort_bits(range + 2);
	ibits = store_sort_bits((uint64_t)so->maxid);
	if (kbits + ibits > 64)
		return NULL;
	id = 0;
	for (i = 0; i < so->n; i++) {
		/* The next id whose bit is set, in the order they came. */
		while ((so->ids[id / 64] >> (id % 64) & 1) == 0)
			id++;
		if (a[i] == (uint64_t)SORT_NULL)
			key = desc ? range + 1 : 0;
		else {
			key = a[i] - (uint64_t)so->min;
			key = desc ? range - key : key + 1;
		}
		a[i] = key << ibits | (uint64_t)(desc ? so->maxid - id : id);
		id++;
	}
	bits = kbits + ibits;
	store_sort_top(a, so->n, bits > 8 ? (bits - 1) / 8 * 8 : 0);
	word = ((uint64_t)1 << ibits) - 1;
	out = (int64_t *)a;
	for (i = 0; i < so->n; i++) {
		id = (int64_t)(a[i] & word);
		out[i] = desc ? so->maxid - id : id;
	}
	*n = so->n;
	so->v = NULL;
	return out;
}
