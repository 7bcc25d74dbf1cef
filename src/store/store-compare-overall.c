/*
 * The overall table of two runs, as msprof-analyze compare's
 * OverallMetrics sheet: a row per part of each run's time (store-overall.c
 * splits it), in milliseconds, as a ratio of the run's end-to-end time,
 * with a count of kernels where the part has one, then the difference
 * and ratio of NEW to BASE. Parts are nested by indentation, two spaces
 * a level; a part that is 0 in both runs is left out. Communication
 * groups are paired by their name in the metadata where each run has one
 * group of that name, else by the group's own name.
 */
#include <sys/types.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define NA_NUM	(-1)		/* a part without a count ("/") */

/* A part of one run's time: its label, ms, share of the run and count. */
struct ov_part {
	char		*label;
	double		 ms;
	double		 ratio;
	int64_t		 n;
	bool		 used;		/* paired with the other run's */
};

/* A run's parts in the table's sections. */
struct ov_side {
	struct ov_part	*v;
	size_t		 n;
	double		 e2e;		/* ms */
};

/* Section marks: where each section's parts start in ov_side. */
enum { SEC_COMPUTING, SEC_MC2, SEC_KINDS, SEC_GROUPS, SEC_OVERLAP,
	SEC_AFTER, SEC_N };

static void
store_compare_overall_put(struct ov_side *sd, const char *label, double ms,
    int64_t n)
{
	struct ov_part	*p;

	sd->v = util_grow(sd->v, sd->n, 1, sizeof *sd->v);
	p = &sd->v[sd->n++];
	p->label = xstrdup(label);
	p->ms = ms;
	p->ratio = ms / (sd->e2e == 0 ? INFINITY : sd->e2e);
	p->n = n;
	p->used = false;
}

static void
store_compare_overall_side_free(struct ov_side *sd)
{
	size_t	 i;

	for (i = 0; i < sd->n; i++)
		free(sd->v[i].label);
	free(sd->v);
}

/* PART's time in ms, as the tool converts it. */
static double
store_compare_overall_ms(const struct store_overall_part *p)
{
	return p->us / 1000.0;
}

/*
 * The group's label: "  PG: NAME", or "  NAME" where the metadata has no
 * name for it.
 */
static char *
store_compare_overall_group_label(const struct store_overall_group *g)
{
	char	*l;

	if (g->pg != NULL)
		xasprintf(&l, "  %s: %s", g->pg, g->name);
	else
		xasprintf(&l, "  %s", g->name);
	return l;
}

/* The name of a group in the overlap rows: its metadata name, or own. */
static const char *
store_compare_overall_gname(const struct store_overall *ov, const char *g)
{
	size_t	 i;

	for (i = 0; i < ov->ngroups; i++) {
		if (strcmp(ov->groups[i].name, g) == 0 &&
		    ov->groups[i].pg != NULL)
			return ov->groups[i].pg;
	}
	return g;
}

/*
 * The parts of OV in *SD, AT[k] where section k starts. The groups'
 * parts come three a group: communication, wait, transmit.
 */
static void
store_compare_overall_side(const struct store_overall *ov,
    struct ov_side *sd, size_t *at)
{
	static const char *const kinds[] = {
	    "  Flash Attention (Forward)",
	    "    Flash Attention (Forward) (Cube)",
	    "    Flash Attention (Forward) (Vector)",
	    "  Flash Attention (Backward)",
	    "    Flash Attention (Backward) (Cube)",
	    "    Flash Attention (Backward) (Vector)",
	    "  Conv (Forward)", "    Conv (Forward) (Cube)",
	    "    Conv (Forward) (Vector)", "  Conv (Backward)",
	    "    Conv (Backward) (Cube)", "    Conv (Backward) (Vector)" };
	const struct store_overall_part	*p;
	double				 ms, a, b, mc2 = 0, other, free_ms;
	double				 comm, wait, tr;
	int64_t				 n = 0;
	size_t				 i, d;
	char				*l;

	memset(sd, 0, sizeof *sd);
	sd->e2e = ov->e2e / 1e6 * 1000;
	for (d = 0; d < 2; d++) {
		for (i = 0; i < 2; i++)
			n += ov->fa[d][i].n + ov->conv[d][i].n;
	}
	n += ov->mm[0].n + ov->mm[1].n + ov->vec[0].n + ov->vec[1].n +
	    ov->sdma_tm.n + ov->cube.n + ov->pa.n;
	at[SEC_COMPUTING] = sd->n;
	store_compare_overall_put(sd, "Computing Time", ov->compute / 1e6 *
	    1000, n);
	at[SEC_MC2] = sd->n;
	for (i = 0; i < ov->nmc2; i++) {
		xasprintf(&l, "  %s", ov->mc2[i].name);
		store_compare_overall_put(sd, l, ov->mc2[i].us / 1000.0,
		    ov->mc2[i].n);
		free(l);
		store_compare_overall_put(sd, "    Computing",
		    ov->mc2[i].compute / 1000.0, NA_NUM);
		store_compare_overall_put(sd, "    Communication",
		    ov->mc2[i].comm / 1000.0, NA_NUM);
		mc2 += ov->mc2[i].us / 1000.0;
	}
	at[SEC_KINDS] = sd->n;
	for (i = 0; i < 12; i++) {
		p = i < 6 ? ov->fa[i / 3] : ov->conv[(i - 6) / 3];
		a = store_compare_overall_ms(&p[0]);
		b = store_compare_overall_ms(&p[1]);
		ms = i % 3 == 0 ? a + b : i % 3 == 1 ? a : b;
		n = i % 3 == 0 ? p[0].n + p[1].n : p[i % 3 - 1].n;
		store_compare_overall_put(sd, kinds[i], ms, n);
	}
	a = store_compare_overall_ms(&ov->mm[0]);
	b = store_compare_overall_ms(&ov->mm[1]);
	store_compare_overall_put(sd, "  Matmul", 0 + a + b, ov->mm[0].n +
	    ov->mm[1].n);
	store_compare_overall_put(sd, "    Matmul (Cube)", a, ov->mm[0].n);
	store_compare_overall_put(sd, "    Matmul (Vector)", b, ov->mm[1].n);
	store_compare_overall_put(sd, "  Page Attention",
	    store_compare_overall_ms(&ov->pa), ov->pa.n);
	a = store_compare_overall_ms(&ov->vec[0]);
	b = store_compare_overall_ms(&ov->vec[1]);
	store_compare_overall_put(sd, "  Vector", 0 + a + b, ov->vec[0].n +
	    ov->vec[1].n);
	store_compare_overall_put(sd, "    Vector (Trans)", a, ov->vec[0].n);
	store_compare_overall_put(sd, "    Vector (No Trans)", b,
	    ov->vec[1].n);
	store_compare_overall_put(sd, "  Cube",
	    store_compare_overall_ms(&ov->cube), ov->cube.n);
	store_compare_overall_put(sd, "  SDMA (Tensor Move)",
	    store_compare_overall_ms(&ov->sdma_tm), ov->sdma_tm.n);
	/* Other: computing less every part, in the tool's order. */
	other = ov->compute / 1e6 * 1000;
	for (i = 0; i < 4; i++) {
		p = i < 2 ? ov->fa[i] : ov->conv[i - 2];
		other -= store_compare_overall_ms(&p[0]) +
		    store_compare_overall_ms(&p[1]);
	}
	other -= 0 + store_compare_overall_ms(&ov->mm[0]) +
	    store_compare_overall_ms(&ov->mm[1]);
	other -= 0 + store_compare_overall_ms(&ov->vec[0]) +
	    store_compare_overall_ms(&ov->vec[1]);
	other -= store_compare_overall_ms(&ov->sdma_tm);
	other -= store_compare_overall_ms(&ov->cube);
	other -= store_compare_overall_ms(&ov->pa);
	other -= mc2;
	store_compare_overall_put(sd, "  Other", other > 0 ? other : 0,
	    NA_NUM);
	store_compare_overall_put(sd, "Uncovered Communication Time",
	    ov->not_overlapped / 1e6 * 1000, NA_NUM);
	at[SEC_GROUPS] = sd->n;
	for (i = 0; i < ov->ngroups; i++) {
		wait = ov->groups[i].wait;
		tr = ov->groups[i].transmit;
		comm = (wait + tr) / 1000.0;
		l = store_compare_overall_group_label(&ov->groups[i]);
		store_compare_overall_put(sd, l, comm, NA_NUM);
		free(l);
		store_compare_overall_put(sd, "    Wait", wait / 1000.0, NA_NUM);
		store_compare_overall_put(sd, "    Transmit", tr / 1000.0,
		    NA_NUM);
	}
	at[SEC_OVERLAP] = sd->n;
	if (ov->npairs > 0) {
		for (i = 0, ms = 0; i < ov->npairs; i++)
			ms += ov->pairs[i].ms;
		store_compare_overall_put(sd,
		    "  Uncovered Communication Overlapped", ms, NA_NUM);
	}
	for (i = 0; i < ov->npairs; i++) {
		xasprintf(&l, "    %s & %s", store_compare_overall_gname(ov,
		    ov->pairs[i].a), store_compare_overall_gname(ov,
		    ov->pairs[i].b));
		store_compare_overall_put(sd, l, ov->pairs[i].ms, NA_NUM);
		free(l);
	}
	at[SEC_AFTER] = sd->n;
	free_ms = (ov->e2e - ov->compute - ov->lccl - ov->not_overlapped) /
	    1e6 * 1000;
	ms = store_compare_overall_ms(&ov->sdma);
	store_compare_overall_put(sd, "Free Time", free_ms, NA_NUM);
	store_compare_overall_put(sd, "  SDMA", ms, NA_NUM);
	store_compare_overall_put(sd, "  Free", free_ms - ms, NA_NUM);
	store_compare_overall_put(sd, "E2E Time", sd->e2e, NA_NUM);
	sd->v[sd->n - 1].ratio = 1;
}

/* Cell I: V to six decimals, without an exponent ("0.000087", "30.0"). */
static void
store_compare_overall_num(char **cells, struct store_val *vals, size_t i,
    double v)
{
	char	 buf[64];
	size_t	 n;

	v = store_compare_round(v, 6) + 0.0;
	snprintf(buf, sizeof buf, "%.6f", v);
	n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	cells[i] = xstrdup(buf);
	vals[i].kind = VAL_REAL;
	vals[i].d = v;
}

/*
 * Call FN with each part of OV that is not 0 (its label, indented, ms,
 * share of end to end and count, -1 for none), in the table's order.
 */
void
store_overall_parts(const struct store_overall *ov,
    void (*fn)(void *, const char *, double, double, int64_t), void *arg)
{
	struct ov_side	 sd;
	size_t		 at[SEC_N], i;

	store_compare_overall_side(ov, &sd, at);
	for (i = 0; i < sd.n; i++) {
		if (sd.v[i].ms != 0)
			fn(arg, sd.v[i].label, sd.v[i].ms, sd.v[i].ratio,
			    sd.v[i].n);
	}
	store_compare_overall_side_free(&sd);
}

/* Cells AT.. of one run's part P (NULL: the run has none). */
static void
store_compare_overall_cells(char **cells, struct store_val *vals,
    size_t at, const struct ov_part *p)
{
	store_compare_overall_num(cells, vals, at, p != NULL ? p->ms : 0);
	store_compare_overall_num(cells, vals, at + 1, p != NULL ? p->ratio :
	    0);
	if (p != NULL && p->n != NA_NUM) {
		xasprintf(&cells[at + 2], "%lld", (long long)p->n);
		vals[at + 2].kind = VAL_INT;
		vals[at + 2].i = p->n;
	} else {
		cells[at + 2] = xstrdup("/");
		vals[at + 2].kind = VAL_NONE;
	}
}

/* The row of LABEL with parts B and C (either NULL), unless both are 0. */
static void
store_compare_overall_row(struct store_rows *r, const char *label,
    const struct ov_part *b, const struct ov_part *c)
{
	char			*cells[9];
	struct store_val	 vals[9];
	double			 x = b != NULL ? b->ms : 0;
	double			 y = c != NULL ? c->ms : 0;

	if (x == 0 && y == 0)
		return;
	memset(vals, 0, sizeof vals);
	cells[0] = xstrdup(label);
	store_compare_overall_cells(cells, vals, 1, b);
	store_compare_overall_cells(cells, vals, 4, c);
	store_compare_num(cells, vals, 7, store_compare_round(y - x, 2) +
	    0.0);
	store_compare_num(cells, vals, 8, store_compare_ratio(x, y));
	store_rows_add(r, cells, vals);
}

/* The part of SD in [FROM, TO) labelled LABEL and not used yet, or NULL. */
static struct ov_part *
store_compare_overall_find(struct ov_side *sd, size_t from, size_t to,
    const char *label)
{
	size_t	 i;

	for (i = from; i < to; i++) {
		if (!sd->v[i].used && strcmp(sd->v[i].label, label) == 0)
			return &sd->v[i];
	}
	return NULL;
}

/*
 * Rows of the parts of B in [BF, BT) paired by label with those of C in
 * [CF, CT), then C's unpaired ones; STRIDE parts go together (an MC2
 * kernel's three), paired by the first's label.
 */
static void
store_compare_overall_merge(struct store_rows *r, struct ov_side *b,
    size_t bf, size_t bt, struct ov_side *c, size_t cf, size_t ct,
    size_t stride)
{
	struct ov_part	*p;
	size_t		 i, k;

	for (i = bf; i < bt; i += stride) {
		p = store_compare_overall_find(c, cf, ct, b->v[i].label);
		for (k = 0; k < stride; k++) {
			if (p != NULL)
				p[k].used = true;
			store_compare_overall_row(r, b->v[i + k].label,
			    &b->v[i + k], p != NULL ? &p[k] : NULL);
		}
	}
	for (i = cf; i < ct; i += stride) {
		if (c->v[i].used)
			continue;
		for (k = 0; k < stride; k++)
			store_compare_overall_row(r, c->v[i + k].label, NULL,
			    &c->v[i + k]);
	}
}

/* How many groups of OV the metadata names PG. */
static size_t
store_compare_overall_npg(const struct store_overall *ov, const char *pg)
{
	size_t	 i, n = 0;

	for (i = 0; i < ov->ngroups; i++)
		n += ov->groups[i].pg != NULL && strcmp(ov->groups[i].pg,
		    pg) == 0;
	return n;
}

/*
 * The groups' rows: first those whose metadata name is one group's in
 * both runs ("  PG: Communication"), then the others of BASE paired by
 * the group's own name, then NEW's left.
 */
static void
store_compare_overall_groups(struct store_rows *r,
    const struct store_overall *bo, struct ov_side *b, size_t bf,
    const struct store_overall *co, struct ov_side *c, size_t cf)
{
	struct ov_part	*x, *y;
	char		*l;
	size_t		 i, j, k;

	for (i = 0; i < bo->ngroups; i++) {
		if (bo->groups[i].pg == NULL ||
		    store_compare_overall_npg(bo, bo->groups[i].pg) != 1 ||
		    store_compare_overall_npg(co, bo->groups[i].pg) != 1)
			continue;
		for (j = 0; j < co->ngroups; j++) {
			if (co->groups[j].pg != NULL && strcmp(
			    co->groups[j].pg, bo->groups[i].pg) == 0)
				break;
		}
		x = &b->v[bf + 3 * i];
		y = &c->v[cf + 3 * j];
		xasprintf(&l, "  %s: Communication", bo->groups[i].pg);
		for (k = 0; k < 3; k++) {
			x[k].used = y[k].used = true;
			store_compare_overall_row(r, k == 0 ? l : x[k].label,
			    &x[k], &y[k]);
		}
		free(l);
	}
	for (i = 0; i < bo->ngroups; i++) {
		x = &b->v[bf + 3 * i];
		if (x->used)
			continue;
		for (j = 0; j < co->ngroups; j++) {
			if (!c->v[cf + 3 * j].used && strcmp(
			    co->groups[j].name, bo->groups[i].name) == 0)
				break;
		}
		y = j < co->ngroups ? &c->v[cf + 3 * j] : NULL;
		for (k = 0; k < 3; k++) {
			if (y != NULL)
				y[k].used = true;
			store_compare_overall_row(r, x[k].label, &x[k],
			    y != NULL ? &y[k] : NULL);
		}
	}
	for (j = 0; j < co->ngroups; j++) {
		y = &c->v[cf + 3 * j];
		if (y->used)
			continue;
		for (k = 0; k < 3; k++)
			store_compare_overall_row(r, y[k].label, NULL, &y[k]);
	}
}

/*
 * overall of BASE and NEW (their ranks as O says). NULL with *cause set
 * on failure; no rows when a run's end-to-end time is 0, as the tool.
 */
struct store_rows *
store_compare_overall(struct store *base, struct store *new,
    const struct store_compare *o, char **cause)
{
	static const char *const names[] = { "Index", "Base Duration(ms)",
	    "Base Duration Ratio", "Base Number", "Comparison Duration(ms)",
	    "Comparison Duration Ratio", "Comparison Number",
	    "Diff Duration(ms)", "Diff Ratio" };
	struct store_overall	*bo, *co;
	struct store_rows	*r;
	struct ov_side		 b, c;
	size_t			 ba[SEC_N], ca[SEC_N];

	if ((bo = store_overall_of(base, o->base_rank, o->base_step, cause)) == NULL)
		return NULL;
	if ((co = store_overall_of(new, o->rank, o->step, cause)) == NULL) {
		store_overall_free(bo);
		return NULL;
	}
	r = store_compare_rows(names, 9, "TRRTRRTRR");
	if (bo->e2e == 0 || co->e2e == 0) {
		store_overall_free(bo);
		store_overall_free(co);
		return r;
	}
	store_compare_overall_side(bo, &b, ba);
	store_compare_overall_side(co, &c, ca);
	store_compare_overall_merge(r, &b, ba[SEC_COMPUTING], ba[SEC_MC2], &c,
	    ca[SEC_COMPUTING], ca[SEC_MC2], 1);
	store_compare_overall_merge(r, &b, ba[SEC_MC2], ba[SEC_KINDS], &c,
	    ca[SEC_MC2], ca[SEC_KINDS], 3);
	store_compare_overall_merge(r, &b, ba[SEC_KINDS], ba[SEC_GROUPS], &c,
	    ca[SEC_KINDS], ca[SEC_GROUPS], 1);
	store_compare_overall_groups(r, bo, &b, ba[SEC_GROUPS], co, &c,
	    ca[SEC_GROUPS]);
	store_compare_overall_merge(r, &b, ba[SEC_OVERLAP], ba[SEC_AFTER], &c,
	    ca[SEC_OVERLAP], ca[SEC_AFTER], 1);
	store_compare_overall_merge(r, &b, ba[SEC_AFTER], b.n, &c,
	    ca[SEC_AFTER], c.n, 1);
	store_compare_overall_side_free(&b);
	store_compare_overall_side_free(&c);
	store_overall_free(bo);
	store_overall_free(co);
	return r;
}
