/*
 * Call trees with weights: the frames store-stacks-build.c gathers from the
 * store, their total, self and call counts, and the ways out of them:
 * folded stacks ("a;b;c N", the format flamegraph.pl, inferno and
 * speedscope read), rows for show, and a regex search that says how much
 * of the time the matching frames cover. Nothing here touches SQLite.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

void
store_stacks_opts_init(struct store_stacks_opts *o)
{
	memset(o, 0, sizeof *o);
	o->source = STACKS_AUTO;
	o->weight = STACKS_DEVICE;
	o->device = NP_NA;
	o->rank = NP_NA;
	o->from_ns = NP_NA;
	o->to_ns = NP_NA;
	o->step = NP_NA;
}

static struct store_frame *
store_stacks_frame(struct store_frame *parent, const char *name)
{
	struct store_frame	*f;

	f = xcalloc(1, sizeof *f);
	f->name = xstrdup(name);
	f->parent = parent;
	return f;
}

struct store_stacks *
store_stacks_create(enum store_stacks_source source,
    enum store_stacks_weight weight)
{
	struct store_stacks	*st;

	st = xcalloc(1, sizeof *st);
	st->root = store_stacks_frame(NULL, "all");
	st->source = source;
	st->weight = weight;
	st->from = "";
	return st;
}

static void
store_stacks_free_frame(struct store_frame *f)
{
	size_t	 i;

	for (i = 0; i < f->nkids; i++)
		store_stacks_free_frame(f->kids[i]);
	free(f->kids);
	free(f->name);
	free(f);
}

void
store_stacks_free(struct store_stacks *st)
{
	if (st == NULL)
		return;
	store_stacks_free_frame(st->root);
	free(st);
}

/*
 * Folded stacks separate frames with ';' and end with " N", so a frame
 * name keeps neither ';' (input shapes use it between tensors: it becomes
 * '|') nor line breaks or tabs (dropped, or a space between words).
 */
static char *
store_stacks_clean(const char *name)
{
	struct strbuf	 b;
	const char	*p;

	strbuf_init(&b);
	for (p = name; *p != '\0'; p++) {
		if (*p == ';')
			strbuf_addc(&b, '|');
		else if (*p == '\r' || *p == '\n' || *p == '\t') {
			if (b.len > 0 && b.s[b.len - 1] != ' ' &&
			    b.s[b.len - 1] != '|')
				strbuf_addc(&b, ' ');
		} else
			strbuf_addc(&b, *p);
	}
	while (b.len > 0 && b.s[b.len - 1] == ' ')
		b.s[--b.len] = '\0';
	if (b.len == 0)
		strbuf_adds(&b, "?");
	return strbuf_detach(&b);
}

/*
 * The child NAME of PARENT, made if new. The last child found is checked
 * first, since sources hand in runs of the same path.
 */
struct store_frame *
store_stacks_frame_child(struct store_frame *parent, const char *name)
{
	struct store_frame	*f;
	char			*clean;
	size_t			 i;

	clean = store_stacks_clean(name);
	for (i = parent->nkids; i > 0; i--) {
		if (strcmp(parent->kids[i - 1]->name, clean) == 0) {
			free(clean);
			return parent->kids[i - 1];
		}
	}
	parent->kids = util_grow(parent->kids, parent->nkids, 1,
	    sizeof *parent->kids);
	f = store_stacks_frame(parent, "");
	free(f->name);
	f->name = clean;
	parent->kids[parent->nkids++] = f;
	return f;
}

static int
store_stacks_cmp(const void *a, const void *b)
{
	const struct store_frame	*x = *(struct store_frame *const *)a;
	const struct store_frame	*y = *(struct store_frame *const *)b;

	return strcmp(x->name, y->name);
}

static int64_t
store_stacks_sum(struct store_frame *f)
{
	size_t	 i;

	f->total = f->self;
	for (i = 0; i < f->nkids; i++)
		f->total += store_stacks_sum(f->kids[i]);
	if (f->nkids > 1)
		qsort(f->kids, f->nkids, sizeof *f->kids, store_stacks_cmp);
	return f->total;
}

/*
 * Sum the totals and sort the children; call once the frames are in. The
 * first call also notes the whole, which shares stay relative to.
 */
void
store_stacks_finish(struct store_stacks *st)
{
	store_stacks_sum(st->root);
	if (st->whole == 0)
		st->whole = st->root->total;
}

static const char *store_stacks_sources[] = {
	[STACKS_AUTO] = "auto",
	[STACKS_CANN] = "cann",
	[STACKS_PYTHON] = "python",
	[STACKS_OPS] = "ops",
	[STACKS_MODULES] = "modules",
	[STACKS_MINDSPORE] = "mindspore"
};

/* The source named NAME, or -1. */
int
store_stacks_source_parse(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof store_stacks_sources /
	    sizeof store_stacks_sources[0]; i++) {
		if (strcmp(name, store_stacks_sources[i]) == 0)
			return (int)i;
	}
	return -1;
}

const char *
store_stacks_source_name(enum store_stacks_source source)
{
	return store_stacks_sources[source];
}

/* Whether ST weighs host time (API spans), not device time. */
bool
store_stacks_host(const struct store_stacks *st)
{
	return st->weight == STACKS_HOST;
}

/* What the numbers count, for headers and messages. */
const char *
store_stacks_unit(const struct store_stacks *st)
{
	return st->weight == STACKS_HOST ? "ns of host time" :
	    "ns of device time";
}

static void
store_stacks_fold_frame(FILE *f, struct strbuf *b, const struct store_frame *fr)
{
	size_t	 len = b->len, i;

	if (fr->parent != NULL) {
		if (b->len > 0)
			strbuf_addc(b, ';');
		strbuf_adds(b, fr->name);
		if (fr->self > 0)
			fprintf(f, "%s %lld\n", b->s, (long long)fr->self);
	}
	for (i = 0; i < fr->nkids; i++)
		store_stacks_fold_frame(f, b, fr->kids[i]);
	b->len = len;
	if (b->s != NULL)
		b->s[len] = '\0';
}

/* Write ST as folded stacks: one line per path with self time. */
void
store_stacks_fold(FILE *f, const struct store_stacks *st)
{
	struct strbuf	 b;

	strbuf_init(&b);
	store_stacks_fold_frame(f, &b, st->root);
	strbuf_release(&b);
}

struct stacks_line {
	char		*path;
	int64_t		 n[2];		/* self time in each run */
};

struct stacks_lines {
	struct stacks_line	*v;
	size_t			 n;
};

/* Add FR's path (in B) and self time, and its children's, as run K's. */
static void
store_stacks_lines(struct stacks_lines *l, struct strbuf *b,
    const struct store_frame *fr, int k)
{
	size_t	 len = b->len, i;

	if (fr->parent != NULL) {
		if (b->len > 0)
			strbuf_addc(b, ';');
		strbuf_adds(b, fr->name);
		if (fr->self > 0) {
			l->v = util_grow(l->v, l->n, 1, sizeof *l->v);
			l->v[l->n].path = xstrdup(b->s);
			l->v[l->n].n[k] = fr->self;
			l->v[l->n++].n[!k] = 0;
		}
	}
	for (i = 0; i < fr->nkids; i++)
		store_stacks_lines(l, b, fr->kids[i], k);
	b->len = len;
	if (b->s != NULL)
		b->s[len] = '\0';
}

static int
store_stacks_line_cmp(const void *a, const void *b)
{
	const struct stacks_line	*x = a, *y = b;

	return strcmp(x->path, y->path);
}

/*
 * Write the stacks of two runs, A (the base) and B, as the differential
 * folded lines difffolded.pl writes and flamegraph.pl draws: a path, its
 * self time in A, then in B (0 where a run has not the path), in the
 * order of the paths.
 */
void
store_stacks_fold_diff(FILE *f, const struct store_stacks *a,
    const struct store_stacks *b)
{
	struct stacks_lines	 l;
	struct strbuf		 sb;
	size_t			 i, j;

	memset(&l, 0, sizeof l);
	strbuf_init(&sb);
	store_stacks_lines(&l, &sb, a->root, 0);
	store_stacks_lines(&l, &sb, b->root, 1);
	strbuf_release(&sb);
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, store_stacks_line_cmp);
	for (i = 0; i < l.n; i = j) {
		for (j = i + 1; j < l.n && strcmp(l.v[j].path,
		    l.v[i].path) == 0; j++) {
			l.v[i].n[0] += l.v[j].n[0];
			l.v[i].n[1] += l.v[j].n[1];
		}
		fprintf(f, "%s %lld %lld\n", l.v[i].path,
		    (long long)l.v[i].n[0], (long long)l.v[i].n[1]);
	}
	for (i = 0; i < l.n; i++)
		free(l.v[i].path);
	free(l.v);
}

/* The path of F from the root's child down, joined with ';'. */
char *
store_stacks_frame_path(const struct store_frame *f)
{
	const struct store_frame	**v = NULL;
	struct strbuf			  b;
	size_t				  n = 0;

	for (; f != NULL && f->parent != NULL; f = f->parent) {
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = f;
	}
	strbuf_init(&b);
	strbuf_adds(&b, "");
	while (n > 0) {
		strbuf_adds(&b, v[--n]->name);
		if (n > 0)
			strbuf_addc(&b, ';');
	}
	free(v);
	return strbuf_detach(&b);
}

static char *
store_stacks_pct(int64_t part, int64_t whole, struct store_val *v)
{
	char	 buf[32];

	v->kind = VAL_REAL;
	v->d = whole > 0 ? 100.0 * (double)part / (double)whole : 0;
	util_fmt_fixed(buf, sizeof buf, v->d, 2, false);
	return xstrdup(buf);
}

static void
store_stacks_rows_frame(struct store_rows *r, const struct store_frame *f,
    int64_t all, int64_t depth)
{
	char	*cells[8];
	struct store_val vals[8] = {
		{ .kind = VAL_NONE }, { .kind = VAL_NONE },
		{ .kind = VAL_INT, .i = depth },
		{ .kind = VAL_INT, .i = f->total },
		{ .kind = VAL_INT, .i = f->self },
		{ .kind = VAL_INT, .i = f->count }
	};
	size_t	 i;

	if (f->parent != NULL) {
		cells[0] = store_stacks_frame_path(f);
		cells[1] = xstrdup(f->name);
		xasprintf(&cells[2], "%lld", (long long)depth);
		xasprintf(&cells[3], "%lld", (long long)f->total);
		xasprintf(&cells[4], "%lld", (long long)f->self);
		xasprintf(&cells[5], "%lld", (long long)f->count);
		cells[6] = store_stacks_pct(f->total, all, &vals[6]);
		cells[7] = store_stacks_pct(f->self, all, &vals[7]);
		store_rows_add(r, cells, vals);
	}
	for (i = 0; i < f->nkids; i++)
		store_stacks_rows_frame(r, f->kids[i], all, depth + 1);
}

/*
 * Every frame of ST as a row, depth first: the path, the frame, its depth,
 * total, self and count, and total and self as a share of all the time.
 */
struct store_rows *
store_stacks_rows(const struct store_stacks *st)
{
	static const char	*names[] = { "Stack", "Frame", "Depth",
				    "Total(ns)", "Self(ns)", "Count",
				    "Total(%)", "Self(%)" };
	static const enum store_fmt fmts[] = { FMT_TEXT, FMT_TEXT, FMT_INT,
				    FMT_INT, FMT_INT, FMT_INT, FMT_REAL3,
				    FMT_REAL3 };
	struct store_rows	*r;
	size_t			 i;

	r = store_rows_create(8);
	for (i = 0; i < 8; i++) {
		r->names[i] = xstrdup(names[i]);
		r->fmts[i] = fmts[i];
	}
	store_stacks_rows_frame(r, st->root, st->whole, 0);
	return r;
}

bool
store_stacks_frame_match(const struct store_frame *f, struct matcher *m)
{
	return matcher_match(m, f->name, strlen(f->name));
}

static int64_t
store_stacks_search_frame(const struct store_frame *f, struct matcher *m,
    bool covered, int64_t *nframes)
{
	int64_t	 sum = 0;
	size_t	 i;
	bool	 hit = f->parent != NULL && store_stacks_frame_match(f, m);

	if (hit)
		(*nframes)++;
	if (hit && !covered)
		sum = f->total;
	for (i = 0; i < f->nkids; i++)
		sum += store_stacks_search_frame(f->kids[i], m,
		    covered || hit, nframes);
	return sum;
}

/*
 * The time the frames whose name M matches cover, each counted once even
 * when a matching frame calls another; *NFRAMES gets how many matched.
 */
int64_t
store_stacks_search(const struct store_stacks *st, struct matcher *m,
    int64_t *nframes)
{
	*nframes = 0;
	return store_stacks_search_frame(st->root, m, false, nframes);
}

/*
 * Keep in F only what runs through a frame M matches: below a match all
 * of it, above one the path to it with no self time of its own (as
 * grepping folded lines would). Return true if anything is left.
 */
static bool
store_stacks_prune_frame(struct store_frame *f, struct matcher *m,
    bool under)
{
	size_t	 i, n = 0;
	bool	 hit = under || (f->parent != NULL
	    && store_stacks_frame_match(f, m));

	for (i = 0; i < f->nkids; i++) {
		if (store_stacks_prune_frame(f->kids[i], m, hit))
			f->kids[n++] = f->kids[i];
		else
			store_stacks_free_frame(f->kids[i]);
	}
	f->nkids = n;
	if (!hit)
		f->self = 0;
	return hit || n > 0;
}

/* Keep only the stacks that pass through a frame M matches. */
void
store_stacks_prune(struct store_stacks *st, struct matcher *m)
{
	store_stacks_prune_frame(st->root, m, false);
	store_stacks_finish(st);
}

/*
 * Below F, the frames of a Python call stack as the profiler writes it,
 * innermost first, separated by ';' and line breaks; each frame counts
 * one more call.
 */
struct store_frame *
store_stacks_python(struct store_frame *f, const char *stack)
{
	const char	**v = NULL, *p, *q;
	char		 *name;
	size_t		  n = 0, len;

	for (p = stack; *p != '\0'; p = q) {
		q = p + strcspn(p, ";\r\n");
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = p;
		if (*q != '\0')
			q++;
	}
	while (n > 0) {
		p = v[--n];
		len = strcspn(p, ";\r\n");
		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0)
			continue;
		name = xstrndup(p, len);
		f = store_stacks_frame_child(f, name);
		f->count++;
		free(name);
	}
	free(v);
	return f;
}
