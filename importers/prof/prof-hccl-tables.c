/*
 * The communication tables of a raw collection written from the
 * statistics prof-hccl-stats.c computed (doc/formats.md section 8.7):
 * communication and communication_bandwidth, per type its ops and a
 * Total Op Info summed as the vendor's combine() sums them, and
 * communication_matrix folded as msprof-analyze folds a raw
 * collection's links: per op kind, group and link, the fastest, middle
 * and slowest ops and the total. Numbers print as Python's repr() would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prof-int.h"

static const char *const prof_ht_trans[HS_NTRANS] = {
	"RDMA", "HCCS", "PCIE", "SDMA", "SIO"
};

static void
prof_ht_fmt(char *buf, size_t size, struct prof_hnum x)
{
	if (x.real)
		util_fmt_pyfloat(buf, size, x.v);
	else
		snprintf(buf, size, "%lld", (long long)x.v);
}

/* Add op O into TOTAL, as the vendor's combine adds them. */
static void
prof_ht_total_add(struct prof_hstat *total, const struct prof_hstat *o)
{
	struct prof_hbw		*b;
	size_t			 i;
	int			 t, c;

	for (c = HT_ELAPSE; c <= HT_IDLE; c++)
		prof_hs_add(&total->t[c], o->t[c]);
	for (t = 0; o->bw != NULL && total->bw != NULL && t < HS_NTRANS;
	    t++) {
		b = &total->bw[t];
		prof_hs_add(&b->time, o->bw[t].time);
		prof_hs_add(&b->size, o->bw[t].size);
		if (t == HS_SDMA)
			continue;
		for (i = 0; i < o->bw[t].ndist; i++)
			prof_hs_dist(b, o->bw[t].dist[i].size,
			    o->bw[t].dist[i].count, o->bw[t].dist[i].dur);
	}
}

static const char *const prof_ht_time_cols[] = {
	"Step", "Type", "Op Name", "Start Timestamp(us)", "Elapse Time(ms)",
	"Transit Time(ms)", "Wait Time(ms)", "Synchronization Time(ms)",
	"Idle Time(ms)", "Wait Time Ratio", "Synchronization Time Ratio"
};
static const char *const prof_ht_bw_cols[] = {
	"Step", "Type", "Op Name", "Transport Type", "Transit Size(MB)",
	"Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio",
	"Size Distribution"
};
static const char *const prof_ht_matrix_cols[] = {
	"Step", "Type", "Op Name", "Src Rank", "Dst Rank", "Transport Type",
	"Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)",
	"Link Op Name"
};

/* The time row of op O (named NAME) of type TYPE. */
static void
prof_ht_time_row(struct store *s, const struct prof_hstat *o, const char *name,
    const char *type)
{
	const char	*cells[11];
	char		 buf[8][32];
	int		 c;

	cells[0] = "step";
	cells[1] = type;
	cells[2] = name;
	for (c = 0; c < 8; c++) {
		prof_ht_fmt(buf[c], sizeof buf[c], o->t[c]);
		cells[3 + c] = buf[c];
	}
	store_load_generic_row(s, (char **)(uintptr_t)cells, 11);
}

/* The bandwidth rows of op O: one per transport. */
static void
prof_ht_bw_rows(struct store *s, const struct prof_hstat *o, const char *name,
    const char *type)
{
	const struct prof_hbw	*b;
	const char		*cells[9];
	struct strbuf		 d;
	char			 buf[4][32], x[32], y[32];
	size_t			 i;
	int			 t;

	strbuf_init(&d);
	for (t = 0; t < HS_NTRANS; t++) {
		b = &o->bw[t];
		strbuf_reset(&d);
		for (i = 0; i < b->ndist; i++) {
			util_fmt_pyfloat(x, sizeof x, b->dist[i].size);
			prof_ht_fmt(y, sizeof y, b->dist[i].dur);
			strbuf_addf(&d, "%s%s:%lld:%s", i > 0 ? ";" : "", x,
			    (long long)b->dist[i].count.v, y);
		}
		prof_ht_fmt(buf[0], sizeof buf[0], b->size);
		prof_ht_fmt(buf[1], sizeof buf[1], b->time);
		prof_ht_fmt(buf[2], sizeof buf[2], b->bw);
		prof_ht_fmt(buf[3], sizeof buf[3], b->large);
		cells[0] = "step";
		cells[1] = type;
		cells[2] = name;
		cells[3] = prof_ht_trans[t];
		cells[4] = buf[0];
		cells[5] = buf[1];
		cells[6] = buf[2];
		cells[7] = buf[3];
		cells[8] = d.s != NULL ? d.s : "";
		store_load_generic_row(s, (char **)(uintptr_t)cells, 9);
	}
	strbuf_release(&d);
}

/*
 * Write the time or bandwidth table: per type, its ops and their total.
 * An op's bandwidth columns are worked out for its rows and freed after.
 */
static void
prof_ht_write_ops(struct prof_hstats *x, bool bw)
{
	struct prof_hstat	 total, *o;
	const char		*type;
	size_t			 i, n;
	int			 p, t;

	for (p = 1; p >= 0; p--) {
		type = p ? "p2p" : "collective";
		memset(&total, 0, sizeof total);
		if (bw)
			prof_hs_bw_begin(x, &total, false);
		for (i = n = 0; i < x->nops; i++) {
			o = &x->ops[i];
			if (o->p2p != p || o->dropped)
				continue;
			if (bw) {
				prof_hs_bw_begin(x, o, true);
				prof_ht_bw_rows(x->s, o, o->key, type);
			} else
				prof_ht_time_row(x->s, o, o->key, type);
			prof_ht_total_add(&total, o);
			prof_hs_bw_end(o);
			n++;
		}
		if (n == 0) {
			prof_hs_release(&total);
			continue;
		}
		prof_hs_ratios(total.t);
		for (t = 0; bw && t < HS_NTRANS; t++)
			prof_hs_bandwidth(total.bw, t);
		if (bw)
			prof_ht_bw_rows(x->s, &total, "Total Op Info", type);
		else
			prof_ht_time_row(x->s, &total, "Total Op Info", type);
		prof_hs_release(&total);
	}
}

/* The matrix's transport names by number. */
static const char *
prof_ht_trans_name(int t)
{
	static const char *const n[] = { "HCCS", "PCIE", "RDMA", "LOCAL",
	    "SIO" };

	return t >= 0 && t < 5 ? n[t] : NULL;
}

/*
 * The kind of op KEY: the first of the vendor's op kinds found in it,
 * lower case (leftmost, then in list order), else what precedes "__".
 */
static char *
prof_ht_kind(const char *key)
{
	static const char *const kinds[] = { "send", "reduce", "invalid",
	    "broadcast", "allreduce", "receive", "allgather", "reducescatter",
	    "scatter", "alltoall", "alltoallv", "alltoallvc",
	    "batchsendrecv" };
	const char	*p;
	size_t		 i;

	for (p = key; *p != '\0'; p++) {
		for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
			if (strncasecmp(p, kinds[i], strlen(kinds[i])) == 0)
				return xstrdup(kinds[i]);
		}
	}
	p = strstr(key, "__");
	return p != NULL ? xstrndup(key, (size_t)(p - key)) : xstrdup(key);
}

/* The links of one op kind, group and link, over the ops of a type. */
struct prof_ht_mset {
	char			*kind;
	const char		*group;
	char			*link;		/* "src-dst" */
	const struct prof_hlink	**v;
	size_t			 n;
};
/* One row of the matrix being made: a link of a named entry. */
struct prof_ht_mrow {
	char			*name;		/* kind-which@group */
	const char		*link;
	const struct prof_hlink	*l;		/* NULL for the total */
	int			 type;
	struct prof_hnum	 size;
	struct prof_hnum	 time;
	struct prof_hnum	 bw;
	size_t			 order;		/* of its name */
	size_t			 seq;
};

/* A link of a set and its place there, for a stable sort. */
struct prof_ht_mitem {
	const struct prof_hlink	*l;
	size_t			 i;
};

static int
prof_ht_mitem_cmp(const void *a, const void *b)
{
	const struct prof_ht_mitem	*x = a, *y = b;
	double				 p = prof_hs_link_bw(x->l).v;
	double				 q = prof_hs_link_bw(y->l).v;

	if (p != q)
		return p > q ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Sort the links of M by bandwidth, fastest first, ties kept in order. */
static void
prof_ht_mset_sort(struct prof_ht_mset *m)
{
	struct prof_ht_mitem	*it;
	size_t		 i;

	it = xreallocarray(NULL, m->n + 1, sizeof *it);
	for (i = 0; i < m->n; i++) {
		it[i].l = m->v[i];
		it[i].i = i;
	}
	qsort(it, m->n, sizeof *it, prof_ht_mitem_cmp);
	for (i = 0; i < m->n; i++)
		m->v[i] = it[i].l;
	free(it);
}

/* The sets being made, and the one looked up, for util_map_probe(). */
struct prof_ht_msets {
	struct prof_ht_mset	*m;
	size_t			 n;
	struct prof_ht_mset	 probe;
};

static bool
prof_ht_mset_same(const void *arg, uint64_t k)
{
	const struct prof_ht_msets	*ms = arg;
	const struct prof_ht_mset	*m = &ms->m[k], *p = &ms->probe;

	return strcmp(m->kind, p->kind) == 0 && strcmp(m->group,
	    p->group) == 0 && strcmp(m->link, p->link) == 0;
}

/* The set of link J of op O, of op kind KIND, made if new. */
static struct prof_ht_mset *
prof_ht_mset(struct prof_ht_msets *ms, struct util_map *at,
    const struct prof_hstat *o, size_t j, char *kind, struct strbuf *b)
{
	struct prof_ht_mset	*m;
	uint64_t		 h, k;
	char			 link[24];

	snprintf(link, sizeof link, "%u-%u", (unsigned)(o->links[j].id >> 32),
	    (unsigned)(o->links[j].id & 0xFFFFFFFF));
	ms->probe.kind = kind;
	ms->probe.group = strrchr(o->key, '@') + 1;
	ms->probe.link = link;
	strbuf_reset(b);
	strbuf_addf(b, "%s@%s@%s", kind, ms->probe.group, ms->probe.link);
	h = util_hash64(b->s, b->len);
	if (util_map_probe(at, &h, prof_ht_mset_same, ms, &k))
		return &ms->m[k];
	ms->m = util_grow(ms->m, ms->n, 1, sizeof *ms->m);
	m = &ms->m[ms->n];
	*m = ms->probe;
	m->kind = xstrdup(kind);
	m->link = xstrdup(link);
	util_map_set(at, h, ms->n++);
	return m;
}

/* The sets of op kind, group and link of the ops of type P2P. */
static struct prof_ht_mset *
prof_ht_msets(const struct prof_hstats *x, bool p2p, size_t *np)
{
	struct prof_ht_msets	 ms = { .m = NULL };
	struct prof_ht_mset	*m;
	const struct prof_hstat	*o;
	struct util_map		 at;
	struct strbuf		 b;
	char			*kind;
	size_t			 i, j;

	util_map_init(&at);
	strbuf_init(&b);
	for (i = 0; i < x->nops; i++) {
		o = &x->ops[i];
		if (o->p2p != p2p || o->nlinks == 0)
			continue;
		kind = prof_ht_kind(o->key);
		for (j = 0; j < o->nlinks; j++) {
			m = prof_ht_mset(&ms, &at, o, j, kind, &b);
			m->v = util_grow(m->v, m->n, 1, sizeof *m->v);
			m->v[m->n++] = &o->links[j];
		}
		free(kind);
	}
	strbuf_release(&b);
	util_map_release(&at);
	*np = ms.n;
	return ms.m;
}

/* Add row WHICH of set M (link L, or the total when L is NULL). */
static void
prof_ht_mrow_add(struct prof_ht_mrow **rows, size_t *n,
    const struct prof_ht_mset *m,
    const char *which, const struct prof_hlink *l)
{
	struct prof_ht_mrow	*r;
	size_t		 i;

	*rows = util_grow(*rows, *n, 1, sizeof **rows);
	r = &(*rows)[(*n)++];
	memset(r, 0, sizeof *r);
	xasprintf(&r->name, "%s-%s@%s", m->kind, which, m->group);
	r->link = m->link;
	r->l = l;
	if (l != NULL) {
		r->type = l->type;
		r->size = l->size;
		r->time = l->time;
		r->bw = prof_hs_link_bw(l);
		return;
	}
	r->type = m->v[0]->type;
	for (i = 0; i < m->n; i++) {
		prof_hs_add(&r->size, m->v[i]->size);
		prof_hs_add(&r->time, m->v[i]->time);
	}
	if (r->time.v >= 1e-15 || r->time.v <= -1e-15)
		r->bw = prof_hs_real(util_round4(r->size.v / r->time.v));
}

/* Write row R of the matrix, of type TYPE. */
static void
prof_ht_mrow_write(struct store *s, const struct prof_ht_mrow *r,
    const char *type)
{
	const char	*cells[10];
	char		 buf[3][32], src[24], *op = NULL;
	const char	*dash = strchr(r->link, '-');

	snprintf(src, sizeof src, "%.*s", (int)(dash - r->link), r->link);
	prof_ht_fmt(buf[0], sizeof buf[0], r->size);
	prof_ht_fmt(buf[1], sizeof buf[1], r->time);
	prof_ht_fmt(buf[2], sizeof buf[2], r->bw);
	if (r->l != NULL)
		op = xstrndup(r->l->op, strcspn(r->l->op, "@"));
	cells[0] = "step";
	cells[1] = type;
	cells[2] = r->name;
	cells[3] = src;
	cells[4] = dash + 1;
	cells[5] = prof_ht_trans_name(r->type);
	cells[6] = buf[0];
	cells[7] = buf[1];
	cells[8] = buf[2];
	cells[9] = op;
	store_load_generic_row(s, (char **)(uintptr_t)cells, 10);
	free(op);
}

static int
prof_ht_mrow_cmp(const void *a, const void *b)
{
	const struct prof_ht_mrow	*x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Rows and the name looked up, for util_map_probe(). */
struct prof_ht_mrows {
	const struct prof_ht_mrow	*rows;
	const char			*name;
};

static bool
prof_ht_mrow_same(const void *arg, uint64_t v)
{
	const struct prof_ht_mrows	*r = arg;

	return strcmp(r->rows[v].name, r->name) == 0;
}

/*
 * Sort the N rows ROWS by name, the names in the order they were first
 * made, each name's rows in the order they were made.
 */
static void
prof_ht_mrow_order(struct prof_ht_mrow *rows, size_t n)
{
	struct prof_ht_mrows	 r = { rows, NULL };
	struct util_map		 at;		/* name hash -> its first row */
	uint64_t		 h, v;
	size_t			 i, names = 0;

	util_map_init(&at);
	for (i = 0; i < n; i++) {
		rows[i].seq = i;
		r.name = rows[i].name;
		h = util_hash64(rows[i].name, strlen(rows[i].name));
		if (util_map_probe(&at, &h, prof_ht_mrow_same, &r, &v))
			rows[i].order = rows[v].order;
		else {
			rows[i].order = names++;
			util_map_set(&at, h, i);
		}
	}
	util_map_release(&at);
	if (n > 1)
		qsort(rows, n, sizeof *rows, prof_ht_mrow_cmp);
}

/*
 * The matrix of the ops of type P2P as msprof-analyze folds a raw
 * collection's: per op kind, group and link, the fastest, middle and
 * slowest op's link (and the second and third slowest) and the total.
 */
static void
prof_ht_write_matrix(struct prof_hstats *x, bool p2p)
{
	static const char *const which[] = { "top1", "middle", "bottom1",
	    "total", "bottom2", "bottom3" };
	struct prof_ht_mset	*m;
	struct prof_ht_mrow	*rows = NULL;
	size_t			 nm, n = 0, i, w;

	m = prof_ht_msets(x, p2p, &nm);
	for (i = 0; i < nm; i++) {
		prof_ht_mset_sort(&m[i]);
		prof_ht_mrow_add(&rows, &n, &m[i], which[0], m[i].v[0]);
		prof_ht_mrow_add(&rows, &n, &m[i], which[1],
		    m[i].v[m[i].n / 2]);
		prof_ht_mrow_add(&rows, &n, &m[i], which[2],
		    m[i].v[m[i].n - 1]);
		prof_ht_mrow_add(&rows, &n, &m[i], which[3], NULL);
		if (m[i].n >= 2)
			prof_ht_mrow_add(&rows, &n, &m[i], which[4],
			    m[i].v[m[i].n - 2]);
		if (m[i].n >= 3)
			prof_ht_mrow_add(&rows, &n, &m[i], which[5],
			    m[i].v[m[i].n - 3]);
	}
	/* Each name's links together, names in the order they were made. */
	prof_ht_mrow_order(rows, n);
	for (i = 0; i < n; i++) {
		prof_ht_mrow_write(x->s, &rows[i], p2p ? "p2p" : "collective");
		free(rows[i].name);
	}
	for (w = 0; w < nm; w++) {
		free(m[w].kind);
		free(m[w].link);
		free(m[w].v);
	}
	free(m);
	free(rows);
}

/*
 * Write the communication tables of the ops X computed, those of DEVICE
 * of RANK: per type (p2p, then collective) its ops and their total, and
 * the folded matrix; nothing that has no row.
 */
void
prof_ht_write(struct prof_hstats *x, int64_t device, int64_t rank)
{
	struct store	*s = x->s;
	size_t		 i, links = 0;

	for (i = 0; i < x->nops; i++)
		links += x->ops[i].nlinks;
	if (x->nops > x->nomaster && prof_extra_table_begin(s,
	    "communication", device, rank, prof_ht_time_cols, 11))
		prof_ht_write_ops(x, false);
	if (x->nops > x->nomaster && prof_extra_table_begin(s,
	    "communication_bandwidth", device, rank, prof_ht_bw_cols, 9))
		prof_ht_write_ops(x, true);
	if (links > 0 && prof_extra_table_begin(s, "communication_matrix",
	    device, rank, prof_ht_matrix_cols, 10)) {
		prof_ht_write_matrix(x, true);
		prof_ht_write_matrix(x, false);
	}
}
