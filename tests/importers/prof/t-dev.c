/*
 * The device record decoders shared by the raw PROF and legacy JOB
 * importers: records built byte by byte as doc/formats.md lays them out.
 */
#include <stdint.h>
#include <string.h>

#include "prof-dev.h"
#include "tap.h"

static void
put16(unsigned char *p, uint16_t v)
{
	p[0] = v & 0xFF;
	p[1] = v >> 8;
}

static void
put32(unsigned char *p, uint32_t v)
{
	put16(p, v & 0xFFFF);
	put16(p + 2, v >> 16);
}

static void
put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static void
test_stars(void)
{
	unsigned char	 r[64];
	struct dev_stars l;
	uint32_t	 s, t;

	memset(r, 0, sizeof r);
	put16(r, 1 | 9 << 6 | 2 << 10);
	put16(r + 2, DEV_STARS_MAGIC);
	put16(r + 4, 17);
	put16(r + 6, 65535);
	put64(r + 8, 123456789012345ULL);
	put16(r + 18, 5 | 17 << 6);
	is_int(dev_stars_decode(r, 64, false, &l), 0, "stars: good magic");
	is_int(l.func_type, DEV_STARS_ACSQ_END, "stars: ACSQ end");
	is_int(l.cnt, 9, "stars: counter in bits 6..9");
	is_int(l.sqe_type, 2, "stars: SQE type in bits 10..15");
	is_str(dev_stars_sqe_name(l.sqe_type), "AIV_SQE", "stars: SQE name");
	is_int(l.stream, 17, "stars: stream");
	is_int(l.task, 65535, "stars: task");
	is_int(l.syscnt, 123456789012345LL, "stars: syscnt");
	is_int(l.context, DEV_NO_CONTEXT, "stars: ACSQ has no context");
	is_int(l.acc_id, 5, "stars: acc id");
	is_int(l.acsq_id, 17, "stars: acsq id");

	put16(r, 34);
	r[16] = 6;
	put16(r + 18, 12);
	put16(r + 20, 4 << 13);
	put16(r + 22, 3);
	dev_stars_decode(r, 64, false, &l);
	is_int(l.context, 12, "stars: FFTS+ subtask id is the context");
	is_int(l.sub_task_type, 6, "stars: subtask type");
	is_str(dev_stars_subtask_name(l.sub_task_type), "MIX_AIC",
	    "stars: subtask name");
	is_int(l.ffts_type, 4, "stars: ffts type");
	is_int(l.thread, 3, "stars: thread");

	put16(r + 2, 0x1234);
	is_int(dev_stars_decode(r, 64, false, &l), -1, "stars: bad magic");

	put16(r + 2, DEV_STARS_MAGIC);
	put32(r + 4, 0x00012345);
	dev_stars_decode(r, 32, false, &l);
	is_int(l.task, 0x12345, "stars v6: 32-bit task id");
	is_int(l.stream, DEV_NO_STREAM, "stars v6: no stream");

	dev_stars_unpack(0x1000 | 0xE000 | 5, 0x1FFF, 0, false, &s, &t);
	is_int(s, (0x1000 | 0xE000 | 5) % 2048, "unpack bit 12: stream");
	is_int(t, 0x1FFF | 0xE000, "unpack bit 12: task");
	dev_stars_unpack(0x2000 | 0x0ABC, 0xF000 | 0x0123, 0, false, &s, &t);
	is_int(s, 0x123, "unpack bit 13: stream from the task field");
	is_int(t, 0x0ABC | 0xF000, "unpack bit 13: task");
	dev_stars_unpack(0x8000 | 7, 0x8000 | 9, 0, true, &s, &t);
	is_int(s, 9, "unpack expand: stream from the task field");
	is_int(t, 0x8000 | 7, "unpack expand: task");
	dev_stars_unpack(0x8000 | 7, 9, 4, true, &s, &t);
	is_int(s, 7, "unpack expand: event record keeps the stream");
	is_int(t, 9, "unpack expand: event record keeps the task");
}

static void
test_hwts(void)
{
	unsigned char	 r[64];
	struct dev_hwts	 h;

	memset(r, 0, sizeof r);
	r[0] = 1 | 13 << 4;
	r[1] = 0;
	put16(r + 6, 4242);
	put64(r + 8, 987654321ULL);
	put32(r + 16, 2048 + 9);
	dev_hwts_decode(r, &h);
	is_int(h.log_type, DEV_HWTS_END, "hwts: end log");
	is_int(h.cnt, 13, "hwts: counter");
	is_str(dev_hwts_sqe_name(h.sqe_type), "AI_CORE", "hwts: SQE name");
	is_int(h.task, 4242, "hwts: task");
	is_int(h.syscnt, 987654321, "hwts: syscnt");
	is_int(h.stream, 9, "hwts: stream modulo 2048");
	ok(dev_hwts_sqe_name(77) == NULL, "hwts: unknown SQE has no name");
}

static void
test_tstrack(void)
{
	unsigned char	 r[40];
	struct dev_tstrack t;

	memset(r, 0, sizeof r);
	r[1] = DEV_TS_FLIP;
	put64(r + 8, 55555);
	put16(r + 16, 2048 + 3);
	put16(r + 18, 2);
	put16(r + 22, 0);
	dev_tstrack_decode(r, &t);
	is_int(t.tag, DEV_TS_FLIP, "ts_track: flip tag");
	is_int(t.syscnt, 55555, "ts_track: syscnt");
	is_int(t.stream, 3, "ts_track: flip stream low 11 bits");
	is_int(t.flip_num, 2, "ts_track: flip number");

	memset(r, 0, sizeof r);
	r[1] = DEV_TS_STEP;
	put64(r + 16, 7);
	put64(r + 24, 1);
	put16(r + 32, 5);
	put16(r + 34, 33);
	put16(r + 36, 4);
	dev_tstrack_decode(r, &t);
	is_int(t.index_id, 7, "ts_track: step index");
	is_int(t.model_id, 1, "ts_track: step model");
	is_int(t.tag_id, 4, "ts_track: step tag");
	is_int(t.task, 33, "ts_track: step task");

	memset(r, 0, sizeof r);
	r[1] = DEV_TS_BLOCK_NUM;
	put16(r + 16, 4);
	put16(r + 18, 8);
	put32(r + 20, 40);
	dev_tstrack_decode(r, &t);
	is_int(t.block_num, 40, "ts_track: block num");
}

static void
test_pmu(void)
{
	unsigned char	 r[128];
	struct dev_pmu	 m;
	int		 i;

	memset(r, 0, sizeof r);
	put16(r, DEV_PMU_CONTEXT | 3 << 6);
	put16(r + 4, 6);
	put16(r + 6, 77);
	r[16] = 7;
	put16(r + 18, 5);
	put16(r + 20, 4 << 13);
	put64(r + 32, 100000);
	for (i = 0; i < 8; i++)
		put64(r + 48 + 8 * i, 1000 * (i + 1));
	put64(r + 112, 10);
	put64(r + 120, 20);
	dev_pmu_decode_ffts(r, false, &m);
	is_int(m.kind, DEV_PMU_CONTEXT, "ffts pmu: context level");
	is_int(m.cnt, 3, "ffts pmu: counter");
	is_int(m.stream, 6, "ffts pmu: stream");
	is_int(m.task, 77, "ffts pmu: task");
	is_int(m.context, 5, "ffts pmu: context id for fftsType 4");
	is_str(dev_pmu_accel(&m), "MIX_AIV", "ffts pmu: MIX_AIV");
	is_int(m.total_cycle, 100000, "ffts pmu: total cycles");
	is_int(m.pmu[7], 8000, "ffts pmu: last counter");
	is_int(m.end, 20, "ffts pmu: end syscnt");

	memset(r, 0, sizeof r);
	r[0] = 5 << 4;
	put16(r + 6, 300);
	put64(r + 16, 4444);
	for (i = 0; i < 8; i++)
		put64(r + 32 + 8 * i, i);
	put32(r + 96, 2048 + 2);
	dev_pmu_decode_aicore(r, &m);
	is_int(m.task, 300, "aicore pmu: task");
	is_int(m.stream, 2, "aicore pmu: stream modulo 2048");
	is_int(m.total_cycle, 4444, "aicore pmu: total cycles");
	is_int(m.pmu[3], 3, "aicore pmu: counters");
	is_str(dev_pmu_accel(&m), "AIC", "aicore pmu: AIC");
}

int
main(void)
{
	test_stars();
	test_hwts();
	test_tstrack();
	test_pmu();
	return done_testing();
}
