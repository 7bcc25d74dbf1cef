/*
 * The mouse: which events the UI asks curses for, and the last one read,
 * which a view handling KEY_MOUSE looks at.
 */
#include <curses.h>

#include "ui-int.h"

static MEVENT	 mouse_ev;

/*
 * Ask for the events the views use. Presses and releases come as they
 * happen, never merged into clicks: the timeline selects by dragging from
 * one to the other, and a press alone is a click everywhere else.
 */
void
mouse_init(void)
{
	mouseinterval(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED |
	    BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
	    | BUTTON5_PRESSED
#endif
	    , NULL);
}

/* Read the event of the KEY_MOUSE just got: OK, or ERR if there is none. */
int
mouse_read(void)
{
	return getmouse(&mouse_ev);
}

/* Where the last event was, whether it clicked, and the wheel's turn. */
void
mouse_get(int *y, int *x, bool *click, int *wheel)
{
	*y = mouse_ev.y;
	*x = mouse_ev.x;
	*click = (mouse_ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0;
	*wheel = 0;
	if (mouse_ev.bstate & BUTTON4_PRESSED)
		*wheel = -1;
#ifdef BUTTON5_PRESSED
	if (mouse_ev.bstate & BUTTON5_PRESSED)
		*wheel = 1;
#endif
}

/* Whether the last event pressed (1) or released (-1) button 1. */
int
mouse_button(void)
{
	if (mouse_ev.bstate & BUTTON1_PRESSED)
		return 1;
	if (mouse_ev.bstate & BUTTON1_RELEASED)
		return -1;
	return 0;
}
