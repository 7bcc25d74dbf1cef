/*
 * struct store_rows: the plain copies of query results that show and the
 * UI keep, a grid of formatted cells.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store.h"

/* A result with NCOLS columns and no rows; names are set by the caller. */
struct store_rows *
store_rows_create(size_t ncols)
{
	struct store_rows	*r;

	r = xcalloc(1, sizeof *r);
	r->ncols = ncols;
	r->names = xcalloc(ncols, sizeof *r->names);
	r->fmts = xcalloc(ncols, sizeof *r->fmts);
	return r;
}

void
store_rows_free(struct store_rows *r)
{
	size_t	 i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nrows * r->ncols; i++)
		free(r->cells[i]);
	for (i = 0; i < r->ncols; i++)
		free(r->names[i]);
	free(r->cells);
	free(r->vals);
	free(r->names);
	free(r->fmts);
	free(r->ids);
	free(r);
}

/*
 * Append a row; takes ownership of the NCOLS strings in CELLS. VALS holds
 * the cells' values as read, or is NULL when the row has none.
 */
void
store_rows_add(struct store_rows *r, char **cells,
    const struct store_val *vals)
{
	size_t	 i, at = r->nrows * r->ncols;

	if ((r->nrows + 1) * r->ncols > r->size) {
		r->size = r->size == 0 ? 64 * r->ncols : r->size * 2;
		r->cells = xreallocarray(r->cells, r->size, sizeof *r->cells);
		r->vals = xreallocarray(r->vals, r->size, sizeof *r->vals);
	}
	memcpy(r->cells + at, cells, r->ncols * sizeof *cells);
	for (i = 0; i < r->ncols; i++) {
		if (vals != NULL)
			r->vals[at + i] = vals[i];
		else
			r->vals[at + i].kind = VAL_NONE;
	}
	r->nrows++;
}

/*
 * Append the rows of SRC to DST, each cell under the column of DST with
 * its name (empty where SRC has none); SRC is freed. Return how many of
 * SRC's columns DST has no place for (their cells are dropped).
 */
size_t
store_rows_append(struct store_rows *dst, struct store_rows *src)
{
	struct store_val	*vals;
	char			**cells;
	int			*map;
	size_t			 i, j, lost = 0;
	int			 c;

	map = xcalloc(dst->ncols, sizeof *map);
	for (j = 0; j < dst->ncols; j++)
		map[j] = store_rows_col(src, dst->names[j]);
	for (j = 0; j < src->ncols; j++)
		lost += store_rows_col(dst, src->names[j]) < 0;
	cells = xcalloc(dst->ncols, sizeof *cells);
	vals = xcalloc(dst->ncols, sizeof *vals);
	for (i = 0; i < src->nrows; i++) {
		for (j = 0; j < dst->ncols; j++) {
			if ((c = map[j]) < 0) {
				cells[j] = xstrdup("");
				vals[j].kind = VAL_NONE;
				continue;
			}
			cells[j] = src->cells[i * src->ncols + (size_t)c];
			src->cells[i * src->ncols + (size_t)c] = NULL;
			vals[j] = src->vals[i * src->ncols + (size_t)c];
		}
		store_rows_add(dst, cells, vals);
	}
	/* Row ids are of one store; rows of several have none. */
	free(dst->ids);
	dst->ids = NULL;
	free(vals);
	free(cells);
	free(map);
	store_rows_free(src);
	return lost;
}

/*
 * The column of R named NAME (LEN bytes) as a sort names it: exactly
 * (case aside), else the one it is a prefix of, else the one holding it;
 * -1 if none, -2 if several.
 */
static int
store_rows_sort_col(const struct store_rows *r, const char *name,
    size_t len)
{
	char	*key;
	size_t	 i;
	int	 found = -1, pass;

	for (i = 0; i < r->ncols; i++) {
		if (strlen(r->names[i]) == len &&
		    strncasecmp(r->names[i], name, len) == 0)
			return (int)i;
	}
	key = xstrndup(name, len);
	for (pass = 0; pass < 2 && found == -1; pass++) {
		for (i = 0; i < r->ncols; i++) {
			if (pass == 0 ? strncasecmp(r->names[i], key,
			    len) != 0 : strcasestr(r->names[i], key) == NULL)
				continue;
			found = found == -1 ? (int)i : -2;
		}
	}
	free(key);
	return found;
}

struct store_rows_key {
	int	 col;
	bool	 desc;
};

/*
 * Compare cells A and B of column K as SQLite orders them: no value
 * first, then numbers by value, then text by bytes.
 */
static int
store_rows_cmp_cell(const struct store_rows *r, size_t a, size_t b, int k)
{
	const struct store_val	*x = &r->vals[a * r->ncols + (size_t)k];
	const struct store_val	*y = &r->vals[b * r->ncols + (size_t)k];
	const char		*s = r->cells[a * r->ncols + (size_t)k];
	const char		*t = r->cells[b * r->ncols + (size_t)k];
	int			 cx, cy;
	double			 dx, dy;

	cx = x->kind != VAL_NONE ? 1 : *s == '\0' || strcmp(s, "N/A") == 0 ?
	    0 : 2;
	cy = y->kind != VAL_NONE ? 1 : *t == '\0' || strcmp(t, "N/A") == 0 ?
	    0 : 2;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (cx == 0)
		return 0;
	if (cx == 2)
		return strcmp(s, t);
	dx = store_rows_val_num(x);
	dy = store_rows_val_num(y);
	return dx < dy ? -1 : dx > dy;
}

static int
store_rows_cmp(const struct store_rows *r, const struct store_rows_key *k,
    size_t nk, size_t a, size_t b)
{
	size_t	 i;
	int	 c;

	for (i = 0; i < nk; i++) {
		if ((c = store_rows_cmp_cell(r, a, b, k[i].col)) != 0)
			return k[i].desc ? -c : c;
	}
	return 0;
}

/* Merge sort of the row numbers V (N of them), stable; T is scratch. */
static void
store_rows_msort(const struct store_rows *r, const struct store_rows_key *k,
    size_t nk, size_t *v, size_t *t, size_t n)
{
	size_t	 h = n / 2, i = 0, j = h, o = 0;

	if (n < 2)
		return;
	store_rows_msort(r, k, nk, v, t, h);
	store_rows_msort(r, k, nk, v + h, t, n - h);
	while (i < h && j < n)
		t[o++] = store_rows_cmp(r, k, nk, v[j], v[i]) < 0 ? v[j++] :
		    v[i++];
	while (i < h)
		t[o++] = v[i++];
	while (j < n)
		t[o++] = v[j++];
	memcpy(v, t, n * sizeof *v);
}

/*
 * Sort the rows of R on SPEC ("col" or "-col", comma-separated, names as
 * show's --sort takes them), keeping the order of rows that tie. Return
 * 0, or -1 with *cause set for a column R has not.
 */
int
store_rows_sort(struct store_rows *r, const char *spec, char **cause)
{
	struct store_rows_key	*k = NULL;
	const char		*p = spec, *end;
	size_t			 nk = 0, *v, *t, i;
	struct strbuf		 names;
	bool			 desc;
	int			 col;

	while (*p != '\0') {
		desc = *p == '-';
		if (*p == '-' || *p == '+')
			p++;
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if (end == p) {
			xasprintf(cause, "empty sort column in '%s'", spec);
			free(k);
			return -1;
		}
		if ((col = store_rows_sort_col(r, p, (size_t)(end - p))) < 0) {
			strbuf_init(&names);
			for (i = 0; i < r->ncols; i++)
				strbuf_addf(&names, "%s'%s'", i > 0 ? ", " : "",
				    r->names[i]);
			xasprintf(cause, "%s sort column '%.*s' (columns: %s)",
			    col == -2 ? "ambiguous" : "no", (int)(end - p), p,
			    names.s != NULL ? names.s : "");
			strbuf_release(&names);
			free(k);
			return -1;
		}
		k = xreallocarray(k, nk + 1, sizeof *k);
		k[nk].col = col;
		k[nk++].desc = desc;
		p = *end == ',' ? end + 1 : end;
	}
	v = xcalloc(r->nrows + 1, sizeof *v);
	t = xcalloc(r->nrows + 1, sizeof *t);
	for (i = 0; i < r->nrows; i++)
		v[i] = i;
	store_rows_msort(r, k, nk, v, t, r->nrows);
	store_rows_permute(r, v);
	free(v);
	free(t);
	free(k);
	return 0;
}

/* Put the rows of R in the order ORDER gives: row I becomes ORDER[I]. */
void
store_rows_permute(struct store_rows *r, const size_t *order)
{
	struct store_val	*vals;
	char			**cells;
	size_t			 i, j;

	cells = xcalloc(r->nrows * r->ncols + 1, sizeof *cells);
	vals = xcalloc(r->nrows * r->ncols + 1, sizeof *vals);
	for (i = 0; i < r->nrows; i++) {
		for (j = 0; j < r->ncols; j++) {
			cells[i * r->ncols + j] =
			    r->cells[order[i] * r->ncols + j];
			vals[i * r->ncols + j] =
			    r->vals[order[i] * r->ncols + j];
		}
	}
	if (r->nrows > 0) {
		memcpy(r->cells, cells, r->nrows * r->ncols * sizeof *cells);
		memcpy(r->vals, vals, r->nrows * r->ncols * sizeof *vals);
	}
	free(cells);
	free(vals);
}

/* Drop the last row of R, if any. */
void
store_rows_drop_last(struct store_rows *r)
{
	size_t	 i;

	if (r->nrows == 0)
		return;
	r->nrows--;
	for (i = 0; i < r->ncols; i++)
		free(r->cells[r->nrows * r->ncols + i]);
}

/* The cell at ROW, COL, borrowed from R. */
const char *
store_rows_cell(const struct store_rows *r, size_t row, size_t col)
{
	return r->cells[row * r->ncols + col];
}

/* The index of the column called NAME in R, or -1. */
int
store_rows_col(const struct store_rows *r, const char *name)
{
	size_t	 j;

	for (j = 0; j < r->ncols; j++) {
		if (strcmp(r->names[j], name) == 0)
			return (int)j;
	}
	return -1;
}

/* The number V is drawn as (us for a time), or NAN for no value. */
double
store_rows_val_num(const struct store_val *v)
{
	switch (v->kind) {
	case VAL_INT:
		return (double)v->i;
	case VAL_NS:
		return (double)v->i / 1000.0;
	case VAL_REAL:
		return v->d;
	default:
		return NAN;
	}
}

/* The number the cell at ROW, COL is drawn as, or NAN. */
double
store_rows_num(const struct store_rows *r, size_t row, size_t col)
{
	return store_rows_val_num(&r->vals[row * r->ncols + col]);
}

