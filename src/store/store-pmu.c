/*
 * The PMU values of a task and the names of a PMU column set, packed into
 * one blob each (task.pmu, pmu_set.names): a value is a tag byte and what
 * the tag says follows, so numbers stay numbers, a value may hold any
 * byte (a comma, a quote), and the text each value is shown as is exactly
 * the text the profiler wrote.
 *
 *	PMU_NA		no value, shown as N/A
 *	PMU_DECIMAL	a decimals byte D and a varint of the zigzagged
 *			integer M: the number M / 10^D, shown with D
 *			decimals (the usual case: 0.123 is D 3, M 123)
 *	PMU_TEXT	a varint length and the text: no number
 *	PMU_NUMTEXT	an 8-byte little-endian double, then a varint length
 *			and the text it is shown as, for numbers no decimal
 *			gives back (1e-05, 007, -0)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

enum {
	PMU_NA,
	PMU_DECIMAL,
	PMU_TEXT,
	PMU_NUMTEXT
};

/* The most decimals, and digits of text, a PMU_DECIMAL value holds. */
#define PMU_MAX_DIGITS	18

static void
store_pmu_varint(struct strbuf *b, uint64_t v)
{
	while (v >= 0x80) {
		strbuf_addc(b, (char)(v | 0x80));
		v >>= 7;
	}
	strbuf_addc(b, (char)v);
}

static void
store_pmu_bytes(struct strbuf *b, const char *s, size_t len)
{
	store_pmu_varint(b, len);
	strbuf_add(b, s, len);
}

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

/* M with D decimals as text into BUF (at least 48 bytes). */
static void
store_pmu_decimal_text(int64_t m, int d, char *buf, size_t size)
{
	char		 digits[32];
	uint64_t	 a = m < 0 ? (uint64_t)0 - (uint64_t)m : (uint64_t)m;
	const char	*sign = m < 0 ? "-" : "";
	int		 n;

	/* Zero-padded to a digit before the point: 5, 3 decimals: 0005. */
	n = snprintf(digits, sizeof digits, "%0*llu", d + 1,
	    (unsigned long long)a);
	if (d == 0)
		snprintf(buf, size, "%s%s", sign, digits);
	else
		snprintf(buf, size, "%s%.*s.%s", sign, n - d, digits,
		    digits + n - d);
}

/*
 * The LEN bytes at S as a decimal: the integer *M of its digits and its
 * decimals *D, if S is exactly how store_pmu_decimal_text() writes that
 * decimal again: at least one digit before the point and no leading zero
 * but a lone one, a minus only before a number that is not zero. False
 * for anything else (an exponent, leading zeros, -0, too many digits).
 * Tested by the rule, not by writing the text again: this runs for every
 * PMU cell of a CSV.
 */
static bool
store_pmu_decimal(const char *s, size_t len, int64_t *m, int *d)
{
	uint64_t	 a = 0;
	size_t		 i = 0, digits = 0, first;
	int		 dec = -1;
	bool		 neg = false;

	if (len == 0 || len >= 40)
		return false;
	if (s[0] == '-') {
		neg = true;
		i++;
	}
	first = i;
	for (; i < len; i++) {
		if (s[i] == '.' && dec < 0) {
			dec = 0;
			continue;
		}
		if (s[i] < '0' || s[i] > '9' || ++digits > PMU_MAX_DIGITS)
			return false;
		a = a * 10 + (uint64_t)(s[i] - '0');
		if (dec >= 0)
			dec++;
	}
	if (digits == 0 || dec == 0)
		return false;
	/* The integer part: "0", or digits not starting with 0. */
	if (first >= len || s[first] == '.' || (s[first] == '0' &&
	    first + 1 < len && s[first + 1] != '.'))
		return false;
	if (neg && a == 0)
		return false;
	*m = neg ? -(int64_t)a : (int64_t)a;
	*d = dec < 0 ? 0 : dec;
	return true;
}

static void
store_pmu_add_decimal(struct strbuf *b, int64_t m, int d)
{
	strbuf_addc(b, PMU_DECIMAL);
	strbuf_addc(b, (char)d);
	/* Zigzag: small magnitudes of either sign take few bytes. */
	store_pmu_varint(b, ((uint64_t)m << 1) ^ (uint64_t)(m >> 63));
}

static void
store_pmu_add_numtext(struct strbuf *b, double v, const char *s, size_t len)
{
	strbuf_addc(b, PMU_NUMTEXT);
	store_pmu_double(b, v);
	store_pmu_bytes(b, s, len);
}

/* A number shown with DECIMALS decimals, as printf's %.*f shows it. */
void
store_pmu_num(struct strbuf *b, double v, int decimals)
{
	char	 buf[400];	/* any double with 17 decimals */
	int64_t	 m;
	int	 d;

	if (isnan(v)) {
		strbuf_addc(b, PMU_NA);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > PMU_MAX_DIGITS)
		decimals = PMU_MAX_DIGITS;
	util_fmt_fixed(buf, sizeof buf, v, decimals, false);
	if (store_pmu_decimal(buf, strlen(buf), &m, &d))
		store_pmu_add_decimal(b, m, d);
	else
		store_pmu_add_numtext(b, v, buf, strlen(buf));
}

/* A counter: an integer, exact whatever its size. */
void
store_pmu_u64(struct strbuf *b, uint64_t v)
{
	char	 buf[32];

	if (v <= INT64_MAX) {
		store_pmu_add_decimal(b, (int64_t)v, 0);
		return;
	}
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	store_pmu_add_numtext(b, (double)v, buf, strlen(buf));
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
 * value; a number is kept as one, with its text when no decimal gives
 * that text back; anything else is text.
 */
void
store_pmu_text(struct strbuf *b, const char *s, size_t len)
{
	double	 v;
	int64_t	 m;
	int	 d;

	if (len == 0 || (len == 3 && memcmp(s, "N/A", 3) == 0)) {
		strbuf_addc(b, PMU_NA);
		return;
	}
	if (store_pmu_decimal(s, len, &m, &d)) {
		store_pmu_add_decimal(b, m, d);
		return;
	}
	if (util_parse_double(s, len, &v) == 0 && isfinite(v)) {
		store_pmu_add_numtext(b, v, s, len);
		return;
	}
	strbuf_addc(b, PMU_TEXT);
	store_pmu_bytes(b, s, len);
}

static bool
store_pmu_get_varint(struct store_pmu_iter *it, uint64_t *v)
{
	int	 shift;

	*v = 0;
	for (shift = 0; shift < 64 && it->p < it->end; shift += 7) {
		*v |= (uint64_t)(*it->p & 0x7f) << shift;
		if ((*it->p++ & 0x80) == 0)
			return true;
	}
	return false;
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
	uint64_t	 n;

	if (!store_pmu_get_varint(it, &n) || (uint64_t)(it->end - it->p) < n)
		return false;
	*s = (const char *)it->p;
	*len = (size_t)n;
	it->p += n;
	return true;
}

/* Start reading the LEN bytes of packed values at DATA. */
void
store_pmu_iter_init(struct store_pmu_iter *it, const void *data, size_t len)
{
	it->p = data;
	it->end = data != NULL ? it->p + len : it->p;
}

/* The decimal M / 10^D as text into *TEXT and its number into V. */
static void
store_pmu_get_decimal(int64_t m, int d, char **text, struct store_val *v)
{
	static const double	 tens[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
	    1e18 };
	char			 buf[48];

	store_pmu_decimal_text(m, d, buf, sizeof buf);
	*text = xstrdup(buf);
	v->kind = VAL_REAL;
	/* Exact operands give the correctly rounded value, as parsing does. */
	if (m > -(INT64_C(1) << 53) && m < (INT64_C(1) << 53))
		v->d = (double)m / tens[d];
	else if (util_parse_double(buf, strlen(buf), &v->d) != 0)
		v->kind = VAL_NONE;
}

/* store_pmu_next() without its stop at damage. */
static bool
store_pmu_read(struct store_pmu_iter *it, char **text, struct store_val *v)
{
	const char	*s;
	size_t		 len;
	uint64_t	 z;
	double		 d;
	int		 tag, dec;

	if (it->p >= it->end)
		return false;
	tag = *it->p++;
	v->kind = VAL_NONE;
	switch (tag) {
	case PMU_NA:
		*text = xstrdup("N/A");
		return true;
	case PMU_DECIMAL:
		if (it->p >= it->end || (dec = *it->p++) > PMU_MAX_DIGITS ||
		    !store_pmu_get_varint(it, &z))
			return false;
		store_pmu_get_decimal((int64_t)(z >> 1) ^ -(int64_t)(z & 1),
		    dec, text, v);
		return true;
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
		v->kind = VAL_REAL;
		v->d = d;
		return true;
	default:
		return false;
	}
}

/*
 * The next value: its text as a copy into *TEXT and its number into V.
 * False at the end, or if the rest is damaged: then for good, so no later
 * value is read from a wrong place.
 */
bool
store_pmu_next(struct store_pmu_iter *it, char **text, struct store_val *v)
{
	if (store_pmu_read(it, text, v))
		return true;
	it->p = it->end;
	return false;
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
