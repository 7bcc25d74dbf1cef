/*
 * From a table to the timeline: t on a task row of Kernels opens the
 * timeline centred on that task, t on a step of Steps framing that step,
 * t on a marker of Markers on its thread's marker lane, t on an op type
 * of Op statistic on its first instance, and t again on the same row (or
 * n and N in the timeline it opened) on the next and previous ones, in
 * start order. Which instance was shown last is kept here, so the table
 * and the timeline walk the same list.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The op type being walked and the instance shown last. */
static struct {
	char				*op;
	char				*core;
	struct store_op_instances	 q;
	int64_t				 id;		/* 0: none yet */
	int64_t				 start;
	int64_t				 k;		/* from 1 */
	int64_t				 count;
} view_jump_at;

/* The cell of column NAME in row I of VT's page, or NULL. */
static const char *
view_jump_cell(const struct view_table *vt, size_t i, const char *name)
{
	size_t	 j;

	for (j = 0; j < vt->ncols && j < vt->page->ncols; j++) {
		if (strcmp(vt->names[j], name) == 0)
			return store_rows_cell(vt->page, i, j);
	}
	return NULL;
}

/* A cell as an integer: "host" is the host device, "N/A" NP_NA. */
static int64_t
view_jump_int(const char *s)
{
	char		*end;
	long long	 v;

	if (s == NULL)
		return NP_NA;
	if (strcmp(s, "host") == 0)
		return NP_HOST_DEVICE;
	v = strtoll(s, &end, 10);
	return end == s || *end != '\0' ? NP_NA : (int64_t)v;
}

/*
 * Open the timeline over the current view on span SP (found if RC is 1;
 * else the error CAUSE or WHY), framing it when FIT, its n and N calling
 * STEP (NULL: the keys walk nothing). SP is released.
 */
static int
view_jump_push(int rc, char *cause, const char *why, struct store_span *sp,
    view_timeline_step_cb step, bool fit)
{
	struct view_timeline_arg	 arg;

	if (rc != 1) {
		status_set(ROLE_ERROR, "%s", rc < 0 ? cause : why);
		free(cause);
		return REDRAW_STATUS;
	}
	arg.span = sp;
	arg.step = step;
	arg.fit = fit;
	arg.cursor = NP_NA;
	rc = view_push(&view_timeline_ops, &arg, NULL);
	store_spans_release(sp);
	return rc == 0 ? REDRAW_ALL : REDRAW_STATUS;
}

/*
 * True if the timeline of the store shown is there to jump into. Its
 * tables are built the first time they are asked for, in the background:
 * until then the status line says how long that has taken.
 */
static bool
view_jump_ready(void)
{
	double		 secs;
	char		*cause = NULL;
	int		 rc;

	/* Under --compare the timeline opens on both runs. */
	if ((rc = view_timeline_ready(&secs, &cause)) == 1)
		return true;
	if (rc == 0)
		status_set(ROLE_NORMAL, "the timeline is being built (%.0f s"
		    " so far): try again when it is done", secs);
	else
		status_set(ROLE_ERROR, "%s", cause);
	free(cause);
	return false;
}

/* The timeline on task ID, its n and N calling STEP (or NULL). */
static int
view_jump_open(int64_t id, view_timeline_step_cb step)
{
	struct store_span	 sp;
	char			*cause = NULL;
	int			 rc;

	rc = store_jump_task_span(session_store(), id, &sp, &cause);
	return view_jump_push(rc, cause, "the task is not in the timeline",
	    &sp, step, false);
}

/* The timeline on task row ID (a line of a detail page). */
int
view_jump_task_id(int64_t id)
{
	if (!view_jump_ready())
		return REDRAW_STATUS;
	return view_jump_open(id, NULL);
}

/*
 * The rank of row I: its Rank cell where the table has one (several
 * ranks, all shown), else the rank the session shows.
 */
static int64_t
view_jump_rank(const struct view_table *vt, size_t i)
{
	const char	*r = view_jump_cell(vt, i, "Rank");

	return r != NULL ? view_jump_int(r) : session_rank();
}

/* t on a row of op_summary: its task. */
static int
view_jump_task(struct view_table *vt, size_t i)
{
	const char	*start = view_jump_cell(vt, i, "Task Start Time(us)");
	int64_t		 ns, id;
	char		*cause = NULL;
	int		 rc;

	if (start == NULL || util_parse_ns(start, strlen(start), &ns) != 0) {
		status_set(ROLE_ERROR, "this row has no start time");
		return REDRAW_STATUS;
	}
	rc = store_jump_locate(session_store(), view_jump_int(
	    view_jump_cell(vt, i, "Device_id")), view_jump_rank(vt, i),
	    view_jump_int(view_jump_cell(vt, i, "Stream ID")),
	    view_jump_int(view_jump_cell(vt, i, "Task ID")), ns, &id, &cause);
	if (rc != 1) {
		status_set(ROLE_ERROR, "%s", rc < 0 ? cause :
		    "no such task in the store");
		free(cause);
		return REDRAW_STATUS;
	}
	return view_jump_open(id, NULL);
}

static void
view_jump_forget(void)
{
	free(view_jump_at.op);
	free(view_jump_at.core);
	memset(&view_jump_at, 0, sizeof view_jump_at);
}

/*
 * Move to the next (DIR SPAN_NEXT) or previous instance of the op type,
 * wrapping around at either end. Return 1 with its row id in *ID, 0 if
 * there is none, -1 on failure (the message is on the status line).
 */
static int
view_jump_move(enum store_span_dir dir, int64_t *id)
{
	struct store	*s = session_store();
	int64_t		 start;
	char		*cause = NULL;
	int		 rc;

	rc = store_jump_op_instance(s, &view_jump_at.q, view_jump_at.start,
	    view_jump_at.id, dir, id, &start, &cause);
	if (rc == 0 && view_jump_at.id != 0) {
		/* Past the last (or first): around to the other end. */
		rc = store_jump_op_instance(s, &view_jump_at.q, 0, 0, dir, id,
		    &start, &cause);
		view_jump_at.k = dir == SPAN_NEXT ? 0 : view_jump_at.count + 1;
	}
	if (rc != 1) {
		if (rc < 0)
			status_set(ROLE_ERROR, "%s", cause);
		else
			status_set(ROLE_ERROR, "no task of op type '%s'",
			    view_jump_at.op);
		free(cause);
		return rc;
	}
	view_jump_at.id = *id;
	view_jump_at.start = start;
	view_jump_at.k += dir == SPAN_NEXT ? 1 : -1;
	return 1;
}

/* The status line after a move: which instance this is. */
static void
view_jump_say(void)
{
	if (view_jump_at.k >= 1)
		status_set(ROLE_NORMAL, "%s: instance %lld of %lld (n, N:"
		    " next, previous)", view_jump_at.op,
		    (long long)view_jump_at.k, (long long)view_jump_at.count);
}

/*
 * n and N in a timeline opened on an op type: the next or previous
 * instance as a span in *SP. Return 1, or 0 with the reason on the status
 * line.
 */
static int
view_jump_step(enum store_span_dir dir, struct store_span *sp)
{
	int64_t	 id;
	char	*cause = NULL;

	if (view_jump_at.op == NULL) {
		status_set(ROLE_ERROR, "no op type to walk");
		return 0;
	}
	if (view_jump_move(dir, &id) != 1)
		return 0;
	if (store_jump_task_span(session_store(), id, sp, &cause) != 1) {
		status_set(ROLE_ERROR, "%s", cause != NULL ? cause :
		    "the task is not in the timeline");
		free(cause);
		return 0;
	}
	view_jump_say();
	return 1;
}

/* t on a row of op_statistic: the first instance, or the next one. */
static int
view_jump_op(struct view_table *vt, size_t i)
{
	const char	*op = view_jump_cell(vt, i, "OP Type");
	const char	*core = view_jump_cell(vt, i, "Core Type");
	int64_t		 device, rank, id;
	char		*cause = NULL;

	if (op == NULL) {
		status_set(ROLE_ERROR, "this row has no op type");
		return REDRAW_STATUS;
	}
	device = view_jump_int(view_jump_cell(vt, i, "Device_id"));
	rank = view_jump_rank(vt, i);
	if (view_jump_at.op == NULL || strcmp(view_jump_at.op, op) != 0 ||
	    (view_jump_at.core == NULL) != (core == NULL) ||
	    (core != NULL && strcmp(view_jump_at.core, core) != 0) ||
	    view_jump_at.q.device != device ||
	    view_jump_at.q.rank != rank) {
		view_jump_forget();
		view_jump_at.op = xstrdup(op);
		view_jump_at.core = core != NULL ? xstrdup(core) : NULL;
		view_jump_at.q.op_type = view_jump_at.op;
		view_jump_at.q.core_type = view_jump_at.core;
		view_jump_at.q.device = device;
		view_jump_at.q.rank = rank;
		view_jump_at.q.from_ns = view_jump_at.q.to_ns = NP_NA;
		view_jump_at.count = store_jump_op_count(session_store(),
		    &view_jump_at.q, &cause);
		if (view_jump_at.count < 0) {
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			view_jump_forget();
			return REDRAW_STATUS;
		}
	}
	if (view_jump_move(SPAN_NEXT, &id) != 1)
		return REDRAW_STATUS;
	view_jump_say();
	return view_jump_open(id, view_jump_step) | REDRAW_STATUS;
}

/* t on a row of step_trace: the timeline framing that step. */
static int
view_jump_step_row(struct view_table *vt, size_t i)
{
	struct store_span	 sp;
	char			*cause = NULL;
	int64_t			 iter;
	int			 rc;

	iter = view_jump_int(view_jump_cell(vt, i, "Iteration ID"));
	if (iter == NP_NA) {
		status_set(ROLE_ERROR, "this row has no iteration");
		return REDRAW_STATUS;
	}
	rc = store_jump_step_span(session_store(), view_jump_int(
	    view_jump_cell(vt, i, "Device_id")), view_jump_rank(vt, i), iter,
	    &sp, &cause);
	return view_jump_push(rc, cause, "the step is not in the timeline "
	    "(no start or time)", &sp, NULL, true);
}

/*
 * The counter lane of memory_record's component COMP into *SP, its first
 * and last sample as its start and end: its Total Allocated series where
 * it has one, else its first one. False if it has none.
 */
static bool
view_jump_memory_lane(const char *comp, struct store_span *sp)
{
	struct store_lane	*lanes;
	size_t			 n, i, len;
	bool			 found = false;
	char			*want, *cause = NULL;

	if (store_lanes(session_store(), &lanes, &n, &cause) != 0) {
		free(cause);
		return false;
	}
	xasprintf(&want, "Memory %s", comp);
	len = strlen(want);
	for (i = 0; i < n; i++) {
		if (lanes[i].kind != LANE_COUNTER ||
		    strncmp(lanes[i].name, want, len) != 0 ||
		    (lanes[i].name[len] != '\0' &&
		    lanes[i].name[len] != ' ') || (session_rank() != NP_NA &&
		    lanes[i].rank != session_rank()))
			continue;
		/* Counter lane ids are below zero: -1 is one of them. */
		if (found && strstr(lanes[i].name, "Allocated") == NULL)
			continue;
		found = true;
		sp->lane = lanes[i].id;
		sp->start_ns = lanes[i].start_ns;
		sp->end_ns = lanes[i].end_ns > lanes[i].start_ns ?
		    lanes[i].end_ns : lanes[i].start_ns + 1;
	}
	store_lanes_free(lanes, n);
	free(want);
	return found;
}

/*
 * t on a row of memory_record: the memory chart in the timeline, the
 * cursor at the row's time on its component's lane.
 */
static int
view_jump_memory_row(struct view_table *vt, size_t i)
{
	struct view_timeline_arg	 arg;
	struct store_span		 sp;
	const char			*ts, *comp;
	int64_t				 ns;

	ts = view_jump_cell(vt, i, "Timestamp(us)");
	comp = view_jump_cell(vt, i, "Component");
	if (ts == NULL || util_parse_ns(ts, strlen(ts), &ns) != 0) {
		status_set(ROLE_ERROR, "this row has no time");
		return REDRAW_STATUS;
	}
	memset(&sp, 0, sizeof sp);
	if (!view_jump_memory_lane(comp != NULL ? comp : "", &sp)) {
		status_set(ROLE_ERROR, "no memory chart for this component "
		    "in the timeline");
		return REDRAW_STATUS;
	}
	/* The whole series framed, the cursor at the row's time. */
	sp.type = -1;
	arg.span = &sp;
	arg.step = NULL;
	arg.fit = true;
	arg.cursor = ns;
	return view_push(&view_timeline_ops, &arg, NULL) == 0 ? REDRAW_ALL :
	    REDRAW_STATUS;
}

/* t on a row of the Markers (msprof_tx): the marker on its thread's lane. */
static int
view_jump_marker_row(struct view_table *vt, size_t i)
{
	struct store_span	 sp;
	const char		*start;
	char			*cause = NULL;
	int64_t			 ns;
	int			 rc;

	start = view_jump_cell(vt, i, "Start_time(us)");
	if (start == NULL || util_parse_ns(start, strlen(start), &ns) != 0) {
		status_set(ROLE_ERROR, "this row has no start time");
		return REDRAW_STATUS;
	}
	rc = store_jump_marker_span(session_store(), view_jump_int(
	    view_jump_cell(vt, i, "pid")), view_jump_int(view_jump_cell(vt,
	    i, "tid")), ns, view_jump_cell(vt, i, "message"), &sp, &cause);
	return view_jump_push(rc, cause, "the marker is not in the timeline",
	    &sp, NULL, false);
}

/*
 * The jump key of a table view: a task of op_summary, an op type of
 * op_statistic, a step of step_trace or a marker of msprof_tx, in the
 * timeline.
 */
int
view_jump_key(struct view_table *vt)
{
	const char	*name = store_tables_name(vt->t);
	size_t		 i;

	if (view_table_page_row(vt, vt->cur, &i) == NULL)
		return REDRAW_NONE;
	if (!view_jump_ready())
		return REDRAW_STATUS;
	if (strcmp(name, "op_summary") == 0)
		return view_jump_task(vt, i);
	if (strcmp(name, "op_statistic") == 0)
		return view_jump_op(vt, i);
	if (strcmp(name, "step_trace") == 0)
		return view_jump_step_row(vt, i);
	if (strcmp(name, "msprof_tx") == 0)
		return view_jump_marker_row(vt, i);
	if (strcmp(name, "memory_record") == 0)
		return view_jump_memory_row(vt, i);
	status_set(ROLE_ERROR, "t shows a task (Kernels), an op type "
	    "(Op statistic), a step (Steps), a marker (Markers) or memory "
	    "(memory_record) in the timeline");
	return REDRAW_STATUS;
}
