/*
 * The node that launches an AI CPU HCCL op's kernels: the last node span
 * right inside the op's node span (prof_hccl_kfc_span), on spans in the
 * importer's order, with the vendor's tree's rules: a grandchild not
 * taken for a child, HCCL spans and other threads passed over, a span
 * past the op's end or a model span ending its children, a span crossing
 * a child's end closing that child, spans of no length and a node
 * starting with the op (which the vendor's order puts before it) no
 * children.
 *
 * With the argument --spans it is prof-kfc-tree-vendor.sh's harness:
 * spans "TID BEGIN END LEVEL" on standard input, one a line; for each
 * node span, "I K" on standard output, I its line's index and K that of
 * the span prof_hccl_kfc_span() gives, or "-".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"
#include "tap.h"

#define NODE	PROF_LEVEL_NODE
#define HCCL	PROF_LEVEL_HCCL
#define MODEL	PROF_LEVEL_MODEL

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
	{ "a node starting with the op: none",
	  { SP(1, 100, 200, NODE), SP(1, 100, 150, NODE) }, 2, 0 },
	{ "a node of no length: none",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(1, 150, 150, NODE) }, 3, 110 },
	{ "a model span ends the op's children",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, NODE),
	    SP(1, 130, 140, MODEL), SP(1, 150, 160, NODE) }, 4, 110 },
	{ "a span crossing a child's end closes it",
	  { SP(1, 100, 200, NODE), SP(1, 110, 140, NODE),
	    SP(1, 120, 150, HCCL), SP(1, 145, 148, NODE) }, 4, 145 },
	{ "a node after an HCCL span right inside",
	  { SP(1, 100, 200, NODE), SP(1, 110, 120, HCCL),
	    SP(1, 130, 140, NODE) }, 3, 130 },
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

/* The harness of --spans (the span's line index rides in its item). */
static int
spans_from_stdin(void)
{
	struct prof_host	 h;
	struct prof_span	*v = NULL;
	unsigned long long	 b, e;
	unsigned		 t, l;
	size_t			 n = 0, i;
	int32_t			 k;

	while (scanf("%u %llu %llu %u", &t, &b, &e, &l) == 4) {
		v = util_grow(v, n, 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		v[n].tid = t;
		v[n].begin = b;
		v[n].end = e;
		v[n].level = (uint16_t)l;
		v[n].item = n;
		n++;
	}
	if (n > 0)
		prof_sort_spans(v, n);
	memset(&h, 0, sizeof h);
	h.spans = v;
	h.nspans = n;
	for (i = 0; i < n; i++) {
		if (v[i].level != NODE)
			continue;
		k = prof_hccl_kfc_span(&h, i);
		if (k < 0)
			printf("%llu -\n", (unsigned long long)v[i].item);
		else
			printf("%llu %llu\n", (unsigned long long)v[i].item,
			    (unsigned long long)v[k].item);
	}
	free(v);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t	 c;

	if (argc > 1 && strcmp(argv[1], "--spans") == 0)
		return spans_from_stdin();
	for (c = 0; c < sizeof cases / sizeof *cases; c++)
		check(c);
	return done_testing();
}
