/*
 * The step trace of legacy timeline/ files (doc/formats.md 7.4). CANN 6.x
 * writes the step trace events of an iteration (Iteration Time, FP_BP
 * Time, Iteration Refresh, Reduce, the Data_aug Bound flow) into the
 * msprof_* file of that iteration and again into every step_trace_* file
 * of the model, which repeats all iterations. The first file that holds an
 * iteration owns it: its events load, the repeats in other files are
 * dropped. The events of an iteration also give one step_trace row; its
 * points are host monotonic microseconds, made epoch like every other
 * time of the file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

struct tracedir_iter {
	int64_t		 device;
	int64_t		 model;
	int64_t		 iter;
	size_t		 file;		/* the file that owns it */
	bool		 skip;		/* the store has this device's steps */
	struct store_step st;
};

struct tracedir_steps {
	struct store		*s;
	int64_t			 rank;
	int64_t			 offset;
	int64_t			 below;
	struct tracedir_iter	*v;
	size_t			 n;
};

/*
 * Gather the step trace of the files loaded for unit CTX. Times below
 * BELOW get OFFSET added, as in trace_event_legacy().
 */
struct tracedir_steps *
tracedir_step_create(struct store *s, int64_t rank, int64_t offset,
    int64_t below)
{
	struct tracedir_steps	*t;

	t = xcalloc(1, sizeof *t);
	t->s = s;
	t->rank = rank;
	t->offset = offset;
	t->below = below;
	return t;
}

/* The iteration EV belongs to, or NP_NA if it is no step trace event. */
static int64_t
tracedir_step_iter(const struct trace_event *ev)
{
	const char	*v, *p;
	int64_t		 n;

	if ((v = trace_parse_arg(ev, "Iteration ID")) != NULL &&
	    util_parse_int(v, strlen(v), &n) == 0)
		return n;
	/* The flow's second half names its iteration only in its name. */
	if (ev->cat.len == 0 || strcmp(ev->cat.s, "Data_aug Bound") != 0 ||
	    (p = strrchr(ev->name.s, ' ')) == NULL ||
	    util_parse_int(p + 1, strlen(p + 1), &n) != 0)
		return NP_NA;
	return n;
}

static struct tracedir_iter *
tracedir_step_find(struct tracedir_steps *t, int64_t device, int64_t model,
    int64_t iter, size_t file)
{
	struct tracedir_iter	*it;
	size_t			 i;

	for (i = t->n; i > 0; i--) {
		it = &t->v[i - 1];
		if (it->device == device && it->model == model &&
		    it->iter == iter)
			return it;
	}
	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	it = &t->v[t->n++];
	memset(it, 0, sizeof *it);
	it->device = device;
	it->model = model;
	it->iter = iter;
	it->file = file;
	it->skip = store_trace_load_step_count(t->s, device, t->rank) > 0;
	it->st.device = device;
	it->st.rank = t->rank;
	it->st.model_id = model;
	it->st.iter = iter;
	it->st.fp_start_ns = it->st.bp_end_ns = it->st.iter_end_ns = NP_NA;
	it->st.iter_time_ns = it->st.fp_bp_ns = it->st.refresh_ns = NP_NA;
	it->st.data_aug_ns = NP_NA;
	return it;
}

/* A point in time, microseconds as written, as epoch ns; NP_NA if none. */
static int64_t
tracedir_step_point(struct tracedir_steps *t, const struct trace_event *ev,
    const char *key)
{
	const char	*v;
	int64_t		 ns;

	if ((v = trace_parse_arg(ev, key)) == NULL ||
	    util_parse_ns(v, strlen(v), &ns) != 0)
		return NP_NA;
	return ns < t->below ? ns + t->offset : ns;
}

/* A duration the file gives in ns, as a float ("47587810.0"). */
static int64_t
tracedir_step_ns(const struct trace_event *ev, const char *key)
{
	const char	*v;
	double		 d;

	if ((v = trace_parse_arg(ev, key)) == NULL ||
	    util_parse_double(v, strlen(v), &d) != 0 || !isfinite(d))
		return NP_NA;
	return llround(d);
}

static void
tracedir_step_gather(struct tracedir_steps *t, struct store_step *st,
    const struct trace_event *ev)
{
	const char	*cat = ev->cat.len > 0 ? ev->cat.s : "", *v;
	int64_t		 ns;

	if (strcmp(cat, "Iteration Time") == 0) {
		st->fp_start_ns = tracedir_step_point(t, ev, "FP Start");
		st->bp_end_ns = tracedir_step_point(t, ev, "BP End");
		st->iter_end_ns = tracedir_step_point(t, ev, "Iteration End");
		st->iter_time_ns = tracedir_step_ns(ev, "Iteration Time(ns)");
	} else if (strcmp(cat, "FP_BP Time") == 0)
		st->fp_bp_ns = tracedir_step_ns(ev, "FP_BP Time(ns)");
	else if (strcmp(cat, "Iteration Refresh") == 0)
		st->refresh_ns = tracedir_step_ns(ev,
		    "Iteration Refresh(ns)");
	else if (strcmp(cat, "Data_aug Bound") == 0 &&
	    (v = trace_parse_arg(ev, "Data_aug Bound(us)")) != NULL &&
	    util_parse_ns(v, strlen(v), &ns) == 0)
		st->data_aug_ns = ns;
}

/*
 * Take event EV of file number FILE (device DEVICE, model MODEL). Return
 * false if it repeats an iteration another file owns and must be dropped.
 */
bool
tracedir_step_event(struct tracedir_steps *t, size_t file, int64_t device,
    int64_t model, const struct trace_event *ev)
{
	struct tracedir_iter	*it;
	int64_t			 iter;

	if ((iter = tracedir_step_iter(ev)) == NP_NA)
		return true;
	it = tracedir_step_find(t, device, model, iter, file);
	if (it->file != file)
		return false;
	tracedir_step_gather(t, &it->st, ev);
	return true;
}

static int
tracedir_step_cmp(const void *a, const void *b)
{
	const struct tracedir_iter	*x = a, *y = b;

	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

/*
 * Write a step_trace row for every iteration with an Iteration Time event,
 * unless the store had step rows of that device before (a summary/
 * step_trace CSV of the same run), and free T. Return the rows written.
 */
int64_t
tracedir_step_free(struct tracedir_steps *t)
{
	struct store_step	*st;
	int64_t			 n = 0;
	size_t			 i;

	if (t == NULL)
		return 0;
	if (t->n > 1)
		qsort(t->v, t->n, sizeof *t->v, tracedir_step_cmp);
	for (i = 0; i < t->n; i++) {
		st = &t->v[i].st;
		if (t->v[i].skip || st->iter_end_ns == NP_NA)
			continue;
		if (st->fp_bp_ns == NP_NA && st->fp_start_ns != NP_NA &&
		    st->bp_end_ns != NP_NA)
			st->fp_bp_ns = st->bp_end_ns - st->fp_start_ns;
		if (st->refresh_ns == NP_NA && st->bp_end_ns != NP_NA)
			st->refresh_ns = st->iter_end_ns - st->bp_end_ns;
		store_load_step(t->s, st);
		n++;
	}
	free(t->v);
	free(t);
	return n;
}
