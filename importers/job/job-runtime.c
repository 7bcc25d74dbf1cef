/*
 * The runtime and marker records of a legacy JOB (doc/formats.md 3.8, 6.2),
 * all starting with the u16 magic 0x5a5a and a u16 tag:
 * Runtime.api (256 bytes: thread @4, entry @8, exit @16, API name @32,
 * return code @96, stream @100) becomes runtime API spans, which
 * api_statistic counts; Runtime.task_track (64 bytes: thread @4, time @8,
 * task type text @16, task @48, batch @50, stream @52 low 11 bits) becomes
 * the generic table runtime_task_track; Msprof.msproftx (256 bytes:
 * process @4, thread @8, category @12, event type @16, payload type @20,
 * payload @24, start @32, end @40, message type @48, message @52) becomes
 * marker spans and the generic table msproftx. Times are host monotonic
 * ns, made epoch ns when start_info says how.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_RT_MAGIC	0x5a5a

struct job_rt_kind {
	const char	*what;
	size_t		 size;
	void		(*record)(struct job *, const unsigned char *);
};

static int64_t
job_runtime_time(const struct job *j, uint64_t ns)
{
	return job_clock_host(&j->clock, ns);
}

/* Inline text of at most MAX bytes at P, NUL-padded. */
static char *
job_runtime_text(const unsigned char *p, size_t max)
{
	return xstrndup((const char *)p, max);
}

static void
job_runtime_api(struct job *j, const unsigned char *r)
{
	struct store_api	 a;
	char			*name, args[64];

	name = job_runtime_text(r + 32, 64);
	store_load_api_init(&a, importer_le32(r + 4), job_runtime_time(j,
	    importer_le64(r + 8)), job_runtime_time(j, importer_le64(r + 16)),
	    "runtime", name);
	a.rank = j->ctx->rank;
	a.depth = 0;
	snprintf(args, sizeof args, "{\"stream\":%u,\"ret\":%u}",
	    importer_le32(r + 100), importer_le32(r + 96));
	a.args = args;
	if (a.end_ns >= a.start_ns)
		store_load_api(j->s, &a);
	free(name);
}

static void
job_runtime_track(struct job *j, const unsigned char *r)
{
	char	 v[6][48], *cells[6], *type;
	int	 i;

	type = job_runtime_text(r + 16, 32);
	snprintf(v[0], sizeof v[0], "%u", importer_le32(r + 4));
	util_fmt_us(v[1], sizeof v[1], job_runtime_time(j, importer_le64(r
	    + 8)), 3, false);
	snprintf(v[2], sizeof v[2], "%s", type);
	snprintf(v[3], sizeof v[3], "%u", importer_le16(r + 52) & 0x7ff);
	snprintf(v[4], sizeof v[4], "%u", importer_le16(r + 48));
	snprintf(v[5], sizeof v[5], "%u", importer_le16(r + 50));
	for (i = 0; i < 6; i++)
		cells[i] = v[i];
	store_load_generic_row(j->s, cells, 6);
	free(type);
}

static void
job_runtime_tx(struct job *j, const unsigned char *r)
{
	struct store_api	 a;
	char			 v[9][48], *cells[10], *msg;
	int			 i;

	msg = job_runtime_text(r + 52, 128);
	store_load_api_init(&a, importer_le32(r + 8), job_runtime_time(j,
	    importer_le64(r + 32)), job_runtime_time(j, importer_le64(r + 40)),
	    "msproftx", msg);
	a.rank = j->ctx->rank;
	a.pid = importer_le32(r + 4);
	a.depth = 0;
	if (a.end_ns >= a.start_ns)
		store_load_api(j->s, &a);
	snprintf(v[0], sizeof v[0], "%u", importer_le32(r + 4));
	snprintf(v[1], sizeof v[1], "%u", importer_le32(r + 8));
	snprintf(v[2], sizeof v[2], "%u", importer_le32(r + 12));
	snprintf(v[3], sizeof v[3], "%u", importer_le32(r + 16));
	snprintf(v[4], sizeof v[4], "%u", importer_le32(r + 20));
	snprintf(v[5], sizeof v[5], "%llu",
	    (unsigned long long)importer_le64(r + 24));
	util_fmt_us(v[6], sizeof v[6], a.start_ns, 3, false);
	util_fmt_us(v[7], sizeof v[7], a.end_ns, 3, false);
	snprintf(v[8], sizeof v[8], "%u", importer_le32(r + 48));
	for (i = 0; i < 9; i++)
		cells[i] = v[i];
	cells[9] = msg;
	store_load_generic_row(j->s, cells, 10);
	free(msg);
}

static const struct job_rt_kind job_rt_kinds[] = {
	{ .what = "runtime API", .size = 256, .record = job_runtime_api },
	{ .what = "task_track", .size = 64, .record = job_runtime_track },
	{ .what = "msproftx", .size = 256, .record = job_runtime_tx }
};

/* Which of job_rt_kinds the file called NAME holds. */
static const struct job_rt_kind *
job_runtime_kind(const char *name, enum job_kind kind)
{
	const char	*p;

	if (kind == JOB_MSPROFTX)
		return &job_rt_kinds[2];
	if (strstr(name, "task_track") != NULL ||
	    util_has_prefix(name, "runtime.host.runtime."))
		return &job_rt_kinds[1];
	/* Inference names: runtime.runtime.N.K is the track. */
	if (util_has_prefix(name, "runtime.runtime.")) {
		p = name + strlen("runtime.runtime.");
		if (*p >= '0' && *p <= '9')
			return &job_rt_kinds[1];
	}
	return &job_rt_kinds[0];
}

static void
job_runtime_file(struct job *j, size_t i, const struct job_rt_kind *k,
    const char *data, size_t len)
{
	const unsigned char	*r;
	size_t			 off, bad = 0, first = 0;

	for (off = 0; off + k->size <= len; off += k->size) {
		r = (const unsigned char *)data + off;
		if (importer_le16(r) != JOB_RT_MAGIC) {
			if (bad++ == 0)
				first = off;
			continue;
		}
		k->record(j, r);
	}
	if (bad > 0)
		store_load_warning(j->s, j->files[i].path, (int64_t)first,
		    "%zu %s record%s without the 0x5a5a magic skipped", bad,
		    k->what, bad == 1 ? "" : "s");
	if (len % k->size != 0)
		store_load_warning(j->s, j->files[i].path, (int64_t)(len -
		    len % k->size), "%zu trailing bytes are not a whole "
		    "%zu-byte %s record", len % k->size, k->size, k->what);
}

/* Open the generic table the records of K go to, if any. */
static void
job_runtime_table(struct job *j, const struct job_rt_kind *k)
{
	static char	*track[] = { "Thread ID", "Timestamp(us)", "Task Type",
	    "Stream ID", "Task ID", "Batch ID" };
	static char	*tx[] = { "Process ID", "Thread ID", "Category",
	    "Event Type", "Payload Type", "Payload", "Start(us)", "End(us)",
	    "Message Type", "Message" };

	if (k == &job_rt_kinds[1])
		job_files_table(j, NULL, "runtime_task_track", track, 6);
	else if (k == &job_rt_kinds[2])
		job_files_table(j, NULL, "msproftx", tx, 10);
}

/*
 * Load J's Runtime.* and Msprof.msproftx files. Return the number of
 * files read, or -1 if there are none.
 */
int
job_runtime_load(struct job *j)
{
	const struct job_rt_kind	*k;
	char				*data;
	size_t				 len, i, next;
	int				 files = 0;

	for (i = 0; i < j->nfiles; i = next) {
		if (j->files[i].kind != JOB_RUNTIME &&
		    j->files[i].kind != JOB_MSPROFTX) {
			next = i + 1;
			continue;
		}
		k = job_runtime_kind(j->files[i].name, j->files[i].kind);
		next = job_files_read_stem(j, i, &data, &len);
		job_runtime_table(j, k);
		job_runtime_file(j, i, k, data, len);
		free(data);
		files++;
	}
	return files > 0 ? files : -1;
}
