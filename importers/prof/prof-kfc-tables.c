/*
 * The MC2 ops and their tasks written as tables kfc_op and kfc_task
 * (doc/formats.md section 4.11), their warnings, and the tasks made
 * events of the device's communication tables (prof-hccl-stats.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-kfc.h"

/* A signed number as a cell, N/A below 0 when NA. */
static void
prof_kfc_tables_i64(struct prof_row *row, int64_t v, bool na)
{
	if (row->n >= PROF_ROW_MAX)
		return;
	if (na && v < 0)
		prof_extra_row_str(row, "N/A");
	else {
		snprintf(row->buf[row->n], sizeof row->buf[0], "%lld",
		    (long long)v);
		prof_extra_row_str(row, row->buf[row->n]);
	}
}

/*
 * A duration in a cell, negative too: an op whose last task ended before
 * its first began has one, as the vendor's.
 */
static void
prof_kfc_tables_dur(struct prof_row *row, int64_t ns)
{
	if (row->n >= PROF_ROW_MAX)
		return;
	if (ns >= 0 || ns == NP_NA) {
		prof_extra_row_us(row, ns);
		return;
	}
	row->buf[row->n][0] = '-';
	util_fmt_us(row->buf[row->n] + 1, sizeof row->buf[0] - 1, -ns, 3,
	    false);
	prof_extra_row_str(row, row->buf[row->n]);
}

/* A bandwidth in GB/s in a cell, with four decimals. */
static void
prof_kfc_tables_bw(struct prof_row *row, double bw)
{
	if (row->n >= PROF_ROW_MAX)
		return;
	snprintf(row->buf[row->n], sizeof row->buf[0], "%.4f", bw);
	prof_extra_row_str(row, row->buf[row->n]);
}

/* A hash as its dictionary's string in a cell, N/A for 0. */
static void
prof_kfc_tables_hash(struct prof_row *row, const struct prof_dicts *d,
    uint64_t v)
{
	if (v == 0)
		prof_extra_row_str(row, "N/A");
	else
		prof_extra_row_str(row, prof_dict_hash(d, v, row->buf[row->n],
		    sizeof row->buf[0]));
}

/* The kfc_op row of op O of device DEVICE. */
static void
prof_kfc_tables_op(struct store *s, const struct prof_host *h,
    const struct prof_kfc_op *o, int64_t device)
{
	const unsigned char	*q = o->opinfo;
	struct prof_row		 row;

	memset(&row, 0, sizeof row);
	prof_extra_row_u64(&row, (uint64_t)device);
	prof_kfc_tables_i64(&row, prof_track_model(h,
	    &h->tracks[o->t->track]), true);
	prof_extra_row_str(&row, o->full);
	prof_extra_row_us(&row, o->start_ns);
	prof_kfc_tables_dur(&row, o->dur_ns);
	prof_kfc_tables_hash(&row, &h->dicts, o->group);
	prof_kfc_tables_hash(&row, &h->dicts, o->op_type);
	if (q != NULL) {
		prof_extra_row_u64(&row, q[24] & 1);
		prof_extra_row_u64(&row, q[24] >> 1 & 1);
		prof_comm_enum_row(&row, PCE_DTYPE, q[25]);
		prof_kfc_tables_hash(&row, &h->dicts, importer_le64(q + 26));
		prof_extra_row_u64(&row, importer_le64(q + 34));
		prof_extra_row_u64(&row, importer_le32(q + 50));
	} else {
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
	}
	prof_extra_row_str(&row, o->hccl ? "HCCL" : "MC2");
	prof_extra_row_u64(&row, o->t->stream);
	prof_extra_row_u64(&row, o->t->task);
	prof_extra_row_load(s, &row);
}

/* The cells of HCCL information P (NULL: none) from its estimate on. */
static void
prof_kfc_tables_info(struct prof_row *row, const unsigned char *p)
{
	uint64_t	 bits;
	double		 est;

	/* A bare one has the vendor's defaults: -1 for its numbers. */
	if (p == NULL) {
		prof_extra_row_str(row, "-1");
		prof_extra_row_u64(row, PROF_KFC_NO_RANK);
		prof_extra_row_u64(row, PROF_KFC_NO_RANK);
		prof_extra_row_str(row, "N/A");
		prof_extra_row_str(row, "-1");
		prof_extra_row_str(row, "N/A");
		prof_extra_row_str(row, "N/A");
		return;
	}
	bits = importer_le64(p + 56);
	memcpy(&est, &bits, sizeof est);
	prof_comm_row_us(row, est);
	prof_extra_row_u64(row, importer_le32(p + 24));
	prof_extra_row_u64(row, importer_le32(p + 28));
	prof_comm_enum_row(row, PCE_TRANSPORT, p[103]);
	prof_extra_row_u64(row, importer_le64(p + 80));
	prof_comm_enum_row(row, PCE_DTYPE, p[101]);
	prof_comm_enum_row(row, PCE_LINK, p[102]);
}

/* The kfc_task row W of device DEVICE. */
static void
prof_kfc_tables_task(struct store *s, const struct prof_host *h,
    const struct prof_kfc_row *w, int64_t device)
{
	const struct prof_kfc_info	*f = w->f;
	const unsigned char		*p = f->p;
	struct prof_row			 row;

	memset(&row, 0, sizeof row);
	prof_extra_row_u64(&row, (uint64_t)device);
	prof_kfc_tables_i64(&row, prof_track_model(h,
	    &h->tracks[w->o->t->track]), true);
	prof_extra_row_str(&row, w->o->full);
	prof_extra_row_us(&row, w->o->start_ns);
	prof_kfc_tables_hash(&row, &h->dicts, p != NULL ? importer_le64(p) :
	    0);
	prof_kfc_tables_hash(&row, &h->dicts, w->group);
	prof_kfc_tables_i64(&row, w->plane, false);
	prof_extra_row_us(&row, f->start_ns);
	prof_extra_row_us(&row, f->dur_ns);
	prof_extra_row_u64(&row, w->master);
	prof_extra_row_u64(&row, f->stream);
	prof_extra_row_u64(&row, f->task);
	prof_kfc_tables_info(&row, p);
	prof_kfc_tables_bw(&row, f->bw);
	prof_kfc_tables_i64(&row, f->ctx == DEV_NO_CONTEXT ? -1 :
	    (int64_t)f->ctx, true);
	if (p != NULL)
		prof_extra_row_u64(&row, importer_le64(p + 40));
	else
		prof_extra_row_str(&row, "N/A");
	prof_kfc_tables_i64(&row, f->t != NULL ? f->t->batch : -1, true);
	if (p != NULL)
		prof_comm_enum_row(&row, PCE_RDMA, p[104]);
	else
		prof_extra_row_str(&row, "N/A");
	prof_extra_row_str(&row, w->o->hccl ? "HCCL" : "MC2");
	prof_extra_row_load(s, &row);
}

/*
 * C's ops in kfc_op's order: per group (in its first op's order), its
 * ops, by start once the vendor has given the group tasks. Returns their
 * number; *V is the caller's to free.
 */
static size_t
prof_kfc_tables_order(struct prof_kfc_calc *c, const struct prof_kfc_op ***v)
{
	const struct prof_kfc_op	**ops;
	uint64_t			*og = NULL;
	size_t				 nog = 0, i, j, n, nv = 0;
	bool				 sort;

	*v = NULL;
	for (i = 0; i < c->nops; i++) {
		for (j = 0; j < nog && og[j] != c->ops[i].group; j++)
			;
		if (j < nog)
			continue;
		og = util_grow(og, nog, 1, sizeof *og);
		og[nog++] = c->ops[i].group;
		/* The vendor sorts a group's ops once it gives them tasks. */
		for (j = 0, sort = false; j < c->ngroups; j++)
			sort = sort || c->groups[j] == c->ops[i].group;
		n = prof_kfc_ops_of_group(c, c->ops[i].group, sort, &ops);
		*v = util_grow(*v, nv, n, sizeof **v);
		for (j = 0; j < n; j++)
			(*v)[nv++] = ops[j];
		free(ops);
	}
	free(og);
	return nv;
}

/* Warn of what C could not join, in DIR. */
static void
prof_kfc_tables_warn(const struct prof_kfc_calc *c, struct store *s,
    const char *dir)
{
	if (c->noname > 0)
		store_load_warning(s, dir, -1, "%zu MC2 op%s whose node is not "
		    "of GE type COMMUNICATION or HCCL_AI_CPU: named N/A, with "
		    "its kernel's times", c->noname, c->noname == 1 ? "" : "s");
	if (c->nomaster > 0)
		store_load_warning(s, dir, -1, "%zu first or last task "
		    "record%s (aicpu.data kind 12) without a communication "
		    "task, or of an unknown type: left out of the MC2 ops' "
		    "times", c->nomaster, c->nomaster == 1 ? "" : "s");
	if (c->noinfo_task > 0)
		store_load_warning(s, dir, -1, "%zu KFC HCCL information%s "
		    "(aicpu.data kind 13) without a device task: no kfc_task "
		    "row", c->noinfo_task, c->noinfo_task == 1 ? "" : "s");
	if (c->nomatch > 0)
		store_load_warning(s, dir, -1, "%zu MC2 communication task%s "
		    "ending outside every op of their group: no kfc_task row",
		    c->nomatch, c->nomatch == 1 ? "" : "s");
	if (c->same_time > 0)
		store_load_warning(s, dir, -1, "%zu first or last task "
		    "record%s at the time of an earlier one of their AI CPU "
		    "stream: merged into it (its type and task kept), as the "
		    "vendor's", c->same_time, c->same_time == 1 ? "" : "s");
}

#define PROF_KFC_LANE	1000000		/* + a group's index: its lane */

/* An MC2 op of the timeline: the master kfc_task rows of one op. */
struct prof_kfc_bar {
	const struct prof_kfc_op	*o;	/* its last row's */
	int64_t				 lo;	/* first start */
	int64_t				 hi;	/* last end */
	size_t				 lane;
};

/*
 * The connection id of op O: its kernel's host span's row, or NP_NA. An
 * op's kernel always has its host task (prof_kfc_ops_build).
 */
static int64_t
prof_kfc_tables_conn(const struct prof_host *h, const struct prof_kfc_op *o)
{
	uint32_t	 row = h->tracks[o->t->track].row;

	return row != 0 ? (int64_t)row : NP_NA;
}

/* Rows by op name, then op start, then place. */
static int
prof_kfc_tables_row_cmp(const void *va, const void *vb)
{
	const struct prof_kfc_row *const	*a = va, *const *b = vb;
	int					 d;

	if ((d = strcmp((*a)->o->full, (*b)->o->full)) != 0)
		return d;
	if ((*a)->o->start_ns != (*b)->o->start_ns)
		return (*a)->o->start_ns < (*b)->o->start_ns ? -1 : 1;
	return *a < *b ? -1 : *a > *b;
}

/*
 * The MC2 ops of C as the vendor's timeline draws them: per op name and
 * op start, the first start to the last end of its master kfc_task rows,
 * for ops of Source MC2 only, but those whose times are out of range.
 * Returns their number; *V is the caller's.
 */
static size_t
prof_kfc_tables_bars(const struct prof_kfc_calc *c, struct prof_kfc_bar **v)
{
	const struct prof_kfc_row	**r = NULL, *w;
	struct prof_kfc_bar		*b = NULL;
	size_t				 nr = 0, nb = 0, i;

	for (i = 0; i < c->nrows; i++) {
		if (!c->rows[i].master || c->rows[i].o->hccl)
			continue;
		r = util_grow(r, nr, 1, sizeof *r);
		r[nr++] = &c->rows[i];
	}
	if (nr > 1)
		qsort(r, nr, sizeof *r, prof_kfc_tables_row_cmp);
	for (i = 0; i < nr; i++) {
		w = r[i];
		if (nb == 0 || strcmp(b[nb - 1].o->full, w->o->full) != 0 ||
		    b[nb - 1].o->start_ns != w->o->start_ns) {
			b = util_grow(b, nb, 1, sizeof *b);
			b[nb].lo = w->f->start_ns;
			b[nb++].hi = w->f->start_ns + w->f->dur_ns;
		}
		b[nb - 1].o = w->o;
		if (w->f->start_ns < b[nb - 1].lo)
			b[nb - 1].lo = w->f->start_ns;
		if (w->f->start_ns + w->f->dur_ns > b[nb - 1].hi)
			b[nb - 1].hi = w->f->start_ns + w->f->dur_ns;
	}
	free(r);
	/* A bar whose times are out of range is none. */
	for (i = nr = 0; i < nb; i++)
		if (prof_meta_sane(b[i].lo) && prof_meta_sane(b[i].hi -
		    b[i].lo))
			b[nr++] = b[i];
	*v = b;
	return nr;
}

/*
 * The vendor's args of bar B to SB: its connection id and model, and the
 * rank size, data type, algorithm, count, relay and retry of the last op
 * in kfc_op's order, ORDER, with its connection id (LAST maps each
 * connection id to that op's place in ORDER): the vendor's defaults
 * without an op information; relay and retry "yes" or "no" as its C++
 * timeline writes them.
 */
static void
prof_kfc_tables_bar_args(struct strbuf *sb, const struct prof_host *h,
    const struct prof_kfc_bar *b, const struct prof_kfc_op **order,
    const struct util_map *last)
{
	const unsigned char	*q = b->o->opinfo;
	struct prof_row		 row;
	int64_t			 conn = prof_kfc_tables_conn(h, b->o);
	uint64_t		 v;

	if (conn != NP_NA && util_map_get(last, (uint64_t)conn, &v))
		q = order[v]->opinfo;
	memset(&row, 0, sizeof row);
	if (q != NULL) {
		prof_comm_enum_row(&row, PCE_DTYPE, q[25]);
		prof_kfc_tables_hash(&row, &h->dicts, importer_le64(q + 26));
	}
	strbuf_addf(sb, ",\"rank_size\":%lld", q != NULL ?
	    (long long)importer_le32(q + 50) : -1LL);
	if (conn != NP_NA)
		strbuf_addf(sb, ",\"connection_id\":%lld", (long long)conn);
	strbuf_addf(sb, ",\"model id\":%lld,\"data_type\":\"",
	    (long long)prof_track_model(h, &h->tracks[b->o->t->track]));
	prof_fwk_rec_json(sb, q != NULL ? row.cells[0] : "N/A", false);
	strbuf_adds(sb, "\",\"alg_type\":\"");
	prof_fwk_rec_json(sb, q != NULL ? row.cells[1] : "N/A", false);
	strbuf_addf(sb, "\",\"count\":%lld,\"relay\":\"%s\",\"retry\":\"%s\"",
	    q != NULL ? (long long)importer_le64(q + 34) : -1LL,
	    q != NULL && (q[24] & 1) ? "yes" : "no",
	    q != NULL && (q[24] >> 1 & 1) ? "yes" : "no");
}

/*
 * The MC2 ops of C (prof_kfc_tables_bars) as spans of level mc2, named
 * as in kfc_op, on a lane per group under their device, named as the
 * vendor's timeline names it ("Group <group> Aicpu Communication"; its
 * tid PROF_KFC_LANE + the group's index in kfc_op's order of its first
 * op with a span), with their type, group, source and kernel and the
 * vendor's args (prof_kfc_tables_bar_args). ORDER holds C's NORDER ops in
 * kfc_op's order (prof_kfc_tables_order).
 */
static void
prof_kfc_tables_spans(struct prof_kfc_calc *c, struct store *s,
    const struct prof_kfc_op **order, size_t norder, int64_t device,
    int64_t rank)
{
	const struct prof_dicts		*d = &c->k->h->dicts;
	const struct prof_kfc_op	*o;
	struct prof_kfc_bar		*bars;
	struct store_api		 sp;
	struct strbuf			 b;
	struct util_map			 last;
	uint64_t			*g = NULL;
	int64_t				 conn;
	size_t				*at, nbars, ng = 0, i, j, k;
	char				 gb[32], tb[32], lane[96];
	const char			*group;

	nbars = prof_kfc_tables_bars(c, &bars);
	util_map_init(&last);
	for (k = 0; k < norder; k++)
		if ((conn = prof_kfc_tables_conn(c->k->h, order[k])) != NP_NA)
			util_map_set(&last, (uint64_t)conn, k);
	/* Lanes in kfc_op's order of the groups' first ops with bars. */
	at = xcalloc(c->nops + 1, sizeof *at);
	for (i = 0; i < nbars; i++)
		at[bars[i].o - c->ops] = i + 1;
	for (k = 0; k < norder; k++) {
		if ((i = at[order[k] - c->ops]) == 0)
			continue;
		for (j = 0; j < ng && g[j] != order[k]->group; j++)
			;
		if (j == ng) {
			g = util_grow(g, ng, 1, sizeof *g);
			g[ng++] = order[k]->group;
		}
		bars[i - 1].lane = j;
	}
	free(at);
	strbuf_init(&b);
	for (j = 0; j < ng; j++) {
		if (g[j] == 0)
			snprintf(lane, sizeof lane, "Aicpu Communication");
		else
			snprintf(lane, sizeof lane, "Group %s Aicpu "
			    "Communication", prof_dict_hash(d, g[j], gb,
			    sizeof gb));
		store_trace_load_lane(s, device, rank, device,
		    PROF_KFC_LANE + (int64_t)j, "name", lane);
	}
	for (i = 0; i < nbars; i++) {
		o = bars[i].o;
		group = o->group == 0 ? "N/A" : prof_dict_hash(d, o->group, gb,
		    sizeof gb);
		strbuf_reset(&b);
		strbuf_adds(&b, "{\"Op Type\":\"");
		prof_fwk_rec_json(&b, o->op_type == 0 ? "N/A" :
		    prof_dict_hash(d, o->op_type, tb, sizeof tb), false);
		strbuf_adds(&b, "\",\"Group Name\":\"");
		prof_fwk_rec_json(&b, group, false);
		strbuf_addf(&b, "\",\"Source\":\"MC2\",\"Stream ID\":%u,"
		    "\"Task ID\":%u", o->t->stream, o->t->task);
		prof_kfc_tables_bar_args(&b, c->k->h, &bars[i], order, &last);
		strbuf_adds(&b, "}");
		store_load_api_init(&sp, PROF_KFC_LANE + (int64_t)bars[i].lane,
		    bars[i].lo, bars[i].hi, "mc2", o->full);
		sp.device = device;
		sp.rank = rank;
		sp.pid = device;
		sp.depth = 0;
		sp.args = b.s;
		store_load_api(s, &sp);
	}
	free(g);
	free(bars);
	util_map_release(&last);
	strbuf_release(&b);
}

/* Write tables kfc_op and kfc_task of C, device of DM (RANK); warn. */
void
prof_kfc_tables_write(struct prof_kfc_calc *c, struct store *s,
    const struct prof_meta *dm, int64_t rank)
{
	static const char *const opcols[] = { "Device_id", "Model ID",
	    "Op Name", "Start Time(us)", "Duration(us)", "Group Name",
	    "Op Type", "Relay", "Retry", "Data Type", "Alg Type", "Count",
	    "Rank Size", "Source", "Stream ID", "Task ID" };
	static const char *const taskcols[] = { "Device_id", "Model ID",
	    "Op Name", "Op Start Time(us)", "HCCL Name", "Group Name",
	    "Plane ID", "Start Time(us)", "Duration(us)", "Is Master",
	    "Stream ID", "Task ID", "Duration Estimated(us)", "Src Rank",
	    "Dst Rank", "Transport Type", "Size(Byte)", "Data Type",
	    "Link Type", "Bandwidth(GB/s)", "Context ID", "Notify ID",
	    "Batch ID", "Rdma Type", "Source" };
	const struct prof_kfc_op	**order;
	size_t				 i, n;

	n = prof_kfc_tables_order(c, &order);
	if (n > 0 && prof_extra_table_begin(s, "kfc_op", dm->device, rank,
	    opcols, sizeof opcols / sizeof opcols[0]))
		for (i = 0; i < n; i++)
			prof_kfc_tables_op(s, c->k->h, order[i], dm->device);
	prof_kfc_tables_spans(c, s, order, n, dm->device, rank);
	free(order);
	if (c->nrows > 0 && prof_extra_table_begin(s, "kfc_task", dm->device,
	    rank, taskcols, sizeof taskcols / sizeof taskcols[0])) {
		for (i = 0; i < c->nrows; i++)
			prof_kfc_tables_task(s, c->k->h, &c->rows[i],
			    dm->device);
	}
	prof_kfc_tables_warn(c, s, dm->dir);
}

/*
 * S once in K's pool (S is taken): one string, one pointer, as the
 * communication statistics group events on their key's pointer.
 */
static bool
prof_kfc_tables_same(const void *arg, uint64_t v)
{
	const struct prof_kfc	*k = arg;

	return strcmp(k->strs[v], k->probe) == 0;
}

static char *
prof_kfc_tables_intern(struct prof_kfc *k, char *s)
{
	uint64_t	 h = util_hash64(s, strlen(s)), v;

	k->probe = s;
	if (util_map_probe(&k->strs_at, &h, prof_kfc_tables_same, k, &v)) {
		free(s);
		return k->strs[v];
	}
	k->strs = util_grow(k->strs, k->nstrs, 1, sizeof *k->strs);
	k->strs[k->nstrs] = s;
	util_map_set(&k->strs_at, h, k->nstrs);
	return k->strs[k->nstrs++];
}

/* The HCCL information of row W (its information P) for the statistics. */
static void
prof_kfc_tables_hinfo(struct prof_hinfo *f, const struct prof_kfc_row *w,
    const unsigned char *p)
{
	f->name = importer_le64(p);
	f->group = importer_le64(p + 16);
	f->size = importer_le64(p + 80);
	f->src = importer_le32(p + 24);
	f->dst = importer_le32(p + 28);
	f->plane = (uint32_t)w->plane;
	f->ctx = w->f->ctx;
	f->link = p[102];
	f->transport = p[103];
	f->rdma = p[104];
}

/*
 * The task rows of C as events of the device's communication tables, in
 * C->k (as msprof --analyze takes the vendor's KfcTask rows with its HCCL
 * tasks): op <name>@<group>, master flag, times and information.
 */
void
prof_kfc_tables_events(struct prof_kfc_calc *c)
{
	struct prof_kfc			*k = c->k;
	const struct prof_kfc_row	*w;
	struct prof_hevent		*e;
	char				 buf[32], *key;
	size_t				 i;

	if (c->nrows == 0)
		return;
	k->descs = xcalloc(c->nrows, sizeof *k->descs);
	k->infos = xcalloc(c->nrows, sizeof *k->infos);
	k->ev = xcalloc(c->nrows, sizeof *k->ev);
	for (i = 0; i < c->nrows; i++) {
		w = &c->rows[i];
		e = &k->ev[k->nev++];
		k->descs[i].info = -1;
		k->descs[i].master = w->master;
		k->descs[i].start_ns = w->f->start_ns;
		k->descs[i].dur_ns = w->f->dur_ns;
		e->d = &k->descs[i];
		if (w->f->p != NULL) {
			prof_kfc_tables_hinfo(&k->infos[i], w, w->f->p);
			e->info = &k->infos[i];
		}
		e->task = prof_hccl_join_task(k->h, e->info);
		e->op = prof_kfc_tables_intern(k, xstrdup(w->o->full));
		e->group = prof_kfc_tables_intern(k, xstrdup(w->group == 0 ?
		    "N/A" : prof_dict_hash(&k->h->dicts, w->group, buf,
		    sizeof buf)));
		xasprintf(&key, "%s@%s", e->op, e->group);
		e->key = prof_kfc_tables_intern(k, key);
		e->iter = 1;
	}
}
