/*
 * The Summary view: what the collection is (from the store's info table),
 * its devices, then the op types and APIs that took the most time and the
 * iterations when there are steps, each with a bar. Everything comes from
 * the small statistic tables, so it opens at once even on a huge store.
 */
#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

#define SUMMARY_TOP	10

/* The number of row I, column C of R; 0 for N/A, so bars and sums hold. */
static double
view_summary_num(const struct store_rows *r, size_t i, int c)
{
	double	 v = store_rows_num(r, i, (size_t)c);

	return isnan(v) ? 0 : v;
}

/* The column of R called NAME, or -1. */
static int
view_summary_col(const struct store_rows *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->ncols; i++) {
		if (strcmp(r->names[i], name) == 0)
			return (int)i;
	}
	return -1;
}

static void
view_summary_info(struct text *t)
{
	struct store_rows	*r;
	int64_t			*ids;
	size_t			 i, n;
	char			*cause = NULL;
	const char		*k;
	struct strbuf		 b;

	text_add(t, ROLE_TITLE, 1, "Collection");
	if ((r = session_query("info", NULL, -1, false)) != NULL) {
		for (i = 0; i < r->nrows; i++) {
			/*
			 * Where we imported, and the store's own id and
			 * time origin, are not the run's; the ranks are
			 * counted for the tables.
			 */
			k = store_rows_cell(r, i, 0);
			if (strcmp(k, "root") == 0 ||
			    strcmp(k, "store_id") == 0 ||
			    strcmp(k, "origin_ns") == 0 ||
			    strcmp(k, "ranks") == 0)
				continue;
			text_addf(t, ROLE_NORMAL, 3, "%-20s %s",
			    store_rows_cell(r, i, 0), store_rows_cell(r, i, 1));
		}
		store_rows_free(r);
	}
	strbuf_init(&b);
	if (store_query_devices(session_store(), &ids, &n, &cause) == 0) {
		for (i = 0; i < n; i++) {
			if (ids[i] == NP_HOST_DEVICE)
				strbuf_addf(&b, "%shost", i > 0 ? ", " : "");
			else
				strbuf_addf(&b, "%s%lld", i > 0 ? ", " : "",
				    (long long)ids[i]);
		}
		free(ids);
		text_addf(t, ROLE_NORMAL, 3, "%-20s %s", "devices",
		    b.s != NULL ? b.s : "none");
	}
	free(cause);
	strbuf_release(&b);
}

/* Column NAME of R if it holds more than one value, else -1. */
static int
view_summary_varies(const struct store_rows *r, const char *name)
{
	size_t	 i;
	int	 c = view_summary_col(r, name);

	for (i = 1; c >= 0 && i < r->nrows; i++) {
		if (strcmp(store_rows_cell(r, i, (size_t)c),
		    store_rows_cell(r, 0, (size_t)c)) != 0)
			return c;
	}
	return -1;
}

/*
 * Whose row I of R is, into BUF: "rank 1 device 0", the parts whose
 * columns (CR the Rank, CD the Device_id, -1 for none) vary; or "".
 */
static void
view_summary_who(const struct store_rows *r, size_t i, int cr, int cd,
    char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", cr >= 0 ? "rank " : "", cr >= 0 ?
	    store_rows_cell(r, i, (size_t)cr) : "", cr >= 0 && cd >= 0 ?
	    " " : "", cd >= 0 ? "device " : "", cd >= 0 ?
	    store_rows_cell(r, i, (size_t)cd) : "");
}

static int
view_summary_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct values of columns C1 and C2 (or -1) together in R. */
static size_t
view_summary_distinct(const struct store_rows *r, int c1, int c2)
{
	char	**v;
	size_t	  i, n = 0;

	if (r->nrows == 0)
		return 0;
	v = xcalloc(r->nrows, sizeof *v);
	for (i = 0; i < r->nrows; i++)
		xasprintf(&v[i], "%s\t%s", store_rows_cell(r, i, (size_t)c1),
		    c2 >= 0 ? store_rows_cell(r, i, (size_t)c2) : "");
	qsort(v, r->nrows, sizeof *v, view_summary_strcmp);
	for (i = 0; i < r->nrows; i++)
		n += i == 0 || strcmp(v[i], v[i - 1]) != 0;
	for (i = 0; i < r->nrows; i++)
		free(v[i]);
	free(v);
	return n;
}

/*
 * The columns that say whose each row of R is into *CR (Rank) and *CD
 * (Device_id), -1 for one that need not: the same for every row, or the
 * device where each rank has one device only.
 */
static void
view_summary_whose(const struct store_rows *r, int *cr, int *cd)
{
	*cr = view_summary_varies(r, "Rank");
	*cd = view_summary_varies(r, "Device_id");
	if (*cr >= 0 && *cd >= 0 && view_summary_distinct(r, *cr, *cd) ==
	    view_summary_distinct(r, *cr, -1))
		*cd = -1;
}

/*
 * The title WHAT of R ("op types") with their number, then its first
 * rows as bars: NAME columns joined for the label, VALUE the column
 * compared, the figures after the bar. With several ranks or devices,
 * each row says whose it is, and the title counts rows and kinds.
 */
static void
view_summary_bars(struct text *t, struct store_rows *r, const char *title,
    const char *what, const char *name1, const char *name2,
    const char *value, const char *count)
{
	double		 max = 0, v, total = 0;
	size_t		 i;
	int		 c1, c2, cv, cc, cd, cr;
	char		 left[256], right[256], who[64];

	view_summary_whose(r, &cr, &cd);
	c1 = view_summary_col(r, name1);
	c2 = name2 != NULL ? view_summary_col(r, name2) : -1;
	cv = view_summary_col(r, value);
	cc = view_summary_col(r, count);
	if (c1 < 0 || cv < 0)
		return;
	text_add(t, ROLE_NORMAL, 0, "");
	if (cr >= 0 || cd >= 0)
		text_addf(t, ROLE_TITLE, 1, "%s (%zu rows: %zu %s on %zu %s)",
		    title, r->nrows, view_summary_distinct(r, c1, c2), what,
		    view_summary_distinct(r, cr >= 0 ? cr : cd, -1), cr >= 0 ?
		    "ranks" : "devices");
	else
		text_addf(t, ROLE_TITLE, 1, "%s (%zu %s)", title, r->nrows,
		    what);
	for (i = 0; i < r->nrows; i++) {
		v = view_summary_num(r, i, cv);
		total += v;
		if (v > max)
			max = v;
	}
	for (i = 0; i < r->nrows && i < SUMMARY_TOP; i++) {
		v = view_summary_num(r, i, cv);
		view_summary_who(r, i, cr, cd, who, sizeof who);
		snprintf(left, sizeof left, "%s%s%s%s%s%s", *who != '\0' ?
		    "[" : "", who, *who != '\0' ? "] " : "",
		    store_rows_cell(r, i, (size_t)c1), c2 >= 0 ? " " : "",
		    c2 >= 0 ? store_rows_cell(r, i, (size_t)c2) : "");
		snprintf(right, sizeof right, "%12.3f us %5.1f%%  x%s", v,
		    total > 0 ? v * 100 / total : 0.0,
		    cc >= 0 ? store_rows_cell(r, i, (size_t)cc) : "?");
		text_add_bar(t, 3, left, max > 0 ? v / max : 0, right);
	}
	if (r->nrows > SUMMARY_TOP)
		text_addf(t, ROLE_DIM, 3, "... %zu more", r->nrows -
		    SUMMARY_TOP);
}

static void
view_summary_steps(struct text *t)
{
	struct store_rows	*r;
	double			 max = 0, v;
	size_t			 i;
	int			 ci, ct, cd, cr, cm;
	char			 left[128], right[64], who[64];

	if ((r = session_query("step_trace", NULL, 200, false)) == NULL)
		return;
	ci = view_summary_col(r, "Iteration ID");
	ct = view_summary_col(r, "Iteration Time(us)");
	/* Steps of several ranks or devices say whose they are. */
	view_summary_whose(r, &cr, &cd);
	cm = view_summary_varies(r, "Model ID");
	if (ci >= 0 && ct >= 0) {
		text_add(t, ROLE_NORMAL, 0, "");
		text_add(t, ROLE_TITLE, 1, "Steps (iteration time)");
		for (i = 0; i < r->nrows; i++) {
			v = view_summary_num(r, i, ct);
			if (v > max)
				max = v;
		}
		for (i = 0; i < r->nrows; i++) {
			v = view_summary_num(r, i, ct);
			view_summary_who(r, i, cr, cd, who, sizeof who);
			snprintf(left, sizeof left, "%s%s%s%s%sstep %s", who,
			    *who != '\0' ? " " : "", cm >= 0 ? "model " : "",
			    cm >= 0 ? store_rows_cell(r, i, (size_t)cm) : "",
			    cm >= 0 ? " " : "",
			    store_rows_cell(r, i, (size_t)ci));
			snprintf(right, sizeof right, "%12.3f us", v);
			text_add_bar(t, 3, left, max > 0 ? v / max : 0, right);
		}
	}
	store_rows_free(r);
}

static int
view_summary_open(struct view *v, const void *arg, char **cause)
{
	struct text		*t;
	struct store_rows	*r;

	t = text_create();
	view_summary_info(t);
	r = session_query("op_statistic", "-Total Time(us)", -1, false);
	if (r != NULL) {
		view_summary_bars(t, r, "Top op types by device time", "types",
		    "OP Type", "Core Type", "Total Time(us)", "Count");
		store_rows_free(r);
	}
	if ((r = session_query("api_statistic", "-Time(us)", -1, false)) !=
	    NULL) {
		view_summary_bars(t, r, "Top APIs by host time", "APIs",
		    "API Name", "Level", "Time(us)", "Count");
		store_rows_free(r);
	}
	view_summary_steps(t);
	v->data = t;
	return 0;
}

static const struct key_hint view_summary_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_NEXT_VIEW, "next view" },
	{ ACTION_NONE, NULL }
};

static void
view_summary_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Summary  %zu lines ",
	    text_lines(v->data));
}

const struct view_ops view_summary_ops = {
	.name = "summary",
	.title = "Summary",
	.open = view_summary_open,
	.close = text_close,
	.draw = text_draw,
	.key = text_key,
	.status = view_summary_status,
	.hints = view_summary_hints,
};
