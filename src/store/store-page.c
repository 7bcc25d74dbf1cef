/*
 * Paging for the UI: a query fixed once (table, sort, filter, device) from
 * which the UI fetches windows of rows by position. On the task tables,
 * whose ten million rows make OFFSET cost as much as the rows it skips, a
 * page is found from a neighbour instead (keyset paging): the pager keeps
 * the sort keys of the first and last rows it handed out, and the next
 * page starts after them, through an index. The end of the table is
 * reached by reading it backwards. Counting is done only when asked, and
 * without a filter only over the task table itself, not its joins. A
 * filter on a task table, or a sort keyset paging cannot follow, runs as
 * a scan in the background (store-scan.c): pages are then read by row id
 * from the ids the scan found so far.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Sort columns of the task tables that keyset paging can follow. */
static const char *store_page_keyable[] = {
	"t.start_ns", "t.dur_ns", NULL
};

struct store_page {
	struct store			*s;
	const struct store_table	*t;
	struct store_query		 q;
	char				*sort;
	char				*filter;
	int64_t				 count;		/* -1 until counted */
	struct store_scan		*scan;		/* or NULL */

	bool				 keyset;
	char				*keys;		/* "a, b, t.id" */
	char				*asc;		/* ORDER BY forward */
	char				*desc;		/* and backward */
	bool				 down;		/* the sort is DESC */
	int				 nkeys;
	/* The rows [from, to] last fetched and their keys. */
	int64_t				 from;
	int64_t				 to;
	int64_t				 kfrom[STORE_MAX_KEYS];
	int64_t				 kto[STORE_MAX_KEYS];
};

/* Whether column expression EXPR is one keyset paging can follow. */
static bool
store_page_keyable_expr(const char *expr)
{
	size_t	 i;

	for (i = 0; store_page_keyable[i] != NULL; i++) {
		if (strcmp(store_page_keyable[i], expr) == 0)
			return true;
	}
	return false;
}

/* Whether the task rows all have a device (NULL breaks row values). */
static bool
store_page_devices_known(struct store *s)
{
	sqlite3_stmt	*stmt;
	bool		 known = false;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM task WHERE device IS"
	    " NULL LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
		return false;
	known = sqlite3_step(stmt) == SQLITE_DONE;
	sqlite3_finalize(stmt);
	return known;
}

/* Whether P's rows all come from one device (min and max by index). */
static bool
store_page_one_device(struct store_page *p)
{
	sqlite3_stmt	*stmt;
	bool		 one = false;

	if (p->q.device != NP_NA)
		return true;
	if (sqlite3_prepare_v2(p->s->db, "SELECT (SELECT min(device) FROM"
	    " task) = (SELECT max(device) FROM task)", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return false;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		one = sqlite3_column_int(stmt, 0) == 1;
	sqlite3_finalize(stmt);
	return one;
}

/*
 * Whether P, a task table's, is in its default order or sorted on the
 * start, which both read by the index task_start.
 */
static bool
store_page_by_start(const struct store_page *p)
{
	const char	*sort = p->sort, *name;
	int		 col;

	if (sort == NULL || *sort == '\0')
		return true;
	if (strchr(sort, ',') != NULL)
		return false;
	name = *sort == '-' || *sort == '+' ? sort + 1 : sort;
	return (col = store_query_col(p->t, name, strlen(name))) >= 0 &&
	    strcmp(p->t->cols[col].expr, "t.start_ns") == 0;
}

/*
 * Set up keyset paging if P's table and sort allow it: the default order
 * of a task table, or one keyable column (then the row id breaks ties, in
 * the same direction).
 */
static void
store_page_setup_keys(struct store_page *p)
{
	const struct store_table	*t = p->t;
	const char			*sort = p->sort, *name;
	int				 col;

	if (t->time == NULL || strcmp(t->order, STORE_TASK_ORDER) != 0)
		return;
	if (store_page_by_start(p))
		store_index_wait_order(p->s);
	if (!store_page_devices_known(p->s))
		return;
	if (sort == NULL || *sort == '\0') {
		p->keys = xstrdup("t.device, t.start_ns, t.id");
		p->asc = xstrdup("t.device, t.start_ns, t.id");
		p->desc = xstrdup("t.device DESC, t.start_ns DESC, t.id DESC");
		p->nkeys = 3;
	} else {
		if (strchr(sort, ',') != NULL)
			return;
		p->down = *sort == '-';
		name = *sort == '-' || *sort == '+' ? sort + 1 : sort;
		if ((col = store_query_col(t, name, strlen(name))) < 0 ||
		    !store_page_keyable_expr(t->cols[col].expr))
			return;
		/*
		 * With one device the start time is the default order,
		 * which the task_start index follows; else only an index of
		 * its own would do.
		 */
		if (strcmp(t->cols[col].expr, "t.start_ns") == 0) {
			if (!store_page_one_device(p))
				return;
			p->keys = xstrdup("t.device, t.start_ns, t.id");
			p->asc = xstrdup("t.device, t.start_ns, t.id");
			p->desc = xstrdup("t.device DESC, t.start_ns DESC,"
			    " t.id DESC");
			p->nkeys = 3;
			p->keyset = true;
			return;
		}
		xasprintf(&p->keys, "%s, t.id", t->cols[col].expr);
		xasprintf(&p->asc, "%s, t.id", t->cols[col].expr);
		xasprintf(&p->desc, "%s DESC, t.id DESC", t->cols[col].expr);
		p->nkeys = 2;
	}
	p->keyset = true;
}

void
store_page_free(struct store_page *p)
{
	if (p == NULL)
		return;
	store_scan_free(p->scan);
	free(p->sort);
	free(p->filter);
	free(p->keys);
	free(p->asc);
	free(p->desc);
	free(p);
}

/*
 * Whether P is a scan in the background: a task table (which the keyset
 * set-up found with every device known) with a filter, or with a sort
 * keyset paging cannot follow. Small tables are read directly.
 */
static bool
store_page_needs_scan(struct store_page *p)
{
	if (p->t->time == NULL || strcmp(p->t->order, STORE_TASK_ORDER) != 0 ||
	    p->q.from_ns != NP_NA)
		return false;
	if (p->filter != NULL && *p->filter != '\0')
		return true;
	return !p->keyset && p->sort != NULL && *p->sort != '\0';
}

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
	p->from = -1;
	store_scan_walk_forget(s, t, &p->q);
	store_page_setup_keys(p);
	if (store_page_needs_scan(p)) {
		/* An index's order is read as the filter goes. */
		p->scan = store_scan_start(s, t, &p->q, !p->keyset ? NULL :
		    p->down ? p->desc : p->asc, cause);
		if (p->scan == NULL) {
			store_page_free(p);
			return NULL;
		}
		return p;
	}
	if ((r = store_page_fetch(p, 0, 1, cause)) == NULL) {
		store_page_free(p);
		return NULL;
	}
	store_rows_free(r);
	return p;
}

/* Reverse the rows of R in place (a page read backwards). */
static void
store_page_reverse(struct store_rows *r)
{
	struct store_val v;
	size_t		 i, j, n = r->ncols, a, b;
	char		*c;
	int64_t		 id;

	for (i = 0; i < r->nrows / 2; i++) {
		for (j = 0; j < n; j++) {
			a = i * n + j;
			b = (r->nrows - 1 - i) * n + j;
			c = r->cells[a];
			r->cells[a] = r->cells[b];
			r->cells[b] = c;
			v = r->vals[a];
			r->vals[a] = r->vals[b];
			r->vals[b] = v;
		}
		if (r->ids != NULL) {
			id = r->ids[i];
			r->ids[i] = r->ids[r->nrows - 1 - i];
			r->ids[r->nrows - 1 - i] = id;
		}
	}
}

/* The condition "keys after (or before) AT" in the order of the sort. */
static char *
store_page_where(struct store_page *p, bool after)
{
	struct strbuf	 b;
	int		 i;
	bool		 gt = after != p->down;

	strbuf_init(&b);
	strbuf_addf(&b, "(%s) %s (", p->keys, gt ? ">" : "<");
	for (i = 0; i < p->nkeys; i++)
		strbuf_addf(&b, "%s?", i > 0 ? ", " : "");
	strbuf_adds(&b, ")");
	return strbuf_detach(&b);
}

/*
 * Rows by keyset: SKIP then LIMIT rows after the keys AT (or from the
 * start if AT is NULL), going BACK toward the start if asked (the rows
 * come back in table order all the same).
 */
static struct store_rows *
store_page_keyed(struct store_page *p, const int64_t *at, bool back,
    int64_t skip, int64_t limit, char **cause)
{
	struct store_keyset	 k;
	struct store_query	 q = p->q;
	struct store_rows	*r;
	char			*where = NULL;

	memset(&k, 0, sizeof k);
	k.keys = p->keys;
	k.nkeys = p->nkeys;
	k.order = back != p->down ? p->desc : p->asc;
	if (at != NULL) {
		where = store_page_where(p, !back);
		k.where = where;
		memcpy(k.at, at, sizeof k.at);
	}
	q.offset = skip;
	q.limit = limit;
	r = store_query_run(p->s, p->t, &q, &k, cause);
	free(where);
	if (r == NULL || r->nrows == 0)
		return r;
	if (back) {
		store_page_reverse(r);
		memcpy(p->kfrom, k.last, sizeof p->kfrom);
		memcpy(p->kto, k.first, sizeof p->kto);
	} else {
		memcpy(p->kfrom, k.first, sizeof p->kfrom);
		memcpy(p->kto, k.last, sizeof p->kto);
	}
	return r;
}

/* A keyset fetch of rows [OFFSET, OFFSET + LIMIT) from the best anchor. */
static struct store_rows *
store_page_fetch_keyed(struct store_page *p, int64_t offset, int64_t limit,
    char **cause)
{
	struct store_rows	*r;
	int64_t			 d_start = offset, d_after = -1;
	int64_t			 d_before = -1, n, first;
	size_t			 i;
	bool			 at_end;

	at_end = p->count >= 0 && offset + limit >= p->count;
	if (p->from >= 0 && offset > p->to)
		d_after = offset - p->to - 1;
	if (p->from >= 0 && offset + limit <= p->from)
		d_before = p->from - (offset + limit);
	if (at_end && (d_after < 0 || p->count - offset < d_after)) {
		/* From the end, backwards. */
		n = p->count - offset;
		if (n <= 0) {
			/* No rows, but the table's columns, named. */
			r = store_rows_create(p->t->ncols);
			for (i = 0; i < p->t->ncols; i++) {
				r->names[i] = xstrdup(p->t->cols[i].name);
				r->fmts[i] = p->t->cols[i].fmt;
			}
			return r;
		}
		first = offset;
		r = store_page_keyed(p, NULL, true, 0, n, cause);
	} else if (d_after >= 0 && d_after < d_start) {
		first = offset;
		r = store_page_keyed(p, p->kto, false, d_after, limit, cause);
	} else if (d_before >= 0 && d_before < d_start) {
		first = offset;
		r = store_page_keyed(p, p->kfrom, true, d_before, limit,
		    cause);
	} else {
		first = offset;
		r = store_page_keyed(p, NULL, false, offset, limit, cause);
	}
	if (r != NULL && r->nrows > 0) {
		p->from = first;
		p->to = first + (int64_t)r->nrows - 1;
	}
	return r;
}

/* LIMIT rows from row OFFSET; NULL with *cause set on failure. */
struct store_rows *
store_page_fetch(struct store_page *p, int64_t offset, int64_t limit,
    char **cause)
{
	struct store_query	 q = p->q;
	struct store_rows	*r;
	int64_t			*ids;
	size_t			 n;

	if (p->scan != NULL) {
		ids = xcalloc(limit > 0 ? (size_t)limit : 1, sizeof *ids);
		n = store_scan_ids(p->scan, offset, limit > 0 ? (size_t)limit :
		    0, ids);
		r = store_query_by_ids(p->s, p->t, &p->q, ids, n, cause);
		free(ids);
		return r;
	}
	if (p->keyset)
		return store_page_fetch_keyed(p, offset, limit, cause);
	q.offset = offset;
	q.limit = limit;
	return store_query_table(p->s, p->t, &q, cause);
}

/*
 * Count without the joins: only without a filter, on a task table. The
 * tasks op_summary leaves out (unlisted, few, with an index of their own)
 * are counted apart and taken off, so the count needs no table scan.
 */
static int64_t
store_page_count_base(struct store_page *p)
{
	sqlite3_stmt	*stmt;
	struct strbuf	 b, w;
	int64_t		 n = -1;
	int		 i, k, nb;

	strbuf_init(&b);
	strbuf_init(&w);
	if (p->q.device != NP_NA)
		strbuf_adds(&w, " AND t.device = ?");
	if (p->q.rank != NP_NA)
		strbuf_adds(&w, " AND t.rank = ?");
	strbuf_addf(&b, "SELECT (SELECT count(*) FROM task t WHERE 1%s)",
	    w.s != NULL ? w.s : "");
	nb = 1;
	if (p->t->where != NULL) {
		strbuf_addf(&b, " - (SELECT count(*) FROM task t WHERE"
		    " t.unlisted IS NOT NULL%s)", w.s != NULL ? w.s : "");
		nb = 2;
	}
	strbuf_release(&w);
	if (sqlite3_prepare_v2(p->s->db, b.s, -1, &stmt, NULL) == SQLITE_OK) {
		for (i = 0, k = 0; k < nb; k++) {
			if (p->q.device != NP_NA)
				sqlite3_bind_int64(stmt, ++i, p->q.device);
			if (p->q.rank != NP_NA)
				sqlite3_bind_int64(stmt, ++i, p->q.rank);
		}
		if (sqlite3_step(stmt) == SQLITE_ROW)
			n = sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
	}
	strbuf_release(&b);
	return n;
}

/* The number of rows, counted the first time it is asked; -1 on error. */
int64_t
store_page_count(struct store_page *p)
{
	struct store_page_state	 st;
	char			*cause = NULL;

	if (p->count >= 0)
		return p->count;
	if (p->scan != NULL) {
		store_scan_state(p->scan, &st);
		if (st.phase == NULL && st.error == NULL)
			p->count = st.found;
		return p->count;
	}
	if (p->keyset && (p->filter == NULL || *p->filter == '\0') &&
	    p->q.from_ns == NP_NA)
		p->count = store_page_count_base(p);
	if (p->count < 0) {
		p->count = store_query_count(p->s, p->t, &p->q, &cause);
		free(cause);
	}
	return p->count;
}

/*
 * How far the pager's background scan got. Without one, or once it is
 * done, PHASE is NULL and FOUND is the count if known.
 */
void
store_page_state(struct store_page *p, struct store_page_state *st)
{
	memset(st, 0, sizeof *st);
	st->found = p->count;
	st->total = p->count;
	if (p->scan != NULL)
		store_scan_state(p->scan, st);
}
