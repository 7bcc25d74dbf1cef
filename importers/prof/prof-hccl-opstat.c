/*
 * msprof's communication_statistic (doc/formats.md section 3.10, its
 * statistic): per device and op type of the HCCL ops, how many, their
 * total, least, mean and most time and the share of the device's total,
 * an op's time running from its earliest master task's start to the
 * latest end of its master tasks. Worked out in the vendor's units and
 * roundings: ns, rounded as Python rounds to 6 decimals, then as SQL's
 * round() to 3 decimals of us, printed with 3 decimals less trailing
 * zeros; in the vendor's order: each device's types by most time, then
 * all devices' rows by total time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define OPSTAT_CELL	64

/*
 * One op as the vendor tells ops apart: by name (with the group's suffix,
 * pooled), first launch and type; with the span of its master tasks and
 * the place of the first of them among the device's tasks.
 */
struct opstat_op {
	const char	*name;
	uint64_t	 first;		/* host raw time of its node */
	const char	*type;		/* the dictionary's, or "N/A" */
	int64_t		 start;
	int64_t		 end;
	size_t		 seq;
	bool		 has;
};

/* One device's op type: its figures in ns, and its row's place. */
struct prof_opstat {
	int64_t		 device;
	int64_t		 rank;
	char		*type;
	size_t		 count;
	int64_t		 total;
	int64_t		 min;
	int64_t		 max;
	double		 ratio;		/* % of the device's, rounded to 6 */
	double		 total_us;	/* as printed, for the order */
	size_t		 seq;
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
	if (x->type != y->type && (c = strcmp(x->type, y->type)) != 0)
		return c;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Ops in the order of their first master task. */
static int
opstat_seq_cmp(const void *a, const void *b)
{
	const struct opstat_op	*x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A device's types as the vendor sorts them: by most time (stable). */
static int
opstat_max_cmp(const void *a, const void *b)
{
	const struct prof_opstat	*x = a, *y = b;

	if (x->max != y->max)
		return x->max > y->max ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* All rows as the vendor's export sorts them: by total time. */
static int
opstat_total_cmp(const void *a, const void *b)
{
	const struct prof_opstat	*x = a, *y = b;

	if (x->total_us != y->total_us)
		return x->total_us > y->total_us ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Add the types of the NOPS ops OPS with master tasks, in the order their
 * first ops come, to H's rows of device DEVICE (rank RANK).
 */
static void
opstat_types(struct prof_host *h, struct opstat_op *ops, size_t nops,
    int64_t device, int64_t rank)
{
	struct prof_opstat	*t;
	size_t			 from = h->nopstats, i, k;
	int64_t			 d, sum = 0;

	qsort(ops, nops, sizeof *ops, opstat_seq_cmp);
	for (i = 0; i < nops; i++) {
		if (!ops[i].has)
			continue;
		d = ops[i].end - ops[i].start;
		for (k = from; k < h->nopstats &&
		    strcmp(h->opstats[k].type, ops[i].type) != 0; k++)
			;
		if (k == h->nopstats) {
			h->opstats = util_grow(h->opstats, h->nopstats, 1,
			    sizeof *h->opstats);
			t = &h->opstats[h->nopstats++];
			memset(t, 0, sizeof *t);
			t->device = device;
			t->rank = rank;
			t->type = xstrdup(ops[i].type);
			t->min = t->max = d;
			t->seq = k - from;
		}
		t = &h->opstats[k];
		t->count++;
		t->total += d;
		t->min = d < t->min ? d : t->min;
		t->max = d > t->max ? d : t->max;
		sum += d;
	}
	for (k = from; k < h->nopstats; k++) {
		t = &h->opstats[k];
		t->ratio = sum == 0 ? 0.0 : opstat_round6((double)t->total /
		    (double)sum * 100.0);
		t->total_us = store_sql_round((double)t->total / 1000.0, 3);
	}
	if (h->nopstats - from > 1)
		qsort(h->opstats + from, h->nopstats - from,
		    sizeof *h->opstats, opstat_max_cmp);
	/* Devices one after another, each in that order. */
	for (k = from; k < h->nopstats; k++)
		h->opstats[k].seq = k;
}

/*
 * Add the communication_statistic rows of device DM (rank RANK) from the
 * N HCCL events EV of host H, to be written by prof_hccl_opstat_write().
 * The vendor counts only master tasks that start with the collection or
 * later, and has no rows for a device whose ops have no type at all, or
 * at profiler level 0.
 */
void
prof_hccl_opstat_add(struct prof_host *h, const struct prof_hevent *ev,
    size_t n, const struct prof_meta *dm, int64_t rank)
{
	struct opstat_op	*ops, *o;
	const char		*type;
	int64_t			 begin = prof_meta_begin_ns(dm);
	size_t			 nops = 0, i, k;
	bool			 typed = false;

	if (n == 0 || (dm->prof_level != NULL &&
	    (strcmp(dm->prof_level, "l0") == 0 ||
	    strcmp(dm->prof_level, "level0") == 0)))
		return;
	/* Each event as an op of its own, then those of one op merged. */
	ops = xreallocarray(NULL, n, sizeof *ops);
	for (i = 0; i < n; i++) {
		type = prof_hccl_op_type(h, ev[i].hop);
		typed = typed || strcmp(type, "N/A") != 0;
		o = &ops[i];
		o->name = ev[i].op;
		o->first = h->hops[ev[i].hop].begin;
		o->type = type;
		o->has = ev[i].d->master && ev[i].d->start_ns >= begin;
		o->start = ev[i].d->start_ns;
		o->end = ev[i].d->start_ns + ev[i].d->dur_ns;
		o->seq = i;
	}
	qsort(ops, n, sizeof *ops, opstat_op_cmp);
	for (i = 0; i < n; i = k) {
		o = &ops[i];
		for (k = i + 1; k < n && ops[k].name == o->name &&
		    ops[k].first == o->first &&
		    (ops[k].type == o->type ||
		    strcmp(ops[k].type, o->type) == 0); k++) {
			/* Those with master tasks sort first, by place. */
			if (ops[k].has) {
				o->start = ops[k].start < o->start ?
				    ops[k].start : o->start;
				o->end = ops[k].end > o->end ? ops[k].end :
				    o->end;
			}
		}
		ops[nops++] = *o;
	}
	if (typed)
		opstat_types(h, ops, nops, dm->device, rank);
	free(ops);
}

/*
 * Write H's communication_statistic rows (collection DIR) in the vendor's
 * order, and free them. If the table cannot be begun, a warning says why.
 */
void
prof_hccl_opstat_write(struct store *s, struct prof_host *h,
    const char *dir)
{
	struct prof_opstat	*t;
	char			 cells[OPSTAT_NCOLS][OPSTAT_CELL];
	char			*row[OPSTAT_NCOLS], *cause = NULL;
	size_t			 i;

	if (h->nopstats > 1)
		qsort(h->opstats, h->nopstats, sizeof *h->opstats,
		    opstat_total_cmp);
	if (h->nopstats > 0 && store_load_generic_begin(s,
	    "communication_statistic", h->opstats[0].device,
	    h->opstats[0].rank, (char **)opstat_cols, OPSTAT_NCOLS,
	    &cause) != 0) {
		store_load_warning(s, dir, -1, "%s", cause);
		free(cause);
		prof_hccl_opstat_free(h);
		return;
	}
	for (i = 0; i < OPSTAT_NCOLS; i++)
		row[i] = cells[i];
	for (i = 0; i < h->nopstats; i++) {
		t = &h->opstats[i];
		store_load_generic_device(s, t->device, t->rank);
		snprintf(cells[0], OPSTAT_CELL, "%lld", (long long)t->device);
		row[1] = t->type;
		snprintf(cells[2], OPSTAT_CELL, "%zu", t->count);
		opstat_cell(cells[3], OPSTAT_CELL, (double)t->total / 1000.0);
		opstat_cell(cells[4], OPSTAT_CELL, (double)t->min / 1000.0);
		opstat_cell(cells[5], OPSTAT_CELL, opstat_round6(
		    (double)t->total / (double)t->count) / 1000.0);
		opstat_cell(cells[6], OPSTAT_CELL, (double)t->max / 1000.0);
		opstat_cell(cells[7], OPSTAT_CELL, t->ratio);
		store_load_generic_row(s, row, OPSTAT_NCOLS);
	}
	prof_hccl_opstat_free(h);
}

void
prof_hccl_opstat_free(struct prof_host *h)
{
	size_t	 i;

	for (i = 0; i < h->nopstats; i++)
		free(h->opstats[i].type);
	free(h->opstats);
	h->opstats = NULL;
	h->nopstats = 0;
}
