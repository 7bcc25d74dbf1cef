/*
 * The stars_soc task logs of STARS chips, doc/formats.md sections 4.1-4.3:
 * ACSQ task start/end and FFTS+ subtask start/end in 64-byte records (32
 * bytes on chip V6), with the stream/task id unpacking of section 4.2. Pure
 * decoding over a record buffer; the caller counts bad magics.
 */
#include <string.h>

#include "prof-dev.h"

static const char *const dev_stars_sqe_names[] = {
	"AI_CORE", "AI_CPU", "AIV_SQE", "PLACE_HOLDER_SQE",
	"EVENT_RECORD_SQE", "EVENT_WAIT_SQE", "NOTIFY_RECORD_SQE",
	"NOTIFY_WAIT_SQE", "WRITE_VALUE_SQE", "VQ6_SQE", "TOF_SQE",
	"SDMA_SQE", "VPC_SQE", "JPEGE_SQE", "JPEGD_SQE", "DSA_SQE",
	"ROCCE_SQE", "PCIE_DMA_SQE", "HOST_CPU_SQE", "CDQM_SQE", "C_CORE_SQE"
};

static const char *const dev_stars_subtask_names[] = {
	"AIC", "AIV", NULL, "Notify Wait", "Notify Record", "Write Value",
	"MIX_AIC", "MIX_AIV", "SDMA", "Data Context",
	"Invalidate Data Context", "Writeback Data Context", "AI_CPU",
	"Load Context", NULL, "DSA"
};

/*
 * Unpack the raw stream field S and task field T of a non-V6 record into
 * *STREAM and *TASK. SQE is the SQE type (-1 for PMU records, which have
 * none) and EXPAND the expand_stream_spec status (section 4.2).
 */
void
dev_stars_unpack(uint16_t s, uint16_t t, int sqe, bool expand,
    uint32_t *stream, uint32_t *task)
{
	if (expand) {
		if (sqe == 3 || sqe == 4 || (s & 0x8000) == 0) {
			*stream = s & 0x7FFF;
			*task = t;
		} else {
			*stream = t & 0x7FFF;
			*task = (t & 0x8000) | (s & 0x7FFF);
		}
	} else if (s & 0x1000) {
		*stream = s % 2048;
		*task = (t & 0x1FFF) | (s & 0xE000);
	} else if (s & 0x2000) {
		*stream = (t & 0x0FFF) % 2048;
		*task = (s & 0x0FFF) | (t & 0xF000);
	} else {
		*stream = s % 2048;
		*task = t;
	}
}

/*
 * Decode the SIZE-byte (DEV_STARS_SIZE or DEV_STARS_V6_SIZE) record at P
 * into L. Return 0, or -1 if its magic is wrong (L is filled all the
 * same, for a reader that accepts a stream where every magic is wrong).
 */
int
dev_stars_decode(const unsigned char *p, size_t size, bool expand,
    struct dev_stars *l)
{
	uint16_t	 head = importer_le16(p);

	memset(l, 0, sizeof *l);
	l->func_type = head & 0x3F;
	l->cnt = (head >> 6) & 0xF;
	l->sqe_type = head >> 10;
	l->magic = importer_le16(p + 2);
	l->syscnt = importer_le64(p + 8);
	l->context = DEV_NO_CONTEXT;
	if (size == DEV_STARS_V6_SIZE) {
		l->stream = DEV_NO_STREAM;
		l->task = importer_le32(p + 4);
	} else
		dev_stars_unpack(importer_le16(p + 4), importer_le16(p + 6),
		    l->sqe_type, expand, &l->stream, &l->task);
	if (l->func_type == DEV_STARS_FFTS_START ||
	    l->func_type == DEV_STARS_FFTS_END) {
		l->sub_task_type = p[16];
		l->context = importer_le16(p + 18);
		l->ffts_type = importer_le16(p + 20) >> 13;
		l->thread = importer_le16(p + 22);
	} else {
		l->acc_id = importer_le16(p + 18) & 0x3F;
		l->acsq_id = (importer_le16(p + 18) >> 6) & 0x7F;
	}
	return l->magic == DEV_STARS_MAGIC ? 0 : -1;
}

/* The name of STARS SQE type T, or NULL if it has none. */
const char *
dev_stars_sqe_name(int t)
{
	if (t < 0 || (size_t)t >= sizeof dev_stars_sqe_names /
	    sizeof dev_stars_sqe_names[0])
		return NULL;
	return dev_stars_sqe_names[t];
}

/* The name of FFTS+ subtask type T, or NULL if it has none. */
const char *
dev_stars_subtask_name(int t)
{
	if (t < 0 || (size_t)t >= sizeof dev_stars_subtask_names /
	    sizeof dev_stars_subtask_names[0])
		return NULL;
	return dev_stars_subtask_names[t];
}
