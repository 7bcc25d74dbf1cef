/*
 * Scrolling text for the summary, detail, window and help views: lines of
 * a role and indent, optionally with a bar (a share of the largest value),
 * drawn from a first line the keys move. Its close, draw and key hooks
 * serve those views as they are. Lines may carry an id (a task's row):
 * then the keys move a cursor over those lines, scrolling to keep it in
 * view, and the view asks which id is under it.
 */
#include <sys/types.h>

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

struct text_line {
	enum role	 role;
	int		 indent;
	char		*s;
	double		 bar;		/* < 0: no bar */
	double		 stack[TEXT_STACK];	/* a stacked bar's parts */
	char		*right;		/* the text after the bar */
	const char	**cell;		/* glyphs after s, each its role */
	enum role	*cellrole;
	size_t		 ncells;
	int64_t		 id;		/* NP_NA: not selectable */
};

struct text {
	struct text_line	*v;
	size_t			 n;
	size_t			 first;
	size_t			 cur;		/* a line with an id, if any */
	bool			 ids;		/* some line has one */
	size_t			 left;		/* columns scrolled past */
	size_t			 freeze_from;	/* lines from it keep their */
	size_t			 freeze;	/* first columns on screen */
	int			 lasth;		/* lines the last draw had */
};

struct text *
text_create(void)
{
	return xcalloc(1, sizeof (struct text));
}

void
text_free(struct text *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->v[i].s);
		free(t->v[i].right);
		free(t->v[i].cell);
		free(t->v[i].cellrole);
	}
	free(t->v);
	free(t);
}

size_t
text_lines(struct text *t)
{
	return t->n;
}

static struct text_line *
text_new(struct text *t, enum role role, int indent, const char *s)
{
	struct text_line	*l;

	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	l = &t->v[t->n++];
	memset(l, 0, sizeof *l);
	l->role = role;
	l->indent = indent;
	l->s = xstrdup(s);
	l->bar = -1;
	l->id = NP_NA;
	return l;
}

/* Give the last line added id ID: the cursor can select it. */
void
text_set_id(struct text *t, int64_t id)
{
	if (t->n == 0)
		return;
	t->v[t->n - 1].id = id;
	if (!t->ids)
		t->cur = t->n - 1;
	t->ids = true;
}

/*
 * Keep the first COLS columns of the lines from the next one added on
 * screen when the text scrolls sideways: a table's naming columns.
 */
void
text_set_freeze(struct text *t, size_t cols)
{
	t->freeze_from = t->n;
	t->freeze = cols;
}

/* Put the cursor on the first line of id ID, if any, at the top. */
void
text_goto_id(struct text *t, int64_t id)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i].id == id && id != NP_NA) {
			t->cur = t->first = i;
			return;
		}
	}
}

/* The id of the line under the cursor, or NP_NA. */
int64_t
text_cur_id(const struct text *t)
{
	return t->ids ? t->v[t->cur].id : NP_NA;
}

void
text_add(struct text *t, enum role role, int indent, const char *s)
{
	text_new(t, role, indent, s);
}

void
text_addf(struct text *t, enum role role, int indent, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	xvasprintf(&s, fmt, ap);
	va_end(ap);
	text_new(t, role, indent, s);
	free(s);
}

/* A line LEFT, a bar of FRACTION, then RIGHT. */
void
text_add_bar(struct text *t, int indent, const char *left, double fraction,
    const char *right)
{
	struct text_line	*l;

	l = text_new(t, ROLE_NORMAL, indent, left);
	l->bar = fraction;
	l->right = xstrdup(right);
}

/*
 * Add the lines of S (a printed table, say), each at INDENT: line I in
 * ROLES[I] while I < NROLES, the others in DFLT.
 */
void
text_add_lines(struct text *t, int indent, const char *s,
    const enum role *roles, size_t nroles, enum role dflt)
{
	const char	*p = s, *nl;
	char		*line;
	size_t		 i = 0;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		xasprintf(&line, "%.*s", nl != NULL ? (int)(nl - p) :
		    (int)strlen(p), p);
		text_add(t, i < nroles ? roles[i] : dflt, indent, line);
		free(line);
		i++;
		if (nl == NULL)
			break;
		p = nl + 1;
	}
}

/*
 * A line LEFT, then N cells each a glyph (static strings, one column
 * wide) drawn in its own role: the cells of a heat map.
 */
void
text_add_cells(struct text *t, int indent, const char *left,
    const char *const *glyphs, const enum role *roles, size_t n)
{
	struct text_line	*l;

	l = text_new(t, ROLE_NORMAL, indent, left);
	l->cell = xcalloc(n + 1, sizeof *l->cell);
	l->cellrole = xcalloc(n + 1, sizeof *l->cellrole);
	memcpy(l->cell, glyphs, n * sizeof *glyphs);
	memcpy(l->cellrole, roles, n * sizeof *roles);
	l->ncells = n;
}

/*
 * A line LEFT, a bar of TEXT_STACK parts each its own glyph and colour
 * (PARTS: shares of the largest total, summing to at most 1), then RIGHT.
 */
void
text_add_stack(struct text *t, int indent, const char *left,
    const double *parts, const char *right)
{
	struct text_line	*l;

	l = text_new(t, ROLE_NORMAL, indent, left);
	l->bar = 0;
	memcpy(l->stack, parts, sizeof l->stack);
	l->right = xstrdup(right);
}

/*
 * The parts of a stacked bar from X, W cells wide: each part its cells,
 * rounded at the running sum so the parts add up; glyphs tell them apart
 * without colour.
 */
static void
text_draw_stack(int y, int x, int w, const double *parts)
{
	static const enum role	 roles[TEXT_STACK] = { ROLE_SPAN_AI_CORE,
				    ROLE_SPAN_COMM, ROLE_DIM };
	static const char *const utf8[TEXT_STACK] = { "\u2588", "\u2593",
				    "\u2591" };
	static const char *const ascii[TEXT_STACK] = { "#", "=", "." };
	double	 sum = 0;
	int	 k, from = 0, to, i;

	for (k = 0; k < TEXT_STACK; k++) {
		sum += parts[k];
		to = (int)(sum * w + 0.5);
		to = to > w ? w : to;
		for (i = from; i < to; i++)
			draw_text(y, x + i, 1, roles[k], draw_utf8() ?
			    utf8[k] : ascii[k]);
		from = to > from ? to : from;
	}
}

/*
 * The ops of a view whose data is a struct text use text_close, text_draw
 * and text_key as their hooks.
 */
void
text_close(struct view *v)
{
	text_free(v->data);
}

/*
 * Draw a bar's figures S at Y, X in W columns: those that do not fit go
 * whole, from the last blank that fits, so that no number is cut (a cut
 * "2.008" would read as 2).
 */
static void
text_draw_right(int y, int x, int w, enum role role, const char *s)
{
	char	*cut;
	size_t	 n;

	if (w <= 0)
		return;
	util_width(s, (size_t)w, &n, draw_utf8());
	if (s[n] != '\0' && s[n] != ' ') {
		while (n > 0 && s[n - 1] != ' ')
			n--;
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	cut = xstrndup(s, n);
	draw_text(y, x, w, role, cut);
	free(cut);
}

/* Draw H lines from line Y of the screen. */
void
text_draw(struct view *v, int y, int h)
{
	struct text		*t = v->data;
	struct text_line	*l;
	size_t			 i, k, b, skip;
	int			 x, row, bw, lw = 28, nw = 0, narrow;
	bool			 cur;

	/* A taller screen than the text was scrolled for: no blank tail. */
	if (t->first > 0 && t->first + (size_t)h > t->n)
		t->first = t->n > (size_t)h ? t->n - (size_t)h : 0;
	/*
	 * A screen made shorter: the cursor's line stays on it, if it was
	 * on the taller one (a first selectable line below the screen, as
	 * a row detail's tasks, is where it was).
	 */
	if (t->ids && h > 0 && h < t->lasth && t->cur >= t->first +
	    (size_t)h && t->cur < t->first + (size_t)t->lasth)
		t->first = t->cur - (size_t)h + 1;
	t->lasth = h;
	/* The bars' names: as wide as the widest, up to 48 columns. */
	for (i = 0; i < t->n; i++) {
		if (t->v[i].bar >= 0 && draw_width(t->v[i].s) > nw)
			nw = draw_width(t->v[i].s);
	}
	lw = nw > 48 ? 48 : nw > lw ? nw : lw;
	/* Where the names cannot have their width: 28, or less if all fit. */
	narrow = nw < 28 ? nw : 28;
	for (row = 0; row < h && t->first + (size_t)row < t->n; row++) {
		i = t->first + (size_t)row;
		l = &t->v[i];
		x = l->indent;
		cur = t->ids && i == t->cur;
		if (cur)
			draw_fill(y + row, 0, COLS, ROLE_CURSOR);
		if (l->bar < 0 && t->freeze > 0 && t->left > 0 &&
		    i >= t->freeze_from && l->ncells == 0) {
			/* The frozen columns, then the rest scrolled. */
			draw_text(y + row, x, (int)t->freeze < COLS - x ?
			    (int)t->freeze : COLS - x, cur ? ROLE_CURSOR :
			    l->role, l->s);
			util_width(l->s, t->freeze, &k, draw_utf8());
			util_width(l->s + k, t->left, &b, draw_utf8());
			x += (int)t->freeze;
			if (x < COLS)
				draw_text(y + row, x, COLS - x, cur ?
				    ROLE_CURSOR : l->role, l->s + k + b);
			continue;
		}
		if (l->bar < 0) {
			/* Scrolled left: the columns past go, cells too. */
			skip = util_width(l->s, t->left, &b, draw_utf8());
			draw_text(y + row, x, COLS - x, cur ? ROLE_CURSOR :
			    l->role, l->s + b);
			x += draw_width(l->s + b);
			for (k = t->left - skip; k < l->ncells && x < COLS;
			    k++, x++)
				draw_text(y + row, x, 1, l->cellrole[k],
				    l->cell[k]);
			continue;
		}
		/* Name column, bar, then the figures. */
		x += draw_cell(y + row, x, lw < COLS - x - 40 ? lw : narrow <
		    COLS - x ? narrow : COLS - x, cur ? ROLE_CURSOR :
		    ROLE_NORMAL, l->s, false);
		bw = COLS - x - 2 - 36 > 10 ? 20 : 0;
		if (bw > 0 && l->stack[0] + l->stack[1] + l->stack[2] > 0)
			text_draw_stack(y + row, x + 1, bw, l->stack);
		else if (bw > 0)
			draw_bar(y + row, x + 1, bw, l->bar, ROLE_BAR);
		if (bw > 0)
			x += bw + 2;
		text_draw_right(y + row, x + 1, COLS - x - 1, cur ?
		    ROLE_CURSOR : ROLE_NORMAL, l->right);
	}
}

/*
 * What T shows at ROW of its body and column X of the screen, as
 * text_draw() lays it out: the line in *LINE and the column of its text
 * in *COL (its indent left out, its scrolled and frozen columns put
 * back). False past the text, before its indent or on a bar line.
 */
bool
text_at(const struct text *t, int row, int x, size_t *line, size_t *col)
{
	const struct text_line	*l;
	size_t			 i, c;

	if (row < 0 || (i = t->first + (size_t)row) >= t->n)
		return false;
	l = &t->v[i];
	if (l->bar >= 0 || x < l->indent)
		return false;
	c = (size_t)(x - l->indent);
	if (!(t->freeze > 0 && i >= t->freeze_from && c < t->freeze))
		c += t->left;
	*line = i;
	*col = c;
	return true;
}

/*
 * The line with an id nearest I the way DIR goes (1 or -1), I itself
 * included, or -1 if there is none.
 */
static ssize_t
text_find(const struct text *t, ssize_t i, int dir)
{
	for (; i >= 0 && (size_t)i < t->n; i += dir) {
		if (t->v[i].id != NP_NA)
			return i;
	}
	return -1;
}

/*
 * Show T, made again from what FROM showed (the same lines in another
 * order or with other figures), where FROM was: its first line, the
 * cursor's line (or the nearest selectable one) and its sideways scroll.
 */
void
text_keep_place(struct text *t, const struct text *from)
{
	ssize_t	 c;

	if (from == NULL || t->n == 0)
		return;
	t->first = from->first < t->n ? from->first : t->n - 1;
	t->left = from->left;
	if (!t->ids)
		return;
	c = (ssize_t)(from->cur < t->n ? from->cur : t->n - 1);
	if ((c = text_find(t, c, 1)) < 0)
		c = text_find(t, (ssize_t)t->n - 1, -1);
	if (c >= 0)
		t->cur = (size_t)c;
}

/*
 * The cursor's keys, in a text with selectable lines: up and down go from
 * one to the next, and past the first or last scroll the text; a page
 * moves the cursor a page, or past the last scrolls a page; the end goes
 * to the last and shows the end of the text (what follows the last
 * selectable line, as the Advice view's rules not applied). The cursor
 * stays in view but at the end of a text whose tail is longer than the
 * screen.
 */
static int
text_key_cursor(struct text *t, enum action a, size_t h)
{
	ssize_t	 c = (ssize_t)t->cur, j;
	size_t	 max = t->n > h ? t->n - h : 0;

	switch (a) {
	case ACTION_UP:
		/* Past the first, scroll while the cursor stays in view. */
		if ((j = text_find(t, c - 1, -1)) < 0 && t->first > 0 &&
		    t->cur + 1 < t->first + h)
			t->first--;
		break;
	case ACTION_DOWN:
		if ((j = text_find(t, c + 1, 1)) < 0 && t->first + h < t->n &&
		    t->cur > t->first)
			t->first++;
		break;
	case ACTION_PAGE_UP:
	case ACTION_HALF_UP:
		j = c - (ssize_t)(a == ACTION_HALF_UP ? h / 2 : h);
		j = text_find(t, j > 0 ? j : 0, 1);
		break;
	case ACTION_PAGE_DOWN:
	case ACTION_HALF_DOWN:
		j = c + (ssize_t)(a == ACTION_HALF_DOWN ? h / 2 : h);
		j = text_find(t, j < (ssize_t)t->n ? j : (ssize_t)t->n - 1, -1);
		if (j <= c) {
			h = a == ACTION_HALF_DOWN ? h / 2 : h;
			t->first = t->first + h < max ? t->first + h : max;
			return REDRAW_BODY;
		}
		break;
	case ACTION_TOP:
		t->first = 0;
		j = text_find(t, 0, 1);
		break;
	case ACTION_BOTTOM:
		if ((j = text_find(t, (ssize_t)t->n - 1, -1)) >= 0)
			t->cur = (size_t)j;
		t->first = max;
		return REDRAW_BODY;
	default:
		return -1;
	}
	if (j < 0)
		return REDRAW_BODY;
	t->cur = (size_t)j;
	if (t->cur < t->first)
		t->first = t->cur;
	else if (t->cur >= t->first + h)
		t->first = t->cur - h + 1;
	return REDRAW_BODY;
}

/*
 * Left and Right: scroll T's lines without a bar a quarter of the screen
 * sideways, as far as the widest line needs.
 */
static int
text_key_side(struct text *t, enum action a)
{
	size_t	 i, w, wide = 0, step = (size_t)(COLS > 8 ? COLS / 4 : 2);

	for (i = 0; i < t->n; i++) {
		if (t->v[i].bar >= 0)
			continue;
		w = (size_t)t->v[i].indent + (size_t)draw_width(t->v[i].s) +
		    t->v[i].ncells;
		if (w > wide)
			wide = w;
	}
	if (a == ACTION_LEFT)
		t->left = t->left > step ? t->left - step : 0;
	else if (wide > (size_t)COLS && t->left + (size_t)COLS < wide)
		t->left += step;
	return REDRAW_BODY;
}

/*
 * The mouse wheel: three lines a notch, as in a table (the cursor three
 * selectable lines, where the text has some).
 */
static int
text_key_wheel(struct view *v)
{
	int		 y, x, wheel, i;
	bool		 click;

	mouse_get(&y, &x, &click, &wheel);
	if (wheel == 0)
		return REDRAW_NONE;
	for (i = 0; i < 3; i++)
		text_key(v, wheel > 0 ? ACTION_DOWN : ACTION_UP, 0);
	return REDRAW_BODY;
}

/* Scroll for A; -1 if A is not a movement. */
int
text_key(struct view *v, enum action a, int key)
{
	struct text	*t = v->data;
	size_t		 h = (size_t)view_body_lines(), max;
	int		 rc;

	if (key == KEY_MOUSE && a == ACTION_NONE)
		return text_key_wheel(v);
	if (t->ids && (rc = text_key_cursor(t, a, h)) >= 0)
		return rc;
	max = t->n > h ? t->n - h : 0;
	switch (a) {
	case ACTION_UP:
		if (t->first > 0)
			t->first--;
		break;
	case ACTION_DOWN:
		if (t->first < max)
			t->first++;
		break;
	case ACTION_PAGE_UP:
	case ACTION_HALF_UP:
		h = a == ACTION_HALF_UP ? h / 2 : h;
		t->first = t->first > h ? t->first - h : 0;
		break;
	case ACTION_PAGE_DOWN:
	case ACTION_HALF_DOWN:
		h = a == ACTION_HALF_DOWN ? h / 2 : h;
		t->first = t->first + h < max ? t->first + h : max;
		break;
	case ACTION_TOP:
		t->first = 0;
		break;
	case ACTION_BOTTOM:
		t->first = max;
		break;
	case ACTION_LEFT:
	case ACTION_RIGHT:
		return text_key_side(t, a);
	default:
		return -1;
	}
	return REDRAW_BODY;
}
