/*
 * The MC2 ops of a device and their tasks (doc/formats.md section 4.11,
 * steps 1 and 5 to 8), from what prof-kfc.c gathered and joined: the
 * kernels that are ops, their times, names and op informations, and the
 * communication tasks each op of a group takes, with their planes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-kfc.h"

/* Ops by their stream's first op, then in start order. */
static int
prof_kfc_ops_cmp(const void *a, const void *b)
{
	const struct prof_kfc_op	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The ops: each AI CPU kernel, or kernel on a KFC server's stream, that
 * has a node (not a NOTIFY_WAIT or MEMCPY_ASYNC task, nor the server's
 * hcomAicpuInit), stream by stream in the order of each stream's first.
 */
void
prof_kfc_ops_find(struct prof_kfc_calc *c)
{
	struct prof_kfc		*k = c->k;
	const struct prof_host	*h = k->h;
	const struct prof_track	*t;
	struct prof_kfc_op	*o;
	struct util_map		 rank;
	const char		*n, *rt;
	char			 buf[32], tb[32];
	uint64_t		 v;
	size_t			 i, nrank = 0;

	util_map_init(&rank);
	for (i = 0; i < k->n; i++) {
		if ((n = prof_kfc_node(h, k->v[i].track, buf,
		    sizeof buf)) == NULL)
			continue;
		if (!prof_kfc_ends(n, "AicpuKernel") &&
		    !util_map_get(&k->kfc, k->v[i].stream, &v))
			continue;
		t = &h->tracks[k->v[i].track];
		rt = prof_dict_type(&h->dicts, PROF_LEVEL_RUNTIME, t->type, tb,
		    sizeof tb);
		if (strcmp(rt, "NOTIFY_WAIT") == 0 ||
		    strcmp(rt, "MEMCPY_ASYNC") == 0 ||
		    strcmp(n, "hcomAicpuInit") == 0)
			continue;
		if (!util_map_get(&rank, k->v[i].stream, &v)) {
			v = nrank++;
			util_map_set(&rank, k->v[i].stream, v);
		}
		c->ops = util_grow(c->ops, c->nops, 1, sizeof *c->ops);
		o = &c->ops[c->nops];
		memset(o, 0, sizeof *o);
		o->t = &k->v[i];
		o->start_ns = k->v[i].start_ns;
		o->dur_ns = k->v[i].dur_ns;
		o->name = xstrdup("N/A");
		o->iter = 1;
		o->rank = v;
		o->seq = c->nops++;
		if (util_map_get(&k->kfc, k->v[i].stream, &v))
			o->group = importer_le64(prof_extra_rec(
			    &h->extra[PX_MC2], v) + 24);
	}
	util_map_release(&rank);
	if (c->nops > 1)
		qsort(c->ops, c->nops, sizeof *c->ops, prof_kfc_ops_cmp);
}

/*
 * Op O's times from the first and last task records of its stream at
 * *AT on, those within its own run: the first task's start, the end of
 * the last one read.
 */
static void
prof_kfc_ops_times(struct prof_kfc_calc *c, struct prof_kfc_op *o,
    size_t *at)
{
	const struct prof_kfc_master	*m;
	int64_t				 b = o->t->start_ns;
	int64_t				 e = b + o->t->dur_ns;

	for (; *at < c->nmasters; (*at)++) {
		m = &c->masters[*at];
		if (m->aicpu_stream != o->t->stream || m->info == NULL)
			continue;
		if (m->ts >= b)
			break;
	}
	for (; *at < c->nmasters; (*at)++) {
		m = &c->masters[*at];
		if (m->aicpu_stream != o->t->stream || m->info == NULL)
			continue;
		if (m->ts > e)
			break;
		if (m->type == PROF_KFC_FIRST)
			o->start_ns = m->info->start_ns;
		o->dur_ns = m->info->start_ns + m->info->dur_ns - o->start_ns;
	}
}

/* The decimal hash of group G, or N/A. */
static const char *
prof_kfc_ops_group_id(uint64_t g, char *buf, size_t size)
{
	if (g == 0)
		return "N/A";
	snprintf(buf, size, "%llu", (unsigned long long)g);
	return buf;
}

/*
 * Name the ops of one stream, O[0..N), as the vendor: <name>_<last 3
 * digits of the group's hash>_<index>_<iteration>, the index from
 * prof_hccl_join_index(), for ops after the collection began (BEGIN).
 */
static void
prof_kfc_ops_names(struct prof_kfc_op *o, size_t n, int64_t begin)
{
	struct prof_hindex	*g = NULL;
	size_t			 ng = 0, i, len;
	const char		*id;
	char			 buf[24];
	int64_t			 index;

	for (i = 0; i < n; i++) {
		index = prof_hccl_join_index(&g, &ng, o[i].group, o[i].name,
		    o[i].start_ns > begin, o[i].first);
		id = prof_kfc_ops_group_id(o[i].group, buf, sizeof buf);
		len = strlen(id);
		xasprintf(&o[i].full, "%s_%s_%lld_%u", o[i].name, id +
		    (len > 3 ? len - 3 : 0), (long long)index, o[i].iter);
	}
	free(g);
}

/*
 * Work out op O of a stream (*QI, *MI its stream's next op info and
 * first or last task record): its op info (the next of its stream in its
 * run), its times, its node's name and type, the count of its task's
 * earlier ops, its group and whether an HCCL op's. SEEN holds the
 * kernels' counts, HCCL the streams with op infos, KFC the host HCCL ops
 * by the node span that launches their kernels: an HCCL op's kernel
 * launched there takes the host op's name, as the vendor renames it.
 */
static void
prof_kfc_ops_one(struct prof_kfc_calc *c, struct prof_kfc_op *o,
    struct util_map *seen, const struct util_map *hccl,
    const struct util_map *kfc, size_t *qi, size_t *mi)
{
	const struct prof_host	*h = c->k->h;
	const struct prof_track	*t = &h->tracks[o->t->track];
	const struct prof_nkind	*nk = &h->nkinds[t->node];
	const char		*ge = prof_host_ge_type(nk->ge_type);
	uint64_t		 v, key;
	char			 buf[32];

	for (; *qi < c->nopinfos; (*qi)++)
		if (c->opinfos[*qi].stream == o->t->stream &&
		    c->opinfos[*qi].ts >= o->start_ns)
			break;
	if (*qi < c->nopinfos && c->opinfos[*qi].ts <= o->start_ns +
	    o->dur_ns)
		o->opinfo = c->opinfos[(*qi)++].r;
	prof_kfc_ops_times(c, o, mi);
	key = prof_kfc_key(o->t->stream, o->t->task, o->t->ctx, o->t->batch);
	if (util_map_get(seen, key, &v))
		o->iter = (uint32_t)v + 1;
	util_map_set(seen, key, o->iter);
	if (strcmp(ge, "COMMUNICATION") != 0 &&
	    strcmp(ge, "HCCL_AI_CPU") != 0) {
		/* The vendor keeps it, unnamed, with its own times. */
		c->noname++;
		o->start_ns = o->t->start_ns;
		o->dur_ns = o->t->dur_ns;
		o->iter = 1;
		o->opinfo = NULL;
		return;
	}
	o->hccl = util_map_get(hccl, o->t->stream, &v);
	free(o->name);
	/* The vendor takes the host ops of the kernel's device only. */
	if (o->hccl && t->span >= 0 && util_map_get(kfc, (uint64_t)t->span,
	    &v) && h->hops[v].device == t->device) {
		o->name = xstrdup(prof_dict_hash(&h->dicts, h->hops[v].item,
		    buf, sizeof buf));
	} else
		o->name = xstrdup(prof_dict_hash(&h->dicts, nk->name, buf,
		    sizeof buf));
	o->op_type = nk->op_type;
	o->first = t->ts;
	if (o->opinfo != NULL)
		o->group = importer_le64(o->opinfo + 42);
}

/* Work out and name each op, stream by stream (BEGIN: the collection's). */
void
prof_kfc_ops_work(struct prof_kfc_calc *c, int64_t begin)
{
	const struct prof_host	*h = c->k->h;
	struct util_map		 seen, hccl, kfc;
	size_t			 i, a, qi = 0, mi = 0;

	util_map_init(&seen);
	util_map_init(&hccl);
	util_map_init(&kfc);
	for (i = 0; i < c->nopinfos; i++)
		util_map_set(&hccl, c->opinfos[i].stream, 1);
	for (i = 0; i < h->nhops; i++)
		if (h->hops[i].kfc_span >= 0)
			util_map_set(&kfc, (uint64_t)h->hops[i].kfc_span, i);
	for (a = i = 0; i < c->nops; i++) {
		if (i > 0 && c->ops[i].rank != c->ops[i - 1].rank) {
			prof_kfc_ops_names(c->ops + a, i - a, begin);
			a = i;
			qi = mi = 0;
		}
		prof_kfc_ops_one(c, &c->ops[i], &seen, &hccl, &kfc, &qi,
		    &mi);
	}
	if (c->nops > 0)
		prof_kfc_ops_names(c->ops + a, c->nops - a, begin);
	util_map_release(&seen);
	util_map_release(&hccl);
	util_map_release(&kfc);
}

/* The state of one group's tasks: its main stream, its streams' planes. */
struct prof_kfc_group {
	uint64_t	 group;
	bool		 has_master;
	uint32_t	 master;
	struct util_map	 plane;		/* stream -> plane */
	size_t		 nplanes;
};

/* Whether info F of GROUP G is on the main stream, and its plane. */
static void
prof_kfc_ops_plane(struct prof_kfc_calc *c, struct prof_kfc_group *g,
    const struct prof_kfc_info *f, bool hccl, struct prof_kfc_row *r)
{
	uint64_t	 v;
	bool		 first;

	first = util_map_get(&c->first, prof_kfc_key(f->stream, f->task,
	    f->ctx, f->batch), &v);
	if ((f->t != NULL && f->t->c_core) || first) {
		g->has_master = true;
		g->master = f->stream;
		r->master = !hccl;
	} else
		r->master = g->has_master && g->master == f->stream;
	if (f->p == NULL)
		r->plane = -1;
	else if (r->master || first)
		r->plane = hccl ? 1 : 0;
	else {
		if (!util_map_get(&g->plane, f->stream, &v)) {
			v = ++g->nplanes;
			util_map_set(&g->plane, f->stream, v);
		}
		r->plane = (int64_t)v + (hccl ? 1 : 0);
	}
}

static int
prof_kfc_ops_start_cmp(const void *a, const void *b)
{
	const struct prof_kfc_op *const	*x = a, *const *y = b;

	if ((*x)->start_ns != (*y)->start_ns)
		return (*x)->start_ns < (*y)->start_ns ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/* The ops of group G, in their order (by start with SORT), in *V. */
size_t
prof_kfc_ops_of_group(struct prof_kfc_calc *c, uint64_t g, bool sort,
    const struct prof_kfc_op ***v)
{
	size_t	 i, n = 0;

	*v = NULL;
	for (i = 0; i < c->nops; i++) {
		if (c->ops[i].group != g)
			continue;
		*v = util_grow(*v, n, 1, sizeof **v);
		(*v)[n++] = &c->ops[i];
	}
	if (sort && n > 1)
		qsort(*v, n, sizeof **v, prof_kfc_ops_start_cmp);
	return n;
}

/* True if mc2_comm_info record R lists communication stream STREAM. */
static bool
prof_kfc_ops_lists(const unsigned char *r, uint32_t stream)
{
	uint32_t	 n = importer_le32(r + 48), i;

	for (i = 0; i < n && n <= 8; i++)
		if (importer_le32(r + 52 + 4 * i) == stream)
			break;
	return n <= 8 && i < n;
}

/* True if a record of group GRP lists STREAM. */
static bool
prof_kfc_ops_in_group(const struct prof_recs *x, uint64_t grp, uint32_t stream)
{
	const unsigned char	*r;
	size_t			 i;

	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		if (importer_le64(r + 24) == grp &&
		    prof_kfc_ops_lists(r, stream))
			return true;
	}
	return false;
}

/* The groups of the communication streams, in the order of their tasks. */
static void
prof_kfc_ops_groups(struct prof_kfc_calc *c)
{
	const struct prof_recs	*x = &c->k->h->extra[PX_MC2];
	const unsigned char	*r;
	uint64_t		 grp;
	size_t			 i, j, m;

	for (i = 0; i < c->ninfos; i++) {
		for (j = 0; j < x->n; j++) {
			r = prof_extra_rec(x, j);
			if (!prof_kfc_ops_lists(r, c->infos[i].stream))
				continue;
			grp = importer_le64(r + 24);
			for (m = 0; m < c->ngroups && c->groups[m] != grp; m++)
				;
			if (m == c->ngroups) {
				c->groups = util_grow(c->groups, c->ngroups, 1,
				    sizeof *c->groups);
				c->groups[c->ngroups++] = grp;
			}
		}
	}
}

/*
 * The tasks of group GRP's communication streams, in the order of their
 * ends, each given to the op of the group that was running when it ended.
 */
static void
prof_kfc_ops_group_tasks(struct prof_kfc_calc *c, uint64_t grp)
{
	const struct prof_recs		*x = &c->k->h->extra[PX_MC2];
	const struct prof_kfc_op	**ops;
	const struct prof_kfc_info	**tasks = NULL, *f;
	struct prof_kfc_group		 g;
	struct prof_kfc_row		*w;
	size_t				 j, nt = 0, no, idx = 0;
	size_t				 first = c->nrows;

	for (j = 0; j < c->ninfos; j++) {
		/* An info without its task is counted already. */
		if (c->infos[j].t == NULL || !prof_kfc_ops_in_group(x, grp,
		    c->infos[j].stream))
			continue;
		tasks = util_grow(tasks, nt, 1, sizeof *tasks);
		tasks[nt++] = &c->infos[j];
	}
	memset(&g, 0, sizeof g);
	g.group = grp;
	util_map_init(&g.plane);
	no = prof_kfc_ops_of_group(c, grp, true, &ops);
	for (j = 0; j < no; j++) {
		while (idx < nt && tasks[idx]->start_ns + tasks[idx]->dur_ns <
		    ops[j]->start_ns)
			idx++;
		for (; idx < nt; idx++) {
			f = tasks[idx];
			if (f->start_ns + f->dur_ns > ops[j]->start_ns +
			    ops[j]->dur_ns)
				break;
			c->rows = util_grow(c->rows, c->nrows, 1,
			    sizeof *c->rows);
			w = &c->rows[c->nrows++];
			w->o = ops[j];
			w->f = f;
			w->group = grp;
			prof_kfc_ops_plane(c, &g, f, ops[j]->hccl, w);
		}
	}
	/* Tasks no op of the group was running for. */
	c->nomatch += nt - (c->nrows - first);
	free(ops);
	free(tasks);
	util_map_release(&g.plane);
}

/* The task rows of every group (c->rows), groups in c->groups. */
void
prof_kfc_ops_tasks(struct prof_kfc_calc *c)
{
	size_t	 i;

	prof_kfc_ops_groups(c);
	for (i = 0; i < c->ngroups; i++)
		prof_kfc_ops_group_tasks(c, c->groups[i]);
}
