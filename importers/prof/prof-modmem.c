/*
 * The memory each driver module holds on a device (doc/formats.md
 * section 4.12): npu_module_mem.data slices of 24-byte records, module id,
 * host counter time and bytes reserved, kept from every device directory
 * of a collection and written at its end as the npu_module_mem table the
 * vendor's export prints, in msprof's or in torch_npu's columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_MODMEM_SIZE	24
#define PROF_MODMEM_CELL	64

/*
 * The names of the driver's module ids, as torch_npu's text export of
 * January 2025 prints them (doc/formats.md section 4.12 on other tables).
 */
static const char *const prof_modmem_names[] = {
	"SLOG", "IDEDD", "IDEDH", "HCCL", "FMK", "HIAIENGINE", "DVPP",
	"RUNTIME", "CCE", "HDC", "DRV", "MDCFUSION", "MDCLOCATION",
	"MDCPERCEPTION", "MDCFSM", "MDCCOMMON", "MDCMONITOR", "MDCBSWP",
	"MDCDEFAULT", "MDCSC", "MDCPNC", "MLL", "DEVMM", "KERNEL", "LIBMEDIA",
	"CCECPU", "ASCENDDK", "ROS", "HCCP", "ROCE", "TEFUSION", "PROFILING",
	"DP", "APP", "TS", "TSDUMP", "AICPU", "LP", "TDT", "FE", "MD", "MB",
	"ME", "IMU", "IMP", "GE", "MDCFUSA", "CAMERA", "ASCENDCL", "TEEOS",
	"ISP", "SIS", "HSM", "DSS", "PROCMGR", "BBOX", "AIVECTOR", "TBE", "FV",
	"MDCMAP", "TUNE", "HSS", "FFTS", "OP", "UDF", "HICAID", "TSYNC",
	"AUDIO", "TPRT", "ASCENDCKERNEL", "ASYS", "ATRACE", "RTC",
	"SYSMONITOR", "AML", "ADETECT", "MBUFF", "CUSTOM"
};
#define PROF_MODMEM_NNAMES \
	(sizeof prof_modmem_names / sizeof *prof_modmem_names)

/* msprof's columns, and torch_npu's copy of them. */
static const char *const prof_modmem_msprof[] = { "Device_id", "Component",
	"Timestamp(us)", "Total Reserved(KB)", "Device" };
static const char *const prof_modmem_pt[] = { "Component", "Timestamp(us)",
	"Total Reserved(MB)", "Device" };

/* The name of module ID; an id past the table is its number, in BUF. */
static const char *
prof_modmem_name(uint32_t id, char *buf, size_t size)
{
	if (id < PROF_MODMEM_NNAMES)
		return prof_modmem_names[id];
	snprintf(buf, size, "%u", id);
	return buf;
}

/*
 * True if R reads as a module memory record of device ARG (a prof_meta),
 * for prof_slices_open_lined: a module id below 4096, a time a
 * collection can have and a size below 2^50 bytes.
 */
static bool
prof_modmem_ok(const unsigned char *r, const unsigned char *prev,
    void *arg)
{
	(void)prev;
	return importer_le32(r) < 4096 && importer_le64(r + 16) <=
	    (uint64_t)1 << 50 && prof_meta_sane(prof_meta_host_ns(arg,
	    importer_le64(r + 8)));
}

/*
 * Read the npu_module_mem records of device data directory DATA (device
 * metadata DM, rank RANK) into MM. Their times are host counter ticks;
 * records from before the collection started (when start_info says when)
 * are left out, as the vendor leaves them out. A size no SQLite integer
 * holds, or a time no collection can have, is damage: counted, warned
 * once at the first, skipped.
 */
void
prof_modmem_read(struct store *s, const char *data,
    const struct prof_meta *dm, int64_t rank, struct prof_modmems *mm)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	struct prof_modmem	*v;
	const unsigned char	*r;
	const char		*first = NULL;
	int64_t			 first_at = -1, ts, begin;
	uint64_t		 bytes;
	size_t			 bad = 0;

	prof_slices_list(data, "npu_module_mem.data", false, &f);
	if (f.n == 0) {
		prof_slices_release(&f);
		return;
	}
	if (!dm->has_host_start && dm->host.num != 0) {
		store_load_warning(s, f.paths[0], -1, "no host_start.log: the "
		    "module memory records have no time, not read");
		prof_slices_release(&f);
		return;
	}
	begin = prof_meta_begin_ns(dm);
	prof_slices_open_lined(&st, s, &f, PROF_MODMEM_SIZE, prof_modmem_ok,
	    (void *)dm, true);
	while ((r = prof_slices_next(&st)) != NULL) {
		bytes = importer_le64(r + 16);
		ts = prof_meta_host_ns(dm, importer_le64(r + 8));
		if (bytes > INT64_MAX || !prof_meta_sane(ts)) {
			if (bad++ == 0) {
				first = st.path;
				first_at = st.offset;
			}
			continue;
		}
		if (ts < begin)
			continue;
		mm->v = util_grow(mm->v, mm->n, 1, sizeof *mm->v);
		v = &mm->v[mm->n++];
		v->ts = ts;
		v->bytes = (int64_t)bytes;
		v->module = importer_le32(r);
		v->device = dm->device;
		v->rank = rank;
		v->seq = mm->n - 1;
	}
	if (bad > 0)
		store_load_warning(s, first, first_at, "%zu module memory "
		    "record%s with a size over 2^63 bytes or a time no "
		    "collection can have, the first here: skipped", bad,
		    bad == 1 ? "" : "s");
	prof_slices_close(&st);
	prof_slices_release(&f);
}

/*
 * Order of module, then time (msprof's; its sort leaves ties in no set
 * order), then device and reading order.
 */
static int
prof_modmem_cmp(const void *a, const void *b)
{
	const struct prof_modmem	*x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Write the records of MM (collection DIR), sorted here, as the table
 * npu_module_mem, ordered as msprof's export orders them (module, then
 * time), each row with its device and rank: msprof's columns, or
 * torch_npu's if PYTORCH (the size in MB as Python prints KB / 1024, no
 * device id). If the table cannot be begun, a warning says why and no row
 * is written.
 */
void
prof_modmem_write(struct store *s, struct prof_modmems *mm, bool pytorch,
    const char *dir)
{
	char		 cells[5][PROF_MODMEM_CELL], *row[5], name[16];
	const char	*const *cols;
	char		*cause = NULL;
	size_t		 i, k, ncols;
	int		 rc;

	if (mm->n == 0)
		return;
	qsort(mm->v, mm->n, sizeof *mm->v, prof_modmem_cmp);
	cols = pytorch ? prof_modmem_pt : prof_modmem_msprof;
	ncols = pytorch ? 4 : 5;
	rc = store_load_generic_begin(s, "npu_module_mem", mm->v[0].device,
	    mm->v[0].rank, (char **)cols, ncols, &cause);
	if (rc != 0) {
		store_load_warning(s, dir, -1, "%s", cause);
		free(cause);
		return;
	}
	for (k = 0; k < ncols; k++)
		row[k] = cells[k];
	for (i = 0; i < mm->n; i++) {
		/* Devices alternate row by row: no new begin for each. */
		store_load_generic_device(s, mm->v[i].device, mm->v[i].rank);
		k = 0;
		if (!pytorch)
			snprintf(cells[k++], PROF_MODMEM_CELL, "%lld",
			    (long long)mm->v[i].device);
		snprintf(cells[k++], PROF_MODMEM_CELL, "%s",
		    prof_modmem_name(mm->v[i].module, name, sizeof name));
		util_fmt_us(cells[k++], PROF_MODMEM_CELL, mm->v[i].ts, 3,
		    false);
		if (pytorch)
			util_fmt_pyfloat(cells[k++], PROF_MODMEM_CELL,
			    (double)(mm->v[i].bytes / 1024) / 1024.0);
		else
			snprintf(cells[k++], PROF_MODMEM_CELL, "%lld",
			    (long long)(mm->v[i].bytes / 1024));
		snprintf(cells[k], PROF_MODMEM_CELL, "NPU:%lld",
		    (long long)mm->v[i].device);
		store_load_generic_row(s, row, ncols);
	}
}

void
prof_modmems_release(struct prof_modmems *mm)
{
	free(mm->v);
	memset(mm, 0, sizeof *mm);
}
