/*
 * The CSV reader on what the vendor's tools write: BOM, CRLF, trailing TAB,
 * quoted fields with doubled quotes, commas and line breaks, blank lines,
 * no final newline; rows over the size limits read past and counted; and
 * columns found by name.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import-int.h"
#include "tap.h"

static char	tmpl[] = "/tmp/t-csv.XXXXXX";

static struct csv *
open_text(const char *text)
{
	FILE	*f;
	char	*cause = NULL;
	int	 fd;

	strcpy(tmpl, "/tmp/t-csv.XXXXXX");
	if ((fd = mkstemp(tmpl)) == -1 || (f = fdopen(fd, "w")) == NULL)
		return NULL;
	fputs(text, f);
	fclose(f);
	return import_csv_open(tmpl, &cause);
}

int
main(void)
{
	struct csv	*c;
	struct csv_cols	*cols;
	char		**f, *cause = NULL, *text;
	size_t		 n;
	int		 shift, pad;
	int64_t		 off, size;
	size_t		 big;
	const char	*names[] = { "Block Num", "Block Dim", NULL };

	c = open_text("\xef\xbb\xbfName,Start Time(us),Shapes\r\n"
	    "a,1780295077844859.030\t,\"\"\"32,1024;1024\"\"\"\r\n"
	    "\r\n"
	    "\"b, with comma\",2.5\t,\"line1\r\nline2\"\r\n"
	    "c,3");
	ok(c != NULL, "open");
	ok(import_csv_next(c, &f, &n) == 1 && n == 3, "header row");
	is_str(f[0], "Name", "BOM dropped from the first cell");
	is_str(f[2], "Shapes", "CR dropped at the line end");
	cols = import_columns_create(f, n);
	is_int(import_columns_find(cols, "start time(us)"), 1,
	    "find by name, any case");
	is_int(import_columns_find_any(cols, names), -1, "absent column");
	import_columns_free(cols);
	ok(import_csv_next(c, &f, &n) == 1 && n == 3, "first row");
	is_str(f[1], "1780295077844859.030", "trailing TAB stripped");
	is_str(f[2], "\"32,1024;1024\"", "doubled quotes and comma kept");
	ok(import_csv_next(c, &f, &n) == 1 && n == 3, "blank line skipped");
	is_str(f[0], "b, with comma", "quoted comma");
	is_str(f[2], "line1\r\nline2", "quoted line break");
	is_int(import_csv_offset(c) > 0, 1, "offset of the row");
	ok(import_csv_next(c, &f, &n) == 1 && n == 2,
	    "last row without newline");
	is_str(f[1], "3", "its last cell");
	ok(import_csv_next(c, &f, &n) == 0, "end of file");
	import_csv_free(c);
	unlink(tmpl);

	/* Lines that end in a CR alone (old Mac files); quoted ones stay. */
	c = open_text("h1,h2\ra,\"q\rr\"\rb,2\r\"c\"\r");
	ok(import_csv_next(c, &f, &n) == 1 && n == 2, "CR alone: the header");
	is_str(f[1], "h2", "its last cell");
	ok(import_csv_next(c, &f, &n) == 1 && n == 2, "CR alone: a row");
	is_str(f[1], "q\rr", "a CR inside quotes is the cell's");
	ok(import_csv_next(c, &f, &n) == 1 && n == 2, "the next row");
	is_str(f[0], "b", "its first cell");
	ok(import_csv_next(c, &f, &n) == 1 && n == 1, "a quoted last row");
	is_str(f[0], "c", "ended by a CR");
	ok(import_csv_next(c, &f, &n) == 0, "then the end");
	import_csv_free(c);
	unlink(tmpl);

	c = open_text("x,\"unterminated\n");
	ok(import_csv_next(c, &f, &n) == 1 && n == 2,
	    "an unterminated quote ends at EOF");
	is_str(f[1], "unterminated\n", "with what it had");
	import_csv_free(c);
	unlink(tmpl);

	/* A doubled quote and a quoted line break across a block's end. */
	for (shift = -3; shift <= 2; shift++) {
		pad = IMPORT_CSV_BLOCK + shift - (int)strlen("p,\nq,\"ab");
		text = xmalloc((size_t)pad + 64);
		memcpy(text, "p,", 2);
		memset(text + 2, 'a', (size_t)pad);
		strcpy(text + 2 + pad, "\nq,\"ab\"\"c\nd\",z\nlast,1\n");
		c = open_text(text);
		free(text);
		ok(import_csv_next(c, &f, &n) == 1 && import_csv_next(c, &f,
		    &n) == 1 &&
		    n == 3 && strcmp(f[1], "ab\"c\nd") == 0 &&
		    strcmp(f[2], "z") == 0, "quote at block offset %+d", shift);
		ok(import_csv_next(c, &f, &n) == 1 && import_csv_line(c) == 4 &&
		    strcmp(f[0], "last") == 0, "line count after it (%+d)",
		    shift);
		import_csv_free(c);
		unlink(tmpl);
	}

	/*
	 * A row over IMPORT_CSV_MAX_ROW bytes (unquoted and quoted) and one
	 * of more than IMPORT_CSV_MAX_FIELDS cells are read past.
	 */
	big = IMPORT_CSV_MAX_ROW + 100;
	text = xmalloc(3 * big + 256);
	strcpy(text, "h1,h2\nr1,1\nx,");
	n = strlen(text);
	memset(text + n, 'a', big);
	n += big;
	strcpy(text + n, "\nr2,2\ny,\"");
	n += strlen(text + n);
	memset(text + n, 'b', big);
	n += big;
	strcpy(text + n, "\",q\nr3,3\n");
	n += strlen(text + n);
	memset(text + n, ',', IMPORT_CSV_MAX_FIELDS + 5);
	n += IMPORT_CSV_MAX_FIELDS + 5;
	strcpy(text + n, "\nr4,4");
	c = open_text(text);
	ok(import_csv_header(c, &f, &n, &cause) == 0 && n == 2, "header");
	ok(import_csv_next(c, &f, &n) == 1 && strcmp(f[0], "r1") == 0,
	    "row before the long ones");
	ok(import_csv_next(c, &f, &n) == 1 && strcmp(f[0], "r2") == 0,
	    "a long unquoted row is read past");
	ok(import_csv_next(c, &f, &n) == 1 && strcmp(f[0], "r3") == 0,
	    "a long quoted row is read past");
	ok(import_csv_next(c, &f, &n) == 1 && strcmp(f[0], "r4") == 0 &&
	    n == 2, "a row of too many cells is read past");
	ok(import_csv_next(c, &f, &n) == 0, "then the end");
	is_int(import_csv_skipped(c, &off, &size), 3, "three rows counted");
	is_int(off, 11, "the first one's offset");
	is_int(size, (int64_t)big + 3, "and size");
	is_int(import_csv_line(c), 8, "lines still counted");
	import_csv_free(c);
	unlink(tmpl);
	c = open_text(text + 11);
	ok(import_csv_header(c, &f, &n, &cause) == -1 && cause != NULL &&
	    strstr(cause, "header row") != NULL, "a header over the limit "
	    "is an error");
	free(cause);
	cause = NULL;
	import_csv_free(c);
	unlink(tmpl);
	free(text);

	ok(import_csv_open("/nonexistent/x.csv", &cause) == NULL
	    && cause != NULL,
	    "a missing file is an error");
	free(cause);
	return done_testing();
}
