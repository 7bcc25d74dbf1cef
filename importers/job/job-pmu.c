/*
 * The AI Core PMU of a legacy JOB (doc/formats.md 5.2, 5.3): aicore.data
 * slices of 128-byte task-based records, decoded by dev-pmu.c and turned
 * into op_summary's PMU columns by prof-pmu.c, exactly as for a raw PROF
 * collection of an HWTS chip. The AI Core frequency and core count come
 * from info.json.N (aic_frequency, ai_core_num), the event ids and the
 * metric group from sample.json (ai_core_profiling_events,
 * ai_core_metrics). job-hwts.c matches the records to its tasks on
 * (stream, task) in time order.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

/*
 * The value of member "KEY" of the JSON TEXT, a string or a number, as an
 * allocated string; NULL if it has none.
 */
static char *
job_pmu_value(const char *text, const char *key)
{
	const char	*p, *q;
	char		*k;

	if (text == NULL)
		return NULL;
	xasprintf(&k, "\"%s\"", key);
	p = strstr(text, k);
	free(k);
	if (p == NULL)
		return NULL;
	p += strlen(key) + 2;
	while (*p == ' ' || *p == ':' || *p == '\t')
		p++;
	if (*p == '"') {
		q = strchr(++p, '"');
		return q != NULL ? xstrndup(p, (size_t)(q - p)) : NULL;
	}
	for (q = p; *q != '\0' && strchr(",}] \t\r\n", *q) == NULL; q++)
		;
	return q > p ? xstrndup(p, (size_t)(q - p)) : NULL;
}

static int
job_pmu_int(const char *text, const char *key)
{
	char	*v;
	int	 n;

	if ((v = job_pmu_value(text, key)) == NULL)
		return 0;
	n = atoi(v);
	free(v);
	return n;
}

/* What prof-pmu.c needs of the collection, from info.json and sample.json. */
static void
job_pmu_meta(struct job *j, struct prof_meta *m)
{
	char	*info, *sample, *freq;

	memset(m, 0, sizeof *m);
	m->device = j->device;
	m->chip = 1;
	info = job_files_named(j, "info.json");
	sample = job_files_named(j, "sample.json");
	if ((freq = job_pmu_value(info, "aic_frequency")) != NULL &&
	    prof_meta_freq_parse(freq, &m->aic) != 0)
		memset(&m->aic, 0, sizeof m->aic);
	m->ai_core_num = job_pmu_int(info, "ai_core_num");
	m->aiv_num = job_pmu_int(info, "aiv_num");
	m->aic_events = job_pmu_value(sample, "ai_core_profiling_events");
	m->aic_metrics = job_pmu_value(sample, "ai_core_metrics");
	if (m->aic_events == NULL)
		store_load_warning(j->s, j->dir, -1, "no "
		    "ai_core_profiling_events in sample.json: PMU counters are "
		    "kept unnamed");
	free(freq);
	free(info);
	free(sample);
}

/*
 * Read J's aicore.data records into P with the metadata M (released with
 * job_pmu_release()). Return the number of records, or -1 if the JOB has
 * none.
 */
int64_t
job_pmu_load(struct job *j, struct prof_pmu *p, struct prof_meta *m)
{
	struct dev_pmu	 d;
	char		*data;
	size_t		 len, off;

	memset(p, 0, sizeof *p);
	memset(m, 0, sizeof *m);
	if (job_files_read(j, JOB_AICORE, NULL, &data, &len) == 0) {
		free(data);
		return -1;
	}
	job_pmu_meta(j, m);
	for (off = 0; off + DEV_PMU_SIZE <= len; off += DEV_PMU_SIZE) {
		dev_pmu_decode_aicore((unsigned char *)data + off, &d);
		prof_pmu_add(p, &d);
	}
	if (len % DEV_PMU_SIZE != 0)
		store_load_warning(j->s, job_files_first(j, JOB_AICORE),
		    (int64_t)(len - len % DEV_PMU_SIZE), "%zu trailing bytes "
		    "are not a whole 128-byte record", len % DEV_PMU_SIZE);
	free(data);
	prof_pmu_finish(j->s, job_files_first(j, JOB_AICORE), m, p);
	return (int64_t)p->n;
}

void
job_pmu_release(struct prof_pmu *p, struct prof_meta *m)
{
	prof_pmu_release(p);
	free(m->aic_events);
	free(m->aic_metrics);
	memset(m, 0, sizeof *m);
}
