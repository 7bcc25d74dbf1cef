/*
 * Exact microsecond parsing and the vendor's number formatting.
 */
#include <stdint.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "npuprof.h"
#include "tap.h"

static int64_t
ns(const char *s)
{
	int64_t	 v = -777;

	if (util_parse_ns(s, strlen(s), &v) != 0)
		return -999;
	return v;
}

static const char *
us(int64_t v, int dec, bool strip)
{
	static char	 buf[64];

	util_fmt_us(buf, sizeof buf, v, dec, strip);
	return buf;
}

/*
 * Whether util_fmt_us, which formats by hand into a buffer of 32 bytes or
 * more, prints what snprintf prints into a smaller one, over values from
 * zero to the extremes, negative ones, and every flag.
 */
static bool
us_same(void)
{
	static const int64_t	 base[] = { 0, 1, 9, 10, 999, 1000, 1001, 7000,
	    7840, 100000, 136500, 1780295077844859030LL, INT64_MAX,
	    INT64_MIN + 1 };
	char			 fast[64], slow[31];
	int64_t			 v;
	size_t			 i;
	int			 sign, dec, strip, bad = 0;

	for (i = 0; i < sizeof base / sizeof base[0]; i++) {
		for (sign = -1; sign <= 1; sign += 2) {
			for (dec = 3; dec <= 6; dec += 3) {
				for (strip = 0; strip < 2; strip++) {
					v = base[i] * sign;
					util_fmt_us(fast, sizeof fast, v, dec,
					    strip);
					util_fmt_us(slow, sizeof slow, v, dec,
					    strip);
					bad += strcmp(fast, slow) != 0;
				}
			}
		}
	}
	return bad == 0;
}

static uint64_t	 rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
next64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * The values the fast ways are tried on: decimals of zero to six places
 * and of every size to past where four places stop being exact, halves of
 * 10^-4 and their neighbours, round4 results, random bit patterns, zeros
 * and the specials; each with both signs. I picks one.
 */
static double
pyfloat_value(unsigned i)
{
	static const double	 p10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	double			 d;
	uint64_t		 b;

	switch (i % 6) {
	case 0:
		d = (double)(next64() % 100000000000000ULL) /
		    p10[next64() % 7];
		break;
	case 1:
		d = (double)(next64() % 10000000) / 1e4;
		break;
	case 2:
		d = ((double)(next64() % 100000000) + 0.5) / 1e4;
		d = next64() % 3 == 0 ? d : nextafter(d, next64() % 2 ?
		    INFINITY : 0);
		break;
	case 3:
		d = util_round4((double)(next64() % 1000000000) /
		    (double)(1 + next64() % 100000));
		break;
	case 4:
		b = next64();
		memcpy(&d, &b, sizeof d);
		break;
	default:
		d = ldexp((double)(next64() % 1000000), (int)(next64() % 80) -
		    40);
		break;
	}
	return next64() % 2 ? -d : d;
}

/*
 * util_fmt_pyfloat() against the general way, and util_round4() against
 * the decimal text (snprintf and strtod, as Python reads its round()),
 * on N values and on the specials.
 */
static int
pyfloat_fast_same(unsigned n)
{
	static const double	 specials[] = { 0.0, -0.0, 4e11, -4e11,
	    399999999999.9999, 1e8, 99999999.99995, 0.00005, 0.00015, 1e-4 };
	char			 fast[64], slow[64], txt[400];
	double			 d, r;
	unsigned		 i;
	int			 bad = 0;

	for (i = 0; i < n + 13; i++) {
		if (i < 10)
			d = specials[i];
		else if (i < 13)
			d = i == 10 ? NAN : i == 11 ? INFINITY : -INFINITY;
		else
			d = pyfloat_value(i);
		util_fmt_pyfloat(fast, sizeof fast, d);
		util_fmt_pyfloat_any(slow, sizeof slow, d);
		if (strcmp(fast, slow) != 0) {
			if (bad++ < 5)
				printf("#   repr %a: %s, not %s\n", d, fast,
				    slow);
		}
		snprintf(txt, sizeof txt, "%.4f", d);
		r = strtod(txt, NULL);
		d = util_round4(d);
		if (memcmp(&d, &r, sizeof d) != 0 && !(isnan(d) && isnan(r))) {
			if (bad++ < 5)
				printf("#   round4: %a, not %a\n", d, r);
		}
	}
	return bad == 0;
}

/*
 * The general way against a plain search: for COUNT values (random bit
 * patterns and sums that leave float noise), the repr() reads back as
 * the value and has as many significant digits as the fewest that do,
 * found by trying 1, 2, ... 17.
 */
static int
pyfloat_fewest(unsigned count)
{
	char		 buf[64], tmp[40], *p;
	double		 d;
	uint64_t	 b;
	unsigned	 i;
	size_t		 n;
	int		 bad = 0, digits, want;

	for (i = 0; i < count; i++) {
		if (i % 2 == 0) {
			b = next64();
			memcpy(&d, &b, sizeof d);
		} else
			d = (double)(next64() % 100000) / 1e4 +
			    (double)(next64() % 100000) / 1e6;
		if (!isfinite(d))
			continue;
		util_fmt_pyfloat_any(buf, sizeof buf, d);
		for (want = 1; want < 17; want++) {
			snprintf(tmp, sizeof tmp, "%.*e", want - 1, d);
			if (strtod(tmp, NULL) == d)
				break;
		}
		/*
		 * The significant digits of BUF: its digits before any
		 * exponent, less leading and trailing zeros.
		 */
		for (n = 0, p = buf; *p != '\0' && *p != 'e'; p++) {
			if ((*p >= '1' && *p <= '9') || (*p == '0' && n > 0))
				tmp[n++] = *p;
		}
		while (n > 1 && tmp[n - 1] == '0')
			n--;
		digits = n > 0 ? (int)n : 1;
		if (strtod(buf, NULL) != d || digits > want) {
			if (bad++ < 5)
				printf("#   %a: %s, %d digits, not %d\n", d, buf,
				    digits, want);
		}
	}
	return bad == 0;
}

/* Doubles and how Python's repr() writes them (from Python 3.11). */
static const struct {
	double		 d;
	const char	*repr;
} pyfloats[] = {
	{ 0x0.0p+0, "0.0" },
	{ 0x1.0000000000000p+0, "1.0" },
	{ -0x1.0000000000000p+0, "-1.0" },
	{ 0x1.999999999999ap-4, "0.1" },
	{ 0x1.4f8b588e368f1p-16, "2e-05" },
	{ 0x1.f75104d551d69p-17, "1.5e-05" },
	{ 0x1.a36e2eb1c432dp-14, "0.0001" },
	{ 0x1.1c37937e08000p+53, "1e+16" },
	{ 0x1.c6bf526340000p+49, "1000000000000000.0" },
	{ 0x1.b69b4ba630f35p+56, "1.2345678901234568e+17" },
	{ 0x1.154e0c49ba5e4p+13, "8873.756000000001" },
	{ 0x1.f7959999999c0p+11, "4028.6750000000175" },
	{ 0x1.e9d9b5e95b78cp-3, "0.23918478124999998" },
	{ -0x0.0p+0, "-0.0" },
	{ 0x1.8ad04cacc7c46p+50, "1736408883732241.5" },
	{ 0x1.a7f7aecaeea64p+6, "105.99187771875" },
	{ 0x0.0000000002b7cp-1022, "5.5e-320" },
	{ 0x1.fffffffffffffp+1023, "1.7976931348623157e+308" },
	{ 0x1.9000000000000p+6, "100.0" },
	{ 0x1.3333333333334p-2, "0.30000000000000004" },
	{ 0x1.81cd6c8b43958p+13, "12345.678" }
};

/*
 * util_map32 against util_map, on N keys spread as join keys are (and as
 * bad hash inputs): every key found with its last value, no other key.
 */
static bool
map32_same(size_t n, bool reserve)
{
	struct util_map32	 m;
	struct util_map		 r;
	uint64_t		 k, v64;
	uint32_t		 v;
	size_t			 i, bad = 0;

	util_map32_init(&m);
	util_map_init(&r);
	if (reserve)
		util_map32_reserve(&m, n / 2);
	for (i = 0; i < n; i++) {
		k = (uint64_t)(i % 7) << 48 | (uint64_t)(i * 2654435761U %
		    65536) << 32 | (uint64_t)(i / 65536) << 16 | 0xFFFF;
		util_map32_set(&m, k, (uint32_t)i);
		util_map_set(&r, k, i);
		if (i % 3 == 0) {
			util_map32_set(&m, k, (uint32_t)(i + 1));
			util_map_set(&r, k, i + 1);
		}
	}
	for (i = 0; i < 2 * n; i++) {
		k = (uint64_t)(i % 7) << 48 | (uint64_t)(i * 2654435761U %
		    65536) << 32 | (uint64_t)(i / 65536) << 16 | 0xFFFF;
		if (util_map32_get(&m, k, &v) != util_map_get(&r, k, &v64) ||
		    (util_map_get(&r, k, &v64) && v != v64))
			bad++;
	}
	if (m.n != r.n || 5 * m.n > 4 * m.size)
		bad++;
	util_map32_release(&m);
	util_map_release(&r);
	return bad == 0;
}

/* The definitions: isspace() and strncasecmp() in the C locale. */
static void
ref_trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
	if (*len >= 2 && (*s)[0] == '"' && (*s)[*len - 1] == '"') {
		(*s)++;
		*len -= 2;
	}
}

static bool
ref_is_na(const char *s, size_t len)
{
	ref_trim(&s, &len);
	return len == 0 || (len == 3 && strncasecmp(s, "N/A", 3) == 0) ||
	    (len == 2 && strncasecmp(s, "NA", 2) == 0) ||
	    (len == 1 && s[0] == '-');
}

/*
 * util_is_na() and util_trim() against those definitions, on every cell
 * of up to four bytes of blanks, quotes, the letters of N/A and others.
 */
static void
check_na_trim(void)
{
	static const char	 al[] = " \t\r\v\nNn/Aa-\"x\xa0";
	const char		*t, *u;
	char			 s[5];
	size_t			 len, n, k, m, tl, ul, na = sizeof al - 1;
	int			 bad = 0;

	for (len = 0; len <= 4; len++) {
		for (m = 1, k = 0; k < len; k++)
			m *= na;
		for (n = 0; n < m; n++) {
			for (k = 0, tl = n; k < len; k++, tl /= na)
				s[k] = al[tl % na];
			s[len] = '\0';
			if (util_is_na(s, len) != ref_is_na(s, len))
				bad++;
			t = u = s;
			tl = ul = len;
			util_trim(&t, &tl);
			ref_trim(&u, &ul);
			if (t != u || tl != ul)
				bad++;
		}
	}
	is_int(bad, 0, "N/A, NA and blanks as the C locale has them");
}

int
main(void)
{
	char	 buf[64], *p;
	int64_t	 v;
	size_t	 i;
	int	 bad = 0;

	is_int(ns("1780295077844859.030"), 1780295077844859030LL,
	    "epoch us with 3 decimals keeps every digit");
	is_int(ns("1780295077844859.030\t"), 1780295077844859030LL,
	    "trailing TAB is ignored");
	is_int(ns("7.84"), 7840, "two decimals");
	is_int(ns("169.550000"), 169550, "six decimals");
	is_int(ns("2214.7200000000003"), 2214720, "float noise past ns");
	is_int(ns("0.0005"), 1, "half a ns rounds up");
	is_int(ns("12"), 12000, "no decimals");
	is_int(ns("-3.5"), -3500, "negative");
	is_int(ns("\"6.700\""), 6700, "quoted");
	is_int(ns("1e-05"), 0, "exponent form");
	is_int(ns("abc"), -999, "not a number");
	is_int(ns(""), -999, "empty");
	is_int(ns("1.2.3"), -999, "two dots");
	is_str(us(7840, 3, true), "7.84", "strip trailing zero");
	is_str(us(7000, 3, true), "7", "strip trailing dot");
	is_str(us(136500, 3, true), "136.5", "136.5");
	is_str(us(6700, 3, false), "6.700", "fixed 3 decimals");
	is_str(us(169550, 6, false), "169.550000", "6 decimals");
	is_str(us(NP_NA, 3, false), "N/A", "missing value");
	is_str(us(-20, 3, false), "-0.020", "negative value");
	ok(us_same(), "by hand as by snprintf, every value and flag");
	util_fmt_u64(buf, UINT64_MAX);
	is_str(buf, "18446744073709551615", "the largest unsigned number");
	util_fmt_fixed(buf, sizeof buf, 78.3041, 3, true);
	is_str(buf, "78.304", "ratio rounds to 3 decimals");
	util_fmt_fixed(buf, sizeof buf, 100.0, 3, true);
	is_str(buf, "100", "100 percent");
	ok(util_parse_int("4294967295", 10, &v) == 0 && v == 4294967295LL,
	    "model id 4294967295 parses");
	ok(util_parse_int("18446744073709551615", 20, &v) != 0,
	    "u64 max is refused as int64");
	ok(util_is_na("N/A", 3) && util_is_na("", 0) && !util_is_na("0", 1),
	    "N/A spellings");
	check_na_trim();
	for (i = 0; i < sizeof pyfloats / sizeof pyfloats[0]; i++) {
		util_fmt_pyfloat(buf, sizeof buf, pyfloats[i].d);
		if (strcmp(buf, pyfloats[i].repr) != 0) {
			printf("#   %s, not %s\n", buf, pyfloats[i].repr);
			bad++;
		}
	}
	ok(bad == 0, "floats written as Python's repr() writes them");
	ok(pyfloat_fast_same(2000000), "repr() and round(x, 4) the fast way as "
	    "the general way, 2000000 values");
	ok(pyfloat_fewest(100000), "repr() the general way: the fewest digits "
	    "that read back, 100000 values");
	ok(map32_same(0, false), "map32: empty");
	ok(map32_same(1, false), "map32: one key");
	ok(map32_same(100000, false), "map32: grown to 100000 keys, "
	    "as util_map");
	ok(map32_same(300000, true), "map32: reserved, then grown");
	util_fmt_time(buf, sizeof buf, INT64_C(1963200000000000));
	is_str(buf, "1963200s", "22 days as whole seconds, not 1.9632e+06s");
	util_fmt_time(buf, sizeof buf, INT64_C(2500000000));
	is_str(buf, "2.5s", "2.5 s as it was");
	p = util_path_join("", "x");
	is_str(p, "x", "joined to the empty name: the name, not /x");
	free(p);
	p = util_path_join("d/", "x");
	is_str(p, "d/x", "joined to d/: d/x");
	free(p);
	errno = 0;
	ok(util_mkdir_p("", 0700) == -1 && errno == ENOENT,
	    "mkdir -p of the empty name: ENOENT");
	return done_testing();
}
