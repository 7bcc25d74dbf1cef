/*
 * The load interface importers write through. A load builds a new store in
 * a temporary file beside the final one, inside one transaction, with
 * strings interned through an in-memory hash table; store_load_commit()
 * computes the derived tables, adds indexes and views, records the manifest
 * and renames the file into place, so an interrupted or failed import
 * leaves any previous store untouched.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store-int.h"

/*
 * The strings of a load by id, indexed by their hash: the map gives the
 * newest id of a hash, same[] the one before it with the same hash.
 */
struct store_intern {
	char		**by_id;	/* id - 1 -> string */
	int64_t		 *same;		/* id - 1 -> id, 0 at the end */
	size_t		  n;
	struct util_map	  index;	/* hash -> id */
};

static void	 store_load_progress_read(struct store *);
static void	 store_load_progress_tick(struct store *);

/* The load whose reading in bytes this thread tells (store_load_read()). */
static __thread const struct store *store_prog_self;

/*
 * A load writes a new file nobody else reads until the rename: no journal,
 * no syncs, 16 KB pages and a 32 MB cache. (4 KB pages made the first
 * timeline frame after opening slower once tl_block lies together: more
 * tree levels for the same seeks.)
 */
const char	*store_load_pragmas = "PRAGMA page_size = 16384;"
    " PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
    " PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -32768;";

/*
 * The import's own connection keeps 8 MB: it appends rows in row id order
 * to tables with no secondary index (those are built later, on a
 * connection of their own), so a page is done with once written. 8 MB
 * imports as fast as 32 MB did, with 24 MB less at the peak.
 */
#define STORE_LOAD_CACHE	"PRAGMA cache_size = -8192"

/* The temporary file of the load under way, for the signal handler. */
static char	*store_load_tmp_path;

static const char *store_load_sql[STMT_COUNT] = {
	[STMT_TASK] = "INSERT INTO task VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?, ?)",
	[STMT_API] = "INSERT INTO api VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?)",
	[STMT_OP_STAT] = "INSERT INTO op_stat VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?, ?, ?, ?)",
	[STMT_API_STAT] = "INSERT INTO api_stat VALUES (?, ?, ?, ?, ?, ?, ?,"
	    " ?, ?, ?, ?)",
	[STMT_STEP] = "INSERT INTO step VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	    " ?)",
	[STMT_STR] = "INSERT INTO str VALUES (?, ?)",
	[STMT_WARNING] = "INSERT INTO warning VALUES (NULL, ?, ?, ?)",
	[STMT_INPUT] = "INSERT OR IGNORE INTO input VALUES (?, ?)",
	[STMT_GENERIC] = NULL
};

/* The temporary path of the load under way, or NULL. */
const char *
store_load_tmp(void)
{
	return store_load_tmp_path;
}

void
store_load_bind_i64(sqlite3_stmt *stmt, int i, int64_t v)
{
	if (v == NP_NA)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_int64(stmt, i, v);
}

void
store_load_bind_str(sqlite3_stmt *stmt, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_text(stmt, i, v, -1, SQLITE_STATIC);
}

static void
store_load_intern_free(struct store_intern *in)
{
	size_t	 i;

	if (in == NULL)
		return;
	for (i = 0; i < in->n; i++)
		free(in->by_id[i]);
	free(in->by_id);
	free(in->same);
	util_map_release(&in->index);
	free(in);
}

/* The id of string S in the str table, adding it if new; NP_NA for NULL. */
int64_t
store_load_intern(struct store *s, const char *str)
{
	struct store_intern	*in = s->intern;
	sqlite3_stmt		*stmt = s->stmt[STMT_STR];
	size_t			 len;
	uint64_t		 h, head = 0;
	int64_t			 id;

	if (str == NULL)
		return NP_NA;
	len = strlen(str);
	h = util_hash64(str, len);
	if (util_map_get(&in->index, h, &head)) {
		for (id = (int64_t)head; id != 0; id = in->same[id - 1]) {
			if (strcmp(in->by_id[id - 1], str) == 0)
				return id;
		}
	}
	in->by_id = util_grow(in->by_id, in->n, 1, sizeof *in->by_id);
	in->same = util_grow(in->same, in->n, 1, sizeof *in->same);
	in->by_id[in->n] = xstrdup(str);
	in->same[in->n] = (int64_t)head;
	id = (int64_t)++in->n;
	util_map_set(&in->index, h, (uint64_t)id);
	/* A writer thread owns the connection: the string goes with it. */
	if (s->async != NULL) {
		store_load_async_str(s, id, in->by_id[id - 1]);
		return id;
	}
	sqlite3_bind_int64(stmt, 1, id);
	sqlite3_bind_text(stmt, 2, str, (int)len, SQLITE_STATIC);
	store_write(s, stmt);
	return id;
}

/* The string with id ID interned by this load, or NULL. */
const char *
store_load_string(struct store *s, int64_t id)
{
	if (id == NP_NA || id < 1 || (size_t)id > s->intern->n)
		return NULL;
	return s->intern->by_id[id - 1];
}

/*
 * Remove the temporary stores beside PATH that no live import holds: one
 * that was killed (kill -9, the OOM killer, a power cut) leaves its file,
 * and only an import that still runs holds the lock on its own. A file
 * younger than STORE_SWEEP_AGE is left alone too: an import that has just
 * made it may not have locked it yet.
 */
#define STORE_SWEEP_AGE	60

void
store_load_sweep(const char *path)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*d;
	char		*dir, *prefix, *p;
	const char	*base = util_basename(path);
	int		 fd;

	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) != NULL)
		*(p == dir ? p + 1 : p) = '\0';
	else {
		free(dir);
		dir = xstrdup(".");
	}
	xasprintf(&prefix, "%s.tmp-", base);
	/* readdir, not util_dir_list(): a hidden store has hidden temps. */
	if ((d = opendir(dir)) == NULL)
		goto out;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		p = util_path_join(dir, de->d_name);
		/* O_RDWR: NFS emulates flock() with locks that need it. */
		fd = open(p, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd != -1 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime < time(NULL) - STORE_SWEEP_AGE &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlink(p);
		if (fd != -1)
			close(fd);
		free(p);
	}
	closedir(d);
out:
	free(prefix);
	free(dir);
}

/*
 * A random id of the store being built, meta store_id: the timeline's own
 * file (store-lanes-side.c) names the store it was built for with it.
 */
static void
store_load_id(struct store *s)
{
	char	 buf[32];

	snprintf(buf, sizeof buf, "%016llx",
	    (unsigned long long)util_random64(s));
	store_load_meta(s, "store_id", buf);
}

/*
 * Start a new store for ROOT that will replace PATH. The work happens in a
 * temporary file created with the process umask. On failure return NULL
 * and set *cause.
 */
struct store *
store_load_begin(const char *path, const char *root, char **cause)
{
	struct store	*s;
	struct stat	 st;
	char		*real;
	int		 fd, i;

	/* The new store is renamed over PATH: never over a device. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		xasprintf(cause, "cannot build the store '%s': it is not a "
		    "regular file (a store is built as a file of its own and "
		    "then takes its name)", path);
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->loading = true;
	s->prog_next = 65536;
	s->first_task_ns = s->first_api_ns = INT64_MAX;
	if ((real = realpath(root, NULL)) == NULL)
		real = xstrdup(root);
	s->root = real;
	store_load_sweep(path);
	xasprintf(&s->tmp, "%s.tmp-XXXXXX", path);
	/* Known to the signal handler before the file exists. */
	store_load_tmp_path = s->tmp;
	if ((fd = mkostemp(s->tmp, O_CLOEXEC)) == -1) {
		store_load_tmp_path = NULL;
		xasprintf(cause, "cannot create the store '%s': %s", path,
		    strerror(errno));
		store_free(s);
		return NULL;
	}
	/* Held while this load lives: the mark of a live temporary store. */
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		s->lock = fd;
		s->locked = true;
	} else
		close(fd);
	if (store_open_db(s, s->tmp, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, cause) != 0 ||
	    store_exec(s, store_load_pragmas, cause) != 0 ||
	    store_exec(s, STORE_LOAD_CACHE, cause) != 0 ||
	    store_exec(s, store_schema_sql, cause) != 0 ||
	    store_exec(s, "BEGIN", cause) != 0) {
		store_load_abort(s);
		return NULL;
	}
	for (i = 0; i < STMT_COUNT; i++) {
		if (store_load_sql[i] == NULL)
			continue;
		if (store_prepare(s, &s->stmt[i], store_load_sql[i],
		    cause) != 0) {
			store_load_abort(s);
			return NULL;
		}
	}
	s->intern = xcalloc(1, sizeof *s->intern);
	store_load_meta(s, "root", s->root);
	store_load_meta(s, "tool_version", PACKAGE_VERSION);
	store_load_id(s);
	return s;
}

/* Throw the load away: the temporary file goes, PATH stays as it was. */
void
store_load_abort(struct store *s)
{
	if (s == NULL)
		return;
	store_load_async_end(s);
	if (s->db != NULL)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	store_stats_free(s);
	store_task_sum_free(s);
	store_empty_free(s);
	store_stats_api_free(s);
	store_load_intern_free(s->intern);
	s->intern = NULL;
	if (s->tmp != NULL) {
		unlink(s->tmp);
		if (store_load_tmp_path == s->tmp)
			store_load_tmp_path = NULL;
	}
	if (store_prog_self == s)
		store_prog_self = NULL;
	store_free(s);
}

/*
 * Close the committed load S and rename its temporary file over PATH. S is
 * freed in every case. On failure return -1 and set *cause.
 */
int
store_load_close(struct store *s, char **cause)
{
	char	*side, *journal;
	int	 i;

	store_stats_free(s);
	store_task_sum_free(s);
	store_empty_free(s);
	store_stats_api_free(s);
	store_load_intern_free(s->intern);
	s->intern = NULL;
	for (i = 0; i < STMT_COUNT; i++) {
		sqlite3_finalize(s->stmt[i]);
		s->stmt[i] = NULL;
	}
	if (sqlite3_close(s->db) != SQLITE_OK) {
		xasprintf(cause, "cannot close '%s'", s->tmp);
		s->db = NULL;
		store_load_abort(s);
		return -1;
	}
	s->db = NULL;
	/*
	 * A journal or write-ahead log left by an index build of the
	 * previous store that was killed (store-index.c) belongs to that
	 * file: SQLite would play it back into this one.
	 */
	for (i = 0; i < 3; i++) {
		xasprintf(&journal, "%s-%s", s->path, i == 0 ? "journal" :
		    i == 1 ? "wal" : "shm");
		if (unlink(journal) != 0 && errno != ENOENT) {
			xasprintf(cause, "cannot remove '%s': %s", journal,
			    strerror(errno));
			free(journal);
			store_load_abort(s);
			return -1;
		}
		free(journal);
	}
	if (rename(s->tmp, s->path) != 0) {
		xasprintf(cause, "cannot rename '%s' to '%s': %s", s->tmp,
		    s->path, strerror(errno));
		store_load_abort(s);
		return -1;
	}
	store_load_tmp_path = NULL;
	free(s->tmp);
	s->tmp = NULL;
	/* The old store's timeline is of no use to the new one. */
	side = store_timeline_side(s->path);
	unlink(side);
	free(side);
	if (store_prog_self == s)
		store_prog_self = NULL;
	store_free(s);
	return 0;
}

/*
 * Say that the tasks loaded come from torch_npu (its kernel_details or
 * database), whose op_statistic rounds the average to whole ns where
 * msprof floors it; the info table says which rule the store used.
 */
void
store_load_avg_rounded(struct store *s)
{
	s->avg_rounded = true;
	store_load_meta(s, "stats.average", "rounded to ns, as torch_npu");
}

/*
 * Say that the tasks loaded come from a torch_npu whose op_statistic
 * floors the average, as msprof does (the store's default), unless a
 * profile loaded before rounds it: the info table says so.
 */
void
store_load_avg_floored(struct store *s)
{
	if (!s->avg_rounded)
		store_load_meta(s, "stats.average", "floored to ns, as msprof");
}

/*
 * Say that the profile in DIR is rank RANK. A second profile of the same
 * rank is a warning: the two runs' rows are of one rank in every table,
 * and the cluster tables sum them as one.
 */
void
store_load_rank(struct store *s, int64_t rank, const char *dir)
{
	size_t	 i;

	for (i = 0; i < s->nrank_dirs; i++) {
		if (s->rank_ids[i] != rank)
			continue;
		if (strcmp(s->rank_dirs[i], dir) != 0)
			store_load_warning(s, dir, -1, "rank %lld again, as in"
			    " %s: the rows of both are rank %lld; import one"
			    " run at a time to tell them apart",
			    (long long)rank, s->rank_dirs[i],
			    (long long)rank);
		return;
	}
	s->rank_dirs = xreallocarray(s->rank_dirs, s->nrank_dirs + 1,
	    sizeof *s->rank_dirs);
	s->rank_ids = xreallocarray(s->rank_ids, s->nrank_dirs + 1,
	    sizeof *s->rank_ids);
	s->rank_dirs[s->nrank_dirs] = xstrdup(dir);
	s->rank_ids[s->nrank_dirs++] = rank;
}

/* Set meta KEY to VALUE; a NULL VALUE removes KEY. */
void
store_load_meta(struct store *s, const char *key, const char *value)
{
	sqlite3_stmt	*stmt;

	if (store_load_prepare(s, &stmt, value != NULL ? "INSERT OR REPLACE"
	    " INTO meta VALUES (?, ?)" : "DELETE FROM meta WHERE key = ?") !=
	    0)
		return;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	store_load_bind_str(stmt, 2, value);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
}

/*
 * What a thread of an importer that must not touch the store (its
 * connection is the load's) records of files read and problems met,
 * kept in order until the loading thread writes it (store_load_defer).
 */
struct store_defer_item {
	char		*file;
	char		*msg;		/* NULL: a file read */
	int64_t		 offset;
};
struct store_defer {
	struct store_defer_item	*v;
	size_t			 n;
};
static __thread struct store_defer *store_defer_cur;

/* From now on this thread's files read and warnings are kept in D. */
void
store_load_defer_begin(struct store_defer **d)
{
	*d = store_defer_cur = xcalloc(1, sizeof **d);
}

/* Stop keeping them (on the thread that began). */
void
store_load_defer_stop(void)
{
	store_defer_cur = NULL;
}

/* Write what D kept to S (S NULL: nothing), as it came, and free D. */
void
store_load_defer_end(struct store *s, struct store_defer *d)
{
	struct store_defer_item	*e;
	size_t			 i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		e = &d->v[i];
		if (s != NULL && e->msg == NULL)
			store_load_file(s, e->file);
		else if (s != NULL)
			store_load_warning(s, e->file, e->offset, "%s",
			    e->msg);
		free(e->file);
		free(e->msg);
	}
	free(d->v);
	free(d);
}

static void
store_load_defer_add(const char *file, int64_t offset, char *msg)
{
	struct store_defer	*d = store_defer_cur;

	d->v = util_grow(d->v, d->n, 1, sizeof *d->v);
	d->v[d->n].file = xstrdup(file);
	d->v[d->n].offset = offset;
	d->v[d->n++].msg = msg;
}

/* Record that PATH was read by the importer now running. */
void
store_load_file(struct store *s, const char *path)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_INPUT];
	char		*importer = NULL;

	if (store_defer_cur != NULL) {
		store_load_defer_add(path, -1, NULL);
		return;
	}

	store_meta_get(s, "importer.current", &importer);
	sqlite3_bind_text(stmt, 1, path, -1, SQLITE_STATIC);
	store_load_bind_str(stmt, 2, importer);
	store_write(s, stmt);
	free(importer);
}

/*
 * Record a problem with FILE at byte OFFSET (-1 if none) and say it on
 * stderr. Callers report each problem once.
 */
void
store_load_warning(struct store *s, const char *file, int64_t offset,
    const char *fmt, ...)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_WARNING];
	va_list		 ap;
	char		*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	if (store_defer_cur != NULL) {
		store_load_defer_add(file, offset, msg);
		return;
	}
	if (offset >= 0)
		log_warnx("%s: offset %lld: %s", file, (long long)offset, msg);
	else
		log_warnx("%s: %s", file, msg);
	sqlite3_bind_text(stmt, 1, file, -1, SQLITE_STATIC);
	store_load_bind_i64(stmt, 2, offset >= 0 ? offset : NP_NA);
	sqlite3_bind_text(stmt, 3, msg, -1, SQLITE_STATIC);
	store_write(s, stmt);
	s->warnings++;
	free(msg);
}

/*
 * Name the PMU columns of the tasks loaded from now on: NAMES packed with
 * store_pmu_name(), NULL or empty for none.
 */
void
store_load_pmu_names(struct store *s, const struct strbuf *names)
{
	sqlite3_stmt	*stmt;

	s->pmu_set = NP_NA;
	if (names == NULL || names->len == 0)
		return;
	if (store_load_prepare(s, &stmt, "INSERT INTO pmu_set VALUES"
	    " (NULL, ?)") != 0)
		return;
	sqlite3_bind_blob(stmt, 1, names->s, (int)names->len, SQLITE_STATIC);
	store_write(s, stmt);
	sqlite3_finalize(stmt);
	s->pmu_set = sqlite3_last_insert_rowid(s->db);
}

/*
 * Say which task columns (the task table's names, comma-joined) the file
 * the next tasks come from has, NULL when they come from no such file:
 * export writes an op_summary with those columns only.
 */
void
store_load_task_cols(struct store *s, const char *names)
{
	sqlite3_stmt	*stmt;

	s->colset = 0;
	if (names == NULL || store_load_prepare(s, &stmt, "INSERT INTO colset"
	    " VALUES (NULL, ?)") != 0)
		return;
	sqlite3_bind_text(stmt, 1, names, -1, SQLITE_STATIC);
	store_write(s, stmt);
	if (s->failed == NULL)
		s->colset = sqlite3_last_insert_rowid(s->db);
	sqlite3_finalize(stmt);
}

/*
 * The values of task T's row, in the order of the insert's parameters
 * (NP_NA for NULL; at TASK_PMU, not NP_NA if there is a PMU blob), its
 * strings interned; its task-sum key into *K.
 */
static void
store_load_task_values(struct store *s, const struct store_task *t,
    int64_t *v, struct task_sum_key *k)
{
	int	 i = 0;

	v[i++] = t->device;
	v[i++] = t->rank;
	v[i++] = t->model_id;
	v[i++] = t->stream;
	v[i++] = t->task;
	v[i++] = t->batch;
	v[i++] = t->context;
	v[i++] = t->start_ns;
	v[i++] = t->dur_ns;
	v[i++] = t->wait_ns;
	v[i++] = t->block_num;
	v[i++] = t->mix_block_num;
	v[i++] = t->step;
	v[i++] = t->conn;
	v[i++] = t->api;
	v[i++] = k->name = store_load_intern(s, t->name);
	v[i++] = k->op = store_load_intern(s, t->op_type);
	v[i++] = k->core = store_load_intern(s, t->task_type);
	v[i++] = store_load_intern(s, t->op_state);
	v[i++] = store_load_intern(s, t->hf32);
	v[i++] = k->shapes = store_load_intern(s, t->in_shapes);
	v[i++] = store_load_intern(s, t->in_dtypes);
	v[i++] = store_load_intern(s, t->in_formats);
	v[i++] = store_load_intern(s, t->out_shapes);
	v[i++] = store_load_intern(s, t->out_dtypes);
	v[i++] = store_load_intern(s, t->out_formats);
	if (t->pmu != NULL && s->pmu_set != NP_NA) {
		v[i++] = s->pmu_set;
		v[i++] = 1;
	} else {
		v[i++] = NP_NA;
		v[i++] = NP_NA;
	}
	v[i++] = store_load_intern(s, t->model_name);
	v[i++] = s->colset > 0 ? s->colset : NP_NA;
	v[i++] = t->unlisted ? 1 : NP_NA;
	/* 0 is no time a launch has: structs cleared to 0 give NULL. */
	v[i++] = t->launch_ns > 0 ? t->launch_ns : NP_NA;
	if (i != TASK_NV)
		fatalx("%s: %d task values", __func__, i);
}

/*
 * Bind a task row of values V, with the PMU blob PMU of LEN bytes, to
 * parameters AT + 1 to AT + TASK_NV of STMT, and keep its start if it is
 * the load's first.
 */
void
store_load_task_bind(struct store *s, sqlite3_stmt *stmt, int at,
    const int64_t *v, const void *pmu, size_t len)
{
	int	 i;

	for (i = 0; i < TASK_NV; i++) {
		if (i == TASK_PMU && v[i] != NP_NA)
			sqlite3_bind_blob(stmt, at + i + 1, pmu, (int)len,
			    SQLITE_STATIC);
		else
			store_load_bind_i64(stmt, at + i + 1, v[i]);
	}
	if (v[TASK_START] != NP_NA && v[TASK_START] < s->first_task_ns)
		s->first_task_ns = v[TASK_START];
}

/* Insert a task row of values V, with the PMU blob PMU of LEN bytes. */
void
store_load_task_write(struct store *s, const int64_t *v, const void *pmu,
    size_t len)
{
	store_load_task_bind(s, s->stmt[STMT_TASK], 0, v, pmu, len);
	store_write(s, s->stmt[STMT_TASK]);
}

/*
 * Add one device task; return its row id, or NP_NA while a writer thread
 * inserts the rows (store-load-async.c).
 */
int64_t
store_load_task(struct store *s, const struct store_task *t)
{
	struct task_sum_key	 k;
	int64_t			 v[TASK_NV];

	store_load_task_values(s, t, v, &k);
	store_empty_task(s, v);
	if (s->async != NULL)
		store_load_async_task(s, v, t->pmu, t->pmu_len);
	else
		store_load_task_write(s, v, t->pmu, t->pmu_len);
	if (t->unlisted)
		s->unlisted++;
	store_stats_add_task(s, t, k.op, k.core);
	k.device = t->device;
	k.rank = t->rank;
	k.step = t->step;
	store_task_sum_add(s, &k, t->start_ns, t->dur_ns);
	/* The join of a raw collection: tasks come after the reading. */
	if (++s->records >= s->prog_next)
		store_load_progress_tick(s);
	return s->async != NULL ? NP_NA : sqlite3_last_insert_rowid(s->db);
}

/*
 * Make *A a host span of thread TID from START_NS to END_NS, at LEVEL and
 * called NAME (both borrowed), with no rank, process, connection, depth,
 * parent or args: the caller sets those it knows.
 */
void
store_load_api_init(struct store_api *a, int64_t tid, int64_t start_ns,
    int64_t end_ns, const char *level, const char *name)
{
	memset(a, 0, sizeof *a);
	a->device = NP_HOST_DEVICE;
	a->rank = a->pid = a->conn = a->depth = a->parent = NP_NA;
	a->tid = tid;
	a->start_ns = start_ns;
	a->end_ns = end_ns;
	a->level = level;
	a->name = name;
}

/*
 * Bind a span row of values V (the row id first, NP_NA for a new one)
 * with ARGS (or NULL) to parameters AT + 1 to AT + API_NV + 1 of STMT,
 * and keep its start if it is the load's first.
 */
void
store_load_api_bind(struct store *s, sqlite3_stmt *stmt, int at,
    const int64_t *v, const char *args)
{
	int	 i;

	for (i = 0; i < API_NV; i++)
		store_load_bind_i64(stmt, at + i + 1, v[i]);
	store_load_bind_str(stmt, at + API_NV + 1, args);
	if (v[API_START] != NP_NA && v[API_START] < s->first_api_ns)
		s->first_api_ns = v[API_START];
}

/* Insert a span row of values V with ARGS (see store_load_api_bind()). */
void
store_load_api_write(struct store *s, const int64_t *v, const char *args)
{
	store_load_api_bind(s, s->stmt[STMT_API], 0, v, args);
	store_write(s, s->stmt[STMT_API]);
}

/*
 * Add one API span; return its row id. While a writer thread inserts the
 * rows (store-load-async.c) the id is given here, the next after those
 * the store held, and a span without a depth is left to the commit's walk
 * (live nesting would write the store).
 */
int64_t
store_load_api(struct store *s, const struct store_api *a)
{
	int64_t		 v[API_NV], depth = a->depth, parent = a->parent, id;
	size_t		 lane = SIZE_MAX;
	int		 i = 0;

	if (depth == NP_NA && s->async == NULL)
		store_nest_live_begin(s, a, &depth, &parent, &lane);
	v[i++] = s->async != NULL ? s->api_next++ : NP_NA;
	v[i++] = a->device;
	v[i++] = a->rank;
	v[i++] = a->pid;
	v[i++] = a->tid;
	v[i++] = a->start_ns;
	v[i++] = a->end_ns;
	v[i++] = a->conn;
	v[i++] = depth;
	v[i++] = parent;
	v[i++] = store_load_intern(s, a->level);
	v[i++] = store_load_intern(s, a->name);
	store_stats_api_load(s, a->rank, v[API_LEVEL], v[API_NAME],
	    a->start_ns, a->end_ns);
	store_empty_api(s, v);
	/* Other threads may be reading meanwhile. */
	if (++s->records >= s->prog_next)
		store_load_progress_tick(s);
	if (depth == NP_NA)
		s->nest_todo++;
	else
		s->nest_done++;
	if (a->depth != NP_NA)
		s->nest_given++;
	if (s->async != NULL) {
		store_load_async_api(s, v, a->args);
		return v[0];
	}
	store_load_api_write(s, v, a->args);
	id = sqlite3_last_insert_rowid(s->db);
	if (lane != SIZE_MAX && s->failed == NULL)
		store_nest_live_end(s, lane, id, a->start_ns, a->end_ns);
	return id;
}

/* Add one op_statistic row. */
void
store_load_op_stat(struct store *s, const struct store_op_stat *o)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_OP_STAT];
	int		 i = 1;

	store_load_bind_i64(stmt, i++, o->device);
	store_load_bind_i64(stmt, i++, o->rank);
	store_load_bind_str(stmt, i++, o->op_type);
	store_load_bind_str(stmt, i++, o->core_type);
	store_load_bind_i64(stmt, i++, o->count);
	store_load_bind_i64(stmt, i++, o->total_ns);
	store_load_bind_i64(stmt, i++, o->min_ns);
	store_load_bind_i64(stmt, i++, o->avg_ns);
	store_load_bind_i64(stmt, i++, o->max_ns);
	sqlite3_bind_double(stmt, i++, o->ratio);
	sqlite3_bind_int(stmt, i++, o->origin);
	store_load_bind_i64(stmt, i++, o->model_id);
	store_load_bind_i64(stmt, i++, o->iter);
	store_load_bind_str(stmt, i++, o->model_name);
	store_write(s, stmt);
	s->records++;
}

/* Add one api_statistic row. */
void
store_load_api_stat(struct store *s, const struct store_api_stat *a)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_API_STAT];
	int		 i = 1;

	store_load_bind_i64(stmt, i++, a->device);
	store_load_bind_i64(stmt, i++, a->rank);
	store_load_bind_str(stmt, i++, a->level);
	store_load_bind_str(stmt, i++, a->name);
	store_load_bind_i64(stmt, i++, a->total_ns);
	store_load_bind_i64(stmt, i++, a->count);
	store_load_bind_i64(stmt, i++, a->avg_ns);
	store_load_bind_i64(stmt, i++, a->min_ns);
	store_load_bind_i64(stmt, i++, a->max_ns);
	sqlite3_bind_double(stmt, i++, a->variance);
	sqlite3_bind_int(stmt, i++, a->origin);
	store_write(s, stmt);
	s->records++;
}

void
store_load_step(struct store *s, const struct store_step *st)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_STEP];
	int		 i = 1;

	store_load_bind_i64(stmt, i++, st->device);
	store_load_bind_i64(stmt, i++, st->rank);
	store_load_bind_i64(stmt, i++, st->model_id);
	store_load_bind_i64(stmt, i++, st->iter);
	store_load_bind_i64(stmt, i++, st->fp_start_ns);
	store_load_bind_i64(stmt, i++, st->bp_end_ns);
	store_load_bind_i64(stmt, i++, st->iter_end_ns);
	store_load_bind_i64(stmt, i++, st->iter_time_ns);
	store_load_bind_i64(stmt, i++, st->fp_bp_ns);
	store_load_bind_i64(stmt, i++, st->refresh_ns);
	store_load_bind_i64(stmt, i++, st->data_aug_ns);
	store_write(s, stmt);
	s->records++;
}

void
store_load_quote_ident(struct strbuf *b, const char *name)
{
	strbuf_addc(b, '"');
	for (; *name != '\0'; name++) {
		if (*name == '"')
			strbuf_addc(b, '"');
		strbuf_addc(b, *name);
	}
	strbuf_addc(b, '"');
}

/*
 * The column names of a generic table for the header COLS: at most
 * STORE_GENERIC_MAX_COLS of them, and a name met before (SQL names ignore
 * case) gets ".1", ".2", ... as pandas does, so no cell is lost to a
 * repeated header.
 */
static char **
store_load_generic_names(char **cols, size_t ncols, size_t *n)
{
	char	**names;
	size_t	  i, j;
	int	  k;

	*n = ncols < STORE_GENERIC_MAX_COLS ? ncols : STORE_GENERIC_MAX_COLS;
	names = xcalloc(*n + 1, sizeof *names);
	for (i = 0; i < *n; i++) {
		names[i] = xstrdup(cols[i]);
		for (k = 1, j = 0; j < i; j++) {
			if (strcasecmp(names[j], names[i]) != 0)
				continue;
			free(names[i]);
			xasprintf(&names[i], "%s.%d", cols[i], k++);
			j = (size_t)-1;
		}
	}
	return names;
}

/*
 * Start rows of the generic table NAME (a vendor CSV kept as it is, all
 * cells text) with the header COLS; later rows go through
 * store_load_generic_row() until the next begin. Columns new to an
 * existing table are added. Only the first STORE_GENERIC_MAX_COLS columns
 * are kept. On failure return -1 and set *cause.
 */
int
store_load_generic_begin(struct store *s, const char *name, int64_t device,
    int64_t rank, char **cols, size_t ncols, char **cause)
{
	struct strbuf	 b, ins;
	sqlite3_stmt	*stmt;
	char		**names;
	size_t		 i, n;
	int		 rc = -1;

	strbuf_init(&b);
	strbuf_init(&ins);
	names = store_load_generic_names(cols, ncols, &n);
	if (!store_has_table(s, name)) {
		strbuf_adds(&b, "CREATE TABLE ");
		store_load_quote_ident(&b, name);
		strbuf_adds(&b, "(_device INTEGER, _rank INTEGER, _file TEXT)");
		if (store_exec(s, b.s, cause) != 0)
			goto out;
		if (store_prepare(s, &stmt, "INSERT INTO generic VALUES (?, ?)",
		    cause) != 0)
			goto out;
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
		store_write(s, stmt);
		sqlite3_finalize(stmt);
	}
	for (i = 0; i < n; i++) {
		if (store_has_column(s, name, names[i]))
			continue;
		strbuf_reset(&b);
		strbuf_adds(&b, "ALTER TABLE ");
		store_load_quote_ident(&b, name);
		strbuf_adds(&b, " ADD COLUMN ");
		store_load_quote_ident(&b, names[i]);
		strbuf_adds(&b, " TEXT");
		if (store_exec(s, b.s, cause) != 0)
			goto out;
	}
	strbuf_adds(&ins, "INSERT INTO ");
	store_load_quote_ident(&ins, name);
	strbuf_adds(&ins, "(_device, _rank, _file");
	for (i = 0; i < n; i++) {
		strbuf_adds(&ins, ", ");
		store_load_quote_ident(&ins, names[i]);
	}
	strbuf_adds(&ins, ") VALUES (?, ?, ?");
	for (i = 0; i < n; i++)
		strbuf_adds(&ins, ", ?");
	strbuf_addc(&ins, ')');
	sqlite3_finalize(s->stmt[STMT_GENERIC]);
	s->stmt[STMT_GENERIC] = NULL;
	if (store_prepare(s, &s->stmt[STMT_GENERIC], ins.s, cause) != 0)
		goto out;
	sqlite3_bind_int64(s->stmt[STMT_GENERIC], 1, device == NP_NA ? -1 :
	    device);
	store_load_bind_i64(s->stmt[STMT_GENERIC], 2, rank);
	s->generic_ncols = n;
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&ins);
	strbuf_release(&b);
	return rc;
}

/*
 * Give the rows of the generic table begun last that follow another
 * DEVICE and RANK, without beginning it again (rows of several devices in
 * the vendor's order).
 */
void
store_load_generic_device(struct store *s, int64_t device, int64_t rank)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_GENERIC];

	if (stmt == NULL)
		return;
	sqlite3_bind_int64(stmt, 1, device == NP_NA ? -1 : device);
	store_load_bind_i64(stmt, 2, rank);
}

/* Add one row to the generic table begun last; missing cells are NULL. */
void
store_load_generic_row(struct store *s, char **cells, size_t ncells)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_GENERIC];
	size_t		 i;

	if (stmt == NULL)
		return;
	store_load_bind_str(stmt, 3, s->legacy);
	for (i = 0; i < s->generic_ncols; i++)
		store_load_bind_str(stmt, (int)i + 4, i < ncells ? cells[i]
		    : NULL);
	store_write(s, stmt);
	s->records++;
}

/*
 * Say which legacy or SVP file (its name without ".csv") the rows that
 * follow come from, or NULL when they come from no such file. Generic rows
 * keep the name, so export can write the file again under it; the store
 * is marked as holding legacy data.
 */
void
store_load_legacy(struct store *s, const char *name)
{
	free(s->legacy);
	s->legacy = name != NULL ? xstrdup(name) : NULL;
	if (name != NULL)
		store_load_meta(s, "layout", "legacy");
}

void
store_load_set_progress(struct store *s, store_progress_cb cb, void *arg)
{
	s->progress = cb;
	s->progress_arg = arg;
}

/* Keep FILE (or none) as the file the progress callback is told of. */
static void
store_load_progress_file(struct store *s, const char *file)
{
	if (file == NULL || s->prog_file == NULL ||
	    strcmp(file, s->prog_file) != 0) {
		free(s->prog_file);
		s->prog_file = file != NULL ? xstrdup(file) : NULL;
	}
}

/*
 * Tell the progress callback where the load is. What it is told is kept
 * (the file as a copy; PHASE as it is, so it must be a string that lasts,
 * a literal or an importer's name), for store_load_progress_read() to
 * tell again with the records stored since.
 */
void
store_load_progress(struct store *s, const char *phase, const char *file,
    int64_t bytes_done, int64_t bytes_total)
{
	struct store_progress	*p = &s->prog_last;

	if (s->progress == NULL)
		return;
	store_load_progress_file(s, file);
	memset(p, 0, sizeof *p);
	p->phase = phase;
	p->file = s->prog_file;
	p->records = s->records;
	p->files_done = s->files_done;
	p->files_total = s->files_total;
	p->bytes_done = bytes_done;
	p->bytes_total = bytes_total;
	s->progress(s->progress_arg, p);
}

/*
 * Tell the progress callback how many input files (units) are done; a
 * new one starts with no reading counted in bytes.
 */
void
store_load_progress_files(struct store *s, int64_t done, int64_t total)
{
	s->files_done = done;
	s->files_total = total;
	s->prog_total = 0;
	s->prog_done = false;
}

/* Every 65536 records stored, tell the progress callback again. */
static void
store_load_progress_tick(struct store *s)
{
	s->prog_next = s->records + 65536;
	store_load_progress_read(s);
}

/*
 * Tell the progress callback how far the reading counted in bytes is;
 * once it is over, a phase that goes on has no fraction to give. An
 * importer that counts no bytes is told again what it last said, with
 * the records stored since.
 */
static void
store_load_progress_read(struct store *s)
{
	int64_t	 n;

	if (s->progress == NULL)
		return;
	if (s->prog_total <= 0 && !s->prog_done) {
		if (s->prog_last.phase == NULL)
			return;
		s->prog_last.records = s->records;
		s->progress(s->progress_arg, &s->prog_last);
		return;
	}
	n = __atomic_load_n(&s->prog_read, __ATOMIC_RELAXED);
	if (s->prog_done && s->files_done + 1 >= s->files_total)
		store_load_progress(s, s->prog_phase, NULL, 0, 0);
	else if (s->prog_done)	/* over for this input, not for all */
		store_load_progress(s, s->prog_phase, s->prog_file,
		    s->prog_total, s->prog_total);
	else
		store_load_progress(s, s->prog_phase, s->prog_file,
		    n < s->prog_total ? n : s->prog_total, s->prog_total);
}

/*
 * Count the reading of the unit being loaded in bytes: PHASE names what
 * it reads now, in FILE, of TOTAL bytes in all; TOTAL < 0 keeps the
 * total and the bytes read so far (a new phase of the same reading), and
 * TOTAL 0 says the reading is over (a last phase, without a fraction). It
 * is told at once; then store_load_read() adds to it, and spans and tasks
 * stored meanwhile tell it again, from the thread that called this.
 */
void
store_load_progress_bytes(struct store *s, const char *phase,
    const char *file, int64_t total)
{
	if (total > 0) {
		s->prog_total = total;
		__atomic_store_n(&s->prog_read, 0, __ATOMIC_RELAXED);
	}
	s->prog_done = total == 0;
	s->prog_phase = phase;
	store_prog_self = s;
	if (s->prog_total <= 0 && !s->prog_done)	/* nothing to count */
		store_load_progress(s, phase, file, 0, 0);
	else {
		store_load_progress_file(s, file);
		store_load_progress_read(s);
	}
}

/*
 * N more bytes of the unit read, by any thread: the one that started the
 * count (store_load_progress_bytes()) tells the progress callback. Other
 * threads only add, and read nothing the count's phases change.
 */
void
store_load_read(struct store *s, int64_t n)
{
	__atomic_add_fetch(&s->prog_read, n, __ATOMIC_RELAXED);
	if (store_prog_self == s && s->prog_total > 0)
		store_load_progress_read(s);
}

int64_t
store_load_count(struct store *s)
{
	return s->records;
}
