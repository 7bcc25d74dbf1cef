/*
 * torch_npu's FRAMEWORK/ records of a generated un-analysed profile (-Y,
 * doc/formats.md section 3.11), and the spans, flows and kernel steps
 * expected of them. Each generated op launch gets a PyTorch op around it,
 * on its own thread or, for host thread 1, on a Python thread that
 * enqueues it for the launch thread to dequeue (torch_npu's task queue;
 * one queue, so the vendor's walk over dequeues in end order finds every
 * launch). A module call and a forward call of the Python tracer wrap
 * each op; the ops of thread 1 are the backward ops of thread 0's (same
 * sequence numbers). Two ProfilerStep#N ops cover the first and second
 * half of the ops of the thread that enqueues (thread 0 with one
 * thread): each kernel's expected step is the first whose device range
 * holds its start. Op ranges come in all three layouts (every seventh
 * the 57-byte one, every eleventh the 58-byte one with the older field
 * numbers); one tracer key has no name; the last module call of each
 * thread never returns; GC pauses run on the first thread.
 */
#include <inttypes.h>
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

/* An enqueue and its dequeue, mono ns. */
struct gen_fwk_q {
	int64_t		 eb;
	int64_t		 db;
	int64_t		 de;
	uint64_t	 tid;
	uint64_t	 corr;
};

/* Expected rows of a table in time order: each with its time. */
struct gen_fwk_row {
	int64_t		 ts;
	size_t		 seq;
	char		*line;
};
struct gen_fwk_rows {
	struct gen_fwk_row	*v;
	size_t			 n;
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
	struct gen_buf			 mem;
	struct gen_buf			 params;	/* param_tensor_info */
	struct strbuf			 param_rows;	/* expected */
	struct gen_mem_pta		*pta;		/* expected rows */
	size_t				 npta;
	struct gen_fwk_rows		 opmem_rows;
	struct strbuf			 op_rows;
	int64_t				 allocated;	/* bytes */
	int64_t				 reserved;
	int64_t				 active;
	int64_t				 incomplete;
	struct gen_fwk_span		*v;
	size_t				 n;
	struct strbuf			 flows;
	uint64_t			 corr;
	int64_t				 shift;		/* vendor's clock */
	bool				 queue;
	struct gen_fwk_q		*q;		/* the enqueues */
	size_t				 nq;
	int64_t				(*sops)[3];	/* steps' thread ops */
	size_t				 nsops;
	uint64_t			 step_py;
	bool				 ranged[2];
	int				 step_ti;	/* the steps' thread */
	int64_t				 step_b[2];	/* mono ns */
	int64_t				 step_e[2];
	int64_t				 dmin[2];	/* device ranges */
	int64_t				 dmax[2];
	int				 nsteps;
	int64_t				*kmin;		/* per op: kernels */
	int64_t				*kmax;
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

/* A CSV cell of TEXT, its ';' written ";\r\n", quoted as show quotes. */
static void
gen_fwk_csv_split(struct strbuf *b, const char *text)
{
	strbuf_addc(b, '"');
	for (; *text != '\0'; text++) {
		if (*text == ';')
			strbuf_adds(b, ";\r\n");
		else if (*text == '"')
			strbuf_adds(b, "\"\"");
		else
			strbuf_addc(b, *text);
	}
	strbuf_addc(b, '"');
}

/*
 * The expected operator_details row of the op NAME over START..END that
 * launched OP, for a profile of one thread: each op is a leaf under its
 * step, its own kernels are the launch's, summed in start order as
 * floats, AI Core ones apart (Python's int 0 when there are none).
 */
static void
gen_fwk_op_row(struct gen_fwk *f, const struct gen_prof_op *op,
    const char *name, const char *dims, const char *stack, int64_t start,
    int64_t end)
{
	const struct gen_prof	*g = f->g;
	size_t			 i, pos = (size_t)(op - g->ops), n = 0;
	int64_t			*st = NULL, *du = NULL, t;
	double			 sum = 0;
	char			 buf[40];
	int			 j, k;

	for (i = 0; i < g->ntasks; i++) {
		if (g->tasks[i].op != pos)
			continue;
		st = util_grow(st, n, 1, sizeof *st);
		du = util_grow(du, n, 1, sizeof *du);
		st[n] = g->tasks[i].start;
		du[n++] = g->tasks[i].dur;
	}
	/* In start order (insertion sort: an op has a few tasks). */
	for (j = 1; j < (int)n; j++)
		for (k = j; k > 0 && st[k] < st[k - 1]; k--) {
			t = st[k], st[k] = st[k - 1], st[k - 1] = t;
			t = du[k], du[k] = du[k - 1], du[k - 1] = t;
		}
	for (i = 0; i < n; i++)
		sum += (double)du[i] / 1000.0;
	strbuf_addf(&f->op_rows, "%s,", name);
	gen_fwk_csv_split(&f->op_rows, dims);
	strbuf_addc(&f->op_rows, ',');
	gen_fwk_csv_split(&f->op_rows, stack);
	util_fmt_pyfloat(buf, sizeof buf, (double)(end - start) / 1000.0);
	strbuf_addf(&f->op_rows, ",%s,%s", buf, buf);
	util_fmt_pyfloat(buf, sizeof buf, sum);
	if (n == 0)
		snprintf(buf, sizeof buf, "0");
	strbuf_addf(&f->op_rows, ",%s,%s", buf, buf);
	if (g->kinds[op->kind].ge != 0)
		snprintf(buf, sizeof buf, "0");
	strbuf_addf(&f->op_rows, ",%s,%s\n", buf, buf);
	free(st);
	free(du);
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
	int		 lay = k % 7 == 6 ? 2 : k % 11 == 10 ? 1 : 0;
	size_t		 i;
	/* Field numbers: name, dtypes, shapes, stack, module hierarchy. */
	static const uint16_t fid[3][5] = {
		{ 2, 3, 4, 8, 9 }, { 3, 4, 5, 8, 9 }, { 3, 4, 5, 6, 7 }
	};

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
	if (lay < 2)
		gen_prof_bin_buf_add(&rec, "\0", 1);	/* scope */
	gen_prof_bin_buf_add(&rec, "\0", 1);		/* is_async */
	gen_prof_bin_tlv_field(&rec, fid[lay][0], name);
	gen_prof_bin_tlv_field(&rec, fid[lay][1], "float;float");
	gen_prof_bin_tlv_field(&rec, fid[lay][2], dims);
	gen_prof_bin_tlv_field(&rec, fid[lay][3], stack);
	if (k % 2 == 0)
		gen_prof_bin_tlv_field(&rec, fid[lay][4], "Net;Net.layer\"1\"");
	gen_prof_bin_tlv_record(&f->ops, 1, &rec);
	free(rec.p);

	if (f->g->o->threads == 1)
		gen_fwk_op_row(f, op, name, dims, stack, start, end);
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
	gen_prof_bin_tlv_field(&rec, 1, name);
	gen_prof_bin_tlv_record(&f->marks, 2, &rec);
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
	gen_prof_bin_tlv_field(&rec, 1, value);
	gen_prof_bin_tlv_record(&f->hash, 4, &rec);
	free(rec.p);
}

/* FIELD as a CSV cell of B, quoted if it must be, then SEP. */
static void
gen_fwk_csv_cell(struct strbuf *b, const char *field, char sep)
{
	if (strpbrk(field, ",\"") != NULL)
		strbuf_addf(b, "\"%s\"", field);
	else
		strbuf_adds(b, field);
	strbuf_addc(b, sep);
}

/*
 * A tensor's text: its impl pointer, storage pointer PTR, float, 4 bytes,
 * SIZES, STRIDES, on NPU 0 (or, with CPU, on the CPU, index -1), the
 * pointers in hex as torch_npu's stream output writes them.
 */
static void
gen_fwk_tensor(struct strbuf *t, uint64_t impl, const char *ptr,
    const char *sizes, const char *strides, bool cpu)
{
	strbuf_addf(t, "0x%llx;%s;float;4;%s;%s;%s", (unsigned long long)impl,
	    ptr, sizes, strides, cpu ? "0;-1" : "20;0");
}

/*
 * A param_tensor_info record of KEY (called CALL, UID its module's) of
 * KIND (1 module, 2 optimizer) with text TEXT, and its N expected rows
 * ROWS (each "index|name|shape|strides|bytes|ptr|grad|state").
 */
static void
gen_fwk_params(struct gen_fwk *f, uint64_t key, const char *call,
    const char *uid, int kind, const char *text, const char *const *rows,
    size_t n)
{
	struct gen_buf	 rec;
	char		 buf[256], *c[8], *p;
	size_t		 i, j;

	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, key);
	gen_prof_bin_tlv_field(&rec, (uint16_t)kind, text);
	gen_prof_bin_tlv_record(&f->params, 5, &rec);
	free(rec.p);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof buf, "%s", rows[i]);
		for (j = 0, p = buf; j < 8; j++) {
			c[j] = p;
			if ((p = strchr(p, '|')) != NULL)
				*p++ = '\0';
			else
				p = buf + strlen(buf);
		}
		strbuf_addf(&f->param_rows, "%llu,", (unsigned long long)key);
		gen_fwk_csv_cell(&f->param_rows, call, ',');
		gen_fwk_csv_cell(&f->param_rows, uid, ',');
		strbuf_addf(&f->param_rows, "%s,%s,", kind == 1 ? "module" :
		    "optimizer", c[0]);
		gen_fwk_csv_cell(&f->param_rows, c[1], ',');
		strbuf_adds(&f->param_rows, "float,");
		gen_fwk_csv_cell(&f->param_rows, c[2], ',');
		gen_fwk_csv_cell(&f->param_rows, c[3], ',');
		strbuf_addf(&f->param_rows, "20,0,%s,%s,", c[4], c[5]);
		gen_fwk_csv_cell(&f->param_rows, c[6], ',');
		gen_fwk_csv_cell(&f->param_rows, c[7], '\n');
	}
}

/*
 * The parameters of module call KEY (named NAME######UID) of thread TI's
 * K-th op: a weight with its gradient and a bias without one; the first
 * module also has a parameter whose name holds a '}' (a ParameterDict
 * key), which torch_npu writes as it is.
 */
static void
gen_fwk_module_params(struct gen_fwk *f, uint64_t key, int ti, int k)
{
	struct strbuf	 t;
	char		 uid[32], ptr[32], sz[32], st[32], row[3][128];
	const char	*rows[3] = { row[0], row[1], row[2] };
	int		 out = 8 * (k + 1), in = 16;

	snprintf(uid, sizeof uid, "%d_%d", ti, k);
	snprintf(ptr, sizeof ptr, "0x%llx", (unsigned long long)(0x7f0000 +
	    key));
	snprintf(sz, sizeof sz, "%d,%d", out, in);
	snprintf(st, sizeof st, "%d,1", in);
	strbuf_init(&t);
	strbuf_adds(&t, "weight)");
	gen_fwk_tensor(&t, key * 2, ptr, sz, st, false);
	strbuf_addc(&t, ')');
	gen_fwk_tensor(&t, key * 2 + 1, "", sz, st, false);
	strbuf_adds(&t, "}bias)");
	snprintf(sz, sizeof sz, "%d", out);
	gen_fwk_tensor(&t, key * 3, ptr, sz, "1", false);
	strbuf_addc(&t, ')');
	snprintf(row[0], sizeof row[0], "0|weight|%d,%d|%d,1|%d|%s|%d,%d|",
	    out, in, in, out * in * 4, ptr, out, in);
	snprintf(row[1], sizeof row[1], "1|bias|%d|1|%d|%s||", out, out * 4,
	    ptr);
	if (k == 0) {
		strbuf_adds(&t, "}scale}0)");
		gen_fwk_tensor(&t, key * 5, ptr, "1", "1", false);
		strbuf_addc(&t, ')');
		snprintf(row[2], sizeof row[2], "2|scale}0|1|1|4|%s||", ptr);
	}
	gen_fwk_params(f, key, "nn.Module: Linear", uid, 1, t.s, rows,
	    k == 0 ? 3 : 2);
	strbuf_release(&t);
}

/*
 * Two optimizer records: the step of key 0x60001 (named) over a weight
 * with its gradient and Adam's states (two tensors and the scalar step
 * count on the CPU), and one of key 0x60002 that the tracer does not
 * name, over a tensor without storage or gradient.
 */
static void
gen_fwk_optimizer_params(struct gen_fwk *f)
{
	static const char *const one[] = { "0||8,16|16,1|512|0x1000|8,16|"
	    "exp_avg:8,16;exp_avg_sq:8,16;step:" };
	static const char *const two[] = { "0||4|1|16|||" };
	struct strbuf	 t;

	gen_fwk_name(f, 0x60001, "torch/optim/adam.py(130): step");
	strbuf_init(&t);
	gen_fwk_tensor(&t, 11, "0x1000", "8,16", "16,1", false);
	strbuf_addc(&t, ')');
	gen_fwk_tensor(&t, 12, "", "8,16", "16,1", false);
	strbuf_adds(&t, ")exp_avg>");
	gen_fwk_tensor(&t, 13, "0x2000", "8,16", "16,1", false);
	strbuf_adds(&t, "]exp_avg_sq>");
	gen_fwk_tensor(&t, 14, "0x3000", "8,16", "16,1", false);
	strbuf_adds(&t, "]step>");
	gen_fwk_tensor(&t, 15, "0x4000", "", "", true);
	strbuf_addc(&t, ']');
	gen_fwk_params(f, 0x60001, "torch/optim/adam.py(130): step", "", 2,
	    t.s, one, 1);
	t.len = 0;
	gen_fwk_tensor(&t, 16, "", "4", "1", false);
	strbuf_adds(&t, "))");
	gen_fwk_params(f, 0x60002, "393218", "", 2, t.s, two, 1);
	strbuf_release(&t);
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
	if (k < 2)
		gen_fwk_module_params(f, key_m, ti, k);
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
	ts += f->g->local_off + f->shift;
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
	f->q = util_grow(f->q, f->nq, 1, sizeof *f->q);
	f->q[f->nq].eb = eb;
	f->q[f->nq].db = db;
	f->q[f->nq].de = de;
	f->q[f->nq].tid = py;
	f->q[f->nq++].corr = f->corr;
	f->queue = true;
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
 * The kernel extent of the launches (host task times, any thread) within
 * LO..HI, Python times (mono ns): the vendor gives a dequeue every launch
 * its time holds. Into *KMIN and *KMAX, epoch ns; false if none.
 */
static bool
gen_fwk_held(const struct gen_fwk *f, int64_t lo, int64_t hi, int64_t *kmin,
    int64_t *kmax)
{
	const struct gen_prof	*g = f->g;
	size_t			 i;

	/* The host tasks are on the CANN clock, the Python times not. */
	lo += f->shift;
	hi += f->shift;
	*kmin = INT64_MAX;
	*kmax = INT64_MIN;
	for (i = 0; i < g->nops; i++) {
		if (g->ops[i].acl_e == 0 || g->ops[i].tt < lo ||
		    g->ops[i].tt > hi || f->kmin[i] == INT64_MAX)
			continue;
		*kmin = f->kmin[i] < *kmin ? f->kmin[i] : *kmin;
		*kmax = f->kmax[i] > *kmax ? f->kmax[i] : *kmax;
	}
	if (*kmin == INT64_MAX)
		return false;
	*kmin += g->local_off;
	*kmax += g->local_off;
	return true;
}

/* A PyTorch op or an enqueue, for the vendor's tree. */
struct gen_fwk_ev {
	int64_t		 ts;
	int64_t		 end;
	uint64_t	 tid;
	int		 kind;		/* 0 op, 1 enqueue */
	size_t		 order;
	int		 step;		/* 0, 1 for the steps, else -1 */
	size_t		 q;		/* enqueue: index in f->q */
};

static int
gen_fwk_ev_cmp(const void *a, const void *b)
{
	const struct gen_fwk_ev	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * The vendor's tree over the ops (steps last in file order) and the
 * enqueues: which steps are at its top, and the first and last enqueue
 * (by correlation id) each of those holds.
 */
static void
gen_fwk_tree(struct gen_fwk *f, bool top[2], size_t first[2],
    size_t last[2])
{
	struct gen_fwk_ev	*v = NULL, **stack;
	size_t			 n = 0, i, depth = 0, k;
	int			 st;

	for (i = 0; i < f->n; i++) {
		if (strcmp(f->v[i].level, "python") != 0)
			continue;
		v = util_grow(v, n, 1, sizeof *v);
		v[n].ts = f->v[i].start;
		v[n].end = f->v[i].end;
		v[n].tid = f->v[i].tid;
		v[n].kind = 0;
		v[n].order = n;
		v[n].step = strncmp(f->v[i].name, "ProfilerStep#", 13) == 0 ?
		    atoi(f->v[i].name + 13) - 1 : -1;
		n++;
	}
	for (i = 0; i < f->nq; i++) {
		v = util_grow(v, n, 1, sizeof *v);
		v[n].ts = f->q[i].eb;
		v[n].tid = f->q[i].tid;
		v[n].kind = 1;
		v[n].order = n;
		v[n].q = i;
		n++;
	}
	qsort(v, n, sizeof *v, gen_fwk_ev_cmp);
	stack = xcalloc(n + 1, sizeof *stack);
	top[0] = top[1] = false;
	first[0] = first[1] = last[0] = last[1] = SIZE_MAX;
	for (i = 0; i < n; i++) {
		while (depth > 0 && v[i].ts > stack[depth - 1]->end)
			depth--;
		if (v[i].kind == 0) {
			if (depth == 0 && v[i].step >= 0)
				top[v[i].step] = true;
			stack[depth++] = &v[i];
			continue;
		}
		/* An enqueue counts for the open op of its own thread. */
		if (depth == 0 || stack[depth - 1]->tid != v[i].tid)
			continue;
		st = stack[0]->step;
		if (st < 0)
			continue;
		k = v[i].q;
		if (first[st] == SIZE_MAX || f->q[k].corr < f->q[first[st]].corr)
			first[st] = k;
		if (last[st] == SIZE_MAX || f->q[k].corr > f->q[last[st]].corr)
			last[st] = k;
	}
	free(stack);
	free(v);
}

/*
 * The two ProfilerStep#N ops, on the Python thread PY of the thread whose
 * ops OPS (N, by start) they cover: the first from the collection's start
 * to its thread's middle op, the second from the first moment after it
 * when no op is open (so that both are at the top of the vendor's tree)
 * to long after its thread's last op (as a step that ends on the CPU).
 * Their device ranges, as the vendor computes them, go to f->dmin, dmax.
 */
static void
gen_fwk_steps(struct gen_fwk *f, uint64_t py, const int64_t (*ops)[3],
    size_t n)
{
	const struct gen_prof_op	*op;
	struct gen_buf			 rec;
	char				 name[32];
	int64_t				 cand, kmin, kmax, e;
	size_t				 i, first[2], last[2];
	bool				 top[2], moved;
	int				 s;

	if (n < 2)
		return;
	f->step_b[0] = f->c->begin + 10 * f->c->tick;
	f->step_e[0] = ops[n / 2 - 1][1] + 6 * f->c->tick;
	cand = f->step_e[0] + f->c->tick;
	do {
		moved = false;
		for (i = 0; i < f->n; i++)
			if (strcmp(f->v[i].level, "python") == 0 &&
			    f->v[i].start <= cand && cand <= f->v[i].end) {
				cand = f->v[i].end + f->c->tick;
				moved = true;
			}
	} while (moved);
	f->step_b[1] = cand;
	f->step_e[1] = ops[n - 1][1] + 200000 * f->c->tick;
	if (f->step_e[1] <= cand)
		f->step_e[1] = cand + f->c->tick;
	f->nsteps = 2;
	memset(&rec, 0, sizeof rec);
	for (s = 0; s < 2; s++) {
		snprintf(name, sizeof name, "ProfilerStep#%d", s + 1);
		gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c,
		    f->step_b[s]));
		gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c,
		    f->step_e[s]));
		gen_prof_bin_buf_u64(&rec, (uint64_t)-1);
		gen_prof_bin_buf_u64(&rec, f->pid);
		gen_prof_bin_buf_u64(&rec, py);
		gen_prof_bin_buf_u64(&rec, py);
		gen_prof_bin_buf_u64(&rec, 0);
		gen_prof_bin_buf_add(&rec, "\0\0", 2);
		gen_prof_bin_tlv_field(&rec, 2, name);
		gen_prof_bin_tlv_record(&f->ops, 1, &rec);
		gen_fwk_span(f, "python", name, f->pid, py, f->step_b[s],
		    f->step_e[s], "{\"Sequence number\":-1,"
		    "\"Fwd thread id\":0}");
	}
	free(rec.p);
	gen_fwk_tree(f, top, first, last);
	for (s = 0; s < 2; s++) {
		f->ranged[s] = false;
		if (!top[s])
			continue;
		e = f->step_e[s] + f->g->local_off + f->shift;
		if (f->queue) {
			/* Its enqueues' dequeues hold its launches. */
			if (first[s] == SIZE_MAX)
				continue;
			f->ranged[s] = true;
			f->dmin[s] = f->step_b[s] + f->g->local_off + f->shift;
			f->dmax[s] = e;
			if (gen_fwk_held(f, f->q[first[s]].db,
			    f->q[first[s]].de, &kmin, &kmax))
				f->dmin[s] = kmin;
			if (gen_fwk_held(f, f->q[last[s]].db,
			    f->q[last[s]].de, &kmin, &kmax) && kmax > e)
				f->dmax[s] = kmax;
			continue;
		}
		/* Without a queue: the launches inside it, any thread. */
		kmin = INT64_MAX;
		kmax = INT64_MIN;
		for (i = 0; i < f->g->nops; i++) {
			op = &f->g->ops[i];
			if (op->acl_e == 0 || f->kmin[i] == INT64_MAX ||
			    op->tt < f->step_b[s] + f->shift ||
			    op->tt > f->step_e[s] + f->shift)
				continue;
			if (kmin == INT64_MAX || op->tt < kmin) {
				kmin = op->tt;
				f->dmin[s] = f->kmin[i] + f->g->local_off;
			}
			if (kmax == INT64_MIN || op->tt > kmax) {
				kmax = op->tt;
				f->dmax[s] = f->kmax[i] + f->g->local_off;
			}
		}
		if (kmin == INT64_MAX)
			continue;
		f->ranged[s] = true;
		if (e > f->dmax[s])
			f->dmax[s] = e;
	}
}

/* Keep LINE (taken) as an expected row at TS. */
static void
gen_fwk_row(struct gen_fwk_rows *r, int64_t ts, struct strbuf *line)
{
	r->v = util_grow(r->v, r->n, 1, sizeof *r->v);
	r->v[r->n].ts = ts;
	r->v[r->n].seq = r->n;
	r->v[r->n].line = strbuf_detach(line);
	r->n++;
}

static int
gen_fwk_row_cmp(const void *a, const void *b)
{
	const struct gen_fwk_row	*x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Write HEADER and the rows of R in time order to EXPECT/NAME. */
static int
gen_fwk_rows_write(struct gen_fwk_rows *r, const char *expect,
    const char *name, const char *header, char **cause)
{
	FILE	*out;
	size_t	 i;

	if (r->n > 1)
		qsort(r->v, r->n, sizeof *r->v, gen_fwk_row_cmp);
	if ((out = util_file_create(expect, name, cause)) == NULL)
		return -1;
	fprintf(out, "%s\n", header);
	for (i = 0; i < r->n; i++)
		fputs(r->v[i].line, out);
	return util_file_close(out, expect, name, cause);
}

static void
gen_fwk_rows_free(struct gen_fwk_rows *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].line);
	free(r->v);
}

/* An expected memory_record cell of BYTES, in MB as Python prints it. */
static void
gen_fwk_mb(struct strbuf *b, int64_t bytes)
{
	char	 buf[40];

	util_fmt_pyfloat(buf, sizeof buf, (double)bytes / (1024.0 * 1024.0));
	strbuf_addf(b, ",%s", buf);
}

/* One memory record of the block of op K, as its layout LEN writes it. */
static void
gen_fwk_mem_rec(struct gen_fwk *f, int k, int len, bool npu, bool ws,
    uint64_t tid, int64_t ts, int64_t size, int type)
{
	struct gen_buf	 rec;
	unsigned char	 b[5];

	if (npu) {
		if (type == 0) {
			f->allocated += size;
			f->active += size;
		} else if (type == 2)
			f->active -= size;
		else {
			f->allocated -= size;
			if (f->active > f->allocated)
				f->active = f->allocated;
		}
		while (f->reserved < f->allocated)
			f->reserved += 2 << 20;
	}
	memset(&rec, 0, sizeof rec);
	gen_prof_bin_buf_u64(&rec, 0x12340000u + (uint64_t)k * 4096);
	gen_prof_bin_buf_u64(&rec, gen_prof_core_host_raw(f->c, ts));
	gen_prof_bin_buf_u64(&rec, (uint64_t)size);
	gen_prof_bin_buf_u64(&rec, (uint64_t)f->allocated);
	gen_prof_bin_buf_u64(&rec, (uint64_t)f->reserved);
	gen_prof_bin_buf_u64(&rec, (uint64_t)f->active);
	gen_prof_bin_buf_u64(&rec, 0x7f0000 + (uint64_t)f->g->o->seed);
	b[0] = npu ? 20 : 0;
	b[1] = 0;
	b[2] = ws;
	b[3] = (unsigned char)type;
	b[4] = 0;
	if (len == 77)
		gen_prof_bin_buf_add(&rec, b, 5);
	else {
		gen_prof_bin_buf_add(&rec, b, 2);
		gen_prof_bin_buf_add(&rec, b + 3, len == 76 ? 2 : 1);
	}
	gen_prof_bin_buf_u64(&rec, tid);
	gen_prof_bin_buf_u64(&rec, f->pid);
	gen_prof_bin_tlv_record(&f->mem, 3, &rec);
	free(rec.p);
	if (!npu)
		return;
	f->pta = util_grow(f->pta, f->npta, 1, sizeof *f->pta);
	f->pta[f->npta].ts = ts + f->g->local_off + f->shift;
	f->pta[f->npta].seq = f->npta;
	f->pta[f->npta].allocated = f->allocated;
	f->pta[f->npta].reserved = f->reserved;
	f->pta[f->npta].active = f->active;
	f->pta[f->npta].stream = 0x7f0000 + (uint64_t)f->g->o->seed;
	f->pta[f->npta++].ws = ws;
}

/*
 * The memory block of op K, NAME, of thread TID over OB..OE (the op, or
 * the dequeue that ran it): a malloc, a block free for every third op, a
 * free. Every seventh op's block is
 * CPU memory (no rows), every sixth a workspace; every fifth is written
 * in the 76-byte layout (no component byte), every ninth in the 75-byte
 * one (no allocator either). The expected operator_memory row names the
 * op.
 */
static void
gen_fwk_mem(struct gen_fwk *f, int k, const char *name, uint64_t tid,
    int64_t ob, int64_t oe)
{
	const struct gen_prof_clock	*c = f->c;
	int64_t				 size = 512 * (k + 1), mb, bf, fr;
	int64_t				 a[3], rel[3];
	int				 len;
	bool				 npu = k % 7 != 3, ws;
	struct strbuf			 line;
	char				 buf[3][40];
	int				 i;

	len = k % 5 == 4 ? 76 : k % 9 == 8 ? 75 : 77;
	ws = len == 77 && k % 6 == 5;
	mb = ob + 5 * c->tick;
	bf = ob + 8 * c->tick;
	fr = oe - 5 * c->tick;
	gen_fwk_mem_rec(f, k, len, npu, ws, tid, mb, size, 0);
	a[0] = f->allocated;
	a[1] = f->reserved;
	a[2] = f->active;
	if (k % 3 == 0)
		gen_fwk_mem_rec(f, k, len, npu, ws, tid, bf, size, 2);
	gen_fwk_mem_rec(f, k, len, npu, ws, tid, fr, size, 1);
	rel[0] = f->allocated;
	rel[1] = f->reserved;
	rel[2] = f->active;
	if (!npu)
		return;
	/* A caching block without its block free is one record short. */
	if (!ws && k % 3 != 0)
		f->incomplete++;
	util_fmt_pyfloat(buf[0], sizeof buf[0], (double)size / 1024.0);
	util_fmt_us(buf[1], sizeof buf[1], mb + f->g->local_off + f->shift,
	    3, false);
	util_fmt_us(buf[2], sizeof buf[2], fr + f->g->local_off + f->shift,
	    3, false);
	strbuf_init(&line);
	strbuf_addf(&line, "%s,%s,%s,%s,", name, buf[0], buf[1], buf[2]);
	if (k % 3 == 0) {
		util_fmt_us(buf[0], sizeof buf[0], bf + f->g->local_off +
		    f->shift, 3, false);
		strbuf_adds(&line, buf[0]);
	}
	util_fmt_us(buf[0], sizeof buf[0], fr - mb, 3, false);
	strbuf_addf(&line, ",%s,", buf[0]);
	if (k % 3 == 0) {
		util_fmt_us(buf[0], sizeof buf[0], bf - mb, 3, false);
		strbuf_adds(&line, buf[0]);
	}
	for (i = 0; i < 3; i++)
		gen_fwk_mb(&line, a[i]);
	for (i = 0; i < 3; i++)
		gen_fwk_mb(&line, rel[i]);
	strbuf_addf(&line, ",%llu,NPU:0\n", 0x7f0000 +
	    (unsigned long long)f->g->o->seed);
	gen_fwk_row(&f->opmem_rows, mb, &line);
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
	bool				 queued = ti == 1;

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
		/* Memory of thread 0's ops, and of thread 1's dequeues. */
		if (ti == 0)
			gen_fwk_mem(f, k, name, py, ob, oe);
		else if (queued)
			gen_fwk_mem(f, 1000 + k, name, op->tid, op->acl_b -
			    10 * c->tick, op->acl_e + 10 * c->tick);
		if (queued)
			gen_fwk_queue(f, op, py, ob, oe, name);
		if (ti == f->step_ti) {
			f->sops = util_grow(f->sops, f->nsops, 1,
			    sizeof *f->sops);
			f->sops[f->nsops][0] = ob;
			f->sops[f->nsops][1] = oe;
			f->sops[f->nsops++][2] = (int64_t)i;
			f->step_py = py;
		}
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

/* The start of cell COL of CSV line P, or NULL. */
static const char *
gen_fwk_cell(const char *p, int col)
{
	bool	 q = false;

	for (; col > 0 && *p != '\0'; p++) {
		if (*p == '"')
			q = !q;
		else if (*p == ',' && !q)
			col--;
	}
	return col == 0 ? p : NULL;
}

/*
 * The expected op_summary with the Step Id the ProfilerStep ops give:
 * expect/op_summary.csv with a first column, each task in the first step
 * whose device range holds its start.
 */
static int
gen_fwk_stepped(struct gen_fwk *f, const char *expect, char **cause)
{
	char	*in, *line, *next, *c;
	int64_t	 us, frac, ns;
	int	 col = -1, i, s;
	bool	 any = f->ranged[0] || f->ranged[1];
	FILE	*out;

	in = util_path_join(expect, "op_summary.csv");
	if (util_read_file(in, &line, NULL, 1 << 30, cause) != 0) {
		free(in);
		return -1;
	}
	free(in);
	in = line;
	if ((out = util_file_create(expect, "fwk_op_summary.csv", cause)) ==
	    NULL) {
		free(in);
		return -1;
	}
	for (; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		if (col < 0) {
			for (i = 0; (c = (char *)gen_fwk_cell(line, i)) !=
			    NULL; i++)
				if (strncmp(c, "Task Start Time(us)", 19) == 0)
					col = i;
			fprintf(out, "%s%s\n", any ? "Step Id," : "", line);
			continue;
		}
		if (!any) {
			fprintf(out, "%s\n", line);
			continue;
		}
		c = (char *)gen_fwk_cell(line, col);
		s = -1;
		if (c != NULL && sscanf(c, "%" SCNd64 ".%3" SCNd64, &us,
		    &frac) == 2) {
			ns = us * 1000 + frac;
			for (s = 0; s < f->nsteps; s++)
				if (f->ranged[s] && ns >= f->dmin[s] &&
				    ns <= f->dmax[s])
					break;
		}
		if (s >= 0 && s < f->nsteps)
			fprintf(out, "%d,%s\n", s + 1, line);
		else
			fprintf(out, "N/A,%s\n", line);
	}
	free(in);
	return util_file_close(out, expect, "fwk_op_summary.csv", cause);
}

/*
 * Write the FRAMEWORK/ folder and profiler_info.json of the torch_npu
 * profile TOP for the launches of G, the host threads TIDS, and the
 * expected spans and flows into EXPECT if set.
 */
int
gen_prof_fwk(struct gen_prof *g, const struct gen_prof_clock *c,
    const uint32_t *tids, const char *top, const char *root,
    const char *expect, char **cause)
{
	struct gen_fwk	 f;
	const struct {
		const char		*name;
		const struct gen_buf	*b;
	} files[] = {
		{ .name = "torch.op_range", .b = &f.ops },
		{ .name = "torch.op_mark", .b = &f.marks },
		{ .name = "torch.python_tracer_func", .b = &f.func },
		{ .name = "torch.python_tracer_hash", .b = &f.hash },
		{ .name = "torch.gc_record", .b = &f.gc },
		{ .name = "torch.memory_usage", .b = &f.mem },
		{ .name = "torch.param_tensor_info", .b = &f.params }
	};
	struct strbuf	 b;
	char		*dir;
	int64_t		*t0 = NULL, e;
	size_t		 nt0 = 0, i, j;
	int		 ti, rc = 0;
	FILE		*out;

	memset(&f, 0, sizeof f);
	f.g = g;
	f.c = c;
	f.pid = g->o->seed * 7 + 4242;
	strbuf_init(&f.flows);
	strbuf_init(&f.op_rows);
	strbuf_init(&f.param_rows);
	f.kmin = xcalloc(g->nops + 1, sizeof *f.kmin);
	f.kmax = xcalloc(g->nops + 1, sizeof *f.kmax);
	for (i = 0; i < g->nops; i++) {
		f.kmin[i] = INT64_MAX;
		f.kmax[i] = INT64_MIN;
	}
	for (i = 0; i < g->ntasks; i++) {
		j = g->tasks[i].op;
		e = g->tasks[i].start + g->tasks[i].dur;
		f.kmin[j] = g->tasks[i].start < f.kmin[j] ?
		    g->tasks[i].start : f.kmin[j];
		f.kmax[j] = e > f.kmax[j] ? e : f.kmax[j];
	}
	/* torch_npu's conversion leaves out the host's cntvct_diff. */
	f.shift = c->tick > 1 ? -c->diff * c->tick : 0;
	/* The steps run on the thread that enqueues, if one does. */
	f.step_ti = g->o->threads > 1 ? 1 : 0;
	gen_fwk_name(&f, 0x4242, "model.py(40): forward");
	for (ti = 0; ti < g->o->threads; ti++)
		gen_fwk_thread(&f, tids, ti, &t0, &nt0);
	gen_fwk_optimizer_params(&f);
	gen_fwk_steps(&f, f.step_py, (const int64_t (*)[3])f.sops, f.nsops);
	/* An enqueue end whose start was lost. */
	if (g->o->threads > 1)
		gen_fwk_mark(&f, c->begin + 10 * c->tick, 1, 999999,
		    tids[0] + 7, "aten::lost");
	gen_fwk_gc(&f);
	if ((dir = gen_prof_bin_fwk_dir(top, cause)) == NULL)
		rc = -1;
	for (i = 0; rc == 0 && i < sizeof files / sizeof *files; i++) {
		/* No task queue: no mark file. */
		if (files[i].b == &f.marks && f.marks.len == 0)
			continue;
		rc = gen_prof_bin_write(dir, files[i].name,
		    (const char *)files[i].b->p, files[i].b->len, cause);
	}
	strbuf_init(&b);
	strbuf_addf(&b, "{\"config\":{\"common_config\":{\"activities\":"
	    "[\"ProfilerActivity.CPU\",\"ProfilerActivity.NPU\"]}},"
	    "\"start_info\":{\"syscnt_enable\":%s,\"freq\":100,"
	    "\"start_cnt\":%llu,\"start_monotonic\":%lld},\"end_info\":{"
	    "\"collectionTimeEnd\":%lld,\"MonotonicTimeEnd\":%lld},"
	    "\"torch_npu_version\":\"2.7.1\",\"cann_version\":\"8.0.0\","
	    "\"rank_id\":%d}\n", c->tick > 1 ? "true" : "false",
	    (unsigned long long)gen_prof_core_host_raw(c, c->sync),
	    (long long)(c->sync - c->diff * c->tick),
	    (long long)(c->end + g->local_off),
	    (long long)c->end, g->o->rank >= 0 ? g->o->rank :
	    (int)(g->o->seed % 4));
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
			    (long long)(f.v[i].start + g->local_off +
			    f.shift),
			    (long long)(f.v[i].end + g->local_off + f.shift),
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
	if (rc == 0 && expect != NULL)
		rc = gen_fwk_stepped(&f, expect, cause);
	if (rc == 0 && expect != NULL && g->o->threads == 1 &&
	    (out = util_file_create(expect, "fwk_operator_details.csv",
	    cause)) != NULL) {
		fprintf(out, "Name,Input Shapes,Call Stack,"
		    "Host Self Duration(us),Host Total Duration(us),"
		    "Device Self Duration(us),Device Total Duration(us),"
		    "Device Self Duration With AICore(us),"
		    "Device Total Duration With AICore(us)\n%s",
		    f.op_rows.s != NULL ? f.op_rows.s : "");
		rc = util_file_close(out, expect, "fwk_operator_details.csv",
		    cause);
	} else if (rc == 0 && expect != NULL && g->o->threads == 1)
		rc = -1;
	if (rc == 0 && expect != NULL && (out = util_file_create(expect,
	    "fwk_param_tensor_info.csv", cause)) != NULL) {
		fprintf(out, "Key,Call,Module UID,Kind,Index,Name,Dtype,Shape,"
		    "Strides,Device Type,Device Index,Bytes,Ptr,Grad Shape,"
		    "State\n%s", f.param_rows.s != NULL ? f.param_rows.s : "");
		rc = util_file_close(out, expect, "fwk_param_tensor_info.csv",
		    cause);
	} else if (rc == 0 && expect != NULL)
		rc = -1;
	if (rc == 0 && expect != NULL && (out = util_file_create(expect,
	    "fwk_incomplete.txt", cause)) != NULL) {
		fprintf(out, "%lld\n", (long long)f.incomplete);
		rc = util_file_close(out, expect, "fwk_incomplete.txt", cause);
	} else if (rc == 0 && expect != NULL)
		rc = -1;
	if (rc == 0 && expect != NULL)
		rc = gen_fwk_rows_write(&f.opmem_rows, expect,
		    "fwk_operator_memory.csv", "Name,Size(KB),"
		    "Allocation Time(us),Release Time(us),"
		    "Active Release Time(us),Duration(us),Active Duration(us),"
		    "Allocation Total Allocated(MB),"
		    "Allocation Total Reserved(MB),Allocation Total Active(MB),"
		    "Release Total Allocated(MB),Release Total Reserved(MB),"
		    "Release Total Active(MB),Stream Ptr,Device Type", cause);
	if (rc == 0)
		rc = gen_prof_mem(g, c, root, f.pta, f.npta, expect, cause);
	for (i = 0; i < f.n; i++) {
		free(f.v[i].name);
		free(f.v[i].args);
	}
	free(f.v);
	free(t0);
	free(f.kmin);
	free(f.kmax);
	free(f.q);
	free(f.sops);
	free(dir);
	strbuf_release(&f.flows);
	free(f.pta);
	gen_fwk_rows_free(&f.opmem_rows);
	strbuf_release(&f.op_rows);
	strbuf_release(&f.param_rows);
	gen_prof_bin_buf_free(&f.params);
	gen_prof_bin_buf_free(&f.ops);
	gen_prof_bin_buf_free(&f.marks);
	gen_prof_bin_buf_free(&f.func);
	gen_prof_bin_buf_free(&f.hash);
	gen_prof_bin_buf_free(&f.gc);
	gen_prof_bin_buf_free(&f.mem);
	return rc;
}
