/*
 * The views: one stack per tab (Summary, Op statistic, ...). A tab opens the
 * first time it is shown and keeps its cursor when the user switches away;
 * Enter pushes a detail view on the current tab's stack and q pops it.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static const struct view_ops *view_tabs_ops[] = {
	&view_summary_ops,
	&view_table_ops[VIEW_TABLE_OP_STAT],
	&view_table_ops[VIEW_TABLE_API_STAT],
	&view_table_ops[VIEW_TABLE_KERNELS],
	&view_table_ops[VIEW_TABLE_STEPS],
	&view_table_ops[VIEW_TABLE_MEMORY],
	&view_table_ops[VIEW_TABLE_MARKERS],
	&view_flame_ops,
	&view_timeline_ops
};

#define VIEW_NTABS	(sizeof view_tabs_ops / sizeof view_tabs_ops[0])

static struct view	*view_stacks[VIEW_NTABS];
static int		 view_cur;
static struct store	*view_avail_store;
static signed char	 view_avail[VIEW_NTABS];

int
view_ntabs(void)
{
	return (int)VIEW_NTABS;
}

const struct view_ops *
view_tab_ops(int i)
{
	return view_tabs_ops[i];
}

int
view_tab(void)
{
	return view_cur;
}

/*
 * Whether tab I has data: a table view needs one of its tables with rows.
 * The answer is kept until the store changes (a re-import).
 */
bool
view_tab_available(int i)
{
	const struct store_table	*t;
	struct store_query		 q;
	struct store_rows		*r;
	char				*cause = NULL;

	if (view_avail_store != session_store()) {
		memset(view_avail, -1, sizeof view_avail);
		view_avail_store = session_store();
	}
	if (view_avail[i] >= 0)
		return view_avail[i];
	view_avail[i] = 1;
	if (view_tabs_ops[i]->table == NULL)
		return true;
	view_avail[i] = 0;
	if ((t = view_table_find(view_tabs_ops[i]->table)) == NULL)
		return false;
	store_query_init(&q);
	q.limit = 1;
	if ((r = store_query_table(session_store(), t, &q, &cause)) != NULL) {
		view_avail[i] = r->nrows > 0;
		store_rows_free(r);
	}
	free(cause);
	return view_avail[i];
}

static struct view *
view_create(const struct view_ops *ops, const void *arg, char **cause)
{
	struct view	*v;

	v = xcalloc(1, sizeof *v);
	v->ops = ops;
	if (ops->open != NULL && ops->open(v, arg, cause) != 0) {
		free(v);
		return NULL;
	}
	return v;
}

static void
view_free(struct view *v)
{
	if (v->ops->close != NULL)
		v->ops->close(v);
	free(v);
}

/*
 * Open OPS with ARG over the current view. On failure the message goes to
 * *cause if given, else to the status line, and -1 is returned.
 */
int
view_push(const struct view_ops *ops, const void *arg, char **cause)
{
	struct view	*v;
	char		*why = NULL;

	if ((v = view_create(ops, arg, &why)) == NULL) {
		if (cause != NULL)
			*cause = why;
		else {
			status_set(ROLE_ERROR, "%s", why);
			free(why);
		}
		return -1;
	}
	v->below = view_stacks[view_cur];
	view_stacks[view_cur] = v;
	return 0;
}

/* Close the top view of the current tab. */
void
view_pop(void)
{
	struct view	*v = view_stacks[view_cur];

	if (v == NULL)
		return;
	view_stacks[view_cur] = v->below;
	view_free(v);
}

/* Close every view of every tab. */
void
view_pop_all(void)
{
	size_t	 i;

	for (i = 0; i < VIEW_NTABS; i++) {
		view_cur = (int)i;
		while (view_stacks[i] != NULL)
			view_pop();
	}
	view_cur = 0;
}

struct view *
view_top(void)
{
	return view_stacks[view_cur];
}

/*
 * Switch tabs for A (next, previous or a number). Opening a tab may fail
 * (no such table in the store): the message goes to the status line and
 * REDRAW_STATUS is returned, else REDRAW_ALL.
 */
int
view_switch(enum action a)
{
	int	 i, n = (int)VIEW_NTABS, want, step = 1;

	if (a == ACTION_NEXT_VIEW || a == ACTION_PREV_VIEW) {
		step = a == ACTION_NEXT_VIEW ? 1 : n - 1;
		for (i = 1; i < n; i++) {
			want = (view_cur + step * i) % n;
			if (view_tab_available(want))
				break;
		}
		if (i == n)
			return REDRAW_NONE;
	} else
		want = (int)a - (int)ACTION_VIEW_1;
	if (want < 0 || want >= n)
		fatalx("%s: bad view %d", __func__, want);
	if (!view_tab_available(want)) {
		status_set(ROLE_ERROR, "no %s data in this store",
		    view_tabs_ops[want]->title);
		return REDRAW_STATUS;
	}
	if (view_stacks[want] == NULL) {
		i = view_cur;
		view_cur = want;
		if (view_push(view_tabs_ops[want], NULL, NULL) != 0) {
			view_cur = i;
			return REDRAW_STATUS;
		}
		view_stacks[want]->top = true;
	}
	view_cur = want;
	return REDRAW_ALL;
}

/* The lines between the tab bar and the status line. */
int
view_body_lines(void)
{
	return LINES > 2 ? LINES - 2 : 0;
}

void
view_draw(struct view *v, int redraw)
{
	if (v != NULL && v->ops->draw != NULL)
		v->ops->draw(v, 1, view_body_lines());
}

/* The terminal changed size: every open view recomputes its layout. */
void
view_resize_all(void)
{
	struct view	*v;
	size_t		 i;

	for (i = 0; i < VIEW_NTABS; i++) {
		for (v = view_stacks[i]; v != NULL; v = v->below) {
			if (v->ops->resize != NULL)
				v->ops->resize(v);
		}
	}
}
