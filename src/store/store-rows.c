/*
 * struct store_rows: the plain copies of query results that show and the
 * UI keep, a grid of formatted cells.
 */
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
	free(r->names);
	free(r->fmts);
	free(r->ids);
	free(r);
}

/* Append a row; takes ownership of the NCOLS strings in CELLS. */
void
store_rows_add(struct store_rows *r, char **cells)
{
	if ((r->nrows + 1) * r->ncols > r->size) {
		r->size = r->size == 0 ? 64 * r->ncols : r->size * 2;
		r->cells = xreallocarray(r->cells, r->size, sizeof *r->cells);
	}
	memcpy(r->cells + r->nrows * r->ncols, cells,
	    r->ncols * sizeof *cells);
	r->nrows++;
}

/* The cell at ROW, COL, borrowed from R. */
const char *
store_rows_cell(const struct store_rows *r, size_t row, size_t col)
{
	return r->cells[row * r->ncols + col];
}

/* True for columns that hold numbers (right-aligned in tables). */
bool
store_fmt_numeric(enum store_fmt fmt)
{
	return fmt != FMT_TEXT && fmt != FMT_DEVICE;
}
