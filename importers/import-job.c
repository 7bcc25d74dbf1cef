/*
 * Legacy JOB directories (FORMATS.md 1.5): older CANN and MindSpore-era
 * collections and SVP board runs, one directory per device holding data/
 * and info.json.N, or the partly flattened layouts found in the wild
 * (files at the JOB root, in data/, or both, no info.json) and the
 * container/N/data layout. The probe claims a directory whose root or
 * data/ holds files named by the legacy grammar, but never a PROF_*
 * directory with host/ or device_N/ parts, which belongs to the raw
 * importer. A JOB that also holds the tool's exported summary/ is read
 * from that export instead of its raw files.
 */
#include <stdlib.h>
#include <string.h>

#include "importer.h"

/* True if DIR has a host/ or device_N/ part: a new-layout PROF_* dir. */
static bool
import_job_is_prof(const char *dir)
{
	char	**names;
	size_t	  n, i;
	bool	  prof = false;

	names = importer_list_dir(dir, &n);
	for (i = 0; i < n && !prof; i++) {
		if (strcmp(names[i], "host") == 0 ||
		    util_has_prefix(names[i], "device_"))
			prof = true;
	}
	importer_free_list(names, n);
	return prof;
}

static int
import_job_probe(const char *path, bool isdir)
{
	char	**names;
	size_t	  n, i;
	bool	  info = false;

	if (!isdir || import_job_is_prof(path) ||
	    util_has_prefix(util_basename(path), "device_"))
		return IMPORT_NO;
	names = importer_list_dir(path, &n);
	for (i = 0; i < n; i++) {
		if (util_has_prefix(names[i], "info.json"))
			info = true;
	}
	importer_free_list(names, n);
	/* The collection-dir rule of msprof: data/ beside info.json*. */
	if (info && importer_dir_has(path, "data"))
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

/* Report the files of J that nothing here decodes. */
static void
import_job_unknown(struct job *j)
{
	size_t	 i;

	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind == JOB_AICORE)
			store_load_warning(j->s, j->files[i].path, -1, "AI Core "
			    "PMU records of legacy JOBs are not decoded");
		else if (j->files[i].kind == JOB_PREPROCESS &&
		    util_has_prefix(j->files[i].name, "DATA_PREPROCESS."))
			store_load_warning(j->s, j->files[i].path, -1, "only "
			    "the AICPU DATA_PREPROCESS log is decoded");
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
	if (job_runtime_load(j) > 0)
		parts++;
	if (j->nops > 0 && job_hwts_load(j) > 0)
		parts++;
	if (parts > 0 && j->nops == 0)
		store_load_warning(j->s, j->dir, -1, "no Framework "
		    "task_desc_info: per-op device times are not available");
	import_job_unknown(j);
	if (parts > 0)
		store_load_meta(j->s, "layout", "legacy");
	return parts;
}

static int
import_job_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct job	 j;
	char		*summary;
	int		 rc = 0;

	memset(&j, 0, sizeof j);
	j.s = s;
	j.dir = path;
	j.ctx = ctx;
	job_files_scan(&j, path);
	if (ctx->device == NP_NA)
		ctx->device = j.device != NP_NA ? j.device : 0;
	j.device = ctx->device;
	summary = util_path_join(path, "summary");
	if (importer_dir_has(path, "summary") &&
	    import_rows_dir(s, summary, ctx, cause) == 0) {
		store_load_meta(s, "job.source", "summary/ export");
		free(summary);
		job_files_free(&j);
		return 0;
	}
	free(*cause);
	*cause = NULL;
	free(summary);
	if (import_job_raw(&j) == 0) {
		xasprintf(cause, "'%s': no step trace, task description, "
		    "AclModule, runtime or AI CPU data could be decoded; for "
		    "an SVP board, import its exported summary/ and timeline/ "
		    "files", path);
		rc = -1;
	}
	job_ops_free(&j);
	job_files_free(&j);
	free(j.iter_end);
	return rc;
}

const struct importer import_job = {
	.name = "job",
	.what = "legacy JOB dir: data/ with Framework.*, training_trace.*, "
	    "hwts.*, AclModule.*, DATA_PREPROCESS.* slices",
	.probe = import_job_probe,
	.load = import_job_load
};
