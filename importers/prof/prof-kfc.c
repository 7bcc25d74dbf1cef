/*
 * The communication ops of MC2 kernels and of AI CPU-expanded HCCL ops
 * (doc/formats.md section 4.11): a kernel named ...AicpuKernel, or any
 * kernel on a KFC server's stream (mc2_comm_info), is one op; the AI CPU
 * reports the first and last task it sent on its main communication
 * stream (aicpu.data kind 12), which give the op its times, and an HCCL
 * information per task (kind 13), joined to the device tasks of the
 * communication streams on stream, task and batch. This file keeps the
 * device tasks, reads the AI CPU's records and joins them;
 * prof-kfc-ops.c works out the ops and their tasks, prof-kfc-tables.c
 * writes tables kfc_op and kfc_task and gives the tasks to the device's
 * communication tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-kfc.h"

#define PROF_KFC_REC		256	/* an aicpu.data record */
#define PROF_KFC_DESTROY	65535	/* a flip number: stream destroyed */

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
	util_map_init(&k->strs_at);
	for (i = 0; i < x->n; i++) {
		/* In file order: a later record of a stream wins, as the
		 * vendor's. */
		r = x->v + i * x->size;
		k->on = true;
		util_map_set(&k->kfc, importer_le32(r + 44), i);
		if ((n = importer_le32(r + 48)) > 8)
			n = 0;
		for (j = 0; j < n; j++)
			util_map_set(&k->comm, importer_le32(r + 52 + 4 * j),
			    1);
	}
}

/* True if NAME ends with SUFFIX. */
bool
prof_kfc_ends(const char *name, const char *suffix)
{
	size_t	 n = strlen(name), m = strlen(suffix);

	/* The vendor selects them with SQLite's LIKE: ASCII case aside. */
	return n >= m && strcasecmp(name + n - m, suffix) == 0;
}

/* The name of host task TRACK's node, or NULL. */
const char *
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

/*
 * Infos X and Y in the order the vendor's batch pass leaves them: stream
 * by stream (in the order of their first info), each in time order.
 */
int
prof_kfc_info_pass_cmp(const struct prof_kfc_info *x,
    const struct prof_kfc_info *y)
{
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Infos by their task's end, ties as the batch pass left them. */
static int
prof_kfc_info_cmp(const void *a, const void *b)
{
	const struct prof_kfc_info	*x = a, *y = b;
	int64_t				 p = x->start_ns + x->dur_ns;
	int64_t				 q = y->start_ns + y->dur_ns;

	if (p != q)
		return p < q ? -1 : 1;
	return prof_kfc_info_pass_cmp(x, y);
}

/* The join key of a task: stream, task, context and batch. */
uint64_t
prof_kfc_key(uint32_t stream, uint32_t task, uint32_t ctx, uint32_t batch)
{
	uint32_t	 ids[4] = { stream, task, ctx, batch };

	return util_hash64((const char *)ids, sizeof ids);
}

/* Add flip or op information R (prof_kfc_rec) to *V, *N so far. */
static void
prof_kfc_add_rec(struct prof_kfc_calc *c, struct prof_kfc_rec **v,
    size_t *n, const unsigned char *r, uint32_t stream, uint32_t num)
{
	*v = util_grow(*v, *n, 1, sizeof **v);
	(*v)[*n].stream = stream;
	(*v)[*n].num = num;
	(*v)[*n].r = r;
	(*v)[*n].ts = prof_meta_dev_ns(c->m, importer_le64(r + 16));
	(*v)[*n].seq = *n;
	(*n)++;
}

/* Add the first or last task record R. */
static void
prof_kfc_add_master(struct prof_kfc_calc *c, const unsigned char *r)
{
	struct prof_kfc_master	*m;
	uint32_t		 stream, task;

	c->masters = util_grow(c->masters, c->nmasters, 1,
	    sizeof *c->masters);
	m = &c->masters[c->nmasters];
	memset(m, 0, sizeof *m);
	prof_aicpu_ids(c->a, true, true, importer_le16(r + 24),
	    importer_le16(r + 26), &m->aicpu_stream, &task);
	prof_aicpu_ids(c->a, true, true, importer_le16(r + 28),
	    importer_le16(r + 30), &stream, &m->task);
	m->stream = stream;
	m->type = importer_le16(r + 32);
	m->ts = prof_meta_dev_ns(c->m, importer_le64(r + 16));
	m->seq = c->nmasters++;
}

/* Add the HCCL informations of kind 13 record R (one or two). */
static void
prof_kfc_add_infos(struct prof_kfc_calc *c, const unsigned char *r)
{
	struct prof_kfc_info	*f;
	const unsigned char	*p;
	size_t			 j;

	for (j = 0; j < 2; j++) {
		if ((p = prof_aicpu_comm_info(r, j)) == NULL)
			continue;
		c->infos = util_grow(c->infos, c->ninfos, 1,
		    sizeof *c->infos);
		f = &c->infos[c->ninfos];
		memset(f, 0, sizeof *f);
		prof_aicpu_ids(c->a, false, false, importer_le16(p + 96),
		    importer_le32(p + 88), &f->stream, &f->task);
		f->p = p;
		f->ctx = DEV_NO_CONTEXT;
		f->ts = prof_meta_dev_ns(c->m, importer_le64(p + 48));
		f->seq = c->ninfos++;
	}
}

/* Gather the flips, op infos, infos and masters of the AI CPU's records. */
static void
prof_kfc_gather(struct prof_kfc_calc *c)
{
	const struct prof_aicpus	*a = c->a;
	const unsigned char		*r;
	uint32_t			 stream, task;
	size_t				 i;

	for (i = 0; i + PROF_KFC_REC <= a->ncomm; i += PROF_KFC_REC) {
		r = a->comm + i;
		switch (importer_le32(r + 4)) {
		case PROF_AICPU_FLIP:
			prof_aicpu_ids(a, true, true, importer_le16(r + 24),
			    importer_le16(r + 26), &stream, &task);
			prof_kfc_add_rec(c, &c->flips, &c->nflips, r, stream,
			    importer_le32(r + 28));
			break;
		case PROF_AICPU_HCCL_OP:
			prof_aicpu_ids(a, false, true, importer_le16(r + 54),
			    importer_le32(r + 56), &stream, &task);
			prof_kfc_add_rec(c, &c->opinfos, &c->nopinfos, r,
			    stream, 0);
			break;
		case PROF_AICPU_MASTER:
			prof_kfc_add_master(c, r);
			break;
		case PROF_AICPU_KFC_INFO:
			prof_kfc_add_infos(c, r);
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

/* A collection without informations (level 0): a bare one per task. */
static void
prof_kfc_bare_infos(struct prof_kfc_calc *c)
{
	struct prof_kfc		*k = c->k;
	struct prof_kfc_info	*f;
	uint64_t		 v;
	size_t			 i;

	for (i = 0; i < k->n; i++) {
		if (!util_map_get(&k->comm, k->v[i].stream, &v))
			continue;
		c->infos = util_grow(c->infos, c->ninfos, 1, sizeof *c->infos);
		f = &c->infos[c->ninfos];
		memset(f, 0, sizeof *f);
		f->t = &k->v[i];
		f->stream = k->v[i].stream;
		f->task = k->v[i].task;
		f->ctx = k->v[i].ctx;
		f->batch = k->v[i].batch;
		f->start_ns = k->v[i].start_ns;
		f->dur_ns = k->v[i].dur_ns;
		f->ts = f->start_ns;
		f->seq = c->ninfos++;
	}
}

/*
 * Join the infos to the device tasks of the communication streams (or
 * make bare ones), then put them in the order of their ends.
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
	if (c->ninfos == 0)
		prof_kfc_bare_infos(c);
	else {
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
	util_map_init(&task_at);
	for (i = 0, v = 0; i < c->ninfos; i++) {
		f = &c->infos[i];
		if (!util_map_get(&task_at, f->stream, &f->rank)) {
			f->rank = v;
			util_map_set(&task_at, f->stream, v++);
		}
	}
	util_map_release(&task_at);
	prof_kfc_bw(c, &k->h->dicts);
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

/*
 * Of the first and last task records of one AI CPU stream at one time
 * (those with a task), the vendor keeps one, in the first's place with
 * the last one's type and task: so do we.
 */
static void
prof_kfc_same_time(struct prof_kfc_calc *c)
{
	struct prof_kfc_master	*m, *w;
	struct util_map		 at;
	uint64_t		 k[2], h, v;
	size_t			 i;

	util_map_init(&at);
	for (i = 0; i < c->nmasters; i++) {
		m = &c->masters[i];
		if (m->info == NULL)
			continue;
		k[0] = m->aicpu_stream;
		k[1] = (uint64_t)m->ts;
		/* Probe from the key's hash to its record, or a free slot. */
		for (h = util_hash64((const char *)k, sizeof k);
		    util_map_get(&at, h, &v); h++) {
			w = &c->masters[v];
			if (w->aicpu_stream == m->aicpu_stream &&
			    w->ts == m->ts)
				break;
		}
		if (!util_map_get(&at, h, &v)) {
			util_map_set(&at, h, i);
			continue;
		}
		w = &c->masters[v];
		w->type = m->type;
		w->stream = m->stream;
		w->task = m->task;
		w->batch = m->batch;
		w->info = m->info;
		m->info = NULL;
		c->same_time++;
	}
	util_map_release(&at);
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
	prof_kfc_same_time(c);
}

/* Free what the calculation C made. */
static void
prof_kfc_calc_free(struct prof_kfc_calc *c)
{
	size_t	 i;

	for (i = 0; i < c->nops; i++) {
		free(c->ops[i].name);
		free(c->ops[i].full);
	}
	free(c->groups);
	free(c->rows);
	free(c->ops);
	free(c->flips);
	free(c->opinfos);
	free(c->infos);
	free(c->masters);
	util_map_release(&c->info_at);
	util_map_release(&c->first);
}

/*
 * Rebuild the MC2 ops of the device of DM (RANK) from the tasks K kept,
 * the AI CPU's records A and the host's; write tables kfc_op and
 * kfc_task, warn of what could not be joined, and keep in K the tasks as
 * events for the device's communication tables (prof_hccl_join_device).
 */
void
prof_kfc_load(struct prof_kfc *k, struct store *s, const struct prof_aicpus *a,
    const struct prof_meta *dm, int64_t rank)
{
	struct prof_kfc_calc	 c;

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
	prof_kfc_ops_find(&c);
	prof_kfc_ops_work(&c, prof_meta_begin_ns(dm));
	prof_kfc_ops_tasks(&c);
	prof_kfc_tables_write(&c, s, dm, rank);
	prof_kfc_tables_events(&c);
	prof_kfc_calc_free(&c);
}

void
prof_kfc_release(struct prof_kfc *k)
{
	size_t	 i;

	for (i = 0; i < k->nstrs; i++)
		free(k->strs[i]);
	free(k->strs);
	free(k->ev);
	free(k->descs);
	free(k->infos);
	free(k->v);
	util_map_release(&k->kfc);
	util_map_release(&k->comm);
	util_map_release(&k->strs_at);
	memset(k, 0, sizeof *k);
}
