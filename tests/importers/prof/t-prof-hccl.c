/*
 * The node that launches an AI CPU HCCL op's kernels: the last node span
 * right inside the op's node span (prof_hccl_kfc_span), on spans in the
 * importer's order: children after their parent, a grandchild not taken
 * for a child, other levels and threads passed over, and a span that ends
 * after the op's ending its children.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"
#include "tap.h"

#define NODE	PROF_LEVEL_NODE
#define HCCL	PROF_LEVEL_HCCL

/* A span of thread T from B to E, of level L. */
#define SP(t, b, e, l)	{ .tid = (t), .begin = (b), .end = (e), .level = (l) }

/*
 * The cases: spans on thread 1 (and 2) with the op's node starting at
 * 100, and the start of the node expected, 0 for none.
 */
static const struct {
	const char		*what;
	struct prof_span	 v[4];
	size_t			 n;
	uint64_t		 want;
} cases[] = {
	{ "the last node right inside (an init node, an HCCL span before it)",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(1, 125, 140, HCCL), SP(1, 150, 190, NODE) }, 4, 150 },
	{ "a grandchild is not taken",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(1, 150, 190, NODE), SP(1, 160, 170, NODE) }, 4, 150 },
	{ "a child starting with the op",
	  { SP(1, 100, 200, NODE), SP(1, 100, 150, NODE) }, 2, 100 },
	{ "another thread's node passed over",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(2, 150, 160, NODE) }, 3, 110 },
	{ "a span past the op's end ends its children",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(1, 130, 250, NODE), SP(1, 140, 150, NODE) }, 4, 110 },
	{ "a later node: none",
	  { SP(1, 100, 200, NODE), SP(1, 210, 220, NODE) }, 2, 0 },
	{ "an HCCL span only: none",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, HCCL) }, 2, 0 }
};

/*
 * The span of H that case C expects (-1 for none), and what
 * prof_hccl_kfc_span() gives for the op's node: the first node of
 * thread 1 (the op's node sorts before a child sharing its start).
 */
static void
check(size_t c)
{
	struct prof_host	 h;
	struct prof_span	 v[4];
	size_t			 i, op = 0;
	int32_t			 want = -1;

	memcpy(v, cases[c].v, sizeof v);
	memset(&h, 0, sizeof h);
	prof_sort_spans(v, cases[c].n);
	h.spans = v;
	h.nspans = cases[c].n;
	for (i = cases[c].n; i-- > 0;) {
		if (v[i].tid == 1 && v[i].begin == 100)
			op = i;
		if (v[i].tid == 1 && v[i].begin == cases[c].want &&
		    v[i].level == NODE && v[i].end != 200)
			want = (int32_t)i;
	}
	is_int(prof_hccl_kfc_span(&h, op), want, "%s", cases[c].what);
}

int
main(void)
{
	size_t	 c;

	for (c = 0; c < sizeof cases / sizeof *cases; c++)
		check(c);
	return done_testing();
}
