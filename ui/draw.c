/*
 * Drawing helpers for the views. Each takes a colour role, never a colour,
 * and clips to a width in screen columns (not bytes), so UTF-8 names line
 * up. Line and bar glyphs follow the locale: box drawing under UTF-8, plain
 * ASCII otherwise.
 */
#include <curses.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static bool	 draw_is_utf8;

static int	 draw_attr_text(int, int, int, int, const char *);

/*
 * Follow the locale: UTF-8 text and glyphs under a UTF-8 codeset, one
 * column a byte and ASCII glyphs otherwise. ui.c calls this once, first.
 */
void
draw_init(void)
{
	draw_is_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

bool
draw_utf8(void)
{
	return draw_is_utf8;
}

/* The width of S in screen columns. */
int
draw_width(const char *s)
{
	return (int)util_width(s, 1 << 30, NULL, draw_utf8());
}

/* Fill WIDTH columns of line Y from X with blanks in ROLE. */
void
draw_fill(int y, int x, int width, enum role role)
{
	if (width <= 0)
		return;
	attrset(theme_attr(role));
	mvhline(y, x, ' ', width);
	attrset(A_NORMAL);
}

/*
 * Draw S at Y, X in at most WIDTH columns. Without UTF-8, bytes outside
 * ASCII print as '?'. Return the columns used.
 */
int
draw_text(int y, int x, int width, enum role role, const char *s)
{
	return draw_attr_text(y, x, width, theme_attr(role), s);
}

/* draw_text() in curses attributes ATTR, for what no role names. */
static int
draw_attr_text(int y, int x, int width, int attr, const char *s)
{
	size_t	 n, i;
	int	 used;
	char	*copy;

	if (width <= 0 || s == NULL)
		return 0;
	used = (int)util_width(s, (size_t)width, &n, draw_utf8());
	attrset(attr);
	if (draw_utf8())
		mvaddnstr(y, x, s, (int)n);
	else {
		copy = xstrndup(s, n);
		for (i = 0; i < n; i++) {
			if ((unsigned char)copy[i] >= 0x80 ||
			    (unsigned char)copy[i] < 0x20)
				copy[i] = '?';
		}
		mvaddnstr(y, x, copy, (int)n);
		free(copy);
	}
	attrset(A_NORMAL);
	return used;
}

int
draw_textf(int y, int x, int width, enum role role, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 used;

	va_start(ap, fmt);
	xvasprintf(&s, fmt, ap);
	va_end(ap);
	used = draw_text(y, x, width, role, s);
	free(s);
	return used;
}

/*
 * Draw a table cell: S padded to WIDTH, right-aligned when RIGHT. A cell
 * too long for its column ends in '~' so the cut is visible.
 */
int
draw_cell(int y, int x, int width, enum role role, const char *s, bool right)
{
	int	 w = draw_width(s);

	if (width <= 0)
		return 0;
	draw_fill(y, x, width, role);
	if (w > width) {
		draw_text(y, x, width - 1, role, s);
		draw_text(y, x + width - 1, 1, role, "~");
	} else
		draw_text(y, right ? x + width - w : x, width, role, s);
	return width;
}

/*
 * A timeline span as a filled bar of WIDTH columns: ROLE's colour as the
 * background (reverse video, so it shows in mono and without colour too)
 * with NAME inside, cut with '~' when it does not fit. The selected span
 * is drawn in the cursor's colours between brackets, its outline.
 */
void
draw_span(int y, int x, int width, enum role role, const char *name,
    bool selected)
{
	int	 attr, inner = width, x0 = x;

	if (width <= 0)
		return;
	attr = selected ? theme_attr(ROLE_CURSOR) : theme_attr(role) |
	    (int)A_REVERSE;
	attrset(attr);
	mvhline(y, x, ' ', width);
	attrset(A_NORMAL);
	if (selected && width >= 3) {
		draw_attr_text(y, x, 1, attr, "[");
		draw_attr_text(y, x + width - 1, 1, attr, "]");
		x0++;
		inner -= 2;
	}
	if (name == NULL || inner < 2)
		return;
	if (draw_width(name) > inner) {
		draw_attr_text(y, x0, inner - 1, attr, name);
		draw_attr_text(y, x0 + inner - 1, 1, attr, "~");
	} else
		draw_attr_text(y, x0, inner, attr, name);
}

/* A horizontal rule. */
void
draw_hline(int y, int x, int width, enum role role)
{
	int	 i;

	for (i = 0; i < width; i++)
		draw_text(y, x + i, 1, role, draw_utf8() ? "\u2500" : "-");
}

/* A bar of FRACTION (0 to 1) of WIDTH columns, in eighths under UTF-8. */
void
draw_bar(int y, int x, int width, double fraction, enum role role)
{
	static const char	*eighths[] = { "", "\u258f", "\u258e",
	    "\u258d", "\u258c", "\u258b", "\u258a", "\u2589" };
	int			 full, part, i;

	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	full = (int)(fraction * width);
	part = (int)(fraction * width * 8) % 8;
	for (i = 0; i < full; i++)
		draw_text(y, x + i, 1, role, draw_utf8() ? "\u2588" : "#");
	if (full < width && part > 0 && draw_utf8())
		draw_text(y, x + full, 1, role, eighths[part]);
}

const char *
draw_glyph_up(void)
{
	return draw_utf8() ? "\u25b2" : "^";
}

const char *
draw_glyph_down(void)
{
	return draw_utf8() ? "\u25bc" : "v";
}
