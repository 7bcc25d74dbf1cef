/*
 * MindSpore's dataset pipeline of an un-analysed profile (doc/formats.md
 * section 3.12): pipeline_profiling_<rank>.json, which MindData's
 * profiler writes beside the pool totals. It holds the sampling interval
 * (ms) and the pipeline's ops, root first: id, type, workers, their
 * output queue (its length and one size per sample) unless the op is
 * inlined, and the ids of their children. It becomes the table
 * minddata_pipeline_raw, as MindSpore's analysis (2.3's parser to 2.6's
 * MindDataPipelineRawViewer) writes minddata_pipeline_raw_<rank>.csv: the
 * ops from op 0 breadth first, each op's children without an output
 * queue replaced by theirs, every cell as Python prints it (a list as
 * "[1, 2]", a float as repr(), None as nothing). Where MindSpore's
 * analysis fails on the file (no op 0, an op id twice, a queue of length
 * 0 or without sizes) no table is written, as MindSpore writes none, and
 * a warning says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "prof-int.h"

#define MSDATA_MAX	(16 << 20)	/* bytes of a file read */
#define MSDATA_NCOLS	10

static const char *const prof_msdata_cols[MSDATA_NCOLS] = {
	"op_id", "op_type", "num_workers", "output_queue_size",
	"output_queue_average_size", "output_queue_length",
	"output_queue_usage_rate", "sample_interval", "parent_id",
	"children_id"
};

/* One op of the pipeline, as the analysis changes it. */
struct msdata_op {
	yajl_val	 v;		/* its object */
	yajl_val	 queue;		/* metrics.output_queue, or NULL */
	int64_t		*children;	/* ids, then those kept */
	size_t		 nchildren;
	int64_t		 id;
	int64_t		 parent;	/* NP_NA: None */
};

struct msdata {
	struct prof_fwk		*fw;
	const char		*path;
	struct msdata_op	*ops;
	size_t			 nops;
	const char		*why;		/* the analysis fails */
	bool			 odd;		/* a value it writes no way */
};

/* The object member KEY of V, or NULL. */
static yajl_val
prof_msdata_get(yajl_val v, const char *key)
{
	const char	*path[] = { key, NULL };

	return v != NULL ? yajl_tree_get(v, path, yajl_t_any) : NULL;
}

/* True if V is a JSON integer that fits, into *N. */
static bool
prof_msdata_int(yajl_val v, int64_t *n)
{
	if (v == NULL || !YAJL_IS_INTEGER(v))
		return false;
	*n = YAJL_GET_INTEGER(v);
	return true;
}

/* The op of id ID, or NULL. */
static struct msdata_op *
prof_msdata_op(struct msdata *m, int64_t id)
{
	size_t	 i;

	for (i = 0; i < m->nops; i++)
		if (m->ops[i].id == id)
			return &m->ops[i];
	return NULL;
}

/* V as Python's str() prints it inside a list (repr), into B. */
static void
prof_msdata_value(struct msdata *m, struct strbuf *b, yajl_val v)
{
	char	 buf[40];

	if (v == NULL || YAJL_IS_NULL(v))
		strbuf_adds(b, "None");
	else if (YAJL_IS_TRUE(v))
		strbuf_adds(b, "True");
	else if (YAJL_IS_FALSE(v))
		strbuf_adds(b, "False");
	else if (YAJL_IS_INTEGER(v))
		strbuf_addf(b, "%lld", (long long)YAJL_GET_INTEGER(v));
	else if (YAJL_IS_DOUBLE(v)) {
		util_fmt_pyfloat(buf, sizeof buf, YAJL_GET_DOUBLE(v));
		strbuf_adds(b, buf);
	} else {
		/* A string, object or list in a list: never written. */
		m->odd = true;
		strbuf_adds(b, "N/A");
	}
}

/* V as a csv cell of Python's: None empty, a string as it is. */
static char *
prof_msdata_cell(struct msdata *m, yajl_val v)
{
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	if (v == NULL || YAJL_IS_NULL(v))
		;
	else if (YAJL_IS_STRING(v))
		strbuf_adds(&b, YAJL_GET_STRING(v));
	else if (YAJL_IS_ARRAY(v)) {
		strbuf_addc(&b, '[');
		for (i = 0; i < YAJL_GET_ARRAY(v)->len; i++) {
			if (i > 0)
				strbuf_adds(&b, ", ");
			prof_msdata_value(m, &b, YAJL_GET_ARRAY(v)->values[i]);
		}
		strbuf_addc(&b, ']');
	} else
		prof_msdata_value(m, &b, v);
	return strbuf_detach(&b);
}

/* A list of ids as Python prints it, or "" if none. */
static char *
prof_msdata_ids(const int64_t *v, size_t n)
{
	struct strbuf	 b;
	size_t		 i;

	strbuf_init(&b);
	for (i = 0; i < n; i++)
		strbuf_addf(&b, "%s%lld", i == 0 ? "[" : ", ", (long long)v[i]);
	if (n > 0)
		strbuf_addc(&b, ']');
	return strbuf_detach(&b);
}

/* True if V is None or falsy, as Python's "not v" says. */
static bool
prof_msdata_falsy(yajl_val v)
{
	return v == NULL || YAJL_IS_NULL(v) || YAJL_IS_FALSE(v) ||
	    (YAJL_IS_OBJECT(v) && YAJL_GET_OBJECT(v)->len == 0) ||
	    (YAJL_IS_ARRAY(v) && YAJL_GET_ARRAY(v)->len == 0) ||
	    (YAJL_IS_STRING(v) && *YAJL_GET_STRING(v) == '\0') ||
	    (YAJL_IS_NUMBER(v) && YAJL_GET_DOUBLE(v) == 0);
}

/*
 * Read op V into O: its id, output queue and children; false (M->why
 * set) where the analysis fails.
 */
static bool
prof_msdata_read_op(struct msdata *m, yajl_val v, struct msdata_op *o)
{
	yajl_val	 metrics, c;
	size_t		 k;

	if (!YAJL_IS_OBJECT(v) || YAJL_GET_OBJECT(v)->len == 0 ||
	    !prof_msdata_int(prof_msdata_get(v, "op_id"), &o->id)) {
		m->why = "an op that is empty, or has no integer op_id";
		return false;
	}
	o->v = v;
	o->parent = NP_NA;
	metrics = prof_msdata_get(v, "metrics");
	if (!prof_msdata_falsy(metrics)) {
		c = prof_msdata_get(metrics, "output_queue");
		if (!YAJL_IS_OBJECT(metrics) || (!prof_msdata_falsy(c) &&
		    !YAJL_IS_OBJECT(c))) {
			m->why = "metrics or an output_queue that is not an "
			    "object";
			return false;
		}
		if (!prof_msdata_falsy(c))
			o->queue = c;
	}
	c = prof_msdata_get(v, "children");
	if (prof_msdata_falsy(c))
		return true;
	if (!YAJL_IS_ARRAY(c)) {
		m->why = "children that are not a list";
		return false;
	}
	o->children = xcalloc(YAJL_GET_ARRAY(c)->len, sizeof *o->children);
	for (k = 0; k < YAJL_GET_ARRAY(c)->len; k++) {
		if (!prof_msdata_int(YAJL_GET_ARRAY(c)->values[k],
		    &o->children[o->nchildren++])) {
			m->why = "a child id that is not an integer";
			return false;
		}
	}
	return true;
}

/*
 * Read the ops of ROOT into M; false (M->why set) where the analysis
 * fails: no sampling interval or ops, an op it cannot read, an id twice.
 */
static bool
prof_msdata_read(struct msdata *m, yajl_val root)
{
	yajl_val	 ops, v;
	size_t		 i, n;

	v = prof_msdata_get(root, "sampling_interval");
	ops = prof_msdata_get(root, "op_info");
	if (v == NULL || YAJL_IS_NULL(v) || prof_msdata_falsy(ops) ||
	    !YAJL_IS_ARRAY(ops)) {
		m->why = "no sampling_interval or op_info";
		return false;
	}
	n = YAJL_GET_ARRAY(ops)->len;
	m->ops = xcalloc(n, sizeof *m->ops);
	for (i = 0; i < n; i++) {
		if (!prof_msdata_read_op(m, YAJL_GET_ARRAY(ops)->values[i],
		    &m->ops[i])) {
			free(m->ops[i].children);
			return false;
		}
		m->nops++;
		if (prof_msdata_op(m, m->ops[i].id) != &m->ops[i]) {
			m->why = "an op_id twice";
			return false;
		}
	}
	return true;
}

/*
 * Replace the children of O by those with an output queue, taking the
 * children of those without in their place, breadth first; ids of no op
 * are dropped.
 */
static void
prof_msdata_children(struct msdata *m, struct msdata_op *o)
{
	struct msdata_op	*c;
	int64_t			*q, *kept;
	size_t			 nq, cap, head, nkept = 0;

	if (o->nchildren == 0)
		return;
	cap = o->nchildren;
	q = util_grow(NULL, 0, cap, sizeof *q);
	memcpy(q, o->children, cap * sizeof *q);
	nq = cap;
	kept = NULL;
	/* A cycle of ops without queues would go on for ever: bounded. */
	for (head = 0; head < nq && head < m->nops * m->nops + cap; head++) {
		if ((c = prof_msdata_op(m, q[head])) == NULL)
			continue;
		if (c->queue == NULL && c->nchildren > 0) {
			q = util_grow(q, nq, c->nchildren, sizeof *q);
			memcpy(q + nq, c->children, c->nchildren * sizeof *q);
			nq += c->nchildren;
		} else if (c->queue != NULL) {
			kept = util_grow(kept, nkept, 1, sizeof *kept);
			kept[nkept++] = q[head];
		}
	}
	free(q);
	free(o->children);
	o->children = kept;
	o->nchildren = nkept;
}

/*
 * The row of op O into F (MSDATA_NCOLS cells, the caller frees them);
 * false (M->why set) where the analysis fails: a queue without sizes, or
 * of length 0 or none with sizes.
 */
static bool
prof_msdata_row(struct msdata *m, const struct msdata_op *o, yajl_val iv,
    char **f)
{
	yajl_val	 size = NULL, len = NULL, x;
	double		 sum = 0, avg = 0;
	size_t		 i, n = 0;
	char		 buf[40];

	if (o->queue != NULL) {
		size = prof_msdata_get(o->queue, "size");
		len = prof_msdata_get(o->queue, "length");
		if (size == NULL || YAJL_IS_NULL(size)) {
			m->why = "an output queue without sizes";
			return false;
		}
		if (len != NULL && YAJL_IS_NUMBER(len) &&
		    YAJL_GET_DOUBLE(len) == 0) {
			m->why = "an output queue of length 0";
			return false;
		}
		if (!YAJL_IS_ARRAY(size)) {
			m->why = "queue sizes that are not a list";
			return false;
		}
		n = YAJL_GET_ARRAY(size)->len;
	}
	for (i = 0; i < n; i++) {
		x = YAJL_GET_ARRAY(size)->values[i];
		if (!YAJL_IS_NUMBER(x)) {
			m->why = "a queue size that is not a number";
			return false;
		}
		sum += YAJL_IS_INTEGER(x) ? (double)YAJL_GET_INTEGER(x) :
		    YAJL_GET_DOUBLE(x);
	}
	if (n > 0 && (len == NULL || !YAJL_IS_NUMBER(len))) {
		m->why = "an output queue without a length";
		return false;
	}
	f[0] = prof_msdata_cell(m, prof_msdata_get(o->v, "op_id"));
	f[1] = prof_msdata_cell(m, prof_msdata_get(o->v, "op_type"));
	f[2] = prof_msdata_cell(m, prof_msdata_get(o->v, "num_workers"));
	f[3] = prof_msdata_cell(m, size);
	f[4] = xstrdup("");
	f[6] = xstrdup("");
	if (n > 0) {
		avg = sum / (double)n;
		util_fmt_pyfloat(buf, sizeof buf, avg);
		free(f[4]);
		f[4] = xstrdup(buf);
		util_fmt_pyfloat(buf, sizeof buf, avg / (YAJL_IS_INTEGER(len) ?
		    (double)YAJL_GET_INTEGER(len) : YAJL_GET_DOUBLE(len)));
		free(f[6]);
		f[6] = xstrdup(buf);
	}
	f[5] = prof_msdata_cell(m, len);
	f[7] = prof_msdata_cell(m, iv);
	f[8] = o->parent == NP_NA ? xstrdup("") : NULL;
	if (f[8] == NULL)
		xasprintf(&f[8], "%lld", (long long)o->parent);
	f[9] = prof_msdata_ids(o->children, o->nchildren);
	return true;
}

/*
 * The rows of M's ops from op 0, breadth first (an op reached twice is
 * listed twice), into *ROWS (*NROWS of MSDATA_NCOLS cells); false (M->why
 * set) where the analysis fails.
 */
static bool
prof_msdata_walk(struct msdata *m, yajl_val iv, char ***rows, size_t *nrows)
{
	struct msdata_op	*o, *c, **q = NULL;
	size_t			 nq = 1, head, i;
	bool			 ok = true;

	*rows = NULL;
	*nrows = 0;
	if ((o = prof_msdata_op(m, 0)) == NULL) {
		m->why = "no op of id 0, the pipeline's root";
		return false;
	}
	o->parent = NP_NA;
	q = xreallocarray(NULL, 1, sizeof *q);
	q[0] = o;
	for (head = 0; ok && head < nq; head++) {
		if (head >= 64 * m->nops + 64) {
			m->why = "ops that are their own descendants";
			ok = false;
			break;
		}
		o = q[head];
		prof_msdata_children(m, o);
		*rows = util_grow(*rows, *nrows, MSDATA_NCOLS, sizeof **rows);
		if (!(ok = prof_msdata_row(m, o, iv, *rows + *nrows)))
			break;
		*nrows += MSDATA_NCOLS;
		for (i = 0; i < o->nchildren; i++) {
			c = prof_msdata_op(m, o->children[i]);
			c->parent = o->id;
			q = util_grow(q, nq, 1, sizeof *q);
			q[nq++] = c;
		}
	}
	free(q);
	*nrows /= MSDATA_NCOLS;
	return ok;
}

/* Decode MindSpore's pipeline file PATH into minddata_pipeline_raw. */
void
prof_fwk_msdata_load(struct prof_fwk *fw, const char *path)
{
	struct msdata	 m;
	yajl_val	 root;
	char		*data, *why = NULL, err[128], **rows = NULL;
	size_t		 nrows = 0, i;

	memset(&m, 0, sizeof m);
	m.fw = fw;
	m.path = path;
	store_load_file(fw->s, path);
	if (util_read_file(path, &data, NULL, MSDATA_MAX, &why) != 0) {
		store_load_warning(fw->s, path, -1, "%s", why);
		free(why);
		return;
	}
	root = yajl_tree_parse(data, err, sizeof err);
	free(data);
	if (root == NULL) {
		store_load_warning(fw->s, path, -1, "not JSON: %.*s: no "
		    "minddata_pipeline_raw, as MindSpore makes none",
		    (int)strcspn(err, "\n"), err);
		return;
	}
	if (!prof_msdata_read(&m, root) ||
	    !prof_msdata_walk(&m, prof_msdata_get(root, "sampling_interval"),
	    &rows, &nrows))
		store_load_warning(fw->s, path, -1, "%s: no "
		    "minddata_pipeline_raw, as MindSpore's analysis fails on "
		    "it", m.why);
	else if (store_load_generic_begin(fw->s, "minddata_pipeline_raw",
	    fw->device, fw->rank, (char **)prof_msdata_cols, MSDATA_NCOLS,
	    &why) != 0) {
		store_load_warning(fw->s, path, -1, "%s", why);
		free(why);
	} else {
		for (i = 0; i < nrows; i++)
			store_load_generic_row(fw->s, rows + i * MSDATA_NCOLS,
			    MSDATA_NCOLS);
		if (m.odd)
			store_load_warning(fw->s, path, -1, "lists holding "
			    "strings, objects or lists, which MindSpore's "
			    "writer never writes: those values read N/A");
	}
	for (i = 0; i < nrows * MSDATA_NCOLS; i++)
		free(rows[i]);
	free(rows);
	for (i = 0; i < m.nops; i++)
		free(m.ops[i].children);
	free(m.ops);
	yajl_tree_free(root);
}
