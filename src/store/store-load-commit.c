/*
 * The end of a load: the tables derived from what was loaded (span
 * nesting, the statistics, the task sums), the index of the tables'
 * default order, then the views and manifest, in the load's one
 * transaction, before store-load.c closes the file and renames it into
 * place. The other indexes come after, on the finished file
 * (store-index.c), and the timeline's tables when first asked for
 * (store-lanes-side.c).
 */
#include <stdio.h>

#include "store-int.h"

/*
 * Where the timeline will start: the first start of a span, task, step or
 * counter sample, as meta origin_ns, so that the tables can show times
 * from it before any timeline is built. -1 with *cause set on failure.
 */
static int
store_load_commit_origin(struct store *s, char **cause)
{
	return store_exec(s, "INSERT OR REPLACE INTO meta SELECT 'origin_ns',"
	    " min(t) FROM (SELECT min(start_ns) AS t FROM api UNION ALL"
	    " SELECT min(start_ns) FROM task UNION ALL SELECT"
	    " min(iter_end_ns - iter_time_ns) FROM step UNION ALL SELECT"
	    " min(ts_ns) FROM counter) HAVING min(t) IS NOT NULL", cause);
}

/*
 * Finish the load: derived tables, indexes, views, manifest, then rename
 * the temporary file over PATH. S is freed in every case. On failure
 * return -1 and set *cause; PATH is then untouched.
 */
int
store_load_commit(struct store *s, char **cause)
{
	char	 buf[64];

	store_load_async_end(s);
	store_load_progress(s, "statistics", NULL, 0, 0);
	snprintf(buf, sizeof buf, "%lld", (long long)s->records);
	store_load_meta(s, "records", buf);
	if (s->unlisted > 0) {
		snprintf(buf, sizeof buf, "%lld", (long long)s->unlisted);
		store_load_meta(s, "tasks_not_in_op_summary", buf);
	}
	if (store_failed(s, cause) != 0 ||
	    store_nest_spans(s, cause) != 0 ||
	    store_stats_write(s, cause) != 0 ||
	    store_cluster_write(s, cause) != 0 ||
	    store_task_sum_write(s, cause) != 0 ||
	    store_exec(s, store_schema_index_load_sql, cause) != 0 ||
	    store_load_commit_origin(s, cause) != 0 ||
	    store_exec(s, store_schema_view_sql, cause) != 0 ||
	    store_empty_write(s, cause) != 0 ||
	    store_manifest_write(s, cause) != 0 ||
	    store_failed(s, cause) != 0) {
		store_load_abort(s);
		return -1;
	}
	snprintf(buf, sizeof buf, "PRAGMA user_version = %d",
	    STORE_SCHEMA_VERSION);
	if (store_exec(s, buf, cause) != 0 ||
	    store_exec(s, "COMMIT", cause) != 0) {
		store_load_abort(s);
		return -1;
	}
	return store_load_close(s, cause);
}
