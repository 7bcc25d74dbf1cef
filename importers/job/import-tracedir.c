/*
 * The per-device timeline/ folder of CANN 6.x and older exports and of SVP
 * boards (doc/formats.md 1.5, 7.4): chrome traces named
 * <module>_<device>_<model>_<iter>.json (msprof, task_time, step_trace,
 * hccl, acl, ...) whose ts are host CLOCK_MONOTONIC_RAW microseconds. The
 * start_info.N beside the folder (or in it) pairs that clock with the
 * epoch (doc/formats.md 2.6 step 4); without one the times stay monotonic and
 * the import says so. msprof_* is the merge of the other modules of its
 * iteration, so a task_time_* or hccl_* file whose iteration has an
 * msprof_* file is not read a second time. step_trace_* files load first:
 * they own the step trace events (tracedir-step.c). The events themselves
 * go through the chrome-trace loader (trace-event.c).
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

struct tracedir_file {
	char		*path;
	char		*module;
	int64_t		 device;
	int64_t		 model;
	int64_t		 iter;
	int		 order;		/* step_trace, msprof, then the rest */
	bool		 merged;	/* its msprof_* file holds its events */
};

/* Where events of one file go. */
struct tracedir_read {
	struct trace_load	*l;
	struct tracedir_steps	*steps;
	size_t			 file;
	int64_t			 device;
	int64_t			 model;
};

/* The last number of NAME before *END, which moves before its '_'. */
static bool
import_tracedir_number(const char *name, const char **end, int64_t *v)
{
	const char	*p = *end;

	while (p > name && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == *end || p == name || p[-1] != '_' ||
	    util_parse_int(p, (size_t)(*end - p), v) != 0)
		return false;
	*end = p - 1;
	return true;
}

/*
 * Parse a legacy timeline file name, <module>_<dev>_<model>_<iter>.json.
 * Set *MODULE (allocated) and the numbers; false if NAME is not one.
 */
static bool
import_tracedir_name(const char *name, char **module, int64_t *device,
    int64_t *model, int64_t *iter)
{
	const char	*end;

	if (!util_has_suffix(name, ".json"))
		return false;
	end = name + strlen(name) - strlen(".json");
	if (!import_tracedir_number(name, &end, iter) ||
	    !import_tracedir_number(name, &end, model) ||
	    !import_tracedir_number(name, &end, device) ||
	    name[0] < 'a' || name[0] > 'z')
		return false;
	*module = xstrndup(name, (size_t)(end - name));
	return true;
}

static bool
import_tracedir_is_ours(const char *name)
{
	char	*module;
	int64_t	 d, m, i;

	if (!import_tracedir_name(name, &module, &d, &m, &i))
		return false;
	free(module);
	return true;
}

/* True if DIR holds a legacy timeline file. */
bool
import_tracedir_any(const char *dir)
{
	char	**names;
	size_t	  n, i;
	bool	  found = false;

	names = util_dir_list(dir, &n);
	for (i = 0; i < n && !found; i++)
		found = import_tracedir_is_ours(names[i]);
	util_strv_free(names, n);
	return found;
}

int
import_tracedir_probe(const char *path, bool isdir)
{
	if (!isdir)
		return import_tracedir_is_ours(util_basename(path))
		    ? IMPORT_BEST : IMPORT_NO;
	return import_tracedir_any(path) ? IMPORT_BEST : IMPORT_NO;
}

static int
import_tracedir_cmp(const void *a, const void *b)
{
	const struct tracedir_file	*x = a, *y = b;

	if (x->order != y->order)
		return x->order - y->order;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	if (x->model != y->model)
		return x->model < y->model ? -1 : 1;
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	return strcmp(x->module, y->module);
}

/*
 * The legacy timeline files of DIR (only the one named ONLY, if not NULL),
 * in load order, with the files an msprof_* file covers marked.
 */
static struct tracedir_file *
import_tracedir_list(const char *dir, const char *only, size_t *nf)
{
	struct tracedir_file	*v = NULL, *f;
	char			**names, *module;
	size_t			  n, i, k;
	int64_t			  d, m, it;

	*nf = 0;
	names = util_dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		if ((only != NULL && strcmp(names[i], only) != 0) ||
		    !import_tracedir_name(names[i], &module, &d, &m, &it))
			continue;
		v = xreallocarray(v, *nf + 1, sizeof *v);
		f = &v[(*nf)++];
		f->path = util_path_join(dir, names[i]);
		f->module = module;
		f->device = d;
		f->model = m;
		f->iter = it;
		f->order = strcmp(module, "step_trace") == 0 ? 0 :
		    strcmp(module, "msprof") == 0 ? 1 : 2;
		f->merged = false;
	}
	util_strv_free(names, n);
	for (i = 0; i < *nf; i++) {
		for (k = 0; k < *nf && v[i].order == 2; k++) {
			if (v[k].order == 1 && v[k].device == v[i].device &&
			    v[k].model == v[i].model && v[k].iter == v[i].iter)
				v[i].merged = true;
		}
	}
	if (*nf > 1)
		qsort(v, *nf, sizeof *v, import_tracedir_cmp);
	return v;
}

static void
import_tracedir_list_free(struct tracedir_file *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].module);
	}
	free(v);
}

/* Take one event: step trace repeats are dropped, the rest loaded. */
static void
import_tracedir_event(void *arg, const struct trace_event *ev)
{
	struct tracedir_read	*r = arg;

	if (tracedir_step_event(r->steps, r->file, r->device, r->model, ev))
		trace_event_event(r->l, ev);
}

/* Load file F, number I of the unit, with the clock of CLK. */
static int
import_tracedir_load_file(struct store *s, const struct tracedir_file *f,
    size_t i, struct import_ctx *ctx, const struct tracedir_clock *clk,
    struct tracedir_steps *steps, char **cause)
{
	struct import_ctx	 fctx = *ctx;
	struct tracedir_read	 r;
	int			 rc;

	fctx.device = f->device;
	fctx.model = f->model;
	fctx.iter = f->iter;
	store_load_meta(s, "layout", "legacy");
	store_load_file(s, f->path);
	store_load_progress(s, "reading", f->path, 0, -1);
	memset(&r, 0, sizeof r);
	r.l = trace_event_create(s, f->path, &fctx, clk->link);
	trace_event_legacy(r.l, f->model, f->iter, clk->offset, clk->below);
	r.steps = steps;
	r.file = i;
	r.device = f->device;
	r.model = f->model;
	rc = trace_read_file(s, f->path, import_tracedir_event, &r, cause);
	trace_event_free(r.l);
	return rc;
}

/*
 * Load the legacy timeline files of DIR (or the one file ONLY of it) for
 * the unit CTX; LINK says its tasks came from a CSV already. Return -1 and
 * set *cause if none could be read.
 */
static int
import_tracedir_walk(struct store *s, const char *dir, const char *only,
    struct import_ctx *ctx, bool link, char **cause)
{
	struct tracedir_file	*v;
	struct tracedir_clock	 clk;
	struct tracedir_steps	*steps;
	char			*why = NULL;
	size_t			 n, i, ok = 0, merged = 0;

	v = import_tracedir_list(dir, only, &n);
	if (n == 0) {
		xasprintf(cause, "no legacy timeline file in '%s'", dir);
		free(v);
		return -1;
	}
	tracedir_clock_read(s, dir, v[0].device, ctx, &clk);
	clk.link = link;
	steps = tracedir_step_create(s, ctx->rank, clk.offset, clk.below);
	for (i = 0; i < n; i++) {
		if (v[i].merged) {
			store_load_file(s, v[i].path);
			merged++;
		} else if (import_tracedir_load_file(s, &v[i], i, ctx, &clk,
		    steps, &why) == 0)
			ok++;
		else {
			store_load_warning(s, v[i].path, -1, "%s", why);
			free(why);
			why = NULL;
		}
	}
	tracedir_step_free(steps);
	if (merged > 0)
		store_load_meta(s, "timeline.merged", "task_time_*, hccl_* "
		    "and other modules of an iteration with an msprof_* file "
		    "are read from that file");
	import_tracedir_list_free(v, n);
	if (ok == 0) {
		xasprintf(cause, "no timeline file in '%s' could be read", dir);
		return -1;
	}
	return 0;
}

/*
 * Load the legacy timeline/ folder DIR of a JOB or device directory for
 * the unit CTX (import-job.c). Return -1 and set *cause if nothing loads.
 */
int
import_tracedir_dir(struct store *s, const char *dir, struct import_ctx *ctx,
    char **cause)
{
	return import_tracedir_walk(s, dir, NULL, ctx,
	    store_trace_load_task_count(s, ctx->rank) > 0, cause);
}

int
import_tracedir_load(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	char	*dir, *p;
	int	 rc;

	store_load_meta(s, "format", "legacy timeline");
	if (import_tracedir_is_ours(util_basename(path))) {
		dir = xstrdup(path);
		if ((p = strrchr(dir, '/')) != NULL)
			*p = '\0';
		else {
			free(dir);
			dir = xstrdup(".");
		}
		rc = import_tracedir_walk(s, dir, util_basename(path), ctx,
		    false,
		    cause);
		free(dir);
		return rc;
	}
	return import_tracedir_walk(s, path, NULL, ctx, false, cause);
}
