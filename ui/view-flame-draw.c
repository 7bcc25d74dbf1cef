/*
 * Drawing the flame view: two header lines (what the stacks are, and the
 * selected frame's total, self, count and share), then either the icicle
 * (the zoomed frame on top, each callee below its caller as wide as its
 * share of the caller's time, names inside the frames wide enough) or the
 * lines of a tree mode. Draw functions only read the view's state.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

#define FLAME_HEAD	2		/* header lines above the body */

static const char *view_flame_modes[] = {
	[FLAME_ICICLE] = "icicle",
	[FLAME_TOP_DOWN] = "top-down",
	[FLAME_BOTTOM_UP] = "bottom-up",
	[FLAME_SANDWICH] = "sandwich"
};

/* Rows of frames that fit in a body of H lines. */
int
view_flame_draw_rows(int h)
{
	return h > FLAME_HEAD ? h - FLAME_HEAD : 0;
}

static void
view_flame_draw_place(struct view_flame *vf, const struct store_frame *f,
    int depth, double x0, double scale, flame_place_cb cb, void *arg)
{
	double	 x = x0;
	int	 a = (int)(x0 + 0.5), b = (int)(x0 + f->total * scale + 0.5);
	size_t	 i;

	if (b <= a)
		return;
	cb(vf, f, depth, a, b - a, arg);
	for (i = 0; i < f->nkids; i++) {
		view_flame_draw_place(vf, f->kids[i], depth + 1, x, scale, cb,
		    arg);
		x += f->kids[i]->total * scale;
	}
}

/*
 * Lay the icicle of the zoomed frame out on WIDTH columns: CB gets each
 * frame at least one column wide with its depth below the zoomed frame,
 * its column and its width, callers before callees, left to right.
 */
void
view_flame_draw_layout(struct view_flame *vf, int width, flame_place_cb cb,
    void *arg)
{
	if (vf->root->total <= 0)
		return;
	view_flame_draw_place(vf, vf->root, 0, 0, (double)width /
	    (double)vf->root->total, cb, arg);
}

/* The last part of a path-like frame name: what fits in a frame. */
static const char *
view_flame_draw_short(const char *name)
{
	const char	*slash = strrchr(name, '/');

	return slash != NULL && slash[1] != '\0' ? slash + 1 : name;
}

struct view_flame_canvas {
	int	 y;
	int	 rows;
};

/*
 * With --compare, how frame F of the tree shown (icicle and top-down)
 * changed from the base: DIFF_MORE when it grew by more than 5% of its
 * time (or is new), DIFF_LESS when it shrank so, else NORMAL.
 */
static enum role
view_flame_draw_diff(const struct view_flame *vf, const struct store_frame *f)
{
	const struct store_frame	*b;
	int64_t				 d;

	if (vf->base == NULL || (vf->mode != FLAME_ICICLE && vf->mode !=
	    FLAME_TOP_DOWN))
		return ROLE_NORMAL;
	b = view_flame_base(vf, f);
	d = f->total - (b != NULL ? b->total : 0);
	if (d * 20 > f->total)
		return ROLE_DIFF_MORE;
	if (-d * 20 > f->total)
		return ROLE_DIFF_LESS;
	return ROLE_NORMAL;
}

static void
view_flame_draw_box(struct view_flame *vf, const struct store_frame *f,
    int depth, int x, int w, void *arg)
{
	struct view_flame_canvas	*c = arg;
	enum role			 role;
	int				 row = depth - vf->depth0;

	if (row < 0 || row >= c->rows)
		return;
	if (f == vf->sel)
		role = ROLE_CURSOR;
	else if (vf->m != NULL && store_stacks_frame_match(f, vf->m))
		role = ROLE_MATCH;
	else if ((role = view_flame_draw_diff(vf, f)) == ROLE_NORMAL)
		role = depth % 2 == 0 ? ROLE_HEADER : ROLE_TAB_ACTIVE;
	draw_fill(c->y + row, x, w > 1 ? w - 1 : 1, role);
	if (w >= 4)
		draw_text(c->y + row, x + 1, w - 2, role,
		    view_flame_draw_short(f->name));
}

/* NS as microseconds with up to three decimals and the unit. */
static void
view_flame_draw_time(char *buf, size_t size, int64_t ns)
{
	size_t	 len;

	util_fmt_us(buf, size - 3, ns, 3, true);
	len = strlen(buf);
	memcpy(buf + len, " us", 4);
}

static double
view_flame_draw_pct(const struct view_flame *vf, int64_t v)
{
	return vf->st->whole > 0 ? 100.0 * (double)v /
	    (double)vf->st->whole : 0;
}

/* What the stacks are, and the selected frame or line. */
static void
view_flame_draw_header(struct view_flame *vf, int y)
{
	const struct store_frame	*f = vf->sel, *b;
	char				 total[64], self[64], base[64];
	bool				 outward = false;

	if (vf->mode != FLAME_ICICLE && vf->cur < vf->nlines &&
	    vf->lines[vf->cur].f != NULL) {
		f = vf->lines[vf->cur].f;
		outward = vf->lines[vf->cur].outward;
	}
	/* The numbers below are in us, whatever the store counts in. */
	draw_textf(y, 1, COLS - 1, ROLE_TITLE, "%s, us of %s time%s%s  [%s]",
	    vf->st->from, store_stacks_host(vf->st) ? "host" : "device",
	    vf->root->parent !=
	    NULL ? "  zoomed into " : "", vf->root->parent != NULL ?
	    view_flame_draw_short(vf->root->name) : "",
	    view_flame_modes[vf->mode]);
	if (f == NULL)
		return;
	view_flame_draw_time(total, sizeof total, f->total);
	view_flame_draw_time(self, sizeof self, f->self);
	if (outward)
		draw_textf(y + 1, 1, COLS - 1, ROLE_LABEL, "%s  total %s "
		    "(%.2f%%) on this path  count %lld", f->name, total,
		    view_flame_draw_pct(vf, f->total), (long long)f->count);
	else if (vf->base != NULL && (vf->mode == FLAME_ICICLE || vf->mode ==
	    FLAME_TOP_DOWN)) {
		/* With --compare: the base's time there, and the change. */
		b = view_flame_base(vf, f);
		view_flame_draw_time(base, sizeof base, b != NULL ? b->total :
		    0);
		view_flame_draw_time(self, sizeof self, f->total - (b != NULL ?
		    b->total : 0));
		draw_textf(y + 1, 1, COLS - 1, ROLE_LABEL, "%s  total %s "
		    "(%.2f%%)  base %s  diff %s%s%s  count %lld",
		    f->parent != NULL ? f->name : "all", total,
		    view_flame_draw_pct(vf, f->total), base, f->total >=
		    (b != NULL ? b->total : 0) ? "+" : "", self, b != NULL &&
		    b->total > 0 ? "" : " (new)", (long long)f->count);
	} else
		draw_textf(y + 1, 1, COLS - 1, ROLE_LABEL, "%s  total %s "
		    "(%.2f%%)  self %s (%.2f%%)  count %lld",
		    f->parent != NULL ? f->name : "all", total,
		    view_flame_draw_pct(vf, f->total), self,
		    view_flame_draw_pct(vf, f->self), (long long)f->count);
}

/* One line of a tree: shares, times, count and the frame, indented. */
static void
view_flame_draw_line(struct view_flame *vf, const struct flame_line *l, int y,
    bool cur)
{
	enum role	 role = cur ? ROLE_CURSOR : ROLE_NORMAL;
	char		 total[64], self[16] = "-";
	int		 x;

	draw_fill(y, 0, COLS, role);
	if (l->f == NULL) {
		draw_text(y, 1, COLS - 1, cur ? role : ROLE_TITLE, l->heading);
		return;
	}
	if (!cur && vf->m != NULL && store_stacks_frame_match(l->f, vf->m))
		role = ROLE_MATCH;
	else if (!cur)
		role = view_flame_draw_diff(vf, l->f);
	view_flame_draw_time(total, sizeof total, l->f->total);
	if (!l->outward)
		snprintf(self, sizeof self, "%.2f%%",
		    view_flame_draw_pct(vf, l->f->self));
	x = draw_textf(y, 1, COLS - 1, role, "%7.2f%% %8s %14s %8lld ",
	    view_flame_draw_pct(vf, l->f->total), self, total,
	    (long long)l->f->count);
	x += 1 + 2 * l->depth;
	if (x < COLS)
		draw_text(y, x, COLS - x, role, l->f->name);
}

static void
view_flame_draw_tree(struct view_flame *vf, int y, int h)
{
	size_t	 i;

	draw_text(y, 1, COLS - 1, ROLE_HEADER, " Total%   Self%       "
	    "Total time    Count  Frame");
	for (i = vf->top; i < vf->nlines && (int)(i - vf->top) + 1 < h; i++)
		view_flame_draw_line(vf, &vf->lines[i], y + 1 + (int)(i
		    - vf->top),
		    i == vf->cur);
}

void
view_flame_draw(struct view *v, int y, int h)
{
	struct view_flame		*vf = v->data;
	struct view_flame_canvas	 c;

	/* The first tree is still being built, or could not be. */
	if (vf->st == NULL) {
		if (vf->error != NULL)
			draw_textf(y + 1, 1, COLS - 1, ROLE_ERROR, "%s",
			    vf->error);
		else
			draw_textf(y + 1, 1, COLS - 1, ROLE_DIM, "building "
			    "the call tree (%.0f s so far); keys and other "
			    "views work meanwhile", util_now() - vf->t0);
		return;
	}
	view_flame_draw_header(vf, y);
	if (vf->mode != FLAME_ICICLE) {
		view_flame_draw_tree(vf, y + FLAME_HEAD, h - FLAME_HEAD);
		return;
	}
	c.y = y + FLAME_HEAD;
	c.rows = view_flame_draw_rows(h);
	view_flame_draw_layout(vf, COLS, view_flame_draw_box, &c);
}
