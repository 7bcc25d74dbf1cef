/*
 * The introsort of prof-sort.c (quicksort with a median-of-three pivot,
 * insertion sort for short runs, heapsort when the partitions degrade),
 * included once for each kind of element it is made for. The includer
 * defines SORT(name), the name of each function; SORT_PARAMS and
 * SORT_ARGS, the parameters the functions pass on (after a comma, or
 * nothing); SORT_SIZE_DECL, which declares the element size `size` if
 * no parameter gives it; and SORT_CMP(a, b), the comparison of two
 * elements. It uses the includer's PROF_SORT_MAX_SIZE, PROF_SORT_SMALL,
 * prof_sort_copy(), prof_sort_swap() and prof_sort_depth(), and undefines
 * the includer's macros at its end. SORT(sort) is the way in.
 */

static void
SORT(insertion)(unsigned char *v, size_t n SORT_PARAMS)
{
	SORT_SIZE_DECL
	unsigned char	 t[PROF_SORT_MAX_SIZE];
	size_t		 i, j;

	for (i = 1; i < n; i++) {
		if (SORT_CMP(v + (i - 1) * size, v + i * size) <= 0)
			continue;
		prof_sort_copy(t, v + i * size, size);
		for (j = i; j > 0 && SORT_CMP(v + (j - 1) * size, t) > 0; j--)
			prof_sort_copy(v + j * size, v + (j - 1) * size, size);
		prof_sort_copy(v + j * size, t, size);
	}
}

static void
SORT(sift)(unsigned char *v, size_t root, size_t n SORT_PARAMS)
{
	SORT_SIZE_DECL
	size_t	 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && SORT_CMP(v + child * size,
		    v + (child + 1) * size) < 0)
			child++;
		if (SORT_CMP(v + root * size, v + child * size) >= 0)
			return;
		prof_sort_swap(v + root * size, v + child * size, size);
		root = child;
	}
}

static void
SORT(heap)(unsigned char *v, size_t n SORT_PARAMS)
{
	SORT_SIZE_DECL
	size_t	 i;

	for (i = n / 2; i-- > 0;)
		SORT(sift)(v, i, n SORT_ARGS);
	for (i = n; i-- > 1;) {
		prof_sort_swap(v, v + i * size, size);
		SORT(sift)(v, 0, i SORT_ARGS);
	}
}

/* Partition V around the median of its first, middle and last elements. */
static size_t
SORT(partition)(unsigned char *v, size_t n SORT_PARAMS)
{
	SORT_SIZE_DECL
	unsigned char	*a = v, *m = v + n / 2 * size, *z = v + (n - 1) * size;
	size_t		 i = 0, j = n - 1;

	if (SORT_CMP(m, a) < 0)
		prof_sort_swap(m, a, size);
	if (SORT_CMP(z, m) < 0) {
		prof_sort_swap(z, m, size);
		if (SORT_CMP(m, a) < 0)
			prof_sort_swap(m, a, size);
	}
	/* The pivot waits at the front; a and z now bound both scans. */
	prof_sort_swap(a, m, size);
	for (;;) {
		while (SORT_CMP(v + (++i) * size, v) < 0)
			;
		while (SORT_CMP(v, v + (--j) * size) < 0)
			;
		if (i >= j)
			break;
		prof_sort_swap(v + i * size, v + j * size, size);
	}
	prof_sort_swap(v, v + j * size, size);
	return j;
}

static void
SORT(intro)(unsigned char *v, size_t n, int depth SORT_PARAMS)
{
	SORT_SIZE_DECL
	size_t	 p;

	while (n > PROF_SORT_SMALL) {
		if (depth-- == 0) {
			SORT(heap)(v, n SORT_ARGS);
			return;
		}
		p = SORT(partition)(v, n SORT_ARGS);
		/* Recurse into the smaller side, loop on the larger. */
		if (p < n - p - 1) {
			SORT(intro)(v, p, depth SORT_ARGS);
			v += (p + 1) * size;
			n -= p + 1;
		} else {
			SORT(intro)(v + (p + 1) * size, n - p - 1,
			    depth SORT_ARGS);
			n = p;
		}
	}
	SORT(insertion)(v, n SORT_ARGS);
}

/* Sort the N elements at V in place; nothing moves if they are in order. */
static void
SORT(sort)(unsigned char *v, size_t n SORT_PARAMS)
{
	SORT_SIZE_DECL
	size_t	 i;

	if (n < 2)
		return;
	if (size > PROF_SORT_MAX_SIZE)
		fatalx("%s: element of %zu bytes", __func__, size);
	for (i = 0; i + 1 < n; i++) {
		if (SORT_CMP(v + i * size, v + (i + 1) * size) > 0)
			break;
	}
	if (i + 1 == n)
		return;		/* already in order, as slices often are */
	SORT(intro)(v, n, prof_sort_depth(n) SORT_ARGS);
}

#undef SORT
#undef SORT_PARAMS
#undef SORT_ARGS
#undef SORT_SIZE_DECL
#undef SORT_CMP
