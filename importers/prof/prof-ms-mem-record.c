/*
 * memory_record of an un-analysed MindSpore profile (doc/formats.md
 * section 3.14), as MindSpore's analysis (2.3 to 2.6) builds it: its own
 * pool totals (cpu_ms_memory_record_<rank>.txt, a CSV of nanoseconds and
 * bytes) and GE's task memory records (prof-mem.c) merged by time, GE's
 * first on a tie, each followed by a MindSpore+GE row of its totals plus
 * those of the other side's last row; then the APP samples of npu_mem.
 *
 * MindSpore takes GE's totals and APP's from msprof's CSVs (KB rounded to
 * 3 decimals) and its own as bytes / 1024, and divides every KB by 1000,
 * not 1024, to print MB; Device Type is NPU:<rank> on all rows but GE's,
 * which keep msprof's NPU:<device>. The cells here are worked out in the
 * same order, so that they print alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

static const char *const prof_ms_mem_cols[] = { "Component",
	"Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
	"Total Active(MB)", "Device Type" };
#define MSM_NCOLS	(sizeof prof_ms_mem_cols / sizeof *prof_ms_mem_cols)
#define MSM_CELL	48

static const char prof_ms_mem_head[] = "Timestamp(ns),Total Allocated(Byte),"
    "Total Reserved(Byte),Total Active(Byte)";

/* One row to merge: GE's record I, or MindSpore's. */
struct msm_ev {
	int64_t		 ts;
	size_t		 seq;		/* GE's first, then MindSpore's */
	bool		 ge;
	size_t		 i;
};

/* The KB of a side's last row (zero before any). */
struct msm_last {
	double		 kb[3];
};

/* The rows being written. */
struct msm_rows {
	struct store		*s;
	struct import_memory	 chart;
	const struct import_ctx	*ctx;
	char			 rank[32];
	char			 cells[MSM_NCOLS][MSM_CELL];
	char			*row[MSM_NCOLS];
};

/*
 * Parse the data line L into R: 1 if it starts with four integers, 2 if
 * more fields follow them (MindSpore reads the first four), else 0.
 */
static int
prof_ms_mem_line(const char *l, struct prof_ms_mem *r)
{
	const char	*p = l, *c;
	int64_t		 v[4];
	int		 k;

	for (k = 0; k < 4; k++) {
		if ((c = strchr(p, ',')) == NULL) {
			if (k < 3)
				return 0;
			c = p + strlen(p);
		}
		if (util_parse_int(p, (size_t)(c - p), &v[k]) != 0)
			return 0;
		p = c + 1;
	}
	r->ts = v[0];
	memcpy(r->bytes, v + 1, sizeof r->bytes);
	return *c == ',' ? 2 : 1;
}

/* The warnings of a reading of PATH: bad, extra-field and blank lines. */
static void
prof_ms_mem_report(struct store *s, const char *path,
    const struct prof_tally *c)
{
	if (c[0].n > 0)
		store_load_warning(s, path, c[0].at, "%zu line%s not four "
		    "integers (time in ns, allocated, reserved and active "
		    "bytes), the first here: skipped (MindSpore's analysis "
		    "would write no memory_record at all)", c[0].n,
		    c[0].n == 1 ? "" : "s");
	if (c[1].n > 0)
		store_load_warning(s, path, c[1].at, "%zu line%s with more "
		    "than four fields, the first here: the first four read, "
		    "as MindSpore reads them", c[1].n, c[1].n == 1 ? "" : "s");
	if (c[2].n > 0)
		store_load_warning(s, path, c[2].at, "%zu blank line%s, the "
		    "first here: no row (MindSpore 2.5 and later would list "
		    "each as a record at time 0)", c[2].n, c[2].n == 1 ? "" :
		    "s");
}

/*
 * Read MindSpore's pool totals at PATH into OUT, in file order: a header
 * line, then a line of four integers per record. Another header leaves
 * the file unread (its lines counted); lines that are not four integers
 * (a NUL byte makes none), lines with more fields and blank lines are
 * counted in a warning each, with the first one's offset; a last line
 * without its line end is read, and warned about.
 */
void
prof_ms_mem_read(struct store *s, const char *path, struct prof_fwk_out *out)
{
	FILE			*f;
	struct prof_tally	 c[3];	/* bad, extra fields, blank */
	char			*line = NULL, *l;
	size_t			 cap = 0, n, unread = 0;
	ssize_t			 len;
	int64_t			 at = 0, head_at = -1;
	int			 got;
	bool			 nul;

	if ((f = util_fopen_input(path)) == NULL) {
		store_load_warning(s, path, -1, "cannot open: %s",
		    util_input_error(errno));
		return;
	}
	store_load_file(s, path);
	memset(c, 0, sizeof c);
	for (; (len = getline(&line, &cap, f)) != -1; at += len) {
		l = line;
		n = (size_t)len;
		if (line[n - 1] != '\n')
			store_load_warning(s, path, at, "the last line has no "
			    "line end (the file may be cut short): read as it "
			    "stands");
		while (n > 0 && (l[n - 1] == '\n' || l[n - 1] == '\r'))
			l[--n] = '\0';
		if (at == 0 && n >= 3 && memcmp(l, "\xef\xbb\xbf", 3) == 0) {
			l += 3;
			n -= 3;
		}
		nul = memchr(l, '\0', n) != NULL;
		if (!nul && strspn(l, " \t") == n) {
			prof_tally_add(&c[2], at);
			continue;
		}
		if (unread > 0 || (head_at < 0 && (nul ||
		    strcmp(l, prof_ms_mem_head) != 0))) {
			if (unread++ == 0)
				store_load_warning(s, path, at, "not "
				    "MindSpore's memory records (header "
				    "\"%.60s\", not \"%s\"): not read", l,
				    prof_ms_mem_head);
			continue;
		}
		if (head_at < 0) {
			head_at = at;
			continue;
		}
		out->msv = util_grow(out->msv, out->nms, 1,
		    sizeof *out->msv);
		got = nul ? 0 : prof_ms_mem_line(l, &out->msv[out->nms]);
		if (got > 0)
			out->nms++;
		if (got != 1)
			prof_tally_add(&c[got == 0 ? 0 : 1], at);
	}
	if (ferror(f))
		store_load_warning(s, path, at, "read error: %s",
		    strerror(errno));
	if (unread > 1)
		store_load_warning(s, path, 0, "%zu lines not read after "
		    "that header", unread - 1);
	prof_ms_mem_report(s, path, c);
	free(line);
	fclose(f);
}

static int
prof_ms_mem_ev_cmp(const void *a, const void *b)
{
	const struct msm_ev	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the row of W's cells, into the table and the chart. */
static void
prof_ms_mem_put(struct msm_rows *w)
{
	store_load_generic_row(w->s, w->row, MSM_NCOLS);
	(void)import_memory_row(w->s, &w->chart, w->row, MSM_NCOLS, w->ctx);
}

/* Write a row of COMP at TS (TIME: its cell), of KB, on device DEV. */
static void
prof_ms_mem_row(struct msm_rows *w, const char *comp, const char *time,
    const double kb[3], const char *dev)
{
	int	 k;

	snprintf(w->cells[0], MSM_CELL, "%s", comp);
	snprintf(w->cells[1], MSM_CELL, "%s", time);
	for (k = 0; k < 3; k++)
		util_fmt_pyfloat(w->cells[2 + k], MSM_CELL, kb[k] / 1000.0);
	snprintf(w->cells[5], MSM_CELL, "%s", dev);
	prof_ms_mem_put(w);
}

/* Event E of T and M, and its MindSpore+GE row, with the last GE, MS. */
static void
prof_ms_mem_event(struct msm_rows *w, const struct msm_ev *e,
    const struct prof_fwk_out *t, const struct prof_mems *m,
    struct msm_last *last)
{
	const struct prof_ge_mem	*g;
	const struct prof_ms_mem	*r;
	struct msm_last			*mine, *other;
	char				 time[40], dev[32];
	double				 kb[3];
	int				 k;

	if (e->ge) {
		g = &m->ge[e->i];
		kb[0] = prof_mem_record_kb(g->allocated);
		kb[1] = prof_mem_record_kb(g->reserved);
		kb[2] = 0.0;
		util_fmt_us(time, sizeof time, g->ts, 3, false);
		snprintf(dev, sizeof dev, "NPU:%lld", (long long)g->device);
		prof_ms_mem_row(w, "GE", time, kb, dev);
		mine = &last[0];
		other = &last[1];
	} else {
		r = &t->msv[e->i];
		for (k = 0; k < 3; k++)
			kb[k] = (double)r->bytes[k] / 1024.0;
		/* Decimal(ns) / 1000: exact, no trailing zeros. */
		util_fmt_us(time, sizeof time, r->ts, 3, true);
		prof_ms_mem_row(w, "MindSpore", time, kb, w->rank);
		mine = &last[1];
		other = &last[0];
	}
	memcpy(mine->kb, kb, sizeof kb);
	for (k = 0; k < 3; k++)
		kb[k] += other->kb[k];
	prof_ms_mem_row(w, "MindSpore+GE", time, kb, w->rank);
}

/*
 * Write memory_record of rank RANK of the MindSpore profile at DIR from
 * its own records in T and CANN's in M, into the unit of CTX. Nothing is
 * written if there are none.
 */
void
prof_ms_mem_write(struct store *s, const struct prof_fwk_out *t,
    const struct prof_mems *m, const char *dir, int64_t rank,
    const struct import_ctx *ctx)
{
	struct msm_rows	 w;
	struct msm_last	 last[2];
	struct msm_ev	*ev;
	struct csv_cols	*cc;
	char		*cause = NULL, time[40];
	double		 kb[3];
	size_t		 n, i, k;

	n = m->nge + t->nms;
	if (n == 0 && m->napp == 0)
		return;
	if (store_load_generic_begin(s, "memory_record", ctx->device, rank,
	    (char **)prof_ms_mem_cols, MSM_NCOLS, &cause) != 0) {
		store_load_warning(s, t->ms_path != NULL ? t->ms_path : dir,
		    -1, "%s", cause);
		free(cause);
		return;
	}
	memset(&w, 0, sizeof w);
	memset(last, 0, sizeof last);
	w.s = s;
	w.ctx = ctx;
	/* MindSpore's rank_id (prof-fwk.c). */
	snprintf(w.rank, sizeof w.rank, "NPU:%lld", (long long)t->ms_rank);
	for (k = 0; k < MSM_NCOLS; k++)
		w.row[k] = w.cells[k];
	cc = import_columns_create((char **)prof_ms_mem_cols, MSM_NCOLS);
	import_memory_init(&w.chart, cc);
	import_columns_free(cc);
	ev = xreallocarray(NULL, n > 0 ? n : 1, sizeof *ev);
	for (i = 0; i < n; i++) {
		ev[i].seq = i;
		ev[i].ge = i < m->nge;
		ev[i].i = ev[i].ge ? i : i - m->nge;
		ev[i].ts = ev[i].ge ? m->ge[i].ts : t->msv[ev[i].i].ts;
	}
	qsort(ev, n, sizeof *ev, prof_ms_mem_ev_cmp);
	for (i = 0; i < n; i++)
		prof_ms_mem_event(&w, &ev[i], t, m, last);
	free(ev);
	for (i = 0; i < m->napp; i++) {
		kb[0] = kb[2] = 0.0;
		kb[1] = prof_mem_record_kb(m->app[i].bytes);
		util_fmt_us(time, sizeof time, m->app[i].ts, 3, false);
		prof_ms_mem_row(&w, "APP", time, kb, w.rank);
	}
}
