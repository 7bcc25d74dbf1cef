/*
 * The timeline's ranks lined up at a step (L): the lanes of each rank are
 * shifted by how much later its step starts than the same step of the
 * lowest rank, so every rank's step starts in one column and the ranks
 * that are late within it stand out. Times on screen (the ruler, the
 * cursor, marks) are then those of the lowest rank; the store is always
 * asked in each lane's own time, through view_timeline_align_at().
 *
 * Under --compare the base run's lanes come after NEW's, in a store of
 * their own (their ids VIEW_TL_BASE more in the view), and the two runs
 * are lined up the same way: at their first common step, or at their
 * starts.
 */
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/*
 * The store of the lane with id ID in the view (NEW's, or under --compare
 * the base's), and in *SID its id there.
 */
struct store *
view_timeline_store(int64_t id, int64_t *sid)
{
	if (id >= VIEW_TL_BASE && session_compare_base() != NULL) {
		*sid = id - VIEW_TL_BASE;
		return session_compare_base();
	}
	*sid = id;
	return session_store();
}

/* Span SP, as store S gave it, in the view's lane ids. */
void
view_timeline_span_in(struct store *s, struct store_span *sp)
{
	if (s != session_store() && s == session_compare_base())
		sp->lane += VIEW_TL_BASE;
}

/* A copy of lane L with its id in its store, which goes in *S. */
struct store_lane
view_timeline_lane_in(const struct store_lane *l, struct store **s)
{
	struct store_lane	 c = *l;

	*s = view_timeline_store(l->id, &c.id);
	return c;
}

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

/* Which group of lanes lane I lines up with: its run and rank. */
static int64_t
view_timeline_align_group(const struct view_tl *tl, size_t i)
{
	int64_t	 r = tl->lanes[i].rank;

	if (session_compare_base() == NULL)
		return r;
	/* Two runs: a run without ranks is one group. */
	if (r == NP_NA)
		r = -1;
	return tl->lanes[i].id >= VIEW_TL_BASE ? r + VIEW_TL_BASE : r;
}

/* The groups (ranks, runs) of TL's lanes into *GROUPS; how many. */
static size_t
view_timeline_align_groups(const struct view_tl *tl, int64_t **groups)
{
	size_t	 n = 0, i, k;
	int64_t	 g;

	*groups = NULL;
	for (i = 0; i < tl->nlanes; i++) {
		g = view_timeline_align_group(tl, i);
		for (k = 0; k < n && (*groups)[k] != g; k++)
			continue;
		if (k == n && g != NP_NA) {
			*groups = xreallocarray(*groups, n + 1,
			    sizeof **groups);
			(*groups)[n++] = g;
		}
	}
	return n;
}

/*
 * Line the ranks (and under --compare the runs) up at step STEP: the
 * shift of each lane, the frame on the first group's step. Return false
 * (said on the status line) when there is nothing to line up.
 */
static bool
view_timeline_align_step(struct view_tl *tl, int64_t step)
{
	struct store_window	 w;
	struct store		*s;
	int64_t			*groups, *start = NULL, ref = NP_NA;
	int64_t			 end = NP_NA, low = NP_NA, g, sid;
	size_t			 n, i, k, missing = 0;
	char			*cause = NULL;
	const char		*what;
	int			 found;

	what = session_compare_base() != NULL ? "runs" : "ranks";
	n = view_timeline_align_groups(tl, &groups);
	if (n < 2) {
		status_set(ROLE_ERROR, "one rank here: nothing to line up");
		free(groups);
		return false;
	}
	start = xcalloc(n, sizeof *start);
	for (k = 0; k < n; k++) {
		s = view_timeline_store(groups[k] >= VIEW_TL_BASE - 1 ?
		    VIEW_TL_BASE : 0, &sid);
		g = groups[k] >= VIEW_TL_BASE - 1 ? groups[k] - VIEW_TL_BASE :
		    groups[k];
		found = store_window_step(s, step, NP_NA, g == -1 ? NP_NA : g,
		    &w, &cause);
		free(cause);
		cause = NULL;
		start[k] = found == 1 ? w.from_ns : NP_NA;
		missing += found != 1;
		/* The first group with the step is the one shown as is. */
		if (found == 1 && (low == NP_NA || groups[k] < low)) {
			low = groups[k];
			ref = w.from_ns;
			end = w.to_ns;
		}
	}
	if (missing == n) {
		status_set(ROLE_ERROR, "no %s here has a step %lld",
		    session_compare_base() != NULL ? "run" : "rank",
		    (long long)step);
		free(groups);
		free(start);
		return false;
	}
	free(tl->off);
	tl->off = xcalloc(tl->nlanes, sizeof *tl->off);
	for (i = 0; i < tl->nlanes; i++) {
		g = view_timeline_align_group(tl, i);
		for (k = 0; k < n && groups[k] != g; k++)
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
		status_set(ROLE_NORMAL, "%s lined up at step %lld; %zu "
		    "without it left as they are", what, (long long)step,
		    missing);
	else
		status_set(ROLE_NORMAL, "%s lined up at step %lld", what,
		    (long long)step);
	free(groups);
	free(start);
	return true;
}

/*
 * Under --compare, line the two runs up when the timeline opens: at the
 * first step NEW has, if the base has it too; else at their starts (the
 * base's lanes shifted by how much later its first lane starts). Return
 * 0, or -1 when there is no base run.
 */
int
view_timeline_align_runs(struct view_tl *tl)
{
	struct store_window	 w;
	int64_t			 step, a = INT64_MAX, b = INT64_MAX;
	size_t			 i;
	char			*cause = NULL;

	if (session_compare_base() == NULL)
		return -1;
	step = store_window_first_step(session_store());
	if (step != NP_NA && store_window_step(session_compare_base(), step,
	    NP_NA, NP_NA, &w, &cause) == 1 && view_timeline_align_step(tl,
	    step))
		return 0;
	free(cause);
	for (i = 0; i < tl->nlanes; i++) {
		if (tl->lanes[i].kind == LANE_COUNTER)
			continue;
		if (tl->lanes[i].id >= VIEW_TL_BASE)
			b = tl->lanes[i].start_ns < b ? tl->lanes[i].start_ns : b;
		else
			a = tl->lanes[i].start_ns < a ? tl->lanes[i].start_ns : a;
	}
	if (a == INT64_MAX || b == INT64_MAX)
		return 0;
	free(tl->off);
	tl->off = xcalloc(tl->nlanes, sizeof *tl->off);
	for (i = 0; i < tl->nlanes; i++)
		tl->off[i] = tl->lanes[i].id >= VIEW_TL_BASE ? b - a : 0;
	view_timeline_align_extent(tl);
	status_set(ROLE_NORMAL, "runs lined up at their starts");
	return 0;
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
		status_set(ROLE_NORMAL, "%s in their own time again",
		    session_compare_base() != NULL ? "runs" : "ranks");
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
	int64_t	*groups;
	size_t	 n;

	/* Said before a question whose answer could not be used. */
	n = view_timeline_align_groups(tl, &groups);
	free(groups);
	if (n < 2 && tl->off == NULL) {
		status_set(ROLE_ERROR, "one rank here: nothing to line up");
		return REDRAW_STATUS;
	}
	prompt_step(session_compare_base() != NULL ? "Line the runs up at "
	    "step (empty: their own time): " : "Line the ranks up at step "
	    "(empty: their own time): ", tl->align, view_timeline_align_done,
	    tl);
	return REDRAW_STATUS;
}
