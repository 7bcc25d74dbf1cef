/*
 * The HCCL tasks of one device given to their ops (doc/formats.md section
 * 3.10), once the join has given them their device times: per thread, in
 * host time order, a task goes to the first op not yet ended when it was
 * launched; the ops are then named as the vendor names them, each becomes
 * a COMMUNICATION row of op_summary, and prof-hccl-stats.c computes the
 * communication tables. Tasks no op takes and tasks without a device
 * task are counted and reported.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* What the merge works on: the device's tasks and ops, sorted. */
struct prof_hccl_join {
	struct prof_host	*h;
	size_t			*tasks;		/* hdesc indices */
	size_t			 ntasks;
	size_t			*ops;		/* hop indices */
	size_t			 nops;
	struct prof_hevent	*ev;
	size_t			 nev;
	size_t			 lost;		/* tasks no op took */
	char			**pool;		/* distinct strings of ev */
	size_t			 npool;
	struct util_map		 pool_at;	/* hash -> pool index */
	const char		*probe;		/* the string looked up */
};

static const struct prof_host	*prof_hccl_join_host;	/* for qsort */

static int
prof_hccl_join_task_cmp(const void *a, const void *b)
{
	const struct prof_host	*h = prof_hccl_join_host;
	const struct prof_hdesc	*x = &h->hdescs[*(const size_t *)a];
	const struct prof_hdesc	*y = &h->hdescs[*(const size_t *)b];
	const struct prof_track	*p = &h->tracks[x->track];
	const struct prof_track	*q = &h->tracks[y->track];

	if (p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	if (p->ts != q->ts)
		return p->ts < q->ts ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int
prof_hccl_join_op_cmp(const void *a, const void *b)
{
	const struct prof_host	*h = prof_hccl_join_host;
	const struct prof_hop	*x = &h->hops[*(const size_t *)a];
	const struct prof_hop	*y = &h->hops[*(const size_t *)b];

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int
prof_hccl_join_ev_cmp(const void *a, const void *b)
{
	const struct prof_host		*h = prof_hccl_join_host;
	const struct prof_hevent	*x = a, *y = b;
	uint64_t			 p = h->tracks[x->d->track].ts;
	uint64_t			 q = h->tracks[y->d->track].ts;

	if (p != q)
		return p < q ? -1 : 1;
	if (x->d->start_ns != y->d->start_ns)
		return x->d->start_ns < y->d->start_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Gather and sort the tasks and ops of DEVICE; count tasks never run. */
static size_t
prof_hccl_join_gather(struct prof_hccl_join *j, int64_t device)
{
	struct prof_host	*h = j->h;
	size_t			 i, norun = 0;

	j->tasks = xreallocarray(NULL, h->nhdescs + 1, sizeof *j->tasks);
	j->ops = xreallocarray(NULL, h->nhops + 1, sizeof *j->ops);
	for (i = 0; i < h->nhdescs; i++) {
		if (h->tracks[h->hdescs[i].track].device != device)
			continue;
		if (h->hdescs[i].start_ns == NP_NA)
			norun++;
		else
			j->tasks[j->ntasks++] = i;
	}
	for (i = 0; i < h->nhops; i++) {
		if (h->hops[i].device == device)
			j->ops[j->nops++] = i;
	}
	prof_hccl_join_host = h;
	qsort(j->tasks, j->ntasks, sizeof *j->tasks, prof_hccl_join_task_cmp);
	qsort(j->ops, j->nops, sizeof *j->ops, prof_hccl_join_op_cmp);
	return norun;
}

static bool
prof_hccl_join_same(const void *arg, uint64_t v)
{
	const struct prof_hccl_join	*j = arg;

	return strcmp(j->pool[v], j->probe) == 0;
}

/*
 * String S kept once in J's pool (events repeat their op's names), so
 * that one string is one pointer; takes ownership of S.
 */
static char *
prof_hccl_join_intern(struct prof_hccl_join *j, char *s)
{
	uint64_t	 h = util_hash64(s, strlen(s)), v;

	j->probe = s;
	if (util_map_probe(&j->pool_at, &h, prof_hccl_join_same, j, &v)) {
		free(s);
		return j->pool[v];
	}
	j->pool = util_grow(j->pool, j->npool, 1, sizeof *j->pool);
	j->pool[j->npool] = s;
	util_map_set(&j->pool_at, h, j->npool);
	return j->pool[j->npool++];
}

/* The text of hash ID, or N/A for none, from J's pool. */
static char *
prof_hccl_join_name(struct prof_hccl_join *j, uint64_t id)
{
	char	 buf[32];

	if (id == 0)
		return prof_hccl_join_intern(j, xstrdup("N/A"));
	return prof_hccl_join_intern(j, xstrdup(prof_dict_hash(&j->h->dicts,
	    id, buf, sizeof buf)));
}

/* What the hccl_info record R (or NULL) names its task, once. */
int
prof_hccl_join_task(const struct prof_host *h, const struct prof_hinfo *r)
{
	const char	*n;
	char		 buf[32];

	if (r == NULL)
		return HT_TASK_OTHER;
	n = prof_dict_hash(&h->dicts, r->name, buf, sizeof buf);
	if (strcmp(n, "Memcpy") == 0)
		return HT_TASK_MEMCPY;
	if (strcmp(n, "Reduce_Inline") == 0)
		return HT_TASK_REDUCE;
	if (strcmp(n, "Notify_Wait") == 0)
		return HT_TASK_WAIT;
	return HT_TASK_OTHER;
}

/* Task D (index K) taken by op O, ITER its key's count so far. */
static void
prof_hccl_join_take(struct prof_hccl_join *j, const struct prof_hop *o,
    size_t k, struct util_map *seen)
{
	struct prof_host	*h = j->h;
	const struct prof_hdesc	*d = &h->hdescs[k];
	const struct prof_track	*t = &h->tracks[d->track];
	struct prof_hevent	*e;
	uint64_t		 key, n = 0;
	uint32_t		 ids[4];

	/* The vendor's key is the whole stream, task, context and batch. */
	ids[0] = t->stream;
	ids[1] = t->task;
	ids[2] = d->ctx;
	ids[3] = t->batch;
	key = util_hash64((const char *)ids, sizeof ids);
	util_map_get(seen, key, &n);
	util_map_set(seen, key, ++n);
	j->ev = util_grow(j->ev, j->nev, 1, sizeof *j->ev);
	e = &j->ev[j->nev++];
	memset(e, 0, sizeof *e);
	e->d = d;
	e->info = d->info >= 0 ? &h->hinfos[d->info] : NULL;
	e->task = prof_hccl_join_task(h, e->info);
	e->op = prof_hccl_join_name(j, o->item);
	e->group = e->info != NULL ? prof_hccl_join_name(j, e->info->group) :
	    prof_hccl_join_name(j, o->group);
	e->hop = (uint32_t)(o - h->hops);
	e->iter = (uint32_t)n;
	e->seq = (uint32_t)(j->nev - 1);
}

/*
 * The vendor's merge: per thread, in the order of the threads' first ops,
 * each op in begin order takes the thread's next tasks launched up to its
 * end. What is left of a thread's tasks, or a thread without ops, is
 * lost.
 */
static void
prof_hccl_join_merge(struct prof_hccl_join *j)
{
	struct prof_host	*h = j->h;
	struct util_map		 seen, done;
	const struct prof_hop	*o;
	size_t			 i, a, b, k, m, taken = 0;
	uint32_t		 tid;
	uint64_t		 v;

	util_map_init(&seen);
	util_map_init(&done);
	for (i = 0; i < j->nops; i++) {
		tid = h->hops[j->ops[i]].tid;
		if (util_map_get(&done, tid, &v))
			continue;
		util_map_set(&done, tid, 1);
		for (a = 0; a < j->ntasks && h->tracks[h->hdescs[
		    j->tasks[a]].track].tid != tid; a++)
			;
		for (b = a; b < j->ntasks && h->tracks[h->hdescs[
		    j->tasks[b]].track].tid == tid; b++)
			;
		for (m = i; m < j->nops && a < b; m++) {
			o = &h->hops[j->ops[m]];
			if (o->tid != tid)
				continue;
			for (k = a; k < b && h->tracks[h->hdescs[
			    j->tasks[k]].track].ts <= o->end; k++)
				prof_hccl_join_take(j, o, j->tasks[k], &seen);
			taken += k - a;
			a = k;
		}
	}
	j->lost = j->ntasks - taken;
	util_map_release(&seen);
	util_map_release(&done);
}

/*
 * The index of an op of GROUP named NAME launched at FIRST, in *G (*NG
 * groups so far): per group, AI CPU kernels apart, it counts from -1 the
 * ops with a later launch than the last counted, only when COUNTS (the op
 * started after the collection began).
 */
int64_t
prof_hccl_join_index(struct prof_hindex **g, size_t *ng, uint64_t group,
    const char *name, bool counts, uint64_t first)
{
	struct prof_hindex	*x;
	bool			 aicpu = strstr(name, "AicpuKernel") != NULL;
	size_t			 k;

	for (k = 0; k < *ng; k++)
		if ((*g)[k].aicpu == aicpu && (*g)[k].group == group)
			break;
	if (k == *ng) {
		*g = util_grow(*g, *ng, 1, sizeof **g);
		(*g)[k].group = group;
		(*g)[k].aicpu = aicpu;
		(*g)[k].first = 0;
		(*g)[k].count = -1;
		(*ng)++;
	}
	x = &(*g)[k];
	if (counts && first > x->first) {
		x->first = first;
		x->count++;
	}
	return x->count;
}

/*
 * Name the ops as the vendor does: <op>_<last 3 characters of the
 * group>_<index>_<iteration>, the index from prof_hccl_join_index(), for
 * tasks after the collection began (BEGIN).
 */
static void
prof_hccl_join_names(struct prof_hccl_join *j, int64_t begin)
{
	struct prof_hindex	*g = NULL;
	size_t			 ng = 0, i, len;
	struct prof_hevent	*e;
	char			*name;
	int64_t			 index;

	for (i = 0; i < j->nev; i++) {
		e = &j->ev[i];
		/* Groups are pooled: one group, one pointer. */
		index = prof_hccl_join_index(&g, &ng,
		    (uint64_t)(uintptr_t)e->group, e->op, e->d->start_ns >
		    begin, j->h->hops[e->hop].begin);
		len = strlen(e->group);
		xasprintf(&name, "%s_%s_%lld_%u", e->op, e->group + (len > 3 ?
		    len - 3 : 0), (long long)index, e->iter);
		e->op = prof_hccl_join_intern(j, name);
		xasprintf(&name, "%s@%s", e->op, e->group);
		e->key = prof_hccl_join_intern(j, name);
	}
	free(g);
}

static int
prof_hccl_join_row_cmp(const void *a, const void *b)
{
	const struct prof_hrow	*x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The COMMUNICATION rows: one per op name and group, from its
 * earliest master task's start to the end of the master task that ends
 * last; an op without a master task has none (counted in *NOMASTER).
 */
static size_t
prof_hccl_join_rows(struct prof_hccl_join *j, int64_t begin,
    struct prof_hrow **rowsp, size_t *nomaster, size_t *early)
{
	struct prof_hrow	*rows = NULL, *r;
	struct prof_hevent	*e;
	struct util_map		 at;		/* key pointer -> row */
	int64_t			*end;
	uint64_t		 v;
	size_t			 n = 0, i, k;
	bool			*has;

	util_map_init(&at);
	end = xreallocarray(NULL, j->nev + 1, sizeof *end);
	has = xcalloc(j->nev + 1, sizeof *has);
	for (i = 0; i < j->nev; i++) {
		e = &j->ev[i];
		/* Keys are pooled: one key, one pointer. */
		if (!util_map_get(&at, (uint64_t)(uintptr_t)e->key, &v)) {
			v = n;
			util_map_set(&at, (uint64_t)(uintptr_t)e->key, n);
			rows = util_grow(rows, n, 1, sizeof *rows);
			r = &rows[n++];
			r->name = xstrdup(e->op);
			r->model_id = prof_track_model(j->h,
			    &j->h->tracks[e->d->track]);
			r->op_type = prof_hccl_op_type(j->h, e->hop);
			r->start_ns = r->dur_ns = NP_NA;
		}
		if (!e->d->master)
			continue;
		r = &rows[v];
		if (!has[v] || e->d->start_ns < r->start_ns)
			r->start_ns = e->d->start_ns;
		if (!has[v] || e->d->start_ns + e->d->dur_ns > end[v])
			end[v] = e->d->start_ns + e->d->dur_ns;
		has[v] = true;
	}
	for (i = k = 0; i < n; i++) {
		/* The vendor drops ops that start before the collection. */
		if (!has[i] || rows[i].start_ns < begin) {
			*early += has[i];
			free(rows[i].name);
			continue;
		}
		rows[i].dur_ns = end[i] - rows[i].start_ns;
		rows[k++] = rows[i];
	}
	*nomaster = n - k - *early;
	util_map_release(&at);
	free(end);
	free(has);
	if (k > 1)
		qsort(rows, k, sizeof *rows, prof_hccl_join_row_cmp);
	*rowsp = rows;
	return k;
}

/*
 * Give the HCCL tasks of device directory DM to their ops, write the
 * device's communication tables from them and the NEXTRA events EXTRA
 * (the MC2 ops' tasks, prof-kfc.c), and return its op_summary
 * COMMUNICATION rows in start order in *ROWSP (free with
 * prof_hccl_rows_free).
 */
size_t
prof_hccl_join_device(struct store *s, struct prof_host *h,
    const struct prof_meta *dm, int64_t rank, struct prof_hrow **rowsp,
    const struct prof_hevent *extra, size_t nextra)
{
	struct prof_hccl_join	 j;
	struct prof_hstats	 x;
	size_t			 n, norun, nomaster, early = 0, noinfo = 0, i;
	size_t			 nhccl;

	*rowsp = NULL;
	memset(&j, 0, sizeof j);
	j.h = h;
	norun = prof_hccl_join_gather(&j, dm->device);
	prof_hccl_join_merge(&j);
	prof_hccl_join_host = h;
	if (j.nev > 1)
		qsort(j.ev, j.nev, sizeof *j.ev, prof_hccl_join_ev_cmp);
	prof_hccl_join_names(&j, prof_meta_begin_ns(dm));
	n = prof_hccl_join_rows(&j, prof_meta_begin_ns(dm), rowsp, &nomaster,
	    &early);
	nhccl = j.nev;
	prof_hccl_opstat_add(h, j.ev, nhccl, dm, rank);
	if (nextra > 0) {
		j.ev = xreallocarray(j.ev, j.nev + nextra, sizeof *j.ev);
		memcpy(j.ev + j.nev, extra, nextra * sizeof *extra);
		for (i = j.nev; i < j.nev + nextra; i++)
			j.ev[i].seq = (uint32_t)i;
		j.nev += nextra;
	}
	if (j.nev > 0) {
		prof_hccl_stats(&x, s, j.ev, j.nev, dm);
		prof_ht_write(&x, dm->device, rank);
		prof_hs_free(&x);
	}
	if (h->hdesc_lost > 0) {
		store_load_warning(s, dm->dir, -1, "%zu HCCL tasks beyond the "
		    "first %d not kept", h->hdesc_lost, PROF_HCCL_MAX_TASKS);
		h->hdesc_lost = 0;
	}
	for (i = 0; i < nhccl; i++)
		noinfo += j.ev[i].info == NULL;
	if (noinfo > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL task%s without "
		    "an hccl_info record: no plane, ranks, link or size (plane "
		    "0, not a copy, a wait or a payload)", noinfo, noinfo == 1 ?
		    "" : "s");
	if (norun > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL task%s without "
		    "a device task: left out of the communication tables",
		    norun, norun == 1 ? "" : "s");
	if (j.lost > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL task%s launched "
		    "after the last communication op of their thread, or on a "
		    "thread without one: left out of the communication tables",
		    j.lost, j.lost == 1 ? "" : "s");
	if (nomaster > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL op%s without a "
		    "master task: no op_summary row", nomaster,
		    nomaster == 1 ? "" : "s");
	if (early > 0)
		store_load_warning(s, dm->dir, -1, "%zu HCCL op%s starting "
		    "before the collection: no op_summary row, as the "
		    "vendor's", early, early == 1 ? "" : "s");
	for (i = 0; i < j.npool; i++)
		free(j.pool[i]);
	free(j.pool);
	util_map_release(&j.pool_at);
	free(j.ev);
	free(j.tasks);
	free(j.ops);
	return n;
}
