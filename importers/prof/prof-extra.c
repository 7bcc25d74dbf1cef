/*
 * The smaller host record kinds of a raw collection (doc/formats.md sections
 * 3.5-3.6), read whole before the API spans are stored: graph_id_map,
 * fusion_op_info, hccl_info, node_attr_info, hccl_op_info,
 * capture_stream_info and memcpy_info. This file writes the tables of the
 * kinds that need no owner (graph_id_map, node_attr_info,
 * capture_stream_info) and turns the capture records into the model ids
 * of tasks launched on a captured stream; prof-comm.c and prof-memcpy.c
 * handle the others. Helpers for generic table rows live here too.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_EXTRA_NO_MODEL	4294967295ULL

/*
 * Each kind's record size, and the bytes of a record kept: hccl_info's
 * fields end at byte 140 (its table and the HCCL tasks read no further),
 * and a training collection has a million of them.
 */
static const struct {
	const char	*tag;
	size_t		 size;
	size_t		 keep;
} prof_extra_files[PX_NKINDS] = {
	{ "additional.graph_id_map", 256, 256 },
	{ "additional.fusion_op_info", 256, 256 },
	{ "additional.hccl_info", 256, 144 },
	{ "compact.node_attr_info", 64, 64 },
	{ "compact.hccl_op_info", 64, 64 },
	{ "compact.capture_stream_info", 64, 64 },
	{ "compact.memcpy_info", 64, 64 },
	{ "additional.mc2_comm_info", 256, 88 }
};

void
prof_extra_row_str(struct prof_row *r, const char *s)
{
	if (r->n < PROF_ROW_MAX)
		r->cells[r->n++] = s;
}

void
prof_extra_row_u64(struct prof_row *r, uint64_t v)
{
	if (r->n >= PROF_ROW_MAX)
		return;
	util_fmt_u64(r->buf[r->n], v);
	r->cells[r->n] = r->buf[r->n];
	r->n++;
}

/*
 * Epoch nanoseconds (or a duration) as microseconds with three decimals;
 * N/A for NP_NA and for a time no collection can have.
 */
void
prof_extra_row_us(struct prof_row *r, int64_t ns)
{
	if (r->n >= PROF_ROW_MAX)
		return;
	util_fmt_us(r->buf[r->n], sizeof r->buf[r->n], prof_meta_sane(ns) ? ns :
	    NP_NA, 3, false);
	r->cells[r->n] = r->buf[r->n];
	r->n++;
}

/* The thread and time (host metadata M) of host record R, as two cells. */
static void
prof_extra_row_when(struct prof_row *row, const struct prof_meta *m,
    const unsigned char *r)
{
	prof_extra_row_u64(row, importer_le32(r + 8));
	prof_extra_row_us(row, prof_meta_host_ns(m, importer_le64(r + 16)));
}

/* Add row R to the generic table begun last and empty R. */
void
prof_extra_row_load(struct store *s, struct prof_row *r)
{
	store_load_generic_row(s, (char **)r->cells, r->n);
	r->n = 0;
}

/* Begin generic table NAME; on failure warn and return false. */
bool
prof_extra_table_begin(struct store *s, const char *name, int64_t device,
    int64_t rank, const char *const *cols, size_t ncols)
{
	char	*cause = NULL;

	if (store_load_generic_begin(s, name, device, rank, (char **)cols,
	    ncols, &cause) == 0)
		return true;
	store_load_warning(s, name, -1, "%s", cause);
	free(cause);
	return false;
}

static int
prof_extra_xref_cmp(const void *a, const void *b)
{
	const struct prof_xref	*x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Record I of X in thread and time order. */
const unsigned char *
prof_extra_rec(const struct prof_recs *x, size_t i)
{
	return x->v + (size_t)x->ix[i].i * x->size;
}

static void
prof_extra_read_kind(struct store *s, const char *data, struct prof_host *h,
    int k)
{
	struct prof_recs	*x = &h->extra[k];
	struct prof_files	 f;
	struct prof_stream	 st;
	const unsigned char	*r;
	size_t			 size = 0;

	x->size = prof_extra_files[k].keep;
	prof_slices_list(data, prof_extra_files[k].tag, true, &f);
	prof_slices_open(&st, s, &f, prof_extra_files[k].size, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		if (x->n == size) {
			size = size == 0 ? 64 : size * 2;
			x->v = xreallocarray(x->v, size, x->size);
			x->ix = xreallocarray(x->ix, size, sizeof *x->ix);
		}
		memcpy(x->v + x->n * x->size, r, x->size);
		x->ix[x->n].ts = importer_le64(r + 16);
		x->ix[x->n].tid = importer_le32(r + 8);
		x->ix[x->n].i = (uint32_t)x->n;
		x->n++;
	}
	prof_slices_close(&st);
	prof_slices_release(&f);
	if (x->n > 1)
		qsort(x->ix, x->n, sizeof *x->ix, prof_extra_xref_cmp);
}

/* Read every smaller record kind of host data directory DATA into H. */
void
prof_extra_read(struct store *s, const char *data, struct prof_host *h)
{
	int	 k;

	for (k = 0; k < PX_NKINDS; k++)
		prof_extra_read_kind(s, data, h, k);
}

/* graph_id_map: which model name and graph each model id has. */
static void
prof_extra_graphs(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Thread ID", "Timestamp(us)",
	    "Model ID", "Graph ID", "Model Name" };
	const struct prof_recs	*x = &h->extra[PX_GRAPH];
	const unsigned char	*r;
	struct prof_row		 row;
	char			 nb[32];
	size_t			 i;

	if (x->n == 0 || !prof_extra_table_begin(s, "graph_id_map",
	    NP_HOST_DEVICE,
	    rank, cols, sizeof cols / sizeof cols[0]))
		return;
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		prof_extra_row_when(&row, m, r);
		prof_extra_row_u64(&row, importer_le32(r + 36));
		prof_extra_row_u64(&row, importer_le32(r + 32));
		prof_extra_row_str(&row, importer_le64(r + 24) == 0 ? "0" :
		    prof_dict_hash(&h->dicts, importer_le64(r + 24), nb,
		    sizeof nb));
		prof_extra_row_load(s, &row);
	}
}

/* node_attr_info: the attribute string of an op launch. */
static void
prof_extra_attrs(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Thread ID", "Timestamp(us)",
	    "Op Name", "Attr Type", "Attr Info" };
	const struct prof_recs	*x = &h->extra[PX_ATTR];
	const unsigned char	*r;
	struct prof_row		 row;
	char			 nb[32], ab[32];
	size_t			 i;

	if (x->n == 0 || !prof_extra_table_begin(s, "node_attr_info",
	    NP_HOST_DEVICE, rank, cols, sizeof cols / sizeof cols[0]))
		return;
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		prof_extra_row_when(&row, m, r);
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 24), nb, sizeof nb));
		if (importer_le32(r + 32) == 0)
			prof_extra_row_str(&row, "OP_ATTR");
		else
			prof_extra_row_u64(&row, importer_le32(r + 32));
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 36), ab, sizeof ab));
		prof_extra_row_load(s, &row);
	}
}

/* One capture record as the vendor keeps it. */
struct prof_extra_cap {
	uint64_t	 ts;
	uint64_t	 model;
	uint16_t	 status;
	uint16_t	 mstream;
	uint16_t	 ostream;
	uint16_t	 device;
	uint16_t	 batch;
	uint32_t	 i;
};

static int
prof_extra_cap_cmp(const void *a, const void *b)
{
	const struct prof_extra_cap	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* True if KEPT[0..N) already holds C but for its batch. */
static bool
prof_extra_cap_seen(const struct prof_extra_cap *kept, size_t n,
    const struct prof_extra_cap *c)
{
	while (n-- > 0 && kept[n].ts == c->ts) {
		if (kept[n].device == c->device && kept[n].model == c->model &&
		    kept[n].ostream == c->ostream &&
		    kept[n].mstream == c->mstream &&
		    kept[n].status == c->status)
			return true;
	}
	return false;
}

/*
 * The capture records the vendor keeps, in time order: duplicates are
 * dropped, so is the first end record of each model, and each kept record
 * of a (device, model stream) takes the next batch id from 0.
 */
static size_t
prof_extra_cap_keep(const struct prof_host *h, struct prof_extra_cap **out)
{
	const struct prof_recs	*x = &h->extra[PX_CAPTURE];
	struct prof_extra_cap	*v, *c;
	struct util_map		 batch, ended;
	const unsigned char	*r;
	size_t			 i, n = 0;
	uint64_t		 key, b;

	v = xreallocarray(NULL, x->n + 1, sizeof *v);
	for (i = 0; i < x->n; i++) {
		r = x->v + i * x->size;
		v[i].ts = importer_le64(r + 16);
		v[i].status = importer_le16(r + 24);
		v[i].mstream = importer_le16(r + 26);
		v[i].ostream = importer_le16(r + 28);
		v[i].model = importer_le16(r + 30);
		v[i].device = importer_le16(r + 32);
		v[i].i = (uint32_t)i;
	}
	qsort(v, x->n, sizeof *v, prof_extra_cap_cmp);
	util_map_init(&batch);
	util_map_init(&ended);
	for (i = 0; i < x->n; i++) {
		c = &v[i];
		key = (uint64_t)c->device << 16 | c->mstream;
		if (!util_map_get(&batch, key, &b))
			b = 0;
		if (prof_extra_cap_seen(v, n, c))
			continue;
		if (c->status == 1 && !util_map_get(&ended, c->model, &b)) {
			util_map_set(&ended, c->model, 1);
			continue;
		}
		util_map_set(&batch, key, b + 1);
		c->batch = (uint16_t)b;
		v[n++] = *c;
	}
	util_map_release(&batch);
	util_map_release(&ended);
	*out = v;
	return n;
}

/* Time ranges of the kept capture records, by (device, stream, batch). */
static void
prof_extra_cap_ranges(struct prof_host *h, const struct prof_extra_cap *v,
    size_t n)
{
	struct prof_capture	*c;
	uint64_t		 key, j;
	size_t			 i;

	util_map_init(&h->cap_map);
	for (i = 0; i < n; i++) {
		key = (uint64_t)v[i].device << 32 | (uint64_t)v[i].mstream <<
		    16 | v[i].batch;
		if (!util_map_get(&h->cap_map, key, &j)) {
			h->caps = util_grow(h->caps, h->ncaps, 1,
			    sizeof *h->caps);
			c = &h->caps[h->ncaps];
			c->start = 0;
			c->end = UINT64_MAX;
			j = h->ncaps++;
			util_map_set(&h->cap_map, key, j);
		}
		c = &h->caps[j];
		if (v[i].status == 0)
			c->start = v[i].ts;
		else if (v[i].status == 1)
			c->end = v[i].ts;
		c->model = v[i].model;
	}
}

/* capture_stream_info: the records kept, and the ranges they make. */
static void
prof_extra_captures(struct store *s, struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Device_id", "Model ID",
	    "Model Stream ID", "Original Stream ID", "Batch ID",
	    "Capture Status", "Timestamp(us)" };
	struct prof_extra_cap	*v;
	struct prof_row		 row;
	size_t			 i, n;

	if (h->extra[PX_CAPTURE].n == 0)
		return;
	n = prof_extra_cap_keep(h, &v);
	prof_extra_cap_ranges(h, v, n);
	if (n > 0 && prof_extra_table_begin(s, "capture_stream_info",
	    NP_HOST_DEVICE,
	    rank, cols, sizeof cols / sizeof cols[0])) {
		memset(&row, 0, sizeof row);
		for (i = 0; i < n; i++) {
			prof_extra_row_u64(&row, v[i].device);
			prof_extra_row_u64(&row, v[i].model);
			prof_extra_row_u64(&row, v[i].mstream);
			prof_extra_row_u64(&row, v[i].ostream);
			prof_extra_row_u64(&row, v[i].batch);
			prof_extra_row_u64(&row, v[i].status);
			prof_extra_row_us(&row, prof_meta_host_ns(m, v[i].ts));
			prof_extra_row_load(s, &row);
		}
	}
	free(v);
}

/*
 * The model id of host task T when no model span holds it: the capture
 * model of its stream and batch if T falls in that capture's range.
 */
int64_t
prof_extra_model(const struct prof_host *h, const struct prof_track *t)
{
	const struct prof_capture	*c;
	uint64_t			 key, j;

	if (h->ncaps == 0)
		return (int64_t)PROF_EXTRA_NO_MODEL;
	key = (uint64_t)t->device << 32 | (uint64_t)t->stream << 16 | t->batch;
	if (!util_map_get(&h->cap_map, key, &j))
		return (int64_t)PROF_EXTRA_NO_MODEL;
	c = &h->caps[j];
	if (t->ts < c->start || t->ts > c->end)
		return (int64_t)PROF_EXTRA_NO_MODEL;
	return (int64_t)c->model;
}

/*
 * Write the tables of the kinds without an owner, the communication and
 * fusion tables being prof-comm.c's; times through host metadata M.
 */
/*
 * mc2_comm_info: the communication domain of each MC2 op's group, its
 * AI CPU stream (the KFC server's) and its communication streams, at most
 * PROF_EXTRA_MC2_STREAMS; a record that says more lists none, as the
 * vendor's, and is counted in a warning.
 */
#define PROF_EXTRA_MC2_STREAMS	8
static void
prof_extra_mc2(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Thread ID", "Timestamp(us)",
	    "Group Name", "Rank Size", "Rank ID", "Usr Rank ID", "Stream ID",
	    "Comm Stream IDs" };
	const struct prof_recs	*x = &h->extra[PX_MC2];
	const unsigned char	*r;
	struct prof_row		 row;
	char			 gb[32], ids[PROF_EXTRA_MC2_STREAMS * 11];
	size_t			 i, j, n, len, bad = 0;

	if (x->n == 0 || !prof_extra_table_begin(s, "mc2_comm_info",
	    NP_HOST_DEVICE, rank, cols, sizeof cols / sizeof cols[0]))
		return;
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		prof_extra_row_when(&row, m, r);
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 24), gb, sizeof gb));
		for (j = 0; j < 4; j++)
			prof_extra_row_u64(&row, importer_le32(r + 32 + 4 * j));
		ids[0] = '\0';
		if ((n = importer_le32(r + 48)) > PROF_EXTRA_MC2_STREAMS) {
			bad++;
			n = 0;
		}
		for (j = 0, len = 0; j < n; j++)
			len += (size_t)snprintf(ids + len, sizeof ids - len,
			    "%s%u", j > 0 ? "," : "", importer_le32(r + 52 +
			    4 * j));
		prof_extra_row_str(&row, ids);
		prof_extra_row_load(s, &row);
	}
	if (bad > 0)
		store_load_warning(s, "mc2_comm_info", -1, "%zu record%s with "
		    "more than %d communication streams: none listed, as the "
		    "vendor lists none", bad, bad == 1 ? "" : "s",
		    PROF_EXTRA_MC2_STREAMS);
}

void
prof_extra_tables(struct store *s, struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	prof_extra_mc2(s, h, m, rank);
	prof_extra_graphs(s, h, m, rank);
	prof_extra_attrs(s, h, m, rank);
	prof_extra_captures(s, h, m, rank);
}

void
prof_extra_release(struct prof_host *h)
{
	int	 k;

	for (k = 0; k < PX_NKINDS; k++) {
		free(h->extra[k].v);
		free(h->extra[k].ix);
	}
	free(h->caps);
	util_map_release(&h->cap_map);
	free(h->mcs);
	free(h->mc_left);
	util_map_release(&h->mc_map);
}
