/*
 * The export command: which kinds there are, and the output directory
 * (one per rank when a store holds several) each kind is run for. The
 * files themselves are written through export-file.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export-int.h"

struct export_kind {
	const char	*name;
	int		(*run)(struct store *, const struct export_opts *,
			    const char *, const char *, char **);
};

static const struct export_kind export_kind_table[] = {
	{ .name = "summary", .run = export_summary },
	{ .name = "timeline", .run = export_chrome }
};

#define EXPORT_NKINDS	(sizeof export_kind_table / sizeof export_kind_table[0])

void
export_opts_init(struct export_opts *o)
{
	memset(o, 0, sizeof *o);
	o->output = ".";
	o->format = EXPORT_CSV;
	o->device = NP_NA;
	o->rank = NP_NA;
	o->step = NP_NA;
	o->from_ns = NP_NA;
	o->to_ns = NP_NA;
}

/* The accepted kinds, for usage messages. */
const char *
export_kinds(void)
{
	return "summary or timeline";
}

static const struct export_kind *
export_kind_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < EXPORT_NKINDS; i++) {
		if (strcmp(export_kind_table[i].name, name) == 0)
			return &export_kind_table[i];
	}
	return NULL;
}

bool
export_kind_valid(const char *name)
{
	return export_kind_find(name) != NULL;
}

/*
 * Run KIND for one rank into DIR; a DIR made for it is removed again if
 * it failed with nothing written.
 */
static int
export_one(struct store *s, const struct export_kind *k,
    const struct export_opts *o, const char *dir, const char *stamp,
    char **cause)
{
	struct stat	 st;
	bool		 made = stat(dir, &st) != 0;
	int		 rc;

	if (util_mkdir_p(dir, 0755) != 0) {
		xasprintf(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
		return -1;
	}
	if ((rc = k->run(s, o, dir, stamp, cause)) != 0 && made)
		rmdir(dir);
	return rc;
}

/*
 * Refuse an output directory inside the profile the store was built from
 * (unless forced): the next import would read the exported files as input
 * and count every row twice.
 */
static int
export_check_output(struct store *s, const struct export_opts *o,
    char **cause)
{
	char	*root = NULL, *out;
	size_t	 len;
	int	 rc = 0;

	if (o->force || store_meta_get(s, "root", &root) != 0)
		return 0;
	if (util_mkdir_p(o->output, 0755) != 0 ||
	    (out = realpath(o->output, NULL)) == NULL) {
		xasprintf(cause, "cannot create '%s': %s", o->output,
		    strerror(errno));
		free(root);
		return -1;
	}
	len = strlen(root);
	if (strncmp(out, root, len) == 0 && (out[len] == '\0' ||
	    out[len] == '/')) {
		xasprintf(cause, "'%s' is inside the profile '%s': importing "
		    "it again would read the exported files too (use --force "
		    "to write there anyway)", o->output, root);
		rc = -1;
	}
	free(out);
	free(root);
	return rc;
}

/*
 * Export KIND of store S as O says; with O->folded, the call stacks go to
 * standard output and KIND is not used. A store with several ranks and no
 * rank chosen gets one directory per rank (rank_<N>), as the vendor's tool
 * writes one export per rank, and its cluster tables (summary) once in
 * O->output. On failure return -1 and set *cause.
 */
int
export_run(struct store *s, const char *kind, const struct export_opts *o,
    char **cause)
{
	const struct export_kind	*k;
	struct export_opts		 one = *o;
	struct stat			 st;
	bool				 made;
	char				 stamp[32], name[64], *dir;
	int64_t				*ranks;
	size_t				 n, i, known = 0;
	int				 rc = 0;

	if (o->folded)
		return export_folded(s, o, cause);
	if ((k = export_kind_find(kind)) == NULL) {
		xasprintf(cause, "unknown export kind '%s' (%s)", kind,
		    export_kinds());
		return -1;
	}
	made = stat(o->output, &st) != 0;
	if (export_check_output(s, o, cause) != 0)
		return -1;
	export_file_stamp(stamp, sizeof stamp);
	if (store_iter_ranks(s, &ranks, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++)
		known += ranks[i] != NP_NA;
	if (o->rank != NP_NA || known < 2 || known != n) {
		free(ranks);
		rc = export_one(s, k, o, o->output, stamp, cause);
		if (rc != 0 && made)
			rmdir(o->output);
		return rc;
	}
	/*
	 * The cluster tables once, beside the ranks' folders: a link's rows
	 * and findings belong to two ranks, or to none.
	 */
	if (strcmp(k->name, "summary") == 0) {
		one.tables = EXPORT_TABLES_CLUSTER;
		rc = export_one(s, k, &one, o->output, stamp, cause);
		one.tables = EXPORT_TABLES_RANK;
	}
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(name, sizeof name, "rank_%lld", (long long)ranks[i]);
		dir = util_path_join(o->output, name);
		one.rank = ranks[i];
		rc = export_one(s, k, &one, dir, stamp, cause);
		free(dir);
	}
	free(ranks);
	/* Made for this export and left empty by its failure. */
	if (rc != 0 && made)
		rmdir(o->output);
	return rc;
}
