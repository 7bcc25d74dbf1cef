/*
 * The Compare view of --compare BASE NEW: one of the comparison tables of
 * the two runs (kernel_compare, api_compare, communication_compare,
 * overall, op_compare, memory_compare, op_statistic_compare,
 * api_statistic_compare; t goes to the next) as show prints it, with a
 * Diff column
 * (NEW's total less BASE's); rows sorted by the size of that difference,
 * largest first (communication_compare: in the tool's order, an op's
 * tasks after it; overall: in its own order, parts under their whole),
 * or (> < I) on any column; a row that got slower is hot, one that got
 * faster green. It opens over the Summary tab of NEW, the store every
 * other view shows. Tables are made in the background
 * (store-job.c) and kept, so a new sort is at once.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* Sorts besides a column's: |Diff|, and the order the table comes in. */
enum { COMPARE_TOOL = -2, COMPARE_DIFF = -1 };

static const struct {
	const char	*title;
	struct store_rows *(*make)(struct store *, struct store *,
			     const struct store_compare *, char **);
	const char	*base;		/* the totals the Diff column takes */
	const char	*cmp;
	const char	*ratio;		/* better or worse */
	int		 order;		/* rows go together: sort first by */
} view_compare_tables[] = {
	{ "Kernel compare", store_compare_kernels, "Base Total Duration(us)",
	  "Comparison Total Duration(us)", "Diff Total Ratio", COMPARE_DIFF },
	{ "API compare", store_compare_apis, "Base Total Duration(ms)",
	  "Comparison Total Duration(ms)", "Diff Total Ratio", COMPARE_DIFF },
	/* An op kind's rows of tasks follow it (Order Id). */
	{ "Communication compare", store_compare_comms,
	  "Base Total Duration(us)", "Comparison Total Duration(us)",
	  "Diff Ratio", 0 },
	/* Parts follow their whole. */
	{ "Overall", store_compare_overall, "Base Duration(ms)",
	  "Comparison Duration(ms)", "Diff Ratio", COMPARE_TOOL },
	{ "Operator compare", store_compare_ops, "Base Device Duration(ms)",
	  "Comparison Device Duration(ms)", "Diff Ratio", COMPARE_DIFF },
	{ "Memory compare", store_compare_memory,
	  "Base Allocated Memory(MB)", "Comparison Allocated Memory(MB)",
	  "Diff Ratio", COMPARE_DIFF },
	{ "Op statistic compare", store_compare_op_stats,
	  "Base Total Time(us)", "Comparison Total Time(us)", "Diff Ratio",
	  COMPARE_DIFF },
	{ "API statistic compare", store_compare_api_stats, "Base Time(us)",
	  "Comparison Time(us)", "Diff Ratio", COMPARE_DIFF }
};

#define COMPARE_NTABLES \
	(sizeof view_compare_tables / sizeof view_compare_tables[0])

/* What the keys chose; it outlives the view, as the Cluster view's does. */
static size_t	 view_compare_table;
static int	 view_compare_sort = COMPARE_DIFF;	/* or a column */
static int	 view_compare_ncols;		/* of the table shown */
static bool	 view_compare_asc;
static char	 view_compare_sorted[64] = "|Diff|";

/* R with a Diff column more: NEW's total less BASE's, of table K. */
static struct store_rows *
view_compare_diff(const struct store_rows *r, size_t k)
{
	struct store_rows	*d;
	struct store_val	*vals;
	char			**cells, buf[64];
	int			 b = store_rows_col(r, view_compare_tables[k].base);
	int			 c = store_rows_col(r, view_compare_tables[k].cmp);
	size_t			 i, j, n = r->ncols + 1;
	double			 v;

	d = store_rows_create(n);
	for (j = 0; j < r->ncols; j++) {
		d->names[j] = xstrdup(r->names[j]);
		d->fmts[j] = r->fmts[j];
	}
	d->names[r->ncols] = xstrdup("Diff");
	d->fmts[r->ncols] = FMT_REAL;
	cells = xcalloc(n, sizeof *cells);
	vals = xcalloc(n, sizeof *vals);
	for (i = 0; i < r->nrows; i++) {
		for (j = 0; j < r->ncols; j++) {
			cells[j] = xstrdup(store_rows_cell(r, i, j));
			vals[j] = r->vals[i * r->ncols + j];
		}
		v = b < 0 || c < 0 ? 0 : store_rows_num(r, i, (size_t)c) -
		    store_rows_num(r, i, (size_t)b);
		if (isnan(v))
			v = 0;
		util_fmt_fixed(buf, sizeof buf, v, 3, true);
		cells[r->ncols] = xstrdup(buf);
		vals[r->ncols].kind = VAL_REAL;
		vals[r->ncols].d = v;
		store_rows_add(d, cells, vals);
	}
	free(cells);
	free(vals);
	return d;
}

/* The |Diff| of row I of R, for the default order. */
static double
view_compare_absdiff(const struct store_rows *r, size_t i)
{
	return fabs(r->vals[i * r->ncols + r->ncols - 1].d);
}

static const struct store_rows *view_compare_rows;	/* for the sort */

static int
view_compare_cmp(const void *a, const void *b)
{
	size_t	 x = *(const size_t *)a, y = *(const size_t *)b;
	double	 kx = view_compare_absdiff(view_compare_rows, x);
	double	 ky = view_compare_absdiff(view_compare_rows, y);

	if (kx != ky)
		return (kx > ky ? -1 : 1) * (view_compare_asc ? -1 : 1);
	return x < y ? -1 : x > y;
}

/* Sort R as the keys chose; -1 with *cause set on a bad column. */
static int
view_compare_order(struct store_rows *r, char **cause)
{
	size_t	*order, i;

	if (view_compare_sort == COMPARE_TOOL) {
		snprintf(view_compare_sorted, sizeof view_compare_sorted,
		    "as the tool's");
		return 0;
	}
	if (view_compare_sort >= 0) {
		if ((size_t)view_compare_sort >= r->ncols)
			view_compare_sort = (int)r->ncols - 1;
		snprintf(view_compare_sorted, sizeof view_compare_sorted,
		    "%s%s", view_compare_asc ? "" : "-",
		    r->names[view_compare_sort]);
		return store_rows_sort(r, view_compare_sorted, cause);
	}
	snprintf(view_compare_sorted, sizeof view_compare_sorted, "%s|Diff|",
	    view_compare_asc ? "" : "-");
	order = xcalloc(r->nrows + 1, sizeof *order);
	for (i = 0; i < r->nrows; i++)
		order[i] = i;
	view_compare_rows = r;
	if (r->nrows > 1)
		qsort(order, r->nrows, sizeof *order, view_compare_cmp);
	store_rows_permute(r, order);
	free(order);
	return 0;
}

/* The role of row I of R: hot if it got slower, green if faster. */
static enum role
view_compare_role(const struct store_rows *r, size_t i, size_t k)
{
	int		 c = store_rows_col(r, view_compare_tables[k].ratio);
	const char	*cell;
	double		 v;

	if (c < 0 || *(cell = store_rows_cell(r, i, (size_t)c)) == '\0')
		return ROLE_NORMAL;
	if (strcmp(cell, "INF") == 0)
		return ROLE_HOT;
	v = store_rows_num(r, i, (size_t)c);
	return v > 1 ? ROLE_HOT : v < 1 ? ROLE_BAR : ROLE_NORMAL;
}

/*
 * Add the printed table TABLE of R (table K) to T: the header and its
 * rule as labels, then each row in its role.
 */
static void
view_compare_lines(struct text *t, const struct store_rows *r, size_t k,
    const char *table)
{
	enum role	*roles;
	size_t		 i;

	roles = xcalloc(r->nrows + 2, sizeof *roles);
	roles[0] = roles[1] = ROLE_LABEL;
	for (i = 0; i < r->nrows; i++)
		roles[i + 2] = view_compare_role(r, i, k);
	text_add_lines(t, 1, table, roles, r->nrows + 2, ROLE_NORMAL);
	free(roles);
}

/* The order a table opens in: |Diff|, or the tool's own. */
static void
view_compare_default(void)
{
	view_compare_sort = view_compare_tables[view_compare_table].order;
	view_compare_asc = view_compare_sort != COMPARE_DIFF;
}

/* The view's state: the table being made, or made and laid out. */
struct view_compare {
	struct store_compare_job *job;	/* until the table is in */
	double			 t0;
	struct store_rows	*orig;	/* the table, in the tool's order */
	struct store_rows	*rows;	/* with the Diff column, sorted */
	struct text		*t;
	size_t			*colw;	/* its columns' widths, printed */
	size_t			 head;	/* the line of their names, or 0 */
};

/*
 * Print R with O under short headers, "New" for "Comparison" and "Dur"
 * for "Duration" (the man page says so): cut to fit, the long ones all
 * read "Compari…".
 */
static void
view_compare_print(FILE *f, struct store_rows *r,
    const struct store_print_opts *o)
{
	char	**names = r->names, **s, *p;
	size_t	  j;

	s = xcalloc(r->ncols + 1, sizeof *s);
	for (j = 0; j < r->ncols; j++) {
		if (strncmp(names[j], "Comparison ", 11) == 0)
			xasprintf(&s[j], "New %s", names[j] + 11);
		else
			s[j] = xstrdup(names[j]);
		if ((p = strstr(s[j], "Duration")) != NULL)
			memmove(p + 3, p + 8, strlen(p + 8) + 1);
	}
	r->names = s;
	store_print_rows(f, r, o);
	r->names = names;
	for (j = 0; j < r->ncols; j++)
		free(s[j]);
	free(s);
}

/*
 * Keep the columns that name a row of printed table TABLE on screen in T
 * when it scrolls sideways: those before the first "Base" one, in half
 * the screen at most (the numbers the rest), else the first column alone
 * (Order Id, Top).
 */
static void
view_compare_freeze(struct text *t, const char *table, bool utf8)
{
	const char	*base;
	char		*head;
	size_t		 at;

	if ((base = strstr(table, "  Base ")) == NULL ||
	    memchr(table, '\n', (size_t)(base - table)) != NULL)
		return;
	head = xstrndup(table, (size_t)(base - table) + 2);
	at = util_width(head, SIZE_MAX, NULL, utf8);
	free(head);
	if (at > (size_t)COLS / 2 && (base = strstr(table + strspn(table,
	    " "), "  ")) != NULL && (size_t)(base - table) + 2 <=
	    (size_t)COLS / 2)
		at = (size_t)(base - table) + 2;
	if (at <= (size_t)COLS / 2)
		text_set_freeze(t, at);
}

/*
 * Lay VC's table out in its text, sorted as the keys chose; KEEP: where
 * the last layout was scrolled (a new sort), else at the top.
 */
static void
view_compare_layout(struct view_compare *vc, bool keep)
{
	struct store_print_opts	 o;
	size_t			 size = 0, k = view_compare_table;
	char			*buf = NULL, *cause = NULL;
	struct text		*old = vc->t;
	FILE			*f;

	vc->t = text_create();
	free(vc->colw);
	vc->colw = NULL;
	vc->head = 0;
	/* Each sort starts from the tool's order, so ties keep it. */
	store_rows_free(vc->rows);
	vc->rows = view_compare_diff(vc->orig, k);
	if (view_compare_order(vc->rows, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	}
	text_addf(vc->t, ROLE_TITLE, 1, "%s: %s against %s (t: next table)",
	    view_compare_tables[k].title, store_path(session_store()),
	    store_path(session_compare_base()));
	text_add(vc->t, ROLE_NORMAL, 0, "");
	if (vc->rows->nrows == 0)
		text_add(vc->t, ROLE_DIM, 1,
		    "(no rows: a run has none of these)");
	else if ((f = open_memstream(&buf, &size)) != NULL) {
		memset(&o, 0, sizeof o);
		o.format = PRINT_TABLE;
		o.utf8 = draw_utf8();
		/* Numbers are never cut: Left and Right scroll a wide one. */
		o.width = COLS - 2;
		vc->colw = o.widths = xcalloc(vc->rows->ncols,
		    sizeof *o.widths);
		view_compare_print(f, vc->rows, &o);
		fclose(f);
		view_compare_freeze(vc->t, buf, o.utf8);
		vc->head = text_lines(vc->t);
		view_compare_lines(vc->t, vc->rows, k, buf);
		free(buf);
	}
	if (keep)
		text_keep_place(vc->t, old);
	text_free(old);
}

/* Show CAUSE (freed) in VC's text and the status line, in place of a table. */
static void
view_compare_error(struct view_compare *vc, char *cause)
{
	text_free(vc->t);
	vc->t = text_create();
	text_addf(vc->t, ROLE_ERROR, 1, "%s", cause);
	status_set(ROLE_ERROR, "%s", cause);
	free(cause);
}

/* Start making the current table of the two runs in the background. */
static int
view_compare_start(struct view_compare *vc, char **cause)
{
	store_compare_job_free(vc->job);
	store_rows_free(vc->rows);
	store_rows_free(vc->orig);
	vc->job = NULL;
	vc->rows = vc->orig = NULL;
	/* No header to click until the new table is laid out. */
	free(vc->colw);
	vc->colw = NULL;
	vc->head = 0;
	vc->t0 = util_now();
	vc->job = store_compare_job_start(session_compare_base(),
	    session_store(), session_compare_opts(),
	    view_compare_tables[view_compare_table].make, cause);
	return vc->job != NULL ? 0 : -1;
}

static int
view_compare_open(struct view *v, const void *arg, char **cause)
{
	struct view_compare	*vc;

	(void)arg;
	if (session_compare_base() == NULL) {
		*cause = xstrdup("no second run: open two with --compare BASE "
		    "NEW");
		return -1;
	}
	vc = xcalloc(1, sizeof *vc);
	vc->t = text_create();
	if (view_compare_start(vc, cause) != 0) {
		text_free(vc->t);
		free(vc);
		return -1;
	}
	v->data = vc;
	return 0;
}

/* The job's progress: lay the table out once it is in. */
static int
view_compare_tick(struct view *v, enum view_work *w)
{
	struct view_compare	*vc = v->data;
	struct store_rows	*r;
	const char		*gap;
	char			*cause = NULL;
	size_t			 k = view_compare_table;
	int			 rc;

	*w = WORK_IDLE;
	if (vc->job == NULL)
		return REDRAW_NONE;
	if ((rc = store_compare_job_poll(vc->job, &r, &cause)) == 0) {
		*w = WORK_SHOWN;
		return REDRAW_BODY;
	}
	store_compare_job_free(vc->job);
	vc->job = NULL;
	if (rc != 1) {
		view_compare_error(vc, cause);
		return REDRAW_ALL;
	}
	/* What the operator tables cannot see, as the tool would not say. */
	if (view_compare_tables[k].make == store_compare_ops ||
	    view_compare_tables[k].make == store_compare_memory) {
		gap = store_compare_ops_gap(session_compare_base(),
		    view_compare_tables[k].make == store_compare_memory);
		if (gap == NULL)
			gap = store_compare_ops_gap(session_store(),
			    view_compare_tables[k].make == store_compare_memory);
		if (gap != NULL)
			status_set(ROLE_ERROR, "a run %s", gap);
	}
	vc->orig = r;
	view_compare_ncols = (int)r->ncols + 1;
	view_compare_layout(vc, false);
	return REDRAW_ALL;
}

static void
view_compare_close(struct view *v)
{
	struct view_compare	*vc = v->data;

	if (vc == NULL)
		return;
	store_compare_job_free(vc->job);
	store_rows_free(vc->rows);
	store_rows_free(vc->orig);
	free(vc->colw);
	v->data = vc->t;
	text_close(v);
	free(vc);
	v->data = NULL;
}

static void
view_compare_draw(struct view *v, int y, int h)
{
	struct view_compare	*vc = v->data;

	if (vc->job != NULL) {
		draw_textf(y + 1, 1, COLS - 1, ROLE_DIM, "working out %s "
		    "(%.0f s so far); keys and other views work meanwhile",
		    view_compare_tables[view_compare_table].title,
		    util_now() - vc->t0);
		return;
	}
	v->data = vc->t;
	text_draw(v, y, h);
	v->data = vc;
}

/* A new width: the table laid out again, its frozen columns too. */
static void
view_compare_resize(struct view *v)
{
	struct view_compare	*vc = v->data;

	if (vc->orig != NULL)
		view_compare_layout(vc, false);
}

/* Lay the table out again after a key changed the sort. */
static int
view_compare_resort(struct view *v)
{
	struct view_compare	*vc = v->data;

	if (vc->orig != NULL)
		view_compare_layout(vc, true);
	return REDRAW_BODY | REDRAW_STATUS;
}

/*
 * Mouse: a click on a column's name sorts on it, as in a table (numbers
 * largest first, text A to Z; again, the other way); the wheel scrolls.
 */
static int
view_compare_mouse(struct view *v)
{
	struct view_compare	*vc = v->data;
	const struct store_rows	*r = vc->rows;
	int			 y, x, wheel, rc;
	bool			 click;
	size_t			 line, col, at = 0, j;

	mouse_get(&y, &x, &click, &wheel);
	if (!click || r == NULL || vc->colw == NULL || vc->head == 0) {
		v->data = vc->t;
		rc = text_key(v, ACTION_NONE, KEY_MOUSE);
		v->data = vc;
		return rc;
	}
	if (!text_at(vc->t, y - 1, x, &line, &col) || line != vc->head)
		return REDRAW_NONE;
	/* A column and the two blanks after it, but the last. */
	for (j = 0; j < r->ncols; j++) {
		if (col < at + vc->colw[j] + (j + 1 < r->ncols ? 2 : 0))
			break;
		at += vc->colw[j] + 2;
	}
	if (j == r->ncols)
		return REDRAW_NONE;
	if (view_compare_sort == (int)j)
		view_compare_asc = !view_compare_asc;
	else {
		view_compare_sort = (int)j;
		view_compare_asc = !store_print_numeric(r, j);
	}
	return view_compare_resort(v);
}

static int
view_compare_key(struct view *v, enum action a, int key)
{
	struct view_compare	*vc = v->data;
	char			*cause = NULL;
	int			 n = view_compare_ncols + 1, rc;

	if (key == KEY_MOUSE && a == ACTION_NONE)
		return view_compare_mouse(v);
	switch (a) {
	case ACTION_COMPARE_TABLE:
		view_compare_table = (view_compare_table + 1) %
		    COMPARE_NTABLES;
		view_compare_default();
		/* Not the last table's text under the new title. */
		if (view_compare_start(vc, &cause) != 0)
			view_compare_error(vc, cause);
		return REDRAW_ALL;
	case ACTION_SORT_NEXT:
	case ACTION_SORT_PREV:
		/* |Diff|, then each column, round. */
		if (view_compare_sort == COMPARE_TOOL && a ==
		    ACTION_SORT_PREV)
			view_compare_sort = COMPARE_DIFF;
		view_compare_sort = a == ACTION_SORT_NEXT ?
		    (view_compare_sort + 2) % n - 1 :
		    (view_compare_sort + n) % n - 1;
		view_compare_asc = false;
		return view_compare_resort(v);
	case ACTION_SORT_INVERT:
		view_compare_asc = !view_compare_asc;
		return view_compare_resort(v);
	default:
		v->data = vc->t;
		rc = text_key(v, a, key);
		v->data = vc;
		return rc;
	}
}

static void
view_compare_status(struct view *v, char *buf, size_t len)
{
	struct view_compare	*vc = v->data;

	if (vc->job != NULL)
		snprintf(buf, len, " %s  working... ",
		    view_compare_tables[view_compare_table].title);
	else
		snprintf(buf, len, " %s  %zu line%s  sort %s ",
		    view_compare_tables[view_compare_table].title,
		    text_lines(vc->t), text_lines(vc->t) == 1 ? "" : "s",
		    view_compare_sorted);
}

static const struct key_binding view_compare_keys[] = {
	{ 't', ACTION_COMPARE_TABLE, NULL },
	{ '>', ACTION_SORT_NEXT, NULL },
	{ '<', ACTION_SORT_PREV, NULL },
	{ 'I', ACTION_SORT_INVERT, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_compare_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_COMPARE_TABLE, "table" },
	{ ACTION_SORT_NEXT, "sort" },
	{ ACTION_SORT_INVERT, "invert" },
	{ ACTION_NONE, NULL }
};

const struct view_ops view_compare_ops = {
	.name = "compare",
	.title = "Compare",
	.open = view_compare_open,
	.close = view_compare_close,
	.draw = view_compare_draw,
	.resize = view_compare_resize,
	.key = view_compare_key,
	.status = view_compare_status,
	.tick = view_compare_tick,
	.keymap = view_compare_keys,
	.hints = view_compare_hints,
};
