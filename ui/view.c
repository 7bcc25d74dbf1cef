/*
 * A stack of views: Enter pushes a detail view over the current one and q
 * pops it, showing the view below with its cursor and rows intact. Pushes
 * and pops go to the current stack; tabs.c keeps one stack per tab and
 * says which is current.
 */
#include <curses.h>
#include <stdlib.h>

#include "ui-int.h"

static struct view	**view_stack;	/* the current stack's top */

/* The key bars of views opened over others: a page, a list to pick from. */
const struct key_hint view_hints_page[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "back" },
	{ ACTION_NONE, NULL }
};
const struct key_hint view_hints_pick[] = {
	{ ACTION_OPEN, "choose" },
	{ ACTION_CLOSE, "back" },
	{ ACTION_NONE, NULL }
};

/*
 * The moves of a list of N lines under a cursor *CUR (the device, sort and
 * column choosers): up, down, to the first and the last. Whether A was
 * one of them.
 */
bool
view_list_move(size_t *cur, size_t n, enum action a)
{
	switch (a) {
	case ACTION_UP:
		if (*cur > 0)
			(*cur)--;
		return true;
	case ACTION_DOWN:
		if (*cur + 1 < n)
			(*cur)++;
		return true;
	case ACTION_TOP:
		*cur = 0;
		return true;
	case ACTION_BOTTOM:
		*cur = n > 0 ? n - 1 : 0;
		return true;
	default:
		return false;
	}
}

/* Scroll the first line shown, *TOP, so that CUR is among ROWS lines. */
void
view_list_show(size_t cur, size_t *top, size_t rows)
{
	if (cur < *top)
		*top = cur;
	else if (cur >= *top + rows)
		*top = cur - rows + 1;
}

/* Push and pop on the stack whose top is *TOP from now on. */
void
view_set_stack(struct view **top)
{
	view_stack = top;
}

static struct view *
view_create(const struct view_ops *ops, const void *arg, char **cause)
{
	struct view	*v;

	v = xcalloc(1, sizeof *v);
	v->ops = ops;
	if (ops->open != NULL && ops->open(v, arg, cause) != 0) {
		free(v);
		return NULL;
	}
	return v;
}

static void
view_free(struct view *v)
{
	if (v->ops->close != NULL)
		v->ops->close(v);
	free(v);
}

/*
 * Open OPS with ARG over the current view. On failure the message goes to
 * *cause if given, else to the status line, and -1 is returned.
 */
int
view_push(const struct view_ops *ops, const void *arg, char **cause)
{
	struct view	*v;
	char		*why = NULL;

	if ((v = view_create(ops, arg, &why)) == NULL) {
		if (cause != NULL)
			*cause = why;
		else {
			status_set(ROLE_ERROR, "%s", why);
			free(why);
		}
		return -1;
	}
	v->below = *view_stack;
	*view_stack = v;
	return 0;
}

/* Close the top view of the current stack. */
void
view_pop(void)
{
	struct view	*v = view_top();

	if (v == NULL)
		return;
	*view_stack = v->below;
	view_free(v);
}

struct view *
view_top(void)
{
	return view_stack != NULL ? *view_stack : NULL;
}

/* The lines between the tab bar and the status line. */
int
view_body_lines(void)
{
	return LINES > 2 ? LINES - 2 : 0;
}

void
view_draw(struct view *v, int redraw)
{
	if (v != NULL && v->ops->draw != NULL)
		v->ops->draw(v, 1, view_body_lines());
}
