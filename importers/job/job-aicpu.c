/*
 * The AI CPU text log of a legacy JOB (DATA_PREPROCESS.dev.AICPU.N.slice_k):
 * NUL-separated records, a "Node:NAME, Run start:T, Run end:T" record (or
 * the six-field form with compute and memcpy points, whose run end is the
 * sixth field) followed by the "Thread[..] ... dispatchTime=D us,
 * totalTime=T us." record of the same kernel. Each pair becomes a row of
 * the generic table aicpu with the columns of the MindSpore-era parse:
 * serial_number, node_type_name, total_time(ms), dispatch_time(ms),
 * run_start, run_end. A node without its thread record is reported.
 *
 * Later drivers write the same slices as 128-byte binary records instead
 * (magic 0x5A5A, tag 60; doc/formats.md 1.5.3): stream and task, the run
 * start and end on the device counter, compute and memcpy points, the
 * submit and after-run ticks and the dispatch time. They fill the same
 * table, the op type coming from the task description by stream and task.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_AICPU_FIELDS	8
#define JOB_AICPU_REC		128
#define JOB_AICPU_MAGIC		0x5a5a
#define JOB_AICPU_TAG		60

/* The ops of the task description by stream, task and batch. */
struct job_aicpu_ops {
	struct job_op	**by;
	bool		 *used;
	size_t		  n;
};

struct job_aicpu {
	struct job	*j;
	int64_t		 serial;
	int64_t		 orphans;
	int64_t		 threads;	/* thread records with no node */
	int64_t		 first_thread;
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
		if (strstr(p, "Thread") != NULL && a->threads++ == 0)
			a->first_thread = p - data;
		else if (strstr(p, "Node") != NULL) {
			node = p;
			node_off = p - data;
		}
	}
	if (node != NULL && a->orphans++ == 0)
		a->first_orphan = node_off;
}

/* True if DATA starts with a binary AI CPU record. */
static bool
job_aicpu_is_binary(const char *data, size_t len)
{
	const unsigned char	*r = (const unsigned char *)data;

	return len >= 4 && importer_le16(r) == JOB_AICPU_MAGIC &&
	    importer_le16(r + 2) == JOB_AICPU_TAG;
}

/* Stream, task, then batch: the ops a wrapped task id tells apart. */
static int
job_aicpu_op_cmp(const void *a, const void *b)
{
	const struct job_op	*x = *(const struct job_op *const *)a;
	const struct job_op	*y = *(const struct job_op *const *)b;

	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	return 0;
}

/*
 * The op of TASK on STREAM in B->by, or NULL. A task id that wrapped
 * names several ops (batch 0, 1, ...): the Nth record of a task takes the
 * Nth of them, the last one after that.
 */
static const struct job_op *
job_aicpu_op(struct job_aicpu_ops *b, int64_t stream, int64_t task)
{
	size_t	 lo = 0, hi = b->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (b->by[mid]->stream < stream || (b->by[mid]->stream ==
		    stream && b->by[mid]->task < task))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->n || b->by[lo]->stream != stream ||
	    b->by[lo]->task != task)
		return NULL;
	while (b->used[lo] && lo + 1 < b->n && b->by[lo + 1]->stream ==
	    stream && b->by[lo + 1]->task == task)
		lo++;
	b->used[lo] = true;
	return b->by[lo];
}

/* Milliseconds with three decimals from nanoseconds, or N/A. */
static void
job_aicpu_ms(char *buf, size_t size, int64_t ns)
{
	if (ns == NP_NA)
		snprintf(buf, size, "N/A");
	else
		util_fmt_fixed(buf, size, ns / 1e6, 3, true);
}

/* One binary record R at OFF; false if it is not a whole sound record. */
static bool
job_aicpu_record(struct job_aicpu *a, struct job_aicpu_ops *by,
    const unsigned char *r, int64_t *unnamed)
{
	const struct job_clock	*c = &a->j->clock;
	const struct job_op	*op;
	char			*cells[6], v[5][32], serial[32];
	uint64_t		 start, end, submit, after;
	int64_t			 start_ns, end_ns, total;

	if (importer_le16(r) != JOB_AICPU_MAGIC ||
	    importer_le16(r + 2) != JOB_AICPU_TAG)
		return false;
	start = importer_le64(r + 16);
	end = importer_le64(r + 56);
	submit = importer_le64(r + 72);
	after = importer_le64(r + 96);
	if (start == 0 || end == 0)
		return false;
	start_ns = job_clock_ns(c, start);
	end_ns = job_clock_ns(c, end);
	total = job_clock_dur(c, submit, after);
	if (start_ns == NP_NA || end_ns == NP_NA || end_ns < start_ns)
		return false;
	op = job_aicpu_op(by, importer_le16(r + 4) & 0x7ff,
	    importer_le16(r + 6));
	if (op == NULL)
		(*unnamed)++;
	snprintf(serial, sizeof serial, "%lld", (long long)++a->serial);
	job_aicpu_ms(v[0], sizeof v[0], total);
	util_fmt_fixed(v[1], sizeof v[1], importer_le32(r + 108) / 1000.0, 3,
	    true);
	snprintf(v[2], sizeof v[2], "%lld", (long long)(start_ns / 1000));
	snprintf(v[3], sizeof v[3], "%lld", (long long)(end_ns / 1000));
	cells[0] = serial;
	cells[1] = op != NULL && op->type != NULL ? op->type : "";
	cells[2] = v[0];
	cells[3] = v[1];
	cells[4] = v[2];
	cells[5] = v[3];
	store_load_generic_row(a->j->s, cells, 6);
	if (total != NP_NA)
		a->total_us += total / 1000;
	return true;
}

/*
 * Decode the binary records of DATA: skipped records (bad magic, no run
 * times) and a cut last record are counted and reported once each.
 */
static void
job_aicpu_binary(struct job_aicpu *a, const char *data, size_t len)
{
	struct job		*j = a->j;
	const char		*first = job_files_first(j, JOB_AICPU);
	struct job_aicpu_ops	 by;
	size_t			 off, i;
	int64_t			 bad = 0, bad_off = 0, unnamed = 0;

	by.n = j->nops;
	by.by = xreallocarray(NULL, by.n > 0 ? by.n : 1, sizeof *by.by);
	by.used = xcalloc(by.n > 0 ? by.n : 1, sizeof *by.used);
	for (i = 0; i < by.n; i++)
		by.by[i] = &j->ops[i];
	qsort(by.by, by.n, sizeof *by.by, job_aicpu_op_cmp);
	for (off = 0; off + JOB_AICPU_REC <= len; off += JOB_AICPU_REC) {
		if (!job_aicpu_record(a, &by, (const unsigned char *)data +
		    off, &unnamed) && bad++ == 0)
			bad_off = (int64_t)off;
	}
	if (bad > 0)
		store_load_warning(j->s, first, bad_off, "%lld of %lld AI CPU "
		    "records skipped: bad magic or tag, or no run start and "
		    "end", (long long)bad, (long long)(len / JOB_AICPU_REC));
	if (len % JOB_AICPU_REC != 0)
		store_load_warning(j->s, first, (int64_t)off, "%zu trailing "
		    "bytes are not a whole %d-byte AI CPU record",
		    len % JOB_AICPU_REC, JOB_AICPU_REC);
	if (unnamed > 0)
		store_load_warning(j->s, first, -1, "%lld AI CPU record%s "
		    "match%s no task of the task description: no op type",
		    (long long)unnamed, unnamed == 1 ? "" : "s",
		    unnamed == 1 ? "es" : "");
	free(by.by);
	free(by.used);
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
	if (job_aicpu_is_binary(data, len))
		job_aicpu_binary(&a, data, len);
	else {
		job_aicpu_decode(&a, data, len);
		if (a.threads > 0)
			store_load_warning(j->s, job_files_first(j,
			    JOB_AICPU), a.first_thread, "%lld AI CPU thread "
			    "record%s without a node record skipped: no kernel "
			    "name or run times", (long long)a.threads,
			    a.threads == 1 ? "" : "s");
		else if (a.serial == 0 && a.orphans == 0 && len > 0)
			store_load_warning(j->s, job_files_first(j,
			    JOB_AICPU), 0, "%zu bytes hold no AI CPU record",
			    len);
	}
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
