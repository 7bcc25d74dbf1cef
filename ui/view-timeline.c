/*
 * The timeline view: one row per lane (host threads by API depth, steps,
 * device streams, grouped per rank and device) over a time axis, each cell
 * shaded by how busy the lane is in it (eighth blocks, or a density glyph
 * without UTF-8) in the colour of the span type covering most of it.
 * A span two cells wide is a filled bar, named inside when the name fits,
 * the selected one outlined (draw_span). Lane
 * names carry the rank when there is one; the footer names the group. The
 * cursor is an instant and a lane; the span under it is highlighted and
 * described in the footer. Key handlers change the frame and refill the
 * cells from the store (store_timeline_cells, exact busy time); drawing only
 * reads what they left. The rows on screen are lanes or collapsed groups
 * (view-timeline-lanes.c). The mouse wheel zooms around the pointer, a
 * drag (or m then v) selects a range that a key turns into the op
 * statistic of that window. Opened from a table (view-jump.c), the view
 * starts on the task it was given, selected.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

#define TL_NAMEW	16	/* lane name column, at first */
#define TL_MINNAMEW	4

static const struct key_binding view_timeline_keys[] = {
	{ '+', ACTION_ZOOM_IN, NULL },
	{ '=', ACTION_ZOOM_IN, NULL },
	{ 'W', ACTION_ZOOM_IN, NULL },
	{ '-', ACTION_ZOOM_OUT, NULL },
	{ 'S', ACTION_ZOOM_OUT, NULL },
	{ 'A', ACTION_PAN_LEFT, NULL },
	{ 'h', ACTION_PAN_LEFT, NULL },
	{ KEY_LEFT, ACTION_PAN_LEFT, NULL },
	{ 'D', ACTION_PAN_RIGHT, NULL },
	{ 'l', ACTION_PAN_RIGHT, NULL },
	{ KEY_RIGHT, ACTION_PAN_RIGHT, NULL },
	{ '0', ACTION_FIT, NULL },
	{ 'u', ACTION_UNDO, NULL },
	{ '.', ACTION_NEXT_SPAN, NULL },
	{ ',', ACTION_PREV_SPAN, NULL },
	{ 'f', ACTION_FOLLOW_FLOW, NULL },
	{ 'z', ACTION_ZOOM_SPAN, NULL },
	{ 't', ACTION_GOTO_TIME, NULL },
	{ 'p', ACTION_PEAK, NULL },
	{ 'm', ACTION_MARK, NULL },
	{ '\'', ACTION_GOTO_MARK, NULL },
	{ 'v', ACTION_SELECT, NULL },
	{ 'a', ACTION_APPLY_RANGE, NULL },
	{ 'F', ACTION_RANGE_FLAME, NULL },
	{ 'c', ACTION_COLLAPSE, NULL },
	{ 'x', ACTION_HIDE_LANES, NULL },
	{ 'L', ACTION_ALIGN_STEPS, NULL },
	{ '<', ACTION_NARROW, NULL },
	{ '>', ACTION_WIDEN, NULL },
	{ '/', ACTION_SEARCH, "Search the task names (regex)" },
	{ 'n', ACTION_NEXT_MATCH, "Next match, or instance of the op type" },
	{ 'N', ACTION_PREV_MATCH, "Previous match, or instance of the op "
	  "type" },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_timeline_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_ZOOM_IN, "in" },
	{ ACTION_ZOOM_OUT, "out" },
	{ ACTION_FIT, "fit" },
	{ ACTION_SEARCH, "search" },
	{ ACTION_ZOOM_SPAN, "span" },
	{ ACTION_NEXT_SPAN, "next" },
	{ ACTION_SELECT, "select" },
	{ ACTION_FOLLOW_FLOW, "flow" },
	{ ACTION_NONE, NULL }
};

static void
view_timeline_clear(struct view_tl *tl)
{
	size_t	 i, j;

	/* A row per lane and per group header at most. */
	for (i = 0; i < 2 * tl->nlanes; i++) {
		free(tl->rows[i].cells);
		tl->rows[i].cells = NULL;
		for (j = 0; j < tl->rows[i].nspans; j++)
			store_spans_release(&tl->rows[i].spans[j]);
		free(tl->rows[i].spans);
		tl->rows[i].spans = NULL;
		tl->rows[i].nspans = 0;
	}
	if (tl->has_sel)
		store_spans_release(&tl->sel);
	tl->has_sel = false;
	store_rows_free(tl->detail);
	tl->detail = NULL;
}

/*
 * Query the cells (and, zoomed in, the spans) of the rows on screen and
 * the span under the cursor.
 */
void
view_timeline_fill(struct view_tl *tl)
{
	struct store		*s;
	const struct store_lane	*l;
	struct store_lane	 cl;
	struct view_tl_row		*r;
	size_t			 i, j, h = view_timeline_lanes_height();
	int64_t			 off;
	char			*cause = NULL;

	view_timeline_clear(tl);
	/* The width chosen, as far as the screen allows it now. */
	tl->namew = tl->namew_want;
	if (tl->namew > COLS / 2)
		tl->namew = COLS / 2 > TL_MINNAMEW ? COLS / 2 : TL_MINNAMEW;
	tl->w = COLS - tl->namew - 1;
	if (tl->w < 1)
		tl->w = 1;
	/* No blank rows below the last lane while lanes above are hidden. */
	if (tl->top + h > tl->nitems)
		tl->top = tl->nitems > h ? tl->nitems - h : 0;
	if (tl->cur < tl->top)
		tl->top = tl->cur;
	if (tl->cur >= tl->top + h)
		tl->top = tl->cur - h + 1;
	for (i = tl->top; i < tl->nitems && i < tl->top + h; i++) {
		r = &tl->rows[i];
		if (tl->items[i].header)
			continue;	/* a name, no cells */
		r->cells = xcalloc((size_t)tl->w, sizeof *r->cells);
		if (tl->items[i].group) {
			view_timeline_lanes_group(tl, &tl->items[i], r->cells);
			continue;
		}
		l = &tl->lanes[tl->items[i].lane];
		cl = view_timeline_lane_in(l, &s);
		off = view_timeline_align_at(tl, tl->items[i].lane);
		if (l->kind == LANE_COUNTER) {
			if (store_counter_lanes_cells(s, &cl, tl->f.t0 + off,
			    tl->f.t1 + off, (size_t)tl->w, r->cells,
			    &cause) != 0) {
				status_set(ROLE_ERROR, "%s", cause);
				free(cause);
				cause = NULL;
			}
			continue;
		}
		if (store_timeline_cells(s, cl.id, tl->f.t0 + off,
		    tl->f.t1 + off, (size_t)tl->w, r->cells, &cause) != 0) {
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			cause = NULL;
			continue;
		}
		if (store_spans_of_lane(s, cl.id, tl->f.t0 + off,
		    tl->f.t1 + off, (size_t)tl->w / 2, &r->spans, &r->nspans,
		    &cause) != 0) {
			free(cause);
			cause = NULL;
		}
		/* Drawn in the time of the screen. */
		for (j = 0; j < r->nspans; j++) {
			r->spans[j].start_ns -= off;
			r->spans[j].end_ns -= off;
			view_timeline_span_in(s, &r->spans[j]);
		}
	}
	if ((l = view_timeline_lanes_lane_at(tl)) == NULL ||
	    l->kind == LANE_COUNTER)
		return;
	/* The selection stays in the store's time. */
	cl = view_timeline_lane_in(l, &s);
	if (store_spans_at(s, cl.id, tl->f.cursor + view_timeline_align_at(tl,
	    (size_t)(l - tl->lanes)), &tl->sel, &cause) == 1) {
		tl->has_sel = true;
		tl->detail = store_spans_detail(s, &tl->sel, &cause);
		view_timeline_span_in(s, &tl->sel);
	}
	free(cause);
}


static void	view_timeline_show(struct view_tl *, const struct store_span *,
		    bool);

/*
 * Under --compare: the base run's lanes after NEW's, their ids
 * VIEW_TL_BASE more, each group named for its run ("new: Rank 0 ...",
 * "base: ..."). -1 with *cause set if the base has none.
 */
static int
view_timeline_open_base(struct view_tl *tl, char **cause)
{
	struct store_lane	*b;
	size_t			 nb, i;
	char			*g;

	if (store_lanes(session_compare_base(), &b, &nb, cause) != 0)
		return -1;
	if (nb == 0) {
		xasprintf(cause, "no timeline data in the base run");
		store_lanes_free(b, nb);
		return -1;
	}
	for (i = 0; i < tl->nlanes; i++) {
		xasprintf(&g, "new: %s", tl->lanes[i].group);
		free(tl->lanes[i].group);
		tl->lanes[i].group = g;
	}
	tl->lanes = xreallocarray(tl->lanes, tl->nlanes + nb,
	    sizeof *tl->lanes);
	for (i = 0; i < nb; i++) {
		tl->lanes[tl->nlanes + i] = b[i];
		tl->lanes[tl->nlanes + i].id += VIEW_TL_BASE;
		xasprintf(&g, "base: %s", b[i].group);
		free(b[i].group);
		tl->lanes[tl->nlanes + i].group = g;
	}
	tl->nlanes += nb;
	free(b);
	return 0;
}

/*
 * Where the timeline tables of the store shown (and of --compare's base)
 * are: 1 ready, 0 still being built in the background (started here if
 * not yet; *SECS says for how long), -1 with *cause set if they cannot
 * be had.
 */
int
view_timeline_ready(double *secs, char **cause)
{
	struct store	*s[2] = { session_store(), session_compare_base() };
	double		 t;
	int		 i, rc = 1, r;

	*secs = 0;
	for (i = 0; i < 2 && s[i] != NULL; i++) {
		t = 0;
		if (store_timeline_prefetch(s[i], cause) != 0 ||
		    (r = store_timeline_poll(s[i], &t, cause)) < 0)
			return -1;
		if (r == 0)
			rc = 0;
		if (t > *secs)
			*secs = t;
	}
	return rc;
}

/* Read the lanes into TL and lay them out; -1 with *cause set if none. */
static int
view_timeline_load(struct view_tl *tl, const struct view_timeline_arg *ta,
    char **cause)
{
	if (store_lanes(session_store(), &tl->lanes, &tl->nlanes, cause) != 0)
		return -1;
	if (tl->nlanes == 0) {
		xasprintf(cause, "no timeline data in this store");
		return -1;
	}
	if (session_compare_base() != NULL &&
	    view_timeline_open_base(tl, cause) != 0) {
		store_lanes_free(tl->lanes, tl->nlanes);
		tl->lanes = NULL;
		tl->nlanes = 0;
		return -1;
	}
	tl->align = NP_NA;
	view_timeline_align_extent(tl);
	tl->rows = xcalloc(2 * tl->nlanes, sizeof *tl->rows);
	tl->f.t0 = tl->fit0;
	tl->f.t1 = tl->fit1;
	tl->f.cursor = tl->fit0;
	tl->mark = tl->sel0 = tl->sel1 = tl->drag = NP_NA;
	tl->namew = tl->namew_want = TL_NAMEW;
	view_timeline_lanes_items(tl);
	/* Two runs: lined up at once, the frame on both. */
	if (view_timeline_align_runs(tl) == 0 && tl->align == NP_NA) {
		tl->f.t0 = tl->fit0;
		tl->f.t1 = tl->fit1;
		tl->f.cursor = tl->fit0;
	}
	if (ta != NULL && ta->span != NULL) {
		tl->step = ta->step;
		if (ta->fit)
			view_timeline_show(tl, ta->span, true);
		else
			view_timeline_focus(tl, ta->span);
		if (ta->cursor >= tl->f.t0 && ta->cursor < tl->f.t1)
			tl->f.cursor = ta->cursor;
		tl->nundo = 0;
	}
	view_timeline_fill(tl);
	return 0;
}

/*
 * Open the timeline. Its tables are built the first time a store's
 * timeline is asked for (store-lanes-side.c): until they are there, the
 * view says so and view_timeline_poll() waits for them. A span to show
 * comes from a jump, which found it in tables already built.
 */
static int
view_timeline_open(struct view *v, const void *arg, char **cause)
{
	const struct view_timeline_arg	*ta = arg;
	struct view_tl			*tl;
	double				 secs;
	int				 rc;

	if ((rc = view_timeline_ready(&secs, cause)) < 0)
		return -1;
	tl = xcalloc(1, sizeof *tl);
	tl->w = 1;
	if (rc == 0) {
		tl->pending = true;
		tl->t0 = util_now() - secs;
	} else if (view_timeline_load(tl, ta, cause) != 0) {
		free(tl);
		return -1;
	}
	v->data = tl;
	return 0;
}

/* The tables being built: show the lanes once they are there. */
static int
view_timeline_poll(struct view *v, enum view_work *w)
{
	struct view_tl	*tl = v->data;
	char		*cause = NULL;
	double		 secs;
	int		 rc;

	*w = WORK_IDLE;
	if (!tl->pending)
		return REDRAW_NONE;
	if ((rc = view_timeline_ready(&secs, &cause)) == 0) {
		tl->t0 = util_now() - secs;
		*w = WORK_SHOWN;	/* the view says it is building */
		return REDRAW_ALL;
	}
	tl->pending = false;
	if (rc == 1 && view_timeline_load(tl, NULL, &cause) == 0) {
		if (util_now() - tl->t0 > 0.5)
			status_set(ROLE_NORMAL, "timeline built in %.1f s",
			    util_now() - tl->t0);
		return REDRAW_ALL;
	}
	tl->error = cause;
	return REDRAW_ALL;
}

static void
view_timeline_close(struct view *v)
{
	struct view_tl	*tl = v->data;
	size_t		 i;

	free(tl->error);
	view_timeline_clear(tl);
	free(tl->rows);
	free(tl->items);
	for (i = 0; i < tl->ncollapsed; i++)
		free(tl->collapsed[i]);
	free(tl->collapsed);
	matcher_free(tl->hide);
	free(tl->hide_re);
	matcher_free(tl->search);
	free(tl->search_re);
	free(tl->off);
	store_lanes_free(tl->lanes, tl->nlanes);
	free(tl);
}

/* The column of instant T, or -1 off screen. */
static int
view_timeline_col(const struct view_tl *tl, int64_t t)
{
	if (t < tl->f.t0 || t >= tl->f.t1)
		return -1;
	return (int)((double)(t - tl->f.t0) / (double)(tl->f.t1 - tl->f.t0) *
	    tl->w);
}

/* The glyph for a busy fraction F of a cell that has work. */
static const char *
view_timeline_glyph(double f)
{
	static const char *blocks[] = { "\u2581", "\u2582", "\u2583",
	    "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char *ascii[] = { ".", ":", "-", "=", "+", "*", "#",
	    "@" };
	int	 i = (int)(f * 8 + 0.999);

	i = i < 1 ? 0 : i > 8 ? 7 : i - 1;
	return draw_utf8() ? blocks[i] : ascii[i];
}

static enum role
view_timeline_role(int type)
{
	if (type < 0 || type >= SPAN_NTYPES)
		return ROLE_NORMAL;
	return (enum role)(ROLE_SPAN_AI_CORE + type);
}

/* The columns [*X0, *X1) the selected range covers; false if none. */
static bool
view_timeline_sel_cols(const struct view_tl *tl, int *x0, int *x1)
{
	if (tl->sel0 == NP_NA || tl->sel1 <= tl->f.t0 || tl->sel0 >= tl->f.t1)
		return false;
	*x0 = tl->sel0 <= tl->f.t0 ? 0 : view_timeline_col(tl, tl->sel0);
	*x1 = tl->sel1 >= tl->f.t1 ? tl->w : view_timeline_col(tl,
	    tl->sel1 - 1) + 1;
	return *x1 > *x0;
}

/*
 * A tick label: time T in the unit of the axis' largest time TMAX (ns),
 * with the decimals that keep neighbouring ticks SPACING ns apart
 * ("2.7ms", "5.3ms"; zoomed in, "1.43325ms", "1.43424ms", not
 * "1433250ns"), so every tick of the axis reads in one unit.
 */
static void
view_timeline_tick(char *buf, size_t size, int64_t t, double spacing,
    int64_t tmax)
{
	static const struct {
		double		 ns;
		const char	*unit;
	} units[] = { { 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" } };
	size_t	 u = 0;
	int	 decimals;
	double	 s;

	while (u + 1 < sizeof units / sizeof units[0] &&
	    (double)(tmax < 0 ? -tmax : tmax) >= units[u + 1].ns)
		u++;
	/* One decimal for a spacing of 1 to 10 units, more below. */
	s = spacing / units[u].ns;
	for (decimals = s >= 10 ? 0 : 1; s < 1 && decimals < 9; s *= 10)
		decimals++;
	if (u == 0)
		decimals = 0;
	snprintf(buf, size, "%.*f%s", decimals, (double)t / units[u].ns,
	    units[u].unit);
}

/*
 * The time axis: the cursor's time, then ticks in one unit (a label that
 * would be cut at the right edge is left out) and the range.
 */
static void
view_timeline_axis(struct view_tl *tl, int y)
{
	char	 a[32], c[32];
	int	 x, x0 = 0, x1 = 0, step = 20;
	double	 spacing;
	bool	 sel;

	draw_fill(y, 0, COLS, ROLE_HEADER);
	util_fmt_time(a, sizeof a, tl->f.cursor - tl->lo);
	draw_textf(y, 0, tl->namew, ROLE_HEADER, "@%s", a);
	sel = view_timeline_sel_cols(tl, &x0, &x1);
	spacing = (double)(tl->f.t1 - tl->f.t0) * step / (tl->w > 0 ? tl->w :
	    1);
	for (x = 0; x < tl->w; x += step) {
		/* Ticks under the range would show through its ends. */
		if (sel && x < x1 && x + step > x0)
			continue;
		view_timeline_tick(c, sizeof c, tl->f.t0 - tl->lo +
		    (int64_t)((double)(tl->f.t1 - tl->f.t0) * x / tl->w),
		    spacing, tl->f.t1 - tl->lo);
		if (x + 1 + (int)strlen(c) > tl->w)
			break;
		draw_textf(y, tl->namew + 1 + x, step, ROLE_HEADER, "|%s", c);
	}
	if (sel) {
		util_fmt_time(c, sizeof c, tl->sel1 - tl->sel0);
		draw_fill(y, tl->namew + 1 + x0, x1 - x0, ROLE_MATCH);
		draw_textf(y, tl->namew + 1 + x0, x1 - x0, ROLE_MATCH, "[%s]",
		    c);
	}
}

/*
 * The name of row I: the lane's, under its group's header (which names
 * the rank), or the group's with its count of lanes, open or collapsed.
 */
static void
view_timeline_name(const struct view_tl *tl, size_t i, char *name, size_t size)
{
	const struct view_tl_item	*it = &tl->items[i];
	const struct store_lane	*l = &tl->lanes[it->lane];

	if (it->group || it->header)
		snprintf(name, size, "%s%s (%zu)", it->header ? draw_utf8() ?
		    "\u25be" : "-" : draw_utf8() ? "\u25b8" : "+", l->group,
		    it->nlanes);
	else
		snprintf(name, size, " %s", l->name);
}

/*
 * The sparkline glyph of a counter cell holding V, on a scale from zero
 * (or the series' lowest value, when below zero) to its highest value, so
 * the height reads as a magnitude: a series that never leaves zero stays
 * on the lowest block.
 */
static const char *
view_timeline_spark(const struct store_lane *l, double v)
{
	double	 lo = l->vmin < 0 ? l->vmin : 0;

	if (l->vmax <= lo)
		return view_timeline_glyph(0);
	return view_timeline_glyph((v - lo) / (l->vmax - lo));
}

/* One row: name, then its cells, span names, the cursor. */
static void
view_timeline_lane(struct view_tl *tl, size_t i, int y)
{
	struct view_tl_row		*r = &tl->rows[i];
	const struct store_lane	*l;
	struct store_span	*sp;
	int64_t			 a, b, off;
	size_t			 j;
	int			 x, x1, cx, nx = tl->namew + 1;
	enum role		 role;
	bool			 selected, peak = false;
	char			 name[96];

	draw_fill(y, 0, COLS, ROLE_NORMAL);
	view_timeline_name(tl, i, name, sizeof name);
	if (tl->items[i].header) {
		/* A header takes the whole row: no cells to make room for. */
		draw_text(y, 0, COLS, i == tl->cur ? ROLE_CURSOR : ROLE_TITLE,
		    name);
		return;
	}
	draw_cell(y, 0, tl->namew, i == tl->cur ? ROLE_CURSOR : ROLE_LABEL,
	    name, false);
	/* The selection is in the store's time, the cells in the screen's. */
	off = view_timeline_align_at(tl, tl->items[i].lane);
	if (r->cells == NULL)
		return;
	for (x = 0; x < tl->w; x++) {
		if (r->cells[x].type < 0)
			continue;
		if (!tl->items[i].group &&
		    tl->lanes[tl->items[i].lane].kind == LANE_COUNTER) {
			l = &tl->lanes[tl->items[i].lane];
			/* The series' peak, the first cell reaching it. */
			if (!peak && l->vmax > l->vmin &&
			    r->cells[x].value >= l->vmax) {
				draw_text(y, nx + x, 1, ROLE_HOT,
				    draw_glyph_up());
				peak = true;
				continue;
			}
			draw_text(y, nx + x, 1, ROLE_SPARK, view_timeline_spark(
			    l, r->cells[x].value));
			continue;
		}
		a = store_timeline_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
		    (size_t)x);
		b = store_timeline_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
		    (size_t)x + 1);
		selected = tl->has_sel && i == tl->cur &&
		    tl->sel.start_ns - off < b && (tl->sel.end_ns - off > a ||
		    tl->sel.start_ns - off >= a);
		role = selected ? ROLE_CURSOR :
		    view_timeline_role(r->cells[x].type);
		draw_text(y, nx + x, 1, role, view_timeline_glyph(
		    b > a ? (double)r->cells[x].busy_ns / (double)(b - a) : 1));
	}
	/*
	 * Spans two cells wide or more as filled bars, named inside when
	 * a few letters fit; the selected one outlined.
	 */
	for (j = 0; j < r->nspans; j++) {
		sp = &r->spans[j];
		x = view_timeline_col(tl, sp->start_ns < tl->f.t0 ?
		    tl->f.t0 : sp->start_ns);
		x1 = sp->end_ns >= tl->f.t1 ? tl->w :
		    view_timeline_col(tl, sp->end_ns);
		if (x < 0 || x1 - x < 2)
			continue;
		selected = tl->has_sel && i == tl->cur &&
		    sp->start_ns + off == tl->sel.start_ns &&
		    sp->end_ns + off == tl->sel.end_ns;
		draw_span(y, nx + x, x1 - x, view_timeline_role(sp->type),
		    x1 - x >= 4 ? sp->name : NULL, selected);
	}
	if (i == tl->cur && (cx = view_timeline_col(tl, tl->f.cursor)) >= 0)
		mvchgat(y, nx + cx, 1, A_REVERSE, 0, NULL);
}

/*
 * The footer's text S on line Y + 1; where it is wider than the screen, it
 * is cut between two fields and the first part takes the rule's line Y,
 * so that the duration and the fields after it are not lost at 120
 * columns.
 */
static void
view_timeline_footer_text(int y, const char *s)
{
	const char	*cut = NULL, *p;
	char		*head;

	if (draw_width(s) > COLS) {
		for (p = strstr(s, "  "); p != NULL; p = strstr(p + 2, "  ")) {
			head = xstrndup(s, (size_t)(p - s));
			if (draw_width(head) <= COLS)
				cut = p;
			free(head);
			if (cut != p)
				break;
		}
	}
	if (cut == NULL) {
		draw_text(y + 1, 0, COLS, ROLE_NORMAL, s);
		return;
	}
	head = xstrndup(s, (size_t)(cut - s));
	draw_fill(y, 0, COLS, ROLE_NORMAL);
	draw_text(y, 0, COLS, ROLE_NORMAL, head);
	draw_text(y + 1, 0, COLS, ROLE_NORMAL, cut + 2);
	free(head);
}

/* The footer: the selected span's details on two lines. */
static void
view_timeline_footer(struct view_tl *tl, int y)
{
	const struct store_lane	*l = view_timeline_lanes_lane_at(tl);
	struct strbuf		 sb;
	size_t			 i;

	draw_fill(y, 0, COLS, ROLE_NORMAL);
	draw_fill(y + 1, 0, COLS, ROLE_NORMAL);
	draw_hline(y, 0, COLS, ROLE_DIM);
	if (l == NULL) {
		draw_text(y + 1, 0, COLS, ROLE_DIM, tl->items[tl->cur].header ?
		    "a group of lanes: c collapses it into one row" :
		    "a collapsed group: c expands it");
		return;
	}
	if (l->kind == LANE_COUNTER) {
		view_timeline_counter_footer(tl, l, y + 1);
		return;
	}
	if (tl->detail == NULL) {
		draw_text(y + 1, 0, COLS, ROLE_DIM, "no span at the cursor");
		return;
	}
	strbuf_init(&sb);
	strbuf_adds(&sb, l->group);
	for (i = 0; i < tl->detail->nrows; i++) {
		if (*store_rows_cell(tl->detail, i, 1) == '\0')
			continue;
		if (sb.len > 0)
			strbuf_adds(&sb, "  ");
		strbuf_adds(&sb, store_rows_cell(tl->detail, i, 0));
		strbuf_adds(&sb, ": ");
		strbuf_adds(&sb, store_rows_cell(tl->detail, i, 1));
	}
	view_timeline_footer_text(y, sb.s != NULL ? sb.s : "");
	strbuf_release(&sb);
}

/* The view while its tables are built, or why it has none. */
static void
view_timeline_waiting(struct view_tl *tl, int y, int h)
{
	char	 buf[160];
	int	 row;

	if (tl->error != NULL)
		snprintf(buf, sizeof buf, " No timeline: %s", tl->error);
	else
		snprintf(buf, sizeof buf, " Building the timeline (the first"
		    " time this store shows one)... %.0f s", util_now() -
		    tl->t0);
	for (row = 0; row < h; row++)
		draw_fill(y + row, 0, COLS, ROLE_NORMAL);
	draw_text(y + 1, 0, COLS, ROLE_NORMAL, buf);
}

static void
view_timeline_draw(struct view *v, int y, int h)
{
	struct view_tl	*tl = v->data;
	size_t		 i, n = view_timeline_lanes_height();
	int		 row;

	if (tl->pending || tl->lanes == NULL) {
		view_timeline_waiting(tl, y, h);
		return;
	}
	view_timeline_axis(tl, y);
	for (row = 0, i = tl->top; row < (int)n; row++, i++) {
		if (i < tl->nitems)
			view_timeline_lane(tl, i, y + 1 + row);
		else
			draw_fill(y + 1 + row, 0, COLS, ROLE_NORMAL);
	}
	view_timeline_footer(tl, y + h - 2);
}

/* Put the cursor on SP (on its lane), showing it. */
static void
view_timeline_show(struct view_tl *tl, const struct store_span *sp, bool fit)
{
	int64_t	 span = tl->f.t1 - tl->f.t0, d;
	int64_t	 s0 = sp->start_ns - view_timeline_align_of(tl, sp->lane);
	int64_t	 s1 = sp->end_ns - view_timeline_align_of(tl, sp->lane);

	view_timeline_lanes_to_lane(tl, sp->lane);
	tl->f.cursor = s0;
	if (fit) {
		d = s1 - s0;
		view_timeline_range_set(tl, s0 - d / 10, s1 + d / 10 + 1,
		    true);
	} else if (s0 < tl->f.t0 || s0 >= tl->f.t1)
		view_timeline_range_set(tl, s0 - span / 2,
		    s0 + span - span / 2, true);
}

/*
 * Centre the frame on SP, five times as wide as it (so its neighbours
 * show), with the cursor on it: where a jump from a table lands.
 */
void
view_timeline_focus(struct view_tl *tl, const struct store_span *sp)
{
	int64_t	 d = sp->end_ns - sp->start_ns, mid;
	int64_t	 s0 = sp->start_ns - view_timeline_align_of(tl, sp->lane);

	if (d < VIEW_TL_MINSPAN * 64)
		d = VIEW_TL_MINSPAN * 64;
	mid = s0 + (sp->end_ns - sp->start_ns) / 2;
	view_timeline_lanes_to_lane(tl, sp->lane);
	view_timeline_range_set(tl, mid - d * 5 / 2, mid - d * 5 / 2 + d * 5,
	    true);
	tl->f.cursor = s0;
}

/* The answer to t: an absolute time from the start, or +/- relative. */
static void
view_timeline_goto(void *arg, const char *answer)
{
	struct view_tl	*tl = arg;
	int64_t		 ns, span = tl->f.t1 - tl->f.t0;
	const char	*p = answer;
	char		*end;
	double		 v;
	int		 rel = 0;

	if (answer == NULL || *answer == '\0')
		return;
	if (*p == '+' || *p == '-')
		rel = *p++ == '+' ? 1 : -1;
	v = strtod(p, &end);
	if (end == p) {
		status_set(ROLE_ERROR, "bad time '%s'", answer);
		return;
	}
	if (strcmp(end, "s") == 0)
		v *= 1e9;
	else if (strcmp(end, "ms") == 0)
		v *= 1e6;
	else if (strcmp(end, "us") == 0 || *end == '\0')
		v *= 1e3;
	else if (strcmp(end, "ns") != 0) {
		status_set(ROLE_ERROR, "bad unit in '%s'", answer);
		return;
	}
	ns = (int64_t)v;
	tl->f.cursor = rel != 0 ? tl->f.cursor + rel * ns : tl->lo + ns;
	if (tl->f.cursor < tl->f.t0 || tl->f.cursor >= tl->f.t1)
		view_timeline_range_set(tl, tl->f.cursor - span / 2,
		    tl->f.cursor + span - span / 2, true);
	view_timeline_fill(tl);
}

/* The answer to x: hide the lanes it matches, then show what is left. */
static void
view_timeline_hide_done(void *arg, const char *answer)
{
	struct view_tl	*tl = arg;

	if (view_timeline_lanes_hide(tl, answer))
		view_timeline_fill(tl);
}

/* Move to the next or previous span on the cursor's lane. */
static void
view_timeline_step(struct view_tl *tl, enum store_span_dir dir)
{
	const struct store_lane	*l = view_timeline_lanes_lane_at(tl);
	struct store_lane	 cl;
	struct store_span	 sp, sel;
	struct store		*s;
	char			*cause = NULL;

	if (l == NULL)
		return;
	cl = view_timeline_lane_in(l, &s);
	sel = tl->sel;
	sel.lane = cl.id;
	if (store_spans_step(s, cl.id, tl->has_sel ? &sel : NULL,
	    tl->f.cursor + view_timeline_align_at(tl, (size_t)(l -
	    tl->lanes)), dir, &sp, &cause) == 1) {
		view_timeline_span_in(s, &sp);
		view_timeline_show(tl, &sp, false);
		store_spans_release(&sp);
	} else
		status_set(ROLE_NORMAL, "no %s span on this lane",
		    dir == SPAN_NEXT ? "next" : "previous");
	free(cause);
}

static void
view_timeline_flow(struct view_tl *tl)
{
	struct store_span	 sp, sel;
	struct store		*s;
	char			*cause = NULL;

	sel = tl->sel;
	s = view_timeline_store(tl->sel.lane, &sel.lane);
	if (!tl->has_sel || store_spans_flow(s, &sel, &sp, &cause) != 1) {
		status_set(ROLE_NORMAL, "no flow from the span at the cursor");
		free(cause);
		return;
	}
	view_timeline_span_in(s, &sp);
	view_timeline_show(tl, &sp, false);
	store_spans_release(&sp);
}

/* n and N: the next or previous instance of the op type. */
static void
view_timeline_instance(struct view_tl *tl, enum store_span_dir dir)
{
	struct store_span	 sp;

	if (tl->step(dir, &sp) != 1)
		return;
	view_timeline_focus(tl, &sp);
	store_spans_release(&sp);
}

/*
 * Move the frame of TL by SPAN ns, the cursor with it: it stays on its
 * column, and moves as far as the frame did where a bound stopped it.
 */
static void
view_timeline_pan(struct view_tl *tl, int64_t span)
{
	int64_t	 t0 = tl->f.t0, cursor = tl->f.cursor;

	view_timeline_range_set(tl, tl->f.t0 + span, tl->f.t1 + span, true);
	cursor += tl->f.t0 - t0;
	if (cursor < tl->f.t0)
		cursor = tl->f.t0;
	if (cursor >= tl->f.t1)
		cursor = tl->f.t1 - 1;
	tl->f.cursor = cursor;
}

static int
view_timeline_key(struct view *v, enum action a, int key)
{
	struct view_tl	*tl = v->data;
	int64_t		 span = tl->f.t1 - tl->f.t0;

	if (tl->pending || tl->lanes == NULL)
		return -1;
	if (key == KEY_MOUSE) {
		if (view_timeline_range_mouse(tl) == 0)
			return REDRAW_NONE;
		view_timeline_fill(tl);
		return REDRAW_ALL;
	}
	switch (a) {
	case ACTION_ZOOM_IN:
		view_timeline_range_zoom(tl, tl->f.cursor, 1, 2);
		break;
	case ACTION_ZOOM_OUT:
		view_timeline_range_zoom(tl, tl->f.cursor, 2, 1);
		break;
	case ACTION_PAN_LEFT:
	case ACTION_PAN_RIGHT:
		span = a == ACTION_PAN_LEFT ? -span / 4 : span / 4;
		view_timeline_pan(tl, span);
		break;
	case ACTION_FIT:
		view_timeline_range_set(tl, tl->fit0, tl->fit1, true);
		break;
	case ACTION_UNDO:
		if (tl->nundo == 0) {
			status_set(ROLE_NORMAL, "nothing to undo");
			return REDRAW_STATUS;
		}
		tl->f = tl->undo[--tl->nundo];
		break;
	case ACTION_UP:
		if (tl->cur > 0)
			tl->cur--;
		break;
	case ACTION_DOWN:
		if (tl->cur + 1 < tl->nitems)
			tl->cur++;
		break;
	case ACTION_TOP:
		tl->cur = 0;
		break;
	case ACTION_BOTTOM:
		tl->cur = tl->nitems - 1;
		break;
	case ACTION_NEXT_SPAN:
	case ACTION_PREV_SPAN:
		view_timeline_step(tl, a == ACTION_NEXT_SPAN ? SPAN_NEXT :
		    SPAN_PREV);
		break;
	case ACTION_FOLLOW_FLOW:
		view_timeline_flow(tl);
		break;
	case ACTION_ZOOM_SPAN:
		if (tl->has_sel)
			view_timeline_show(tl, &tl->sel, true);
		break;
	case ACTION_MARK:
		tl->mark = tl->f.cursor;
		status_set(ROLE_NORMAL, "mark set");
		return REDRAW_STATUS;
	case ACTION_GOTO_MARK:
		if (tl->mark == NP_NA) {
			status_set(ROLE_NORMAL, "no mark");
			return REDRAW_STATUS;
		}
		tl->f.cursor = tl->mark;
		if (tl->mark < tl->f.t0 || tl->mark >= tl->f.t1)
			view_timeline_range_set(tl, tl->mark - span / 2,
			    tl->mark + span - span / 2, true);
		break;
	case ACTION_PEAK:
		return view_timeline_counter_peak(tl);
	case ACTION_GOTO_TIME:
		prompt_start("Go to time (us, or with ns/us/ms/s; +/- "
		    "relative): ", "", view_timeline_goto, tl);
		return REDRAW_STATUS;
	case ACTION_SELECT:
	case ACTION_APPLY_RANGE:
	case ACTION_RANGE_FLAME:
	case ACTION_CLOSE:
		return view_timeline_range_key(tl, a);
	case ACTION_COLLAPSE:
		view_timeline_lanes_collapse(tl);
		break;
	case ACTION_ALIGN_STEPS:
		return view_timeline_align_key(tl);
	case ACTION_HIDE_LANES:
		prompt_start("Hide lanes matching (empty shows all): ",
		    tl->hide_re != NULL ? tl->hide_re : "",
		    view_timeline_hide_done, tl);
		return REDRAW_STATUS;
	case ACTION_NARROW:
	case ACTION_WIDEN:
		/* From the width shown: past half the screen, it stops. */
		tl->namew_want = tl->namew + (a == ACTION_NARROW ? -2 : 2);
		if (tl->namew_want < TL_MINNAMEW)
			tl->namew_want = TL_MINNAMEW;
		break;
	case ACTION_SEARCH:
		return view_timeline_search_key(tl, a);
	case ACTION_NEXT_MATCH:
	case ACTION_PREV_MATCH:
		if (tl->searching)
			return view_timeline_search_key(tl, a);
		if (tl->step == NULL)
			return -1;
		view_timeline_instance(tl, a == ACTION_NEXT_MATCH ? SPAN_NEXT :
		    SPAN_PREV);
		break;
	default:
		return -1;
	}
	view_timeline_fill(tl);
	return REDRAW_ALL;
}

static void
view_timeline_resize(struct view *v)
{
	struct view_tl	*tl = v->data;

	if (!tl->pending && tl->lanes != NULL)
		view_timeline_fill(tl);
}

static void
view_timeline_status(struct view *v, char *buf, size_t len)
{
	struct view_tl	*tl = v->data;
	char		 a[32], b[32], r[32], c[48] = "", at[48];
	size_t		 i, n = 0, k = 0;

	if (tl->pending || tl->lanes == NULL) {
		snprintf(buf, len, " Timeline  %s", tl->pending ?
		    "building..." : "none");
		return;
	}
	/* Lanes and collapsed groups count; a group's header does not. */
	for (i = 0; i < tl->nitems; i++) {
		if (tl->items[i].header)
			continue;
		n++;
		k += i <= tl->cur;
	}
	if (tl->nitems > 0 && tl->items[tl->cur].header)
		snprintf(at, sizeof at, "group of %zu",
		    tl->items[tl->cur].nlanes);
	else
		snprintf(at, sizeof at, "lane %zu of %zu", k, n);
	util_fmt_time(a, sizeof a, tl->f.t1 - tl->f.t0);
	util_fmt_time(b, sizeof b, (tl->f.t1 - tl->f.t0) / tl->w);
	if (tl->sel0 != NP_NA) {
		util_fmt_time(r, sizeof r, tl->sel1 - tl->sel0);
		snprintf(c, sizeof c, "  range %s", r);
	}
	if (tl->align != NP_NA) {
		n = strlen(c);
		snprintf(c + n, sizeof c - n, "  at step %lld",
		    (long long)tl->align);
	}
	snprintf(buf, len, " Timeline  %s  frame %s  cell %s%s", at, a, b, c);
}

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.title = "Timeline",
	.open = view_timeline_open,
	.close = view_timeline_close,
	.draw = view_timeline_draw,
	.key = view_timeline_key,
	.resize = view_timeline_resize,
	.status = view_timeline_status,
	.tick = view_timeline_poll,
	.keymap = view_timeline_keys,
	.hints = view_timeline_hints,
};
