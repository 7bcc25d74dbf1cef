/*
 * CANN's own memory records of a raw profile (doc/formats.md section
 * 3.13): GE's task memory records on the host (the totals of its memory
 * pool after each allocation or release) and the driver's samples of
 * the process's device memory (npu_mem). torch_npu's analysis turns them
 * into the GE, PTA+GE and APP rows of memory_record; prof-fwk-mem.c
 * writes those rows from what is read here.
 */
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
	const char		*warned = NULL;
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
		if (!prof_slices_magic(&st, r, &warned))
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

/*
 * Read the process memory samples (event 0, APP) of device data directory
 * DATA, with the device's metadata DM, into M in file order: the app
 * channel's files, then the device channel's, each by slice. A sample's
 * time is microseconds since the channel started, which the vendor takes
 * from the clock pair of host_start.log; the device-wide samples (event
 * 1) are left out, as torch_npu leaves them out.
 */
void
prof_mem_app_read(struct store *s, const char *data,
    const struct prof_meta *dm, struct prof_mems *m)
{
	static const char *const kinds[] = { "npu_mem.app", "npu_mem.data" };
	struct prof_files	 f;
	struct prof_stream	 st;
	struct prof_app_mem	*a;
	const unsigned char	*r;
	const char		*first = NULL;
	int64_t			 first_at = -1;
	size_t			 k, bad = 0;
	uint64_t		 us;

	for (k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		prof_slices_list(data, kinds[k], false, &f);
		if (f.n > 0 && !dm->has_host_start)
			store_load_warning(s, f.paths[0], -1, "no "
			    "host_start.log: the process memory samples have "
			    "no time, not read");
		if (f.n == 0 || !dm->has_host_start) {
			prof_slices_release(&f);
			continue;
		}
		prof_slices_open(&st, s, &f, PROF_MEM_APP_SIZE, false);
		while ((r = prof_slices_next(&st)) != NULL) {
			if (importer_le32(r + 4) != PROF_MEM_APP_EVENT)
				continue;
			us = dm->info_v2 ? importer_le64(r + 8) :
			    importer_le32(r);
			if (us > (uint64_t)1 << 40) {
				if (bad++ == 0) {
					first = st.path;
					first_at = st.offset;
				}
				continue;
			}
			m->app = util_grow(m->app, m->napp, 1,
			    sizeof *m->app);
			a = &m->app[m->napp++];
			a->ts = (int64_t)us * 1000 + dm->anchor_ns +
			    dm->local_off;
			a->bytes = (int64_t)(importer_le64(r + 16) +
			    importer_le64(r + 24));
			a->device = dm->device;
		}
		if (bad > 0)
			store_load_warning(s, first, first_at, "%zu process "
			    "memory sample%s with a time no collection can "
			    "have, the first here: skipped", bad, bad == 1 ?
			    "" : "s");
		bad = 0;
		prof_slices_close(&st);
		prof_slices_release(&f);
	}
}

void
prof_mems_release(struct prof_mems *m)
{
	free(m->ge);
	free(m->app);
	memset(m, 0, sizeof *m);
}
