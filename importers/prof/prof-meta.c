/*
 * The control files of one raw collection directory (doc/formats.md section 2):
 * info.json* (chip, frequencies, rank, pid), sample.json (PMU events,
 * profiling level), start_info and end_info (the collection window) and
 * the clock pair host_start.log and dev_start.log, and the time conversion of
 * section 2.6 done in exact 128-bit integer arithmetic: device syscnt and
 * host counter ticks to epoch nanoseconds. Missing or odd files are
 * warnings; the conversion then falls back as the vendor does.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "prof-int.h"

#define PROF_META_MAX	(4 << 20)

static const char *const prof_meta_chips[] = {
	"Ascend310", "Ascend910A", "mdc", "lhisi", "Ascend310P",
	"Ascend910B", NULL, "Ascend310B", "Ascend310B", "nano", NULL,
	"Ascend310B", NULL, NULL, NULL, "Ascend950", "Ascend950"
};

/* The product name of platform_version CHIP, or NULL. */
const char *
prof_meta_chip_name(int chip)
{
	if (chip < 0 || (size_t)chip >= sizeof prof_meta_chips /
	    sizeof prof_meta_chips[0])
		return NULL;
	return prof_meta_chips[chip];
}

/* True for the chips whose task logs are stars_soc (section 2.2). */
bool
prof_meta_is_stars(const struct prof_meta *m)
{
	return m->chip == 5 || m->chip == 7 || m->chip == 8 ||
	    m->chip == 11 || m->chip == 15 || m->chip == 16;
}

/*
 * True for chip V6 (Ascend950), whose 32-byte task logs carry a 32-bit
 * task id and no stream id (section 4.3).
 */
bool
prof_meta_is_v6(const struct prof_meta *m)
{
	return m->chip == 15 || m->chip == 16;
}

/*
 * Parse a decimal MHz string ("50", "49.000000", "38.4") into an exact
 * fraction. Return -1 for an empty, zero or malformed value.
 */
int
prof_meta_freq_parse(const char *s, struct prof_freq *f)
{
	int64_t	 num = 0, den = 1;
	bool	 dot = false, digit = false;

	f->num = 0;
	f->den = 1;
	while (isspace((unsigned char)*s))
		s++;
	for (; *s != '\0' && !isspace((unsigned char)*s); s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!isdigit((unsigned char)*s) || num > INT64_MAX / 100 ||
		    den > INT64_MAX / 100)
			return -1;
		digit = true;
		num = num * 10 + (*s - '0');
		if (dot)
			den *= 10;
	}
	if (!digit || num == 0)
		return -1;
	while (den > 1 && num % 10 == 0) {
		num /= 10;
		den /= 10;
	}
	f->num = num;
	f->den = den;
	return 0;
}

/* The text of a JSON string or number, or NULL. */
static const char *
prof_meta_text(yajl_val root, const char *key, char *buf, size_t size)
{
	const char	*path[] = { key, NULL };
	yajl_val	 v;

	v = yajl_tree_get(root, path, yajl_t_any);
	if (v == NULL)
		return NULL;
	if (YAJL_IS_STRING(v))
		return YAJL_GET_STRING(v);
	if (YAJL_IS_INTEGER(v)) {
		snprintf(buf, size, "%lld", YAJL_GET_INTEGER(v));
		return buf;
	}
	if (YAJL_IS_NUMBER(v))
		return YAJL_GET_NUMBER(v);
	return NULL;
}

static bool
prof_meta_int(yajl_val root, const char *key, int64_t *out)
{
	char		 buf[32];
	const char	*t;

	t = prof_meta_text(root, key, buf, sizeof buf);
	if (t == NULL || *t == '\0')
		return false;
	return util_parse_int(t, strlen(t), out) == 0;
}

static char *
prof_meta_strdup(yajl_val root, const char *key)
{
	char		 buf[32];
	const char	*t;

	t = prof_meta_text(root, key, buf, sizeof buf);
	return t != NULL ? xstrdup(t) : NULL;
}

/* Read and parse the JSON file PATH; warn and return NULL if broken. */
static yajl_val
prof_meta_json(struct store *s, const char *path)
{
	char		*data, *cause = NULL, err[256], *nl;
	yajl_val	 root;

	if (util_read_file(path, &data, NULL, PROF_META_MAX, &cause) != 0) {
		store_load_warning(s, path, -1, "%s", cause);
		free(cause);
		return NULL;
	}
	store_load_file(s, path);
	root = json_tree_parse(data, err, sizeof err);
	if (root == NULL && (nl = strchr(data, '\n')) != NULL) {
		/* The vendor reads only the first line of info.json. */
		*nl = '\0';
		root = json_tree_parse(data, err, sizeof err);
	}
	if (root == NULL || !YAJL_IS_OBJECT(root)) {
		store_load_warning(s, path, -1, "not a JSON object: %s",
		    strtok(err, "\n"));
		yajl_tree_free(root);
		root = NULL;
	}
	free(data);
	return root;
}

static void
prof_meta_freq(struct store *s, const char *path, yajl_val obj,
    const char *key, struct prof_freq *f)
{
	char		 buf[32];
	const char	*t;

	t = prof_meta_text(obj, key, buf, sizeof buf);
	if (t != NULL && *t != '\0' && prof_meta_freq_parse(t, f) != 0)
		store_load_warning(s, path, -1, "bad %s '%s'", key, t);
}

static void
prof_meta_info(struct store *s, const char *path, struct prof_meta *m)
{
	const char	*cpu[] = { "CPU", NULL }, *dev[] = { "DeviceInfo",
	    NULL };
	yajl_val	 root, v, last;
	int64_t		 n;
	char		 buf[32];
	const char	*t;

	if ((root = prof_meta_json(s, path)) == NULL)
		return;
	t = prof_meta_text(root, "version", buf, sizeof buf);
	m->info_v2 = t != NULL && strcmp(t, "2.0") == 0;
	if (prof_meta_int(root, "platform_version", &n))
		m->chip = (int)n;
	if (prof_meta_int(root, "rank_id", &n) && n >= 0)
		m->rank = n;
	if (prof_meta_int(root, "pid", &n))
		m->pid = n;
	if (prof_meta_int(root, "drvVersion", &n))
		m->drv_version = n;
	v = yajl_tree_get(root, cpu, yajl_t_array);
	if (v != NULL && YAJL_GET_ARRAY(v)->len > 0) {
		/* The C++ path reads the last CPU entry. */
		last = YAJL_GET_ARRAY(v)->values[YAJL_GET_ARRAY(v)->len - 1];
		prof_meta_freq(s, path, last, "Frequency", &m->host);
		if (m->host.num == 1000 && m->host.den == 1)
			m->host.num = 0;	/* the mono-ns sentinel */
	}
	v = yajl_tree_get(root, dev, yajl_t_array);
	if (v != NULL && YAJL_GET_ARRAY(v)->len > 0) {
		last = YAJL_GET_ARRAY(v)->values[0];
		prof_meta_freq(s, path, last, "hwts_frequency", &m->hwts);
		prof_meta_freq(s, path, last, "aic_frequency", &m->aic);
		if (prof_meta_int(last, "ai_core_num", &n))
			m->ai_core_num = (int)n;
		if (prof_meta_int(last, "aiv_num", &n))
			m->aiv_num = (int)n;
	}
	yajl_tree_free(root);
}

static void
prof_meta_sample(struct store *s, const char *path, struct prof_meta *m)
{
	yajl_val	 root;

	if ((root = prof_meta_json(s, path)) == NULL)
		return;
	/* HiSilicon's collections say prof_level (level0, level1). */
	m->prof_level = prof_meta_strdup(root, "profLevel");
	if (m->prof_level == NULL)
		m->prof_level = prof_meta_strdup(root, "prof_level");
	m->aic_metrics = prof_meta_strdup(root, "ai_core_metrics");
	m->aic_events = prof_meta_strdup(root, "ai_core_profiling_events");
	m->aiv_events = prof_meta_strdup(root, "aiv_profiling_events");
	yajl_tree_free(root);
}

static void
prof_meta_window(struct store *s, const char *path, struct prof_meta *m,
    bool begin)
{
	yajl_val	 root;
	int64_t		 us, mono;

	if ((root = prof_meta_json(s, path)) == NULL)
		return;
	if (!prof_meta_int(root, begin ? "collectionTimeBegin" :
	    "collectionTimeEnd", &us) || !prof_meta_int(root,
	    "clockMonotonicRaw", &mono))
		store_load_warning(s, path, -1, "no collection time");
	else if (begin) {
		m->has_start = true;
		m->begin_us = us;
		m->begin_mono = mono;
	} else {
		m->has_end = true;
		m->end_us = us;
	}
	yajl_tree_free(root);
}

/*
 * Read the "key: value" lines of host_start.log or dev_start.log (section
 * 2.5); lines without a colon (the section header) are skipped.
 */
static void
prof_meta_clock(struct store *s, const char *path, struct prof_meta *m,
    bool dev)
{
	char		*data, *cause = NULL, *line, *next, *colon, *v;
	int64_t		 n, mono = NP_NA, cnt = NP_NA, diff = 0, real = NP_NA;

	if (util_read_file(path, &data, NULL, PROF_META_MAX, &cause) != 0) {
		store_load_warning(s, path, -1, "%s", cause);
		free(cause);
		return;
	}
	store_load_file(s, path);
	for (line = data; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		for (v = colon + 1; isspace((unsigned char)*v); v++)
			;
		if (util_parse_int(v, strcspn(v, " \t\r"), &n) != 0)
			continue;
		if (strstr(line, "clock_monotonic_raw") != NULL)
			mono = n;
		else if (strstr(line, "clock_realtime") != NULL)
			real = n;
		else if (strstr(line, "cntvct_diff") != NULL)
			diff = n;
		else if (strstr(line, "cntvct") != NULL)
			cnt = n;
	}
	free(data);
	if (!dev && mono != NP_NA && real != NP_NA) {
		/* Older collectors pair the monotonic and real-time clocks. */
		m->has_realtime = true;
		m->realtime_off = real - mono;
	}
	if (cnt == NP_NA && !dev && m->has_realtime) {
		m->has_host_start = true;
		m->hs_mono = mono;
		m->hs_cnt = 0;
		return;
	}
	if (cnt == NP_NA || (!dev && mono == NP_NA)) {
		store_load_warning(s, path, -1, "no clock_monotonic_raw and "
		    "cntvct pair");
		return;
	}
	if (dev) {
		m->has_dev_start = true;
		m->ds_cnt = cnt;
	} else {
		m->has_host_start = true;
		m->hs_mono = mono;
		m->hs_cnt = cnt;
		m->hs_diff = diff;
	}
}

/* The control file kinds, matched by prefix (section 1.1). */
enum prof_meta_kind {
	PROF_META_INFO,
	PROF_META_SAMPLE,
	PROF_META_START,
	PROF_META_END,
	PROF_META_HOST_START,
	PROF_META_DEV_START,
	PROF_META_NKINDS
};

static const char *const prof_meta_prefixes[PROF_META_NKINDS] = {
	"info.json", "sample.json", "start_info", "end_info",
	"host_start.log", "dev_start.log"
};

static void
prof_meta_file(struct store *s, const char *path, int kind,
    struct prof_meta *m)
{
	switch (kind) {
	case PROF_META_INFO:
		prof_meta_info(s, path, m);
		break;
	case PROF_META_SAMPLE:
		prof_meta_sample(s, path, m);
		break;
	case PROF_META_START:
	case PROF_META_END:
		prof_meta_window(s, path, m, kind == PROF_META_START);
		break;
	default:
		prof_meta_clock(s, path, m, kind == PROF_META_DEV_START);
		break;
	}
}

/* V, clamped to the range of int64_t (garbage time stamps overflow). */
static int64_t
prof_meta_clamp(__int128 v)
{
	if (v > INT64_MAX)
		return INT64_MAX;
	return v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* Divide (A * 1000 * F.den) by F.num, truncating toward zero. */
static __int128
prof_meta_scale128(int64_t a, const struct prof_freq *f)
{
	return (__int128)a * 1000 * f->den / f->num;
}

static int64_t
prof_meta_scale(int64_t a, const struct prof_freq *f)
{
	return prof_meta_clamp(prof_meta_scale128(a, f));
}

/*
 * Fill in the anchors of section 2.6 once every file is read; an anchor
 * out of the range of int64_t (garbage clock values) is clamped, and said.
 */
static void
prof_meta_anchor(struct store *s, struct prof_meta *m)
{
	struct prof_freq	 ns = { 1000, 1 };
	__int128		 v;

	if (m->has_host_start) {
		v = (__int128)m->hs_mono + prof_meta_scale(m->hs_diff,
		    m->host.num != 0 ? &m->host : &ns);
		m->anchor_ns = prof_meta_clamp(v);
		if (v != m->anchor_ns)
			store_load_warning(s, m->dir, -1, "host_start.log: "
			    "clock values out of range: the host anchor is "
			    "clamped");
	}
	if (m->has_start) {
		v = (__int128)m->begin_us * 1000 - m->begin_mono;
		m->local_off = prof_meta_clamp(v);
		if (v != m->local_off)
			store_load_warning(s, m->dir, -1, "start_info: clock "
			    "values out of range: the offset to local time is "
			    "clamped");
	} else if (m->has_realtime)
		m->local_off = m->realtime_off;
	else
		store_load_warning(s, m->dir, -1, "no start_info: times stay "
		    "on the monotonic clock");
	if (m->device != NP_HOST_DEVICE && m->hwts.num == 0)
		store_load_warning(s, m->dir, -1, "no hwts_frequency in "
		    "info.json: device times unknown");
	else if (m->device != NP_HOST_DEVICE && (!m->has_dev_start ||
	    !m->has_host_start))
		store_load_warning(s, m->dir, -1, "no host_start.log or "
		    "dev_start.log: device times are not anchored to the "
		    "host clock");
}

/*
 * Read the control files of collection directory DIR (device DEVICE, or
 * NP_HOST_DEVICE) into M. Problems are warnings; return 0, or -1 if DIR
 * has no info.json at all.
 */
int
prof_meta_read(struct store *s, const char *dir, int64_t device,
    struct prof_meta *m)
{
	char	**names, *path;
	size_t	  n, i;
	int	  k;
	bool	  seen[PROF_META_NKINDS] = { false };

	memset(m, 0, sizeof *m);
	m->dir = xstrdup(dir);
	m->device = device;
	m->chip = -1;
	m->rank = NP_NA;
	m->pid = NP_NA;
	m->drv_version = NP_NA;
	names = util_dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		if (strstr(names[i], "done") != NULL ||
		    util_has_suffix(names[i], ".complete"))
			continue;
		for (k = 0; k < PROF_META_NKINDS; k++) {
			if (!util_has_prefix(names[i], prof_meta_prefixes[k]))
				continue;
			path = util_path_join(dir, names[i]);
			if (seen[k])
				store_load_warning(s, path, -1, "another %s "
				    "file, ignored", prof_meta_prefixes[k]);
			else
				prof_meta_file(s, path, k, m);
			seen[k] = true;
			free(path);
		}
	}
	util_strv_free(names, n);
	if (!seen[PROF_META_END] && seen[PROF_META_INFO])
		store_load_warning(s, dir, -1, "no end_info: the collection "
		    "did not stop cleanly");
	prof_meta_anchor(s, m);
	return seen[PROF_META_INFO] ? 0 : -1;
}

void
prof_meta_release(struct prof_meta *m)
{
	free(m->dir);
	free(m->prof_level);
	free(m->aic_metrics);
	free(m->aic_events);
	free(m->aiv_events);
	memset(m, 0, sizeof *m);
}

/* Device syscnt SYSCNT as epoch ns (section 2.6 steps 2 and 4). */
int64_t
prof_meta_dev_ns(const struct prof_meta *m, uint64_t syscnt)
{
	if (m->hwts.num == 0)
		return (int64_t)syscnt;
	return prof_meta_clamp((__int128)m->anchor_ns + prof_meta_scale128(
	    (int64_t)(syscnt - (uint64_t)m->ds_cnt), &m->hwts) + m->local_off);
}

/* A device syscnt difference as ns. */
int64_t
prof_meta_dev_dur(const struct prof_meta *m, uint64_t ticks)
{
	if (m->hwts.num == 0)
		return (int64_t)ticks;
	return prof_meta_scale((int64_t)ticks, &m->hwts);
}

/* A host raw time stamp (counter ticks or mono ns) as epoch ns. */
int64_t
prof_meta_host_ns(const struct prof_meta *m, uint64_t raw)
{
	if (m->host.num == 0 || !m->has_host_start)
		return prof_meta_clamp((__int128)(int64_t)raw + m->local_off);
	return prof_meta_clamp((__int128)m->anchor_ns + prof_meta_scale128(
	    (int64_t)(raw - (uint64_t)m->hs_cnt), &m->host) + m->local_off);
}

/*
 * True if NS is an epoch time or a duration a real collection can have:
 * damaged time stamps give values that would overflow what is computed
 * from them.
 */
bool
prof_meta_sane(int64_t ns)
{
	return ns >= 0 && ns < (int64_t)1 << 62;
}

/* The collection start as epoch ns, or INT64_MIN if unknown. */
int64_t
prof_meta_begin_ns(const struct prof_meta *m)
{
	return m->has_start ? m->begin_us * 1000 : INT64_MIN;
}
