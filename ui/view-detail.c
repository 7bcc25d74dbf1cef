/*
 * The detail of one row: every field, one per line, so wide rows (shapes,
 * PMU counters) are readable; for an op type, its slowest tasks, which the
 * cursor selects; for a task, the API span that launched it and the spans
 * around that one. Enter (or t) shows the selected task, or the task of
 * the page, in the timeline. The view copies what it shows, so the table
 * below may page on freely.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

#define DETAIL_TASKS	100

/* The API span that launched task row TASK, and the spans around it. */
static void
view_detail_launch(struct text *t, int64_t task)
{
	struct store_rows	*r;
	char			*cause = NULL;
	size_t			 i;

	text_add(t, ROLE_NORMAL, 0, "");
	if ((r = store_launch_task(session_store(), task, &cause)) == NULL) {
		text_addf(t, ROLE_ERROR, 1, "%s", cause);
		free(cause);
		return;
	}
	if (r->nrows == 0) {
		text_add(t, ROLE_DIM, 1, "No API span is known to have "
		    "launched this task");
		store_rows_free(r);
		return;
	}
	text_add(t, ROLE_TITLE, 1, "Launched by (innermost first)");
	text_addf(t, ROLE_LABEL, 3, "%-10s %-28s %8s %8s %21s %13s", "Level",
	    "Name", "PID", "TID", "Start(us)", "Duration(us)");
	for (i = 0; i < r->nrows; i++)
		text_addf(t, ROLE_NORMAL, 3, "%-10s %-28s %8s %8s %21s %13s",
		    store_rows_cell(r, i, 0), store_rows_cell(r, i, 1),
		    store_rows_cell(r, i, 2), store_rows_cell(r, i, 3),
		    store_rows_cell(r, i, 4), store_rows_cell(r, i, 5));
	store_rows_free(r);
}

/* Cell COL of row I of R, or "" for a column R lacks (COL -1). */
static const char *
view_detail_cell(const struct store_rows *r, size_t i, int col)
{
	return col >= 0 ? store_rows_cell(r, i, (size_t)col) : "";
}

/*
 * The tasks of op type TYPE on DEVICE and RANK (as cells: "0", "host";
 * NULL for the session's) in window W (the table's step, or NULL),
 * slowest first, each a line the cursor selects: Enter shows it in the
 * timeline.
 */
static void
view_detail_tasks(struct text *t, const char *type, const char *device,
    const char *rank, const struct store_window *w)
{
	static const char *const	 names[] = { "Task Duration(us)",
					    "Task Start Time(us)", "Stream ID",
					    "Op Name" };
	const struct store_table	*kt;
	struct store_query		 q;
	struct store_rows		*r;
	char				*filter, *cause = NULL, keys[64];
	size_t				 i;
	int				 col[4];
	int64_t				 dev;

	/* The tasks of one rank need no Rank column. */
	kt = rank != NULL ? store_tables_find_base(session_store(),
	    "op_summary") : store_tables_find_rank(session_store(),
	    "op_summary", session_rank());
	if (kt == NULL)
		return;
	xasprintf(&filter, "OP Type:^\\Q%s\\E$", type);
	store_query_init(&q);
	q.filter = filter;
	q.sort = "-Task Duration(us)";
	q.limit = DETAIL_TASKS;
	q.device = session_device();
	q.rank = session_rank();
	if (device != NULL && strcmp(device, "host") != 0 &&
	    util_parse_int(device, strlen(device), &dev) == 0)
		q.device = dev;
	if (rank != NULL && util_parse_int(rank, strlen(rank), &dev) == 0)
		q.rank = dev;
	if (w != NULL)
		store_window_query(kt, w, &q);
	r = store_query_table_ids(session_store(), kt, &q, &cause);
	free(filter);
	free(cause);
	if (r == NULL || r->nrows == 0) {
		store_rows_free(r);
		return;
	}
	for (i = 0; i < 4; i++)
		col[i] = store_rows_col(r, names[i]);
	text_add(t, ROLE_NORMAL, 0, "");
	text_addf(t, ROLE_TITLE, 1, "Tasks of %s%s%s, slowest first%s "
	    "(%s shows one in the timeline)", type, w != NULL ?
	    " in the step" : "", device != NULL ? " on this device" : "",
	    r->nrows == DETAIL_TASKS ? " (first 100)" : "",
	    keys_names_for(view_detail_ops.keymap, ACTION_OPEN, keys,
	    sizeof keys));
	text_addf(t, ROLE_LABEL, 3, "%14s  %21s  %-8s %s", "Duration(us)",
	    "Start(us)", "Stream", "Op Name");
	for (i = 0; i < r->nrows; i++) {
		text_addf(t, ROLE_NORMAL, 3, "%14s  %21s  %-8s %s",
		    view_detail_cell(r, i, col[0]),
		    view_detail_cell(r, i, col[1]),
		    view_detail_cell(r, i, col[2]),
		    view_detail_cell(r, i, col[3]));
		if (r->ids != NULL)
			text_set_id(t, r->ids[i]);
	}
	store_rows_free(r);
}

static int
view_detail_open(struct view *v, const void *arg, char **cause)
{
	const struct view_detail_arg	*d = arg;
	const struct store_rows		*r = d->rows;
	struct text			*t;
	size_t				 j, w = 0;
	int				 type = -1, dev, rk;
	char				 keys[64];

	t = text_create();
	text_addf(t, ROLE_TITLE, 1, "%s: row detail%s%s%s", d->table,
	    r->ids != NULL ? " (" : "", r->ids != NULL ?
	    keys_names_for(view_detail_ops.keymap, ACTION_OPEN, keys,
	    sizeof keys) : "", r->ids != NULL ? " shows the task in the "
	    "timeline)" : "");
	/* A task's own detail: Enter on its title shows it. */
	if (r->ids != NULL)
		text_set_id(t, r->ids[d->row]);
	for (j = 0; j < r->ncols; j++) {
		if (strlen(r->names[j]) > w)
			w = strlen(r->names[j]);
		if (strcmp(r->names[j], "OP Type") == 0)
			type = (int)j;
	}
	for (j = 0; j < r->ncols; j++)
		text_addf(t, ROLE_NORMAL, 3, "%-*s  %s", (int)w, r->names[j],
		    store_rows_cell(r, d->row, j));
	if (type >= 0 && strcmp(d->table, "op_statistic") == 0)
		view_detail_tasks(t, store_rows_cell(r, d->row, (size_t)type),
		    (dev = store_rows_col(r, "Device_id")) >= 0 ?
		    store_rows_cell(r, d->row, (size_t)dev) : NULL,
		    (rk = store_rows_col(r, "Rank")) >= 0 ?
		    store_rows_cell(r, d->row, (size_t)rk) : NULL, d->win);
	if (r->ids != NULL)
		view_detail_launch(t, r->ids[d->row]);
	v->data = t;
	return 0;
}

static const struct key_binding view_detail_keys[] = {
	{ 't', ACTION_JUMP, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_detail_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "back" },
	{ ACTION_OPEN, "timeline" },
	{ ACTION_NONE, NULL }
};

/* Enter or t on a task line: that task in the timeline. */
static int
view_detail_key(struct view *v, enum action a, int key)
{
	int64_t	 id;

	if (a != ACTION_OPEN && a != ACTION_JUMP)
		return text_key(v, a, key);
	if ((id = text_cur_id(v->data)) == NP_NA) {
		status_set(ROLE_ERROR, "no task here to show");
		return REDRAW_STATUS;
	}
	return view_jump_task_id(id);
}

static void
view_detail_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Detail  %zu lines ", text_lines(v->data));
}

const struct view_ops view_detail_ops = {
	.name = "detail",
	.title = "Detail",
	.open = view_detail_open,
	.close = text_close,
	.draw = text_draw,
	.key = view_detail_key,
	.status = view_detail_status,
	.keymap = view_detail_keys,
	.hints = view_detail_hints,
};
