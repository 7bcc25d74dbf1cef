/*
 * The in-place sort of the raw PROF importer against qsort: random arrays
 * with many equal keys, sorted, reversed and zigzag input, with elements
 * as large as the importer's and payloads that must move with their keys;
 * and the sorts made for API spans and for records that start like
 * struct prof_rec against the one for any element.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"
#include "tap.h"

/* An element like the importer's: a key and a payload that must move. */
struct elem {
	uint32_t	 key;
	uint32_t	 sub;
	uint64_t	 payload[5];
};

static int
elem_cmp(const void *a, const void *b)
{
	const struct elem	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

static uint64_t	 rng = 88172645463325252ULL;

static uint32_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Sort V (N elements) both ways and compare, payloads included. */
static int
check(struct elem *v, size_t n)
{
	struct elem	*w;
	size_t		 i;
	int		 same;

	w = xreallocarray(NULL, n + 1, sizeof *w);
	memcpy(w, v, n * sizeof *v);
	qsort(w, n, sizeof *w, elem_cmp);
	prof_sort(v, n, sizeof *v, elem_cmp);
	same = memcmp(v, w, n * sizeof *v) == 0;
	for (i = 0; same && i < n; i++)
		same = v[i].payload[0] == (uint64_t)v[i].key * 3 + v[i].sub;
	free(w);
	return same;
}

static struct elem *
make(size_t n, int kind)
{
	struct elem	*v;
	size_t		 i;

	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++) {
		switch (kind) {
		case 0:
			v[i].key = next() % 50;
			break;
		case 1:
			v[i].key = (uint32_t)i;
			break;
		case 2:
			v[i].key = (uint32_t)(n - i);
			break;
		case 3:
			v[i].key = (uint32_t)(i % 2 == 0 ? i : n + n - i);
			break;
		}
		v[i].sub = (uint32_t)i;	/* keys stay unique, order total */
		v[i].payload[0] = (uint64_t)v[i].key * 3 + v[i].sub;
	}
	return v;
}

/* Elements that are no whole number of 8-byte words: 12 bytes. */
struct elem12 {
	uint32_t	 key;
	uint32_t	 sub;
	uint32_t	 payload;
};

static int
elem12_cmp(const void *a, const void *b)
{
	const struct elem12	*x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

static int
check12(size_t n)
{
	struct elem12	*v, *w;
	size_t		 i;
	int		 same;

	v = xcalloc(n + 1, sizeof *v);
	w = xcalloc(n + 1, sizeof *w);
	for (i = 0; i < n; i++) {
		v[i].key = next() % 50;
		v[i].sub = (uint32_t)i;
		v[i].payload = v[i].key * 7 + (uint32_t)i;
	}
	memcpy(w, v, n * sizeof *v);
	qsort(w, n, sizeof *w, elem12_cmp);
	prof_sort(v, n, sizeof *v, elem12_cmp);
	same = memcmp(v, w, n * sizeof *v) == 0;
	free(v);
	free(w);
	return same;
}

/*
 * N API spans of KIND (0 random, with equal spans told apart only by the
 * aux the order ignores; 1 sorted; 2 reversed) sorted by prof_sort_spans()
 * and by prof_sort() with prof_span_cmp: the same arrays, ties included,
 * and in order.
 */
static int
check_spans(size_t n, int kind)
{
	struct prof_span	*v, *w;
	size_t			 i;
	int			 same;

	v = xcalloc(n + 1, sizeof *v);
	w = xcalloc(n + 1, sizeof *w);
	for (i = 0; i < n; i++) {
		v[i].tid = kind == 0 ? next() % 4 : (uint32_t)(i / 1000);
		v[i].begin = kind == 0 ? next() % 64 : i;
		v[i].end = v[i].begin + (kind == 0 ? next() % 8 : 5);
		v[i].level = (uint16_t)(kind == 0 ? next() % 3 : 1);
		v[i].type = kind == 0 ? next() % 2 : 0;
		v[i].item = kind == 0 ? next() % 2 : 0;
		v[i].aux = (uint32_t)i;
	}
	if (kind == 2) {
		for (i = 0; i < n / 2; i++) {
			w[0] = v[i];
			v[i] = v[n - 1 - i];
			v[n - 1 - i] = w[0];
		}
	}
	memcpy(w, v, n * sizeof *v);
	prof_sort_spans(v, n);
	prof_sort(w, n, sizeof *w, prof_span_cmp);
	same = memcmp(v, w, n * sizeof *v) == 0;
	for (i = 0; same && i + 1 < n; i++)
		same = prof_span_order(&v[i], &v[i + 1]) <= 0;
	free(v);
	free(w);
	return same;
}

static int
rec_cmp(const void *a, const void *b)
{
	return prof_rec_order(a, b);
}

/*
 * N host task records (random thread and time with ties, told apart only
 * by their stream) by prof_sort_recs() and by prof_sort(): the same.
 */
static int
check_recs(size_t n)
{
	struct prof_track	*v, *w;
	size_t			 i;
	int			 same;

	v = xcalloc(n + 1, sizeof *v);
	w = xcalloc(n + 1, sizeof *w);
	for (i = 0; i < n; i++) {
		v[i].tid = next() % 3;
		v[i].ts = next() % 100;
		v[i].stream = (uint16_t)i;
	}
	memcpy(w, v, n * sizeof *v);
	prof_sort_recs(v, n, sizeof *v);
	prof_sort(w, n, sizeof *w, rec_cmp);
	same = memcmp(v, w, n * sizeof *v) == 0;
	for (i = 0; same && i + 1 < n; i++)
		same = rec_cmp(&v[i], &v[i + 1]) <= 0;
	free(v);
	free(w);
	return same;
}

/*
 * The order of API spans, written out: by thread, then begin; of spans
 * that begin together the longer (outer) first, then the higher level,
 * the lower type, the lower item.
 */
static int
check_span_order(void)
{
	static const struct {
		uint32_t	 tid;
		uint64_t	 begin, end;
		uint16_t	 level;
		uint32_t	 type;
		uint64_t	 item;
	} in[] = {
		{ 2, 1, 2, 1, 0, 0 },	/* 7: the next thread */
		{ 1, 5, 7, 1, 0, 0 },	/* 2 */
		{ 1, 5, 9, 1, 0, 0 },	/* 0: the longest */
		{ 1, 5, 6, 1, 1, 8 },	/* 5 */
		{ 1, 5, 6, 1, 1, 4 },	/* 4: the lower item */
		{ 1, 5, 6, 3, 0, 0 },	/* 3: the higher level */
		{ 1, 5, 8, 1, 0, 0 },	/* 1 */
		{ 1, 5, 6, 1, 2, 0 },	/* 6: the higher type */
	};
	static const uint32_t	 want[] = { 2, 6, 1, 5, 4, 3, 7, 0 };
	struct prof_span	 v[8];
	size_t			 i;

	memset(v, 0, sizeof v);
	for (i = 0; i < 8; i++) {
		v[i].tid = in[i].tid;
		v[i].begin = in[i].begin;
		v[i].end = in[i].end;
		v[i].level = in[i].level;
		v[i].type = in[i].type;
		v[i].item = in[i].item;
		v[i].aux = (uint32_t)i;
	}
	prof_sort_spans(v, 8);
	for (i = 0; i < 8; i++) {
		if (v[i].aux != want[i])
			return 0;
	}
	return 1;
}

int
main(void)
{
	static const size_t	 sizes[] = { 0, 1, 2, 17, 100, 1000, 100000 };
	static const char	*kinds[] = { "random with ties", "sorted",
	    "reversed", "zigzag" };
	struct elem		*v;
	size_t			 i;
	int			 k;

	for (k = 0; k < 4; k++) {
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			v = make(sizes[i], k);
			ok(check(v, sizes[i]), "%s, %zu elements", kinds[k],
			    sizes[i]);
			free(v);
		}
	}
	ok(check12(17) && check12(100000), "12-byte elements, random");
	for (k = 0; k < 3; k++) {
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
			ok(check_spans(sizes[i], k), "API spans, %s, %zu "
			    "spans", k == 0 ? "random with ties" : k == 1 ?
			    "sorted" : "reversed", sizes[i]);
	}
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		ok(check_recs(sizes[i]), "host task records, %zu", sizes[i]);
	ok(check_span_order(), "API spans in their order, outer first");
	return done_testing();
}
