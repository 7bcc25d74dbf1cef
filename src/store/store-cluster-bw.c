/*
 * cluster_communication_bandwidth: the bandwidth half of msprof-analyze's
 * cluster_communication.json. Per rank set, step and op (as in
 * cluster_communication), each rank's transports as its
 * communication.json gives them; after each step of a rank set, per group
 * and rank, a "Total Op Info@<group>" row per transport: the sums of the
 * transit size and time over the group's ops (from the integer 0), the
 * bandwidth from them rounded to 4 decimals (0 when the time is about 0),
 * and the packet sizes merged (counts and times summed per size). No
 * Large Packet Ratio on totals, as in the tool's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static const char *const store_cluster_bw_cols[] = {
	"Rank Set", "Step", "Op Name", "Rank", "Transport Type",
	"Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)",
	"Large Packet Ratio", "Size Distribution"
};
#define CLUSTER_BW_NCOLS	10

/* One packet size of a distribution: "size:count:time". */
struct cluster_pkt {
	char		*size;
	struct cluster_num count, time;
};

/* What one op of a rank moved over one transport. */
struct cluster_bw {
	char		*grp;
	char		*tr;
	int64_t		 rank;
	size_t		 seq;		/* arrival */
	struct cluster_num size, time;
	char		*dist;		/* as the table writes it */
};

/* A group, rank and transport's total in a step. */
struct cluster_bwtot {
	const char	*grp, *tr;	/* borrowed from the contributions */
	int64_t		 rank;
	size_t		 first, rank_first, grp_first;
	struct cluster_num size, time;
	struct cluster_pkt *pkt;
	size_t		 npkt;
};

/* Add the "size:count:time;..." distribution TEXT to T's packets. */
static void
store_cluster_bw_dist(struct cluster_bwtot *t, const char *text)
{
	char		*copy, *p, *e, *size, *count;
	size_t		 i;

	if (text == NULL || *text == '\0')
		return;
	copy = p = xstrdup(text);
	while ((e = strsep(&p, ";")) != NULL) {
		size = strsep(&e, ":");
		count = strsep(&e, ":");
		if (size == NULL || count == NULL || e == NULL)
			continue;
		for (i = 0; i < t->npkt && strcmp(t->pkt[i].size, size) != 0;
		    i++)
			continue;
		if (i == t->npkt) {
			t->pkt = xreallocarray(t->pkt, t->npkt + 1,
			    sizeof *t->pkt);
			memset(&t->pkt[i], 0, sizeof t->pkt[i]);
			t->pkt[i].size = xstrdup(size);
			t->npkt++;
		}
		store_cluster_add(&t->pkt[i].count, count);
		store_cluster_add(&t->pkt[i].time, e);
	}
	free(copy);
}

static int
store_cluster_bw_by_key(const void *a, const void *b)
{
	const struct cluster_bw *x = a, *y = b;
	int	 c;

	if ((c = strcmp(x->grp, y->grp)) != 0)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->tr, y->tr)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
store_cluster_bw_by_first(const void *a, const void *b)
{
	const struct cluster_bwtot *x = a, *y = b;

	if (x->grp_first != y->grp_first)
		return x->grp_first < y->grp_first ? -1 : 1;
	if (x->rank_first != y->rank_first)
		return x->rank_first < y->rank_first ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The totals of a step of a rank set from its N contributions V: summed
 * per group, rank and transport in the order they came; written per
 * group, rank and transport in the order each first came.
 */
static void
store_cluster_bw_totals(struct store *s, struct cluster_out *o,
    const char *set, const char *step, struct cluster_bw *v, size_t n)
{
	struct cluster_bwtot	*t = NULL;
	struct strbuf		 dist;
	const char		*cells[CLUSTER_BW_NCOLS];
	char			 num[5][64], *op, pk[2][64];
	size_t			 i, j, k, m = 0, g;

	if (n == 0)
		return;
	qsort(v, n, sizeof *v, store_cluster_bw_by_key);
	t = xcalloc(n, sizeof *t);
	for (i = 0; i < n; i = j) {
		t[m].grp = v[i].grp;
		t[m].tr = v[i].tr;
		t[m].rank = v[i].rank;
		t[m].first = v[i].seq;
		for (j = i; j < n && strcmp(v[j].grp, v[i].grp) == 0 &&
		    v[j].rank == v[i].rank && strcmp(v[j].tr, v[i].tr) == 0;
		    j++) {
			t[m].size.v += v[j].size.v;
			t[m].size.real |= v[j].size.real;
			t[m].time.v += v[j].time.v;
			t[m].time.real |= v[j].time.real;
			store_cluster_bw_dist(&t[m], v[j].dist);
		}
		m++;
	}
	/*
	 * Where each group, and each rank in it, first came: T is by
	 * group, rank and transport, so each is a run.
	 */
	for (i = 0; i < m; i = j) {
		g = t[i].first;
		for (j = i; j < m && strcmp(t[j].grp, t[i].grp) == 0; j++)
			g = t[j].first < g ? t[j].first : g;
		for (k = i; k < j; k++)
			t[k].grp_first = g;
	}
	for (i = 0; i < m; i = j) {
		g = t[i].first;
		for (j = i; j < m && strcmp(t[j].grp, t[i].grp) == 0 &&
		    t[j].rank == t[i].rank; j++)
			g = t[j].first < g ? t[j].first : g;
		for (k = i; k < j; k++)
			t[k].rank_first = g;
	}
	qsort(t, m, sizeof *t, store_cluster_bw_by_first);
	strbuf_init(&dist);
	for (i = 0; i < m; i++) {
		xasprintf(&op, "Total Op Info@%s", t[i].grp);
		snprintf(num[0], sizeof num[0], "%lld", (long long)t[i].rank);
		store_cluster_fmt(num[1], sizeof num[1], &t[i].size);
		store_cluster_fmt(num[2], sizeof num[2], &t[i].time);
		store_cluster_ratio(num[3], sizeof num[3], t[i].size.v,
		    t[i].time.v);
		strbuf_reset(&dist);
		strbuf_adds(&dist, "");
		for (k = 0; k < t[i].npkt; k++) {
			store_cluster_fmt(pk[0], sizeof pk[0],
			    &t[i].pkt[k].count);
			store_cluster_fmt(pk[1], sizeof pk[1],
			    &t[i].pkt[k].time);
			strbuf_addf(&dist, "%s%s:%s:%s", k > 0 ? ";" : "",
			    t[i].pkt[k].size, pk[0], pk[1]);
			free(t[i].pkt[k].size);
		}
		free(t[i].pkt);
		cells[0] = set;
		cells[1] = step;
		cells[2] = op;
		cells[3] = num[0];
		cells[4] = t[i].tr;
		cells[5] = num[1];
		cells[6] = num[2];
		cells[7] = num[3];
		cells[8] = NULL;
		cells[9] = dist.s;
		store_cluster_row(s, o, t[i].rank, cells);
		free(op);
	}
	strbuf_release(&dist);
	free(t);
}

/* The bandwidth rows of temp.cl_g's groups, ordered as the ops. */
#define CLUSTER_BW_SQL							\
	"WITH b AS (SELECT row_number() OVER (ORDER BY _rank, rowid)"	\
	" AS seq, _rank AS rank, \"Step\" AS step, \"Type\" AS type,"	\
	" \"Op Name\" AS op, " CLUSTER_GROUP("\"Op Name\"") " AS grp,"	\
	" \"Transport Type\" AS tr, \"Transit Size(MB)\" AS size,"	\
	" \"Transit Time(ms)\" AS time, \"Bandwidth(GB/s)\" AS bw,"	\
	" \"Large Packet Ratio\" AS lpr, \"Size Distribution\" AS dist"	\
	" FROM communication_bandwidth WHERE _rank IS NOT NULL"		\
	" AND substr(\"Op Name\", 1, 5) <> 'Total'),"			\
	" l AS (SELECT b.*, coalesce(g.rset, '()') AS rset FROM b"	\
	" LEFT JOIN cl_g g USING (type, grp)),"				\
	" o AS (SELECT l.*, min(seq) OVER (PARTITION BY rset) AS set_o,"\
	" min(seq) OVER (PARTITION BY rset, step) AS step_o,"		\
	" min(seq) OVER (PARTITION BY rset, step, op) AS op_o,"		\
	" min(seq) OVER (PARTITION BY rset, step, op, rank) AS rank_o"	\
	" FROM l)"							\
	" SELECT rset, step, op, rank, grp, tr, size, time, bw, lpr, dist,"\
	" step_o FROM o ORDER BY set_o, step_o, op_o, rank_o, seq"

/* cluster_communication_bandwidth from communication_bandwidth. */
int
store_cluster_bandwidth(struct store *s, char **cause)
{
	struct cluster_out	 o = { NULL, 0 };
	struct cluster_bw	*v = NULL;
	sqlite3_stmt		*stmt;
	struct cluster_block	 b = { -1, NULL, NULL };
	const char		*cells[CLUSTER_BW_NCOLS], *c;
	char			 rank[32];
	size_t			 n = 0, idx = 0, k;
	int			 rc;

	if (!store_cluster_input(s, "communication_bandwidth"))
		return 0;
	if (store_cluster_begin(s, &o, "cluster_communication_bandwidth",
	    store_cluster_bw_cols, CLUSTER_BW_NCOLS, cause) != 0)
		return -1;
	if (store_prepare(s, &stmt, CLUSTER_BW_SQL, cause) != 0) {
		store_cluster_end(&o);
		return -1;
	}
	for (;;) {
		rc = sqlite3_step(stmt);
		if (b.id >= 0 && (rc != SQLITE_ROW ||
		    sqlite3_column_int64(stmt, 11) != b.id)) {
			store_cluster_bw_totals(s, &o, b.set, b.step, v, n);
			for (k = 0; k < n; k++) {
				free(v[k].grp);
				free(v[k].tr);
				free(v[k].dist);
			}
			n = 0;
			store_cluster_block_end(&b);
		}
		if (rc != SQLITE_ROW)
			break;
		if (b.id < 0)
			store_cluster_block_start(&b, stmt, 11);
		snprintf(rank, sizeof rank, "%lld",
		    (long long)sqlite3_column_int64(stmt, 3));
		cells[0] = b.set;
		cells[1] = b.step;
		cells[2] = store_cluster_text(stmt, 2);
		cells[3] = rank;
		for (k = 4; k < CLUSTER_BW_NCOLS; k++)
			cells[k] = store_cluster_text(stmt, (int)k + 1);
		store_cluster_row(s, &o, sqlite3_column_int64(stmt, 3), cells);
		v = util_grow(v, n, 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		v[n].grp = xstrdup(store_cluster_text(stmt, 4));
		c = store_cluster_text(stmt, 5);
		v[n].tr = xstrdup(c != NULL ? c : "");
		v[n].rank = sqlite3_column_int64(stmt, 3);
		v[n].seq = idx++;
		store_cluster_add(&v[n].size, store_cluster_text(stmt, 6));
		store_cluster_add(&v[n].time, store_cluster_text(stmt, 7));
		c = store_cluster_text(stmt, 10);
		v[n].dist = c != NULL ? xstrdup(c) : NULL;
		n++;
	}
	sqlite3_finalize(stmt);
	store_cluster_end(&o);
	free(v);
	return 0;
}
