/*
 * The table views (Op statistic, API statistic, Op summary, Steps, Memory,
 * Markers, and the AA Core metrics of SVP jobs): one store table shown a
 * page at a time. Only the rows around the screen are held, fetched by the
 * key handlers through the store's page interface, so a table of ten
 * million tasks scrolls as fast as one of ten. The pager and the page
 * are in view-table-page.c, searching and saving in view-table-find.c.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static const struct key_binding view_table_keys[] = {
	{ '<', ACTION_SORT_PREV, NULL },
	{ '>', ACTION_SORT_NEXT, NULL },
	{ 'I', ACTION_SORT_INVERT, NULL },
	{ 'S', ACTION_SORT_MENU, NULL },
	{ KEY_F(6), ACTION_SORT_MENU, NULL },
	{ 'D', ACTION_SORT_TIME, NULL },
	{ 'C', ACTION_COLUMNS, NULL },
	{ 's', ACTION_STEP, NULL },
	{ KEY_F(2), ACTION_COLUMNS, NULL },
	{ '\\', ACTION_FILTER, NULL },
	{ KEY_F(4), ACTION_FILTER, NULL },
	{ '/', ACTION_SEARCH, NULL },
	{ KEYS_CTRL('r'), ACTION_SEARCH_BACK, NULL },
	{ 'n', ACTION_NEXT_MATCH, NULL },
	{ 'N', ACTION_PREV_MATCH, NULL },
	{ 'P', ACTION_SAVE, NULL },
	{ 't', ACTION_JUMP, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_table_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_SEARCH, "search" },
	{ ACTION_FILTER, "filter" },
	{ ACTION_SORT_MENU, "sort" },
	{ ACTION_COLUMNS, "columns" },
	{ ACTION_STEP, "step" },
	{ ACTION_OPEN, "open" },
	{ ACTION_JUMP, "timeline" },
	{ ACTION_NONE, NULL }
};

static int
view_table_open(struct view *v, const void *arg, char **cause)
{
	struct view_table	*vt;
	const char		*filter = arg;

	vt = xcalloc(1, sizeof *vt);
	vt->step = NP_NA;
	vt->sort_col = -1;
	vt->key = -1;
	vt->total = -1;
	if ((vt->t = view_table_page_find(v->ops->table)) == NULL) {
		xasprintf(cause, "no %s table in this store", v->ops->title);
		free(vt);
		return -1;
	}
	vt->base = vt->t;
	if (filter != NULL)
		vt->filter = xstrdup(filter);
	v->data = vt;
	if (view_table_page_reload(vt, cause) != 0) {
		v->data = NULL;
		view_table_page_free(vt);
		return -1;
	}
	return 0;
}

static void
view_table_close(struct view *v)
{
	view_table_page_free(v->data);
}

/* Whether column J shows: not hidden, or sorted on. */
bool
view_table_shown(const struct view_table *vt, size_t j)
{
	return vt->hidden == NULL || !vt->hidden[j] || (int)j == vt->sort_col;
}

/*
 * The columns on screen, in order, into COLS (room for VT->ncols): the
 * key column first when the table is scrolled past it, then the shown
 * ones from VT->col0 on. Return how many.
 */
static size_t
view_table_order(const struct view_table *vt, size_t *cols)
{
	size_t	 n = 0, j;

	if (vt->key >= 0 && (size_t)vt->key < vt->col0 &&
	    view_table_shown(vt, (size_t)vt->key))
		cols[n++] = (size_t)vt->key;
	for (j = vt->col0; j < vt->ncols; j++) {
		if (view_table_shown(vt, j))
			cols[n++] = j;
	}
	return n;
}

/* Scroll to the previous (DIR -1) or next (1) shown column, if any. */
static void
view_table_scroll(struct view_table *vt, int dir)
{
	size_t	 j;

	if (dir < 0) {
		for (j = vt->col0; j-- > 0;) {
			if (view_table_shown(vt, j)) {
				vt->col0 = j;
				return;
			}
		}
		vt->col0 = 0;
		return;
	}
	for (j = vt->col0 + 1; j < vt->ncols; j++) {
		if (view_table_shown(vt, j)) {
			vt->col0 = j;
			return;
		}
	}
}

/* The width column J takes on screen: the sorted one fits its mark. */
static int
view_table_colw(const struct view_table *vt, size_t j)
{
	int	 w = vt->widths[j], nw;
	char	 buf[256];

	if ((int)j == vt->sort_col) {
		nw = draw_width(view_table_page_header(vt, j, buf,
		    sizeof buf)) + draw_width(vt->sort_desc ?
		    draw_glyph_down() : draw_glyph_up());
		if (nw > w)
			w = nw;
	}
	return w;
}

/* Draw the header: the sort column marked, the first column VT->col0. */
static void
view_table_draw_header(struct view_table *vt, int y)
{
	size_t		*cols, n, k, i;
	int		 x = 0, w;
	char		 name[256], buf[256];
	const char	*h;

	draw_fill(y, 0, COLS, ROLE_HEADER);
	cols = xreallocarray(NULL, vt->ncols, sizeof *cols);
	n = view_table_order(vt, cols);
	for (k = 0; k < n && x < COLS; k++) {
		i = cols[k];
		w = view_table_colw(vt, i);
		h = view_table_page_header(vt, i, buf, sizeof buf);
		if ((int)i == vt->sort_col)
			snprintf(name, sizeof name, "%s%s", h, vt->sort_desc ?
			    draw_glyph_down() : draw_glyph_up());
		else
			snprintf(name, sizeof name, "%s", h);
		draw_cell(y, x, w < COLS - x ? w : COLS - x, (int)i ==
		    vt->sort_col ? ROLE_SORTED : ROLE_HEADER, name,
		    vt->numeric[i]);
		x += w + 1;
	}
	free(cols);
}

static void
view_table_draw(struct view *v, int y, int h)
{
	struct view_table		*vt = v->data;
	const struct store_rows		*r;
	size_t				 i, j, k, n, *cols;
	int64_t				 row;
	int				 x, w;
	enum role			 role;
	char				 buf[STORE_READABLE_MAX];
	const char			*c;

	if (vt->ncols == 0) {
		draw_text(y, 1, COLS - 1, ROLE_DIM, "(no rows)");
		return;
	}
	view_table_draw_header(vt, y);
	cols = xreallocarray(NULL, vt->ncols, sizeof *cols);
	n = view_table_order(vt, cols);
	for (row = 0; row < h - 1; row++) {
		if ((r = view_table_page_row(vt, vt->top + row, &i)) == NULL)
			break;
		role = vt->top + row == vt->cur ? ROLE_CURSOR : ROLE_NORMAL;
		if (role == ROLE_CURSOR)
			draw_fill(y + 1 + (int)row, 0, COLS, role);
		x = 0;
		for (k = 0; k < n && x < COLS; k++) {
			if ((j = cols[k]) >= r->ncols)
				continue;
			w = view_table_colw(vt, j);
			c = view_table_page_text(vt, r, i, j, buf);
			/*
			 * The search's matches stand out, as in less; once
			 * PCRE2 gave up on a cell, none does (each cell
			 * would cost the whole of its match limit again).
			 */
			view_table_page_draw_cell(vt, j, y + 1 + (int)row, x,
			    w < COLS - x ? w : COLS - x, vt->search_m != NULL &&
			    !matcher_failed(vt->search_m, NULL) &&
			    view_table_page_match(vt->search_m, r, i, j, c) ?
			    ROLE_MATCH : role, c);
			x += w + 1;
		}
	}
	free(cols);
	if (vt->top == 0 && vt->page != NULL && vt->page->nrows == 0 &&
	    vt->busy)
		draw_text(y + 1, 1, COLS - 1, ROLE_DIM, vt->filter != NULL ?
		    "(looking for rows that match the filter...)" :
		    "(sorting...)");
	else if (vt->top == 0 && vt->page != NULL && vt->page->nrows == 0)
		draw_text(y + 1, 1, COLS - 1, ROLE_DIM, vt->filter != NULL ?
		    "(no rows match the filter)" : "(no rows)");
}

/* The rows grow past the page: fetch, then clamp to what exists. */
static int
view_table_move(struct view_table *vt, int64_t row)
{
	char	*cause = NULL;

	view_table_page_goto(vt, row);
	if (view_table_page_fill(vt, false, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	}
	view_table_page_goto(vt, vt->cur);
	if (vt->total >= 0 && vt->top > 0 && vt->top
	    + view_table_page_height() >
	    vt->total) {
		vt->top = vt->total - view_table_page_height();
		if (vt->top < 0)
			vt->top = 0;
	}
	return REDRAW_BODY;
}

/*
 * Whether column COL shows whole with the table scrolled to column COL0,
 * the key column kept in front. The gap after it is only needed before
 * another.
 */
static bool
view_table_fits(const struct view_table *vt, size_t col0, size_t col)
{
	size_t	 j;
	int	 x = 0;

	if (vt->key >= 0 && (size_t)vt->key < col0 && (size_t)vt->key != col)
		x += view_table_colw(vt, (size_t)vt->key) + 1;
	for (j = col0; j < col; j++) {
		if (view_table_shown(vt, j))
			x += view_table_colw(vt, j) + 1;
	}
	return x + view_table_colw(vt, col) <= COLS;
}

/*
 * Scroll VT sideways, if need be, so that column COL shows whole; back to
 * the first column for the table's own order (COL -1).
 */
static void
view_table_show_col(struct view_table *vt, int col)
{
	if (col < 0)
		vt->col0 = 0;
	if (col < 0 || vt->widths == NULL)
		return;
	/* Not scrolled at all where the column fits so. */
	if (view_table_fits(vt, 0, (size_t)col)) {
		vt->col0 = 0;
		return;
	}
	if ((size_t)col < vt->col0) {
		vt->col0 = (size_t)col;
		return;
	}
	while (vt->col0 != (size_t)col && !view_table_fits(vt, vt->col0,
	    (size_t)col))
		vt->col0++;
}

/*
 * Sort VT on column COL (-1: the table's order), descending if DESC, and
 * bring the column into view.
 */
int
view_table_sort(struct view_table *vt, int col, bool desc)
{
	int	 old_col = vt->sort_col;
	bool	 old_desc = vt->sort_desc;
	char	*old = vt->sort, *cause = NULL;
	double	 t0 = util_now();

	vt->sort_col = col;
	vt->sort_desc = desc;
	vt->sort = NULL;
	if (col >= 0)
		xasprintf(&vt->sort, "%s%s", desc ? "-" : "", vt->names[col]);
	if (view_table_page_reload(vt, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		free(vt->sort);
		vt->sort = old;
		vt->sort_col = old_col;
		vt->sort_desc = old_desc;
		return REDRAW_ALL;
	}
	free(old);
	view_table_show_col(vt, col);
	if (util_now() - t0 > 0.5)
		status_set(ROLE_NORMAL, "sorted in %.1f s", util_now() - t0);
	return REDRAW_ALL;
}

/*
 * D: sort on the column that says how long (a task's duration, a step's
 * time, an op type's or API's total), largest first, as htop's P and M
 * sort on what matters; pressed again, the other way round.
 */
static int
view_table_sort_time(struct view_table *vt)
{
	static const char *const names[] = { "Task Duration(us)",
	    "Iteration Time(us)", "Total Time(us)", "Time(us)",
	    "Duration(us)", "task_time(us)", NULL };
	size_t	 i, j;

	for (i = 0; names[i] != NULL; i++) {
		for (j = 0; j < vt->ncols; j++) {
			if (strcmp(vt->names[j], names[i]) != 0)
				continue;
			return view_table_sort(vt, (int)j, (int)j ==
			    vt->sort_col ? !vt->sort_desc : true);
		}
	}
	status_set(ROLE_ERROR, "this table has no time column to sort on");
	return REDRAW_STATUS;
}

/*
 * The filter prompt's answer: apply it, or keep the old one if bad; the
 * bad one is offered again, to correct.
 */
static void
view_table_filter_done(void *arg, const char *text)
{
	struct view_table	*vt = arg;
	char			*old = vt->filter, *cause = NULL;

	if (text == NULL)
		return;
	free(vt->filter_bad);
	vt->filter_bad = NULL;
	vt->filter = *text != '\0' ? xstrdup(text) : NULL;
	if (view_table_page_reload(vt, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		vt->filter_bad = vt->filter;
		vt->filter = old;
		return;
	}
	free(old);
}

/* Mouse: a click on the header sorts, on a row moves, the wheel scrolls. */
static int
view_table_mouse(struct view_table *vt)
{
	int	 y, x, wheel, cx = 0, w, rc = REDRAW_NONE;
	bool	 click;
	size_t	 i, k, n, *cols;

	mouse_get(&y, &x, &click, &wheel);
	if (wheel != 0)
		return view_table_move(vt, vt->cur + 3 * wheel);
	if (!click)
		return REDRAW_NONE;
	if (y == 1 && vt->ncols > 0) {
		cols = xreallocarray(NULL, vt->ncols, sizeof *cols);
		n = view_table_order(vt, cols);
		for (k = 0; k < n; k++) {
			i = cols[k];
			w = view_table_colw(vt, i);
			if (x >= cx && x < cx + w + 1) {
				rc = view_table_sort(vt, (int)i, (int)i ==
				    vt->sort_col ? !vt->sort_desc :
				    vt->numeric[i]);
				break;
			}
			cx += w + 1;
		}
		free(cols);
		return rc;
	}
	if (y >= 2 && y < LINES - 1)
		return view_table_move(vt, vt->top + (y - 2));
	return REDRAW_NONE;
}

static int
view_table_key(struct view *v, enum action a, int key)
{
	struct view_table	*vt = v->data;
	struct view_detail_arg	 d;
	int64_t			 h = view_table_page_height();
	size_t			 i;
	int			 col;

	if (key == KEY_MOUSE)
		return view_table_mouse(vt);
	switch (a) {
	case ACTION_UP:
		return view_table_move(vt, vt->cur - 1);
	case ACTION_DOWN:
		return view_table_move(vt, vt->cur + 1);
	case ACTION_PAGE_UP:
		vt->top = vt->top > h ? vt->top - h : 0;
		return view_table_move(vt, vt->cur - h);
	case ACTION_PAGE_DOWN:
		vt->top += h;
		return view_table_move(vt, vt->cur + h);
	case ACTION_HALF_UP:
		return view_table_move(vt, vt->cur - h / 2);
	case ACTION_HALF_DOWN:
		return view_table_move(vt, vt->cur + h / 2);
	case ACTION_TOP:
		return view_table_move(vt, 0);
	case ACTION_BOTTOM:
		if (vt->busy) {
			status_set(ROLE_NORMAL, "the last row found so far; "
			    "more may come");
			return view_table_move(vt, vt->found - 1);
		}
		if (vt->total < 0)
			vt->total = store_page_count(vt->pager);
		return view_table_move(vt, vt->total - 1);
	case ACTION_LEFT:
		view_table_scroll(vt, -1);
		return REDRAW_BODY;
	case ACTION_RIGHT:
		view_table_scroll(vt, 1);
		return REDRAW_BODY;
	case ACTION_COLUMNS:
		if (vt->ncols == 0)
			return REDRAW_NONE;
		return view_push(&view_columns_ops, vt, NULL) == 0 ?
		    REDRAW_ALL : REDRAW_STATUS;
	case ACTION_SORT_NEXT:
	case ACTION_SORT_PREV:
		if (vt->ncols == 0)
			return REDRAW_NONE;
		col = vt->sort_col + (a == ACTION_SORT_NEXT ? 1 : -1);
		if (col >= (int)vt->ncols)
			col = -1;
		else if (col < -1)
			col = (int)vt->ncols - 1;
		return view_table_sort(vt, col, col >= 0 && vt->numeric[col]);
	case ACTION_SORT_TIME:
		return view_table_sort_time(vt);
	case ACTION_SORT_MENU:
		if (vt->ncols == 0)
			return REDRAW_NONE;
		return view_push(&view_sort_ops, vt, NULL) == 0 ? REDRAW_ALL :
		    REDRAW_STATUS;
	case ACTION_SORT_INVERT:
		if (vt->sort_col < 0) {
			status_set(ROLE_ERROR, "pick a sort column first "
			    "with < or >");
			return REDRAW_STATUS;
		}
		return view_table_sort(vt, vt->sort_col, !vt->sort_desc);
	case ACTION_FILTER:
		prompt_start("filter (regex or col:regex): ", vt->filter_bad !=
		    NULL ? vt->filter_bad : vt->filter, view_table_filter_done,
		    vt);
		return REDRAW_STATUS;
	case ACTION_STEP:
		return view_table_step_key(vt);
	case ACTION_SEARCH:
	case ACTION_SEARCH_BACK:
	case ACTION_NEXT_MATCH:
	case ACTION_PREV_MATCH:
		return view_table_find_search_key(vt, a);
	case ACTION_SAVE:
		return view_table_find_save_key(vt);
	case ACTION_JUMP:
		return view_jump_key(vt);
	case ACTION_OPEN:
		if (view_table_page_row(vt, vt->cur, &i) == NULL)
			return REDRAW_NONE;
		d.table = store_tables_name(vt->t);
		d.rows = vt->page;
		d.row = i;
		d.win = vt->step != NP_NA ? &vt->win : NULL;
		return view_push(&view_detail_ops, &d, NULL) == 0 ?
		    REDRAW_ALL : REDRAW_STATUS;
	default:
		return -1;
	}
}

static void
view_table_resize(struct view *v)
{
	struct view_table	*vt = v->data;
	char			*cause = NULL;

	view_table_page_goto(vt, vt->cur);
	if (view_table_page_fill(vt, false, &cause) != 0)
		free(cause);
}

/* What the scan is doing, for the status line ("" when idle). */
static void
view_table_progress(struct view_table *vt, char *buf, size_t len)
{
	struct store_page_state	 st;

	buf[0] = '\0';
	if (!vt->busy)
		return;
	store_page_state(vt->pager, &st);
	if (st.phase == NULL)
		return;
	if (st.total > 0)
		snprintf(buf, len, "  %s... %d%%", st.phase,
		    (int)(100 * (st.scanned < st.total ? st.scanned :
		    st.total) / st.total));
	else
		snprintf(buf, len, "  %s...", st.phase);
}

static void
view_table_status(struct view *v, char *buf, size_t len)
{
	struct view_table	*vt = v->data;
	char			 total[32], busy[64], hits[64], hid[48] = "";
	char			 step[40] = "";
	size_t			 j, n = 0;

	if (vt->total >= 0)
		snprintf(total, sizeof total, "%lld", (long long)vt->total);
	else if (vt->busy)
		snprintf(total, sizeof total, "%lld+", (long long)vt->found);
	else
		snprintf(total, sizeof total, "?");
	view_table_progress(vt, busy, sizeof busy);
	view_table_find_hits_status(vt, hits, sizeof hits);
	for (j = 0; j < vt->ncols; j++)
		n += !view_table_shown(vt, j);
	if (n > 0)
		snprintf(hid, sizeof hid, "  %zu col%s hidden", n, n > 1 ?
		    "s" : "");
	if (vt->step != NP_NA)
		snprintf(step, sizeof step, "  step %lld", (long long)vt->step);
	snprintf(buf, len, " %s  row %lld of %s%s%s%s%s%s%s%s%s%s ",
	    v->ops->title, (long long)(vt->total == 0 || (vt->busy &&
	    vt->found == 0) ? 0 : vt->cur + 1),
	    total, step, vt->sort != NULL ? "  sort " : "",
	    vt->sort != NULL ? vt->sort : "", vt->filter != NULL ?
	    "  filter " : "", vt->filter != NULL ? vt->filter : "",
	    vt->col0 > 0 ? "  col +" : "", hits, hid, busy);
}

/*
 * The background scan: pick up the rows it found since the last tick,
 * and when it ends, the count (or its error). Tell the loop whether the
 * first page is there yet.
 */
static int
view_table_tick(struct view *v, enum view_work *w)
{
	struct view_table	*vt = v->data;
	struct store_page_state	 st;
	char			*cause = NULL;
	int64_t			 shown, want;

	*w = WORK_IDLE;
	if (!vt->busy && !vt->hits_done) {
		if (view_table_find_hits_tick(vt))
			*w = WORK_SHOWN;
		return REDRAW_STATUS;
	}
	/*
	 * A filter read directly, not by a scan (a step's or a window's
	 * rows): count it once the page is on the screen, not at G only.
	 */
	if (!vt->busy && vt->total < 0 && vt->pager != NULL) {
		vt->total = store_page_count(vt->pager);
		return REDRAW_STATUS;
	}
	if (!vt->busy)
		return REDRAW_NONE;
	store_page_state(vt->pager, &st);
	shown = vt->page_off + (vt->page != NULL ?
	    (int64_t)vt->page->nrows : 0);
	want = vt->top + view_table_page_height();
	vt->found = st.found;
	if (st.phase != NULL && (shown >= want || st.found <= shown)) {
		*w = shown >= want ? WORK_SHOWN : WORK_WAIT;
		return REDRAW_STATUS;
	}
	if (st.phase == NULL) {
		vt->busy = false;
		if (st.error != NULL)
			status_set(ROLE_ERROR, "%s", st.error);
		else if (util_now() - vt->t0 > 0.5)
			status_set(ROLE_NORMAL, "%s in %.1f s", vt->filter !=
			    NULL ? "filtered" : "sorted", util_now() - vt->t0);
		vt->total = store_page_count(vt->pager);
	}
	if (view_table_page_fill(vt, true, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	}
	view_table_page_goto(vt, vt->cur);
	if (!vt->busy)
		view_table_find_search_resume(vt);
	if (vt->busy)
		*w = vt->page != NULL && vt->page_off +
		    (int64_t)vt->page->nrows >= want ? WORK_SHOWN : WORK_WAIT;
	else if (!vt->hits_done)
		*w = WORK_SHOWN;	/* the search's matches to count */
	return REDRAW_ALL;
}

/*
 * The table views differ only in their name, title and tables: each entry
 * of VIEW_TABLES (ui.h) yields one of these.
 */
#define VIEW_TABLE_OPS(e, nm, ti, tb)					\
	[VIEW_TABLE_##e] = {						\
		.name = nm,						\
		.title = ti,						\
		.table = tb,						\
		.open = view_table_open,				\
		.close = view_table_close,				\
		.draw = view_table_draw,				\
		.key = view_table_key,					\
		.resize = view_table_resize,				\
		.status = view_table_status,				\
		.tick = view_table_tick,				\
		.keymap = view_table_keys,				\
		.hints = view_table_hints,				\
	},
const struct view_ops view_table_ops[] = {
	VIEW_TABLES(VIEW_TABLE_OPS)
};
#undef VIEW_TABLE_OPS
