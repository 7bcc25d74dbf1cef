/*
 * The tables of msprof-analyze's cluster analysis, derived at the end of
 * a load from the per-rank tables of a store that holds several ranks:
 *
 * - cluster_step_trace_time: every rank's step_trace_time rows, each
 *   value read as a number (0 if it is none), as Step, Type "rank",
 *   Index (the rank) and the file's other columns;
 * - cluster_communication: every collective or point-to-point op of every
 *   rank, grouped by the set of ranks of its communication group (the
 *   ranks whose ops name that group after their "@"), then by step and
 *   op, and after each step's ops a "Total Op Info@<group>" row per group
 *   and rank: the sums of its ops' times and the two ratios from them;
 * - cluster_communication_matrix: per group set, step and op kind, each
 *   link summed over the ranks that reported it, its local ranks made
 *   global by the rank that reported the local rank's own link (src =
 *   dst), the bandwidth from the sums, and per group the total of the
 *   op kinds that are not a part (no "top", "middle" or "bottom" in the
 *   name).
 *
 * Sums are done in the order the vendor's tool does them and written as
 * Python writes its floats, so the numbers equal the tool's to the last
 * digit; ratios are rounded to 4 decimals as it rounds them. The order of
 * a group's rank set is ascending.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define CLUSTER_EPS	1e-15

/* The values of a communication row, the last 8 of its columns. */
#define CLUSTER_NVALS	8

static const char *const store_cluster_comm_cols[] = {
	"Rank Set", "Step", "Op Name", "Rank", "Start Timestamp(us)",
	"Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)",
	"Synchronization Time(ms)", "Idle Time(ms)", "Wait Time Ratio",
	"Synchronization Time Ratio"
};
#define CLUSTER_COMM_NCOLS	12

static const char *const store_cluster_matrix_cols[] = {
	"Rank Set", "Step", "Op Name", "Src Rank", "Dst Rank",
	"Transport Type", "Transit Size(MB)", "Transit Time(ms)",
	"Bandwidth(GB/s)", "Link Op Name"
};
#define CLUSTER_MATRIX_NCOLS	10

/*
 * Create table NAME with NCOLS text columns COLS (and the generic
 * tables' _device, _rank, _file), listed as kept from files so that
 * show and the UI find it; O gets its insert.
 */
int
store_cluster_begin(struct store *s, struct cluster_out *o, const char *name,
    const char *const *cols, size_t ncols, char **cause)
{
	struct strbuf	 b, ins;
	size_t		 i;
	int		 rc = -1;

	strbuf_init(&b);
	strbuf_init(&ins);
	strbuf_addf(&b, "CREATE TABLE %s(_device INTEGER, _rank INTEGER,"
	    " _file TEXT", name);
	strbuf_addf(&ins, "INSERT INTO %s VALUES (NULL, ?, NULL", name);
	for (i = 0; i < ncols; i++) {
		strbuf_adds(&b, ", ");
		store_load_quote_ident(&b, cols[i]);
		strbuf_adds(&b, " TEXT");
		strbuf_adds(&ins, ", ?");
	}
	strbuf_adds(&b, ");");
	strbuf_addf(&b, "INSERT INTO generic VALUES ('%s', '%s')", name,
	    name);
	strbuf_addc(&ins, ')');
	if (store_exec(s, b.s, cause) == 0 &&
	    store_prepare(s, &o->stmt, ins.s, cause) == 0) {
		o->ncols = ncols;
		rc = 0;
	}
	strbuf_release(&ins);
	strbuf_release(&b);
	return rc;
}

/*
 * Begin table NAME (store_cluster_begin) and prepare SQL, the rows it is
 * made from, into *STMT. On failure nothing is left to free.
 */
static int
store_cluster_open(struct store *s, struct cluster_out *o, const char *name,
    const char *const *cols, size_t ncols, const char *sql,
    sqlite3_stmt **stmt, char **cause)
{
	if (store_cluster_begin(s, o, name, cols, ncols, cause) != 0)
		return -1;
	if (store_prepare(s, stmt, sql, cause) != 0) {
		sqlite3_finalize(o->stmt);
		o->stmt = NULL;
		return -1;
	}
	return 0;
}

/* One row: RANK (NP_NA for none) and NCOLS cells (NULL for none). */
void
store_cluster_row(struct store *s, struct cluster_out *o, int64_t rank,
    const char *const *cells)
{
	size_t	 i;

	if (rank == NP_NA)
		sqlite3_bind_null(o->stmt, 1);
	else
		sqlite3_bind_int64(o->stmt, 1, rank);
	for (i = 0; i < o->ncols; i++) {
		if (cells[i] == NULL)
			sqlite3_bind_null(o->stmt, (int)i + 2);
		else
			sqlite3_bind_text(o->stmt, (int)i + 2, cells[i], -1,
			    SQLITE_TRANSIENT);
	}
	store_write(s, o->stmt);
}

void
store_cluster_end(struct cluster_out *o)
{
	sqlite3_finalize(o->stmt);
	o->stmt = NULL;
}

/* Column I of STMT as text, or NULL. */
const char *
store_cluster_text(sqlite3_stmt *stmt, int i)
{
	return (const char *)sqlite3_column_text(stmt, i);
}

/*
 * Add cell TEXT to N as Python adds a JSON number: false if it is not a
 * number (then N is unchanged).
 */
bool
store_cluster_add(struct cluster_num *n, const char *text)
{
	double	 d;

	if (text == NULL || util_parse_double(text, strlen(text), &d) != 0)
		return false;
	n->v += d;
	if (strpbrk(text, ".eEnN") != NULL)
		n->real = true;
	return true;
}

void
store_cluster_fmt(char *buf, size_t size, const struct cluster_num *n)
{
	if (n->real)
		util_fmt_pyfloat(buf, size, n->v);
	else
		snprintf(buf, size, "%.0f", n->v);
}

/* A / B rounded to 4 decimals, 0 (an int) if B is about 0. */
void
store_cluster_ratio(char *buf, size_t size, double a, double b)
{
	char	 tmp[64];

	if (fabs(b) < CLUSTER_EPS) {
		snprintf(buf, size, "0");
		return;
	}
	snprintf(tmp, sizeof tmp, "%.4f", a / b);
	util_fmt_pyfloat(buf, size, strtod(tmp, NULL));
}

/* Whether the store has table T with rows of known ranks. */
bool
store_cluster_input(struct store *s, const char *t)
{
	char	*sql;
	bool	 any;

	if (!store_has_table(s, t))
		return false;
	xasprintf(&sql, "SELECT 1 FROM %s WHERE _rank IS NOT NULL LIMIT 1",
	    t);
	any = store_exists(s, sql);
	free(sql);
	return any;
}

/* "(0, 1)" as Python writes a tuple of the N RANKS: "(3,)", "()". */
char *
store_cluster_tuple(const int64_t *ranks, size_t n)
{
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	strbuf_addc(&b, '(');
	for (i = 0; i < n; i++)
		strbuf_addf(&b, "%s%lld", i > 0 ? ", " : "",
		    (long long)ranks[i]);
	strbuf_adds(&b, n == 1 ? ",)" : ")");
	return strbuf_detach(&b);
}

/*
 * Call FN with ARG for each collective and point-to-point group of the
 * ops in temp.cl_c and the links in temp.cl_l: its type, name and ranks
 * (N of them, ascending), by type and name.
 */
int
store_cluster_each_group(struct store *s, void (*fn)(void *, const char *,
    const char *, const int64_t *, size_t), void *arg, char **cause)
{
	sqlite3_stmt	*stmt;
	char		*type = NULL, *grp = NULL;
	const char	*t, *g;
	int64_t		*ranks = NULL;
	size_t		 n = 0;
	int		 rc;

	if (store_prepare(s, &stmt, "SELECT DISTINCT type, grp, rank FROM"
	    " (SELECT type, grp, rank FROM cl_c UNION ALL SELECT type, grp,"
	    " rank FROM cl_l) WHERE type IN ('collective', 'p2p')"
	    " ORDER BY type, grp, rank", cause) != 0)
		return -1;
	for (;;) {
		rc = sqlite3_step(stmt);
		t = rc == SQLITE_ROW ? store_cluster_text(stmt, 0) : NULL;
		g = rc == SQLITE_ROW ? store_cluster_text(stmt, 1) : NULL;
		if (type != NULL && (rc != SQLITE_ROW || strcmp(t, type) != 0 ||
		    strcmp(g, grp) != 0)) {
			fn(arg, type, grp, ranks, n);
			free(type);
			free(grp);
			type = grp = NULL;
			n = 0;
		}
		if (rc != SQLITE_ROW)
			break;
		if (type == NULL) {
			type = xstrdup(t);
			grp = xstrdup(g);
		}
		ranks = util_grow(ranks, n, 1, sizeof *ranks);
		ranks[n++] = sqlite3_column_int64(stmt, 2);
	}
	sqlite3_finalize(stmt);
	free(ranks);
	return 0;
}

struct cluster_groups {
	struct store	*s;
	sqlite3_stmt	*ins;
};

static void
store_cluster_group_row(void *arg, const char *type, const char *grp,
    const int64_t *ranks, size_t n)
{
	struct cluster_groups	*g = arg;
	char			*set = store_cluster_tuple(ranks, n);

	sqlite3_bind_text(g->ins, 1, type, -1, SQLITE_STATIC);
	sqlite3_bind_text(g->ins, 2, grp, -1, SQLITE_STATIC);
	sqlite3_bind_text(g->ins, 3, set, -1, SQLITE_STATIC);
	store_write(g->s, g->ins);
	free(set);
}

/*
 * temp.cl_g(type, grp, rset): the rank set of each collective and
 * point-to-point group, "(0, 1)" as Python writes a tuple, from the ops
 * in temp.cl_c and the links in temp.cl_l.
 */
static int
store_cluster_groups(struct store *s, char **cause)
{
	struct cluster_groups	 g = { s, NULL };
	int			 rc;

	if (store_exec(s, "CREATE TEMP TABLE cl_g(type TEXT, grp TEXT,"
	    " rset TEXT, PRIMARY KEY (type, grp))", cause) != 0 ||
	    store_prepare(s, &g.ins, "INSERT INTO cl_g VALUES (?, ?, ?)",
	    cause) != 0)
		return -1;
	rc = store_cluster_each_group(s, store_cluster_group_row, &g, cause);
	sqlite3_finalize(g.ins);
	return rc;
}

/* Start block B at STMT's row, whose column COL numbers the block. */
void
store_cluster_block_start(struct cluster_block *b, sqlite3_stmt *stmt,
    int col)
{
	const char	*step = store_cluster_text(stmt, 1);

	b->id = sqlite3_column_int64(stmt, col);
	b->set = xstrdup(store_cluster_text(stmt, 0));
	b->step = xstrdup(step != NULL ? step : "");
}

void
store_cluster_block_end(struct cluster_block *b)
{
	free(b->set);
	free(b->step);
	b->set = b->step = NULL;
	b->id = -1;
}

/*
 * What groups an item of a step's totals or an op's links: its group, a
 * and b (rank and 0; src and dst), and where it and its group first
 * came. Every such item starts with one.
 */
struct cluster_key {
	char		*grp;
	int64_t		 a, b;
	size_t		 first;
	size_t		 grp_first;
};

/* What one group and rank add up to over a step's ops. */
struct cluster_total {
	struct cluster_key k;		/* a: the rank */
	struct cluster_num sums[5];	/* elapse, transit, wait, sync, idle */
	bool		 has[5];
};

/* By group, a, b, then arrival. */
static int
store_cluster_by_key(const void *p, const void *q)
{
	const struct cluster_key *x = p, *y = q;
	int	 c;

	if ((c = strcmp(x->grp, y->grp)) != 0)
		return c;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* By where the group first came, then the item. */
static int
store_cluster_by_first(const void *p, const void *q)
{
	const struct cluster_key *x = p, *y = q;

	if (x->grp_first != y->grp_first)
		return x->grp_first < y->grp_first ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Merge the N items of V (of SIZE bytes, each starting with its struct
 * cluster_key) that share group, a and b, in the order they came:
 * ADD(into, from) adds FROM to INTO and takes what FROM owns but its
 * group. Return how many remain, in the order each group and each item
 * in it first came.
 */
static size_t
store_cluster_merge(void *v, size_t n, size_t size,
    void (*add)(void *, void *))
{
	char			*base = v;
	struct cluster_key	*x, *y;
	size_t			 i, j, k, m = 0, g;

	if (n == 0)
		return 0;
	qsort(v, n, size, store_cluster_by_key);
	for (i = 0; i < n; i = j) {
		x = (struct cluster_key *)(base + i * size);
		for (j = i + 1; j < n; j++) {
			y = (struct cluster_key *)(base + j * size);
			if (strcmp(y->grp, x->grp) != 0 || y->a != x->a ||
			    y->b != x->b)
				break;
			add(x, y);
			free(y->grp);
		}
		memmove(base + m++ * size, x, size);
	}
	for (i = 0; i < m; i = j) {
		x = (struct cluster_key *)(base + i * size);
		g = x->first;
		for (j = i; j < m; j++) {
			y = (struct cluster_key *)(base + j * size);
			if (strcmp(y->grp, x->grp) != 0)
				break;
			g = y->first < g ? y->first : g;
		}
		for (k = i; k < j; k++) {
			y = (struct cluster_key *)(base + k * size);
			y->grp_first = g;
		}
	}
	qsort(v, m, size, store_cluster_by_first);
	return m;
}

static void
store_cluster_add_total(void *into, void *from)
{
	struct cluster_total	*x = into, *y = from;
	size_t			 k;

	for (k = 0; k < 5; k++) {
		if (!y->has[k])
			continue;
		x->sums[k].v += y->sums[k].v;
		x->has[k] = true;
	}
}

/*
 * The Total Op Info rows of one step of a rank set: the N contributions
 * in V, one per op and rank in the order the ops came, summed per group
 * and rank in that order, written in the order each group and each rank
 * in it first came.
 */
static void
store_cluster_totals(struct store *s, struct cluster_out *o, const char *set,
    const char *step, struct cluster_total *v, size_t n)
{
	const char	*cells[CLUSTER_COMM_NCOLS];
	char		 num[8][64], *op;
	size_t		 i, k, m;

	m = store_cluster_merge(v, n, sizeof *v, store_cluster_add_total);
	for (i = 0; i < m; i++) {
		xasprintf(&op, "Total Op Info@%s", v[i].k.grp);
		snprintf(num[0], sizeof num[0], "%lld", (long long)v[i].k.a);
		cells[0] = set;
		cells[1] = step;
		cells[2] = op;
		cells[3] = num[0];
		cells[4] = NULL;
		for (k = 0; k < 5; k++) {
			v[i].sums[k].real = true;
			store_cluster_fmt(num[k + 1], sizeof num[k + 1],
			    &v[i].sums[k]);
			cells[5 + k] = v[i].has[k] ? num[k + 1] : NULL;
		}
		store_cluster_ratio(num[6], sizeof num[6], v[i].sums[2].v,
		    v[i].sums[2].v + v[i].sums[1].v);
		cells[10] = num[6];
		store_cluster_ratio(num[7], sizeof num[7], v[i].sums[3].v,
		    v[i].sums[3].v + v[i].sums[1].v);
		cells[11] = num[7];
		store_cluster_row(s, o, v[i].k.a, cells);
		free(op);
		free(v[i].k.grp);
	}
}

/* The ops of temp.cl_c by rank set, step, op and rank, for the table. */
#define CLUSTER_COMM_SQL						\
	"SELECT rset, step, op, rank, grp, v0, v1, v2, v3, v4, v5, v6, v7,"\
	" set_o, step_o FROM (SELECT c.*, coalesce(g.rset, '()') AS rset,"\
	" min(seq) OVER (PARTITION BY coalesce(g.rset, '()')) AS set_o,"\
	" min(seq) OVER (PARTITION BY coalesce(g.rset, '()'), step)"	\
	" AS step_o,"							\
	" min(seq) OVER (PARTITION BY coalesce(g.rset, '()'), step, op)"\
	" AS op_o,"							\
	" row_number() OVER (PARTITION BY coalesce(g.rset, '()'), step,"\
	" op, rank ORDER BY seq) AS dup"				\
	" FROM cl_c c LEFT JOIN cl_g g USING (type, grp))"		\
	" WHERE dup = 1 ORDER BY set_o, step_o, op_o, seq"

/* cluster_communication from temp.cl_c and temp.cl_g. */
static int
store_cluster_comm(struct store *s, char **cause)
{
	struct cluster_out	 o = { NULL, 0 };
	struct cluster_total	*v = NULL;
	sqlite3_stmt		*stmt;
	const char		*cells[CLUSTER_COMM_NCOLS];
	struct cluster_block	 b = { -1, NULL, NULL };
	char			 rank[32];
	size_t			 n = 0, idx = 0, k;
	int			 rc;

	if (store_cluster_open(s, &o, "cluster_communication",
	    store_cluster_comm_cols, CLUSTER_COMM_NCOLS, CLUSTER_COMM_SQL,
	    &stmt, cause) != 0)
		return -1;
	for (;;) {
		rc = sqlite3_step(stmt);
		/* A step of a rank set ends: its totals. */
		if (b.id >= 0 && (rc != SQLITE_ROW ||
		    sqlite3_column_int64(stmt, 14) != b.id)) {
			store_cluster_totals(s, &o, b.set, b.step, v, n);
			n = 0;
			store_cluster_block_end(&b);
		}
		if (rc != SQLITE_ROW)
			break;
		if (b.id < 0)
			store_cluster_block_start(&b, stmt, 14);
		snprintf(rank, sizeof rank, "%lld",
		    (long long)sqlite3_column_int64(stmt, 3));
		cells[0] = b.set;
		cells[1] = b.step;
		cells[2] = store_cluster_text(stmt, 2);
		cells[3] = rank;
		for (k = 0; k < CLUSTER_NVALS; k++)
			cells[4 + k] = store_cluster_text(stmt, 5 + (int)k);
		store_cluster_row(s, &o, sqlite3_column_int64(stmt, 3), cells);
		v = util_grow(v, n, 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		v[n].k.grp = xstrdup(store_cluster_text(stmt, 4));
		v[n].k.a = sqlite3_column_int64(stmt, 3);
		v[n].k.first = idx++;
		for (k = 0; k < 5; k++)
			v[n].has[k] = store_cluster_add(&v[n].sums[k],
			    store_cluster_text(stmt, 6 + (int)k));
		n++;
	}
	sqlite3_finalize(stmt);
	store_cluster_end(&o);
	free(v);
	return 0;
}

/*
 * A link of one op kind summed over the ranks that reported it: keyed by
 * its local src and dst, then in a step's total by the global ones.
 */
struct cluster_link {
	struct cluster_key k;
	int64_t		 src, dst;	/* global; NP_NA if not known */
	struct cluster_num size, time;
	char		*type, *op;	/* the last rank's */
};

static void
store_cluster_add_link(void *into, void *from)
{
	struct cluster_link	*x = into, *y = from;

	x->size.v += y->size.v;
	x->size.real |= y->size.real;
	x->time.v += y->time.v;
	x->time.real |= y->time.real;
	free(x->type);
	free(x->op);
	x->type = y->type;
	x->op = y->op;
}

/* Write the N links of V as rows of op OP, freeing them. */
static void
store_cluster_links_out(struct store *s, struct cluster_out *o,
    const char *set, const char *step, const char *op,
    struct cluster_link *v, size_t n)
{
	const char	*cells[CLUSTER_MATRIX_NCOLS];
	char		 num[5][64], *name = NULL;
	size_t		 i;

	for (i = 0; i < n; i++) {
		if (op == NULL)
			xasprintf(&name, "Total Op Info@%s", v[i].k.grp);
		snprintf(num[0], sizeof num[0], "%lld", (long long)v[i].src);
		snprintf(num[1], sizeof num[1], "%lld", (long long)v[i].dst);
		store_cluster_fmt(num[2], sizeof num[2], &v[i].size);
		store_cluster_fmt(num[3], sizeof num[3], &v[i].time);
		store_cluster_ratio(num[4], sizeof num[4], v[i].size.v,
		    v[i].time.v);
		cells[0] = set;
		cells[1] = step;
		cells[2] = op != NULL ? op : name;
		cells[3] = num[0];
		cells[4] = num[1];
		cells[5] = v[i].type;
		cells[6] = num[2];
		cells[7] = num[3];
		cells[8] = num[4];
		cells[9] = v[i].op;
		store_cluster_row(s, o, NP_NA, cells);
		free(name);
		name = NULL;
	}
}

static void
store_cluster_links_free(struct cluster_link *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].k.grp);
		free(v[i].type);
		free(v[i].op);
	}
}

/*
 * The links of temp.cl_l by rank set, step, op kind and row, each with
 * its local ranks made global: by the rank whose own link (src = dst)
 * named the local rank first, in the same set, step and group.
 */
#define CLUSTER_MATRIX_SQL						\
	"WITH l AS (SELECT c.*, coalesce(g.rset, '()') AS rset"		\
	" FROM cl_l c LEFT JOIN cl_g g USING (type, grp)),"		\
	" o AS (SELECT l.*, min(seq) OVER (PARTITION BY rset) AS set_o,"\
	" min(seq) OVER (PARTITION BY rset, step) AS step_o,"		\
	" min(seq) OVER (PARTITION BY rset, step, op) AS op_o FROM l),"	\
	" m AS (SELECT rset, step, grp, src, rank FROM (SELECT o.*,"	\
	" row_number() OVER (PARTITION BY rset, step, grp, src"		\
	" ORDER BY op_o, seq) AS k FROM o WHERE src = dst) WHERE k = 1)"\
	" SELECT o.rset, o.step, o.op, o.grp, o.src, o.dst, ms.rank,"	\
	" md.rank, o.transport, o.size, o.time, o.linkop, o.step_o,"	\
	" o.op_o FROM o"						\
	" LEFT JOIN m ms ON ms.rset = o.rset AND ms.step IS o.step"	\
	" AND ms.grp = o.grp AND ms.src = o.src"			\
	" LEFT JOIN m md ON md.rset = o.rset AND md.step IS o.step"	\
	" AND md.grp = o.grp AND md.src = o.dst"			\
	" ORDER BY o.set_o, o.step_o, o.op_o, o.seq"

/*
 * Whether the links of op kind OP count in its group's total: not a part
 * of a kind ("top", "middle", "bottom" in the name), unless a total.
 */
static bool
store_cluster_adds(const char *op)
{
	return strstr(op, "total") != NULL || (strstr(op, "top") == NULL &&
	    strstr(op, "middle") == NULL && strstr(op, "bottom") == NULL);
}

/* cluster_communication_matrix from temp.cl_l and temp.cl_g. */
static int
store_cluster_matrix(struct store *s, char **cause)
{
	struct cluster_out	 o = { NULL, 0 };
	struct cluster_link	*op = NULL, *tot = NULL, *l;
	struct cluster_block	 b = { -1, NULL, NULL };
	sqlite3_stmt		*stmt;
	char			*name = NULL;
	int64_t			 kind = -1, lost = 0;
	size_t			 nop = 0, ntot = 0, idx = 0, m, i;
	int			 rc;

	if (store_cluster_open(s, &o, "cluster_communication_matrix",
	    store_cluster_matrix_cols, CLUSTER_MATRIX_NCOLS,
	    CLUSTER_MATRIX_SQL, &stmt, cause) != 0)
		return -1;
	for (;;) {
		rc = sqlite3_step(stmt);
		if (kind >= 0 && (rc != SQLITE_ROW ||
		    sqlite3_column_int64(stmt, 13) != kind ||
		    sqlite3_column_int64(stmt, 12) != b.id)) {
			/* An op kind ends: its links, then into the total. */
			m = store_cluster_merge(op, nop, sizeof *op,
			    store_cluster_add_link);
			for (i = 0; i < m; i++) {
				if (op[i].src == NP_NA || op[i].dst == NP_NA) {
					lost++;
					continue;
				}
				store_cluster_links_out(s, &o, b.set, b.step,
				    name, &op[i], 1);
				if (!store_cluster_adds(name))
					continue;
				tot = util_grow(tot, ntot, 1, sizeof *tot);
				tot[ntot] = op[i];
				tot[ntot].k.grp = xstrdup(op[i].k.grp);
				tot[ntot].k.a = op[i].src;
				tot[ntot].k.b = op[i].dst;
				tot[ntot].type = op[i].type != NULL ?
				    xstrdup(op[i].type) : NULL;
				tot[ntot].op = op[i].op != NULL ?
				    xstrdup(op[i].op) : NULL;
				tot[ntot++].k.first = idx++;
			}
			store_cluster_links_free(op, m);
			nop = 0;
			free(name);
			name = NULL;
			kind = -1;
		}
		if (b.id >= 0 && (rc != SQLITE_ROW ||
		    sqlite3_column_int64(stmt, 12) != b.id)) {
			m = store_cluster_merge(tot, ntot, sizeof *tot,
			    store_cluster_add_link);
			store_cluster_links_out(s, &o, b.set, b.step, NULL, tot,
			    m);
			store_cluster_links_free(tot, m);
			ntot = 0;
			store_cluster_block_end(&b);
		}
		if (rc != SQLITE_ROW)
			break;
		if (b.id < 0)
			store_cluster_block_start(&b, stmt, 12);
		if (kind < 0) {
			kind = sqlite3_column_int64(stmt, 13);
			name = xstrdup(store_cluster_text(stmt, 2));
		}
		op = util_grow(op, nop, 1, sizeof *op);
		l = &op[nop++];
		memset(l, 0, sizeof *l);
		l->k.grp = xstrdup(store_cluster_text(stmt, 3));
		l->k.a = sqlite3_column_int64(stmt, 4);
		l->k.b = sqlite3_column_int64(stmt, 5);
		l->src = sqlite3_column_type(stmt, 6) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 6);
		l->dst = sqlite3_column_type(stmt, 7) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 7);
		if (store_cluster_text(stmt, 8) != NULL)
			l->type = xstrdup(store_cluster_text(stmt, 8));
		store_cluster_add(&l->size, store_cluster_text(stmt, 9));
		store_cluster_add(&l->time, store_cluster_text(stmt, 10));
		l->op = xstrdup(store_cluster_text(stmt, 11) != NULL ?
		    store_cluster_text(stmt, 11) : "");
		l->k.first = nop;
	}
	sqlite3_finalize(stmt);
	store_cluster_end(&o);
	free(op);
	free(tot);
	if (lost > 0)
		store_load_warning(s, "cluster_communication_matrix", -1,
		    "%lld link%s left out: no rank reported the own link of"
		    " the local rank, so its global rank is not known",
		    (long long)lost, lost == 1 ? "" : "s");
	return 0;
}

/* temp.cl_c and temp.cl_l: the ranks' ops and links, in rank order. */
#define CLUSTER_OPS_SQL							\
	"CREATE TEMP TABLE cl_c AS SELECT row_number() OVER"		\
	" (ORDER BY _rank, rowid) AS seq, _rank AS rank, \"Step\" AS step,"\
	" \"Type\" AS type, \"Op Name\" AS op,"				\
	" " CLUSTER_GROUP("\"Op Name\"") " AS grp,"			\
	" \"Start Timestamp(us)\" AS v0, \"Elapse Time(ms)\" AS v1,"	\
	" \"Transit Time(ms)\" AS v2, \"Wait Time(ms)\" AS v3,"		\
	" \"Synchronization Time(ms)\" AS v4, \"Idle Time(ms)\" AS v5,"	\
	" \"Wait Time Ratio\" AS v6,"					\
	" \"Synchronization Time Ratio\" AS v7 FROM communication"	\
	" WHERE _rank IS NOT NULL AND substr(\"Op Name\", 1, 5) <> 'Total'"
#define CLUSTER_LINKS_SQL						\
	"CREATE TEMP TABLE cl_l AS SELECT row_number() OVER"		\
	" (ORDER BY _rank, rowid) AS seq, _rank AS rank, \"Step\" AS step,"\
	" \"Type\" AS type, \"Op Name\" AS op,"				\
	" " CLUSTER_GROUP("\"Op Name\"") " AS grp,"			\
	" CAST(\"Src Rank\" AS INTEGER) AS src,"			\
	" CAST(\"Dst Rank\" AS INTEGER) AS dst,"			\
	" \"Transport Type\" AS transport, \"Transit Size(MB)\" AS size,"\
	" \"Transit Time(ms)\" AS time, \"Link Op Name\" AS linkop"	\
	" FROM communication_matrix WHERE _rank IS NOT NULL"		\
	" AND substr(\"Op Name\", 1, 5) <> 'Total'"
#define CLUSTER_EMPTY_OPS_SQL						\
	"CREATE TEMP TABLE cl_c(seq, rank, step, type, op, grp, v0, v1, v2,"\
	" v3, v4, v5, v6, v7)"
#define CLUSTER_EMPTY_LINKS_SQL						\
	"CREATE TEMP TABLE cl_l(seq, rank, step, type, op, grp, src, dst,"\
	" transport, size, time, linkop)"

/*
 * The number of known ranks with rows in the store: in the statistics
 * and steps, or in a table kept from vendor files. It goes to the meta
 * table as "ranks" (store_tables_ranked() reads it). With several, the
 * ranks below the highest that have no rows are one warning: a cluster
 * whose profile of a rank is missing, or was left out. -1 on failure.
 */
/*
 * Prepare in *STMT the known ranks of S, ascending, once each: those of
 * its statistics, steps and vendor tables. -1 with *cause set on failure.
 */
int
store_cluster_ranks_stmt(struct store *s, sqlite3_stmt **stmt, char **cause)
{
	struct strbuf	 b;
	int		 rc;

	strbuf_init(&b);
	strbuf_adds(&b, "SELECT DISTINCT rank FROM (SELECT rank FROM op_stat"
	    " UNION SELECT rank FROM api_stat UNION SELECT rank FROM step");
	if (store_prepare(s, stmt, "SELECT tbl FROM generic ORDER BY tbl",
	    cause) != 0) {
		strbuf_release(&b);
		return -1;
	}
	while (sqlite3_step(*stmt) == SQLITE_ROW) {
		strbuf_adds(&b, " UNION SELECT _rank FROM ");
		store_load_quote_ident(&b, store_cluster_text(*stmt, 0));
	}
	sqlite3_finalize(*stmt);
	strbuf_adds(&b, ") WHERE rank IS NOT NULL ORDER BY 1");
	rc = store_prepare(s, stmt, b.s, cause);
	strbuf_release(&b);
	return rc;
}

static int64_t
store_cluster_ranks(struct store *s, char **cause)
{
	struct strbuf	 gap;
	sqlite3_stmt	*stmt;
	int64_t		 n = 0, r, k, next = 0, gaps = 0, top = -1;
	char		 buf[32];

	if (store_cluster_ranks_stmt(s, &stmt, cause) != 0)
		return -1;
	strbuf_init(&gap);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		n++;
		if ((r = sqlite3_column_int64(stmt, 0)) < 0)
			continue;
		/* Name the first ten missing only, count them all. */
		for (k = next; k < r && gaps + (k - next) < 10; k++)
			strbuf_addf(&gap, "%s%lld", gaps + (k - next) > 0 ?
			    ", " : "", (long long)k);
		/* Rank ids up to INT64_MAX (a damaged rank_id) count too. */
		gaps = r - next > INT64_MAX - gaps ? INT64_MAX : gaps +
		    (r - next);
		next = r < INT64_MAX ? r + 1 : r;
		top = r;
	}
	sqlite3_finalize(stmt);
	snprintf(buf, sizeof buf, "%lld", (long long)n);
	store_load_meta(s, "ranks", buf);
	/* One profile's rank_id, the last read, is not the store's. */
	if (n > 1)
		store_load_meta(s, "rank_id", NULL);
	if (n > 1 && gaps > 0)
		store_load_warning(s, "ranks", -1, "%lld rank%s below %lld "
		    "ha%s no profile here (%s%s): the cluster tables hold the "
		    "others", (long long)gaps, gaps == 1 ? "" : "s",
		    (long long)top, gaps == 1 ? "s" : "ve", gap.s,
		    gaps > 10 ? ", ..." : "");
	strbuf_release(&gap);
	return n;
}

/*
 * At the end of a load of several ranks: the cluster tables of the
 * per-rank tables the store has. A store of one rank gets none.
 */
int
store_cluster_write(struct store *s, char **cause)
{
	int64_t	 known;
	bool	 comm, matrix;
	int	 rc;

	if ((known = store_cluster_ranks(s, cause)) < 0)
		return -1;
	if (known < 2)
		return 0;
	comm = store_cluster_input(s, "communication");
	matrix = store_cluster_input(s, "communication_matrix");
	if (!comm && !matrix)
		return store_cluster_steps(s, cause) != 0 ? -1 :
		    store_cluster_find(s, cause);
	/* The groups first: the steps' stages need them. */
	rc = store_exec(s, comm ? CLUSTER_OPS_SQL : CLUSTER_EMPTY_OPS_SQL,
	    cause) != 0 || store_exec(s, matrix ? CLUSTER_LINKS_SQL :
	    CLUSTER_EMPTY_LINKS_SQL, cause) != 0 ||
	    store_cluster_groups(s, cause) != 0 ||
	    store_cluster_steps(s, cause) != 0 ||
	    (comm && store_cluster_comm(s, cause) != 0) ||
	    (comm && store_cluster_bandwidth(s, cause) != 0) ||
	    (matrix && store_cluster_matrix(s, cause) != 0) ? -1 : 0;
	if (rc == 0)
		rc = store_cluster_find(s, cause);
	if (store_exec(s, "DROP TABLE IF EXISTS temp.cl_c;"
	    " DROP TABLE IF EXISTS temp.cl_l; DROP TABLE IF EXISTS temp.cl_g",
	    rc == 0 ? cause : NULL) != 0)
		rc = -1;
	return rc;
}
