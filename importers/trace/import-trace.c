/*
 * Chrome-trace JSON given on its own: a trace_view.json, msprof_*.json or
 * legacy timeline JSON file named as PATH, or a folder that holds such
 * traces and no CSV. The PyTorch and msprof importers read the traces of
 * their own folders through import_trace_file() after the CSVs, so that
 * device tasks link to the CSV rows instead of doubling them.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-int.h"

#define TRACE_SNIFF	4096

/* True if FILE begins like a chrome trace: events with "ph" members. */
static bool
import_trace_sniff(const char *file)
{
	char	 buf[TRACE_SNIFF + 1];
	ssize_t	 n;
	size_t	 i = 0;
	int	 fd;

	if (!util_has_suffix(file, ".json") ||
	    (fd = util_open_input(file)) == -1)
		return false;
	n = read(fd, buf, TRACE_SNIFF);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;		/* a UTF-8 byte order mark */
	while (i < (size_t)n && strchr(" \t\r\n", buf[i]) != NULL)
		i++;
	if (buf[i] == '{')
		return strstr(buf, "\"traceEvents\"") != NULL;
	return buf[i] == '[' && strstr(buf, "\"ph\"") != NULL;
}

/* True if NAME is a trace file of an msprof export: msprof_*.json. */
bool
import_trace_is_msprof(const char *name)
{
	return util_has_prefix(name, "msprof_") &&
	    util_has_suffix(name, ".json");
}

/* The trace files in DIR, sorted; the caller frees them. */
static char **
import_trace_list(const char *dir, size_t *n, bool *csv)
{
	char	**names, **traces = NULL, *path;
	size_t	  all, i;

	*n = 0;
	*csv = false;
	names = util_dir_list(dir, &all);
	for (i = 0; i < all; i++) {
		if (util_has_suffix(names[i], ".csv"))
			*csv = true;
		path = util_path_join(dir, names[i]);
		if (import_trace_sniff(path)) {
			traces = xreallocarray(traces, *n + 1, sizeof *traces);
			traces[(*n)++] = path;
		} else
			free(path);
	}
	util_strv_free(names, all);
	return traces;
}

int
import_trace_probe(const char *path, bool isdir)
{
	char	**traces;
	size_t	  n;
	bool	  csv;

	if (!isdir)
		return import_trace_sniff(path) ? IMPORT_YES : IMPORT_NO;
	traces = import_trace_list(path, &n, &csv);
	util_strv_free(traces, n);
	return n > 0 && !csv ? IMPORT_YES : IMPORT_NO;
}

/*
 * Load the trace PATH for the unit CTX. LINK says the unit's task rows came
 * from a CSV already. Problems inside the file are warnings; return -1 and
 * set *cause only if it cannot be read.
 */
int
import_trace_file(struct store *s, const char *path, struct import_ctx *ctx,
    bool link, char **cause)
{
	struct import_ctx	 fctx = *ctx;
	struct trace_load	*l;
	char			*base, *legacy;
	int64_t			 device;
	int			 rc;

	/*
	 * Legacy timeline files name their device, model and iteration:
	 * msprof_<dev>_<model>_<iter>.json; the tasks keep the last two.
	 */
	base = import_rows_base(path, &device);
	free(base);
	if (fctx.device == NP_NA)
		fctx.device = device;
	legacy = import_rows_legacy(path, &fctx.model, &fctx.iter);
	if (legacy != NULL)
		store_load_meta(s, "layout", "legacy");
	free(legacy);
	store_load_file(s, path);
	store_load_progress(s, "reading", path, 0, -1);
	l = trace_event_create(s, path, &fctx, link);
	rc = trace_read_file(s, path, trace_event_event, l, cause);
	trace_event_free(l);
	return rc;
}

int
import_trace_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	char	**traces, *why = NULL;
	size_t	  n, i, ok = 0;
	bool	  csv;

	store_load_meta(s, "format", "trace");
	if (import_trace_sniff(path))
		return import_trace_file(s, path, ctx, false, cause);
	traces = import_trace_list(path, &n, &csv);
	for (i = 0; i < n; i++) {
		if (import_trace_file(s, traces[i], ctx, false, &why) == 0) {
			ok++;
			continue;
		}
		store_load_warning(s, traces[i], -1, "%s", why);
		free(why);
		why = NULL;
	}
	util_strv_free(traces, n);
	if (ok == 0) {
		xasprintf(cause, "no trace in '%s' could be read", path);
		return -1;
	}
	return 0;
}
