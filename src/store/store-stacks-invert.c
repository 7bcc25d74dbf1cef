/*
 * Other shapes of a call tree, for the flame view's trees: the bottom-up
 * (inverted) tree, whose top level is the frames that spend time
 * themselves, each with its callers below it, and the sandwich of one
 * frame name: everything it calls, merged over all its calls, and every
 * path that calls it. Each is a new struct store_stacks the caller frees.
 */
#include <stdlib.h>
#include <string.h>

#include "store.h"

/* Add F's SELF to the inverted tree at ROOT: F, its caller, ... . */
static void
store_stacks_invert_path(struct store_frame *root, const struct store_frame *f,
    int64_t weight, int64_t count)
{
	struct store_frame	*to = root;

	for (; f->parent != NULL; f = f->parent) {
		to = store_stacks_frame_child(to, f->name);
		to->count += count;
	}
	to->self += weight;
}

static void
store_stacks_invert_frame(struct store_frame *root,
    const struct store_frame *f)
{
	size_t	 i;

	if (f->parent != NULL && f->self > 0)
		store_stacks_invert_path(root, f, f->self, f->count);
	for (i = 0; i < f->nkids; i++)
		store_stacks_invert_frame(root, f->kids[i]);
}

/*
 * The bottom-up tree of ST: at the top every frame name that has self
 * time, with that time as its total; below each, its callers, outward.
 */
struct store_stacks *
store_stacks_invert(const struct store_stacks *st)
{
	struct store_stacks	*inv;

	inv = store_stacks_create(st->source, st->weight);
	inv->from = st->from;
	store_stacks_invert_frame(inv->root, st->root);
	store_stacks_finish(inv);
	inv->whole = st->whole;
	return inv;
}

/* Merge a copy of the callees of FROM below TO. */
static void
store_stacks_invert_merge(struct store_frame *to,
    const struct store_frame *from)
{
	struct store_frame	*k;
	size_t			 i;

	to->self += from->self;
	to->count += from->count;
	for (i = 0; i < from->nkids; i++) {
		k = store_stacks_frame_child(to, from->kids[i]->name);
		store_stacks_invert_merge(k, from->kids[i]);
	}
}

static void
store_stacks_invert_sandwich_frame(const struct store_frame *f,
    const char *name,
    struct store_stacks *callers, struct store_stacks *callees)
{
	size_t	 i;

	if (f->parent != NULL && strcmp(f->name, name) == 0) {
		store_stacks_invert_merge(store_stacks_frame_child(
		    callees->root,
		    name), f);
		store_stacks_invert_path(callers->root, f, f->total, f->count);
		return;
	}
	for (i = 0; i < f->nkids; i++)
		store_stacks_invert_sandwich_frame(f->kids[i], name, callers,
		    callees);
}

/*
 * The sandwich of frame NAME in ST: *CALLEES gets one top frame NAME with
 * everything it calls merged over all its calls, *CALLERS one top frame
 * NAME with the paths that call it below it, outward, weighted by NAME's
 * total on each. A call of NAME inside another is counted in the outer
 * one only, so recursion is not counted twice.
 */
void
store_stacks_invert_sandwich(const struct store_stacks *st, const char *name,
    struct store_stacks **callers, struct store_stacks **callees)
{
	*callers = store_stacks_create(st->source, st->weight);
	*callees = store_stacks_create(st->source, st->weight);
	(*callers)->from = (*callees)->from = st->from;
	store_stacks_invert_sandwich_frame(st->root, name, *callers, *callees);
	store_stacks_finish(*callers);
	store_stacks_finish(*callees);
	(*callers)->whole = (*callees)->whole = st->whole;
}
