/*
 * The AI CPU records of a device's aicpu.data that describe communication
 * the AI CPU itself issues (doc/formats.md section 4.10): kind 13, the
 * HCCL information of the tasks a KFC server or an AI CPU-expanded HCCL
 * op sends (two tasks a record; table kfc_info), kind 10, the op those
 * tasks belong to (table device_hccl_op_info), kind 11, the task id flips
 * of AI CPU streams (table aicpu_flip), and kind 12, the first and last
 * tasks of each op on its main stream (table aicpu_master_task). Each
 * becomes a table as the vendor's parser stores it, in file order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_AICPU_COMM_SIZE	256
#define PROF_KFC_INFO_AT	24	/* the first of a record's two infos */
#define PROF_KFC_INFO_SIZE	116

/* Keep record R of kind KIND (10 to 13) for prof_aicpu_comm_load(). */
void
prof_aicpu_comm_keep(struct prof_aicpus *a, const unsigned char *r,
    uint32_t kind)
{
	a->comm = util_grow(a->comm, a->ncomm, PROF_AICPU_COMM_SIZE, 1);
	memcpy(a->comm + a->ncomm, r, PROF_AICPU_COMM_SIZE);
	a->ncomm += PROF_AICPU_COMM_SIZE;
	a->comm_kinds |= 1U << kind;
}

/* Info J (0 or 1) of kind 13 record R, or NULL if empty (group 0). */
const unsigned char *
prof_aicpu_comm_info(const unsigned char *r, size_t j)
{
	const unsigned char	*p = r + PROF_KFC_INFO_AT + j *
				    PROF_KFC_INFO_SIZE;

	return importer_le64(p + 16) == 0 ? NULL : p;
}

/*
 * The stream and task of an AI CPU record of A (prof_aicpu_ids: MERGE and
 * LOOKUP on chip V6) as two cells.
 */
static void
prof_aicpu_comm_ids(struct prof_row *row, const struct prof_aicpus *a,
    bool merge, bool lookup, uint16_t s, uint32_t t)
{
	uint32_t	 stream, task;

	prof_aicpu_ids(a, merge, lookup, s, t, &stream, &task);
	prof_extra_row_u64(row, stream);
	prof_extra_row_u64(row, task);
}

/* The time stamp of record R (a device counter) as local time. */
static void
prof_aicpu_comm_ts(struct prof_row *row, const struct prof_meta *m,
    const unsigned char *r)
{
	prof_extra_row_us(row, prof_meta_dev_ns(m, importer_le64(r + 16)));
}

/* Info P of a kind 13 record (@24 or @140) as a row of kfc_info. */
static void
prof_aicpu_comm_kfc_row(struct prof_row *row, const unsigned char *p,
    const struct prof_meta *m, const struct prof_dicts *d,
    const struct prof_aicpus *a, int64_t device)
{
	double	 est;
	uint64_t bits = importer_le64(p + 56);

	prof_extra_row_u64(row, (uint64_t)device);
	prof_extra_row_us(row, prof_meta_dev_ns(m, importer_le64(p + 48)));
	prof_extra_row_str(row, prof_dict_hash(d, importer_le64(p),
	    row->buf[row->n], sizeof row->buf[0]));
	prof_extra_row_u64(row, importer_le64(p + 8));
	prof_extra_row_str(row, prof_dict_hash(d, importer_le64(p + 16),
	    row->buf[row->n], sizeof row->buf[0]));
	prof_extra_row_u64(row, importer_le32(p + 24));
	prof_extra_row_u64(row, importer_le32(p + 28));
	prof_extra_row_u64(row, importer_le32(p + 32));
	prof_extra_row_u64(row, p[106]);
	prof_extra_row_u64(row, importer_le16(p + 98));
	prof_extra_row_u64(row, importer_le64(p + 40));
	prof_extra_row_u64(row, importer_le32(p + 36));
	prof_comm_enum_row(row, PCE_ROLE, p[105]);
	memcpy(&est, &bits, sizeof est);
	prof_comm_row_us(row, est);
	prof_extra_row_u64(row, importer_le64(p + 64));
	prof_extra_row_u64(row, importer_le64(p + 72));
	prof_extra_row_u64(row, importer_le64(p + 80));
	prof_comm_enum_row(row, PCE_REDUCE, p[100]);
	prof_comm_enum_row(row, PCE_DTYPE, p[101]);
	prof_comm_enum_row(row, PCE_LINK, p[102]);
	prof_comm_enum_row(row, PCE_TRANSPORT, p[103]);
	prof_comm_enum_row(row, PCE_RDMA, p[104]);
	prof_aicpu_comm_ids(row, a, false, false, importer_le16(p + 96),
	    importer_le32(p + 88));
}

/* The tables of KIND's records of A. */
static void
prof_aicpu_comm_table(struct store *s, const struct prof_aicpus *a,
    uint32_t kind, const struct prof_meta *m, const struct prof_dicts *d,
    int64_t device, int64_t rank)
{
	static const char *const kfc[] = { "Device_id", "Timestamp(us)",
	    "Name", "CCL Tag", "Group Name", "Src Rank", "Dst Rank",
	    "Rank Size", "Work Flow Mode", "Plane ID", "Notify ID", "Stage",
	    "Role", "Duration Estimated(us)", "Src Addr", "Dst Addr",
	    "Size(Byte)", "Reduce Op", "Data Type", "Link Type",
	    "Transport Type", "Rdma Type", "Stream ID", "Task ID" };
	static const char *const op[] = { "Device_id", "Timestamp(us)",
	    "Relay", "Retry", "Data Type", "Alg Type", "Count", "Group Name",
	    "Rank Size", "Stream ID", "Task ID" };
	static const char *const flip[] = { "Device_id", "Timestamp(us)",
	    "Stream ID", "Task ID", "Flip Num" };
	static const char *const master[] = { "Device_id", "Timestamp(us)",
	    "AI CPU Stream ID", "AI CPU Task ID", "Stream ID", "Task ID",
	    "Type" };
	const char *const	*cols;
	const unsigned char	*r, *p;
	const char		*name;
	struct prof_row		 row;
	size_t			 ncols, i, j;

	switch (kind) {
	case PROF_AICPU_KFC_INFO:
		name = "kfc_info";
		cols = kfc;
		ncols = sizeof kfc / sizeof kfc[0];
		break;
	case PROF_AICPU_HCCL_OP:
		name = "device_hccl_op_info";
		cols = op;
		ncols = sizeof op / sizeof op[0];
		break;
	case PROF_AICPU_FLIP:
		name = "aicpu_flip";
		cols = flip;
		ncols = sizeof flip / sizeof flip[0];
		break;
	default:
		name = "aicpu_master_task";
		cols = master;
		ncols = sizeof master / sizeof master[0];
		break;
	}
	if (!prof_extra_table_begin(s, name, device, rank, cols, ncols))
		return;
	memset(&row, 0, sizeof row);
	for (i = 0; i < a->ncomm; i += PROF_AICPU_COMM_SIZE) {
		r = a->comm + i;
		if (importer_le32(r + 4) != kind)
			continue;
		switch (kind) {
		case PROF_AICPU_KFC_INFO:
			for (j = 0; j < 2; j++) {
				if ((p = prof_aicpu_comm_info(r, j)) == NULL)
					continue;
				prof_aicpu_comm_kfc_row(&row, p, m, d, a,
				    device);
				prof_extra_row_load(s, &row);
			}
			continue;
		case PROF_AICPU_HCCL_OP:
			prof_extra_row_u64(&row, (uint64_t)device);
			prof_aicpu_comm_ts(&row, m, r);
			prof_extra_row_u64(&row, r[24] & 1);
			prof_extra_row_u64(&row, r[24] >> 1 & 1);
			prof_comm_enum_row(&row, PCE_DTYPE, r[25]);
			prof_extra_row_str(&row, prof_dict_hash(d,
			    importer_le64(r + 26), row.buf[row.n],
			    sizeof row.buf[0]));
			prof_extra_row_u64(&row, importer_le64(r + 34));
			prof_extra_row_str(&row, prof_dict_hash(d,
			    importer_le64(r + 42), row.buf[row.n],
			    sizeof row.buf[0]));
			prof_extra_row_u64(&row, importer_le32(r + 50));
			prof_aicpu_comm_ids(&row, a, false, true,
			    importer_le16(r + 54), importer_le32(r + 56));
			break;
		case PROF_AICPU_FLIP:
			prof_extra_row_u64(&row, (uint64_t)device);
			prof_aicpu_comm_ts(&row, m, r);
			prof_aicpu_comm_ids(&row, a, true, true,
			    importer_le16(r + 24), importer_le16(r + 26));
			prof_extra_row_u64(&row, importer_le32(r + 28));
			break;
		default:
			prof_extra_row_u64(&row, (uint64_t)device);
			prof_aicpu_comm_ts(&row, m, r);
			prof_aicpu_comm_ids(&row, a, true, true,
			    importer_le16(r + 24), importer_le16(r + 26));
			prof_aicpu_comm_ids(&row, a, true, true,
			    importer_le16(r + 28), importer_le16(r + 30));
			prof_extra_row_u64(&row, importer_le16(r + 32));
			break;
		}
		prof_extra_row_load(s, &row);
	}
}

/*
 * Write the tables of A's records of kinds 10 to 13 of DEVICE (RANK):
 * times through M, hashed names through the host's dictionaries D, ids as
 * prof_aicpu_ids() gives them (on chip V6 as the vendor: flips and main
 * stream tasks merge their fields into one task id, and all but the KFC
 * HCCL information take the stream of the host task with that id).
 */
void
prof_aicpu_comm_load(struct store *s, const struct prof_aicpus *a,
    const struct prof_meta *m, const struct prof_dicts *d, int64_t device,
    int64_t rank)
{
	static const uint32_t	 kinds[] = { PROF_AICPU_KFC_INFO,
	    PROF_AICPU_HCCL_OP, PROF_AICPU_FLIP, PROF_AICPU_MASTER };
	size_t			 i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (a->comm_kinds & 1U << kinds[i])
			prof_aicpu_comm_table(s, a, kinds[i], m, d, device,
			    rank);
	}
}
