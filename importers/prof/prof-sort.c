/*
 * An in-place sort for the host record arrays. glibc's qsort is a merge
 * sort through a temporary copy of the whole array, and the copy of a
 * large collection's API spans (hundreds of megabytes) was the import's
 * peak memory. This is an introsort: quicksort with a median-of-three
 * pivot, insertion sort for short runs and heapsort when the partitions
 * degrade, so it stays O(n log n) without extra memory (prof-sort-body.h,
 * made once for any element and once for API spans). It is not stable;
 * every caller's comparison orders all the fields that matter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_SORT_MAX_SIZE	256	/* largest element, in bytes */
#define PROF_SORT_SMALL		16

typedef int	(*prof_sort_cmp)(const void *, const void *);

/*
 * Copy and swap elements. Most are a whole number of 8-byte words (the
 * spans, tasks and records are): those go a word at a time, which the
 * compiler keeps in registers, not through a call to memcpy with a size
 * it cannot see (most of the sort's time on raw spans).
 */
static inline void
prof_sort_copy(unsigned char *dst, const unsigned char *src, size_t size)
{
	uint64_t	 w;
	size_t		 i;

	if (size % 8 != 0) {
		memcpy(dst, src, size);
		return;
	}
	for (i = 0; i < size; i += 8) {
		memcpy(&w, src + i, 8);
		memcpy(dst + i, &w, 8);
	}
}

static inline void
prof_sort_swap(unsigned char *a, unsigned char *b, size_t size)
{
	unsigned char	 t[PROF_SORT_MAX_SIZE];
	uint64_t	 x, y;
	size_t		 i;

	if (a == b)
		return;		/* memcpy must not see the same buffer twice */
	if (size % 8 != 0) {
		memcpy(t, a, size);
		memcpy(a, b, size);
		memcpy(b, t, size);
		return;
	}
	for (i = 0; i < size; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		memcpy(a + i, &y, 8);
		memcpy(b + i, &x, 8);
	}
}

/* How deep the quicksort of N elements goes before it turns to heapsort. */
static int
prof_sort_depth(size_t n)
{
	int	 depth = 0;

	for (; n > 1; n >>= 1)
		depth += 2;
	return depth;
}

/* Any element: its size and comparison are parameters. */
#define SORT(name)		prof_sort_any_##name
#define SORT_PARAMS		, size_t size, prof_sort_cmp cmp
#define SORT_ARGS		, size, cmp
#define SORT_SIZE_DECL
#define SORT_CMP(a, b)		cmp((a), (b))
#include "prof-sort-body.h"

/*
 * API spans, the most numerous: the size and comparison are known, so
 * the compiler calls prof_span_order() inline and copies whole spans.
 */
#define SORT(name)		prof_sort_span_##name
#define SORT_PARAMS
#define SORT_ARGS
#define SORT_SIZE_DECL		const size_t size = sizeof(struct prof_span);
#define SORT_CMP(a, b)		prof_span_order((const void *)(a),	\
				    (const void *)(b))
#include "prof-sort-body.h"

/* Records that start like struct prof_rec, of any size. */
#define SORT(name)		prof_sort_rec_##name
#define SORT_PARAMS		, size_t size
#define SORT_ARGS		, size
#define SORT_SIZE_DECL
#define SORT_CMP(a, b)		prof_rec_order((const void *)(a),	\
				    (const void *)(b))
#include "prof-sort-body.h"

/* Sort the N elements of SIZE bytes at V by CMP, in place. */
void
prof_sort(void *v, size_t n, size_t size, int (*cmp)(const void *,
    const void *))
{
	prof_sort_any_sort(v, n, size, cmp);
}

/* Sort the N spans at V by prof_span_order(), in place. */
void
prof_sort_spans(struct prof_span *v, size_t n)
{
	prof_sort_span_sort((unsigned char *)v, n);
}

/*
 * Sort the N records of SIZE bytes at V, each starting like struct
 * prof_rec, by prof_rec_order(), in place.
 */
void
prof_sort_recs(void *v, size_t n, size_t size)
{
	prof_sort_rec_sort(v, n, size);
}
