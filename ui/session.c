/*
 * What every view shows: the store, and the device and rank it is limited
 * to. ui.c sets the store when it starts and after a re-import; the
 * device and rank selectors change the rest. It calls nothing else in
 * ui/, so every view can read it.
 */
#include <stdlib.h>

#include "ui-int.h"

static struct store	*session_s;
static int64_t		 session_dev = NP_NA;
static int64_t		 session_rnk = NP_NA;

struct store *
session_store(void)
{
	return session_s;
}

/* Show store S from now on; it stays the caller's. */
void
session_set_store(struct store *s)
{
	session_s = s;
}

/* The device shown, NP_NA for all. */
int64_t
session_device(void)
{
	return session_dev;
}

/* The rank shown, NP_NA for all. */
int64_t
session_rank(void)
{
	return session_rnk;
}

void
session_set_device(int64_t device, int64_t rank)
{
	session_dev = device;
	session_rnk = rank;
}

/*
 * Rows of TABLE sorted by SORT (NULL: its own order), at most LIMIT (-1:
 * all), of the device and rank shown, or of every device and rank with
 * ALL; NULL if there is none.
 */
struct store_rows *
session_query(const char *table, const char *sort, int64_t limit, bool all)
{
	const struct store_table	*t;
	struct store_query		 q;
	struct store_rows		*r;
	char				*cause = NULL;

	if ((t = store_tables_find_rank(session_s, table, all ? NP_NA :
	    session_rnk)) == NULL)
		return NULL;
	store_query_init(&q);
	q.sort = sort;
	q.limit = limit;
	if (!all) {
		q.device = session_dev;
		q.rank = session_rnk;
	}
	r = store_query_table(session_s, t, &q, &cause);
	free(cause);
	if (r != NULL && r->nrows == 0) {
		store_rows_free(r);
		r = NULL;
	}
	return r;
}
