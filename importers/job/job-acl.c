/*
 * AclModule records of a legacy or SVP JOB (doc/formats.md 3.8): 128 bytes,
 * u16 magic 0x5a5a, u16 tag 0, u32 API type @4 (1 op, 2 model, 3 runtime,
 * 4 others), u64 begin @8 and end @16 in host monotonic ns, u32 process
 * @24, u32 thread @28, the API name inline @32 (64 bytes). Each record is
 * an ACL API span; the legacy acl_statistic (doc/formats.md 8.3: grouped by
 * name only, Type and ids from the group's first row) is computed here and
 * kept as the generic table acl_statistic with the legacy columns, the
 * same table an exported acl_statistic_*.csv becomes.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_ACL_SIZE	128
#define JOB_ACL_MAGIC	0x5a5a

static const char *const job_acl_types[] = {
	"ACL_OTHERS", "ACL_OP", "ACL_MODEL", "ACL_RTS", "ACL_OTHERS"
};

struct job_acl_group {
	char		*name;
	const char	*type;
	uint32_t	 pid, tid;
	int64_t		 count, total, min, max;
};

struct job_acl {
	struct job		*j;
	struct job_acl_group	*g;
	size_t			 ng;
	int64_t			 all;
};

static uint32_t
job_acl_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
job_acl_u64(const unsigned char *p)
{
	return job_acl_u32(p) | (uint64_t)job_acl_u32(p + 4) << 32;
}

/*
 * True if DATA looks like AclModule records: a whole number of 128-byte
 * records, the first with the magic and tag 0.
 */
bool
job_acl_check(const char *data, size_t len)
{
	const unsigned char	*d = (const unsigned char *)data;

	return len >= JOB_ACL_SIZE && len % JOB_ACL_SIZE == 0 &&
	    d[0] == 0x5a && d[1] == 0x5a && d[2] == 0 && d[3] == 0;
}

static void
job_acl_add(struct job_acl *a, const char *name, const char *type,
    uint32_t pid, uint32_t tid, int64_t d)
{
	struct job_acl_group	*g;
	size_t			 i;

	util_add(a->all, d, &a->all);
	for (i = 0; i < a->ng; i++) {
		g = &a->g[i];
		if (strcmp(g->name, name) != 0)
			continue;
		g->count++;
		util_add(g->total, d, &g->total);
		g->min = d < g->min ? d : g->min;
		g->max = d > g->max ? d : g->max;
		return;
	}
	a->g = xreallocarray(a->g, a->ng + 1, sizeof *a->g);
	g = &a->g[a->ng++];
	g->name = xstrdup(name);
	g->type = type;
	g->pid = pid;
	g->tid = tid;
	g->count = 1;
	g->total = g->min = g->max = d;
}

static int
job_acl_cmp(const void *x, const void *y)
{
	const struct job_acl_group	*a = x, *b = y;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Write the acl_statistic table from the groups. */
static void
job_acl_statistic(struct job_acl *a)
{
	static char		*cols[] = { "Name", "Type", "Time(%)",
	    "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)",
	    "Process ID", "Thread ID" };
	struct job_acl_group	*g;
	char			 v[10][48], *cells[10];
	size_t			 i, k;

	if (a->ng == 0)
		return;
	if (job_files_table(a->j, NULL, "acl_statistic", cols, 10) != 0) {
		return;
	}
	qsort(a->g, a->ng, sizeof *a->g, job_acl_cmp);
	for (i = 0; i < a->ng; i++) {
		g = &a->g[i];
		snprintf(v[0], sizeof v[0], "%s", g->name);
		snprintf(v[1], sizeof v[1], "%s", g->type);
		/* A total that overflowed is N/A, and so is what it gives. */
		if (g->total == NP_NA || a->all == NP_NA)
			snprintf(v[2], sizeof v[2], "N/A");
		else
			util_fmt_fixed(v[2], sizeof v[2], a->all > 0 ? 100.0 *
			    g->total / a->all : 0, 6, true);
		util_fmt_us(v[3], sizeof v[3], g->total, 3, true);
		snprintf(v[4], sizeof v[4], "%lld", (long long)g->count);
		if (g->total == NP_NA)
			snprintf(v[5], sizeof v[5], "N/A");
		else
			util_fmt_fixed(v[5], sizeof v[5], g->total / 1000.0 /
			    g->count, 3, true);
		util_fmt_us(v[6], sizeof v[6], g->min, 3, true);
		util_fmt_us(v[7], sizeof v[7], g->max, 3, true);
		snprintf(v[8], sizeof v[8], "%u", g->pid);
		snprintf(v[9], sizeof v[9], "%u", g->tid);
		for (k = 0; k < 10; k++)
			cells[k] = v[k];
		cells[0] = g->name;
		store_load_generic_row(a->j->s, cells, 10);
	}
}

/* One 128-byte record: an API span and a statistic sample. */
static bool
job_acl_record(struct job_acl *a, const unsigned char *r)
{
	const struct job_clock	*c = &a->j->clock;
	struct store_api	 api;
	char			 name[65];
	uint32_t		 type;
	uint64_t		 begin, end;

	if (r[0] != 0x5a || r[1] != 0x5a || r[2] != 0 || r[3] != 0)
		return false;
	type = job_acl_u32(r + 4);
	begin = job_acl_u64(r + 8);
	end = job_acl_u64(r + 16);
	if (end < begin || begin == 0)
		return false;
	memcpy(name, r + 32, 64);
	name[64] = '\0';
	memset(&api, 0, sizeof api);
	api.device = NP_HOST_DEVICE;
	api.rank = a->j->ctx->rank;
	api.pid = job_acl_u32(r + 24);
	api.tid = job_acl_u32(r + 28);
	api.start_ns = job_clock_host(c, begin);
	api.end_ns = job_clock_host(c, end);
	if (api.start_ns == NP_NA || api.end_ns == NP_NA)
		return false;
	api.conn = api.parent = NP_NA;
	api.level = "acl";
	api.name = name;
	store_load_api(a->j->s, &api);
	job_acl_add(a, name, job_acl_types[type <= 4 ? type : 0],
	    (uint32_t)api.pid, (uint32_t)api.tid, (int64_t)(end - begin));
	return true;
}

/*
 * Load J's AclModule records. Return the number of spans, or -1 if the
 * JOB has no AclModule file. Files that fail the magic, tag and size
 * checks are reported and skipped.
 */
int
job_acl_load(struct job *j)
{
	struct job_acl	 a;
	char		*data;
	size_t		 len, i, next, off, bad, first;
	int		 n = 0, files = 0;

	memset(&a, 0, sizeof a);
	a.j = j;
	for (i = 0; i < j->nfiles; i = next) {
		if (j->files[i].kind != JOB_ACL) {
			next = i + 1;
			continue;
		}
		files++;
		next = job_files_read_stem(j, i, &data, &len);
		if (!job_acl_check(data, len)) {
			store_load_warning(j->s, j->files[i].path, 0, "not "
			    "AclModule records (no 0x5a5a magic with tag 0, or "
			    "not a whole number of 128-byte records)");
			free(data);
			continue;
		}
		bad = first = 0;
		for (off = 0; off + JOB_ACL_SIZE <= len; off += JOB_ACL_SIZE) {
			if (job_acl_record(&a, (unsigned char *)data + off))
				n++;
			else if (bad++ == 0)
				first = off;
		}
		if (bad > 0)
			store_load_warning(j->s, j->files[i].path,
			    (int64_t)first, "%zu AclModule record%s with a bad "
			    "magic, tag or time skipped", bad,
			    bad == 1 ? "" : "s");
		free(data);
	}
	job_acl_statistic(&a);
	for (i = 0; i < a.ng; i++)
		free(a.g[i].name);
	free(a.g);
	return files > 0 ? n : -1;
}
