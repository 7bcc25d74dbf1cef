/*
 * The summary of MindSpore's dataset pipeline (doc/formats.md section
 * 3.12): the table minddata_pipeline_summary, laid out as MindSpore 2.5's
 * and later analysis writes minddata_pipeline_summary_<rank>.csv, a row
 * per key and its values after it. It is made of three files: the
 * pipeline as prof-fwk-msdata.c's walk left it (each op's children
 * replaced as the raw viewer replaces them, since MindSpore's summary
 * reads them after it), the ops' CPU use
 * (minddata_cpu_utilization_<rank>.json) and the device trace
 * (device_queue_profiling_<rank>.txt, else
 * dataset_iterator_profiling_<rank>.txt). Per op, by id: name, workers,
 * the output queue's mean size, use and share of empty samples,
 * children, parent, CPU use and CPU use per worker; the mean pipeline,
 * push and batch times; then the ops whose CPU use or queues look wrong
 * and the bottleneck. Those findings name the same ops with the same
 * numbers as MindSpore's, in words of our own. Where MindSpore's summary
 * fails no table is written, and a warning says why. This file makes the
 * ops' rows and writes the table; prof-fwk-mdcpu.c reads the CPU use,
 * prof-fwk-mdtrace.c the trace, prof-fwk-mdfind.c makes the findings and
 * prof-fwk-mdrow.c the cells.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof-msdata.h"

static const char *const prof_mdsum_times_keys[3] = {
	"per_pipeline_time", "per_push_queue_time", "per_batch_time"
};

/* Python's order of op ids: numbers by value, strings by code point. */
static int
prof_mdsum_cmp(const void *a, const void *b)
{
	yajl_val	 x = ((const struct mdsum_op *)a)->o->id;
	yajl_val	 y = ((const struct mdsum_op *)b)->o->id;
	int64_t		 i, j;
	double		 d, e;

	/* prof_mdsum_sort() sorts only ids all strings or all numbers. */
	if (YAJL_IS_STRING(x) && YAJL_IS_STRING(y))
		return strcmp(x->u.string, y->u.string);
	if (prof_mspy_int(x, &i) && prof_mspy_int(y, &j))
		return (i > j) - (i < j);
	(void)prof_mspy_numeric(x, &d);
	(void)prof_mspy_numeric(y, &e);
	return (d > e) - (d < e);
}

/* The ops sorted by id, as the summary takes them; false where it fails. */
static bool
prof_mdsum_sort(struct mdsum *s)
{
	size_t	 i, nstr = 0, nnum = 0;
	double	 d;

	s->n = s->m->nops;
	s->ops = xcalloc(s->n, sizeof *s->ops);
	for (i = 0; i < s->n; i++) {
		s->ops[i].o = &s->m->ops[i];
		if (YAJL_IS_STRING(s->ops[i].o->id))
			nstr++;
		else if (prof_mspy_numeric(s->ops[i].o->id, &d))
			nnum++;
	}
	if (s->n > 1 && nstr != s->n && nnum != s->n) {
		s->why = "op ids Python cannot sort (numbers and strings, "
		    "or None)";
		return false;
	}
	qsort(s->ops, s->n, sizeof *s->ops, prof_mdsum_cmp);
	return true;
}

/*
 * The output queue of op P: its mean size, use and share of empty
 * samples, or -1 for each where it has no sizes; false where the summary
 * fails on it.
 */
static bool
prof_mdsum_queue(struct mdsum *s, struct mdsum_op *p)
{
	yajl_val	 metrics, queue, size, len;
	double		 sum = 0, x, l;
	size_t		 i, n, zeros = 0;

	p->avg = p->use = p->empty = prof_mdrow_int(-1);
	metrics = prof_mspy_get(p->o->v, "metrics");
	if (prof_mspy_falsy(metrics))
		return true;
	if (!YAJL_IS_OBJECT(metrics)) {
		s->why = "metrics that are not an object";
		return false;
	}
	if ((queue = prof_mspy_get(metrics, "output_queue")) == NULL)
		return true;
	if (!YAJL_IS_OBJECT(queue)) {
		s->why = "an output_queue that is not an object";
		return false;
	}
	size = prof_mspy_get(queue, "size");
	if (prof_mspy_falsy(size))
		return true;
	if (!YAJL_IS_ARRAY(size)) {
		s->why = "queue sizes that are not a list";
		return false;
	}
	n = YAJL_GET_ARRAY(size)->len;
	for (i = 0; i < n; i++) {
		if (!prof_mspy_arith(YAJL_GET_ARRAY(size)->values[i], &x)) {
			s->why = "a queue size that is not a number we can add";
			return false;
		}
		sum += x;
		zeros += x == 0;
	}
	p->avg = prof_mdrow_round(sum / (double)n, 2);
	p->empty = prof_mdrow_round((double)(100 * zeros) / (double)n, 2);
	len = prof_mspy_get(queue, "length");
	if (prof_mspy_falsy(len))
		return true;
	if (!prof_mspy_arith(len, &l)) {
		s->why = "a queue length that is not a number";
		return false;
	}
	p->use = prof_mdrow_round(100 * p->avg.d / l, 2);
	return true;
}

/* Drop the last two characters (code points) of S, as s[0:-2] does. */
static char *
prof_mdsum_name(const char *s)
{
	size_t	 n = strlen(s), k, i;

	for (i = 0; i < 2 && n > 0; i++) {
		k = n - 1;
		while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
		n = k;
	}
	return xstrndup(s, n);
}

/* The parent of each op: the last op, by id, to list it as a child. */
static bool
prof_mdsum_parents(struct mdsum *s)
{
	struct util_map		 map;
	yajl_val		*keys = NULL, *vals = NULL;
	size_t			 nkeys = 0, i, j;
	uint64_t		 h, x;
	bool			 ok = true;

	util_map_init(&map);
	for (i = 0; ok && i < s->n; i++) {
		for (j = 0; j < s->ops[i].nkids; j++) {
			yajl_val	 k = s->ops[i].kids[j];

			if (!prof_mspy_hashable(k)) {
				s->why = "a child id that is a list or an "
				    "object";
				ok = false;
				break;
			}
			if ((x = prof_mspy_key(&map, &keys, &nkeys, k)) + 1 ==
			    nkeys)
				vals = util_grow(vals, x, 1, sizeof *vals);
			vals[x] = s->ops[i].o->id;
		}
	}
	for (i = 0; ok && i < s->n; i++) {
		h = prof_mspy_hash(s->ops[i].o->id);
		for (; util_map_get(&map, h, &x); h++)
			if (prof_mspy_eq(keys[x], s->ops[i].o->id)) {
				s->ops[i].parent = vals[x];
				break;
			}
	}
	free(keys);
	free(vals);
	util_map_release(&map);
	return ok;
}

/* The pipeline's rows: per op by id; false where the summary fails. */
static bool
prof_mdsum_pipeline(struct mdsum *s)
{
	struct mdsum_op	*p;
	yajl_val	 t;
	size_t		 i;

	for (i = 0; i < s->n; i++) {
		p = &s->ops[i];
		t = prof_mspy_get(p->o->v, "op_type");
		if (t == NULL || !YAJL_IS_STRING(t)) {
			s->why = "an op_type that is not a string";
			return false;
		}
		p->name = prof_mdsum_name(YAJL_GET_STRING(t));
		p->workers = prof_mspy_get(p->o->v, "num_workers");
		if (!prof_mdsum_queue(s, p))
			return false;
		if (p->o->updated) {
			p->kids = p->o->kept;
			p->nkids = p->o->nkept;
		} else if ((p->kidsv = p->o->children) == NULL) {
			continue;
		} else if (YAJL_IS_NULL(p->kidsv)) {
			s->why = "children that are None";
			return false;
		} else if (!prof_mspy_iter(s->m, p->kidsv, &p->kids,
		    &p->nkids)) {
			s->why = "children that are a number or a bool";
			return false;
		}
	}
	return prof_mdsum_parents(s);
}

/* The file NAME (a format of the rank) beside PATH. */
char *
prof_mdsum_beside(const char *path, const char *name, int64_t rank)
{
	char	*dir, *p, buf[80];

	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) != NULL)
		*p = '\0';
	else
		strcpy(dir, ".");
	snprintf(buf, sizeof buf, name, (long long)rank);
	p = util_path_join(dir, buf);
	free(dir);
	return p;
}

/* The rows of the ops, by id, as the summary lists them. */
static void
prof_mdsum_op_rows(struct mdsum *s)
{
	struct mdsum_row	*r[5];
	struct strbuf		 b;
	size_t			 i, j;

	strbuf_init(&b);
	/* Made first, then pointed at: a new row moves the others. */
	(void)prof_mdrow_row(s, "op_ids");
	(void)prof_mdrow_row(s, "op_names");
	(void)prof_mdrow_row(s, "pipeline_ops");
	(void)prof_mdrow_row(s, "num_workers");
	for (j = 0; j < 4; j++)
		r[j] = &s->rows[s->nrows - 4 + j];
	for (i = 0; i < s->n; i++) {
		prof_mdrow_put(r[0], prof_mspy_cell(s->ops[i].o->id));
		strbuf_adds(&b, s->ops[i].name);
		prof_mdrow_add(r[1], &b);
		prof_mdrow_op(&b, &s->ops[i]);
		prof_mdrow_add(r[2], &b);
		prof_mdrow_put(r[3], prof_mspy_cell(s->ops[i].workers));
	}
	prof_mdrow_nums(s, "queue_average_size", &s->ops[0].avg, s->n,
	    sizeof *s->ops);
	prof_mdrow_nums(s, "queue_utilization_pct", &s->ops[0].use, s->n,
	    sizeof *s->ops);
	prof_mdrow_nums(s, "queue_empty_freq_pct", &s->ops[0].empty, s->n,
	    sizeof *s->ops);
	(void)prof_mdrow_row(s, "children_ids");
	(void)prof_mdrow_row(s, "parent_id");
	r[0] = &s->rows[s->nrows - 2];
	r[1] = &s->rows[s->nrows - 1];
	for (i = 0; i < s->n; i++) {
		if (s->ops[i].kidsv != NULL)
			prof_mspy_str(&b, s->ops[i].kidsv);
		else {
			strbuf_addc(&b, '[');
			for (j = 0; j < s->ops[i].nkids; j++) {
				if (j > 0)
					strbuf_adds(&b, ", ");
				prof_mspy_repr(&b, s->ops[i].kids[j]);
			}
			strbuf_addc(&b, ']');
		}
		prof_mdrow_add(r[0], &b);
		prof_mdrow_put(r[1], s->ops[i].parent == NULL ?
		    xstrdup("-1") : prof_mspy_cell(s->ops[i].parent));
	}
	strbuf_release(&b);
}

/* Write S's rows as the table, a column per op. */
static void
prof_mdsum_write(struct mdsum *s, const char *path)
{
	struct prof_fwk	*fw = s->m->fw;
	size_t		 i, w = s->rows[0].n, cut = 0, at = 0;
	char		*why = NULL;

	if (store_load_generic_begin(fw->s, "minddata_pipeline_summary",
	    fw->device, fw->rank, s->rows[0].cells, w, &why) != 0) {
		store_load_warning(fw->s, path, -1, "%s", why);
		free(why);
		return;
	}
	if (w > STORE_GENERIC_MAX_COLS)
		w = STORE_GENERIC_MAX_COLS;
	for (i = 1; i < s->nrows; i++) {	/* row 0 is the header */
		if (s->rows[i].n > w && cut++ == 0)
			at = i;
		store_load_generic_row(fw->s, s->rows[i].cells,
		    s->rows[i].n < w ? s->rows[i].n : w);
	}
	if (cut > 0)
		store_load_warning(fw->s, path, -1, "minddata_pipeline_summary:"
		    " %zu rows (the first %s) hold more values than the table "
		    "has columns (one per op, at most %d), the extra ones "
		    "dropped", cut, s->rows[at].cells[0],
		    STORE_GENERIC_MAX_COLS - 1);
}

/* The ops' CPU use, beside PATH, into S. */
static bool
prof_mdsum_cpu(struct mdsum *s, const char *path, int64_t rank)
{
	s->wpath = prof_mdsum_beside(path, "minddata_cpu_utilization_%lld"
	    ".json", rank);
	return prof_mdcpu_read(s);
}

/* The device trace beside PATH: the device queue's, else the iterator's. */
static bool
prof_mdsum_trace(struct mdsum *s, const char *path, int64_t rank)
{
	bool	 found;

	free(s->wpath);
	s->wpath = prof_mdsum_beside(path, "device_queue_profiling_%lld.txt",
	    rank);
	if (!(found = access(s->wpath, F_OK) == 0)) {
		free(s->wpath);
		s->wpath = prof_mdsum_beside(path,
		    "dataset_iterator_profiling_%lld.txt", rank);
	}
	return prof_mdtrace_read(s, found);
}

/*
 * Build minddata_pipeline_summary of the pipeline file PATH of RANK, read
 * into M, and of the files beside it, unless M's walk stopped on our own
 * bound (MindSpore's would not end) or a companion is missing (which
 * prof-fwk-msdata.c has said).
 */
void
prof_mdsum_load(struct msdata *m, const char *path, int64_t rank)
{
	struct mdsum	 s;
	size_t		 i, j;
	bool		 ok;

	if (m->guard)
		return;
	memset(&s, 0, sizeof s);
	s.m = m;
	s.woff = -1;
	ok = prof_mdsum_sort(&s) && prof_mdsum_pipeline(&s) &&
	    prof_mdsum_cpu(&s, path, rank) &&
	    prof_mdsum_trace(&s, path, rank);
	if (ok) {
		/* What fails from here on is the pipeline's. */
		free(s.wpath);
		s.wpath = NULL;
		s.woff = -1;
		prof_mdsum_op_rows(&s);
		prof_mdrow_nums(&s, "avg_cpu_pct", s.cpu, s.ncpu,
		    sizeof *s.cpu);
		for (i = 0; i < 3; i++)
			prof_mdrow_nums(&s, prof_mdsum_times_keys[i],
			    &s.times[i], 1, sizeof *s.times);
		if (s.n != s.ncpu)
			store_load_warning(m->fw->s, path, -1, "%zu ops but "
			    "the CPU use of %zu: no CPU use per worker or "
			    "findings in minddata_pipeline_summary, as "
			    "MindSpore gives none", s.n, s.ncpu);
		else if ((ok = prof_mdfind_workers(&s))) {
			prof_mdrow_nums(&s, "avg_cpu_pct_per_worker",
			    &s.ops[0].wcpu, s.n, sizeof *s.ops);
			ok = prof_mdfind_analyse(&s);
		}
	}
	if (ok)
		prof_mdsum_write(&s, path);
	if (!ok && s.why != NULL)
		store_load_warning(m->fw->s, s.wpath != NULL ? s.wpath : path,
		    s.woff, "%s: no minddata_pipeline_summary, as MindSpore's "
		    "summary fails on it", s.why);
	for (i = 0; i < s.nrows; i++) {
		for (j = 0; j < s.rows[i].n; j++)
			free(s.rows[i].cells[j]);
		free(s.rows[i].cells);
	}
	free(s.rows);
	for (i = 0; i < s.n; i++)
		free(s.ops[i].name);
	free(s.ops);
	free(s.cpu);
	free(s.wpath);
}

