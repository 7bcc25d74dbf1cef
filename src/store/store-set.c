/*
 * A set of stores: the store of a cluster whose ranks were imported each
 * into a store of its own. It holds what the cluster tables and the
 * statistic views need of every rank (op_stat, api_stat, step and the
 * vendor tables of communication and layout), the warnings of every rank,
 * the cluster tables built from those at commit, and in rank_store which
 * store holds each rank's task rows. The rows of tasks, spans and the
 * timeline stay in the rank's store, opened when a rank is asked for.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

/* The vendor tables a rank's store gives the set, if it has them. */
static const char *const store_set_generic[] = {
	"communication", "communication_bandwidth", "communication_matrix",
	"distributed_args", "parallel_group_info", "step_trace_time",
	"op_statistic_csv"
};

#define STORE_SET_NGENERIC \
	(sizeof store_set_generic / sizeof store_set_generic[0])

/*
 * Copy the rows of TABLE of U into S, column by column by name. A generic
 * table (GENERIC) is created in S, or given the columns it lacks, first.
 * Return the rows copied, or -1 with *cause set.
 */
static int64_t
store_set_copy(struct store *s, struct store *u, const char *table,
    bool generic, char **cause)
{
	struct strbuf	 b, ins;
	sqlite3_stmt	*sel = NULL, *stmt = NULL;
	char		**cols = NULL;
	int64_t		 rows = -1;
	int		 n, i, k = 0;

	strbuf_init(&b);
	strbuf_init(&ins);
	strbuf_adds(&b, "SELECT * FROM ");
	store_load_quote_ident(&b, table);
	if (store_prepare(u, &sel, b.s, cause) != 0)
		goto out;
	n = sqlite3_column_count(sel);
	cols = xcalloc((size_t)n + 1, sizeof *cols);
	for (i = 0; i < n; i++) {
		/* A generic table's own three come first; the rest is text. */
		if (generic && i < 3)
			continue;
		cols[k++] = xstrdup(sqlite3_column_name(sel, i));
	}
	if (generic && store_load_generic_begin(s, table, NP_NA, NP_NA, cols,
	    (size_t)k, cause) != 0)
		goto out;
	strbuf_adds(&ins, "INSERT INTO ");
	store_load_quote_ident(&ins, table);
	strbuf_addc(&ins, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			strbuf_adds(&ins, ", ");
		store_load_quote_ident(&ins, sqlite3_column_name(sel, i));
	}
	strbuf_adds(&ins, ") VALUES (");
	for (i = 0; i < n; i++)
		strbuf_adds(&ins, i > 0 ? ", ?" : "?");
	strbuf_addc(&ins, ')');
	if (store_prepare(s, &stmt, ins.s, cause) != 0)
		goto out;
	rows = 0;
	while (sqlite3_step(sel) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			sqlite3_bind_value(stmt, i + 1,
			    sqlite3_column_value(sel, i));
		store_write(s, stmt);
		rows++;
	}
	s->records += rows;
out:
	if (cols != NULL) {
		for (i = 0; i < k; i++)
			free(cols[i]);
		free(cols);
	}
	sqlite3_finalize(stmt);
	sqlite3_finalize(sel);
	strbuf_release(&ins);
	strbuf_release(&b);
	return rows;
}

/*
 * Record that rank RANK (NP_NA: none known) of UNIT is in store DB, with
 * the store file's size and time, by which the set knows it later.
 */
static void
store_set_rank(struct store *s, int64_t rank, const char *db,
    const char *unit)
{
	sqlite3_stmt	*stmt;
	struct stat	 st;

	if (store_load_prepare(s, &stmt, "INSERT INTO rank_store VALUES"
	    " (?, ?, ?, ?, ?)") != 0)
		return;
	if (rank != NP_NA)
		sqlite3_bind_int64(stmt, 1, rank);
	sqlite3_bind_text(stmt, 2, db, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, unit, -1, SQLITE_STATIC);
	if (stat(db, &st) == 0) {
		sqlite3_bind_int64(stmt, 4, st.st_size);
		sqlite3_bind_int64(stmt, 5, (int64_t)st.st_mtim.tv_sec *
		    1000000000 + st.st_mtim.tv_nsec);
	}
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	if (rank != NP_NA)
		store_load_rank(s, rank, unit);
}

/* The ranks of U, as store_cluster_ranks() counts them. */
static int
store_set_ranks_of(struct store *u, int64_t **ids, size_t *n, char **cause)
{
	sqlite3_stmt	*stmt;

	*ids = NULL;
	*n = 0;
	if (store_cluster_ranks_stmt(u, &stmt, cause) != 0)
		return -1;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = sqlite3_column_int64(stmt, 0);
	}
	sqlite3_finalize(stmt);
	return 0;
}

/* Copy U's warnings and inputs into S as they are (said when made). */
static void
store_set_notes(struct store *s, struct store *u)
{
	static const char *const sql[][2] = {
		{ "SELECT file, offset, message FROM warning ORDER BY id",
		  "INSERT INTO warning(file, offset, message) VALUES"
		  " (?, ?, ?)" },
		{ "SELECT path, importer FROM input",
		  "INSERT OR IGNORE INTO input VALUES (?, ?)" }
	};
	sqlite3_stmt	*sel, *stmt;
	size_t		 i;
	int		 c;

	for (i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		if (store_prepare(u, &sel, sql[i][0], NULL) != 0)
			continue;
		if (store_load_prepare(s, &stmt, sql[i][1]) != 0) {
			sqlite3_finalize(sel);
			continue;
		}
		while (sqlite3_step(sel) == SQLITE_ROW) {
			for (c = 0; c < sqlite3_column_count(sel); c++)
				sqlite3_bind_value(stmt, c + 1,
				    sqlite3_column_value(sel, c));
			store_write(s, stmt);
			if (i == 0)
				s->warnings++;
		}
		sqlite3_finalize(stmt);
		sqlite3_finalize(sel);
	}
}

/*
 * Add the finished store DB, the store of the profile UNIT, to the set
 * being loaded into S: its ranks, summaries, vendor cluster inputs,
 * warnings and inputs. On failure return -1 and set *cause; S is then
 * unchanged but for what a failed write marks.
 */
int
store_set_add(struct store *s, const char *db, const char *unit,
    char **cause)
{
	static const char *const own[] = { "op_stat", "api_stat", "step" };
	struct store	*u;
	int64_t		*ids, origin;
	size_t		 n, i;
	int		 rc = -1;
	char		 buf[32];

	if ((u = store_open(db, cause)) == NULL)
		return -1;
	/* The cluster's first time: every rank's times count from it. */
	if ((origin = store_lanes_origin(u)) != NP_NA && (!s->origin_known ||
	    origin < s->origin)) {
		s->origin = origin;
		s->origin_known = true;
		snprintf(buf, sizeof buf, "%lld", (long long)origin);
		store_load_meta(s, "origin_ns", buf);
	}
	if (store_set_ranks_of(u, &ids, &n, cause) != 0)
		goto out;
	for (i = 0; i < n; i++)
		store_set_rank(s, ids[i], db, unit);
	if (n == 0) {
		store_set_rank(s, NP_NA, db, unit);
		store_load_warning(s, unit, -1, "this profile names no rank: "
		    "its rows show among every rank's but never for one rank"
		    " (its own store is %s)", db);
	}
	free(ids);
	for (i = 0; i < sizeof own / sizeof own[0]; i++) {
		if (store_set_copy(s, u, own[i], false, cause) < 0)
			goto out;
	}
	for (i = 0; i < STORE_SET_NGENERIC; i++) {
		if (store_has_table(u, store_set_generic[i]) &&
		    store_set_copy(s, u, store_set_generic[i], true,
		    cause) < 0)
			goto out;
	}
	store_set_notes(s, u);
	rc = 0;
out:
	store_free(u);
	return rc;
}

/*
 * Whether every store of the set S is the one it was made of (the same
 * file, size and time: their profiles' inputs are in S's own manifest):
 * 1, or 0 with *why naming the first that is not (gone, or rebuilt), -1
 * with *why set on failure. A stat per store, so that opening a cluster
 * of thousands of ranks stays quick.
 */
int
store_set_current(struct store *s, char **why)
{
	sqlite3_stmt	*stmt;
	struct stat	 st;
	const char	*path;
	int		 rc = 1;

	if (store_prepare(s, &stmt, "SELECT DISTINCT path, unit, size,"
	    " mtime_ns FROM rank_store", why) != 0)
		return -1;
	while (rc == 1 && sqlite3_step(stmt) == SQLITE_ROW) {
		path = (const char *)sqlite3_column_text(stmt, 0);
		if (stat(path, &st) == 0 && st.st_size ==
		    sqlite3_column_int64(stmt, 2) && (int64_t)st.st_mtim.tv_sec *
		    1000000000 + st.st_mtim.tv_nsec ==
		    sqlite3_column_int64(stmt, 3))
			continue;
		xasprintf(why, "the store of '%s' is %s",
		    (const char *)sqlite3_column_text(stmt, 1), access(path,
		    F_OK) == 0 ? "not the one the cluster was made of" :
		    "gone");
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* Whether S is the store of a set: its ranks' tasks are in their own. */
bool
store_set_is(struct store *s)
{
	char	*v = NULL;
	bool	 yes;

	if (s->set != 0)
		return s->set > 0;
	yes = store_meta_get(s, "stores", &v) == 0 && v != NULL &&
	    strcmp(v, "rank") == 0;
	free(v);
	s->set = yes ? 1 : -1;
	return yes;
}

/*
 * Whether S has the rows of table NAME: any store has the tables it
 * has, but the store of a set has only the statistics, steps, notes and
 * vendor tables it copied and the cluster tables, not those of tasks.
 */
bool
store_set_holds(struct store *s, const char *name)
{
	static const char *const own[] = {
		"op_stat_best", "api_stat_best", "step", "meta", "warning"
	};
	const struct store_table	*t;
	size_t				 i;

	if ((t = store_tables_find(s, name)) == NULL)
		return false;
	if (!store_set_is(s))
		return true;
	for (i = 0; i < sizeof own / sizeof own[0]; i++) {
		if (t->from != NULL && strcmp(t->from, own[i]) == 0)
			return true;
	}
	for (i = 0; i < s->ndyn; i++) {
		if (s->dyn[i] == t)
			return true;
	}
	return false;
}

/*
 * The stores of the set S, each once, in the order of the lowest rank
 * they hold (those of no rank last): *PATHS and their lowest rank in
 * *FIRST (NP_NA for none). The caller frees both with
 * store_set_list_free(). -1 with *cause set on failure.
 */
int
store_set_list(struct store *s, char ***paths, int64_t **first, size_t *n,
    char **cause)
{
	sqlite3_stmt	*stmt;

	*paths = NULL;
	*first = NULL;
	*n = 0;
	if (store_prepare(s, &stmt, "SELECT path, min(rank) FROM rank_store"
	    " GROUP BY path ORDER BY min(rank) IS NULL, min(rank), path",
	    cause) != 0)
		return -1;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		*paths = xreallocarray(*paths, *n + 1, sizeof **paths);
		*first = xreallocarray(*first, *n + 1, sizeof **first);
		(*paths)[*n] = xstrdup((const char *)
		    sqlite3_column_text(stmt, 0));
		(*first)[(*n)++] = sqlite3_column_type(stmt, 1) ==
		    SQLITE_NULL ? NP_NA : sqlite3_column_int64(stmt, 1);
	}
	sqlite3_finalize(stmt);
	return 0;
}

void
store_set_list_free(char **paths, int64_t *first, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(first);
}

/*
 * Open the store at PATH of a rank of the set S, its tables with a Rank
 * column when RANKED (rows of all ranks are shown together). On failure
 * return NULL and set *cause.
 */
struct store *
store_set_open_path(struct store *s, const char *path, bool ranked,
    char **cause)
{
	struct store	*u;
	char		*why = NULL;

	if ((u = store_open(path, &why)) == NULL) {
		xasprintf(cause, "%s (a store of the set '%s'; import its "
		    "profile again, or the cluster with --reimport)", why,
		    s->path);
		free(why);
		return NULL;
	}
	if (ranked)
		u->multirank = 1;
	/* Relative times count from the cluster's start, as in one store. */
	if (store_meta_get(s, "origin_ns", &why) == 0 && why != NULL) {
		u->origin = strtoll(why, NULL, 10);
		u->origin_known = true;
	}
	free(why);
	return u;
}

/*
 * Open the store that holds rank RANK of the set S. On failure (no such
 * rank, or its store gone) return NULL and set *cause.
 */
struct store *
store_set_open(struct store *s, int64_t rank, char **cause)
{
	sqlite3_stmt	*stmt;
	struct store	*u = NULL;

	if (store_prepare(s, &stmt, "SELECT min(path), max(path), count(*)"
	    " FROM rank_store WHERE rank = ?", cause) != 0)
		return NULL;
	sqlite3_bind_int64(stmt, 1, rank);
	if (sqlite3_step(stmt) != SQLITE_ROW || sqlite3_column_int64(stmt,
	    2) == 0)
		xasprintf(cause, "no rank %lld in this cluster",
		    (long long)rank);
	else if (sqlite3_column_int64(stmt, 2) > 1)
		/* Two runs of one rank: neither alone is the rank's. */
		xasprintf(cause, "rank %lld is in %lld profiles' stores (%s, "
		    "%s, ...): import one run at a time, or the folder with "
		    "--stores one", (long long)rank, (long long)
		    sqlite3_column_int64(stmt, 2), sqlite3_column_text(stmt, 0),
		    sqlite3_column_text(stmt, 1));
	else
		u = store_set_open_path(s, (const char *)
		    sqlite3_column_text(stmt, 0), false, cause);
	sqlite3_finalize(stmt);
	return u;
}
