/*
 * The TDT log of a legacy JOB (DATA_PREPROCESS.dev.TDT.N.slice_k): the
 * transfer queue that feeds the device its input data. NUL-separated
 * text records, "[T] Enqueue data to dp, source:UUID, index:I, size:S",
 * as the MindSpore-era Ascend 910 runtime wrote them. Each record is a row
 * of the generic table tdt: Timestamp (as written; the log does not say
 * its unit), Event, Source, Index and Size (the queue depth after the
 * enqueue). A record of another shape is counted and reported once with
 * its offset.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

/* The value after "KEY:" in the comma-separated fields of S, or "". */
static void
job_tdt_field(const char *s, const char *key, char *buf, size_t size)
{
	const char	*p = s, *q;
	size_t		 klen = strlen(key), n;

	buf[0] = '\0';
	while ((p = strstr(p, key)) != NULL) {
		if ((p == s || p[-1] == ' ' || p[-1] == ',') && p[klen] == ':')
			break;
		p += klen;
	}
	if (p == NULL)
		return;
	p += klen + 1;
	q = strchr(p, ',');
	n = q != NULL ? (size_t)(q - p) : strlen(p);
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

/* One record: a row, or false if it is not "[T] event, key:value...". */
static bool
job_tdt_record(struct job *j, char *rec)
{
	char	*cells[5], ts[32], ev[128], src[128], idx[32], sz[32];
	char	*close, *comma;
	int64_t	 v;

	if (rec[0] != '[' || (close = strchr(rec, ']')) == NULL ||
	    close[1] != ' ' || util_parse_int(rec + 1, (size_t)(close - rec -
	    1), &v) != 0 || (size_t)(close - rec - 1) >= sizeof ts)
		return false;
	memcpy(ts, rec + 1, (size_t)(close - rec - 1));
	ts[close - rec - 1] = '\0';
	rec = close + 2;
	comma = strchr(rec, ',');
	snprintf(ev, sizeof ev, "%.*s", comma != NULL ? (int)(comma - rec) :
	    (int)strlen(rec), rec);
	job_tdt_field(rec, "source", src, sizeof src);
	job_tdt_field(rec, "index", idx, sizeof idx);
	job_tdt_field(rec, "size", sz, sizeof sz);
	cells[0] = ts;
	cells[1] = ev;
	cells[2] = src;
	cells[3] = idx;
	cells[4] = sz;
	store_load_generic_row(j->s, cells, 5);
	return true;
}

/* The first TDT file of J, for messages. */
static const char *
job_tdt_first(struct job *j)
{
	size_t	 i;

	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind == JOB_PREPROCESS && util_has_prefix(
		    j->files[i].name, "DATA_PREPROCESS.dev.TDT."))
			return j->files[i].path;
	}
	return j->dir;
}

/*
 * Load J's TDT logs into the tdt table. Return the number of records, or
 * -1 if there is no TDT log.
 */
int
job_tdt_load(struct job *j)
{
	static char	*cols[] = { "Timestamp", "Event", "Source", "Index",
	    "Size" };
	char		*data, *p, *end;
	size_t		 len;
	int64_t		 bad = 0, first = 0;
	int		 n = 0;

	if (job_files_read(j, JOB_PREPROCESS, "DATA_PREPROCESS.dev.TDT.",
	    &data, &len) == 0) {
		free(data);
		return -1;
	}
	if (len > 0 && job_files_table(j, NULL, "tdt", cols, 5) != 0) {
		free(data);
		return -1;
	}
	for (p = data; p < data + len; p = end + 1) {
		if ((end = memchr(p, '\0', (size_t)(data + len - p))) == NULL)
			end = data + len;
		if (end == p)
			continue;
		if (end < data + len)
			*end = '\0';	/* the buffer ends in a NUL already */
		if (job_tdt_record(j, p))
			n++;
		else if (bad++ == 0)
			first = p - data;
	}
	if (bad > 0)
		store_load_warning(j->s, job_tdt_first(j), first, "%lld TDT "
		    "record%s not of the form '[time] event, key:value, ...' "
		    "skipped", (long long)bad, bad == 1 ? "" : "s");
	free(data);
	return n;
}
