/*
 * The CSV reader every text importer shares. It streams the file in large
 * blocks and copes with what the vendor's tools write: a UTF-8 BOM, CRLF or
 * LF, quoted fields holding commas, doubled quotes and line breaks, a
 * trailing TAB after timestamps, and no newline at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import-int.h"

#define CSV_BLOCK	(1 << 20)

struct csv {
	FILE		*f;
	char		*path;
	char		*buf;
	size_t		 len;
	size_t		 pos;
	int64_t		 base;		/* file offset of buf[0] */
	int64_t		 row_offset;	/* offset of the row last read */
	int64_t		 line;
	bool		 eof;
	struct strbuf	 field;		/* the row's fields, NUL-separated */
	size_t		*starts;
	char		**fields;
	size_t		 nfields;
	size_t		 size;
};

/* Open PATH for reading rows. On failure return NULL and set *cause. */
struct csv *
import_csv_open(const char *path, char **cause)
{
	struct csv	*c;

	c = xcalloc(1, sizeof *c);
	if ((c->f = util_fopen_input(path)) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    util_input_error(errno));
		free(c);
		return NULL;
	}
	c->path = xstrdup(path);
	c->buf = xmalloc(CSV_BLOCK);
	strbuf_init(&c->field);
	return c;
}

void
import_csv_free(struct csv *c)
{
	if (c == NULL)
		return;
	fclose(c->f);
	free(c->path);
	free(c->buf);
	free(c->starts);
	free(c->fields);
	strbuf_release(&c->field);
	free(c);
}

/* Make sure bytes are buffered; false at the end of the file. */
static bool
import_csv_fill(struct csv *c)
{
	if (c->pos < c->len)
		return true;
	if (c->eof)
		return false;
	c->base += (int64_t)c->len;
	c->len = fread(c->buf, 1, CSV_BLOCK, c->f);
	c->pos = 0;
	if (c->len == 0) {
		c->eof = true;
		return false;
	}
	if (c->base == 0 && c->len >= 3 && memcmp(c->buf, "\xef\xbb\xbf",
	    3) == 0)
		c->pos = 3;
	return c->pos < c->len || import_csv_fill(c);
}

/* The next byte, or -1 at the end of the file. */
static inline int
import_csv_getc(struct csv *c)
{
	if (c->pos == c->len && !import_csv_fill(c))
		return -1;
	return (unsigned char)c->buf[c->pos++];
}

/*
 * Copy the rest of an unquoted field in runs, up to the comma or line end,
 * which is returned (or -1 at the end of the file). Most of a file is
 * read here, so it avoids a call per byte.
 */
static int
import_csv_unquoted(struct csv *c)
{
	const char	*p, *start, *end;
	int		 ch;

	for (;;) {
		if (!import_csv_fill(c))
			return -1;
		start = c->buf + c->pos;
		end = c->buf + c->len;
		for (p = start; p < end; p++) {
			if (*p == ',' || *p == '\n' || *p == '\r')
				break;
		}
		strbuf_add(&c->field, start, (size_t)(p - start));
		c->pos = (size_t)(p - c->buf);
		if (p == end)
			continue;
		ch = (unsigned char)*p;
		c->pos++;
		if (ch != '\r')
			return ch;
		if (import_csv_fill(c) && c->buf[c->pos] == '\n') {
			c->pos++;
			return '\n';
		}
		strbuf_addc(&c->field, '\r');
	}
}

/*
 * Copy the rest of a quoted field in runs, up to the next quote, which is
 * consumed and returned (or -1 at the end of the file). Line breaks inside
 * the quotes belong to the field and are counted.
 */
static int
import_csv_quoted(struct csv *c)
{
	const char	*p, *start, *end;

	for (;;) {
		if (!import_csv_fill(c))
			return -1;
		start = c->buf + c->pos;
		end = c->buf + c->len;
		for (p = start; p < end && *p != '"'; p++) {
			if (*p == '\n')
				c->line++;
		}
		strbuf_add(&c->field, start, (size_t)(p - start));
		c->pos = (size_t)(p - c->buf);
		if (p < end) {
			c->pos++;
			return '"';
		}
	}
}

static inline int
import_csv_peek(struct csv *c)
{
	int	 ch = import_csv_getc(c);

	if (ch != -1)
		c->pos--;
	return ch;
}

static void
import_csv_end_field(struct csv *c, bool quoted)
{
	struct strbuf	*b = &c->field;
	size_t		 start = c->starts[c->nfields];

	/* Unquoted fields lose the trailing TAB or blanks Excel guards add. */
	if (!quoted) {
		while (b->len > start && (b->s[b->len - 1] == '\t' ||
		    b->s[b->len - 1] == ' ' || b->s[b->len - 1] == '\r'))
			b->len--;
	}
	strbuf_addc(b, '\0');
	c->nfields++;
}

static void
import_csv_new_field(struct csv *c)
{
	if (c->nfields + 1 >= c->size) {
		c->size = c->size == 0 ? 64 : c->size * 2;
		c->starts = xreallocarray(c->starts, c->size,
		    sizeof *c->starts);
		c->fields = xreallocarray(c->fields, c->size,
		    sizeof *c->fields);
	}
	c->starts[c->nfields] = c->field.len;
}

/*
 * Read the next row. Set *FIELDS to its cells (valid until the next call)
 * and *N to their count. Return 1 for a row, 0 at the end of the file.
 * Blank lines are skipped.
 */
int
import_csv_next(struct csv *c, char ***fields, size_t *n)
{
	int	 ch;
	bool	 quoted, inq;
	size_t	 i;

	for (;;) {
		strbuf_reset(&c->field);
		c->nfields = 0;
		c->row_offset = c->base + (int64_t)c->pos;
		if ((ch = import_csv_peek(c)) == -1)
			return 0;
		c->line++;
		for (;;) {
			import_csv_new_field(c);
			quoted = inq = false;
			while ((ch = import_csv_getc(c)) == ' '
			    && c->field.len ==
			    c->starts[c->nfields])
				;
			if (ch == '"') {
				quoted = inq = true;
				ch = import_csv_getc(c);
			} else if (ch != ',' && ch != '\n' && ch != -1 &&
			    ch != '\r') {
				strbuf_addc(&c->field, (char)ch);
				ch = import_csv_unquoted(c);
			}
			for (;; ch = import_csv_getc(c)) {
				if (ch == -1)
					break;
				if (inq) {
					if (ch != '"') {
						if (ch == '\n')
							c->line++;
						strbuf_addc(&c->field,
						    (char)ch);
						ch = import_csv_quoted(c);
						if (ch == -1)
							break;
					}
					if (import_csv_peek(c) == '"') {
						import_csv_getc(c);
						strbuf_addc(&c->field, '"');
					} else
						inq = false;
					continue;
				}
				if (ch == ',' || ch == '\n')
					break;
				if (ch == '\r' && import_csv_peek(c) == '\n')
					continue;
				strbuf_addc(&c->field, (char)ch);
			}
			import_csv_end_field(c, quoted);
			if (ch != ',')
				break;
		}
		if (c->nfields == 1 && c->field.s[0] == '\0')
			continue;
		break;
	}
	for (i = 0; i < c->nfields; i++)
		c->fields[i] = c->field.s + c->starts[i];
	*fields = c->fields;
	*n = c->nfields;
	return 1;
}

/* Byte offset of the row import_csv_next() returned last. */
int64_t
import_csv_offset(struct csv *c)
{
	return c->row_offset;
}

/* Line number of the row returned last (1 is the header). */
int64_t
import_csv_line(struct csv *c)
{
	return c->line;
}

/* Bytes consumed so far. */
int64_t
import_csv_bytes(struct csv *c)
{
	return c->base + (int64_t)c->pos;
}
