/*
 * The timeline's ranges and mouse. The frame, the range of time shown,
 * stays within sane bounds and each change can be undone; the wheel zooms
 * it around the pointer. A press and a release on another column select
 * the range between them (so do the mark and the cursor, with v), shown
 * on the axis with its length; a turns the range into the op statistic
 * of that window (view-window.c), F into its flame graph, and Esc drops
 * it.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* Make [T0, T1) the frame, kept inside sane bounds, saving the old one. */
void
view_timeline_range_set(struct view_tl *tl, int64_t t0, int64_t t1, bool save)
{
	int64_t	 pad = (tl->hi - tl->lo) / 2;

	if (t1 - t0 < VIEW_TL_MINSPAN)
		t1 = t0 + VIEW_TL_MINSPAN;
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
		if (tl->nundo == VIEW_TL_UNDO) {
			memmove(tl->undo, tl->undo + 1,
			    (VIEW_TL_UNDO - 1) * sizeof *tl->undo);
			tl->nundo--;
		}
		tl->undo[tl->nundo++] = tl->f;
	}
	tl->f.t0 = t0;
	tl->f.t1 = t1;
	if (tl->f.cursor < t0 || tl->f.cursor >= t1)
		tl->f.cursor = t0 + (t1 - t0) / 2;
}

/* Zoom by NUM/DEN around instant AT, which stays where it is. */
void
view_timeline_range_zoom(struct view_tl *tl, int64_t at, int64_t num,
    int64_t den)
{
	double	 left, span;

	span = (double)(tl->f.t1 - tl->f.t0) * (double)num / (double)den;
	left = (double)(at - tl->f.t0) * (double)num / (double)den;
	view_timeline_range_set(tl, at - (int64_t)left,
	    at - (int64_t)left + (int64_t)span, true);
}

/* The instant at screen column X, in the cells or at their edges. */
static int64_t
view_timeline_range_time_at(const struct view_tl *tl, int x)
{
	int	 c = x - tl->namew - 1;

	c = c < 0 ? 0 : c >= tl->w ? tl->w - 1 : c;
	return store_timeline_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
	    (size_t)c);
}

/* Select the cells between columns X0 and X1, both included. */
static void
view_timeline_range_select_cols(struct view_tl *tl, int x0, int x1)
{
	int	 t;

	if (x0 > x1) {
		t = x0;
		x0 = x1;
		x1 = t;
	}
	x0 -= tl->namew + 1;
	x1 -= tl->namew + 1;
	x0 = x0 < 0 ? 0 : x0;
	x1 = x1 >= tl->w ? tl->w - 1 : x1;
	tl->sel0 = store_timeline_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
	    (size_t)x0);
	tl->sel1 = store_timeline_cell_edge(tl->f.t0, tl->f.t1, (size_t)tl->w,
	    (size_t)x1 + 1);
}

/*
 * The mouse: the wheel zooms around the pointer; a press and a release
 * on another column select the range between them, on the same column
 * put the cursor there (and on that row).
 */
int
view_timeline_range_mouse(struct view_tl *tl)
{
	int	 y, x, wheel, row;
	bool	 click;

	mouse_get(&y, &x, &click, &wheel);
	if (wheel != 0) {
		view_timeline_range_zoom(tl, x > tl->namew ?
		    view_timeline_range_time_at(tl, x) : tl->f.cursor,
		    wheel < 0 ? 1 : 2, wheel < 0 ? 2 : 1);
		return 1;
	}
	switch (mouse_button()) {
	case 1:
		tl->drag = view_timeline_range_time_at(tl, x);
		tl->dragx = x;
		return 0;
	case -1:
		if (tl->drag == NP_NA)
			return 0;
		tl->drag = NP_NA;
		if (x != tl->dragx && x > tl->namew && tl->dragx > tl->namew) {
			view_timeline_range_select_cols(tl, tl->dragx, x);
			return 1;
		}
		row = y - 2;
		if (row >= 0 && (size_t)row < view_timeline_lanes_height() &&
		    tl->top + (size_t)row < tl->nitems)
			tl->cur = tl->top + (size_t)row;
		if (x > tl->namew)
			tl->f.cursor = view_timeline_range_time_at(tl, x);
		return 1;
	default:
		return 0;
	}
}

/*
 * The keys on a selected range: v makes one, a applies it to the op
 * statistic, F to the flame graph, Esc ends it.
 */
int
view_timeline_range_key(struct view_tl *tl, enum action a)
{
	struct view_range_arg	 r;

	/* A range of the screen's time is no one window of every rank. */
	if ((a == ACTION_APPLY_RANGE || a == ACTION_RANGE_FLAME) &&
	    tl->off != NULL) {
		status_set(ROLE_ERROR, "the ranks are lined up at a step: L "
		    "then Enter puts them back in their own time first");
		return REDRAW_STATUS;
	}
	if ((a == ACTION_APPLY_RANGE || a == ACTION_RANGE_FLAME) &&
	    tl->sel0 == NP_NA) {
		status_set(ROLE_ERROR, "no range: drag with the mouse, "
		    "or m then v");
		return REDRAW_STATUS;
	}
	switch (a) {
	case ACTION_SELECT:
		if (tl->mark == NP_NA || tl->mark == tl->f.cursor) {
			status_set(ROLE_ERROR, "set the mark (m) elsewhere "
			    "first, or drag with the mouse");
			return REDRAW_STATUS;
		}
		tl->sel0 = tl->mark < tl->f.cursor ? tl->mark : tl->f.cursor;
		tl->sel1 = tl->mark < tl->f.cursor ? tl->f.cursor : tl->mark;
		return REDRAW_ALL;
	case ACTION_RANGE_FLAME:
	case ACTION_APPLY_RANGE:
		r.from_ns = tl->sel0;
		r.to_ns = tl->sel1;
		r.origin_ns = tl->lo;
		return view_push(a == ACTION_RANGE_FLAME ? &view_flame_ops :
		    &view_window_ops, &r, NULL) == 0 ? REDRAW_ALL :
		    REDRAW_STATUS;
	default:
		if (tl->sel0 == NP_NA)
			return -1;
		tl->sel0 = tl->sel1 = NP_NA;
		return REDRAW_ALL;
	}
}
