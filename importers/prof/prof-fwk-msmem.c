/*
 * MindSpore's memory records of a raw profile never analysed
 * (FRAMEWORK/mindspore.memory_usage, doc/formats.md section 3.12): each
 * allocation and release of its device memory pool, made into
 * operator_memory as MindSpore's analysis makes it. In time order, the
 * records of one address pair up: an allocation waits for the next
 * release (a later allocation takes its place), and one never released
 * is a row without a release; the rows are then in allocation order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define MSMEM_FIXED	100		/* the fixed part of a record */
#define MSMEM_FREE	UINT64_MAX	/* the size of a release */

/* One record: an allocation, or a release (size MSMEM_FREE). */
struct msmem_ev {
	uint64_t	 created;	/* epoch ns */
	uint64_t	 addr;
	uint64_t	 size;
	uint64_t	 used;		/* the pool's totals after it */
	uint64_t	 alloc;
	uint64_t	 stream_ptr;
	int32_t		 device;
	char		*owner;
	size_t		 seq;		/* in file order */
	size_t		 group;		/* its address's, by first record */
};

/* The records of a file, and what became of them. */
struct msmem {
	struct prof_fwk	*fw;
	struct msmem_ev	*v;
	size_t		 n;
	int		 name_key;	/* the owner's field */
	size_t		 orphans;	/* releases with no allocation */
	size_t		 dropped;	/* allocations another replaced */
	size_t		 not_utf8;	/* names read as N/A */
};

/*
 * N / D as Python divides two integers: the double nearest to the exact
 * quotient (ties to even). D is at least 2.
 */
static double
prof_fwk_msmem_div(uint64_t n, uint64_t d)
{
	unsigned __int128	 num = n, q, rem;
	const unsigned __int128	 lo = (unsigned __int128)1 << 53;
	uint64_t		 m;
	int			 s = 0;

	if (n < (1ULL << 53))
		return (double)n / (double)d;
	/* Scale until the quotient has 54 bits: 53, and one to round. */
	while ((q = (num << s) / d) < lo)
		s++;
	rem = (num << s) % d;
	m = (uint64_t)(q >> 1);
	if ((q & 1) != 0 && (rem != 0 || (m & 1) != 0))
		m++;
	return ldexp((double)m, 1 - s);
}

/* A cell of MB of BYTES, or of N / D as Python prints it. */
static void
prof_fwk_msmem_cell(char *buf, size_t size, uint64_t n, uint64_t d)
{
	util_fmt_pyfloat(buf, size, prof_fwk_msmem_div(n, d));
}

static int
prof_fwk_msmem_time_cmp(const void *a, const void *b)
{
	const struct msmem_ev	*x = a, *y = b;

	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* By address (in the order of its first record), then time. */
static int
prof_fwk_msmem_group_cmp(const void *a, const void *b)
{
	const struct msmem_ev	*x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return prof_fwk_msmem_time_cmp(a, b);
}

/* Keep record P of LEN bytes; false if it is too short (counted). */
static bool
prof_fwk_msmem_keep(struct msmem *mm, const unsigned char *p, size_t len)
{
	struct msmem_ev	*e;
	bool		 cut = false;

	if (len < MSMEM_FIXED)
		return false;
	mm->v = util_grow(mm->v, mm->n, 1, sizeof *mm->v);
	e = &mm->v[mm->n];
	memset(e, 0, sizeof *e);
	e->device = (int32_t)importer_le32(p);
	e->created = importer_le64(p + 20);
	e->addr = importer_le64(p + 28);
	e->size = importer_le64(p + 36);
	e->used = importer_le64(p + 44);
	e->alloc = importer_le64(p + 60);
	e->stream_ptr = importer_le64(p + 84);
	e->seq = mm->n++;
	if (!prof_fwk_rec_field(p + MSMEM_FIXED, len - MSMEM_FIXED,
	    mm->name_key, &e->owner, &cut))
		e->owner = NULL;
	else if (!prof_fwk_rec_utf8(e->owner, strlen(e->owner))) {
		/* MindSpore reads a name it cannot decode as N/A. */
		free(e->owner);
		e->owner = xstrdup("N/A");
		mm->not_utf8++;
	}
	return true;
}

/* The row of allocation A and its release R (NULL: none). */
static void
prof_fwk_msmem_row(struct store *s, const struct msmem_ev *a,
    const struct msmem_ev *r)
{
	char	 c[15][40], *row[15];
	size_t	 k;

	for (k = 0; k < 15; k++) {
		snprintf(c[k], sizeof c[k], "N/A");
		row[k] = c[k];
	}
	row[0] = a->owner != NULL ? a->owner : (char *)"";
	prof_fwk_msmem_cell(c[1], sizeof c[1], a->size, 1024);
	prof_fwk_msmem_cell(c[2], sizeof c[2], a->created, 1000);
	prof_fwk_msmem_cell(c[7], sizeof c[7], a->alloc, 1048576);
	prof_fwk_msmem_cell(c[8], sizeof c[8], a->used, 1048576);
	prof_fwk_msmem_cell(c[9], sizeof c[9], a->alloc, 1048576);
	if (r != NULL) {
		prof_fwk_msmem_cell(c[3], sizeof c[3], r->created, 1000);
		/* Python's int division of a difference, negative too. */
		if (r->created >= a->created)
			prof_fwk_msmem_cell(c[5], sizeof c[5], r->created -
			    a->created, 1000);
		else
			util_fmt_pyfloat(c[5], sizeof c[5],
			    -prof_fwk_msmem_div(a->created - r->created, 1000));
		prof_fwk_msmem_cell(c[10], sizeof c[10], r->alloc, 1048576);
		prof_fwk_msmem_cell(c[11], sizeof c[11], r->used, 1048576);
		prof_fwk_msmem_cell(c[12], sizeof c[12], r->alloc, 1048576);
	}
	snprintf(c[13], sizeof c[13], "%llu", (unsigned long long)
	    a->stream_ptr);
	snprintf(c[14], sizeof c[14], "NPU:%d", (int)a->device);
	store_load_generic_row(s, row, 15);
}

/* A row as it waits for the allocation order: allocation, release. */
struct msmem_pair {
	const struct msmem_ev	*a;
	const struct msmem_ev	*r;
	size_t			 seq;
};

/* By allocation time as MindSpore sorts it: the float of its µs. */
static int
prof_fwk_msmem_pair_cmp(const void *a, const void *b)
{
	const struct msmem_pair	*x = a, *y = b;
	double			 p = prof_fwk_msmem_div(x->a->created, 1000);
	double			 q = prof_fwk_msmem_div(y->a->created, 1000);

	if (p != q)
		return p < q ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Add to *P (*N so far) the row of allocation A and release R. */
static void
prof_fwk_msmem_pair(struct msmem_pair **p, size_t *n,
    const struct msmem_ev *a, const struct msmem_ev *r)
{
	*p = util_grow(*p, *n, 1, sizeof **p);
	(*p)[*n].a = a;
	(*p)[*n].r = r;
	(*p)[*n].seq = *n;
	(*n)++;
}

/*
 * Pair the records of each address as MindSpore does: a first record
 * that is a release is passed over; an allocation waits for the next
 * release; a release with no allocation waiting stays, and pairs with
 * the next allocation (counted).
 */
static size_t
prof_fwk_msmem_pairs(struct msmem *mm, struct msmem_pair **out)
{
	struct msmem_pair	*p = NULL;
	const struct msmem_ev	*a = NULL, *r = NULL, *e;
	size_t			 n = 0, i;

	for (i = 0; i < mm->n; i++) {
		e = &mm->v[i];
		if (i == 0 || e->group != mm->v[i - 1].group) {
			if (a != NULL)
				prof_fwk_msmem_pair(&p, &n, a, NULL);
			a = r = NULL;
			if (e->size == MSMEM_FREE)
				continue;
		}
		if (e->size != MSMEM_FREE) {
			if (a != NULL)
				mm->dropped++;
			a = e;
		} else
			r = e;
		if (a != NULL && r != NULL) {
			if (r < a)
				mm->orphans++;
			prof_fwk_msmem_pair(&p, &n, a, r);
			a = r = NULL;
		}
	}
	if (a != NULL)
		prof_fwk_msmem_pair(&p, &n, a, NULL);
	*out = p;
	return n;
}

/*
 * Decode FRAMEWORK/mindspore.memory_usage at PATH of FW's rank (the
 * owner's name in field NAME_KEY: 3 for MindSpore 2.5, 13 after) into
 * operator_memory.
 */
void
prof_fwk_msmem_load(struct prof_fwk *fw, const char *path, int name_key)
{
	static const char *const cols[] = { "Name", "Size(KB)",
	    "Allocation Time(us)", "Release Time(us)",
	    "Active Release Time(us)", "Duration(us)", "Active Duration(us)",
	    "Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
	    "Allocation Total Active(MB)", "Release Total Allocated(MB)",
	    "Release Total Reserved(MB)", "Release Total Active(MB)",
	    "Stream Ptr", "Device Type" };
	struct msmem		 mm;
	struct msmem_pair	*pairs = NULL;
	struct util_map		 group;
	unsigned char		*buf = NULL;
	char			*cause = NULL;
	size_t			 size = 0, i, n, ngroups = 0;
	ssize_t			 len;
	int64_t			 off = 0;
	uint64_t		 v;
	FILE			*f;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	memset(&mm, 0, sizeof mm);
	mm.fw = fw;
	mm.name_key = name_key;
	for (;;) {
		fw->at = off;
		if ((len = prof_fwk_rec_next(fw, f, path, -1, &buf, &size,
		    &off)) <= 0)
			break;
		if (!prof_fwk_msmem_keep(&mm, buf, (size_t)len) &&
		    fw->short_recs++ == 0)
			fw->short_at = fw->at;
	}
	fclose(f);
	free(buf);
	prof_fwk_rec_report(fw, path);
	if (mm.n == 0)
		return;
	/* Addresses in the order of their first record in time. */
	qsort(mm.v, mm.n, sizeof *mm.v, prof_fwk_msmem_time_cmp);
	util_map_init(&group);
	for (i = 0; i < mm.n; i++) {
		if (!util_map_get(&group, mm.v[i].addr, &v)) {
			v = ngroups++;
			util_map_set(&group, mm.v[i].addr, v);
		}
		mm.v[i].group = v;
	}
	util_map_release(&group);
	qsort(mm.v, mm.n, sizeof *mm.v, prof_fwk_msmem_group_cmp);
	n = prof_fwk_msmem_pairs(&mm, &pairs);
	if (n > 1)
		qsort(pairs, n, sizeof *pairs, prof_fwk_msmem_pair_cmp);
	if (n > 0 && store_load_generic_begin(fw->s, "operator_memory",
	    fw->device, fw->rank, (char **)cols, sizeof cols / sizeof *cols,
	    &cause) == 0) {
		for (i = 0; i < n; i++)
			prof_fwk_msmem_row(fw->s, pairs[i].a, pairs[i].r);
	} else if (cause != NULL) {
		store_load_warning(fw->s, path, -1, "%s", cause);
		free(cause);
	}
	if (mm.orphans > 0)
		store_load_warning(fw->s, path, -1, "%zu memory release%s "
		    "with no allocation before it paired with the next "
		    "allocation of its address, as MindSpore pairs them (a "
		    "negative duration)", mm.orphans, mm.orphans == 1 ? "" :
		    "s");
	if (mm.not_utf8 > 0)
		store_load_warning(fw->s, path, -1, "%zu memory record "
		    "name%s not UTF-8: read as N/A, as MindSpore reads them",
		    mm.not_utf8, mm.not_utf8 == 1 ? "" : "s");
	if (mm.dropped > 0)
		store_load_warning(fw->s, path, -1, "%zu memory allocation%s "
		    "followed by another of the same address before a "
		    "release: no row, as MindSpore makes none", mm.dropped,
		    mm.dropped == 1 ? "" : "s");
	for (i = 0; i < mm.n; i++)
		free(mm.v[i].owner);
	free(mm.v);
	free(pairs);
}
