/*
 * The Cluster tab, for a store of several ranks: the findings first (slow
 * ranks, high waits, stragglers, slow links, each with its numbers), then
 * per step one line per rank with a stacked bar of its computing,
 * communication not overlapped and free time, the ranks a finding names
 * marked. Enter on a line with a rank shows that rank in every view.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The cell of column NAME of row I of R, or "". */
static const char *
view_cluster_cell(const struct store_rows *r, size_t i, const char *name)
{
	int	 c = store_rows_col(r, name);

	return c >= 0 ? store_rows_cell(r, i, (size_t)c) : "";
}

static double
view_cluster_num(const struct store_rows *r, size_t i, const char *name)
{
	int	 c = store_rows_col(r, name);
	double	 v;

	if (c < 0)
		return 0;
	v = store_rows_num(r, i, (size_t)c);
	return v != v ? 0 : v;
}

/* Whether finding rows F name rank RANK in step STEP. */
static bool
view_cluster_named(const struct store_rows *f, const char *step,
    const char *rank)
{
	size_t	 i;

	for (i = 0; f != NULL && i < f->nrows; i++) {
		if (strcmp(view_cluster_cell(f, i, "Step"), step) == 0 &&
		    strcmp(view_cluster_cell(f, i, "Rank"), rank) == 0 &&
		    strcmp(view_cluster_cell(f, i, "Finding"),
		    "high wait") != 0)
			return true;
	}
	return false;
}

static void
view_cluster_findings(struct text *t, const struct store_rows *f)
{
	const char	*rank;
	size_t		 i;

	text_addf(t, ROLE_TITLE, 1, "Findings (%zu)", f != NULL ?
	    f->nrows : 0);
	if (f == NULL) {
		text_add(t, ROLE_NORMAL, 3, "none: no rank, link or wait "
		    "stands out");
		return;
	}
	for (i = 0; i < f->nrows; i++) {
		text_addf(t, ROLE_NORMAL, 3, "%-10s %s",
		    view_cluster_cell(f, i, "Finding"),
		    view_cluster_cell(f, i, "Evidence"));
		rank = view_cluster_cell(f, i, "Rank");
		if (*rank >= '0' && *rank <= '9')
			text_set_id(t, strtoll(rank, NULL, 10));
	}
}

/* One line per step and rank, bars scaled to the longest step. */
static void
view_cluster_steps(struct text *t, const struct store_rows *r,
    const struct store_rows *f)
{
	static const char *const cols[TEXT_STACK] = { "Computing",
	    "Communication(Not Overlapped)", "Free" };
	double		 max = 0, sum, parts[TEXT_STACK];
	char		 left[64], right[96];
	const char	*step, *rank;
	size_t		 i, k;

	for (i = 0; i < r->nrows; i++) {
		for (sum = 0, k = 0; k < TEXT_STACK; k++)
			sum += view_cluster_num(r, i, cols[k]);
		max = sum > max ? sum : max;
	}
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_TITLE, 1, "Per step and rank: computing, "
	    "communication not overlapped, free (! a finding names it)");
	for (i = 0; i < r->nrows; i++) {
		if (strcmp(view_cluster_cell(r, i, "Type"), "rank") != 0)
			continue;
		step = view_cluster_cell(r, i, "Step");
		rank = view_cluster_cell(r, i, "Index");
		snprintf(left, sizeof left, "%sstep %s rank %s",
		    view_cluster_named(f, step, rank) ? "! " : "  ", step,
		    rank);
		for (k = 0; k < TEXT_STACK; k++)
			parts[k] = max > 0 ?
			    view_cluster_num(r, i, cols[k]) / max : 0;
		snprintf(right, sizeof right, "%10.3f %10.3f %10.3f ms",
		    view_cluster_num(r, i, cols[0]) / 1000,
		    view_cluster_num(r, i, cols[1]) / 1000,
		    view_cluster_num(r, i, cols[2]) / 1000);
		text_add_stack(t, 3, left, parts, right);
		text_set_id(t, strtoll(rank, NULL, 10));
	}
}

static int
view_cluster_open(struct view *v, const void *arg, char **cause)
{
	struct store_rows	*r, *f;
	struct text		*t;

	(void)arg;
	r = session_query("cluster_step_trace_time", "Step", -1, true);
	f = session_query("cluster_findings", NULL, -1, true);
	if (r == NULL && f == NULL) {
		*cause = xstrdup("no cluster tables in this store");
		return -1;
	}
	t = text_create();
	view_cluster_findings(t, f);
	if (r != NULL)
		view_cluster_steps(t, r, f);
	store_rows_free(r);
	store_rows_free(f);
	v->data = t;
	return 0;
}

static int
view_cluster_key(struct view *v, enum action a, int key)
{
	int64_t	 rank;

	if (a != ACTION_OPEN)
		return text_key(v, a, key);
	if ((rank = text_cur_id(v->data)) == NP_NA) {
		status_set(ROLE_ERROR, "this line names no rank");
		return REDRAW_STATUS;
	}
	session_set_device(session_device(), rank);
	/* Every other view reopens for the rank; this one stays. */
	tabs_reopen(tabs_current());
	status_set(ROLE_NORMAL, "rank %lld in every view (r: all ranks)",
	    (long long)rank);
	return REDRAW_ALL;
}

static void
view_cluster_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Cluster  %zu lines ", text_lines(v->data));
}

static const struct key_hint view_cluster_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_OPEN, "show rank" },
	{ ACTION_RANK, "ranks" },
	{ ACTION_NONE, NULL }
};

const struct view_ops view_cluster_ops = {
	.name = "cluster",
	.title = "Cluster",
	.table = "cluster_step_trace_time cluster_findings",
	.open = view_cluster_open,
	.close = text_close,
	.draw = text_draw,
	.key = view_cluster_key,
	.status = view_cluster_status,
	.hints = view_cluster_hints,
};
