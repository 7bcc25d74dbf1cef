/*
 * A device's communication statistics from its HCCL tasks (doc/formats.md
 * section 8.7), computed as the vendor's analysis computes them for
 * communication.json and communication_matrix.json, and written as the
 * tables torch_npu's files give (communication, communication_bandwidth,
 * communication_matrix), in step "step" as msprof-analyze shows a raw
 * collection, each op "<op>@<group>" of type p2p or collective. Per op:
 * the tasks of its master plane give the elapsed, transit, wait,
 * synchronization and idle times; the tasks of every plane give, per
 * transport, the bytes moved, the time, the bandwidth and the packet
 * sizes; per link (src-dst rank) the same. SDMA copies (Memcpy,
 * Reduce_Inline) count on their own, RDMA payloads with the tasks that
 * close them. Numbers follow Python's: an int until a float is added,
 * rounded to 4 places where the vendor rounds, printed as repr() prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prof-int.h"

/* Up to this many sizes or links are searched, past it mapped. */
#define HS_LINEAR	16

/* Bigger than this many MB is a large packet, per transport. */
static const double prof_hs_large[HS_NTRANS] = { 0.5, 32, 32, 0, 32 };

struct prof_hnum
prof_hs_real(double v)
{
	return (struct prof_hnum){ v, true };
}

void
prof_hs_add(struct prof_hnum *a, struct prof_hnum b)
{
	a->v += b.v;
	a->real = a->real || b.real;
}

/* Field F of event E's hccl_info record, HS_NO_RANK without one. */
#define PROF_HS(e, f)	((e)->info != NULL ? (e)->info->f : HS_NO_RANK)

/* The plane of event E: -1 without a record, as the vendor's default. */
static int64_t
prof_hs_plane(const struct prof_hevent *e)
{
	return e->info != NULL ? (int64_t)e->info->plane : -1;
}

static double
prof_hs_size(const struct prof_hevent *e)
{
	return e->info != NULL ? (double)e->info->size : 0;
}

/* An SDMA copy (Memcpy or Reduce_Inline); ON_CHIP too with LOCAL. */
static bool
prof_hs_sdma(const struct prof_hevent *e, bool local)
{
	return (e->task == HT_TASK_MEMCPY || e->task == HT_TASK_REDUCE) &&
	    PROF_HS(e, transport) == HS_TR_SDMA &&
	    (local || PROF_HS(e, link) != HS_LK_ON_CHIP);
}

static bool
prof_hs_payload(const struct prof_hevent *e)
{
	return PROF_HS(e, rdma) == HS_PAYLOAD;
}

static struct prof_hnum
prof_hs_ms(int64_t ns)
{
	return prof_hs_real((double)ns / 1e6);
}

/*
 * The RDMA payloads from V[I] on (*CNT of them) and the tasks that close
 * them (JUMP less one): their time from the first payload to the end of
 * the last closing task and their size in MB; false if the closing tasks
 * are missing.
 */
static bool
prof_hs_rdma(const struct prof_hstats *x, const size_t *v, size_t n, size_t i,
    size_t jump,
    size_t *cnt, struct prof_hnum *time, double *size_mb)
{
	const struct prof_hevent	*last;
	double				 bytes = 0;
	size_t				 k;

	for (*cnt = 0; i + *cnt < n && prof_hs_payload(&x->ev[v[i + *cnt]]);
	    (*cnt)++)
		;
	if (i + *cnt + jump - 2 >= n)
		return false;
	for (k = i; k < i + *cnt; k++)
		bytes += prof_hs_size(&x->ev[v[k]]);
	last = &x->ev[v[i + *cnt + jump - 2]];
	*time = prof_hs_ms(last->d->start_ns + last->d->dur_ns -
	    x->ev[v[i]].d->start_ns);
	*size_mb = bytes / 1e6;
	return true;
}

/* 3 tasks close an RDMA payload of a send or receive, 5 of the rest. */
static size_t
prof_hs_jump(const struct prof_hstats *x, const struct prof_hstat *o)
{
	const char	*n = x->ev[o->ev[0]].op;

	return strcasestr(n, "send") != NULL || strcasestr(n, "receive") !=
	    NULL ? 3 : 5;
}

/* Wait and transit ratios, left alone when their sum is zero. */
void
prof_hs_ratios(struct prof_hnum *t)
{
	double	 d;

	d = t[HT_WAIT].v + t[HT_TRANSIT].v;
	if (d != 0)
		t[HT_WRATIO] = prof_hs_real(util_round4(t[HT_WAIT].v / d));
	d = t[HT_SYNC].v + t[HT_TRANSIT].v;
	if (d != 0)
		t[HT_SRATIO] = prof_hs_real(util_round4(t[HT_SYNC].v / d));
}

/*
 * The tasks of op O's master plane (the plane of its first master task)
 * into V, their number returned; *FIRST the earliest master task's start.
 * 0 if the op has no master task.
 */
static size_t
prof_hs_master(const struct prof_hstats *x, const struct prof_hstat *o,
    size_t *v, int64_t *first)
{
	const struct prof_hevent	*e;
	int64_t				 plane = 0;
	size_t				 i, n = 0;
	bool				 found = false;

	for (i = 0; i < o->nev && !found; i++) {
		if (x->ev[o->ev[i]].d->master) {
			plane = prof_hs_plane(&x->ev[o->ev[i]]);
			found = true;
		}
	}
	if (!found)
		return 0;
	found = false;
	for (i = 0; i < o->nev; i++) {
		e = &x->ev[o->ev[i]];
		if (e->d->master && (!found || e->d->start_ns < *first)) {
			*first = e->d->start_ns;
			found = true;
		}
		if (prof_hs_plane(e) == plane)
			v[n++] = o->ev[i];
	}
	return n;
}

/*
 * Transit, wait and synchronization of op O from the N tasks V of its
 * master plane: copies and closed payload runs are transit, notify waits
 * are waits, and synchronization until the first transit.
 */
static void
prof_hs_walk_times(struct prof_hstats *x, struct prof_hstat *o,
    const size_t *v, size_t n)
{
	const struct prof_hevent	*e;
	struct prof_hnum		 w, rt;
	size_t				 i, cnt, jump;
	bool				 flag = true;
	double				 mb;

	jump = prof_hs_jump(x, o);
	for (i = 0; i < n;) {
		e = &x->ev[v[i]];
		if (prof_hs_sdma(e, false)) {
			flag = false;
			prof_hs_add(&o->t[HT_TRANSIT],
			    prof_hs_ms(e->d->dur_ns));
		}
		if (prof_hs_payload(e)) {
			if (!prof_hs_rdma(x, v, n, i, jump, &cnt, &rt, &mb)) {
				i += cnt;
				continue;
			}
			prof_hs_add(&o->t[HT_TRANSIT], rt);
			i += jump + cnt - 1;
			flag = false;
			continue;
		}
		if (e->task == HT_TASK_WAIT) {
			w = prof_hs_ms(e->d->dur_ns);
			if (flag)
				prof_hs_add(&o->t[HT_SYNC], w);
			prof_hs_add(&o->t[HT_WAIT], w);
		}
		i++;
	}
}

/*
 * The time columns of op O from the tasks of its master plane; false if
 * it has no master task.
 */
static bool
prof_hs_times(struct prof_hstats *x, struct prof_hstat *o)
{
	const struct prof_hevent	*e;
	int64_t				 lo = 0, hi = 0, first = 0;
	size_t				*v, n, i;
	char				 buf[48];

	v = xreallocarray(NULL, o->nev + 1, sizeof *v);
	if ((n = prof_hs_master(x, o, v, &first)) == 0) {
		free(v);
		return false;
	}
	prof_hs_walk_times(x, o, v, n);
	for (i = 0; i < n; i++) {
		e = &x->ev[v[i]];
		if (i == 0 || e->d->start_ns < lo)
			lo = e->d->start_ns;
		if (i == 0 || e->d->start_ns + e->d->dur_ns > hi)
			hi = e->d->start_ns + e->d->dur_ns;
	}
	free(v);
	o->t[HT_ELAPSE] = prof_hs_ms(hi - lo);
	o->t[HT_IDLE] = prof_hs_real(o->t[HT_ELAPSE].v - o->t[HT_TRANSIT].v -
	    o->t[HT_WAIT].v);
	prof_hs_ratios(o->t);
	/* The start in local microseconds, read from its decimal text. */
	snprintf(buf, sizeof buf, "%lld.%03lld", (long long)(first / 1000),
	    (long long)(first % 1000));
	o->t[HT_START] = prof_hs_real(strtod(buf, NULL));
	return true;
}

/*
 * Index size I of B once B has so many that a search would cost: the
 * few sizes of most ops are searched, a map would cost them more.
 */
static void
prof_hs_dist_index(struct prof_hbw *b, uint64_t i)
{
	uint64_t	 key, j;

	if (b->ndist < HS_LINEAR)
		return;
	for (j = b->ndist == HS_LINEAR ? 0 : i; j <= i; j++) {
		memcpy(&key, &b->dist[j].size, sizeof key);
		util_map_set(&b->dist_at, key, j);
	}
}

/*
 * Add COUNT packets of SIZE MB taking DUR to the size distribution of B,
 * sizes in the order first seen.
 */
void
prof_hs_dist(struct prof_hbw *b, double size, struct prof_hnum count,
    struct prof_hnum dur)
{
	uint64_t	 key, i;

	/* Sizes are never -0.0 or NaN: their bits are keys. */
	memcpy(&key, &size, sizeof key);
	if (b->ndist < HS_LINEAR) {
		for (i = 0; i < b->ndist && b->dist[i].size != size; i++)
			;
	} else if (!util_map_get(&b->dist_at, key, &i))
		i = b->ndist;
	if (i == b->ndist) {
		b->dist = util_grow(b->dist, b->ndist, 1, sizeof *b->dist);
		b->ndist++;
		memset(&b->dist[i], 0, sizeof *b->dist);
		b->dist[i].size = size;
		prof_hs_dist_index(b, i);
	}
	prof_hs_add(&b->dist[i].count, count);
	prof_hs_add(&b->dist[i].dur, dur);
}

/* Count SIZE MB moved in DUR into transport B. */
static void
prof_hs_record(struct prof_hbw *b, double size, struct prof_hnum dur)
{
	prof_hs_add(&b->size, prof_hs_real(size));
	prof_hs_add(&b->time, dur);
	prof_hs_dist(b, size, (struct prof_hnum){ 1, false }, dur);
}

/* The transport an SDMA copy counts in: its link's, else SDMA. */
static int
prof_hs_sdma_trans(const struct prof_hevent *e)
{
	switch (PROF_HS(e, link)) {
	case HS_LK_HCCS:
	case HS_LK_HCCS_SW:
		return HS_HCCS;
	case HS_LK_PCIE:
		return HS_PCIE;
	case HS_LK_SIO:
		return HS_SIO;
	}
	return HS_SDMA;
}

/* Bandwidth and large packet ratio of transport T of B. */
void
prof_hs_bandwidth(struct prof_hbw *b, int t)
{
	int64_t	 large = 0, all = 0;
	size_t	 i;

	if (b[t].time.v != 0)
		b[t].bw = prof_hs_real(util_round4(b[t].size.v / 1000 /
		    (b[t].time.v / 1000.0)));
	if (t == HS_SDMA)
		return;
	for (i = 0; i < b[t].ndist; i++) {
		if (b[t].dist[i].size > prof_hs_large[t])
			large += (int64_t)b[t].dist[i].count.v;
		all += (int64_t)b[t].dist[i].count.v;
	}
	if (all > 0)
		b[t].large = prof_hs_real(util_round4((double)large /
		    (double)all));
}

/* SDMA holds its own copies and those counted on a chip link. */
static void
prof_hs_sdma_total(struct prof_hbw *b)
{
	prof_hs_add(&b[HS_SDMA].size, (struct prof_hnum){ b[HS_HCCS].size.v +
	    b[HS_PCIE].size.v + b[HS_SIO].size.v, b[HS_HCCS].size.real ||
	    b[HS_PCIE].size.real || b[HS_SIO].size.real });
	prof_hs_add(&b[HS_SDMA].time, (struct prof_hnum){ b[HS_HCCS].time.v +
	    b[HS_PCIE].time.v + b[HS_SIO].time.v, b[HS_HCCS].time.real ||
	    b[HS_PCIE].time.real || b[HS_SIO].time.real });
}

/*
 * The tasks of op O plane by plane, the planes in the order they first
 * appear, each plane's tasks in order: a counting sort.
 */
static size_t *
prof_hs_by_plane(const struct prof_hstats *x, const struct prof_hstat *o)
{
	struct util_map	 at;		/* plane + 1 -> its rank */
	size_t		*v, *rank, *at_k, i, np = 0;
	uint64_t	 k;

	util_map_init(&at);
	v = xreallocarray(NULL, o->nev + 1, sizeof *v);
	rank = xreallocarray(NULL, o->nev + 1, sizeof *rank);
	at_k = xcalloc(o->nev + 1, sizeof *at_k);
	for (i = 0; i < o->nev; i++) {
		/* -1, no record, is key 0. */
		if (!util_map_get(&at, (uint64_t)(prof_hs_plane(&x->ev[
		    o->ev[i]]) + 1), &k)) {
			k = np++;
			util_map_set(&at, (uint64_t)(prof_hs_plane(&x->ev[
			    o->ev[i]]) + 1), k);
		}
		rank[i] = (size_t)k;
		at_k[k + 1]++;
	}
	for (k = 1; k <= np; k++)
		at_k[k] += at_k[k - 1];
	for (i = 0; i < o->nev; i++)
		v[at_k[rank[i]]++] = o->ev[i];
	free(rank);
	free(at_k);
	util_map_release(&at);
	return v;
}

/* The end of plane run V[I..] in V: where the plane changes. */
static size_t
prof_hs_plane_end(const struct prof_hstats *x, const size_t *v, size_t n,
    size_t i)
{
	int64_t		 p = prof_hs_plane(&x->ev[v[i]]);

	while (i < n && prof_hs_plane(&x->ev[v[i]]) == p)
		i++;
	return i;
}

/* The transport of an RDMA payload's record, or -1 for one not counted. */
static int
prof_hs_rdma_trans(const struct prof_hevent *e)
{
	switch (PROF_HS(e, transport)) {
	case HS_TR_SDMA:
		return HS_SDMA;
	case HS_TR_RDMA:
		return HS_RDMA;
	}
	return -1;
}

/* The link of event E in op O, made if new. */
static struct prof_hlink *
prof_hs_link(struct prof_hstat *o, const struct prof_hevent *e)
{
	uint32_t	 src = PROF_HS(e, src);
	uint32_t	 dst = PROF_HS(e, dst);
	uint64_t	 k, i, j;

	if (dst == HS_NO_RANK)
		dst = src;
	k = (uint64_t)src << 32 | dst;
	if (o->nlinks < HS_LINEAR) {
		for (i = 0; i < o->nlinks && o->links[i].id != k; i++)
			;
	} else if (!util_map_get(&o->link_at, k, &i))
		i = o->nlinks;
	if (i < o->nlinks)
		return &o->links[i];
	o->links = util_grow(o->links, o->nlinks, 1, sizeof *o->links);
	memset(&o->links[o->nlinks++], 0, sizeof *o->links);
	o->links[i].id = k;
	/* Many links (a large all-to-all): a map from then on. */
	for (j = o->nlinks == HS_LINEAR ? 0 : i; o->nlinks >= HS_LINEAR &&
	    j <= i; j++)
		util_map_set(&o->link_at, o->links[j].id, j);
	return &o->links[i];
}

/*
 * The matrix transport of an SDMA copy: LOCAL on chip, HCCS for HCCS_SW,
 * else its link (HCCS 0, PCIE 1, LOCAL 3, SIO 4, any other -1); *LARGE
 * the large packet size of that name.
 */
static int
prof_hs_link_trans(const struct prof_hevent *e, double *large)
{
	*large = 0;
	switch (PROF_HS(e, link)) {
	case HS_LK_ON_CHIP:
		return 3;
	case HS_LK_HCCS:
	case HS_LK_HCCS_SW:
		*large = 32;
		return 0;
	case HS_LK_PCIE:
		*large = 32;
		return 1;
	case HS_LK_SIO:
		*large = 32;
		return 4;
	}
	return -1;
}

/* One link transfer of SIZE MB in TIME, of transport TYPE. */
static void
prof_hs_link_add(struct prof_hlink *l, int type, double size,
    struct prof_hnum time,
    double large)
{
	l->type = type;
	prof_hs_add(&l->size, prof_hs_real(size));
	prof_hs_add(&l->time, time);
	l->packets++;
	if (size > large)
		l->large++;
}

/* Count SDMA copy E of op O in the bandwidth, or with LINKS its link. */
static void
prof_hs_copy(struct prof_hstat *o, const struct prof_hevent *e, bool links)
{
	double	 large;
	int	 type;

	if (!links) {
		prof_hs_record(&o->bw[prof_hs_sdma_trans(e)],
		    prof_hs_size(e) / 1e6,
		    prof_hs_ms(e->d->dur_ns));
		return;
	}
	type = prof_hs_link_trans(e, &large);
	prof_hs_link_add(prof_hs_link(o, e), type, prof_hs_size(e) / 1e6,
	    prof_hs_ms(e->d->dur_ns),
	    large);
}

/* Count payload run RT, MB from E in the bandwidth, or its link. */
static void
prof_hs_run(struct prof_hstats *x, struct prof_hstat *o,
    const struct prof_hevent *e,
    struct prof_hnum rt, double mb, bool links)
{
	int	 t;

	if (links) {
		/* The matrix's numbers: RDMA 2, LOCAL 3; else none. */
		switch (PROF_HS(e, transport)) {
		case HS_TR_RDMA:
			t = 2;
			break;
		case HS_TR_LOCAL:
			t = 3;
			break;
		default:
			t = -1;
		}
		prof_hs_link_add(prof_hs_link(o, e), t, mb, rt,
		    t == 2 ? 0.5 : 0);
	} else if ((t = prof_hs_rdma_trans(e)) >= 0)
		prof_hs_record(&o->bw[t], mb, rt);
	else
		x->odd++;
}

/*
 * Walk the tasks of op O plane by plane: each SDMA copy to another chip
 * and each closed RDMA payload run count in the bandwidth columns; with
 * LINKS, in the links instead, where a task without a local rank is
 * passed over and a copy on chip counts too.
 */
static void
prof_hs_walk(struct prof_hstats *x, struct prof_hstat *o, bool links)
{
	const struct prof_hevent	*e;
	struct prof_hnum			 rt;
	size_t				*v, i, a, b, cnt, jump;
	double				 mb;

	v = prof_hs_by_plane(x, o);
	jump = prof_hs_jump(x, o);
	for (a = 0; a < o->nev; a = b) {
		b = prof_hs_plane_end(x, v, o->nev, a);
		for (i = a; i < b;) {
			e = &x->ev[v[i]];
			if (links && PROF_HS(e, src) ==
			    HS_NO_RANK) {
				i++;
				continue;
			}
			if (prof_hs_sdma(e, links))
				prof_hs_copy(o, e, links);
			if (!prof_hs_payload(e)) {
				i++;
				continue;
			}
			if (!prof_hs_rdma(x, v + a, b - a, i - a, jump, &cnt,
			    &rt, &mb)) {
				x->open += !links;
				i += cnt;
				continue;
			}
			prof_hs_run(x, o, e, rt, mb, links);
			i += jump + cnt - 1;
		}
	}
	free(v);
}

/*
 * Work out the bandwidth columns of op O (with WALK, from its events; a
 * total only gets the room), in a transport array of its own until
 * prof_hs_bw_end: the ops' bandwidths are not all held at once.
 */
void
prof_hs_bw_begin(struct prof_hstats *x, struct prof_hstat *o, bool walk)
{
	int	 t;

	o->bw = xcalloc(HS_NTRANS, sizeof *o->bw);
	if (!walk)
		return;
	prof_hs_walk(x, o, false);
	for (t = 0; t < HS_NTRANS; t++) {
		if (t == HS_SDMA)
			prof_hs_sdma_total(o->bw);
		prof_hs_bandwidth(o->bw, t);
	}
}

/* Free the bandwidth columns of op O. */
void
prof_hs_bw_end(struct prof_hstat *o)
{
	int	 t;

	if (o->bw == NULL)
		return;
	for (t = 0; t < HS_NTRANS; t++) {
		free(o->bw[t].dist);
		util_map_release(&o->bw[t].dist_at);
	}
	free(o->bw);
	o->bw = NULL;
}

/* The links of op O: SDMA copies and RDMA payloads between two ranks. */
static void
prof_hs_links(struct prof_hstats *x, struct prof_hstat *o)
{
	size_t	 i;

	prof_hs_walk(x, o, true);
	for (i = 0; i < o->nlinks; i++)
		o->links[i].op = o->key;
}

/* The bandwidth of link L, worked out when asked: none without a time. */
struct prof_hnum
prof_hs_link_bw(const struct prof_hlink *l)
{
	struct prof_hnum	 z;

	if (l->time.v != 0)
		return prof_hs_real(util_round4(l->size.v / l->time.v));
	memset(&z, 0, sizeof z);
	return z;
}

/* Point-to-point ops are sends, receives and their batches. */
static bool
prof_hs_p2p(const char *key)
{
	return strncasecmp(key, "hcom_send", 9) == 0 ||
	    strncasecmp(key, "hcom_receive", 12) == 0 ||
	    strncasecmp(key, "hcom_batchsendrecv", 18) == 0;
}

/*
 * Group the events from BEGIN on by op key, in order of appearance. The
 * keys are pooled (prof-hccl-join.c): one key, one pointer.
 */
static void
prof_hs_group(struct prof_hstats *x, size_t n, int64_t begin)
{
	struct util_map		 at;		/* key pointer -> op */
	struct prof_hstat	*o;
	uint64_t		 v;
	size_t			 i;

	util_map_init(&at);
	for (i = 0; i < n; i++) {
		if (x->ev[i].d->start_ns < begin)
			continue;
		if (!util_map_get(&at, (uint64_t)(uintptr_t)x->ev[i].key, &v)) {
			v = x->nops;
			x->ops = util_grow(x->ops, x->nops, 1, sizeof *x->ops);
			o = &x->ops[x->nops++];
			memset(o, 0, sizeof *o);
			o->key = x->ev[i].key;
			o->p2p = prof_hs_p2p(x->ev[i].key);
			util_map_set(&at, (uint64_t)(uintptr_t)x->ev[i].key, v);
		}
		o = &x->ops[v];
		o->ev = util_grow(o->ev, o->nev, 1, sizeof *o->ev);
		o->ev[o->nev++] = i;
	}
	util_map_release(&at);
}

void
prof_hs_release(struct prof_hstat *o)
{
	prof_hs_bw_end(o);
	free(o->links);
	util_map_release(&o->link_at);
	free(o->ev);
}

/*
 * Compute into X the communication statistics of device directory DM from
 * the N events EV (sorted in host time order, named), those from the
 * collection's start on; warn about what they leave out. Free X with
 * prof_hs_free().
 */
void
prof_hccl_stats(struct prof_hstats *x, struct store *s,
    struct prof_hevent *ev, size_t n, const struct prof_meta *dm)
{
	size_t	 i;

	memset(x, 0, sizeof *x);
	x->s = s;
	x->ev = ev;
	prof_hs_group(x, n, prof_meta_begin_ns(dm));
	for (i = 0; i < x->nops; i++) {
		/* The matrix needs no master task, the times do. */
		prof_hs_links(x, &x->ops[i]);
		if (!prof_hs_times(x, &x->ops[i])) {
			x->ops[i].dropped = true;
			x->nomaster++;
			continue;
		}
		/* Once here for the warnings; the rows work it out again. */
		prof_hs_bw_begin(x, &x->ops[i], true);
		prof_hs_bw_end(&x->ops[i]);
	}
	if (x->nomaster > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL op%s "
		    "without a master task: no communication time or "
		    "bandwidth", x->nomaster, x->nomaster == 1 ? "" : "s");
	if (x->odd > 0)
		store_load_warning(s, dm->dir, -1, "%zu RDMA payload "
		    "run%s of a transport other than RDMA or SDMA: not in the "
		    "bandwidth", x->odd, x->odd == 1 ? "" : "s");
	if (x->open > 0)
		store_load_warning(s, dm->dir, -1, "%zu RDMA payload "
		    "run%s without the tasks that close them: not in the "
		    "transit time, bandwidth or matrix", x->open, x->open == 1 ?
		    "" : "s");
}

void
prof_hs_free(struct prof_hstats *x)
{
	size_t	 i;

	for (i = 0; i < x->nops; i++)
		prof_hs_release(&x->ops[i]);
	free(x->ops);
}
