/*
 * A table view's rows: the pager for its sort and filter, and the page of
 * rows around the screen that the key handlers fetch through it. The
 * columns widen to fit what the pages held. view-table.c, the search and
 * the jump to the timeline all move through these.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui-int.h"

#define TABLE_MAX_WIDTH	40

/* The first of the " "-separated NAMES the store has. */
const struct store_table *
view_table_page_find(const char *names)
{
	const struct store_table	*t = NULL;
	char				*copy, *p, *word;

	copy = p = xstrdup(names);
	while (t == NULL && (word = strsep(&p, " ")) != NULL) {
		if (*word != '\0')
			t = store_tables_find_rank(session_store_for(word),
			    word, session_rank());
	}
	free(copy);
	return t;
}

/* The rows visible below the header. */
int64_t
view_table_page_height(void)
{
	int	 h = view_body_lines() - 1;

	return h > 1 ? h : 1;
}

/* Widen the columns to fit what PAGE holds, up to a limit. */
/*
 * Whether NAME is the column that says what a row is (the op, the op
 * type, the API, the step): it stays on screen when the table scrolls
 * right, as a spreadsheet's frozen column.
 */
static bool
view_table_page_key(const char *name)
{
	static const char *const keys[] = { "Op Name", "OP Type",
	    "API Name", "Iteration ID", "Name", "Step", NULL };
	size_t	 i;

	for (i = 0; keys[i] != NULL; i++) {
		if (strcmp(name, keys[i]) == 0)
			return true;
	}
	return false;
}

/*
 * Whether column NAME holds instants (a start or an end): those in epoch
 * time show from the start of the trace.
 */
static bool
view_table_page_instant(const char *name)
{
	static const char *const names[] = { "Task Start Time(us)",
	    "task_start(us)", "task_stop(us)", "FP Start(us)", "BP End(us)",
	    "Iteration End(us)", "Start(us)", "End(us)", "Start Time(us)",
	    "End Time(us)", "Start_time(us)", "End_time(us)",
	    "Timestamp(us)", "Allocation Time(us)", "Release Time(us)",
	    NULL };
	size_t	 i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcasecmp(name, names[i]) == 0)
			return true;
	}
	return false;
}

/* A duration column's name ends in its unit: "Task Duration(us)". */
static bool
view_table_page_us(const char *name)
{
	return util_has_suffix(name, "(us)");
}

/*
 * Which duration columns mix magnitudes (the largest value seen at least
 * a millisecond and a thousand times the smallest above zero): those show
 * each cell in its own unit, us, ms or s, so 175.220 ms and 3.240 us read
 * at a glance. Every page the table fetches adds to what was seen; a
 * column once scaled stays so.
 */
static void
view_table_page_scale(struct view_table *vt, const struct store_rows *r)
{
	const char	*c;
	int64_t		 ns;
	size_t		 i, j;

	for (j = 0; j < r->ncols && j < vt->ncols; j++) {
		if (vt->scaled[j] || !vt->numeric[j] || vt->instant[j] ||
		    !view_table_page_us(vt->names[j]))
			continue;
		for (i = 0; i < r->nrows; i++) {
			c = store_rows_cell(r, i, j);
			if (util_parse_ns(c, strlen(c), &ns) != 0)
				continue;
			ns = ns < 0 ? -ns : ns;
			if (ns > 0 && ns < vt->lo[j])
				vt->lo[j] = ns;
			if (ns > vt->hi[j])
				vt->hi[j] = ns;
		}
		if (vt->hi[j] >= 1000000 && vt->hi[j] / 1000 >= vt->lo[j]) {
			vt->scaled[j] = true;
			vt->intw[j] = vt->fracw[j] = 0;
			vt->widths[j] = draw_width(vt->names[j]) - 3;
		}
	}
}

/* Column J's name as the header shows it: a scaled one has no "(us)". */
const char *
view_table_page_header(const struct view_table *vt, size_t j, char *buf,
    size_t size)
{
	if (!vt->scaled[j])
		return vt->names[j];
	snprintf(buf, size, "%.*s", (int)(strlen(vt->names[j]) - 4),
	    vt->names[j]);
	return buf;
}

/* NS as "1.234 s ", "175.220 ms" or "3.240 us", to the microsecond. */
static const char *
view_table_page_scaled(int64_t ns, char *buf)
{
	const char	*sign = ns < 0 ? "-" : "";
	uint64_t	 a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	if (a < 1000000) {
		util_fmt_us(buf, STORE_READABLE_MAX - 3, ns, 3, false);
		strcat(buf, " us");
		return buf;
	}
	/* Rounded once, from the ns: 1234499500 ns is 1.234 s. */
	if (a < 999999500) {
		a = (a + 500) / 1000;			/* us */
		snprintf(buf, STORE_READABLE_MAX, "%s%llu.%03llu ms", sign,
		    (unsigned long long)(a / 1000),
		    (unsigned long long)(a % 1000));
	} else {
		a = (a + 500000) / 1000000;		/* ms */
		snprintf(buf, STORE_READABLE_MAX, "%s%llu.%03llu s ", sign,
		    (unsigned long long)(a / 1000),
		    (unsigned long long)(a % 1000));
	}
	return buf;
}

/*
 * Cell J of row I of R as the table shows it, in BUF if it changes
 * (STORE_READABLE_MAX bytes): an instant in epoch time as "+us" from the
 * start of the trace (the detail page keeps the epoch time), a float with
 * a binary tail rounded (store_print_readable).
 */
const char *
view_table_page_text(const struct view_table *vt, const struct store_rows *r,
    size_t i, size_t j, char *buf)
{
	const char	*c = store_print_readable(r, i, j, buf);
	int64_t		 ns;

	if (j < vt->ncols && vt->scaled[j] && util_parse_ns(c, strlen(c),
	    &ns) == 0)
		return view_table_page_scaled(ns, buf);
	if (j >= vt->ncols || !vt->instant[j] || vt->origin == NP_NA ||
	    util_parse_ns(c, strlen(c), &ns) != 0 || ns < VIEW_TABLE_EPOCH)
		return c;
	buf[0] = '+';
	util_fmt_us(buf + 1, STORE_READABLE_MAX - 1, ns - vt->origin, 3,
	    false);
	return buf;
}

/*
 * Whether M matches cell J of row I of R: as shown (TEXT) or as stored,
 * so that an epoch time copied from elsewhere is found too.
 */
bool
view_table_page_match(struct matcher *m, const struct store_rows *r,
    size_t i, size_t j, const char *text)
{
	const char	*c = store_rows_cell(r, i, j);

	return matcher_match(m, text, strlen(text)) || (c != text &&
	    strcmp(c, text) != 0 && matcher_match(m, c, strlen(c)));
}

/*
 * Draw cell TEXT of column J at Y, X in WIDTH columns: numbers right
 * aligned with their decimal points in line, text on the left.
 */
int
view_table_page_draw_cell(const struct view_table *vt, size_t j, int y,
    int x, int width, enum role role, const char *text)
{
	char	 pad[STORE_READABLE_MAX + 16];
	int	 n;

	if (!vt->numeric[j])
		return draw_cell(y, x, width, role, text, false);
	n = vt->fracw[j] - (int)store_print_frac(text);
	snprintf(pad, sizeof pad, "%s%*s", text, n > 0 ? n : 0, "");
	return draw_cell(y, x, width, role, pad, true);
}

static void
view_table_page_widths(struct view_table *vt, const struct store_rows *r)
{
	char		 buf[STORE_READABLE_MAX];
	const char	*c;
	size_t		 i, j;
	int		 w, f;

	if (vt->widths == NULL) {
		vt->ncols = r->ncols;
		vt->widths = xcalloc(r->ncols, sizeof *vt->widths);
		vt->names = xcalloc(r->ncols, sizeof *vt->names);
		vt->numeric = xcalloc(r->ncols, sizeof *vt->numeric);
		vt->hidden = xcalloc(r->ncols, sizeof *vt->hidden);
		vt->instant = xcalloc(r->ncols, sizeof *vt->instant);
		vt->scaled = xcalloc(r->ncols, sizeof *vt->scaled);
		vt->lo = xcalloc(r->ncols, sizeof *vt->lo);
		vt->hi = xcalloc(r->ncols, sizeof *vt->hi);
		vt->intw = xcalloc(r->ncols, sizeof *vt->intw);
		vt->fracw = xcalloc(r->ncols, sizeof *vt->fracw);
		vt->origin = store_lanes_origin(session_store());
		vt->key = -1;
		for (i = 0; i < r->ncols; i++) {
			vt->names[i] = xstrdup(r->names[i]);
			vt->widths[i] = draw_width(r->names[i]) + 1;
			/* By the first page: a vendor column of text. */
			vt->numeric[i] = store_print_numeric(r, i);
			vt->instant[i] = vt->numeric[i] &&
			    view_table_page_instant(r->names[i]);
			if (vt->key < 0 && view_table_page_key(r->names[i]))
				vt->key = (int)i;
		}
		/* Columns no row has a value in: hidden until asked for. */
		store_empty_cols(session_store(), vt->t, vt->names, vt->ncols,
		    vt->hidden);
		for (i = 0; i < r->ncols; i++)
			vt->lo[i] = INT64_MAX;
	}
	view_table_page_scale(vt, r);
	/* A number's width: its integer part's and its decimals' widest. */
	for (i = 0; i < r->nrows; i++) {
		for (j = 0; j < r->ncols && j < vt->ncols; j++) {
			c = view_table_page_text(vt, r, i, j, buf);
			w = draw_width(c);
			if (vt->numeric[j]) {
				f = (int)store_print_frac(c);
				if (w - f > vt->intw[j])
					vt->intw[j] = w - f;
				if (f > vt->fracw[j])
					vt->fracw[j] = f;
				w = vt->intw[j] + vt->fracw[j];
			}
			if (w > TABLE_MAX_WIDTH)
				w = TABLE_MAX_WIDTH;
			if (w > vt->widths[j])
				vt->widths[j] = w;
		}
	}
}

/* Fill Q with the view's sort, filter and device. */
void
view_table_page_query(struct view_table *vt, struct store_query *q)
{
	store_query_init(q);
	q->sort = vt->sort;
	q->filter = vt->filter;
	q->device = session_device();
	q->rank = session_rank();
	view_table_step_query(vt, q);
}

/*
 * Make sure the page holds the visible rows: fetch the rows from a screen
 * above the top to two screens below it. A short page tells where the
 * table ends. Return 0, or -1 with *cause set.
 */
int
view_table_page_fill(struct view_table *vt, bool force, char **cause)
{
	struct store_rows	*r;
	int64_t			 h = view_table_page_height(), off;

	if (!force && vt->page != NULL && vt->top >= vt->page_off &&
	    (vt->top + h <= vt->page_off + (int64_t)vt->page->nrows ||
	    (vt->total >= 0 && vt->page_off + (int64_t)vt->page->nrows >=
	    vt->total)))
		return 0;
	off = vt->top > h ? vt->top - h : 0;
	if ((r = store_page_fetch(vt->pager, off, 3 * h, cause)) == NULL)
		return -1;
	store_rows_free(vt->page);
	vt->page = r;
	vt->page_off = off;
	if ((int64_t)r->nrows < 3 * h && !vt->busy)
		vt->total = off + (int64_t)r->nrows;
	view_table_page_widths(vt, r);
	return 0;
}

/* The page if it holds row I, with the row's index in it in *IN_PAGE. */
const struct store_rows *
view_table_page_row(struct view_table *vt, int64_t i, size_t *in_page)
{
	if (vt->page == NULL || i < vt->page_off ||
	    i >= vt->page_off + (int64_t)vt->page->nrows)
		return NULL;
	*in_page = (size_t)(i - vt->page_off);
	return vt->page;
}

/*
 * Build the pager for the current sort and filter. A bad regex or sort
 * column leaves the old one and returns -1 with *cause set.
 */
int
view_table_page_reload(struct view_table *vt, char **cause)
{
	struct store_query	 q;
	struct store_page	*p;
	struct store_page_state	 st;

	view_table_page_query(vt, &q);
	if ((p = store_page_create(session_store(), vt->t, &q, cause)) == NULL)
		return -1;
	store_page_free(vt->pager);
	vt->pager = p;
	store_page_state(p, &st);
	vt->busy = st.phase != NULL;
	vt->found = st.found;
	vt->t0 = util_now();
	/* A scan may be over already (a filter by the rows' tuples). */
	vt->total = !vt->busy && (vt->filter == NULL || st.found >= 0) ?
	    store_page_count(p) : -1;
	if (!vt->busy && st.error != NULL)
		status_set(ROLE_ERROR, "%s", st.error);
	vt->cur = vt->top = 0;
	view_table_find_hits_reset(vt);
	return view_table_page_fill(vt, true, cause);
}

void
view_table_page_free(struct view_table *vt)
{
	size_t	 i;

	if (vt == NULL)
		return;
	store_page_free(vt->pager);
	store_rows_free(vt->page);
	free(vt->hits);
	for (i = 0; i < vt->ncols; i++)
		free(vt->names[i]);
	free(vt->names);
	free(vt->widths);
	free(vt->numeric);
	free(vt->hidden);
	free(vt->instant);
	free(vt->scaled);
	free(vt->lo);
	free(vt->hi);
	free(vt->intw);
	free(vt->fracw);
	free(vt->sort);
	free(vt->filter);
	free(vt->filter_bad);
	free(vt->saved);
	free(vt->search);
	matcher_free(vt->search_m);
	free(vt);
}

/* Move the cursor to ROW (clamped) and the top so it shows. */
void
view_table_page_goto(struct view_table *vt, int64_t row)
{
	int64_t	 h = view_table_page_height();

	if (vt->total >= 0 && row >= vt->total)
		row = vt->total - 1;
	else if (vt->busy && row >= vt->found)
		row = vt->found - 1;
	if (row < 0)
		row = 0;
	vt->cur = row;
	if (vt->cur < vt->top)
		vt->top = vt->cur;
	else if (vt->cur >= vt->top + h)
		vt->top = vt->cur - h + 1;
}
