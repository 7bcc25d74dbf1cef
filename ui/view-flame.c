/*
 * The flame view: where the time goes by call path (the store's stacks:
 * CANN call path, Python call stacks or op type > name > shapes), as an
 * icicle, a top-down tree, a bottom-up tree, or the sandwich of one frame
 * (its callers above, its callees below). Enter zooms into a frame,
 * Backspace or u zooms back; / highlights the frames a regex matches and
 * says what share of the time they cover; w, c and S pick the weight, the
 * source and the step, and rebuild.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

static const struct key_binding view_flame_keys[] = {
	{ 'j', ACTION_DOWN, "The heaviest callee; in a tree, the next line" },
	{ KEY_DOWN, ACTION_DOWN, NULL },
	{ 'k', ACTION_UP, "The caller; in a tree, the previous line" },
	{ KEY_UP, ACTION_UP, NULL },
	{ 'h', ACTION_LEFT, "The frame drawn left of the selected one" },
	{ KEY_LEFT, ACTION_LEFT, NULL },
	{ 'l', ACTION_RIGHT, "The frame drawn right of the selected one" },
	{ KEY_RIGHT, ACTION_RIGHT, NULL },
	{ 'g', ACTION_TOP, "The root; in a tree, the first line" },
	{ KEY_HOME, ACTION_TOP, NULL },
	{ 'G', ACTION_BOTTOM, "Down the heaviest callees to a leaf (the hot "
	    "path); in a tree, the last line" },
	{ KEY_END, ACTION_BOTTOM, NULL },
	{ '\r', ACTION_OPEN, "Zoom into the frame (a bottom-up line: its "
	    "sandwich)" },
	{ KEY_ENTER, ACTION_OPEN, NULL },
	{ 'u', ACTION_ZOOM_OUT, NULL },
	{ KEY_BACKSPACE, ACTION_ZOOM_OUT, NULL },
	{ 0x7f, ACTION_ZOOM_OUT, NULL },
	{ 0x08, ACTION_ZOOM_OUT, NULL },
	{ 'v', ACTION_FLAME_MODE, NULL },
	{ 'w', ACTION_WEIGHT, NULL },
	{ 'c', ACTION_STACKS, NULL },
	{ 's', ACTION_STEP, NULL },
	{ '/', ACTION_SEARCH, "Highlight frames matching a regex" },
	{ 'n', ACTION_NEXT_MATCH, NULL },
	{ 'N', ACTION_PREV_MATCH, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_flame_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_CLOSE, "quit" },
	{ ACTION_OPEN, "zoom" },
	{ ACTION_ZOOM_OUT, "out" },
	{ ACTION_SEARCH, "search" },
	{ ACTION_FLAME_MODE, "mode" },
	{ ACTION_WEIGHT, "weight" },
	{ ACTION_STACKS, "stacks" },
	{ ACTION_STEP, "step" },
	{ ACTION_NONE, NULL }
};

/*
 * With --compare, the base run's tree for the same options and the
 * source ST was built from, to colour ST's frames by what they grew.
 */
static void
view_flame_base_build(struct view_flame *vf, const struct store_stacks *st)
{
	struct store_stacks_opts	 o = vf->o;
	char				*cause = NULL;

	store_stacks_free(vf->base);
	vf->base = NULL;
	if (session_compare_base() == NULL)
		return;
	o.source = st->source;
	if (session_compare_opts() != NULL &&
	    session_compare_opts()->base_rank != NP_NA)
		o.rank = session_compare_opts()->base_rank;
	if ((vf->base = store_stacks_build(session_compare_base(), &o,
	    &cause)) == NULL) {
		status_set(ROLE_ERROR, "the base run's call tree: %s", cause);
		free(cause);
	}
}

/*
 * The frame of the base run's tree at the path of F (a frame of the tree
 * shown), or NULL if the base has none there.
 */
const struct store_frame *
view_flame_base(const struct view_flame *vf, const struct store_frame *f)
{
	const struct store_frame	*path[256], *b, *found;
	size_t				 n = 0, lo, hi, mid;
	int				 c;

	if (vf->base == NULL)
		return NULL;
	for (; f != NULL && f->parent != NULL; f = f->parent) {
		if (n == sizeof path / sizeof path[0])
			return NULL;
		path[n++] = f;
	}
	for (b = vf->base->root; b != NULL && n > 0; n--) {
		/* The callees are sorted by name. */
		lo = 0;
		hi = b->nkids;
		found = NULL;
		while (lo < hi && found == NULL) {
			mid = lo + (hi - lo) / 2;
			c = strcmp(b->kids[mid]->name, path[n - 1]->name);
			if (c == 0)
				found = b->kids[mid];
			else if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		b = found;
	}
	return b;
}

/* Show tree ST, built for the view's options, from its root. */
static void
view_flame_install(struct view_flame *vf, struct store_stacks *st)
{
	char	*cause;

	view_flame_base_build(vf, st);
	store_stacks_free(vf->st);
	store_stacks_free(vf->inv);
	store_stacks_free(vf->callers);
	store_stacks_free(vf->callees);
	vf->inv = vf->callers = vf->callees = NULL;
	free(vf->sandwich);
	vf->sandwich = NULL;
	vf->st = st;
	vf->root = vf->sel = st->root;
	vf->nzooms = 0;
	vf->depth0 = 0;
	vf->mode = FLAME_ICICLE;
	if (vf->m != NULL)
		vf->hit = store_stacks_search(st, vf->m, &vf->nhit);
	if (vf->m != NULL && matcher_failed(vf->m, &cause)) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		matcher_free(vf->m);
		vf->m = NULL;
		free(vf->search);
		vf->search = NULL;
	}
	free(vf->error);
	vf->error = NULL;
}

/*
 * Rebuild the stacks for the view's options, OLD being those of the tree
 * shown: in the background, the tree shown (if any) staying until the new
 * one is there. -1 with *cause if not even that could start.
 */
static int
view_flame_build(struct view_flame *vf,
    const struct store_stacks_opts *old, char **cause)
{
	vf->o.device = session_device();
	vf->o.rank = session_rank();
	store_stacks_job_free(vf->job);
	vf->old = *old;
	vf->t0 = util_now();
	if ((vf->job = store_stacks_job_start(session_store(), &vf->o,
	    cause)) == NULL)
		return -1;
	return 0;
}

/*
 * A source c asked for had no stacks (*CAUSE, taken): start the next one,
 * unless the next is the source of the tree shown. True if one started.
 */
static bool
view_flame_cycle_on(struct view_flame *vf, char **cause)
{
	struct store_stacks_opts	 old = vf->old;
	char				*why = NULL;

	if (!vf->cycling)
		return false;
	if (vf->cycle_why == NULL)
		vf->cycle_why = *cause;
	else
		free(*cause);
	*cause = NULL;
	for (;;) {
		vf->o.source = (vf->o.source + 1) % (STACKS_MINDSPORE + 1);
		if (vf->o.source == old.source)
			return false;
		if (view_flame_build(vf, &old, &why) == 0)
			return true;
		free(why);
		why = NULL;
	}
}

/*
 * The job's progress: install its tree when it is done, or say why there
 * is none and go back to the options of the tree shown.
 */
static int
view_flame_tick(struct view *v, enum view_work *w)
{
	struct view_flame	*vf = v->data;
	struct store_stacks	*st;
	char			*cause = NULL;
	int			 rc;

	*w = WORK_IDLE;
	if (vf->job == NULL)
		return REDRAW_NONE;
	if ((rc = store_stacks_job_poll(vf->job, &st, &cause)) == 0) {
		*w = WORK_SHOWN;	/* its progress line is on screen */
		return REDRAW_ALL;
	}
	store_stacks_job_free(vf->job);
	vf->job = NULL;
	if (rc != 1 && view_flame_cycle_on(vf, &cause)) {
		*w = WORK_SHOWN;
		return REDRAW_ALL;
	}
	vf->cycling = false;
	if (rc == 1) {
		view_flame_install(vf, st);
		if (vf->cycle_why != NULL)
			status_set(ROLE_NORMAL, "%s: the next source with "
			    "stacks is %s", vf->cycle_why,
			    store_stacks_source_name(st->source));
		else if (util_now() - vf->t0 > 0.5)
			status_set(ROLE_NORMAL, "call tree built in %.1f s",
			    util_now() - vf->t0);
		free(vf->cycle_why);
		vf->cycle_why = NULL;
		return REDRAW_ALL;
	}
	/* Every source failed: say why the first did. */
	if (vf->cycle_why != NULL) {
		free(cause);
		cause = vf->cycle_why;
		vf->cycle_why = NULL;
	}
	status_set(ROLE_ERROR, "%s", cause);
	if (vf->st == NULL) {
		free(vf->error);
		vf->error = cause;
	} else
		free(cause);
	vf->o = vf->old;
	return REDRAW_ALL;
}

static int
view_flame_open(struct view *v, const void *arg, char **cause)
{
	const struct view_range_arg	*fa = arg;
	struct view_flame		*vf;

	vf = xcalloc(1, sizeof *vf);
	store_stacks_opts_init(&vf->o);
	vf->origin = NP_NA;
	if (fa != NULL) {
		vf->o.from_ns = fa->from_ns;
		vf->o.to_ns = fa->to_ns;
		vf->origin = fa->origin_ns;
	}
	if (view_flame_build(vf, &vf->o, cause) != 0) {
		free(vf);
		return -1;
	}
	v->data = vf;
	return 0;
}

static void
view_flame_close(struct view *v)
{
	struct view_flame	*vf = v->data;

	store_stacks_job_free(vf->job);
	free(vf->error);
	free(vf->cycle_why);
	store_stacks_free(vf->st);
	store_stacks_free(vf->base);
	store_stacks_free(vf->inv);
	store_stacks_free(vf->callers);
	store_stacks_free(vf->callees);
	free(vf->sandwich);
	free(vf->zooms);
	free(vf->lines);
	matcher_free(vf->m);
	free(vf->search);
	free(vf);
}

static int
view_flame_by_total(const void *a, const void *b)
{
	const struct store_frame	*x = *(struct store_frame *const *)a;
	const struct store_frame	*y = *(struct store_frame *const *)b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
view_flame_add_line(struct view_flame *vf, const struct store_frame *f,
    const char *heading, int depth, bool outward)
{
	vf->lines = xreallocarray(vf->lines, vf->nlines + 1,
	    sizeof *vf->lines);
	vf->lines[vf->nlines].f = f;
	vf->lines[vf->nlines].heading = heading;
	vf->lines[vf->nlines].depth = depth;
	vf->lines[vf->nlines].outward = outward;
	vf->nlines++;
}

/*
 * The lines of F's callees, heaviest first, depth first; OUTWARD for a
 * tree of callers, whose self times mean nothing.
 */
static void
view_flame_add_tree(struct view_flame *vf, const struct store_frame *f,
    int depth, bool outward)
{
	struct store_frame	**kids;
	size_t			  i;

	if (f->parent != NULL)
		view_flame_add_line(vf, f, NULL, depth++, outward);
	if (f->nkids == 0)
		return;
	kids = xreallocarray(NULL, f->nkids, sizeof *kids);
	memcpy(kids, f->kids, f->nkids * sizeof *kids);
	qsort(kids, f->nkids, sizeof *kids, view_flame_by_total);
	for (i = 0; i < f->nkids; i++)
		view_flame_add_tree(vf, kids[i], depth, outward);
	free(kids);
}

/* Make the lines of the current tree mode. */
static void
view_flame_lines(struct view_flame *vf)
{
	vf->nlines = vf->cur = vf->top = 0;
	switch (vf->mode) {
	case FLAME_TOP_DOWN:
		view_flame_add_tree(vf, vf->root, 0, false);
		break;
	case FLAME_BOTTOM_UP:
		if (vf->inv == NULL)
			vf->inv = store_stacks_invert(vf->st);
		view_flame_add_tree(vf, vf->inv->root, 0, true);
		break;
	case FLAME_SANDWICH:
		view_flame_add_line(vf, NULL, "Callers (outward)", 0, false);
		view_flame_add_tree(vf, vf->callers->root, 0, true);
		view_flame_add_line(vf, NULL, "Callees", 0, false);
		view_flame_add_tree(vf, vf->callees->root, 0, false);
		break;
	default:
		break;
	}
}

/* Show the sandwich of frame name NAME. */
static void
view_flame_sandwich(struct view_flame *vf, const char *name)
{
	char	*copy = xstrdup(name);

	store_stacks_free(vf->callers);
	store_stacks_free(vf->callees);
	store_stacks_invert_sandwich(vf->st, copy, &vf->callers, &vf->callees);
	free(vf->sandwich);
	vf->sandwich = copy;
	vf->mode = FLAME_SANDWICH;
	view_flame_lines(vf);
}

/* Keep the selected frame's row on screen. */
static void
view_flame_scroll(struct view_flame *vf)
{
	const struct store_frame	*f;
	int				 d = 0, rows;

	for (f = vf->sel; f != vf->root && f != NULL; f = f->parent)
		d++;
	rows = view_flame_draw_rows(view_body_lines());
	if (d < vf->depth0)
		vf->depth0 = d;
	else if (rows > 0 && d >= vf->depth0 + rows)
		vf->depth0 = d - rows + 1;
}

struct view_flame_row {
	const struct store_frame	**v;
	size_t				  n;
	int				  depth;
};

static void
view_flame_collect(struct view_flame *vf, const struct store_frame *f,
    int depth, int x, int w, void *arg)
{
	struct view_flame_row	*r = arg;

	if (depth != r->depth)
		return;
	r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
	r->v[r->n++] = f;
}

/* Select the frame drawn left (DIR -1) or right (1) of the selected one. */
static void
view_flame_side(struct view_flame *vf, int dir)
{
	struct view_flame_row		 r = { .v = NULL };
	const struct store_frame	*f;
	size_t				 i;

	for (f = vf->sel; f != vf->root; f = f->parent)
		r.depth++;
	view_flame_draw_layout(vf, COLS, view_flame_collect, &r);
	for (i = 0; i < r.n; i++) {
		if (r.v[i] != vf->sel)
			continue;
		if (dir < 0 && i > 0)
			vf->sel = (struct store_frame *)r.v[i - 1];
		else if (dir > 0 && i + 1 < r.n)
			vf->sel = (struct store_frame *)r.v[i + 1];
		break;
	}
	free(r.v);
}

/* The heaviest callee of F, or NULL. */
static struct store_frame *
view_flame_heaviest(const struct store_frame *f)
{
	struct store_frame	*best = NULL;
	size_t			 i;

	for (i = 0; i < f->nkids; i++) {
		if (best == NULL || f->kids[i]->total > best->total)
			best = f->kids[i];
	}
	return best;
}

/* The frame after (or before, BACK) F in depth-first order, wrapping. */
static struct store_frame *
view_flame_step(struct view_flame *vf, struct store_frame *f, bool back)
{
	struct store_frame	*p;
	size_t			 i;

	if (back) {
		if (f == vf->root) {
			while (f->nkids > 0)
				f = f->kids[f->nkids - 1];
			return f;
		}
		p = f->parent;
		for (i = 0; p->kids[i] != f; i++)
			continue;
		if (i == 0)
			return p;
		for (f = p->kids[i - 1]; f->nkids > 0;)
			f = f->kids[f->nkids - 1];
		return f;
	}
	if (f->nkids > 0)
		return f->kids[0];
	for (; f != vf->root; f = p) {
		p = f->parent;
		for (i = 0; p->kids[i] != f; i++)
			continue;
		if (i + 1 < p->nkids)
			return p->kids[i + 1];
	}
	return vf->root;
}

/* Select the next frame the search matches. */
static void
view_flame_next_match(struct view_flame *vf, bool back)
{
	struct store_frame	*f = vf->sel;

	do {
		f = view_flame_step(vf, f, back);
		if (f->parent != NULL && store_stacks_frame_match(f, vf->m)) {
			vf->sel = f;
			view_flame_scroll(vf);
			return;
		}
	} while (f != vf->sel);
	status_set(ROLE_ERROR, "no frame matches '%s' here", vf->search);
}

static void
view_flame_search_done(void *arg, const char *text)
{
	struct view_flame	*vf = arg;
	struct matcher		*m;
	char			*cause = NULL;

	if (text == NULL || *text == '\0') {
		matcher_free(vf->m);
		vf->m = NULL;
		free(vf->search);
		vf->search = NULL;
		return;
	}
	if ((m = matcher_create(text, false, &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	vf->hit = store_stacks_search(vf->st, m, &vf->nhit);
	/* Frames it gave up on may match: no share is better than one wrong. */
	if (matcher_failed(m, &cause)) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		matcher_free(m);
		return;
	}
	matcher_free(vf->m);
	vf->m = m;
	free(vf->search);
	vf->search = xstrdup(text);
	status_set(ROLE_LABEL, "'%s' matches %lld frames: %.2f%% of the time",
	    text, (long long)vf->nhit, vf->st->whole > 0 ? 100.0 *
	    (double)vf->hit / (double)vf->st->whole : 0);
}

/* Rebuild after an option changed; on failure put OLD back. */
static void
view_flame_rebuild(struct view_flame *vf, const struct store_stacks_opts *old)
{
	char	*cause = NULL;

	if (view_flame_build(vf, old, &cause) == 0)
		return;
	status_set(ROLE_ERROR, "%s", cause);
	free(cause);
	vf->o = *old;
}

static void
view_flame_step_done(void *arg, const char *text)
{
	struct view_flame		*vf = arg;
	struct store_stacks_opts	 old = vf->o;
	int64_t				 step = NP_NA;

	if (text == NULL)
		return;
	if (*text != '\0' && (util_parse_int(text, strlen(text), &step) != 0
	    || step < 0)) {
		status_set(ROLE_ERROR, "bad step '%s'", text);
		return;
	}
	vf->o.step = step;
	vf->cycling = false;
	view_flame_rebuild(vf, &old);
}

/* Keys of the icicle: moving between frames and zooming. */
static int
view_flame_icicle_key(struct view_flame *vf, enum action a)
{
	struct store_frame	*f;

	switch (a) {
	case ACTION_UP:
		if (vf->sel != vf->root)
			vf->sel = vf->sel->parent;
		break;
	case ACTION_DOWN:
		if ((f = view_flame_heaviest(vf->sel)) != NULL)
			vf->sel = f;
		break;
	case ACTION_LEFT:
	case ACTION_RIGHT:
		view_flame_side(vf, a == ACTION_LEFT ? -1 : 1);
		break;
	case ACTION_TOP:
		vf->sel = vf->root;
		break;
	case ACTION_BOTTOM:
		/* Down the heaviest callees to a leaf: the hot path. */
		while ((f = view_flame_heaviest(vf->sel)) != NULL)
			vf->sel = f;
		break;
	case ACTION_OPEN:
		if (vf->sel == vf->root)
			return REDRAW_NONE;
		vf->zooms = xreallocarray(vf->zooms, vf->nzooms + 1,
		    sizeof *vf->zooms);
		vf->zooms[vf->nzooms++] = vf->root;
		vf->root = vf->sel;
		vf->depth0 = 0;
		break;
	default:
		return -1;
	}
	view_flame_scroll(vf);
	return REDRAW_ALL;
}

/* Keys of the tree modes: moving between lines; Enter opens a frame. */
static int
view_flame_tree_key(struct view_flame *vf, enum action a)
{
	const struct store_frame	*f;
	size_t				 page = (size_t)view_body_lines();

	page = page > 4 ? page - 4 : 1;
	switch (a) {
	case ACTION_UP:
		vf->cur -= vf->cur > 0;
		break;
	case ACTION_DOWN:
		vf->cur += vf->cur + 1 < vf->nlines;
		break;
	case ACTION_PAGE_UP:
		vf->cur = vf->cur > page ? vf->cur - page : 0;
		break;
	case ACTION_PAGE_DOWN:
		vf->cur = vf->cur + page < vf->nlines ? vf->cur + page :
		    vf->nlines - (vf->nlines > 0);
		break;
	case ACTION_TOP:
		vf->cur = 0;
		break;
	case ACTION_BOTTOM:
		vf->cur = vf->nlines - (vf->nlines > 0);
		break;
	case ACTION_OPEN:
		if (vf->nlines == 0 || (f = vf->lines[vf->cur].f) == NULL)
			return REDRAW_NONE;
		if (vf->mode == FLAME_TOP_DOWN) {
			vf->zooms = xreallocarray(vf->zooms, vf->nzooms + 1,
			    sizeof *vf->zooms);
			vf->zooms[vf->nzooms++] = vf->root;
			vf->root = vf->sel = (struct store_frame *)f;
			vf->mode = FLAME_ICICLE;
			vf->depth0 = 0;
		} else
			view_flame_sandwich(vf, f->name);
		return REDRAW_ALL;
	default:
		return -1;
	}
	/* Only the top-down tree's frames are the icicle's. */
	if (vf->mode == FLAME_TOP_DOWN && vf->nlines > 0)
		vf->sel = (struct store_frame *)vf->lines[vf->cur].f;
	if (vf->cur < vf->top)
		vf->top = vf->cur;
	else if (vf->cur >= vf->top + page + 2)
		vf->top = vf->cur - page - 1;
	return REDRAW_ALL;
}

/* Go to the next mode; the sandwich is of the selected frame. */
static void
view_flame_mode(struct view_flame *vf)
{
	vf->mode = (vf->mode + 1) % FLAME_NMODES;
	if (vf->mode == FLAME_SANDWICH) {
		if (vf->sel->parent == NULL) {
			vf->mode = FLAME_ICICLE;
			status_set(ROLE_ERROR, "select a frame for its "
			    "sandwich");
			return;
		}
		view_flame_sandwich(vf, vf->sel->name);
		return;
	}
	view_flame_lines(vf);
}

static int
view_flame_key(struct view *v, enum action a, int key)
{
	struct view_flame		*vf = v->data;
	struct store_stacks_opts	 old = vf->o;
	int				 was;

	/* Until there is a tree, only the options change. */
	if (vf->st == NULL && a != ACTION_WEIGHT && a != ACTION_STACKS &&
	    a != ACTION_STEP)
		return -1;
	switch (a) {
	case ACTION_ZOOM_OUT:
		if (vf->mode != FLAME_ICICLE) {
			vf->mode = FLAME_ICICLE;
			return REDRAW_ALL;
		}
		if (vf->nzooms == 0)
			return REDRAW_NONE;
		vf->sel = vf->root;
		vf->root = vf->zooms[--vf->nzooms];
		view_flame_scroll(vf);
		return REDRAW_ALL;
	case ACTION_FLAME_MODE:
		view_flame_mode(vf);
		return REDRAW_ALL;
	case ACTION_WEIGHT:
		vf->o.weight = vf->o.weight == STACKS_DEVICE ? STACKS_HOST :
		    STACKS_DEVICE;
		vf->cycling = false;
		view_flame_rebuild(vf, &old);
		return REDRAW_ALL;
	case ACTION_STACKS:
		/*
		 * A source without stacks is passed over (the tick); so is
		 * the one auto chose, which the label already named.
		 */
		was = vf->o.source == STACKS_AUTO && vf->st != NULL ?
		    (int)vf->st->source : -1;
		vf->o.source = (vf->o.source + 1) % (STACKS_MINDSPORE + 1);
		if ((int)vf->o.source == was)
			vf->o.source = (vf->o.source + 1) %
			    (STACKS_MINDSPORE + 1);
		free(vf->cycle_why);
		vf->cycle_why = NULL;
		vf->cycling = true;
		view_flame_rebuild(vf, &old);
		vf->cycling = vf->job != NULL;
		return REDRAW_ALL;
	case ACTION_STEP:
		prompt_start("step (empty for all): ", NULL,
		    view_flame_step_done, vf);
		return REDRAW_STATUS;
	case ACTION_SEARCH:
		prompt_start("highlight frames matching: ", vf->search,
		    view_flame_search_done, vf);
		return REDRAW_STATUS;
	case ACTION_NEXT_MATCH:
	case ACTION_PREV_MATCH:
		if (vf->m == NULL) {
			status_set(ROLE_ERROR, "no search yet: press /");
			return REDRAW_STATUS;
		}
		vf->mode = FLAME_ICICLE;
		view_flame_next_match(vf, a == ACTION_PREV_MATCH);
		return REDRAW_ALL;
	default:
		break;
	}
	if (vf->mode == FLAME_ICICLE)
		return view_flame_icicle_key(vf, a);
	return view_flame_tree_key(vf, a);
}

static void
view_flame_status(struct view *v, char *buf, size_t len)
{
	struct view_flame	*vf = v->data;
	char			 step[32] = "", search[128] = "";
	char			 range[96] = "", a[32], b[32];

	if (vf->o.from_ns != NP_NA && vf->origin != NP_NA) {
		util_fmt_time(a, sizeof a, vf->o.from_ns - vf->origin);
		util_fmt_time(b, sizeof b, vf->o.to_ns - vf->origin);
		snprintf(range, sizeof range, "  range %s-%s", a, b);
	}
	if (vf->o.step != NP_NA)
		snprintf(step, sizeof step, "  step %lld",
		    (long long)vf->o.step);
	if (vf->m != NULL && vf->st != NULL)
		snprintf(search, sizeof search, "  /%s %.2f%%", vf->search,
		    vf->st->whole > 0 ? 100.0 * (double)vf->hit /
		    (double)vf->st->whole : 0);
	if (vf->job != NULL)
		snprintf(search + strlen(search), sizeof search -
		    strlen(search), "  building... %.0f s", util_now() -
		    vf->t0);
	snprintf(buf, len, " Flame  %s %s%s%s%s ",
	    store_stacks_source_name(vf->st != NULL ? vf->st->source :
	    vf->o.source), vf->o.weight == STACKS_HOST ? "host" : "device",
	    range, step, search);
}

static void
view_flame_resize(struct view *v)
{
	struct view_flame	*vf = v->data;

	if (vf->st != NULL)
		view_flame_scroll(vf);
}

const struct view_ops view_flame_ops = {
	.name = "flame",
	.title = "Flame",
	.open = view_flame_open,
	.close = view_flame_close,
	.draw = view_flame_draw,
	.key = view_flame_key,
	.resize = view_flame_resize,
	.status = view_flame_status,
	.tick = view_flame_tick,
	.keymap = view_flame_keys,
	.hints = view_flame_hints
};
