/*
 * Queries over the named tables: the SQL is built from a table's spec and
 * the user's sort, filter, device, rank and time window; values come back
 * formatted the way the vendor prints them, as plain copies.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

struct store_sql {
	struct strbuf	 b;
	int64_t		 binds[12];
	int		 nbinds;
};

static char	*store_query_select_sql(struct store *,
		     const struct store_table *, const struct store_query *,
		     const char *, const char *, bool, int64_t *, int *,
		     struct matcher **, char **);

void
store_query_init(struct store_query *q)
{
	memset(q, 0, sizeof *q);
	q->device = NP_NA;
	q->rank = NP_NA;
	q->from_ns = NP_NA;
	q->step = NP_NA;
	q->to_ns = NP_NA;
	q->origin = -1;
	q->limit = -1;
}

/* The FROM clause: a statistic table restricted to one origin if asked. */
static const char *
store_query_from(const struct store_table *t, const struct store_query *q)
{
	return q->origin >= 0 && t->all != NULL ? t->all : t->from;
}

/*
 * Find column NAME: exact (case-insensitive) first, then a unique prefix,
 * then a unique substring ("duration" finds "Task Duration(us)"). Return
 * -1 if none matches, -2 if several do.
 */
int
store_query_col(const struct store_table *t, const char *name, size_t len)
{
	char	*key;
	size_t	 i;
	int	 found = -1, pass;

	for (i = 0; i < t->ncols; i++) {
		if (strlen(t->cols[i].name) == len &&
		    strncasecmp(t->cols[i].name, name, len) == 0)
			return (int)i;
	}
	key = xstrndup(name, len);
	for (pass = 0; pass < 2 && found == -1; pass++) {
		for (i = 0; i < t->ncols; i++) {
			if (pass == 0 ? strncasecmp(t->cols[i].name, key,
			    len) != 0 : strcasestr(t->cols[i].name, key) ==
			    NULL)
				continue;
			if (found != -1) {
				found = -2;
				break;
			}
			found = (int)i;
		}
	}
	free(key);
	return found;
}

/*
 * The names of the columns of T that NAME (LEN bytes) is the start of,
 * or else (none is) a part of: the candidates of an ambiguous name.
 */
static char *
store_query_col_candidates(const struct store_table *t, const char *name,
    size_t len)
{
	struct strbuf	 b;
	char		*key;
	size_t		 i;
	int		 pass;

	strbuf_init(&b);
	key = xstrndup(name, len);
	for (pass = 0; pass < 2 && b.len == 0; pass++) {
		for (i = 0; i < t->ncols; i++) {
			if (pass == 0 ? strncasecmp(t->cols[i].name, key,
			    len) == 0 : strcasestr(t->cols[i].name, key) !=
			    NULL)
				strbuf_addf(&b, "%s'%s'", b.len > 0 ? ", " : "",
				    t->cols[i].name);
		}
	}
	free(key);
	return strbuf_detach(&b);
}

static char *
store_query_colnames(const struct store_table *t)
{
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	for (i = 0; i < t->ncols; i++)
		strbuf_addf(&b, "%s'%s'", i == 0 ? "" : ", ", t->cols[i].name);
	return strbuf_detach(&b);
}

static size_t	 store_query_pmu_names(struct store *, char ***);

/*
 * The SQL of PMU column NAME (LEN bytes) of S, "np_pmu(t.pmu, K)", or
 * NULL if the store's PMU columns have no such name.
 */
static char *
store_query_pmu_col(struct store *s, const char *name, size_t len)
{
	char	**names, *expr = NULL;
	size_t	  n, i;

	n = store_query_pmu_names(s, &names);
	for (i = 0; i < n && expr == NULL; i++) {
		if (strlen(names[i]) == len &&
		    strncasecmp(names[i], name, len) == 0)
			xasprintf(&expr, "np_pmu(t.pmu, %zu)", i);
	}
	if (names != NULL)
		util_strv_free(names, n);
	return expr;
}

/*
 * Append ORDER BY for SPEC ("col", "-col", comma-separated); a PMU column
 * of S, named in full, sorts by its value.
 */
static int
store_query_order(struct store *s, const struct store_table *t,
    const char *spec, struct strbuf *b, char **cause)
{
	const char	*p = spec, *end;
	char		*names, *pmu;
	bool		 desc = false;
	int		 col;
	size_t		 start;

	strbuf_adds(b, " ORDER BY ");
	start = b->len;
	while (*p != '\0') {
		desc = false;
		if (*p == '-' || *p == '+')
			desc = *p++ == '-';
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		if (end == p) {
			xasprintf(cause, "empty sort column in '%s'", spec);
			return -1;
		}
		col = store_query_col(t, p, (size_t)(end - p));
		if (col == -1 && (t->flags & TABLE_PMU) && (pmu =
		    store_query_pmu_col(s, p, (size_t)(end - p))) != NULL) {
			strbuf_addf(b, "%s%s, ", pmu, desc ? " DESC" : "");
			free(pmu);
			p = *end == ',' ? end + 1 : end;
			continue;
		}
		if (col < 0) {
			names = store_query_colnames(t);
			xasprintf(cause, "%s sort column '%.*s' in %s "
			    "(columns: %s)", col == -2 ? "ambiguous" :
			    "unknown", (int)(end - p), p, t->name, names);
			free(names);
			return -1;
		}
		p = *end == ',' ? end + 1 : end;
		/*
		 * Ascending on the first column of the default order is that
		 * order: said once, it can come from an index.
		 */
		if (!desc && *p == '\0' && b->len == start &&
		    strncmp(t->order, t->cols[col].expr,
		    strlen(t->cols[col].expr)) == 0 &&
		    t->order[strlen(t->cols[col].expr)] == ',')
			break;
		strbuf_addf(b, "%s%s%s, ", t->cols[col].expr,
		    t->cols[col].fmt == FMT_NUMTEXT ? " COLLATE NUMTEXT" : "",
		    desc ? " DESC" : "");
	}
	/*
	 * A sorted task table breaks ties by row id, the order the tasks
	 * were read in, the way the last sort column goes: a descending
	 * sort is the ascending one reversed, and the UI's index and
	 * in-memory sorts (store-page.c, store-sort.c) give the same order.
	 */
	if (b->len > start && strcmp(t->order, STORE_TASK_ORDER) == 0)
		strbuf_adds(b, desc ? "t.id DESC" : "t.id");
	else
		strbuf_adds(b, t->order);
	return 0;
}

/*
 * Whether column expression EXPR of table T is a string the table joins
 * from str by id ("n.s" with "JOIN str n ON n.id = t.name"); if so, COL
 * (SIZE bytes) gets the id's column, "t.name".
 */
bool
store_query_str_col(const struct store_table *t, const char *expr,
    char *col, size_t size)
{
	const char	*p;
	char		 pat[64];
	size_t		 len = strlen(expr), n;

	if (len < 3 || len > 16 || strcmp(expr + len - 2, ".s") != 0)
		return false;
	snprintf(pat, sizeof pat, "JOIN str %.*s ON %.*s.id = t.",
	    (int)(len - 2), expr, (int)(len - 2), expr);
	if ((p = strstr(t->from, pat)) == NULL)
		return false;
	p += strlen(pat);
	n = strspn(p, STORE_IDENT_CHARS);
	if (n == 0 || n + 3 > size)
		return false;
	snprintf(col, size, "t.%.*s", (int)n, p);
	return true;
}

/*
 * Whether column C of T is a number and nothing else: a column of the
 * task table, whose numbers are written as integers or NULL (shown as
 * N/A), in a format that prints numbers.
 */
static bool
store_query_num_col(const struct store_table *t, const struct store_col *c)
{
	if (strncmp(t->from, "task t", 6) != 0 || (t->from[6] != '\0' &&
	    t->from[6] != ' ') || strncmp(c->expr, "t.", 2) != 0 ||
	    strspn(c->expr + 2, STORE_IDENT_CHARS) != strlen(c->expr + 2))
		return false;
	switch (c->fmt) {
	case FMT_INT:
	case FMT_US:
	case FMT_US3:
	case FMT_US6:
	case FMT_REAL3:
	case FMT_DEVICE:
		return true;
	default:
		return false;
	}
}

/*
 * Which columns of T filter FILTER reads, into USE (T->ncols of them),
 * and its matcher into *M: one column if it starts "col:", else every
 * column, but the number columns only if the regex may match a number
 * (reading them is most of a filter's time). -1 with *cause set for a
 * bad regex, or a "col:" that names several columns (which, taken as a
 * regex of the whole row, would match nothing without a word).
 */
int
store_query_filter_cols(const struct store_table *t, const char *filter,
    bool *use, struct matcher **m, char **cause)
{
	const char	*colon;
	char		*names;
	size_t		 i;
	int		 only = -1;
	bool		 nums;

	if ((colon = strchr(filter, ':')) != NULL && colon != filter &&
	    (only = store_query_col(t, filter, (size_t)(colon - filter)))
	    >= 0)
		filter = colon + 1;
	else if (only == -2) {
		names = store_query_col_candidates(t, filter,
		    (size_t)(colon - filter));
		xasprintf(cause, "ambiguous filter column '%.*s' (%s): give "
		    "more of its name, or \\: for a colon of the regex",
		    (int)(colon - filter), filter, names);
		free(names);
		return -1;
	}
	if ((*m = matcher_create(filter, false, cause)) == NULL)
		return -1;
	nums = matcher_may_match_chars(*m, STORE_NUM_CHARS);
	for (i = 0; i < t->ncols; i++)
		use[i] = (only < 0 || (int)i == only) &&
		    (nums || !store_query_num_col(t, &t->cols[i]));
	return 0;
}

/*
 * Append the WHERE clause for Q; a filter becomes np_match() of each
 * column's value and format it reads, a string joined from str by its
 * id.
 */
static int
store_query_where(struct store *s, const struct store_table *t,
    const struct store_query *q, struct store_sql *sql,
    struct matcher **m, char **cause)
{
	char		 col[64];
	size_t		 i, n;
	bool		*use;

	strbuf_adds(&sql->b, " WHERE 1");
	if (t->where != NULL)
		strbuf_addf(&sql->b, " AND %s", t->where);
	if (q->origin >= 0 && t->all != NULL)
		strbuf_addf(&sql->b, " AND origin = %d", q->origin);
	if (q->device != NP_NA && t->device != NULL) {
		strbuf_addf(&sql->b, " AND %s = ?", t->device);
		sql->binds[sql->nbinds++] = q->device;
	}
	if (q->rank != NP_NA && t->rank != NULL) {
		strbuf_addf(&sql->b, strchr(t->rank, '?') != NULL ?
		    " AND %s" : " AND %s = ?", t->rank);
		sql->binds[sql->nbinds++] = q->rank;
	}
	if (q->from_ns != NP_NA && t->time != NULL) {
		/* Every device named, so the (device, start) index serves. */
		strbuf_adds(&sql->b, " AND ");
		if (q->device == NP_NA && t->device != NULL &&
		    strcmp(t->device, "t.device") == 0)
			store_window_devices(s, &sql->b);
		strbuf_addf(&sql->b, " %s >= ? AND %s < ?", t->time, t->time);
		sql->binds[sql->nbinds++] = q->from_ns;
		sql->binds[sql->nbinds++] = q->to_ns;
	}
	if (q->step != NP_NA && t->step != NULL) {
		strbuf_addf(&sql->b, " AND %s = ?", t->step);
		sql->binds[sql->nbinds++] = q->step;
	}
	*m = NULL;
	if (q->filter == NULL || *q->filter == '\0')
		return 0;
	use = xcalloc(t->ncols > 0 ? t->ncols : 1, sizeof *use);
	if (store_query_filter_cols(t, q->filter, use, m, cause) != 0) {
		free(use);
		return -1;
	}
	store_register_match(s, *m);
	strbuf_adds(&sql->b, " AND np_match(");
	for (i = 0, n = 0; i < t->ncols; i++) {
		if (!use[i])
			continue;
		if (store_query_str_col(t, t->cols[i].expr, col, sizeof col))
			strbuf_addf(&sql->b, "%s%s, %d", n++ == 0 ? "" : ", ",
			    col, STORE_FMT_STRID);
		else
			strbuf_addf(&sql->b, "%s%s, %d", n++ == 0 ? "" : ", ",
			    t->cols[i].expr, (int)t->cols[i].fmt);
	}
	strbuf_adds(&sql->b, ")");
	free(use);
	return 0;
}

static sqlite3_stmt *
store_query_prepare(struct store *s, struct store_sql *sql, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 i;

	if (store_prepare(s, &stmt, sql->b.s, cause) != 0)
		return NULL;
	for (i = 0; i < sql->nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, sql->binds[i]);
	return stmt;
}

static int	 store_query_walk(struct store *, const struct store_table *,
		     const struct store_query *, struct store_keyset *,
		     store_row_cb, void *, char **);

/* Keep the key columns of the row STMT is on (after NCOLS others). */
static void
store_query_keys(sqlite3_stmt *stmt, int ncols, struct store_keyset *k,
    bool first)
{
	int	 i;

	for (i = 0; i < k->nkeys; i++) {
		if (first)
			k->first[i] = sqlite3_column_int64(stmt, ncols + i);
		k->last[i] = sqlite3_column_int64(stmt, ncols + i);
	}
	/* The last key of a task table's keyset is its row id. */
	k->ids = xreallocarray(k->ids, k->nids + 1, sizeof *k->ids);
	k->ids[k->nids++] = k->last[k->nkeys - 1];
}

/*
 * The PMU column names into *NAMES when every task shares one set; return
 * how many (0 for none, or several sets).
 */
static size_t
store_query_pmu_names(struct store *s, char ***names)
{
	struct store_pmu_iter	 it;
	struct store_val	 v;
	sqlite3_stmt		*stmt;
	char			*t, **out = NULL;
	size_t			 n = 0;

	*names = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT names FROM pmu_set WHERE"
	    " (SELECT count(DISTINCT names) FROM pmu_set) = 1 LIMIT 1", -1,
	    &stmt, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		store_pmu_iter_init(&it, sqlite3_column_blob(stmt, 0),
		    (size_t)sqlite3_column_bytes(stmt, 0));
		while (store_pmu_next(&it, &t, &v)) {
			out = xreallocarray(out, n + 1, sizeof *out);
			out[n++] = t;
		}
	}
	sqlite3_finalize(stmt);
	*names = out;
	return n;
}

/*
 * Run Q over table T and call CB with the column names and formats (HDR,
 * no rows): once with CELLS NULL before the first row, then with the
 * formatted cells of each row, in order, without keeping the rows. CB
 * returns 0 to go on; anything else stops the walk and is returned. On a
 * bad sort column, bad regex or SQL error return -1 and set *cause.
 */
int
store_query_each(struct store *s, const struct store_table *t,
    const struct store_query *q, store_row_cb cb, void *arg, char **cause)
{
	return store_query_walk(s, t, q, NULL, cb, arg, cause);
}

/*
 * The SQL of a walk of Q over T into SQL: T's columns, the PMU values if
 * NP names are asked for, K's keys, condition and order if K is not NULL.
 * On a bad sort column or regex return -1 and set *cause.
 */
static int
store_query_walk_sql(struct store *s, const struct store_table *t,
    const struct store_query *q, struct store_keyset *k, size_t np,
    struct store_sql *sql, struct matcher **m, char **cause)
{
	size_t	 i;

	strbuf_adds(&sql->b, "SELECT ");
	for (i = 0; i < t->ncols; i++)
		strbuf_addf(&sql->b, "%s%s", i == 0 ? "" : ", ",
		    t->cols[i].expr);
	if (np > 0)
		strbuf_adds(&sql->b, ", t.pmu");
	if (k != NULL)
		strbuf_addf(&sql->b, ", %s", k->keys);
	strbuf_addf(&sql->b, " FROM %s", store_query_from(t, q));
	if (store_query_where(s, t, q, sql, m, cause) != 0)
		return -1;
	if (k != NULL && k->where != NULL) {
		strbuf_addf(&sql->b, " AND %s", k->where);
		for (i = 0; i < (size_t)k->nkeys; i++)
			sql->binds[sql->nbinds++] = k->at[i];
	}
	if (k != NULL)
		strbuf_addf(&sql->b, " ORDER BY %s", k->order);
	else if (!q->any_order && store_query_order(s, t, q->sort != NULL ?
	    q->sort : "", &sql->b, cause) != 0)
		return -1;
	if (q->limit >= 0) {
		strbuf_addf(&sql->b, " LIMIT %lld OFFSET %lld",
		    (long long)q->limit, (long long)q->offset);
	} else if (q->offset > 0)
		strbuf_addf(&sql->b, " LIMIT -1 OFFSET %lld",
		    (long long)q->offset);
	return 0;
}

/* The header of a walk over T: its columns, then NP PMU columns. */
static struct store_rows *
store_query_walk_header(const struct store_table *t, char **pnames,
    size_t np)
{
	struct store_rows	*r;
	size_t			 i;

	r = store_rows_create(t->ncols + np);
	for (i = 0; i < t->ncols; i++) {
		r->names[i] = xstrdup(t->cols[i].name);
		r->fmts[i] = t->cols[i].fmt;
	}
	for (i = 0; i < np; i++) {
		r->names[t->ncols + i] = xstrdup(pnames[i]);
		r->fmts[t->ncols + i] = FMT_NUMTEXT;
	}
	return r;
}

/*
 * The cells and numbers of the row STMT is on: T's columns formatted,
 * then NP PMU values (N/A where the task has fewer).
 */
static void
store_query_walk_row(sqlite3_stmt *stmt, const struct store_table *t,
    size_t np, char **cells, struct store_val *vals)
{
	struct store_pmu_iter	 it;
	size_t			 i;

	for (i = 0; i < t->ncols; i++) {
		cells[i] = store_fmt_dup(sqlite3_column_value(stmt, (int)i),
		    t->cols[i].fmt, &vals[i]);
	}
	if (np == 0)
		return;
	store_pmu_iter_init(&it, sqlite3_column_blob(stmt, (int)t->ncols),
	    (size_t)sqlite3_column_bytes(stmt, (int)t->ncols));
	for (i = t->ncols; i < t->ncols + np; i++) {
		if (!store_pmu_next(&it, &cells[i], &vals[i])) {
			cells[i] = xstrdup("N/A");
			vals[i].kind = VAL_NONE;
		}
	}
}

/*
 * store_query_each() with a keyset: K, if not NULL, replaces the order
 * with its own, adds its condition (a position in that order) and records
 * the keys of the first and last rows, for paging without OFFSET
 * (store-page.c).
 */
static int
store_query_walk(struct store *s, const struct store_table *t,
    const struct store_query *q, struct store_keyset *k, store_row_cb cb,
    void *arg, char **cause)
{
	struct store_sql	 sql;
	struct store_rows	*r = NULL;
	struct matcher		*m = NULL;
	sqlite3_stmt		*stmt = NULL;
	char			**pnames = NULL, **cells = NULL;
	struct store_val	*vals = NULL;
	size_t			 i, np = 0, nc;
	int			 rc = SQLITE_DONE, ret = -1;
	int64_t			 nrows = 0;

	memset(&sql, 0, sizeof sql);
	strbuf_init(&sql.b);
	if (t->flags & TABLE_PMU)
		np = store_query_pmu_names(s, &pnames);
	if (store_query_walk_sql(s, t, q, k, np, &sql, &m, cause) != 0 ||
	    (stmt = store_query_prepare(s, &sql, cause)) == NULL)
		goto out;

	r = store_query_walk_header(t, pnames, np);
	nc = t->ncols + np;
	cells = xcalloc(nc, sizeof *cells);
	vals = xcalloc(nc, sizeof *vals);
	ret = cb(arg, r, NULL, NULL);
	while (ret == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		store_query_walk_row(stmt, t, np, cells, vals);
		if (k != NULL)
			store_query_keys(stmt, (int)(t->ncols + (np > 0)), k,
			    nrows == 0);
		nrows++;
		ret = cb(arg, r, cells, vals);
		for (i = 0; i < nc; i++)
			free(cells[i]);
	}
	if (ret == 0 && rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read %s: %s", t->name,
		    sqlite3_errmsg(s->db));
		ret = -1;
	}
out:
	free(cells);
	free(vals);
	store_rows_free(r);
	sqlite3_finalize(stmt);
	matcher_free(m);
	if (pnames != NULL)
		util_strv_free(pnames, np);
	strbuf_release(&sql.b);
	return ret;
}

/* The index of the row with id ID in R, whose ids ascend; -1 if none. */
static size_t
store_query_find_id(const struct store_rows *r, int64_t id)
{
	size_t	 lo = 0, hi = r->nrows, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nrows && r->ids[lo] == id ? lo : (size_t)-1;
}

/* Keep a copy of each row in the result ARG. */
static int
store_query_keep(void *arg, const struct store_rows *hdr, char **cells,
    const struct store_val *vals)
{
	struct store_rows	**r = arg;
	char			**copy;
	size_t			  i;

	if (cells == NULL) {
		*r = store_rows_create(hdr->ncols);
		for (i = 0; i < hdr->ncols; i++) {
			(*r)->names[i] = xstrdup(hdr->names[i]);
			(*r)->fmts[i] = hdr->fmts[i];
		}
		return 0;
	}
	copy = xcalloc(hdr->ncols, sizeof *copy);
	for (i = 0; i < hdr->ncols; i++)
		copy[i] = xstrdup(cells[i]);
	store_rows_add(*r, copy, vals);
	free(copy);
	return 0;
}

/*
 * Run Q over table T and return the formatted rows. On a bad sort column,
 * bad regex or SQL error return NULL and set *cause.
 */
struct store_rows *
store_query_table(struct store *s, const struct store_table *t,
    const struct store_query *q, char **cause)
{
	return store_query_run(s, t, q, NULL, cause);
}

/* store_query_table() with the keyset K of store_query_walk(). */
struct store_rows *
store_query_run(struct store *s, const struct store_table *t,
    const struct store_query *q, struct store_keyset *k, char **cause)
{
	struct store_rows	*r = NULL;

	if (k != NULL) {
		k->ids = NULL;
		k->nids = 0;
	}
	if (store_query_walk(s, t, q, k, store_query_keep, &r, cause) != 0) {
		store_rows_free(r);
		if (k != NULL)
			free(k->ids);
		return NULL;
	}
	if (k != NULL && k->nids == r->nrows) {
		r->ids = k->ids;
		k->ids = NULL;
	} else if (k != NULL)
		free(k->ids);
	return r;
}

/*
 * The SQL that lists the row ids Q selects from task table T, in Q's
 * order, with EXTRA (if not NULL) added to the WHERE clause. The values
 * to bind go to BINDS (room for 12) and their count to *NBINDS; *M gets
 * the filter's matcher, registered on S, for the caller to free after the
 * statement. NULL with *cause set on a bad sort column or regex.
 */
char *
store_query_ids_sql(struct store *s, const struct store_table *t,
    const struct store_query *q, const char *extra, int64_t *binds,
    int *nbinds, struct matcher **m, char **cause)
{
	return store_query_select_sql(s, t, q, "t.id", extra, true, binds,
	    nbinds, m, cause);
}

/*
 * As store_query_ids_sql, but selecting COLS, in no order: the rows
 * come as SQLite finds them, for the caller to sort.
 */
char *
store_query_keys_sql(struct store *s, const struct store_table *t,
    const struct store_query *q, const char *cols, const char *extra,
    int64_t *binds, int *nbinds, struct matcher **m, char **cause)
{
	return store_query_select_sql(s, t, q, cols, extra, false, binds,
	    nbinds, m, cause);
}

/* The SQL of store_query_ids_sql and store_query_keys_sql. */
static char *
store_query_select_sql(struct store *s, const struct store_table *t,
    const struct store_query *q, const char *cols, const char *extra,
    bool order, int64_t *binds, int *nbinds, struct matcher **m,
    char **cause)
{
	struct store_sql	 sql;

	memset(&sql, 0, sizeof sql);
	strbuf_init(&sql.b);
	strbuf_addf(&sql.b, "SELECT %s FROM %s", cols,
	    store_query_from(t, q));
	if (store_query_where(s, t, q, &sql, m, cause) == 0) {
		if (extra != NULL)
			strbuf_addf(&sql.b, " AND %s", extra);
		if (!order || store_query_order(s, t, q->sort != NULL ?
		    q->sort : "", &sql.b, cause) == 0) {
			memcpy(binds, sql.binds, sizeof sql.binds);
			*nbinds = sql.nbinds;
			return strbuf_detach(&sql.b);
		}
	}
	matcher_free(*m);
	*m = NULL;
	strbuf_release(&sql.b);
	return NULL;
}

/*
 * The rows of task table T with the N row ids IDS, in that order (Q gives
 * the PMU columns and nothing else: the ids are already sorted and
 * filtered). NULL with *cause set on an SQL error.
 */
struct store_rows *
store_query_by_ids(struct store *s, const struct store_table *t,
    const struct store_query *q, const int64_t *ids, size_t n, char **cause)
{
	struct store_keyset	 k;
	struct store_query	 all;
	struct store_rows	*r, *out;
	struct strbuf		 where;
	size_t			 i, j;

	store_query_init(&all);
	all.origin = q->origin;
	memset(&k, 0, sizeof k);
	k.keys = "t.id";
	k.order = "t.id";
	k.nkeys = 1;
	strbuf_init(&where);
	strbuf_adds(&where, "t.id IN (");
	for (i = 0; i < n; i++)
		strbuf_addf(&where, "%s%lld", i > 0 ? "," : "",
		    (long long)ids[i]);
	strbuf_adds(&where, ")");
	k.where = n > 0 ? where.s : "0";
	r = store_query_run(s, t, &all, &k, cause);
	strbuf_release(&where);
	if (r == NULL || r->ids == NULL)
		return r;
	/* Put the rows, which came in id order, in the order of IDS. */
	out = store_rows_create(r->ncols);
	for (j = 0; j < r->ncols; j++) {
		out->names[j] = xstrdup(r->names[j]);
		out->fmts[j] = r->fmts[j];
	}
	out->ids = xcalloc(n > 0 ? n : 1, sizeof *out->ids);
	for (i = 0; i < n; i++) {
		j = store_query_find_id(r, ids[i]);
		if (j == (size_t)-1)
			continue;
		out->ids[out->nrows] = ids[i];
		store_rows_add(out, r->cells + j * r->ncols,
		    r->vals + j * r->ncols);
		memset(r->cells + j * r->ncols, 0, r->ncols *
		    sizeof *r->cells);
	}
	store_rows_free(r);
	return out;
}

/*
 * store_query_table() on task table T with each row's task row id in the
 * rows' ids, for a view that goes from a row to its task: the ids of Q's
 * rows first, then those rows. NULL with *cause set on an error.
 */
struct store_rows *
store_query_table_ids(struct store *s, const struct store_table *t,
    const struct store_query *q, char **cause)
{
	struct store_rows	*r = NULL;
	struct matcher		*m = NULL;
	sqlite3_stmt		*stmt;
	int64_t			 binds[12], *ids = NULL, skip = 0;
	size_t			 n = 0;
	int			 nbinds = 0, i, rc = SQLITE_DONE;
	char			*sql;

	if ((sql = store_query_ids_sql(s, t, q, NULL, binds, &nbinds, &m,
	    cause)) == NULL)
		return NULL;
	rc = store_prepare(s, &stmt, sql, cause);
	free(sql);
	if (rc != 0) {
		matcher_free(m);
		return NULL;
	}
	for (i = 0; i < nbinds; i++)
		sqlite3_bind_int64(stmt, i + 1, binds[i]);
	/* The SQL has no LIMIT (the scans share it): Q's is kept here. */
	while ((q->limit < 0 || (int64_t)n < q->limit) &&
	    (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (skip < q->offset) {
			skip++;
			continue;
		}
		ids = util_grow(ids, n, 1, sizeof *ids);
		ids[n++] = sqlite3_column_int64(stmt, 0);
	}
	if (q->limit >= 0 && (int64_t)n >= q->limit)
		rc = SQLITE_DONE;
	if (rc != SQLITE_DONE)
		xasprintf(cause, "cannot read %s: %s", t->name,
		    sqlite3_errmsg(s->db));
	sqlite3_finalize(stmt);
	matcher_free(m);
	if (rc == SQLITE_DONE)
		r = store_query_by_ids(s, t, q, ids, n, cause);
	free(ids);
	return r;
}

/* How many rows Q selects from T, or -1 with *cause set. */
int64_t
store_query_count(struct store *s, const struct store_table *t,
    const struct store_query *q, char **cause)
{
	struct store_sql	 sql;
	struct matcher		*m = NULL;
	sqlite3_stmt		*stmt = NULL;
	int64_t			 n = -1;

	memset(&sql, 0, sizeof sql);
	strbuf_init(&sql.b);
	strbuf_addf(&sql.b, "SELECT count(*) FROM %s", store_query_from(t, q));
	if (store_query_where(s, t, q, &sql, &m, cause) == 0 &&
	    (stmt = store_query_prepare(s, &sql, cause)) != NULL) {
		if (sqlite3_step(stmt) == SQLITE_ROW)
			n = sqlite3_column_int64(stmt, 0);
		else
			xasprintf(cause, "cannot count %s: %s", t->name,
			    sqlite3_errmsg(s->db));
	}
	sqlite3_finalize(stmt);
	matcher_free(m);
	strbuf_release(&sql.b);
	return n;
}

/* Add device ID to the sorted set *IDS of *N unless it is there. */
static void
store_query_devices_add(int64_t **ids, size_t *n, int64_t id)
{
	size_t	 i, j;

	for (i = 0; i < *n && (*ids)[i] < id; i++)
		continue;
	if (i < *n && (*ids)[i] == id)
		return;
	*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
	for (j = *n; j > i; j--)
		(*ids)[j] = (*ids)[j - 1];
	(*ids)[i] = id;
	(*n)++;
}

/* Add every non-NULL id the query SQL yields to the set *IDS of *N. */
static int
store_query_devices_union(struct store *s, const char *sql, int64_t **ids,
    size_t *n, char **cause)
{
	sqlite3_stmt	*stmt;

	if (store_prepare(s, &stmt, sql, cause) != 0)
		return -1;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 0) != SQLITE_NULL)
			store_query_devices_add(ids, n,
			    sqlite3_column_int64(stmt, 0));
	}
	sqlite3_finalize(stmt);
	return 0;
}

/*
 * Add the devices of the task rows to the set *IDS of *N, walking the
 * task table one device at a time through its index (a loose index
 * scan): a few lookups, not a pass over millions of rows.
 */
static int
store_query_devices_walk(struct store *s, int64_t **ids, size_t *n,
    char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 last = INT64_MIN;

	if (store_prepare(s, &stmt, "SELECT min(device) FROM task WHERE"
	    " device > ?", cause) != 0)
		return -1;
	for (;;) {
		sqlite3_bind_int64(stmt, 1, last);
		if (sqlite3_step(stmt) != SQLITE_ROW ||
		    sqlite3_column_type(stmt, 0) == SQLITE_NULL)
			break;
		last = sqlite3_column_int64(stmt, 0);
		store_query_devices_add(ids, n, last);
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	return 0;
}

/*
 * The device ids with data, ascending, host last. The task groups of
 * task_sum name every task's device in a few rows; where it has none (no
 * tasks, or a sum too large to keep), the task table is walked.
 */
int
store_query_devices(struct store *s, int64_t **ids, size_t *n, char **cause)
{
	*ids = NULL;
	*n = 0;
	if ((store_exists(s, "SELECT 1 FROM task_sum") ?
	    store_query_devices_union(s, "SELECT DISTINCT device FROM"
	    " task_sum", ids, n, cause) : store_query_devices_walk(s, ids, n,
	    cause)) != 0 ||
	    store_query_devices_union(s,
	    "SELECT device FROM op_stat UNION SELECT"
	    " device FROM api_stat", ids, n, cause) != 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* Whether a vendor table of S has a row WHERE (an SQL condition). */
static bool
store_query_generic_has(struct store *s, const char *where)
{
	sqlite3_stmt	*stmt;
	struct strbuf	 b;
	char		*why = NULL;
	bool		 found = false;

	if (store_prepare(s, &stmt, "SELECT tbl FROM generic", &why) != 0) {
		free(why);
		return false;
	}
	strbuf_init(&b);
	while (!found && sqlite3_step(stmt) == SQLITE_ROW) {
		strbuf_reset(&b);
		strbuf_adds(&b, "SELECT 1 FROM ");
		store_load_quote_ident(&b, (const char *)
		    sqlite3_column_text(stmt, 0));
		strbuf_addf(&b, " WHERE %s LIMIT 1", where);
		found = store_exists(s, b.s);
	}
	sqlite3_finalize(stmt);
	strbuf_release(&b);
	return found;
}

/*
 * Whether S has anything of DEVICE: a task, span, lane, counter sample,
 * flow or vendor table row. For the question a --device the device list
 * lacks asks; each table is looked up until one has it.
 */
bool
store_query_has_device(struct store *s, int64_t device)
{
	static const char *const tables[] = { "task", "api", "lane",
	    "counter", "flow", "op_stat", "api_stat", "step" };
	char	*sql;
	bool	 found = false;
	size_t	 i;

	for (i = 0; i < sizeof tables / sizeof *tables && !found; i++) {
		xasprintf(&sql, "SELECT 1 FROM %s WHERE device = %lld LIMIT 1",
		    tables[i], (long long)device);
		found = store_exists(s, sql);
		free(sql);
	}
	if (!found) {
		xasprintf(&sql, "_device = %lld", (long long)device);
		found = store_query_generic_has(s, sql);
		free(sql);
	}
	return found;
}

/*
 * Whether a vendor table of S (a cluster of communication files only has
 * no others) has rows of RANK, or of any rank for NP_NA: for the question
 * a --rank store_query_ranks() lacks asks, a table at a time.
 */
bool
store_query_has_rank(struct store *s, int64_t rank)
{
	char	*where;
	bool	 found;

	if (rank == NP_NA)
		return store_query_generic_has(s, "_rank IS NOT NULL");
	xasprintf(&where, "_rank = %lld", (long long)rank);
	found = store_query_generic_has(s, where);
	free(where);
	return found;
}

/*
 * The ranks with data, ascending. Every task row and CANN span is counted
 * in op_statistic or api_statistic, so those small tables (and the steps)
 * name them all without a pass over millions of rows.
 */
int
store_query_ranks(struct store *s, int64_t **ids, size_t *n, char **cause)
{
	*ids = NULL;
	*n = 0;
	return store_query_devices_union(s,
	    "SELECT rank FROM op_stat UNION SELECT"
	    " rank FROM api_stat UNION SELECT rank FROM step", ids, n, cause);
}
