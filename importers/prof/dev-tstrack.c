/*
 * The 40-byte ts_track records of every chip, doc/formats.md section 4.5: the
 * tag in byte 1 says which of step trace, memcpy, task type, task flip or
 * block number the record is; the device syscnt sits at offset 8. Pure
 * decoding over a record buffer.
 */
#include <string.h>

#include "prof-dev.h"

/*
 * True if P reads as a ts_track record (prof_slices_open_lined): a tag
 * of 10 to 15 (the kinds we decode and an older flip's 13) and a time.
 */
bool
dev_tstrack_ok(const unsigned char *p, const unsigned char *prev, void *arg)
{
	(void)prev;
	(void)arg;
	return p[1] >= DEV_TS_STEP && p[1] <= DEV_TS_BLOCK_NUM &&
	    importer_le64(p + 8) != 0;
}

/* Decode the ts_track record at P (DEV_TSTRACK_SIZE bytes) into T. */
void
dev_tstrack_decode(const unsigned char *p, struct dev_tstrack *t)
{
	memset(t, 0, sizeof *t);
	t->tag = p[1];
	t->syscnt = importer_le64(p + 8);
	switch (t->tag) {
	case DEV_TS_STEP:
		t->index_id = importer_le64(p + 16);
		t->model_id = importer_le64(p + 24);
		t->stream = importer_le16(p + 32) & 0x7FF;
		t->task = importer_le16(p + 34);
		t->tag_id = importer_le16(p + 36);
		break;
	case DEV_TS_MEMCPY:
		t->stream = importer_le16(p + 16);
		t->task = importer_le16(p + 18);
		t->status = p[20];
		break;
	case DEV_TS_TASK_TYPE:
		t->stream = importer_le16(p + 16);
		t->task = importer_le16(p + 18);
		t->task_type = importer_le16(p + 20);
		t->status = p[22];
		break;
	case DEV_TS_FLIP:
		t->stream = importer_le16(p + 16) & 0x7FF;
		t->flip_num = importer_le16(p + 18);
		t->task = importer_le16(p + 22);
		break;
	case DEV_TS_BLOCK_NUM:
		t->stream = importer_le16(p + 16);
		t->task = importer_le16(p + 18);
		t->block_num = importer_le32(p + 20);
		break;
	}
}
