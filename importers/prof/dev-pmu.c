/*
 * The 128-byte task-based AI Core PMU records, doc/formats.md section 5:
 * ffts_profile.data of STARS chips (context level, funcType 40, and block
 * level, funcType 41) and aicore.data of HWTS chips. Each carries the
 * total cycle count and eight counters in the order of the configured
 * event ids. Pure decoding over a record buffer.
 */
#include <string.h>

#include "prof-dev.h"

static void
dev_pmu_counters(const unsigned char *p, struct dev_pmu *m)
{
	int	 i;

	for (i = 0; i < DEV_PMU_COUNTERS; i++)
		m->pmu[i] = importer_le64(p + 8 * i);
}

/*
 * Decode the ffts_profile record at P into M; EXPAND is the
 * expand_stream_spec status for the stream/task unpacking.
 */
void
dev_pmu_decode_ffts(const unsigned char *p, bool expand, struct dev_pmu *m)
{
	uint16_t	 head = importer_le16(p);

	memset(m, 0, sizeof *m);
	m->kind = head & 0x3F;
	m->cnt = (head >> 6) & 0xF;
	dev_stars_unpack(importer_le16(p + 4), importer_le16(p + 6), -1,
	    expand, &m->stream, &m->task);
	m->sub_task_type = p[16];
	m->context = DEV_NO_CONTEXT;
	if (m->kind == DEV_PMU_BLOCK) {
		m->core_type = p[20] & 1;
		m->core_id = p[20] >> 1;
		m->ffts_type = p[21] >> 5;
		m->sub_block_id = importer_le16(p + 28);
		m->block_id = importer_le16(p + 30);
	} else {
		m->overflow = (importer_le16(p + 16) >> 10) & 1;
		m->ffts_type = importer_le16(p + 20) >> 13;
	}
	if (m->ffts_type == 4)
		m->context = importer_le16(p + 18);
	m->total_cycle = importer_le64(p + 32);
	dev_pmu_counters(p + 48, m);
	m->start = importer_le64(p + 112);
	m->end = importer_le64(p + 120);
}

/* Decode the aicore.data record at P into M (no times: match by order). */
void
dev_pmu_decode_aicore(const unsigned char *p, struct dev_pmu *m)
{
	memset(m, 0, sizeof *m);
	m->kind = DEV_PMU_AICORE;
	m->cnt = p[0] >> 4;
	m->task = importer_le16(p + 6);
	m->context = DEV_NO_CONTEXT;
	m->total_cycle = importer_le64(p + 16);
	dev_pmu_counters(p + 32, m);
	m->stream = importer_le32(p + 96) % 2048;
}

/*
 * The accelerator class of a STARS PMU record: MIX_AIC, MIX_AIV, AIC or
 * AIV (section 5.1); it picks the event list and the core count.
 */
const char *
dev_pmu_accel(const struct dev_pmu *m)
{
	if (m->kind == DEV_PMU_AICORE)
		return "AIC";
	if (m->ffts_type == 4 && m->sub_task_type == 6)
		return "MIX_AIC";
	if (m->ffts_type == 4 && m->sub_task_type == 7)
		return "MIX_AIV";
	if (m->ffts_type == 0 || (m->ffts_type == 4 && m->sub_task_type == 0))
		return "AIC";
	return "AIV";
}
