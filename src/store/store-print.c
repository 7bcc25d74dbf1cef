/*
 * Writing query results: aligned tables fitted to a width (UTF-8 or ASCII
 * rules, optional bold header), CSV as the vendor writes it, TSV and JSON.
 * show and the UI's save command both use it.
 */
#include <stdlib.h>
#include <string.h>

#include "store.h"

/*
 * The columns S takes in a table: of its visible form, since a table is
 * for a terminal and control bytes from the data must not act on it.
 */
static size_t
store_print_width(const char *s)
{
	struct strbuf	 b;
	size_t		 w;

	strbuf_init(&b);
	w = util_width(util_visible(s, &b, false), SIZE_MAX, NULL, true);
	strbuf_release(&b);
	return w;
}

/*
 * Print S, made visible (util_visible()), in WIDTH columns; PAD fills a
 * left-aligned cell with blanks.
 */
static void
store_print_cell(FILE *f, const char *s, size_t width, bool right,
    bool utf8, bool pad)
{
	struct strbuf	 b;
	size_t		 w, bytes, i;

	strbuf_init(&b);
	s = util_visible(s, &b, false);
	w = util_width(s, SIZE_MAX, NULL, true);
	if (w > width) {
		/* Ellipsize: keep what fits in WIDTH - 1 columns. */
		w = width > 0 ? util_width(s, width - 1, &bytes, true) : 0;
		fwrite(s, 1, width > 0 ? bytes : 0, f);
		if (width > 0)
			fputs(utf8 ? "\xe2\x80\xa6" : "~", f);
		for (i = w + 1; pad && i < width; i++)
			fputc(' ', f);
	} else if (right) {
		for (i = w; i < width; i++)
			fputc(' ', f);
		fputs(s, f);
	} else {
		fputs(s, f);
		for (i = w; pad && i < width; i++)
			fputc(' ', f);
	}
	strbuf_release(&b);
}

/*
 * Shrink columns until the table fits in WIDTH columns: first those that
 * only their name makes wide, down to their widest cell (CELL), widest
 * first; then the widest of all. A number column (NUM) is never cut
 * below its widest cell: a cut number reads as another one, so
 * a table of many numbers is left wider than WIDTH instead.
 */
static void
store_print_fit(size_t *w, const size_t *cell, const bool *num, size_t n,
    size_t width)
{
	size_t	 total, i, widest, named;

	for (;;) {
		total = n > 0 ? 2 * (n - 1) : 0;
		widest = n;
		named = n;
		for (i = 0; i < n; i++) {
			total += w[i];
			if ((!num[i] || w[i] > cell[i]) &&
			    (widest == n || w[i] > w[widest]))
				widest = i;
			if (w[i] > cell[i] && w[i] > 8 && (named == n ||
			    w[i] > w[named]))
				named = i;
		}
		if (total <= width)
			return;
		if (named < n) {
			w[named]--;
			continue;
		}
		if (widest == n || w[widest] <= 8)
			return;
		w[widest]--;
	}
}

/* The significant digits of number text C. */
static size_t
store_print_digits(const char *c)
{
	size_t	 n = 0;
	bool	 lead = true;

	for (; *c != '\0'; c++) {
		if (*c < '0' || *c > '9' || (lead && *c == '0'))
			continue;
		lead = false;
		n++;
	}
	return n;
}

/*
 * Cell I, J of R as a person reads it: a number kept as the vendor's text
 * with a binary float's tail ("7129.459999999992"), or a real computed as
 * the vendor's Python does (a sum's "105991.87800000001", 15 significant
 * digits or more), is rounded to three decimals into BUF
 * (STORE_READABLE_MAX bytes). Tables and the UI show this; CSV, TSV and
 * JSON keep the text exact.
 */
const char *
store_print_readable(const struct store_rows *r, size_t i, size_t j,
    char *buf)
{
	const char	*c = store_rows_cell(r, i, j), *dot;
	size_t		 n;
	double		 v;

	if ((r->fmts[j] != FMT_NUMTEXT && r->fmts[j] != FMT_REAL) ||
	    (dot = strchr(c, '.')) == NULL)
		return c;
	n = strspn(dot + 1, "0123456789");
	if (n <= 6 || dot[1 + n] != '\0' || (r->fmts[j] == FMT_REAL &&
	    store_print_digits(c) < 15) || util_parse_double(c, strlen(c),
	    &v) != 0)
		return c;
	util_fmt_fixed(buf, STORE_READABLE_MAX, v, 3, true);
	return buf;
}

/*
 * The columns of number TEXT from its decimal point on, else 0: what
 * lines a column's points up, in show's tables and the UI's.
 */
size_t
store_print_frac(const char *text)
{
	const char	*dot;

	if (strspn(text, "+-0123456789.") != strlen(text) ||
	    (dot = strchr(text, '.')) == NULL)
		return 0;
	return strlen(dot);
}

/*
 * Cell I, J of R as a table shows it into PAD (STORE_READABLE_MAX + 16
 * bytes): numbers followed by the spaces that line their decimal point up
 * with the column's widest decimals FRAC.
 */
static const char *
store_print_aligned(const struct store_rows *r, size_t i, size_t j,
    size_t frac, char *pad)
{
	char		 buf[STORE_READABLE_MAX];
	const char	*c = store_print_readable(r, i, j, buf);
	size_t		 n;

	if (frac == 0)
		return c == buf ? strcpy(pad, buf) : c;
	n = frac - store_print_frac(c);
	snprintf(pad, STORE_READABLE_MAX + 16, "%s%*s", c, (int)n, "");
	return pad;
}

/*
 * Whether column J of R holds numbers, to be right-aligned: a column of
 * text is not, and neither is a vendor table's column (kept as text that
 * may be numbers) with a cell that is no number, such as memory_record's
 * Component or a marker's message.
 */
bool
store_print_numeric(const struct store_rows *r, size_t j)
{
	const char	*c;
	double		 v;
	size_t		 i, len;

	if (!store_fmt_numeric(r->fmts[j]))
		return false;
	if (r->fmts[j] != FMT_NUMTEXT)
		return true;
	for (i = 0; i < r->nrows; i++) {
		c = store_rows_cell(r, i, j);
		len = strlen(c);
		if (len > 0 && !util_is_na(c, len) &&
		    util_parse_double(c, len, &v) != 0)
			return false;
	}
	return true;
}

static void
store_print_table(FILE *f, const struct store_rows *r,
    const struct store_print_opts *o)
{
	size_t	*w, *cell, *frac, i, j, total = 0, cw;
	bool	*num;
	char	 buf[STORE_READABLE_MAX + 16];

	w = xcalloc(r->ncols, sizeof *w);
	cell = xcalloc(r->ncols, sizeof *cell);
	frac = xcalloc(r->ncols, sizeof *frac);
	num = xcalloc(r->ncols, sizeof *num);
	for (j = 0; j < r->ncols; j++) {
		if (!(num[j] = store_print_numeric(r, j)))
			continue;
		for (i = 0; i < r->nrows; i++) {
			cw = store_print_frac(store_print_readable(r, i, j,
			    buf));
			if (cw > frac[j])
				frac[j] = cw;
		}
	}
	for (j = 0; j < r->ncols; j++) {
		for (i = 0; i < r->nrows; i++) {
			cw = store_print_width(store_print_aligned(r, i, j,
			    frac[j], buf));
			if (cw > cell[j])
				cell[j] = cw;
		}
		w[j] = store_print_width(r->names[j]);
		if (cell[j] > w[j])
			w[j] = cell[j];
	}
	if (o->width > 0)
		store_print_fit(w, cell, num, r->ncols, (size_t)o->width);
	if (o->widths != NULL)
		memcpy(o->widths, w, r->ncols * sizeof *w);
	if (o->color)
		fputs("\033[1m", f);
	for (j = 0; j < r->ncols; j++) {
		store_print_cell(f, r->names[j], w[j], num[j], o->utf8,
		    j + 1 < r->ncols);
		if (j + 1 < r->ncols)
			fputs("  ", f);
		total += w[j] + (j + 1 < r->ncols ? 2 : 0);
	}
	if (o->color)
		fputs("\033[0m", f);
	fputc('\n', f);
	for (i = 0; i < total; i++)
		fputs(o->utf8 ? "\xe2\x94\x80" : "-", f);
	fputc('\n', f);
	for (i = 0; i < r->nrows; i++) {
		for (j = 0; j < r->ncols; j++) {
			store_print_cell(f, store_print_aligned(r, i, j,
			    frac[j], buf), w[j], num[j], o->utf8,
			    j + 1 < r->ncols);
			if (j + 1 < r->ncols)
				fputs("  ", f);
		}
		fputc('\n', f);
	}
	free(w);
	free(frac);
	free(cell);
	free(num);
}

/* A CSV field: quoted only when it must be (comma, quote, line break). */
static void
store_print_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void
store_print_tsv_field(FILE *f, const char *s)
{
	for (; *s != '\0'; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void
store_print_sv(FILE *f, const struct store_rows *r, bool tsv)
{
	size_t	 i, j;

	for (i = 0; i <= r->nrows; i++) {
		for (j = 0; j < r->ncols; j++) {
			const char *c = i == 0 ? r->names[j] :
			    store_rows_cell(r, i - 1, j);

			if (j > 0)
				fputc(tsv ? '\t' : ',', f);
			if (tsv)
				store_print_tsv_field(f, c);
			else
				store_print_csv_field(f, c);
		}
		fputc('\n', f);
	}
}

/*
 * One row as a JSON object of NAMES (HDR's) to values: N/A in any column
 * but a text column is null; a cell of a number column whose value was a
 * number is that number, written as the text it is shown as; everything
 * else is a string. show, the UI's save and export summary share it.
 */
void
store_print_json_row(struct json *j, const struct store_rows *hdr,
    char *const *cells, const struct store_val *vals)
{
	enum store_fmt	 fmt;
	size_t		 i;

	json_map_open(j);
	for (i = 0; i < hdr->ncols; i++) {
		fmt = hdr->fmts[i];
		json_str(j, hdr->names[i]);
		/* N/A, or nothing in a column of computed numbers. */
		if (fmt != FMT_TEXT && vals[i].kind == VAL_NONE &&
		    (strcmp(cells[i], "N/A") == 0 || (*cells[i] == '\0' &&
		    (fmt == FMT_INT || fmt == FMT_REAL))))
			json_null(j);
		else if (fmt == FMT_TEXT || vals[i].kind == VAL_NONE ||
		    !json_number(j, cells[i]))
			json_str(j, cells[i]);
	}
	json_map_close(j);
}

/* R as a JSON array of row objects, a row a line, INDENT before each. */
static void
store_print_json(FILE *f, const struct store_rows *r, const char *indent)
{
	struct json	*j = json_open(f);
	size_t		 i;

	fputs("[", f);
	for (i = 0; i < r->nrows; i++) {
		fprintf(f, "%s\n%s  ", i == 0 ? "" : ",", indent);
		json_next(j);
		store_print_json_row(j, r, r->cells + i * r->ncols,
		    r->vals + i * r->ncols);
	}
	/* Inside an object of tables, the bracket lines up with its key. */
	if (r->nrows > 0)
		fprintf(f, "\n%s", indent);
	fputc(']', f);
	if (*indent == '\0')
		fputc('\n', f);
	json_free(j);
}

/* Write R to F in the format O asks for. */
void
store_print_rows(FILE *f, const struct store_rows *r,
    const struct store_print_opts *o)
{
	switch (o->format) {
	case PRINT_TABLE:
		store_print_table(f, r, o);
		break;
	case PRINT_CSV:
		store_print_sv(f, r, false);
		break;
	case PRINT_TSV:
		store_print_sv(f, r, true);
		break;
	case PRINT_JSON:
		store_print_json(f, r, o->indent != NULL ? o->indent : "");
		break;
	}
}

/* Parse a format name; -1 if unknown. */
int
store_print_format(const char *name)
{
	if (strcmp(name, "table") == 0)
		return PRINT_TABLE;
	if (strcmp(name, "csv") == 0)
		return PRINT_CSV;
	if (strcmp(name, "tsv") == 0)
		return PRINT_TSV;
	if (strcmp(name, "json") == 0)
		return PRINT_JSON;
	return -1;
}
