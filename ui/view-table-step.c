/*
 * The step filter of a table view (s): the rows of one step only. Kernels
 * keep the tasks of the step (by their step id where they carry one, else
 * those starting in the step's interval); op_statistic and api_statistic
 * are computed afresh from the tasks and API spans of the step, as the
 * import computes them for the whole run (store_window_table); Steps keeps
 * the step's row. An empty answer brings every step back.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* Add the step's window to Q, for the tables whose rows have times. */
void
view_table_step_query(const struct view_table *vt, struct store_query *q)
{
	if (vt->step != NP_NA)
		store_window_query(vt->t, &vt->win, q);
}

/* Go back to every step. */
static void
view_table_step_all(struct view_table *vt)
{
	char	*cause = NULL;

	if (vt->step == NP_NA)
		return;
	vt->step = NP_NA;
	vt->t = vt->base;
	if (view_table_page_reload(vt, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	}
}

/* The prompt's answer: show step ANSWER only, or every step if empty. */
static void
view_table_step_done(void *arg, const char *answer)
{
	struct view_table		*vt = arg;
	const struct store_table	*t;
	struct store_window		 w;
	char				*cause = NULL, keys[64];
	int64_t				 n;
	int				 found;

	if (answer == NULL)
		return;
	if (*answer == '\0') {
		view_table_step_all(vt);
		return;
	}
	if (prompt_step_parse(answer, &n) != 0)
		return;
	found = store_window_step(session_store(), n, session_device(),
	    session_rank(), &w, &cause);
	/*
	 * A set of stores keeps its tasks in the ranks' stores: its own
	 * tables kept by step id take the step by id; the others need a
	 * rank's store, not "no step".
	 */
	if (found == 0 && store_set_is(session_store())) {
		found = store_window_set_step(session_store(), vt->base, n,
		    session_device(), session_rank(), &w);
		if (found == 0) {
			status_set(ROLE_ERROR, "step %lld: this view of the "
			    "ranks has no tasks; choose a rank (%s on it in "
			    "the Cluster view), whose store has them",
			    (long long)n, keys_names_for(
			    view_cluster_ops.keymap, ACTION_OPEN, keys,
			    sizeof keys));
			return;
		}
	}
	if (found <= 0) {
		if (found == 0)
			status_set(ROLE_ERROR, "no step %lld in this profile",
			    (long long)n);
		else
			status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if ((t = store_window_table(session_store(), vt->base, &w,
	    &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	vt->t = t;
	vt->step = n;
	vt->win = w;
	if (view_table_page_reload(vt, &cause) != 0) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		view_table_step_all(vt);
	}
}

/* s: ask for the step. */
int
view_table_step_key(struct view_table *vt)
{
	prompt_step("step (empty for all): ", vt->step, view_table_step_done,
	    vt);
	return REDRAW_STATUS;
}
