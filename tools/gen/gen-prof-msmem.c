/*
 * MindSpore's memory records of the raw PROF generator's MindSpore
 * profile (-Z, -O, doc/formats.md section 3.12):
 * FRAMEWORK/mindspore.memory_usage, an allocation and release of its
 * memory pool per launch on one of seven addresses, every fifth launch's
 * allocation never released (on an address of its own), and three odd
 * addresses: one whose first record is a release (passed over), one
 * allocated twice before its release (the first allocation gives no row)
 * and one released twice (the second release pairs with the next
 * allocation). Each record is as MindSpore writes it: a 100-byte fixed
 * part and the owner's name (field 3 for 2.5, 13 for 2.6). The rows
 * operator_memory should have are written as ms_operator_memory.csv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_MSMEM_FREE	UINT64_MAX
#define GEN_MSMEM_DEV	0
#define GEN_MSMEM_STREAM 0x7f3a1c000000ULL

/* One record as written, and the pool totals after it. */
struct gen_msmem_ev {
	uint64_t	 at;		/* epoch ns */
	uint64_t	 addr;
	uint64_t	 size;		/* GEN_MSMEM_FREE: a release */
	uint64_t	 used;
	uint64_t	 alloc;
	char		 owner[48];
};

struct gen_msmem {
	struct gen_msmem_ev	*v;
	size_t			 n;
	struct strbuf		 rows;	/* expected, in allocation order */
};

/* Add record E. */
static void
gen_msmem_add(struct gen_msmem *m, uint64_t at, uint64_t addr, uint64_t size,
    uint64_t k, const char *owner)
{
	struct gen_msmem_ev	*e;

	m->v = util_grow(m->v, m->n, 1, sizeof *m->v);
	e = &m->v[m->n++];
	e->at = at;
	e->addr = addr;
	e->size = size;
	e->used = (k + 1) * 1048576 + 12345;
	e->alloc = e->used + 4096 * k;
	snprintf(e->owner, sizeof e->owner, "%s", owner);
}

/* The MB of BYTES, as Python prints bytes / 1048576. */
static void
gen_msmem_mb(struct strbuf *b, uint64_t bytes)
{
	char	 buf[40];

	util_fmt_pyfloat(buf, sizeof buf, (double)bytes / 1048576.0);
	strbuf_addf(b, ",%s", buf);
}

/*
 * NS / 1000 as Python divides two integers: the double nearest the exact
 * quotient, which strtod() gives of its exact decimal.
 */
static double
gen_msmem_div(int64_t ns)
{
	char		 buf[40];
	uint64_t	 u = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;

	snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "",
	    (unsigned long long)(u / 1000), (unsigned long long)(u % 1000));
	return strtod(buf, NULL);
}

/* NS / 1000 as Python prints it. */
static void
gen_msmem_us(struct strbuf *b, int64_t ns)
{
	char	 buf[40];

	util_fmt_pyfloat(buf, sizeof buf, gen_msmem_div(ns));
	strbuf_addf(b, ",%s", buf);
}

/* The expected row of allocation A released by R (NULL: never). */
static void
gen_msmem_row(struct gen_msmem *m, const struct gen_msmem_ev *a,
    const struct gen_msmem_ev *r, int64_t base)
{
	char	 buf[40];

	util_fmt_pyfloat(buf, sizeof buf, (double)a->size / 1024.0);
	strbuf_addf(&m->rows, "%s,%s", a->owner, buf);
	gen_msmem_us(&m->rows, (int64_t)a->at - base);
	if (r != NULL)
		gen_msmem_us(&m->rows, (int64_t)r->at - base);
	else
		strbuf_adds(&m->rows, ",N/A");
	strbuf_adds(&m->rows, ",N/A");
	if (r != NULL)
		gen_msmem_us(&m->rows, (int64_t)r->at - (int64_t)a->at);
	else
		strbuf_adds(&m->rows, ",N/A");
	strbuf_adds(&m->rows, ",N/A");
	gen_msmem_mb(&m->rows, a->alloc);
	gen_msmem_mb(&m->rows, a->used);
	gen_msmem_mb(&m->rows, a->alloc);
	if (r != NULL) {
		gen_msmem_mb(&m->rows, r->alloc);
		gen_msmem_mb(&m->rows, r->used);
		gen_msmem_mb(&m->rows, r->alloc);
	} else
		strbuf_adds(&m->rows, ",N/A,N/A,N/A");
	strbuf_addf(&m->rows, ",%llu,NPU:%d\n", (unsigned long long)
	    GEN_MSMEM_STREAM, GEN_MSMEM_DEV);
}

/* Write record E into B as MindSpore does, its owner in field KEY. */
static void
gen_msmem_write(struct gen_buf *b, const struct gen_msmem_ev *e, int key)
{
	struct gen_buf	 rec;
	uint8_t		 flags[4] = { 0, 0, 1, 0 };
	int32_t		 dev = GEN_MSMEM_DEV;

	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u32(&rec, (uint32_t)dev);
	gen_prof_bin_buf_u64(&rec, 4242);		/* thread */
	gen_prof_bin_buf_u64(&rec, 4240);		/* process */
	gen_prof_bin_buf_u64(&rec, e->at);
	gen_prof_bin_buf_u64(&rec, e->addr);
	gen_prof_bin_buf_u64(&rec, e->size);
	gen_prof_bin_buf_u64(&rec, e->used);
	gen_prof_bin_buf_u64(&rec, e->alloc + 65536);	/* peak */
	gen_prof_bin_buf_u64(&rec, e->alloc);
	gen_prof_bin_buf_u64(&rec, 0);			/* used by events */
	gen_prof_bin_buf_u64(&rec, 0);			/* eagerly freed */
	gen_prof_bin_buf_u64(&rec, GEN_MSMEM_STREAM);
	gen_prof_bin_buf_u32(&rec, 3);			/* stream id */
	gen_prof_bin_buf_add(&rec, flags, 4);
	/* A release has no owner: an empty one. */
	gen_prof_bin_tlv_field(&rec, key, e->owner);
	gen_prof_bin_tlv_record(b, key, &rec);
	free(rec.p);
}

/* An expected row: allocation A, release R (or none). */
struct gen_msmem_row {
	size_t		 a;
	ssize_t		 r;
	size_t		 seq;
};

static struct gen_msmem_row	*gen_msmem_rows;
static size_t			 gen_msmem_nrows;

/* Expect a row of record A released by record R (-1: never). */
static void
gen_msmem_expect(size_t a, ssize_t r)
{
	gen_msmem_rows = util_grow(gen_msmem_rows, gen_msmem_nrows, 1,
	    sizeof *gen_msmem_rows);
	gen_msmem_rows[gen_msmem_nrows].a = a;
	gen_msmem_rows[gen_msmem_nrows].r = r;
	gen_msmem_rows[gen_msmem_nrows].seq = gen_msmem_nrows;
	gen_msmem_nrows++;
}

/*
 * The odd addresses, from AT (epoch ns) on, as op K's: a release first
 * (no row), an allocation replaced by another before its release (a row
 * of the second), a release too many (it pairs with the next allocation,
 * a row that ends before it starts), and an address used three times
 * (two rows, the last allocation never released).
 */
static void
gen_msmem_odd(struct gen_msmem *m, uint64_t at, uint64_t base, uint64_t k)
{
	size_t	 n = m->n;

	gen_msmem_add(m, at + 1, base + 0x200000, GEN_MSMEM_FREE, k, "");
	gen_msmem_add(m, at + 2, base + 0x201000, 4096, k, "Twice/first");
	gen_msmem_add(m, at + 3, base + 0x201000, 8192, k, "Twice/second");
	gen_msmem_add(m, at + 900, base + 0x201000, GEN_MSMEM_FREE, k, "");
	gen_msmem_expect(n + 2, (ssize_t)n + 3);
	gen_msmem_add(m, at + 4, base + 0x202000, 2048, k, "Released/twice");
	gen_msmem_add(m, at + 5, base + 0x202000, GEN_MSMEM_FREE, k, "");
	gen_msmem_add(m, at + 6, base + 0x202000, GEN_MSMEM_FREE, k, "");
	gen_msmem_add(m, at + 1500, base + 0x202000, 1024, k,
	    "After/release");
	gen_msmem_expect(n + 4, (ssize_t)n + 5);
	gen_msmem_expect(n + 7, (ssize_t)n + 6);
	gen_msmem_add(m, at + 10, base + 0x203000, 100, k, "Reused/1");
	gen_msmem_add(m, at + 2000, base + 0x203000, GEN_MSMEM_FREE, k, "");
	gen_msmem_add(m, at + 3000, base + 0x203000, 200, k, "Reused/2");
	gen_msmem_add(m, at + 4000, base + 0x203000, GEN_MSMEM_FREE, k, "");
	gen_msmem_add(m, at + 5000, base + 0x203000, 300, k, "Reused/3");
	gen_msmem_expect(n + 8, (ssize_t)n + 9);
	gen_msmem_expect(n + 10, (ssize_t)n + 11);
	gen_msmem_expect(n + 12, -1);
}

/*
 * The records of the launches of G (their ACL spans' times), an address
 * of its own each, and their expected rows; LOCAL_OFF turns host mono ns
 * into epoch ns.
 */
static void
gen_msmem_make(struct gen_prof *g, struct gen_msmem *m, int64_t local_off)
{
	const struct gen_prof_op	*op;
	uint64_t			 a, r, base = 0x7f3b00000000ULL;
	size_t				 i, k = 0, n;
	char				 owner[48];

	for (i = 0; i < g->nops && k < 40; i++) {
		op = &g->ops[i];
		if (op->acl_e == 0)
			continue;
		/* Times with a fraction of a µs, as a pool's clock has. */
		a = (uint64_t)(op->acl_b + local_off) + 137 * k % 1000;
		r = (uint64_t)(op->acl_e + local_off) + 59 * k % 1000;
		snprintf(owner, sizeof owner, "Default/network/Op%zu", k);
		n = m->n;
		gen_msmem_add(m, a, base + k * 0x1000, 512 * (k + 1) + 3, k,
		    owner);
		/* Every fifth never released. */
		if (k % 5 != 4) {
			gen_msmem_add(m, r, base + k * 0x1000, GEN_MSMEM_FREE,
			    k, "");
			gen_msmem_expect(n, (ssize_t)n + 1);
		} else
			gen_msmem_expect(n, -1);
		if (k == 3)
			gen_msmem_odd(m, a, base, k);
		k++;
	}
}

/* Rows by allocation time as MindSpore sorts them: µs as a float. */
static const struct gen_msmem	*gen_msmem_sorting;

static int
gen_msmem_row_cmp(const void *x, const void *y)
{
	const struct gen_msmem_row	*a = x, *b = y;
	double				 p, q;

	p = gen_msmem_div((int64_t)gen_msmem_sorting->v[a->a].at);
	q = gen_msmem_div((int64_t)gen_msmem_sorting->v[b->a].at);
	if (p != q)
		return p < q ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Write FRAMEWORK/mindspore.memory_usage into DIR for the launches of G
 * (the owner's name in field KEY), and into EXPECT (if set) the rows
 * operator_memory should have, as ms_operator_memory.csv.
 */
int
gen_prof_msmem(struct gen_prof *g, const char *dir, const char *expect,
    int key, char **cause)
{
	struct gen_msmem	 m;
	struct gen_buf		 b;
	size_t			 i;
	int			 rc;

	memset(&m, 0, sizeof m);
	memset(&b, 0, sizeof b);
	strbuf_init(&m.rows);
	gen_msmem_rows = NULL;
	gen_msmem_nrows = 0;
	gen_msmem_make(g, &m, g->local_off);
	for (i = 0; i < m.n; i++)
		gen_msmem_write(&b, &m.v[i], key);
	rc = gen_prof_bin_write(dir, "mindspore.memory_usage",
	    (const char *)b.p, b.len, cause);
	gen_msmem_sorting = &m;
	qsort(gen_msmem_rows, gen_msmem_nrows, sizeof *gen_msmem_rows,
	    gen_msmem_row_cmp);
	strbuf_adds(&m.rows, "Name,Size(KB),Allocation Time(us),"
	    "Release Time(us),Active Release Time(us),Duration(us),"
	    "Active Duration(us),Allocation Total Allocated(MB),"
	    "Allocation Total Reserved(MB),Allocation Total Active(MB),"
	    "Release Total Allocated(MB),Release Total Reserved(MB),"
	    "Release Total Active(MB),Stream Ptr,Device Type\n");
	for (i = 0; i < gen_msmem_nrows; i++)
		gen_msmem_row(&m, &m.v[gen_msmem_rows[i].a],
		    gen_msmem_rows[i].r < 0 ? NULL :
		    &m.v[gen_msmem_rows[i].r], 0);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_operator_memory.csv",
		    m.rows.s, m.rows.len, cause);
	strbuf_release(&m.rows);
	free(gen_msmem_rows);
	free(m.v);
	free(b.p);
	return rc;
}
