/*
 * Legacy JOB directories (doc/formats.md 1.5): older CANN and MindSpore-era
 * collections and SVP board runs, one directory per device holding data/
 * and info.json.N, or the partly flattened layouts found in the wild
 * (files at the JOB root, in data/, or both, no info.json) and the
 * container/N/data layout. The probe claims a directory whose root or
 * data/ holds files named by the legacy grammar, but never a PROF_*
 * directory with host/ or device_N/ parts, which belongs to the raw
 * importer. A JOB that also holds the tool's export, summary/ CSVs or
 * legacy timeline/ JSON (import-tracedir.c), is read from that export
 * instead of its raw files.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "job-int.h"

/* True if DIR has a host/ or device_N/ part: a new-layout PROF_* dir. */
static bool
import_job_is_prof(const char *dir)
{
	char	**names;
	size_t	  n, i;
	bool	  prof = false;

	names = util_dir_list(dir, &n);
	for (i = 0; i < n && !prof; i++) {
		if (strcmp(names[i], "host") == 0 ||
		    util_has_prefix(names[i], "device_"))
			prof = true;
	}
	util_strv_free(names, n);
	return prof;
}

int
import_job_probe(const char *path, bool isdir)
{
	char	**names;
	size_t	  n, i;
	bool	  info = false;

	if (!isdir || import_job_is_prof(path) ||
	    util_has_prefix(util_basename(path), "device_"))
		return IMPORT_NO;
	names = util_dir_list(path, &n);
	for (i = 0; i < n; i++) {
		if (util_has_prefix(names[i], "info.json"))
			info = true;
	}
	util_strv_free(names, n);
	/* The collection-dir rule of msprof: data/ beside info.json*. */
	if (info && util_dir_has(path, "data"))
		return IMPORT_BEST;
	return job_files_any(path) ? IMPORT_YES : IMPORT_NO;
}

/* Read every file of KIND and hand it to FN. */
static int
import_job_text(struct job *j, enum job_kind kind,
    void (*fn)(struct job *, const char *, size_t))
{
	char	*data;
	size_t	 len;
	int	 n;

	n = job_files_read(j, kind, NULL, &data, &len);
	if (n > 0)
		fn(j, data, len);
	free(data);
	return n;
}

static void
import_job_task_desc(struct job *j, const char *data, size_t len)
{
	job_text_task_desc(j, data, len);
}

/* True if PATH is an empty file: nothing there to decode or report. */
static bool
import_job_empty(const char *path)
{
	struct stat	 st;

	return stat(path, &st) == 0 && st.st_size == 0;
}

/* Report the files of J that nothing here decodes. */
static void
import_job_unknown(struct job *j)
{
	const struct job_file	*f;
	size_t			 i;

	for (i = 0; i < j->nfiles; i++) {
		f = &j->files[i];
		if (f->kind == JOB_AICORE && j->nops == 0)
			store_load_warning(j->s, f->path, -1, "AI Core PMU "
			    "records need the task description to join the "
			    "HWTS tasks they measure");
		else if (f->kind == JOB_PREPROCESS &&
		    util_has_prefix(f->name, "DATA_PREPROCESS.") &&
		    !util_has_prefix(f->name, "DATA_PREPROCESS.dev.TDT.") &&
		    !import_job_empty(f->path))
			store_load_warning(j->s, f->path, -1, "only the AICPU "
			    "and TDT DATA_PREPROCESS logs are decoded");
		if (j->files[i].kind != JOB_OTHER)
			continue;
		if (util_has_suffix(j->files[i].name, ".json") ||
		    util_has_suffix(j->files[i].name, ".zip") ||
		    util_has_suffix(j->files[i].name, ".csv"))
			continue;
		store_load_warning(j->s, j->files[i].path, -1, "file not "
		    "recognised: not a legacy JOB file this version decodes "
		    "(an SVP board's raw format is not public); import the "
		    "board's exported summary/ and timeline/ files instead");
	}
}

/*
 * The HWTS tasks of J, with the AI Core PMU records in op_summary's PMU
 * columns when the JOB has aicore.data.
 */
static int
import_job_hwts(struct job *j)
{
	struct prof_pmu		 p;
	struct prof_meta	 m;
	int64_t			 n;
	int			 tasks;

	n = job_pmu_load(j, &p, &m);
	if (n > 0) {
		j->pmu = &p;
		store_load_pmu_names(j->s, &p.names);
	}
	tasks = job_hwts_load(j);
	if (n > 0) {
		store_load_pmu_names(j->s, NULL);
		if (j->pmu_used < n)
			store_load_warning(j->s, job_files_first(j,
			    JOB_AICORE), -1, "%lld of %lld AI Core PMU "
			    "records match no HWTS task of the task "
			    "description", (long long)(n - j->pmu_used),
			    (long long)n);
	}
	j->pmu = NULL;
	if (n >= 0)
		job_pmu_release(&p, &m);
	return tasks;
}

/* Decode the raw files of J; return how many parts gave data. */
static int
import_job_raw(struct job *j)
{
	int	 parts = 0, n;

	job_clock_init(j);
	if (import_job_text(j, JOB_TASK_DESC, import_job_task_desc) > 0)
		parts++;
	import_job_text(j, JOB_HASH_DIC, job_text_hashes);
	import_job_text(j, JOB_GRAPH_DESC, job_text_graph_desc);
	if (job_ge_load(j) > 0)
		parts++;
	job_text_table(j);
	if (import_job_text(j, JOB_POINT, job_text_point) > 0)
		parts++;
	if ((n = job_trace_load(j)) < 0)
		n = job_tstrack_load(j);
	if (n > 0)
		parts++;
	if (job_acl_load(j) > 0)
		parts++;
	if (job_aicpu_load(j) >= 0)
		parts++;
	if (job_tdt_load(j) > 0)
		parts++;
	if (job_runtime_load(j) > 0)
		parts++;
	if (j->nops > 0 && import_job_hwts(j) > 0)
		parts++;
	if (parts > 0 && j->nops == 0)
		store_load_warning(j->s, j->dir, -1, "no Framework "
		    "task_desc_info: per-op device times are not available");
	import_job_unknown(j);
	if (parts > 0)
		store_load_meta(j->s, "layout", "legacy");
	return parts;
}

/*
 * Load the tool's export of J, summary/ and timeline/, if it has one.
 * Return the parts that loaded; a timeline/ that fails is a warning, a
 * summary/ that fails leaves the raw files to decode.
 */
static int
import_job_export(struct job *j, const char *path)
{
	char	*sub, *why = NULL;
	int	 parts = 0;

	sub = util_path_join(path, "summary");
	if (util_dir_has(path, "summary")) {
		/* As before the timeline: a summary/ that fails is ignored. */
		if (import_rows_dir(j->s, sub, j->ctx, &why) == 0)
			parts++;
		free(why);
		why = NULL;
	}
	free(sub);
	sub = util_path_join(path, "timeline");
	if (import_tracedir_any(sub)) {
		if (import_tracedir_dir(j->s, sub, j->ctx, &why) == 0)
			parts++;
		else
			store_load_warning(j->s, sub, -1, "%s", why);
		free(why);
	}
	free(sub);
	return parts;
}

int
import_job_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct job	 j;
	int		 rc = 0;

	memset(&j, 0, sizeof j);
	j.s = s;
	j.dir = path;
	j.ctx = ctx;
	job_files_scan(&j, path);
	if (ctx->device == NP_NA)
		ctx->device = j.device != NP_NA ? j.device : 0;
	j.device = ctx->device;
	if (import_job_export(&j, path) > 0) {
		store_load_meta(s, "job.source", "summary/ and timeline/ "
		    "export");
		job_files_free(&j);
		return 0;
	}
	if (import_job_raw(&j) == 0) {
		xasprintf(cause, "'%s': no step trace, task description, "
		    "AclModule, runtime or AI CPU data could be decoded; for "
		    "an SVP board, import its exported summary/ and timeline/ "
		    "files", path);
		rc = -1;
	}
	job_text_ops_free(&j);
	job_files_free(&j);
	free(j.iter_end);
	return rc;
}
