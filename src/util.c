/*
 * Small utilities: exact decimal parsing of the vendor's microsecond text
 * into integer nanoseconds, number formatting the way the vendor prints
 * it, and a few file and path helpers.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "npuprof.h"

/* Known once config.h, which npuprof.h includes, says it is there. */
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

/*
 * The bytes isspace() takes for space in the C locale, whatever locale the
 * UI set: input files are read the same everywhere.
 */
#define UTIL_BLANK(c)	((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))

/* Trim blanks, TABs, CR and one pair of surrounding double quotes. */
void
util_trim(const char **s, size_t *len)
{
	while (*len > 0 && UTIL_BLANK(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && UTIL_BLANK((*s)[*len - 1]))
		(*len)--;
	if (*len >= 2 && (*s)[0] == '"' && (*s)[*len - 1] == '"') {
		(*s)++;
		*len -= 2;
	}
}

/* True for the vendor's spellings of "no value". */
bool
util_is_na(const char *s, size_t len)
{
	util_trim(&s, &len);
	return len == 0 || (len == 3 && (s[0] | 0x20) == 'n' && s[1] == '/' &&
	    (s[2] | 0x20) == 'a') || (len == 2 && (s[0] | 0x20) == 'n' &&
	    (s[1] | 0x20) == 'a') || (len == 1 && s[0] == '-');
}

/*
 * Parse a decimal microsecond value ("1780295077844859.030", "7.84",
 * "169.550000") into integer nanoseconds without going through a binary
 * double, so epoch timestamps keep every digit. Digits past the third
 * decimal round half up. Return 0, or -1 if S is not a number.
 */
int
util_parse_ns(const char *s, size_t len, int64_t *out)
{
	const char	*p, *end;
	int64_t		 ip = 0, frac = 0;
	int		 nfrac = 0, neg = 0, round_up = 0;
	bool		 digits = false;
	double		 d;

	util_trim(&s, &len);
	end = s + len;
	p = s;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if (ip > (INT64_MAX / 1000 - 9) / 10)
			return -1;
		ip = ip * 10 + (*p - '0');
		digits = true;
	}
	if (p < end && *p == '.') {
		for (p++; p < end && isdigit((unsigned char)*p); p++) {
			digits = true;
			if (nfrac < 3) {
				frac = frac * 10 + (*p - '0');
				nfrac++;
			} else if (nfrac++ == 3)
				round_up = *p >= '5';
		}
	}
	if (p < end && (*p == 'e' || *p == 'E') && digits) {
		char	*tmp = xstrndup(s, len), *ep;

		d = strtod(tmp, &ep);
		digits = *ep == '\0' && isfinite(d) && fabs(d) < 9e15;
		free(tmp);
		if (!digits)
			return -1;
		*out = llround(d * 1000.0);
		return 0;
	}
	if (!digits || p != end)
		return -1;
	while (nfrac < 3) {
		frac *= 10;
		nfrac++;
	}
	*out = ip * 1000 + frac + round_up;
	if (neg)
		*out = -*out;
	return 0;
}

/* Parse a decimal integer (surrounding blanks and quotes allowed). */
int
util_parse_int(const char *s, size_t len, int64_t *out)
{
	const char	*p, *end;
	uint64_t	 v = 0;
	int		 neg = 0;

	util_trim(&s, &len);
	p = s;
	end = s + len;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p) ||
		    v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int
util_parse_double(const char *s, size_t len, double *out)
{
	char	 buf[64], *ep;

	util_trim(&s, &len);
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &ep);
	if (*ep != '\0' || errno != 0)
		return -1;
	return 0;
}

/*
 * D as Python's repr() writes it, when D is 0 or at least 10^-4 in size
 * and some K decimals read back as D with D times 10^K under 4e15 (most
 * numbers the vendor computes in ms or rounds to four places): the digits
 * of D times 10^K for the least such K. Units in the last place of D are
 * then under 10^-K, so no decimal of fewer digits reads back as D, nor
 * another of as many. False, writing nothing, for any other D.
 */
static bool
util_fmt_pyfloat_short(char *buf, size_t size, double d)
{
	double		 p = 1, r;
	long long	 v, q = 1;
	int		 k;

	if (d != 0 && !(fabs(d) >= 1e-4))
		return false;		/* NaN too */
	for (k = 0; k <= 15; k++, p *= 10, q *= 10) {
		if (!(fabs(d * p) < 4e15))
			return false;
		r = nearbyint(d * p);
		if (r / p != d)
			continue;
		v = llabs((long long)r);
		if (k == 0)
			snprintf(buf, size, "%s%lld.0", signbit(d) ? "-" : "",
			    v);
		else
			snprintf(buf, size, "%s%lld.%0*lld", signbit(d) ?
			    "-" : "", v / q, k, v % q);
		return true;
	}
	return false;
}

/*
 * D as Python's repr() writes a float, which is how the vendor's analysis
 * tools write the numbers they compute: the fewest digits that read back
 * as D; fixed notation for decimal exponents -4 to 15 (a whole number gets
 * ".0"), else one digit, the rest, and a signed two-digit exponent.
 */
void
util_fmt_pyfloat(char *buf, size_t size, double d)
{
	if (!util_fmt_pyfloat_short(buf, size, d))
		util_fmt_pyfloat_any(buf, size, d);
}

/*
 * util_fmt_pyfloat() the general way, for any D: a binary search for the
 * fewest digits that read back.
 */
void
util_fmt_pyfloat_any(char *buf, size_t size, double d)
{
	char	 tmp[40], digits[24], *p;
	int	 prec, lo, hi, exp, n, i;
	size_t	 o = 0;

	if (isnan(d)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(d)) {
		snprintf(buf, size, d < 0 ? "-inf" : "inf");
		return;
	}
	/*
	 * The fewest digits that read back: if p digits do, so do p + 1, so
	 * a binary search over 1..17 finds them.
	 */
	lo = 1;
	hi = 17;
	while (lo < hi) {
		prec = (lo + hi) / 2;
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
		if (strtod(tmp, NULL) == d)
			hi = prec;
		else
			lo = prec + 1;
	}
	prec = lo;
	snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
	/* tmp is [-]d[.ddd]e[+-]xx: gather the digits and the exponent. */
	p = tmp;
	if (*p == '-')
		buf[o++ % size] = *p++;
	for (n = 0; *p != 'e'; p++) {
		if (*p != '.')
			digits[n++] = *p;
	}
	exp = atoi(p + 1);
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	if (exp < -4 || exp >= 16) {
		snprintf(buf + o, size - o, "%c%s%se%c%02d", digits[0],
		    n > 1 ? "." : "", digits + 1, exp < 0 ? '-' : '+',
		    exp < 0 ? -exp : exp);
		return;
	}
	if (exp < 0) {
		o += (size_t)snprintf(buf + o, size - o, "0.");
		for (i = 0; i < -exp - 1 && o + 1 < size; i++)
			buf[o++] = '0';
		snprintf(buf + o, size - o, "%s", digits);
		return;
	}
	for (i = 0; i <= exp && o + 1 < size; i++)
		buf[o++] = i < n ? digits[i] : '0';
	if (n > exp + 1)
		snprintf(buf + o, size - o, ".%s", digits + exp + 1);
	else
		snprintf(buf + o, size - o, ".0");
}

/*
 * Python's round(X, 4): X to four decimals, half to even on X's exact
 * value, read back. Where X times 10^4 is far enough from a half, the
 * nearest whole number of 10^-4 is the exact value's, and its quotient by
 * 10^4 is one rounding of that decimal, as reading it back gives; else (or
 * if X is large, or not a number) it goes through the decimal text, as
 * Python does.
 */
double
util_round4(double x)
{
	char	 buf[400];
	double	 y = x * 1e4, f;

	if (fabs(x) < 1e8) {
		/* Y is off X times 10^4 by at most 2^-13. */
		f = y - floor(y);
		if (fabs(f - 0.5) > 1e-3)
			return nearbyint(y) / 1e4;
	}
	snprintf(buf, sizeof buf, "%.4f", x);
	return strtod(buf, NULL);
}

/* Drop trailing zeros and then a trailing dot: "12.500" -> "12.5". */
static void
util_strip_zeros(char *buf)
{
	char	*p;

	if (strchr(buf, '.') == NULL)
		return;
	p = buf + strlen(buf) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
}

/* Print V in decimal at BUF (room for 21 bytes); return its end. */
char *
util_fmt_u64(char *buf, uint64_t v)
{
	char	 tmp[20];
	size_t	 n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*buf++ = tmp[--n];
	*buf = '\0';
	return buf;
}

/* util_fmt_us of A nanoseconds (negative if NEG) into 32 bytes at BUF. */
static void
util_fmt_us_fast(char *buf, bool neg, uint64_t a, int decimals, bool strip)
{
	char		*p = buf, *q;
	unsigned	 f = (unsigned)(a % 1000);

	if (neg)
		*p++ = '-';
	p = util_fmt_u64(p, a / 1000);
	*p++ = '.';
	*p++ = (char)('0' + f / 100);
	*p++ = (char)('0' + f / 10 % 10);
	*p++ = (char)('0' + f % 10);
	if (decimals == 6) {
		memcpy(p, "000", 3);
		p += 3;
	}
	*p = '\0';
	if (!strip)
		return;
	for (q = p - 1; *q == '0'; q--)
		*q = '\0';
	if (*q == '.')
		*q = '\0';
}

/*
 * Print NS nanoseconds as microseconds with DECIMALS (3 or 6) decimals,
 * exactly; STRIP drops trailing zeros as the vendor's C++ writer does.
 */
void
util_fmt_us(char *buf, size_t size, int64_t ns, int decimals, bool strip)
{
	uint64_t	 a;
	const char	*sign = "";

	if (ns == NP_NA) {
		snprintf(buf, size, "N/A");
		return;
	}
	if (ns < 0) {
		sign = "-";
		a = (uint64_t)0 - (uint64_t)ns;
	} else
		a = (uint64_t)ns;
	/* By hand: filters format every cell of millions of rows. */
	if (size >= 32) {
		util_fmt_us_fast(buf, *sign != '\0', a, decimals, strip);
		return;
	}
	if (decimals == 6)
		snprintf(buf, size, "%s%llu.%03llu000", sign,
		    (unsigned long long)(a / 1000),
		    (unsigned long long)(a % 1000));
	else
		snprintf(buf, size, "%s%llu.%03llu", sign,
		    (unsigned long long)(a / 1000),
		    (unsigned long long)(a % 1000));
	if (strip)
		util_strip_zeros(buf);
}

/*
 * Print NS nanoseconds as a time with the unit that suits it (ns, us, ms or
 * s) and a few significant digits, for people rather than files.
 */
void
util_fmt_time(char *buf, size_t size, int64_t ns)
{
	const char	*sign = ns < 0 ? "-" : "";
	int64_t		 a = ns < 0 ? -ns : ns;

	if (a < 1000)
		snprintf(buf, size, "%s%lldns", sign, (long long)a);
	else if (a < 1000000)
		snprintf(buf, size, "%s%.3gus", sign, (double)a / 1e3);
	else if (a < 1000000000)
		snprintf(buf, size, "%s%.4gms", sign, (double)a / 1e6);
	else if (a < INT64_C(100000000000000))
		snprintf(buf, size, "%s%.6gs", sign, (double)a / 1e9);
	else	/* past a day: whole seconds, not 1.9632e+06s */
		snprintf(buf, size, "%s%.0fs", sign, (double)a / 1e9);
}

/* Print V with DECIMALS decimals, trailing zeros stripped when STRIP. */
void
util_fmt_fixed(char *buf, size_t size, double v, int decimals, bool strip)
{
	if (isnan(v)) {
		snprintf(buf, size, "N/A");
		return;
	}
	snprintf(buf, size, "%.*f", decimals, v);
	if (strip)
		util_strip_zeros(buf);
	if (strcmp(buf, "-0") == 0)
		snprintf(buf, size, "0");
}

/* Whether NAME is one of the items of LIST, a comma-separated list. */
bool
util_listed(const char *list, const char *name)
{
	size_t		 len = strlen(name);
	const char	*p;

	for (p = list; (p = strstr(p, name)) != NULL; p++) {
		if ((p == list || p[-1] == ',') && (p[len] == '\0' ||
		    p[len] == ','))
			return true;
	}
	return false;
}

bool
util_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
util_has_suffix(const char *s, const char *suffix)
{
	size_t	 n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

char *
util_path_join(const char *dir, const char *name)
{
	char	*p;
	size_t	 n = strlen(dir);

	/* The empty name is no folder, not the root. */
	if (n == 0 || dir[n - 1] == '/')
		xasprintf(&p, "%s%s", dir, name);
	else
		xasprintf(&p, "%s/%s", dir, name);
	return p;
}

/* The last component of PATH, borrowed from PATH. */
const char *
util_basename(const char *path)
{
	const char	*p = strrchr(path, '/');

	if (p == NULL)
		return path;
	if (p[1] == '\0') {
		while (p > path && p[-1] != '/' && p != path)
			p--;
		return p;
	}
	return p + 1;
}

/* Create DIR and its parents with MODE. Return 0 or -1 with errno set. */
int
util_mkdir_p(const char *dir, mode_t mode)
{
	char	*tmp, *p;
	int	 rc = 0;

	if (*dir == '\0') {
		errno = ENOENT;
		return -1;
	}
	tmp = xstrdup(dir);
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (rc == 0 && mkdir(tmp, mode) != 0 && errno != EEXIST)
		rc = -1;
	free(tmp);
	return rc;
}

/* Start a walk of the tree under ROOT. */
void
util_walk_init(struct util_walk *w, const char *root)
{
	memset(w, 0, sizeof *w);
	if ((w->root = realpath(root, NULL)) == NULL)
		w->root = xstrdup(root);
	util_map_init(&w->seen);
}

void
util_walk_release(struct util_walk *w)
{
	free(w->root);
	free(w->dirs);
	util_map_release(&w->seen);
	memset(w, 0, sizeof *w);
}

/*
 * Whether a walk goes into PATH (ST its stat): not when PATH is a
 * symbolic link leading out of the root (a link to / would walk the whole
 * machine), and not into a directory or file already seen (a link to a
 * parent would walk for ever, a link to a sibling would import it twice).
 */
bool
util_walk_visit(struct util_walk *w, const char *path, const struct stat *st)
{
	struct stat	 lst;
	char		*real;
	size_t		 n = strlen(w->root), i;
	uint64_t	 head = 0;
	bool		 inside;

	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		if ((real = realpath(path, NULL)) == NULL)
			return false;
		inside = strncmp(real, w->root, n) == 0 && (real[n] == '\0' ||
		    real[n] == '/' || strcmp(w->root, "/") == 0);
		free(real);
		if (!inside)
			return false;
	}
	if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode))
		return true;
	if (util_map_get(&w->seen, (uint64_t)st->st_ino, &head)) {
		for (i = (size_t)head; i != 0; i = w->dirs[i - 1].same) {
			if (w->dirs[i - 1].dev == (uint64_t)st->st_dev)
				return false;
		}
	}
	w->dirs = util_grow(w->dirs, w->ndirs, 1, sizeof *w->dirs);
	w->dirs[w->ndirs].dev = (uint64_t)st->st_dev;
	w->dirs[w->ndirs].same = (size_t)head;
	w->ndirs++;
	util_map_set(&w->seen, (uint64_t)st->st_ino, w->ndirs);
	return true;
}

/*
 * Open PATH, an input file, for reading without ever blocking on it: a
 * FIFO, socket or device is refused (errno EINVAL; util_input_error()
 * says what that means) before anything is read, so a FIFO named like a
 * profile file cannot hang an import; a FIFO only when FIFO_OK. Return
 * the descriptor, or -1.
 */
static int
util_open_nonblock(const char *path, bool fifo_ok)
{
	struct stat	 st;
	int		 fd, flags;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || !(S_ISREG(st.st_mode) ||
	    (fifo_ok && S_ISFIFO(st.st_mode)))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if ((flags = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
}

int
util_open_input(const char *path)
{
	return util_open_nonblock(path, false);
}

/* util_open_nonblock() as a stdio stream, or NULL with errno set. */
static FILE *
util_fopen_nonblock(const char *path, bool fifo_ok)
{
	FILE	*f;
	int	 fd, err;

	if ((fd = util_open_nonblock(path, fifo_ok)) == -1)
		return NULL;
	if ((f = fdopen(fd, "rb")) == NULL) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

/* util_open_input() as a stdio stream, or NULL with errno set. */
FILE *
util_fopen_input(const char *path)
{
	return util_fopen_nonblock(path, false);
}

/* Why util_open_input() failed, for a message. */
const char *
util_input_error(int err)
{
	if (err == EINVAL)
		return "not a regular file (a FIFO, socket or device)";
	return strerror(err);
}

static int	 util_read_stream(FILE *, const char *, char **, size_t *,
		     size_t, char **);

/*
 * Read the whole of PATH (at most MAX bytes) into a NUL-terminated buffer
 * the caller frees. On failure return -1 and set *cause.
 */
int
util_read_file(const char *path, char **data, size_t *len, size_t max,
    char **cause)
{
	return util_read_stream(util_fopen_input(path), path, data, len, max,
	    cause);
}

/*
 * util_read_file() for a config the user names, which may come through a
 * pipe (--config <(pass show board)): a FIFO too, opened without blocking,
 * so one nobody writes reads as empty.
 */
int
util_read_config(const char *path, char **data, size_t *len, size_t max,
    char **cause)
{
	return util_read_stream(util_fopen_nonblock(path, true), path, data,
	    len, max, cause);
}

/* Read all of F (PATH, NULL if it did not open) into *DATA, closing F. */
static int
util_read_stream(FILE *f, const char *path, char **data, size_t *len,
    size_t max, char **cause)
{
	char	*buf;
	size_t	 n = 0, size = 4096, r;

	if (f == NULL) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    util_input_error(errno));
		return -1;
	}
	buf = xmalloc(size);
	while ((r = fread(buf + n, 1, size - n - 1, f)) > 0) {
		n += r;
		if (n > max) {
			xasprintf(cause, "'%s' is larger than %zu bytes",
			    path, max);
			free(buf);
			fclose(f);
			return -1;
		}
		if (n + 1 == size)
			buf = xreallocarray(buf, 2, size), size *= 2;
	}
	if (ferror(f)) {
		xasprintf(cause, "cannot read '%s': %s", path,
		    strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	if (len != NULL)
		*len = n;
	return 0;
}

/*
 * Write DATA to PATH through a temporary file in the same directory and a
 * rename, so a reader never sees half a file. An existing PATH is kept
 * unless FORCE. On failure return -1 and set *cause.
 */
int
util_write_file_atomic(const char *path, const char *data, size_t len,
    bool force, char **cause)
{
	char	*tmp;
	int	 fd;

	if (!force && access(path, F_OK) == 0) {
		xasprintf(cause, "'%s' exists (use --force to overwrite)",
		    path);
		return -1;
	}
	xasprintf(&tmp, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "cannot create '%s': %s", tmp,
		    strerror(errno));
		free(tmp);
		return -1;
	}
	if (write(fd, data, len) != (ssize_t)len || fsync(fd) != 0 ||
	    close(fd) != 0 || rename(tmp, path) != 0) {
		xasprintf(cause, "cannot write '%s': %s", path,
		    strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* FNV-1a, for cache file names. */
uint64_t
util_hash64(const char *s, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/*
 * Give every allocation of a megabyte or more pages of its own. The raw
 * importer grows arrays of tens of megabytes and frees them as it goes;
 * from the heap, their pages would stay with the process, and glibc's
 * moving threshold puts arrays up to 32 MB there once a large one was
 * freed. Their own pages go back when freed, and a growing array is
 * moved by remapping instead of copying.
 */
void
util_tune_malloc(void)
{
#if defined(HAVE_MALLOPT) && defined(M_MMAP_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
#endif
}

/*
 * Tighten the umask to at least 0027: profiling data must not be readable
 * by others, as the vendor requires.
 */
void
util_tighten_umask(void)
{
	mode_t	 old = umask(0);

	umask(old | 027);
}

/*
 * PATH made absolute with its directory resolved; the file itself need
 * not exist. The caller frees the result.
 */
char *
util_abspath(const char *path)
{
	char	*real, *dir, *slash, *out;

	if ((real = realpath(path, NULL)) != NULL)
		return real;
	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) == NULL) {
		free(dir);
		dir = xstrdup(".");
		slash = NULL;
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if ((real = realpath(dir, NULL)) == NULL) {
		free(dir);
		return xstrdup(path);
	}
	out = util_path_join(real, util_basename(path));
	free(real);
	free(dir);
	return out;
}

/*
 * The next number of the xorshift64* sequence in *STATE (never 0): the
 * generators' one source of repeatable randomness.
 */
uint64_t
util_rand_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

/*
 * 64 bits from /dev/urandom; when it cannot be read, a mix of the time, the
 * pid and ADDR, which callers must not rely on being secret.
 */
uint64_t
util_random64(const void *addr)
{
	uint64_t	 v = 0;
	int		 fd;

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd == -1 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		v = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid() << 32 ^
		    (uint64_t)(uintptr_t)addr;
	if (fd != -1)
		close(fd);
	return v;
}

/* Create DIR/NAME for writing; NULL with *cause set on failure. */
FILE *
util_file_create(const char *dir, const char *name, char **cause)
{
	char	*path;
	FILE	*f;

	path = util_path_join(dir, name);
	if ((f = fopen(path, "wb")) == NULL)
		xasprintf(cause, "cannot create '%s': %s", path,
		    strerror(errno));
	free(path);
	return f;
}

/*
 * Close F, written as DIR/NAME by util_file_create(); -1 with *cause set
 * if anything written to it was lost.
 */
int
util_file_close(FILE *f, const char *dir, const char *name, char **cause)
{
	if (ferror(f) | (fclose(f) != 0)) {
		xasprintf(cause, "cannot write '%s/%s'", dir, name);
		return -1;
	}
	return 0;
}

static int
util_dir_cmp(const void *a, const void *b)
{
	const char *const	*x = a, *const *y = b;

	return strcmp(*x, *y);
}

/*
 * The entries of DIR (no dot files), sorted; NULL and 0 if unreadable
 * (errno set) or empty (errno 0).
 */
char **
util_dir_list(const char *dir, size_t *n)
{
	DIR		*d;
	struct dirent	*de;
	char		**names = NULL;

	*n = 0;
	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = xreallocarray(names, *n + 1, sizeof *names);
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(names, *n, sizeof *names, util_dir_cmp);
	errno = 0;	/* read: NULL means empty */
	return names;
}

/* Free the N strings of V and V itself (as util_dir_list() returns). */
void
util_strv_free(char **names, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* True if DIR has an entry called NAME. */
bool
util_dir_has(const char *dir, const char *name)
{
	struct stat	 st;
	char		*p;
	bool		 found;

	p = util_path_join(dir, name);
	found = stat(p, &st) == 0;
	free(p);
	return found;
}

/* The length of the UTF-8 sequence at S (N bytes left), 0 if invalid. */
size_t
util_utf8_len(const unsigned char *s, size_t n)
{
	size_t		 len, i;
	uint32_t	 c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

/*
 * S as it can be shown on a terminal without acting on it: a control
 * character as ^X (ESC as ^[, DEL as ^?), a C1 control as \u0080 to
 * \u009f, a byte that is not UTF-8 as \xNN; TAB and newline only when
 * KEEP_LINES. S itself when nothing needs it, else B's text.
 */
const char *
util_visible(const char *s, struct strbuf *b, bool keep_lines)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 len = strlen(s), i, n;
	bool			 plain = true;

	for (i = 0; i < len && plain; i += n) {
		n = util_utf8_len(p + i, len - i);
		plain = n != 0 && p[i] != 0x7f && (p[i] >= 0x20 ||
		    (keep_lines && (p[i] == '\n' || p[i] == '\t'))) &&
		    !(n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0);
	}
	if (plain)
		return s;
	strbuf_reset(b);
	for (i = 0; i < len; i += n) {
		n = util_utf8_len(p + i, len - i);
		if (n == 0) {
			strbuf_addf(b, "\\x%02x", p[i]);
			n = 1;
		} else if (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)
			strbuf_addf(b, "\\u%04x", p[i + 1]);
		else if (p[i] == 0x7f)
			strbuf_adds(b, "^?");
		else if (p[i] < 0x20 && !(keep_lines && (p[i] == '\n' ||
		    p[i] == '\t'))) {
			strbuf_addc(b, '^');
			strbuf_addc(b, (char)(p[i] ^ 0x40));
		} else
			strbuf_add(b, s + i, n);
	}
	return b->s != NULL ? b->s : "";
}

/*
 * What is wrong with the option getopt_long() just refused with CH (':'
 * for a missing argument, '?' otherwise), ARGV its argument vector and
 * LONGOPTS its long options: the option named as the user wrote it.
 */
const char *
util_option_error(char **argv, const struct option *longopts, int ch)
{
	static char	 buf[160];
	const char	*arg = optind > 0 ? argv[optind - 1] : "?";
	size_t		 n, i;

	if (strncmp(arg, "--", 2) == 0) {
		n = strcspn(arg, "=");
		if (n > 100)
			n = 100;
		for (i = 0; ch != ':' && arg[n] == '=' &&
		    longopts[i].name != NULL; i++) {
			if (strlen(longopts[i].name) == n - 2 &&
			    strncmp(longopts[i].name, arg + 2, n - 2) == 0) {
				snprintf(buf, sizeof buf, "option '%.*s' takes "
				    "no argument", (int)n, arg);
				return buf;
			}
		}
		snprintf(buf, sizeof buf, ch == ':' ? "option '%.*s' needs an "
		    "argument" : "unknown option '%.*s'", (int)n, arg);
	} else if (optopt > 0 && optopt < 256)
		snprintf(buf, sizeof buf, ch == ':' ? "option '-%c' needs an "
		    "argument" : "unknown option '-%c'", optopt);
	else
		snprintf(buf, sizeof buf, "unknown option '%.100s'", arg);
	return buf;
}

/*
 * Call FN on signal SIG, without SA_RESTART: a blocking read returns, so
 * a loop waiting on it sees the signal.
 */
void
util_catch_signal(int sig, void (*fn)(int))
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* The terminal's settings util_tty_quiet() changed, to put back. */
static struct termios		util_tty_saved;
static volatile sig_atomic_t	util_tty_quieted;
static pid_t			util_tty_pid;	/* the process that did */

/*
 * While an import runs before the UI opens, keys typed are not echoed
 * over its progress line: turn echo off on standard input, if it is the
 * terminal of the foreground (a background job would be stopped for
 * it). Ctrl-C still interrupts. util_tty_unquiet() puts it back.
 */
void
util_tty_quiet(void)
{
	static bool	 registered;
	struct termios	 t;

	if (util_tty_quieted || !isatty(STDIN_FILENO) ||
	    tcgetpgrp(STDIN_FILENO) != getpgrp() ||
	    tcgetattr(STDIN_FILENO, &util_tty_saved) != 0)
		return;
	t = util_tty_saved;
	t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) != 0)
		return;
	util_tty_quieted = 1;
	util_tty_pid = getpid();
	if (!registered) {
		registered = true;
		atexit(util_tty_restore);
	}
}

/*
 * Put back the settings util_tty_quiet() changed; safe in a signal
 * handler. Not in a child (a rank's import of a set) that ends first.
 */
void
util_tty_restore(void)
{
	if (util_tty_quieted && getpid() == util_tty_pid) {
		tcsetattr(STDIN_FILENO, TCSANOW, &util_tty_saved);
		util_tty_quieted = 0;
	}
}

/*
 * Put back the settings and drop the keys typed meanwhile: they were
 * meant for a screen not yet shown.
 */
void
util_tty_unquiet(void)
{
	if (util_tty_quieted && getpid() == util_tty_pid) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &util_tty_saved);
		util_tty_quieted = 0;
	}
}

/* Count a value D into S: count, total, least and greatest. */
void
util_stat_add(struct util_stat *s, int64_t d)
{
	if (s->count == 0 || d < s->min)
		s->min = d;
	if (s->count == 0 || d > s->max)
		s->max = d;
	s->count++;
	s->total += d;
}

/* How many of the N sorted values V are below KEY (a binary search). */
size_t
util_count_below(const uint64_t *v, size_t n, uint64_t key)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Make room in array V of N elements of SIZE bytes for ADD more, doubling
 * its capacity (the next power of two at or above N) when they do not fit,
 * so that arrays grown a record at a time are copied O(log n) times. Only
 * for arrays that never lose elements: the capacity is known from N.
 */
void *
util_grow(void *v, size_t n, size_t add, size_t size)
{
	size_t	 cap = 1, want = n + add;

	if (n > 0) {
		while (cap < n)
			cap *= 2;
		if (want <= cap)
			return v;
	}
	while (cap < want)
		cap *= 2;
	return xreallocarray(v, cap, size);
}

/* Seconds on the monotonic clock, to time what takes a while. */
double
util_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The width in terminal columns of the longest start of S that fits in
 * MAXW columns (SIZE_MAX for all of S); its length in bytes goes to *BYTES
 * unless BYTES is NULL. With DECODE, S is read as the locale's multibyte
 * characters, a byte that starts none counting one column; without, every
 * byte is one column (the UI outside a UTF-8 locale).
 */
size_t
util_width(const char *s, size_t maxw, size_t *bytes, bool decode)
{
	mbstate_t	 ps;
	wchar_t		 wc;
	size_t		 w = 0, n, off = 0, len = strlen(s);
	int		 cw;

	memset(&ps, 0, sizeof ps);
	while (off < len) {
		/* ASCII is one column a byte in every locale: no decoding. */
		if ((unsigned char)s[off] < 0x80 || !decode) {
			n = 1;
			cw = 1;
		} else {
			n = mbrtowc(&wc, s + off, len - off, &ps);
			if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
				memset(&ps, 0, sizeof ps);
				n = 1;
				cw = 1;
			} else if ((cw = wcwidth(wc)) < 0)
				cw = 1;
		}
		if (w + (size_t)cw > maxw)
			break;
		w += (size_t)cw;
		off += n;
	}
	if (bytes != NULL)
		*bytes = off;
	return w;
}

/*
 * The count the environment variable NAME holds: digits alone, at least
 * MIN; DFLT if it is unset, or holds anything else.
 */
uint64_t
util_env_count(const char *name, uint64_t dflt, uint64_t min)
{
	const char		*e = getenv(name);
	char			*end;
	unsigned long long	 v;

	if (e == NULL || *e < '0' || *e > '9')
		return dflt;
	errno = 0;
	v = strtoull(e, &end, 10);
	if (errno != 0 || *end != '\0' || v < min)
		return dflt;
	return v;
}
