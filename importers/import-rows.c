/*
 * The rows every CSV importer shares: op_summary / kernel_details task
 * rows, the tool's own op_statistic and api_statistic, step_trace, and any
 * other vendor CSV kept as a generic table. Columns are found by name;
 * malformed rows are skipped with one warning per file that says where the
 * first one was and how many there were.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv-int.h"

/* Bad cells or rows in one file, reported once when the file is done. */
struct rows_trouble {
	const char	*path;
	int64_t		 bad;
	int64_t		 first_offset;
	char		*first_why;
};

static void
import_rows_trouble_add(struct rows_trouble *t, int64_t offset, const char *why)
{
	if (t->bad++ == 0) {
		t->first_offset = offset;
		t->first_why = xstrdup(why);
	}
}

static void
import_rows_trouble_report(struct store *s, struct rows_trouble *t)
{
	if (t->bad > 0)
		store_load_warning(s, t->path, t->first_offset, "%s (%lld "
		    "row%s)", t->first_why, (long long)t->bad,
		    t->bad == 1 ? "" : "s");
	free(t->first_why);
}

static const char *
import_rows_cell(char **f, size_t n, int col)
{
	if (col < 0 || (size_t)col >= n)
		return NULL;
	return f[col];
}

/* An integer cell: NP_NA when absent or N/A; -2 (and *bad) if not a number. */
static int64_t
import_rows_int(char **f, size_t n, int col, bool *bad)
{
	const char	*c = import_rows_cell(f, n, col);
	int64_t		 v;

	if (c == NULL || util_is_na(c, strlen(c)))
		return NP_NA;
	if (util_parse_int(c, strlen(c), &v) != 0) {
		*bad = true;
		return NP_NA;
	}
	return v;
}

static int64_t
import_rows_ns(char **f, size_t n, int col, bool *bad)
{
	const char	*c = import_rows_cell(f, n, col);
	int64_t		 v;

	if (c == NULL || util_is_na(c, strlen(c)))
		return NP_NA;
	if (util_parse_ns(c, strlen(c), &v) != 0) {
		*bad = true;
		return NP_NA;
	}
	return v;
}

/* A text cell; N/A becomes NULL. */
static const char *
import_rows_str(char **f, size_t n, int col)
{
	const char	*c = import_rows_cell(f, n, col);

	if (c == NULL || util_is_na(c, strlen(c)))
		return NULL;
	return c;
}

/*
 * Shapes arrive pre-quoted by the vendor ("\"32,1024\""): drop the quotes
 * so the store holds the shape itself.
 */
static const char *
import_rows_shape(char **f, size_t n, int col)
{
	char	*c = (char *)import_rows_str(f, n, col);
	size_t	 len;

	if (c == NULL)
		return NULL;
	len = strlen(c);
	if (len >= 2 && c[0] == '"' && c[len - 1] == '"') {
		c[len - 1] = '\0';
		c++;
	}
	return c;
}

/*
 * The device of a row: its Device_id cell, else the unit's device. A
 * cell that is none ("x", "1.5", "-1") sets *BAD: not device 0.
 */
static int64_t
import_rows_device(char **f, size_t n, int col, struct import_ctx *ctx,
    bool *bad)
{
	const char	*c = import_rows_cell(f, n, col);
	int64_t		 v;

	if (c != NULL && strcmp(c, "host") == 0)
		return NP_HOST_DEVICE;
	if (c != NULL && util_parse_int(c, strlen(c), &v) == 0 && v >= 0)
		return v;
	if (c != NULL && !util_is_na(c, strlen(c)))
		*bad = true;
	return ctx->device != NP_NA ? ctx->device : 0;
}

struct rows_file {
	struct csv	*csv;
	struct csv_cols	*cols;
	char		**f;
	size_t		 n;
	char		**head;		/* the header's cells */
	size_t		 nhead;
	int64_t		 repeats;	/* header rows met again */
	int64_t		 repeat_offset;	/* the first one's offset */
};

/*
 * Whether the current row of R has fewer cells (-1) than the NCOLS of its
 * header, or more (1) that are not empty (a trailing comma is none), or
 * as many (0).
 */
static int
import_rows_cells(struct rows_file *r, size_t ncols)
{
	size_t	 i;

	if (r->n < ncols)
		return -1;
	for (i = ncols; i < r->n; i++) {
		if (r->f[i][0] != '\0')
			return 1;
	}
	return 0;
}


/*
 * A cell of column COL that is no essential part of its row (an id, a
 * wait time, a block count): an integer (or with NS, a time in ns) not
 * below 0. Anything else reads as N/A, and *BADCOL, if it is still -1,
 * becomes COL.
 */
static int64_t
import_rows_side(char **f, size_t n, int col, bool ns, int *badcol)
{
	int64_t	 v;
	bool	 bad = false;

	v = ns ? import_rows_ns(f, n, col, &bad) : import_rows_int(f, n, col,
	    &bad);
	if (bad || (v != NP_NA && v < 0)) {
		if (*badcol == -1)
			*badcol = col;
		return NP_NA;
	}
	return v;
}

/*
 * A real number cell, finite and not below 0, or NAN (N/A) with *BADCOL
 * as above.
 */
static double
import_rows_real(char **f, size_t n, int col, int *badcol)
{
	const char	*c = import_rows_cell(f, n, col);
	double		 d;

	if (c == NULL || util_is_na(c, strlen(c)))
		return NAN;
	if (util_parse_double(c, strlen(c), &d) != 0 || !isfinite(d) ||
	    d < 0) {
		if (*badcol == -1)
			*badcol = col;
		return NAN;
	}
	return d;
}

/* Count a row of R whose cell in column BADCOL (not -1) read as N/A. */
static void
import_rows_side_add(struct rows_file *r, struct rows_trouble *t,
    int badcol)
{
	char	*why;

	if (badcol == -1)
		return;
	if (t->bad > 0) {
		t->bad++;
		return;
	}
	xasprintf(&why, "a value that is no number, or is negative, read as "
	    "N/A and the row kept (the first in column '%s')", (size_t)badcol <
	    r->nhead ? r->head[badcol] : "?");
	import_rows_trouble_add(t, import_csv_offset(r->csv), why);
	free(why);
}

/*
 * Count the current row of R, of CELLS (import_rows_cells()) and whose
 * cell in column BADCOL read as N/A (-1: none), in the trouble of its kind:
 * SHORT or LONG, or SIDE (import_rows_side_add()). Where both, a cell is
 * missing or one too many before some column, and every cell after it is
 * out of place: the row is counted in BROKEN, and false returned.
 */
static bool
import_rows_check(struct rows_file *r, int cells, int badcol,
    struct rows_trouble t[4])
{
	if (cells != 0 && badcol != -1) {
		import_rows_trouble_add(&t[3], import_csv_offset(r->csv),
		    "row with a cell more or fewer than the header and values "
		    "that do not fit their columns: its cells are out of "
		    "place, skipped");
		return false;
	}
	if (cells < 0)
		import_rows_trouble_add(&t[0], import_csv_offset(r->csv),
		    "row has fewer cells than the header, the missing ones "
		    "read as N/A");
	else if (cells > 0)
		import_rows_trouble_add(&t[1], import_csv_offset(r->csv),
		    "row has more cells than the header (a comma in a cell "
		    "without quotes?), the extra ones dropped and the others "
		    "read by their place");
	import_rows_side_add(r, &t[2], badcol);
	return true;
}

/* Report and release the four troubles of import_rows_check(). */
static void
import_rows_check_report(struct store *s, struct rows_trouble t[4])
{
	int	 i;

	for (i = 0; i < 4; i++)
		import_rows_trouble_report(s, &t[i]);
}

static int
import_rows_open(struct rows_file *r, const char *path, char **cause)
{
	memset(r, 0, sizeof *r);
	if ((r->csv = import_csv_open(path, cause)) == NULL)
		return -1;
	if (import_csv_header(r->csv, &r->f, &r->n, cause) != 0) {
		import_csv_free(r->csv);
		return -1;
	}
	r->cols = import_columns_create(r->f, r->n);
	r->head = xreallocarray(NULL, r->n + 1, sizeof *r->head);
	for (r->nhead = 0; r->nhead < r->n; r->nhead++)
		r->head[r->nhead] = xstrdup(r->f[r->nhead]);
	return 0;
}

/* Warn about the clashes of R's header (file PATH), if any. */
static void
import_rows_clashes(struct store *s, struct rows_file *r, const char *path)
{
	const char	*what;

	if ((what = import_columns_clashes(r->cols)) != NULL)
		store_load_warning(s, path, 0, "header: %s", what);
}

/* True if the row just read repeats the header (files written twice). */
static bool
import_rows_is_header(struct rows_file *r)
{
	size_t	 i;

	if (r->n != r->nhead)
		return false;
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->f[i], r->head[i]) != 0)
			return false;
	}
	return true;
}

/*
 * The next data row of R: 1, or 0 at the end of the file. A row that
 * repeats the header is skipped and counted.
 */
static int
import_rows_next(struct rows_file *r)
{
	while (import_csv_next(r->csv, &r->f, &r->n) == 1) {
		if (!import_rows_is_header(r))
			return 1;
		if (r->repeats++ == 0)
			r->repeat_offset = import_csv_offset(r->csv);
	}
	return 0;
}

/*
 * Close R; with S, first warn there about rows too big to read and rows
 * that repeat the header.
 */
static void
import_rows_close(struct store *s, struct rows_file *r)
{
	size_t	 i;

	if (s != NULL)
		import_csv_report(r->csv, s);
	if (s != NULL && r->repeats > 0)
		store_load_warning(s, import_csv_path(r->csv), r->repeat_offset,
		    "the header row again, skipped (%lld row%s)",
		    (long long)r->repeats, r->repeats == 1 ? "" : "s");
	for (i = 0; i < r->nhead; i++)
		free(r->head[i]);
	free(r->head);
	import_columns_free(r->cols);
	import_csv_free(r->csv);
}

static void
import_rows_progress(struct store *s, struct rows_file *r, const char *path,
    int64_t row)
{
	if ((row & 0xffff) == 0)
		store_load_progress(s, "reading", path,
		    import_csv_bytes(r->csv), -1);
}

#define COLS(...)	(const char *const[]){ __VA_ARGS__, NULL }

struct rows_summary_cols {
	int	 device, model, task, stream, name, type, state, core, start;
	int	 dur, wait, block, mix, hf32, ish, idt, ifm, osh, odt, ofm;
	int	 ctx, step, mname, infer;
};

static void
import_rows_summary_find(struct csv_cols *c, struct rows_summary_cols *k)
{
	k->device = import_columns_find(c, "Device_id");
	k->model = import_columns_find(c, "Model ID");
	k->task = import_columns_find(c, "Task ID");
	k->stream = import_columns_find(c, "Stream ID");
	k->name = import_columns_find_any(c, COLS("Op Name", "Name"));
	k->type = import_columns_find_any(c, COLS("OP Type", "Type"));
	k->state = import_columns_find(c, "OP State");
	k->core = import_columns_find_any(c, COLS("Task Type",
	    "Accelerator Core"));
	k->start = import_columns_find_any(c, COLS("Task Start Time(us)",
	    "Start Time(us)", "Task Start Time"));
	k->dur = import_columns_find_any(c, COLS("Task Duration(us)",
	    "Duration(us)"));
	k->wait = import_columns_find_any(c, COLS("Task Wait Time(us)",
	    "Wait Time(us)"));
	k->block = import_columns_find_any(c, COLS("Block Num", "Block Dim"));
	k->mix = import_columns_find_any(c, COLS("Mix Block Num",
	    "Mix Block Dim"));
	k->hf32 = import_columns_find(c, "HF32 Eligible");
	k->ish = import_columns_find(c, "Input Shapes");
	k->idt = import_columns_find(c, "Input Data Types");
	k->ifm = import_columns_find(c, "Input Formats");
	k->osh = import_columns_find(c, "Output Shapes");
	k->odt = import_columns_find(c, "Output Data Types");
	k->ofm = import_columns_find(c, "Output Formats");
	k->ctx = import_columns_find(c, "Context ID");
	k->step = import_columns_find(c, "Step Id");
	k->mname = import_columns_find(c, "Model Name");
	k->infer = import_columns_find(c, "Infer ID");
}

/* The task columns a file has, by the task table's names. */
static char *
import_rows_task_cols(const struct rows_summary_cols *k)
{
	const struct {
		int		 col;
		const char	*name;
	} v[] = {
		{ k->model, "model_id" }, { k->task, "task" },
		{ k->stream, "stream" }, { k->name, "name" },
		{ k->type, "op_type" }, { k->state, "op_state" },
		{ k->core, "task_type" }, { k->start, "start_ns" },
		{ k->dur, "dur_ns" }, { k->wait, "wait_ns" },
		{ k->block, "block_num" }, { k->mix, "mix_block_num" },
		{ k->hf32, "hf32" }, { k->ish, "in_shapes" },
		{ k->idt, "in_dtypes" }, { k->ifm, "in_formats" },
		{ k->osh, "out_shapes" }, { k->odt, "out_dtypes" },
		{ k->ofm, "out_formats" }, { k->ctx, "context" },
		{ k->step, "step" }, { k->step < 0 ? k->infer : -1, "infer" },
		{ k->mname, "model_name" }
	};
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		if (v[i].col >= 0)
			strbuf_addf(&b, "%s%s", b.len > 0 ? "," : "",
			    v[i].name);
	}
	return strbuf_detach(&b);
}

/*
 * The PMU columns: every column not asked for by name, their names packed
 * into B and their indexes into *IDX, *N of them.
 */
static void
import_rows_pmu_names(struct csv_cols *c, struct strbuf *b, int **idx,
    size_t *n)
{
	size_t	 i;

	*idx = NULL;
	*n = 0;
	for (i = 0; i < import_columns_count(c); i++) {
		if (!import_columns_unused(c, i))
			continue;
		store_pmu_name(b, import_columns_name(c, i));
		*idx = xreallocarray(*idx, *n + 1, sizeof **idx);
		(*idx)[(*n)++] = (int)i;
	}
}

/* The PMU values of a row, packed into B; a missing cell is N/A. */
static void
import_rows_pmu_values(struct strbuf *b, char **f, size_t n, const int *idx,
    size_t np)
{
	const char	*c;
	size_t		 i;

	strbuf_reset(b);
	for (i = 0; i < np; i++) {
		c = import_rows_cell(f, n, idx[i]);
		store_pmu_text(b, c != NULL ? c : "", c != NULL ? strlen(c) :
		    0);
	}
}

/*
 * Load an op_summary or kernel_details CSV: one task per row. Rows without
 * a start time or duration are skipped and reported.
 */
int
import_rows_op_summary(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	struct rows_file		 r;
	struct rows_summary_cols	 k;
	struct rows_trouble		 tr = { .path = path };
	struct rows_trouble		 tc[4] = { { .path = path },
	    { .path = path }, { .path = path }, { .path = path } };
	struct store_task		 t;
	struct strbuf			 pv, pmu;
	char				*names;
	int				*pidx;
	size_t				 np;
	int64_t				 row = 0;
	int				 badcol, cells;
	bool				 bad;

	if (import_rows_open(&r, path, cause) != 0)
		return -1;
	import_rows_summary_find(r.cols, &k);
	import_rows_clashes(s, &r, path);
	if (k.start == -1 || k.dur == -1) {
		xasprintf(cause, "'%s' has no start time or duration column",
		    path);
		import_rows_close(s, &r);
		return -1;
	}
	strbuf_init(&pmu);
	import_rows_pmu_names(r.cols, &pmu, &pidx, &np);
	store_load_pmu_names(s, &pmu);
	names = import_rows_task_cols(&k);
	store_load_task_cols(s, names);
	free(names);
	strbuf_init(&pv);
	/* SQLite writes the rows on another core while this one parses. */
	store_load_async_begin(s);
	while (import_rows_next(&r) == 1) {
		import_rows_progress(s, &r, path, ++row);
		memset(&t, 0, sizeof t);
		bad = false;
		badcol = -1;
		t.device = import_rows_device(r.f, r.n, k.device, ctx, &bad);
		t.rank = ctx->rank;
		t.start_ns = import_rows_ns(r.f, r.n, k.start, &bad);
		t.dur_ns = import_rows_ns(r.f, r.n, k.dur, &bad);
		/*
		 * No tool writes a negative start time or duration: a
		 * damaged row.
		 */
		if ((t.dur_ns != NP_NA && t.dur_ns < 0) ||
		    (t.start_ns != NP_NA && t.start_ns < 0))
			bad = true;
		if (bad || t.start_ns == NP_NA || t.dur_ns == NP_NA) {
			import_rows_trouble_add(&tr, import_csv_offset(r.csv),
			    "row without a readable start time and duration "
			    "(neither negative) or device, skipped");
			continue;
		}
		cells = import_rows_cells(&r, import_columns_count(r.cols));
		/* The other numbers: one that cannot be read is N/A. */
		t.model_id = import_rows_side(r.f, r.n, k.model, false,
		    &badcol);
		t.task = import_rows_side(r.f, r.n, k.task, false, &badcol);
		t.stream = import_rows_side(r.f, r.n, k.stream, false,
		    &badcol);
		t.batch = NP_NA;
		t.context = import_rows_side(r.f, r.n, k.ctx, false, &badcol);
		t.wait_ns = import_rows_side(r.f, r.n, k.wait, true, &badcol);
		t.block_num = import_rows_side(r.f, r.n, k.block, false,
		    &badcol);
		t.mix_block_num = import_rows_side(r.f, r.n, k.mix, false,
		    &badcol);
		t.step = import_rows_side(r.f, r.n, k.step >= 0 ? k.step :
		    k.infer, false, &badcol);
		if (k.step < 0 && k.infer < 0)
			t.step = ctx->iter;
		if (!import_rows_check(&r, cells, badcol, tc))
			continue;
		t.conn = t.api = NP_NA;
		t.name = import_rows_str(r.f, r.n, k.name);
		t.op_type = import_rows_str(r.f, r.n, k.type);
		t.op_state = import_rows_str(r.f, r.n, k.state);
		t.task_type = import_rows_str(r.f, r.n, k.core);
		t.hf32 = import_rows_str(r.f, r.n, k.hf32);
		t.in_shapes = import_rows_shape(r.f, r.n, k.ish);
		t.in_dtypes = import_rows_str(r.f, r.n, k.idt);
		t.in_formats = import_rows_str(r.f, r.n, k.ifm);
		t.out_shapes = import_rows_shape(r.f, r.n, k.osh);
		t.out_dtypes = import_rows_str(r.f, r.n, k.odt);
		t.out_formats = import_rows_str(r.f, r.n, k.ofm);
		t.model_name = import_rows_str(r.f, r.n, k.mname);
		if (np > 0) {
			import_rows_pmu_values(&pv, r.f, r.n, pidx, np);
			t.pmu = pv.s;
			t.pmu_len = pv.len;
		}
		store_load_task(s, &t);
	}
	store_load_async_end(s);
	import_rows_trouble_report(s, &tr);
	import_rows_check_report(s, tc);
	store_load_pmu_names(s, NULL);
	store_load_task_cols(s, NULL);
	strbuf_release(&pv);
	strbuf_release(&pmu);
	free(pidx);
	import_rows_close(s, &r);
	return 0;
}

/* Load the tool's own op_statistic CSV. */
int
import_rows_op_statistic(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	struct rows_file	 r;
	struct rows_trouble	 tr = { .path = path };
	struct rows_trouble	 tc[4] = { { .path = path }, { .path = path },
	    { .path = path }, { .path = path } };
	struct store_op_stat	 o;
	int			 dev, type, core, count, total, min, avg, max;
	int			 ratio, mname, badcol, cells;
	bool			 bad;

	if (import_rows_open(&r, path, cause) != 0)
		return -1;
	mname = import_columns_find(r.cols, "Model Name");
	dev = import_columns_find(r.cols, "Device_id");
	type = import_columns_find(r.cols, "OP Type");
	core = import_columns_find(r.cols, "Core Type");
	count = import_columns_find(r.cols, "Count");
	total = import_columns_find(r.cols, "Total Time(us)");
	min = import_columns_find(r.cols, "Min Time(us)");
	avg = import_columns_find(r.cols, "Avg Time(us)");
	max = import_columns_find(r.cols, "Max Time(us)");
	ratio = import_columns_find(r.cols, "Ratio(%)");
	if (type == -1 || total == -1 || count == -1) {
		xasprintf(cause, "'%s' has no OP Type, Count or Total Time(us) "
		    "column", path);
		import_rows_close(s, &r);
		return -1;
	}
	import_rows_clashes(s, &r, path);
	while (import_rows_next(&r) == 1) {
		memset(&o, 0, sizeof o);
		bad = false;
		badcol = -1;
		o.device = import_rows_device(r.f, r.n, dev, ctx, &bad);
		o.rank = ctx->rank;
		o.op_type = import_rows_str(r.f, r.n, type);
		o.core_type = import_rows_str(r.f, r.n, core);
		o.count = import_rows_int(r.f, r.n, count, &bad);
		o.total_ns = import_rows_ns(r.f, r.n, total, &bad);
		if (bad || o.count == NP_NA || o.total_ns == NP_NA ||
		    o.count < 0 || o.total_ns < 0) {
			import_rows_trouble_add(&tr, import_csv_offset(r.csv),
			    "row without a readable device, Count or Total "
			    "Time(us) (neither negative), skipped");
			continue;
		}
		cells = import_rows_cells(&r, import_columns_count(r.cols));
		o.min_ns = import_rows_side(r.f, r.n, min, true, &badcol);
		o.avg_ns = import_rows_side(r.f, r.n, avg, true, &badcol);
		o.max_ns = import_rows_side(r.f, r.n, max, true, &badcol);
		o.model_id = ctx->model;
		o.iter = ctx->iter;
		o.model_name = import_rows_str(r.f, r.n, mname);
		o.ratio = import_rows_real(r.f, r.n, ratio, &badcol);
		if (!import_rows_check(&r, cells, badcol, tc))
			continue;
		store_load_op_stat(s, &o);
	}
	import_rows_trouble_report(s, &tr);
	import_rows_check_report(s, tc);
	import_rows_close(s, &r);
	return 0;
}

/* Load the tool's own api_statistic CSV. */
int
import_rows_api_statistic(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	struct rows_file	 r;
	struct rows_trouble	 tr = { .path = path };
	struct rows_trouble	 tc[4] = { { .path = path }, { .path = path },
	    { .path = path }, { .path = path } };
	struct store_api_stat	 a;
	int			 dev, level, name, time, count, avg, min, max;
	int			 var, badcol, cells;
	bool			 bad;

	if (import_rows_open(&r, path, cause) != 0)
		return -1;
	dev = import_columns_find(r.cols, "Device_id");
	level = import_columns_find(r.cols, "Level");
	name = import_columns_find(r.cols, "API Name");
	time = import_columns_find(r.cols, "Time(us)");
	count = import_columns_find(r.cols, "Count");
	avg = import_columns_find(r.cols, "Avg(us)");
	min = import_columns_find(r.cols, "Min(us)");
	max = import_columns_find(r.cols, "Max(us)");
	var = import_columns_find(r.cols, "Variance");
	if (name == -1 || time == -1 || count == -1) {
		xasprintf(cause, "'%s' has no API Name, Time(us) or Count "
		    "column", path);
		import_rows_close(s, &r);
		return -1;
	}
	import_rows_clashes(s, &r, path);
	while (import_rows_next(&r) == 1) {
		memset(&a, 0, sizeof a);
		bad = false;
		badcol = -1;
		a.device = dev >= 0 ? import_rows_device(r.f, r.n, dev, ctx,
		    &bad) : NP_HOST_DEVICE;
		a.rank = ctx->rank;
		a.level = import_rows_str(r.f, r.n, level);
		a.name = import_rows_str(r.f, r.n, name);
		a.total_ns = import_rows_ns(r.f, r.n, time, &bad);
		a.count = import_rows_int(r.f, r.n, count, &bad);
		if (bad || a.name == NULL || a.total_ns == NP_NA ||
		    a.total_ns < 0 || (a.count != NP_NA && a.count < 0)) {
			import_rows_trouble_add(&tr, import_csv_offset(r.csv),
			    "row without an API Name or a readable device, "
			    "Time(us) or Count (neither negative), skipped");
			continue;
		}
		cells = import_rows_cells(&r, import_columns_count(r.cols));
		a.avg_ns = import_rows_side(r.f, r.n, avg, true, &badcol);
		a.min_ns = import_rows_side(r.f, r.n, min, true, &badcol);
		a.max_ns = import_rows_side(r.f, r.n, max, true, &badcol);
		a.variance = import_rows_real(r.f, r.n, var, &badcol);
		if (!import_rows_check(&r, cells, badcol, tc))
			continue;
		store_load_api_stat(s, &a);
	}
	import_rows_trouble_report(s, &tr);
	import_rows_check_report(s, tc);
	import_rows_close(s, &r);
	return 0;
}

/* Load an msprof or legacy step_trace CSV. */
int
import_rows_step_trace(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	struct rows_file	 r;
	struct rows_trouble	 tr = { .path = path };
	struct store_step	 st;
	int			 c[10];
	bool			 bad;

	if (import_rows_open(&r, path, cause) != 0)
		return -1;
	c[0] = import_columns_find(r.cols, "Device_id");
	c[1] = import_columns_find(r.cols, "Iteration ID");
	c[2] = import_columns_find_any(r.cols, COLS("FP Start(us)",
	    "FP Start"));
	c[3] = import_columns_find_any(r.cols, COLS("BP End(us)", "BP End"));
	c[4] = import_columns_find_any(r.cols, COLS("Iteration End(us)",
	    "Iteration End"));
	c[5] = import_columns_find(r.cols, "Iteration Time(us)");
	c[6] = import_columns_find(r.cols, "FP to BP Time(us)");
	c[7] = import_columns_find(r.cols, "Iteration Refresh(us)");
	c[8] = import_columns_find(r.cols, "Data Aug Bound(us)");
	c[9] = import_columns_find(r.cols, "Model ID");
	import_rows_clashes(s, &r, path);
	if (c[1] == -1) {
		xasprintf(cause, "'%s' has no Iteration ID column", path);
		import_rows_close(s, &r);
		return -1;
	}
	while (import_rows_next(&r) == 1) {
		bad = false;
		st.device = import_rows_device(r.f, r.n, c[0], ctx, &bad);
		st.rank = ctx->rank;
		st.iter = import_rows_int(r.f, r.n, c[1], &bad);
		st.fp_start_ns = import_rows_ns(r.f, r.n, c[2], &bad);
		st.bp_end_ns = import_rows_ns(r.f, r.n, c[3], &bad);
		st.iter_end_ns = import_rows_ns(r.f, r.n, c[4], &bad);
		st.iter_time_ns = import_rows_ns(r.f, r.n, c[5], &bad);
		st.fp_bp_ns = import_rows_ns(r.f, r.n, c[6], &bad);
		st.refresh_ns = import_rows_ns(r.f, r.n, c[7], &bad);
		st.data_aug_ns = import_rows_ns(r.f, r.n, c[8], &bad);
		st.model_id = c[9] >= 0 ? import_rows_int(r.f, r.n, c[9],
		    &bad) : ctx->model;
		if (bad || st.iter == NP_NA) {
			import_rows_trouble_add(&tr, import_csv_offset(r.csv),
			    "bad number in row, skipped");
			continue;
		}
		store_load_step(s, &st);
	}
	import_rows_trouble_report(s, &tr);
	import_rows_close(s, &r);
	return 0;
}

/*
 * Keep any other vendor CSV as the generic table NAME, every cell as text,
 * so show and sqlite3 can read it.
 */
int
import_rows_generic(struct store *s, const char *path, const char *name,
    struct import_ctx *ctx, char **cause)
{
	struct rows_file	 r;
	struct rows_trouble	 tr = { .path = path };
	struct rows_trouble	 trm = { .path = path };
	struct import_memory	 mem;
	int64_t			 row = 0;
	size_t			 ncols;
	bool			 keyed;

	if (import_rows_open(&r, path, cause) != 0)
		return -1;
	ncols = r.n;
	/* A row per key, as long as its values: short rows are its layout. */
	keyed = strcmp(name, "minddata_pipeline_summary") == 0;
	/* torch_npu's memory over time: a chart in the timeline too. */
	memset(&mem, 0, sizeof mem);
	if (strcmp(name, "memory_record") == 0)
		import_memory_init(&mem, r.cols);
	import_rows_clashes(s, &r, path);
	if (ncols > STORE_GENERIC_MAX_COLS)
		store_load_warning(s, path, 0, "%zu columns; only the first "
		    "%d are kept", ncols, STORE_GENERIC_MAX_COLS);
	if (store_load_generic_begin(s, name, ctx->device, ctx->rank, r.f,
	    r.n, cause) != 0) {
		import_rows_close(s, &r);
		return -1;
	}
	while (import_rows_next(&r) == 1) {
		import_rows_progress(s, &r, path, ++row);
		if (r.n != ncols && !(keyed && r.n < ncols))
			import_rows_trouble_add(&tr, import_csv_offset(r.csv),
			    r.n < ncols ?
			    "row has fewer cells than the header, the missing "
			    "ones read as N/A" : "row has more cells than the "
			    "header, the extra ones dropped");
		store_load_generic_row(s, r.f, r.n);
		if (import_memory_row(s, &mem, r.f, r.n, ctx) != 0)
			import_rows_trouble_add(&trm, import_csv_offset(r.csv),
			    "no time, or a time or memory value that is not a "
			    "finite number: kept in the table, left out of the "
			    "memory chart");
	}
	import_rows_trouble_report(s, &tr);
	import_rows_trouble_report(s, &trm);
	import_rows_close(s, &r);
	return 0;
}

/* Names the store uses itself; a vendor CSV of that name gets "_csv". */
static const char *const rows_reserved[] = {
	"meta", "manifest", "input", "warning", "str", "task", "pmu_set",
	"task_pmu", "api", "op_stat", "api_stat", "step", "generic",
	"strings", "op_summary", "kernels", "op_stat_best", "api_stat_best",
	"op_statistic", "api_statistic", "step_trace", "api_spans", "info",
	"warnings", "lane", "counter", "flow", "counters", "flows",
	/* Tables other files and the cluster analysis fill. */
	"communication", "communication_bandwidth", "communication_matrix",
	"distributed_args", "parallel_group_info", "cluster_step_trace_time",
	"cluster_communication", "cluster_communication_bandwidth",
	"cluster_communication_matrix", "cluster_findings", NULL
};

/*
 * The table a vendor CSV file name stands for: the name without ".csv",
 * "_slice_N", a "_YYYYMMDDhhmmss" stamp or the legacy "_dev_model_iter"
 * (and SVP "_dev.model...") numbers. Set *DEVICE to the legacy device
 * number when the name has one. The caller frees the result.
 */
char *
import_rows_base(const char *file, int64_t *device)
{
	char	*b, *p, *q;
	int64_t	 v;

	*device = NP_NA;
	b = xstrdup(util_basename(file));
	if ((p = strrchr(b, '.')) != NULL && strcasecmp(p, ".csv") == 0)
		*p = '\0';
	while ((p = strstr(b, "_slice_")) != NULL) {
		q = p + 7;
		while (*q >= '0' && *q <= '9')
			q++;
		memmove(p, q, strlen(q) + 1);
	}
	for (p = b; (p = strchr(p, '_')) != NULL; p++) {
		if (p[1] < '0' || p[1] > '9')
			continue;
		q = p + 1;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q - p - 1 != 14 && util_parse_int(p + 1,
		    (size_t)(q - p - 1), &v) == 0)
			*device = v;
		*p = '\0';
		break;
	}
	return b;
}

/* The numbers of a legacy name's "_<n>_<n>..._<n>" tail, or -1. */
static int
import_rows_legacy_numbers(const char *p, int64_t *v, int max)
{
	const char	*q;
	int		 n = 0;

	for (; *p == '_' && n < max; p = q) {
		for (q = ++p; *q >= '0' && *q <= '9'; q++)
			;
		if (q == p || util_parse_int(p, (size_t)(q - p), &v[n++]) != 0)
			return -1;
	}
	return *p == '\0' ? n : -1;
}

/*
 * If FILE has a legacy name, <name>_<device>_<model>[_<count>]_<iter>.csv
 * (or .json, as legacy timelines) or the SVP op_summary_<device>.<model
 * name>.<model>.<batch>.<pics>.<count>.<icache>.<freq>.csv, return the
 * name without its extension (the caller frees it) and set *MODEL and
 * *ITER (NP_NA when the name has none); else return NULL.
 */
char *
import_rows_legacy(const char *file, int64_t *model, int64_t *iter)
{
	char	*b, *p, *dot;
	int64_t	 v[8];
	int	 n, i;

	*model = *iter = NP_NA;
	b = xstrdup(util_basename(file));
	if ((p = strrchr(b, '.')) != NULL && (strcasecmp(p, ".csv") == 0 ||
	    strcasecmp(p, ".json") == 0))
		*p = '\0';
	for (p = b; (p = strchr(p, '_')) != NULL; p++) {
		if (p[1] >= '0' && p[1] <= '9')
			break;
	}
	if (p != NULL && (n = import_rows_legacy_numbers(p, v, 8)) >= 3) {
		*model = v[1];
		*iter = v[n - 1];
		return b;
	}
	/* SVP: the model name may hold dots, so count from the end. */
	if (p != NULL && (dot = strchr(p, '.')) != NULL) {
		for (i = 0, p = b + strlen(b); i < 6 && p > dot; i++) {
			while (p > dot && p[-1] != '.')
				p--;
			if (i == 5 && util_parse_int(p, strcspn(p, "."),
			    model) != 0)
				*model = NP_NA;
			p--;
		}
		if (i == 6 && *model != NP_NA)
			return b;
	}
	free(b);
	return NULL;
}

static bool
import_rows_has_column(const char *path, const char *name)
{
	struct rows_file	 r;
	char			*cause = NULL;
	bool			 found;

	if (import_rows_open(&r, path, &cause) != 0) {
		free(cause);
		return false;
	}
	found = import_columns_find(r.cols, name) != -1;
	import_rows_close(NULL, &r);
	return found;
}

/*
 * Import one vendor CSV by what its name says it holds. On failure return
 * -1 and set *cause.
 */
int
import_rows_file(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct import_ctx	 fctx = *ctx;
	char			*base, *name, *legacy;
	int64_t			 device;
	int			 rc;
	size_t			 i;

	base = import_rows_base(path, &device);
	if (device != NP_NA && fctx.device == NP_NA)
		fctx.device = device;
	legacy = import_rows_legacy(path, &fctx.model, &fctx.iter);
	store_load_legacy(s, legacy);
	store_load_file(s, path);
	if (strcmp(base, "op_summary") == 0 && import_rows_has_column(path,
	    "Layer Id"))
		rc = import_svp_aa_core(s, path, &fctx, cause);
	else if (strcmp(base, "op_summary") == 0 ||
	    strcmp(base, "kernel_details") == 0)
		rc = import_rows_op_summary(s, path, &fctx, cause);
	else if (strcmp(base, "op_statistic") == 0
	    && import_rows_has_column(path, "OP Type"))
		rc = import_rows_op_statistic(s, path, &fctx, cause);
	else if (strcmp(base, "api_statistic") == 0)
		rc = import_rows_api_statistic(s, path, &fctx, cause);
	else if (strcmp(base, "step_trace") == 0 && import_rows_has_column(path,
	    "Iteration ID"))
		rc = import_rows_step_trace(s, path, &fctx, cause);
	else {
		name = NULL;
		for (i = 0; rows_reserved[i] != NULL; i++) {
			if (strcmp(base, rows_reserved[i]) == 0)
				xasprintf(&name, "%s_csv", base);
		}
		rc = import_rows_generic(s, path, name != NULL ? name : base,
		    &fctx, cause);
		free(name);
	}
	store_load_legacy(s, NULL);
	free(legacy);
	free(base);
	return rc;
}

/*
 * Where the "_YYYYMMDDhhmmss" stamp of an export's file NAME starts (an
 * underscore, 14 digits, then '.', '_' or the end), or NULL.
 */
static const char *
import_rows_stamp(const char *name)
{
	const char	*p;
	size_t		 i;

	for (p = name; (p = strchr(p, '_')) != NULL; p++) {
		for (i = 1; i <= 14 && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == 15 && (p[15] == '.' || p[15] == '_' || p[15] ==
		    '\0'))
			return p;
	}
	return NULL;
}

/* What an export's file name says: its stamp, slice and the rest. */
struct rows_export_name {
	char		*key;		/* the name without stamp and slice */
	int64_t		 secs;		/* the stamp, in seconds */
	char		 stamp[15];
	int64_t		 slice;		/* -1: none */
};

/* Seconds since 1970 of the civil time Y-M-D h:m:s (proleptic UTC). */
static int64_t
import_rows_civil(int64_t y, int64_t m, int64_t d, int64_t hms)
{
	int64_t	 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468) * 86400 + hms;
}

/* Read NAME into E; false if it has no stamp. */
static bool
import_rows_export_name(const char *name, struct rows_export_name *e)
{
	const char	*st = import_rows_stamp(name), *sl;
	char		*k;
	int64_t		 v[6];
	int		 i, w[6] = { 4, 2, 2, 2, 2, 2 }, at = 1;

	if (st == NULL)
		return false;
	memcpy(e->stamp, st + 1, 14);
	e->stamp[14] = '\0';
	for (i = 0; i < 6; i++) {
		util_parse_int(st + at, (size_t)w[i], &v[i]);
		at += w[i];
	}
	e->secs = import_rows_civil(v[0], v[1], v[2], v[3] * 3600 + v[4] *
	    60 + v[5]);
	/* The key: the name less "_<stamp>" and "_slice_<n>". */
	xasprintf(&k, "%.*s%s", (int)(st - name), name, st + 15);
	e->slice = -1;
	if ((sl = strstr(k, "_slice_")) != NULL) {
		for (i = 7; sl[i] >= '0' && sl[i] <= '9'; i++)
			;
		if (i > 7) {
			util_parse_int(sl + 7, (size_t)(i - 7), &e->slice);
			memmove(k + (sl - k), sl + i, strlen(sl + i) + 1);
		}
	}
	e->key = k;
	return true;
}

static int
import_rows_export_cmp(const void *a, const void *b)
{
	const struct rows_export_name	*x = a, *y = b;

	return strcmp(y->stamp, x->stamp);	/* latest first */
}

/*
 * If NAMES[I] (of the N in one folder) is a file of an export that a later
 * one in the same folder replaced, return the later one's name, else
 * NULL. msprof exports again into the folder it exported to before, each
 * file stamped with the second its name was made: reading both would count
 * every row twice. The latest export of a table is its file of the latest
 * stamp and, if that is a slice, the other slices before it, each number
 * once and each within a minute of the one after it (slices are named as
 * they are written); every other file of the table is an older export's,
 * whatever its slices.
 */
const char *
import_rows_superseded(char **names, size_t n, size_t i)
{
	struct rows_export_name	 me, *v;
	const char		*latest = NULL;
	size_t			 j, nv = 0, k, m;
	bool			 mine = false, dup;

	if (!import_rows_export_name(names[i], &me))
		return NULL;
	v = xcalloc(n, sizeof *v);
	for (j = 0; j < n; j++) {
		if (!import_rows_export_name(names[j], &v[nv]))
			continue;
		if (strcmp(v[nv].key, me.key) != 0) {
			free(v[nv].key);
			continue;
		}
		free(v[nv].key);
		v[nv++].key = names[j] == names[i] ? NULL : names[j];
	}
	/* The keys of v are now the names (NULL: NAMES[I] itself). */
	qsort(v, nv, sizeof *v, import_rows_export_cmp);
	for (k = 0; k < nv; k++) {
		if (k > 0) {
			for (dup = false, m = 0; m < k; m++)
				dup = dup || v[m].slice == v[k].slice;
			if (v[0].slice < 0 || v[k].slice < 0 || dup ||
			    v[k - 1].secs - v[k].secs > 60)
				break;
		}
		mine = mine || v[k].key == NULL;
	}
	if (!mine && nv > 0)
		latest = v[0].key;
	free(v);
	free(me.key);
	return latest;
}

/*
 * Import every CSV in DIR, in name order, but those a later export in DIR
 * wrote again (a warning each). A file that fails is a warning; return -1
 * (and set *cause) only if DIR holds no CSV that loads.
 */
int
import_rows_dir(struct store *s, const char *dir, struct import_ctx *ctx,
    char **cause)
{
	char		**names, *path, *why = NULL;
	const char	 *later;
	size_t		  n, i, ok = 0, tried = 0;

	names = util_dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		if (!util_has_suffix(names[i], ".csv"))
			continue;
		tried++;
		path = util_path_join(dir, names[i]);
		if ((later = import_rows_superseded(names, n, i)) != NULL) {
			store_load_warning(s, path, -1, "not read: '%s' is a "
			    "later export of the same table into this folder, "
			    "and both would count every row twice", later);
			free(path);
			continue;
		}
		store_load_progress(s, "reading", path, 0, -1);
		if (import_rows_file(s, path, ctx, &why) != 0) {
			store_load_warning(s, path, -1, "%s", why);
			free(why);
			why = NULL;
		} else
			ok++;
		free(path);
	}
	util_strv_free(names, n);
	if (ok == 0) {
		xasprintf(cause, "'%s' has no CSV that could be read (%zu "
		    "tried)", dir, tried);
		return -1;
	}
	return 0;
}
