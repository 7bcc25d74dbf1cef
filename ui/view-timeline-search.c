/*
 * The timeline's search: / takes a regex (caseless unless it has a capital
 * letter, as in less), and the cursor jumps to the next task whose name
 * matches, after the selected span or the cursor, on the device and rank
 * shown; n and N then go to the next and previous match, wrapping at the
 * ends, until a jump from a table makes them walk an op type again.
 */
#include <ctype.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* Whether S holds an upper-case letter: the search is then exact. */
static bool
view_timeline_search_exact(const char *s)
{
	for (; *s != '\0'; s++) {
		if (isupper((unsigned char)*s))
			return true;
	}
	return false;
}

/* Go to the match in direction DIR from the selection or the cursor. */
static int
view_timeline_search_go(struct view_tl *tl, enum store_span_dir dir)
{
	struct store	*s = session_store();
	struct store_span sp;
	char		*cause = NULL;
	int64_t		 id, start, after;
	bool		 wrapped = false;
	int		 rc;

	start = tl->has_sel ? tl->sel.start_ns : tl->f.cursor +
	    view_timeline_align_at(tl, tl->items[tl->cur].lane);
	after = tl->has_sel ? tl->sel.id : dir == SPAN_NEXT ? -1 : INT64_MAX;
	rc = store_jump_search(s, tl->search, session_device(),
	    session_rank(), start, after, dir, &id, &cause);
	if (rc == 0) {
		/* From the other end, as less and vi wrap. */
		wrapped = true;
		rc = store_jump_search(s, tl->search, session_device(),
		    session_rank(), dir == SPAN_NEXT ? INT64_MIN : INT64_MAX,
		    dir == SPAN_NEXT ? -1 : INT64_MAX, dir, &id, &cause);
	}
	if (rc == 1)
		rc = store_jump_task_span(s, id, &sp, &cause);
	if (rc < 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return REDRAW_STATUS;
	}
	if (rc == 0) {
		status_set(ROLE_NORMAL, "no task name matches '%s'",
		    tl->search_re);
		return REDRAW_STATUS;
	}
	view_timeline_focus(tl, &sp);
	status_set(ROLE_NORMAL, "/%s: %s%s", tl->search_re, sp.name != NULL ?
	    sp.name : "?", wrapped ? dir == SPAN_NEXT ? "  (wrapped to the "
	    "start)" : "  (wrapped to the end)" : "");
	store_spans_release(&sp);
	view_timeline_fill(tl);
	return REDRAW_ALL;
}

/* The answer to /: compile it and go to the first match. */
static void
view_timeline_search_done(void *arg, const char *answer)
{
	struct view_tl	*tl = arg;
	struct matcher	*m;
	char		*cause = NULL;

	if (answer == NULL || *answer == '\0')
		return;
	if ((m = matcher_create(answer, !view_timeline_search_exact(answer),
	    &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	matcher_free(tl->search);
	free(tl->search_re);
	tl->search = m;
	tl->search_re = xstrdup(answer);
	tl->searching = true;
	view_timeline_search_go(tl, SPAN_NEXT);
}

/* The timeline's /, and n and N while a search is on. */
int
view_timeline_search_key(struct view_tl *tl, enum action a)
{
	if (a == ACTION_SEARCH) {
		prompt_start("Search task names (regex): ", tl->search_re !=
		    NULL ? tl->search_re : "", view_timeline_search_done, tl);
		return REDRAW_STATUS;
	}
	return view_timeline_search_go(tl, a == ACTION_NEXT_MATCH ?
	    SPAN_NEXT : SPAN_PREV);
}
