/*
 * Scrolling text for the summary, detail, window and help views: lines of
 * a role and indent, optionally with a bar (a share of the largest value),
 * drawn from a first line the keys move. Its close, draw and key hooks
 * serve those views as they are.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

struct text_line {
	enum role	 role;
	int		 indent;
	char		*s;
	double		 bar;		/* < 0: no bar */
	char		*right;		/* the text after the bar */
};

struct text {
	struct text_line	*v;
	size_t			 n;
	size_t			 first;
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
	l->role = role;
	l->indent = indent;
	l->s = xstrdup(s);
	l->bar = -1;
	l->right = NULL;
	return l;
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
 * The ops of a view whose data is a struct text use text_close, text_draw
 * and text_key as their hooks.
 */
void
text_close(struct view *v)
{
	text_free(v->data);
}

/* Draw H lines from line Y of the screen. */
void
text_draw(struct view *v, int y, int h)
{
	struct text		*t = v->data;
	struct text_line	*l;
	size_t			 i;
	int			 x, row, bw;

	for (row = 0; row < h && t->first + (size_t)row < t->n; row++) {
		i = t->first + (size_t)row;
		l = &t->v[i];
		x = l->indent;
		if (l->bar < 0) {
			draw_text(y + row, x, COLS - x, l->role, l->s);
			continue;
		}
		/* Name column, bar, then the figures. */
		x += draw_cell(y + row, x, 28 < COLS - x ? 28 : COLS - x,
		    ROLE_NORMAL, l->s, false);
		bw = COLS - x - 2 - 36 > 10 ? 20 : 0;
		if (bw > 0) {
			draw_bar(y + row, x + 1, bw, l->bar, ROLE_BAR);
			x += bw + 2;
		}
		draw_text(y + row, x + 1, COLS - x - 1, ROLE_NORMAL, l->right);
	}
}

/* Scroll for A; -1 if A is not a movement. */
int
text_key(struct view *v, enum action a, int key)
{
	struct text	*t = v->data;
	size_t		 h = (size_t)view_body_lines(), max;

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
	default:
		return -1;
	}
	return REDRAW_BODY;
}
