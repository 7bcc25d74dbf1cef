/*
 * The AI CPU text log of a legacy JOB (DATA_PREPROCESS.dev.AICPU.N.slice_k):
 * NUL-separated records, a "Node:NAME, Run start:T, Run end:T" record (or
 * the six-field form with compute and memcpy points, whose run end is the
 * sixth field) followed by the "Thread[..] ... dispatchTime=D us,
 * totalTime=T us." record of the same kernel. Each pair becomes a row of
 * the generic table aicpu with the columns of the MindSpore-era parse:
 * serial_number, node_type_name, total_time(ms), dispatch_time(ms),
 * run_start, run_end. A node without its thread record is reported.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_AICPU_FIELDS	8

struct job_aicpu {
	struct job	*j;
	int64_t		 serial;
	int64_t		 orphans;
	int64_t		 first_orphan;
	int64_t		 total_us;
};

/* Split S at commas into at most JOB_AICPU_FIELDS fields; the count. */
static size_t
job_aicpu_split(char *s, char **f)
{
	size_t	 n = 0;
	char	*p = s, *c;

	while (n < JOB_AICPU_FIELDS) {
		f[n++] = p;
		if ((c = strchr(p, ',')) == NULL)
			return n;
		*c = '\0';
		p = c + 1;
	}
	return n + 1;
}

/* The text after the last CH in S, or S. */
static const char *
job_aicpu_after(const char *s, int ch)
{
	const char	*p = strrchr(s, ch);

	return p != NULL ? p + 1 : s;
}

/* The first number of the text after the last '=' (or ':') in S. */
static int
job_aicpu_number(const char *s, int ch, int64_t *v)
{
	const char	*p = job_aicpu_after(s, ch);
	size_t		 n;

	while (*p == ' ')
		p++;
	n = strspn(p, "0123456789");
	return util_parse_int(p, n, v);
}

/* One node and thread record pair; false if they do not parse. */
static bool
job_aicpu_pair(struct job_aicpu *a, char *node, char *thread)
{
	char		*nf[JOB_AICPU_FIELDS + 1], *tf[JOB_AICPU_FIELDS + 1];
	char		*name, *cells[6], v[4][32], serial[32];
	size_t		 nn, nt, end_at;
	int64_t		 start, end, total, dispatch;

	nn = job_aicpu_split(node, nf);
	nt = job_aicpu_split(thread, tf);
	if (nt != 7 || (nn != 3 && nn != 6))
		return false;
	end_at = nn == 3 ? 2 : 5;
	if (job_aicpu_number(nf[1], ':', &start) != 0 ||
	    job_aicpu_number(nf[end_at], ':', &end) != 0 ||
	    job_aicpu_number(tf[6], '=', &total) != 0 ||
	    job_aicpu_number(tf[5], '=', &dispatch) != 0)
		return false;
	name = xstrdup(job_aicpu_after(nf[0], ':'));
	if (nn == 6) {
		memmove(name, job_aicpu_after(name, '/'),
		    strlen(job_aicpu_after(name, '/')) + 1);
		name[strcspn(name, "-")] = '\0';
	}
	snprintf(serial, sizeof serial, "%lld", (long long)++a->serial);
	util_fmt_fixed(v[0], sizeof v[0], total / 1000.0, 3, true);
	util_fmt_fixed(v[1], sizeof v[1], dispatch / 1000.0, 3, true);
	snprintf(v[2], sizeof v[2], "%lld", (long long)start);
	snprintf(v[3], sizeof v[3], "%lld", (long long)end);
	cells[0] = serial;
	cells[1] = name;
	cells[2] = v[0];
	cells[3] = v[1];
	cells[4] = v[2];
	cells[5] = v[3];
	store_load_generic_row(a->j->s, cells, 6);
	a->total_us += total;
	free(name);
	return true;
}

static void
job_aicpu_decode(struct job_aicpu *a, char *data, size_t len)
{
	char	*p = data, *end = data + len, *next, *node = NULL;
	int64_t	 node_off = 0;

	for (; p < end; p = next + 1) {
		if ((next = memchr(p, '\0', (size_t)(end - p))) == NULL)
			next = end;
		*next = '\0';
		if (node != NULL && strstr(p, "Thread") != NULL) {
			if (!job_aicpu_pair(a, node, p) &&
			    a->orphans++ == 0)
				a->first_orphan = node_off;
			node = NULL;
			continue;
		}
		if (node != NULL && a->orphans++ == 0)
			a->first_orphan = node_off;
		node = NULL;
		if (strstr(p, "Node") != NULL) {
			node = p;
			node_off = p - data;
		}
	}
	if (node != NULL && a->orphans++ == 0)
		a->first_orphan = node_off;
}

/*
 * Load the AI CPU log of J into the aicpu table. Return the number of
 * kernels found, or -1 if there is no such log.
 */
int
job_aicpu_load(struct job *j)
{
	static char		*cols[] = { "serial_number", "node_type_name",
	    "total_time(ms)", "dispatch_time(ms)", "run_start", "run_end" };
	struct job_aicpu	 a;
	char			*data, buf[32];
	size_t			 len;

	if (job_files_read_table(j, JOB_AICPU, "aicpu", cols, 6, &data,
	    &len) != 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.j = j;
	job_aicpu_decode(&a, data, len);
	if (a.orphans > 0)
		store_load_warning(j->s, job_files_first(j, JOB_AICPU),
		    a.first_orphan, "%lld AI CPU node record%s without a "
		    "matching thread record skipped", (long long)a.orphans,
		    a.orphans == 1 ? "" : "s");
	if (a.serial > 0) {
		util_fmt_fixed(buf, sizeof buf, a.total_us / 1000.0, 6, false);
		store_load_meta(j->s, "aicpu.total_time_ms", buf);
	}
	free(data);
	return (int)a.serial;
}
