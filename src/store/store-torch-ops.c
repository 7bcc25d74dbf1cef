/*
 * operator_details of a raw torch_npu profile (doc/formats.md section
 * 3.11), as torch_npu's analysis writes it: a row per op of the op tree
 * (store-torch-tree.c) but the ProfilerStep ops: host self time (its
 * duration less its children's), host total, and the device time of its
 * own and total kernels, all and AI Core only, printed as Python prints
 * them (an empty sum is 0). store_torch_ops_load() ties the ops of a rank
 * to its kernels: the relation, the tree, the kernels' steps, the table.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

static const char *const store_torch_ops_cols[] = { "Name", "Input Shapes",
	"Call Stack", "Host Self Duration(us)", "Host Total Duration(us)",
	"Device Self Duration(us)", "Device Total Duration(us)",
	"Device Self Duration With AICore(us)",
	"Device Total Duration With AICore(us)" };
#define TORCH_OPS_NCOLS							\
	(sizeof store_torch_ops_cols / sizeof *store_torch_ops_cols)

/* A cell of a sum: Python's int 0 when nothing was added. */
static void
store_torch_ops_sum(char *buf, size_t size,
    const struct store_torch_node *nd, int k)
{
	if (!nd->any[k])
		snprintf(buf, size, "0");
	else
		util_fmt_pyfloat(buf, size, nd->sum[k]);
}

/*
 * Write table operator_details of rank RANK (device DEVICE) from the op
 * tree T built with the kernels. Return -1 with *cause set on failure.
 */
static int
store_torch_ops(struct store *s, int64_t rank, int64_t device,
    const struct store_torch_tree *t, char **cause)
{
	const struct store_torch_node	*nd;
	char				 num[6][40], *row[TORCH_OPS_NCOLS];
	size_t				 i, k;

	if (t->nn == 0)
		return 0;
	if (store_load_generic_begin(s, "operator_details", device, rank,
	    (char **)store_torch_ops_cols, TORCH_OPS_NCOLS, cause) != 0)
		return -1;
	for (k = 0; k < 6; k++)
		row[3 + k] = num[k];
	for (i = 0; i < t->nn; i++) {
		nd = &t->n[t->order[i]];
		if (strstr(nd->name, "ProfilerStep#") != NULL)
			continue;
		row[0] = nd->name;
		row[1] = nd->dims;
		row[2] = nd->stack;
		util_fmt_pyfloat(num[0], sizeof num[0], (double)(nd->end -
		    nd->start - nd->kids_ns) / 1000.0);
		util_fmt_pyfloat(num[1], sizeof num[1], (double)(nd->end -
		    nd->start) / 1000.0);
		store_torch_ops_sum(num[2], sizeof num[2], nd, 0);
		store_torch_ops_sum(num[3], sizeof num[3], nd, 1);
		store_torch_ops_sum(num[4], sizeof num[4], nd, 2);
		store_torch_ops_sum(num[5], sizeof num[5], nd, 3);
		store_load_generic_row(s, row, TORCH_OPS_NCOLS);
	}
	return 0;
}

/*
 * Tie rank RANK's PyTorch ops to its kernels as torch_npu's analysis
 * does, QUEUE if the profile has task queue marks: the kernels' steps
 * and table operator_details (on device DEVICE). Return -1 with *cause
 * set if the store cannot be read.
 */
int
store_torch_ops_load(struct store *s, int64_t rank, bool queue,
    int64_t device, char **cause)
{
	struct store_torch	 r;
	struct store_torch_tree	 t;
	int			 rc = 0;

	memset(&t, 0, sizeof t);
	if (store_torch_load(s, rank, queue, &r) != 0) {
		xasprintf(cause, "cannot read the launches: %s",
		    sqlite3_errmsg(s->db));
		store_torch_release(&r);
		return -1;
	}
	if (store_torch_tree_load(s, rank, &r, &t) != 0) {
		xasprintf(cause, "cannot read the PyTorch ops: %s",
		    sqlite3_errmsg(s->db));
		rc = -1;
	} else {
		(void)store_torch_steps(s, rank, &r, &t);
		rc = store_torch_ops(s, rank, device, &t, cause);
	}
	store_torch_tree_release(&t);
	store_torch_release(&r);
	return rc;
}
