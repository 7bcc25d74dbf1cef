/*
 * The host records that belong to an API span (doc/formats.md sections
 * 3.5-3.7), as generic tables: hccl_op_info to the node span of a
 * communication op (table hccl_op_info), hccl_info to the HCCL span of
 * one of its tasks (table hccl_info), fusion_op_info to a model span
 * (table fusion_op, the vendor's fusion_op summary). Each record goes to
 * the innermost span of its level and thread whose (begin, end] holds its
 * time stamp; a record no span holds keeps N/A for what the span gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_COMM_INVALID	4294967295U

static const char *const prof_comm_dtypes[] = {
	"INT8", "INT16", "INT32", "FP16", "FP32", "INT64", "UINT64", "UINT8",
	"UINT16", "UINT32", "FP64", "BFP16", "INT128", NULL, "HIF8",
	"FP8E4M3", "FP8E5M2", "FP8E8M0"
};
static const char *const prof_comm_links[] = {
	"ON_CHIP", "HCCS", "PCIE", "ROCE", "SIO", "HCCS_SW", "STANDARD_ROCE",
	"UB", "UBoE"
};
static const char *const prof_comm_transports[] = {
	"SDMA", "RDMA", "LOCAL", "UB", "ROCE"
};
static const char *const prof_comm_rdma[] = {
	"RDMA_SEND_NOTIFY", "RDMA_SEND_PAYLOAD"
};
static const char *const prof_comm_reduce[] = { "SUM", "MUL", "MAX", "MIN" };

/*
 * Microseconds US (a double as written) with three decimals, or, when that
 * does not fit a cell (a damaged record), in exponent form.
 */
void
prof_comm_row_us(struct prof_row *row, double us)
{
	char	*b;
	size_t	 size = sizeof row->buf[0];
	int	 n;

	if (row->n >= PROF_ROW_MAX)
		return;
	b = row->buf[row->n];
	n = snprintf(b, size, "%.3f", us);
	if (n < 0 || (size_t)n >= size)
		snprintf(b, size, "%.6e", us);
	prof_extra_row_str(row, b);
}

/*
 * Value V of enum column kind K, named by the vendor's table of that kind;
 * 255 RESERVED, 0xFFFFFFFF INVALID_TYPE, any other its number.
 */
void
prof_comm_enum_row(struct prof_row *r, enum prof_comm_enum k, uint32_t v)
{
	static const char *const role[] = { "DST", "SRC" };
	static const struct {
		const char *const	*names;
		size_t			 n;
	} tables[] = {
#define PROF_COMM_TABLE(t)	{ (t), sizeof (t) / sizeof (t)[0] }
		[PCE_DTYPE] = PROF_COMM_TABLE(prof_comm_dtypes),
		[PCE_LINK] = PROF_COMM_TABLE(prof_comm_links),
		[PCE_TRANSPORT] = PROF_COMM_TABLE(prof_comm_transports),
		[PCE_RDMA] = PROF_COMM_TABLE(prof_comm_rdma),
		[PCE_REDUCE] = PROF_COMM_TABLE(prof_comm_reduce),
		[PCE_ROLE] = PROF_COMM_TABLE(role)
#undef PROF_COMM_TABLE
	};

	if (v < tables[k].n && tables[k].names[v] != NULL)
		prof_extra_row_str(r, tables[k].names[v]);
	else if (v == 255)
		prof_extra_row_str(r, "RESERVED");
	else if (v == PROF_COMM_INVALID)
		prof_extra_row_str(r, "INVALID_TYPE");
	else
		prof_extra_row_u64(r, v);
}

/* Owners at LEVEL of the records X, in X's thread and time order. */
static int32_t *
prof_comm_owners(const struct prof_host *h, const struct prof_recs *x,
    unsigned level)
{
	int32_t	*owner;

	owner = xreallocarray(NULL, x->n + 1, sizeof *owner);
	prof_ops_owners(h, x->ix, x->n, sizeof *x->ix, level, owner);
	return owner;
}

/* The thread, start and duration of span SP, or of the bare record. */
static void
prof_comm_span(struct prof_row *row, const struct prof_host *h,
    const struct prof_meta *m, const struct prof_xref *ix, int32_t sp)
{
	const struct prof_span	*a;
	int64_t			 b, e;

	prof_extra_row_u64(row, ix->tid);
	if (sp < 0) {
		prof_extra_row_str(row, "N/A");
		prof_extra_row_us(row, prof_meta_host_ns(m, ix->ts));
		prof_extra_row_str(row, "N/A");
		return;
	}
	a = &h->spans[sp];
	prof_extra_row_str(row, prof_dict_hash(&h->dicts, a->item,
	    row->buf[row->n], sizeof row->buf[row->n]));
	b = prof_meta_host_ns(m, a->begin);
	e = prof_meta_host_ns(m, a->end);
	prof_extra_row_us(row, b);
	prof_extra_row_us(row, prof_meta_sane(b) && prof_meta_sane(e) ? e - b :
	    NP_NA);
}

static void
prof_comm_ops(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Thread ID", "Op Name",
	    "Start(us)", "Duration(us)", "Relay", "Retry", "Data Type",
	    "Alg Type", "Count", "Group Name" };
	const struct prof_recs	*x = &h->extra[PX_HCCL_OP];
	const unsigned char	*r;
	struct prof_row		 row;
	int32_t			*owner;
	char			 ab[32], gb[32];
	size_t			 i;

	if (x->n == 0 || !prof_extra_table_begin(s, "hccl_op_info",
	    NP_HOST_DEVICE,
	    rank, cols, sizeof cols / sizeof cols[0]))
		return;
	owner = prof_comm_owners(h, x, PROF_LEVEL_NODE);
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		prof_comm_span(&row, h, m, &x->ix[i], owner[i]);
		prof_extra_row_u64(&row, r[24] & 1);
		prof_extra_row_u64(&row, r[24] >> 1 & 1);
		prof_comm_enum_row(&row, PCE_DTYPE, r[25]);
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 26), ab, sizeof ab));
		prof_extra_row_u64(&row, importer_le64(r + 34));
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 42), gb, sizeof gb));
		prof_extra_row_load(s, &row);
	}
	free(owner);
}

/* The enum and number columns of one hccl_info record R. */
static void
prof_comm_task_cols(struct prof_row *row, const struct prof_host *h,
    const unsigned char *r, char *gb, size_t size)
{
	double	 est;
	uint64_t bits = importer_le64(r + 88);

	prof_extra_row_str(row, prof_dict_hash(&h->dicts, importer_le64(r + 40),
	    gb, size));
	prof_extra_row_u64(row, importer_le32(r + 64));
	prof_extra_row_u64(row, importer_le32(r + 48));
	prof_extra_row_u64(row, importer_le32(r + 52));
	prof_extra_row_u64(row, importer_le32(r + 56));
	prof_comm_enum_row(row, PCE_TRANSPORT, importer_le32(r + 132));
	prof_comm_enum_row(row, PCE_LINK, importer_le32(r + 128));
	prof_comm_enum_row(row, PCE_RDMA, importer_le32(r + 136));
	prof_comm_enum_row(row, PCE_DTYPE, importer_le32(r + 124));
	prof_comm_enum_row(row, PCE_REDUCE, importer_le32(r + 120));
	prof_extra_row_u64(row, importer_le64(r + 112));
	prof_extra_row_u64(row, importer_le64(r + 72));
	prof_extra_row_u64(row, importer_le32(r + 80));
	prof_extra_row_u64(row, importer_le32(r + 84));
	prof_extra_row_u64(row, importer_le32(r + 60));
	memcpy(&est, &bits, sizeof est);
	prof_comm_row_us(row, est);
	prof_extra_row_u64(row, importer_le32(r + 68));
}

static void
prof_comm_tasks(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	static const char *const cols[] = { "Thread ID", "Name", "Start(us)",
	    "Duration(us)", "Group Name", "Plane ID", "Src Rank", "Dst Rank",
	    "Rank Size", "Transport Type", "Link Type", "Rdma Type",
	    "Data Type", "Reduce Op", "Size(Byte)", "Notify ID", "Stage",
	    "Role", "Work Flow Mode", "Duration Estimated(us)",
	    "Context ID" };
	const struct prof_recs	*x = &h->extra[PX_HCCL];
	struct prof_row		 row;
	int32_t			*owner;
	char			 gb[32];
	size_t			 i;

	if (x->n == 0 || !prof_extra_table_begin(s, "hccl_info", NP_HOST_DEVICE,
	    rank, cols, sizeof cols / sizeof cols[0]))
		return;
	owner = prof_comm_owners(h, x, PROF_LEVEL_HCCL);
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		prof_comm_span(&row, h, m, &x->ix[i], owner[i]);
		if (owner[i] < 0)
			row.cells[1] = prof_dict_hash(&h->dicts, importer_le64(
			    prof_extra_rec(x, i) + 24), row.buf[1],
			    sizeof row.buf[1]);
		prof_comm_task_cols(&row, h, prof_extra_rec(x, i), gb,
		    sizeof gb);
		prof_extra_row_load(s, &row);
	}
	free(owner);
}

/* Bytes as the vendor's KB: SQLite's text of bytes / 1024.0. */
static void
prof_comm_kb(struct prof_row *row, uint64_t bytes)
{
	char	*b;
	size_t	 len;

	if (row->n >= PROF_ROW_MAX)
		return;
	b = row->buf[row->n];
	len = (size_t)snprintf(b, sizeof row->buf[0], "%.15g",
	    (double)bytes / 1024.0);
	if (strpbrk(b, ".en") == NULL && len + 3 <= sizeof row->buf[0])
		memcpy(b + len, ".0", 3);
	prof_extra_row_str(row, b);
}

/* The model names of graph_id_map: the last record of a model id wins. */
static const char *
prof_comm_model_name(const struct prof_host *h, uint64_t model, char *buf,
    size_t size)
{
	const struct prof_recs	*x = &h->extra[PX_GRAPH];
	const unsigned char	*r;
	size_t			 i;

	for (i = x->n; i-- > 0;) {
		r = x->v + i * x->size;
		if (importer_le32(r + 36) != model)
			continue;
		if (importer_le64(r + 24) == 0)
			return "0";
		return prof_dict_hash(&h->dicts, importer_le64(r + 24), buf,
		    size);
	}
	return "";
}

/* The op names of fusion record R joined by ';'. */
static void
prof_comm_fused(const struct prof_host *h, const unsigned char *r,
    struct strbuf *b)
{
	uint32_t	 n = importer_le32(r + 32), j;
	char		 nb[32];

	strbuf_reset(b);
	for (j = 0; j < n && j < 8; j++) {
		if (j > 0)
			strbuf_addc(b, ';');
		strbuf_adds(b, prof_dict_hash(&h->dicts,
		    importer_le64(r + 76 + 8 * j), nb, sizeof nb));
	}
}

static void
prof_comm_fusion(struct store *s, const struct prof_host *h, int64_t rank)
{
	static const char *const cols[] = { "Device_id", "Model Name",
	    "Model ID", "Fusion Op", "Original Ops", "Memory Input(KB)",
	    "Memory Output(KB)", "Memory Weight(KB)", "Memory Workspace(KB)",
	    "Memory Total(KB)" };
	const struct prof_recs	*x = &h->extra[PX_FUSION];
	const unsigned char	*r;
	struct prof_row		 row;
	struct strbuf		 ops;
	int32_t			*owner;
	uint64_t		 model;
	char			 mb[32], fb[32];
	size_t			 i;
	int			 k;

	if (x->n == 0 || !prof_extra_table_begin(s, "fusion_op", NP_HOST_DEVICE,
	    rank, cols, sizeof cols / sizeof cols[0]))
		return;
	owner = prof_comm_owners(h, x, PROF_LEVEL_MODEL);
	strbuf_init(&ops);
	memset(&row, 0, sizeof row);
	for (i = 0; i < x->n; i++) {
		r = prof_extra_rec(x, i);
		model = owner[i] >= 0 ? h->spans[owner[i]].item :
		    PROF_COMM_INVALID;
		prof_extra_row_str(&row, "host");
		prof_extra_row_str(&row, prof_comm_model_name(h, model, mb,
		    sizeof mb));
		prof_extra_row_u64(&row, model);
		prof_extra_row_str(&row, prof_dict_hash(&h->dicts,
		    importer_le64(r + 24), fb, sizeof fb));
		prof_comm_fused(h, r, &ops);
		prof_extra_row_str(&row, ops.s != NULL ? ops.s : "");
		for (k = 0; k < 5; k++)
			prof_comm_kb(&row, importer_le64(r + 36 + 8 * k));
		prof_extra_row_load(s, &row);
	}
	strbuf_release(&ops);
	free(owner);
}

/*
 * Write hccl_op_info, hccl_info and fusion_op. The spans of H must be
 * sorted by thread and time, all levels still there; times through the
 * host metadata M.
 */
void
prof_comm_load(struct store *s, const struct prof_host *h,
    const struct prof_meta *m, int64_t rank)
{
	prof_comm_ops(s, h, m, rank);
	prof_comm_tasks(s, h, m, rank);
	prof_comm_fusion(s, h, rank);
}
