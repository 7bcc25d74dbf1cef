/*
 * The importer table and the walk that finds what to import under PATH.
 * The walk goes top-down; at each directory (or file) every importer
 * probes, the best claim wins and its unit is not descended into, so a
 * PyTorch *_ascend_pt folder is read once even though it holds a PROF_*
 * export of the same run. Several units (ranks, devices) load into one
 * store transaction.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import-int.h"

#define IMPORT_MAX_DEPTH	8
#define IMPORT_MAX_UNITS	4096

/* An importer: its name, its F_probe and F_load, and what it reads. */
#define IMPORTER(n, f, w)	{ .name = (n), .what = (w),		\
	.probe = f##_probe, .load = f##_load }

static const struct importer importers[] = {
	IMPORTER("prof", import_prof,
	    "raw PROF_* collection: host/ and device_N/ with data/ slices, "
	    "or one bare host/ or device_N/ directory"),
	IMPORTER("pytorch", import_pytorch,
	    "PyTorch profiler: *_ascend_pt/ or ASCEND_PROFILER_OUTPUT/ (or "
	    "any folder) with kernel_details.csv, op_statistic.csv, ..."),
	IMPORTER("msprof", import_msprof,
	    "msprof export: mindstudio_profiler_output/ with op_summary_*, "
	    "op_statistic_*, api_statistic_* CSVs (or one such CSV file)"),
	IMPORTER("summary", import_msprof_summary,
	    "legacy or SVP summary/: op_summary_<dev>_<model>_<iter>.csv, "
	    "acl_statistic_*, op_statistic_* CSVs"),
	IMPORTER("job", import_job,
	    "legacy JOB dir: data/ with Framework.*, training_trace.*, "
	    "hwts.*, AclModule.*, DATA_PREPROCESS.* slices"),
	IMPORTER("legacy-timeline", import_tracedir,
	    "legacy timeline/ dir: <module>_<dev>_<model>_<iter>.json "
	    "(msprof, task_time, step_trace, hccl, acl)"),
	IMPORTER("trace", import_trace,
	    "chrome-trace JSON: trace_view.json, msprof_*.json, "
	    "timeline/*.json, or a folder of them"),
	IMPORTER("db", import_db,
	    "vendor SQLite exports: msprof_*.db, "
	    "ascend_pytorch_profiler*.db")
};

#define NIMPORTERS	(sizeof importers / sizeof importers[0])

struct import_unit {
	char			*path;
	const struct importer	*imp;
};

struct import_walk {
	struct import_unit	*v;
	size_t			 n;
	char			**unread;	/* the paths not read */
	int			*unerr;		/* and the errno of each */
	size_t			 nunread;
	struct util_walk	 tree;	/* inside the root, each dir once */
};

/* The importer called NAME, or NULL. */
const struct importer *
importer_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < NIMPORTERS; i++) {
		if (strcmp(importers[i].name, name) == 0)
			return &importers[i];
	}
	return NULL;
}

/* What the walk looks for, for the message when it finds nothing. */
char *
importer_looked_for(void)
{
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	for (i = 0; i < NIMPORTERS; i++)
		strbuf_addf(&b, "  %-10s %s\n", importers[i].name,
		    importers[i].what);
	return strbuf_detach(&b);
}

/* PATH could not be read (errno says why): what it holds is not seen. */
static void
importer_unread(struct import_walk *w, const char *path)
{
	int	 e = errno;

	w->unread = xreallocarray(w->unread, w->nunread + 1,
	    sizeof *w->unread);
	w->unerr = xreallocarray(w->unerr, w->nunread + 1,
	    sizeof *w->unerr);
	w->unerr[w->nunread] = e;
	w->unread[w->nunread++] = xstrdup(path);
}

static void
importer_walk(struct import_walk *w, const char *path, int depth)
{
	struct stat		 st, lst;
	const struct importer	*best = NULL;
	char			**names, *child;
	size_t			 n, i;
	int			 score, top = 0, pass;
	bool			 isdir;

	if (stat(path, &st) != 0) {
		/* Gone since its folder was read: nothing lost. */
		if (errno != ENOENT)
			importer_unread(w, path);
		return;
	}
	if (w->n >= IMPORT_MAX_UNITS || !util_walk_visit(&w->tree, path,
	    &st))
		return;
	isdir = S_ISDIR(st.st_mode);
	for (i = 0; i < NIMPORTERS; i++) {
		score = importers[i].probe(path, isdir);
		if (score > top) {
			top = score;
			best = &importers[i];
		}
	}
	if (best != NULL && (top >= IMPORT_YES || depth == 0)) {
		w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
		w->v[w->n].path = xstrdup(path);
		w->v[w->n++].imp = best;
		return;
	}
	if (!isdir || depth >= IMPORT_MAX_DEPTH)
		return;
	if ((names = util_dir_list(path, &n)) == NULL && errno != 0)
		importer_unread(w, path);
	/* Real entries first: a link to one is then the copy skipped. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			child = util_path_join(path, names[i]);
			if ((lstat(child, &lst) == 0 && S_ISLNK(lst.st_mode)) ==
			    (pass == 1))
				importer_walk(w, child, depth + 1);
			free(child);
		}
	}
	util_strv_free(names, n);
}

static void
importer_walk_free(struct import_walk *w)
{
	size_t	 i;

	for (i = 0; i < w->n; i++)
		free(w->v[i].path);
	free(w->v);
	util_strv_free(w->unread, w->nunread);
	free(w->unerr);
	util_walk_release(&w->tree);
}

/*
 * The N folders and files in UNREAD a walk could not read (UNERR says
 * why), one warning each into S: a rank among them would otherwise be
 * missing without a word.
 */
void
importer_warn_unread(struct store *s, char **unread, const int *unerr,
    size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		store_load_warning(s, unread[i], -1, "cannot read it (%s): "
		    "what it holds is not imported", strerror(unerr[i]));
}

/*
 * The paths of the units (profiles) under ROOT, as importer_run() would
 * load them, in *N; those it could not read in *UNREAD (*NUNREAD of them,
 * the errno of each in *UNERR). The caller frees both lists with
 * util_strv_free() and *UNERR with free().
 */
char **
importer_units(const char *root, size_t *n, char ***unread, int **unerr,
    size_t *nunread)
{
	struct import_walk	 w;
	char			**v;
	size_t			 i;

	memset(&w, 0, sizeof w);
	util_walk_init(&w.tree, root);
	importer_walk(&w, root, 0);
	v = xcalloc(w.n + 1, sizeof *v);
	for (i = 0; i < w.n; i++)
		v[i] = xstrdup(w.v[i].path);
	*n = w.n;
	*unread = w.unread;
	*unerr = w.unerr;
	*nunread = w.nunread;
	w.unread = NULL;
	w.unerr = NULL;
	w.nunread = 0;
	importer_walk_free(&w);
	return v;
}

/*
 * How many units of W are of the kind of unit I (I among them); SAME
 * keeps the counts.
 */
static size_t
importer_same_kind(const struct import_walk *w, size_t i, size_t *same)
{
	size_t	 j;

	/* Counted once per kind, at its first unit. */
	if (same[i] == 0) {
		for (j = 0; j < w->n; j++)
			same[i] += w->v[j].imp == w->v[i].imp;
		for (j = i + 1; j < w->n; j++) {
			if (w->v[j].imp == w->v[i].imp)
				same[j] = same[i];
		}
	}
	return same[i];
}

/*
 * The rank a folder of our own exports names: PATH, or the folder PATH is
 * in, called rank_N (export summary and export timeline of several ranks
 * write rank_0/, rank_1/, ...), so that importing an export gives each
 * rank's rows their rank again; NP_NA otherwise. What a unit's files say
 * (profiler_info's rank_id) comes after it and wins.
 */
static int64_t
importer_rank_dir(const char *path)
{
	char		*dir;
	const char	*base;
	int64_t		 rank = NP_NA;
	int		 k;

	dir = xstrdup(path);
	for (k = 0; k < 2 && rank == NP_NA; k++) {
		base = util_basename(dir);
		if (strncmp(base, "rank_", 5) == 0 && base[5] >= '0' &&
		    base[5] <= '9' && (util_parse_int(base + 5,
		    strlen(base + 5), &rank) != 0 || rank < 0))
			rank = NP_NA;
		if (strrchr(dir, '/') == NULL)
			break;
		*strrchr(dir, '/') = '\0';
	}
	free(dir);
	return rank;
}

/*
 * Find every unit under ROOT and load it into S. A unit that fails is a
 * warning as long as another one loads; if none is found or none loads,
 * return -1 and set *cause.
 */
int
importer_run(struct store *s, const char *root, char **cause)
{
	struct import_walk	 w;
	struct import_ctx	 ctx;
	struct strbuf		 kinds;
	char			*why = NULL, *looked;
	size_t			 i, ok = 0, ranked = 0, nunranked = 0;
	size_t			*unranked, *same;

	memset(&w, 0, sizeof w);
	util_walk_init(&w.tree, root);
	importer_walk(&w, root, 0);
	if (w.n == 0 && w.nunread > 0) {
		xasprintf(cause, "no profiling data found in '%s': cannot "
		    "read %s (%s)%s", root, w.unread[0], strerror(w.unerr[0]),
		    w.nunread > 1 ? " and others" : "");
		importer_walk_free(&w);
		return -1;
	}
	if (w.n == 0) {
		looked = importer_looked_for();
		xasprintf(cause, "no profiling data found in '%s'; looked "
		    "for:\n%s", root, looked);
		free(looked);
		importer_walk_free(&w);
		return -1;
	}
	importer_warn_unread(s, w.unread, w.unerr, w.nunread);
	strbuf_init(&kinds);
	unranked = xreallocarray(NULL, w.n + 1, sizeof *unranked);
	same = xcalloc(w.n + 1, sizeof *same);
	for (i = 0; i < w.n; i++) {
		/* A failed write ends the load: the store cannot be kept. */
		if (store_failed(s, cause) != 0) {
			strbuf_release(&kinds);
			importer_walk_free(&w);
			free(unranked);
			free(same);
			return -1;
		}
		memset(&ctx, 0, sizeof ctx);
		ctx.device = NP_NA;
		ctx.rank = importer_rank_dir(w.v[i].path);
		ctx.model = ctx.iter = NP_NA;
		ctx.root = root;
		ctx.several = importer_same_kind(&w, i, same) > 1;
		store_load_meta(s, "importer.current", w.v[i].imp->name);
		store_load_progress_files(s, (int64_t)i, (int64_t)w.n);
		store_load_progress(s, w.v[i].imp->name, w.v[i].path, 0, 0);
		if (w.v[i].imp->load(s, w.v[i].path, &ctx, &why) != 0) {
			/* The one unit's failure is the error, said once. */
			if (w.n == 1) {
				*cause = why;
				why = NULL;
			} else
				store_load_warning(s, w.v[i].path, -1, "%s",
				    why);
			free(why);
			why = NULL;
			continue;
		}
		ranked += ctx.rank != NP_NA;
		if (ctx.rank == NP_NA)
			unranked[nunranked++] = i;
		if (strstr(kinds.s != NULL ? kinds.s : "",
		    w.v[i].imp->name) == NULL)
			strbuf_addf(&kinds, "%s%s", kinds.len > 0 ? "," : "",
			    w.v[i].imp->name);
		ok++;
	}
	/* Rows that carry no rank beside rows that do: say which. */
	for (i = 0; ranked > 0 && i < nunranked; i++)
		store_load_warning(s, w.v[unranked[i]].path, -1, "this profile "
		    "names no rank, unlike others here: its rows carry none");
	free(unranked);
	free(same);
	store_load_progress_files(s, (int64_t)w.n, (int64_t)w.n);
	store_load_meta(s, "importer.current", NULL);
	store_load_meta(s, "source", kinds.s);
	strbuf_release(&kinds);
	importer_walk_free(&w);
	if (store_failed(s, &why) != 0) {
		free(*cause);
		*cause = why;
		return -1;
	}
	if (ok == 0) {
		if (*cause == NULL)
			xasprintf(cause, "nothing under '%s' could be "
			    "imported", root);
		return -1;
	}
	return 0;
}
