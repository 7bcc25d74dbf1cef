/*
 * Device syscnt to nanoseconds for a legacy JOB (doc/formats.md 2.5, 2.6). The
 * HWTS frequency comes from info.json.N (DeviceInfo hwts_frequency, MHz);
 * without one it is 100 MHz, the 10 ns cycle of the Ascend 910 that the
 * MindSpore-era parsers assumed. When dev_start.log.N (cntvct),
 * host_start.log.N (clock_monotonic_raw) and start_info.N
 * (collectionTimeBegin, clockMonotonicRaw) are all present, times become
 * epoch nanoseconds; otherwise they stay on the device clock (ns since the
 * device counter started) and the store says so in its info table.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_CLOCK_DEFAULT_MHZ	100.0


/* V as an int64_t, or NP_NA when it is not a number that fits. */
static int64_t
job_clock_fit(long double v)
{
	if (!(v > -9.2e18L && v < 9.2e18L))
		return NP_NA;
	return (int64_t)v;
}

/*
 * The number after KEY in TEXT: "key: 123" lines of the .log files or
 * "key": "123" / "key": 123 members of the JSON files.
 */
static int
job_clock_value(const char *text, const char *key, double *v)
{
	const char	*p;
	char		*end;

	if (text == NULL || (p = strstr(text, key)) == NULL)
		return -1;
	p += strlen(key);
	while (*p == '"' || *p == ' ' || *p == ':' || *p == '\t')
		p++;
	*v = strtod(p, &end);
	return end == p ? -1 : 0;
}

/* Set up J's clock from the metadata files beside its data. */
void
job_clock_init(struct job *j)
{
	struct job_clock	*c = &j->clock;
	char			*info, *dev, *host, *start;
	double			 f, cnt, mono, begin, raw;

	memset(c, 0, sizeof *c);
	c->freq_mhz = JOB_CLOCK_DEFAULT_MHZ;
	info = job_files_named(j, "info.json");
	if (job_clock_value(info, "\"hwts_frequency\"", &f) == 0 && f > 0)
		c->freq_mhz = f;
	dev = job_files_named(j, "dev_start.log");
	host = job_files_named(j, "host_start.log");
	start = job_files_named(j, "start_info");
	if (job_clock_value(start, "\"collectionTimeBegin\"", &begin) == 0 &&
	    job_clock_value(start, "\"clockMonotonicRaw\"", &raw) == 0) {
		c->host_offset = job_clock_fit((long double)begin * 1000 -
		    (long double)raw);
		c->host_epoch = c->host_offset != NP_NA;
	}
	if (job_clock_value(dev, "cntvct", &cnt) == 0 &&
	    job_clock_value(host, "clock_monotonic_raw", &mono) == 0 &&
	    job_clock_value(start, "\"collectionTimeBegin\"", &begin) == 0 &&
	    job_clock_value(start, "\"clockMonotonicRaw\"", &raw) == 0) {
		c->syscnt_0 = job_clock_fit(cnt);
		c->ns_0 = job_clock_fit((long double)mono +
		    ((long double)begin * 1000 - (long double)raw));
		c->anchored = c->syscnt_0 != NP_NA && c->ns_0 != NP_NA;
	}
	store_load_meta(j->s, "job.clock", c->anchored ? "epoch (dev_start.log,"
	    " host_start.log, start_info)" : "device syscnt as ns since the "
	    "counter started (no dev_start.log/start_info to anchor it)");
	free(info);
	free(dev);
	free(host);
	free(start);
}

/* SYSCNT as nanoseconds on J's clock; NP_NA if it does not fit. */
int64_t
job_clock_ns(const struct job_clock *c, uint64_t syscnt)
{
	long double	 d;

	if (!c->anchored)
		return job_clock_fit((long double)syscnt * 1000 / c->freq_mhz);
	d = ((long double)syscnt - c->syscnt_0) * 1000 / c->freq_mhz;
	return job_clock_fit(c->ns_0 + d);
}

/*
 * The span from syscnt START to END in nanoseconds; NP_NA if END is before
 * START or the span does not fit.
 */
int64_t
job_clock_dur(const struct job_clock *c, uint64_t start, uint64_t end)
{
	if (end < start)
		return NP_NA;
	return job_clock_fit((long double)(end - start) * 1000 / c->freq_mhz);
}

/* Host monotonic NS as J's host time (epoch ns when anchored), or NP_NA. */
int64_t
job_clock_host(const struct job_clock *c, uint64_t ns)
{
	int64_t	 t;

	if (ns > INT64_MAX)
		return NP_NA;
	if (!c->host_epoch)
		return (int64_t)ns;
	util_add((int64_t)ns, c->host_offset, &t);
	return t;
}

/*
 * Load the step trace row of iteration ITER of MODEL (NP_NA: none) of J:
 * forward pass start FP, backward pass end BP, the iteration running from
 * START to END, all in device counter ticks.
 */
void
job_clock_step(struct job *j, int64_t model, int64_t iter, uint64_t fp,
    uint64_t bp, uint64_t start, uint64_t end)
{
	const struct job_clock	*c = &j->clock;
	struct store_step	 st;

	memset(&st, 0, sizeof st);
	st.device = j->device;
	st.rank = j->ctx->rank;
	st.model_id = model;
	st.iter = iter;
	st.fp_start_ns = job_clock_ns(c, fp);
	st.bp_end_ns = job_clock_ns(c, bp);
	st.iter_end_ns = job_clock_ns(c, end);
	st.iter_time_ns = job_clock_dur(c, start, end);
	st.fp_bp_ns = job_clock_dur(c, fp, bp);
	st.refresh_ns = job_clock_dur(c, bp, end);
	st.data_aug_ns = fp >= start ? job_clock_dur(c, start, fp) : 0;
	store_load_step(j->s, &st);
}
