/*
 * The files an export writes: each is built under a temporary name and
 * renamed into place only when the whole export succeeded, so a failed or
 * interrupted export leaves no half-written file; plus the time-stamp of
 * a file name and the --range parser the exports share.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export-int.h"

/*
 * The vendor's file name stamp, local time YYYYMMDDhhmmss. SOURCE_DATE_EPOCH
 * fixes it, for reproducible output; else it is the time of the first
 * call, so that every file of one command has the same (a rank of a set
 * exports twice: the cluster's files, then the rank's).
 */
void
export_file_stamp(char *buf, size_t size)
{
	static time_t	 first = (time_t)-1;
	const char	*sde = getenv("SOURCE_DATE_EPOCH");
	struct tm	 tm;
	time_t		 now;
	int64_t		 v;

	if (sde != NULL && util_parse_int(sde, strlen(sde), &v) == 0 && v >= 0)
		now = (time_t)v;
	else {
		if (first == (time_t)-1)
			first = time(NULL);
		now = first;
	}
	localtime_r(&now, &tm);
	strftime(buf, size, "%Y%m%d%H%M%S", &tm);
}

/* Fail unless PATH is free or FORCE allows replacing it. */
int
export_file_check_free(const char *path, bool force, char **cause)
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

/*
 * One end of a --range: empty (open), a number with a unit (s, ms, us, ns)
 * counted from FIRST, or a bare number of epoch microseconds as the
 * vendor's files print them.
 */
static int
export_file_range_end(const char *s, size_t len, int64_t first, int64_t *out)
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
export_file_parse_range(const char *spec, int64_t first, int64_t *from,
    int64_t *to, char **cause)
{
	const char	*colon = strchr(spec, ':');

	if (colon == NULL || export_file_range_end(spec, (size_t)(colon - spec),
	    first, from) != 0 || export_file_range_end(colon + 1,
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

/*
 * Parse SPEC into a window of the tasks and spans of DEVICE and RANK in S
 * (NP_NA: all): relative ends count from the origin of the UI's times and
 * its timeline ruler (the first start of anything in the store, or in the
 * cluster of a set), so that a time read off the UI selects what the UI
 * shows there. An open end is NP_NA, or with CLOSE their first start or
 * one past their last end. On failure return -1 and set *cause.
 */
int
export_file_window(struct store *s, const char *spec, int64_t device,
    int64_t rank, bool close, int64_t *from, int64_t *to, char **cause)
{
	struct store_query	 q;
	int64_t			 first, last, origin;

	store_query_init(&q);
	q.device = device;
	q.rank = rank;
	if (store_iter_bounds(s, &q, &first, &last, cause) != 0)
		return -1;
	if ((origin = store_lanes_origin(s)) == NP_NA)
		origin = first != NP_NA ? first : 0;
	if (export_file_parse_range(spec, origin, from, to, cause) != 0)
		return -1;
	if (close && *from == NP_NA)
		*from = first != NP_NA ? first : 0;
	if (close && *to == NP_NA)
		*to = last != NP_NA ? last + 1 : INT64_MAX;
	return 0;
}
