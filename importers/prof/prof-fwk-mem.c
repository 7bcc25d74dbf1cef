/*
 * torch_npu's memory records of a raw profile (torch.memory_usage,
 * doc/formats.md section 3.11) into memory_record, as torch_npu's
 * analysis writes it, and the timeline's memory chart. Each record is
 * TLV-framed (type 3) with no fields; its size tells its layout. Only
 * records of NPU memory (device type 20) are rows, in time order; a
 * workspace record (component 1) is a WORKSPACE row. The table is
 * written once the device folders are read: their APP samples first,
 * then the PTA rows merged in time with GE's records (prof-mem.c), each
 * followed by a PTA+GE row of both totals. The records are also kept for
 * operator_memory (src/store/store-torch-mem.c), built once the ops are
 * in.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define FWK_MEM_T	3
#define FWK_MEM_NPU	20

/* One NPU memory record, and where it was in the file. */
struct fwk_mem {
	struct store_torch_mem	 r;
	size_t			 idx;
};

/*
 * Decode record P of LEN bytes into *M; false if it is not an NPU record
 * (*BAD set if its size is of no known layout). The layouts share their
 * first 56 bytes (ptr, time, size, allocated, reserved, active, stream);
 * then device type and index, [component,] data type, [allocator,] thread,
 * pid: 77 bytes now, 76 before the component byte, 75 before the
 * allocator byte.
 */
static bool
prof_fwk_mem_decode(struct prof_fwk *fw, const unsigned char *p, size_t len,
    struct fwk_mem *m, bool *bad, bool *badtime)
{
	*bad = *badtime = false;
	if (len != 77 && len != 76 && len != 75) {
		*bad = true;
		return false;
	}
	if ((signed char)p[56] != FWK_MEM_NPU)
		return false;
	memset(&m->r, 0, sizeof m->r);
	m->r.ptr = (int64_t)importer_le64(p);
	m->r.ts = prof_fwk_rec_ns(fw, importer_le64(p + 8));
	m->r.size = (int64_t)importer_le64(p + 16);
	m->r.allocated = (int64_t)importer_le64(p + 24);
	m->r.reserved = (int64_t)importer_le64(p + 32);
	m->r.active = (int64_t)importer_le64(p + 40);
	m->r.stream = (int64_t)importer_le64(p + 48);
	m->r.device = (signed char)p[57];
	m->r.workspace = len == 77 && p[58] == 1;
	/* Then [component,] data type, [allocator,] thread, pid. */
	m->r.type = p[len == 77 ? 59 : 58];
	m->r.inner = len == 75 || p[len - 17] == 0;
	m->r.tid = (int64_t)importer_le64(p + len - 16);
	m->r.pid = (int64_t)importer_le64(p + len - 8);
	if (!prof_meta_sane(m->r.ts)) {
		*badtime = true;
		return false;
	}
	return true;
}

static int
prof_fwk_mem_cmp(const void *a, const void *b)
{
	const struct fwk_mem	*x = a, *y = b;

	if (x->r.ts != y->r.ts)
		return x->r.ts < y->r.ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Read PATH's NPU records; return their count. */
static size_t
prof_fwk_mem_read(struct prof_fwk *fw, const char *path,
    struct fwk_mem **out)
{
	struct fwk_mem	*v = NULL, m;
	unsigned char	 head[6], buf[128];
	size_t		 n = 0, got, nbad = 0, ntime = 0;
	uint32_t	 len;
	int64_t		 off = 0, first = -1, tfirst = -1;
	bool		 bad, badtime;
	FILE		*f;

	*out = NULL;
	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return 0;
	while ((got = fread(head, 1, sizeof head, f)) == sizeof head) {
		len = importer_le32(head + 2);
		if (importer_le16(head) != FWK_MEM_T || len > sizeof buf) {
			store_load_warning(fw->s, path, off, "record of type "
			    "%d and %lu bytes where type %d was expected: the "
			    "rest of the file is skipped", importer_le16(head),
			    (unsigned long)len, FWK_MEM_T);
			got = 0;
			break;
		}
		if (fread(buf, 1, len, f) < len) {
			store_load_warning(fw->s, path, off, "record cut short "
			    "(%lu bytes announced): it is skipped",
			    (unsigned long)len);
			got = 0;
			break;
		}
		if (prof_fwk_mem_decode(fw, buf, len, &m, &bad, &badtime)) {
			m.idx = n;
			v = util_grow(v, n, 1, sizeof *v);
			v[n++] = m;
		} else if (bad && nbad++ == 0)
			first = off;
		else if (badtime && ntime++ == 0)
			tfirst = off;
		off += 6 + (int64_t)len;
	}
	if (got > 0)
		store_load_warning(fw->s, path, off, "record header cut short: "
		    "the file ends there");
	if (nbad > 0)
		store_load_warning(fw->s, path, first, "%zu memory records of "
		    "a size of no known layout (75, 76 or 77 bytes), the "
		    "first here: skipped", nbad);
	if (ntime > 0)
		store_load_warning(fw->s, path, tfirst, "%zu NPU memory "
		    "records with a time no collection can have, the first "
		    "here: skipped", ntime);
	fclose(f);
	*out = v;
	return n;
}

/*
 * Add the N sorted records V to FW's, keeping them all in time order: a
 * second file's records are merged in, an earlier file's first on ties.
 */
static void
prof_fwk_mem_merge(struct prof_fwk *fw, const struct fwk_mem *v, size_t n)
{
	struct store_torch_mem	*m;
	size_t			 i = 0, j = 0, k = 0;

	m = xreallocarray(NULL, fw->nmem + n, sizeof *m);
	while (i < fw->nmem || j < n) {
		if (j == n || (i < fw->nmem && fw->mem[i].ts <= v[j].r.ts))
			m[k++] = fw->mem[i++];
		else
			m[k++] = v[j++].r;
	}
	free(fw->mem);
	fw->mem = m;
	fw->nmem = k;
}

/*
 * Read PATH's NPU memory records, for the collection's one device DEVICE
 * (NP_NA if it has several: each record's own index is used), and keep
 * them for memory_record and operator_memory.
 */
void
prof_fwk_mem_load(struct prof_fwk *fw, const char *path, int64_t device)
{
	struct fwk_mem	*v;
	size_t		 n;

	if ((n = prof_fwk_mem_read(fw, path, &v)) == 0) {
		free(v);
		return;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, prof_fwk_mem_cmp);
	prof_fwk_mem_merge(fw, v, n);
	free(v);
	if (fw->mem_path == NULL)
		fw->mem_path = xstrdup(path);
	fw->mem_device = device;
}

/*
 * Write operator_memory from the records kept, for the collection's one
 * device DEVICE (NP_NA if several), once the ops and marks are loaded.
 */
void
prof_fwk_mem_ops(struct prof_fwk *fw, const char *dir, int64_t device)
{
	char	*cause = NULL;
	int64_t	 incomplete;

	if (fw->nmem == 0)
		return;
	if (store_torch_mem_load(fw->s, fw->rank, device, fw->mem,
	    fw->nmem, &incomplete, &cause) != 0) {
		store_load_warning(fw->s, dir, -1, "%s", cause);
		free(cause);
		return;
	}
	if (incomplete > 0)
		store_load_warning(fw->s, dir, -1, "%lld memory records are "
		    "incomplete (an allocation without its free or block "
		    "free)", (long long)incomplete);
}
