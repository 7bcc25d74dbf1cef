/*
 * The steps of a PyTorch database: STEP_TIME(id, startNs, endNs) rows
 * become the store's step_trace rows (Iteration ID, Iteration End and
 * Iteration Time; the database has no FP or BP points), and each task of
 * the rank takes the step whose time holds the start of the host span that
 * launched it (or, with no launch known, its own start), as the Step Id
 * of kernel_details.csv does. Run after the tasks are linked to their
 * spans.
 */
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/*
 * The device the database F describes: its rank's in RANK_DEVICE_MAP, else
 * the one device of its tasks, else the unit's.
 */
static int64_t
db_steps_device(struct store_foreign *f, struct import_ctx *ctx)
{
	struct store_foreign_rows	*r;
	char				*sql, *why = NULL;
	int64_t				 dev = NP_NA;

	if (store_foreign_has(f, "RANK_DEVICE_MAP", "deviceId"))
		xasprintf(&sql, "SELECT deviceId FROM RANK_DEVICE_MAP"
		    " WHERE rankId = %lld OR (SELECT count(*) FROM"
		    " RANK_DEVICE_MAP) = 1 ORDER BY rankId <> %lld LIMIT 1",
		    (long long)ctx->rank, (long long)ctx->rank);
	else if (store_foreign_has(f, "TASK", "deviceId"))
		sql = xstrdup("SELECT min(deviceId) FROM TASK HAVING"
		    " count(DISTINCT deviceId) = 1");
	else
		return ctx->device;
	if ((r = store_foreign_query(f, sql, &why)) != NULL) {
		if (store_foreign_next(r, &why) == 1)
			dev = store_foreign_int(r, 0);
		store_foreign_rows_free(r);
	}
	free(why);
	free(sql);
	return dev != NP_NA ? dev : ctx->device;
}

/*
 * Load STEP_TIME of the vendor database F (file PATH) and give the rank's
 * tasks their steps. Return the steps loaded; a table that cannot be read
 * is a warning.
 */
int64_t
db_steps_load(struct store *s, struct store_foreign *f, const char *path,
    struct import_ctx *ctx)
{
	struct store_foreign_rows	*r;
	struct store_step		 st;
	char				*why = NULL;
	int64_t				 n = 0, total = 0, start, dev;
	int64_t				 backwards = 0;
	int				 rc;

	if (!store_foreign_has(f, "STEP_TIME", "endNs"))
		return 0;
	dev = db_steps_device(f, ctx);
	if ((r = store_foreign_query(f, "SELECT id, startNs, endNs FROM"
	    " STEP_TIME ORDER BY startNs, id", &why)) == NULL) {
		store_load_warning(s, path, -1, "STEP_TIME not imported: %s",
		    why);
		free(why);
		return 0;
	}
	while ((rc = store_foreign_next(r, &why)) == 1) {
		total++;
		memset(&st, 0, sizeof st);
		st.device = dev;
		st.rank = ctx->rank;
		st.model_id = NP_NA;
		st.iter = store_foreign_int(r, 0);
		start = store_foreign_int(r, 1);
		st.iter_end_ns = store_foreign_int(r, 2);
		st.fp_start_ns = st.bp_end_ns = st.fp_bp_ns = NP_NA;
		st.refresh_ns = st.data_aug_ns = NP_NA;
		st.iter_time_ns = NP_NA;
		if (start != NP_NA && st.iter_end_ns != NP_NA &&
		    !util_sub(st.iter_end_ns, start, &st.iter_time_ns))
			st.iter_time_ns = NP_NA;
		if (st.iter == NP_NA)
			continue;
		/* No tool writes an end before its start: a damaged row. */
		if (st.iter_time_ns != NP_NA && st.iter_time_ns < 0) {
			backwards++;
			continue;
		}
		store_load_step(s, &st);
		if (st.iter_time_ns != NP_NA)
			store_trace_load_task_step(s, ctx->rank, st.iter, start,
			    st.iter_end_ns);
		n++;
	}
	if (rc < 0) {
		store_load_warning(s, path, -1, "STEP_TIME not imported "
		    "whole: %s", why);
		free(why);
	}
	db_rows_nonint(s, path, "STEP_TIME", r, total);
	store_foreign_rows_free(r);
	if (backwards > 0)
		store_load_warning(s, path, -1, "%lld of %lld STEP_TIME rows "
		    "skipped: endNs before startNs", (long long)backwards,
		    (long long)total);
	if (n + backwards < total)
		store_load_warning(s, path, -1, "%lld of %lld STEP_TIME rows "
		    "skipped: no step id", (long long)(total - n - backwards),
		    (long long)total);
	return n;
}
