/*
 * mstx / msproftx markers of a raw host directory (doc/formats.md section 6.1):
 * 256-byte additional records (level 20500) in {aging,unaging}.additional
 * .msproftx slices. Info type 0 is a mark or range with its category,
 * payload and message; info type 1 is one segment of a MarkEx message:
 * the segments of one mark id are put in segment order and their message
 * pieces joined, the first segment giving process, thread, event type,
 * times and domain (a hash_dic id; "invalid" when it is not there, as the
 * vendor prints it). Every marker becomes an API span of level mstx and a
 * row of the table msprof_tx with the vendor's columns, in start order,
 * marks before MarkEx markers that start at the same time.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_MSTX_SIZE		256
#define PROF_MSTX_MSG		156
#define PROF_MSTX_COLS		12

/* One record, or one joined MarkEx marker. */
struct prof_mstx_rec {
	uint64_t	 start;		/* host raw */
	uint64_t	 end;
	uint64_t	 payload;
	uint64_t	 mark;
	uint64_t	 domain;
	char		*msg;
	const char	*path;		/* of the record, for warnings */
	int64_t		 offset;
	size_t		 seq;
	uint32_t	 pid;
	uint32_t	 tid;
	uint32_t	 category;
	uint32_t	 event;
	int32_t		 payload_type;
	int32_t		 msg_type;
	uint16_t	 info;
	uint16_t	 seg;
};

struct prof_mstx {
	struct prof_mstx_rec	*v;
	size_t			 n;
	struct prof_mstx_rec	*ex;		/* MarkEx segments */
	size_t			 nex;
	int64_t			 bad_info;
	const char		*bad_path;
	int64_t			 bad_offset;
};

static struct prof_mstx_rec *
prof_mstx_push(struct prof_mstx_rec **v, size_t *n)
{
	if ((*n & (*n - 1)) == 0)
		*v = xreallocarray(*v, *n == 0 ? 1 : *n * 2, sizeof **v);
	return &(*v)[(*n)++];
}

static void
prof_mstx_decode(const unsigned char *r, struct prof_mstx_rec *m)
{
	memset(m, 0, sizeof *m);
	m->info = importer_le16(r + 24);
	m->seg = importer_le16(r + 26);
	m->pid = importer_le32(r + 36);
	m->tid = importer_le32(r + 40);
	m->category = importer_le32(r + 44);
	m->event = importer_le32(r + 48);
	m->payload_type = (int32_t)importer_le32(r + 52);
	m->payload = importer_le64(r + 56);
	m->start = importer_le64(r + 64);
	m->end = importer_le64(r + 72);
	m->mark = importer_le64(r + 80);
	m->domain = importer_le64(r + 88);
	m->msg_type = (int32_t)importer_le32(r + 96);
	m->msg = xstrndup((const char *)r + 100, PROF_MSTX_MSG);
}

/* Read every msproftx record of host data directory DATA into X. */
static void
prof_mstx_read(struct store *s, const char *data, struct prof_mstx *x,
    struct prof_files *f)
{
	struct prof_stream	 st;
	struct prof_mstx_rec	 m;
	const unsigned char	*r;

	prof_slices_list(data, "additional.msproftx", true, f);
	prof_slices_open(&st, s, f, PROF_MSTX_SIZE, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		prof_mstx_decode(r, &m);
		m.path = st.path;
		m.offset = st.offset;
		if (m.info == 0) {
			m.seq = x->n;
			*prof_mstx_push(&x->v, &x->n) = m;
		} else if (m.info == 1) {
			m.seq = x->nex;
			*prof_mstx_push(&x->ex, &x->nex) = m;
		} else {
			if (x->bad_info++ == 0) {
				x->bad_path = st.path;
				x->bad_offset = st.offset;
			}
			free(m.msg);
		}
	}
	prof_slices_close(&st);
}

static int
prof_mstx_seg_cmp(const void *a, const void *b)
{
	const struct prof_mstx_rec	*x = a, *y = b;

	if (x->mark != y->mark)
		return x->mark < y->mark ? -1 : 1;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Join the MarkEx segments of each mark id into one marker of X->v, which
 * keeps the file position of the mark id's first segment to order ties.
 */
static void
prof_mstx_join(struct store *s, struct prof_mstx *x)
{
	struct prof_mstx_rec	*a, *m;
	struct strbuf		 b;
	size_t			 i, j, k, first;
	int64_t			 gaps = 0;
	const struct prof_mstx_rec *gap = NULL;

	if (x->nex > 1)
		qsort(x->ex, x->nex, sizeof *x->ex, prof_mstx_seg_cmp);
	for (i = 0; i < x->nex; i = j) {
		a = &x->ex[i];
		strbuf_init(&b);
		first = a->seq;
		for (j = i; j < x->nex && x->ex[j].mark == a->mark; j++) {
			strbuf_adds(&b, x->ex[j].msg);
			free(x->ex[j].msg);
			if (x->ex[j].seq < first)
				first = x->ex[j].seq;
		}
		for (k = i; k + 1 < j; k++) {
			if (x->ex[k + 1].seg > x->ex[k].seg + 1)
				break;
		}
		if (a->seg != 0 || k + 1 < j) {
			if (gaps++ == 0)
				gap = a;
		}
		m = prof_mstx_push(&x->v, &x->n);
		*m = *a;
		m->msg = strbuf_detach(&b);
		m->seq = first;
	}
	if (gaps > 0)
		store_load_warning(s, gap->path, gap->offset, "%lld MarkEx "
		    "marker%s with missing message segments (first: mark id "
		    "%llu), joined as far as they go", (long long)gaps,
		    gaps == 1 ? "" : "s", (unsigned long long)gap->mark);
	free(x->ex);
	x->ex = NULL;
	x->nex = 0;
}

static int
prof_mstx_cmp(const void *a, const void *b)
{
	const struct prof_mstx_rec	*x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->info != y->info)
		return x->info < y->info ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const char *
prof_mstx_event(uint32_t e)
{
	static const char *const names[] = { "marker", "push/pop",
	    "start/end", "marker_ex" };

	return e < 4 ? names[e] : "";
}

/* The msprof_tx row and the mstx span of marker M. */
static void
prof_mstx_row(struct store *s, const struct prof_mstx_rec *m,
    const struct prof_host *h, const struct prof_meta *hm, int64_t rank)
{
	struct store_api	 a;
	char			 v[PROF_MSTX_COLS][48], *cells[PROF_MSTX_COLS];
	char			 args[128];
	uint64_t		 i;
	int			 k;
	bool			 ex = m->info == 1;

	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = rank;
	a.pid = m->pid;
	a.tid = m->tid;
	a.start_ns = prof_meta_host_ns(hm, m->start);
	a.end_ns = prof_meta_host_ns(hm, m->end);
	a.conn = a.parent = NP_NA;
	a.level = "mstx";
	a.name = m->msg;
	snprintf(args, sizeof args, "{\"event_type\":\"%s\",\"%s\":%llu}",
	    prof_mstx_event(m->event), ex ? "mark_id" : "category",
	    (unsigned long long)(ex ? m->mark : m->category));
	a.args = args;
	if (a.end_ns >= a.start_ns && prof_meta_sane(a.start_ns) &&
	    prof_meta_sane(a.end_ns))
		store_load_api(s, &a);
	for (k = 0; k < PROF_MSTX_COLS; k++) {
		cells[k] = v[k];
		snprintf(v[k], sizeof v[k], "N/A");
	}
	snprintf(v[0], sizeof v[0], "%u", m->pid);
	snprintf(v[1], sizeof v[1], "%u", m->tid);
	snprintf(v[3], sizeof v[3], "%s", prof_mstx_event(m->event));
	util_fmt_us(v[6], sizeof v[6], a.start_ns, 3, false);
	util_fmt_us(v[7], sizeof v[7], a.end_ns, 3, false);
	cells[9] = m->msg;
	if (!ex) {
		snprintf(v[2], sizeof v[2], "%u", m->category);
		snprintf(v[4], sizeof v[4], "%d", m->payload_type);
		snprintf(v[5], sizeof v[5], "%llu",
		    (unsigned long long)m->payload);
		snprintf(v[8], sizeof v[8], "%d", m->msg_type);
	} else {
		if (util_map_get(&h->dicts.hash, m->domain, &i))
			cells[10] = h->dicts.strs[i];
		else
			snprintf(v[10], sizeof v[10], "invalid");
		snprintf(v[11], sizeof v[11], "%llu",
		    (unsigned long long)m->mark);
	}
	store_load_generic_row(s, cells, PROF_MSTX_COLS);
}

/*
 * Load the markers of host data directory DATA (host H for the domain
 * names, metadata HM for the times) as mstx spans and msprof_tx rows of
 * RANK. Return the number of markers.
 */
size_t
prof_mstx_load(struct store *s, const char *data, const struct prof_host *h,
    const struct prof_meta *hm, int64_t rank)
{
	static char		*cols[PROF_MSTX_COLS] = { "pid", "tid",
	    "category", "event_type", "payload_type", "payload_value",
	    "Start_time(us)", "End_time(us)", "message_type", "message",
	    "domain", "mark_id" };
	struct prof_mstx	 x;
	struct prof_files	 f;
	char			*cause = NULL;
	size_t			 i, n;

	memset(&x, 0, sizeof x);
	prof_mstx_read(s, data, &x, &f);
	prof_mstx_join(s, &x);
	if (x.bad_info > 0)
		store_load_warning(s, x.bad_path, x.bad_offset, "%lld msproftx "
		    "record%s of an unknown info type, skipped",
		    (long long)x.bad_info, x.bad_info == 1 ? "" : "s");
	if (x.n > 1)
		qsort(x.v, x.n, sizeof *x.v, prof_mstx_cmp);
	if (x.n > 0 && store_load_generic_begin(s, "msprof_tx",
	    NP_HOST_DEVICE, rank, cols, PROF_MSTX_COLS, &cause) != 0) {
		store_load_warning(s, data, -1, "%s", cause);
		free(cause);
	} else {
		for (i = 0; i < x.n; i++)
			prof_mstx_row(s, &x.v[i], h, hm, rank);
	}
	for (i = 0; i < x.n; i++)
		free(x.v[i].msg);
	free(x.v);
	prof_slices_release(&f);
	n = x.n;
	return n;
}
