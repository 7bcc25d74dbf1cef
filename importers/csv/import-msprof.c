/*
 * The msprof export: a mindstudio_profiler_output/ directory (or any
 * directory holding its op_summary_*, op_statistic_*, api_statistic_*,
 * task_time_*, step_trace_* CSVs, with or without timestamps and _slice_N
 * parts), and the msprof_*.json traces beside them. A PROF_* directory
 * holding one is found by the walk.
 */
#include <stdlib.h>
#include <string.h>

#include "csv-int.h"

static const char *const msprof_tables[] = {
	"op_summary", "op_statistic", "api_statistic", NULL
};

/* True if DIR holds a CSV named after one of the msprof tables. */
static bool
import_msprof_has_tables(const char *dir, bool legacy)
{
	char	**names, *base;
	size_t	  n, i, j;
	int64_t	  device;
	bool	  found = false;

	names = util_dir_list(dir, &n);
	for (i = 0; i < n && !found; i++) {
		if (!util_has_suffix(names[i], ".csv"))
			continue;
		base = import_rows_base(names[i], &device);
		for (j = 0; msprof_tables[j] != NULL; j++) {
			if (strcmp(base, msprof_tables[j]) == 0 &&
			    (device != NP_NA) == legacy)
				found = true;
		}
		free(base);
	}
	util_strv_free(names, n);
	return found;
}

/* True if FILE is a CSV named after one of the vendor's task tables. */
static bool
import_msprof_task_file(const char *file)
{
	char	*base;
	int64_t	 device;
	bool	 yes;

	if (!util_has_suffix(file, ".csv"))
		return false;
	base = import_rows_base(file, &device);
	yes = strcmp(base, "op_summary") == 0 ||
	    strcmp(base, "kernel_details") == 0 ||
	    strcmp(base, "op_statistic") == 0 ||
	    strcmp(base, "api_statistic") == 0;
	free(base);
	return yes;
}

int
import_msprof_probe(const char *path, bool isdir)
{
	if (!isdir)
		return import_msprof_task_file(path) ? IMPORT_YES : IMPORT_NO;
	if (strcmp(util_basename(path), "mindstudio_profiler_output") == 0)
		return IMPORT_BEST;
	if (import_msprof_has_tables(path, false))
		return IMPORT_YES;
	return IMPORT_NO;
}

/*
 * One vendor CSV given as PATH; or a directory: the CSVs, then the
 * msprof_*.json traces (all _slice_N parts, in name order), whose device
 * tasks link to the op_summary rows.
 */
int
import_msprof_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	char		**names, *file, *why = NULL;
	const char	 *later;
	size_t		  n, i;
	int64_t		  before;
	int		  rc;
	bool		  link;

	if (util_has_suffix(path, ".csv"))
		return import_rows_file(s, path, ctx, cause);
	before = store_trace_load_task_count(s, ctx->rank);
	rc = import_rows_dir(s, path, ctx, cause);
	link = store_trace_load_task_count(s, ctx->rank) > before;
	names = util_dir_list(path, &n);
	for (i = 0; i < n; i++) {
		if (!import_trace_is_msprof(names[i]))
			continue;
		file = util_path_join(path, names[i]);
		if ((later = import_rows_superseded(names, n, i)) != NULL) {
			store_load_warning(s, file, -1, "not read: '%s' is a "
			    "later export of the same timeline into this "
			    "folder, and both would show every event twice",
			    later);
			free(file);
			continue;
		}
		if (import_trace_file(s, file, ctx, link, &why) == 0 &&
		    rc != 0) {
			free(*cause);
			*cause = NULL;
			rc = 0;
		} else if (why != NULL) {
			store_load_warning(s, file, -1, "%s", why);
			free(why);
			why = NULL;
		}
		free(file);
	}
	/* A db export alone: the same run as the CSVs when both exist. */
	for (i = 0; i < n && rc != 0; i++) {
		if (!util_has_prefix(names[i], "msprof_") ||
		    !util_has_suffix(names[i], ".db"))
			continue;
		file = util_path_join(path, names[i]);
		if (import_db_file(s, file, ctx, &why) == 0) {
			free(*cause);
			*cause = NULL;
			rc = 0;
		} else {
			store_load_warning(s, file, -1, "%s", why);
			free(why);
			why = NULL;
		}
		free(file);
	}
	util_strv_free(names, n);
	return rc;
}

int
import_msprof_summary_load(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	return import_rows_dir(s, path, ctx, cause);
}

/* Legacy and SVP summary/ directories name their files _dev_model_iter. */
int
import_msprof_summary_probe(const char *path, bool isdir)
{
	if (!isdir)
		return IMPORT_NO;
	if (import_msprof_has_tables(path, true))
		return strcmp(util_basename(path), "summary") == 0 ?
		    IMPORT_BEST : IMPORT_YES;
	return IMPORT_NO;
}
