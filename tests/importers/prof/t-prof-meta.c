/*
 * Raw PROF metadata: exact frequency fractions, the time conversion of
 * doc/formats.md 2.6 in 128-bit integers, and every metadata file of the
 * shared samples (info.json*, sample.json, start_info*, end_info*,
 * host_start.log*) parsed into the values they hold.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof-int.h"
#include "tap.h"

static void
test_freq(void)
{
	struct prof_freq	 f;

	ok(prof_meta_freq_parse("50", &f) == 0 && f.num == 50 && f.den == 1,
	    "50 MHz");
	ok(prof_meta_freq_parse("49.000000", &f) == 0 && f.num == 49 &&
	    f.den == 1, "49.000000 MHz is 49");
	ok(prof_meta_freq_parse("38.4", &f) == 0 && f.num == 384 && f.den == 10,
	    "38.4 MHz is 384/10");
	ok(prof_meta_freq_parse("", &f) != 0, "empty is no frequency");
	ok(prof_meta_freq_parse("0", &f) != 0, "zero is no frequency");
	ok(prof_meta_freq_parse("1x", &f) != 0, "junk is no frequency");
}

static void
test_time(void)
{
	struct prof_meta	 m;

	memset(&m, 0, sizeof m);
	m.device = 0;
	prof_meta_freq_parse("50", &m.hwts);
	m.ds_cnt = 1000000;
	m.anchor_ns = 5000000000LL;
	m.local_off = 1700000000000000000LL;
	is_int(prof_meta_dev_ns(&m, 1000050), 5000000000LL + 1000 +
	    1700000000000000000LL, "50 ticks at 50 MHz are 1000 ns");
	is_int(prof_meta_dev_ns(&m, 999950), 5000000000LL - 1000 +
	    1700000000000000000LL, "a syscnt before the anchor");
	is_int(prof_meta_dev_dur(&m, 3), 60, "3 ticks are 60 ns");
	prof_meta_freq_parse("38.4", &m.hwts);
	is_int(prof_meta_dev_dur(&m, 384), 10000, "384 ticks at 38.4 MHz");
	is_int(prof_meta_dev_dur(&m, 1), 26, "one tick truncates to 26 ns");
	/* A syscnt near 2^64 / 1000 would overflow 64-bit arithmetic. */
	prof_meta_freq_parse("100", &m.hwts);
	m.ds_cnt = 0;
	m.anchor_ns = 0;
	m.local_off = 0;
	is_int(prof_meta_dev_ns(&m, 90000000000000000ULL),
	    900000000000000000LL, "no overflow for large counters");

	memset(&m, 0, sizeof m);
	m.device = NP_HOST_DEVICE;
	m.has_host_start = true;
	prof_meta_freq_parse("100", &m.host);
	m.anchor_ns = 777000;
	m.hs_cnt = 10000;
	m.local_off = 10;
	is_int(prof_meta_host_ns(&m, 10100), 777000 + 1000 + 10,
	    "host counter ticks at 100 MHz");
	m.host.num = 0;
	is_int(prof_meta_host_ns(&m, 123456), 123456 + 10,
	    "mono-ns host stamps only move to epoch");
}

static struct store *
test_store(char *dir, char **db)
{
	char	*cause = NULL;

	xasprintf(db, "%s/x.db", dir);
	return store_load_begin(*db, dir, &cause);
}

static void
test_samples(struct store *s, const char *shared)
{
	struct prof_meta	 m;
	char			*dir;

	xasprintf(&dir, "%s/samples/msprof-ut-collection-metadata", shared);
	is_int(prof_meta_read(s, dir, NP_HOST_DEVICE, &m), 0,
	    "msprof ut metadata: info.json found");
	is_int(m.chip, 0, "msprof ut metadata: platform_version 0");
	ok(m.host.num == 100 && m.host.den == 1,
	    "msprof ut metadata: CPU Frequency 100.000000");
	ok(m.hwts.num == 100, "msprof ut metadata: hwts_frequency 100");
	ok(m.aic.num == 1150, "msprof ut metadata: aic_frequency 1150");
	is_int(m.ai_core_num, 8, "msprof ut metadata: ai_core_num");
	ok(m.has_start && m.begin_us == 1659098679447393LL &&
	    m.begin_mono == 876117208663770LL,
	    "msprof ut metadata: start_info");
	ok(m.has_end && m.end_us == 1659100610422400LL,
	    "msprof ut metadata: end_info");
	ok(m.has_host_start && m.hs_mono == 0 && m.hs_cnt == 0,
	    "msprof ut metadata: host_start.log");
	is_str(m.aic_events, "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55",
	    "msprof ut metadata: sample.json events");
	is_str(m.aic_metrics, "PipeUtilization",
	    "msprof ut metadata: sample.json metrics");
	prof_meta_release(&m);
	free(dir);

	xasprintf(&dir, "%s/samples/mindinsight-prof-cann6x-timeline/"
	    "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0", shared);
	is_int(prof_meta_read(s, dir, 0, &m), 0,
	    "cann6x device_0: info.json.0");
	is_int(m.chip, 1, "cann6x device_0: platform_version 1 (910A)");
	is_int(m.host.num, 0, "cann6x device_0: numeric Frequency 1000 is "
	    "the mono-ns sentinel");
	ok(m.hwts.num == 100, "cann6x device_0: hwts_frequency");
	ok(m.has_start && m.begin_us == 1692340024324979LL,
	    "cann6x device_0: start_info.0");
	ok(m.has_end && m.end_us == 1692340082430569LL,
	    "cann6x device_0: end_info.0");
	prof_meta_release(&m);
	free(dir);

	xasprintf(&dir, "%s/samples/mindinsight-prof-cann6x-timeline/"
	    "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA/device_1", shared);
	is_int(prof_meta_read(s, dir, 1, &m), 0,
	    "cann6x device_1: info.json.1");
	ok(m.has_start && m.has_end, "cann6x device_1: start and end info");
	prof_meta_release(&m);
	free(dir);

	xasprintf(&dir, "%s/samples/mindinsight-job-legacy-raw/JOB3", shared);
	prof_meta_read(s, dir, 1, &m);
	ok(m.has_host_start, "legacy JOB3: host_start.log.1 parses");
	ok(m.has_realtime && m.realtime_off == 1591183963784568740LL -
	    261003032627LL, "legacy JOB3: clock_realtime anchors epoch time");
	is_int(m.local_off, m.realtime_off, "legacy JOB3: used without "
	    "start_info");
	prof_meta_release(&m);
	free(dir);
}

int
main(void)
{
	struct store	*s;
	char		 dir[] = "/tmp/t-prof-meta.XXXXXX", *db, *samples;
	const char	*shared = getenv("SHARED");

	test_freq();
	test_time();
	if (mkdtemp(dir) == NULL)
		return 1;
	s = test_store(dir, &db);
	ok(s != NULL, "a store for the warnings");
	if (shared != NULL) {
		xasprintf(&samples, "%s/samples", shared);
		if (access(samples, R_OK) == 0)
			test_samples(s, shared);
		else
			printf("# no samples in %s\n", samples);
		free(samples);
	}
	store_load_abort(s);
	rmdir(dir);
	free(db);
	return done_testing();
}
