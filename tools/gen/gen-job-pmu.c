/*
 * The AI Core PMU of a generated legacy JOB (doc/formats.md 5.2, 5.3): one
 * 128-byte aicore.data record per HWTS task with its total cycles and the
 * eight PipeUtilization counters, sample.json naming the events, and the
 * PMU columns op_summary must show, computed here from the generated
 * counters: AI Core time = cycles / MHz / blocks * ceil(blocks / cores)
 * with the JOB's 1000 MHz and 32 cores, each ratio a counter over the total
 * cycles, the icache miss rate 0x55 over 0x54.
 */
#include <string.h>

#include "gen.h"

#define GEN_JOB_PMU_MHZ		1000.0
#define GEN_JOB_PMU_CORES	32

static void
gen_job_pmu_le(struct strbuf *b, size_t off, uint64_t v, int bytes)
{
	int	 i;

	for (i = 0; i < bytes; i++)
		b->s[off + (size_t)i] = (char)(v >> (8 * i) & 0xff);
}

static void
gen_job_pmu_num(struct strbuf *b, double v, const char *sep)
{
	char	 buf[64];

	util_fmt_fixed(buf, sizeof buf, v, 3, false);
	strbuf_addf(b, "%s%s", buf, sep);
}

/*
 * The record of the task TASK on STREAM with BLOCKS blocks into REC (CNT
 * the rolling counter), its expected columns into EXP.
 */
void
gen_job_pmu_task(struct strbuf *rec, struct strbuf *exp, uint64_t *rng,
    int *cnt, int task, int stream, int blocks)
{
	uint64_t	 total, pmu[8];
	size_t		 off = rec->len;
	double		 t;
	int		 i;

	if (exp->len == 0)
		strbuf_adds(exp, "Task ID,Stream ID,aicore_time(us),"
		    "total_cycles,vec_ratio,mac_ratio,mte2_ratio,"
		    "icache_miss_rate\n");
	total = 1000 + util_rand_next(rng) % 100000;
	for (i = 0; i < 6; i++)
		pmu[i] = util_rand_next(rng) % total;
	pmu[6] = 1000 + util_rand_next(rng) % 5000;
	pmu[7] = util_rand_next(rng) % pmu[6];
	for (i = 0; i < 128; i++)
		strbuf_addc(rec, '\0');
	rec->s[off] = (char)((*cnt & 0xf) << 4);
	(*cnt)++;
	gen_job_pmu_le(rec, off + 6, (uint64_t)task, 2);
	gen_job_pmu_le(rec, off + 16, total, 8);
	for (i = 0; i < 8; i++)
		gen_job_pmu_le(rec, off + 32 + 8 * (size_t)i, pmu[i], 8);
	gen_job_pmu_le(rec, off + 96, (uint64_t)stream, 4);

	t = (double)total / GEN_JOB_PMU_MHZ / (double)blocks *
	    (double)((blocks + GEN_JOB_PMU_CORES - 1) / GEN_JOB_PMU_CORES);
	strbuf_addf(exp, "%d,%d,", task, stream);
	gen_job_pmu_num(exp, t, ",");
	strbuf_addf(exp, "%llu,", (unsigned long long)total);
	/* Counters in event order 0x8 vec, 0xa mac, 0x9, 0xb, 0xc mte2. */
	gen_job_pmu_num(exp, (double)pmu[0] / (double)total, ",");
	gen_job_pmu_num(exp, (double)pmu[1] / (double)total, ",");
	gen_job_pmu_num(exp, (double)pmu[4] / (double)total, ",");
	gen_job_pmu_num(exp, (double)pmu[7] / (double)pmu[6], "\n");
}

/* The sample.json of a JOB with PipeUtilization PMU records. */
const char *
gen_job_pmu_sample(void)
{
	return "{\"ai_core_profiling\":\"on\",\"ai_core_profiling_mode\":"
	    "\"task-based\",\"ai_core_metrics\":\"PipeUtilization\","
	    "\"ai_core_profiling_events\":\"0x8,0xa,0x9,0xb,0xc,0xd,0x54,"
	    "0x55\"}\n";
}
