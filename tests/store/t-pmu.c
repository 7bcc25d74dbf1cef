/*
 * Packed PMU values: every value comes back as the exact text it was
 * read as, numbers also as numbers (the number of the text shown), text
 * with commas and quotes intact, counters of any size exact, and a damaged
 * blob ends the values without reading past its end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "tap.h"

static const struct {
	const char	*text;
	int		 number;	/* 1 if it reads as a number */
	double		 value;
} cases[] = {
	{ "0.0", 1, 0 },
	{ "7.285", 1, 7.285 },
	{ "26227", 1, 26227 },
	{ "0.33", 1, 0.33 },
	{ "-1.5", 1, -1.5 },
	{ "0.005", 1, 0.005 },
	{ "-0.05", 1, -0.05 },
	{ "123456789012345678", 1, 123456789012345678.0 },
	{ "007", 1, 7 },
	{ "-.5", 1, -0.5 },
	{ "1e-05", 1, 1e-05 },
	{ "-0", 1, 0 },
	{ "00.5", 1, 0.5 },
	{ "0.50", 1, 0.5 },
	{ ".5", 1, 0.5 },
	{ "-0.0", 1, 0 },
	{ "-10.01", 1, -10.01 },
	{ "100.000", 1, 100 },
	{ "12345678901234567890", 1, 12345678901234567890.0 },
	{ "N/A", 0, 0 },
	{ "", 0, 0 },
	{ "1,2", 0, 0 },
	{ "\"quoted\"", 0, 0 },
	{ "abc\tdef", 0, 0 }
};
#define NCASES	(sizeof cases / sizeof cases[0])

static void
check_texts(void)
{
	struct strbuf		 b;
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			*t;
	size_t			 i;

	strbuf_init(&b);
	for (i = 0; i < NCASES; i++)
		store_pmu_text(&b, cases[i].text, strlen(cases[i].text));
	is_int((int64_t)store_pmu_count(b.s, b.len), NCASES, "all values");
	store_pmu_iter_init(&it, b.s, b.len);
	for (i = 0; i < NCASES && store_pmu_next(&it, &t, &v); i++) {
		is_str(t, cases[i].text[0] == '\0' ? "N/A" : cases[i].text,
		    "text of '%s' kept", cases[i].text);
		if (cases[i].number)
			ok(v.kind == VAL_REAL && v.d == cases[i].value,
			    "'%s' is a number", cases[i].text);
		else
			ok(v.kind == VAL_NONE, "'%s' is no number",
			    cases[i].text);
		free(t);
	}
	ok(!store_pmu_next(&it, &t, &v), "then the end");

	/* Cut anywhere, the values before the cut still read, no more. */
	for (i = 1; i < b.len; i++) {
		if (store_pmu_count(b.s, i) > NCASES)
			break;
	}
	ok(i == b.len, "a cut blob never reads past its end");
	strbuf_release(&b);
}

/*
 * Every string of up to six of "0", "1", "-" and ".": each comes back as
 * it was read, number or not (a decimal is kept as its digits only when
 * it is written again exactly so).
 */
static void
check_short(void)
{
	static const char	 al[] = "01-.";
	struct strbuf		 b;
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			 s[8], *t;
	size_t			 len, k, n, bad = 0, all = 0;

	for (len = 1; len <= 6; len++) {
		for (n = 0; n < (size_t)1 << (2 * len); n++) {
			for (k = 0; k < len; k++)
				s[k] = al[(n >> (2 * k)) & 3];
			s[len] = '\0';
			strbuf_init(&b);
			store_pmu_text(&b, s, len);
			store_pmu_iter_init(&it, b.s, b.len);
			if (!store_pmu_next(&it, &t, &v))
				t = NULL;
			if (t == NULL || strcmp(t, s) != 0) {
				if (bad++ == 0)
					printf("# '%s' came back as '%s'\n", s,
					    t != NULL ? t : "(none)");
			}
			free(t);
			strbuf_release(&b);
			all++;
		}
	}
	is_int((int64_t)bad, 0, "all %zu short texts come back as they were",
	    all);
}

static void
check_numbers(void)
{
	struct strbuf		 b;
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			*t[5];
	size_t			 i;

	strbuf_init(&b);
	store_pmu_num(&b, 1.0 / 3, 3);
	store_pmu_num(&b, NAN, 3);
	store_pmu_u64(&b, 12);
	store_pmu_u64(&b, UINT64_MAX);
	store_pmu_name(&b, "42");
	store_pmu_iter_init(&it, b.s, b.len);
	for (i = 0; i < 5; i++) {
		if (!store_pmu_next(&it, &t[i], &v))
			t[i] = NULL;
		if (i == 0)
			ok(v.kind == VAL_REAL && v.d == 0.333,
			    "the number is the one shown");
		if (i == 4)
			ok(v.kind == VAL_NONE, "a name is never a number");
	}
	is_str(t[0], "0.333", "shown with its decimals");
	is_str(t[1], "N/A", "NaN is no value");
	is_str(t[2], "12", "a counter");
	is_str(t[3], "18446744073709551615", "the largest counter, exact");
	is_str(t[4], "42", "a name that looks like a number");
	for (i = 0; i < 5; i++)
		free(t[i]);
	strbuf_release(&b);
}

int
main(void)
{
	check_texts();
	check_short();
	check_numbers();
	return done_testing();
}
