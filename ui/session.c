/*
 * What every view shows: the store, and the device and rank it is limited
 * to. ui.c sets the store when it starts and after a re-import; the
 * device and rank selectors change the rest. It calls nothing else in
 * ui/, so every view can read it. A store set here starts building its
 * indexes and timeline in the background (store-lanes-side.c) once its
 * first screen is drawn (session_prefetch()).
 */
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static struct store	*session_s;	/* the store opened */
static struct store	*session_rs;	/* of a set: the rank's, or NULL */
static struct store	*session_old;	/* the rank's before, until views go */
static struct store	*session_cmp;	/* --compare's BASE, or NULL */
static const struct store_compare *session_cmp_opts;
static int64_t		 session_dev = NP_NA;
static int64_t		 session_rnk = NP_NA;
static bool		 session_due;	/* its background build to start */

/*
 * The store the views read: the one opened, or when that is a set of
 * stores (a cluster kept as a store per rank) and a rank is chosen, the
 * store of that rank.
 */
struct store *
session_store(void)
{
	return session_rs != NULL ? session_rs : session_s;
}

/* The store opened, the set's own for a set: its cluster tables, ranks. */
struct store *
session_base(void)
{
	return session_s;
}

/*
 * The store to read TABLE from: the set's own for its cluster tables,
 * else the store the views read.
 */
struct store *
session_store_for(const char *table)
{
	return strncmp(table, "cluster_", 8) == 0 ? session_s :
	    session_store();
}

/* Compare the store shown with BASE (the caller's), as CO says. */
void
session_set_compare(struct store *base, const struct store_compare *co)
{
	session_cmp = base;
	session_cmp_opts = co;
}

struct store *
session_compare_base(void)
{
	return session_cmp;
}

const struct store_compare *
session_compare_opts(void)
{
	return session_cmp_opts;
}

/* Free the rank stores; the views that read them are closed. */
void
session_release(void)
{
	store_free(session_old);
	store_free(session_rs);
	session_old = session_rs = NULL;
}

/*
 * Show store S from now on; it stays the caller's. A rank chosen in a set
 * of stores before has its store opened from S again (on failure the
 * rank goes back to all).
 */
void
session_set_store(struct store *s)
{
	char	*cause = NULL;

	session_release();
	session_s = s;
	if (s != NULL && session_rnk != NP_NA &&
	    session_set_device(session_dev, session_rnk, &cause) != 0)
		free(cause);
	session_due = s != NULL && !store_set_is(s);
}

/*
 * The store's indexes and timeline tables are built the first time a
 * store shows a timeline: start on them once the store's first screen is
 * drawn (their build would only hold its reads up), while the statistics
 * are read. ui.c calls this after each draw.
 */
void
session_prefetch(void)
{
	char	*cause = NULL;

	if (!session_due || session_s == NULL)
		return;
	session_due = false;
	if (store_timeline_prefetch(session_s, &cause) != 0)
		free(cause);
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

/*
 * Show DEVICE and RANK (NP_NA: all). In a set of stores a rank's views
 * read its own store, opened here; the one shown before stays open until
 * the next change, as views still open may read it. On failure the rank
 * goes back to all, -1 is returned and *cause set.
 */
int
session_set_device(int64_t device, int64_t rank, char **cause)
{
	struct store	*rs = NULL;
	int		 rc = 0;

	session_dev = device;
	if (session_s != NULL && store_set_is(session_s)) {
		if (rank != NP_NA && (rs = store_set_open(session_s, rank,
		    cause)) == NULL) {
			rank = NP_NA;
			rc = -1;
		}
		store_free(session_old);
		session_old = session_rs;
		session_rs = rs;
	}
	session_rnk = rank;
	return rc;
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
	struct store			*st;
	char				*cause = NULL;

	/* The cluster tables are the set's own. */
	st = session_store_for(table);
	if ((t = store_tables_find_rank(st, table, all ? NP_NA :
	    session_rnk)) == NULL)
		return NULL;
	store_query_init(&q);
	q.sort = sort;
	q.limit = limit;
	if (!all) {
		q.device = session_dev;
		q.rank = session_rnk;
	}
	r = store_query_table(st, t, &q, &cause);
	free(cause);
	if (r != NULL && r->nrows == 0) {
		store_rows_free(r);
		r = NULL;
	}
	return r;
}
