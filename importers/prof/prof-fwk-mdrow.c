/*
 * The rows of minddata_pipeline_summary (prof-fwk-mdsum.c) as MindSpore
 * writes them: numbers as Python computes and prints them (an int -1 or
 * 0, a float rounded by round() and printed by repr()), cells gathered
 * per row, an op named as the summary names it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

void
prof_mdrow_fmt(struct strbuf *b, struct mdsum_num v)
{
	char	 buf[40];

	if (v.isf)
		util_fmt_pyfloat(buf, sizeof buf, v.d);
	else
		snprintf(buf, sizeof buf, "%.0f", v.d);
	strbuf_adds(b, buf);
}

/* Python's round(X, ND) of a float: correctly rounded, ties to even. */
struct mdsum_num
prof_mdrow_round(double x, int nd)
{
	struct mdsum_num	 r = { x, true };
	char			 buf[400];

	if (x == x && x - x == 0) {
		snprintf(buf, sizeof buf, "%.*f", nd, x);
		r.d = strtod(buf, NULL);
	}
	return r;
}

struct mdsum_num
prof_mdrow_int(double x)
{
	struct mdsum_num	 r = { x, false };

	return r;
}

/* A new row KEY, its values to come. */
struct mdsum_row *
prof_mdrow_row(struct mdsum *s, const char *key)
{
	struct mdsum_row	*r;

	s->rows = util_grow(s->rows, s->nrows, 1, sizeof *s->rows);
	r = &s->rows[s->nrows++];
	r->cells = util_grow(NULL, 0, 1, sizeof *r->cells);
	r->cells[0] = xstrdup(key);
	r->n = 1;
	return r;
}

/* Add B's text to R, B emptied. */
void
prof_mdrow_add(struct mdsum_row *r, struct strbuf *b)
{
	r->cells = util_grow(r->cells, r->n, 1, sizeof *r->cells);
	r->cells[r->n++] = strbuf_detach(b);
	strbuf_init(b);
}

/* Add the cell C (allocated) to R. */
void
prof_mdrow_put(struct mdsum_row *r, char *c)
{
	r->cells = util_grow(r->cells, r->n, 1, sizeof *r->cells);
	r->cells[r->n++] = c;
}

/* The row KEY of the numbers V[0..N) spaced by STRIDE bytes. */
void
prof_mdrow_nums(struct mdsum *s, const char *key, const void *v, size_t n,
    size_t stride)
{
	struct mdsum_row	*r = prof_mdrow_row(s, key);
	struct strbuf		 b;
	size_t			 i;

	strbuf_init(&b);
	for (i = 0; i < n; i++) {
		prof_mdrow_fmt(&b, *(const struct mdsum_num *)
		    ((const char *)v + i * stride));
		prof_mdrow_add(r, &b);
	}
	strbuf_release(&b);
}


/* The op at I as the summary names it: "Map(id=2)". */
void
prof_mdrow_op(struct strbuf *b, const struct mdsum_op *p)
{
	strbuf_adds(b, p->name);
	strbuf_adds(b, "(id=");
	prof_mspy_str(b, p->o->id);
	strbuf_addc(b, ')');
}
