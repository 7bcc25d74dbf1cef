/*
 * The files of a legacy JOB directory (doc/formats.md section 1.5): what each
 * name says it holds, which device it belongs to and which slice it is.
 * A JOB keeps its files in data/, at its root (the partly flattened test
 * layouts) or both, so both places are scanned; slices of one kind and
 * device are read back to back, in slice order, because records may
 * straddle slice boundaries.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "job-int.h"

/* A slice file may be large, but a JOB slice is at most a few hundred MB. */
#define JOB_FILES_MAX	((size_t)1 << 31)

struct job_files_prefix {
	const char	*prefix;
	enum job_kind	 kind;
};

/* Checked in order: the first prefix that matches wins. */
static const struct job_files_prefix job_files_prefixes[] = {
	{ .prefix = "AclModule.hash_dic.", .kind = JOB_HASH_DIC },
	{ .prefix = "AclModule.", .kind = JOB_ACL },
	{ .prefix = "Runtime.", .kind = JOB_RUNTIME },
	{ .prefix = "runtime.", .kind = JOB_RUNTIME },
	{ .prefix = "training_trace.", .kind = JOB_TRAINING_TRACE },
	{ .prefix = "hwts.log.data.", .kind = JOB_HWTS },
	{ .prefix = "hwts.data.", .kind = JOB_HWTS },
	{ .prefix = "aicore.data.", .kind = JOB_AICORE },
	{ .prefix = "ts_track.data.", .kind = JOB_TS_TRACK },
	{ .prefix = "Msprof.msproftx.", .kind = JOB_MSPROFTX },
	{ .prefix = "host_start.log", .kind = JOB_HOST_START },
	{ .prefix = "dev_start.log", .kind = JOB_DEV_START },
	{ .prefix = "info.json", .kind = JOB_META },
	{ .prefix = "start_info", .kind = JOB_META },
	{ .prefix = "end_info", .kind = JOB_META },
	{ .prefix = "sample.json", .kind = JOB_META }
};

#define JOB_FILES_NPREFIXES \
	(sizeof job_files_prefixes / sizeof job_files_prefixes[0])

static bool
job_files_digits(const char *p, size_t len)
{
	size_t	 i;

	if (len == 0 || len > 18)
		return false;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
	}
	return true;
}

/*
 * The device and slice numbers of NAME: the slice is the "slice_K" part
 * (or, in inference names without one, the last number); the device is
 * the last number before it, so a ".JOB2" between them is skipped.
 */
static void
job_files_numbers(const char *name, int64_t *device, int64_t *slice)
{
	const char	*p, *q;
	int64_t		 last = NP_NA, prev = NP_NA, v;
	size_t		 len;
	bool		 have_slice = false;

	*device = *slice = NP_NA;
	for (p = name; *p != '\0'; p = *q == '\0' ? q : q + 1) {
		if ((q = strchr(p, '.')) == NULL)
			q = p + strlen(p);
		len = (size_t)(q - p);
		if (len > 6 && strncmp(p, "slice_", 6) == 0 &&
		    job_files_digits(p + 6, len - 6)) {
			util_parse_int(p + 6, len - 6, slice);
			have_slice = true;
			break;
		}
		if (job_files_digits(p, len) &&
		    util_parse_int(p, len, &v) == 0) {
			prev = last;
			last = v;
		}
	}
	if (have_slice)
		*device = last;
	else if (prev != NP_NA) {
		*device = prev;
		*slice = last;
	} else
		*device = last;
}

/* The kind of a Framework.[host.][vm.|vm_]TYPE... file. */
static enum job_kind
job_files_framework(const char *name)
{
	const char	*p = name + strlen("Framework.");

	if (strncmp(p, "host.", 5) == 0)
		p += 5;
	/* MindSpore's tags: vm.task_desc_info, later vm_task_desc_info. */
	if (strncmp(p, "vm.", 3) == 0 || strncmp(p, "vm_", 3) == 0)
		p += 3;
	if (util_has_prefix(p, "task_desc_info") ||
	    util_has_prefix(p, "single_op_task_info"))
		return JOB_TASK_DESC;
	if (util_has_prefix(p, "graph_desc_info"))
		return JOB_GRAPH_DESC;
	if (util_has_prefix(p, "point."))
		return JOB_POINT;
	if (util_has_prefix(p, "hash_dic."))
		return JOB_HASH_DIC;
	return JOB_GE_OTHER;
}

/*
 * What the file called NAME holds, by the name grammar of doc/formats.md 1.5.
 * Set *DEVICE and *SLICE from its numbers (NP_NA when absent).
 */
enum job_kind
job_files_kind(const char *name, int64_t *device, int64_t *slice)
{
	size_t	 i;

	job_files_numbers(name, device, slice);
	if (util_has_suffix(name, ".done") || util_has_suffix(name, ".zip"))
		return JOB_OTHER;
	if (util_has_prefix(name, "Framework."))
		return job_files_framework(name);
	if (util_has_prefix(name, "DATA_PREPROCESS.")) {
		if (strstr(name, ".AICPU.") != NULL)
			return JOB_AICPU;
		return JOB_PREPROCESS;
	}
	for (i = 0; i < JOB_FILES_NPREFIXES; i++) {
		if (util_has_prefix(name, job_files_prefixes[i].prefix))
			return job_files_prefixes[i].kind;
	}
	return JOB_OTHER;
}

static void
job_files_add_dir(struct job *j, const char *dir)
{
	struct stat	 st;
	struct job_file	*f;
	char		**names, *path;
	size_t		 n, i;
	int64_t		 device, slice;
	enum job_kind	 kind;

	names = util_dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		path = util_path_join(dir, names[i]);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		kind = job_files_kind(names[i], &device, &slice);
		if (util_has_suffix(names[i], ".done")) {
			free(path);
			continue;
		}
		j->files = util_grow(j->files, j->nfiles, 1,
		    sizeof *j->files);
		f = &j->files[j->nfiles++];
		f->path = path;
		f->name = xstrdup(names[i]);
		f->kind = kind;
		f->device = device;
		f->slice = slice;
	}
	util_strv_free(names, n);
}

/* The length of NAME without its ".slice_K" tail. */
static size_t
job_files_stem(const char *name)
{
	const char	*p;

	if ((p = strstr(name, ".slice_")) != NULL)
		return (size_t)(p - name);
	return strlen(name);
}

/* Kind, then file stem, then slice: the slices of one file in order. */
static int
job_files_cmp(const void *a, const void *b)
{
	const struct job_file	*x = a, *y = b;

	size_t			 nx, ny;
	int			 c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	nx = job_files_stem(x->name);
	ny = job_files_stem(y->name);
	if ((c = strncmp(x->name, y->name, nx < ny ? nx : ny)) != 0)
		return c;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	if (x->slice != y->slice)
		return x->slice < y->slice ? -1 : 1;
	return strcmp(x->path, y->path);
}

/*
 * List the files of the JOB directory DIR (its root and data/), sorted by
 * kind and slice, and pick the device the unit stands for: the device
 * number of the first data file that names one. Return the number of
 * files of a kind we decode.
 */
int
job_files_scan(struct job *j, const char *dir)
{
	char	*data;
	size_t	 i;
	int	 known = 0;

	job_files_add_dir(j, dir);
	data = util_path_join(dir, "data");
	job_files_add_dir(j, data);
	free(data);
	if (j->nfiles > 0)
		qsort(j->files, j->nfiles, sizeof *j->files, job_files_cmp);
	j->device = NP_NA;
	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind == JOB_OTHER ||
		    j->files[i].kind == JOB_META)
			continue;
		known++;
		if (j->device == NP_NA && j->files[i].device != NP_NA &&
		    j->files[i].kind != JOB_HOST_START)
			j->device = j->files[i].device;
	}
	return known;
}

void
job_files_free(struct job *j)
{
	size_t	 i;

	for (i = 0; i < j->nfiles; i++) {
		free(j->files[i].path);
		free(j->files[i].name);
	}
	free(j->files);
	j->files = NULL;
	j->nfiles = 0;
}

/* True if DIR (or DIR/data) holds a file of a kind we decode. */
bool
job_files_any(const char *dir)
{
	struct job	 j;
	int		 known;

	memset(&j, 0, sizeof j);
	known = job_files_scan(&j, dir);
	job_files_free(&j);
	return known > 0;
}

/*
 * Append the bytes of F to B and record it as an input of the store; -1
 * (warned) if it cannot be read.
 */
static int
job_files_append(struct job *j, const struct job_file *f, struct strbuf *b)
{
	char	*buf, *cause = NULL;
	size_t	 n;

	store_load_file(j->s, f->path);
	if (util_read_file(f->path, &buf, &n, JOB_FILES_MAX, &cause) != 0) {
		store_load_warning(j->s, f->path, -1, "%s", cause);
		free(cause);
		return -1;
	}
	if (n == 0)
		store_load_warning(j->s, f->path, -1, "empty slice: no "
		    "records");
	strbuf_add(b, buf, n);
	free(buf);
	return 0;
}

/*
 * Read every slice of KIND whose name starts with PREFIX (NULL for any)
 * into one buffer, in slice order. Return the number of files read; a file
 * that cannot be read is a warning.
 */
int
job_files_read(struct job *j, enum job_kind kind, const char *prefix,
    char **data, size_t *len)
{
	struct strbuf	 b;
	size_t		 i;
	int		 read = 0;

	strbuf_init(&b);
	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind != kind || (prefix != NULL &&
		    !util_has_prefix(j->files[i].name, prefix)))
			continue;
		if (job_files_append(j, &j->files[i], &b) == 0)
			read++;
	}
	*len = b.len;
	*data = b.s != NULL ? strbuf_detach(&b) : xstrdup("");
	return read;
}

/* The path of J's first file of KIND, for messages; the JOB if none. */
const char *
job_files_first(struct job *j, enum job_kind kind)
{
	size_t	 i;

	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind == kind)
			return j->files[i].path;
	}
	return j->dir;
}

/*
 * Read file I of J and the later slices of the same file into one
 * buffer. Return the index of the first file after them; a slice that
 * cannot be read is a warning.
 */
size_t
job_files_read_stem(struct job *j, size_t i, char **data, size_t *len)
{
	struct strbuf	 b;
	size_t		 k, stem = job_files_stem(j->files[i].name);

	strbuf_init(&b);
	for (k = i; k < j->nfiles; k++) {
		if (j->files[k].kind != j->files[i].kind ||
		    job_files_stem(j->files[k].name) != stem ||
		    strncmp(j->files[k].name, j->files[i].name, stem) != 0)
			break;
		job_files_append(j, &j->files[k], &b);
	}
	*len = b.len;
	*data = b.s != NULL ? strbuf_detach(&b) : xstrdup("");
	return k;
}

/*
 * Begin the table NAME kept as the vendor writes it, with its NCOLS COLS,
 * for the device and rank of J. On failure warn, naming FILE (NULL: J's
 * directory), and return -1.
 */
int
job_files_table(struct job *j, const char *file, const char *name,
    char **cols, size_t ncols)
{
	char	*cause = NULL;

	if (store_load_generic_begin(j->s, name, j->device, j->ctx->rank, cols,
	    ncols, &cause) == 0)
		return 0;
	store_load_warning(j->s, file != NULL ? file : j->dir, -1, "%s",
	    cause);
	free(cause);
	return -1;
}

/*
 * The first file of J whose name starts with PREFIX, read whole and
 * recorded as an input; NULL if there is none or it cannot be read
 * (warned).
 */
char *
job_files_named(struct job *j, const char *prefix)
{
	char	*buf, *cause = NULL;
	size_t	 i, n;

	for (i = 0; i < j->nfiles; i++) {
		if (!util_has_prefix(j->files[i].name, prefix))
			continue;
		if (util_read_file(j->files[i].path, &buf, &n, 1 << 20,
		    &cause) != 0) {
			store_load_warning(j->s, j->files[i].path, -1, "%s",
			    cause);
			free(cause);
			return NULL;
		}
		store_load_file(j->s, j->files[i].path);
		return buf;
	}
	return NULL;
}

/*
 * Read the files of KIND into *DATA and *LEN and begin the table NAME with
 * its NCOLS COLS for them. Return -1, with nothing to free, if there are
 * no such files or the table cannot be begun (warned).
 */
int
job_files_read_table(struct job *j, enum job_kind kind, const char *name,
    char **cols, size_t ncols, char **data, size_t *len)
{
	if (job_files_read(j, kind, NULL, data, len) == 0 ||
	    job_files_table(j, NULL, name, cols, ncols) != 0) {
		free(*data);
		*data = NULL;
		return -1;
	}
	return 0;
}
