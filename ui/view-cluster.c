/*
 * The Cluster tab, for a store of several ranks: the findings first (slow
 * ranks, high waits, stragglers, slow links, each with its numbers), then
 * per step one line per rank with a stacked bar of its computing,
 * communication not overlapped and free time, the ranks a finding names
 * marked (> and < sort them on a time, I inverts), then per step the
 * links of its largest group as a grid of their bandwidth. Enter on a
 * line with a rank shows that rank in every view.
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

/* How step STEP reads: "step 3", or "the run" (store_step_is_run()). */
static const char *
view_cluster_step(const char *step, char *buf, size_t size)
{
	if (store_step_is_run(step))
		return "the run";
	snprintf(buf, size, "step %s", step);
	return buf;
}

/*
 * Whether the "a-b group" Where of a slow link names rank RANK at either
 * end, as --rank takes a link (store-tables.c).
 */
static bool
view_cluster_link_end(const char *where, const char *rank)
{
	const char	*dash = strchr(where, '-');
	size_t		 n = strlen(rank);

	if (dash == NULL || n == 0)
		return false;
	return ((size_t)(dash - where) == n && strncmp(where, rank, n) == 0) ||
	    (strncmp(dash + 1, rank, n) == 0 && (dash[1 + n] == ' ' ||
	    dash[1 + n] == '\0'));
}

/* Whether finding rows F name rank RANK in step STEP. */
static bool
view_cluster_named(const struct store_rows *f, const char *step,
    const char *rank)
{
	const char	*what;
	size_t		 i;

	for (i = 0; f != NULL && i < f->nrows; i++) {
		if (strcmp(view_cluster_cell(f, i, "Step"), step) != 0)
			continue;
		what = view_cluster_cell(f, i, "Finding");
		if (strcmp(what, "high wait") == 0)
			continue;
		if (strcmp(view_cluster_cell(f, i, "Rank"), rank) == 0 ||
		    (strcmp(what, "slow link") == 0 && view_cluster_link_end(
		    view_cluster_cell(f, i, "Where"), rank)))
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

static const char *const view_cluster_cols[TEXT_STACK] = { "Computing",
    "Communication(Not Overlapped)", "Free" };

/* What the rank lines of a step are sorted on, and which way. */
static const char *const view_cluster_sorts[] = { "Rank", "Computing",
    "Communication", "Free", "Step Time" };
#define CLUSTER_NSORTS	5
static int		 view_cluster_sort;	/* into view_cluster_sorts */
static bool		 view_cluster_asc;
static const struct store_rows *view_cluster_by;

/* Whether the sort puts the largest first: times unless inverted. */
static bool
view_cluster_desc(void)
{
	return (view_cluster_sort == 0) == view_cluster_asc;
}

/* Row I's value for the sort: its rank, one of the times, or the sum. */
static double
view_cluster_key_of(size_t i)
{
	const struct store_rows	*r = view_cluster_by;
	double			 v = 0;
	size_t			 k;

	if (view_cluster_sort == 0)
		return (double)strtoll(view_cluster_cell(r, i, "Index"), NULL,
		    10);
	if (view_cluster_sort <= TEXT_STACK)
		return view_cluster_num(r, i,
		    view_cluster_cols[view_cluster_sort - 1]);
	for (k = 0; k < TEXT_STACK; k++)
		v += view_cluster_num(r, i, view_cluster_cols[k]);
	return v;
}

/* Rows by step (as read), then the sort's key, then as read. */
static int
view_cluster_by_key(const void *a, const void *b)
{
	size_t	 x = *(const size_t *)a, y = *(const size_t *)b;
	double	 kx, ky;
	int	 c;

	c = strcmp(view_cluster_cell(view_cluster_by, x, "Step"),
	    view_cluster_cell(view_cluster_by, y, "Step"));
	if (c != 0)
		return x < y ? -1 : 1;
	kx = view_cluster_key_of(x);
	ky = view_cluster_key_of(y);
	if (kx != ky)
		return (kx < ky) == view_cluster_desc() ? 1 : -1;
	return x < y ? -1 : x > y;
}

/*
 * One line per step and rank, bars scaled to the longest step, each
 * step's ranks in the order view_cluster_sort chooses.
 */
static void
view_cluster_steps(struct text *t, const struct store_rows *r,
    const struct store_rows *f)
{
	double		 max = 0, sum, parts[TEXT_STACK];
	char		 left[64], right[96], sb[40];
	const char	*step, *rank;
	size_t		 i, j, k, n = 0, *order;

	order = xcalloc(r->nrows > 0 ? r->nrows : 1, sizeof *order);
	/* The rank rows: stage rows are the most of each column apart. */
	for (i = 0; i < r->nrows; i++) {
		if (strcmp(view_cluster_cell(r, i, "Type"), "rank") != 0)
			continue;
		for (sum = 0, k = 0; k < TEXT_STACK; k++)
			sum += view_cluster_num(r, i, view_cluster_cols[k]);
		max = sum > max ? sum : max;
		order[n++] = i;
	}
	view_cluster_by = r;
	qsort(order, n, sizeof *order, view_cluster_by_key);
	text_add(t, ROLE_NORMAL, 0, "");
	text_addf(t, ROLE_TITLE, 1, "Per step and rank: computing, "
	    "communication not overlapped, free (! a finding names it; "
	    "sort %s%s)", view_cluster_desc() ? "-" : "",
	    view_cluster_sorts[view_cluster_sort]);
	for (j = 0; j < n; j++) {
		i = order[j];
		step = view_cluster_cell(r, i, "Step");
		rank = view_cluster_cell(r, i, "Index");
		snprintf(left, sizeof left, "%s%s rank %s",
		    view_cluster_named(f, step, rank) ? "! " : "  ",
		    view_cluster_step(step, sb, sizeof sb), rank);
		for (k = 0; k < TEXT_STACK; k++)
			parts[k] = max > 0 ? view_cluster_num(r, i,
			    view_cluster_cols[k]) / max : 0;
		snprintf(right, sizeof right, "%10.3f %10.3f %10.3f ms",
		    view_cluster_num(r, i, view_cluster_cols[0]) / 1000,
		    view_cluster_num(r, i, view_cluster_cols[1]) / 1000,
		    view_cluster_num(r, i, view_cluster_cols[2]) / 1000);
		text_add_stack(t, 3, left, parts, right);
		text_set_id(t, strtoll(rank, NULL, 10));
	}
	free(order);
}

#define CLUSTER_GRID_MAX	64	/* ranks a link grid is drawn for */

/* The ranks of group GRP's total links in step STEP of M, ascending. */
static size_t
view_cluster_grid_ranks(const struct store_rows *m, const char *step,
    const char *op, int64_t **ranks)
{
	int64_t		 v[2];
	size_t		 i, j, k, n = 0;

	*ranks = NULL;
	for (i = 0; i < m->nrows; i++) {
		if (strcmp(view_cluster_cell(m, i, "Step"), step) != 0 ||
		    strcmp(view_cluster_cell(m, i, "Op Name"), op) != 0)
			continue;
		v[0] = strtoll(view_cluster_cell(m, i, "Src Rank"), NULL, 10);
		v[1] = strtoll(view_cluster_cell(m, i, "Dst Rank"), NULL, 10);
		for (k = 0; k < 2; k++) {
			for (j = 0; j < n && (*ranks)[j] != v[k]; j++)
				continue;
			if (j < n)
				continue;
			*ranks = xreallocarray(*ranks, n + 1, sizeof **ranks);
			(*ranks)[n++] = v[k];
		}
	}
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && (*ranks)[j - 1] > (*ranks)[j]; j--) {
			v[0] = (*ranks)[j];
			(*ranks)[j] = (*ranks)[j - 1];
			(*ranks)[j - 1] = v[0];
		}
	}
	return n;
}

/* The place of rank R among the N RANKS, or -1. */
static int
view_cluster_grid_at(const int64_t *ranks, size_t n, int64_t r)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (ranks[i] == r)
			return (int)i;
	}
	return -1;
}

/* The link grids show transit time, not bandwidth (m switches). */
static bool	 view_cluster_bytime;

/*
 * The shade (0 to 3, more is a larger value) and role of a link's value V
 * of MAX: the heat roles go from heat-1, the worst (the lowest bandwidth,
 * the longest time), to heat-4, the best.
 */
static int
view_cluster_shade(double v, double max, enum role *role)
{
	static const enum role	 heat[] = { ROLE_HEAT_1, ROLE_HEAT_2,
				    ROLE_HEAT_3, ROLE_HEAT_4 };
	int			 g;

	g = max > 0 ? (int)(4 * v / max) : 0;
	g = g > 3 ? 3 : g < 0 ? 0 : g;
	*role = heat[view_cluster_bytime ? 3 - g : g];
	return g;
}

/*
 * For each step, the links of its group with the most ranks as a src x
 * dst heat map of their bandwidth, or with m of their transit time: a
 * darker glyph is a larger value, and in colour the worst quarter (slow,
 * or long) is heat-1, the best heat-4; "-" moved nothing, the diagonal
 * (a rank to itself) is left out. Without UTF-8 the glyphs are ".:+#".
 * A row's line names its src rank for Enter.
 */
static void
view_cluster_grid(struct text *t, const struct store_rows *m)
{
	static const char *const utf8[] = { "\u2591", "\u2592", "\u2593",
	    "\u2588" };
	static const char *const ascii[] = { ".", ":", "+", "#" };
	const char	*col = view_cluster_bytime ? "Transit Time(ms)" :
			    "Bandwidth(GB/s)";
	struct strbuf	 b;
	const char	*step, *op, *last = "", *best = NULL, **glyph;
	enum role	*role;
	int64_t		*ranks;
	double		*bw, max;
	size_t		 i, j, n, most, run;
	int		 x, y, g;
	char		 sb[40];

	strbuf_init(&b);
	for (i = 0; i < m->nrows; i++) {
		step = view_cluster_cell(m, i, "Step");
		if (strcmp(step, last) == 0)
			continue;
		last = step;
		/*
		 * The step's total with the most links (the table holds an
		 * op's links together): its group is the largest.
		 */
		best = NULL;
		for (j = i, most = 0, run = 0; j < m->nrows && strcmp(
		    view_cluster_cell(m, j, "Step"), step) == 0; j++) {
			op = view_cluster_cell(m, j, "Op Name");
			if (strncmp(op, "Total Op Info@", 14) != 0)
				continue;
			run = j > i && strcmp(view_cluster_cell(m, j - 1,
			    "Op Name"), op) == 0 ? run + 1 : 1;
			if (run > most) {
				most = run;
				best = op;
			}
		}
		if (best == NULL)
			continue;
		n = view_cluster_grid_ranks(m, step, best, &ranks);
		text_add(t, ROLE_NORMAL, 0, "");
		text_addf(t, ROLE_TITLE, 1, "Links of %s, group %s: src "
		    "down, dst across, %s (%zu ranks)", view_cluster_step(step,
		    sb, sizeof sb), best + 14,
		    view_cluster_bytime ? "darker takes longer" :
		    "darker is faster", n);
		if (n > CLUSTER_GRID_MAX) {
			text_addf(t, ROLE_NORMAL, 3, "too many to draw: show "
			    "PATH cluster_communication_matrix lists them");
			free(ranks);
			continue;
		}
		bw = xcalloc(n * n, sizeof *bw);
		for (j = 0; j < n * n; j++)
			bw[j] = -1;
		max = 0;
		for (j = i; j < m->nrows && strcmp(view_cluster_cell(m, j,
		    "Step"), step) == 0; j++) {
			if (strcmp(view_cluster_cell(m, j, "Op Name"), best)
			    != 0)
				continue;
			y = view_cluster_grid_at(ranks, n, strtoll(
			    view_cluster_cell(m, j, "Src Rank"), NULL, 10));
			x = view_cluster_grid_at(ranks, n, strtoll(
			    view_cluster_cell(m, j, "Dst Rank"), NULL, 10));
			if (x < 0 || y < 0 || x == y)
				continue;
			/* A link that moved nothing has no time to show. */
			if (view_cluster_num(m, j, "Bandwidth(GB/s)") <= 0)
				continue;
			bw[(size_t)y * n + (size_t)x] = view_cluster_num(m, j,
			    col);
			if (bw[(size_t)y * n + (size_t)x] > max)
				max = bw[(size_t)y * n + (size_t)x];
		}
		/* The dst ranks' last digits above their columns. */
		strbuf_reset(&b);
		strbuf_adds(&b, "   dst ");
		for (x = 0; (size_t)x < n; x++)
			strbuf_addf(&b, "%lld", (long long)(ranks[x] % 10));
		text_add(t, ROLE_LABEL, 1, b.s);
		glyph = xcalloc(n, sizeof *glyph);
		role = xcalloc(n, sizeof *role);
		for (y = 0; (size_t)y < n; y++) {
			strbuf_reset(&b);
			strbuf_addf(&b, "%6lld ", (long long)ranks[y]);
			for (x = 0; (size_t)x < n; x++) {
				g = view_cluster_shade(bw[(size_t)y * n +
				    (size_t)x], max, &role[x]);
				if (x == y || bw[(size_t)y * n + (size_t)x] <
				    0) {
					glyph[x] = x == y ? " " : "-";
					role[x] = ROLE_NORMAL;
				} else
					glyph[x] = draw_utf8() ? utf8[g] :
					    ascii[g];
			}
			text_add_cells(t, 1, b.s, glyph, role, n);
			text_set_id(t, ranks[y]);
		}
		free(glyph);
		free(role);
		text_addf(t, ROLE_NORMAL, 3, "%s %.4f %s; each step of shade a "
		    "quarter of it", view_cluster_bytime ? "longest" :
		    "fastest", max, view_cluster_bytime ? "ms" : "GB/s");
		free(bw);
		free(ranks);
	}
	strbuf_release(&b);
}

static int
view_cluster_open(struct view *v, const void *arg, char **cause)
{
	struct store_rows	*r, *f, *m;
	struct text		*t;

	(void)arg;
	r = session_query("cluster_step_trace_time", "Step", -1, true);
	f = session_query("cluster_findings", NULL, -1, true);
	if (r == NULL && f == NULL) {
		*cause = xstrdup("no cluster tables in this store");
		return -1;
	}
	m = session_query("cluster_communication_matrix", "Step", -1, true);
	t = text_create();
	view_cluster_findings(t, f);
	if (r != NULL)
		view_cluster_steps(t, r, f);
	if (m != NULL)
		view_cluster_grid(t, m);
	store_rows_free(r);
	store_rows_free(f);
	store_rows_free(m);
	v->data = t;
	return 0;
}

/*
 * Make the view's lines again (a new sort, the other grid metric), the
 * screen staying where it was: m at the grids shows the grids.
 */
static int
view_cluster_again(struct view *v)
{
	struct text	*old = v->data;
	char		*cause = NULL;

	v->data = NULL;
	if (view_cluster_open(v, NULL, &cause) != 0) {
		v->data = old;
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return REDRAW_STATUS;
	}
	text_keep_place(v->data, old);
	text_free(old);
	return REDRAW_BODY | REDRAW_STATUS;
}

static int
view_cluster_key(struct view *v, enum action a, int key)
{
	int64_t	 rank;
	char	*cause = NULL;

	if (a == ACTION_SORT_NEXT || a == ACTION_SORT_PREV ||
	    a == ACTION_SORT_INVERT) {
		if (a == ACTION_SORT_INVERT)
			view_cluster_asc = !view_cluster_asc;
		else {
			view_cluster_sort = (view_cluster_sort +
			    (a == ACTION_SORT_NEXT ? 1 : CLUSTER_NSORTS - 1)) %
			    CLUSTER_NSORTS;
			view_cluster_asc = false;
		}
		/* The same lines again, in the new order, where they were. */
		return view_cluster_again(v);
	}
	if (a == ACTION_GRID_METRIC) {
		view_cluster_bytime = !view_cluster_bytime;
		if (view_cluster_again(v) == REDRAW_STATUS)
			return REDRAW_STATUS;
		status_set(ROLE_NORMAL, "link grids: %s",
		    view_cluster_bytime ? "transit time" : "bandwidth");
		return REDRAW_BODY | REDRAW_STATUS;
	}
	if (a != ACTION_OPEN)
		return text_key(v, a, key);
	if ((rank = text_cur_id(v->data)) == NP_NA) {
		status_set(ROLE_ERROR, "this line names no rank");
		return REDRAW_STATUS;
	}
	if (session_set_device(session_device(), rank, &cause) != 0) {
		tabs_reopen(tabs_current());
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return REDRAW_ALL;
	}
	/* Every other view reopens for the rank; this one stays. */
	tabs_reopen(tabs_current());
	status_set(ROLE_NORMAL, "rank %lld in every view (r: all ranks)",
	    (long long)rank);
	return REDRAW_ALL;
}

static void
view_cluster_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Cluster  %zu lines  sort %s%s ",
	    text_lines(v->data), view_cluster_desc() ? "-" : "",
	    view_cluster_sorts[view_cluster_sort]);
}

static const struct key_binding view_cluster_keys[] = {
	{ '<', ACTION_SORT_PREV, NULL },
	{ '>', ACTION_SORT_NEXT, NULL },
	{ 'I', ACTION_SORT_INVERT, NULL },
	{ 'm', ACTION_GRID_METRIC, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_cluster_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_OPEN, "show rank" },
	{ ACTION_SORT_NEXT, "sort" },
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
	.keymap = view_cluster_keys,
	.hints = view_cluster_hints,
};
