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

/*
 * The first LIMIT rows of R as bars: NAME columns joined for the label,
 * VALUE the column compared, the figures after the bar.
 */
static void
view_summary_bars(struct text *t, struct store_rows *r, const char *name1,
    const char *name2, const char *value, const char *count)
{
	double		 max = 0, v, total = 0;
	size_t		 i;
	int		 c1, c2, cv, cc, cd;
	char		 left[256], right[256], dev[32];
	bool		 devs = false;

	/* With several devices, say which one each row is. */
	if ((cd = view_summary_col(r, "Device_id")) >= 0) {
		for (i = 1; i < r->nrows; i++)
			devs = devs || strcmp(store_rows_cell(r, i,
			    (size_t)cd), store_rows_cell(r, 0,
			    (size_t)cd)) != 0;
	}
	c1 = view_summary_col(r, name1);
	c2 = name2 != NULL ? view_summary_col(r, name2) : -1;
	cv = view_summary_col(r, value);
	cc = view_summary_col(r, count);
	if (c1 < 0 || cv < 0)
		return;
	for (i = 0; i < r->nrows; i++) {
		v = view_summary_num(r, i, cv);
		total += v;
		if (v > max)
			max = v;
	}
	for (i = 0; i < r->nrows && i < SUMMARY_TOP; i++) {
		v = view_summary_num(r, i, cv);
		dev[0] = '\0';
		if (devs)
			snprintf(dev, sizeof dev, "[%s] ",
			    store_rows_cell(r, i, (size_t)cd));
		snprintf(left, sizeof left, "%s%s%s%s", dev,
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
	int			 ci, ct, cd;
	bool			 devices = false;
	char			 left[64], right[64];

	if ((r = session_query("step_trace", NULL, 200, false)) == NULL)
		return;
	ci = view_summary_col(r, "Iteration ID");
	ct = view_summary_col(r, "Iteration Time(us)");
	/* Steps of several devices say whose they are. */
	cd = view_summary_col(r, "Device_id");
	for (i = 1; cd >= 0 && i < r->nrows && !devices; i++)
		devices = strcmp(store_rows_cell(r, i, (size_t)cd),
		    store_rows_cell(r, 0, (size_t)cd)) != 0;
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
			if (devices)
				snprintf(left, sizeof left, "device %s step %s",
				    store_rows_cell(r, i, (size_t)cd),
				    store_rows_cell(r, i, (size_t)ci));
			else
				snprintf(left, sizeof left, "step %s",
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
		text_add(t, ROLE_NORMAL, 0, "");
		text_addf(t, ROLE_TITLE, 1, "Top op types by device time "
		    "(%zu types)", r->nrows);
		view_summary_bars(t, r, "OP Type", "Core Type",
		    "Total Time(us)", "Count");
		store_rows_free(r);
	}
	if ((r = session_query("api_statistic", "-Time(us)", -1, false)) !=
	    NULL) {
		text_add(t, ROLE_NORMAL, 0, "");
		text_addf(t, ROLE_TITLE, 1, "Top APIs by host time (%zu APIs)",
		    r->nrows);
		view_summary_bars(t, r, "API Name", "Level", "Time(us)",
		    "Count");
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
