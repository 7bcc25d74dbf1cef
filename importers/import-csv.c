/*
 * The CSV reader every text importer shares. It streams the file in large
 * blocks and copes with what the vendor's tools write: a UTF-8 BOM, CRLF or
 * LF, quoted fields holding commas, doubled quotes and line breaks, a
 * trailing TAB after timestamps, and no newline at the end.
 *
 * A row longer than IMPORT_CSV_MAX_ROW bytes or with more than
 * IMPORT_CSV_MAX_FIELDS cells is read past, not kept, so one broken line
 * cannot take memory without bound; such rows are counted for the caller.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import-int.h"

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
	bool		 over;		/* the row being read is too big */
	int64_t		 skipped;	/* rows read past for their size */
	int64_t		 skip_offset;	/* the first one's offset and size */
	int64_t		 skip_size;
	int64_t		 open_quote;	/* row whose quote never closed */
	bool		 nul;		/* the row has a NUL byte in a cell */
	int64_t		 nuls;		/* rows skipped for one */
	int64_t		 nul_offset;	/* the first one's offset */
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
	c->open_quote = -1;
	c->buf = xmalloc(IMPORT_CSV_BLOCK);
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
	c->len = fread(c->buf, 1, IMPORT_CSV_BLOCK, c->f);
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

/* Drop the row being read: it is over a limit. */
static void
import_csv_overflow(struct csv *c)
{
	c->over = true;
	strbuf_release(&c->field);
	strbuf_init(&c->field);
	c->nfields = 0;
}

/* Add N bytes at P to the row, unless that makes it too long. */
static inline void
import_csv_add(struct csv *c, const char *p, size_t n)
{
	if (c->over)
		return;
	if (c->field.len + n > IMPORT_CSV_MAX_ROW) {
		import_csv_overflow(c);
		return;
	}
	strbuf_add(&c->field, p, n);
}

static inline void
import_csv_addc(struct csv *c, char ch)
{
	import_csv_add(c, &ch, 1);
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
		import_csv_add(c, start, (size_t)(p - start));
		c->pos = (size_t)(p - c->buf);
		if (p == end)
			continue;
		ch = (unsigned char)*p;
		c->pos++;
		if (ch != '\r')
			return ch;
		/* CRLF, or a CR alone: both end the line. */
		if (import_csv_fill(c) && c->buf[c->pos] == '\n')
			c->pos++;
		return '\n';
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
		import_csv_add(c, start, (size_t)(p - start));
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
	size_t		 start;

	if (c->over)
		return;
	start = c->starts[c->nfields];
	/* A NUL would end the cell early: "1\03" read as 1. */
	if (b->len > start && memchr(b->s + start, '\0', b->len - start) !=
	    NULL)
		c->nul = true;
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
	if (c->over)
		return;
	if (c->nfields >= IMPORT_CSV_MAX_FIELDS) {
		import_csv_overflow(c);
		return;
	}
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
 * Blank lines are skipped, and so are rows over the size limits (see
 * import_csv_skipped()).
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
			while ((ch = import_csv_getc(c)) == ' ' && !c->over
			    && c->field.len == c->starts[c->nfields])
				;
			if (ch == '"') {
				quoted = inq = true;
				ch = import_csv_getc(c);
			} else if (ch != ',' && ch != '\n' && ch != -1 &&
			    ch != '\r') {
				import_csv_addc(c, (char)ch);
				ch = import_csv_unquoted(c);
			}
			for (;; ch = import_csv_getc(c)) {
				if (ch == -1) {
					if (inq)
						c->open_quote = c->row_offset;
					break;
				}
				if (inq) {
					if (ch != '"') {
						if (ch == '\n')
							c->line++;
						import_csv_addc(c, (char)ch);
						ch = import_csv_quoted(c);
						if (ch == -1) {
							c->open_quote =
							    c->row_offset;
							break;
						}
					}
					if (import_csv_peek(c) == '"') {
						import_csv_getc(c);
						import_csv_addc(c, '"');
					} else
						inq = false;
					continue;
				}
				if (ch == ',' || ch == '\n')
					break;
				/* CRLF, or a CR alone (old Mac files). */
				if (ch == '\r') {
					if (import_csv_peek(c) == '\n')
						continue;
					ch = '\n';
					break;
				}
				import_csv_addc(c, (char)ch);
			}
			import_csv_end_field(c, quoted);
			if (ch != ',')
				break;
		}
		if (c->nul && !c->over) {
			if (c->nuls++ == 0)
				c->nul_offset = c->row_offset;
			c->nul = false;
			continue;
		}
		c->nul = false;
		if (c->over) {
			if (c->skipped++ == 0) {
				c->skip_offset = c->row_offset;
				c->skip_size = import_csv_bytes(c) -
				    c->row_offset;
			}
			c->over = false;
			continue;
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

/*
 * Read the header row, as import_csv_next(). Return 0, or -1 with *cause
 * set when the file is empty or its first row is over the limits.
 */
int
import_csv_header(struct csv *c, char ***fields, size_t *n, char **cause)
{
	if (import_csv_next(c, fields, n) == 1 && c->skipped == 0)
		return 0;
	if (c->skipped > 0)
		xasprintf(cause, "'%s': the header row (%lld bytes) is over "
		    "the limit of %d MiB or %d cells", c->path,
		    (long long)c->skip_size, IMPORT_CSV_MAX_ROW >> 20,
		    IMPORT_CSV_MAX_FIELDS);
	else
		xasprintf(cause, "'%s' is empty", c->path);
	return -1;
}

/* The path C reads. */
const char *
import_csv_path(struct csv *c)
{
	return c->path;
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

/*
 * How many rows were read past for being over a size limit; the first
 * one's offset and size go to *OFFSET and *SIZE.
 */
int64_t
import_csv_skipped(struct csv *c, int64_t *offset, int64_t *size)
{
	*offset = c->skip_offset;
	*size = c->skip_size;
	return c->skipped;
}

/*
 * Warn once in S about the rows of C read past for their size or for a
 * NUL byte, and about a quote still open at the end of the file.
 */
void
import_csv_report(struct csv *c, struct store *s)
{
	if (c->open_quote >= 0)
		store_load_warning(s, c->path, c->open_quote, "quoted cell "
		    "not closed before the end of the file (cut short?): its "
		    "row runs to the end");
	if (c->nuls > 0)
		store_load_warning(s, c->path, c->nul_offset, "row with a NUL "
		    "byte in a cell skipped (%lld row%s, the first here)",
		    (long long)c->nuls, c->nuls == 1 ? "" : "s");
	if (c->skipped == 0)
		return;
	store_load_warning(s, c->path, c->skip_offset, "row of %lld bytes "
	    "is over the limit of %d MiB or %d cells, skipped (%lld row%s)",
	    (long long)c->skip_size, IMPORT_CSV_MAX_ROW >> 20,
	    IMPORT_CSV_MAX_FIELDS, (long long)c->skipped,
	    c->skipped == 1 ? "" : "s");
}

/* Bytes consumed so far. */
int64_t
import_csv_bytes(struct csv *c)
{
	return c->base + (int64_t)c->pos;
}
