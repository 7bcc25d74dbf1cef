/*
 * Host and device tasks joined into store rows (doc/formats.md sections
 * 4.7-4.8 and 8.4): host task_track records get batch ids from the FLIP
 * records of their (device, stream), FLIP and MAINTENANCE records leave
 * the list, and each device task finds its host task on (stream, task,
 * batch, context); a key with two host tasks is ambiguous and joins
 * nothing. A joined compute task takes its op's name, type, GE task type,
 * block dims, state and HF32 flag; every device task is stored with its
 * epoch times, unless it started before the collection. The wait time is
 * the vendor's op_summary's: from the end of the previous task it lists
 * (compute tasks of most GE types), N/A for the others.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_JOIN_AMBIGUOUS	(UINT32_MAX - 1)

/*
 * The join key of a task: 16 bits each of stream, task, batch and context
 * id; on chip V6, whose task ids are 32 bits and batches always 0, the
 * whole task id in place of task and batch.
 */
static uint64_t
prof_join_key(uint32_t stream, uint32_t task, uint32_t batch,
    uint32_t context)
{
	return (uint64_t)(stream & 0xFFFF) << 48 | (uint64_t)(task & 0xFFFF) <<
	    32 | (uint64_t)(batch & 0xFFFF) << 16 | (context & 0xFFFF);
}

/* The whole 32-bit task id of host task T on chip V6. */
static uint32_t
prof_join_v6_task(const struct prof_track *t)
{
	return (uint32_t)t->task_hi << 16 | (t->task & 0xFFFF);
}

/*
 * True if the runtime type of T takes one host task per context id: FFTS+,
 * AI Core, AI Vector and MIX kernels (section 3.7 step 4).
 */
static bool
prof_join_has_ctx(const struct prof_host *h, const struct prof_track *t)
{
	const char	*n;
	char		 buf[32];

	n = prof_dict_type(&h->dicts, PROF_LEVEL_RUNTIME, t->type, buf,
	    sizeof buf);
	return strncmp(n, "KERNEL", 6) == 0 || strstr(n, "FFTS") != NULL;
}

static void
prof_join_add(struct util_map32 *map, uint64_t k, size_t i)
{
	uint32_t	 v;

	if (util_map32_get(map, k, &v))
		util_map32_set(map, k, PROF_JOIN_AMBIGUOUS);
	else
		util_map32_set(map, k, (uint32_t)i);
}

/*
 * Index host task I of an FFTS+ HCCL op by the context ids of its HCCL
 * tasks too, those its node's context list C (or NULL) does not hold.
 */
static void
prof_join_hccl_ctx(const struct prof_host *h, struct util_map32 *map, size_t i,
    const struct prof_list *c)
{
	const struct prof_track	*t = &h->tracks[i];
	const struct prof_hdesc	*d;
	int64_t			 v;
	uint32_t		 k;
	size_t			 j;
	bool			 seen;

	if (h->nhdescs == 0 || (v = prof_hccl_first(h, i)) < 0)
		return;
	for (j = (size_t)v; j < h->nhdescs && h->hdescs[j].track == i;
	    j++) {
		d = &h->hdescs[j];
		if (d->ctx == UINT32_MAX)
			continue;
		for (seen = false, k = 0; c != NULL && k < c->n && !seen; k++)
			seen = h->ctx_ids[c->first + k] == d->ctx;
		if (!seen)
			prof_join_add(map, prof_join_key(t->stream, t->task,
			    t->batch | t->task >> 16, d->ctx), i);
	}
}

/*
 * Give the host tasks of DEVICE their batch ids and index them by join
 * key into MAP (value: track index).
 */
static void
prof_join_index(struct prof_host *h, int64_t device, bool v6,
    struct util_map32 *map)
{
	uint32_t		 task;
	struct prof_flips	*fl;
	struct prof_track	*t;
	const struct prof_list	*c;
	size_t			 i;
	uint32_t		 j;

	fl = prof_flips_create();
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		if (t->type == PROF_TASK_FLIP && t->device == device)
			prof_flips_add(fl, t->stream, t->ts);
	}
	prof_flips_sort(fl);
	util_map32_init(map);
	util_map32_reserve(map, h->ntracks);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		if (t->device != device || t->type == PROF_TASK_FLIP ||
		    t->type == PROF_TASK_MAINTENANCE)
			continue;
		/* Chip V6: the whole id is the task's, its batch 0. */
		t->batch = v6 ? 0 : prof_flips_batch(fl, t->stream, t->ts);
		if (v6)
			t->task = prof_join_v6_task(t);
		task = t->task;
		c = t->ctx >= 0 ? &h->cinfos[t->ctx] : NULL;
		if (!prof_join_has_ctx(h, t))
			c = NULL;
		if (c == NULL)
			prof_join_add(map, prof_join_key(t->stream, task,
			    t->batch | task >> 16, UINT32_MAX), i);
		for (j = 0; c != NULL && j < c->n; j++)
			prof_join_add(map, prof_join_key(t->stream, task,
			    t->batch | task >> 16, h->ctx_ids[c->first + j]),
			    i);
		if (prof_join_has_ctx(h, t))
			prof_join_hccl_ctx(h, map, i, c);
	}
	prof_flips_free(fl);
}

/* True if host task T is an AI CPU kernel launch (KERNEL_AICPU). */
static bool
prof_join_is_aicpu(const struct prof_host *h, const struct prof_track *t)
{
	char	 buf[32];

	return strcmp(prof_dict_type(&h->dicts, PROF_LEVEL_RUNTIME, t->type,
	    buf, sizeof buf), "KERNEL_AICPU") == 0;
}

/* True if host task T is a compute task (section 3.7 step 5). */
static bool
prof_join_compute(const struct prof_host *h, const struct prof_track *t)
{
	const char	*n;
	char		 buf[32];

	if (t->span < 0)
		return false;
	n = prof_dict_type(&h->dicts, PROF_LEVEL_RUNTIME, t->type, buf,
	    sizeof buf);
	if (strncmp(n, "KERNEL", 6) != 0 && strcmp(n, "STARS_COMMON") != 0 &&
	    strcmp(n, "FFTS_PLUS") != 0)
		return false;
	/* An FFTS+ task of an HCCL op is communication (section 3.10). */
	if (strcmp(n, "FFTS_PLUS") == 0 && h->nhdescs > 0 &&
	    prof_hccl_first(h, (size_t)(t - h->tracks)) >= 0)
		return false;
	n = prof_dict_hash(&h->dicts, prof_track_item(h, t), buf, sizeof buf);
	return strncmp(n, "Lccl", 4) != 0;
}

/*
 * True if the vendor's op_summary lists the compute task T: not when its
 * GE task type is WRITE_BACK, INVALID, HCCL_AI_CPU or COMMUNICATION, but
 * for a COMMUNICATION op whose name ends in AivKernel.
 */
static bool
prof_join_listed(const struct prof_host *h, const struct prof_track *t)
{
	const char	*ge, *n;
	char		 buf[32];
	size_t		 len;

	if (t->node < 0)
		return true;
	ge = prof_host_ge_type(h->nkinds[t->node].ge_type);
	if (strcmp(ge, "COMMUNICATION") == 0) {
		n = prof_dict_hash(&h->dicts, h->nkinds[t->node].name, buf,
		    sizeof buf);
		len = strlen(n);
		return len >= 9 && strcmp(n + len - 9, "AivKernel") == 0;
	}
	return strcmp(ge, "WRITE_BACK") != 0 && strcmp(ge, "INVALID") != 0 &&
	    strcmp(ge, "HCCL_AI_CPU") != 0;
}

/* Strings a task row borrows until it is loaded. */
struct prof_join_names {
	char	 name[32];
	char	 type[32];
};

/* Fill the op columns of R from host task T. */
static void
prof_join_op(const struct prof_host *h, const struct prof_track *t,
    struct store_task *r, struct prof_join_names *nb)
{
	const struct prof_nkind	*n;
	const struct prof_tkind	*l;

	r->api = t->row != 0 ? t->row : NP_NA;
	/* The host task's time: torch_npu takes it for the launch. */
	r->launch_ns = h->meta != NULL ? prof_meta_host_ns(h->meta, t->ts) :
	    0;
	r->model_id = prof_track_model(h, t);
	if (t->node < 0) {
		r->name = prof_dict_hash(&h->dicts, prof_track_item(h, t),
		    nb->name, sizeof nb->name);
		r->op_type = "N/A";
		r->task_type = "N/A";
		return;
	}
	n = &h->nkinds[t->node];
	r->name = prof_dict_hash(&h->dicts, n->name, nb->name,
	    sizeof nb->name);
	r->op_type = prof_dict_hash(&h->dicts, n->op_type, nb->type,
	    sizeof nb->type);
	r->task_type = prof_host_ge_type(n->ge_type);
	r->op_state = n->is_static ? "static" : "dynamic";
	r->hf32 = n->op_flag != 0 ? "YES" : "NO";
	r->block_num = n->block_dim & 0xFFFF;
	r->mix_block_num = (int64_t)(n->block_dim & 0xFFFF) *
	    (n->block_dim >> 16);
	if (t->tensor < 0)
		return;
	l = &h->tkinds[t->tensor];
	r->in_shapes = h->tstrs[l->str[0]];
	r->in_dtypes = h->tstrs[l->str[1]];
	r->in_formats = h->tstrs[l->str[2]];
	r->out_shapes = h->tstrs[l->str[3]];
	r->out_dtypes = h->tstrs[l->str[4]];
	r->out_formats = h->tstrs[l->str[5]];
}

static int
prof_join_start_cmp(const void *a, const void *b)
{
	const struct prof_dtask	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->context < y->context ? -1 : x->context > y->context;
}

/*
 * Map (*MAP, initialised here) each 32-bit task id of chip V6 DEVICE's
 * host tasks to the stream of the first host task with it; return how many
 * later host tasks reuse an id on another stream.
 */
static size_t
prof_join_v6_map(const struct prof_host *h, int64_t device,
    struct util_map *map)
{
	const struct prof_track	*t;
	uint64_t		 v;
	size_t			 i, dup = 0;

	util_map_init(map);
	util_map_reserve(map, h->ntracks);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		if (t->device != device || t->type == PROF_TASK_FLIP ||
		    t->type == PROF_TASK_MAINTENANCE)
			continue;
		if (util_map_get(map, prof_join_v6_task(t), &v)) {
			dup += v != t->stream;
			continue;
		}
		util_map_set(map, prof_join_v6_task(t), t->stream);
	}
	return dup;
}

/*
 * Give the device tasks D of chip V6 DEVICE, whose logs carry no stream
 * id, the stream of the host task with the same 32-bit task id (section
 * 4.3), as the vendor does: the first host task of an id names its stream;
 * a task id no host task has leaves the stream unknown (65535). Both are
 * counted and reported in the store's warnings. The map of task ids to
 * streams is kept in *MAP (initialised here) for the AI CPU's records.
 */
static void
prof_join_v6_streams(struct store *s, struct prof_host *h, int64_t device,
    const char *dir, struct prof_dev *d, struct util_map *map)
{
	uint64_t		 v;
	size_t			 i, dup, lost = 0;

	dup = prof_join_v6_map(h, device, map);
	for (i = 0; i < d->ntasks; i++) {
		if (util_map_get(map, d->tasks[i].task, &v))
			d->tasks[i].stream = (uint32_t)v;
		else {
			d->tasks[i].stream = 0xFFFF;
			lost++;
		}
	}
	if (dup > 0)
		store_load_warning(s, dir, -1, "%zu host task%s of chip V6 "
		    "reuse a task id of another stream: the first stream is "
		    "taken", dup, dup == 1 ? "" : "s");
	if (lost > 0)
		store_load_warning(s, dir, -1, "%zu device task%s of chip V6 "
		    "have a task id no host task has: stream unknown (65535)",
		    lost, lost == 1 ? "" : "s");
}

/*
 * Give the HCCL tasks of H the times of the device tasks D they ran as
 * (joined through MAP), then their ops; return the op_summary rows of the
 * ops in *HR, in start order.
 */
static size_t
prof_join_hccl(struct store *s, struct prof_host *h, const struct prof_dev *d,
    const struct prof_meta *dm, const struct util_map32 *map, int64_t rank,
    struct prof_hrow **hr, const struct prof_kfc *k)
{
	const struct prof_dtask	*t;
	int64_t			 start, dur;
	size_t			 i;
	uint32_t		 v;

	*hr = NULL;
	if (h->nhdescs == 0 && k->nev == 0)
		return 0;
	for (i = 0; i < d->ntasks && h->nhdescs > 0; i++) {
		t = &d->tasks[i];
		if (!util_map32_get(map, prof_join_key(t->stream, t->task,
		    t->batch | t->task >> 16, t->context), &v) ||
		    v == PROF_JOIN_AMBIGUOUS)
			continue;
		start = prof_meta_dev_ns(dm, t->start);
		dur = prof_meta_dev_dur(dm, t->end - t->start);
		if (prof_meta_sane(start) && prof_meta_sane(dur))
			prof_hccl_time(h, v, t->context == DEV_NO_CONTEXT ?
			    UINT32_MAX : t->context, start, dur);
	}
	return prof_hccl_join_device(s, h, dm, rank, hr, k->ev, k->nev);
}

/* A stream's walk over the device's flips, in time order. */
struct prof_join_fwalk {
	size_t		 next;		/* the next flip to look at */
	uint32_t	 batch;
	uint32_t	 destroyed;
};

static int
prof_join_flip_cmp(const void *a, const void *b)
{
	const struct prof_dflip *const	*x = a, *const *y = b;

	if ((*x)->syscnt != (*y)->syscnt)
		return (*x)->syscnt < (*y)->syscnt ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

/*
 * The batch of a task of STREAM starting at counter AT, tasks coming in
 * start order, as the vendor's MC2 analysis gives it: from the numbers of
 * the stream's flips at or before it (FL, all flips in time order; a
 * number 65535, the stream destroyed, counts one more each), not the
 * count of flips the host join uses. W holds each stream's walk (AT only
 * grows per stream), in WALKS.
 */
static uint16_t
prof_join_kfc_batch(const struct prof_dflip **fl, size_t n,
    struct util_map *w, struct prof_join_fwalk **walks, size_t *nwalks,
    uint32_t stream, uint64_t at)
{
	struct prof_join_fwalk	*s;
	uint64_t		 v;

	if (!util_map_get(w, stream, &v)) {
		*walks = util_grow(*walks, *nwalks, 1, sizeof **walks);
		memset(&(*walks)[*nwalks], 0, sizeof **walks);
		v = (*nwalks)++;
		util_map_set(w, stream, v);
	}
	s = &(*walks)[v];
	for (; s->next < n && fl[s->next]->syscnt <= at; s->next++) {
		if (fl[s->next]->stream != stream)
			continue;
		if (fl[s->next]->num == 65535) {
			s->destroyed++;
			s->batch++;
		} else
			s->batch = fl[s->next]->num + s->destroyed;
	}
	return (uint16_t)s->batch;
}

/*
 * Keep for K the device tasks of D (device directory DM, STARS or chip V6
 * logs) the MC2 ops are made of, with their host tasks through MAP.
 */
static void
prof_join_kfc(struct prof_kfc *k, const struct prof_dev *d,
    const struct prof_meta *dm, const struct util_map32 *map, bool stars,
    bool v6)
{
	struct prof_dtask	 t, x;
	const struct prof_dflip	**fl;
	struct prof_join_fwalk	*walks = NULL;
	struct util_map		 w;
	int64_t			 start, dur;
	size_t			 i, nwalks = 0;
	uint32_t		 v;
	uint64_t		 c;

	fl = xreallocarray(NULL, d->nflips + 1, sizeof *fl);
	for (i = 0; i < d->nflips; i++)
		fl[i] = &d->flips[i];
	qsort(fl, d->nflips, sizeof *fl, prof_join_flip_cmp);
	util_map_init(&w);
	for (i = 0; i < d->ntasks; i++) {
		t = d->tasks[i];
		/* Chip V6 has no flips: its batches are 0, as the host's. */
		if (v6)
			t.batch = 0;
		start = prof_meta_dev_ns(dm, t.start);
		dur = prof_meta_dev_dur(dm, t.end - t.start);
		if (!prof_meta_sane(start) || !prof_meta_sane(dur))
			continue;
		/* The host join keeps the batch it counted (v below). */
		x = t;
		if (!v6 && util_map_get(&k->comm, t.stream, &c))
			x.batch = prof_join_kfc_batch(fl, d->nflips, &w,
			    &walks, &nwalks, t.stream, t.start);
		prof_kfc_keep(k, &x, start, dur, util_map32_get(map,
		    prof_join_key(t.stream, t.task, t.batch | t.task >> 16,
		    t.context), &v) && v != PROF_JOIN_AMBIGUOUS ? (int32_t)v :
		    -1, prof_logs_type_name(&t, stars));
	}
	util_map_release(&w);
	free(walks);
	free(fl);
}

/* Load the COMMUNICATION row R of op_summary, after the wait it had. */
static void
prof_join_comm(struct store *s, const struct prof_hrow *r, int64_t device,
    int64_t rank, bool *first, int64_t *prev_end)
{
	struct store_task	 t;

	memset(&t, 0, sizeof t);
	t.device = device;
	t.rank = rank;
	t.model_id = r->model_id;
	t.stream = t.task = t.batch = t.context = NP_NA;
	t.start_ns = r->start_ns;
	t.dur_ns = r->dur_ns;
	t.wait_ns = *first || r->start_ns < *prev_end ? 0 :
	    r->start_ns - *prev_end;
	*first = false;
	*prev_end = r->start_ns + r->dur_ns;
	t.block_num = 0;
	t.mix_block_num = t.step = t.conn = t.api = NP_NA;
	t.name = r->name;
	t.op_type = r->op_type;
	t.task_type = "COMMUNICATION";
	t.op_state = "N/A";
	t.hf32 = "N/A";
	store_load_task(s, &t);
}

/*
 * Join the device tasks D of device directory DM with the host tasks H and
 * their PMU records P, and load them. RANK is the unit's rank.
 */
void
prof_join_load(struct store *s, struct prof_host *h, struct prof_dev *d,
    const struct prof_meta *dm, struct prof_pmu *p, struct prof_aicpus *a,
    int64_t rank)
{
	struct util_map32	 map;
	struct prof_join_names	 nb;
	struct store_task	 r;
	struct strbuf		 pb;
	struct prof_dtask	*t;
	struct prof_hrow	*hr;
	struct prof_kfc		 kfc;
	int64_t			 begin = prof_meta_begin_ns(dm), prev_end;
	int64_t			*cs = NULL;	/* compute ranges */
	size_t			 i, bad = 0, early = 0, nh, ih = 0, ncs = 0;
	uint32_t		 v;
	bool			 stars = prof_meta_is_stars(dm), first = true;
	bool			 listed, compute, v6 = prof_meta_is_v6(dm);

	memset(&nb, 0, sizeof nb);
	strbuf_init(&pb);
	if (v6) {
		prof_join_v6_streams(s, h, dm->device, dm->dir, d,
		    &a->v6_map);
		a->v6 = &a->v6_map;
	}
	prof_join_index(h, dm->device, v6, &map);
	prof_memcpy_plan(h, dm->device);
	prof_sort(d->tasks, d->ntasks, sizeof *d->tasks, prof_join_start_cmp);
	prof_kfc_begin(&kfc, h);
	if (kfc.on) {
		prof_join_kfc(&kfc, d, dm, &map, stars, v6);
		prof_kfc_load(&kfc, s, a, dm, rank);
	}
	nh = prof_join_hccl(s, h, d, dm, &map, rank, &hr, &kfc);
	prev_end = 0;
	/*
	 * The task rows go to SQLite on a second core while the join goes
	 * on: nothing else is written until the last of them.
	 */
	store_load_async_begin(s);
	for (i = 0; i < d->ntasks; i++) {
		t = &d->tasks[i];
		memset(&r, 0, sizeof r);
		r.device = dm->device;
		r.rank = rank;
		r.stream = t->stream;
		r.task = t->task;
		/* Chip V6 has no flips: its batches are 0, as the host's. */
		if (v6)
			t->batch = 0;
		r.batch = t->batch;
		r.context = t->context == DEV_NO_CONTEXT ? NP_NA : t->context;
		r.start_ns = prof_meta_dev_ns(dm, t->start);
		r.dur_ns = prof_meta_dev_dur(dm, t->end - t->start);
		if (!prof_meta_sane(r.start_ns) || !prof_meta_sane(r.dur_ns)) {
			bad++;
			continue;
		}
		if (r.start_ns <= begin) {
			early++;
			continue;
		}
		r.model_id = NP_NA;
		r.block_num = r.mix_block_num = r.step = NP_NA;
		r.conn = r.api = NP_NA;
		r.task_type = prof_logs_type_name(t, stars);
		listed = compute = false;
		if (util_map32_get(&map, prof_join_key(t->stream, t->task,
		    t->batch | t->task >> 16, t->context), &v) &&
		    v != PROF_JOIN_AMBIGUOUS) {
			prof_memcpy_task(h, v, r.start_ns, r.dur_ns);
			compute = prof_join_compute(h, &h->tracks[v]);
			if (compute) {
				prof_join_op(h, &h->tracks[v], &r, &nb);
				listed = prof_join_listed(h, &h->tracks[v]);
			}
			/* An AI CPU run is named by its op of GE type AI_CPU. */
			if (a->n > 0 && prof_join_is_aicpu(h, &h->tracks[v]))
				prof_aicpu_task(a, dm, t->stream, t->task,
				    r.start_ns, r.start_ns + r.dur_ns, compute &&
				    strcmp(r.task_type, "AI_CPU") == 0 ? r.name :
				    NULL);
		}
		/* The wait after the previous row the vendor lists. */
		r.wait_ns = NP_NA;
		/* At one start the vendor lists the compute task first. */
		while (ih < nh && hr[ih].start_ns < r.start_ns)
			prof_join_comm(s, &hr[ih++], dm->device, rank, &first,
			    &prev_end);
		if (listed) {
			r.wait_ns = first || r.start_ns < prev_end ? 0 :
			    r.start_ns - prev_end;
			first = false;
			prev_end = r.start_ns + r.dur_ns;
		}
		r.unlisted = !listed;
		r.conn = r.api;
		if (prof_pmu_values(p, t->stream, t->task, t->context,
		    r.block_num, &pb)) {
			r.pmu = pb.s;
			r.pmu_len = pb.len;
		}
		store_load_task(s, &r);
		if (compute && nh > 0) {
			cs = util_grow(cs, 2 * ncs, 2, sizeof *cs);
			cs[2 * ncs] = r.start_ns;
			cs[2 * ncs++ + 1] = r.start_ns + r.dur_ns;
		}
	}
	while (ih < nh)
		prof_join_comm(s, &hr[ih++], dm->device, rank, &first,
		    &prev_end);
	store_load_async_end(s);
	if (nh > 0)
		prof_overlap_load(s, dm, rank, cs, ncs, hr, nh);
	free(cs);
	prof_hccl_rows_free(hr, nh);
	prof_kfc_release(&kfc);
	strbuf_release(&pb);
	util_map32_release(&map);
	if (bad > 0)
		store_load_warning(s, dm->dir, -1, "%zu device task%s with "
		    "impossible times, skipped", bad, bad == 1 ? "" : "s");
	if (early > 0)
		store_load_warning(s, dm->dir, -1, "%zu of %zu device tasks "
		    "start before the collection (its start from the device's "
		    "host_start.log): left out, as msprof leaves them out",
		    early, d->ntasks);
	prof_memcpy_load(s, h, dm->device, rank);
}
