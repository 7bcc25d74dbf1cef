/*
 * export --folded: the call stacks of a store (store-stacks*.c) as folded
 * stacks on standard output, the input of flamegraph.pl and speedscope.
 * show's stacks table builds its stacks here too, so both prune to what
 * --filter matches in the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

/*
 * Build the call stacks of S that O asks for, pruned to the stacks through
 * frames O->filter matches (their share is said on stderr). On failure
 * return NULL and set *cause.
 */
struct store_stacks *
export_folded_stacks(struct store *s, const struct export_opts *o, char **cause)
{
	struct store_stacks_opts	 so;
	struct store_stacks		*st;
	struct matcher			*m;
	int64_t				 hit, nframes;

	store_stacks_opts_init(&so);
	if (o->stacks != NULL)
		so.source = store_stacks_source_parse(o->stacks);
	if (o->weight != NULL && strcmp(o->weight, "host") == 0)
		so.weight = STACKS_HOST;
	so.device = o->device;
	so.rank = o->rank;
	so.step = o->step;
	so.from_ns = o->from_ns;
	so.to_ns = o->to_ns;
	if (o->range != NULL && export_file_window(s, o->range, so.device,
	    so.rank, false, &so.from_ns, &so.to_ns, cause) != 0)
		return NULL;
	if ((st = store_stacks_build(s, &so, cause)) == NULL)
		return NULL;
	if (o->filter == NULL)
		return st;
	if ((m = matcher_create(o->filter, false, cause)) == NULL) {
		store_stacks_free(st);
		return NULL;
	}
	hit = store_stacks_search(st, m, &nframes);
	if (matcher_failed(m, cause)) {
		matcher_free(m);
		store_stacks_free(st);
		return NULL;
	}
	log_infox("'%s' matches %lld frames covering %lld of %lld %s "
	    "(%.2f%%)", o->filter, (long long)nframes, (long long)hit,
	    (long long)st->root->total, store_stacks_unit(st),
	    st->root->total > 0 ? 100.0 * (double)hit /
	    (double)st->root->total : 0.0);
	store_stacks_prune(st, m);
	matcher_free(m);
	return st;
}

/*
 * Write the call stacks of S as folded lines to standard output. On
 * failure return -1 and set *cause.
 */
int
export_folded(struct store *s, const struct export_opts *o, char **cause)
{
	struct store_stacks	*st;
	int			 rc = 0;

	if ((st = export_folded_stacks(s, o, cause)) == NULL)
		return -1;
	store_stacks_fold(stdout, st);
	if (fflush(stdout) != 0) {
		xasprintf(cause, "cannot write the stacks");
		rc = -1;
	}
	store_stacks_free(st);
	return rc;
}
