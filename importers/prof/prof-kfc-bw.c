/*
 * The bandwidth of each HCCL information of the MC2 calculation
 * (doc/formats.md section 4.11), as the vendor works it out for its
 * KfcTask rows. The informations are taken in the order the vendor's
 * batch pass leaves them (stream by stream, streams in the order of their
 * first information, each in time order) and grouped by name and plane.
 * In a group an information's bandwidth is its size over its task's
 * duration; a run of RDMA payloads shares one, the size of the run over
 * the time from the first payload's time stamp to the end of the task
 * that closes it, which is the run's last payload plus 2 (an op whose
 * group's first name has "send" or "receive") or 4 more in the group.
 * A run without that many after it keeps the plain figure per payload.
 * Every figure is computed with the vendor's own factors, so that the
 * doubles are the same. A collection without informations has none.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof-kfc.h"

#define KFC_BW_PAYLOAD	1	/* rdma type RDMA_SEND_PAYLOAD */

/* An information in the batch pass's order, with its group's key. */
struct kfc_bw_item {
	struct prof_kfc_info	*f;
	const char		*name;	/* as the dictionary names it */
	uint16_t		 plane;
};

/* Its group, then the batch pass's order: a stable grouping. */
static int
prof_kfc_bw_group_cmp(const void *a, const void *b)
{
	const struct kfc_bw_item	*x = a, *y = b;
	int				 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if (x->plane != y->plane)
		return x->plane < y->plane ? -1 : 1;
	return prof_kfc_info_pass_cmp(x->f, y->f);
}

/* SIZE bytes in DUR ns as GB/s, 0 for no time, as the vendor's. */
static double
prof_kfc_bw_plain(uint64_t size, int64_t dur)
{
	double	 k = pow(0.001, 3);

	if (fabs((double)dur) < 1e-15)
		return 0;
	return ((double)size * k) / ((double)dur * k);
}

static bool
prof_kfc_bw_payload(const struct prof_kfc_info *f)
{
	return f->p[104] == KFC_BW_PAYLOAD;
}

/* The bandwidths of group V (N items). */
static void
prof_kfc_bw_group(struct kfc_bw_item *v, size_t n)
{
	struct prof_kfc_info	*f;
	size_t			 i, j, cnt, jump, last;
	uint64_t		 size;
	int64_t			 ns;
	double			 ms, mb, bw;

	jump = strcasestr(v[0].name, "send") != NULL ||
	    strcasestr(v[0].name, "receive") != NULL ? 3 : 5;
	for (i = 0; i < n; i++) {
		f = v[i].f;
		if (!prof_kfc_bw_payload(f))
			f->bw = prof_kfc_bw_plain(importer_le64(f->p + 80),
			    f->dur_ns);
	}
	for (i = 0; i < n; ) {
		if (!prof_kfc_bw_payload(v[i].f)) {
			i++;
			continue;
		}
		for (cnt = 0; i + cnt < n && prof_kfc_bw_payload(v[i +
		    cnt].f); cnt++)
			;
		last = i + cnt + jump - 2;
		if (last >= n) {
			for (; cnt > 0; cnt--, i++)
				v[i].f->bw = prof_kfc_bw_plain(importer_le64(
				    v[i].f->p + 80), v[i].f->dur_ns);
			continue;
		}
		size = 0;
		for (j = i; j < i + cnt; j++)
			size += importer_le64(v[j].f->p + 80);
		/* In doubles only where damaged stamps overflow 64 bits. */
		if (__builtin_sub_overflow(v[last].f->ts, v[i].f->ts, &ns) ||
		    __builtin_add_overflow(ns, v[last].f->dur_ns, &ns))
			ms = ((double)v[last].f->ts - (double)v[i].f->ts +
			    (double)v[last].f->dur_ns) / 1000000.0;
		else
			ms = (double)ns / 1000000.0;
		mb = (double)size / 1000000.0;
		bw = ms != 0 ? mb / ms : 0;
		for (; cnt > 0; cnt--, i++)
			v[i].f->bw = bw;
		i += jump - 1;
	}
}

/*
 * Set the bandwidth of every information of C (D its dictionaries),
 * before they are put in the order of their tasks' ends.
 */
void
prof_kfc_bw(struct prof_kfc_calc *c, const struct prof_dicts *d)
{
	struct kfc_bw_item	*v;
	char			 buf[32];
	size_t			 i, j, n = 0;

	if (c->ninfos == 0)
		return;
	v = xreallocarray(NULL, c->ninfos, sizeof *v);
	for (i = 0; i < c->ninfos; i++) {
		if (c->infos[i].p == NULL)
			continue;
		v[n].f = &c->infos[i];
		v[n].name = xstrdup(prof_dict_hash(d,
		    importer_le64(c->infos[i].p), buf, sizeof buf));
		v[n++].plane = importer_le16(c->infos[i].p + 98);
	}
	qsort(v, n, sizeof *v, prof_kfc_bw_group_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(v[j].name, v[i].name) == 0 &&
		    v[j].plane == v[i].plane; j++)
			;
		prof_kfc_bw_group(v + i, j - i);
	}
	for (i = 0; i < n; i++)
		free((char *)v[i].name);
	free(v);
}
