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
 * from it before any timeline is built. Those of the spans and tasks, the
 * largest tables, which have no index yet, were kept as they were
 * written. -1 with *cause set on failure.
 */
static int
store_load_commit_origin(struct store *s, char **cause)
{
	sqlite3_stmt	*stmt;

	if (store_prepare(s, &stmt, "INSERT OR REPLACE INTO meta SELECT"
	    " 'origin_ns', min(t) FROM (SELECT ?1 AS t UNION ALL SELECT ?2"
	    " UNION ALL SELECT min(iter_end_ns - iter_time_ns) FROM step"
	    " UNION ALL SELECT min(ts_ns) FROM counter) HAVING min(t) IS NOT"
	    " NULL", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, s->first_task_ns != INT64_MAX ?
	    s->first_task_ns : NP_NA);
	store_load_bind_i64(stmt, 2, s->first_api_ns != INT64_MAX ?
	    s->first_api_ns : NP_NA);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	return store_failed(s, cause);
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

	/* The writer thread may still have rows to write. */
	if (s->async != NULL)
		store_load_progress(s, "writing", NULL, 0, 0);
	store_load_async_end(s);
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
