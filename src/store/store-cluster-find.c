/*
 * cluster_findings: what a tuner of a cluster asks first, with the
 * numbers that prove it, read from the cluster tables at the end of a
 * load (store-cluster.c):
 *
 * - slow rank: per step, a rank whose Computing, Communication(Not
 *   Overlapped) or Free time is above the ranks' median by more than 5%
 *   of the mean step time (their sum), the margin msprof-analyze's
 *   advisor uses for the spread of those times;
 * - high wait: per step, group and rank, a Total Op Info whose Wait Time
 *   Ratio is above 0.2;
 * - straggler: per step and group with a high wait, the rank that waits
 *   least when it waits under half the ranks' median: the others wait
 *   for it;
 * - slow link: per step and transport type (not LOCAL), a link of a
 *   group's total whose bandwidth is under 80% of the median of the
 *   type's links, with at least 3 of them; links that moved under 1 MB
 *   are left out, their time being mostly latency.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define FIND_SPREAD	0.05	/* of the mean step time */
#define FIND_WAIT	0.2	/* Wait Time Ratio */
#define FIND_STRAGGLER	0.5	/* of the others' median wait */
#define FIND_LINK	0.8	/* of the type's median bandwidth */
#define FIND_LINK_MIN	3	/* links of a type for a median */
#define FIND_LINK_MB	"1"	/* a link's size for its bandwidth to count */

static const char *const store_find_cols[] = {
	"Finding", "Step", "Rank", "Where", "Metric", "Value", "Median",
	"Threshold", "Evidence"
};
#define FIND_NCOLS	9

static const char *const store_find_times[] = {
	"Computing", "Communication(Not Overlapped)", "Free"
};

/* One value of a rank (or link) in a step, read from a cluster table. */
struct find_val {
	char		*step;
	char		*where;		/* group, link or NULL */
	int64_t		 rank;
	double		 v[3];
	char		*type;		/* transport type of a link */
};

struct find_out {
	sqlite3_stmt	*stmt;
	int64_t		 n;
};

static int
store_find_by_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether step STEP stands for the whole run: none, or msprof's one step
 * "step" (a raw collection).
 */
bool
store_step_is_run(const char *step)
{
	return step == NULL || *step == '\0' || strcmp(step, "step") == 0;
}

/* Where step STEP is, for evidence: "in step 50", "over the run". */
static const char *
store_find_in(const char *step, char *buf, size_t size)
{
	if (store_step_is_run(step))
		return "over the run";
	snprintf(buf, size, "in step %s", step);
	return buf;
}

/* The median of the N values of V (N > 0); V is sorted. */
static double
store_find_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, store_find_by_double);
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
store_find_row(struct store *s, struct find_out *o, const char *what,
    const char *step, int64_t rank, const char *where, const char *metric,
    double value, double median, double threshold, const char *evidence)
{
	const double	 nums[3] = { value, median, threshold };
	char		 buf[64];
	int		 i;

	if (rank == NP_NA) {
		sqlite3_bind_null(o->stmt, 1);
		sqlite3_bind_null(o->stmt, 4);
	} else {
		sqlite3_bind_int64(o->stmt, 1, rank);
		sqlite3_bind_int64(o->stmt, 4, rank);
	}
	sqlite3_bind_text(o->stmt, 2, what, -1, SQLITE_STATIC);
	sqlite3_bind_text(o->stmt, 3, step, -1, SQLITE_STATIC);
	sqlite3_bind_text(o->stmt, 5, where, -1, SQLITE_STATIC);
	sqlite3_bind_text(o->stmt, 6, metric, -1, SQLITE_STATIC);
	for (i = 0; i < 3; i++) {
		if (isnan(nums[i])) {
			sqlite3_bind_null(o->stmt, 7 + i);
			continue;
		}
		util_fmt_fixed(buf, sizeof buf, nums[i], 4, true);
		sqlite3_bind_text(o->stmt, 7 + i, buf, -1, SQLITE_TRANSIENT);
	}
	sqlite3_bind_text(o->stmt, 10, evidence, -1, SQLITE_STATIC);
	store_write(s, o->stmt);
	o->n++;
}

/*
 * Read SQL's rows into *V: step, where, rank, up to NV numbers, type
 * (columns 0, 1, 2, 3.., 3 + NV). Rows come grouped as SQL orders them.
 */
static int
store_find_read(struct store *s, const char *sql, size_t nv,
    struct find_val **v, size_t *n, char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*t;
	size_t		 k;
	int		 rc;

	*v = NULL;
	*n = 0;
	if (store_prepare(s, &stmt, sql, cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		*v = util_grow(*v, *n, 1, sizeof **v);
		memset(&(*v)[*n], 0, sizeof **v);
		t = (const char *)sqlite3_column_text(stmt, 0);
		(*v)[*n].step = xstrdup(t != NULL ? t : "");
		t = (const char *)sqlite3_column_text(stmt, 1);
		(*v)[*n].where = t != NULL ? xstrdup(t) : NULL;
		(*v)[*n].rank = sqlite3_column_type(stmt, 2) == SQLITE_NULL ?
		    NP_NA : sqlite3_column_int64(stmt, 2);
		for (k = 0; k < nv; k++)
			(*v)[*n].v[k] = sqlite3_column_double(stmt, 3 + (int)k);
		t = (const char *)sqlite3_column_text(stmt, 3 + (int)nv);
		(*v)[*n].type = t != NULL ? xstrdup(t) : NULL;
		(*n)++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the cluster tables: %s",
		    sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

static void
store_find_free(struct find_val *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].step);
		free(v[i].where);
		free(v[i].type);
	}
	free(v);
}

/* Whether rows I and J of V are of the same step (and where, if WHERE). */
static bool
store_find_same(const struct find_val *v, size_t i, size_t j, bool where)
{
	if (strcmp(v[i].step, v[j].step) != 0)
		return false;
	if (!where)
		return true;
	if (v[i].where == NULL || v[j].where == NULL)
		return v[i].where == v[j].where;
	return strcmp(v[i].where, v[j].where) == 0;
}

/* Slow ranks, per step and time of cluster_step_trace_time. */
static int
store_find_slow_ranks(struct store *s, struct find_out *o, char **cause)
{
	char		 sb[64];
	struct find_val	*v;
	double		*m, med, mean, lim;
	char		*ev;
	size_t		 n, i, j, k, r;

	if (store_find_read(s, "SELECT \"Step\", NULL, CAST(\"Index\" AS"
	    " INTEGER), \"Computing\", \"Communication(Not Overlapped)\","
	    " \"Free\", NULL FROM cluster_step_trace_time WHERE \"Type\" ="
	    " 'rank' ORDER BY \"Step\", rowid", 3, &v, &n, cause) != 0)
		return -1;
	m = xcalloc(n > 0 ? n : 1, sizeof *m);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && store_find_same(v, i, j, false); j++)
			continue;
		if (j - i < 2)
			continue;
		for (mean = 0, r = i; r < j; r++)
			mean += v[r].v[0] + v[r].v[1] + v[r].v[2];
		mean /= (double)(j - i);
		lim = FIND_SPREAD * mean;
		for (k = 0; k < 3; k++) {
			for (r = i; r < j; r++)
				m[r - i] = v[r].v[k];
			med = store_find_median(m, j - i);
			for (r = i; r < j; r++) {
				if (v[r].v[k] - med <= lim)
					continue;
				xasprintf(&ev, "rank %lld: %s %.3f ms %s, the "
				    "ranks' median %.3f ms: %.3f ms "
				    "more, %.1f%% of the mean step (%.3f ms)",
				    (long long)v[r].rank, store_find_times[k],
				    v[r].v[k] / 1000, store_find_in(v[r].step,
				    sb, sizeof sb), med / 1000,
				    (v[r].v[k] - med) / 1000, mean > 0 ?
				    100 * (v[r].v[k] - med) / mean : 0,
				    mean / 1000);
				store_find_row(s, o, "slow rank", v[r].step,
				    v[r].rank, NULL, store_find_times[k],
				    v[r].v[k], med, med + lim, ev);
				free(ev);
			}
		}
	}
	free(m);
	store_find_free(v, n);
	return 0;
}

/* High waits and stragglers, per step and group of the totals. */
static int
store_find_waits(struct store *s, struct find_out *o, char **cause)
{
	char		 sb[64];
	struct find_val	*v;
	double		*m, med, worst;
	char		*ev, *grp;
	size_t		 n, i, j, r, least;

	if (store_find_read(s, "SELECT \"Step\", substr(\"Op Name\", 15),"
	    " CAST(\"Rank\" AS INTEGER), \"Wait Time Ratio\","
	    " \"Wait Time(ms)\", \"Transit Time(ms)\", NULL"
	    " FROM cluster_communication"
	    " WHERE \"Op Name\" LIKE 'Total Op Info@%'"
	    " ORDER BY \"Step\", \"Op Name\", rowid", 3, &v, &n, cause) != 0)
		return -1;
	m = xcalloc(n > 0 ? n : 1, sizeof *m);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && store_find_same(v, i, j, true); j++)
			continue;
		grp = v[i].where;
		worst = 0;
		for (r = i; r < j; r++) {
			worst = fmax(worst, v[r].v[0]);
			if (v[r].v[0] <= FIND_WAIT)
				continue;
			xasprintf(&ev, "rank %lld waits %.3f ms of %.3f ms in "
			    "group %s %s (wait ratio %.4f, over %.1f)",
			    (long long)v[r].rank, v[r].v[1], v[r].v[1] +
			    v[r].v[2], grp, store_find_in(v[r].step, sb,
			    sizeof sb), v[r].v[0], FIND_WAIT);
			store_find_row(s, o, "high wait", v[r].step,
			    v[r].rank, grp, "Wait Time Ratio", v[r].v[0], NAN,
			    FIND_WAIT, ev);
			free(ev);
		}
		if (worst <= FIND_WAIT || j - i < 2)
			continue;
		least = i;
		for (r = i; r < j; r++) {
			m[r - i] = v[r].v[1];
			if (v[r].v[1] < v[least].v[1])
				least = r;
		}
		med = store_find_median(m, j - i);
		if (v[least].v[1] >= FIND_STRAGGLER * med)
			continue;
		xasprintf(&ev, "rank %lld waits %.3f ms in group %s %s, the "
		    "ranks' median %.3f ms: the others wait for it",
		    (long long)v[least].rank, v[least].v[1], grp,
		    store_find_in(v[least].step, sb, sizeof sb), med);
		store_find_row(s, o, "straggler", v[least].step,
		    v[least].rank, grp, "Wait Time(ms)", v[least].v[1], med,
		    FIND_STRAGGLER * med, ev);
		free(ev);
	}
	free(m);
	store_find_free(v, n);
	return 0;
}

/* Slow links, per step and transport type of the groups' totals. */
static int
store_find_links(struct store *s, struct find_out *o, char **cause)
{
	char		 sb[64];
	struct find_val	*v;
	double		*m, med;
	char		*ev;
	size_t		 n, i, j, r, nm;

	if (store_find_read(s, "SELECT \"Step\", \"Src Rank\" || '-' ||"
	    " \"Dst Rank\" || ' ' || substr(\"Op Name\", 15), NULL,"
	    " \"Bandwidth(GB/s)\", \"Transit Size(MB)\","
	    " \"Transit Time(ms)\", \"Transport Type\""
	    " FROM cluster_communication_matrix"
	    " WHERE \"Op Name\" LIKE 'Total Op Info@%'"
	    " AND \"Transport Type\" <> 'LOCAL'"
	    " AND CAST(\"Transit Size(MB)\" AS REAL) >= " FIND_LINK_MB
	    " ORDER BY \"Step\", \"Transport Type\", rowid", 3, &v, &n, cause)
	    != 0)
		return -1;
	m = xcalloc(n > 0 ? n : 1, sizeof *m);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && strcmp(v[j].step, v[i].step) == 0 &&
		    (v[j].type == NULL) == (v[i].type == NULL) &&
		    (v[i].type == NULL || strcmp(v[j].type, v[i].type) == 0);
		    j++)
			continue;
		nm = j - i;
		if (nm < FIND_LINK_MIN)
			continue;
		for (r = i; r < j; r++)
			m[r - i] = v[r].v[0];
		med = store_find_median(m, nm);
		for (r = i; r < j; r++) {
			if (v[r].v[0] >= FIND_LINK * med)
				continue;
			xasprintf(&ev, "link %s (%s) %s: %.4f GB/s "
			    "(%.3f MB in %.3f ms), the %zu %s links' median "
			    "%.4f GB/s", v[r].where, v[r].type != NULL ?
			    v[r].type : "N/A", store_find_in(v[r].step, sb,
			    sizeof sb), v[r].v[0], v[r].v[1],
			    v[r].v[2], nm, v[r].type != NULL ? v[r].type :
			    "N/A", med);
			store_find_row(s, o, "slow link", v[r].step, NP_NA,
			    v[r].where, "Bandwidth(GB/s)", v[r].v[0], med,
			    FIND_LINK * med, ev);
			free(ev);
		}
	}
	free(m);
	store_find_free(v, n);
	return 0;
}

/*
 * cluster_findings from the cluster tables the store has; none without
 * them. Its rows keep the finding's rank (a link has none).
 */
int
store_cluster_find(struct store *s, char **cause)
{
	struct find_out	 o = { NULL, 0 };
	struct strbuf	 b;
	size_t		 i;
	int		 rc = 0;

	if (!store_has_table(s, "cluster_step_trace_time") &&
	    !store_has_table(s, "cluster_communication"))
		return 0;
	strbuf_init(&b);
	strbuf_adds(&b, "CREATE TABLE cluster_findings(_device INTEGER,"
	    " _rank INTEGER, _file TEXT");
	for (i = 0; i < FIND_NCOLS; i++) {
		strbuf_adds(&b, ", ");
		store_load_quote_ident(&b, store_find_cols[i]);
		strbuf_adds(&b, " TEXT");
	}
	strbuf_adds(&b, "); INSERT INTO generic VALUES ('cluster_findings',"
	    " 'cluster_findings')");
	if (store_exec(s, b.s, cause) != 0 || store_prepare(s, &o.stmt,
	    "INSERT INTO cluster_findings VALUES (NULL, ?, NULL, ?, ?, ?, ?,"
	    " ?, ?, ?, ?, ?)", cause) != 0)
		rc = -1;
	strbuf_release(&b);
	if (rc == 0 && store_has_table(s, "cluster_step_trace_time"))
		rc = store_find_slow_ranks(s, &o, cause);
	if (rc == 0 && store_has_table(s, "cluster_communication"))
		rc = store_find_waits(s, &o, cause);
	if (rc == 0 && store_has_table(s, "cluster_communication_matrix"))
		rc = store_find_links(s, &o, cause);
	sqlite3_finalize(o.stmt);
	return rc;
}
