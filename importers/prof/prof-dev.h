/*
 * The device record decoders (dev-*.c): stars_soc, hwts, ts_track and AI
 * Core PMU records, shared by raw PROF collections and legacy JOB
 * directories.
 */
#ifndef PROF_DEV_H
#define PROF_DEV_H

#include "import-int.h"

/* dev-*.c: device record decoders (shared with legacy JOB) */

/* An unknown stream (V6 records carry none) or context (ACSQ logs). */
#define DEV_NO_STREAM	UINT32_MAX
#define DEV_NO_CONTEXT	UINT32_MAX

/* dev-hwts.c: 64-byte hwts.data task logs of HWTS chips (section 4.4). */
#define DEV_HWTS_SIZE	64
enum dev_hwts_log {
	DEV_HWTS_START = 0,
	DEV_HWTS_END = 1,
	DEV_HWTS_TYPE = 2
};
struct dev_hwts {
	int		 log_type;	/* enum dev_hwts_log, or other */
	int		 cnt;		/* 4-bit rolling counter */
	int		 sqe_type;
	uint32_t	 stream;	/* already % 2048 */
	uint32_t	 task;
	uint64_t	 syscnt;
};
void		 dev_hwts_decode(const unsigned char *, struct dev_hwts *);
const char	*dev_hwts_sqe_name(int);

/* dev-tstrack.c: 40-byte ts_track records (section 4.5). */
#define DEV_TSTRACK_SIZE	40
enum dev_tstrack_tag {
	DEV_TS_STEP = 10,
	DEV_TS_MEMCPY = 11,
	DEV_TS_TASK_TYPE = 12,
	DEV_TS_FLIP = 14,
	DEV_TS_BLOCK_NUM = 15
};
struct dev_tstrack {
	int		 tag;		/* enum dev_tstrack_tag, or other */
	uint64_t	 syscnt;
	uint32_t	 stream;
	uint32_t	 task;
	uint64_t	 index_id;	/* step trace */
	uint64_t	 model_id;	/* step trace */
	int		 tag_id;	/* step trace: 0 model start, ... */
	int		 flip_num;	/* task flip */
	int		 task_type;	/* task type record */
	int		 status;	/* memcpy and task type records */
	uint32_t	 block_num;	/* block num record */
};
void		 dev_tstrack_decode(const unsigned char *,
		     struct dev_tstrack *);
bool		 dev_tstrack_ok(const unsigned char *, const unsigned char *,
		     void *);

/* dev-stars.c: stars_soc task logs of STARS chips (section 4.1-4.3). */
#define DEV_STARS_SIZE		64
#define DEV_STARS_V6_SIZE	32
#define DEV_STARS_MAGIC		0x6BD3
enum dev_stars_func {
	DEV_STARS_ACSQ_START = 0,
	DEV_STARS_ACSQ_END = 1,
	DEV_STARS_FFTS_START = 34,
	DEV_STARS_FFTS_END = 35
};
struct dev_stars {
	int		 func_type;	/* enum dev_stars_func, or other */
	int		 cnt;		/* 4-bit rolling counter */
	int		 sqe_type;
	uint16_t	 magic;
	uint32_t	 stream;	/* unpacked; DEV_NO_STREAM on V6 */
	uint32_t	 task;		/* unpacked */
	uint32_t	 context;	/* FFTS+ subtask id or DEV_NO_CONTEXT */
	uint64_t	 syscnt;
	int		 sub_task_type;	/* FFTS+ */
	int		 ffts_type;	/* FFTS+ */
	int		 thread;	/* FFTS+ */
	int		 acc_id;	/* ACSQ */
	int		 acsq_id;	/* ACSQ */
};
int		 dev_stars_decode(const unsigned char *, size_t, bool,
		     struct dev_stars *);
void		 dev_stars_unpack(uint16_t, uint16_t, int, bool, uint32_t *,
		     uint32_t *);
const char	*dev_stars_sqe_name(int);
const char	*dev_stars_subtask_name(int);

/* dev-pmu.c: 128-byte task-based AI Core PMU records (section 5). */
#define DEV_PMU_SIZE	128
#define DEV_PMU_COUNTERS	8
enum dev_pmu_kind {
	DEV_PMU_CONTEXT = 40,	/* ffts_profile context level */
	DEV_PMU_BLOCK = 41,	/* ffts_profile block level */
	DEV_PMU_AICORE = 100	/* aicore.data of HWTS chips */
};
struct dev_pmu {
	int		 kind;		/* enum dev_pmu_kind, or the funcType */
	int		 cnt;
	uint32_t	 stream;
	uint32_t	 task;
	uint32_t	 context;	/* DEV_NO_CONTEXT unless fftsType 4 */
	int		 sub_task_type;
	int		 ffts_type;
	bool		 overflow;
	int		 core_type;	/* block level */
	int		 core_id;	/* block level */
	int		 block_id;	/* block level */
	int		 sub_block_id;	/* block level */
	uint64_t	 total_cycle;
	uint64_t	 pmu[DEV_PMU_COUNTERS];
	uint64_t	 start;		/* syscnt, STARS only */
	uint64_t	 end;
};
void		 dev_pmu_decode_ffts(const unsigned char *, bool,
		     struct dev_pmu *);
void		 dev_pmu_decode_aicore(const unsigned char *,
		     struct dev_pmu *);
const char	*dev_pmu_accel(const struct dev_pmu *);

#endif /* PROF_DEV_H */
