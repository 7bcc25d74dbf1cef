/*
 * The op statistic of a time window, pushed from the timeline's selected
 * range: the tasks starting in the range grouped as op_statistic groups
 * them (store_window_op_stat), laid out as show prints a table, under a
 * title naming the window. q returns to the timeline.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static int
view_window_open(struct view *v, const void *arg, char **cause)
{
	const struct view_range_arg	*w = arg;
	struct store_print_opts		 o;
	struct store_rows		*r;
	struct text			*t;
	char				 a[32], b[32], len[32], *buf = NULL;
	size_t				 size = 0;
	FILE				*f;

	if ((r = store_window_op_stat(session_store(), w->from_ns, w->to_ns,
	    session_device(), session_rank(), cause)) == NULL)
		return -1;
	util_fmt_time(a, sizeof a, w->from_ns - w->origin_ns);
	util_fmt_time(b, sizeof b, w->to_ns - w->origin_ns);
	util_fmt_time(len, sizeof len, w->to_ns - w->from_ns);
	t = text_create();
	text_addf(t, ROLE_TITLE, 1, "Op statistic of the tasks starting in "
	    "[%s, %s), %s", a, b, len);
	text_add(t, ROLE_NORMAL, 0, "");
	if (r->nrows == 0)
		text_add(t, ROLE_DIM, 1, "(no tasks start in this window)");
	else if ((f = open_memstream(&buf, &size)) != NULL) {
		memset(&o, 0, sizeof o);
		o.format = PRINT_TABLE;
		o.utf8 = draw_utf8();
		o.width = COLS - 2;
		store_print_rows(f, r, &o);
		fclose(f);
		text_add_lines(t, 1, buf, NULL, 0, ROLE_NORMAL);
		free(buf);
	}
	store_rows_free(r);
	v->data = t;
	return 0;
}

static void
view_window_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Op statistic of a window ");
}

const struct view_ops view_window_ops = {
	.name = "window",
	.title = "Window",
	.open = view_window_open,
	.close = text_close,
	.draw = text_draw,
	.key = text_key,
	.status = view_window_status,
	.hints = view_hints_page,
};
