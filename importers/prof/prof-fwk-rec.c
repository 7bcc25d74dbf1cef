/*
 * What every decoder of FRAMEWORK/ records shares (torch_npu's in
 * prof-fwk.c, prof-fwk-py.c, prof-fwk-mem.c, MindSpore's in
 * prof-fwk-ms.c): opening a file, reading its TLV records and fields, the
 * records' clock, loading a span on its thread's lane or a flow, JSON
 * text for args, and the warnings that count what a file's records
 * lacked, each with the file and the offset of its first case.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* Open a FRAMEWORK file; NULL (warned) if it cannot be read. */
FILE *
prof_fwk_rec_open(struct prof_fwk *fw, const char *path)
{
	FILE	*f;

	/* Not blocking: a FIFO named like a record file is refused. */
	if ((f = util_fopen_input(path)) == NULL) {
		store_load_warning(fw->s, path, -1, "cannot open: %s",
		    util_input_error(errno));
		return NULL;
	}
	store_load_file(fw->s, path);
	return f;
}

/* Append S to B as the body of a JSON string. */
void
prof_fwk_rec_json(struct strbuf *b, const char *s, bool split)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			strbuf_adds(b, "\\\"");
			break;
		case '\\':
			strbuf_adds(b, "\\\\");
			break;
		case '\n':
			strbuf_adds(b, "\\n");
			break;
		case '\r':
			strbuf_adds(b, "\\r");
			break;
		case '\t':
			strbuf_adds(b, "\\t");
			break;
		case ';':
			strbuf_adds(b, split ? ";\\r\\n" : ";");
			break;
		default:
			if (*p < 0x20)
				strbuf_addf(b, "\\u%04x", *p);
			else
				strbuf_addc(b, (char)*p);
			break;
		}
	}
}

/*
 * V as an int64_t; -1, a time no span can have (prof_meta_sane() says
 * so), when it does not fit: damaged stamps are then skipped and counted.
 */
static int64_t
prof_fwk_rec_clamp(__int128 v)
{
	if (v < 0 || v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* A framework time stamp as epoch ns, -1 if it cannot be one. */
int64_t
prof_fwk_rec_ns(const struct prof_fwk *fw, uint64_t raw)
{
	__int128	 mono;

	if (!fw->syscnt)
		return prof_fwk_rec_clamp((__int128)(int64_t)raw +
		    fw->local_off);
	/* MindSpore 2.3 anchors its ticks to its own epoch time. */
	if (fw->ms_anchor)
		return prof_fwk_rec_clamp((__int128)(int64_t)(raw -
		    fw->ms_cnt) * 1000 * fw->hm->host.den / fw->hm->host.num +
		    fw->ms_time);
	/*
	 * The host's clock pair, without the cntvct_diff correction the
	 * CANN records get: torch_npu's analysis leaves it out.
	 */
	if (fw->hm->host.num != 0 && fw->hm->has_host_start)
		mono = (__int128)(int64_t)(raw - (uint64_t)fw->hm->hs_cnt) *
		    1000 * fw->hm->host.den / fw->hm->host.num +
		    fw->hm->hs_mono;
	else
		mono = ((__int128)(int64_t)(raw - fw->start_cnt) * 1000) /
		    fw->freq_mhz + fw->start_mono;
	return prof_fwk_rec_clamp(mono + fw->local_off);
}

/* Load one span. */
void
prof_fwk_rec_span(struct prof_fwk *fw, uint64_t pid, uint64_t tid,
    int64_t start, int64_t end, const char *level, const char *name,
    const char *args)
{
	struct store_api	 a;

	if (end < start || !prof_meta_sane(start) || !prof_meta_sane(end)) {
		if (fw->bad_times++ == 0)
			fw->bad_times_at = fw->at;
		return;
	}
	memset(&a, 0, sizeof a);
	a.device = NP_HOST_DEVICE;
	a.rank = fw->rank;
	a.pid = (int64_t)pid;
	a.tid = (int64_t)tid;
	a.start_ns = start;
	a.end_ns = end;
	a.conn = a.depth = a.parent = NP_NA;
	a.level = level;
	a.name = name;
	a.args = args;
	store_load_api(fw->s, &a);
	prof_fwk_rec_thread(fw, pid, tid);
}

static bool
prof_fwk_rec_lane_same(const void *arg, uint64_t v)
{
	const struct prof_fwk	*fw = arg;

	return fw->lanes[v].pid == fw->want.pid &&
	    fw->lanes[v].tid == fw->want.tid;
}

/* Remember that thread TID of process PID has spans: its lane is named. */
void
prof_fwk_rec_thread(struct prof_fwk *fw, uint64_t pid, uint64_t tid)
{
	uint64_t	 key, v;

	fw->want.pid = pid;
	fw->want.tid = tid;
	fw->want.proc = fw->proc;
	key = pid * 0x9e3779b97f4a7c15ULL ^ tid;
	if (util_map_probe(&fw->lane_map, &key, prof_fwk_rec_lane_same, fw, &v))
		return;
	fw->lanes = util_grow(fw->lanes, fw->nlanes, 1, sizeof *fw->lanes);
	fw->lanes[fw->nlanes] = fw->want;
	util_map_set(&fw->lane_map, key, fw->nlanes++);
}

/*
 * Report what was counted and not loaded in the file PATH just decoded,
 * each with the offset of its first case, and start the counts again.
 */
void
prof_fwk_rec_report(struct prof_fwk *fw, const char *path)
{
	if (fw->short_recs > 0)
		store_load_warning(fw->s, path, fw->short_at, "%lld records "
		    "shorter than their fixed part, the first here: skipped",
		    (long long)fw->short_recs);
	if (fw->cut_at >= 0)
		store_load_warning(fw->s, path, fw->cut_at, "a record's fields "
		    "run past its end: the fields before are kept");
	if (fw->bad_ops > 0)
		store_load_warning(fw->s, path, fw->bad_op_at, "%lld op range "
		    "records of no known layout (no name field after a "
		    "57- or 58-byte fixed part), the first here: skipped",
		    (long long)fw->bad_ops);
	if (fw->unpaired[0] > 0)
		store_load_warning(fw->s, path, fw->unpaired_at[0], "%lld "
		    "enqueue ends without a start, the first here: skipped",
		    (long long)fw->unpaired[0]);
	if (fw->unpaired[1] > 0)
		store_load_warning(fw->s, path, fw->unpaired_at[1], "%lld "
		    "dequeue ends without a start, the first here: skipped",
		    (long long)fw->unpaired[1]);
	if (fw->bad_cats > 0)
		store_load_warning(fw->s, path, fw->bad_cats_at, "%lld task "
		    "queue marks of an unknown category, the first here: "
		    "skipped", (long long)fw->bad_cats);
	if (fw->bad_times > 0)
		store_load_warning(fw->s, path, fw->bad_times_at, "%lld spans "
		    "ending before they start, or with times out of range, "
		    "the first here: skipped", (long long)fw->bad_times);
	if (fw->bad_tags > 0)
		store_load_warning(fw->s, path, fw->bad_tags_at, "%lld events "
		    "of an unknown tag, the first here: skipped",
		    (long long)fw->bad_tags);
	fw->short_recs = fw->bad_ops = fw->bad_cats = fw->bad_times = 0;
	fw->bad_tags = fw->unpaired[0] = fw->unpaired[1] = 0;
	fw->cut_at = fw->at = -1;
}

/*
 * Read the next TLV record of PATH (open as F, at *OFF) of type TYPE (any
 * if TYPE is -1) into *BUF. Return its length, 0 at the end, -1 (warned
 * once) when the rest of the file cannot be read: a cut record, another
 * type or a record over FWK_MAX_RECORD. A record of no bytes is
 * counted with the short ones and passed over, not taken for the end;
 * or, if FW's empty_ok, returned as FWK_REC_EMPTY.
 */
ssize_t
prof_fwk_rec_next(struct prof_fwk *fw, FILE *f, const char *path, int type,
    unsigned char **buf, size_t *size, int64_t *off)
{
	unsigned char	 head[6];
	size_t		 got;
	uint32_t	 len;
	int		 t;

again:
	got = fread(head, 1, sizeof head, f);
	if (got == 0)
		return 0;
	if (got < sizeof head) {
		store_load_warning(fw->s, path, *off, "record header cut "
		    "short (%zu of 6 bytes): the file ends there", got);
		return -1;
	}
	t = importer_le16(head);
	len = importer_le32(head + 2);
	if (len > FWK_MAX_RECORD) {
		store_load_warning(fw->s, path, *off, "record of %lu bytes, "
		    "over the %d MiB we read in one: the rest of the file is "
		    "skipped", (unsigned long)len, FWK_MAX_RECORD >> 20);
		return -1;
	}
	if (type >= 0 && t != type) {
		store_load_warning(fw->s, path, *off, "record of type %d and "
		    "%lu bytes where type %d was expected: the rest of the "
		    "file is skipped", t, (unsigned long)len, type);
		return -1;
	}
	if (len == 0 && fw->empty_ok) {
		*off += 6;
		return FWK_REC_EMPTY;
	}
	if (len == 0) {
		if (fw->short_recs++ == 0)
			fw->short_at = *off;
		*off += 6;
		goto again;
	}
	if (len > *size) {
		*buf = xreallocarray(*buf, len, 1);
		*size = len;
	}
	if ((got = fread(*buf, 1, len, f)) < len) {
		store_load_warning(fw->s, path, *off, "record cut short (%zu "
		    "of %lu bytes): it is skipped", got, (unsigned long)len);
		return -1;
	}
	*off += 6 + (int64_t)len;
	return (ssize_t)len;
}

/*
 * Find the string field TYPE in the fields P..P+LEN; return it as a
 * NUL-terminated copy in *OUT (freed by the caller), or false. *CUT is set
 * when the fields run past the record.
 */
bool
prof_fwk_rec_field(const unsigned char *p, size_t len, int type, char **out,
    bool *cut)
{
	size_t		 i = 0;
	uint32_t	 n;

	while (i < len) {
		if (len - i < 6) {
			*cut = true;
			return false;
		}
		n = importer_le32(p + i + 2);
		if (n > len - i - 6) {
			*cut = true;
			return false;
		}
		if (importer_le16(p + i) == type) {
			*out = xstrndup((const char *)p + i + 6, n);
			return true;
		}
		i += 6 + n;
	}
	return false;
}

/*
 * True if the N bytes at S are UTF-8, a NUL byte included (MindSpore
 * reads a field that is not as N/A).
 */
bool
prof_fwk_rec_utf8(const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 k;

	for (; n > 0; u += k, n -= k)
		if ((k = util_utf8_len(u, n)) == 0)
			return false;
	return true;
}

/* Count one more problem in T, at offset AT if it is the first. */
void
prof_tally_add(struct prof_tally *t, int64_t at)
{
	if (t->n++ == 0)
		t->at = at;
}

/* Load a flow event. */
void
prof_fwk_rec_flow(struct prof_fwk *fw, uint64_t pid, uint64_t tid, int64_t ts,
    uint64_t id, const char *cat, const char *name, const char *phase)
{
	struct store_flow	 fl;
	char			 buf[24];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)id);
	memset(&fl, 0, sizeof fl);
	fl.device = NP_HOST_DEVICE;
	fl.rank = fw->rank;
	fl.pid = (int64_t)pid;
	fl.tid = (int64_t)tid;
	fl.ts_ns = ts;
	fl.id = buf;
	fl.cat = cat;
	fl.name = name;
	fl.phase = phase;
	fl.bp = "e";
	store_trace_load_flow(fw->s, &fl);
}
