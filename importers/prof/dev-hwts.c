/*
 * The 64-byte task logs in hwts.data of HWTS chips (910A, 310P, 310),
 * doc/formats.md section 4.4: a log type (start, end, task type) with a 4-bit
 * counter, the SQE type, the task id, the device syscnt and the stream id.
 * Pure decoding over a record buffer; pairing happens elsewhere.
 */
#include <string.h>

#include "prof-dev.h"

static const char *const dev_hwts_sqe_names[] = {
	"AI_CORE", "AI_CPU", "AIV_SQE", "PLACE_HOLDER", "EVENT_RECORD",
	"EVENT_WAIT", "NOTIFY_RECORD", "NOTIFY_WAIT", "WRITE_VALUE", "SDMA"
};

/* Decode the hwts log at P (DEV_HWTS_SIZE bytes) into H. */
void
dev_hwts_decode(const unsigned char *p, struct dev_hwts *h)
{
	memset(h, 0, sizeof *h);
	h->log_type = p[0] & 0x7;
	h->cnt = p[0] >> 4;
	h->sqe_type = p[1];
	h->task = importer_le16(p + 6);
	h->syscnt = importer_le64(p + 8);
	h->stream = importer_le32(p + 16) % 2048;
}

/* The name of HWTS SQE type T, or NULL if it has none. */
const char *
dev_hwts_sqe_name(int t)
{
	if (t < 0 || (size_t)t >= sizeof dev_hwts_sqe_names /
	    sizeof dev_hwts_sqe_names[0])
		return NULL;
	return dev_hwts_sqe_names[t];
}
