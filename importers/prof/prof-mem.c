/*
 * CANN's own memory records of a raw profile (doc/formats.md section
 * 3.13): GE's task memory records on the host (the totals of its memory
 * pool after each allocation or release) and the driver's samples of
 * the process's and the device's memory (npu_mem), which become the
 * npu_mem table msprof exports (section 4.13). torch_npu's analysis turns
 * them into the GE, PTA+GE and APP rows of memory_record;
 * prof-mem-record.c writes those rows from what is read here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_MEM_GE_SIZE	256
#define PROF_MEM_GE_LEVEL	10000
#define PROF_MEM_GE_TYPE	6
#define PROF_MEM_GE_LEN		48
#define PROF_MEM_APP_SIZE	32
#define PROF_MEM_APP_EVENT	0

static int
prof_mem_ge_cmp(const void *a, const void *b)
{
	const struct prof_ge_mem	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Read GE's task memory records of host data directory DATA, with the
 * host metadata HM, into M, in time order (ties in file order). Records
 * of another kind or length, and times no collection can have, are
 * counted in one warning each.
 */
void
prof_mem_ge_read(struct store *s, const char *data,
    const struct prof_meta *hm, struct prof_mems *m)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	struct prof_ge_mem	*g;
	const unsigned char	*r;
	char			*first = NULL;
	int64_t			 first_at = -1, ts;
	size_t			 other = 0, k;

	prof_slices_list(data, "additional.task_memory_info", true, &f);
	if (f.n == 0) {
		prof_slices_release(&f);
		return;
	}
	prof_slices_open(&st, s, &f, PROF_MEM_GE_SIZE, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		if (!prof_slices_magic(&st, r))
			continue;
		ts = prof_meta_host_ns(hm, importer_le64(r + 16));
		if (importer_le16(r + 2) != PROF_MEM_GE_LEVEL ||
		    importer_le32(r + 4) != PROF_MEM_GE_TYPE ||
		    importer_le32(r + 12) != PROF_MEM_GE_LEN ||
		    !prof_meta_sane(ts)) {
			if (other++ == 0) {
				first = xstrdup(st.path);
				first_at = st.offset;
			}
			continue;
		}
		m->ge = util_grow(m->ge, m->nge, 1, sizeof *m->ge);
		g = &m->ge[m->nge];
		g->ts = ts;
		g->raw = importer_le64(r + 16);
		g->addr = importer_le64(r + 24);
		g->size = (int64_t)importer_le64(r + 32);
		g->node = importer_le64(r + 40);
		g->allocated = (int64_t)importer_le64(r + 48);
		g->reserved = (int64_t)importer_le64(r + 56);
		g->device = importer_le32(r + 64);
		g->idx = m->nge++;
	}
	if (other > 0)
		store_load_warning(s, first, first_at, "%zu task memory "
		    "record%s not of GE's kind (level %d, type %d, %d bytes) "
		    "or with a time no collection can have, the first here: "
		    "skipped", other, other == 1 ? "" : "s",
		    PROF_MEM_GE_LEVEL, PROF_MEM_GE_TYPE, PROF_MEM_GE_LEN);
	for (k = 0; k < m->nge && m->ge[k].size <= 0; k++)
		;
	if (m->nge > 0 && k == m->nge) {
		/* msprof keeps its GE tables only with an allocation. */
		store_load_warning(s, f.paths[0], -1, "%zu GE task memory "
		    "record%s but no allocation: no rows, as msprof writes "
		    "none", m->nge, m->nge == 1 ? "" : "s");
		m->nge = 0;
	}
	free(first);
	prof_slices_close(&st);
	prof_slices_release(&f);
	if (m->nge > 1)
		qsort(m->ge, m->nge, sizeof *m->ge, prof_mem_ge_cmp);
}

/* The slice number of slice file PATH ("...slice_N"). */
static uint32_t
prof_npumem_slice(const char *path)
{
	const char	*p = strrchr(path, '_');

	return p != NULL ? (uint32_t)strtoul(p + 1, NULL, 10) : 0;
}

/* The vendor's file order: by slice number, then the app channel first. */
static int
prof_npumem_cmp(const void *a, const void *b)
{
	const struct prof_npumem	*x = a, *y = b;

	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	if (x->channel != y->channel)
		return x->channel < y->channel ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The time of memory sample R of device DM, in us. */
static uint64_t
prof_npumem_us(const struct prof_meta *dm, const unsigned char *r)
{
	return dm->info_v2 ? importer_le64(r + 8) : importer_le32(r);
}

/*
 * True if R reads as a memory sample of device ARG (a prof_meta), for
 * prof_slices_open_lined: an event below 256, the word at offset 8 0 in
 * version 1.0 (a time below 2^40 us in 2.0, where it holds the time),
 * and sizes below 2^50 bytes.
 */
static bool
prof_npumem_ok(const unsigned char *r, const unsigned char *prev,
    void *arg)
{
	const struct prof_meta	*dm = arg;

	(void)prev;
	return importer_le32(r + 4) < 256 && (dm->info_v2 ?
	    importer_le64(r + 8) <= (uint64_t)1 << 40 :
	    importer_le64(r + 8) == 0) &&
	    importer_le64(r + 16) <= (uint64_t)1 << 50 &&
	    importer_le64(r + 24) <= (uint64_t)1 << 50;
}

/*
 * Read the driver's memory samples of device data directory DATA (device
 * metadata DM, rank RANK) into NM: each channel's slices (npu_mem.app,
 * npu_mem.data) as one stream, the samples then in the order the vendor
 * reads the files in, by slice number (the app channel's first on a
 * tie). Event 0 samples the process's memory (APP), event 1 the
 * device's. A sample's time is microseconds since the channel started,
 * which the vendor takes from the clock pair of host_start.log: without
 * it the samples are not read (warned once). A time or a size no
 * collection can have is counted, warned at the first and skipped.
 */
void
prof_npumem_read(struct store *s, const char *data,
    const struct prof_meta *dm, int64_t rank, struct prof_npumems *nm)
{
	static const char *const kinds[] = { "npu_mem.app", "npu_mem.data" };
	struct prof_files	 f;
	struct prof_stream	 st;
	struct prof_npumem	*v;
	const unsigned char	*r;
	const char		*first = NULL;
	int64_t			 first_at = -1, begin = prof_meta_begin_ns(dm);
	size_t			 k, bad = 0, from = nm->n;
	uint64_t		 us, ddr, hbm;
	bool			 warned = false;

	for (k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		prof_slices_list(data, kinds[k], false, &f);
		if (f.n > 0 && !dm->has_host_start && !warned) {
			store_load_warning(s, f.paths[0], -1, "no "
			    "host_start.log: the memory samples have no time, "
			    "not read");
			warned = true;
		}
		if (f.n == 0 || !dm->has_host_start) {
			prof_slices_release(&f);
			continue;
		}
		prof_slices_open_lined(&st, s, &f, PROF_MEM_APP_SIZE,
		    prof_npumem_ok, (void *)dm, true);
		while ((r = prof_slices_next(&st)) != NULL) {
			us = prof_npumem_us(dm, r);
			ddr = importer_le64(r + 16);
			hbm = importer_le64(r + 24);
			if (us > (uint64_t)1 << 40 || ddr > (uint64_t)1 << 62 ||
			    hbm > (uint64_t)1 << 62) {
				if (bad++ == 0) {
					first = st.path;
					first_at = st.offset;
				}
				continue;
			}
			nm->v = util_grow(nm->v, nm->n, 1, sizeof *nm->v);
			v = &nm->v[nm->n++];
			v->ts = (int64_t)us * 1000 + dm->anchor_ns +
			    dm->local_off;
			v->ddr = (int64_t)ddr;
			v->hbm = (int64_t)hbm;
			v->device = dm->device;
			v->rank = rank;
			v->event = importer_le32(r + 4);
			v->slice = prof_npumem_slice(st.path);
			v->channel = (uint32_t)k;
			v->seq = nm->n - 1;
			v->early = v->ts < begin;
		}
		if (bad > 0)
			store_load_warning(s, first, first_at, "%zu memory "
			    "sample%s with a time or a size no collection can "
			    "have, the first here: skipped", bad, bad == 1 ?
			    "" : "s");
		bad = 0;
		prof_slices_close(&st);
		prof_slices_release(&f);
	}
	if (nm->n - from > 1)
		qsort(nm->v + from, nm->n - from, sizeof *nm->v,
		    prof_npumem_cmp);
}

/*
 * The process memory samples (event 0, APP) of NM from its FROM-th on,
 * in file order, into M: torch_npu's APP rows. The device-wide samples
 * (event 1) are left out, as torch_npu leaves them out.
 */
void
prof_mem_app_take(const struct prof_npumems *nm, size_t from,
    struct prof_mems *m)
{
	struct prof_app_mem	*a;
	size_t			 i;

	for (i = from; i < nm->n; i++) {
		if (nm->v[i].event != PROF_MEM_APP_EVENT)
			continue;
		m->app = util_grow(m->app, m->napp, 1, sizeof *m->app);
		a = &m->app[m->napp++];
		a->ts = nm->v[i].ts;
		a->bytes = nm->v[i].ddr + nm->v[i].hbm;
		a->device = nm->v[i].device;
	}
}

/* npu_mem's columns, as msprof's export writes them. */
static const char *const prof_npumem_cols[] = { "Device_id", "event",
	"ddr(KB)", "hbm(KB)", "memory(KB)", "timestamp(us)" };
#define PROF_NPUMEM_NCOLS \
	(sizeof prof_npumem_cols / sizeof *prof_npumem_cols)

/* The counter lane of NM's sample V's KEY (ddr or hbm), as a .db's. */
static void
prof_npumem_counter(struct store *s, const struct prof_npumem *v,
    const char *event, const char *key, int64_t bytes)
{
	struct store_counter	 c;
	char			*name;

	memset(&c, 0, sizeof c);
	xasprintf(&name, "NPU MEM %s/%s", event, key);
	c.device = v->device;
	c.rank = v->rank;
	c.pid = c.tid = NP_NA;
	c.ts_ns = v->ts;
	c.name = name;
	c.key = key;
	c.value = (double)bytes;
	store_trace_load_counter(s, &c);
	free(name);
}

/*
 * Write the samples of NM (collection DIR) as msprof's export writes
 * npu_mem: device by device in file order, APP or Device, sizes in whole
 * KB, the samples from before the collection start left out; and as
 * counter lanes NPU MEM app/ddr, app/hbm, device/ddr and device/hbm in
 * bytes, as from a .db. If the table cannot be begun, a warning says why
 * and nothing is written.
 */
void
prof_npumem_write(struct store *s, const struct prof_npumems *nm,
    const char *dir)
{
	static const char *const names[] = { "APP", "Device" };
	static const char *const lanes[] = { "app", "device" };
	const struct prof_npumem	*v;
	char				 cells[PROF_NPUMEM_NCOLS][64];
	char				*row[PROF_NPUMEM_NCOLS], *cause = NULL;
	size_t				 i, k;
	bool				 begun = false;

	for (k = 0; k < PROF_NPUMEM_NCOLS; k++)
		row[k] = cells[k];
	for (i = 0; i < nm->n; i++) {
		v = &nm->v[i];
		if (v->early)
			continue;
		if (!begun && store_load_generic_begin(s, "npu_mem",
		    v->device, v->rank, (char **)prof_npumem_cols,
		    PROF_NPUMEM_NCOLS, &cause) != 0) {
			store_load_warning(s, dir, -1, "%s", cause);
			free(cause);
			return;
		}
		begun = true;
		store_load_generic_device(s, v->device, v->rank);
		snprintf(cells[0], sizeof cells[0], "%lld",
		    (long long)v->device);
		snprintf(cells[1], sizeof cells[1], "%s", v->event < 2 ?
		    names[v->event] : "Unknown");
		snprintf(cells[2], sizeof cells[2], "%lld",
		    (long long)(v->ddr / 1024));
		snprintf(cells[3], sizeof cells[3], "%lld",
		    (long long)(v->hbm / 1024));
		snprintf(cells[4], sizeof cells[4], "%lld",
		    (long long)((v->ddr + v->hbm) / 1024));
		util_fmt_us(cells[5], sizeof cells[5], v->ts, 3, false);
		store_load_generic_row(s, row, PROF_NPUMEM_NCOLS);
		if (v->event < 2) {
			prof_npumem_counter(s, v, lanes[v->event], "ddr",
			    v->ddr);
			prof_npumem_counter(s, v, lanes[v->event], "hbm",
			    v->hbm);
		}
	}
}

void
prof_npumems_release(struct prof_npumems *nm)
{
	free(nm->v);
	memset(nm, 0, sizeof *nm);
}

void
prof_mems_release(struct prof_mems *m)
{
	free(m->ge);
	free(m->app);
	memset(m, 0, sizeof *m);
}
