/*
 * Messages on stderr, each one line starting with the program's name.
 * -q silences progress and warnings, never errors. fatal() and fatalx()
 * first run the hook the UI installs, so a crash never leaves the
 * terminal in curses mode.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

static bool	  log_quiet;
static void	(*log_hook)(void);

void
log_set_quiet(bool quiet)
{
	log_quiet = quiet;
}

void
log_set_hook(void (*hook)(void))
{
	log_hook = hook;
}

const char *
log_progname(void)
{
	return PACKAGE_NAME;
}

/*
 * One message: names from the data (files, ops) may hold control bytes,
 * so the message is made visible before it reaches the terminal.
 */
static void
log_vprint(const char *prefix, const char *fmt, va_list ap, int err)
{
	struct strbuf	 b;
	va_list		 ap2;
	char		*msg;

	va_copy(ap2, ap);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	strbuf_init(&b);
	fprintf(stderr, "%s: %s", log_progname(), prefix);
	if (msg != NULL)
		fputs(util_visible(msg, &b, true), stderr);
	else
		vfprintf(stderr, fmt, ap2);	/* no memory: as it is */
	va_end(ap2);
	if (err != 0)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	strbuf_release(&b);
	free(msg);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	 ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	log_vprint("warning: ", fmt, ap, 0);
	va_end(ap);
}

/* An error: printed whatever -q says, since it ends what the user asked. */
void
log_errx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vprint("", fmt, ap, 0);
	va_end(ap);
}

/*
 * A usage error: one line saying what is wrong, one pointing at the help
 * of CMD ("" for the program's, "collect " for a command's), exit 2.
 */
void
log_usagex(const char *cmd, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vprint("", fmt, ap, 0);
	va_end(ap);
	fprintf(stderr, "Try '%s %s--help' for more information.\n",
	    log_progname(), cmd);
	exit(2);
}

void
log_infox(const char *fmt, ...)
{
	va_list	 ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	log_vprint("", fmt, ap, 0);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	 ap;
	int	 err = errno;

	if (log_hook != NULL)
		log_hook();
	va_start(ap, fmt);
	log_vprint("fatal: ", fmt, ap, err);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	if (log_hook != NULL)
		log_hook();
	va_start(ap, fmt);
	log_vprint("fatal: ", fmt, ap, 0);
	va_end(ap);
	exit(1);
}
