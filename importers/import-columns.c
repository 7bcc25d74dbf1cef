/*
 * Finding CSV columns by header name, so importers never depend on column
 * order and cope with the vendor's renamed columns (Block Dim / Block Num,
 * Op Name / Name, ...).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import-int.h"

struct csv_cols {
	char		**names;
	size_t		  n;
	bool		 *used;
	struct strbuf	  clash;	/* names found twice, aliases both */
};

/* Index the header NAMES (copied, trimmed). */
struct csv_cols *
import_columns_create(char **names, size_t n)
{
	struct csv_cols	*c;
	size_t		 i, j, len;
	const char	*s;

	c = xcalloc(1, sizeof *c);
	c->names = xcalloc(n, sizeof *c->names);
	c->used = xcalloc(n, sizeof *c->used);
	c->n = n;
	strbuf_init(&c->clash);
	for (i = 0; i < n; i++) {
		s = names[i];
		while (*s == ' ')
			s++;
		len = strlen(s);
		while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		c->names[i] = xstrndup(s, len);
	}
	/* A name twice: read from its first column, and said. */
	for (i = 1; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (strcasecmp(c->names[i], c->names[j]) != 0)
				continue;
			strbuf_addf(&c->clash, "%s'%s' is there twice (columns "
			    "%zu and %zu): the first is read", c->clash.len > 0 ?
			    "; " : "", c->names[j], j + 1, i + 1);
			break;
		}
	}
	return c;
}

void
import_columns_free(struct csv_cols *c)
{
	size_t	 i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->used);
	strbuf_release(&c->clash);
	free(c);
}

/* The index of column NAME (case-insensitive) from FROM on, or -1. */
static int
import_columns_at(struct csv_cols *c, const char *name, size_t from)
{
	size_t	 i;

	for (i = from; i < c->n; i++) {
		if (strcasecmp(c->names[i], name) == 0)
			return (int)i;
	}
	return -1;
}

/*
 * The index of column NAME (case-insensitive), or -1. A name the header
 * has twice is read from its first column (noted when the header was
 * indexed).
 */
int
import_columns_find(struct csv_cols *c, const char *name)
{
	int	 i;

	if ((i = import_columns_at(c, name, 0)) == -1)
		return -1;
	c->used[i] = true;
	return i;
}

/*
 * The index of the first of NAMES (NULL-terminated) present, or -1. Where
 * the header has two of them, which should not be, the first is read and
 * the clash noted for import_columns_clashes().
 */
int
import_columns_find_any(struct csv_cols *c, const char *const *names)
{
	const char *const	*other;
	int			 i;

	for (; *names != NULL; names++) {
		if ((i = import_columns_find(c, *names)) == -1)
			continue;
		for (other = names + 1; *other != NULL; other++) {
			if (import_columns_at(c, *other, 0) != -1)
				strbuf_addf(&c->clash, "%s'%s' and '%s' are "
				    "both there: '%s' is read",
				    c->clash.len > 0 ? "; " : "", c->names[i],
				    *other, c->names[i]);
		}
		return i;
	}
	return -1;
}

/* True if column I was not asked for by name. */
bool
import_columns_unused(struct csv_cols *c, size_t i)
{
	return i < c->n && !c->used[i];
}

/* The trimmed name of column I. */
const char *
import_columns_name(struct csv_cols *c, size_t i)
{
	return c->names[i];
}

size_t
import_columns_count(struct csv_cols *c)
{
	return c->n;
}

/*
 * What the header's names left open: names found twice, two names of
 * one column both there (import_columns_find() and _find_any()); NULL
 * if nothing.
 */
const char *
import_columns_clashes(struct csv_cols *c)
{
	return c->clash.len > 0 ? c->clash.s : NULL;
}
