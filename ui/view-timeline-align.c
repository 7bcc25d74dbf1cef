/*
 * The timeline's ranks lined up at a step (L): the lanes of each rank are
 * shifted by how much later its step starts than the same step of the
 * lowest rank, so every rank's step starts in one column and the ranks
 * that are late within it stand out. Times on screen (the ruler, the
 * cursor, marks) are then those of the lowest rank; the store is always
 * asked in each lane's own time, through view_timeline_align_at().
 */
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* What lane I's times are shifted by on screen (0 if not lined up). */
int64_t
view_timeline_align_at(const struct view_tl *tl, size_t i)
{
	return tl->off != NULL && i < tl->nlanes ? tl->off[i] : 0;
}

/* The same for the lane with store id ID. */
int64_t
view_timeline_align_of(const struct view_tl *tl, int64_t id)
{
	size_t	 i;

	if (tl->off == NULL)
		return 0;
	for (i = 0; i < tl->nlanes; i++) {
		if (tl->lanes[i].id == id)
			return tl->off[i];
	}
	return 0;
}

/* The extents of the lanes, as shown: every lane, and the work only. */
void
view_timeline_align_extent(struct view_tl *tl)
{
	int64_t	 a, b;
	size_t	 i;

	tl->lo = INT64_MAX;
	tl->hi = INT64_MIN;
	tl->fit0 = INT64_MAX;
	tl->fit1 = INT64_MIN;
	for (i = 0; i < tl->nlanes; i++) {
		a = tl->lanes[i].start_ns - view_timeline_align_at(tl, i);
		b = tl->lanes[i].end_ns - view_timeline_align_at(tl, i);
		tl->lo = a < tl->lo ? a : tl->lo;
		tl->hi = b > tl->hi ? b : tl->hi;
		/* Counters often run far longer than the work. */
		if (tl->lanes[i].kind == LANE_COUNTER)
			continue;
		tl->fit0 = a < tl->fit0 ? a : tl->fit0;
		tl->fit1 = b > tl->fit1 ? b : tl->fit1;
	}
	if (tl->hi - tl->lo < VIEW_TL_MINSPAN)
		tl->hi = tl->lo + VIEW_TL_MINSPAN;
	if (tl->fit0 == INT64_MAX || tl->fit1 - tl->fit0 < VIEW_TL_MINSPAN) {
		tl->fit0 = tl->lo;
		tl->fit1 = tl->hi;
	}
}

/*
 * Line the ranks up at step STEP: the shift of each lane, the frame on
 * the lowest rank's step. Return false (said on the status line) when
 * there is nothing to line up.
 */
static bool
view_timeline_align_step(struct view_tl *tl, int64_t step)
{
	struct store_window	 w;
	int64_t			*ranks = NULL, *start = NULL, ref = NP_NA;
	int64_t			 end = NP_NA, low = NP_NA;
	size_t			 n = 0, i, k, missing = 0;
	char			*cause = NULL;
	int			 found;

	for (i = 0; i < tl->nlanes; i++) {
		for (k = 0; k < n && ranks[k] != tl->lanes[i].rank; k++)
			continue;
		if (k == n && tl->lanes[i].rank != NP_NA) {
			ranks = xreallocarray(ranks, n + 1, sizeof *ranks);
			ranks[n++] = tl->lanes[i].rank;
		}
	}
	if (n < 2) {
		status_set(ROLE_ERROR, "one rank here: nothing to line up");
		free(ranks);
		return false;
	}
	start = xcalloc(n, sizeof *start);
	for (k = 0; k < n; k++) {
		found = store_window_step(session_store(), step, NP_NA,
		    ranks[k], &w, &cause);
		free(cause);
		cause = NULL;
		start[k] = found == 1 ? w.from_ns : NP_NA;
		missing += found != 1;
		/* The lowest rank with the step is the one shown as is. */
		if (found == 1 && (low == NP_NA || ranks[k] < low)) {
			low = ranks[k];
			ref = w.from_ns;
			end = w.to_ns;
		}
	}
	if (missing == n) {
		status_set(ROLE_ERROR, "no rank here has a step %lld",
		    (long long)step);
		free(ranks);
		free(start);
		return false;
	}
	free(tl->off);
	tl->off = xcalloc(tl->nlanes, sizeof *tl->off);
	for (i = 0; i < tl->nlanes; i++) {
		for (k = 0; k < n && ranks[k] != tl->lanes[i].rank; k++)
			continue;
		if (k < n && start[k] != NP_NA)
			tl->off[i] = start[k] - ref;
	}
	tl->align = step;
	view_timeline_align_extent(tl);
	view_timeline_range_set(tl, ref, end > ref ? end : ref +
	    VIEW_TL_MINSPAN, true);
	tl->f.cursor = ref;
	if (missing > 0)
		status_set(ROLE_NORMAL, "ranks lined up at step %lld; %zu "
		    "without it left as they are", (long long)step, missing);
	else
		status_set(ROLE_NORMAL, "ranks lined up at step %lld",
		    (long long)step);
	free(ranks);
	free(start);
	return true;
}

/* The answer to L: line up at that step, or (empty) no more. */
static void
view_timeline_align_done(void *arg, const char *answer)
{
	struct view_tl	*tl = arg;
	int64_t		 step;

	if (answer == NULL)
		return;
	if (*answer == '\0') {
		if (tl->off == NULL)
			return;
		free(tl->off);
		tl->off = NULL;
		tl->align = NP_NA;
		view_timeline_align_extent(tl);
		status_set(ROLE_NORMAL, "ranks in their own time again");
		view_timeline_fill(tl);
		return;
	}
	if (prompt_step_parse(answer, &step) != 0)
		return;
	if (view_timeline_align_step(tl, step))
		view_timeline_fill(tl);
}

/* L: ask for the step to line the ranks up at. */
int
view_timeline_align_key(struct view_tl *tl)
{
	prompt_step("Line the ranks up at step (empty: their own time): ",
	    tl->align, view_timeline_align_done, tl);
	return REDRAW_STATUS;
}
