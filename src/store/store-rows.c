/*
 * struct store_rows: the plain copies of query results that show and the
 * UI keep, a grid of formatted cells.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

