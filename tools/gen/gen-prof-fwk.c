/*
 * torch_npu's FRAMEWORK/ records of a generated un-analysed profile (-Y,
 * doc/formats.md section 3.11), and the spans and flows expected of them.
 * Each generated op launch gets a PyTorch op around it, on its own thread
 * (even host threads) or, for odd threads, on a Python thread that
 * enqueues it for the launch thread to dequeue (torch_npu's task queue).
 * A module call and a forward call of the Python tracer wrap each op;
 * the ops of thread 1 are the backward ops of thread 0's (same sequence
 * numbers). Every seventh op range is written in the older 57-byte
 * layout; one tracer key has no name; the last module call never
 * returns; GC pauses run on the first thread.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_FWK_MODULE	"######"

/* One expected span. */
struct gen_fwk_span {
	const char	*level;
	char		*name;
	uint64_t	 pid;
	uint64_t	 tid;
	int64_t		 start;		/* mono ns */
	int64_t		 end;
	char		*args;
};

struct gen_fwk {
	struct gen_prof			*g;
	const struct gen_prof_clock	*c;
	uint64_t			 pid;
	struct gen_buf			 ops;
	struct gen_buf			 marks;
	struct gen_buf			 func;
	struct gen_buf			 hash;
	struct gen_buf			 gc;
	struct gen_fwk_span		*v;
	size_t				 n;
	struct strbuf			 flows;
	uint64_t			 corr;
};

static void
gen_fwk_span(struct gen_fwk *f, const char *level, const char *name,
    uint64_t pid, uint64_t tid, int64_t start, int64_t end, const char *args)
{
	struct gen_fwk_span	*s;

	f->v = util_grow(f->v, f->n, 1, sizeof *f->v);
	s = &f->v[f->n++];
	s->level = level;
	s->name = xstrdup(name);
	s->pid = pid;
	s->tid = tid;
	s->start = start;
	s->end = end;
	s->args = args != NULL ? xstrdup(args) : NULL;
}

/* A TLV field. */
static void
gen_fwk_field(struct gen_buf *b, uint16_t type, const char *s)
{
	gen_prof_bin_buf_u16(b, type);
	gen_prof_bin_buf_u32(b, (uint32_t)strlen(s));
	gen_prof_bin_buf_add(b, s, strlen(s));
}

/* An outer TLV record of TYPE holding REC. */
static void
gen_fwk_record(struct gen_buf *b, uint16_t type, struct gen_buf *rec)
{
	gen_prof_bin_buf_u16(b, type);
	gen_prof_bin_buf_u32(b, (uint32_t)rec->len);
	gen_prof_bin_buf_add(b, rec->p, rec->len);
	rec->len = 0;
}

/* A JSON string body with ';' as ";\r\n" when SPLIT. */
static void
gen_fwk_json(struct strbuf *b, const char *s, bool split)
{
	for (; *s != '\0'; s++) {
		if (*s == ';' && split)
			strbuf_adds(b, ";\\r\\n");
		else if (*s == '"' || *s == '\\') {
			strbuf_addc(b, '\\');
			strbuf_addc(b, *s);
		} else
			strbuf_addc(b, *s);
	}
}

/* A PyTorch op of thread TID over START..END. */
static void
gen_fwk_op(struct gen_fwk *f, const struct gen_prof_op *op, uint64_t tid,
    int64_t start, int64_t end, int64_t seq, uint64_t fwd_tid, int k,
    char *name, size_t size)
{
	struct gen_buf	 rec;
	struct strbuf	 args;
	char		 dims[64], stack[160];
	const char	*type = f->g->kinds[op->kind].type;
	bool		 old = k % 7 == 6;
	size_t		 i;

	memset(&rec, 0, sizeof rec);
	snprintf(name, size, "aten::%s", type);
	for (i = 6; name[i] != '\0'; i++)
		if (name[i] >= 'A' && name[i] <= 'Z')
			name[i] = (char)(name[i] - 'A' + 'a');
	snprintf(dims, sizeof dims, "%u,%d;%d", op->block_dim, 16 + k % 5,
	    1 + op->name);
	snprintf(stack, sizeof stack, "model.py(%d): forward;train.py(%d): "
	    "step;train.py(9): <module>", 40 + op->kind, 100 + k % 3);
	gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c, start));
	gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c, end));
	gen_prof_bin_buf_u64(&rec, (uint64_t)seq);
	gen_prof_bin_buf_u64(&rec, f->pid);
	gen_prof_bin_buf_u64(&rec, tid);
	gen_prof_bin_buf_u64(&rec, tid);
	gen_prof_bin_buf_u64(&rec, fwd_tid);
	if (!old)
		gen_prof_bin_buf_add(&rec, "\0", 1);	/* scope */
	gen_prof_bin_buf_add(&rec, "\0", 1);		/* is_async */
	gen_fwk_field(&rec, 2, name);
	gen_fwk_field(&rec, 3, "float;float");
	gen_fwk_field(&rec, 4, dims);
	gen_fwk_field(&rec, 8, stack);
	if (k % 2 == 0)
		gen_fwk_field(&rec, 9, "Net;Net.layer\"1\"");
	gen_fwk_record(&f->ops, 1, &rec);
	free(rec.p);

	strbuf_init(&args);
	strbuf_addf(&args, "{\"Sequence number\":%lld,\"Fwd thread id\":%llu,"
	    "\"Input Dims\":\"", (long long)seq, (unsigned long long)fwd_tid);
	gen_fwk_json(&args, dims, true);
	strbuf_adds(&args, "\",\"Input type\":\"");
	gen_fwk_json(&args, "float;float", true);
	strbuf_adds(&args, "\",\"Call stack\":\"");
	gen_fwk_json(&args, stack, true);
	strbuf_addc(&args, '"');
	if (k % 2 == 0) {
		strbuf_adds(&args, ",\"Module Hierarchy\":\"");
		gen_fwk_json(&args, "Net;Net.layer\"1\"", false);
		strbuf_addc(&args, '"');
	}
	strbuf_addc(&args, '}');
	gen_fwk_span(f, "python", name, f->pid, tid, start, end, args.s);
	strbuf_release(&args);
}

/* A task queue mark. */
static void
gen_fwk_mark(struct gen_fwk *f, int64_t ts, int cat, uint64_t corr,
    uint64_t tid, const char *name)
{
	struct gen_buf	 rec;

	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c, ts));
	gen_prof_bin_buf_u64(&rec, (uint64_t)cat);
	gen_prof_bin_buf_u64(&rec, corr);
	gen_prof_bin_buf_u64(&rec, tid);
	gen_prof_bin_buf_u64(&rec, f->pid);
	gen_fwk_field(&rec, 1, name);
	gen_fwk_record(&f->marks, 2, &rec);
	free(rec.p);
}

/* A tracer event. */
static void
gen_fwk_call(struct gen_fwk *f, int64_t ts, uint64_t tid, uint64_t key,
    int tag)
{
	unsigned char	 t = (unsigned char)tag;

	gen_prof_bin_buf_u64(&f->func, gen_prof_core_host_raw(f->c, ts));
	gen_prof_bin_buf_u64(&f->func, tid);
	gen_prof_bin_buf_u64(&f->func, f->pid);
	gen_prof_bin_buf_u64(&f->func, key);
	gen_prof_bin_buf_add(&f->func, &t, 1);
}

static void
gen_fwk_name(struct gen_fwk *f, uint64_t key, const char *value)
{
	struct gen_buf	 rec;

	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, key);
	gen_fwk_field(&rec, 1, value);
	gen_fwk_record(&f->hash, 4, &rec);
	free(rec.p);
}

/*
 * The Python tracer's frames of the K-th op of thread PY over OB..OE: a
 * module call around a forward call. *EV counts the thread's events (a
 * frame's id is the index of its call); the last op's module call never
 * returns and closes at the thread's last event.
 */
static void
gen_fwk_frames(struct gen_fwk *f, int ti, uint64_t py, int64_t ob,
    int64_t oe, int k, int64_t *ev, bool last)
{
	const struct gen_prof_clock	*c = f->c;
	char				 name[64], args[96];
	int64_t				 mb, me, fb, fe, id_m, id_f;
	uint64_t			 key_m, key_f;

	key_m = 0x50000 + (uint64_t)ti * 100000 + (uint64_t)k;
	key_f = k % 5 == 3 ? 0x77777 : 0x4242;
	mb = ob - 4 * c->tick;
	me = oe + 4 * c->tick;
	fb = ob - 2 * c->tick;
	fe = oe + 2 * c->tick;
	snprintf(name, sizeof name, "Linear%s%d_%d", GEN_FWK_MODULE, ti, k);
	gen_fwk_name(f, key_m, name);
	id_m = (*ev)++;
	gen_fwk_call(f, mb, py, key_m, 0);
	id_f = (*ev)++;
	gen_fwk_call(f, fb, py, key_f, 0);
	gen_fwk_call(f, fe, py, key_f, 1);
	(*ev)++;
	if (key_f == 0x77777)
		snprintf(name, sizeof name, "%d", 0x77777);
	else
		snprintf(name, sizeof name, "model.py(40): forward");
	snprintf(args, sizeof args, "{\"Python id\":%lld,\"Python parent id\":"
	    "%lld}", (long long)id_f, (long long)id_m);
	gen_fwk_span(f, "python_function", name, f->pid, py, fb, fe, args);
	snprintf(name, sizeof name, "nn.Module: Linear_%d", k);
	snprintf(args, sizeof args, "{\"Python id\":%lld,\"Python parent id\":"
	    "0,\"Python module id\":%d}", (long long)id_m, k);
	if (!last) {
		gen_fwk_call(f, me, py, key_m, 1);
		(*ev)++;
	}
	gen_fwk_span(f, "python_function", name, f->pid, py, mb, last ? fe :
	    me, args);
}

/* An expected flow endpoint, as show prints it. */
static void
gen_fwk_flow(struct gen_fwk *f, const char *cat, const char *name,
    uint64_t id, const char *ph, uint64_t tid, int64_t ts)
{
	ts += f->g->local_off;
	strbuf_addf(&f->flows, "host,%s,%s,%llu,%s,Python,%llu,"
	    "%lld.%03lld,e\n", cat, name, (unsigned long long)id, ph,
	    (unsigned long long)tid, (long long)(ts / 1000),
	    (long long)(ts % 1000));
}

/* The task queue around launch OP of thread TID, from Python thread PY. */
static void
gen_fwk_queue(struct gen_fwk *f, const struct gen_prof_op *op, uint64_t py,
    int64_t ob, int64_t oe, const char *name)
{
	const struct gen_prof_clock	*c = f->c;
	char				 qname[112], args[64];
	int64_t				 eb, ee, db, de;

	eb = ob + 50 * c->tick;
	ee = oe - 50 * c->tick;
	db = op->acl_b - 10 * c->tick;
	de = op->acl_e + 10 * c->tick;
	f->corr++;
	gen_fwk_mark(f, eb, 0, f->corr, py, name);
	gen_fwk_mark(f, ee, 1, f->corr, py, name);
	gen_fwk_mark(f, db, 2, f->corr, op->tid, name);
	gen_fwk_mark(f, de, 3, f->corr, op->tid, name);
	snprintf(args, sizeof args, "{\"correlation_id\":%llu}",
	    (unsigned long long)f->corr);
	snprintf(qname, sizeof qname, "Enqueue@%s", name);
	gen_fwk_span(f, "enqueue", qname, f->pid, py, eb, ee, args);
	snprintf(qname, sizeof qname, "Dequeue@%s", name);
	gen_fwk_span(f, "dequeue", qname, f->pid, op->tid, db, de, args);
	gen_fwk_flow(f, "async_task_queue", "enqueue_to_dequeue", f->corr,
	    "s", py, eb);
	gen_fwk_flow(f, "async_task_queue", "enqueue_to_dequeue", f->corr,
	    "f", op->tid, db);
}

/*
 * Build every record from the launches of thread TI (tid TIDS[TI]); *T0
 * collects thread 0's forward op starts for thread 1's backward ops.
 */
static void
gen_fwk_thread(struct gen_fwk *f, const uint32_t *tids, int ti,
    int64_t **t0, size_t *nt0)
{
	struct gen_prof			*g = f->g;
	const struct gen_prof_clock	*c = f->c;
	const struct gen_prof_op	*op;
	char				 name[96];
	int64_t				 ob, oe, seq, ev = 0;
	uint64_t			 py, fwd_tid;
	size_t				 i, n = 0, last = SIZE_MAX;
	int				 k = 0;
	bool				 queued = ti % 2 == 1;

	py = queued ? (uint64_t)tids[ti] + 7 : tids[ti];
	for (i = 0; i < g->nops; i++)
		if (g->ops[i].tid == tids[ti] && g->ops[i].acl_e != 0) {
			last = i;
			n++;
		}
	for (i = 0; i < g->nops; i++) {
		op = &g->ops[i];
		if (op->tid != tids[ti] || op->acl_e == 0)
			continue;
		if (queued) {
			ob = op->acl_b - 400 * c->tick;
			oe = op->acl_b - 100 * c->tick;
		} else {
			ob = op->acl_b - 20 * c->tick;
			oe = op->acl_e + 20 * c->tick;
		}
		seq = -1;
		fwd_tid = 0;
		if (ti == 0) {
			seq = k;
			*t0 = util_grow(*t0, *nt0, 1, sizeof **t0);
			(*t0)[(*nt0)++] = ob;
		} else if (ti == 1 && (size_t)k < *nt0) {
			seq = k;
			fwd_tid = (uint64_t)tids[0];
			gen_fwk_flow(f, "fwdbwd", "fwdbwd", (uint64_t)seq, "s",
			    tids[0], (*t0)[k]);
			gen_fwk_flow(f, "fwdbwd", "fwdbwd", (uint64_t)seq, "f",
			    py, ob);
		}
		gen_fwk_op(f, op, py, ob, oe, seq, fwd_tid, k, name,
		    sizeof name);
		gen_fwk_frames(f, ti, py, ob, oe, k, &ev, i == last);
		if (queued)
			gen_fwk_queue(f, op, py, ob, oe, name);
		k++;
	}
	(void)n;
}

/* A few GC pauses of the process, at the start. */
static void
gen_fwk_gc(struct gen_fwk *f)
{
	int64_t		 b, e;
	uint64_t	 gpid = f->pid << 10 | 1 << 5;
	int		 i;

	for (i = 0; i < 3; i++) {
		b = f->c->begin + (i + 1) * 100000 * f->c->tick;
		e = b + (i + 1) * 2000 * f->c->tick;
		gen_prof_bin_buf_u64(&f->gc, f->pid);
		gen_prof_bin_buf_u64(&f->gc, gen_prof_core_host_raw(f->c, b));
		gen_prof_bin_buf_u64(&f->gc, gen_prof_core_host_raw(f->c, e));
		gen_fwk_span(f, "GC", "GC", gpid, f->pid, b, e, NULL);
	}
}

static int
gen_fwk_span_cmp(const void *a, const void *b)
{
	const struct gen_fwk_span	*x = a, *y = b;
	int				 r;

	if ((r = strcmp(x->level, y->level)) != 0)
		return r;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
gen_fwk_bin(const char *dir, const char *name, const struct gen_buf *b,
    char **cause)
{
	FILE	*f;

	if ((f = util_file_create(dir, name, cause)) == NULL)
		return -1;
	if (b->len > 0)
		fwrite(b->p, 1, b->len, f);
	return util_file_close(f, dir, name, cause);
}

/*
 * Write the FRAMEWORK/ folder and profiler_info.json of the torch_npu
 * profile TOP for the launches of G, the host threads TIDS, and the
 * expected spans and flows into EXPECT if set.
 */
int
gen_prof_fwk(struct gen_prof *g, const struct gen_prof_clock *c,
    const uint32_t *tids, const char *top, const char *expect, char **cause)
{
	struct gen_fwk	 f;
	struct strbuf	 b;
	char		*dir;
	int64_t		*t0 = NULL;
	size_t		 nt0 = 0, i;
	int		 ti, rc = 0;
	FILE		*out;

	memset(&f, 0, sizeof f);
	f.g = g;
	f.c = c;
	f.pid = g->o->seed * 7 + 4242;
	strbuf_init(&f.flows);
	gen_fwk_name(&f, 0x4242, "model.py(40): forward");
	for (ti = 0; ti < g->o->threads; ti++)
		gen_fwk_thread(&f, tids, ti, &t0, &nt0);
	/* An enqueue end whose start was lost. */
	gen_fwk_mark(&f, c->begin + 10 * c->tick, 1, 999999, tids[0] + 7,
	    "aten::lost");
	gen_fwk_gc(&f);
	dir = util_path_join(top, "FRAMEWORK");
	if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
		xasprintf(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = gen_fwk_bin(dir, "torch.op_range", &f.ops, cause);
	if (rc == 0)
		rc = gen_fwk_bin(dir, "torch.op_mark", &f.marks, cause);
	if (rc == 0)
		rc = gen_fwk_bin(dir, "torch.python_tracer_func", &f.func,
		    cause);
	if (rc == 0)
		rc = gen_fwk_bin(dir, "torch.python_tracer_hash", &f.hash,
		    cause);
	if (rc == 0)
		rc = gen_fwk_bin(dir, "torch.gc_record", &f.gc, cause);
	strbuf_init(&b);
	strbuf_addf(&b, "{\"config\":{\"common_config\":{\"activities\":"
	    "[\"ProfilerActivity.CPU\",\"ProfilerActivity.NPU\"]}},"
	    "\"start_info\":{\"syscnt_enable\":%s,\"freq\":100,"
	    "\"start_cnt\":%llu,\"start_monotonic\":%lld},\"end_info\":{"
	    "\"collectionTimeEnd\":%lld,\"MonotonicTimeEnd\":%lld},"
	    "\"torch_npu_version\":\"2.7.1\",\"cann_version\":\"8.0.0\"}\n",
	    c->tick > 1 ? "true" : "false",
	    (unsigned long long)gen_prof_core_host_raw(c, c->sync),
	    (long long)c->sync, (long long)(c->end + g->local_off),
	    (long long)c->end);
	if (rc == 0 && (out = util_file_create(top, "profiler_info.json",
	    cause)) != NULL) {
		fputs(b.s, out);
		rc = util_file_close(out, top, "profiler_info.json", cause);
	} else if (rc == 0)
		rc = -1;
	strbuf_release(&b);
	if (rc == 0 && expect != NULL && f.n > 1)
		qsort(f.v, f.n, sizeof *f.v, gen_fwk_span_cmp);
	if (rc == 0 && expect != NULL &&
	    (out = util_file_create(expect, "fwk_spans.txt", cause)) != NULL) {
		for (i = 0; i < f.n; i++)
			fprintf(out, "%s|%s|%llu|%llu|%lld|%lld|%s\n",
			    f.v[i].level, f.v[i].name,
			    (unsigned long long)f.v[i].pid,
			    (unsigned long long)f.v[i].tid,
			    (long long)(f.v[i].start + g->local_off),
			    (long long)(f.v[i].end + g->local_off),
			    f.v[i].args != NULL ? f.v[i].args : "");
		rc = util_file_close(out, expect, "fwk_spans.txt", cause);
		if (rc == 0 && (out = util_file_create(expect,
		    "fwk_flows.csv", cause)) != NULL) {
			fputs(f.flows.s != NULL ? f.flows.s : "", out);
			rc = util_file_close(out, expect, "fwk_flows.csv",
			    cause);
		} else if (rc == 0)
			rc = -1;
	} else if (rc == 0 && expect != NULL)
		rc = -1;
	for (i = 0; i < f.n; i++) {
		free(f.v[i].name);
		free(f.v[i].args);
	}
	free(f.v);
	free(t0);
	free(dir);
	strbuf_release(&f.flows);
	gen_prof_bin_buf_free(&f.ops);
	gen_prof_bin_buf_free(&f.marks);
	gen_prof_bin_buf_free(&f.func);
	gen_prof_bin_buf_free(&f.hash);
	gen_prof_bin_buf_free(&f.gc);
	return rc;
}
