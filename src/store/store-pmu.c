/*
 * The PMU values of a task and the names of a PMU column set, packed into
 * one blob each (task.pmu, pmu_set.names): a value is a tag byte and what
 * the tag says follows, so numbers stay numbers, a value may hold any
 * byte (a comma, a quote), and the text each value is shown as is exactly
 * the text the profiler wrote.
 *
 *	PMU_NA		no value, shown as N/A
 *	PMU_FIXED	an 8-byte little-endian double and a decimals byte:
 *			shown as the double printed with that many decimals
 *	PMU_TEXT	a 4-byte little-endian length and the text: no number
 *	PMU_NUMTEXT	a double, then a length and the text it is shown as,
 *			for numbers that printing cannot give back (1e-05)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

enum {
	PMU_NA,
	PMU_FIXED,
	PMU_TEXT,
	PMU_NUMTEXT
};

/* The most decimals a PMU_FIXED value keeps. */
#define PMU_MAX_DECIMALS	17

/* Doubles hold every integer up to this one exactly. */
#define PMU_EXACT_INT		9007199254740992.0

static void
store_pmu_double(struct strbuf *b, double v)
{
	unsigned char	 le[8];
	uint64_t	 u;
	int		 i;

	memcpy(&u, &v, sizeof u);
	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)(u >> (8 * i));
	strbuf_add(b, (const char *)le, sizeof le);
}

static void
store_pmu_bytes(struct strbuf *b, const char *s, size_t len)
{
	unsigned char	 le[4];
	int		 i;

	if (len > UINT32_MAX)
		len = UINT32_MAX;
	for (i = 0; i < 4; i++)
		le[i] = (unsigned char)(len >> (8 * i));
	strbuf_add(b, (const char *)le, sizeof le);
	strbuf_add(b, s, len);
}

/* A number shown with DECIMALS decimals. */
void
store_pmu_num(struct strbuf *b, double v, int decimals)
{
	if (isnan(v)) {
		strbuf_addc(b, PMU_NA);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > PMU_MAX_DECIMALS)
		decimals = PMU_MAX_DECIMALS;
	strbuf_addc(b, PMU_FIXED);
	store_pmu_double(b, v);
	strbuf_addc(b, (char)decimals);
}

/* A counter: an integer, exact whatever its size. */
void
store_pmu_u64(struct strbuf *b, uint64_t v)
{
	char	 buf[32];

	if ((double)v < PMU_EXACT_INT) {
		store_pmu_num(b, (double)v, 0);
		return;
	}
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	strbuf_addc(b, PMU_NUMTEXT);
	store_pmu_double(b, (double)v);
	store_pmu_bytes(b, buf, strlen(buf));
}

/* Text that is never read as a number, such as a column's name. */
void
store_pmu_name(struct strbuf *b, const char *s)
{
	strbuf_addc(b, PMU_TEXT);
	store_pmu_bytes(b, s, strlen(s));
}

/*
 * A value as the profiler wrote it (LEN bytes of S): empty or N/A is no
 * value; a number is kept as one, with its text when printing the number
 * would not give the same text back; anything else is text.
 */
void
store_pmu_text(struct strbuf *b, const char *s, size_t len)
{
	char		 buf[64];
	const char	*dot;
	double		 v;
	size_t		 decimals;

	if (len == 0 || (len == 3 && memcmp(s, "N/A", 3) == 0)) {
		strbuf_addc(b, PMU_NA);
		return;
	}
	if (util_parse_double(s, len, &v) != 0 || !isfinite(v)) {
		strbuf_addc(b, PMU_TEXT);
		store_pmu_bytes(b, s, len);
		return;
	}
	dot = memchr(s, '.', len);
	decimals = dot != NULL ? len - (size_t)(dot - s) - 1 : 0;
	if (decimals <= PMU_MAX_DECIMALS && len < sizeof buf) {
		util_fmt_fixed(buf, sizeof buf, v, (int)decimals, false);
		if (strlen(buf) == len && memcmp(buf, s, len) == 0) {
			store_pmu_num(b, v, (int)decimals);
			return;
		}
	}
	strbuf_addc(b, PMU_NUMTEXT);
	store_pmu_double(b, v);
	store_pmu_bytes(b, s, len);
}

static bool
store_pmu_get_double(struct store_pmu_iter *it, double *v)
{
	uint64_t	 u = 0;
	int		 i;

	if (it->end - it->p < 8)
		return false;
	for (i = 0; i < 8; i++)
		u |= (uint64_t)it->p[i] << (8 * i);
	memcpy(v, &u, sizeof *v);
	it->p += 8;
	return true;
}

static bool
store_pmu_get_bytes(struct store_pmu_iter *it, const char **s, size_t *len)
{
	uint32_t	 n = 0;
	int		 i;

	if (it->end - it->p < 4)
		return false;
	for (i = 0; i < 4; i++)
		n |= (uint32_t)it->p[i] << (8 * i);
	it->p += 4;
	if ((size_t)(it->end - it->p) < n)
		return false;
	*s = (const char *)it->p;
	*len = n;
	it->p += n;
	return true;
}

/* Start reading the LEN bytes of packed values at DATA. */
void
store_pmu_iter_init(struct store_pmu_iter *it, const void *data, size_t len)
{
	it->p = data;
	it->end = it->p + (data != NULL ? len : 0);
}

/*
 * The next value: its text as a copy into *TEXT and its number into V.
 * False at the end, or if the rest is damaged.
 */
bool
store_pmu_next(struct store_pmu_iter *it, char **text, struct store_val *v)
{
	char		 buf[400];	/* any double with 17 decimals */
	const char	*s;
	size_t		 len;
	double		 d;
	int		 tag;

	if (it->p >= it->end)
		return false;
	tag = *it->p++;
	v->kind = VAL_NONE;
	switch (tag) {
	case PMU_NA:
		*text = xstrdup("N/A");
		return true;
	case PMU_FIXED:
		if (!store_pmu_get_double(it, &d) || it->p >= it->end)
			return false;
		util_fmt_fixed(buf, sizeof buf, d, *it->p++, false);
		*text = xstrdup(buf);
		break;
	case PMU_TEXT:
		if (!store_pmu_get_bytes(it, &s, &len))
			return false;
		*text = xstrndup(s, len);
		return true;
	case PMU_NUMTEXT:
		if (!store_pmu_get_double(it, &d) ||
		    !store_pmu_get_bytes(it, &s, &len))
			return false;
		*text = xstrndup(s, len);
		break;
	default:
		return false;
	}
	v->kind = VAL_REAL;
	v->d = d;
	return true;
}

/* How many values the LEN bytes at DATA hold (all, if they are sound). */
size_t
store_pmu_count(const void *data, size_t len)
{
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			*t;
	size_t			 n = 0;

	store_pmu_iter_init(&it, data, len);
	while (store_pmu_next(&it, &t, &v)) {
		free(t);
		n++;
	}
	return n;
}
