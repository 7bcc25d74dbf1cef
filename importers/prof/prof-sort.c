/*
 * An in-place sort for the host record arrays. glibc's qsort is a merge
 * sort through a temporary copy of the whole array, and the copy of a
 * large collection's API spans (hundreds of megabytes) was the import's
 * peak memory. This is an introsort: quicksort with a median-of-three
 * pivot, insertion sort for short runs and heapsort when the partitions
 * degrade, so it stays O(n log n) without extra memory. It is not stable;
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

static void
prof_sort_insertion(unsigned char *v, size_t n, size_t size,
    prof_sort_cmp cmp)
{
	unsigned char	 t[PROF_SORT_MAX_SIZE];
	size_t		 i, j;

	for (i = 1; i < n; i++) {
		if (cmp(v + (i - 1) * size, v + i * size) <= 0)
			continue;
		prof_sort_copy(t, v + i * size, size);
		for (j = i; j > 0 && cmp(v + (j - 1) * size, t) > 0; j--)
			prof_sort_copy(v + j * size, v + (j - 1) * size, size);
		prof_sort_copy(v + j * size, t, size);
	}
}

static void
prof_sort_sift(unsigned char *v, size_t root, size_t n, size_t size,
    prof_sort_cmp cmp)
{
	size_t	 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && cmp(v + child * size,
		    v + (child + 1) * size) < 0)
			child++;
		if (cmp(v + root * size, v + child * size) >= 0)
			return;
		prof_sort_swap(v + root * size, v + child * size, size);
		root = child;
	}
}

static void
prof_sort_heap(unsigned char *v, size_t n, size_t size, prof_sort_cmp cmp)
{
	size_t	 i;

	for (i = n / 2; i-- > 0;)
		prof_sort_sift(v, i, n, size, cmp);
	for (i = n; i-- > 1;) {
		prof_sort_swap(v, v + i * size, size);
		prof_sort_sift(v, 0, i, size, cmp);
	}
}

/* Partition V around the median of its first, middle and last elements. */
static size_t
prof_sort_partition(unsigned char *v, size_t n, size_t size,
    prof_sort_cmp cmp)
{
	unsigned char	*a = v, *m = v + n / 2 * size, *z = v + (n - 1) * size;
	size_t		 i = 0, j = n - 1;

	if (cmp(m, a) < 0)
		prof_sort_swap(m, a, size);
	if (cmp(z, m) < 0) {
		prof_sort_swap(z, m, size);
		if (cmp(m, a) < 0)
			prof_sort_swap(m, a, size);
	}
	/* The pivot waits at the front; a and z now bound both scans. */
	prof_sort_swap(a, m, size);
	for (;;) {
		while (cmp(v + (++i) * size, v) < 0)
			;
		while (cmp(v, v + (--j) * size) < 0)
			;
		if (i >= j)
			break;
		prof_sort_swap(v + i * size, v + j * size, size);
	}
	prof_sort_swap(v, v + j * size, size);
	return j;
}

static void
prof_sort_intro(unsigned char *v, size_t n, size_t size, prof_sort_cmp cmp,
    int depth)
{
	size_t	 p;

	while (n > PROF_SORT_SMALL) {
		if (depth-- == 0) {
			prof_sort_heap(v, n, size, cmp);
			return;
		}
		p = prof_sort_partition(v, n, size, cmp);
		/* Recurse into the smaller side, loop on the larger. */
		if (p < n - p - 1) {
			prof_sort_intro(v, p, size, cmp, depth);
			v += (p + 1) * size;
			n -= p + 1;
		} else {
			prof_sort_intro(v + (p + 1) * size, n - p - 1, size,
			    cmp, depth);
			n = p;
		}
	}
	prof_sort_insertion(v, n, size, cmp);
}

/* Sort the N elements of SIZE bytes at V by CMP, in place. */
void
prof_sort(void *v, size_t n, size_t size, int (*cmp)(const void *,
    const void *))
{
	size_t	 i;
	int	 depth = 0;

	if (n < 2)
		return;
	if (size > PROF_SORT_MAX_SIZE)
		fatalx("%s: element of %zu bytes", __func__, size);
	for (i = 0; i + 1 < n; i++) {
		if (cmp((unsigned char *)v + i * size,
		    (unsigned char *)v + (i + 1) * size) > 0)
			break;
	}
	if (i + 1 == n)
		return;		/* already in order, as slices often are */
	for (i = n; i > 1; i >>= 1)
		depth += 2;
	prof_sort_intro(v, n, size, cmp, depth);
}
