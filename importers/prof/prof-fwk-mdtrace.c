/*
 * The device trace for minddata_pipeline_summary (prof-fwk-mdsum.c):
 * device_queue_profiling_<rank>.txt or dataset_iterator_profiling_
 * <rank>.txt, which MindData's Tracing writes beside the pipeline, a line
 * of five integers per record, read as MindSpore's summary reads it
 * (doc/formats.md section 3.12): Python's lines, strip() and int(), and
 * the mean pipeline, push and batch times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

/* True if C is white space to Python's str.strip() (ASCII's). */
static bool
prof_mdtrace_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c &&
	    c <= 0x1f);
}

/*
 * The N bytes at P as Python's int() reads them into *V: white space
 * around, a sign, digits with single underscores between them; false if
 * int() fails, or past 10^30 (so that sums of a 16 MB file fit).
 */
static bool
prof_mdtrace_pyint(const char *p, size_t n, __int128 *v)
{
	const char	*e = p + n;
	bool		 neg = false, digit = false;
	int		 nd = 0;

	while (p < e && prof_mdtrace_space((unsigned char)*p))
		p++;
	while (e > p && prof_mdtrace_space((unsigned char)e[-1]))
		e--;
	if (p < e && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	*v = 0;
	for (; p < e; p++) {
		if (*p == '_' && digit && p + 1 < e && p[1] >= '0' &&
		    p[1] <= '9')
			continue;
		if (*p < '0' || *p > '9')
			return false;
		/* Leading zeros are no digits of the value. */
		if ((*v != 0 || *p != '0') && ++nd > 30)
			return false;
		digit = true;
		*v = *v * 10 + (*p - '0');
	}
	if (neg)
		*v = -*v;
	return digit;
}

/* A line of the device trace: its fields, split at single spaces. */
struct mdtrace_line {
	const char	*p;
	size_t		 n;
	int64_t		 off;
};

/*
 * The trace's mean pipeline, push and batch times (ms) from the LINES,
 * into S->times; FOUND if it is the device queue's, whose connector
 * records give no batch time. False where the summary fails.
 */
static bool
prof_mdtrace_times(struct mdsum *s, const struct mdtrace_line *lines,
    size_t nlines, bool found)
{
	__int128	 r[5], sum[3] = { 0, 0, 0 }, prev = 0, v;
	size_t		 cnt[3] = { 0, 0, 0 }, i, k, nf, nshort = 0;
	const char	*f, *e, *q;
	int64_t		 off0 = -1;

	for (i = 0; i < nlines; i++) {
		e = lines[i].p + lines[i].n;
		for (nf = 1, q = lines[i].p; q < e; q++)
			nf += *q == ' ';
		if (nf < 5) {
			if (nshort++ == 0)
				off0 = lines[i].off;
			continue;
		}
		for (k = 0, f = lines[i].p; k < nf; k++, f = q + 1) {
			q = memchr(f, ' ', (size_t)(e - f));
			if (q == NULL)
				q = e;
			if (!prof_mdtrace_pyint(f, (size_t)(q - f), &v)) {
				s->why = "a field that is not an integer";
				s->woff = lines[i].off;
				return false;
			}
			if (k < 5)
				r[k] = v;
		}
		if (r[2] < 2) {			/* the first batch */
			prev = r[4];
			continue;
		}
		if (r[0] == 0) {
			if (r[1] < -3 || r[1] > 2) {
				s->why = "a time record of a kind past 2";
				s->woff = lines[i].off;
				return false;
			}
			k = (size_t)((r[1] + 3) % 3);
			sum[k] += r[3];
			cnt[k]++;
		} else if (r[0] == 1 && !found) {
			sum[2] += r[4] - prev;
			cnt[2]++;
			prev = r[4];
		}
	}
	if (nshort > 0)
		store_load_warning(s->m->fw->s, s->wpath, off0, "%zu lines of "
		    "fewer than five fields, skipped as MindSpore skips them",
		    nshort);
	for (k = 0; k < 3; k++)
		s->times[k] = cnt[k] > 0 ? prof_mdrow_round((double)sum[k] /
		    (double)cnt[k], 3) : prof_mdrow_int(-1);
	return true;
}

/*
 * Read the device trace S->wpath into S->times, FOUND if it is the device
 * queue's (else the dataset iterator's); false where the summary fails or
 * has none.
 */
bool
prof_mdtrace_read(struct mdsum *s, bool found)
{
	struct mdtrace_line	*lines = NULL;
	char			*data, *why = NULL, *p, *e, *q;
	size_t			 size, nlines = 0;
	bool			 ok;

	if (util_read_file(s->wpath, &data, &size, MSDATA_MAX, &why) != 0) {
		s->why = "a device trace that cannot be read";
		store_load_warning(s->m->fw->s, s->wpath, -1, "%s", why);
		free(why);
		return false;
	}
	store_load_file(s->m->fw->s, s->wpath);
	if (!prof_fwk_rec_utf8(data, size)) {
		s->why = "a device trace that is not UTF-8";
		free(data);
		return false;
	}
	/* Lines as Python's text files split them: LF, CR LF or CR. */
	for (p = data, e = data + size; p < e; p = q) {
		for (q = p; q < e && *q != '\n' && *q != '\r'; q++)
			;
		lines = util_grow(lines, nlines, 1, sizeof *lines);
		lines[nlines].off = p - data;
		while (p < q && prof_mdtrace_space((unsigned char)*p))
			p++;
		lines[nlines].p = p;
		while (q > p && prof_mdtrace_space((unsigned char)q[-1]))
			q--;
		lines[nlines++].n = (size_t)(q - p);
		while (q < e && *q != '\n' && *q != '\r')
			q++;
		if (q < e && *q == '\r' && q + 1 < e && q[1] == '\n')
			q++;
		if (q < e)
			q++;
	}
	if (nlines == 0) {
		s->why = "an empty device trace";
		ok = false;
	} else
		ok = prof_mdtrace_times(s, lines, nlines, found);
	free(lines);
	free(data);
	return ok;
}
