/*
 * MindSpore's dataset pipeline of an un-analysed profile (doc/formats.md
 * section 3.12): pipeline_profiling_<rank>.json, which MindData's
 * profiler writes beside the pool totals. It holds the sampling interval
 * (ms) and the pipeline's ops, root first: id, type, workers, their
 * output queue (its length and one size per sample) unless the op is
 * inlined, and the ids of their children. It becomes the table
 * minddata_pipeline_raw, as MindSpore 2.5's and later analysis
 * (MindDataParser, MindDataPipelineRawViewer) writes
 * minddata_pipeline_raw_<rank>.csv: the ops from op 0 breadth first, each
 * op's children without an output queue replaced by theirs, every cell
 * as Python prints it (a list as "[1, 2]", a float as repr(), None as
 * nothing). The file is checked as that analysis checks it: the whole of
 * it where the parser does, an op where the walk reaches it. Where that
 * analysis fails, no table is written, as MindSpore writes none, and a
 * warning says why.
 */
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

#define MSDATA_NCOLS	10
#define MSDATA_WORK	(1 << 21)	/* ids the walk may handle */
#define MSDATA_BYTES	(256 << 20)	/* and the bytes of its rows */

static const char *const prof_msdata_cols[MSDATA_NCOLS] = {
	"op_id", "op_type", "num_workers", "output_queue_size",
	"output_queue_average_size", "output_queue_length",
	"output_queue_usage_rate", "sample_interval", "parent_id",
	"children_id"
};

/* For util_map_probe(): op V has the id M->want. */
struct msdata_want {
	const struct msdata	*m;
	yajl_val		 id;
};

static bool
prof_msdata_same(const void *arg, uint64_t v)
{
	const struct msdata_want	*w = arg;

	return prof_mspy_eq(w->m->ops[v].id, w->id);
}

/* The op of id ID, or NULL. */
static struct msdata_op *
prof_msdata_op(struct msdata *m, yajl_val id)
{
	struct msdata_want	 w = { m, id };
	uint64_t		 h = prof_mspy_hash(id), v;

	return util_map_probe(&m->byid, &h, prof_msdata_same, &w, &v) ?
	    &m->ops[v] : NULL;
}

/*
 * Read the ops of ROOT into M as the parser does; false (M->why set)
 * where it fails: no sampling interval or ops, an op that is not an
 * object or has no op_id, an op_id twice or that is a list or object.
 */
static bool
prof_msdata_read(struct msdata *m, yajl_val root)
{
	struct msdata_want	 w;
	yajl_val		 ops, v, id;
	uint64_t		 h, x;
	size_t			 i, n;

	v = prof_mspy_get(root, "sampling_interval");
	ops = prof_mspy_get(root, "op_info");
	if (!YAJL_IS_OBJECT(root) || v == NULL || YAJL_IS_NULL(v) ||
	    prof_mspy_falsy(ops)) {
		m->why = "no sampling_interval or op_info";
		return false;
	}
	if (!YAJL_IS_ARRAY(ops)) {
		m->why = "op_info that is not a list";
		return false;
	}
	n = YAJL_GET_ARRAY(ops)->len;
	m->ops = xcalloc(n, sizeof *m->ops);
	w.m = m;
	for (i = 0; i < n; i++) {
		v = YAJL_GET_ARRAY(ops)->values[i];
		if (!YAJL_IS_OBJECT(v) || YAJL_GET_OBJECT(v)->len == 0 ||
		    (id = prof_mspy_get(v, "op_id")) == NULL ||
		    !prof_mspy_hashable(id)) {
			m->why = "an op that is empty or not an object, or "
			    "whose op_id is missing, a list or an object";
			return false;
		}
		w.id = id;
		h = prof_mspy_hash(id);
		if (util_map_probe(&m->byid, &h, prof_msdata_same, &w, &x)) {
			m->why = "an op_id twice";
			return false;
		}
		m->ops[m->nops].v = v;
		m->ops[m->nops].id = id;
		m->ops[m->nops].children = prof_mspy_get(v, "children");
		util_map_set(&m->byid, h, m->nops++);
	}
	return true;
}

/*
 * Replace the children of O by those with an output queue, taking the
 * children of those without in their place, breadth first; ids of no op
 * are dropped. False (M->why set) where the analysis fails.
 */
static bool
prof_msdata_update(struct msdata *m, struct msdata_op *o)
{
	struct msdata_op	*c;
	yajl_val		*q = NULL, *ids, metrics, queue;
	size_t			 nq = 0, head, nids;
	bool			 ok = true;

	if (o->updated || prof_mspy_falsy(o->children))
		return true;
	if (!prof_mspy_iter(m, o->children, &ids, &nids))
		return false;
	q = util_grow(NULL, 0, nids, sizeof *q);
	memcpy(q, ids, nids * sizeof *q);
	nq = nids;
	for (head = 0; ok && head < nq; head++) {
		if (++m->work > MSDATA_WORK) {
			m->guard = true;
			m->why = "a walk too long to follow (ops that pull up "
			    "their own ancestors, or millions of ids)";
			ok = false;
			break;
		}
		if (!prof_mspy_hashable(q[head])) {
			m->why = "a child id that is a list or an object";
			ok = false;
			break;
		}
		if ((c = prof_msdata_op(m, q[head])) == NULL)
			continue;
		metrics = prof_mspy_get(c->v, "metrics");
		if (!prof_mspy_falsy(metrics) && !YAJL_IS_OBJECT(metrics)) {
			m->why = "metrics that are not an object";
			ok = false;
			break;
		}
		queue = prof_mspy_get(metrics, "output_queue");
		if (prof_mspy_falsy(queue)) {
			if (prof_mspy_falsy(c->children))
				continue;
			if (!(ok = prof_mspy_iter(m, c->children, &ids,
			    &nids)))
				break;
			q = util_grow(q, nq, nids, sizeof *q);
			memcpy(q + nq, ids, nids * sizeof *q);
			nq += nids;
		} else {
			o->kept = util_grow(o->kept, o->nkept, 1,
			    sizeof *o->kept);
			o->kept[o->nkept++] = q[head];
		}
	}
	free(q);
	/* Python assigns the new children only once it has them all. */
	if (!ok) {
		free(o->kept);
		o->kept = NULL;
		o->nkept = 0;
	}
	o->updated = ok;
	return ok;
}

/* The children of O after prof_msdata_update(), into *V, *N. */
static bool
prof_msdata_children(struct msdata *m, const struct msdata_op *o,
    yajl_val **v, size_t *n)
{
	if (o->updated) {
		*v = o->kept;
		*n = o->nkept;
		return true;
	}
	*v = NULL;
	*n = 0;
	/* Left as it was: nothing to go through if falsy but "" or {}. */
	if (o->children == NULL || YAJL_IS_STRING(o->children) ||
	    YAJL_IS_OBJECT(o->children) || YAJL_IS_ARRAY(o->children))
		return true;
	m->why = "children that are None, false or a number";
	return false;
}

/*
 * The row of op O into F (MSDATA_NCOLS cells, the caller frees them);
 * false (M->why set) where the analysis fails: metrics or a queue that
 * are not objects, a queue without sizes, of length 0, sizes that are
 * not numbers or a length that is not one.
 */
static bool
prof_msdata_row(struct msdata *m, const struct msdata_op *o, yajl_val iv,
    char **f)
{
	yajl_val	 metrics, queue = NULL, size = NULL, len = NULL, *ids;
	double		 sum = 0, x, l = 0;
	size_t		 i, n = 0, nids;
	char		 buf[40];
	struct strbuf	 b;

	metrics = prof_mspy_get(o->v, "metrics");
	if (!prof_mspy_falsy(metrics)) {
		if (!YAJL_IS_OBJECT(metrics)) {
			m->why = "metrics that are not an object";
			return false;
		}
		queue = prof_mspy_get(metrics, "output_queue");
		if (queue != NULL && !YAJL_IS_OBJECT(queue)) {
			m->why = "an output_queue that is not an object";
			return false;
		}
	}
	if (!prof_mspy_falsy(queue)) {
		size = prof_mspy_get(queue, "size");
		len = prof_mspy_get(queue, "length");
		if (size == NULL || YAJL_IS_NULL(size)) {
			m->why = "an output queue without sizes";
			return false;
		}
		if (prof_mspy_numeric(len, &x) && x == 0) {
			m->why = "an output queue of length 0";
			return false;
		}
	}
	if (!prof_mspy_falsy(size)) {
		if (!YAJL_IS_ARRAY(size)) {
			m->why = "queue sizes that are not a list";
			return false;
		}
		n = YAJL_GET_ARRAY(size)->len;
		for (i = 0; i < n; i++) {
			if (!prof_mspy_arith(YAJL_GET_ARRAY(size)->values[i],
			    &x)) {
				m->why = "a queue size that is not a number "
				    "we can add";
				return false;
			}
			sum += x;
		}
		if (!prof_mspy_arith(len, &l)) {
			m->why = "an output queue without a numeric length";
			return false;
		}
	}
	if (!prof_msdata_children(m, o, &ids, &nids))
		return false;
	f[0] = prof_mspy_cell(o->id);
	f[1] = prof_mspy_cell(prof_mspy_get(o->v, "op_type"));
	f[2] = prof_mspy_cell(prof_mspy_get(o->v, "num_workers"));
	f[3] = prof_mspy_cell(size);
	f[4] = xstrdup("");
	f[6] = xstrdup("");
	if (n > 0) {
		util_fmt_pyfloat(buf, sizeof buf, sum / (double)n);
		free(f[4]);
		f[4] = xstrdup(buf);
		util_fmt_pyfloat(buf, sizeof buf, sum / (double)n / l);
		free(f[6]);
		f[6] = xstrdup(buf);
	}
	f[5] = prof_mspy_cell(len);
	f[7] = prof_mspy_cell(iv);
	f[8] = prof_mspy_cell(o->parent);
	strbuf_init(&b);
	for (i = 0; i < nids; i++) {
		strbuf_adds(&b, i == 0 ? "[" : ", ");
		prof_mspy_repr(&b, ids[i]);
	}
	if (nids > 0)
		strbuf_addc(&b, ']');
	f[9] = strbuf_detach(&b);
	for (i = 0; i < MSDATA_NCOLS; i++)
		m->bytes += strlen(f[i]);
	return true;
}

/*
 * The rows of M's ops from op 0, breadth first (an op reached twice is
 * listed twice), into *ROWS (*NROWS of MSDATA_NCOLS cells); false (M->why
 * set) where the analysis fails.
 */
static bool
prof_msdata_walk(struct msdata *m, yajl_val root, char ***rows,
    size_t *nrows)
{
	struct yajl_val_s	 zero;
	struct msdata_op	*o, *c, **q;
	yajl_val		 iv, *ids;
	size_t			 nq = 1, head, i, nids;
	bool			 ok = true;

	*rows = NULL;
	*nrows = 0;
	memset(&zero, 0, sizeof zero);
	zero.type = yajl_t_number;
	zero.u.number.i = 0;
	zero.u.number.d = 0;
	zero.u.number.r = (char *)"0";
	zero.u.number.flags = YAJL_NUMBER_INT_VALID | YAJL_NUMBER_DOUBLE_VALID;
	if ((o = prof_msdata_op(m, &zero)) == NULL) {
		m->why = "no op of id 0, the pipeline's root";
		return false;
	}
	iv = prof_mspy_get(root, "sampling_interval");
	o->parent = NULL;
	q = util_grow(NULL, 0, 1, sizeof *q);
	q[0] = o;
	for (head = 0; ok && head < nq; head++) {
		o = q[head];
		if (!(ok = prof_msdata_update(m, o)))
			break;
		*rows = util_grow(*rows, *nrows, MSDATA_NCOLS, sizeof **rows);
		if (!(ok = prof_msdata_row(m, o, iv, *rows + *nrows)))
			break;
		*nrows += MSDATA_NCOLS;
		if (m->bytes > MSDATA_BYTES) {
			m->guard = true;
			m->why = "rows past 256 MB (ops reached many times)";
			ok = false;
			break;
		}
		(void)prof_msdata_children(m, o, &ids, &nids);
		for (i = 0; ok && i < nids; i++) {
			if (++m->work > MSDATA_WORK) {
				m->guard = true;
				m->why = "a walk too long to follow (ops "
				    "reached millions of times)";
				ok = false;
			} else if ((c = prof_msdata_op(m, ids[i])) == NULL) {
				m->why = "a child id of no op";
				ok = false;
			} else {
				c->parent = o->id;
				q = util_grow(q, nq, 1, sizeof *q);
				q[nq++] = c;
			}
		}
	}
	free(q);
	*nrows /= MSDATA_NCOLS;
	return ok;
}

/*
 * True if the folder of PATH, MindSpore's pipeline file of RANK, has the
 * other files MindData's profiler writes beside it: its CPU use and a
 * device trace. MindSpore 2.5's and later parser fails without them, and
 * then writes no table at all.
 */
static bool
prof_msdata_companions(const char *path, int64_t rank)
{
	static const char *const names[] = {
		"minddata_cpu_utilization_%lld.json",
		"device_queue_profiling_%lld.txt",
		"dataset_iterator_profiling_%lld.txt"
	};
	char	*p;
	bool	 found[3];
	size_t	 i;

	for (i = 0; i < 3; i++) {
		p = prof_mdsum_beside(path, names[i], rank);
		found[i] = access(p, F_OK) == 0;
		free(p);
	}
	return found[0] && (found[1] || found[2]);
}

/*
 * Decode MindSpore's pipeline file PATH of RANK into
 * minddata_pipeline_raw; LATE if MindSpore 2.5 or later (or no known
 * version) wrote it.
 */
void
prof_fwk_msdata_load(struct prof_fwk *fw, const char *path, int64_t rank,
    bool late)
{
	struct msdata	 m;
	yajl_val	 root;
	char		*data, *why = NULL, err[128], **rows = NULL;
	size_t		 nrows = 0, i;
	bool		 read, built = false;

	memset(&m, 0, sizeof m);
	m.fw = fw;
	util_map_init(&m.byid);
	store_load_file(fw->s, path);
	if (util_read_file(path, &data, NULL, MSDATA_MAX, &why) != 0) {
		store_load_warning(fw->s, path, -1, "%s", why);
		free(why);
		return;
	}
	root = json_tree_parse(data, err, sizeof err);
	free(data);
	if (root == NULL) {
		store_load_warning(fw->s, path, -1, "not JSON: %.*s: no "
		    "minddata_pipeline_raw, as MindSpore makes none",
		    (int)strcspn(err, "\n"), err);
		util_map_release(&m.byid);
		return;
	}
	read = prof_msdata_read(&m, root);
	if (!read || !prof_msdata_walk(&m, root, &rows, &nrows))
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
		built = true;
	}
	if (read && prof_msdata_companions(path, rank))
		prof_mdsum_load(&m, path, rank);
	else if (read)
		store_load_warning(fw->s, path, -1, "no "
		    "minddata_cpu_utilization_%lld.json, or no device trace "
		    "(device_queue_profiling_%lld.txt, "
		    "dataset_iterator_profiling_%lld.txt), beside it: no "
		    "minddata_pipeline_summary%s", (long long)rank,
		    (long long)rank, (long long)rank, late && built ?
		    "; MindSpore 2.5's and later analysis then writes no "
		    "minddata_pipeline_raw either, ours is built all the same" :
		    "");
	for (i = 0; i < nrows * MSDATA_NCOLS; i++)
		free(rows[i]);
	free(rows);
	for (i = 0; i < m.nops; i++)
		free(m.ops[i].kept);
	free(m.ops);
	for (i = 0; i < m.nmade; i++) {
		free(m.made[i]->u.string);
		free(m.made[i]);
	}
	free(m.made);
	for (i = 0; i < m.nlists; i++)
		free(m.lists[i]);
	free(m.lists);
	util_map_release(&m.byid);
	yajl_tree_free(root);
}
