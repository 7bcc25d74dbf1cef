/*
 * Closing a store: its statements, the caches the timeline and the
 * generic tables keep on it, and its connection. It sits above the files
 * whose caches it frees, so none of them calls back into a lower file.
 */
#include <stdlib.h>
#include <unistd.h>

#include "store-int.h"

void
store_free(struct store *s)
{
	int	 i;

	if (s == NULL)
		return;
	for (i = 0; i < STMT_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	store_timeline_free(s);
	store_timeline_release(s);
	store_scan_walk_unref(s->order);
	store_scan_tuple_unref(s->tuples);
	store_tables_free(s);
	store_nest_live_free(s);
	sqlite3_close(s->db);
	if (s->locked)
		close(s->lock);
	free(s->path);
	free(s->tmp);
	free(s->root);
	free(s->failed);
	free(s->prog_file);
	free(s->legacy);
	for (i = 0; i < (int)s->nrank_dirs; i++)
		free(s->rank_dirs[i]);
	free(s->rank_dirs);
	free(s->rank_ids);
	free(s);
}
