/*
 * Paging for the UI: a query fixed once (table, sort, filter, device) from
 * which the UI fetches windows of rows by position, and counts the rows
 * only when asked.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

struct store_page {
	struct store			*s;
	const struct store_table	*t;
	struct store_query		 q;
	char				*sort;
	char				*filter;
	int64_t				 count;		/* -1 until counted */
};

/*
 * A pager over Q on table T (Q's strings are copied). Return NULL with
 * *cause set if the sort column or the filter is bad.
 */
struct store_page *
store_page_create(struct store *s, const struct store_table *t,
    const struct store_query *q, char **cause)
{
	struct store_page	*p;
	struct store_rows	*r;

	p = xcalloc(1, sizeof *p);
	p->s = s;
	p->t = t;
	p->q = *q;
	p->sort = q->sort != NULL ? xstrdup(q->sort) : NULL;
	p->filter = q->filter != NULL ? xstrdup(q->filter) : NULL;
	p->q.sort = p->sort;
	p->q.filter = p->filter;
	p->count = -1;
	if ((r = store_page_fetch(p, 0, 1, cause)) == NULL) {
		store_page_free(p);
		return NULL;
	}
	store_rows_free(r);
	return p;
}

void
store_page_free(struct store_page *p)
{
	if (p == NULL)
		return;
	free(p->sort);
	free(p->filter);
	free(p);
}

/* LIMIT rows from row OFFSET; NULL with *cause set on failure. */
struct store_rows *
store_page_fetch(struct store_page *p, int64_t offset, int64_t limit,
    char **cause)
{
	struct store_query	 q = p->q;

	q.offset = offset;
	q.limit = limit;
	return store_query_table(p->s, p->t, &q, cause);
}

/* The number of rows, counted the first time it is asked; -1 on error. */
int64_t
store_page_count(struct store_page *p)
{
	char	*cause = NULL;

	if (p->count < 0) {
		p->count = store_count_table(p->s, p->t, &p->q, &cause);
		free(cause);
	}
	return p->count;
}
