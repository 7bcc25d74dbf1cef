/*
 * What node_basic_info and tensor_info records say, kept once: a million
 * launches of a few hundred ops hold a few hundred distinct records. Each
 * record keeps its time and thread and the index of what it says (16
 * bytes, not 40) until every task knows its op (prof-ops.c); then the
 * tasks point at what their op's records say and the records go, before
 * the device logs are read.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* A node kind looked up: the map's values index H's nkinds. */
struct prof_dedup_nkey {
	const struct prof_host	*h;
	const struct prof_nkind	*k;
};

static bool
prof_dedup_node_same(const void *arg, uint64_t v)
{
	const struct prof_dedup_nkey	*d = arg;
	const struct prof_nkind		*a = d->k, *b = &d->h->nkinds[v];

	return a->name == b->name && a->op_type == b->op_type &&
	    a->block_dim == b->block_dim && a->op_flag == b->op_flag &&
	    a->ge_type == b->ge_type && a->is_static == b->is_static;
}

/* The index of node kind K in H's nkinds, added if new. */
uint32_t
prof_dedup_node(struct prof_host *h, const struct prof_nkind *k)
{
	struct prof_dedup_nkey	 d = { h, k };
	unsigned char		 b[27];
	uint64_t		 key, v;

	memcpy(b, &k->name, 8);
	memcpy(b + 8, &k->op_type, 8);
	memcpy(b + 16, &k->block_dim, 4);
	memcpy(b + 20, &k->op_flag, 4);
	memcpy(b + 24, &k->ge_type, 2);
	b[26] = k->is_static;
	key = util_hash64((const char *)b, sizeof b);
	if (util_map_probe(&h->nkind_map, &key, prof_dedup_node_same, &d, &v))
		return (uint32_t)v;
	h->nkinds = util_grow(h->nkinds, h->nnkinds, 1, sizeof *h->nkinds);
	h->nkinds[h->nnkinds] = *k;
	util_map_set(&h->nkind_map, key, h->nnkinds);
	return (uint32_t)h->nnkinds++;
}

/* A tensor kind looked up: the map's values index H's tkinds. */
struct prof_dedup_tkey {
	const struct prof_host	*h;
	const uint32_t		*str;
};

static bool
prof_dedup_tensor_same(const void *arg, uint64_t v)
{
	const struct prof_dedup_tkey	*d = arg;

	return memcmp(d->h->tkinds[v].str, d->str, sizeof
	    d->h->tkinds[v].str) == 0;
}

/* The index of the six tensor strings STR in H's tkinds, added if new. */
uint32_t
prof_dedup_tensor(struct prof_host *h, const uint32_t *str)
{
	struct prof_dedup_tkey	 d = { h, str };
	uint64_t		 key, v;

	key = util_hash64((const char *)str, 6 * sizeof *str);
	if (util_map_probe(&h->tkind_map, &key, prof_dedup_tensor_same, &d,
	    &v))
		return (uint32_t)v;
	h->tkinds = util_grow(h->tkinds, h->ntkinds, 1, sizeof *h->tkinds);
	memcpy(h->tkinds[h->ntkinds].str, str, sizeof h->tkinds->str);
	util_map_set(&h->tkind_map, key, h->ntkinds);
	return (uint32_t)h->ntkinds++;
}

/*
 * Free the node and tensor records of H once their spans hold what they
 * say (prof_ops_attach_records): from here a task's node indexes nkinds,
 * its tensor tkinds.
 */
void
prof_dedup_free(struct prof_host *h)
{
	free(h->nodes);
	h->nodes = NULL;
	h->nnodes = 0;
	free(h->tinfos);
	h->tinfos = NULL;
	h->ntinfos = 0;
	util_map_release(&h->nkind_map);
	util_map_release(&h->tkind_map);
}

void
prof_dedup_release(struct prof_host *h)
{
	free(h->nkinds);
	free(h->tkinds);
	util_map_release(&h->nkind_map);
	util_map_release(&h->tkind_map);
}
