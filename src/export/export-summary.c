/*
 * export summary: every table the store holds written as the vendor's
 * summary files, <name>_<YYYYMMDDhhmmss>.csv with the vendor's headers and
 * number formats (doc/formats.md sections 7 and 8), or the same rows as JSON.
 * The cells come formatted from the store's table specs; this file adds
 * what only the files have: the TAB after time stamps that keeps
 * spreadsheets from rounding them, the pre-quoted shapes, and the split
 * into _slice_<i> files past a million rows. Rows stream from the store to
 * the file, so memory does not grow with the table. A store of legacy
 * (CANN <= 6.0) or SVP data is written the legacy way instead: the legacy
 * headers, plain CSV quoting, and one file per device, model and
 * iteration named <name>_<device>_<model>_<iter> (store-legacy.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export-int.h"

/* The vendor's CSV writer starts a new slice file after this many rows. */
#define SUMMARY_CSV_LIMIT	1000000

enum summary_cell {
	CELL_TAB = 1 << 0,	/* a TAB follows the value */
	CELL_SHAPE = 1 << 1	/* the value is written pre-quoted */
};

struct summary_rule {
	const char	*table;
	const char	*col;
	int		 flags;
};

/* Where the vendor's files carry a TAB or a pre-quoted value. */
static const struct summary_rule summary_rules[] = {
	{ .table = "op_summary", .col = "Task Start Time(us)",
	  .flags = CELL_TAB },
	{ .table = "op_summary", .col = "Input Shapes", .flags = CELL_SHAPE },
	{ .table = "op_summary", .col = "Output Shapes", .flags = CELL_SHAPE },
	{ .table = "task_time", .col = "task_start(us)", .flags = CELL_TAB },
	{ .table = "task_time", .col = "task_stop(us)", .flags = CELL_TAB },
	{ .table = "memory_record", .col = "Timestamp(us)", .flags = CELL_TAB },
	{ .table = "npu_module_mem", .col = "Timestamp(us)",
	  .flags = CELL_TAB },
	{ .table = "npu_mem", .col = "timestamp(us)", .flags = CELL_TAB },
	{ .table = "operator_memory", .col = "Allocation Time(us)",
	  .flags = CELL_TAB },
	{ .table = "operator_memory", .col = "Release Time(us)",
	  .flags = CELL_TAB },
	{ .table = "operator_memory", .col = "Active Release Time(us)",
	  .flags = CELL_TAB },
	{ .table = "operator_memory", .col = "Duration(us)",
	  .flags = CELL_TAB },
	{ .table = "operator_memory", .col = "Active Duration(us)",
	  .flags = CELL_TAB }
};

#define SUMMARY_NRULES	(sizeof summary_rules / sizeof summary_rules[0])

/* One table being written. */
struct summary_out {
	const struct export_opts *o;
	const char		*dir;
	const char		*stamp;
	const char		*name;
	int64_t			 total;		/* rows the query selects */
	int64_t			 rows;		/* rows in the current file */
	int			 slice;
	int			*flags;		/* per column */
	int			 start;		/* op_summary's columns for */
	int			 dur;		/* the wait time, or -1 */
	int			 wait;
	int64_t			 prev_end;	/* of the last row, or NP_NA */
	struct export_file	*ef;
	struct json		*json;		/* the JSON writer of ef */
	struct store_val	*vbuf;		/* a row's values, changed */
	char			**cause;
	bool			 legacy;	/* cells[0] names the file */
	char			*file;		/* the legacy file written */
};

/* The file name of slice I of table NAME with TOTAL rows. */
static char *
export_summary_file_name(const struct export_opts *o, const char *name,
    const char *stamp, int64_t total, int i)
{
	char	*s;

	if (o->format == EXPORT_JSON)
		xasprintf(&s, "%s_%s.json", name, stamp);
	else if (total > SUMMARY_CSV_LIMIT)
		xasprintf(&s, "%s_slice_%d_%s.csv", name, i, stamp);
	else
		xasprintf(&s, "%s_%s.csv", name, stamp);
	return s;
}

static int
export_summary_nfiles(const struct export_opts *o, int64_t total)
{
	if (o->format == EXPORT_JSON || total <= SUMMARY_CSV_LIMIT)
		return 1;
	return (int)((total + SUMMARY_CSV_LIMIT - 1) / SUMMARY_CSV_LIMIT);
}

/* Write a CSV cell, quoted only when it must be. */
static void
export_summary_csv_cell(FILE *f, const char *c, int flags)
{
	bool	 na = *c == '\0' || strcmp(c, "N/A") == 0;

	if ((flags & CELL_SHAPE) && !na) {
		fputs("\"\"\"", f);
		for (; *c != '\0'; c++) {
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fputs("\"\"\"", f);
		return;
	}
	if (strpbrk(c, ",\"\r\n") != NULL) {
		fputc('"', f);
		for (; *c != '\0'; c++) {
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fputc('"', f);
	} else
		fputs(c, f);
	if ((flags & CELL_TAB) && !na)
		fputc('\t', f);
}

static void
export_summary_csv_row(struct summary_out *so, const struct store_rows *hdr,
    char **cells)
{
	size_t	 i;

	for (i = 0; i < hdr->ncols; i++) {
		if (i > 0)
			fputc(',', so->ef->f);
		if (cells == NULL)
			export_summary_csv_cell(so->ef->f, hdr->names[i], 0);
		else
			export_summary_csv_cell(so->ef->f, cells[i],
			    so->flags[i]);
	}
	fputc('\n', so->ef->f);
}

/* A JSON row, as show writes one (store_print_json_row()). */
static void
export_summary_json_row(struct summary_out *so, const struct store_rows *hdr,
    char **cells, const struct store_val *vals)
{
	fputs(so->rows == 0 ? "  " : ",\n  ", so->ef->f);
	json_next(so->json);
	store_print_json_row(so->json, hdr, cells, vals);
}

/* Finish the current file: close the JSON array, rename into place. */
static int
export_summary_close(struct summary_out *so)
{
	int	 rc;

	if (so->ef == NULL)
		return 0;
	if (so->o->format == EXPORT_JSON)
		fputs("\n]\n", so->ef->f);
	json_free(so->json);
	so->json = NULL;
	rc = export_file_commit(so->ef, so->cause);
	so->ef = NULL;
	return rc;
}

static int
export_summary_open(struct summary_out *so, const struct store_rows *hdr)
{
	char	*name;

	if (so->legacy)
		xasprintf(&name, "%s.%s", so->file, so->o->format ==
		    EXPORT_JSON ? "json" : "csv");
	else
		name = export_summary_file_name(so->o, so->name, so->stamp,
		    so->total, so->slice++);
	so->ef = export_file_open(so->dir, name, so->cause);
	free(name);
	if (so->ef == NULL)
		return -1;
	so->rows = 0;
	if (so->o->format == EXPORT_JSON) {
		fputs("[\n", so->ef->f);
		so->json = json_open(so->ef->f);
	} else
		export_summary_csv_row(so, hdr, NULL);
	return 0;
}

/* The columns of HDR that the rules mark for this table. */
static void
export_summary_flags(struct summary_out *so, const struct store_rows *hdr)
{
	size_t	 i, j;

	so->start = so->dur = so->wait = -1;
	so->prev_end = NP_NA;
	for (i = 0; i < hdr->ncols && strcmp(so->name, "op_summary") == 0;
	    i++) {
		if (strcmp(hdr->names[i], "Task Start Time(us)") == 0 ||
		    strcmp(hdr->names[i], "Task Start Time") == 0)
			so->start = (int)i;
		else if (strcmp(hdr->names[i], "Task Duration(us)") == 0)
			so->dur = (int)i;
		else if (strcmp(hdr->names[i], "Task Wait Time(us)") == 0)
			so->wait = (int)i;
	}
	so->flags = xcalloc(hdr->ncols, sizeof *so->flags);
	if (so->o->format == EXPORT_JSON || so->legacy)
		return;
	for (i = 0; i < hdr->ncols; i++) {
		for (j = 0; j < SUMMARY_NRULES; j++) {
			if (strcmp(summary_rules[j].table, so->name) == 0 &&
			    strcmp(summary_rules[j].col, hdr->names[i]) == 0)
				so->flags[i] |= summary_rules[j].flags;
		}
	}
}

/*
 * The ns of a time cell: its stored integer, or the text of a table that
 * keeps its times as text.
 */
static bool
export_summary_ns(const char *cell, const struct store_val *v, int64_t *ns)
{
	if (v->kind == VAL_NS || v->kind == VAL_INT) {
		*ns = v->i;
		return true;
	}
	return util_parse_ns(cell, strlen(cell), ns) == 0;
}

/*
 * The vendor's Task Wait Time (doc/formats.md 8.4): the gap since the end of
 * the row before, at least 0, printed with 6 decimals, and "0" on the
 * first row. A wait the store does not know is computed that way; a
 * known one only takes the vendor's spelling of zero.
 */
static void
export_summary_wait(struct summary_out *so, char **cells,
    struct store_val *vals)
{
	struct store_val	*w = &vals[so->wait];
	int64_t			 start, dur, gap;
	char			 buf[64];
	bool			 ok;

	ok = export_summary_ns(cells[so->start], &vals[so->start],
	    &start) && export_summary_ns(cells[so->dur], &vals[so->dur], &dur);
	if (w->kind == VAL_NONE && strcmp(cells[so->wait], "N/A") == 0 &&
	    ok) {
		gap = so->prev_end == NP_NA ? 0 : start - so->prev_end;
		util_fmt_us(buf, sizeof buf, gap > 0 ? gap : 0, 6, false);
		free(cells[so->wait]);
		cells[so->wait] = xstrdup(so->prev_end == NP_NA ? "0" : buf);
		w->kind = VAL_NS;
		w->i = gap > 0 ? gap : 0;
	} else if ((w->kind == VAL_NS || w->kind == VAL_INT) && w->i == 0 &&
	    so->prev_end != NP_NA) {
		free(cells[so->wait]);
		cells[so->wait] = xstrdup("0.000000");
	}
	so->prev_end = ok ? start + dur : NP_NA;
}

/* The N values VALS as a copy in SO the wait rule may change. */
static const struct store_val *
export_summary_copy(struct summary_out *so, const struct store_val *vals,
    size_t n)
{
	so->vbuf = xreallocarray(so->vbuf, n > 0 ? n : 1, sizeof *so->vbuf);
	memcpy(so->vbuf, vals, n * sizeof *vals);
	return so->vbuf;
}

/*
 * A row of a legacy table: its first cell names its file, the others are
 * written; a new name closes the file and opens the next.
 */
static int
export_summary_legacy_row(struct summary_out *so, const struct store_rows *hdr,
    char **cells, const struct store_val *vals)
{
	struct store_rows	 h = *hdr;

	h.ncols--;
	h.names++;
	h.fmts++;
	if (cells == NULL) {
		export_summary_flags(so, &h);
		return 0;
	}
	if (so->file == NULL || strcmp(so->file, cells[0]) != 0) {
		if (export_summary_close(so) != 0)
			return -1;
		free(so->file);
		so->file = xstrdup(cells[0]);
		so->prev_end = NP_NA;
		if (export_summary_open(so, &h) != 0)
			return -1;
	}
	if (so->wait >= 0 && so->start >= 0 && so->dur >= 0) {
		vals = export_summary_copy(so, vals, hdr->ncols);
		export_summary_wait(so, cells + 1, so->vbuf + 1);
	}
	if (so->o->format == EXPORT_JSON)
		export_summary_json_row(so, &h, cells + 1, vals + 1);
	else
		export_summary_csv_row(so, &h, cells + 1);
	so->rows++;
	return 0;
}

static int
export_summary_row(void *arg, const struct store_rows *hdr, char **cells,
    const struct store_val *vals)
{
	struct summary_out	*so = arg;

	if (so->legacy)
		return export_summary_legacy_row(so, hdr, cells, vals);
	if (cells == NULL) {
		export_summary_flags(so, hdr);
		return 0;
	}
	if (so->ef == NULL || (so->o->format == EXPORT_CSV &&
	    so->rows == SUMMARY_CSV_LIMIT)) {
		if (export_summary_close(so) != 0 || export_summary_open(so,
		    hdr) != 0)
			return -1;
	}
	if (so->wait >= 0 && so->start >= 0 && so->dur >= 0) {
		vals = export_summary_copy(so, vals, hdr->ncols);
		export_summary_wait(so, cells, so->vbuf);
	}
	if (so->o->format == EXPORT_JSON)
		export_summary_json_row(so, hdr, cells, vals);
	else
		export_summary_csv_row(so, hdr, cells);
	so->rows++;
	return 0;
}

/*
 * The tables to write: the store's, without our own info and warnings,
 * and without the trace's spans, lanes, counters and flows, which are no
 * vendor summary file (export timeline writes them); those of O->tables.
 */
static size_t
export_summary_tables(struct store *s, const struct export_opts *o,
    const char ***out)
{
	const char	**names, **v = NULL;
	size_t		  n, i, j, k = 0;
	bool		  cluster;

	n = store_tables_list(s, &names);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "info") == 0 ||
		    strcmp(names[i], "warnings") == 0 ||
		    strcmp(names[i], "spans") == 0 ||
		    strcmp(names[i], "lanes") == 0 ||
		    strcmp(names[i], "counters") == 0 ||
		    strcmp(names[i], "flows") == 0)
			continue;
		cluster = strncmp(names[i], "cluster_", 8) == 0;
		if ((o->tables == EXPORT_TABLES_RANK && cluster) ||
		    (o->tables == EXPORT_TABLES_CLUSTER && !cluster))
			continue;
		for (j = 0; j < k && strcmp(v[j], names[i]) != 0; j++)
			;
		if (j < k)
			continue;
		v = xreallocarray(v, k + 1, sizeof *v);
		v[k++] = names[i];
	}
	free(names);
	*out = v;
	return k;
}

/*
 * The file name of table I: its name, less the "_csv" the store adds to a
 * vendor CSV named like one of its own tables when no other table takes
 * that name. The caller frees it.
 */
static char *
export_summary_base(const char **names, size_t n, size_t i)
{
	size_t	 len = strlen(names[i]), j;
	char	*base;

	if (len <= 4 || strcmp(names[i] + len - 4, "_csv") != 0)
		return xstrdup(names[i]);
	base = xstrndup(names[i], len - 4);
	for (j = 0; j < n; j++) {
		if (strcmp(names[j], base) == 0) {
			free(base);
			return xstrdup(names[i]);
		}
	}
	return base;
}

/*
 * The spec table NAME is written from: the legacy one for a legacy store,
 * with only the columns the input files had (store-mask.c). NULL if a
 * legacy store has no file for it, or with *cause set on an SQL error.
 */
static const struct store_table *
export_summary_table(struct store *s, const char *name,
    const struct store_query *q, char **cause)
{
	const struct store_table	*t = store_tables_find_base(s, name);

	if (t != NULL && store_legacy(s))
		t = store_legacy_table(s, t);
	if (t != NULL)
		t = store_mask_table(s, t, q, cause);
	return t;
}

/* Checking the files a legacy table will be written to. */
struct summary_check {
	const struct export_opts *o;
	const char		*dir;
	char			*last;
	char			**cause;
};

static int
export_summary_check_row(void *arg, const struct store_rows *hdr, char **cells,
    const struct store_val *vals)
{
	struct summary_check	*c = arg;
	char			*path;
	int			 rc;

	(void)hdr;
	(void)vals;
	if (cells == NULL || (c->last != NULL && strcmp(c->last,
	    cells[0]) == 0))
		return 0;
	free(c->last);
	c->last = xstrdup(cells[0]);
	xasprintf(&path, "%s/%s.%s", c->dir, cells[0], c->o->format ==
	    EXPORT_JSON ? "json" : "csv");
	rc = export_file_check_free(path, c->o->force, c->cause);
	free(path);
	return rc;
}

/* Make sure no file of the legacy table T would be overwritten. */
static int
export_summary_check_legacy(struct store *s, const struct store_table *t,
    const struct export_opts *o, const struct store_query *q,
    const char *dir, char **cause)
{
	struct summary_check	 c = { .o = o, .dir = dir, .cause = cause };
	int			 rc;

	rc = store_query_each(s, t, q, export_summary_check_row, &c, cause);
	free(c.last);
	return rc;
}

/* Count each table's rows and make sure no file would be overwritten. */
static int
export_summary_plan(struct store *s, const struct export_opts *o,
    const char *dir,
    const char *stamp, const char **names, size_t n, int64_t *totals,
    char **cause)
{
	const struct store_table	*t;
	struct store_query		 q;
	char				*file, *path, *base, *why;
	size_t				 i;
	int				 j, rc;

	store_query_init(&q);
	q.device = o->device;
	q.rank = o->rank;
	for (i = 0; i < n; i++) {
		why = NULL;
		if ((t = export_summary_table(s, names[i], &q, &why)) == NULL) {
			if (why == NULL)
				continue;
			*cause = why;
			return -1;
		}
		if ((totals[i] = store_query_count(s, t, &q, cause)) < 0)
			return -1;
		if (store_legacy(s)) {
			if (totals[i] > 0 && export_summary_check_legacy(s, t,
			    o, &q, dir, cause) != 0)
				return -1;
			continue;
		}
		for (j = 0; j < export_summary_nfiles(o, totals[i]); j++) {
			if (totals[i] == 0)
				break;
			base = export_summary_base(names, n, i);
			file = export_summary_file_name(o, base, stamp,
			    totals[i], j);
			free(base);
			path = util_path_join(dir, file);
			rc = export_file_check_free(path, o->force, cause);
			free(path);
			free(file);
			if (rc != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * Write the summary files of store S into DIR, time stamp STAMP. Tables
 * without rows get no file, as with the vendor's tool. On failure return
 * -1 and set *cause; files already complete stay.
 */
int
export_summary(struct store *s, const struct export_opts *o, const char *dir,
    const char *stamp, char **cause)
{
	const struct store_table	*t;
	struct summary_out		 so;
	struct store_query		 q;
	const char			**names;
	int64_t				*totals;
	char				*base;
	size_t				 n, i, written = 0;
	int				 rc = 0;

	n = export_summary_tables(s, o, &names);
	totals = xcalloc(n + 1, sizeof *totals);
	if (export_summary_plan(s, o, dir, stamp, names, n, totals, cause) != 0)
		rc = -1;
	store_query_init(&q);
	q.device = o->device;
	q.rank = o->rank;
	for (i = 0; i < n && rc == 0; i++) {
		if (totals[i] == 0)
			continue;
		if ((t = export_summary_table(s, names[i], &q,
		    cause)) == NULL) {
			rc = -1;
			break;
		}
		memset(&so, 0, sizeof so);
		so.legacy = store_legacy(s);
		so.o = o;
		so.dir = dir;
		so.stamp = stamp;
		so.name = base = export_summary_base(names, n, i);
		so.total = totals[i];
		so.cause = cause;
		rc = store_query_each(s, t, &q, export_summary_row, &so, cause);
		if (rc == 0)
			rc = export_summary_close(&so);
		else {
			json_free(so.json);
			export_file_abort(so.ef);
		}
		free(so.flags);
		free(so.vbuf);
		free(so.file);
		free(base);
		written++;
	}
	/* A cluster without cluster tables still has its ranks' files. */
	if (rc == 0 && written == 0 && o->tables != EXPORT_TABLES_CLUSTER) {
		xasprintf(cause, "nothing to export%s", o->device != NP_NA ?
		    " for this device" : "");
		rc = -1;
	}
	free(totals);
	free(names);
	return rc != 0 ? -1 : 0;
}
