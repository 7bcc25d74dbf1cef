/*
 * Host ops rebuilt per thread by time containment (doc/formats.md section
 * 3.7): API spans nest ACL > model > node > HCCL > runtime; a
 * node_basic_info or task_track record belongs to the innermost node span
 * of its thread whose interval (begin, end] holds its time stamp, and a
 * task_track also takes the model id of the enclosing model span. The
 * spans go to the store with their depth and parent.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* prof_span_order() for the sorts and merges that take a function. */
int
prof_span_cmp(const void *a, const void *b)
{
	return prof_span_order(a, b);
}

/* Stacks of open spans of the levels records attach to. */
struct prof_ops_sweep {
	const struct prof_host	*h;
	size_t			 next;		/* next span to open */
	int32_t			*node;		/* open node spans */
	size_t			 nnode;
	int32_t			*model;
	size_t			 nmodel;
	int32_t			*hccl;
	size_t			 nhccl;
};

/* The innermost span on STACK that holds TS, after closing ended ones. */
static int32_t
prof_ops_top(const struct prof_host *h, int32_t *stack, size_t *n,
    uint64_t ts)
{
	while (*n > 0 && h->spans[stack[*n - 1]].end < ts)
		(*n)--;
	return *n > 0 ? stack[*n - 1] : -1;
}

/* Open every span of thread TID that begins before TS. */
static void
prof_ops_advance(struct prof_ops_sweep *w, uint32_t tid, uint64_t ts)
{
	const struct prof_span	*sp;

	while (w->next < w->h->nspans) {
		sp = &w->h->spans[w->next];
		if (sp->tid > tid || (sp->tid == tid && sp->begin >= ts))
			break;
		if (sp->tid == tid && sp->level == PROF_LEVEL_NODE) {
			prof_ops_top(w->h, w->node, &w->nnode, sp->begin);
			w->node[w->nnode++] = (int32_t)w->next;
		} else if (sp->tid == tid && sp->level == PROF_LEVEL_MODEL) {
			prof_ops_top(w->h, w->model, &w->nmodel, sp->begin);
			w->model[w->nmodel++] = (int32_t)w->next;
		} else if (sp->tid == tid && sp->level == PROF_LEVEL_HCCL) {
			prof_ops_top(w->h, w->hccl, &w->nhccl, sp->begin);
			w->hccl[w->nhccl++] = (int32_t)w->next;
		}
		w->next++;
	}
}

static void
prof_ops_sweep_init(struct prof_ops_sweep *w, const struct prof_host *h)
{
	memset(w, 0, sizeof *w);
	w->h = h;
	w->node = xreallocarray(NULL, h->nspans + 1, sizeof *w->node);
	w->model = xreallocarray(NULL, h->nspans + 1, sizeof *w->model);
	w->hccl = xreallocarray(NULL, h->nspans + 1, sizeof *w->hccl);
}

static void
prof_ops_sweep_free(struct prof_ops_sweep *w)
{
	free(w->node);
	free(w->model);
	free(w->hccl);
}

static void
prof_ops_sweep_thread(struct prof_ops_sweep *w, uint32_t tid, uint32_t prev,
    bool first)
{
	if (first || tid != prev)
		w->nnode = w->nmodel = w->nhccl = 0;
}

/*
 * The owner of each of the N records at BASE (STRIDE bytes each, starting
 * like struct prof_rec, sorted by thread and time): OWNER[i] = the
 * innermost span of LEVEL (node, model or HCCL) holding record i, or -1.
 * The spans must be sorted as prof_ops_load_spans sorts them.
 */
void
prof_ops_owners(const struct prof_host *h, const void *base, size_t n,
    size_t stride, unsigned level, int32_t *owner)
{
	struct prof_ops_sweep	 w;
	const struct prof_rec	*r, *prev = NULL;
	int32_t			*stack;
	size_t			*depth, i;

	prof_ops_sweep_init(&w, h);
	for (i = 0; i < n; i++) {
		r = (const struct prof_rec *)((const char *)base + i * stride);
		prof_ops_sweep_thread(&w, r->tid, prev != NULL ? prev->tid : 0,
		    prev == NULL);
		prof_ops_advance(&w, r->tid, r->ts);
		if (level == PROF_LEVEL_MODEL) {
			stack = w.model;
			depth = &w.nmodel;
		} else if (level == PROF_LEVEL_HCCL) {
			stack = w.hccl;
			depth = &w.nhccl;
		} else {
			stack = w.node;
			depth = &w.nnode;
		}
		owner[i] = prof_ops_top(h, stack, depth, r->ts);
		prev = r;
	}
	prof_ops_sweep_free(&w);
}

/*
 * Attach the N records at BASE (STRIDE bytes each, starting like struct
 * prof_rec, sorted by thread and time) to the node spans holding them:
 * SPAN_OF[span] = KIND of the record (its index if KIND is NULL), or -1.
 * A later record of the same span wins. KIND is read at offset KOFF.
 */
static int32_t *
prof_ops_attach(const struct prof_host *h, const void *base, size_t n,
    size_t stride, bool kind, size_t koff)
{
	const unsigned char	*r;
	int32_t			*owner, *span_of;
	uint32_t		 k;
	size_t			 i;

	span_of = xreallocarray(NULL, h->nspans + 1, sizeof *span_of);
	for (i = 0; i < h->nspans; i++)
		span_of[i] = -1;
	owner = xreallocarray(NULL, n + 1, sizeof *owner);
	prof_ops_owners(h, base, n, stride, PROF_LEVEL_NODE, owner);
	for (i = 0; i < n; i++) {
		if (owner[i] < 0)
			continue;
		r = (const unsigned char *)base + i * stride;
		if (kind)
			memcpy(&k, r + koff, sizeof k);
		span_of[owner[i]] = kind ? (int32_t)k : (int32_t)i;
	}
	free(owner);
	return span_of;
}

/*
 * Sort the node_basic_info, tensor_info, context_id_info and HCCL-level
 * context records of H by thread and time, for prof_ops_attach_records()
 * and prof-hccl.c. They need no span.
 */
void
prof_ops_sort_records(struct prof_host *h)
{
	prof_sort_recs(h->nodes, h->nnodes, sizeof *h->nodes);
	prof_sort_recs(h->tinfos, h->ntinfos, sizeof *h->tinfos);
	prof_sort_recs(h->cinfos, h->ncinfos, sizeof *h->cinfos);
	prof_sort_recs(h->hcinfos, h->nhcinfos, sizeof *h->hcinfos);
}

/*
 * Attach the node_basic_info, tensor_info and context_id_info records of
 * H, sorted (prof_ops_sort_records()), to the node spans
 * prof_ops_load_spans kept, before the task_track records are read: a
 * node span takes what its node and tensor records say (their nkinds and
 * tkinds indexes), and the node and tensor records are freed, so they and
 * the tasks are never held together.
 */
void
prof_ops_attach_records(struct prof_host *h)
{
	h->span_node = prof_ops_attach(h, h->nodes, h->nnodes,
	    sizeof *h->nodes, true, offsetof(struct prof_node, kind));
	h->span_tensor = prof_ops_attach(h, h->tinfos, h->ntinfos,
	    sizeof *h->tinfos, true, offsetof(struct prof_tinfo, kind));
	h->span_ctx = prof_ops_attach(h, h->cinfos, h->ncinfos,
	    sizeof *h->cinfos, false, 0);
	prof_dedup_free(h);
}

/*
 * Attach the task_track records of H to the node and model spans: fill
 * each track's span, model, node (an nkinds index), tensor (a tkinds
 * index) and ctx.
 */
void
prof_ops_build(struct prof_host *h)
{
	struct prof_ops_sweep	 w;
	struct prof_track	*t;
	size_t			 i;

	prof_sort_recs(h->tracks, h->ntracks, sizeof *h->tracks);
	prof_ops_sweep_init(&w, h);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		prof_ops_sweep_thread(&w, t->tid, i > 0 ? h->tracks[i - 1].tid :
		    0, i == 0);
		prof_ops_advance(&w, t->tid, t->ts);
		t->span = prof_ops_top(h, w.node, &w.nnode, t->ts);
		t->model = prof_ops_top(h, w.model, &w.nmodel, t->ts);
		if (t->span < 0)
			continue;
		t->node = h->span_node[t->span];
		t->tensor = h->span_tensor[t->span];
		t->ctx = h->span_ctx[t->span];
	}
	prof_ops_sweep_free(&w);
	prof_ops_attach_free(h);
}

/* Free what prof_ops_attach_records made. */
void
prof_ops_attach_free(struct prof_host *h)
{
	free(h->span_node);
	free(h->span_tensor);
	free(h->span_ctx);
	h->span_node = h->span_tensor = h->span_ctx = NULL;
}

/* The level name the vendor's api_statistic prints (section 8.2). */
static const char *
prof_ops_level(unsigned level, char *buf, size_t size)
{
	switch (level) {
	case PROF_LEVEL_ACL:
		return "acl";
	case PROF_LEVEL_MODEL:
		return "model";
	case PROF_LEVEL_NODE:
		return "node";
	case PROF_LEVEL_HCCL:
		return "communication";
	case PROF_LEVEL_RUNTIME:
		return "runtime";
	}
	snprintf(buf, size, "level %u", level);
	return buf;
}

/* The API name of span SP (section 3.2). */
static const char *
prof_ops_name(const struct prof_host *h, const struct prof_span *sp,
    char *buf, size_t size)
{
	if (sp->level == PROF_LEVEL_HCCL)
		return prof_dict_hash(&h->dicts, sp->item, buf, size);
	return prof_dict_type(&h->dicts, sp->level, sp->type, buf, size);
}

/* Whether span SP is of a level records attach to. */
static bool
prof_ops_kept(const struct prof_span *sp)
{
	return sp->level == PROF_LEVEL_NODE || sp->level == PROF_LEVEL_MODEL ||
	    sp->level == PROF_LEVEL_HCCL;
}

/*
 * Keep only the node, model and HCCL spans of H, the ones records attach
 * to (HCCL tasks are the task_track records under an HCCL span): the ACL
 * and runtime spans are stored and no longer needed, and they are most of
 * a large collection's spans.
 */
void
prof_ops_keep(struct prof_host *h)
{
	size_t	 i, n = 0;

	for (i = 0; i < h->nspans; i++) {
		if (prof_ops_kept(&h->spans[i]))
			h->spans[n++] = h->spans[i];
	}
	h->nspans = n;
	h->spans = xreallocarray(h->spans, n + 1, sizeof *h->spans);
}

/* The state of storing spans in order: the open spans of a thread. */
struct prof_ops_load {
	struct store		*s;
	const struct prof_host	*h;
	const struct prof_meta	*m;
	int64_t			 rank;
	int64_t			 begin;		/* of the collection */
	int64_t			*end;		/* of the open spans */
	int64_t			*row;
	size_t			 n;
	size_t			 room;
	size_t			 bad;
	bool			 first;
	uint32_t		 tid;
};

/*
 * Store span SP, the next in prof_span_cmp order, with its depth and
 * parent; set its row in its aux (0 if not stored).
 */
static void
prof_ops_store(struct prof_ops_load *l, struct prof_span *sp)
{
	struct store_api	 a;
	char			 lb[32], nb[32];

	sp->aux = 0;
	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = l->rank;
	a.pid = l->m->pid;
	a.tid = sp->tid;
	a.start_ns = prof_meta_host_ns(l->m, sp->begin);
	a.end_ns = prof_meta_host_ns(l->m, sp->end);
	a.conn = NP_NA;
	if (!l->first && sp->tid != l->tid)
		l->n = 0;
	l->first = false;
	l->tid = sp->tid;
	if (!prof_meta_sane(a.start_ns) || !prof_meta_sane(a.end_ns) ||
	    a.end_ns < a.start_ns) {
		l->bad++;
		return;
	}
	while (l->n > 0 && l->end[l->n - 1] < a.end_ns)
		l->n--;
	if (a.end_ns < l->begin)
		return;
	/* The open spans: a stack as deep as the nesting, not one a span. */
	if (l->n == l->room) {
		l->end = util_grow(l->end, l->room, 1, sizeof *l->end);
		l->row = util_grow(l->row, l->room, 1, sizeof *l->row);
		l->room++;
	}
	a.depth = (int64_t)l->n;
	a.parent = l->n > 0 ? l->row[l->n - 1] : NP_NA;
	a.level = prof_ops_level(sp->level, lb, sizeof lb);
	a.name = prof_ops_name(l->h, sp, nb, sizeof nb);
	l->row[l->n] = store_load_api(l->s, &a);
	if (l->row[l->n] > 0 && l->row[l->n] <= UINT32_MAX)
		sp->aux = (uint32_t)l->row[l->n];
	l->end[l->n++] = a.end_ns;
}

/*
 * Store the spans of H merged from their sorted runs and the spans it
 * still holds (the last of them, never written), and keep only those
 * prof_ops_keep would, in order. On failure return -1 and set *CAUSE.
 */
static int
prof_ops_load_runs(struct prof_ops_load *l, struct prof_host *h,
    char **cause)
{
	struct prof_runs_merge	 mg;
	struct prof_span	 sp, *kept = NULL;
	size_t			 n = 0;
	int			 rc = 0;

	prof_runs_merge_start(h, &mg);
	while (prof_runs_merge_next(&mg, &sp)) {
		prof_ops_store(l, &sp);
		if (!prof_ops_kept(&sp))
			continue;
		kept = util_grow(kept, n, 1, sizeof *kept);
		kept[n++] = sp;
	}
	if (mg.failed) {
		*cause = mg.cause;
		mg.cause = NULL;
		rc = -1;
	}
	prof_runs_merge_end(&mg);
	prof_runs_release(&h->runs);
	free(h->spans);
	h->spans = kept;
	h->nspans = n;
	return rc;
}

/*
 * Load the spans of H, sorted by thread and time, into the store with
 * their nesting; times through the host metadata M. Spans that end before
 * the collection starts are left out (section 2.6 step 5). Sets each
 * span's row in its aux. The spans of H are then sorted by prof_span_cmp;
 * if the reader wrote them to sorted runs, only the kept levels are left.
 * Return -1 with *CAUSE set if a run could not be read back.
 */
int
prof_ops_load_spans(struct store *s, struct prof_host *h,
    const struct prof_meta *m, int64_t rank, char **cause)
{
	struct prof_ops_load	 l;
	size_t			 i;
	int			 rc = 0;

	memset(&l, 0, sizeof l);
	l.s = s;
	l.h = h;
	l.m = m;
	l.rank = rank;
	l.begin = prof_meta_begin_ns(m);
	l.first = true;
	/* The spans go to SQLite on a second core while the runs merge. */
	store_load_async_begin(s);
	if (h->runs.n > 0)
		rc = prof_ops_load_runs(&l, h, cause);
	else {
		prof_sort_spans(h->spans, h->nspans);
		for (i = 0; i < h->nspans; i++)
			prof_ops_store(&l, &h->spans[i]);
	}
	store_load_async_end(s);
	free(l.end);
	free(l.row);
	if (l.bad > 0)
		store_load_warning(s, m->dir, -1,
		    "%zu API span%s with impossible "
		    "times, skipped", l.bad, l.bad == 1 ? "" : "s");
	return rc;
}

/* The index of V among the N values at *VS (MAP: value to index). */
static int32_t
prof_ops_intern(uint64_t **vs, size_t *n, struct util_map *map, uint64_t v)
{
	uint64_t	 j;

	if (util_map_get(map, v, &j))
		return (int32_t)j;
	*vs = util_grow(*vs, *n, 1, sizeof **vs);
	(*vs)[*n] = v;
	util_map_set(map, v, *n);
	return (int32_t)(*n)++;
}

/*
 * Copy what the join needs of each task's spans into the task, then free
 * the spans: the device half then runs without them. A task's model id
 * and op item go to small tables of the values there are (there are few).
 */
void
prof_ops_finish(struct prof_host *h)
{
	struct prof_track	*t;
	struct util_map		 mm, im;
	uint64_t		 model, item;
	size_t			 i;

	util_map_init(&mm);
	util_map_init(&im);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		model = t->model >= 0 ? h->spans[t->model].item :
		    (uint64_t)prof_extra_model(h, t);
		t->model = prof_ops_intern(&h->models,
		    &h->nmodels, &mm, model);
		item = t->span >= 0 ? h->spans[t->span].item : 0;
		t->item = (uint32_t)prof_ops_intern(&h->items, &h->nitems,
		    &im, item);
		if (t->span >= 0 && h->spans[t->span].aux != 0)
			t->row = h->spans[t->span].aux;
	}
	util_map_release(&mm);
	util_map_release(&im);
	free(h->spans);
	h->spans = NULL;
	h->nspans = 0;
}

/* The model id of task T, once prof_ops_finish has run. */
int64_t
prof_track_model(const struct prof_host *h, const struct prof_track *t)
{
	return (int64_t)h->models[t->model];
}

/* The item of the node span of task T (0 if none), after prof_ops_finish. */
uint64_t
prof_track_item(const struct prof_host *h, const struct prof_track *t)
{
	return h->items[t->item];
}
