/*
 * The statistics groups are indexed by a 64-bit hash of their key: two
 * keys whose hashes collide must stay two groups. The hash can be
 * inverted, so a collision is made on purpose: the core id that gives
 * (op 2, core) the hash of (op 1, core 7) is computed, and both groups
 * must keep their own counts.
 */
#include <stdlib.h>
#include <unistd.h>

#include "store-int.h"
#include "tap.h"

#define P	0x100000001b3ULL

static void
add(struct store *s, int64_t op, int64_t core, int64_t dur)
{
	struct store_task	 t;

	memset(&t, 0, sizeof t);
	t.device = 0;
	t.rank = 0;
	t.start_ns = 1;
	t.dur_ns = dur;
	store_stats_add_task(s, &t, op, core);
}

int
main(void)
{
	struct store	*s;
	char		 dir[] = "/tmp/t-stats-hash.XXXXXX", *db, *cause = NULL;
	int64_t		 core;
	uint64_t	 want, h, inv = 1, state;
	size_t		 i;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/x.db", dir);
	s = store_load_begin(db, dir, &cause);
	ok(s != NULL, "a load");
	if (s == NULL)
		return done_testing();

	/*
	 * The hash ends h = (h' ^ core) * P, returning h ^ (h >> 29): undo
	 * the shift, then the multiply (P is odd, so it has an inverse
	 * mod 2^64), and xor away the state of (0, 0, op 2).
	 */
	want = store_stats_hash(0, 0, 1, 7);
	h = want ^ (want >> 29) ^ (want >> 58);
	for (i = 0; i < 6; i++)
		inv *= 2 - P * inv;
	state = ((((0x9E3779B97F4A7C15ULL ^ 0) * P) ^ 0) * P ^ 2) * P;
	core = (int64_t)((h * inv) ^ state);
	ok(store_stats_hash(0, 0, 2, core) == want && core != 7,
	    "two keys with one hash");
	add(s, 1, 7, 10);
	add(s, 2, core, 100);
	add(s, 1, 7, 20);
	add(s, 2, core, 200);
	is_int((int64_t)s->ops->n, 2, "two groups");
	ok(s->ops->v[0].op == 1 && s->ops->v[0].count == 2 &&
	    s->ops->v[0].total == 30, "the first keeps its tasks");
	ok(s->ops->v[1].op == 2 && s->ops->v[1].count == 2 &&
	    s->ops->v[1].total == 300, "the second keeps its own");
	store_load_abort(s);
	rmdir(dir);
	free(db);
	free(cause);
	return done_testing();
}
