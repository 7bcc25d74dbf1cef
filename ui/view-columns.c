/*
 * The column chooser of a table view (htop's F2): the table's columns in
 * a list, each with a mark saying whether it shows. Enter or Space shows
 * or hides the column under the cursor, a shows them all, q returns to
 * the table. Columns in which no row has a value come hidden
 * (store_empty_cols) and say so here; the column sorted on always shows.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

struct view_columns {
	struct view_table	*vt;
	size_t			 cur;
	size_t			 top;
	bool			*empty;		/* as the store found them */
};

static const struct key_binding view_columns_keys[] = {
	{ ' ', ACTION_OPEN, "Show or hide the column" },
	{ 'a', ACTION_COLUMNS, "Show every column" },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_columns_hints[] = {
	{ ACTION_OPEN, "show/hide" },
	{ ACTION_COLUMNS, "all" },
	{ ACTION_CLOSE, "back" },
	{ ACTION_NONE, NULL }
};

static int
view_columns_open(struct view *v, const void *arg, char **cause)
{
	struct view_columns	*vc;

	(void)cause;
	vc = xcalloc(1, sizeof *vc);
	vc->vt = (struct view_table *)(uintptr_t)arg;
	vc->empty = xcalloc(vc->vt->ncols, sizeof *vc->empty);
	store_empty_cols(session_store(), vc->vt->t, vc->vt->names,
	    vc->vt->ncols, vc->empty);
	v->data = vc;
	return 0;
}

static void
view_columns_close(struct view *v)
{
	struct view_columns	*vc = v->data;

	free(vc->empty);
	free(vc);
}

static void
view_columns_draw(struct view *v, int y, int h)
{
	struct view_columns	*vc = v->data;
	struct view_table	*vt = vc->vt;
	size_t			 i, rows = h > 3 ? (size_t)h - 3 : 1;
	enum role		 role;
	int			 row;
	bool			 on;
	char			 title[256], show[64], all[64];

	snprintf(title, sizeof title, "Columns shown (%s shows or hides one; "
	    "%s shows all)", keys_names_for(v->ops->keymap, ACTION_OPEN, show,
	    sizeof show), keys_names_for(v->ops->keymap, ACTION_COLUMNS, all,
	    sizeof all));
	draw_text(y, 1, COLS - 1, ROLE_TITLE, title);
	view_list_show(vc->cur, &vc->top, rows);
	for (i = vc->top, row = 0; i < vt->ncols && (size_t)row < rows;
	    i++, row++) {
		role = i == vc->cur ? ROLE_CURSOR : ROLE_NORMAL;
		on = view_table_shown(vt, i);
		draw_fill(y + 2 + row, 0, COLS, role);
		draw_textf(y + 2 + row, 1, COLS - 1, role, "[%s] %s%s%s",
		    on ? "x" : " ", vt->names[i], vc->empty[i] ?
		    "  (no row has a value)" : "", (int)i == vt->sort_col ?
		    "  (sorted on: always shown)" : "");
	}
}

static int
view_columns_key(struct view *v, enum action a, int key)
{
	struct view_columns	*vc = v->data;
	struct view_table	*vt = vc->vt;
	size_t			 i;

	(void)key;
	if (view_list_move(&vc->cur, vt->ncols, a))
		return REDRAW_BODY;
	switch (a) {
	case ACTION_OPEN:
		if ((int)vc->cur == vt->sort_col) {
			status_set(ROLE_NORMAL, "the column sorted on "
			    "always shows");
			return REDRAW_STATUS;
		}
		vt->hidden[vc->cur] = !vt->hidden[vc->cur];
		return REDRAW_ALL;
	case ACTION_COLUMNS:
		for (i = 0; i < vt->ncols; i++)
			vt->hidden[i] = false;
		return REDRAW_ALL;
	default:
		return -1;
	}
}

const struct view_ops view_columns_ops = {
	.name = "columns",
	.title = "Columns",
	.open = view_columns_open,
	.close = view_columns_close,
	.draw = view_columns_draw,
	.key = view_columns_key,
	.keymap = view_columns_keys,
	.hints = view_columns_hints,
};
