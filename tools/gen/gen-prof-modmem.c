/*
 * The system memory records of a generated collection (-K, doc/formats.md
 * sections 4.12 and 4.13):
 * - npu_module_mem.data slices on every device, four samples of eight
 *   modules each (four whose names differ between CANN versions, and an
 *   id past the table, named by its number), written in time order but
 *   for one pair, the third samples of all devices at one time, sizes not
 *   whole KB, one sample from before the collection start (left out), and
 *   the expected npu_module_mem table: msprof's columns, or torch_npu's
 *   with -Y, by module, then time, then device;
 * - npu_mem.data slices on every device, the driver's memory samples of
 *   the process (APP) and of the device, one of an unknown event, one
 *   from before the start, one out of time order, and the expected
 *   npu_mem table (not with -Y or -Z: their APP channel is not in it).
 */
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_PROF_MODMEM_SAMPLES	4

/* The modules sampled, and their names as the expected table has them. */
static const struct {
	uint32_t	 id;
	const char	*name;
} gen_prof_modmem_modules[] = {
	{ 7, "RUNTIME" }, { 22, "DEVMM" }, { 33, "APP" }, { 2, "IDEDH" },
	{ 5, "HIAIENGINE" }, { 11, "MDCFUSION" }, { 90, "90" },
	{ 74, "AML" }
};
#define GEN_PROF_MODMEM_NMODULES \
	(sizeof gen_prof_modmem_modules / sizeof *gen_prof_modmem_modules)

struct gen_prof_modmem_rec {
	int64_t		 ts;		/* epoch ns */
	int64_t		 bytes;
	int		 device;
	size_t		 module;	/* index into gen_prof_modmem_modules */
};

static int
gen_prof_modmem_cmp(const void *a, const void *b)
{
	const struct gen_prof_modmem_rec	*x = a, *y = b;

	if (gen_prof_modmem_modules[x->module].id !=
	    gen_prof_modmem_modules[y->module].id)
		return gen_prof_modmem_modules[x->module].id <
		    gen_prof_modmem_modules[y->module].id ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->device < y->device ? -1 : x->device > y->device;
}

/* npu_mem's events, by their number. */
static const char *const gen_prof_modmem_events[] = { "APP", "Device",
	"Unknown" };

/*
 * Device D's npu_mem samples into B and their rows into R, STEP ns apart:
 * whole microseconds since the device's clock pair. The fourth is written
 * before the third (out of time order, kept so), the first is from
 * before the start (no row).
 */
static void
gen_prof_modmem_npu(const struct gen_prof *g, const struct gen_prof_clock *c,
    int d, int64_t step, struct gen_buf *b, struct strbuf *r)
{
	static const int	 order[] = { 0, 1, 2, 4, 3, 5, 6 };
	char			 us[40];
	int64_t			 t, ddr, hbm, ts;
	uint32_t		 ev, rel;
	size_t			 i, k;

	for (i = 0; i < sizeof order / sizeof *order; i++) {
		k = (size_t)order[i];
		t = k == 0 ? c->begin - 3000000 : c->begin + step *
		    (int64_t)k + d * 5000;
		rel = (uint32_t)((t - c->dsync) / 1000);
		ev = k == 5 ? 2 : (uint32_t)(k % 2);
		ddr = (int64_t)(k * 3000 + (size_t)d) * 1024 + (k == 3 ? 511 :
		    0);
		/* The fourth's KB of DDR + HBM more than of each. */
		hbm = (int64_t)(k * 70000 + 7) * 1024 + (k == 2 || k == 3 ?
		    1023 : 0);
		gen_prof_bin_buf_u32(b, rel);
		gen_prof_bin_buf_u32(b, ev);
		gen_prof_bin_buf_u64(b, 0);
		gen_prof_bin_buf_u64(b, (uint64_t)ddr);
		gen_prof_bin_buf_u64(b, (uint64_t)hbm);
		ts = c->dsync + (int64_t)rel * 1000 + g->local_off;
		if (k == 0)
			continue;
		util_fmt_us(us, sizeof us, ts, 3, false);
		strbuf_addf(r, "%d,%s,%lld,%lld,%lld,%s\n", d,
		    gen_prof_modmem_events[ev], (long long)(ddr / 1024),
		    (long long)(hbm / 1024), (long long)((ddr + hbm) / 1024),
		    us);
	}
}

/* One record: module M at MONO with BYTES reserved. */
static void
gen_prof_modmem_record(const struct gen_prof_clock *c, struct gen_buf *b,
    uint32_t m, int64_t mono, int64_t bytes)
{
	gen_prof_bin_buf_u32(b, m);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u64(b, gen_prof_core_host_raw(c, mono));
	gen_prof_bin_buf_u64(b, (uint64_t)bytes);
}

/* KB / 1024 as Python prints it: KB / 1024 is exact in a double. */
static void
gen_prof_modmem_mb(FILE *f, int64_t kb)
{
	char	 buf[64];
	size_t	 n;

	snprintf(buf, sizeof buf, "%.10f", (double)kb / 1024.0);
	n = strlen(buf);
	while (buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	fprintf(f, "%s", buf);
}

/* Write EXPECT/npu_module_mem.csv of the N records V as show prints it. */
static int
gen_prof_modmem_expect(const struct gen_prof *g,
    struct gen_prof_modmem_rec *v, size_t n, const char *expect,
    char **cause)
{
	FILE	*f;
	char	 us[64];
	size_t	 i;

	qsort(v, n, sizeof *v, gen_prof_modmem_cmp);
	if ((f = util_file_create(expect, "npu_module_mem.csv", cause)) ==
	    NULL)
		return -1;
	if (g->o->torch)
		fprintf(f, "Component,Timestamp(us),Total Reserved(MB),"
		    "Device\n");
	else
		fprintf(f, "Device_id,Component,Timestamp(us),"
		    "Total Reserved(KB),Device\n");
	for (i = 0; i < n; i++) {
		if (!g->o->torch)
			fprintf(f, "%d,", v[i].device);
		util_fmt_us(us, sizeof us, v[i].ts, 3, false);
		fprintf(f, "%s,%s,", gen_prof_modmem_modules[v[i].module].name,
		    us);
		if (g->o->torch)
			gen_prof_modmem_mb(f, v[i].bytes / 1024);
		else
			fprintf(f, "%lld", (long long)(v[i].bytes / 1024));
		fprintf(f, ",NPU:%d\n", v[i].device);
	}
	return util_file_close(f, expect, "npu_module_mem.csv", cause);
}

/*
 * Device D's records into B and the rows they give into *V (*N), STEP ns
 * apart: module M's K-th sample is the (K * modules + M + 1)-th step.
 */
static void
gen_prof_modmem_device(const struct gen_prof *g,
    const struct gen_prof_clock *c, int d, int64_t step, struct gen_buf *b,
    struct gen_prof_modmem_rec **v, size_t *n)
{
	struct gen_prof_modmem_rec	*r, late = { 0 };
	size_t				 m, k, i;
	int64_t				 t, bytes;

	/* Before the collection started: not a row. */
	gen_prof_modmem_record(c, b, 7, gen_prof_core_align(c, c->begin -
	    2000000), 1 << 20);
	for (i = 0; i < GEN_PROF_MODMEM_SAMPLES * GEN_PROF_MODMEM_NMODULES;
	    i++) {
		k = i / GEN_PROF_MODMEM_NMODULES;
		m = i % GEN_PROF_MODMEM_NMODULES;
		/* The third samples: every device's at one time. */
		t = gen_prof_core_align(c, c->begin + step * (int64_t)(i + 1) +
		    (k == 2 ? 0 : d * 3000));
		bytes = ((int64_t)(m + 1) * 40960 + (int64_t)k * 1234 + d) *
		    1024 + (k == 1 ? 1023 : 0);
		*v = util_grow(*v, *n, 1, sizeof **v);
		r = &(*v)[(*n)++];
		r->ts = t + g->local_off;
		r->bytes = bytes;
		r->device = d;
		r->module = m;
		/* The next to last goes after the last, out of time order. */
		if (i == GEN_PROF_MODMEM_SAMPLES * GEN_PROF_MODMEM_NMODULES - 2)
			late = *r;
		else
			gen_prof_modmem_record(c, b,
			    gen_prof_modmem_modules[m].id, t, bytes);
	}
	gen_prof_modmem_record(c, b, gen_prof_modmem_modules[late.module].id,
	    late.ts - g->local_off, late.bytes);
}

/*
 * Write the module memory records of every device of the collection ROOT
 * (its device directories written already) and, if EXPECT is set, the
 * table they give.
 */
int
gen_prof_modmem(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *root, const char *expect, char **cause)
{
	struct gen_prof_modmem_rec	*v = NULL;
	struct gen_buf			 b, nb;
	struct strbuf			 rows;
	size_t				 n = 0;
	int64_t				 step;
	char				*dir, name[64];
	int				 d, rc = 0;

	step = (c->end - c->begin) / (GEN_PROF_MODMEM_SAMPLES *
	    GEN_PROF_MODMEM_NMODULES + 1);
	strbuf_init(&rows);
	strbuf_adds(&rows, "Device_id,event,ddr(KB),hbm(KB),memory(KB),"
	    "timestamp(us)\n");
	for (d = 0; rc == 0 && d < g->o->devices; d++) {
		memset(&b, 0, sizeof b);
		memset(&nb, 0, sizeof nb);
		gen_prof_modmem_device(g, c, d, step, &b, &v, &n);
		gen_prof_modmem_npu(g, c, d, (c->end - c->begin) / 8, &nb,
		    &rows);
		xasprintf(&dir, "%s/device_%d/data", root, d);
		snprintf(name, sizeof name, "npu_module_mem.data.%d", d);
		rc = gen_prof_bin_slices(dir, name, &b, g->o->dev_slice, 0,
		    cause);
		snprintf(name, sizeof name, "npu_mem.data.%d", d);
		if (rc == 0)
			rc = gen_prof_bin_slices(dir, name, &nb,
			    g->o->dev_slice, 0, cause);
		free(dir);
		gen_prof_bin_buf_free(&b);
		gen_prof_bin_buf_free(&nb);
	}
	if (rc == 0 && expect != NULL)
		rc = gen_prof_modmem_expect(g, v, n, expect, cause);
	if (rc == 0 && expect != NULL && !g->o->torch && !g->o->mindspore)
		rc = gen_prof_bin_text(expect, "npu_mem.csv", rows.s, cause);
	strbuf_release(&rows);
	free(v);
	return rc;
}
