/*
 * The timeline view: one row per lane (host threads by API depth, steps,
 * device streams, grouped per rank and device) over a time axis, each cell
 * shaded by how busy the lane is in it (eighth blocks, or a density glyph
 * without UTF-8) in the colour of the span type covering most of it.
 * Zoomed in far enough, span names are written inside their spans. Lane
 * names carry the rank when there is one; the footer names the group. The
 * cursor is an instant and a lane; the span under it is highlighted and
 * described in the footer. Key handlers change the frame and refill the
 * cells from the store (store_lane_cells, exact busy time); drawing only
 * reads what they left.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

#define TL_NAMEW	16	/* lane name column */
#define TL_UNDO		64
#define TL_MINSPAN	16	/* narrowest frame, ns */

struct tl_frame {
	int64_t		 t0;
	int64_t		 t1;
	int64_t		 cursor;
};

struct tl_row {
	struct store_cell	*cells;
	struct store_span	*spans;		/* NULL unless zoomed in */
	size_t			 nspans;
};

struct tl {
	struct store_lane	*lanes;
	size_t			 nlanes;
	size_t			 cur;		/* lane of the cursor */
	size_t			 top;		/* first lane shown */
	int64_t			 lo;		/* extent of every lane */
	int64_t			 hi;
	struct tl_frame		 f;
	struct tl_frame		 undo[TL_UNDO];
	size_t			 nundo;
	int64_t			 mark;		/* NP_NA if none */
	int			 w;		/* cells across */
	struct tl_row		*rows;		/* nlanes, filled when shown */
	struct store_span	 sel;		/* span at the cursor */
	bool			 has_sel;
	struct store_rows	*detail;
};

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
	{ 'm', ACTION_MARK, NULL },
	{ '\'', ACTION_GOTO_MARK, NULL },
	{ 0, ACTION_NONE, NULL }
};

/* Write NS as a time with a unit that suits it: ns, us, ms or s. */
static void
view_timeline_fmt(char *buf, size_t size, int64_t ns)
{
	const char	*sign = ns < 0 ? "-" : "";
	int64_t		 a = ns < 0 ? -ns : ns;

	if (a < 1000)
		snprintf(buf, size, "%s%lldns", sign, (long long)a);
	else if (a < 1000000)
		snprintf(buf, size, "%s%.3gus", sign, (double)a / 1e3);
	else if (a < 1000000000)
		snprintf(buf, size, "%s%.4gms", sign, (double)a / 1e6);
	else
		snprintf(buf, size, "%s%.6gs", sign, (double)a / 1e9);
}

static void
view_timeline_clear(struct tl *tl)
{
	size_t	 i, j;

	for (i = 0; i < tl->nlanes; i++) {
		free(tl->rows[i].cells);
		tl->rows[i].cells = NULL;
		for (j = 0; j < tl->rows[i].nspans; j++)
			store_span_release(&tl->rows[i].spans[j]);
		free(tl->rows[i].spans);
		tl->rows[i].spans = NULL;
		tl->rows[i].nspans = 0;
	}
	if (tl->has_sel)
		store_span_release(&tl->sel);
	tl->has_sel = false;
	store_rows_free(tl->detail);
	tl->detail = NULL;
}

/* Lanes that fit: the body less the axis and the footer. */
static size_t
view_timeline_height(void)
{
	int	 h = view_body_lines() - 3;

	return h > 0 ? (size_t)h : 1;
}

/*
 * Query the cells (and, zoomed in, the spans) of the lanes on screen and
 * the span under the cursor.
 */
static void
view_timeline_fill(struct tl *tl)
{
	struct store	*s = ui_store();
	struct tl_row	*r;
	size_t		 i, h = view_timeline_height();
	char		*cause = NULL;

	view_timeline_clear(tl);
	tl->w = COLS - TL_NAMEW - 1;
	if (tl->w < 1)
		tl->w = 1;
	if (tl->cur < tl->top)
		tl->top = tl->cur;
	if (tl->cur >= tl->top + h)
		tl->top = tl->cur - h + 1;
	for (i = tl->top; i < tl->nlanes && i < tl->top + h; i++) {
		r = &tl->rows[i];
		r->cells = xcalloc((size_t)tl->w, sizeof *r->cells);
		if (store_lane_cells(s, tl->lanes[i].id, tl->f.t0, tl->f.t1,
		    (size_t)tl->w, r->cells, &cause) != 0) {
			ui_message(ROLE_ERROR, "%s", cause);
			free(cause);
			cause = NULL;
			continue;
		}
		if (store_lane_spans(s, tl->lanes[i].id, tl->f.t0, tl->f.t1,
		    (size_t)tl->w / 2, &r->spans, &r->nspans, &cause) != 0) {
			free(cause);
			cause = NULL;
		}
	}
	if (tl->nlanes == 0)
		return;
	if (store_lane_span_at(s, tl->lanes[tl->cur].id, tl->f.cursor,
	    &tl->sel, &cause) == 1) {
		tl->has_sel = true;
		tl->detail = store_span_detail(s, &tl->sel, &cause);
	}
	free(cause);
}

static int
view_timeline_open(struct view *v, const void *arg, char **cause)
{
	struct tl	*tl;
	size_t		 i;

	tl = xcalloc(1, sizeof *tl);
	if (store_lanes(ui_store(), &tl->lanes, &tl->nlanes, cause) != 0) {
		free(tl);
		return -1;
	}
	if (tl->nlanes == 0) {
		xasprintf(cause, "no timeline data in this store");
		free(tl);
		return -1;
	}
	tl->lo = INT64_MAX;
	tl->hi = INT64_MIN;
	for (i = 0; i < tl->nlanes; i++) {
		if (tl->lanes[i].start_ns < tl->lo)
			tl->lo = tl->lanes[i].start_ns;
		if (tl->lanes[i].end_ns > tl->hi)
			tl->hi = tl->lanes[i].end_ns;
	}
	if (tl->hi - tl->lo < TL_MINSPAN)
		tl->hi = tl->lo + TL_MINSPAN;
	tl->rows = xcalloc(tl->nlanes, sizeof *tl->rows);
	tl->f.t0 = tl->lo;
	tl->f.t1 = tl->hi;
	tl->f.cursor = tl->lo;
	tl->mark = NP_NA;
	v->data = tl;
	view_timeline_fill(tl);
	return 0;
}

static void
view_timeline_close(struct view *v)
{
	struct tl	*tl = v->data;

	view_timeline_clear(tl);
	free(tl->rows);
	store_lanes_free(tl->lanes, tl->nlanes);
	free(tl);
}

/* The column of instant T, or -1 off screen. */
static int
view_timeline_col(const struct tl *tl, int64_t t)
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
	return ui_utf8() ? blocks[i] : ascii[i];
}

static enum role
view_timeline_role(int type)
{
	if (type < 0 || type >= SPAN_NTYPES)
		return ROLE_NORMAL;
	return (enum role)(ROLE_SPAN_AI_CORE + type);
}

/* The time axis: the frame's start, ticks, and the cursor. */
static void
view_timeline_axis(struct tl *tl, int y)
{
	char	 a[32], c[32];
	int	 x, step = 20;

	draw_fill(y, 0, COLS, ROLE_HEADER);
	view_timeline_fmt(a, sizeof a, tl->f.cursor - tl->lo);
	draw_textf(y, 0, TL_NAMEW, ROLE_HEADER, "@%s", a);
	for (x = 0; x < tl->w; x += step) {
		view_timeline_fmt(c, sizeof c, tl->f.t0 - tl->lo +
		    (int64_t)((double)(tl->f.t1 - tl->f.t0) * x / tl->w));
		draw_textf(y, TL_NAMEW + 1 + x, step, ROLE_HEADER, "|%s", c);
	}
}

/* One lane: name, then its cells, span names, the cursor. */
static void
view_timeline_lane(struct tl *tl, size_t i, int y)
{
	struct tl_row		*r = &tl->rows[i];
	struct store_span	*sp;
	int64_t			 a, b;
	size_t			 j;
	int			 x, x1, cx;
	enum role		 role;
	bool			 selected;
	char			 name[64];

	draw_fill(y, 0, COLS, ROLE_NORMAL);
	if (tl->lanes[i].rank != NP_NA)
		snprintf(name, sizeof name, "%lld %s",
		    (long long)tl->lanes[i].rank, tl->lanes[i].name);
	else
		snprintf(name, sizeof name, "%s", tl->lanes[i].name);
	draw_cell(y, 0, TL_NAMEW, i == tl->cur ? ROLE_CURSOR : ROLE_LABEL,
	    name, false);
	if (r->cells == NULL)
		return;
	for (x = 0; x < tl->w; x++) {
		if (r->cells[x].type < 0)
			continue;
		a = store_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
		    (size_t)x);
		b = store_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
		    (size_t)x + 1);
		selected = tl->has_sel && i == tl->cur &&
		    tl->sel.start_ns < b && (tl->sel.end_ns > a ||
		    tl->sel.start_ns >= a);
		role = selected ? ROLE_CURSOR :
		    view_timeline_role(r->cells[x].type);
		draw_text(y, TL_NAMEW + 1 + x, 1, role, view_timeline_glyph(
		    b > a ? (double)r->cells[x].busy_ns / (double)(b - a) : 1));
	}
	/* Names inside spans wide enough to hold a few letters. */
	for (j = 0; j < r->nspans; j++) {
		sp = &r->spans[j];
		x = view_timeline_col(tl, sp->start_ns < tl->f.t0 ?
		    tl->f.t0 : sp->start_ns);
		x1 = sp->end_ns >= tl->f.t1 ? tl->w :
		    view_timeline_col(tl, sp->end_ns);
		if (x < 0 || x1 - x < 4 || sp->name == NULL)
			continue;
		draw_cell(y, TL_NAMEW + 1 + x, x1 - x,
		    view_timeline_role(sp->type), sp->name, false);
	}
	if (i == tl->cur && (cx = view_timeline_col(tl, tl->f.cursor)) >= 0)
		mvchgat(y, TL_NAMEW + 1 + cx, 1, A_REVERSE, 0, NULL);
}

/* The footer: the selected span's details on two lines. */
static void
view_timeline_footer(struct tl *tl, int y)
{
	struct strbuf	 sb;
	size_t		 i;

	draw_fill(y, 0, COLS, ROLE_NORMAL);
	draw_fill(y + 1, 0, COLS, ROLE_NORMAL);
	draw_hline(y, 0, COLS, ROLE_DIM);
	if (tl->detail == NULL) {
		draw_text(y + 1, 0, COLS, ROLE_DIM, "no span at the cursor");
		return;
	}
	strbuf_init(&sb);
	strbuf_adds(&sb, tl->lanes[tl->cur].group);
	for (i = 0; i < tl->detail->nrows; i++) {
		if (*store_rows_cell(tl->detail, i, 1) == '\0')
			continue;
		if (sb.len > 0)
			strbuf_adds(&sb, "  ");
		strbuf_adds(&sb, store_rows_cell(tl->detail, i, 0));
		strbuf_adds(&sb, ": ");
		strbuf_adds(&sb, store_rows_cell(tl->detail, i, 1));
	}
	draw_text(y + 1, 0, COLS, ROLE_NORMAL, sb.s != NULL ? sb.s : "");
	strbuf_release(&sb);
}

static void
view_timeline_draw(struct view *v, int y, int h)
{
	struct tl	*tl = v->data;
	size_t		 i, n = view_timeline_height();
	int		 row;

	view_timeline_axis(tl, y);
	for (row = 0, i = tl->top; row < (int)n; row++, i++) {
		if (i < tl->nlanes)
			view_timeline_lane(tl, i, y + 1 + row);
		else
			draw_fill(y + 1 + row, 0, COLS, ROLE_NORMAL);
	}
	view_timeline_footer(tl, y + h - 2);
}

/* Make [T0, T1) the frame, kept inside sane bounds, saving the old one. */
static void
view_timeline_set(struct tl *tl, int64_t t0, int64_t t1, bool save)
{
	int64_t	 pad = (tl->hi - tl->lo) / 2;

	if (t1 - t0 < TL_MINSPAN)
		t1 = t0 + TL_MINSPAN;
	if (t1 - t0 > (tl->hi - tl->lo) * 4) {
		t0 = tl->lo;
		t1 = tl->hi;
	}
	if (t0 < tl->lo - pad) {
		t1 += tl->lo - pad - t0;
		t0 = tl->lo - pad;
	}
	if (t1 > tl->hi + pad) {
		t0 -= t1 - tl->hi - pad;
		t1 = tl->hi + pad;
	}
	if (save) {
		if (tl->nundo == TL_UNDO) {
			memmove(tl->undo, tl->undo + 1,
			    (TL_UNDO - 1) * sizeof *tl->undo);
			tl->nundo--;
		}
		tl->undo[tl->nundo++] = tl->f;
	}
	tl->f.t0 = t0;
	tl->f.t1 = t1;
	if (tl->f.cursor < t0 || tl->f.cursor >= t1)
		tl->f.cursor = t0 + (t1 - t0) / 2;
}

/* Zoom by NUM/DEN around the cursor. */
static void
view_timeline_zoom(struct tl *tl, int64_t num, int64_t den)
{
	double	 left, span;

	span = (double)(tl->f.t1 - tl->f.t0) * (double)num / (double)den;
	left = (double)(tl->f.cursor - tl->f.t0) * (double)num / (double)den;
	view_timeline_set(tl, tl->f.cursor - (int64_t)left,
	    tl->f.cursor - (int64_t)left + (int64_t)span, true);
}

/* Put the cursor on SP (on its lane), showing it. */
static void
view_timeline_show(struct tl *tl, const struct store_span *sp, bool fit)
{
	int64_t	 span = tl->f.t1 - tl->f.t0, d;
	size_t	 i;

	for (i = 0; i < tl->nlanes; i++) {
		if (tl->lanes[i].id == sp->lane)
			tl->cur = i;
	}
	tl->f.cursor = sp->start_ns;
	if (fit) {
		d = sp->end_ns - sp->start_ns;
		view_timeline_set(tl, sp->start_ns - d / 10,
		    sp->end_ns + d / 10 + 1, true);
	} else if (sp->start_ns < tl->f.t0 || sp->start_ns >= tl->f.t1)
		view_timeline_set(tl, sp->start_ns - span / 2,
		    sp->start_ns + span - span / 2, true);
}

/* The answer to t: an absolute time from the start, or +/- relative. */
static void
view_timeline_goto(void *arg, const char *answer)
{
	struct tl	*tl = arg;
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
		ui_message(ROLE_ERROR, "bad time '%s'", answer);
		return;
	}
	if (strcmp(end, "s") == 0)
		v *= 1e9;
	else if (strcmp(end, "ms") == 0)
		v *= 1e6;
	else if (strcmp(end, "us") == 0 || *end == '\0')
		v *= 1e3;
	else if (strcmp(end, "ns") != 0) {
		ui_message(ROLE_ERROR, "bad unit in '%s'", answer);
		return;
	}
	ns = (int64_t)v;
	tl->f.cursor = rel != 0 ? tl->f.cursor + rel * ns : tl->lo + ns;
	if (tl->f.cursor < tl->f.t0 || tl->f.cursor >= tl->f.t1)
		view_timeline_set(tl, tl->f.cursor - span / 2,
		    tl->f.cursor + span - span / 2, true);
	view_timeline_fill(tl);
}

/* Move to the next or previous span on the cursor's lane. */
static void
view_timeline_step(struct tl *tl, enum store_span_dir dir)
{
	struct store_span	 sp;
	char			*cause = NULL;

	if (store_lane_span_step(ui_store(), tl->lanes[tl->cur].id,
	    tl->has_sel ? &tl->sel : NULL, tl->f.cursor, dir, &sp,
	    &cause) == 1) {
		view_timeline_show(tl, &sp, false);
		store_span_release(&sp);
	} else
		ui_message(ROLE_NORMAL, "no %s span on this lane",
		    dir == SPAN_NEXT ? "next" : "previous");
	free(cause);
}

static void
view_timeline_flow(struct tl *tl)
{
	struct store_span	 sp;
	char			*cause = NULL;

	if (!tl->has_sel || store_span_flow(ui_store(), &tl->sel, &sp,
	    &cause) != 1) {
		ui_message(ROLE_NORMAL, "no flow from the span at the cursor");
		free(cause);
		return;
	}
	view_timeline_show(tl, &sp, false);
	store_span_release(&sp);
}

static int
view_timeline_key(struct view *v, enum action a, int key)
{
	struct tl	*tl = v->data;
	int64_t		 span = tl->f.t1 - tl->f.t0;

	switch (a) {
	case ACTION_ZOOM_IN:
		view_timeline_zoom(tl, 1, 2);
		break;
	case ACTION_ZOOM_OUT:
		view_timeline_zoom(tl, 2, 1);
		break;
	case ACTION_PAN_LEFT:
	case ACTION_PAN_RIGHT:
		span = a == ACTION_PAN_LEFT ? -span / 4 : span / 4;
		view_timeline_set(tl, tl->f.t0 + span, tl->f.t1 + span, true);
		tl->f.cursor += span;
		break;
	case ACTION_FIT:
		view_timeline_set(tl, tl->lo, tl->hi, true);
		break;
	case ACTION_UNDO:
		if (tl->nundo == 0) {
			ui_message(ROLE_NORMAL, "nothing to undo");
			return REDRAW_STATUS;
		}
		tl->f = tl->undo[--tl->nundo];
		break;
	case ACTION_UP:
		if (tl->cur > 0)
			tl->cur--;
		break;
	case ACTION_DOWN:
		if (tl->cur + 1 < tl->nlanes)
			tl->cur++;
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
		ui_message(ROLE_NORMAL, "mark set");
		return REDRAW_STATUS;
	case ACTION_GOTO_MARK:
		if (tl->mark == NP_NA) {
			ui_message(ROLE_NORMAL, "no mark");
			return REDRAW_STATUS;
		}
		tl->f.cursor = tl->mark;
		if (tl->mark < tl->f.t0 || tl->mark >= tl->f.t1)
			view_timeline_set(tl, tl->mark - span / 2,
			    tl->mark + span - span / 2, true);
		break;
	case ACTION_GOTO_TIME:
		prompt_start("Go to time (us, or with ns/us/ms/s; +/- "
		    "relative): ", "", view_timeline_goto, tl);
		return REDRAW_STATUS;
	default:
		return -1;
	}
	view_timeline_fill(tl);
	return REDRAW_ALL;
}

static void
view_timeline_resize(struct view *v)
{
	view_timeline_fill(v->data);
}

static void
view_timeline_status(struct view *v, char *buf, size_t len)
{
	struct tl	*tl = v->data;
	char		 a[32], b[32];

	view_timeline_fmt(a, sizeof a, tl->f.t1 - tl->f.t0);
	view_timeline_fmt(b, sizeof b, (tl->f.t1 - tl->f.t0) / tl->w);
	snprintf(buf, len, "Timeline  lane %zu of %zu  frame %s  cell %s",
	    tl->cur + 1, tl->nlanes, a, b);
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
	.keymap = view_timeline_keys,
};
