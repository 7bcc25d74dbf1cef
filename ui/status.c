/*
 * The status line's message. Any file may set it; ui.c shows it after the
 * view's own status and clears it when the next key comes. It calls
 * nothing else in ui/, so the views and the loop can all use it.
 */
#include <stdlib.h>

#include "ui-int.h"

static char		*status_msg;
static enum role	 status_role;

/* Set the message, in ROLE; the next key clears it. */
void
status_set(enum role role, const char *fmt, ...)
{
	va_list	 ap;

	free(status_msg);
	va_start(ap, fmt);
	xvasprintf(&status_msg, fmt, ap);
	va_end(ap);
	status_role = role;
}

/* The message and, in *ROLE, its role; NULL if there is none. */
const char *
status_get(enum role *role)
{
	*role = status_role;
	return status_msg;
}

void
status_clear(void)
{
	free(status_msg);
	status_msg = NULL;
}
