/*
 * Call stacks: random nested spans (CANN levels and Python ops with call
 * stacks) and the device tasks they launch go into a store through the
 * load interface; the generator keeps, for every path, the self time,
 * total time and call count it made, and every frame of the built tree
 * must match them, for host and device weights, nesting by parent and by
 * time. Also op type > name > shapes, folded lines, search and pruning.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "tap.h"

struct truth {
	char	*path;
	int64_t	 self;
	int64_t	 total;
	int64_t	 count;
};

struct gen {
	struct store	*s;
	uint64_t	 rng;
	struct truth	*host;
	size_t		 nhost;
	struct truth	*dev;
	size_t		 ndev;
	int64_t		 conn;
	int64_t		 corr;
	bool		 python;
	bool		 parents;
};

static const char *levels[] = { "acl", "model", "node", "runtime" };
static const char *names[] = { "alpha", "beta", "gamma" };
static const char *stacks[] = {
	"m.py(3): fwd;\\r\\nm.py(9): main;\\r\\n<string>(1): <module>",
	"n.py(4): step;\\nm.py(9): main;\\n<string>(1): <module>"
};
static const char *stack_paths[] = {
	"<string>(1): <module>;m.py(9): main;m.py(3): fwd",
	"<string>(1): <module>;m.py(9): main;n.py(4): step"
};

static uint64_t
rnd(struct gen *g, uint64_t n)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng % n;
}

static struct truth *
truth_at(struct truth **v, size_t *n, const char *path)
{
	size_t	 i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i].path, path) == 0)
			return &(*v)[i];
	}
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	memset(&(*v)[*n], 0, sizeof **v);
	(*v)[*n].path = xstrdup(path);
	return &(*v)[(*n)++];
}

/* Add W to the total of PATH and of every prefix of it. */
static void
truth_add(struct truth **v, size_t *n, const char *path, int64_t self,
    int64_t count)
{
	char	*p = xstrdup(path), *semi;

	truth_at(v, n, p)->self += self;
	truth_at(v, n, p)->count += count;
	for (;;) {
		truth_at(v, n, p)->total += self;
		if ((semi = strrchr(p, ';')) == NULL)
			break;
		*semi = '\0';
	}
	free(p);
}

/* A top-level Python op is one more call of each frame of its stack. */
static void
truth_calls(struct gen *g, const char *path)
{
	char	*p = xstrdup(path), *semi;

	for (;;) {
		truth_at(&g->host, &g->nhost, p)->count++;
		truth_at(&g->dev, &g->ndev, p)->count++;
		if ((semi = strrchr(p, ';')) == NULL)
			break;
		*semi = '\0';
	}
	free(p);
}

static void
gen_task(struct gen *g, const char *path, int64_t api, int64_t conn,
    int64_t start)
{
	struct store_task	 t;
	char			*tp;
	const char		*kn = rnd(g, 2) ? "KernelA" : "KernelB";

	memset(&t, 0, sizeof t);
	t.device = 0;
	t.rank = NP_NA;
	t.model_id = t.stream = t.task = t.batch = t.context = NP_NA;
	t.wait_ns = t.block_num = t.mix_block_num = t.step = NP_NA;
	t.api = api;
	t.conn = conn;
	t.start_ns = start + 500;
	t.dur_ns = 1 + (int64_t)rnd(g, 9000);
	t.name = kn;
	t.op_type = "Op";
	store_load_task(g->s, &t);
	xasprintf(&tp, "%s;%s", path, kn);
	truth_add(&g->dev, &g->ndev, tp, t.dur_ns, 1);
	free(tp);
}

static int64_t
gen_api(struct gen *g, const char *level, const char *name, int tid,
    int64_t start, int64_t end, int64_t corr)
{
	struct store_api	 a;
	char			*args = NULL;
	int64_t			 row;

	store_load_api_init(&a, tid, start, end, level, name);
	a.pid = 9;
	if (corr != NP_NA)
		xasprintf(&args, "{\"correlation_id\": %lld}", (long long)corr);
	a.args = args;
	row = store_load_api(g->s, &a);
	free(args);
	return row;
}

/*
 * A Python op at START on TID whose launch goes through torch_npu's task
 * queue: an enqueue inside the op, a dequeue of the same correlation id on
 * another thread (in a pseudo-process of its own, as in a chrome trace),
 * and in it the CANN span that launched a task.
 */
static void
gen_queued(struct gen *g, const char *path, int tid, int64_t start)
{
	int64_t	 k = ++g->corr, dq = 1000000000 + 100 * k, row;

	gen_api(g, "enqueue", "Enqueue", tid, start, start, k);
	gen_api(g, "dequeue", "Dequeue", 1000 + tid, dq, dq + 50, k);
	row = gen_api(g, "node", "launch", 1000 + tid, dq + 10, dq + 20,
	    NP_NA);
	gen_task(g, path, row, NP_NA, dq + 10);
}

/*
 * One span of DUR at START under PARENT (a row id or NP_NA) at DEPTH,
 * with children inside it; PATH is its caller's path.
 */
static void
gen_span(struct gen *g, int tid, const char *path, int64_t parent, int depth,
    int64_t start, int64_t dur)
{
	struct store_api	 a;
	char			*me, *args = NULL;
	int64_t			 row, t, kids = 0, d;
	int			 i, n, si = (int)rnd(g, 2);

	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = NP_NA;
	a.pid = 7;
	a.tid = tid;
	a.start_ns = start;
	a.end_ns = start + dur;
	a.depth = depth;
	a.parent = g->parents ? parent : NP_NA;
	a.conn = rnd(g, 2) ? ++g->conn : NP_NA;
	a.name = names[rnd(g, 3)];
	a.level = g->python ? "python" : levels[depth];
	if (g->python && depth == 0) {
		xasprintf(&args, "{\"Sequence number\": 1, \"Call stack\": "
		    "\"%s\"}", stacks[si]);
		a.args = args;
		xasprintf(&me, "%s;%s", stack_paths[si], a.name);
		truth_calls(g, stack_paths[si]);
	} else if (path[0] == '\0')
		me = xstrdup(a.name);
	else
		xasprintf(&me, "%s;%s", path, a.name);
	row = store_load_api(g->s, &a);
	free(args);
	if (rnd(g, 3) == 0)
		gen_task(g, me, rnd(g, 2) || a.conn == NP_NA ? row : NP_NA,
		    a.conn, start);
	if (g->python && rnd(g, 3) == 0)
		gen_queued(g, me, tid, start);
	t = start + 1;
	n = depth < 3 ? (int)rnd(g, 4) : 0;
	for (i = 0; i < n && start + dur - t > 20; i++) {
		d = 1 + (int64_t)rnd(g, (uint64_t)(start + dur - t) / 2);
		gen_span(g, tid, me, row, depth + 1, t, d);
		kids += d;
		t += d + (int64_t)rnd(g, 3);
	}
	truth_add(&g->host, &g->nhost, me, dur - kids, 0);
	truth_at(&g->host, &g->nhost, me)->count++;
	truth_at(&g->dev, &g->ndev, me)->count++;
	free(me);
}

/* Check every frame below F against V; return the frames checked. */
static size_t
check_frames(const struct store_frame *f, struct truth *v, size_t n,
    int *bad)
{
	struct truth	*t = NULL;
	char		*p;
	size_t		 i, seen = 0;

	if (f->parent != NULL) {
		p = store_stacks_frame_path(f);
		for (i = 0; i < n; i++) {
			if (strcmp(v[i].path, p) == 0)
				t = &v[i];
		}
		if (t == NULL || t->self != f->self || t->total != f->total ||
		    t->count != f->count) {
			if ((*bad)++ < 3)
				printf("# frame '%s': self %lld total %lld "
				    "count %lld, want %lld %lld %lld\n", p,
				    (long long)f->self, (long long)f->total,
				    (long long)f->count,
				    t ? (long long)t->self : -1LL,
				    t ? (long long)t->total : -1LL,
				    t ? (long long)t->count : -1LL);
		}
		free(p);
		seen = 1;
	}
	for (i = 0; i < f->nkids; i++)
		seen += check_frames(f->kids[i], v, n, bad);
	return seen;
}

static size_t
truth_nonzero(struct truth *v, size_t n)
{
	size_t	 i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i].total > 0 || v[i].count > 0;
	return k;
}

static void
truth_free(struct truth *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

static struct store *
gen_store(struct gen *g, const char *db, uint64_t seed, bool python)
{
	char	*cause = NULL;
	int64_t	 t, d;
	int	 tid;

	memset(g, 0, sizeof *g);
	g->rng = seed * 2654435761u + 1;
	g->python = python;
	g->s = store_load_begin(db, "/nonexistent-stacks", &cause);
	if (g->s == NULL)
		return NULL;
	for (tid = 1; tid <= 3; tid++) {
		g->parents = tid != 2;
		for (t = 1000; t < 400000; t += d + (int64_t)rnd(g, 50)) {
			d = 1 + (int64_t)rnd(g, 30000);
			gen_span(g, tid, "", NP_NA, 0, t, d);
		}
	}
	for (t = 0; t < 3; t++)
		gen_task(g, "[unlinked device tasks]", NP_NA, NP_NA, t);
	return g->s;
}

static void
check_source(const char *db, uint64_t seed, bool python)
{
	struct store_stacks_opts	 o;
	struct store_stacks		*st;
	struct store			*s;
	struct gen			 g;
	char				*cause = NULL;
	int				 bad, w;
	size_t				 seen;

	memset(&g, 0, sizeof g);
	unlink(db);
	if (gen_store(&g, db, seed, python) == NULL) {
		ok(0, "load");
		return;
	}
	store_load_commit(g.s, &cause);
	s = store_open(db, &cause);
	for (w = 0; w < 2; w++) {
		store_stacks_opts_init(&o);
		o.source = python ? STACKS_PYTHON : STACKS_CANN;
		o.weight = w ? STACKS_HOST : STACKS_DEVICE;
		st = store_stacks_build(s, &o, &cause);
		ok(st != NULL && st->source == o.source, "seed %llu: build "
		    "%s %s stacks", (unsigned long long)seed,
		    python ? "python" : "cann", w ? "host" : "device");
		if (st == NULL) {
			printf("# %s\n", cause);
			continue;
		}
		bad = 0;
		seen = check_frames(st->root, w ? g.host : g.dev,
		    w ? g.nhost : g.ndev, &bad);
		ok(bad == 0, "seed %llu: every %s frame has the generator's "
		    "self, total and count", (unsigned long long)seed,
		    w ? "host" : "device");
		is_int(seen, truth_nonzero(w ? g.host : g.dev,
		    w ? g.nhost : g.ndev), "seed %llu: as many frames as the "
		    "generator made", (unsigned long long)seed);
		store_stacks_free(st);
	}
	store_free(s);
	truth_free(g.host, g.nhost);
	truth_free(g.dev, g.ndev);
}

static char *
folded(const struct store_stacks *st)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	store_stacks_fold(f, st);
	fclose(f);
	return buf;
}

static void
add(struct store_stacks *st, const char *path, int64_t self)
{
	struct store_frame	*f = st->root;
	char			*p = xstrdup(path), *name, *rest = p;

	while ((name = strsep(&rest, ";")) != NULL)
		f = store_stacks_frame_child(f, name);
	f->self += self;
	f->count++;
	free(p);
}

/* Inverted trees, sandwiches, search and pruning on a small known tree. */
static void
check_shapes(void)
{
	struct store_stacks	*st, *inv, *callers, *callees;
	struct matcher		*m;
	struct store_rows	*r;
	char			*s, *cause = NULL;
	int64_t			 n;

	st = store_stacks_create(STACKS_CANN, STACKS_HOST);
	add(st, "a", 1);
	add(st, "a;b", 2);
	add(st, "a;b;c", 4);
	add(st, "a;c", 8);
	add(st, "c", 16);
	add(st, "c;a", 32);
	add(st, "c;a;c", 64);
	add(st, "x;y\r\nz", 128);
	store_stacks_finish(st);
	is_int(st->root->total, 255, "the root holds all the time");
	s = folded(st);
	is_str(s, "a 1\na;b 2\na;b;c 4\na;c 8\nc 16\nc;a 32\nc;a;c 64\n"
	    "x;y z 128\n", "folded lines, one per path with self time");
	free(s);
	inv = store_stacks_invert(st);
	s = folded(inv);
	is_str(s, "a 1\na;c 32\nb;a 2\nc 16\nc;a 8\nc;a;c 64\nc;b;a 4\n"
	    "y z;x 128\n", "the bottom-up tree: self time with its callers");
	free(s);
	is_int(inv->root->kids[2]->total, 92, "c spends 92 itself");
	store_stacks_free(inv);
	store_stacks_invert_sandwich(st, "c", &callers, &callees);
	s = folded(callees);
	is_str(s, "c 28\nc;a 32\nc;a;c 64\n", "the callees of c, merged");
	free(s);
	s = folded(callers);
	is_str(s, "c 112\nc;a 8\nc;b;a 4\n",
	    "the callers of c, recursion counted once");
	free(s);
	is_int(callers->root->total, callees->root->total,
	    "both halves of the sandwich hold c's time");
	store_stacks_free(callers);
	store_stacks_free(callees);
	m = matcher_create("^c$", false, &cause);
	is_int(store_stacks_search(st, m, &n), 124,
	    "c covers 124, recursion counted once");
	is_int(n, 4, "four c frames");
	store_stacks_prune(st, m);
	s = folded(st);
	is_str(s, "a;b;c 4\na;c 8\nc 16\nc;a 32\nc;a;c 64\n",
	    "pruned to the stacks through c");
	free(s);
	r = store_stacks_rows(st);
	is_str(store_rows_cell(r, 0, 0), "a", "rows: depth first");
	is_str(store_rows_cell(r, 0, 6), "4.71",
	    "shares stay relative to the whole before pruning");
	store_rows_free(r);
	matcher_free(m);
	store_stacks_free(st);
}

int
main(void)
{
	char	 dir[] = "/tmp/t-stacks.XXXXXX", *db;
	uint64_t seed;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/s.db", dir);
	check_shapes();
	for (seed = 1; seed <= 3; seed++) {
		check_source(db, seed, false);
		check_source(db, seed, true);
	}
	unlink(db);
	free(db);
	rmdir(dir);
	return done_testing();
}
