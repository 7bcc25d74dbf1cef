/*
 * The PCRE2 matcher behind filters and search.
 */
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"
#include "tap.h"

int
main(void)
{
	struct matcher	*m;
	char		*cause = NULL;
	size_t		 a = 0, b = 0;

	m = matcher_create("^gemm_", false, &cause);
	ok(m != NULL, "compile an anchored pattern");
	ok(matcher_match(m, "gemm_fp16", 9), "match at the start");
	ok(!matcher_match(m, "sgemm_fp16", 10), "no match past the start");
	matcher_free(m);

	m = matcher_create("matmul", true, &cause);
	ok(m != NULL && matcher_match(m, "MatMulV2", 8), "caseless");
	a = 0;
	ok(matcher_find(m, "xxMatMul", 8, &a, &b) == 0 && a == 2 && b == 8,
	    "find reports the span");
	matcher_free(m);

	/* What a text of digits and signs can never match. */
	m = matcher_create("Conv2D", false, &cause);
	ok(!matcher_may_match_chars(m, "0123456789.-"),
	    "a name needs letters a number lacks");
	ok(matcher_may_match_chars(m, "CDnov2"),
	    "but may match a text of its letters");
	matcher_free(m);
	m = matcher_create("^1\\.2", false, &cause);
	ok(matcher_may_match_chars(m, "0123456789.-"),
	    "a pattern of digits may match a number");
	matcher_free(m);
	m = matcher_create("a|Z", false, &cause);
	ok(matcher_may_match_chars(m, "0123456789"),
	    "no character every match needs: it may match anything");
	matcher_free(m);
	m = matcher_create("(?i)HOST", false, &cause);
	ok(matcher_may_match_chars(m, "host"),
	    "letters are looked for in either case");
	ok(!matcher_may_match_chars(m, "0123456789"),
	    "and not found among digits");
	matcher_free(m);
	m = matcher_create("\xc3\xa9", false, &cause);
	ok(!matcher_may_match_chars(m, "0123456789e"),
	    "a character past ASCII is never among them");
	matcher_free(m);

	m = matcher_create("(", false, &cause);
	ok(m == NULL && cause != NULL, "a bad pattern is refused");
	ok(cause != NULL && strstr(cause, "offset") != NULL,
	    "the message names the offset");
	free(cause);
	matcher_free(NULL);
	return done_testing();
}
