/*
 * The timeline's spans one at a time: the spans a zoomed-in frame draws,
 * the span under the cursor, the next and previous span, the flow from a
 * device task to the API span that launched it and back, and the details
 * of a span for the footer. Every lookup walks a cursor on the lane's
 * packed pieces (store-pieces.c), a seek on their blocks' key, never a
 * scan of a lane.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* The name of SP from its source row: a task, an API span or a step. */
static void
store_spans_name(struct store *s, struct store_span *sp)
{
	sqlite3_stmt	*stmt;

	free(sp->name);
	sp->name = NULL;
	if ((stmt = store_timeline_name_stmt(s, sp->type)) == NULL)
		return;
	sqlite3_bind_int64(stmt, 1, sp->id);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_text(stmt, 0) != NULL)
		sp->name = xstrdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_reset(stmt);
}

/*
 * What a cursor move FOUND says, with C released: 1 with the piece C is
 * on in *SP, named, 0 if none, -1 on failure.
 */
static int
store_spans_found(struct store_pieces *c, int found, struct store_span *sp)
{
	if (found == 1) {
		store_pieces_span(c, sp);
		store_spans_name(c->s, sp);
	}
	store_pieces_release(c);
	return found;
}

void
store_spans_release(struct store_span *sp)
{
	if (sp == NULL)
		return;
	free(sp->name);
	sp->name = NULL;
}

/* Append the piece C is on to *V (*N used). */
static void
store_spans_push(const struct store_pieces *c, struct store_span **v,
    size_t *n)
{
	*v = util_grow(*v, *n, 1, sizeof **v);
	store_pieces_span(c, &(*v)[(*n)++]);
}

/*
 * Of LANE's spans starting before T0, those reaching past it, into *V
 * (*N used, at most MAX) in start order: walk back while cover lasts.
 */
static int
store_spans_before(struct store_pieces *c, int64_t t0, size_t max,
    struct store_span **v, size_t *n, char **cause)
{
	struct store_span	 tmp;
	size_t			 i;
	int			 rc;

	rc = store_pieces_seek(c, t0, -1, cause);
	while (rc == 1 && *n < max && c->p[c->i].cend > t0) {
		if (c->p[c->i].end > t0)
			store_spans_push(c, v, n);
		rc = store_pieces_prev(c, cause);
	}
	for (i = 0; i < *n / 2; i++) {
		tmp = (*v)[i];
		(*v)[i] = (*v)[*n - 1 - i];
		(*v)[*n - 1 - i] = tmp;
	}
	return rc < 0 ? -1 : 0;
}

/*
 * The spans of LANE that meet [T0, T1), by start, at most MAX of them (a
 * zero-length span meets the range if it starts inside it), with names,
 * but for spans shorter than (T1 - T0) / MAX: too narrow for a view of
 * MAX spans to write a name in, and naming a hundred of them a lane would
 * double the cost of a zoomed-out frame. The caller releases each and
 * frees the array. On failure return -1 and
 * set *cause.
 */
int
store_spans_of_lane(struct store *s, int64_t lane, int64_t t0, int64_t t1,
    size_t max, struct store_span **spans, size_t *n, char **cause)
{
	struct store_pieces	 c;
	struct store_span	*v = NULL;
	size_t			 i;
	int			 rc;

	*spans = NULL;
	*n = 0;
	store_pieces_init(&c, s, lane);
	rc = store_spans_before(&c, t0, max, &v, n, cause);
	if (rc == 0 && (rc = store_pieces_seek(&c, t0, -1, cause)) >= 0) {
		while (*n < max && (rc = store_pieces_next(&c, cause)) == 1 &&
		    c.p[c.i].start < t1)
			store_spans_push(&c, &v, n);
	}
	store_pieces_release(&c);
	if (rc < 0) {
		free(v);
		*n = 0;
		return -1;
	}
	for (i = 0; i < *n; i++) {
		if (v[i].end_ns - v[i].start_ns >= (t1 - t0) / (int64_t)max)
			store_spans_name(s, &v[i]);
	}
	*spans = v;
	return 0;
}

/*
 * The span of LANE at instant T (the latest-starting one covering it) in
 * *SP. Return 1 if there is one, 0 if not, -1 with *cause set on failure.
 */
int
store_spans_at(struct store *s, int64_t lane, int64_t t,
    struct store_span *sp, char **cause)
{
	struct store_pieces		 c;
	const struct store_piece	*p;
	int				 rc;

	store_pieces_init(&c, s, lane);
	rc = store_pieces_seek(&c, t, INT64_MAX, cause);
	while (rc == 1) {
		p = &c.p[c.i];
		if (p->cend < t || (p->cend == t && p->start != t)) {
			rc = 0;
			break;
		}
		if (p->end > t || p->start == t)
			break;
		rc = store_pieces_prev(&c, cause);
	}
	return store_spans_found(&c, rc, sp);
}

/*
 * The span of LANE after (SPAN_NEXT) or before (SPAN_PREV) FROM, or, if
 * FROM is NULL, the first starting at or after T, or the last starting
 * before T. Return 1 and fill *SP, 0 if there is none, -1 on failure.
 */
int
store_spans_step(struct store *s, int64_t lane,
    const struct store_span *from, int64_t t, enum store_span_dir dir,
    struct store_span *sp, char **cause)
{
	struct store_pieces	 c;
	int64_t			 start, ord;
	int			 rc;

	start = from != NULL ? from->start_ns : t;
	ord = from != NULL ? from->ord : -1;
	store_pieces_init(&c, s, lane);
	rc = store_pieces_seek(&c, start, ord, cause);
	if (rc >= 0 && dir == SPAN_NEXT)
		rc = store_pieces_next(&c, cause);
	else if (rc == 1 && c.p[c.i].start == start && c.p[c.i].ord == ord)
		rc = store_pieces_prev(&c, cause);
	return store_spans_found(&c, rc, sp);
}

/*
 * Find the span of FROM's flow: the API span that launched a device task,
 * or the first device task an API span launched. Return 1 and fill *SP,
 * 0 if there is none, -1 with *cause set on failure.
 */
int
store_spans_flow(struct store *s, const struct store_span *from,
    struct store_span *sp, char **cause)
{
	struct store_pieces	 c;
	sqlite3_stmt		*stmt;
	int64_t			 lane = 0, start = 0, id = 0;
	int			 found = 0;

	if (from->type == SPAN_STEP)
		return 0;
	if (store_prepare(s, &stmt, from->type == SPAN_API ?
	    "SELECT f.lane, f.start, f.task FROM tl_flow f WHERE f.api = ?1"
	    " ORDER BY f.start, f.task LIMIT 1" :
	    "SELECT l.id, a.start_ns, a.id FROM tl_flow f"
	    " JOIN api a ON a.id = f.api JOIN tl_lane l ON l.kind = 0"
	    " AND l.device IS a.device AND l.rank IS a.rank"
	    " AND l.pid IS a.pid AND l.tid IS a.tid"
	    " AND l.depth = ifnull(a.depth, 0) WHERE f.task = ?1",
	    cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, from->id);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		lane = sqlite3_column_int64(stmt, 0);
		start = sqlite3_column_int64(stmt, 1);
		id = sqlite3_column_int64(stmt, 2);
		found = 1;
	}
	sqlite3_finalize(stmt);
	if (!found)
		return 0;
	store_pieces_init(&c, s, lane);
	return store_spans_found(&c, store_pieces_find(&c, start, id, cause),
	    sp);
}

/*
 * The details of SP as rows of two columns, Field and Value: for a device
 * task its name, type, stream, task id, start, duration, op type, shapes
 * and launching API; for an API span its level, thread and depth. The
 * caller frees the rows. On failure return NULL and set *cause.
 */
struct store_rows *
store_spans_detail(struct store *s, const struct store_span *sp,
    char **cause)
{
	static const char *task_fields[] = { "Name", "Type", "Stream",
	    "Task ID", "Start(us)", "Duration(us)", "OP Type",
	    "Input Shapes", "Output Shapes", "API" };
	static const char *api_fields[] = { "Name", "Level", "Thread",
	    "Depth", "Start(us)", "Duration(us)", "Connection" };
	static const char *step_fields[] = { "Name", "Iteration",
	    "Start(us)", "Duration(us)", "FP to BP Time(us)" };
	struct store_rows	*r;
	sqlite3_stmt		*stmt;
	struct store_val	 vals[2] = { { .kind = VAL_NONE } };
	const char		*sql, **fields;
	char			*cells[2];
	size_t			 nfields, i;
	unsigned		 times;		/* bit N: field N is ns */

	/* Times are read as ns and printed exactly: a double loses them. */
	if (sp->type == SPAN_API) {
		sql = "SELECT n.s, l.s, a.tid, a.depth, a.start_ns,"
		    " a.end_ns - a.start_ns, a.conn FROM api a"
		    " LEFT JOIN str n ON n.id = a.name"
		    " LEFT JOIN str l ON l.id = a.level WHERE a.id = ?";
		fields = api_fields;
		nfields = sizeof api_fields / sizeof api_fields[0];
		times = 1 << 4 | 1 << 5;
	} else if (sp->type == SPAN_STEP) {
		sql = "SELECT 'Step ' || iter, iter,"
		    " iter_end_ns - iter_time_ns, iter_time_ns, fp_bp_ns"
		    " FROM step WHERE rowid = ?";
		fields = step_fields;
		nfields = sizeof step_fields / sizeof step_fields[0];
		times = 1 << 2 | 1 << 3 | 1 << 4;
	} else {
		sql = "SELECT n.s, ty.s, t.stream, t.task, t.start_ns,"
		    " t.dur_ns, o.s, i.s, os.s,"
		    " (SELECT an.s FROM tl_flow f JOIN api a ON a.id = f.api"
		    " JOIN str an ON an.id = a.name WHERE f.task = t.id)"
		    " FROM task t LEFT JOIN str n ON n.id = t.name"
		    " LEFT JOIN str ty ON ty.id = t.task_type"
		    " LEFT JOIN str o ON o.id = t.op_type"
		    " LEFT JOIN str i ON i.id = t.in_shapes"
		    " LEFT JOIN str os ON os.id = t.out_shapes WHERE t.id = ?";
		fields = task_fields;
		nfields = sizeof task_fields / sizeof task_fields[0];
		times = 1 << 4 | 1 << 5;
	}
	if (store_prepare(s, &stmt, sql, cause) != 0)
		return NULL;
	sqlite3_bind_int64(stmt, 1, sp->id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		xasprintf(cause, "no span %lld", (long long)sp->id);
		sqlite3_finalize(stmt);
		return NULL;
	}
	r = store_rows_create(2);
	r->names[0] = xstrdup("Field");
	r->names[1] = xstrdup("Value");
	r->fmts[0] = r->fmts[1] = FMT_TEXT;
	for (i = 0; i < nfields; i++) {
		cells[0] = xstrdup(fields[i]);
		if ((times & 1u << i) && sqlite3_column_type(stmt, (int)i) !=
		    SQLITE_NULL) {
			cells[1] = store_fmt_dup(sqlite3_column_value(stmt,
			    (int)i), FMT_US3, &vals[1]);
		} else {
			cells[1] = store_iter_dup(stmt, (int)i);
			vals[1].kind = VAL_NONE;
		}
		store_rows_add(r, cells, vals);
	}
	sqlite3_finalize(stmt);
	return r;
}
