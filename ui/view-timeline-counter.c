/*
 * The timeline's counter lanes beyond their sparklines (view-timeline.c
 * draws those, the series' peak marked): the footer giving the value at
 * the cursor, the range and when the peak came, and p, which takes the
 * cursor to the peak, so memory reads as a chart with its high point.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The footer of counter lane L: its value at the cursor, range and peak. */
void
view_timeline_counter_footer(struct view_tl *tl, const struct store_lane *l,
    int y)
{
	char		 at[32] = "no value", lo[32], hi[32], when[48] = "";
	struct store	*s;
	struct store_lane cl = view_timeline_lane_in(l, &s);
	double		 v;
	int64_t		 t, off = view_timeline_align_at(tl, (size_t)(l -
			    tl->lanes));

	if (store_counter_lanes_at(s, &cl, tl->f.cursor + off, &v) == 1)
		util_fmt_fixed(at, sizeof at, v, 3, true);
	util_fmt_fixed(lo, sizeof lo, l->vmin, 3, true);
	util_fmt_fixed(hi, sizeof hi, l->vmax, 3, true);
	if (store_counter_lanes_peak(s, &cl, &t) == 1) {
		memcpy(when, " at +", 6);
		util_fmt_time(when + 5, sizeof when - 5, t - off - tl->lo);
	}
	draw_textf(y, 0, COLS, ROLE_NORMAL, "%s  Counter: %s  Value: %s  "
	    "Unit: %s  Min: %s  Max: %s%s (p)  Samples: %lld  (a cell shows "
	    "its highest value)", l->group, l->name, at, *l->unit != '\0' ?
	    l->unit : "-", lo, hi, when, (long long)l->nspans);
}

/* p: the cursor to the peak of the counter lane, framed if off screen. */
int
view_timeline_counter_peak(struct view_tl *tl)
{
	const struct store_lane	*l = view_timeline_lanes_lane_at(tl);
	struct store_lane	 cl;
	struct store		*s;
	int64_t			 t, span = tl->f.t1 - tl->f.t0;

	if (l == NULL || l->kind != LANE_COUNTER) {
		status_set(ROLE_ERROR, "p goes to the peak of a counter lane "
		    "(memory, bandwidth): move to one first");
		return REDRAW_STATUS;
	}
	cl = view_timeline_lane_in(l, &s);
	if (store_counter_lanes_peak(s, &cl, &t) != 1) {
		status_set(ROLE_ERROR, "this counter has no samples");
		return REDRAW_STATUS;
	}
	t -= view_timeline_align_at(tl, (size_t)(l - tl->lanes));
	tl->f.cursor = t;
	if (t < tl->f.t0 || t >= tl->f.t1)
		view_timeline_range_set(tl, t - span / 2, t + span - span / 2,
		    true);
	view_timeline_fill(tl);
	return REDRAW_ALL;
}
