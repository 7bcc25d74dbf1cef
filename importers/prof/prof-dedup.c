/*
 * Once every task knows its op (prof-ops.c), the join needs of the
 * node_basic_info and tensor_info records only what they say, not when
 * or on which thread: a million launches of a few hundred ops hold a few
 * hundred distinct records. Keeping one of each, and pointing the tasks
 * at it, frees 80 bytes a task before the device logs are read, which is
 * when the importer's memory peaks.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* The records of one kind: N of SIZE bytes, compared on LEN from OFF. */
struct prof_dedup {
	unsigned char	*v;
	size_t		 size;
	size_t		 off;
	size_t		 len;
	const void	*key;		/* the record looked for */
};

/* Whether kept record V says what D's key record says. */
static bool
prof_dedup_same(const void *arg, uint64_t v)
{
	const struct prof_dedup	*d = arg;

	return memcmp(d->v + v * d->size + d->off, (const unsigned char *)
	    d->key + d->off, d->len) == 0;
}

/*
 * Keep the first of each distinct record of *V (*N of them), in order;
 * *V shrinks to the ones kept. Return each old index's new one.
 */
static int32_t *
prof_dedup_kind(void **v, size_t *n, size_t size, size_t off, size_t len)
{
	struct prof_dedup	 d;
	struct util_map		 seen;
	unsigned char		*out;
	int32_t			*to;
	uint64_t		 h, k;
	size_t			 i, kept = 0;

	d.v = *v;
	d.size = size;
	d.off = off;
	d.len = len;
	to = xreallocarray(NULL, *n + 1, sizeof *to);
	util_map_init(&seen);
	for (i = 0; i < *n; i++) {
		d.key = d.v + i * size;
		h = util_hash64((const char *)d.key + off, len);
		if (!util_map_probe(&seen, &h, prof_dedup_same, &d, &k)) {
			/* Kept records move down over ones already seen. */
			memmove(d.v + kept * size, d.key, size);
			util_map_set(&seen, h, kept);
			k = kept++;
		}
		to[i] = (int32_t)k;
	}
	util_map_release(&seen);
	/* A new array, so that the large one goes back whole. */
	out = xreallocarray(NULL, kept + 1, size);
	if (kept > 0)
		memcpy(out, d.v, kept * size);
	free(*v);
	*v = out;
	*n = kept;
	return to;
}

/* Point H's tasks at one node and tensor record of each distinct kind. */
void
prof_dedup_ops(struct prof_host *h)
{
	struct prof_track	*t;
	int32_t			*node, *tensor;
	size_t			 i;
	void			*v;

	/* From block_dim to is_static: the fields after ts and tid. */
	v = h->nodes;
	node = prof_dedup_kind(&v, &h->nnodes, sizeof *h->nodes,
	    offsetof(struct prof_node, block_dim),
	    offsetof(struct prof_node, is_static) + 1 -
	    offsetof(struct prof_node, block_dim));
	h->nodes = v;
	v = h->tinfos;
	tensor = prof_dedup_kind(&v, &h->ntinfos, sizeof *h->tinfos,
	    offsetof(struct prof_tinfo, str), sizeof h->tinfos->str);
	h->tinfos = v;
	for (i = 0; i < h->ntracks; i++) {
		t = &h->tracks[i];
		if (t->node >= 0)
			t->node = node[t->node];
		if (t->tensor >= 0)
			t->tensor = tensor[t->tensor];
	}
	free(node);
	free(tensor);
}
