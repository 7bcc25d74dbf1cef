/*
 * HCCL ops and their tasks rebuilt from the host records (doc/formats.md
 * section 3.10), as the vendor's parser builds them for op_summary and for
 * its communication analysis: every task_track record under an HCCL span
 * is an HCCL task, once per hccl_info record of that span (by context
 * id), master if the span's type is "master"; every node span holding
 * such a task is an HCCL op. Once a device's tasks have their device
 * times, each thread's tasks are given to its ops in host time order (a
 * task belongs to the first op not yet ended when it was launched), the
 * ops are named <op>_<last 3 characters of the group>_<index>_<iteration>
 * and each becomes one COMMUNICATION row of op_summary, from its first
 * master task's start to the latest end of its master tasks.
 * prof-hccl-stats.c computes the communication tables from the same
 * tasks.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_HCCL_NO_CTX	4294967295U

/* For each span of the node level, the last hccl_op_info it holds. */
static int32_t *
prof_hccl_op_infos(const struct prof_host *h)
{
	const struct prof_recs	*x = &h->extra[PX_HCCL_OP];
	int32_t			*owner, *of;
	size_t			 i;

	of = xreallocarray(NULL, h->nspans + 1, sizeof *of);
	for (i = 0; i < h->nspans; i++)
		of[i] = -1;
	owner = xreallocarray(NULL, x->n + 1, sizeof *owner);
	prof_ops_owners(h, x->ix, x->n, sizeof *x->ix, PROF_LEVEL_NODE, owner);
	for (i = 0; i < x->n; i++) {
		if (owner[i] >= 0)
			of[owner[i]] = (int32_t)i;
	}
	free(owner);
	return of;
}

/*
 * The hccl_info records of each HCCL span, as lists in thread and time
 * order: FIRST[span] and NEXT[record index in ix order], -1 ending them.
 */
static void
prof_hccl_infos(const struct prof_host *h, int32_t **first, int32_t **next)
{
	const struct prof_recs	*x = &h->extra[PX_HCCL];
	int32_t			*owner, *last;
	size_t			 i;

	*first = xreallocarray(NULL, h->nspans + 1, sizeof **first);
	last = xreallocarray(NULL, h->nspans + 1, sizeof *last);
	*next = xreallocarray(NULL, x->n + 1, sizeof **next);
	for (i = 0; i < h->nspans; i++)
		(*first)[i] = last[i] = -1;
	owner = xreallocarray(NULL, x->n + 1, sizeof *owner);
	prof_ops_owners(h, x->ix, x->n, sizeof *x->ix, PROF_LEVEL_HCCL, owner);
	for (i = 0; i < x->n; i++) {
		(*next)[i] = -1;
		if (owner[i] < 0)
			continue;
		if (last[owner[i]] < 0)
			(*first)[owner[i]] = (int32_t)i;
		else
			(*next)[last[owner[i]]] = (int32_t)i;
		last[owner[i]] = (int32_t)i;
	}
	free(owner);
	free(last);
}

/*
 * For each HCCL span, its context range: the last HCCL-level
 * context_id_info it holds, as an index into hcinfos, or -1.
 */
static int32_t *
prof_hccl_ranges(struct prof_host *h)
{
	int32_t	*owner, *of;
	size_t	 i;

	of = xreallocarray(NULL, h->nspans + 1, sizeof *of);
	for (i = 0; i < h->nspans; i++)
		of[i] = -1;
	owner = xreallocarray(NULL, h->nhcinfos + 1, sizeof *owner);
	prof_ops_owners(h, h->hcinfos, h->nhcinfos, sizeof *h->hcinfos,
	    PROF_LEVEL_HCCL, owner);
	for (i = 0; i < h->nhcinfos; i++) {
		if (owner[i] >= 0)
			of[owner[i]] = (int32_t)i;
	}
	free(owner);
	return of;
}

/*
 * The task of track I with context id KEY among those made for it (AT
 * maps their keys), made if there is none yet; NULL past the cap.
 */
static struct prof_hdesc *
prof_hccl_desc(struct prof_host *h, struct util_map *at, size_t i,
    uint32_t key, bool master)
{
	struct prof_hdesc	*d;
	uint64_t		 v;

	if (util_map_get(at, key, &v))
		return &h->hdescs[v];
	if (h->nhdescs >= PROF_HCCL_MAX_TASKS) {
		h->hdesc_lost++;
		return NULL;
	}
	h->hdescs = util_grow(h->hdescs, h->nhdescs, 1, sizeof *h->hdescs);
	util_map_set(at, key, h->nhdescs);
	d = &h->hdescs[h->nhdescs++];
	d->track = (uint32_t)i;
	d->info = -1;
	d->key = key;
	d->ctx = PROF_HCCL_NO_CTX;
	d->same = -1;
	d->master = master;
	d->start_ns = d->dur_ns = NP_NA;
	return d;
}

/*
 * Add the tasks of track I under HCCL span SP, as the vendor's parser
 * makes them: one per context id of its hccl_info records (a later record
 * of an id replaces the earlier) and of its context range RANGE (an
 * FFTS+ task; -1 for none), else one. Only the ids of the range are
 * device contexts; a task made from a record alone has none.
 */
static void
prof_hccl_add(struct prof_host *h, size_t i, int32_t sp, const int32_t *first,
    const int32_t *next, int32_t range)
{
	const struct prof_list	*r;
	struct prof_hdesc	*d;
	struct util_map		 at;
	size_t			 base = h->nhdescs;
	uint32_t		 c;
	int32_t			 k;
	char			 buf[32];
	bool			 master;

	master = strcmp(prof_dict_type(&h->dicts, PROF_LEVEL_HCCL,
	    h->spans[sp].type, buf, sizeof buf), "master") == 0;
	util_map_init(&at);
	for (k = first[sp]; k >= 0; k = next[k]) {
		d = prof_hccl_desc(h, &at, i, h->hinfos[k].ctx, master);
		if (d != NULL)
			d->info = k;
	}
	if (range >= 0) {
		r = &h->hcinfos[range];
		for (c = 0; c < r->n; c++) {
			d = prof_hccl_desc(h, &at, i, r->first + c,
			    master);
			if (d != NULL)
				d->ctx = r->first + c;
		}
	}
	if (h->nhdescs == base)
		prof_hccl_desc(h, &at, i, PROF_HCCL_NO_CTX, master);
	util_map_release(&at);
}

/*
 * The first HCCL task of track I, or -1: the tasks are made in track
 * order, a track's together.
 */
int64_t
prof_hccl_first(const struct prof_host *h, size_t i)
{
	size_t	 lo = 0, hi = h->nhdescs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->hdescs[mid].track < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < h->nhdescs && h->hdescs[lo].track == i ? (int64_t)lo : -1;
}

/*
 * Chain the tasks of each track by device context (low 16 bits, as the
 * join keys them), in the order they were made: hdesc_at maps track and
 * context to the first, same leads to the next.
 */
static void
prof_hccl_index(struct prof_host *h)
{
	struct util_map32	 tail;		/* track, ctx -> last task */
	uint64_t		 key;
	uint32_t		 v;
	size_t			 j;

	util_map32_init(&tail);
	util_map32_reserve(&h->hdesc_at, h->nhdescs);
	for (j = 0; j < h->nhdescs; j++) {
		key = (uint64_t)h->hdescs[j].track << 16 |
		    (h->hdescs[j].ctx & 0xFFFF);
		if (util_map32_get(&tail, key, &v))
			h->hdescs[v].same = (int32_t)j;
		else
			util_map32_set(&h->hdesc_at, key, (uint32_t)j);
		util_map32_set(&tail, key, (uint32_t)j);
	}
	util_map32_release(&tail);
}

/* A span of prof_hccl_kfc_span()'s window, with its index. */
struct prof_hccl_ev {
	uint64_t	 begin;
	uint64_t	 end;
	size_t		 i;
	uint16_t	 level;
};

/*
 * The vendor's order of events: by start, outer levels first, then as
 * its records come, which is when the API ended (the array's order on
 * the rest).
 */
static int
prof_hccl_tree_cmp(const void *a, const void *b)
{
	const struct prof_hccl_ev	*x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	if (x->level != y->level)
		return x->level > y->level ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The last node span nested right inside node span P (no node span
 * between them), -1 if none: an AI CPU HCCL op's node holds the nodes
 * that launch its kernels (section 4.11, its name). As the vendor's tree
 * builder: the spans of P's thread starting in P, but those of no length,
 * in its order (by start, outer levels first, then by end); each after P
 * closes the open spans it ends after or is of a level above, and is a
 * child of the one left, P's children ending when P is closed.
 */
int32_t
prof_hccl_kfc_span(const struct prof_host *h, size_t p)
{
	const struct prof_span		*sp = &h->spans[p];
	struct prof_hccl_ev		*w, *q, *top;
	size_t				*open, n = 0, nopen = 0, lo, hi, i, at;
	int32_t				 last = -1;

	for (lo = p; lo > 0 && h->spans[lo - 1].tid == sp->tid &&
	    h->spans[lo - 1].begin == sp->begin; lo--)
		;
	for (hi = p + 1; hi < h->nspans && h->spans[hi].tid == sp->tid &&
	    h->spans[hi].begin <= sp->end; hi++)
		;
	w = xreallocarray(NULL, hi - lo, sizeof *w);
	open = xreallocarray(NULL, hi - lo, sizeof *open);
	for (i = lo; i < hi; i++) {
		if (i != p && h->spans[i].begin == h->spans[i].end)
			continue;
		w[n].begin = h->spans[i].begin;
		w[n].end = h->spans[i].end;
		w[n].level = h->spans[i].level;
		w[n++].i = i;
	}
	qsort(w, n, sizeof *w, prof_hccl_tree_cmp);
	for (at = 0; w[at].i != p; at++)
		;
	open[nopen++] = at;
	for (i = at + 1; i < n; i++) {
		q = &w[i];
		while (nopen > 0) {
			top = &w[open[nopen - 1]];
			if (q->end <= top->end && q->level <= top->level)
				break;
			nopen--;
		}
		if (nopen == 0)
			break;
		if (nopen == 1 && q->level == PROF_LEVEL_NODE)
			last = (int32_t)q->i;
		open[nopen++] = i;
	}
	free(open);
	free(w);
	return last;
}

/*
 * The op type of HCCL op HOP of H: the dictionary's string (it lives as
 * long as H), or "N/A" if the op has none or the dictionary no name.
 */
const char *
prof_hccl_op_type(const struct prof_host *h, uint32_t hop)
{
	uint64_t	 t = h->hops[hop].op_type;
	const char	*s;
	char		 buf[32];

	if (t == 0)
		return "N/A";
	s = prof_dict_hash(&h->dicts, t, buf, sizeof buf);
	return s == buf ? "N/A" : s;
}

/* The op of node span SP, made on its first task I. */
static void
prof_hccl_op(struct prof_host *h, struct util_map *ops, size_t i,
    const int32_t *op_info)
{
	const struct prof_track	*t = &h->tracks[i];
	const struct prof_span	*sp = &h->spans[t->span];
	struct prof_hop		*o;
	uint64_t		 v;

	if (util_map_get(ops, (uint64_t)t->span, &v))
		return;
	h->hops = util_grow(h->hops, h->nhops, 1, sizeof *h->hops);
	o = &h->hops[h->nhops];
	util_map_set(ops, (uint64_t)t->span, h->nhops++);
	o->begin = sp->begin;
	o->end = sp->end;
	o->item = sp->item;
	o->tid = sp->tid;
	o->track = (uint32_t)i;
	o->kfc_span = prof_hccl_kfc_span(h, (size_t)t->span);
	o->device = t->device;
	o->op_type = t->node >= 0 ?
	    h->nkinds[t->node].op_type : 0;
	o->group = op_info[t->span] >= 0 ? importer_le64(prof_extra_rec(
	    &h->extra[PX_HCCL_OP], (size_t)op_info[t->span]) + 42) : 0;
}

/*
 * Find the HCCL tasks and ops of H. The spans must still hold the HCCL
 * level, the tracks and HCCL-level context ranges be sorted by thread and
 * time (prof_ops_build).
 */
void
prof_hccl_build(struct prof_host *h)
{
	struct util_map	 ops;
	int32_t		*owner, *first, *next, *op_info, *range;
	size_t		 i;

	util_map32_init(&h->hdesc_at);
	/* No HCCL span, no HCCL task: spare the per-span arrays. */
	for (i = 0; i < h->nspans; i++) {
		if (h->spans[i].level == PROF_LEVEL_HCCL)
			break;
	}
	if (h->ntracks == 0 || i == h->nspans)
		return;
	owner = xreallocarray(NULL, h->ntracks + 1, sizeof *owner);
	prof_ops_owners(h, h->tracks, h->ntracks, sizeof *h->tracks,
	    PROF_LEVEL_HCCL, owner);
	prof_hccl_infos(h, &first, &next);
	op_info = prof_hccl_op_infos(h);
	range = prof_hccl_ranges(h);
	util_map_init(&ops);
	for (i = 0; i < h->ntracks; i++) {
		if (owner[i] < 0 || h->tracks[i].type == PROF_TASK_FLIP ||
		    h->tracks[i].type == PROF_TASK_MAINTENANCE)
			continue;
		prof_hccl_add(h, i, owner[i], first, next, range[owner[i]]);
		if (h->tracks[i].span >= 0)
			prof_hccl_op(h, &ops, i, op_info);
	}
	util_map_release(&ops);
	prof_hccl_index(h);
	free(range);
	free(op_info);
	free(first);
	free(next);
	free(owner);
}

/*
 * Give the HCCL tasks of host task TRACK with device context CTX
 * (UINT32_MAX for none) the times of the device task it ran as.
 */
void
prof_hccl_time(struct prof_host *h, uint64_t track, uint32_t ctx,
    int64_t start_ns, int64_t dur_ns)
{
	struct prof_hdesc	*d;
	uint32_t		 v;
	int32_t			 j;

	if (h->nhdescs == 0 || !util_map32_get(&h->hdesc_at, track << 16 |
	    (ctx & 0xFFFF), &v))
		return;
	for (j = (int32_t)v; j >= 0; j = d->same) {
		d = &h->hdescs[j];
		d->start_ns = start_ns;
		d->dur_ns = dur_ns;
	}
}

/*
 * Pack what the HCCL tasks read of the hccl_info records of H, once their
 * table is written, and free the records (their order stays).
 */
void
prof_hccl_pack(struct prof_host *h)
{
	struct prof_recs	*x = &h->extra[PX_HCCL];
	struct prof_hinfo	*o;
	const unsigned char	*r;
	size_t			 i;

	if (x->n == 0)
		return;
	h->hinfos = xreallocarray(NULL, x->n, sizeof *h->hinfos);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		o = &h->hinfos[i];
		o->name = importer_le64(r + 24);
		o->group = importer_le64(r + 40);
		o->size = importer_le64(r + 112);
		o->src = importer_le32(r + 48);
		o->dst = importer_le32(r + 52);
		o->plane = importer_le32(r + 64);
		o->ctx = importer_le32(r + 68);
		o->link = importer_le32(r + 128);
		o->transport = importer_le32(r + 132);
		o->rdma = importer_le32(r + 136);
	}
	free(x->v);
	x->v = NULL;
}

void
prof_hccl_release(struct prof_host *h)
{
	free(h->hinfos);
	free(h->hdescs);
	free(h->hops);
	prof_hccl_opstat_free(h);
	util_map32_release(&h->hdesc_at);
}

void
prof_hccl_rows_free(struct prof_hrow *rows, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(rows[i].name);
	free(rows);
}
