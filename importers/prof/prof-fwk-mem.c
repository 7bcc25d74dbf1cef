/*
 * torch_npu's memory records of a raw profile (torch.memory_usage,
 * doc/formats.md section 3.11) into the PTA rows of memory_record, as
 * torch_npu's analysis writes them, and the timeline's memory chart. Each
 * record is TLV-framed (type 3) with no fields; its size tells its
 * layout. Only records of NPU memory (device type 20) are rows, in time
 * order; a workspace record (component 1) is a WORKSPACE row. The
 * records are kept for operator_memory (src/store/store-torch-mem.c),
 * built once the ops are in. The GE, PTA+GE and APP rows need CANN's own
 * memory records, which are not read: they are said missing.
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

static const char *const prof_fwk_mem_cols[] = { "Component",
	"Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
	"Total Active(MB)", "Stream Ptr", "Device Type" };
#define FWK_MEM_NCOLS	(sizeof prof_fwk_mem_cols / sizeof *prof_fwk_mem_cols)

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

/* A number of bytes as the vendor's MB cell: bytes / 2^20, Python-style. */
static void
prof_fwk_mem_mb(char *buf, size_t size, int64_t bytes)
{
	util_fmt_pyfloat(buf, size, (double)bytes / (1024.0 * 1024.0));
}

/*
 * Load PATH's NPU memory records as memory_record rows of component PTA
 * (or WORKSPACE), for the collection's one device DEVICE (NP_NA if it
 * has several: each record's own index is used), and as the memory chart.
 */
void
prof_fwk_mem_load(struct prof_fwk *fw, const char *path, int64_t device,
    const struct import_ctx *ctx)
{
	struct import_memory	 mem;
	struct csv_cols		*cc;
	struct fwk_mem		*v;
	char			 cells[FWK_MEM_NCOLS][40], *row[FWK_MEM_NCOLS];
	char			*cause = NULL;
	size_t			 n, i, k;

	n = prof_fwk_mem_read(fw, path, &v);
	if (n == 0) {
		free(v);
		return;
	}
	store_load_warning(fw->s, path, -1, "memory_record holds the PTA and "
	    "WORKSPACE rows only, operator_memory the PTA ones: their GE, "
	    "PTA+GE and APP rows need CANN's memory records, which are not "
	    "decoded");
	if (n > 1)
		qsort(v, n, sizeof *v, prof_fwk_mem_cmp);
	if (store_load_generic_begin(fw->s, "memory_record", device != NP_NA ?
	    device : ctx->device, fw->rank, (char **)prof_fwk_mem_cols,
	    FWK_MEM_NCOLS, &cause) != 0) {
		store_load_warning(fw->s, path, -1, "%s", cause);
		free(cause);
		free(v);
		return;
	}
	cc = import_columns_create((char **)prof_fwk_mem_cols, FWK_MEM_NCOLS);
	import_memory_init(&mem, cc);
	import_columns_free(cc);
	for (k = 0; k < FWK_MEM_NCOLS; k++)
		row[k] = cells[k];
	for (i = 0; i < n; i++) {
		snprintf(cells[0], sizeof cells[0], "%s", v[i].r.workspace ?
		    "WORKSPACE" : "PTA");
		util_fmt_us(cells[1], sizeof cells[1], v[i].r.ts, 3, false);
		prof_fwk_mem_mb(cells[2], sizeof cells[2], v[i].r.allocated);
		prof_fwk_mem_mb(cells[3], sizeof cells[3], v[i].r.reserved);
		prof_fwk_mem_mb(cells[4], sizeof cells[4], v[i].r.active);
		snprintf(cells[5], sizeof cells[5], "%lld",
		    (long long)v[i].r.stream);
		snprintf(cells[6], sizeof cells[6], "NPU:%lld", device !=
		    NP_NA ? (long long)device : (long long)v[i].r.device);
		store_load_generic_row(fw->s, row, FWK_MEM_NCOLS);
		(void)import_memory_row(fw->s, &mem, row, FWK_MEM_NCOLS, ctx);
	}
	/* Kept for operator_memory, once the ops are in. */
	fw->mem = xreallocarray(fw->mem, fw->nmem + n, sizeof *fw->mem);
	for (i = 0; i < n; i++)
		fw->mem[fw->nmem++] = v[i].r;
	free(v);
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
