/*
 * torch_npu's own records in the FRAMEWORK/ folder beside the raw PROF_*
 * collection of a profile that was never analysed (doc/formats.md section
 * 3.11): PyTorch op ranges, the task queue's enqueue and dequeue marks,
 * Python tracer calls with their names, GC pauses. They become the host
 * spans, flows and lanes the analysed twin's trace_view.json gives: level
 * python for ops, enqueue and dequeue for the queue, python_function for
 * the tracer, GC for the pauses. The Python tracer's replay is in
 * prof-fwk-py.c, the memory records in prof-fwk-mem.c, the parameters of
 * module and optimizer calls (param_tensor_info) in prof-fwk-params.c.
 * MindSpore's op ranges, in the same folder of a MindSpore profile, are
 * decoded by prof-fwk-ms.c.
 */
#include <sys/types.h>
#include <unistd.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "prof-int.h"

#define FWK_MARK_FIXED	40
#define FWK_GC_SIZE	24

/* Record types of the TLV files (the outer T). */
enum {
	FWK_T_OP = 1,
	FWK_T_MARK = 2,
	FWK_T_MEMORY = 3,
	FWK_T_HASH = 4
};

/*
 * The op range layouts, newest first: the fixed part's size and the field
 * numbers of the name and of what args print, in the vendor's order
 * (Input Dims, Input type, Call stack, Module Hierarchy, flops).
 */
static const struct {
	size_t		 fixed;
	int		 name;
	int		 args[5];
} prof_fwk_layouts[] = {
	{ .fixed = 58, .name = 2, .args = { 4, 3, 8, 9, 10 } },
	/* Before the renumbering. */
	{ .fixed = 58, .name = 3, .args = { 5, 4, 8, 9, 10 } },
	/* Before the scope byte. */
	{ .fixed = 57, .name = 3, .args = { 5, 4, 6, 7, 8 } }
};

static const struct {
	const char	*key;
	bool		 split;		/* ';' becomes ";\r\n" */
} prof_fwk_op_args[] = {
	{ .key = "Input Dims", .split = true },
	{ .key = "Input type", .split = true },
	{ .key = "Call stack", .split = true },
	{ .key = "Module Hierarchy", .split = false },
	{ .key = "flops", .split = false }
};

/* A task queue mark. */
struct fwk_mark {
	int64_t		 ts;
	uint64_t	 cat;
	uint64_t	 corr;
	uint64_t	 tid;
	uint64_t	 pid;
	char		*name;
	size_t		 idx;		/* file order, for a stable sort */
	int64_t		 off;		/* in the file */
	int64_t		 start;		/* of the pair, for an end */
};

/* The latest forward or backward op of a sequence number. */
struct fwk_fwd {
	int64_t		 seq;
	int64_t		 ts[2];		/* forward, backward; INT64_MIN */
	uint64_t	 pid[2];
	uint64_t	 tid[2];
};

static int
prof_fwk_mark_cmp(const void *a, const void *b)
{
	const struct fwk_mark	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
prof_fwk_corr_cmp(const void *a, const void *b)
{
	const struct fwk_mark	*x = *(const struct fwk_mark *const *)a;
	const struct fwk_mark	*y = *(const struct fwk_mark *const *)b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Read the marks of PATH; return their count. */
static size_t
prof_fwk_marks_read(struct prof_fwk *fw, const char *path,
    struct fwk_mark **out)
{
	struct fwk_mark	*v = NULL, *m;
	unsigned char	*buf = NULL;
	size_t		 size = 0, n = 0;
	ssize_t		 len;
	int64_t		 off = 0, at;
	bool		 cut = false;
	FILE		*f;

	*out = NULL;
	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return 0;
	for (;;) {
		at = off;
		if ((len = prof_fwk_rec_next(fw, f, path, FWK_T_MARK, &buf,
		    &size, &off)) <= 0)
			break;
		if (len < FWK_MARK_FIXED) {
			if (fw->short_recs++ == 0)
				fw->short_at = at;
			continue;
		}
		v = util_grow(v, n, 1, sizeof *v);
		m = &v[n];
		memset(m, 0, sizeof *m);
		m->off = at;
		m->ts = prof_fwk_rec_ns(fw, importer_le64(buf));
		m->cat = importer_le64(buf + 8);
		m->corr = importer_le64(buf + 16);
		m->tid = importer_le64(buf + 24);
		m->pid = importer_le64(buf + 32);
		if (!prof_fwk_rec_field(buf + FWK_MARK_FIXED, (size_t)len -
		    FWK_MARK_FIXED, 1, &m->name, &cut))
			m->name = xstrdup("");
		if (cut && fw->cut_at < 0)
			fw->cut_at = at;
		m->idx = n++;
	}
	free(buf);
	fclose(f);
	*out = v;
	return n;
}

/* Compare the queue side, thread and name of two marks. */
static int
prof_fwk_group_cmp_key(const struct fwk_mark *x, const struct fwk_mark *y)
{
	if ((x->cat >= 2) != (y->cat >= 2))
		return x->cat >= 2 ? 1 : -1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
prof_fwk_group_cmp(const void *a, const void *b)
{
	const struct fwk_mark	*x = *(const struct fwk_mark *const *)a;
	const struct fwk_mark	*y = *(const struct fwk_mark *const *)b;
	int			 c;

	if ((c = prof_fwk_group_cmp_key(x, y)) != 0)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Pair each end mark with the latest start of its queue side, thread and
 * name since the last pair, as the vendor does: older starts are dropped.
 * A paired end gets its start time; an end without one is counted.
 */
static void
prof_fwk_marks_pair(struct prof_fwk *fw, struct fwk_mark *v, size_t n)
{
	struct fwk_mark	**g, *open = NULL;
	size_t		  i;
	int		  k;

	g = xcalloc(n > 0 ? n : 1, sizeof *g);
	for (i = 0; i < n; i++) {
		v[i].start = INT64_MIN;
		g[i] = &v[i];
	}
	if (n > 1)
		qsort(g, n, sizeof *g, prof_fwk_group_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || prof_fwk_group_cmp_key(g[i - 1], g[i]) != 0)
			open = NULL;
		if (g[i]->cat > 3) {
			if (fw->bad_cats++ == 0 || g[i]->off < fw->bad_cats_at)
				fw->bad_cats_at = g[i]->off;
			continue;
		}
		if (g[i]->cat % 2 == 0) {
			open = g[i];
			continue;
		}
		if (open == NULL) {
			k = g[i]->cat >= 2;
			if (fw->unpaired[k]++ == 0 ||
			    g[i]->off < fw->unpaired_at[k])
				fw->unpaired_at[k] = g[i]->off;
			continue;
		}
		g[i]->start = open->ts;
		open = NULL;
	}
	free(g);
}

/* Find the dequeue end of correlation id CORR in the sorted BY; or NULL. */
static struct fwk_mark *
prof_fwk_dequeue(struct fwk_mark **by, size_t n, uint64_t corr)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (by[mid]->corr < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The vendor keeps the last dequeue of an id. */
	if (lo >= n || by[lo]->corr != corr)
		return NULL;
	while (lo + 1 < n && by[lo + 1]->corr == corr)
		lo++;
	return by[lo];
}

/* The task queue: enqueue and dequeue spans, and the flows between them. */
static void
prof_fwk_marks(struct prof_fwk *fw, const char *path)
{
	struct fwk_mark	 *v, **deq = NULL, *d;
	struct strbuf	  name;
	size_t		  n, i, nd = 0;
	char		  args[64];

	n = prof_fwk_marks_read(fw, path, &v);
	if (n > 1)
		qsort(v, n, sizeof *v, prof_fwk_mark_cmp);
	prof_fwk_marks_pair(fw, v, n);
	for (i = 0; i < n; i++) {
		if (v[i].cat != 3 || v[i].start == INT64_MIN)
			continue;
		deq = util_grow(deq, nd, 1, sizeof *deq);
		deq[nd++] = &v[i];
	}
	if (nd > 1)
		qsort(deq, nd, sizeof *deq, prof_fwk_corr_cmp);
	strbuf_init(&name);
	for (i = 0; i < n; i++) {
		if ((v[i].cat != 1 && v[i].cat != 3) || v[i].start ==
		    INT64_MIN)
			continue;
		snprintf(args, sizeof args, "{\"correlation_id\":%llu}",
		    (unsigned long long)v[i].corr);
		fw->at = v[i].off;
		strbuf_reset(&name);
		if (v[i].cat == 3) {
			strbuf_addf(&name, "Dequeue@%s", v[i].name);
			prof_fwk_rec_span(fw, v[i].pid, v[i].tid, v[i].start,
			    v[i].ts, "dequeue", name.s, args);
			prof_fwk_rec_flow(fw, v[i].pid, v[i].tid, v[i].start,
			    v[i].corr, "async_task_queue",
			    "enqueue_to_dequeue", "f");
			continue;
		}
		strbuf_adds(&name, "Enqueue");
		if ((d = prof_fwk_dequeue(deq, nd, v[i].corr)) != NULL)
			strbuf_addf(&name, "@%s", d->name);
		prof_fwk_rec_span(fw, v[i].pid, v[i].tid, v[i].start, v[i].ts,
		    "enqueue", name.s, args);
		prof_fwk_rec_flow(fw, v[i].pid, v[i].tid, v[i].start, v[i].corr,
		    "async_task_queue", "enqueue_to_dequeue", "s");
	}
	strbuf_release(&name);
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(deq);
}

/*
 * The layout of the op range record P (LEN bytes): the one after whose
 * fixed part its name field comes first and fits; -1 if none does.
 */
static int
prof_fwk_op_layout(const unsigned char *p, size_t len)
{
	size_t	 i, f;

	for (i = 0; i < sizeof prof_fwk_layouts / sizeof *prof_fwk_layouts;
	    i++) {
		f = prof_fwk_layouts[i].fixed;
		if (len >= f + 6 && importer_le16(p + f) ==
		    prof_fwk_layouts[i].name && importer_le32(p + f + 2) <=
		    len - f - 6)
			return (int)i;
	}
	return -1;
}

/* Note an op of sequence number SEQ for the forward-backward flows. */
static void
prof_fwk_fwd(struct prof_fwk *fw, int64_t seq, uint64_t fwd_tid,
    uint64_t pid, uint64_t tid, int64_t ts)
{
	struct fwk_fwd	*e;
	uint64_t	 at;
	int		 k = fwd_tid == 0 ? 0 : 1;

	if (seq < 0)
		return;
	if (util_map_get(&fw->seqs, (uint64_t)seq, &at))
		e = &fw->fwd[at];
	else {
		fw->fwd = util_grow(fw->fwd, fw->nfwd, 1, sizeof *fw->fwd);
		util_map_set(&fw->seqs, (uint64_t)seq, fw->nfwd);
		e = &fw->fwd[fw->nfwd++];
		e->seq = seq;
		e->ts[0] = e->ts[1] = INT64_MIN;
	}
	if (e->ts[k] < ts) {
		e->ts[k] = ts;
		e->pid[k] = pid;
		e->tid[k] = tid;
	}
}

/* One op range record (LEN bytes at P). */
static void
prof_fwk_op(struct prof_fwk *fw, const unsigned char *p, size_t len,
    int64_t at, struct strbuf *args)
{
	char		*name = NULL, *v;
	size_t		 fixed, i;
	int64_t		 start, end, seq;
	uint64_t	 pid, tid, fwd;
	int		 k;
	bool		 cut = false;

	fw->at = at;
	if ((k = prof_fwk_op_layout(p, len)) < 0) {
		if (fw->bad_ops++ == 0)
			fw->bad_op_at = at;
		return;
	}
	fixed = prof_fwk_layouts[k].fixed;
	start = prof_fwk_rec_ns(fw, importer_le64(p));
	end = prof_fwk_rec_ns(fw, importer_le64(p + 8));
	seq = (int64_t)importer_le64(p + 16);
	pid = importer_le64(p + 24);
	tid = importer_le64(p + 32);
	fwd = importer_le64(p + 48);
	(void)prof_fwk_rec_field(p + fixed, len - fixed,
	    prof_fwk_layouts[k].name, &name, &cut);
	strbuf_reset(args);
	strbuf_addf(args, "{\"Sequence number\":%lld,\"Fwd thread id\":%llu",
	    (long long)seq, (unsigned long long)fwd);
	for (i = 0; i < sizeof prof_fwk_op_args / sizeof *prof_fwk_op_args;
	    i++) {
		if (!prof_fwk_rec_field(p + fixed, len - fixed,
		    prof_fwk_layouts[k].args[i], &v, &cut))
			continue;
		strbuf_addf(args, ",\"%s\":\"", prof_fwk_op_args[i].key);
		prof_fwk_rec_json(args, v, prof_fwk_op_args[i].split);
		strbuf_addc(args, '"');
		free(v);
	}
	strbuf_addc(args, '}');
	if (cut && fw->cut_at < 0)
		fw->cut_at = at;
	prof_fwk_rec_span(fw, pid, tid, start, end, "python", name != NULL ?
	    name : "", args->s);
	prof_fwk_fwd(fw, seq, fwd, pid, tid, start);
	fw->ops++;
	free(name);
}

/* The op ranges of PATH. */
static void
prof_fwk_ops(struct prof_fwk *fw, const char *path)
{
	unsigned char	*buf = NULL;
	struct strbuf	 args;
	size_t		 size = 0;
	ssize_t		 len;
	int64_t		 off = 0, at;
	FILE		*f;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	strbuf_init(&args);
	for (;;) {
		at = off;
		if ((len = prof_fwk_rec_next(fw, f, path, FWK_T_OP, &buf, &size,
		    &off)) <= 0)
			break;
		prof_fwk_op(fw, buf, (size_t)len, at, &args);
	}
	strbuf_release(&args);
	free(buf);
	fclose(f);
}

/* Forward and backward ops of one sequence number, on two threads. */
static void
prof_fwk_fwd_flows(struct prof_fwk *fw)
{
	struct fwk_fwd	*e;
	size_t		 i;

	for (i = 0; i < fw->nfwd; i++) {
		e = &fw->fwd[i];
		if (e->ts[0] == INT64_MIN || e->ts[1] == INT64_MIN ||
		    e->tid[0] == e->tid[1])
			continue;
		prof_fwk_rec_flow(fw, e->pid[0], e->tid[0], e->ts[0],
		    (uint64_t)e->seq, "fwdbwd", "fwdbwd", "s");
		prof_fwk_rec_flow(fw, e->pid[1], e->tid[1], e->ts[1],
		    (uint64_t)e->seq, "fwdbwd", "fwdbwd", "f");
	}
}

/* The GC pauses of PATH: 24-byte records of pid, start and end. */
static void
prof_fwk_gc(struct prof_fwk *fw, const char *path)
{
	unsigned char	 rec[FWK_GC_SIZE];
	size_t		 got;
	int64_t		 off = 0;
	uint64_t	 pid, gpid;
	FILE		*f;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	while ((got = fread(rec, 1, sizeof rec, f)) == sizeof rec) {
		fw->at = off;
		pid = importer_le64(rec);
		/* The vendor's process for GC: pid, sort index 1, device. */
		gpid = pid << 10 | 1 << 5 | (uint64_t)(fw->device & 31);
		prof_fwk_rec_span(fw, gpid, pid, prof_fwk_rec_ns(fw,
		    importer_le64(rec + 8)), prof_fwk_rec_ns(fw,
		    importer_le64(rec + 16)), "GC", "GC", NULL);
		if (fw->gc_pid == 0)
			fw->gc_pid = gpid;
		off += FWK_GC_SIZE;
	}
	if (got > 0)
		store_load_warning(fw->s, path, off, "last record cut short "
		    "(%zu of %d bytes): skipped", got, FWK_GC_SIZE);
	fclose(f);
}

/*
 * The first readable profiler_info*.json of TOP, parsed; NULL if none.
 * The files that cannot be read or parsed are warned about if WARN.
 */
static yajl_val
prof_fwk_info_json(struct store *s, const char *top, bool warn)
{
	char		**names, *path, *data, *why = NULL, err[128];
	size_t		  n, i;
	yajl_val	  root = NULL;

	names = util_dir_list(top, &n);
	for (i = 0; i < n && root == NULL; i++) {
		if (!util_has_prefix(names[i], "profiler_info") ||
		    !util_has_suffix(names[i], ".json"))
			continue;
		path = util_path_join(top, names[i]);
		if (util_read_file(path, &data, NULL, 1 << 20, &why) != 0) {
			if (warn)
				store_load_warning(s, path, -1, "%s", why);
			free(why);
			why = NULL;
		} else {
			if ((root = json_tree_parse(data, err, sizeof err)) ==
			    NULL && warn)
				store_load_warning(s, path, -1, "not JSON: "
				    "%.*s", (int)strcspn(err, "\n"), err);
			free(data);
		}
		free(path);
	}
	util_strv_free(names, n);
	return root;
}

/* Read profiler_info*.json in TOP: the clock the records were taken on. */
static void
prof_fwk_info(struct prof_fwk *fw, const char *top)
{
	const char	*p_sys[] = { "start_info", "syscnt_enable", NULL };
	const char	*p_freq[] = { "start_info", "freq", NULL };
	const char	*p_cnt[] = { "start_info", "start_cnt", NULL };
	const char	*p_mono[] = { "start_info", "start_monotonic", NULL };
	const char	*p_end[] = { "end_info", "collectionTimeEnd", NULL };
	const char	*p_emono[] = { "end_info", "MonotonicTimeEnd", NULL };
	yajl_val	 root, v, w;

	root = prof_fwk_info_json(fw->s, top, true);
	fw->freq_mhz = 100;
	fw->local_off = fw->hm->local_off;
	if (root == NULL) {
		store_load_warning(fw->s, top, -1, "no readable "
		    "profiler_info*.json: PyTorch times are taken as "
		    "monotonic ns%s", fw->hm->has_start ? "" : " and as "
		    "epoch ns (no CANN host start either)");
		return;
	}
	v = yajl_tree_get(root, p_sys, yajl_t_true);
	fw->syscnt = v != NULL;
	/* A frequency in MHz; beyond 100 GHz the file is damaged. */
	if ((v = yajl_tree_get(root, p_freq, yajl_t_number)) != NULL &&
	    YAJL_GET_DOUBLE(v) >= 1 && YAJL_GET_DOUBLE(v) <= 100000)
		fw->freq_mhz = (int64_t)YAJL_GET_DOUBLE(v);
	if ((v = yajl_tree_get(root, p_cnt, yajl_t_number)) != NULL &&
	    YAJL_IS_INTEGER(v))
		fw->start_cnt = (uint64_t)YAJL_GET_INTEGER(v);
	if ((v = yajl_tree_get(root, p_mono, yajl_t_number)) != NULL &&
	    YAJL_IS_INTEGER(v))
		fw->start_mono = YAJL_GET_INTEGER(v);
	/* Without the CANN host's start, the end's pair gives the offset. */
	v = yajl_tree_get(root, p_end, yajl_t_number);
	w = yajl_tree_get(root, p_emono, yajl_t_number);
	if (!fw->hm->has_start && v != NULL && w != NULL &&
	    YAJL_IS_INTEGER(v) && YAJL_IS_INTEGER(w) &&
	    prof_meta_sane(YAJL_GET_INTEGER(v)) &&
	    prof_meta_sane(YAJL_GET_INTEGER(w)))
		fw->local_off = YAJL_GET_INTEGER(v) - YAJL_GET_INTEGER(w);
	yajl_tree_free(root);
}

/* Name the lanes the spans went to, as the analysed trace does. */
static void
prof_fwk_lanes(struct prof_fwk *fw)
{
	char		 buf[40];
	int64_t		 pid, tid;
	size_t		 i;
	bool		 gc;

	for (i = 0; i < fw->nlanes; i++) {
		pid = (int64_t)fw->lanes[i].pid;
		tid = (int64_t)fw->lanes[i].tid;
		gc = fw->gc_pid != 0 && fw->lanes[i].pid == fw->gc_pid;
		store_trace_load_lane(fw->s, NP_HOST_DEVICE, fw->rank, pid,
		    NP_NA, "name", gc ? "Python GC" : fw->lanes[i].proc !=
		    NULL ? fw->lanes[i].proc : "Python");
		snprintf(buf, sizeof buf, "Thread %lld", (long long)tid);
		store_trace_load_lane(fw->s, NP_HOST_DEVICE, fw->rank, pid,
		    tid, "name", gc ? "Python GC" : buf);
	}
}

/* Which decoder a FRAMEWORK file's name asks for. */
enum fwk_kind {
	FWK_NONE,
	FWK_OPS,
	FWK_MARKS,
	FWK_GC,
	FWK_PY_FUNC,
	FWK_PY_HASH,
	FWK_MEMORY,
	FWK_PARAMS,
	FWK_MS_OPS,		/* MindSpore's kinds from here on */
	FWK_MS_OLD,
	FWK_MS_MEM,
	FWK_MS_REC,
	FWK_MS_SHAPES,
	FWK_MS_CPU,
	FWK_MS_DATA,
	FWK_MS_DATA_PART	/* read with the pipeline's file */
};

static enum fwk_kind
prof_fwk_kind(const char *name)
{
	/* MindSpore opens its files by their exact names. */
	static const struct {
		const char	*prefix;
		enum fwk_kind	 kind;
		bool		 exact;
	} kinds[] = {
		{ .prefix = "torch.op_range", .kind = FWK_OPS },
		{ .prefix = "torch.op_mark", .kind = FWK_MARKS },
		{ .prefix = "torch.gc_record", .kind = FWK_GC },
		{ .prefix = "torch.python_tracer_func", .kind = FWK_PY_FUNC },
		{ .prefix = "torch.python_tracer_hash", .kind = FWK_PY_HASH },
		{ .prefix = "torch.memory_usage", .kind = FWK_MEMORY },
		{ .prefix = "torch.param_tensor_info", .kind = FWK_PARAMS },
		{ .prefix = "mindspore.op_range", .kind = FWK_MS_OPS,
		    .exact = true },
		{ .prefix = "op_range_", .kind = FWK_MS_OLD },
		{ .prefix = "mindspore.memory_usage", .kind = FWK_MS_MEM,
		    .exact = true },
		{ .prefix = "cpu_ms_memory_record_", .kind = FWK_MS_REC },
		{ .prefix = "mindspore.record_shapes", .kind = FWK_MS_SHAPES,
		    .exact = true },
		{ .prefix = "cpu_op_execute_timestamp_", .kind = FWK_MS_CPU },
		{ .prefix = "pipeline_profiling_", .kind = FWK_MS_DATA },
		{ .prefix = "minddata_cpu_utilization_",
		    .kind = FWK_MS_DATA_PART },
		{ .prefix = "device_queue_profiling_",
		    .kind = FWK_MS_DATA_PART },
		{ .prefix = "dataset_iterator_profiling_",
		    .kind = FWK_MS_DATA_PART }
	};
	size_t	 i;

	for (i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (kinds[i].exact ? strcmp(name, kinds[i].prefix) == 0 :
		    util_has_prefix(name, kinds[i].prefix))
			return kinds[i].kind;
	return FWK_NONE;
}

/*
 * Keep *PATH (taken) as the tracer file of its kind in *KEPT; a second
 * file of the kind is warned about and not read.
 */
static void
prof_fwk_py_file(struct store *s, const char *name, char **path,
    char **kept)
{
	if (*kept == NULL) {
		*kept = *path;
		*path = NULL;
		return;
	}
	store_load_warning(s, *path, -1, "a second Python tracer file of "
	    "its kind (%s already read): not read", util_basename(*kept));
	(void)name;
}

/* True if version V is release R ("2.5") or one of its ("2.5.0"). */
static bool
prof_fwk_ms_is(const char *v, const char *r)
{
	size_t	 n = strlen(r);

	return strncmp(v, r, n) == 0 && (v[n] == '\0' || v[n] == '.');
}

/*
 * FRAMEWORK/op_range_<rank> at PATH, in the layout of the version FW's
 * profiler_info*.json says: 2.4's and 2.5's, 2.3's (through 2.3's clock
 * pair) or that of 2.3's release candidates (through the pair if the
 * file has it, as 2.3.0rc2 writes it, else the CANN host's clock, as
 * 2.4 converts: rc1 takes the pair the analysing machine reads when it
 * runs, which no file keeps); return that version (PROF_MS_23RC to 25),
 * 0 if not read (warned: another version, none, or 2.3 without its
 * clock pair).
 */
static int
prof_fwk_ms_old(struct prof_fwk *fw, const char *path)
{
	const char	*ver = fw->ms_version;
	int		 v;

	if (prof_fwk_ms_is(ver, "2.5")) {
		prof_fwk_ms_load(fw, path, 25);
		return 25;
	}
	if (prof_fwk_ms_is(ver, "2.4")) {
		prof_fwk_ms_load(fw, path, 24);
		return 24;
	}
	if (prof_fwk_ms_is(ver, "2.3")) {
		v = strstr(ver, "rc") != NULL ? PROF_MS_23RC : 23;
		if (!fw->ms_pair && v == 23) {
			store_load_warning(fw->s, path, -1, "MindSpore %s op "
			    "ranges without system_cnt and system_time in "
			    "profiler_info*.json: their times cannot be "
			    "converted, the file is not read", ver);
			return 0;
		}
		fw->ms_anchor = fw->ms_pair;
		prof_fwk_ms_load(fw, path, v);
		fw->ms_anchor = false;
		return v;
	}
	store_load_warning(fw->s, path, -1, "MindSpore %s op ranges "
	    "(op_range_N) are not decoded: only the layouts of 2.3 (and its "
	    "release candidates), 2.4 and 2.5 are read", *ver != '\0' ? ver :
	    "(version unknown: no ms_version in profiler_info*.json)");
	return 0;
}

/*
 * FRAMEWORK/mindspore.memory_usage at PATH: the owner's name is field 3
 * for MindSpore 2.5's reader, 13 after.
 */
static void
prof_fwk_ms_mem(struct prof_fwk *fw, const char *path)
{
	prof_fwk_msmem_load(fw, path, prof_fwk_ms_is(fw->ms_version, "2.5") ?
	    3 : 13);
}

/*
 * What MindSpore's profiler_info*.json of TOP says, read once: into FW
 * its version (ms_version, "" if none says) and the clock pair system_cnt,
 * system_time when it has both (ms_pair; 2.3 converts its ticks through
 * them); into OUT profile_memory (ms_memory 0 if false, 1 if true, -1 if
 * not said), whether its activities leave out the CPU (ms_cpu_off), and
 * its rank (ms_rank).
 */
static void
prof_fwk_ms_params(struct prof_fwk *fw, const char *top,
    struct prof_fwk_out *out)
{
	const char	*p_mem[] = { "profiler_parameters", "profile_memory",
			    NULL };
	const char	*p_act[] = { "profiler_parameters", "activities",
			    NULL };
	const char	*p_ver[] = { "ms_version", NULL };
	const char	*p_cnt[] = { "system_cnt", NULL };
	const char	*p_time[] = { "system_time", NULL };
	yajl_val	 root, v, a, t;
	char		**names, *end;
	size_t		  n, i, k = 0;
	long long	  r;

	/*
	 * MindSpore's rank_id is the N of its one profiler_info_N.json,
	 * else the collection's rank, else 0.
	 */
	out->ms_rank = NP_NA;
	names = util_dir_list(top, &n);
	for (i = 0; i < n; i++) {
		if (!util_has_prefix(names[i], "profiler_info_") ||
		    strspn(names[i] + 14, "0123456789") == 0)
			continue;
		r = strtoll(names[i] + 14, &end, 10);
		if (strcmp(end, ".json") == 0 && r >= 0 && k++ == 0)
			out->ms_rank = r;
	}
	util_strv_free(names, n);
	if (k > 1) {
		out->ms_rank = NP_NA;
		store_load_warning(fw->s, top, -1, "%zu profiler_info_N.json "
		    "files: MindSpore's rank is not known, the collection's "
		    "is taken for its memory records", k);
	}
	if (out->ms_rank == NP_NA)
		out->ms_rank = fw->rank >= 0 ? fw->rank : 0;
	out->ms_memory = -1;
	if ((root = prof_fwk_info_json(fw->s, top, false)) == NULL)
		return;
	if ((v = yajl_tree_get(root, p_ver, yajl_t_string)) != NULL)
		snprintf(fw->ms_version, sizeof fw->ms_version, "%s",
		    YAJL_GET_STRING(v));
	v = yajl_tree_get(root, p_cnt, yajl_t_number);
	t = yajl_tree_get(root, p_time, yajl_t_number);
	if (v != NULL && YAJL_IS_INTEGER(v) && t != NULL &&
	    YAJL_IS_INTEGER(t) && YAJL_GET_INTEGER(v) >= 0) {
		fw->ms_pair = true;
		fw->ms_cnt = (uint64_t)YAJL_GET_INTEGER(v);
		fw->ms_time = YAJL_GET_INTEGER(t);
	}
	if ((v = yajl_tree_get(root, p_mem, yajl_t_any)) != NULL &&
	    (YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v)))
		out->ms_memory = YAJL_IS_TRUE(v);
	if ((a = yajl_tree_get(root, p_act, yajl_t_array)) != NULL) {
		out->ms_cpu_off = true;
		for (i = 0; i < YAJL_GET_ARRAY(a)->len; i++) {
			v = YAJL_GET_ARRAY(a)->values[i];
			if (YAJL_IS_STRING(v) &&
			    strcmp(v->u.string, "CPU") == 0)
				out->ms_cpu_off = false;
		}
	}
	yajl_tree_free(root);
}

/* MindSpore's files of one rank, beside FRAMEWORK/ or in it. */
enum prof_fwk_msf {
	MSF_REC,		/* pool totals */
	MSF_CPU,		/* host CPU ops */
	MSF_DATA,		/* dataset pipeline */
	MSF_N
};

static const struct {
	const char	*prefix;	/* then the rank */
	const char	*suffix;
	const char	*what;
	bool		 cpu;		/* read only with CPU activity */
} prof_fwk_msfs[MSF_N] = {
	{ "cpu_ms_memory_record_", ".txt", "memory records", true },
	{ "cpu_op_execute_timestamp_", ".txt", "CPU ops", true },
	{ "pipeline_profiling_", ".json", "dataset pipeline", false }
};

/*
 * Decode *PATH, MindSpore's file K, into FW and OUT if it is the file of
 * MindSpore's rank (OUT's ms_rank) and, for those MindSpore reads only
 * then, the profile's activities have the CPU; another is warned about
 * and not read, as MindSpore reads only those. The pool totals take
 * *PATH. Return true if it was the rank's file.
 */
static bool
prof_fwk_ms_file(struct prof_fwk *fw, char **path, struct prof_fwk_out *out,
    enum prof_fwk_msf k)
{
	char	 want[64];

	snprintf(want, sizeof want, "%s%lld%s", prof_fwk_msfs[k].prefix,
	    (long long)out->ms_rank, prof_fwk_msfs[k].suffix);
	if (strcmp(util_basename(*path), want) != 0) {
		store_load_warning(fw->s, *path, -1, "MindSpore %s of another "
		    "rank (the rank's file is %s): not read",
		    prof_fwk_msfs[k].what, want);
		return false;
	}
	if (prof_fwk_msfs[k].cpu && out->ms_cpu_off) {
		store_load_warning(fw->s, *path, -1, "MindSpore %s of a profile "
		    "whose activities have no CPU: not read, as MindSpore "
		    "reads none", prof_fwk_msfs[k].what);
		return true;
	}
	switch (k) {
	case MSF_REC:
		prof_ms_mem_read(fw->s, *path, out);
		out->ms_path = *path;
		*path = NULL;
		break;
	case MSF_CPU:
		prof_fwk_mscpu_load(fw, *path);
		break;
	case MSF_DATA:
		prof_fwk_msdata_load(fw, *path, out->ms_rank,
		    !prof_fwk_ms_is(fw->ms_version, "2.3") &&
		    !prof_fwk_ms_is(fw->ms_version, "2.4"));
		break;
	case MSF_N:
		break;
	}
	return true;
}

/*
 * MindSpore 2.3 and 2.4 write their pool totals, CPU ops and dataset
 * pipeline beside FRAMEWORK/, in the profile's folder TOP: read the
 * rank's files there into FW and OUT, those FRAMEWORK/ did not have
 * (DONE says which it had).
 */
static void
prof_fwk_ms_top(struct prof_fwk *fw, const char *top,
    struct prof_fwk_out *out, const bool *done)
{
	char	 name[64], *path;
	int	 k;

	for (k = 0; k < MSF_N; k++) {
		if (done[k])
			continue;
		snprintf(name, sizeof name, "%s%lld%s", prof_fwk_msfs[k].prefix,
		    (long long)out->ms_rank, prof_fwk_msfs[k].suffix);
		path = util_path_join(top, name);
		if (access(path, F_OK) == 0)
			(void)prof_fwk_ms_file(fw, &path, out, k);
		free(path);
	}
}

/* True if one of the N NAMES of a FRAMEWORK/ folder is MindSpore's. */
static bool
prof_fwk_names_ms(char **names, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (prof_fwk_kind(names[i]) >= FWK_MS_OPS)
			return true;
	return false;
}

/* True if the FRAMEWORK/ folder DIR holds MindSpore's records. */
bool
prof_fwk_is_ms(const char *dir)
{
	char	**names;
	size_t	  n;
	bool	  ms;

	names = util_dir_list(dir, &n);
	ms = prof_fwk_names_ms(names, n);
	util_strv_free(names, n);
	return ms;
}

/*
 * Decode the FRAMEWORK/ folder DIR of the torch_npu profile TOP, whose CANN
 * host metadata is HM (zeroed if the collection has no host), for the
 * rank of CTX; DEVICE is the collection's first device of NDEVICES. Return
 * true if it held
 * PyTorch ops: the kernels then take their steps from them; *QUEUE is set
 * if it had task queue marks (torch_npu then counts a step's launches
 * through its enqueues only). *MEM takes the NPU memory records, for
 * memory_record once the device folders are read; the caller frees them.
 */
bool
prof_fwk_load(struct store *s, const char *top, const char *dir,
    const struct prof_meta *hm, const struct import_ctx *ctx,
    int64_t device, size_t ndevices, bool *queue, struct prof_fwk_out *mem)
{
	struct prof_fwk	 fw;
	char		**names, *path, *hash = NULL, *func = NULL;
	char		**params = NULL;
	struct fwk_names *nm = NULL;
	struct strbuf	  unknown;
	size_t		  n, i, nparams = 0, nunknown = 0, nparts = 0;
	bool		  done[MSF_N] = { false, false, false };

	*queue = false;
	memset(&fw, 0, sizeof fw);
	fw.s = s;
	fw.hm = hm;
	fw.rank = ctx->rank;
	fw.device = device == NP_NA ? 0 : device;
	fw.cut_at = fw.at = -1;
	fw.mem_device = NP_NA;
	util_map_init(&fw.lane_map);
	util_map_init(&fw.seqs);
	strbuf_init(&unknown);
	names = util_dir_list(dir, &n);
	/* MindSpore's records take the CANN host's clock, not torch_npu's. */
	if (prof_fwk_names_ms(names, n)) {
		mem->mindspore = true;
		prof_fwk_ms_params(&fw, top, mem);
		fw.freq_mhz = 100;
		fw.local_off = hm->local_off;
		store_load_meta(s, "framework", "MindSpore FRAMEWORK/ (raw)");
	} else {
		prof_fwk_info(&fw, top);
		store_load_meta(s, "framework", "torch_npu FRAMEWORK/ (raw)");
	}
	for (i = 0; i < n; i++) {
		path = util_path_join(dir, names[i]);
		switch (prof_fwk_kind(names[i])) {
		case FWK_OPS:
			prof_fwk_ops(&fw, path);
			prof_fwk_rec_report(&fw, path);
			break;
		case FWK_MARKS:
			prof_fwk_marks(&fw, path);
			prof_fwk_rec_report(&fw, path);
			*queue = true;
			break;
		case FWK_GC:
			prof_fwk_gc(&fw, path);
			prof_fwk_rec_report(&fw, path);
			break;
		case FWK_PY_FUNC:
		case FWK_PY_HASH:
			prof_fwk_py_file(s, names[i], &path, prof_fwk_kind(
			    names[i]) == FWK_PY_FUNC ? &func : &hash);
			break;
		case FWK_MEMORY:
			prof_fwk_mem_load(&fw, path, ndevices == 1 ? device :
			    NP_NA);
			prof_fwk_rec_report(&fw, path);
			break;
		case FWK_PARAMS:
			/* Named through the tracer's names: read after. */
			params = util_grow(params, nparams, 1,
			    sizeof *params);
			params[nparams++] = path;
			path = NULL;
			break;
		case FWK_MS_OPS:
			prof_fwk_ms_load(&fw, path, 26);
			mem->ms_ver = 26;
			break;
		case FWK_MS_OLD:
			mem->ms_ver = prof_fwk_ms_old(&fw, path);
			break;
		case FWK_MS_MEM:
			prof_fwk_ms_mem(&fw, path);
			break;
		case FWK_MS_REC:
			done[MSF_REC] |= prof_fwk_ms_file(&fw, &path, mem,
			    MSF_REC);
			break;
		case FWK_MS_SHAPES:
			prof_fwk_msshape_load(&fw, path);
			break;
		case FWK_MS_CPU:
			done[MSF_CPU] |= prof_fwk_ms_file(&fw, &path, mem,
			    MSF_CPU);
			break;
		case FWK_MS_DATA:
			done[MSF_DATA] |= prof_fwk_ms_file(&fw, &path, mem,
			    MSF_DATA);
			break;
		case FWK_MS_DATA_PART:
			nparts++;
			break;
		case FWK_NONE:
			/* Said once, all of them, after. */
			if (!util_has_suffix(names[i], ".done")) {
				strbuf_addf(&unknown, "%s%s", nunknown > 0 ?
				    ", " : "", names[i]);
				nunknown++;
			}
			break;
		}
		free(path);
	}
	util_strv_free(names, n);
	if (mem->mindspore)
		prof_fwk_ms_top(&fw, top, mem, done);
	if (nparts > 0 && !done[MSF_DATA])
		store_load_warning(s, dir, -1, "%zu dataset profiling files "
		    "(CPU use, device trace) but not the rank's "
		    "pipeline_profiling file: not read, as MindSpore reads "
		    "them only with it", nparts);
	if (nunknown > 0)
		store_load_warning(s, dir, -1, "%zu file%s of no kind we "
		    "know, not decoded: %s", nunknown, nunknown == 1 ? "" : "s",
		    unknown.s);
	strbuf_release(&unknown);
	if (hash != NULL)
		nm = prof_fwk_py_names_create(&fw, hash);
	if (func != NULL)
		prof_fwk_py_load(&fw, func, nm);
	else if (hash != NULL && nparams == 0)
		store_load_warning(s, hash, -1, "Python tracer names without "
		    "the calls (torch.python_tracer_func) or parameters: not "
		    "used");
	for (i = 0; i < nparams; i++)
		prof_fwk_params_load(&fw, params[i], nm);
	util_strv_free(params, nparams);
	prof_fwk_py_names_free(nm);
	prof_fwk_fwd_flows(&fw);
	prof_fwk_lanes(&fw);
	prof_fwk_mem_ops(&fw, dir, ndevices == 1 ? device : NP_NA);
	free(func);
	free(hash);
	free(fw.fwd);
	free(fw.lanes);
	mem->v = fw.mem;
	mem->n = fw.nmem;
	mem->path = fw.mem_path;
	mem->device = fw.mem_device;
	util_map_release(&fw.lane_map);
	util_map_release(&fw.seqs);
	return fw.ops > 0;
}
