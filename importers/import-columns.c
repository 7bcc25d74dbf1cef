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
	char	**names;
	size_t	  n;
	bool	 *used;
};

/* Index the header NAMES (copied, trimmed). */
struct csv_cols *
import_columns_create(char **names, size_t n)
{
	struct csv_cols	*c;
	size_t		 i, len;
	const char	*s;

	c = xcalloc(1, sizeof *c);
	c->names = xcalloc(n, sizeof *c->names);
	c->used = xcalloc(n, sizeof *c->used);
	c->n = n;
	for (i = 0; i < n; i++) {
		s = names[i];
		while (*s == ' ')
			s++;
		len = strlen(s);
		while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
			len--;
		c->names[i] = xstrndup(s, len);
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
	free(c);
}

/* The index of column NAME (case-insensitive), or -1. */
int
import_columns_find(struct csv_cols *c, const char *name)
{
	size_t	 i;

	for (i = 0; i < c->n; i++) {
		if (strcasecmp(c->names[i], name) == 0) {
			c->used[i] = true;
			return (int)i;
		}
	}
	return -1;
}

/* The index of the first of NAMES (NULL-terminated) present, or -1. */
int
import_columns_find_any(struct csv_cols *c, const char *const *names)
{
	int	 i;

	for (; *names != NULL; names++) {
		if ((i = import_columns_find(c, *names)) != -1)
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
