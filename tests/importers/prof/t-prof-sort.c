/*
 * The in-place sort of the raw PROF importer against qsort: random arrays
 * with many equal keys, sorted, reversed and zigzag input, with elements
 * as large as the importer's and payloads that must move with their keys.
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
	return done_testing();
}
