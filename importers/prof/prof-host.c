/*
 * The host half of a raw collection (doc/formats.md section 3): API spans from
 * api_event files (40-byte MsprofApi records, and MsprofEvent halves paired
 * by (level, type, thread, request, item) in file order), node_basic_info
 * and task_track compact records, the expand_stream_spec flag and the
 * dictionaries. Records with a wrong magic are skipped and counted, one
 * warning per file.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_API_SIZE		40
#define PROF_COMPACT_SIZE	64
#define PROF_EVENT_FLAG		UINT64_MAX
#define PROF_NO_PENDING		(UINT64_MAX - 1)

static const char *const prof_host_ge_types[] = {
	"AI_CORE", "AI_CPU", "AI_VECTOR_CORE", "WRITE_BACK", "MIX_AIC",
	"MIX_AIV", "FFTS_PLUS", "DSA_SQE", "DVPP", "COMMUNICATION", "FUSION",
	"INVALID"
};

/* The GE task type name of node_basic_info (section 3.5). */
const char *
prof_host_ge_type(uint32_t t)
{
	if (t == 256)
		return "HCCL_AI_CPU";
	if (t >= sizeof prof_host_ge_types / sizeof prof_host_ge_types[0])
		return "UNKNOWN";
	return prof_host_ge_types[t];
}

static struct prof_span *
prof_host_add_span(struct prof_host *h)
{
	h->spans = util_grow(h->spans, h->nspans, 1, sizeof *h->spans);
	return &h->spans[h->nspans++];
}

static uint64_t
prof_host_event_key(const struct prof_span *e)
{
	uint64_t	 k;

	k = (uint64_t)e->level << 48 ^ (uint64_t)e->type << 16 ^ e->tid;
	k = k * 0x9E3779B97F4A7C15ULL ^ e->aux;
	return k * 0x9E3779B97F4A7C15ULL ^ e->item;
}

/*
 * Pair an event with the pending start of the same key, or make it the
 * pending start.
 */
static void
prof_host_event(struct prof_host *h, struct util_map *pending,
    struct prof_span **starts, size_t *nstarts, const struct prof_span *e)
{
	struct prof_span	*sp, *st;
	uint64_t		 key = prof_host_event_key(e), i;

	if (util_map_get(pending, key, &i) && i != PROF_NO_PENDING) {
		st = &(*starts)[i];
		if (st->level == e->level && st->type == e->type &&
		    st->tid == e->tid && st->aux == e->aux &&
		    st->item == e->item) {
			sp = prof_host_add_span(h);
			*sp = *st;
			sp->end = e->begin;
			util_map_set(pending, key, PROF_NO_PENDING);
			return;
		}
	}
	*starts = util_grow(*starts, *nstarts, 1, sizeof **starts);
	(*starts)[*nstarts] = *e;
	util_map_set(pending, key, (*nstarts)++);
}

static void
prof_host_api(struct store *s, const char *data, struct prof_host *h)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	struct util_map		 pending;
	struct prof_span	 sp, *starts = NULL, *out;
	const unsigned char	*r;
	size_t			 nstarts = 0, events = 0, run;

	run = prof_runs_size();
	prof_slices_list(data, "api_event.data", true, &f);
	util_map_init(&pending);
	prof_slices_open(&st, s, &f, PROF_API_SIZE, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		memset(&sp, 0, sizeof sp);
		sp.level = importer_le16(r + 2);
		sp.type = importer_le32(r + 4);
		sp.tid = importer_le32(r + 8);
		sp.aux = importer_le32(r + 12);
		sp.begin = importer_le64(r + 16);
		sp.end = importer_le64(r + 24);
		sp.item = importer_le64(r + 32);
		if (sp.end == PROF_EVENT_FLAG) {
			events++;
			prof_host_event(h, &pending, &starts, &nstarts, &sp);
		}
		else if (sp.begin != 0) {
			out = prof_host_add_span(h);
			*out = sp;
		}
		if (h->nspans >= run)
			prof_runs_spill(s, data, h);
	}
	/* Every pair used one start and one end. */
	if (nstarts > events - nstarts)
		store_load_warning(s, f.n > 0 ? f.paths[0] : data, -1,
		    "%zu event starts without an end, dropped",
		    nstarts - (events - nstarts));
	prof_slices_close(&st);
	util_map_release(&pending);
	free(starts);
	prof_slices_release(&f);
}

/* Call FN on each record of the compact slices NAME under DATA. */
static void
prof_host_compact(struct store *s, const char *data, struct prof_host *h,
    const char *name, void (*fn)(struct prof_host *, const unsigned char *,
    bool))
{
	struct prof_files	 f;
	struct prof_stream	 st;
	const unsigned char	*r;

	prof_slices_list(data, name, true, &f);
	prof_slices_open(&st, s, &f, PROF_COMPACT_SIZE, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (prof_slices_magic(&st, r))
			fn(h, r, st.unaging);
	}
	prof_slices_close(&st);
	prof_slices_release(&f);
}

/* A node_basic_info record R (UNAGING: from the static slices). */
static void
prof_host_node(struct prof_host *h, const unsigned char *r, bool unaging)
{
	struct prof_node	*n;
	struct prof_nkind	 k;
	uint32_t		 id;

	memset(&k, 0, sizeof k);
	k.name = importer_le64(r + 24);
	id = importer_le32(r + 32);
	k.ge_type = (uint16_t)(id > 0xFFFF ? 0xFFFF : id);
	k.op_type = importer_le64(r + 36);
	k.block_dim = importer_le32(r + 44);
	k.op_flag = importer_le32(r + 48);
	k.is_static = unaging;
	h->nodes = util_grow(h->nodes, h->nnodes, 1, sizeof *h->nodes);
	n = &h->nodes[h->nnodes++];
	n->tid = importer_le32(r + 8);
	n->ts = importer_le64(r + 16);
	n->kind = prof_dedup_node(h, &k);
}

/* A task_track record R. */
static void
prof_host_track(struct prof_host *h, const unsigned char *r, bool unaging)
{
	struct prof_track	*t;
	uint32_t		 id;

	(void)unaging;
	h->tracks = util_grow(h->tracks, h->ntracks, 1, sizeof *h->tracks);
	t = &h->tracks[h->ntracks++];
	t->tid = importer_le32(r + 8);
	t->ts = importer_le64(r + 16);
	t->device = importer_le16(r + 24) & 0xFFF;
	t->stream = importer_le16(r + 26);
	id = importer_le32(r + 28);
	t->task = id & 0xFFFF;
	t->batch = t->task_hi = id >> 16;
	t->type = importer_le32(r + 32);
	t->row = importer_le32(r + 36);		/* until the layout is known */
	t->node = t->span = t->model = t->tensor = t->ctx = -1;
	t->item = 0;
}

/*
 * The task_track records of H read as the V2 layout if they are in it
 * (section 3.5): u16 device, 2 reserved bytes, u32 stream @28, u32 task
 * id @32, u32 task type @36. The V1 layout has u16 stream @26, u32 task
 * id @28 and a u64 task type @32 that never exceeds 16 bits, so a record
 * with a byte set at 36-39 is V2, and V2 leaves bytes 26-27 at zero: the
 * records are V2 if none sets 26-27 and one sets 36-39. Both at once is
 * damage, reported, and the records stay V1. The task id means the same
 * in both (task and batch halves, or chip V6's whole id).
 */
static void
prof_host_track_v2(struct store *s, const char *data, struct prof_host *h)
{
	struct prof_track	*t;
	uint32_t		 stream, type_hi;
	size_t			 i, lo = 0, hi = 0, wide = 0;

	for (i = 0; i < h->ntracks; i++) {
		lo += h->tracks[i].stream != 0;
		hi += h->tracks[i].row != 0;
	}
	if (hi > 0 && lo > 0)
		store_load_warning(s, data, -1, "task_track: %zu records look "
		    "like the V2 layout and %zu like V1: read as V1", hi, lo);
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		type_hi = t->row;
		t->row = 0;
		if (hi == 0 || lo > 0)
			continue;
		stream = (uint32_t)t->task_hi << 16 | t->task;
		if (stream > 0xFFFF)
			wide++;
		t->stream = (uint16_t)stream;
		t->task = t->type & 0xFFFF;
		t->batch = t->task_hi = (uint16_t)(t->type >> 16);
		t->type = type_hi;
	}
	if (hi == 0 || lo > 0)
		return;
	h->track_v2 = true;
	if (wide > 0)
		store_load_warning(s, data, -1, "task_track V2: %zu records "
		    "name a stream over 65535, kept as its low 16 bits", wide);
}

/* An expand_stream_spec record R: whether streams were expanded. */
static void
prof_host_expand(struct prof_host *h, const unsigned char *r, bool unaging)
{
	(void)unaging;
	h->expand = r[24] == 1;
}

/*
 * Read the dictionaries and API spans of host data directory DATA into H.
 * The records that attach to spans come after (prof_host_nodes_start(),
 * while the spans are stored, then prof_host_read_records()): the task
 * records, the largest array, are read once the spans but those of the
 * node, model and HCCL levels are freed.
 */
void
prof_host_read(struct store *s, const char *data, struct prof_host *h)
{
	memset(h, 0, sizeof *h);
	prof_dict_read(s, data, &h->dicts);
	prof_host_api(s, data, h);
	prof_extra_read(s, data, h);
}

/*
 * Read the node and additional records of DATA into H, sorted by thread
 * and time for their spans. They need no span, so this may run on a
 * thread of its own while the spans are written (prof_host_nodes_start()).
 */
static void
prof_host_read_nodes(struct store *s, const char *data, struct prof_host *h)
{
	prof_host_compact(s, data, h, "compact.node_basic_info",
	    prof_host_node);
	prof_additional_read(s, data, h);
	prof_ops_sort_records(h);
}

static void *
prof_host_nodes_main(void *arg)
{
	struct prof_host_nodes	*n = arg;

	store_load_defer_begin(&n->defer);
	prof_host_read_nodes(n->s, n->data, n->h);
	store_load_defer_stop();
	return NULL;
}

/*
 * Start reading the node and additional records of DATA into H on a
 * thread of their own, which touches nothing of H the spans' load and the
 * host tables read, and keeps the files it reads and its warnings for
 * prof_host_nodes_join(): the store's connection is the load's. Without
 * a thread they are read now.
 */
void
prof_host_nodes_start(struct prof_host_nodes *n, struct store *s,
    const char *data, struct prof_host *h)
{
	memset(n, 0, sizeof *n);
	n->s = s;
	n->data = xstrdup(data);
	n->h = h;
	n->threaded = pthread_create(&n->thread, NULL, prof_host_nodes_main,
	    n) == 0;
	if (!n->threaded)
		prof_host_read_nodes(s, data, h);
}

/* Wait for N's records; write the files it read and its warnings. */
void
prof_host_nodes_join(struct prof_host_nodes *n)
{
	if (n->threaded)
		pthread_join(n->thread, NULL);
	n->threaded = false;
	store_load_defer_end(n->s, n->defer);
	n->defer = NULL;
	free(n->data);
	n->data = NULL;
}

/*
 * Attach the node and additional records of H (prof_host_nodes_join()) to
 * its spans (prof_ops_attach_records), then read the task records of DATA.
 */
void
prof_host_read_records(struct store *s, const char *data,
    struct prof_host *h)
{
	prof_ops_attach_records(h);
	prof_host_compact(s, data, h, "compact.task_track",
	    prof_host_track);
	prof_host_track_v2(s, data, h);
	/* The largest array of the device join: no room to spare. */
	h->tracks = xreallocarray(h->tracks, h->ntracks + 1,
	    sizeof *h->tracks);
}

/*
 * The expand_stream_spec flag of host data directory DATA, which the
 * device's records need: read before the rest (prof-early.c).
 */
bool
prof_host_read_expand(struct store *s, const char *data)
{
	struct prof_host	 h;

	memset(&h, 0, sizeof h);
	prof_host_compact(s, data, &h, "compact.expand_stream_spec",
	    prof_host_expand);
	return h.expand;
}

void
prof_host_release(struct prof_host *h)
{
	prof_dict_release(&h->dicts);
	free(h->spans);
	prof_runs_release(&h->runs);
	prof_ops_attach_free(h);
	free(h->models);
	free(h->items);
	free(h->nodes);
	prof_dedup_release(h);
	free(h->tracks);
	prof_additional_release(h);
	prof_extra_release(h);
	prof_hccl_release(h);
	memset(h, 0, sizeof *h);
}
