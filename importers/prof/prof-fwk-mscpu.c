/*
 * MindSpore's host CPU ops of an un-analysed profile (doc/formats.md
 * section 3.12): cpu_op_execute_timestamp_<rank>.txt, which MindSpore's
 * CPU profiler writes beside its pool totals, a line per op:
 * "full name;type;start,duration,thread start,duration,thread ..." with
 * the start in epoch ns (the host's system clock) and the duration in ms
 * (a float, six significant digits). Each run becomes the span that the
 * analysed trace's "CPU OP" process (pid 2) has for it, as MindSpore 2.5
 * and later read the file: named after the op, on "Thread <thread>", its
 * args {"type": type}, its time in µs rounded to the ns half to even.
 * Lines end in LF, CR LF or CR, as Python reads text. A line of fewer
 * than three fields, or a run of other than three fields, is skipped and
 * counted, as MindSpore skips it; so is a run whose fields are not
 * numbers, and a line that is not UTF-8, on which MindSpore's analysis
 * fails. MindSpore turns ns into µs by the binary float 0.001, which puts
 * its starts some 36 ns late today: we take the ns as written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define MSCPU_PID	2		/* MindSpore's "CPU OP" process */
#define MSCPU_SPACE	" \t\v\f"	/* what Python strips and splits on */

/* What became of a run. */
enum mscpu_run {
	MSCPU_SPAN,
	MSCPU_BAD,		/* not three numbers */
	MSCPU_RANGE		/* a number out of range */
};

/*
 * The decimal text S ("12", "0.0125", "1.5e-05", no sign) times 10^SHIFT
 * as an integer rounded half to even, as Python's Decimal quantizes it,
 * into *V: MSCPU_SPAN, or MSCPU_BAD if S is no such number, MSCPU_RANGE
 * if the result is out of range.
 */
static enum mscpu_run
prof_mscpu_dec(const char *s, int shift, int64_t *v)
{
	uint64_t	 d = 0, rem = 0;
	long		 e = 0;
	int		 x = 0, n = 0;
	bool		 dot = false, dropped = false, more = false;
	char		*end;

	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			return MSCPU_BAD;
		n++;
		/* Digits past 18 can only be zeros that change nothing. */
		if (d > (UINT64_MAX - 9) / 10) {
			if (*s != '0')
				return MSCPU_RANGE;
			if (!dot)
				x++;
			continue;
		}
		d = d * 10 + (uint64_t)(*s - '0');
		if (dot)
			x--;
	}
	if (n == 0)
		return MSCPU_BAD;
	if (*s != '\0') {
		errno = 0;
		e = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end != '\0')
			return MSCPU_BAD;
		/* Past 10^-40, at most 19 digits round to 0 ns. */
		if (errno == 0 && e < -40) {
			*v = 0;
			return MSCPU_SPAN;
		}
		if (errno != 0 || e > 40)
			return MSCPU_RANGE;
	}
	x += (int)e + shift;
	for (; x > 0; x--) {
		if (d > (uint64_t)INT64_MAX / 10)
			return MSCPU_RANGE;
		d *= 10;
	}
	for (; x < 0; x++) {
		if (rem != 0)
			more = true;
		rem = d % 10;
		d /= 10;
		dropped = true;
	}
	/* REM is the first digit dropped; MORE says one after it was not 0. */
	if (dropped && (rem > 5 || (rem == 5 && (more || d % 2 == 1))))
		d++;
	if (d > (uint64_t)INT64_MAX)
		return MSCPU_RANGE;
	*v = (int64_t)d;
	return MSCPU_SPAN;
}

/* One run "start,duration,thread" of op NAME (args ARGS) as a span. */
static enum mscpu_run
prof_mscpu_run(struct prof_fwk *fw, char *run, const char *name,
    const char *args)
{
	char			*f[3], *end;
	int64_t			 start, dur;
	unsigned long long	 tid;
	enum mscpu_run		 r;
	size_t			 n = 0;

	f[n++] = run;
	while (n < 3 && (run = strchr(run, ',')) != NULL) {
		*run++ = '\0';
		f[n++] = run;
	}
	if (n != 3 || strchr(f[2], ',') != NULL ||
	    f[2][strspn(f[2], "0123456789")] != '\0' || *f[2] == '\0')
		return MSCPU_BAD;
	if ((r = prof_mscpu_dec(f[0], 0, &start)) != MSCPU_SPAN ||
	    (r = prof_mscpu_dec(f[1], 6, &dur)) != MSCPU_SPAN)
		return r;
	/*
	 * The writer subtracts unsigned times: a clock stepped back during
	 * an op gives a duration of 1.84467e+13 ms, out of range here.
	 */
	errno = 0;
	tid = strtoull(f[2], &end, 10);
	if (errno != 0 || tid > INT64_MAX || start > INT64_MAX - dur)
		return MSCPU_RANGE;
	prof_fwk_rec_span(fw, MSCPU_PID, tid, start, start + dur, "CPU OP",
	    name, args);
	return MSCPU_SPAN;
}

/* What a file's lines lacked: how many, and where the first was. */
struct mscpu_bad {
	int64_t	 lines;
	int64_t	 line_at;
	int64_t	 runs;
	int64_t	 run_at;
	int64_t	 range;
	int64_t	 range_at;
	int64_t	 utf8;
	int64_t	 utf8_at;
};

/* One line LINE, at offset AT: its runs' spans; return how many. */
static int64_t
prof_mscpu_line(struct prof_fwk *fw, char *line, int64_t at,
    struct strbuf *args, struct mscpu_bad *bad)
{
	char		*type, *runs, *run, *save, *end;
	int64_t		 spans = 0;

	/* Stripped, as Python strips a line (of ASCII white space). */
	line += strspn(line, MSCPU_SPACE);
	for (end = line + strlen(line); end > line &&
	    strchr(MSCPU_SPACE, end[-1]) != NULL; end--)
		end[-1] = '\0';
	if (*line == '\0')
		return 0;
	if (!prof_fwk_rec_utf8(line, strlen(line))) {
		if (bad->utf8++ == 0)
			bad->utf8_at = at;
		return 0;
	}
	/*
	 * The name, the type, the runs: MindSpore's first, second and last
	 * ';'-separated fields.
	 */
	if ((type = strchr(line, ';')) == NULL ||
	    (runs = strrchr(line, ';')) == type) {
		if (bad->lines++ == 0)
			bad->line_at = at;
		return 0;
	}
	*type++ = '\0';
	*runs++ = '\0';
	type[strcspn(type, ";")] = '\0';
	strbuf_reset(args);
	strbuf_adds(args, "{\"type\":\"");
	prof_fwk_rec_json(args, type, false);
	strbuf_adds(args, "\"}");
	for (run = strtok_r(runs, MSCPU_SPACE, &save); run != NULL;
	    run = strtok_r(NULL, MSCPU_SPACE, &save)) {
		switch (prof_mscpu_run(fw, run, line, args->s)) {
		case MSCPU_SPAN:
			spans++;
			break;
		case MSCPU_BAD:
			if (bad->runs++ == 0)
				bad->run_at = at;
			break;
		case MSCPU_RANGE:
			if (bad->range++ == 0)
				bad->range_at = at;
			break;
		}
	}
	return spans;
}

/*
 * Decode MindSpore's CPU op runs at PATH into spans of FW's rank; return
 * how many.
 */
int64_t
prof_fwk_mscpu_load(struct prof_fwk *fw, const char *path)
{
	struct mscpu_bad bad;
	struct strbuf	 args;
	FILE		*f;
	char		*line = NULL, *seg, *cr;
	size_t		 cap = 0;
	ssize_t		 len;
	int64_t		 at = 0, spans = 0;
	const char	*proc = fw->proc;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return 0;
	memset(&bad, 0, sizeof bad);
	fw->proc = "CPU OP";
	strbuf_init(&args);
	for (; (len = getline(&line, &cap, f)) != -1; at += len) {
		line[strcspn(line, "\n")] = '\0';
		/* A CR ends a line too (a CR LF ends one). */
		for (seg = line; seg != NULL; seg = cr) {
			if ((cr = strchr(seg, '\r')) != NULL)
				*cr++ = '\0';
			fw->at = at + (seg - line);
			spans += prof_mscpu_line(fw, seg, fw->at, &args, &bad);
		}
	}
	if (ferror(f))
		store_load_warning(fw->s, path, at, "read error: %s",
		    strerror(errno));
	fclose(f);
	free(line);
	strbuf_release(&args);
	if (bad.utf8 > 0)
		store_load_warning(fw->s, path, bad.utf8_at, "%lld lines that "
		    "are not UTF-8, the first here: skipped (MindSpore's "
		    "reader fails on them, and reads none of the file)",
		    (long long)bad.utf8);
	if (bad.lines > 0)
		store_load_warning(fw->s, path, bad.line_at, "%lld lines "
		    "without a name, a type and runs, the first here: "
		    "skipped, as MindSpore skips them", (long long)bad.lines);
	if (bad.runs > 0)
		store_load_warning(fw->s, path, bad.run_at, "%lld runs that "
		    "are not start,duration,thread numbers, the first on this "
		    "line: skipped", (long long)bad.runs);
	if (bad.range > 0)
		store_load_warning(fw->s, path, bad.range_at, "%lld runs of "
		    "a start, duration or thread out of range (a duration of "
		    "1.84467e+13 ms is a clock stepped back during the op), "
		    "the first on this line: skipped", (long long)bad.range);
	prof_fwk_rec_report(fw, path);
	fw->proc = proc;
	return spans;
}
