/*
 * The manifest of input files (path, size, modification time) a store was
 * built from, written at commit, and the check that tells whether the
 * store is still current for its PATH.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store-int.h"

#define STORE_MANIFEST_MAX	200000
#define STORE_MANIFEST_DEPTH	12

struct store_manifest_entry {
	char		*path;
	int64_t		 size;
	int64_t		 mtime_ns;
};

struct store_manifest {
	struct store_manifest_entry	*v;
	size_t				 n;
};

static void
store_manifest_add(struct store_manifest *m, const char *path,
    const struct stat *st)
{
	struct store_manifest_entry	*e;

	m->v = util_grow(m->v, m->n, 1, sizeof *m->v);
	e = &m->v[m->n++];
	e->path = xstrdup(path);
	e->size = st->st_size;
	e->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 +
	    st->st_mtim.tv_nsec;
}

static void
store_manifest_walk(struct store_manifest *m, struct util_walk *w,
    const char *path, int depth, const char *skip)
{
	struct stat	 st;
	DIR		*d;
	struct dirent	*de;
	char		*child;

	if (stat(path, &st) != 0 || m->n >= STORE_MANIFEST_MAX ||
	    !util_walk_visit(w, path, &st))
		return;
	if (S_ISREG(st.st_mode)) {
		if (!store_is_own_file(util_basename(path)) &&
		    (skip == NULL || !util_has_prefix(path, skip)))
			store_manifest_add(m, path, &st);
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth > STORE_MANIFEST_DEPTH ||
	    (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		child = util_path_join(path, de->d_name);
		store_manifest_walk(m, w, child, depth + 1, skip);
		free(child);
	}
	closedir(d);
}

static int
store_manifest_cmp(const void *a, const void *b)
{
	const struct store_manifest_entry	*x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* List the files under ROOT, leaving out the store SKIP and its temporaries. */
static void
store_manifest_build(struct store_manifest *m, const char *root,
    const char *skip)
{
	struct util_walk	 w;
	char			*real;

	memset(m, 0, sizeof *m);
	real = skip != NULL ? util_abspath(skip) : NULL;
	util_walk_init(&w, root);
	store_manifest_walk(m, &w, root, 0, real);
	util_walk_release(&w);
	free(real);
	if (m->n > 1)
		qsort(m->v, m->n, sizeof *m->v, store_manifest_cmp);
}

static void
store_manifest_release(struct store_manifest *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
}

/* The bytes of the input files under ROOT (our own stores left out). */
int64_t
store_manifest_bytes(const char *root)
{
	struct store_manifest	 m;
	int64_t			 bytes = 0;
	size_t			 i;

	store_manifest_build(&m, root, NULL);
	for (i = 0; i < m.n; i++)
		bytes += m.v[i].size;
	store_manifest_release(&m);
	return bytes;
}

/* The bytes of the input files finished store S was built from. */
int64_t
store_manifest_sum(struct store *s)
{
	sqlite3_stmt	*stmt;
	int64_t		 bytes = 0;

	if (store_prepare(s, &stmt, "SELECT sum(size) FROM manifest",
	    NULL) != 0)
		return 0;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		bytes = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return bytes;
}

/* Record every input file under the store's root with size and mtime. */
int
store_manifest_write(struct store *s, char **cause)
{
	struct store_manifest	 m;
	sqlite3_stmt		*stmt;
	size_t			 i;

	if (store_prepare(s, &stmt, "INSERT OR REPLACE INTO manifest"
	    " VALUES (?, ?, ?)", cause) != 0)
		return -1;
	store_manifest_build(&m, s->root, s->path);
	for (i = 0; i < m.n; i++) {
		sqlite3_bind_text(stmt, 1, m.v[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 2, m.v[i].size);
		sqlite3_bind_int64(stmt, 3, m.v[i].mtime_ns);
		store_write(s, stmt);
	}
	sqlite3_finalize(stmt);
	store_manifest_release(&m);
	return 0;
}

/*
 * Return 1 if the store at PATH was built from ROOT as it is now (same
 * schema, same files with the same sizes and times), 0 if it must be
 * rebuilt (and set *cause to why), -1 if it does not exist.
 */
int
store_manifest_current(const char *path, const char *root, char **cause)
{
	struct store		*s;
	struct store_manifest	 m;
	sqlite3_stmt		*stmt;
	char			*why = NULL, *real;
	size_t			 i = 0;
	int			 rc;

	if (access(path, F_OK) != 0)
		return -1;
	if ((s = store_open(path, &why)) == NULL) {
		*cause = why;
		return 0;
	}
	if ((real = realpath(root, NULL)) == NULL)
		real = xstrdup(root);
	if (s->root == NULL || strcmp(s->root, real) != 0) {
		xasprintf(cause, "store was built for '%s'",
		    s->root != NULL ? s->root : "?");
		free(real);
		store_free(s);
		return 0;
	}
	store_manifest_build(&m, real, path);
	free(real);
	rc = 1;
	if (sqlite3_prepare_v2(s->db, "SELECT path, size, mtime_ns FROM"
	    " manifest ORDER BY path", -1, &stmt, NULL) != SQLITE_OK)
		rc = 0;
	while (rc == 1 && sqlite3_step(stmt) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(stmt, 0);

		if (i >= m.n || strcmp(p, m.v[i].path) != 0) {
			xasprintf(cause, "input '%s' was removed or added",
			    i < m.n && strcmp(p, m.v[i].path) > 0 ?
			    m.v[i].path : p);
			rc = 0;
		} else if (sqlite3_column_int64(stmt, 1) != m.v[i].size ||
		    sqlite3_column_int64(stmt, 2) != m.v[i].mtime_ns) {
			xasprintf(cause, "input '%s' changed", p);
			rc = 0;
		}
		i++;
	}
	if (rc == 1 && i != m.n) {
		xasprintf(cause, "input '%s' is new", m.v[i].path);
		rc = 0;
	}
	sqlite3_finalize(stmt);
	store_manifest_release(&m);
	store_free(s);
	return rc;
}
