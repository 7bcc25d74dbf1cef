/*
 * CANN's memory records of a generated torch_npu profile (doc/formats.md
 * section 3.13): GE's task memory records in the host's data and the
 * process memory samples (npu_mem.app) of device 0, and the expected
 * memory_record that torch_npu's analysis builds of them and of its own
 * records: the APP rows, then the PTA and GE rows by time, each but a
 * WORKSPACE row followed by a PTA+GE row.
 *
 * The GE totals are not whole KB, one of them ending on half a thousandth
 * of a KB (which the vendor's rounding takes to the even digit), and one
 * GE record falls on a PTA row's time (the PTA row goes first). Eight
 * APP samples span the collection, with a device-wide sample (event 1,
 * not a row) between two of them.
 */
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_MEM_GE	6		/* GE records per PTA row, as 1/N */
#define GEN_MEM_APP_N	8		/* APP samples of a collection */

/* The generated rows, and the last totals of the one device. */
struct gen_mem {
	struct strbuf	 rows;
	bool		 pta;
	double		 pta_mb[3];
	uint64_t	 pta_stream;
	bool		 ge;
	double		 ge_mb[2];
};

/* BYTES in KB as msprof's CSV rounds them (3 decimals, half to even). */
double
gen_prof_mem_kb(int64_t bytes)
{
	int64_t	 q = bytes * 125 / 128, r = bytes * 125 % 128;

	if (r > 64 || (r == 64 && q % 2 == 1))
		q++;
	return (double)q / 1000.0;
}

static void
gen_mem_mb(struct strbuf *b, double mb)
{
	char	 buf[40];

	util_fmt_pyfloat(buf, sizeof buf, mb);
	strbuf_addf(b, ",%s", buf);
}

static void
gen_mem_head(struct strbuf *b, const char *comp, int64_t ts)
{
	char	 us[40];

	util_fmt_us(us, sizeof us, ts, 3, false);
	strbuf_addf(b, "%s,%s", comp, us);
}

static void
gen_mem_pta_rows(struct gen_mem *m, const struct gen_mem_pta *p)
{
	double	 mb[3];
	int	 k;

	mb[0] = (double)p->allocated / 1048576.0;
	mb[1] = (double)p->reserved / 1048576.0;
	mb[2] = (double)p->active / 1048576.0;
	gen_mem_head(&m->rows, p->ws ? "WORKSPACE" : "PTA", p->ts);
	for (k = 0; k < 3; k++)
		gen_mem_mb(&m->rows, mb[k]);
	strbuf_addf(&m->rows, ",%llu,NPU:0\n", (unsigned long long)p->stream);
	if (p->ws)
		return;
	gen_mem_head(&m->rows, "PTA+GE", p->ts);
	gen_mem_mb(&m->rows, mb[0] + (m->ge ? m->ge_mb[0] : 0));
	gen_mem_mb(&m->rows, mb[1] + (m->ge ? m->ge_mb[1] : 0));
	gen_mem_mb(&m->rows, mb[2]);
	strbuf_addf(&m->rows, ",%llu,NPU:0\n", (unsigned long long)p->stream);
	m->pta = true;
	memcpy(m->pta_mb, mb, sizeof mb);
	m->pta_stream = p->stream;
}

static void
gen_mem_ge_rows(struct gen_mem *m, const struct gen_mem_ge *e)
{
	double	 mb[2];

	mb[0] = gen_prof_mem_kb(e->allocated) / 1024.0;
	mb[1] = gen_prof_mem_kb(e->reserved) / 1024.0;
	gen_mem_head(&m->rows, "GE", e->ts);
	gen_mem_mb(&m->rows, mb[0]);
	gen_mem_mb(&m->rows, mb[1]);
	strbuf_adds(&m->rows, ",,,NPU:0\n");
	gen_mem_head(&m->rows, "PTA+GE", e->ts);
	if (m->pta) {
		gen_mem_mb(&m->rows, mb[0] + m->pta_mb[0]);
		gen_mem_mb(&m->rows, mb[1] + m->pta_mb[1]);
		gen_mem_mb(&m->rows, m->pta_mb[2]);
		strbuf_addf(&m->rows, ",%llu,NPU:0\n",
		    (unsigned long long)m->pta_stream);
	} else {
		gen_mem_mb(&m->rows, mb[0]);
		gen_mem_mb(&m->rows, mb[1]);
		strbuf_adds(&m->rows, ",0,,NPU:0\n");
	}
	m->ge = true;
	memcpy(m->ge_mb, mb, sizeof mb);
}

static int
gen_mem_pta_cmp(const void *a, const void *b)
{
	const struct gen_mem_pta	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The name of GE's op K: every fourth as long as graph op names get. */
static void
gen_mem_ge_name(char *buf, size_t size, size_t k)
{
	snprintf(buf, size, k % 4 == 3 ? "ge_op%zu/model/encoder/layers.11/"
	    "self_attention/query_key_value/MatMulV2_with_bias_add" :
	    "ge_op%zu", k);
}

/*
 * GE's records for N PTA rows P (sorted), in G's clock C, into *GE, and
 * their file BUF: one allocation per 2 * GEN_MEM_GE rows, at whole host
 * ticks after a row, the third on a row's time; each but the last one
 * released (a record of the same op, address and device) a little later.
 * The ops are named in the extra dictionary DICT, but the third's.
 */
static size_t
gen_mem_ge_make(struct gen_prof *g, const struct gen_prof_clock *c,
    const struct gen_mem_pta *p, size_t n, struct gen_mem_ge **ge,
    struct gen_buf *buf, struct strbuf *dict)
{
	struct gen_mem_ge	*v;
	size_t			 k, nalloc = n / (2 * GEN_MEM_GE) + 1, nge, i;
	int64_t			 mono, pool = 3 << 20;
	char			 name[128];

	nge = 2 * nalloc - 1;
	v = xcalloc(nge, sizeof *v);
	for (k = 0; k < nge; k++) {
		if (k % 2 == 0) {
			i = k * GEN_MEM_GE < n ? k * GEN_MEM_GE : n - 1;
			/* The row's time back on the host's monotonic clock. */
			mono = n > 0 ? p[i].ts - g->local_off : c->begin;
			if (k != 2)
				mono = gen_prof_core_align(c, mono + 3 *
				    c->tick + gen_prof_core_range(g, 0,
				    40000));
			gen_mem_ge_name(name, sizeof name, k / 2);
			v[k].node = k == 2 ? 778 : gen_prof_core_hash(name);
			if (k != 2)
				strbuf_addf(dict, "%llu:%s\n",
				    (unsigned long long)v[k].node, name);
			v[k].size = 4096 * (int64_t)(k + 1) + 512;
			v[k].addr = 0x12c0000000ull + k * 4096;
		} else {
			mono = v[k - 1].mono + (int64_t)(50 + k) * c->tick;
			v[k].node = v[k - 1].node;
			v[k].size = -v[k - 1].size;
			v[k].addr = v[k - 1].addr;
		}
		pool += (int64_t)(gen_prof_core_rand(g) % 900000) - 300000;
		if (pool < 1 << 20)
			pool = 1 << 20;
		v[k].mono = mono;
		v[k].ts = mono + g->local_off;
		v[k].allocated = k == 2 ? 1024 * 1000 + 64 : pool + 777;
		v[k].reserved = (pool + (2 << 20)) / (2 << 20) * (2 << 20);
		gen_prof_bin_buf_u16(buf, 0x5A5A);
		gen_prof_bin_buf_u16(buf, 10000);
		gen_prof_bin_buf_u32(buf, 6);
		gen_prof_bin_buf_u32(buf, 4242);
		gen_prof_bin_buf_u32(buf, 48);
		gen_prof_bin_buf_u64(buf, gen_prof_core_host_raw(c, mono));
		gen_prof_bin_buf_u64(buf, v[k].addr);
		gen_prof_bin_buf_u64(buf, (uint64_t)v[k].size);
		gen_prof_bin_buf_u64(buf, v[k].node);
		gen_prof_bin_buf_u64(buf, (uint64_t)v[k].allocated);
		gen_prof_bin_buf_u64(buf, (uint64_t)v[k].reserved);
		gen_prof_bin_buf_u32(buf, 0);
		gen_prof_bin_buf_u32(buf, 0);
		gen_prof_bin_buf_add(buf, (unsigned char[184]){ 0 }, 184);
	}
	*ge = v;
	return nge;
}

/*
 * The expected cann:: rows of operator_memory for GE's NGE records V, in
 * file order: a row per allocation and its release, then the last
 * allocation, never released.
 */
static void
gen_mem_ops_rows(struct gen_prof *g, const struct gen_mem_ge *v, size_t nge,
    struct strbuf *b)
{
	const struct gen_mem_ge	*a, *r;
	size_t			 k;
	char			 us[40], name[128];
	double			 dur;

	(void)g;
	for (k = 0; k < nge; k += 2) {
		a = &v[k];
		r = k + 1 < nge ? &v[k + 1] : NULL;
		gen_mem_ge_name(name, sizeof name, k / 2);
		strbuf_addf(b, "cann::%s", k == 2 ? "" : name);
		gen_mem_mb(b, gen_prof_mem_kb(a->size));
		util_fmt_us(us, sizeof us, a->ts, 3, false);
		strbuf_addf(b, ",%s", us);
		dur = r != NULL ? (double)(r->mono - a->mono) / 1000.0 : 0.0;
		util_fmt_us(us, sizeof us, r != NULL ? r->ts : a->ts, 3, false);
		strbuf_addf(b, ",%s,", us);
		gen_mem_mb(b, dur);
		strbuf_adds(b, ",");
		gen_mem_mb(b, gen_prof_mem_kb(a->allocated) / 1024.0);
		gen_mem_mb(b, gen_prof_mem_kb(a->reserved) / 1024.0);
		strbuf_adds(b, ",");
		gen_mem_mb(b, r != NULL ? gen_prof_mem_kb(r->allocated) /
		    1024.0 : 0.0);
		gen_mem_mb(b, r != NULL ? gen_prof_mem_kb(r->reserved) /
		    1024.0 : 0.0);
		strbuf_adds(b, ",,,NPU:0\n");
	}
}

/*
 * The APP samples of device 0 from the collection's start to its end,
 * into BUF, and as the importer reads them into *APP; return how many.
 */
static size_t
gen_mem_app_make(struct gen_prof *g, const struct gen_prof_clock *c,
    struct gen_mem_app **app, struct gen_buf *buf)
{
	struct gen_mem_app	*v = NULL;
	int64_t			 t, bytes, step;
	uint32_t		 us;
	size_t			 k = 0;

	step = (c->end - c->begin) / GEN_MEM_APP_N;
	step = step < 1000 ? 1000 : step;
	for (t = c->begin; t < c->end; t += step, k++) {
		/* Whole microseconds since device 0's clock pair. */
		us = (uint32_t)((t - c->dsync) / 1000);
		bytes = ((int64_t)2160232 + (int64_t)k * 4224) * 1024 +
		    (k == 1 ? 300 : 0);
		gen_prof_bin_buf_u32(buf, us);
		gen_prof_bin_buf_u32(buf, 0);
		gen_prof_bin_buf_u64(buf, 0);
		gen_prof_bin_buf_u64(buf, 0);
		gen_prof_bin_buf_u64(buf, (uint64_t)bytes);
		v = util_grow(v, k, 1, sizeof *v);
		v[k].ts = c->dsync + (int64_t)us * 1000 + g->local_off;
		v[k].bytes = bytes;
		if (k == 1) {
			/* A device-wide sample: no row. */
			gen_prof_bin_buf_u32(buf, us + 7);
			gen_prof_bin_buf_u32(buf, 1);
			gen_prof_bin_buf_u64(buf, 0);
			gen_prof_bin_buf_u64(buf, 1 << 20);
			gen_prof_bin_buf_u64(buf, (uint64_t)bytes * 2);
		}
	}
	*app = v;
	return k;
}

/*
 * Write CANN's memory records of the collection ROOT (host and device_0
 * written already), GE's around the N sorted times P of the framework's
 * rows: into *MC, GE's in time order (a row's time first on a tie) and
 * the APP samples; *OPS takes the expected cann:: rows of operator_memory.
 */
int
gen_prof_mem_cann(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *root, const struct gen_mem_pta *p, size_t n,
    struct gen_mem_cann *mc, struct strbuf *ops, char **cause)
{
	struct gen_buf	 hb, db;
	struct strbuf	 dict;
	size_t		 i, j;
	char		*dir;
	int		 rc;

	memset(&hb, 0, sizeof hb);
	memset(&db, 0, sizeof db);
	strbuf_init(&dict);
	mc->nge = gen_mem_ge_make(g, c, p, n, &mc->ge, &hb, &dict);
	gen_mem_ops_rows(g, mc->ge, mc->nge, ops);
	mc->napp = gen_mem_app_make(g, c, &mc->app, &db);
	dir = util_path_join(root, "host/data");
	rc = gen_prof_bin_slices(dir, "unaging.additional.task_memory_info",
	    &hb, g->o->host_slice, 256, cause);
	/* The GE ops' names, in a dictionary slice of their own. */
	if (rc == 0)
		rc = gen_prof_bin_text(dir,
		    "unaging.additional.hash_dic.slice_1", dict.s, cause);
	free(dir);
	dir = util_path_join(root, "device_0/data");
	if (rc == 0)
		rc = gen_prof_bin_slices(dir, "npu_mem.app.0", &db,
		    g->o->dev_slice, 32, cause);
	free(dir);
	for (i = 1; i < mc->nge; i++) {
		for (j = i; j > 0 && mc->ge[j - 1].ts > mc->ge[j].ts; j--) {
			struct gen_mem_ge t = mc->ge[j];

			mc->ge[j] = mc->ge[j - 1];
			mc->ge[j - 1] = t;
		}
	}
	strbuf_release(&dict);
	free(hb.p);
	free(db.p);
	return rc;
}

/*
 * Write CANN's memory records of the collection ROOT (host and device_0
 * written already) for the N PTA rows P of torch_npu's records, and the
 * expected fwk_memory_record.csv and the cann:: rows of operator_memory
 * (fwk_cann_memory.csv, no header) into EXPECT if set. P is sorted here.
 */
int
gen_prof_mem(struct gen_prof *g, const struct gen_prof_clock *c,
    const char *root, struct gen_mem_pta *p, size_t n, const char *expect,
    char **cause)
{
	struct gen_mem		 m;
	struct gen_mem_cann	 mc;
	struct strbuf		 ops;
	size_t			 i, j;
	int			 rc;
	FILE			*out;

	if (n > 1)
		qsort(p, n, sizeof *p, gen_mem_pta_cmp);
	memset(&m, 0, sizeof m);
	memset(&mc, 0, sizeof mc);
	strbuf_init(&m.rows);
	strbuf_adds(&m.rows, "Component,Timestamp(us),Total Allocated(MB),"
	    "Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type\n");
	strbuf_init(&ops);
	rc = gen_prof_mem_cann(g, c, root, p, n, &mc, &ops, cause);
	for (i = 0; i < mc.napp; i++) {
		gen_mem_head(&m.rows, "APP", mc.app[i].ts);
		strbuf_adds(&m.rows, ",");
		gen_mem_mb(&m.rows, gen_prof_mem_kb(mc.app[i].bytes) / 1024.0);
		strbuf_adds(&m.rows, ",,,NPU:0\n");
	}
	/* GE's records in time order; a PTA row first on a tie. */
	for (i = j = 0; i < n || j < mc.nge;) {
		if (i < n && (j == mc.nge || mc.ge[j].ts >= p[i].ts))
			gen_mem_pta_rows(&m, &p[i++]);
		else
			gen_mem_ge_rows(&m, &mc.ge[j++]);
	}
	if (rc == 0 && expect != NULL && (out = util_file_create(expect,
	    "fwk_memory_record.csv", cause)) != NULL) {
		fputs(m.rows.s, out);
		rc = util_file_close(out, expect, "fwk_memory_record.csv",
		    cause);
	} else if (rc == 0 && expect != NULL)
		rc = -1;
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "fwk_cann_memory.csv", ops.s,
		    ops.len, cause);
	strbuf_release(&ops);
	free(mc.ge);
	free(mc.app);
	strbuf_release(&m.rows);
	return rc;
}
