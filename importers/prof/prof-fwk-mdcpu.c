/*
 * The ops' CPU use for minddata_pipeline_summary (prof-fwk-mdsum.c):
 * minddata_cpu_utilization_<rank>.json, which MindData's CpuSampler
 * writes beside the pipeline, read as MindSpore's summary reads it
 * (doc/formats.md section 3.12): per op its mean system plus user use,
 * at the index of its id, op -1 left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

/* The CPU use of one op OP into *SUM (of its samples) and *N. */
static bool
prof_mdcpu_op(struct mdsum *s, yajl_val op, double *sum, size_t *n)
{
	yajl_val	 m, sys, usr;
	double		 x, y;
	size_t		 i, k;

	m = prof_mspy_get(op, "metrics");
	sys = prof_mspy_get(m, "sys_utilization");
	usr = prof_mspy_get(m, "user_utilization");
	if (!prof_mspy_len(sys, &k) || !prof_mspy_len(usr, n)) {
		s->why = "an op without metrics.sys_utilization and "
		    "metrics.user_utilization to iterate";
		return false;
	}
	if (k < *n)
		*n = k;				/* zip() stops there */
	/* Characters or keys, were there any, are not numbers to add. */
	if (*n > 0 && (!YAJL_IS_ARRAY(sys) || !YAJL_IS_ARRAY(usr))) {
		s->why = "a CPU use that is not a number";
		return false;
	}
	*sum = 0;
	for (i = 0; i < *n; i++) {
		if (!prof_mspy_arith(YAJL_GET_ARRAY(sys)->values[i], &x) ||
		    !prof_mspy_arith(YAJL_GET_ARRAY(usr)->values[i], &y)) {
			s->why = "a CPU use that is not a number";
			return false;
		}
		*sum += x + y;
	}
	return true;
}

/*
 * The ops' mean CPU use from ROOT, the CPU use file, at their ids: a list
 * as long as the ops listed but op -1, -1 where none is; false where the
 * summary fails.
 */
static bool
prof_mdcpu_ops(struct mdsum *s, yajl_val root)
{
	struct util_map		 map;
	struct yajl_val_s	 minus;
	yajl_val		 ops, op, id, *ids = NULL;
	double			*sums = NULL, sum;
	size_t			*ns = NULL, nids = 0, i, n;
	uint64_t		 x;
	int64_t			 k;
	bool			 ok = true;

	memset(&minus, 0, sizeof minus);
	minus.type = yajl_t_number;
	minus.u.number.i = -1;
	minus.u.number.d = -1;
	minus.u.number.r = (char *)"-1";
	minus.u.number.flags = YAJL_NUMBER_INT_VALID |
	    YAJL_NUMBER_DOUBLE_VALID;
	ops = prof_mspy_get(root, "op_info");
	if (!YAJL_IS_OBJECT(root) || prof_mspy_get(root,
	    "cpu_processor_num") == NULL || YAJL_IS_NULL(prof_mspy_get(root,
	    "cpu_processor_num")) || prof_mspy_falsy(ops)) {
		s->why = "no cpu_processor_num or op_info";
		return false;
	}
	if (!YAJL_IS_ARRAY(ops)) {
		s->why = "an op_info that is not a list";
		return false;
	}
	util_map_init(&map);
	for (i = 0; ok && i < YAJL_GET_ARRAY(ops)->len; i++) {
		op = YAJL_GET_ARRAY(ops)->values[i];
		if (!YAJL_IS_OBJECT(op) || prof_mspy_falsy(op) ||
		    (id = prof_mspy_get(op, "op_id")) == NULL) {
			s->why = "an op that is empty, not an object or "
			    "without op_id";
			ok = false;
		}
	}
	/* Op -1 (MindData's own threads) is left out; an id twice: last. */
	for (i = 0; ok && i < YAJL_GET_ARRAY(ops)->len; i++) {
		op = YAJL_GET_ARRAY(ops)->values[i];
		id = prof_mspy_get(op, "op_id");
		if (prof_mspy_eq(id, &minus))
			continue;
		if (!prof_mdcpu_op(s, op, &sum, &n)) {
			ok = false;
			break;
		}
		if (!prof_mspy_hashable(id)) {
			s->why = "an op_id that is a list or an object";
			ok = false;
			break;
		}
		if ((x = prof_mspy_key(&map, &ids, &nids, id)) + 1 == nids) {
			sums = util_grow(sums, x, 1, sizeof *sums);
			ns = util_grow(ns, x, 1, sizeof *ns);
		}
		sums[x] = sum;
		ns[x] = n;
	}
	s->ncpu = nids;
	s->cpu = xcalloc(nids + 1, sizeof *s->cpu);
	for (i = 0; i < nids; i++)
		s->cpu[i] = prof_mdrow_int(-1);
	for (i = 0; ok && i < nids; i++) {
		if (!prof_mspy_int(ids[i], &k) || k < -(int64_t)nids ||
		    k >= (int64_t)nids) {
			s->why = "an op_id that is not an integer below the "
			    "number of ops";
			ok = false;
			break;
		}
		s->cpu[k < 0 ? k + (int64_t)nids : k] = ns[i] > 0 ?
		    prof_mdrow_round(sums[i] / (double)ns[i], 2) :
		    prof_mdrow_int(0);
	}
	free(ids);
	free(sums);
	free(ns);
	util_map_release(&map);
	return ok;
}

/* Read the CPU use file S->wpath into S->cpu; false if it fails. */
bool
prof_mdcpu_read(struct mdsum *s)
{
	yajl_val	 root;
	char		*data, *why = NULL, err[128];
	bool		 ok;

	s->woff = -1;
	if (util_read_file(s->wpath, &data, NULL, MSDATA_MAX, &why) != 0) {
		s->why = "its CPU use cannot be read";
		store_load_warning(s->m->fw->s, s->wpath, -1, "%s", why);
		free(why);
		return false;
	}
	store_load_file(s->m->fw->s, s->wpath);
	root = json_tree_parse(data, err, sizeof err);
	free(data);
	if (root == NULL) {
		s->why = "CPU use that is not JSON";
		return false;
	}
	if (prof_mspy_falsy(root)) {
		s->why = "an empty CPU use";
		ok = false;
	} else
		ok = prof_mdcpu_ops(s, root);
	yajl_tree_free(root);
	return ok;
}
