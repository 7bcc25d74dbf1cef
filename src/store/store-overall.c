/*
 * Where one run's time goes, as msprof-analyze's overall comparison
 * splits it: computing, uncovered communication and free time from the
 * trace's Overlap Analysis process, end to end from its first to its
 * last event; computing split by kernel kind (flash attention, conv and
 * matmul forward and backward, cube or vector, paged attention, vector
 * with or without trans, tensor moves, other cube, MC2), each kernel
 * placed by the PyTorch op that launched it (its async_npu flow) and
 * else by its op type; uncovered communication per group into wait and
 * transmit (the Notify_Wait tasks of the group's plane that waits least,
 * not those ending an RDMA transfer), and how much groups overlap; free
 * time less SDMA copies on computing streams. Steps are not told apart,
 * as the tool does not tell them apart for this table.
 */
#include <sys/types.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store-int.h"

/* A time span in ns. */
struct overall_span {
	int64_t		 s;
	int64_t		 e;
	int64_t		 tid;
};

/* A kernel of kernel_details as the split reads it. */
struct overall_kernel {
	char		*name;
	char		*type;
	int64_t		 start;
	int64_t		 end;
	double		 dur;		/* us */
	double		 aicore;	/* us, NAN where none */
	double		 mac;
	double		 aiv_vec;
	double		 mc2_compute;	/* us */
	int64_t		 flow;		/* its op's flow start, or 0 */
	size_t		 order;
};

/* A PyTorch op whose kernels are cube work: its kind and direction. */
struct overall_op {
	int64_t		 s;
	int64_t		 e;
	int		 kind;		/* OVERALL_FA... */
	bool		 bwd;
};

enum { OVERALL_FA = 1, OVERALL_CONV, OVERALL_MM };

/* The SDMA copies of a stream. */
struct overall_stream {
	int64_t			 stream;
	struct store_overall_part part;
};

/* Flow ends and their starts, by end time. */
struct overall_flow {
	int64_t		 end;
	int64_t		 start;
	size_t		 order;		/* of the flow's id, first seen */
};

static const char *const overall_fa_mask[] = { "flash_attention",
	"fusion_attention", "flashattn", "xformers_flash",
	"efficient_attention", "flash2attn", NULL };
static const char *const overall_mm_mask[] = { "aten::addmm", "aten::bmm",
	"aten::mm", "aten::matmul", NULL };
static const char *const overall_bwd[] = { "bwd", "backward", "back",
	"grad", NULL };
static const char *const overall_trans[] = { "cast", "transdata",
	"transpose", NULL };
static const char *const overall_mc2[] = { "allgathermatmul",
	"matmulreducescatter", "matmulallreduce", NULL };

/* Whether S, lowered, holds one of the strings of MASK. */
static bool
store_overall_has(const char *s, const char *const *mask)
{
	char	*l = xstrdup(s != NULL ? s : ""), *p;
	bool	 found = false;

	for (p = l; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	for (; *mask != NULL && !found; mask++)
		found = strstr(l, *mask) != NULL;
	free(l);
	return found;
}

/* Whether S, lowered, is one of the strings of LIST. */
static bool
store_overall_is(const char *s, const char *const *list)
{
	for (; s != NULL && *list != NULL; list++) {
		if (strcasecmp(s, *list) == 0)
			return true;
	}
	return false;
}

void
store_overall_free(struct store_overall *ov)
{
	size_t	 i;

	if (ov == NULL)
		return;
	for (i = 0; i < ov->nmc2; i++)
		free(ov->mc2[i].name);
	for (i = 0; i < ov->ngroups; i++) {
		free(ov->groups[i].name);
		free(ov->groups[i].pg);
	}
	for (i = 0; i < ov->npairs; i++) {
		free(ov->pairs[i].a);
		free(ov->pairs[i].b);
	}
	free(ov->mc2);
	free(ov->groups);
	free(ov->pairs);
	free(ov);
}

/* The pid of the last process named NAME (or ALT) of RANK, or -1. */
static int64_t
store_overall_pid(struct store *s, int64_t rank, const char *name,
    const char *alt)
{
	sqlite3_stmt	*stmt;
	int64_t		 pid = -1;

	if (store_prepare(s, &stmt, "SELECT pid FROM lane WHERE tid IS NULL"
	    " AND (name = ?1 OR name = ?2) AND (?3 IS NULL OR rank = ?3)"
	    " ORDER BY id DESC LIMIT 1", NULL) != 0)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, alt, -1, SQLITE_STATIC);
	store_load_bind_i64(stmt, 3, rank);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		pid = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return pid;
}

/*
 * The time EVENTS (sorted by start here) overlap the spans UNCOVERED
 * (sorted by start), in ns, as the tool counts it: an event is measured
 * from the later of its start and the span's start, and an event
 * reaching past a span's end ends that span's count and is looked at
 * again for the next span.
 */
static int64_t
store_overall_overlap(const struct overall_span *uncovered, size_t nu,
    struct overall_span *events, size_t ne)
{
	const struct overall_span	*c;
	const struct overall_span	*e;
	int64_t				 t = 0;
	size_t				 i, k = 0;

	for (i = 0; i < nu; i++) {
		c = &uncovered[i];
		while (k < ne) {
			e = &events[k];
			if (e->e <= c->s) {
				k++;
				continue;
			}
			if (e->s >= c->e)
				break;
			if (e->e >= c->e) {
				t += c->e - (e->s > c->s ? e->s : c->s);
				break;
			}
			t += e->e - (e->s > c->s ? e->s : c->s);
			k++;
		}
	}
	return t;
}

/*
 * The parts of the ops OPS (sorted by start) that the spans UNCOVERED
 * (sorted) do not cover, as the tool cuts them; a new array of *NOUT.
 */
static struct overall_span *
store_overall_uncovered(const struct overall_span *ops, size_t nops,
    const struct overall_span *uncovered, size_t nu, size_t *nout)
{
	struct overall_span	*out = NULL;
	const struct overall_span *c, *u;
	size_t			 i, k = 0, n = 0;

	for (i = 0; i < nops; i++) {
		c = &ops[i];
		while (k < nu) {
			u = &uncovered[k];
			if (u->e < c->s) {
				k++;
				continue;
			}
			if (u->s > c->e)
				break;
			out = util_grow(out, n, 1, sizeof *out);
			out[n].s = u->s > c->s ? u->s : c->s;
			out[n].tid = 0;
			if (u->e < c->e) {
				out[n++].e = u->e;
				k++;
				continue;
			}
			out[n++].e = u->e < c->e ? u->e : c->e;
			break;
		}
	}
	*nout = n;
	return out;
}

static int
store_overall_span_cmp(const void *a, const void *b)
{
	const struct overall_span	*x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;	/* tid: its order */
}

static int
store_overall_flow_cmp(const void *a, const void *b)
{
	const struct overall_flow	*x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The Overlap Analysis process of the trace: computing and uncovered
 * communication time summed, end to end from the first event's start to
 * the last one's end, and the uncovered spans in *UNC (sorted).
 */
static int
store_overall_overlap_pass(struct store *s, int64_t rank,
    struct store_overall *ov, struct overall_span **unc, size_t *nunc,
    char **cause)
{
	sqlite3_stmt	*stmt;
	const char	*name;
	int64_t		 pid, st, en, lo = INT64_MAX, hi = INT64_MIN;
	size_t		 n = 0;
	int		 rc;

	*unc = NULL;
	*nunc = 0;
	if ((pid = store_overall_pid(s, rank, "Overlap Analysis", "")) == -1) {
		xasprintf(cause, "'%s' has no Overlap Analysis process in its"
		    " trace, which the overall table is built from", s->path);
		return -1;
	}
	if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, n.s FROM"
	    " api a LEFT JOIN str n ON n.id = a.name WHERE a.pid = ?1 AND"
	    " (?2 IS NULL OR a.rank = ?2) ORDER BY a.id", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, pid);
	store_load_bind_i64(stmt, 2, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		st = sqlite3_column_int64(stmt, 0);
		en = sqlite3_column_int64(stmt, 1);
		name = (const char *)sqlite3_column_text(stmt, 2);
		lo = st < lo ? st : lo;
		hi = en > hi ? en : hi;
		if (name == NULL)
			continue;
		if (strcmp(name, "Computing") == 0)
			ov->compute += (double)(en - st) / 1000.0;
		else if (strcmp(name, "Communication(Not Overlapped)") == 0) {
			ov->not_overlapped += (double)(en - st) / 1000.0;
			*unc = util_grow(*unc, n, 1, sizeof **unc);
			(*unc)[n].s = st;
			(*unc)[n].e = en;
			(*unc)[n].tid = (int64_t)n;
			n++;
		}
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the overlap analysis of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		free(*unc);
		*unc = NULL;
		return -1;
	}
	if (n > 1)
		qsort(*unc, n, sizeof **unc, store_overall_span_cmp);
	*nunc = n;
	ov->e2e = lo <= hi ? (double)(hi - lo) / 1000.0 : 0;
	return 0;
}

/*
 * The async_npu flows of S (of RANK) in *V, as Python's dict of them by
 * id keeps them: in the order their ids first come, each with the last
 * start and the last end (time, process and thread) of its id, INT64_MIN
 * where it has none. -1 with *cause set on failure.
 */
int
store_npu_flows(struct store *s, int64_t rank, struct store_npu_flow **out,
    size_t *nout, char **cause)
{
	sqlite3_stmt		*stmt;
	struct util_map		 ids;
	struct store_npu_flow	*v = NULL;
	const char		*id, *ph;
	uint64_t		 key, at;
	size_t			 n = 0;
	int			 rc;

	*out = NULL;
	*nout = 0;
	if (store_prepare(s, &stmt, "SELECT f.id, f.phase, f.ts_ns, f.pid,"
	    " f.tid FROM flow f JOIN str c ON c.id = f.cat WHERE lower(c.s) ="
	    " 'async_npu' AND (?1 IS NULL OR f.rank = ?1) ORDER BY f.rowid",
	    cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	util_map_init(&ids);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		id = (const char *)sqlite3_column_text(stmt, 0);
		ph = (const char *)sqlite3_column_text(stmt, 1);
		if (id == NULL || ph == NULL || (strcmp(ph, "s") != 0 &&
		    strcmp(ph, "f") != 0))
			continue;
		key = util_hash64(id, strlen(id));
		if (!util_map_get(&ids, key, &at)) {
			v = util_grow(v, n, 1, sizeof *v);
			v[n].start = v[n].end = INT64_MIN;
			v[n].pid = v[n].tid = INT64_MIN;
			at = ++n;
			util_map_set(&ids, key, at);
		}
		if (*ph == 's')
			v[at - 1].start = sqlite3_column_int64(stmt, 2);
		else {
			v[at - 1].end = sqlite3_column_int64(stmt, 2);
			v[at - 1].pid = sqlite3_column_int64(stmt, 3);
			v[at - 1].tid = sqlite3_column_int64(stmt, 4);
		}
	}
	sqlite3_finalize(stmt);
	util_map_release(&ids);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the flows of '%s': %s", s->path,
		    sqlite3_errmsg(s->db));
		free(v);
		return -1;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* The flows from PyTorch ops to kernels, by end time, in *FLOWS. */
static int
store_overall_flows(struct store *s, int64_t rank,
    struct overall_flow **flows, size_t *nflows, char **cause)
{
	struct store_npu_flow	*f;
	struct overall_flow	*v;
	size_t			 n, i;

	if (store_npu_flows(s, rank, &f, &n, cause) != 0)
		return -1;
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].start = f[i].start;
		v[i].end = f[i].end;
		v[i].order = i;
	}
	free(f);
	if (n > 1)
		qsort(v, n, sizeof *v, store_overall_flow_cmp);
	*flows = v;
	*nflows = n;
	return 0;
}

/* The start of the last flow (by id order) ending at END, or 0. */
static int64_t
store_overall_flow_start(const struct overall_flow *v, size_t n,
    int64_t end)
{
	size_t	 lo = 0, hi = n, mid;
	int64_t	 start = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].end < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].end == end; lo++) {
		if (v[lo].start != INT64_MIN)
			start = v[lo].start;
		else
			start = 0;
	}
	return start;
}

/*
 * The PyTorch ops of cube work (flash attention, convolutions, matmuls)
 * in *OPS, sorted by start; a convolution is backward when its thread is
 * the one fwdbwd flows end on, or its name says so.
 */
static int
store_overall_ops(struct store *s, int64_t rank, struct overall_op **ops,
    size_t *nops, char **cause)
{
	sqlite3_stmt		*stmt;
	struct overall_op	*v = NULL;
	const char		*name;
	int64_t			 bwd_tid = INT64_MIN;
	size_t			 n = 0;
	int			 rc, kind;
	bool			 bwd;

	if (store_prepare(s, &stmt, "SELECT f.tid FROM flow f JOIN str c ON"
	    " c.id = f.cat WHERE lower(c.s) = 'fwdbwd' AND f.phase = 'f' AND"
	    " (?1 IS NULL OR f.rank = ?1) ORDER BY f.rowid DESC LIMIT 1",
	    cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		bwd_tid = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, a.tid, n.s"
	    " FROM api a JOIN str l ON l.id = a.level JOIN str n ON n.id ="
	    " a.name WHERE l.s = 'python' AND (?1 IS NULL OR a.rank = ?1)"
	    " ORDER BY a.start_ns, a.id", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(stmt, 3);
		bwd = store_overall_has(name, overall_bwd);
		if (store_overall_has(name, overall_mm_mask))
			kind = OVERALL_MM;
		else if (store_overall_has(name, overall_fa_mask))
			kind = OVERALL_FA;
		else if (store_overall_has(name, (const char *const [])
		    { "aten::conv", NULL })) {
			kind = OVERALL_CONV;
			bwd = bwd || (sqlite3_column_type(stmt, 2) !=
			    SQLITE_NULL && sqlite3_column_int64(stmt, 2) ==
			    bwd_tid);
		} else
			continue;
		v = util_grow(v, n, 1, sizeof *v);
		v[n].s = sqlite3_column_int64(stmt, 0);
		v[n].e = sqlite3_column_int64(stmt, 1);
		v[n].kind = kind;
		v[n].bwd = bwd;
		n++;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the PyTorch ops of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		free(v);
		return -1;
	}
	*ops = v;
	*nops = n;
	return 0;
}

/* The PMU columns the split reads, by their place in a task's values. */
enum { PMU_AICORE, PMU_MAC, PMU_AIV_VEC, PMU_AIC_MAC, PMU_AIC_MTE2,
	PMU_AIV, PMU_N };
static const char *const overall_pmu[PMU_N] = { "aicore_time(us)",
	"mac_time(us)", "aiv_vec_time(us)", "aic_mac_time(us)",
	"aic_mte2_time(us)", "aiv_time(us)" };

/*
 * Where the PMU columns NAMES (N of them) are in the values of set SET of
 * S: AT[k] the place of NAMES[k], or -1.
 */
void
store_pmu_places(struct store *s, int64_t set, const char *const *names,
    size_t n, int64_t *at)
{
	struct store_pmu_iter	 it;
	struct store_val	 v;
	sqlite3_stmt		*stmt;
	char			*t;
	int64_t			 i = 0;
	size_t			 k;

	for (k = 0; k < n; k++)
		at[k] = -1;
	if (store_prepare(s, &stmt, "SELECT names FROM pmu_set WHERE id = ?1",
	    NULL) != 0)
		return;
	sqlite3_bind_int64(stmt, 1, set);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		store_pmu_iter_init(&it, sqlite3_column_blob(stmt, 0),
		    (size_t)sqlite3_column_bytes(stmt, 0));
		while (store_pmu_next(&it, &t, &v)) {
			for (k = 0; t != NULL && k < n; k++) {
				if (strcmp(t, names[k]) == 0)
					at[k] = i;
			}
			free(t);
			i++;
		}
	}
	sqlite3_finalize(stmt);
}

/*
 * The N PMU values of a task (BLOB of LEN bytes) at the places AT (see
 * store_pmu_places) in OUT, NAN where it has none.
 */
void
store_pmu_values(const void *blob, size_t len, const int64_t *at, size_t n,
    double *out)
{
	struct store_pmu_iter	 it;
	struct store_val	 v;
	char			*t;
	int64_t			 i = 0;
	size_t			 k;

	for (k = 0; k < n; k++)
		out[k] = NAN;
	store_pmu_iter_init(&it, blob, len);
	while (store_pmu_next(&it, &t, &v)) {
		free(t);
		for (k = 0; k < n; k++) {
			if (at[k] != i)
				continue;
			if (v.kind == VAL_REAL)
				out[k] = v.d;
			else if (v.kind == VAL_INT)
				out[k] = (double)v.i;
		}
		i++;
	}
}

static int
store_overall_kernel_cmp(const void *a, const void *b)
{
	const struct overall_kernel	*x = a, *y = b;

	if (x->flow != y->flow)
		return x->flow < y->flow ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The kernels of kernel_details with PMU data, in *K sorted by the start
 * of the flow that launched each (none first); *HIDE when the run has no
 * PMU columns to split by.
 */
static int
store_overall_kernels(struct store *s, int64_t rank,
    struct overall_kernel **k, size_t *nk, bool *hide, char **cause)
{
	struct overall_flow	*flows = NULL;
	struct overall_kernel	*v = NULL;
	sqlite3_stmt		*stmt;
	const char		*name, *type;
	int64_t			 at[PMU_N], set = INT64_MIN;
	double			 pmu[PMU_N];
	size_t			 nflows = 0, n = 0, first = 1;
	int			 rc;

	*hide = true;
	if (store_overall_flows(s, rank, &flows, &nflows, cause) != 0)
		return -1;
	if (store_prepare(s, &stmt, "SELECT t.start_ns, t.dur_ns, n.s, o.s,"
	    " t.pmu_set, t.pmu FROM task t LEFT JOIN str n ON n.id = t.name"
	    " LEFT JOIN str o ON o.id = t.op_type WHERE (?1 IS NULL OR"
	    " t.rank = ?1) ORDER BY t.id", cause) != 0) {
		free(flows);
		return -1;
	}
	store_load_bind_i64(stmt, 1, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 4) == SQLITE_NULL) {
			if (first)
				break;
			continue;
		}
		if (sqlite3_column_int64(stmt, 4) != set) {
			set = sqlite3_column_int64(stmt, 4);
			store_pmu_places(s, set, overall_pmu, PMU_N, at);
		}
		/* The tool looks at the first row's columns only. */
		if (first && at[PMU_MAC] == -1 && at[PMU_AIV_VEC] == -1)
			break;
		first = 0;
		*hide = false;
		store_pmu_values(sqlite3_column_blob(stmt, 5),
		    (size_t)sqlite3_column_bytes(stmt, 5), at, PMU_N, pmu);
		if (isnan(pmu[PMU_MAC]) && isnan(pmu[PMU_AIV_VEC]))
			continue;
		name = (const char *)sqlite3_column_text(stmt, 2);
		type = (const char *)sqlite3_column_text(stmt, 3);
		v = util_grow(v, n, 1, sizeof *v);
		v[n].name = xstrdup(name != NULL ? name : "");
		v[n].type = xstrdup(type != NULL ? type : "");
		v[n].start = sqlite3_column_int64(stmt, 0);
		v[n].end = v[n].start + sqlite3_column_int64(stmt, 1);
		v[n].dur = (double)sqlite3_column_int64(stmt, 1) / 1000.0;
		v[n].aicore = pmu[PMU_AICORE];
		v[n].mac = pmu[PMU_MAC];
		v[n].aiv_vec = pmu[PMU_AIV_VEC];
		v[n].mc2_compute = (isnan(pmu[PMU_AIC_MAC]) ? 0 :
		    pmu[PMU_AIC_MAC]);
		if (!isnan(pmu[PMU_AIC_MTE2]) && pmu[PMU_AIC_MTE2] >
		    v[n].mc2_compute)
			v[n].mc2_compute = pmu[PMU_AIC_MTE2];
		v[n].mc2_compute += isnan(pmu[PMU_AIV]) ? 0 : pmu[PMU_AIV];
		v[n].flow = store_overall_flow_start(flows, nflows,
		    v[n].start);
		v[n].order = n;
		n++;
	}
	sqlite3_finalize(stmt);
	free(flows);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		xasprintf(cause, "cannot read the kernels of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		for (; n > 0; n--) {
			free(v[n - 1].name);
			free(v[n - 1].type);
		}
		free(v);
		return -1;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, store_overall_kernel_cmp);
	*k = v;
	*nk = n;
	return 0;
}

/* Add DUR to the category TIME and count N. */
static void
store_overall_add(struct store_overall_part *p, double dur)
{
	p->us += dur;
	p->n++;
}

/* The MC2 kernel K: its time, and its communication from C_CORE_SQE. */
static void
store_overall_mc2(struct store_overall *ov, const struct overall_kernel *k,
    const struct overall_span *sqe, size_t nsqe, size_t *at)
{
	struct store_overall_mc2	*m;
	int64_t				 ends[2], comm = 0;
	size_t				 i, n = 0;

	while (*at < nsqe) {
		if (sqe[*at].e < k->start) {
			(*at)++;
			continue;
		}
		if (sqe[*at].e > k->end)
			break;
		ends[n++ % 2] = sqe[*at].e;
		if (n % 2 == 0)
			comm += ends[1] - ends[0];
		(*at)++;
	}
	for (i = 0; i < ov->nmc2; i++) {
		if (strcmp(ov->mc2[i].name, k->name) == 0)
			break;
	}
	if (i == ov->nmc2) {
		ov->mc2 = util_grow(ov->mc2, ov->nmc2, 1, sizeof *ov->mc2);
		memset(&ov->mc2[i], 0, sizeof ov->mc2[i]);
		ov->mc2[i].name = xstrdup(k->name);
		ov->nmc2++;
	}
	m = &ov->mc2[i];
	m->us += k->dur;
	m->compute += k->mc2_compute;
	m->comm += (double)comm / 1000.0;
	m->n++;
}

/* Kernel K of cube op OP: its kind, direction and cube or vector part. */
static void
store_overall_by_op(struct store_overall *ov, const struct overall_op *op,
    const struct overall_kernel *k)
{
	bool	 cube = k->mac > 0 || k->aicore > 0;
	int	 dir = op->bwd ? 1 : 0;

	switch (op->kind) {
	case OVERALL_FA:
		store_overall_add(&ov->fa[dir][cube ? 0 : 1], k->dur);
		break;
	case OVERALL_CONV:
		store_overall_add(&ov->conv[dir][cube ? 0 : 1], k->dur);
		break;
	default:
		store_overall_add(&ov->mm[cube ? 0 : 1], k->dur);
		break;
	}
}

/* Split the kernels K into the categories of OV, as the tool does. */
static void
store_overall_split(struct store_overall *ov, const struct overall_kernel *k,
    size_t nk, const struct overall_op *ops, size_t nops,
    const struct overall_span *sqe, size_t nsqe)
{
	const struct overall_kernel	*t;
	size_t				 i, o = 0, at = 0;
	bool				 placed;

	for (i = 0; i < nk; i++) {
		t = &k[i];
		if (store_overall_has(t->type, (const char *const [])
		    { "pagedattention", NULL })) {
			store_overall_add(&ov->pa, t->dur);
			continue;
		}
		if (strncasecmp(t->name, "aclnninplacecopy", 16) == 0 &&
		    store_overall_has(t->name, (const char *const [])
		    { "tensormove", NULL })) {
			store_overall_add(&ov->sdma_tm, t->dur);
			continue;
		}
		if (store_overall_is(t->name, overall_mc2)) {
			store_overall_mc2(ov, t, sqe, nsqe, &at);
			continue;
		}
		placed = false;
		while (t->flow != 0 && o < nops) {
			if (ops[o].e < t->flow) {
				o++;
				continue;
			}
			if (ops[o].s <= t->flow) {
				store_overall_by_op(ov, &ops[o], t);
				placed = true;
			}
			break;
		}
		if (placed)
			continue;
		if (store_overall_has(t->type, (const char *const [])
		    { "flashattention", "fusedinferattention", NULL })) {
			store_overall_add(&ov->fa[store_overall_has(t->type,
			    (const char *const []){ "bwd", "grad", NULL }) ?
			    1 : 0][0], t->dur);
		} else if (strncasecmp(t->type, "conv", 4) == 0) {
			store_overall_add(&ov->conv[store_overall_has(t->type,
			    overall_bwd) ? 1 : 0][0], t->dur);
		} else if (store_overall_has(t->type, (const char *const [])
		    { "matmul", NULL }))
			store_overall_add(&ov->mm[0], t->dur);
		else if (t->mac > 0 || t->aicore > 0)
			store_overall_add(&ov->cube, t->dur);
		else if (store_overall_has(t->name, overall_trans))
			store_overall_add(&ov->vec[0], t->dur);
		else
			store_overall_add(&ov->vec[1], t->dur);
	}
}

/*
 * The device's tasks and spans: LCCL kernels (kernel_aivec), C_CORE_SQE
 * tasks in *SQE (sorted by start), and SDMA copies on the streams that
 * compute (and wait on events, where any stream does). A task's stream
 * counts only where the trace names it "Stream Id", as the tool reads it.
 */
static int
store_overall_device(struct store *s, int64_t rank, struct store_overall *ov,
    struct overall_span **sqe, size_t *nsqe, char **cause)
{
	sqlite3_stmt	*stmt;
	struct util_map	 wait, compute, sdma_at;
	struct overall_stream *sdma = NULL;
	const char	*name, *tt;
	int64_t		 pid, stream, st, en;
	uint64_t	 at;
	size_t		 n = 0, nsdma = 0, nwait = 0, i;
	int		 rc;
	bool		 keyed;

	*sqe = NULL;
	*nsqe = 0;
	pid = store_overall_pid(s, rank, "Ascend Hardware", "");
	if (store_prepare(s, &stmt, "SELECT EXISTS (SELECT 1 FROM api WHERE"
	    " pid = ?1 AND json_valid(args) AND json_type(args,"
	    " '$.\"Stream Id\"') IS NOT NULL)", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, pid);
	keyed = sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_int(stmt, 0) != 0;
	sqlite3_finalize(stmt);
	if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, n.s,"
	    " CASE WHEN json_valid(a.args) THEN json_extract(a.args,"
	    " '$.\"Task Type\"') END, CASE WHEN json_valid(a.args) THEN"
	    " json_extract(a.args, '$.\"Stream Id\"') END FROM api a LEFT JOIN"
	    " str n ON n.id = a.name WHERE a.pid = ?1 AND (?2 IS NULL OR"
	    " a.rank = ?2) UNION ALL SELECT t.start_ns, t.start_ns +"
	    " t.dur_ns, n.s, y.s, CASE WHEN ?3 THEN t.stream END FROM task t"
	    " LEFT JOIN str n ON n.id = t.name LEFT JOIN str y ON y.id ="
	    " t.task_type WHERE (?2 IS NULL OR t.rank = ?2)", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, pid);
	store_load_bind_i64(stmt, 2, rank);
	sqlite3_bind_int(stmt, 3, keyed);
	util_map_init(&wait);
	util_map_init(&compute);
	util_map_init(&sdma_at);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		st = sqlite3_column_int64(stmt, 0);
		en = sqlite3_column_int64(stmt, 1);
		name = (const char *)sqlite3_column_text(stmt, 2);
		tt = (const char *)sqlite3_column_text(stmt, 3);
		if (name != NULL && strcasecmp(name, "kernel_aivec") == 0) {
			ov->lccl += (double)(en - st) / 1000.0;
			ov->nlccl++;
		}
		if (name != NULL && strcmp(name, "C_CORE_SQE") == 0) {
			*sqe = util_grow(*sqe, n, 1, sizeof **sqe);
			(*sqe)[n].s = st;
			(*sqe)[n].e = en;
			(*sqe)[n].tid = (int64_t)n;
			n++;
		}
		if (sqlite3_column_type(stmt, 4) != SQLITE_INTEGER ||
		    (stream = sqlite3_column_int64(stmt, 4)) == 0 || tt == NULL)
			continue;
		if (strcmp(tt, "EVENT_WAIT_SQE") == 0) {
			util_map_set(&wait, (uint64_t)stream, 1);
			nwait++;
		}
		else if (strcmp(tt, "SDMA_SQE") == 0 ||
		    strcmp(tt, "PCIE_DMA_SQE") == 0) {
			if (!util_map_get(&sdma_at, (uint64_t)stream, &at)) {
				sdma = util_grow(sdma, nsdma, 1, sizeof *sdma);
				memset(&sdma[nsdma], 0, sizeof *sdma);
				sdma[nsdma].stream = stream;
				at = ++nsdma;
				util_map_set(&sdma_at, (uint64_t)stream, at);
			}
			store_overall_add(&sdma[at - 1].part,
			    (double)(en - st) / 1000.0);
		} else if (store_overall_is(tt, (const char *const []){
		    "AI_CORE", "MIX_AIC", "MIX_AIV", "AI_CPU",
		    "AI_VECTOR_CORE", "FFTS_PLUS", NULL }))
			util_map_set(&compute, (uint64_t)stream, 1);
	}
	sqlite3_finalize(stmt);
	for (i = 0; rc == SQLITE_DONE && i < nsdma; i++) {
		stream = sdma[i].stream;
		if (!util_map_get(&compute, (uint64_t)stream, &at))
			continue;
		if (nwait > 0 && !util_map_get(&wait, (uint64_t)stream, &at))
			continue;
		ov->sdma.us += sdma[i].part.us;
		ov->sdma.n += sdma[i].part.n;
	}
	free(sdma);
	util_map_release(&wait);
	util_map_release(&compute);
	util_map_release(&sdma_at);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the device tasks of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		free(*sqe);
		*sqe = NULL;
		return -1;
	}
	if (n > 1)
		qsort(*sqe, n, sizeof **sqe, store_overall_span_cmp);
	*nsqe = n;
	return 0;
}

/* An HCCL thread: a group's op thread, or a plane of the group before. */
struct overall_thread {
	int64_t		 tid;
	char		*name;
	size_t		 group;		/* index in the run's groups */
	bool		 op;
	struct overall_span *waits;	/* its Notify_Wait tasks, not RDMA's */
	size_t		 nwaits;
	double		 wait_sum;	/* us */
};

/* The name of group "Group ID Communication" in parallel_group_info. */
static char *
store_overall_pg(struct store *s, const char *group)
{
	sqlite3_stmt	*stmt;
	char		*pg = NULL;

	if (!store_has_table(s, "parallel_group_info") ||
	    store_prepare(s, &stmt, "SELECT \"Group Name\" FROM"
	    " parallel_group_info WHERE 'Group ' || \"Group Id\" ||"
	    " ' Communication' = ?1 ORDER BY rowid DESC LIMIT 1", NULL) != 0)
		return NULL;
	sqlite3_bind_text(stmt, 1, group, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		pg = xstrdup(sqlite3_column_type(stmt, 0) == SQLITE_NULL ? "" :
		    (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return pg;
}

/* The threads of HCCL process PID in their sort order, in *TH. */
static int
store_overall_threads(struct store *s, int64_t rank, int64_t pid,
    struct store_overall *ov, struct overall_thread **th, size_t *nth,
    char **cause)
{
	sqlite3_stmt		*stmt;
	struct overall_thread	*v = NULL;
	const char		*name;
	size_t			 n = 0;
	bool			 group = false;
	int			 rc;

	if (store_prepare(s, &stmt, "SELECT tid, name FROM lane WHERE pid = ?1"
	    " AND tid IS NOT NULL AND sort_index IS NOT NULL AND name <> ''"
	    " AND (?2 IS NULL OR rank = ?2) ORDER BY sort_index, id", cause)
	    != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, pid);
	store_load_bind_i64(stmt, 2, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(stmt, 1);
		if (strstr(name, "Communication") == NULL && !group)
			continue;	/* a plane before any group */
		v = util_grow(v, n, 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		v[n].tid = sqlite3_column_int64(stmt, 0);
		v[n].name = xstrdup(name);
		v[n].op = strstr(name, "Communication") != NULL;
		if (v[n].op) {
			group = true;
			ov->groups = util_grow(ov->groups, ov->ngroups, 1,
			    sizeof *ov->groups);
			memset(&ov->groups[ov->ngroups], 0,
			    sizeof *ov->groups);
			ov->groups[ov->ngroups].name = xstrdup(name);
			ov->groups[ov->ngroups].pg = store_overall_pg(s,
			    name);
			ov->ngroups++;
		}
		v[n].group = ov->ngroups - 1;
		n++;
	}
	sqlite3_finalize(stmt);
	*th = v;
	*nth = n;
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the HCCL threads of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

static struct overall_thread *
store_overall_thread(struct overall_thread *th, size_t n, int64_t tid)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (th[i].tid == tid)
			return &th[i];
	}
	return NULL;
}

/*
 * The HCCL process: per group its uncovered communication split into
 * wait (the Notify_Wait tasks of its plane that waits least, leaving out
 * those after two RDMASend tasks or after RDMASend, RDMASend,
 * Notify_Wait, RDMASend: they are transfers) and transmit, and the time
 * each two groups' uncovered communication overlaps.
 */
static int
store_overall_hccl(struct store *s, int64_t rank, struct store_overall *ov,
    const struct overall_span *unc, size_t nunc, char **cause)
{
	struct overall_thread	*th = NULL, *t, *best;
	struct overall_span	**ops = NULL, *sp, *ua, *ub;
	sqlite3_stmt		*stmt;
	const char		*name;
	char			(*last)[5] = NULL, *m;
	size_t			 nth = 0, *nops = NULL, i, j, na, nb;
	bool			 rdma;
	int64_t			 pid, tid, w, u;
	int			 rc = SQLITE_DONE;

	if ((pid = store_overall_pid(s, rank, "HCCL", "Communication")) == -1)
		return 0;
	if (store_overall_threads(s, rank, pid, ov, &th, &nth, cause) != 0)
		goto out;
	ops = xcalloc(ov->ngroups + 1, sizeof *ops);
	nops = xcalloc(ov->ngroups + 1, sizeof *nops);
	last = xcalloc(nth + 1, sizeof *last);
	if (store_prepare(s, &stmt, "SELECT a.tid, a.start_ns, a.end_ns, n.s"
	    " FROM api a LEFT JOIN str n ON n.id = a.name WHERE a.pid = ?1 AND"
	    " (?2 IS NULL OR a.rank = ?2) ORDER BY a.start_ns, a.id", cause)
	    != 0)
		goto out;
	sqlite3_bind_int64(stmt, 1, pid);
	store_load_bind_i64(stmt, 2, rank);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		tid = sqlite3_column_int64(stmt, 0);
		name = (const char *)sqlite3_column_text(stmt, 3);
		t = store_overall_thread(th, nth, tid);
		if (t != NULL && t->op) {
			i = t->group;
			ops[i] = util_grow(ops[i], nops[i], 1, sizeof *ops[i]);
			sp = &ops[i][nops[i]++];
		} else if (t != NULL) {
			/* The last four tasks of the thread: R, N or O. */
			m = last[t - th];
			if (m[0] == '\0')
				memcpy(m, "OOOO", 5);
			if (name != NULL && strcmp(name, "RDMASend") == 0) {
				memmove(m, m + 1, 3);
				m[3] = 'R';
				continue;
			}
			if (name == NULL || strcmp(name, "Notify_Wait") != 0) {
				memmove(m, m + 1, 3);
				m[3] = 'O';
				continue;
			}
			rdma = strcmp(m, "RRNR") == 0 ||
			    strcmp(m + 2, "RR") == 0;
			memmove(m, m + 1, 3);
			m[3] = 'N';
			if (rdma)
				continue;
			t->waits = util_grow(t->waits, t->nwaits, 1,
			    sizeof *t->waits);
			sp = &t->waits[t->nwaits++];
			t->wait_sum += (double)(sqlite3_column_int64(stmt, 2)
			    - sqlite3_column_int64(stmt, 1)) / 1000.0;
		} else
			continue;
		sp->s = sqlite3_column_int64(stmt, 1);
		sp->e = sqlite3_column_int64(stmt, 2);
		sp->tid = 0;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the HCCL tasks of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	for (i = 0; i < ov->ngroups; i++) {
		best = NULL;
		for (j = 0; j < nth; j++) {
			if (th[j].op || th[j].group != i)
				continue;
			if (best == NULL || th[j].wait_sum < best->wait_sum)
				best = &th[j];
		}
		w = best != NULL ? store_overall_overlap(unc, nunc,
		    best->waits, best->nwaits) : 0;
		u = store_overall_overlap(unc, nunc, ops[i], nops[i]);
		ov->groups[i].wait = (double)w / 1000.0;
		ov->groups[i].transmit = (double)u / 1000.0 -
		    ov->groups[i].wait;
	}
	for (i = 0; i + 1 < ov->ngroups; i++) {
		for (j = i + 1; j < ov->ngroups; j++) {
			ua = store_overall_uncovered(ops[i], nops[i], unc,
			    nunc, &na);
			ub = store_overall_uncovered(ops[j], nops[j], unc,
			    nunc, &nb);
			u = store_overall_overlap(ua, na, ub, nb);
			free(ua);
			free(ub);
			if (u == 0)
				continue;
			ov->pairs = util_grow(ov->pairs, ov->npairs, 1,
			    sizeof *ov->pairs);
			ov->pairs[ov->npairs].a = xstrdup(ov->groups[i].name);
			ov->pairs[ov->npairs].b = xstrdup(ov->groups[j].name);
			ov->pairs[ov->npairs].ms = (double)u / 1000.0 /
			    1000.0;
			ov->npairs++;
		}
	}
out:
	for (i = 0; i < nth; i++) {
		free(th[i].name);
		free(th[i].waits);
	}
	for (i = 0; ops != NULL && i < ov->ngroups; i++)
		free(ops[i]);
	free(th);
	free(ops);
	free(nops);
	free(last);
	return rc == SQLITE_DONE && *cause == NULL ? 0 : -1;
}

/* The runtime task types the tool leaves out of a database's bounds. */
static const char *const overall_db_filter[] = { "KERNEL_AICORE",
	"KERNEL_AIVEC", "FFTS_PLUS", "KERNEL_MIX_AIC", "KERNEL_MIX_AIV",
	"PROFILING_ENABLE", "PROFILING_DISABLE", NULL };

/* The PMU values the database path reads, as the database names them. */
enum { DBPMU_TOTAL, DBPMU_MAC, DBPMU_MTE2, DBPMU_AIV, DBPMU_N };
static const char *const overall_db_pmu[DBPMU_N] = { "aic_total_time",
	"aic_mac_time", "aic_mte2_time", "aiv_time" };

/* Merge the spans V (sorted here) in place; return how many are left. */
static size_t
store_overall_merge(struct overall_span *v, size_t n)
{
	size_t	 i, m = 0;

	if (n > 1)
		qsort(v, n, sizeof *v, store_overall_span_cmp);
	for (i = 0; i < n; i++) {
		if (m > 0 && v[i].s <= v[m - 1].e) {
			if (v[i].e > v[m - 1].e)
				v[m - 1].e = v[i].e;
			continue;
		}
		v[m++] = v[i];
	}
	return m;
}

/* A communication op or task of a database export: its group too. */
struct overall_db_comm {
	struct overall_span	 sp;
	char			*group;
	int64_t			 plane;
	bool			 wait;		/* a Notify_Wait that is a wait */
	double			 dur;		/* us */
};

static void
store_overall_db_comm_free(struct overall_db_comm *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i].group);
	free(v);
}

/*
 * The HCCL spans of a database export (level HCCL, the ops on thread 0,
 * a task on its plane's thread) in *OPS and *TASKS, by start; a task's
 * Notify_Wait marked a wait unless it ends an RDMA transfer, its last
 * four tasks per group and plane telling.
 */
static int
store_overall_db_comms(struct store *s, int64_t rank, int64_t w0, int64_t w1,
    struct overall_db_comm **ops, size_t *nops,
    struct overall_db_comm **tasks, size_t *ntasks, char **cause)
{
	struct overall_db_comm	*c;
	sqlite3_stmt		*stmt;
	const char		*name, *g;
	char			(*mode)[5] = NULL, **keys = NULL, *m;
	size_t			 nmode = 0, i;
	int64_t			 plane;
	bool			 rdma;
	int			 rc;

	*ops = *tasks = NULL;
	*nops = *ntasks = 0;
	if (store_prepare(s, &stmt, "SELECT a.tid, a.start_ns, a.end_ns, n.s,"
	    " CASE WHEN json_valid(a.args) THEN json_extract(a.args,"
	    " '$.\"group name\"') END FROM api a JOIN str l ON l.id = a.level"
	    " LEFT JOIN str n ON n.id = a.name WHERE l.s = 'HCCL' AND a.pid IS"
	    " NULL AND (?1 IS NULL OR a.rank = ?1) AND a.start_ns BETWEEN ?2"
	    " AND ?3 ORDER BY a.start_ns, a.id", cause) != 0)
		return -1;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, w0);
	sqlite3_bind_int64(stmt, 3, w1);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		plane = sqlite3_column_int64(stmt, 0);
		name = (const char *)sqlite3_column_text(stmt, 3);
		g = (const char *)sqlite3_column_text(stmt, 4);
		if (plane == 0) {
			*ops = util_grow(*ops, *nops, 1, sizeof **ops);
			c = &(*ops)[(*nops)++];
		} else {
			*tasks = util_grow(*tasks, *ntasks, 1, sizeof **tasks);
			c = &(*tasks)[(*ntasks)++];
		}
		memset(c, 0, sizeof *c);
		c->sp.s = sqlite3_column_int64(stmt, 1);
		c->sp.e = sqlite3_column_int64(stmt, 2);
		c->dur = (double)(c->sp.e - c->sp.s) / 1000.0;
		c->group = xstrdup(g != NULL ? g : "");
		c->plane = plane - 1;
		if (plane == 0) {
			/* kernel_aivec ops are LCCL's: their name marks them. */
			c->wait = name != NULL && strcasecmp(name,
			    "kernel_aivec") == 0;
			continue;
		}
		/* The last four tasks of the group's plane: R, N or O. */
		for (i = 0; i < nmode; i++) {
			if (strcmp(keys[i], c->group) == 0 &&
			    mode[i][4] == (char)plane)
				break;
		}
		if (i == nmode) {
			mode = util_grow(mode, nmode, 1, sizeof *mode);
			keys = util_grow(keys, nmode, 1, sizeof *keys);
			keys[nmode] = xstrdup(c->group);
			memcpy(mode[nmode], "OOOO", 4);
			mode[nmode][4] = (char)plane;
			nmode++;
		}
		m = mode[i];
		if (name != NULL && strcmp(name, "RDMASend") == 0) {
			memmove(m, m + 1, 3);
			m[3] = 'R';
		} else if (name != NULL && strcmp(name, "Notify_Wait") == 0) {
			rdma = strncmp(m, "RRNR", 4) == 0 || strncmp(m + 2,
			    "RR", 2) == 0;
			c->wait = !rdma;
			memmove(m, m + 1, 3);
			m[3] = 'N';
		} else {
			memmove(m, m + 1, 3);
			m[3] = 'O';
		}
	}
	sqlite3_finalize(stmt);
	for (i = 0; i < nmode; i++)
		free(keys[i]);
	free(keys);
	free(mode);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the communication of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	return 0;
}

/* The spans of group G among C (N of them), new, sorted by start. */
static struct overall_span *
store_overall_db_group(const struct overall_db_comm *c, size_t n,
    const char *g, int64_t plane, bool waits, size_t *out)
{
	struct overall_span	*v = NULL;
	size_t			 i, k = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(c[i].group, g) != 0 || (waits && (!c[i].wait ||
		    c[i].plane != plane)))
			continue;
		v = util_grow(v, k, 1, sizeof *v);
		v[k] = c[i].sp;
		v[k].tid = (int64_t)k;
		k++;
	}
	if (k > 1)
		qsort(v, k, sizeof *v, store_overall_span_cmp);
	*out = k;
	return v;
}

/* Group G of OV, made if new. */
static struct store_overall_group *
store_overall_db_add_group(struct store *s, struct store_overall *ov,
    const char *g)
{
	size_t	 i;

	for (i = 0; i < ov->ngroups; i++) {
		if (strcmp(ov->groups[i].name, g) == 0)
			return &ov->groups[i];
	}
	ov->groups = util_grow(ov->groups, ov->ngroups, 1, sizeof *ov->groups);
	memset(&ov->groups[ov->ngroups], 0, sizeof *ov->groups);
	ov->groups[ov->ngroups].name = xstrdup(g);
	ov->groups[ov->ngroups].pg = store_overall_pg(s, g);
	return &ov->groups[ov->ngroups++];
}

/*
 * The groups of a database export: per group the Notify_Wait of its
 * plane that waits least and its ops, each against the uncovered spans
 * UNC; first the groups with waits, in the order their first wait comes,
 * then the others; and the time each two groups' uncovered ops overlap.
 */
static void
store_overall_db_groups(struct store *s, struct store_overall *ov,
    const struct overall_db_comm *ops, size_t nops,
    const struct overall_db_comm *tasks, size_t ntasks,
    const struct overall_span *unc, size_t nunc)
{
	struct store_overall_group	*g;
	struct overall_span		*w, *o, *a, *b;
	char				**order = NULL;
	size_t				 norder = 0, i, j, k, nw, no, na, nb;
	double				 best, sum;
	int64_t				 bplane, u, v;

	for (i = 0; i < ntasks; i++) {
		if (!tasks[i].wait)
			continue;
		for (j = 0; j < norder && strcmp(order[j], tasks[i].group);
		    j++)
			;
		if (j == norder) {
			order = util_grow(order, norder, 1, sizeof *order);
			order[norder++] = tasks[i].group;
		}
	}
	for (j = 0; j < norder; j++) {
		/* Planes in the order their first wait comes. */
		best = INFINITY;
		bplane = -1;
		for (i = 0; i < ntasks; i++) {
			if (!tasks[i].wait || strcmp(tasks[i].group, order[j]))
				continue;
			for (k = 0; k < i; k++) {
				if (tasks[k].wait && tasks[k].plane ==
				    tasks[i].plane && !strcmp(tasks[k].group,
				    order[j]))
					break;
			}
			if (k < i)
				continue;
			for (sum = 0, k = i; k < ntasks; k++) {
				if (tasks[k].wait && tasks[k].plane ==
				    tasks[i].plane && !strcmp(tasks[k].group,
				    order[j]))
					sum += tasks[k].dur;
			}
			if (sum < best) {
				best = sum;
				bplane = tasks[i].plane;
			}
		}
		w = store_overall_db_group(tasks, ntasks, order[j], bplane,
		    true, &nw);
		o = store_overall_db_group(ops, nops, order[j], 0, false, &no);
		g = store_overall_db_add_group(s, ov, order[j]);
		u = store_overall_overlap(unc, nunc, w, nw);
		v = store_overall_overlap(unc, nunc, o, no);
		g->wait = (double)u / 1000.0;
		g->transmit = (double)v / 1000.0 - g->wait;
		free(w);
		free(o);
	}
	for (i = 0; i < nops; i++) {
		for (j = 0; j < norder && strcmp(order[j], ops[i].group); j++)
			;
		if (j < norder)
			continue;
		for (k = 0; k < ov->ngroups && strcmp(ov->groups[k].name,
		    ops[i].group); k++)
			;
		if (k < ov->ngroups)
			continue;
		o = store_overall_db_group(ops, nops, ops[i].group, 0, false,
		    &no);
		g = store_overall_db_add_group(s, ov, ops[i].group);
		g->transmit = (double)store_overall_overlap(unc, nunc, o, no) /
		    1000.0;
		free(o);
	}
	free(order);
	/* Overlaps, the groups in the order their first op comes. */
	order = NULL;
	norder = 0;
	for (i = 0; i < nops; i++) {
		for (j = 0; j < norder && strcmp(order[j], ops[i].group); j++)
			;
		if (j == norder) {
			order = util_grow(order, norder, 1, sizeof *order);
			order[norder++] = ops[i].group;
		}
	}
	for (i = 0; i + 1 < norder; i++) {
		for (j = i + 1; j < norder; j++) {
			o = store_overall_db_group(ops, nops, order[i], 0,
			    false, &no);
			a = store_overall_uncovered(o, no, unc, nunc, &na);
			free(o);
			o = store_overall_db_group(ops, nops, order[j], 0,
			    false, &no);
			b = store_overall_uncovered(o, no, unc, nunc, &nb);
			free(o);
			u = store_overall_overlap(a, na, b, nb);
			free(a);
			free(b);
			if (u == 0)
				continue;
			ov->pairs = util_grow(ov->pairs, ov->npairs, 1,
			    sizeof *ov->pairs);
			ov->pairs[ov->npairs].a = xstrdup(order[i]);
			ov->pairs[ov->npairs].b = xstrdup(order[j]);
			ov->pairs[ov->npairs].ms = (double)u / 1000.0 / 1000.0;
			ov->npairs++;
		}
	}
	free(order);
}

/*
 * The window of step STEP of a database export (its STEP_TIME: the
 * step's start to its end, both included) in *W0 and *W1, everything
 * for NP_NA. -1 with *cause set if there is no such step.
 */
static int
store_overall_db_step(struct store *s, int64_t step, int64_t *w0,
    int64_t *w1, char **cause)
{
	sqlite3_stmt	*stmt;
	int		 found = 0;

	*w0 = INT64_MIN;
	*w1 = INT64_MAX;
	if (step == NP_NA)
		return 0;
	if (store_prepare(s, &stmt, "SELECT min(iter_end_ns - iter_time_ns),"
	    " max(iter_end_ns) FROM step WHERE iter = ?1 AND iter_time_ns IS"
	    " NOT NULL", cause) != 0)
		return -1;
	sqlite3_bind_int64(stmt, 1, step);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) == SQLITE_INTEGER) {
		*w0 = sqlite3_column_int64(stmt, 0);
		*w1 = sqlite3_column_int64(stmt, 1);
		found = 1;
	}
	sqlite3_finalize(stmt);
	if (!found) {
		xasprintf(cause, "'%s' has no step %lld", s->path,
		    (long long)step);
		return -1;
	}
	return 0;
}

/*
 * The overall breakdown of a database export, as the tool works it out
 * from a database, which has no overlap analysis: computing is the
 * merged time of the compute tasks, uncovered communication that of the
 * communication ops outside it, end to end from the first of them (or of
 * the other device tasks, but kernels and profiling marks) to the last;
 * a kernel goes to its PyTorch op through the connection ids the op
 * lists, and is cube by its aic_total_time or aic_mac_time.
 */
static int
store_overall_db(struct store *s, int64_t rank, int64_t step,
    struct store_overall *ov, char **cause)
{
	struct overall_kernel	*k = NULL;
	struct overall_op	*ops = NULL;
	struct overall_span	*comp = NULL, *all = NULL, *unc = NULL;
	struct overall_span	*sqe = NULL;
	struct overall_db_comm	*cops = NULL, *ctasks = NULL;
	struct overall_stream	*sdma = NULL;
	struct util_map		 conn, wait, compute, sdma_at;
	sqlite3_stmt		*stmt = NULL;
	const char		*name, *type;
	int64_t			 at[DBPMU_N], set = INT64_MIN, lo, hi, st, en;
	int64_t			 stream, w0, w1;
	double			 pmu[DBPMU_N];
	uint64_t		 v;
	size_t			 nk = 0, nops = 0, ncomp = 0, nall = 0, nunc = 0;
	size_t			 nsqe = 0, ncops = 0, nctasks = 0, nsdma = 0;
	size_t			 nwait = 0, i, j, mc, ma;
	bool			 anypmu = false;
	int			 rc = -1, src;

	/* A step: what starts within it, its ends included, as the tool. */
	if (store_overall_db_step(s, step, &w0, &w1, cause) != 0)
		return -1;
	util_map_init(&conn);
	util_map_init(&wait);
	util_map_init(&compute);
	util_map_init(&sdma_at);
	/* Connection id -> the start of the PyTorch op listing it. */
	if (store_prepare(s, &stmt, "SELECT a.start_ns, j.value FROM api a"
	    " JOIN str l ON l.id = a.level, json_each(CASE WHEN"
	    " json_valid(a.args) THEN a.args ELSE '{}' END,"
	    " '$.connection_ids') j WHERE l.s = 'python' AND (?1 IS NULL OR"
	    " a.rank = ?1) AND a.start_ns BETWEEN ?2 AND ?3 ORDER BY"
	    " a.start_ns, a.id", cause) != 0)
		goto out;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, w0);
	sqlite3_bind_int64(stmt, 3, w1);
	while ((src = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_type(stmt, 1) == SQLITE_INTEGER)
			util_map_set(&conn, (uint64_t)sqlite3_column_int64(stmt,
			    1), (uint64_t)sqlite3_column_int64(stmt, 0));
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	/* The compute tasks, by connection id, as the tool sorts them. */
	if (store_prepare(s, &stmt, "SELECT t.start_ns, t.dur_ns, n.s, o.s,"
	    " t.conn, t.stream, t.pmu_set, t.pmu FROM task t LEFT JOIN str n"
	    " ON n.id = t.name LEFT JOIN str o ON o.id = t.op_type LEFT JOIN"
	    " str y ON y.id = t.task_type WHERE (y.s IS NULL OR y.s <>"
	    " 'COMMUNICATION') AND (?1 IS NULL OR t.rank = ?1) AND"
	    " t.start_ns BETWEEN ?2 AND ?3 ORDER BY t.conn, t.id", cause) != 0)
		goto out;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, w0);
	sqlite3_bind_int64(stmt, 3, w1);
	while ((src = sqlite3_step(stmt)) == SQLITE_ROW) {
		k = util_grow(k, nk, 1, sizeof *k);
		memset(&k[nk], 0, sizeof k[nk]);
		name = (const char *)sqlite3_column_text(stmt, 2);
		type = (const char *)sqlite3_column_text(stmt, 3);
		k[nk].name = xstrdup(name != NULL ? name : "");
		k[nk].type = xstrdup(type != NULL ? type : "");
		k[nk].start = sqlite3_column_int64(stmt, 0);
		k[nk].end = k[nk].start + sqlite3_column_int64(stmt, 1);
		k[nk].dur = (double)sqlite3_column_int64(stmt, 1) / 1000.0;
		k[nk].aicore = k[nk].mac = k[nk].aiv_vec = NAN;
		if (sqlite3_column_type(stmt, 6) != SQLITE_NULL) {
			if (sqlite3_column_int64(stmt, 6) != set) {
				set = sqlite3_column_int64(stmt, 6);
				store_pmu_places(s, set, overall_db_pmu,
				    DBPMU_N, at);
			}
			store_pmu_values(sqlite3_column_blob(stmt, 7),
			    (size_t)sqlite3_column_bytes(stmt, 7), at,
			    DBPMU_N, pmu);
			anypmu = anypmu || at[DBPMU_TOTAL] >= 0 ||
			    at[DBPMU_MAC] >= 0;
			k[nk].aicore = isnan(pmu[DBPMU_TOTAL]) ? 0 :
			    pmu[DBPMU_TOTAL];
			k[nk].mac = isnan(pmu[DBPMU_MAC]) ? 0 : pmu[DBPMU_MAC];
			k[nk].mc2_compute = ((isnan(pmu[DBPMU_MAC]) ? 0 :
			    pmu[DBPMU_MAC]) > (isnan(pmu[DBPMU_MTE2]) ? 0 :
			    pmu[DBPMU_MTE2]) ? pmu[DBPMU_MAC] :
			    (isnan(pmu[DBPMU_MTE2]) ? 0 : pmu[DBPMU_MTE2])) /
			    1000.0 + (isnan(pmu[DBPMU_AIV]) ? 0 :
			    pmu[DBPMU_AIV]) / 1000.0;
		}
		if (sqlite3_column_type(stmt, 4) == SQLITE_INTEGER &&
		    util_map_get(&conn, (uint64_t)sqlite3_column_int64(stmt,
		    4), &v))
			k[nk].flow = (int64_t)v;
		k[nk].order = nk;
		if (sqlite3_column_type(stmt, 5) == SQLITE_INTEGER)
			util_map_set(&compute, (uint64_t)sqlite3_column_int64(
			    stmt, 5), 1);
		comp = util_grow(comp, ncomp, 1, sizeof *comp);
		comp[ncomp].s = k[nk].start;
		comp[ncomp].e = k[nk].end;
		comp[ncomp++].tid = 0;
		nk++;
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (src != SQLITE_DONE) {
		xasprintf(cause, "cannot read the tasks of '%s': %s", s->path,
		    sqlite3_errmsg(s->db));
		goto out;
	}
	if (store_overall_db_comms(s, rank, w0, w1, &cops, &ncops, &ctasks,
	    &nctasks, cause) != 0 || store_overall_ops(s, rank, &ops, &nops,
	    cause) != 0)
		goto out;
	/* The PyTorch ops of the step only. */
	for (i = j = 0; i < nops; i++) {
		if (ops[i].s >= w0 && ops[i].s <= w1)
			ops[j++] = ops[i];
	}
	nops = j;
	/* Computing, and computing with communication, merged. */
	all = xcalloc(ncomp + ncops + 1, sizeof *all);
	memcpy(all, comp, ncomp * sizeof *all);
	for (i = 0; i < ncops; i++)
		all[ncomp + i] = cops[i].sp;
	nall = ncomp + ncops;
	mc = store_overall_merge(comp, ncomp);
	ma = store_overall_merge(all, nall);
	if (ma == 0) {
		xasprintf(cause, "'%s' has no compute tasks nor communication"
		    " ops: the overall table is built from them", s->path);
		goto out;
	}
	for (i = 0; i < mc; i++)
		ov->compute += (double)(comp[i].e - comp[i].s) / 1000.0;
	for (i = 0, ov->not_overlapped = 0; i < ma; i++)
		ov->not_overlapped += (double)(all[i].e - all[i].s) / 1000.0;
	ov->not_overlapped -= ov->compute;
	/* The uncovered spans: each merged span less the computing in it. */
	for (i = j = 0; i < ma; i++) {
		st = all[i].s;
		while (j < mc && comp[j].s <= all[i].e) {
			unc = util_grow(unc, nunc, 1, sizeof *unc);
			unc[nunc].s = st;
			unc[nunc].e = comp[j].s;
			unc[nunc].tid = (int64_t)nunc;
			nunc++;
			st = comp[j++].e;
		}
		unc = util_grow(unc, nunc, 1, sizeof *unc);
		unc[nunc].s = st;
		unc[nunc].e = all[i].e;
		unc[nunc].tid = (int64_t)nunc;
		nunc++;
	}
	/* End to end, the other device tasks, SDMA, C_CORE_SQE. */
	lo = all[0].s;
	hi = all[ma - 1].e;
	for (i = 0; i < nctasks; i++) {
		lo = ctasks[i].sp.s < lo ? ctasks[i].sp.s : lo;
		hi = ctasks[i].sp.e > hi ? ctasks[i].sp.e : hi;
	}
	if (store_prepare(s, &stmt, "SELECT a.start_ns, a.end_ns, n.s, a.tid"
	    " FROM api a JOIN str l ON l.id = a.level LEFT JOIN str n ON n.id"
	    " = a.name WHERE l.s = 'Ascend Hardware' AND (?1 IS NULL OR"
	    " a.rank = ?1) AND a.start_ns BETWEEN ?2 AND ?3 ORDER BY"
	    " a.start_ns, a.id", cause) != 0)
		goto out;
	store_load_bind_i64(stmt, 1, rank);
	sqlite3_bind_int64(stmt, 2, w0);
	sqlite3_bind_int64(stmt, 3, w1);
	while ((src = sqlite3_step(stmt)) == SQLITE_ROW) {
		st = sqlite3_column_int64(stmt, 0);
		en = sqlite3_column_int64(stmt, 1);
		name = (const char *)sqlite3_column_text(stmt, 2);
		stream = sqlite3_column_int64(stmt, 3);
		if (name == NULL)
			name = "";
		if (!store_overall_is(name, overall_db_filter)) {
			lo = st < lo ? st : lo;
			hi = en > hi ? en : hi;
		}
		if (strcmp(name, "C_CORE_SQE") == 0) {
			sqe = util_grow(sqe, nsqe, 1, sizeof *sqe);
			sqe[nsqe].s = st;
			sqe[nsqe].e = en;
			sqe[nsqe].tid = (int64_t)nsqe;
			nsqe++;
		}
		if (strcmp(name, "EVENT_WAIT_SQE") == 0) {
			util_map_set(&wait, (uint64_t)stream, 1);
			nwait++;
		} else if (strcmp(name, "SDMA_SQE") == 0 ||
		    strcmp(name, "PCIE_DMA_SQE") == 0) {
			if (!util_map_get(&sdma_at, (uint64_t)stream, &v)) {
				sdma = util_grow(sdma, nsdma, 1, sizeof *sdma);
				memset(&sdma[nsdma], 0, sizeof *sdma);
				sdma[nsdma].stream = stream;
				v = ++nsdma;
				util_map_set(&sdma_at, (uint64_t)stream, v);
			}
			store_overall_add(&sdma[v - 1].part, (double)(en - st) /
			    1000.0);
		}
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	for (i = 0; i < nsdma; i++) {
		if (!util_map_get(&compute, (uint64_t)sdma[i].stream, &v) ||
		    (nwait > 0 && !util_map_get(&wait,
		    (uint64_t)sdma[i].stream, &v)))
			continue;
		ov->sdma.us += sdma[i].part.us;
		ov->sdma.n += sdma[i].part.n;
	}
	ov->e2e = (double)(hi - lo) / 1000.0;
	for (i = 0; i < ncops; i++) {
		if (cops[i].wait) {	/* an LCCL kernel_aivec */
			ov->lccl += cops[i].dur;
			ov->nlccl++;
		}
	}
	if (nsqe > 1)
		qsort(sqe, nsqe, sizeof *sqe, store_overall_span_cmp);
	/* Without PMU data the tool goes by the runtime task type. */
	for (i = 0; !anypmu && i < nk; i++)
		k[i].mac = NAN;
	ov->hide = false;
	store_overall_split(ov, k, nk, ops, nops, sqe, nsqe);
	store_overall_db_groups(s, ov, cops, ncops, ctasks, nctasks, unc,
	    nunc);
	rc = 0;
out:
	if (stmt != NULL)
		sqlite3_finalize(stmt);
	for (i = 0; i < nk; i++) {
		free(k[i].name);
		free(k[i].type);
	}
	free(k);
	free(ops);
	free(comp);
	free(all);
	free(unc);
	free(sqe);
	free(sdma);
	store_overall_db_comm_free(cops, ncops);
	store_overall_db_comm_free(ctasks, nctasks);
	util_map_release(&conn);
	util_map_release(&wait);
	util_map_release(&compute);
	util_map_release(&sdma_at);
	return rc;
}

/*
 * The overall breakdown of S (its rank RANK, NP_NA when it holds one),
 * or NULL with *cause set: a run without the trace's Overlap Analysis
 * has none, but a database export. STEP (NP_NA: all) applies to a
 * database export only, as in the tool.
 */
struct store_overall *
store_overall_of(struct store *s, int64_t rank, int64_t step, char **cause)
{
	struct store_overall	*ov;
	struct overall_span	*unc = NULL, *sqe = NULL;
	struct overall_kernel	*k = NULL;
	struct overall_op	*ops = NULL;
	size_t			 nunc = 0, nsqe = 0, nk = 0, nops = 0, i;
	bool			 hide = true;
	int			 rc = -1;

	*cause = NULL;
	ov = xcalloc(1, sizeof *ov);
	/* A database export has no overlap analysis: the tool's db path. */
	if (store_overall_pid(s, rank, "Overlap Analysis", "") == -1 &&
	    store_exists(s, "SELECT 1 FROM meta WHERE key LIKE 'db.%'")) {
		if (store_overall_db(s, rank, step, ov, cause) == 0)
			return ov;
		store_overall_free(ov);
		return NULL;
	}
	if (store_overall_overlap_pass(s, rank, ov, &unc, &nunc, cause) != 0 ||
	    store_overall_device(s, rank, ov, &sqe, &nsqe, cause) != 0 ||
	    store_overall_kernels(s, rank, &k, &nk, &hide, cause) != 0 ||
	    store_overall_ops(s, rank, &ops, &nops, cause) != 0 ||
	    store_overall_hccl(s, rank, ov, unc, nunc, cause) != 0)
		goto out;
	ov->hide = hide;
	if (!hide)
		store_overall_split(ov, k, nk, ops, nops, sqe, nsqe);
	rc = 0;
out:
	for (i = 0; i < nk; i++) {
		free(k[i].name);
		free(k[i].type);
	}
	free(k);
	free(ops);
	free(unc);
	free(sqe);
	if (rc != 0) {
		store_overall_free(ov);
		return NULL;
	}
	return ov;
}
