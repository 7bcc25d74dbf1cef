/*
 * The tabs: Summary, Op statistic, ... each with a stack of views of its
 * own. A tab opens the first time it is shown and keeps its views, cursor
 * and all, when the user switches away. This file sits above the views it
 * lists; they push and pop through view.c on the stack it makes current.
 */
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static const struct view_ops *const tabs_list[] = {
	&view_summary_ops,
	&view_table_ops[VIEW_TABLE_OP_STAT],
	&view_table_ops[VIEW_TABLE_API_STAT],
	&view_table_ops[VIEW_TABLE_KERNELS],
	&view_table_ops[VIEW_TABLE_STEPS],
	&view_table_ops[VIEW_TABLE_MEMORY],
	&view_table_ops[VIEW_TABLE_MARKERS],
	&view_flame_ops,
	&view_timeline_ops,
	&view_cluster_ops,
	&view_advice_ops
};

#define TABS_N	(sizeof tabs_list / sizeof tabs_list[0])

static struct view	*tabs_stacks[TABS_N];
static int		 tabs_cur;
static struct store	*tabs_avail_store;
static signed char	 tabs_avail[TABS_N];

int
tabs_count(void)
{
	return (int)TABS_N;
}

/* The key of tab I: 1 to 9, 0, then E (Advice). */
int
tabs_key(int i)
{
	return i < 10 ? '0' + (i + 1) % 10 : 'E';
}

const struct view_ops *
tabs_ops(int i)
{
	return tabs_list[i];
}

int
tabs_current(void)
{
	return tabs_cur;
}

/* Make tab I the current one, its stack the one views push on. */
static void
tabs_select(int i)
{
	tabs_cur = i;
	view_set_stack(&tabs_stacks[i]);
}

/*
 * Whether tab I has data: a table view needs one of its tables with rows.
 * The answer is kept until the store changes (a re-import).
 */
bool
tabs_available(int i)
{
	const struct store_table	*t;
	struct store_query		 q;
	struct store_rows		*r;
	char				*cause = NULL;

	if (tabs_avail_store != session_store()) {
		memset(tabs_avail, -1, sizeof tabs_avail);
		tabs_avail_store = session_store();
	}
	if (tabs_avail[i] >= 0)
		return tabs_avail[i];
	tabs_avail[i] = 1;
	/* A set of stores has tasks, spans and stacks in a rank's store. */
	if (session_store() == session_base() && store_set_is(session_base())
	    && (tabs_list[i] == &view_flame_ops || tabs_list[i] ==
	    &view_timeline_ops))
		tabs_avail[i] = 0;
	if (tabs_list[i]->table == NULL)
		return tabs_avail[i];
	tabs_avail[i] = 0;
	if ((t = view_table_page_find(tabs_list[i]->table)) == NULL)
		return false;
	store_query_init(&q);
	q.limit = 1;
	/* Without the indexes yet, an order would cost a sort of the table. */
	q.any_order = true;
	if ((r = store_query_table(session_store_for(tabs_list[i]->table), t,
	    &q, &cause)) != NULL) {
		tabs_avail[i] = r->nrows > 0;
		store_rows_free(r);
	}
	free(cause);
	return tabs_avail[i];
}

/*
 * Switch tabs for A (next, previous or a number). Opening a tab may fail
 * (no such table in the store): the message goes to the status line and
 * REDRAW_STATUS is returned, else REDRAW_ALL.
 */
int
tabs_switch(enum action a)
{
	int	 i, n = (int)TABS_N, want, step = 1;
	char	 rank[64], open[64];

	if (a == ACTION_NEXT_VIEW || a == ACTION_PREV_VIEW) {
		step = a == ACTION_NEXT_VIEW ? 1 : n - 1;
		for (i = 1; i < n; i++) {
			want = (tabs_cur + step * i) % n;
			if (tabs_available(want))
				break;
		}
		if (i == n)
			return REDRAW_NONE;
	} else
		want = (int)a - (int)ACTION_VIEW_1;
	if (want < 0 || want >= n)
		fatalx("%s: bad view %d", __func__, want);
	if (!tabs_available(want)) {
		if (session_store() == session_base() &&
		    store_set_is(session_base()))
			status_set(ROLE_ERROR, "no %s data here: this cluster "
			    "keeps each rank's tasks in a store of its own; "
			    "choose a rank (%s, or %s in the Cluster view)",
			    tabs_list[want]->title, keys_names_for(NULL,
			    ACTION_RANK, rank, sizeof rank), keys_names_for(
			    view_cluster_ops.keymap, ACTION_OPEN, open,
			    sizeof open));
		else
			status_set(ROLE_ERROR, "no %s data in this store",
			    tabs_list[want]->title);
		return REDRAW_STATUS;
	}
	if (tabs_stacks[want] == NULL) {
		i = tabs_cur;
		tabs_select(want);
		if (view_push(tabs_list[want], NULL, NULL) != 0) {
			tabs_select(i);
			return REDRAW_STATUS;
		}
		tabs_stacks[want]->top = true;
	}
	tabs_select(want);
	return REDRAW_ALL;
}

/* Close every view of every tab. */
void
tabs_close_all(void)
{
	size_t	 i;

	for (i = 0; i < TABS_N; i++) {
		tabs_select((int)i);
		while (view_top() != NULL)
			view_pop();
	}
	tabs_select(0);
}

/*
 * Close every view and open tab TAB again, or the first tab if TAB has no
 * data now: the store or the device changed under them.
 */
void
tabs_reopen(int tab)
{
	tabs_close_all();
	if (tabs_switch((enum action)(ACTION_VIEW_1 + tab)) == REDRAW_STATUS)
		tabs_switch(ACTION_VIEW_1);
}

/* The terminal changed size: every open view recomputes its layout. */
void
tabs_resize(void)
{
	struct view	*v;
	size_t		 i;

	for (i = 0; i < TABS_N; i++) {
		for (v = tabs_stacks[i]; v != NULL; v = v->below) {
			if (v->ops->resize != NULL)
				v->ops->resize(v);
		}
	}
}
