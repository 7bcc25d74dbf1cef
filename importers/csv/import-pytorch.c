/*
 * The PyTorch (torch_npu) profiler output: a <worker>_<ts>_ascend_pt/
 * folder, or its ASCEND_PROFILER_OUTPUT/ directly. kernel_details.csv gives
 * the tasks, op_statistic.csv and api_statistic.csv the tool's own
 * statistics, the rest is kept as generic tables; trace_view.json, read
 * after them, adds host spans, flows and counters and links its device
 * tasks to the kernel rows; profiler_info*.json gives the rank and
 * versions, profiler_metadata.json the parallel layout,
 * communication*.json (or a db export's analysis.db) the communication
 * statistics. The PROF_* export inside the folder describes the same run
 * and is not read again.
 */
#include <stdlib.h>
#include <string.h>

#include "csv-int.h"

#define PT_OUTPUT	"ASCEND_PROFILER_OUTPUT"
#define PT_TRACE	"trace_view.json"
#define PT_ANALYSIS	"analysis.db"

int
import_pytorch_probe(const char *path, bool isdir)
{
	if (!isdir)
		return IMPORT_NO;
	if (strcmp(util_basename(path), PT_OUTPUT) == 0 ||
	    util_dir_has(path, PT_OUTPUT))
		return IMPORT_BEST;
	/* A folder holding a copied kernel_details.csv. */
	if (util_dir_has(path, "kernel_details.csv"))
		return IMPORT_YES;
	return IMPORT_NO;
}

/* Read the profiler_info*.json files in TOP. */
static void
import_pytorch_info(struct store *s, const char *top, struct import_ctx *ctx)
{
	char	**names, *path, *why = NULL;
	size_t	  n, i;

	names = util_dir_list(top, &n);
	for (i = 0; i < n; i++) {
		if (!util_has_prefix(names[i], "profiler_info") ||
		    !util_has_suffix(names[i], ".json"))
			continue;
		path = util_path_join(top, names[i]);
		if (import_meta_profiler_info(s, path, ctx, &why) != 0) {
			store_load_warning(s, path, -1, "%s", why);
			free(why);
			why = NULL;
		}
		free(path);
	}
	util_strv_free(names, n);
}

/*
 * The ascend_pytorch_profiler*.db of a db export, read when the folder
 * gave nothing in text: with both exports the two describe the same run.
 * Return 0 if one loaded.
 */
static int
import_pytorch_db(struct store *s, const char *out, struct import_ctx *ctx)
{
	char	**names, *path, *why = NULL;
	size_t	  n, i;
	int	  rc = -1;

	names = util_dir_list(out, &n);
	for (i = 0; i < n; i++) {
		if (!util_has_prefix(names[i], "ascend_pytorch_profiler") ||
		    !util_has_suffix(names[i], ".db"))
			continue;
		path = util_path_join(out, names[i]);
		if (import_db_file(s, path, ctx, &why) == 0)
			rc = 0;
		else {
			store_load_warning(s, path, -1, "%s", why);
			free(why);
			why = NULL;
		}
		free(path);
	}
	util_strv_free(names, n);
	return rc;
}

int
import_pytorch_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	char	*top, *out, *trace, *meta, *why = NULL;
	int64_t	 before, n, m;
	int	 rc;
	bool	 link;

	if (strcmp(util_basename(path), PT_OUTPUT) == 0 ||
	    !util_dir_has(path, PT_OUTPUT)) {
		out = xstrdup(path);
		top = util_path_join(path, "..");
	} else {
		out = util_path_join(path, PT_OUTPUT);
		top = xstrdup(path);
	}
	import_pytorch_info(s, top, ctx);
	if (util_dir_has(top, "profiler_metadata.json")) {
		meta = util_path_join(top, "profiler_metadata.json");
		rc = import_meta_profiler_metadata(s, meta, ctx, cause);
		free(meta);
		if (rc != 0) {
			free(out);
			free(top);
			return -1;
		}
	}
	store_load_meta(s, "format", "pytorch");
	/*
	 * torch_npu takes op_statistic from CANN's analysis: older ones
	 * round the average, CANN 8.3's floors it as msprof does
	 * (doc/formats.md, op_statistic).
	 */
	if (ctx->cann_floors)
		store_load_avg_floored(s);
	else
		store_load_avg_rounded(s);
	before = store_trace_load_task_count(s, ctx->rank);
	rc = import_rows_dir(s, out, ctx, cause);
	if ((n = import_comm_dir(s, out, ctx, &why)) < 0) {
		free(*cause);
		*cause = why;
		why = NULL;
		free(out);
		free(top);
		return -1;
	}
	/* A db export's twin of the step and communication files. */
	if (util_dir_has(out, PT_ANALYSIS) &&
	    !util_dir_has(out, "communication.json") &&
	    !util_dir_has(out, "communication_matrix.json") &&
	    !util_dir_has(out, "step_trace_time.csv")) {
		meta = util_path_join(out, PT_ANALYSIS);
		m = db_analysis_load(s, meta, ctx, &why);
		free(meta);
		if (m < 0) {
			free(*cause);
			*cause = why;
			free(out);
			free(top);
			return -1;
		}
		n += m;
	}
	trace = util_path_join(out, PT_TRACE);
	link = store_trace_load_task_count(s, ctx->rank) > before;
	/* An empty kernel_details.csv is no profile without kernels. */
	if (!link && util_dir_has(out, "kernel_details.csv")) {
		meta = util_path_join(out, "kernel_details.csv");
		store_load_warning(s, meta, -1, "no task rows%s", util_dir_has(
		    out, PT_TRACE) ? ": the device tasks are read from "
		    PT_TRACE ", which gives no op type, shapes or PMU values" :
		    "");
		free(meta);
	}
	if (util_dir_has(out, PT_TRACE)) {
		if (import_trace_file(s, trace, ctx, link, &why) == 0) {
			free(*cause);
			*cause = NULL;
			rc = 0;
		} else {
			store_load_warning(s, trace, -1, "%s", why);
			free(why);
		}
	}
	free(trace);
	if (rc != 0 && import_pytorch_db(s, out, ctx) == 0) {
		free(*cause);
		*cause = NULL;
		rc = 0;
	}
	/* Communication statistics alone are a profile of the rank. */
	if (rc != 0 && n > 0) {
		free(*cause);
		*cause = NULL;
		rc = 0;
	}
	free(out);
	free(top);
	return rc;
}
