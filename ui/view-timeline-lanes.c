/*
 * The timeline's rows: which lanes show and how. A row is a lane, or a
 * group (rank and device, or host process) collapsed into one row that
 * shows in each cell its busiest lane; lanes whose name or group matches
 * the hiding regex are left out. The cursor keeps to its lane as rows
 * come and go.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The lane of the cursor's row, or NULL on a collapsed group. */
const struct store_lane *
view_timeline_lanes_lane_at(const struct view_tl *tl)
{
	const struct view_tl_item	*it;

	if (tl->nitems == 0)
		return NULL;
	it = &tl->items[tl->cur];
	return it->group || it->header ? NULL : &tl->lanes[it->lane];
}

/* Rows that fit: the body less the axis and the footer. */
size_t
view_timeline_lanes_height(void)
{
	int	 h = view_body_lines() - 3;

	return h > 0 ? (size_t)h : 1;
}

static bool
view_timeline_lanes_collapsed(const struct view_tl *tl, const char *group)
{
	size_t	 i;

	for (i = 0; i < tl->ncollapsed; i++) {
		if (strcmp(tl->collapsed[i], group) == 0)
			return true;
	}
	return false;
}

/* Whether lane L is hidden: its name or its group matches the regex. */
bool
view_timeline_lanes_hidden(const struct view_tl *tl, const struct store_lane *l)
{
	if (tl->hide == NULL)
		return false;
	return matcher_match(tl->hide, l->name, strlen(l->name)) ||
	    matcher_match(tl->hide, l->group, strlen(l->group));
}

/* Add a row for lane I of TL: a lane, a group's header or its summary. */
static struct view_tl_item *
view_timeline_lanes_add(struct view_tl *tl, size_t i, bool group,
    bool header)
{
	struct view_tl_item	*it = &tl->items[tl->nitems++];

	it->lane = i;
	it->group = group;
	it->header = header;
	it->nlanes = 1;
	return it;
}

/*
 * Build the rows: every lane not hidden under a header row naming its
 * group (rank and device, or host process) with the count of its lanes;
 * a collapsed group as one row in the place of its header. The cursor
 * stays on the row holding the lane it was on, when there is one.
 */
void
view_timeline_lanes_items(struct view_tl *tl)
{
	struct view_tl_item	*it, *head = NULL;
	size_t		 i, j, keep = 0;
	bool		 collapsed, had = tl->nitems > 0, on_head = false;
	bool		 found = false;
	const char	*group;

	if (had) {
		keep = tl->items[tl->cur].lane;
		on_head = tl->items[tl->cur].header;
	}
	free(tl->items);
	tl->items = xcalloc(2 * tl->nlanes, sizeof *tl->items);
	tl->nitems = 0;
	for (i = 0; i < tl->nlanes; i++) {
		if (view_timeline_lanes_hidden(tl, &tl->lanes[i]))
			continue;
		group = tl->lanes[i].group;
		collapsed = view_timeline_lanes_collapsed(tl, group);
		if (head != NULL && strcmp(tl->lanes[head->lane].group,
		    group) == 0) {
			head->nlanes++;
			if (!head->group)
				view_timeline_lanes_add(tl, i, false, false);
			continue;
		}
		head = view_timeline_lanes_add(tl, i, collapsed, !collapsed);
		if (!collapsed)
			view_timeline_lanes_add(tl, i, false, false);
	}
	tl->cur = 0;
	for (j = 0; had && j < tl->nitems && !found; j++) {
		it = &tl->items[j];
		if ((it->header == on_head && it->lane == keep) ||
		    ((it->group || (on_head && it->header)) &&
		    strcmp(tl->lanes[it->lane].group,
		    tl->lanes[keep].group) == 0)) {
			tl->cur = j;
			found = true;
		}
	}
	/* At first, or if its lane is gone: on a lane, not a header. */
	if (!found && tl->nitems > 1 && tl->items[0].header)
		tl->cur = 1;
}

/* Put the cursor on the row of lane ID, expanding its group. */
void
view_timeline_lanes_to_lane(struct view_tl *tl, int64_t id)
{
	size_t	 i, j;

	for (i = 0; i < tl->nlanes && tl->lanes[i].id != id; i++)
		continue;
	if (i == tl->nlanes)
		return;
	for (j = 0; j < tl->ncollapsed; j++) {
		if (strcmp(tl->collapsed[j], tl->lanes[i].group) == 0) {
			free(tl->collapsed[j]);
			tl->collapsed[j] = tl->collapsed[--tl->ncollapsed];
			view_timeline_lanes_items(tl);
			break;
		}
	}
	for (j = 0; j < tl->nitems; j++) {
		if (tl->items[j].lane == i && !tl->items[j].header)
			tl->cur = j;
	}
}

/*
 * The cells of a collapsed group: in each cell, the busiest of its lanes
 * (its busy time and type) and the spans of all.
 */
void
view_timeline_lanes_group(struct view_tl *tl, const struct view_tl_item *it,
    struct store_cell *cells)
{
	struct store_cell	*tmp;
	struct store		*s;
	const char		*group = tl->lanes[it->lane].group;
	size_t			 i;
	int64_t			 sid;
	int			 x;
	char			*cause = NULL;

	tmp = xcalloc((size_t)tl->w, sizeof *tmp);
	for (x = 0; x < tl->w; x++)
		cells[x].type = -1;
	for (i = it->lane; i < tl->nlanes; i++) {
		/*
		 * A counter has no busy time to compare with, and a step
		 * covers its whole iteration: either would hide the work.
		 */
		if (strcmp(tl->lanes[i].group, group) != 0 ||
		    view_timeline_lanes_hidden(tl, &tl->lanes[i]) ||
		    tl->lanes[i].kind == LANE_COUNTER ||
		    tl->lanes[i].kind == LANE_STEP)
			continue;
		s = view_timeline_store(tl->lanes[i].id, &sid);
		if (store_timeline_cells(s, sid,
		    tl->f.t0 + view_timeline_align_at(tl, i),
		    tl->f.t1 + view_timeline_align_at(tl, i), (size_t)tl->w,
		    tmp, &cause) != 0) {
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			cause = NULL;
			continue;
		}
		for (x = 0; x < tl->w; x++) {
			cells[x].spans += tmp[x].spans;
			if (tmp[x].type >= 0 && (cells[x].type < 0 ||
			    tmp[x].busy_ns > cells[x].busy_ns)) {
				cells[x].busy_ns = tmp[x].busy_ns;
				cells[x].type = tmp[x].type;
			}
		}
	}
	free(tmp);
}

/*
 * Hide the lanes matching ANSWER to x, or none if it is empty. Return
 * false if the rows stay as they were: no answer, or a bad regex (said on
 * the status line).
 */
bool
view_timeline_lanes_hide(struct view_tl *tl, const char *answer)
{
	struct matcher	*m = NULL;
	char		*cause = NULL;
	size_t		 i;

	if (answer == NULL)
		return false;
	if (*answer != '\0' && (m = matcher_create(answer, true,
	    &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return false;
	}
	/* A name PCRE2 gives up on would be shown as if it did not match. */
	for (i = 0; m != NULL && i < tl->nlanes; i++) {
		matcher_match(m, tl->lanes[i].name, strlen(tl->lanes[i].name));
		matcher_match(m, tl->lanes[i].group,
		    strlen(tl->lanes[i].group));
	}
	if (matcher_failed(m, &cause)) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		matcher_free(m);
		return false;
	}
	matcher_free(tl->hide);
	free(tl->hide_re);
	tl->hide = m;
	tl->hide_re = m != NULL ? xstrdup(answer) : NULL;
	for (i = 0; i < tl->nlanes && view_timeline_lanes_hidden(tl,
	    &tl->lanes[i]); i++)
		continue;
	if (i == tl->nlanes && m != NULL) {
		status_set(ROLE_ERROR, "'%s' would hide every lane", answer);
		matcher_free(tl->hide);
		free(tl->hide_re);
		tl->hide = NULL;
		tl->hide_re = NULL;
	}
	view_timeline_lanes_items(tl);
	return true;
}

/* c: collapse the cursor's group into one row, or expand it. */
void
view_timeline_lanes_collapse(struct view_tl *tl)
{
	const char	*group = tl->lanes[tl->items[tl->cur].lane].group;
	size_t		 i;

	for (i = 0; i < tl->ncollapsed; i++) {
		if (strcmp(tl->collapsed[i], group) == 0) {
			free(tl->collapsed[i]);
			tl->collapsed[i] = tl->collapsed[--tl->ncollapsed];
			view_timeline_lanes_items(tl);
			return;
		}
	}
	tl->collapsed = xreallocarray(tl->collapsed, tl->ncollapsed + 1,
	    sizeof *tl->collapsed);
	tl->collapsed[tl->ncollapsed++] = xstrdup(group);
	view_timeline_lanes_items(tl);
}
