/*
 * The Python tracer of a raw torch_npu profile (doc/formats.md section
 * 3.11): torch.python_tracer_func holds 33-byte call and return events,
 * torch.python_tracer_hash the names their keys stand for. Each thread's
 * events are replayed in time order on a stack, as the vendor's analysis
 * does: a call opens a frame, a return closes the innermost one, frames
 * still open at the end close at the thread's last event. Each frame is a
 * span of level python_function; a frame whose name holds the module
 * separator is an nn.Module call, numbered per name in the order its
 * instances (the part after the separator) first appear on the thread.
 * Names and instances are told apart by 64-bit hashes.
 */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define FWK_PY_SIZE	33
#define FWK_PY_HASH_T	4
#define FWK_PY_MODULE	"######"

enum {
	FWK_PY_CALL = 0,
	FWK_PY_RETURN = 1,
	FWK_PY_C_CALL = 2,
	FWK_PY_C_RETURN = 3
};

struct fwk_call {
	int64_t		 ts;
	uint64_t	 tid;
	uint64_t	 pid;
	uint64_t	 key;
	size_t		 idx;
	uint8_t		 tag;
};

/* A frame on the replay stack. */
struct fwk_frame {
	int64_t		 start;
	size_t		 name;		/* index in names, or SIZE_MAX */
	uint64_t	 key;
	int64_t		 id;
	int64_t		 parent;
	int64_t		 module;	/* module number, or -1 */
};

/* The names of the tracer's keys. */
struct fwk_names {
	struct util_map	 map;		/* key -> index */
	char		**v;
	uint64_t	*keys;
	size_t		 n;
};

static bool
prof_fwk_py_same(const void *arg, uint64_t v)
{
	const struct fwk_names	*nm = arg;

	return nm->keys[v] == nm->keys[nm->n];
}

/* The name of KEY's index, or SIZE_MAX. */
static size_t
prof_fwk_py_name(struct fwk_names *nm, uint64_t key)
{
	uint64_t	 h = key, v;

	nm->keys = util_grow(nm->keys, nm->n, 1, sizeof *nm->keys);
	nm->keys[nm->n] = key;
	if (util_map_probe(&nm->map, &h, prof_fwk_py_same, nm, &v))
		return (size_t)v;
	return SIZE_MAX;
}

/* Read the names of PATH: TLV records of a key and a value field. */
static void
prof_fwk_py_names(struct prof_fwk *fw, const char *path,
    struct fwk_names *nm)
{
	unsigned char	 head[6], *buf = NULL;
	size_t		 size = 0, got, vlen;
	uint32_t	 len;
	uint64_t	 key, h;
	int64_t		 off = 0;
	FILE		*f;

	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	while ((got = fread(head, 1, sizeof head, f)) == sizeof head) {
		len = importer_le32(head + 2);
		if (importer_le16(head) != FWK_PY_HASH_T || len > 1 << 24) {
			store_load_warning(fw->s, path, off, "record of type "
			    "%d and %lu bytes where type %d was expected: the "
			    "rest of the file is skipped", importer_le16(head),
			    (unsigned long)len, FWK_PY_HASH_T);
			break;
		}
		if (len > size) {
			buf = xreallocarray(buf, len, 1);
			size = len;
		}
		if (fread(buf, 1, len, f) < len) {
			store_load_warning(fw->s, path, off, "record cut "
			    "short: it is skipped");
			got = 0;
			break;
		}
		off += 6 + (int64_t)len;
		if (len < 14 || importer_le16(buf + 8) != 1 ||
		    (vlen = importer_le32(buf + 10)) > len - 14) {
			if (fw->short_recs++ == 0)
				fw->short_at = off - 6 - (int64_t)len;
			continue;
		}
		key = importer_le64(buf);
		h = key;
		if (prof_fwk_py_name(nm, key) != SIZE_MAX)
			continue;
		nm->v = util_grow(nm->v, nm->n, 1, sizeof *nm->v);
		nm->v[nm->n] = xstrndup((const char *)buf + 14, vlen);
		util_map_set(&nm->map, h, nm->n++);
	}
	if (got > 0 && got < sizeof head)
		store_load_warning(fw->s, path, off, "record header cut short: "
		    "the file ends there");
	free(buf);
	fclose(f);
}

/* Read the calls of PATH; return their count. */
static size_t
prof_fwk_py_calls(struct prof_fwk *fw, const char *path,
    struct fwk_call **out)
{
	unsigned char	 rec[FWK_PY_SIZE];
	struct fwk_call	*v = NULL, *c;
	size_t		 n = 0, got;
	FILE		*f;

	*out = NULL;
	if ((f = prof_fwk_rec_open(fw, path)) == NULL)
		return 0;
	while ((got = fread(rec, 1, sizeof rec, f)) == sizeof rec) {
		v = util_grow(v, n, 1, sizeof *v);
		c = &v[n];
		c->ts = prof_fwk_rec_ns(fw, importer_le64(rec));
		c->tid = importer_le64(rec + 8);
		c->pid = importer_le64(rec + 16);
		c->key = importer_le64(rec + 24);
		c->tag = rec[32];
		c->idx = n++;
	}
	if (got > 0)
		store_load_warning(fw->s, path, (int64_t)(n * FWK_PY_SIZE),
		    "last record cut short (%zu of %d bytes): skipped", got,
		    FWK_PY_SIZE);
	fclose(f);
	*out = v;
	return n;
}

static int
prof_fwk_py_cmp(const void *a, const void *b)
{
	const struct fwk_call	*x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Load frame F, ended at END, of thread TID of process PID. */
static void
prof_fwk_py_span(struct prof_fwk *fw, struct fwk_names *nm,
    const struct fwk_frame *f, uint64_t pid, uint64_t tid, int64_t end,
    struct strbuf *name, struct strbuf *args)
{
	const char	*n, *sep;

	strbuf_reset(name);
	n = f->name != SIZE_MAX ? nm->v[f->name] : NULL;
	if (n == NULL)
		strbuf_addf(name, "%llu", (unsigned long long)f->key);
	else if (f->module >= 0) {
		sep = strstr(n, FWK_PY_MODULE);
		strbuf_addf(name, "nn.Module: %.*s_%lld", (int)(sep - n), n,
		    (long long)f->module);
	} else
		strbuf_adds(name, n);
	strbuf_reset(args);
	strbuf_addf(args, "{\"Python id\":%lld,\"Python parent id\":%lld",
	    (long long)f->id, (long long)f->parent);
	if (f->module >= 0)
		strbuf_addf(args, ",\"Python module id\":%lld",
		    (long long)f->module);
	strbuf_addc(args, '}');
	prof_fwk_rec_span(fw, pid, tid, f->start, end, "python_function",
	    name->s, args->s);
	fw->calls++;
}

/*
 * The module number of the module call named N (holding the separator):
 * per module name, its instances (the part after the separator) are
 * numbered from 0 in the order they first appear on the thread.
 */
static int64_t
prof_fwk_py_module(struct util_map *seen, int64_t *counts, size_t *ncounts,
    struct util_map *names, const char *n)
{
	const char	*sep = strstr(n, FWK_PY_MODULE);
	const char	*uid = sep + strlen(FWK_PY_MODULE);
	uint64_t	 kn, ku, v;

	kn = util_hash64(n, (size_t)(sep - n));
	ku = util_hash64(uid, strlen(uid));
	if (util_map_get(seen, ku, &v))
		return (int64_t)v;
	if (!util_map_get(names, kn, &v)) {
		v = (*ncounts)++;
		util_map_set(names, kn, v);
	}
	util_map_set(seen, ku, (uint64_t)counts[v]);
	return counts[v]++;
}

/* Replay the calls V[0..N) of one thread. */
static void
prof_fwk_py_thread(struct prof_fwk *fw, struct fwk_names *nm,
    const struct fwk_call *v, size_t n)
{
	struct fwk_frame	*stack = NULL, *f;
	struct util_map		 seen, names;
	struct strbuf		 name, args;
	int64_t			*counts, last = INT64_MIN;
	size_t			 i, depth = 0, nnames = 0;

	util_map_init(&seen);
	util_map_init(&names);
	counts = xcalloc(n + 1, sizeof *counts);
	strbuf_init(&name);
	strbuf_init(&args);
	for (i = 0; i < n; i++) {
		last = v[i].ts > last ? v[i].ts : last;
		switch (v[i].tag) {
		case FWK_PY_CALL:
		case FWK_PY_C_CALL:
			stack = util_grow(stack, depth, 1, sizeof *stack);
			f = &stack[depth];
			f->start = v[i].ts;
			f->key = v[i].key;
			f->name = prof_fwk_py_name(nm, v[i].key);
			f->id = (int64_t)i;
			f->parent = depth > 0 ? stack[depth - 1].id : 0;
			f->module = -1;
			if (v[i].tag == FWK_PY_CALL && f->name != SIZE_MAX &&
			    strstr(nm->v[f->name], FWK_PY_MODULE) != NULL)
				f->module = prof_fwk_py_module(&seen, counts,
				    &nnames, &names, nm->v[f->name]);
			depth++;
			break;
		case FWK_PY_RETURN:
		case FWK_PY_C_RETURN:
			if (depth == 0)
				break;
			depth--;
			fw->at = (int64_t)v[i].idx * FWK_PY_SIZE;
			prof_fwk_py_span(fw, nm, &stack[depth], v[i].pid,
			    v[i].tid, v[i].ts, &name, &args);
			break;
		default:
			if (fw->bad_tags++ == 0)
				fw->bad_tags_at = (int64_t)v[i].idx *
				    FWK_PY_SIZE;
			break;
		}
	}
	while (depth > 0) {
		depth--;
		prof_fwk_py_span(fw, nm, &stack[depth], v[n - 1].pid,
		    v[n - 1].tid, last, &name, &args);
	}
	strbuf_release(&name);
	strbuf_release(&args);
	free(counts);
	free(stack);
	util_map_release(&seen);
	util_map_release(&names);
}

/* Decode the tracer's calls in FUNC with the names in HASH (or NULL). */
void
prof_fwk_py_load(struct prof_fwk *fw, const char *func, struct fwk_names *nm)
{
	struct fwk_names	 none;
	struct fwk_call		*v;
	size_t			 n, i, j;

	if (nm == NULL) {
		memset(&none, 0, sizeof none);
		util_map_init(&none.map);
		nm = &none;
		store_load_warning(fw->s, func, -1, "no torch.python_tracer_"
		    "hash: Python calls are named by their keys");
	}
	n = prof_fwk_py_calls(fw, func, &v);
	if (n > 1)
		qsort(v, n, sizeof *v, prof_fwk_py_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j].tid == v[i].tid; j++)
			;
		prof_fwk_py_thread(fw, nm, v + i, j - i);
	}
	prof_fwk_rec_report(fw, func);
	free(v);
	if (nm == &none) {
		free(none.keys);
		util_map_release(&none.map);
	}
}

/*
 * The tracer's names of HASH (torch.python_tracer_hash), read once for
 * the calls and the parameters; its problems are warned here.
 */
struct fwk_names *
prof_fwk_py_names_create(struct prof_fwk *fw, const char *hash)
{
	struct fwk_names	*nm;

	nm = xcalloc(1, sizeof *nm);
	util_map_init(&nm->map);
	prof_fwk_py_names(fw, hash, nm);
	prof_fwk_rec_report(fw, hash);
	return nm;
}

/* The name of KEY in NM, or NULL. */
const char *
prof_fwk_py_names_find(struct fwk_names *nm, uint64_t key)
{
	size_t	 i;

	if (nm == NULL || (i = prof_fwk_py_name(nm, key)) == SIZE_MAX)
		return NULL;
	return nm->v[i];
}

void
prof_fwk_py_names_free(struct fwk_names *nm)
{
	size_t	 i;

	if (nm == NULL)
		return;
	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	free(nm->keys);
	util_map_release(&nm->map);
	free(nm);
}
