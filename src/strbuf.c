/*
 * struct strbuf: a growable string, NUL-terminated whenever it holds
 * anything (s is NULL while it is empty).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

void
strbuf_init(struct strbuf *b)
{
	b->s = NULL;
	b->len = 0;
	b->size = 0;
}

void
strbuf_release(struct strbuf *b)
{
	free(b->s);
	strbuf_init(b);
}

void
strbuf_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

/* Make room for N more bytes and the NUL after them. */
void
strbuf_reserve(struct strbuf *b, size_t n)
{
	if (b->len + n + 1 <= b->size)
		return;
	while (b->len + n + 1 > b->size)
		b->size = b->size == 0 ? 64 : b->size * 2;
	b->s = xreallocarray(b->s, 1, b->size);
}

void
strbuf_adds(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void
strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = xvasprintf(&s, fmt, ap);
	va_end(ap);
	strbuf_add(b, s, n);
	free(s);
}

/* Hand the string to the caller (never NULL) and empty the buffer. */
char *
strbuf_detach(struct strbuf *b)
{
	char	*s = b->s;

	if (s == NULL)
		s = xstrdup("");
	strbuf_init(b);
	return s;
}
