/*
 * The sort menu of a table view (htop's F6): the table's columns in a
 * list, the one sorted on under the cursor. Enter sorts on the chosen
 * column, numbers largest first and text in order (I inverts it after),
 * and returns to the table; the first line restores the table's own
 * order.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

struct view_sort {
	struct view_table	*vt;
	size_t			 cur;		/* 0: the table's order */
	size_t			 top;
};

static int
view_sort_open(struct view *v, const void *arg, char **cause)
{
	struct view_sort	*vs;

	(void)cause;
	vs = xcalloc(1, sizeof *vs);
	vs->vt = (struct view_table *)(uintptr_t)arg;
	vs->cur = vs->vt->sort_col >= 0 ? (size_t)vs->vt->sort_col + 1 : 0;
	v->data = vs;
	return 0;
}

static void
view_sort_close(struct view *v)
{
	free(v->data);
}

static void
view_sort_draw(struct view *v, int y, int h)
{
	struct view_sort	*vs = v->data;
	struct view_table	*vt = vs->vt;
	size_t			 i, rows = h > 3 ? (size_t)h - 3 : 1;
	enum role		 role;
	int			 row;
	char			 title[192], open[64], keep[64];

	snprintf(title, sizeof title, "Sort on (%s; %s keeps the order)",
	    keys_names_for(v->ops->keymap, ACTION_OPEN, open, sizeof open),
	    keys_names_for(v->ops->keymap, ACTION_CLOSE, keep, sizeof keep));
	draw_text(y, 1, COLS - 1, ROLE_TITLE, title);
	view_list_show(vs->cur, &vs->top, rows);
	for (i = vs->top, row = 0; i <= vt->ncols && (size_t)row < rows;
	    i++, row++) {
		role = i == vs->cur ? ROLE_CURSOR : ROLE_NORMAL;
		draw_fill(y + 2 + row, 0, COLS, role);
		if (i == 0)
			draw_text(y + 2 + row, 3, COLS - 3, role,
			    "the table's own order");
		else
			draw_textf(y + 2 + row, 3, COLS - 3, role, "%s%s",
			    vt->names[i - 1], (int)i - 1 == vt->sort_col ?
			    vt->sort_desc ? "  (sorted, largest first)" :
			    "  (sorted)" : "");
	}
}

static int
view_sort_key(struct view *v, enum action a, int key)
{
	struct view_sort	*vs = v->data;
	struct view_table	*vt = vs->vt;
	int			 col;

	(void)key;
	/* The table's own order, then its columns. */
	if (view_list_move(&vs->cur, vt->ncols + 1, a))
		return REDRAW_BODY;
	switch (a) {
	case ACTION_OPEN:
		col = (int)vs->cur - 1;
		view_pop();
		return view_table_sort(vt, col, col >= 0 && vt->numeric[col]);
	default:
		return -1;
	}
}

const struct view_ops view_sort_ops = {
	.name = "sort",
	.title = "Sort",
	.open = view_sort_open,
	.close = view_sort_close,
	.draw = view_sort_draw,
	.key = view_sort_key,
	.hints = view_hints_pick,
};
