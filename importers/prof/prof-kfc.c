/*
 * The communication ops of MC2 kernels and of AI CPU-expanded HCCL ops
 * (doc/formats.md section 4.11): a kernel named ...AicpuKernel, or any
 * kernel on a KFC server's stream (mc2_comm_info), is one op; the AI CPU
 * reports the first and last task it sent on its main communication
 * stream (aicpu.data kind 12), which give the op its times, and an HCCL
 * information per task (kind 13), joined to the device tasks of the
 * communication streams on stream, task and batch. Tables kfc_op and
 * kfc_task hold the ops and their tasks as the vendor's analysis makes
 * them; the tasks join the device's communication tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_KFC_REC		256	/* an aicpu.data record */
#define PROF_KFC_FIRST		0	/* kind 12: the op's first task */
#define PROF_KFC_LAST		1
#define PROF_KFC_DESTROY	65535	/* a flip number: stream destroyed */
#define PROF_KFC_NO_RANK	4294967295U

/* An HCCL information of a task (kind 13), joined to its device task. */
struct prof_kfc_info {
	const unsigned char	*p;	/* the info, NULL: a task without one */
	const struct prof_kfc_task *t;	/* its device task, or NULL */
	uint32_t		 stream;
	uint32_t		 task;
	uint32_t		 ctx;
	uint32_t		 batch;
	int64_t			 ts;
	int64_t			 start_ns;
	int64_t			 dur_ns;
	size_t			 seq;
};

/* A first or last task record of an op (kind 12). */
struct prof_kfc_master {
	int64_t		 ts;
	uint32_t	 aicpu_stream;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 batch;
	uint32_t	 type;
	size_t		 seq;
	size_t		 rank;		/* of its stream, by first record */
	const struct prof_kfc_info *info;	/* the task, or NULL */
};

/*
 * A flip of an AI CPU stream's task ids (kind 11, NUM its flip number),
 * or an op's information (kind 10, R the record).
 */
struct prof_kfc_rec {
	int64_t			 ts;
	uint32_t		 stream;
	uint32_t		 num;
	const unsigned char	*r;
	size_t			 seq;
};

/* One op, as the vendor's KfcOP row. */
struct prof_kfc_op {
	const struct prof_kfc_task	*t;
	int64_t			 start_ns;
	int64_t			 dur_ns;
	uint64_t		 group;		/* a hash, 0: N/A */
	char			*name;		/* its node's, or N/A */
	char			*full;		/* as the vendor names it */
	uint64_t		 op_type;	/* a hash, 0: N/A */
	uint64_t		 first;		/* host time of its launch */
	uint32_t		 iter;
	bool			 hccl;		/* source: an HCCL op */
	const unsigned char	*opinfo;	/* kind 10, or NULL */
	size_t			 seq;
	size_t			 rank;		/* of its stream */
};

/* Start collecting the tasks of H's MC2 streams (none if H lists none). */
void
prof_kfc_begin(struct prof_kfc *k, const struct prof_host *h)
{
	const struct prof_recs	*x = &h->extra[PX_MC2];
	const unsigned char	*r;
	size_t			 i, j, n;

	memset(k, 0, sizeof *k);
	k->h = h;
	util_map_init(&k->kfc);
	util_map_init(&k->comm);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		k->on = true;
		/* A later record of the stream wins, as the vendor's. */
		util_map_set(&k->kfc, importer_le32(r + 44), i);
		if ((n = importer_le32(r + 48)) > 8)
			n = 0;
		for (j = 0; j < n; j++)
			util_map_set(&k->comm, importer_le32(r + 52 + 4 * j),
			    1);
	}
}

/* True if NAME ends with SUFFIX. */
static bool
prof_kfc_ends(const char *name, const char *suffix)
{
	size_t	 n = strlen(name), m = strlen(suffix);

	return n >= m && strcmp(name + n - m, suffix) == 0;
}

/* The name of host task TRACK's node, or NULL. */
static const char *
prof_kfc_node(const struct prof_host *h, int32_t track, char *buf,
    size_t size)
{
	const struct prof_track	*t;

	if (track < 0)
		return NULL;
	t = &h->tracks[track];
	if (t->node < 0)
		return NULL;
	return prof_dict_hash(&h->dicts, h->nkinds[t->node].name, buf, size);
}

/*
 * Keep device task T (times START, DUR; host task TRACK or -1; of device
 * type TYPE) if it runs on an MC2 stream or is an AI CPU kernel.
 */
void
prof_kfc_keep(struct prof_kfc *k, const struct prof_dtask *t, int64_t start,
    int64_t dur, int32_t track, const char *type)
{
	struct prof_kfc_task	*e;
	const char		*n;
	uint64_t		 v;
	char			 buf[32];

	if (!k->on)
		return;
	if (!util_map_get(&k->kfc, t->stream, &v) &&
	    !util_map_get(&k->comm, t->stream, &v) &&
	    ((n = prof_kfc_node(k->h, track, buf, sizeof buf)) == NULL ||
	    !prof_kfc_ends(n, "AicpuKernel")))
		return;
	k->v = util_grow(k->v, k->n, 1, sizeof *k->v);
	e = &k->v[k->n++];
	e->start_ns = start;
	e->dur_ns = dur;
	e->stream = t->stream;
	e->task = t->task;
	e->ctx = t->context;
	e->batch = t->batch;
	e->track = track;
	e->c_core = strcmp(type, "C_CORE_SQE") == 0;
}

/* The batch of a record of STREAM at TS from the AI CPU's flips F. */
static uint32_t
prof_kfc_batch(const struct prof_kfc_rec *f, size_t n, uint32_t stream,
    int64_t ts)
{
	uint32_t	 batch = 0, destroyed = 0;
	size_t		 i;

	/* F is in time order; a record at a flip's time comes after it. */
	for (i = 0; i < n && f[i].ts <= ts; i++) {
		if (f[i].stream != stream)
			continue;
		if (f[i].num == PROF_KFC_DESTROY) {
			destroyed++;
			batch++;
		} else
			batch = f[i].num + destroyed;
	}
	return batch;
}

static int
prof_kfc_rec_cmp(const void *a, const void *b)
{
	const struct prof_kfc_rec	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Masters by their stream's first record, then time (the vendor's). */
static int
prof_kfc_master_cmp(const void *a, const void *b)
{
	const struct prof_kfc_master	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Infos by their task's end. */
static int
prof_kfc_info_cmp(const void *a, const void *b)
{
	const struct prof_kfc_info	*x = a, *y = b;
	int64_t				 p = x->start_ns + x->dur_ns;
	int64_t				 q = y->start_ns + y->dur_ns;

	if (p != q)
		return p < q ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Ops by their stream's first op, then in start order. */
static int
prof_kfc_op_cmp(const void *a, const void *b)
{
	const struct prof_kfc_op	*x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The records the calculation reads, gathered from the AI CPU's. */
struct prof_kfc_calc {
	struct prof_kfc			*k;
	const struct prof_aicpus	*a;
	const struct prof_meta		*m;
	struct prof_kfc_rec		*flips;
	size_t				 nflips;
	struct prof_kfc_rec		*opinfos;
	size_t				 nopinfos;
	struct prof_kfc_info		*infos;
	size_t				 ninfos;
	struct prof_kfc_master		*masters;
	size_t				 nmasters;
	struct prof_kfc_op		*ops;
	size_t				 nops;
	struct util_map			 info_at;	/* task key -> info */
	struct util_map			 first;		/* first tasks' keys */
	size_t				 nomaster;	/* masters, no task */
	size_t				 noinfo_task;	/* infos, no task */
	size_t				 noname;	/* ops, no node */
	size_t				 nomatch;	/* tasks, no op */
};

/* The join key of a task: stream, task, context and batch. */
static uint64_t
prof_kfc_key(uint32_t stream, uint32_t task, uint32_t ctx, uint32_t batch)
{
	uint32_t	 ids[4] = { stream, task, ctx, batch };

	return util_hash64((const char *)ids, sizeof ids);
}

/* Gather the flips, op infos, infos and masters of the AI CPU's records. */
static void
prof_kfc_gather(struct prof_kfc_calc *c)
{
	const struct prof_aicpus	*a = c->a;
	const unsigned char		*r, *p;
	uint32_t			 stream, task;
	size_t				 i, j;

	for (i = 0; i + PROF_KFC_REC <= a->ncomm; i += PROF_KFC_REC) {
		r = a->comm + i;
		switch (importer_le32(r + 4)) {
		case PROF_AICPU_FLIP:
			c->flips = util_grow(c->flips, c->nflips, 1,
			    sizeof *c->flips);
			prof_aicpu_ids(a, true, true, importer_le16(r + 24),
			    importer_le16(r + 26), &stream, &task);
			c->flips[c->nflips].stream = stream;
			c->flips[c->nflips].num = importer_le32(r + 28);
			c->flips[c->nflips].r = r;
			c->flips[c->nflips].ts = prof_meta_dev_ns(c->m,
			    importer_le64(r + 16));
			c->flips[c->nflips].seq = c->nflips;
			c->nflips++;
			break;
		case PROF_AICPU_HCCL_OP:
			c->opinfos = util_grow(c->opinfos, c->nopinfos, 1,
			    sizeof *c->opinfos);
			prof_aicpu_ids(a, false, true, importer_le16(r + 54),
			    importer_le32(r + 56), &stream, &task);
			c->opinfos[c->nopinfos].stream = stream;
			c->opinfos[c->nopinfos].num = 0;
			c->opinfos[c->nopinfos].r = r;
			c->opinfos[c->nopinfos].ts = prof_meta_dev_ns(c->m,
			    importer_le64(r + 16));
			c->opinfos[c->nopinfos].seq = c->nopinfos;
			c->nopinfos++;
			break;
		case PROF_AICPU_MASTER:
			c->masters = util_grow(c->masters, c->nmasters, 1,
			    sizeof *c->masters);
			prof_aicpu_ids(a, true, true, importer_le16(r + 24),
			    importer_le16(r + 26), &stream, &task);
			c->masters[c->nmasters].aicpu_stream = stream;
			prof_aicpu_ids(a, true, true, importer_le16(r + 28),
			    importer_le16(r + 30), &stream, &task);
			c->masters[c->nmasters].stream = stream;
			c->masters[c->nmasters].task = task;
			c->masters[c->nmasters].type = importer_le16(r + 32);
			c->masters[c->nmasters].ts = prof_meta_dev_ns(c->m,
			    importer_le64(r + 16));
			c->masters[c->nmasters].seq = c->nmasters;
			c->masters[c->nmasters].info = NULL;
			c->nmasters++;
			break;
		case PROF_AICPU_KFC_INFO:
			for (j = 0; j < 2; j++) {
				if ((p = prof_aicpu_comm_info(r, j)) == NULL)
					continue;
				c->infos = util_grow(c->infos, c->ninfos, 1,
				    sizeof *c->infos);
				memset(&c->infos[c->ninfos], 0,
				    sizeof *c->infos);
				prof_aicpu_ids(a, false, false,
				    importer_le16(p + 96),
				    importer_le32(p + 88), &stream, &task);
				c->infos[c->ninfos].p = p;
				c->infos[c->ninfos].stream = stream;
				c->infos[c->ninfos].task = task;
				c->infos[c->ninfos].ctx = DEV_NO_CONTEXT;
				c->infos[c->ninfos].ts = prof_meta_dev_ns(c->m,
				    importer_le64(p + 48));
				c->infos[c->ninfos].seq = c->ninfos;
				c->ninfos++;
			}
			break;
		default:
			break;
		}
	}
	if (c->nflips > 1)
		qsort(c->flips, c->nflips, sizeof *c->flips,
		    prof_kfc_rec_cmp);
	if (c->nopinfos > 1)
		qsort(c->opinfos, c->nopinfos, sizeof *c->opinfos,
		    prof_kfc_rec_cmp);
}

/*
 * Join the infos to the device tasks of the communication streams; a
 * collection without infos (level 0) has a bare info per task. Then put
 * them in the order of their ends.
 */
static void
prof_kfc_join_infos(struct prof_kfc_calc *c)
{
	struct prof_kfc		*k = c->k;
	struct prof_kfc_info	*f;
	struct util_map		 task_at;
	uint64_t		 v;
	size_t			 i;

	util_map_init(&task_at);
	if (c->ninfos == 0) {
		for (i = 0; i < k->n; i++) {
			if (!util_map_get(&k->comm, k->v[i].stream, &v))
				continue;
			c->infos = util_grow(c->infos, c->ninfos, 1,
			    sizeof *c->infos);
			f = &c->infos[c->ninfos];
			memset(f, 0, sizeof *f);
			f->t = &k->v[i];
			f->stream = k->v[i].stream;
			f->task = k->v[i].task;
			f->ctx = k->v[i].ctx;
			f->batch = k->v[i].batch;
			f->start_ns = k->v[i].start_ns;
			f->dur_ns = k->v[i].dur_ns;
			f->seq = c->ninfos++;
		}
	} else {
		for (i = 0; i < k->n; i++) {
			if (util_map_get(&k->comm, k->v[i].stream, &v))
				util_map_set(&task_at, prof_kfc_key(
				    k->v[i].stream, k->v[i].task, k->v[i].ctx,
				    k->v[i].batch), i);
		}
		for (i = 0; i < c->ninfos; i++) {
			f = &c->infos[i];
			f->batch = prof_kfc_batch(c->flips, c->nflips,
			    f->stream, f->ts);
			if (!util_map_get(&task_at, prof_kfc_key(f->stream,
			    f->task, f->ctx, f->batch), &v)) {
				c->noinfo_task++;
				continue;
			}
			f->t = &k->v[v];
			f->start_ns = f->t->start_ns;
			f->dur_ns = f->t->dur_ns;
		}
	}
	util_map_release(&task_at);
	if (c->ninfos > 1)
		qsort(c->infos, c->ninfos, sizeof *c->infos,
		    prof_kfc_info_cmp);
	for (i = 0; i < c->ninfos; i++) {
		f = &c->infos[i];
		/* A later info of the same task wins, as the vendor's. */
		util_map_set(&c->info_at, prof_kfc_key(f->stream, f->task,
		    f->ctx, f->batch), i);
	}
}

/* Give each first and last task record its task; note the first ones. */
static void
prof_kfc_join_masters(struct prof_kfc_calc *c)
{
	struct prof_kfc_master	*m;
	struct util_map		 rank;
	uint64_t		 v, key;
	size_t			 i, nrank = 0;

	util_map_init(&rank);
	/* The vendor reads them in time order, then stream by stream. */
	for (i = 0; i < c->nmasters; i++)
		c->masters[i].rank = 0;
	if (c->nmasters > 1)
		qsort(c->masters, c->nmasters, sizeof *c->masters,
		    prof_kfc_master_cmp);
	for (i = 0; i < c->nmasters; i++) {
		m = &c->masters[i];
		if (!util_map_get(&rank, m->stream, &v)) {
			v = nrank++;
			util_map_set(&rank, m->stream, v);
		}
		m->rank = v;
		m->batch = prof_kfc_batch(c->flips, c->nflips, m->stream,
		    m->ts);
	}
	if (c->nmasters > 1)
		qsort(c->masters, c->nmasters, sizeof *c->masters,
		    prof_kfc_master_cmp);
	for (i = 0; i < c->nmasters; i++) {
		m = &c->masters[i];
		if (m->type != PROF_KFC_FIRST && m->type != PROF_KFC_LAST) {
			c->nomaster++;
			continue;
		}
		key = prof_kfc_key(m->stream, m->task, DEV_NO_CONTEXT,
		    m->batch);
		if (m->type == PROF_KFC_FIRST)
			util_map_set(&c->first, key, 1);
		/*
		 * The vendor also takes an information whose task never ran,
		 * and the op then ends before it starts; we count it.
		 */
		if (util_map_get(&c->info_at, key, &v) &&
		    c->infos[v].t != NULL)
			m->info = &c->infos[v];
		else
			c->nomaster++;
	}
	util_map_release(&rank);
}

/*
 * The ops: each AI CPU kernel, or kernel on a KFC server's stream, that
 * has a node (not a NOTIFY_WAIT or MEMCPY_ASYNC task, nor the server's
 * hcomAicpuInit), stream by stream in the order of each stream's first.
 */
static void
prof_kfc_find_ops(struct prof_kfc_calc *c)
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
		qsort(c->ops, c->nops, sizeof *c->ops, prof_kfc_op_cmp);
}

/*
 * Op O's times from the first and last task records of its stream at
 * *AT on, those within its own run: the first task's start, the end of
 * the last one read.
 */
static void
prof_kfc_op_times(struct prof_kfc_calc *c, struct prof_kfc_op *o,
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
prof_kfc_group_id(uint64_t g, char *buf, size_t size)
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
prof_kfc_names(struct prof_kfc_op *o, size_t n, int64_t begin)
{
	struct prof_hindex	*g = NULL;
	size_t			 ng = 0, i, len;
	const char		*id;
	char			 buf[24];
	int64_t			 index;

	for (i = 0; i < n; i++) {
		index = prof_hccl_join_index(&g, &ng, o[i].group, o[i].name,
		    o[i].start_ns > begin, o[i].first);
		id = prof_kfc_group_id(o[i].group, buf, sizeof buf);
		len = strlen(id);
		xasprintf(&o[i].full, "%s_%s_%lld_%u", o[i].name, id +
		    (len > 3 ? len - 3 : 0), (long long)index, o[i].iter);
	}
	free(g);
}

/*
 * Work out each op, stream by stream: its op info (the first of its
 * stream in its run), its times, its node's name and type, the count of
 * its task's earlier ops, its group and whether an HCCL op's.
 */
static void
prof_kfc_ops(struct prof_kfc_calc *c, int64_t begin)
{
	const struct prof_host		*h = c->k->h;
	const struct prof_kfc_rec	*q;
	struct prof_kfc_op		*o;
	const struct prof_track		*t;
	const struct prof_nkind		*nk;
	const char			*ge;
	struct util_map			 seen, hccl;
	uint64_t			 v;
	size_t				 i, a, qi = 0, mi = 0;
	char				 buf[32];

	util_map_init(&seen);
	util_map_init(&hccl);
	for (i = 0; i < c->nopinfos; i++)
		util_map_set(&hccl, c->opinfos[i].stream, 1);
	for (a = i = 0; i < c->nops; i++) {
		o = &c->ops[i];
		if (i > 0 && o->rank != c->ops[i - 1].rank) {
			prof_kfc_names(c->ops + a, i - a, begin);
			a = i;
			qi = mi = 0;
		}
		/* The stream's next op info within the op's own run. */
		for (; qi < c->nopinfos; qi++) {
			q = &c->opinfos[qi];
			if (q->stream == o->t->stream && q->ts >= o->start_ns)
				break;
		}
		if (qi < c->nopinfos && c->opinfos[qi].ts <= o->start_ns +
		    o->dur_ns) {
			o->opinfo = c->opinfos[qi].r;
			qi++;
		}
		prof_kfc_op_times(c, o, &mi);
		v = prof_kfc_key(o->t->stream, o->t->task, o->t->ctx,
		    o->t->batch);
		if (util_map_get(&seen, v, &v))
			o->iter = (uint32_t)v + 1;
		util_map_set(&seen, prof_kfc_key(o->t->stream, o->t->task,
		    o->t->ctx, o->t->batch), o->iter);
		t = &h->tracks[o->t->track];
		nk = &h->nkinds[t->node];
		ge = prof_host_ge_type(nk->ge_type);
		if (strcmp(ge, "COMMUNICATION") != 0 &&
		    strcmp(ge, "HCCL_AI_CPU") != 0) {
			/* The vendor keeps it, unnamed, with its own times. */
			c->noname++;
			o->start_ns = o->t->start_ns;
			o->dur_ns = o->t->dur_ns;
			o->iter = 1;
			o->opinfo = NULL;
			continue;
		}
		free(o->name);
		o->name = xstrdup(prof_dict_hash(&h->dicts, nk->name, buf,
		    sizeof buf));
		o->op_type = nk->op_type;
		o->first = t->ts;
		o->hccl = util_map_get(&hccl, o->t->stream, &v);
		if (o->opinfo != NULL)
			o->group = importer_le64(o->opinfo + 42);
	}
	if (c->nops > 0)
		prof_kfc_names(c->ops + a, c->nops - a, begin);
	util_map_release(&seen);
	util_map_release(&hccl);
}

/* A kfc_task row: info F of op O, in GROUP. */
struct prof_kfc_row {
	const struct prof_kfc_op	*o;
	const struct prof_kfc_info	*f;
	uint64_t			 group;
	int64_t				 plane;
	bool				 master;
};

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
prof_kfc_plane(struct prof_kfc_calc *c, struct prof_kfc_group *g,
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
prof_kfc_start_cmp(const void *a, const void *b)
{
	const struct prof_kfc_op *const	*x = a, *const *y = b;

	if ((*x)->start_ns != (*y)->start_ns)
		return (*x)->start_ns < (*y)->start_ns ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/* The ops of group G, in their order (by start with SORT), in *V. */
static size_t
prof_kfc_group_ops(struct prof_kfc_calc *c, uint64_t g, bool sort,
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
		qsort(*v, n, sizeof **v, prof_kfc_start_cmp);
	return n;
}

/* True if mc2_comm_info record R lists communication stream STREAM. */
static bool
prof_kfc_lists(const unsigned char *r, uint32_t stream)
{
	uint32_t	 n = importer_le32(r + 48), i;

	for (i = 0; i < n && n <= 8; i++)
		if (importer_le32(r + 52 + 4 * i) == stream)
			break;
	return n <= 8 && i < n;
}

/* True if a record of group GRP lists STREAM. */
static bool
prof_kfc_in_group(const struct prof_recs *x, uint64_t grp, uint32_t stream)
{
	const unsigned char	*r;
	size_t			 i;

	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		if (importer_le64(r + 24) == grp && prof_kfc_lists(r, stream))
			return true;
	}
	return false;
}

/*
 * The tasks of each group of the MC2 groups' communication streams, in
 * the order of their ends, each given to the op of the group that was
 * running when it ended; the rows in *ROWS, the groups in the order of
 * their first task in *GROUPS.
 */
static size_t
prof_kfc_tasks(struct prof_kfc_calc *c, struct prof_kfc_row **rows,
    uint64_t **groupsp, size_t *ngroups)
{
	const struct prof_recs		*x = &c->k->h->extra[PX_MC2];
	const struct prof_kfc_op	**ops;
	const struct prof_kfc_info	**tasks = NULL;
	const unsigned char		*r;
	struct prof_kfc_group		 g;
	struct prof_kfc_row		*w;
	uint64_t			*groups = NULL, grp;
	size_t				 ng = 0, i, j, m, nt, no, idx;
	size_t				 nrows = 0, first;

	*rows = NULL;
	for (i = 0; i < c->ninfos; i++) {
		for (j = 0; j < x->n; j++) {
			r = prof_extra_rec(x, j);
			if (!prof_kfc_lists(r, c->infos[i].stream))
				continue;
			grp = importer_le64(r + 24);
			for (m = 0; m < ng && groups[m] != grp; m++)
				;
			if (m == ng) {
				groups = util_grow(groups, ng, 1,
				    sizeof *groups);
				groups[ng++] = grp;
			}
		}
	}
	for (i = 0; i < ng; i++) {
		nt = 0;
		for (j = 0; j < c->ninfos; j++) {
			/* An info without its task is counted already. */
			if (c->infos[j].t == NULL || !prof_kfc_in_group(x,
			    groups[i], c->infos[j].stream))
				continue;
			tasks = util_grow(tasks, nt, 1, sizeof *tasks);
			tasks[nt++] = &c->infos[j];
		}
		memset(&g, 0, sizeof g);
		g.group = groups[i];
		util_map_init(&g.plane);
		no = prof_kfc_group_ops(c, groups[i], true, &ops);
		idx = 0;
		first = nrows;
		for (j = 0; j < no; j++) {
			while (idx < nt && tasks[idx]->start_ns +
			    tasks[idx]->dur_ns < ops[j]->start_ns)
				idx++;
			while (idx < nt && tasks[idx]->start_ns +
			    tasks[idx]->dur_ns <= ops[j]->start_ns +
			    ops[j]->dur_ns) {
				*rows = util_grow(*rows, nrows, 1,
				    sizeof **rows);
				w = &(*rows)[nrows++];
				w->o = ops[j];
				w->f = tasks[idx];
				w->group = groups[i];
				prof_kfc_plane(c, &g, tasks[idx], ops[j]->hccl,
				    w);
				idx++;
			}
		}
		/* Tasks no op of the group was running for. */
		c->nomatch += nt - (nrows - first);
		free(ops);
		util_map_release(&g.plane);
	}
	free(tasks);
	*groupsp = groups;
	*ngroups = ng;
	return nrows;
}

/* A signed number as a cell, N/A below 0 when NA. */
static void
prof_kfc_row_i64(struct prof_row *row, int64_t v, bool na)
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

/* A hash as its dictionary's string in a cell, N/A for 0. */
static void
prof_kfc_row_hash(struct prof_row *row, const struct prof_dicts *d,
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
prof_kfc_op_row(struct store *s, const struct prof_host *h,
    const struct prof_kfc_op *o, int64_t device)
{
	const unsigned char	*q = o->opinfo;
	struct prof_row		 row;

	memset(&row, 0, sizeof row);
	prof_extra_row_u64(&row, (uint64_t)device);
	prof_kfc_row_i64(&row, prof_track_model(h,
	    &h->tracks[o->t->track]), true);
	prof_extra_row_str(&row, o->full);
	prof_extra_row_us(&row, o->start_ns);
	prof_extra_row_us(&row, o->dur_ns);
	prof_kfc_row_hash(&row, &h->dicts, o->group);
	prof_kfc_row_hash(&row, &h->dicts, o->op_type);
	if (q != NULL) {
		prof_extra_row_u64(&row, q[24] & 1);
		prof_extra_row_u64(&row, q[24] >> 1 & 1);
		prof_comm_enum_row(&row, PCE_DTYPE, q[25]);
		prof_kfc_row_hash(&row, &h->dicts, importer_le64(q + 26));
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

/* The kfc_task row W of device DEVICE. */
static void
prof_kfc_task_row(struct store *s, const struct prof_host *h,
    const struct prof_kfc_row *w, int64_t device)
{
	const struct prof_kfc_info	*f = w->f;
	const unsigned char		*p = f->p;
	struct prof_row			 row;
	uint64_t			 bits;
	double				 est;

	memset(&row, 0, sizeof row);
	prof_extra_row_u64(&row, (uint64_t)device);
	prof_kfc_row_i64(&row, prof_track_model(h,
	    &h->tracks[w->o->t->track]), true);
	prof_extra_row_str(&row, w->o->full);
	prof_extra_row_us(&row, w->o->start_ns);
	prof_kfc_row_hash(&row, &h->dicts, p != NULL ? importer_le64(p) :
	    0);
	prof_kfc_row_hash(&row, &h->dicts, w->group);
	prof_kfc_row_i64(&row, w->plane, false);
	prof_extra_row_us(&row, f->start_ns);
	prof_extra_row_us(&row, f->dur_ns);
	prof_extra_row_u64(&row, w->master);
	prof_extra_row_u64(&row, f->stream);
	prof_extra_row_u64(&row, f->task);
	if (p != NULL) {
		bits = importer_le64(p + 56);
		memcpy(&est, &bits, sizeof est);
		prof_comm_row_us(&row, est);
		prof_extra_row_u64(&row, importer_le32(p + 24));
		prof_extra_row_u64(&row, importer_le32(p + 28));
		prof_comm_enum_row(&row, PCE_TRANSPORT, p[103]);
		prof_extra_row_u64(&row, importer_le64(p + 80));
		prof_comm_enum_row(&row, PCE_DTYPE, p[101]);
		prof_comm_enum_row(&row, PCE_LINK, p[102]);
	} else {
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_u64(&row, PROF_KFC_NO_RANK);
		prof_extra_row_u64(&row, PROF_KFC_NO_RANK);
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
		prof_extra_row_str(&row, "N/A");
	}
	prof_kfc_row_i64(&row, f->ctx == DEV_NO_CONTEXT ? -1 : (int64_t)f->ctx,
	    true);
	if (p != NULL)
		prof_extra_row_u64(&row, importer_le64(p + 40));
	else
		prof_extra_row_str(&row, "N/A");
	prof_kfc_row_i64(&row, f->t != NULL ? f->t->batch : -1, true);
	if (p != NULL)
		prof_comm_enum_row(&row, PCE_RDMA, p[104]);
	else
		prof_extra_row_str(&row, "N/A");
	prof_extra_row_str(&row, w->o->hccl ? "HCCL" : "MC2");
	prof_extra_row_load(s, &row);
}

/*
 * Write tables kfc_op and kfc_task of the device of DM (RANK) from the
 * tasks K kept, the AI CPU's records A and the host's, and warn of what
 * could not be joined.
 */
void
prof_kfc_load(struct prof_kfc *k, struct store *s, const struct prof_aicpus *a,
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
	    "Link Type", "Context ID", "Notify ID", "Batch ID", "Rdma Type",
	    "Source" };
	struct prof_kfc_calc		 c;
	struct prof_kfc_row		*rows;
	const struct prof_kfc_op	**ops;
	uint64_t			*groups, *og = NULL;
	size_t				 nrows, ng, nog = 0, i, j, n;
	bool				 sort;

	if (!k->on || k->n == 0)
		return;
	memset(&c, 0, sizeof c);
	c.k = k;
	c.a = a;
	c.m = dm;
	util_map_init(&c.info_at);
	util_map_init(&c.first);
	prof_kfc_gather(&c);
	prof_kfc_join_infos(&c);
	prof_kfc_join_masters(&c);
	prof_kfc_find_ops(&c);
	prof_kfc_ops(&c, prof_meta_begin_ns(dm));
	nrows = prof_kfc_tasks(&c, &rows, &groups, &ng);
	if (c.nops > 0 && prof_extra_table_begin(s, "kfc_op", dm->device,
	    rank, opcols, sizeof opcols / sizeof opcols[0])) {
		for (i = 0; i < c.nops; i++) {
			for (j = 0; j < nog && og[j] != c.ops[i].group; j++)
				;
			if (j < nog)
				continue;
			og = util_grow(og, nog, 1, sizeof *og);
			og[nog++] = c.ops[i].group;
			for (j = 0, sort = false; j < ng; j++)
				sort = sort || groups[j] == c.ops[i].group;
			n = prof_kfc_group_ops(&c, c.ops[i].group, sort, &ops);
			for (j = 0; j < n; j++)
				prof_kfc_op_row(s, k->h, ops[j], dm->device);
			free(ops);
		}
	}
	if (nrows > 0 && prof_extra_table_begin(s, "kfc_task", dm->device,
	    rank, taskcols, sizeof taskcols / sizeof taskcols[0])) {
		for (i = 0; i < nrows; i++)
			prof_kfc_task_row(s, k->h, &rows[i], dm->device);
	}
	if (c.noname > 0)
		store_load_warning(s, dm->dir, -1, "%zu MC2 op%s whose node is "
		    "not of GE type COMMUNICATION or HCCL_AI_CPU: named N/A, "
		    "with its kernel's times", c.noname, c.noname == 1 ? "" :
		    "s");
	if (c.nomaster > 0)
		store_load_warning(s, dm->dir, -1, "%zu first or last task "
		    "record%s (aicpu.data kind 12) without a communication "
		    "task, or of an unknown type: left out of the MC2 ops' "
		    "times", c.nomaster, c.nomaster == 1 ? "" : "s");
	if (c.noinfo_task > 0)
		store_load_warning(s, dm->dir, -1, "%zu KFC HCCL information%s "
		    "(aicpu.data kind 13) without a device task: no kfc_task "
		    "row", c.noinfo_task, c.noinfo_task == 1 ? "" : "s");
	if (c.nomatch > 0)
		store_load_warning(s, dm->dir, -1, "%zu MC2 communication "
		    "task%s ending outside every op of their group: no "
		    "kfc_task row", c.nomatch, c.nomatch == 1 ? "" : "s");
	for (i = 0; i < c.nops; i++) {
		free(c.ops[i].name);
		free(c.ops[i].full);
	}
	free(og);
	free(groups);
	free(rows);
	free(c.ops);
	free(c.flips);
	free(c.opinfos);
	free(c.infos);
	free(c.masters);
	util_map_release(&c.info_at);
	util_map_release(&c.first);
}

void
prof_kfc_release(struct prof_kfc *k)
{
	free(k->v);
	util_map_release(&k->kfc);
	util_map_release(&k->comm);
	memset(k, 0, sizeof *k);
}
