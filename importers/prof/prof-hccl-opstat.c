/*
 * msprof's communication_statistic of one device (doc/formats.md section
 * 3.10, its statistic): per op type of the HCCL ops, how many, their
 * total, least, mean and most time and the share of the total, an op's
 * time running from its earliest master task's start to the latest end
 * of its master tasks. Worked out in the vendor's units and roundings:
 * ns, rounded as Python rounds to 6 decimals, then as SQL's round() to 3
 * decimals of us, printed with 3 decimals less trailing zeros.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define OPSTAT_CELL	64

/*
 * One op as the vendor tells ops apart: by name (with the group's suffix,
 * pooled), first launch and type; with the span of its master tasks.
 */
struct opstat_op {
	const char	*name;
	uint64_t	 first;		/* host raw time of its node */
	char		*type;
	int64_t		 start;
	int64_t		 end;
	bool		 has;
};

/* One op type's figures, in ns. */
struct opstat_type {
	char		*type;
	size_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	double		 total_us;	/* as printed, for the order */
};

static const char *const opstat_cols[] = { "Device_id", "OP Type", "Count",
	"Total Time(us)", "Min Time(us)", "Avg Time(us)", "Max Time(us)",
	"Ratio(%)" };
#define OPSTAT_NCOLS	(sizeof opstat_cols / sizeof *opstat_cols)

/* V as Python's round(V, 6) gives it: correctly rounded, half to even. */
static double
opstat_round6(double v)
{
	char	 buf[400];

	snprintf(buf, sizeof buf, "%.6f", v);
	return strtod(buf, NULL);
}

/* V in ns as the vendor prints it in us: SQL's round to 3, then %.3f. */
static void
opstat_cell(char *buf, size_t size, double v)
{
	size_t	 n;

	snprintf(buf, size, "%.3f", store_sql_round(v, 3));
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
}

static int
opstat_op_cmp(const void *a, const void *b)
{
	const struct opstat_op	*x = a, *y = b;
	int			 c;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if ((c = strcmp(x->type, y->type)) != 0)
		return c;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int
opstat_type_cmp(const void *a, const void *b)
{
	const struct opstat_type	*x = a, *y = b;

	if (x->total_us != y->total_us)
		return x->total_us > y->total_us ? -1 : 1;
	return strcmp(x->type, y->type);
}

/* The op type of op HOP of H, "N/A" if none or unnamed, into BUF. */
static const char *
opstat_op_type(const struct prof_host *h, uint32_t hop, char *buf,
    size_t size)
{
	uint64_t	 t = h->hops[hop].op_type;
	const char	*s;

	if (t == 0)
		return "N/A";
	s = prof_dict_hash(&h->dicts, t, buf, size);
	return s == buf ? "N/A" : s;
}

/* Group the NOPS ops OPS with master tasks by op type into *TYPES. */
static size_t
opstat_types(const struct opstat_op *ops, size_t nops,
    struct opstat_type **types)
{
	struct opstat_type	*v = NULL, *t;
	size_t			 n = 0, i, k;
	int64_t			 d;

	for (i = 0; i < nops; i++) {
		if (!ops[i].has)
			continue;
		d = ops[i].end - ops[i].start;
		for (k = 0; k < n && strcmp(v[k].type, ops[i].type) != 0; k++)
			;
		if (k == n) {
			v = util_grow(v, n, 1, sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			v[n].type = xstrdup(ops[i].type);
			v[n].min = v[n].max = d;
			n++;
		}
		t = &v[k];
		t->count++;
		t->total += d;
		t->min = d < t->min ? d : t->min;
		t->max = d > t->max ? d : t->max;
	}
	*types = v;
	return n;
}

/*
 * Write the communication_statistic rows of device DM (rank RANK) from
 * the N HCCL events EV of host H. The vendor counts only master tasks
 * that start with the collection or later, and writes nothing when no
 * op has a type, or at profiler level 0.
 */
void
prof_hccl_opstat_write(struct store *s, const struct prof_host *h,
    const struct prof_hevent *ev, size_t n, const struct prof_meta *dm,
    int64_t rank)
{
	struct opstat_op	*ops, *o;
	struct opstat_type	*types = NULL;
	char			 cells[OPSTAT_NCOLS][OPSTAT_CELL], buf[32];
	char			*row[OPSTAT_NCOLS], *cause = NULL;
	const char		*type;
	int64_t			 begin = prof_meta_begin_ns(dm), sum = 0;
	size_t			 nops = 0, ntypes = 0, i, k;
	bool			 typed = false, begun = false;

	if (n == 0 || (dm->prof_level != NULL &&
	    (strcmp(dm->prof_level, "l0") == 0 ||
	    strcmp(dm->prof_level, "level0") == 0)))
		return;
	/* Each event as an op of its own, then those of one op merged. */
	ops = xreallocarray(NULL, n, sizeof *ops);
	for (i = 0; i < n; i++) {
		type = opstat_op_type(h, ev[i].hop, buf, sizeof buf);
		typed = typed || strcmp(type, "N/A") != 0;
		o = &ops[i];
		o->name = ev[i].op;
		o->first = h->hops[ev[i].hop].begin;
		o->type = xstrdup(type);
		o->has = ev[i].d->master && ev[i].d->start_ns >= begin;
		o->start = ev[i].d->start_ns;
		o->end = ev[i].d->start_ns + ev[i].d->dur_ns;
	}
	qsort(ops, n, sizeof *ops, opstat_op_cmp);
	for (i = 0; i < n; i = k) {
		o = &ops[i];
		for (k = i + 1; k < n && ops[k].name == o->name &&
		    ops[k].first == o->first &&
		    strcmp(ops[k].type, o->type) == 0; k++) {
			/* Those with master tasks sort first. */
			if (ops[k].has) {
				o->start = ops[k].start < o->start ?
				    ops[k].start : o->start;
				o->end = ops[k].end > o->end ? ops[k].end :
				    o->end;
			}
			free(ops[k].type);
		}
		ops[nops++] = *o;
	}
	if (typed)
		ntypes = opstat_types(ops, nops, &types);
	for (i = 0; i < ntypes; i++) {
		sum += types[i].total;
		types[i].total_us = store_sql_round((double)types[i].total /
		    1000.0, 3);
	}
	if (ntypes > 1)
		qsort(types, ntypes, sizeof *types, opstat_type_cmp);
	if (ntypes > 0) {
		begun = store_load_generic_begin(s, "communication_statistic",
		    dm->device, rank, (char **)opstat_cols, OPSTAT_NCOLS,
		    &cause) == 0;
		if (!begun) {
			store_load_warning(s, dm->dir, -1, "%s", cause);
			free(cause);
		}
	}
	for (i = 0; i < OPSTAT_NCOLS; i++)
		row[i] = cells[i];
	for (i = 0; begun && i < ntypes; i++) {
		snprintf(cells[0], OPSTAT_CELL, "%lld", (long long)dm->device);
		snprintf(cells[1], OPSTAT_CELL, "%s", types[i].type);
		snprintf(cells[2], OPSTAT_CELL, "%zu", types[i].count);
		opstat_cell(cells[3], OPSTAT_CELL, (double)types[i].total /
		    1000.0);
		opstat_cell(cells[4], OPSTAT_CELL, (double)types[i].min /
		    1000.0);
		opstat_cell(cells[5], OPSTAT_CELL, opstat_round6(
		    (double)types[i].total / (double)types[i].count) / 1000.0);
		opstat_cell(cells[6], OPSTAT_CELL, (double)types[i].max /
		    1000.0);
		opstat_cell(cells[7], OPSTAT_CELL, sum == 0 ? 0.0 :
		    opstat_round6((double)types[i].total / (double)sum *
		    100.0));
		store_load_generic_row(s, row, OPSTAT_NCOLS);
	}
	for (i = 0; i < nops; i++)
		free(ops[i].type);
	free(ops);
	for (i = 0; i < ntypes; i++)
		free(types[i].type);
	free(types);
}
