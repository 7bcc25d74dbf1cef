/*
 * memory_record of an un-analysed torch_npu profile (doc/formats.md
 * sections 3.11 and 3.13), as torch_npu's analysis builds it from its own
 * memory records (prof-fwk-mem.c) and CANN's (prof-mem.c): the APP
 * samples first, in file order, then the PTA and GE rows merged by time
 * (a PTA row first on a tie). Each PTA row is followed by a PTA+GE row of
 * its totals plus those of the last GE row of its device, each GE row by
 * one of its totals plus those of the last PTA row; a WORKSPACE row
 * stands alone. The rows are also the timeline's memory chart.
 *
 * The vendor's path goes through msprof's CSVs: GE's totals become KB
 * rounded to 3 decimals, then MB; APP's sum of DDR and HBM the same. The
 * cells here are worked out in that order, so that they print alike.
 *
 * GE's records also give operator_memory its cann:: rows, appended after
 * torch_npu's own: msprof pairs each allocation with its release, and
 * torch_npu turns msprof's row of KB into one of MB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

static const char *const prof_mem_record_cols[] = { "Component",
	"Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
	"Total Active(MB)", "Stream Ptr", "Device Type" };
#define MEM_NCOLS	(sizeof prof_mem_record_cols / \
	sizeof *prof_mem_record_cols)
#define MEM_CELL	48	/* a number's cell, as Python prints it */

/* The last PTA and GE totals of one device, in MB. */
struct mem_last {
	int64_t		 device;
	bool		 pta;
	double		 pta_mb[3];	/* allocated, reserved, active */
	int64_t		 pta_stream;
	bool		 ge;
	double		 ge_mb[2];	/* allocated, reserved */
};

/* The rows being written. */
struct mem_rows {
	struct store		*s;
	struct import_memory	 chart;
	const struct import_ctx	*ctx;
	struct mem_last		*last;
	size_t			 nlast;
	char			 cells[MEM_NCOLS][MEM_CELL];
	char			*row[MEM_NCOLS];
};

/*
 * BYTES as msprof's KB cell read back as a float: round(bytes / 1024, 3)
 * as Python rounds (half to even on the exact value), then to the
 * nearest double.
 */
double
prof_mem_record_kb(int64_t bytes)
{
	int64_t	 q, r;

	if (bytes < 0 || bytes > INT64_MAX / 125)
		return (double)bytes / 1024.0;
	/* bytes / 1024 * 1000 = bytes * 125 / 128, exactly. */
	q = bytes * 125 / 128;
	r = bytes * 125 % 128;
	if (r > 64 || (r == 64 && q % 2 == 1))
		q++;
	return (double)q / 1000.0;
}

/* The totals of DEVICE, made if new. */
static struct mem_last *
prof_mem_record_last(struct mem_rows *w, int64_t device)
{
	struct mem_last	*l;
	size_t		 i;

	for (i = 0; i < w->nlast; i++) {
		if (w->last[i].device == device)
			return &w->last[i];
	}
	w->last = util_grow(w->last, w->nlast, 1, sizeof *w->last);
	l = &w->last[w->nlast++];
	memset(l, 0, sizeof *l);
	l->device = device;
	return l;
}

/* Write the row of W's cells, into the table and the chart. */
static void
prof_mem_record_put(struct mem_rows *w)
{
	store_load_generic_row(w->s, w->row, MEM_NCOLS);
	(void)import_memory_row(w->s, &w->chart, w->row, MEM_NCOLS, w->ctx);
}

/* Set the cells common to every row: COMP, the time TS and DEVICE. */
static void
prof_mem_record_head(struct mem_rows *w, const char *comp, int64_t ts,
    int64_t device)
{
	size_t	 k;

	for (k = 0; k < MEM_NCOLS; k++)
		w->cells[k][0] = '\0';
	snprintf(w->cells[0], sizeof w->cells[0], "%s", comp);
	util_fmt_us(w->cells[1], sizeof w->cells[1], ts, 3, false);
	snprintf(w->cells[6], sizeof w->cells[6], "NPU:%lld",
	    (long long)device);
}

/* The PTA (or WORKSPACE) record R of DEVICE, and its PTA+GE row. */
static void
prof_mem_record_pta(struct mem_rows *w, const struct store_torch_mem *r,
    int64_t device)
{
	struct mem_last	*l = prof_mem_record_last(w, device);
	double		 mb[3];
	int		 k;

	mb[0] = (double)r->allocated / (1024.0 * 1024.0);
	mb[1] = (double)r->reserved / (1024.0 * 1024.0);
	mb[2] = (double)r->active / (1024.0 * 1024.0);
	prof_mem_record_head(w, r->workspace ? "WORKSPACE" : "PTA", r->ts,
	    device);
	for (k = 0; k < 3; k++)
		util_fmt_pyfloat(w->cells[2 + k], MEM_CELL, mb[k]);
	snprintf(w->cells[5], sizeof w->cells[5], "%lld",
	    (long long)r->stream);
	prof_mem_record_put(w);
	if (r->workspace)
		return;
	snprintf(w->cells[0], sizeof w->cells[0], "PTA+GE");
	if (l->ge) {
		util_fmt_pyfloat(w->cells[2], MEM_CELL, mb[0] + l->ge_mb[0]);
		util_fmt_pyfloat(w->cells[3], MEM_CELL, mb[1] + l->ge_mb[1]);
		/* GE's stream is none: an empty cell. */
		if (r->stream == 0)
			w->cells[5][0] = '\0';
	}
	prof_mem_record_put(w);
	l->pta = true;
	memcpy(l->pta_mb, mb, sizeof l->pta_mb);
	l->pta_stream = r->stream;
}

/* GE's record G, and its PTA+GE row. */
static void
prof_mem_record_ge(struct mem_rows *w, const struct prof_ge_mem *g)
{
	struct mem_last	*l = prof_mem_record_last(w, g->device);
	double		 mb[2];

	mb[0] = prof_mem_record_kb(g->allocated) / 1024.0;
	mb[1] = prof_mem_record_kb(g->reserved) / 1024.0;
	prof_mem_record_head(w, "GE", g->ts, g->device);
	util_fmt_pyfloat(w->cells[2], MEM_CELL, mb[0]);
	util_fmt_pyfloat(w->cells[3], MEM_CELL, mb[1]);
	prof_mem_record_put(w);
	snprintf(w->cells[0], sizeof w->cells[0], "PTA+GE");
	if (l->pta) {
		util_fmt_pyfloat(w->cells[2], MEM_CELL, mb[0] + l->pta_mb[0]);
		util_fmt_pyfloat(w->cells[3], MEM_CELL, mb[1] + l->pta_mb[1]);
		util_fmt_pyfloat(w->cells[4], MEM_CELL, l->pta_mb[2]);
		snprintf(w->cells[5], sizeof w->cells[5], "%lld",
		    (long long)l->pta_stream);
	} else
		snprintf(w->cells[4], sizeof w->cells[4], "0");
	prof_mem_record_put(w);
	l->ge = true;
	memcpy(l->ge_mb, mb, sizeof l->ge_mb);
}

/*
 * Write memory_record of rank RANK from torch_npu's records T and CANN's
 * M (of the collection DIR), into the unit of CTX. Nothing is written if
 * both are empty.
 */
void
prof_mem_record_write(struct store *s, const struct prof_fwk_out *t,
    const struct prof_mems *m, const char *dir, int64_t rank,
    const struct import_ctx *ctx)
{
	struct mem_rows	 w;
	struct csv_cols	*cc;
	char		*cause = NULL;
	size_t		 i, j, k;
	int64_t		 dev;

	if (t->n == 0 && m->nge == 0 && m->napp == 0)
		return;
	if (store_load_generic_begin(s, "memory_record", t->device != NP_NA ?
	    t->device : ctx->device, rank, (char **)prof_mem_record_cols,
	    MEM_NCOLS, &cause) != 0) {
		store_load_warning(s, t->path != NULL ? t->path : dir, -1,
		    "%s", cause);
		free(cause);
		return;
	}
	memset(&w, 0, sizeof w);
	w.s = s;
	w.ctx = ctx;
	for (k = 0; k < MEM_NCOLS; k++)
		w.row[k] = w.cells[k];
	cc = import_columns_create((char **)prof_mem_record_cols, MEM_NCOLS);
	import_memory_init(&w.chart, cc);
	import_columns_free(cc);
	for (i = 0; i < m->napp; i++) {
		prof_mem_record_head(&w, "APP", m->app[i].ts,
		    m->app[i].device);
		util_fmt_pyfloat(w.cells[3], MEM_CELL,
		    prof_mem_record_kb(m->app[i].bytes) / 1024.0);
		prof_mem_record_put(&w);
	}
	for (i = j = 0; i < t->n || j < m->nge;) {
		if (i < t->n && (j == m->nge || m->ge[j].ts >= t->v[i].ts)) {
			dev = t->device != NP_NA ? t->device :
			    t->v[i].device;
			prof_mem_record_pta(&w, &t->v[i++], dev);
		} else
			prof_mem_record_ge(&w, &m->ge[j++]);
	}
	free(w.last);
}

/* operator_memory's columns, as torch_npu writes them. */
static const char *const prof_mem_ops_cols[] = { "Name", "Size(KB)",
	"Allocation Time(us)", "Release Time(us)", "Active Release Time(us)",
	"Duration(us)", "Active Duration(us)",
	"Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
	"Allocation Total Active(MB)", "Release Total Allocated(MB)",
	"Release Total Reserved(MB)", "Release Total Active(MB)",
	"Stream Ptr", "Device Type" };
#define MEM_OPS_NCOLS	(sizeof prof_mem_ops_cols / sizeof *prof_mem_ops_cols)

/* An allocation of GE's waiting for its release. */
struct mem_open {
	const struct prof_ge_mem	*g;
	bool				 released;
};

static int
prof_mem_record_idx_cmp(const void *a, const void *b)
{
	const struct prof_ge_mem *const	*x = a, *const *y = b;

	return (*x)->idx < (*y)->idx ? -1 : (*x)->idx > (*y)->idx;
}

/* The key of G's op, address and device, for the open allocations. */
static uint64_t
prof_mem_record_key(const struct prof_ge_mem *g)
{
	uint64_t	 k[3] = { g->node, g->addr, (uint64_t)g->device };

	return util_hash64((const char *)k, sizeof k);
}

static bool
prof_mem_record_same(const struct prof_ge_mem *a, const struct prof_ge_mem *b)
{
	return a->node == b->node && a->addr == b->addr &&
	    a->device == b->device;
}

/*
 * A duration of TICKS host counter ticks in µs as msprof's CSV cell:
 * ticks / Hz * 10^6 in floating point, rounded to 3 decimals.
 */
static double
prof_mem_record_dur(const struct prof_meta *hm, int64_t ticks)
{
	char	 buf[64];
	double	 us;

	if (hm->host.num == 0)
		us = (double)ticks * 1e6 / 1e9;
	else
		us = (double)ticks / ((double)hm->host.num /
		    (double)hm->host.den * 1e6) * 1e6;
	snprintf(buf, sizeof buf, "%.3f", us);
	return strtod(buf, NULL);
}

/* The cann:: row of allocation A and its release R (NULL: none). */
static void
prof_mem_record_op(struct store *s, const struct prof_ge_mem *a,
    const struct prof_ge_mem *r, const struct prof_dicts *d,
    const struct prof_meta *hm)
{
	char		 c[MEM_OPS_NCOLS][MEM_CELL], *row[MEM_OPS_NCOLS];
	char		 id[24], *cann;
	const char	*name;
	double		 dur;
	size_t		 k;

	for (k = 0; k < MEM_OPS_NCOLS; k++) {
		c[k][0] = '\0';
		row[k] = c[k];
	}
	/* The name is as long as GE's op names are: a cell of its own. */
	name = prof_dict_hash(d, a->node, id, sizeof id);
	xasprintf(&cann, "cann::%s", name == id ? "" : name);
	row[0] = cann;
	util_fmt_pyfloat(c[1], MEM_CELL, prof_mem_record_kb(a->size));
	util_fmt_us(c[2], sizeof c[2], a->ts, 3, false);
	/* An allocation without its release: msprof's duration 0. */
	dur = r != NULL ? prof_mem_record_dur(hm, (int64_t)(r->raw -
	    a->raw)) : 0.0;
	util_fmt_pyfloat(c[5], MEM_CELL, dur);
	/* torch_npu adds the two cells' exact decimals. */
	util_fmt_us(c[3], sizeof c[3], a->ts + (int64_t)(dur * 1000.0 +
	    (dur < 0 ? -0.5 : 0.5)), 3, false);
	util_fmt_pyfloat(c[7], MEM_CELL,
	    prof_mem_record_kb(a->allocated) / 1024.0);
	util_fmt_pyfloat(c[8], MEM_CELL,
	    prof_mem_record_kb(a->reserved) / 1024.0);
	util_fmt_pyfloat(c[10], MEM_CELL, r != NULL ?
	    prof_mem_record_kb(r->allocated) / 1024.0 : 0.0);
	util_fmt_pyfloat(c[11], MEM_CELL, r != NULL ?
	    prof_mem_record_kb(r->reserved) / 1024.0 : 0.0);
	snprintf(c[14], sizeof c[14], "NPU:%lld", (long long)a->device);
	store_load_generic_row(s, row, MEM_OPS_NCOLS);
	free(cann);
}

/*
 * Append to operator_memory of rank RANK (DEVICE: the collection's) the
 * cann:: rows torch_npu makes of GE's records in M, as msprof pairs them:
 * in file order, an allocation waits under its op, address and device
 * (a second one replaces it in place) until a release of the same takes
 * it, giving a row; the allocations never released follow, in the order
 * they first came. Names come from the hash dictionary D, times through
 * the host metadata HM.
 */
void
prof_mem_record_ops(struct store *s, const struct prof_mems *m,
    const struct prof_dicts *d, const struct prof_meta *hm, int64_t rank,
    int64_t device)
{
	const struct prof_ge_mem	**v;
	struct mem_open			 *open = NULL;
	struct util_map			  map;
	char				 *cause = NULL;
	size_t				  nopen = 0, i;
	uint64_t			  key, at;

	if (m->nge == 0)
		return;
	if (store_load_generic_begin(s, "operator_memory", device, rank,
	    (char **)prof_mem_ops_cols, MEM_OPS_NCOLS, &cause) != 0) {
		store_load_warning(s, hm->dir, -1, "%s", cause);
		free(cause);
		return;
	}
	v = xreallocarray(NULL, m->nge, sizeof *v);
	for (i = 0; i < m->nge; i++)
		v[i] = &m->ge[i];
	qsort(v, m->nge, sizeof *v, prof_mem_record_idx_cmp);
	util_map_init(&map);
	for (i = 0; i < m->nge; i++) {
		if (v[i]->size == 0)
			continue;
		/* Probe from the key's hash to its open allocation. */
		key = prof_mem_record_key(v[i]);
		while (util_map_get(&map, key, &at) &&
		    !prof_mem_record_same(open[at].g, v[i]))
			key++;
		if (v[i]->size > 0) {
			if (util_map_get(&map, key, &at) &&
			    !open[at].released) {
				open[at].g = v[i];
				continue;
			}
			open = util_grow(open, nopen, 1, sizeof *open);
			open[nopen].g = v[i];
			open[nopen].released = false;
			util_map_set(&map, key, nopen++);
		} else if (util_map_get(&map, key, &at) &&
		    !open[at].released) {
			prof_mem_record_op(s, open[at].g, v[i], d, hm);
			open[at].released = true;
		}
	}
	for (i = 0; i < nopen; i++)
		if (!open[i].released)
			prof_mem_record_op(s, open[i].g, NULL, d, hm);
	util_map_release(&map);
	free(open);
	free(v);
}
