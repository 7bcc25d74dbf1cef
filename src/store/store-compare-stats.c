/*
 * op_statistic_compare and api_statistic_compare: the statistic tables of
 * two runs side by side, for any input (raw collections, legacy JOBs and
 * SVP runs too, which msprof-analyze does not compare): per op type and
 * core type (per API level and name) the count, total and average time
 * (us) of each run, NEW's total less BASE's and NEW's over BASE's,
 * summed over the devices (and iterations) of the run, rows with the
 * largest difference first.
 */
#include <sys/types.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* A row of a statistic of one run: its key, count and total. */
struct stat_row {
	char		*a;
	char		*b;
	int64_t		 count;
	int64_t		 ns;
	bool		 used;
};

struct stat_side {
	struct stat_row	*v;
	size_t		 n;
};

static void
store_compare_stats_free(struct stat_side *sd)
{
	size_t	 i;

	for (i = 0; i < sd->n; i++) {
		free(sd->v[i].a);
		free(sd->v[i].b);
	}
	free(sd->v);
}

/* The rows SQL gives for S and RANK in *SD: key, key, count, total ns. */
static int
store_compare_stats_of(struct store *s, const char *sql, int64_t rank,
    struct stat_side *sd, char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*a, *b;
	int		 rc;

	memset(sd, 0, sizeof *sd);
	if (store_prepare(s, &stmt, sql, cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		a = (const char *)sqlite3_column_text(stmt, 0);
		b = (const char *)sqlite3_column_text(stmt, 1);
		sd->v = util_grow(sd->v, sd->n, 1, sizeof *sd->v);
		sd->v[sd->n].a = xstrdup(a != NULL ? a : "N/A");
		sd->v[sd->n].b = xstrdup(b != NULL ? b : "N/A");
		sd->v[sd->n].count = sqlite3_column_int64(stmt, 2);
		sd->v[sd->n].ns = sqlite3_column_int64(stmt, 3);
		sd->v[sd->n].used = false;
		sd->n++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the statistics of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		store_compare_stats_free(sd);
		return -1;
	}
	return 0;
}

/* Cells AT.. of row R (NULL: none): count, total and average (us). */
static void
store_compare_stats_cells(char **cells, struct store_val *vals, size_t at,
    const struct stat_row *r)
{
	xasprintf(&cells[at], "%lld", (long long)(r != NULL ? r->count : 0));
	vals[at].kind = VAL_INT;
	vals[at].i = r != NULL ? r->count : 0;
	store_compare_num(cells, vals, at + 1, r != NULL ?
	    store_compare_round((double)r->ns / 1000.0, 3) : 0);
	store_compare_num(cells, vals, at + 2, r != NULL && r->count > 0 ?
	    store_compare_round((double)r->ns / 1000.0 / (double)r->count,
	    3) : 0);
}

struct stat_out {
	char		**cells;
	struct store_val *vals;
	double		 diff;
	size_t		 order;
};

static int
store_compare_stats_cmp(const void *a, const void *b)
{
	const struct stat_out	*x = a, *y = b;

	if (fabs(x->diff) != fabs(y->diff))
		return fabs(x->diff) > fabs(y->diff) ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The table of NAMES (10 columns) from SQL on both runs. */
static struct store_rows *
store_compare_stats(struct store *base, struct store *new,
    const struct store_compare *o, const char *sql,
    const char *const *names, char **cause)
{
	struct stat_side	 b, c;
	struct stat_out		*out = NULL;
	struct store_rows	*r;
	const struct stat_row	*x, *y;
	size_t			 n = 0, i, j;
	double			 bt, ct;

	if (store_compare_stats_of(base, sql, o->base_rank, &b, cause) != 0)
		return NULL;
	if (store_compare_stats_of(new, sql, o->rank, &c, cause) != 0) {
		store_compare_stats_free(&b);
		return NULL;
	}
	r = store_compare_rows(names, 10, "TTIRRIRRRR");
	for (i = 0; i < b.n + c.n; i++) {
		x = i < b.n ? &b.v[i] : NULL;
		y = NULL;
		if (x != NULL) {
			for (j = 0; j < c.n && y == NULL; j++) {
				if (!c.v[j].used && strcmp(c.v[j].a, x->a) ==
				    0 && strcmp(c.v[j].b, x->b) == 0) {
					c.v[j].used = true;
					y = &c.v[j];
				}
			}
		} else if (!c.v[i - b.n].used)
			y = &c.v[i - b.n];
		else
			continue;
		out = util_grow(out, n, 1, sizeof *out);
		out[n].cells = xcalloc(10, sizeof *out[n].cells);
		out[n].vals = xcalloc(10, sizeof *out[n].vals);
		out[n].order = n;
		out[n].cells[0] = xstrdup(x != NULL ? x->a : y->a);
		out[n].cells[1] = xstrdup(x != NULL ? x->b : y->b);
		store_compare_stats_cells(out[n].cells, out[n].vals, 2, x);
		store_compare_stats_cells(out[n].cells, out[n].vals, 5, y);
		bt = x != NULL ? (double)x->ns / 1000.0 : 0;
		ct = y != NULL ? (double)y->ns / 1000.0 : 0;
		out[n].diff = store_compare_round(ct - bt, 3) + 0.0;
		store_compare_num(out[n].cells, out[n].vals, 8, out[n].diff);
		store_compare_num(out[n].cells, out[n].vals, 9,
		    store_compare_ratio(bt, ct));
		n++;
	}
	if (n > 1)
		qsort(out, n, sizeof *out, store_compare_stats_cmp);
	for (i = 0; i < n; i++) {
		store_rows_add(r, out[i].cells, out[i].vals);
		free(out[i].cells);
		free(out[i].vals);
	}
	free(out);
	store_compare_stats_free(&b);
	store_compare_stats_free(&c);
	return r;
}

/* op_statistic_compare of BASE and NEW. */
struct store_rows *
store_compare_op_stats(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "OP Type", "Core Type",
	    "Base Count", "Base Total Time(us)", "Base Avg Time(us)",
	    "Comparison Count", "Comparison Total Time(us)",
	    "Comparison Avg Time(us)", "Diff Total Time(us)", "Diff Ratio" };

	/* The rows of the best origin, as op_statistic shows them. */
	return store_compare_stats(base, new, o, "SELECT op_type, core_type,"
	    " sum(count), sum(total_ns) FROM op_stat o WHERE origin = (SELECT"
	    " min(origin) FROM op_stat p WHERE p.device IS o.device AND"
	    " p.rank IS o.rank) AND (?1 IS NULL OR rank = ?1) GROUP BY"
	    " op_type, core_type ORDER BY min(rowid)", names, cause);
}

/* api_statistic_compare of BASE and NEW. */
struct store_rows *
store_compare_api_stats(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "Level", "API Name",
	    "Base Count", "Base Time(us)", "Base Avg(us)",
	    "Comparison Count", "Comparison Time(us)", "Comparison Avg(us)",
	    "Diff Time(us)", "Diff Ratio" };

	return store_compare_stats(base, new, o, "SELECT level, name,"
	    " sum(count), sum(total_ns) FROM api_stat o WHERE origin = (SELECT"
	    " min(origin) FROM api_stat p WHERE p.device IS o.device AND"
	    " p.rank IS o.rank) AND (?1 IS NULL OR rank = ?1) GROUP BY level,"
	    " name ORDER BY min(rowid)", names, cause);
}
