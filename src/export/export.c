/*
 * The export command's common parts: which kinds there are, the output
 * directory (one per rank when a store holds several), the vendor's
 * <name>_<YYYYMMDDhhmmss> time stamp, output files written under a
 * temporary name and renamed when complete, and the --range syntax.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export.h"

struct export_kind {
	const char	*name;
	int		(*run)(struct store *, const struct export_opts *,
			    const char *, const char *, char **);
};

static const struct export_kind export_kind_table[] = {
	{ .name = "summary", .run = export_summary },
	{ .name = "timeline", .run = export_timeline }
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
 * The vendor's file name stamp, local time YYYYMMDDhhmmss. SOURCE_DATE_EPOCH
 * fixes it, for reproducible output.
 */
void
export_stamp(char *buf, size_t size)
{
	const char	*sde = getenv("SOURCE_DATE_EPOCH");
	struct tm	 tm;
	time_t		 now;
	int64_t		 v;

	if (sde != NULL && util_parse_int(sde, strlen(sde), &v) == 0 && v >= 0)
		now = (time_t)v;
	else
		now = time(NULL);
	localtime_r(&now, &tm);
	strftime(buf, size, "%Y%m%d%H%M%S", &tm);
}

/* Fail unless PATH is free or FORCE allows replacing it. */
int
export_check_free(const char *path, bool force, char **cause)
{
	if (!force && access(path, F_OK) == 0) {
		xasprintf(cause, "'%s' exists (use --force to overwrite)",
		    path);
		return -1;
	}
	return 0;
}

/*
 * Start writing NAME in DIR under a temporary name. On failure return NULL
 * and set *cause.
 */
struct export_file *
export_file_open(const char *dir, const char *name, char **cause)
{
	struct export_file	*ef;
	mode_t			 mask;
	int			 fd;

	ef = xcalloc(1, sizeof *ef);
	ef->path = util_path_join(dir, name);
	xasprintf(&ef->tmp, "%s.tmp-XXXXXX", ef->path);
	if ((fd = mkstemp(ef->tmp)) == -1 ||
	    (ef->f = fdopen(fd, "w")) == NULL) {
		xasprintf(cause, "cannot create '%s': %s", ef->tmp,
		    strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(ef->tmp);
		}
		free(ef->tmp);
		free(ef->path);
		free(ef);
		return NULL;
	}
	/* mkstemp makes the file private; give it the usual mode. */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return ef;
}

/* Throw a file away: the temporary goes, nothing else changes. */
void
export_file_abort(struct export_file *ef)
{
	if (ef == NULL)
		return;
	if (ef->f != NULL)
		fclose(ef->f);
	unlink(ef->tmp);
	free(ef->tmp);
	free(ef->path);
	free(ef);
}

/*
 * Finish writing EF (flush, sync, close) but keep its temporary name, so
 * a long series of slices never holds many files open. On failure return
 * -1 and set *cause.
 */
int
export_file_close(struct export_file *ef, char **cause)
{
	bool	 bad;

	if (ef->f == NULL)
		return 0;
	bad = fflush(ef->f) != 0 || ferror(ef->f) || fsync(fileno(ef->f)) != 0;
	if (fclose(ef->f) != 0)
		bad = true;
	ef->f = NULL;
	if (bad) {
		xasprintf(cause, "cannot write '%s': %s", ef->path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Close the file and rename it to its final name; EF is freed in every
 * case. On failure the temporary is removed, -1 returned and *cause set.
 */
int
export_file_commit(struct export_file *ef, char **cause)
{
	if (export_file_close(ef, cause) != 0) {
		export_file_abort(ef);
		return -1;
	}
	if (rename(ef->tmp, ef->path) != 0) {
		xasprintf(cause, "cannot write '%s': %s", ef->path,
		    strerror(errno));
		export_file_abort(ef);
		return -1;
	}
	free(ef->tmp);
	free(ef->path);
	free(ef);
	return 0;
}

/* Write S as a JSON string. */
void
export_json_string(FILE *f, const char *s)
{
	unsigned char	 c;

	fputc('"', f);
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * One end of a --range: empty (open), a number with a unit (s, ms, us, ns)
 * counted from FIRST, or a bare number of epoch microseconds as the
 * vendor's files print them.
 */
static int
export_range_end(const char *s, size_t len, int64_t first, int64_t *out)
{
	static const struct {
		const char	*unit;
		int64_t		 mult;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }
	};
	size_t	 i, ul;
	int64_t	 v;

	*out = NP_NA;
	if (len == 0)
		return 0;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		ul = strlen(units[i].unit);
		if (len <= ul || strncmp(s + len - ul, units[i].unit, ul) != 0)
			continue;
		if (util_parse_ns(s, len - ul, &v) != 0 || v < 0 ||
		    v > INT64_MAX / units[i].mult / 2)
			return -1;
		*out = (first != NP_NA ? first : 0) + v * units[i].mult / 1000;
		return 0;
	}
	if (util_parse_ns(s, len, &v) != 0 || v < 0)
		return -1;
	*out = v;
	return 0;
}

/*
 * Parse SPEC (START:END) into a window of epoch ns; relative ends count
 * from FIRST. On bad syntax or an empty window return -1 and set *cause.
 */
int
export_parse_range(const char *spec, int64_t first, int64_t *from,
    int64_t *to, char **cause)
{
	const char	*colon = strchr(spec, ':');

	if (colon == NULL || export_range_end(spec, (size_t)(colon - spec),
	    first, from) != 0 || export_range_end(colon + 1,
	    strlen(colon + 1), first, to) != 0) {
		xasprintf(cause, "bad range '%s' (START:END, each empty, a "
		    "time with a unit s, ms, us or ns from the start, or "
		    "epoch microseconds)", spec);
		return -1;
	}
	if (*from != NP_NA && *to != NP_NA && *from >= *to) {
		xasprintf(cause, "empty range '%s'", spec);
		return -1;
	}
	return 0;
}

/* Run KIND for one rank into DIR. */
static int
export_one(struct store *s, const struct export_kind *k,
    const struct export_opts *o, const char *dir, const char *stamp,
    char **cause)
{
	if (util_mkdir_p(dir, 0755) != 0) {
		xasprintf(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
		return -1;
	}
	return k->run(s, o, dir, stamp, cause);
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
 * writes one export per rank. On failure return -1 and set *cause.
 */
int
export_run(struct store *s, const char *kind, const struct export_opts *o,
    char **cause)
{
	const struct export_kind	*k;
	struct export_opts		 one = *o;
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
	if (export_check_output(s, o, cause) != 0)
		return -1;
	export_stamp(stamp, sizeof stamp);
	if (store_iter_ranks(s, &ranks, &n, cause) != 0)
		return -1;
	for (i = 0; i < n; i++)
		known += ranks[i] != NP_NA;
	if (o->rank != NP_NA || known < 2 || known != n) {
		free(ranks);
		return export_one(s, k, o, o->output, stamp, cause);
	}
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(name, sizeof name, "rank_%lld", (long long)ranks[i]);
		dir = util_path_join(o->output, name);
		one.rank = ranks[i];
		rc = export_one(s, k, &one, dir, stamp, cause);
		free(dir);
	}
	free(ranks);
	return rc;
}
