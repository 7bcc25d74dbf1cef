/*
 * The fuzz targets, one per decoder family, behind libFuzzer's entry
 * point: each input becomes a file of a profile that is imported into a
 * store (loaders, statistics, lanes and all) and thrown away. The target
 * is FUZZ_TARGET in the environment:
 *
 *   csv       a text CSV; the first byte picks the file it stands for
 *   trace     a chrome trace (trace_view.json)
 *   db        a vendor SQLite export (msprof_0.db)
 *   prof      one file of the raw PROF collection in FUZZ_BASE (the first
 *             byte picks it, the rest is its new content)
 *   job       the same for a legacy JOB directory
 *   timeline  the same for a legacy timeline/ folder
 *   cluster   the same for a folder of torch_npu ranks with their
 *             communication files and parallel layout (the cluster
 *             tables, findings and all)
 *
 * fuzz-main.c drives the same code without libFuzzer (a plain build, or
 * afl-fuzz), and writes the seed corpora.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importer.h"
#include "fuzz.h"

/* The files a csv input stands for, by its first byte. */
static const char *const fuzz_csv_names[] = {
	"p_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
	"p_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv",
	"p_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv",
	"p_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
	"mindstudio_profiler_output/op_summary_20250101000000.csv",
	"mindstudio_profiler_output/op_statistic_20250101000000.csv",
	"summary/op_summary_0_1_1.csv",
	"summary/op_summary_0.resnet.1.1.1.1.0.1000.csv",
	NULL
};

struct fuzz_file {
	char	*path;		/* in the root */
	char	*data;		/* its content in the base */
	size_t	 len;
};

static struct {
	const char		*target;
	char			*work;		/* a private directory */
	char			*root;		/* the profile imported */
	char			*store;
	struct fuzz_file	*files;		/* the base's, by path */
	size_t			 nfiles;
} fuzz;

static void
fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

void
fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE	*f;
	char	*dir, *slash;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		util_mkdir_p(dir, 0755);
	}
	free(dir);
	if ((f = fopen(path, "w")) == NULL)
		fuzz_die(path);
	if (size > 0 && fwrite(data, 1, size, f) != size)
		fuzz_die(path);
	fclose(f);
}

/* The regular files under DIR, recursively, into the fuzz state. */
static void
fuzz_list(const char *dir)
{
	DIR			*d;
	struct dirent		*e;
	struct stat		 st;
	struct fuzz_file	*f;
	char			*p, *data, *cause = NULL;
	size_t			 len;

	if ((d = opendir(dir)) == NULL)
		fuzz_die(dir);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		p = util_path_join(dir, e->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			fuzz_list(p);
			free(p);
			continue;
		}
		if (util_read_file(p, &data, &len, 64 << 20, &cause) != 0) {
			free(cause);
			cause = NULL;
			free(p);
			continue;
		}
		fuzz.files = xreallocarray(fuzz.files, fuzz.nfiles + 1,
		    sizeof *fuzz.files);
		f = &fuzz.files[fuzz.nfiles++];
		f->path = p;
		f->data = data;
		f->len = len;
	}
	closedir(d);
}

static int
fuzz_cmp(const void *a, const void *b)
{
	const struct fuzz_file	*x = a, *y = b;

	return strcmp(x->path, y->path);
}

static bool
fuzz_based(void)
{
	return strcmp(fuzz.target, "prof") == 0 ||
	    strcmp(fuzz.target, "job") == 0 ||
	    strcmp(fuzz.target, "timeline") == 0 ||
	    strcmp(fuzz.target, "cluster") == 0;
}

/* Set up the target named in FUZZ_TARGET; exit on a bad setting. */
void
fuzz_init(void)
{
	const char	*base;
	char		*cmd, tmpl[] = "/tmp/npuprof-fuzz.XXXXXX";

	if (fuzz.target != NULL)
		return;
	if ((fuzz.target = getenv("FUZZ_TARGET")) == NULL ||
	    (strcmp(fuzz.target, "csv") != 0 &&
	    strcmp(fuzz.target, "trace") != 0 &&
	    strcmp(fuzz.target, "db") != 0 && !fuzz_based())) {
		fprintf(stderr, "fuzz: FUZZ_TARGET must be csv, trace, db, "
		    "prof, job, timeline or cluster\n");
		exit(2);
	}
	log_set_quiet(true);
	if (mkdtemp(tmpl) == NULL)
		fuzz_die("mkdtemp");
	fuzz.work = xstrdup(tmpl);
	fuzz.root = util_path_join(fuzz.work, "in");
	fuzz.store = util_path_join(fuzz.work, "s.db");
	if (mkdir(fuzz.root, 0755) != 0)
		fuzz_die(fuzz.root);
	if (!fuzz_based())
		return;
	if ((base = getenv("FUZZ_BASE")) == NULL) {
		fprintf(stderr, "fuzz: target %s needs FUZZ_BASE, a generated "
		    "profile\n", fuzz.target);
		exit(2);
	}
	xasprintf(&cmd, "cp -R '%s'/. '%s'", base, fuzz.root);
	if (system(cmd) != 0) {
		fprintf(stderr, "fuzz: cannot copy %s\n", base);
		exit(2);
	}
	free(cmd);
	fuzz_list(fuzz.root);
	if (fuzz.nfiles == 0) {
		fprintf(stderr, "fuzz: no files in %s\n", base);
		exit(2);
	}
	qsort(fuzz.files, fuzz.nfiles, sizeof *fuzz.files, fuzz_cmp);
}

/* Remove the work directory. */
void
fuzz_cleanup(void)
{
	char	*cmd;

	if (fuzz.work == NULL)
		return;
	xasprintf(&cmd, "rm -rf '%s'", fuzz.work);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", fuzz.work);
	free(cmd);
}

/* Say why an import failed when FUZZ_VERBOSE is set. */
static void
fuzz_failed(char *cause)
{
	if (getenv("FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "fuzz: %s\n", cause);
	free(cause);
}

/* Import the root into a new store, as `import` does. */
static void
fuzz_import(void)
{
	struct store	*s;
	char		*cause = NULL;

	unlink(fuzz.store);
	if ((s = store_load_begin(fuzz.store, fuzz.root, &cause)) == NULL) {
		fuzz_failed(cause);
		return;
	}
	if (importer_run(s, fuzz.root, &cause) != 0) {
		fuzz_failed(cause);
		store_load_abort(s);
		return;
	}
	if (store_load_commit(s, &cause) != 0)
		fuzz_failed(cause);
	else if (getenv("FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "fuzz: imported\n");
}

/* Empty the root of what a single-file target wrote. */
static void
fuzz_clear(void)
{
	char	*cmd;

	xasprintf(&cmd, "rm -rf '%s'/*", fuzz.root);
	if (system(cmd) != 0)
		fuzz_die("rm");
	free(cmd);
}

static size_t
fuzz_ncsv(void)
{
	size_t	 n;

	for (n = 0; fuzz_csv_names[n] != NULL; n++)
		;
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*path;
	size_t	 i;

	fuzz_init();
	if (fuzz_based()) {
		if (size == 0)
			return 0;
		i = data[0] % fuzz.nfiles;
		fuzz_write(fuzz.files[i].path, data + 1, size - 1);
		fuzz_import();
		fuzz_write(fuzz.files[i].path,
		    (const uint8_t *)fuzz.files[i].data, fuzz.files[i].len);
		return 0;
	}
	if (strcmp(fuzz.target, "csv") == 0) {
		if (size == 0)
			return 0;
		path = util_path_join(fuzz.root,
		    fuzz_csv_names[data[0] % fuzz_ncsv()]);
		data++;
		size--;
	} else
		path = util_path_join(fuzz.root, strcmp(fuzz.target,
		    "trace") == 0 ? "trace_view.json" : "msprof_0.db");
	fuzz_write(path, data, size);
	fuzz_import();
	free(path);
	fuzz_clear();
	return 0;
}

/* The seed of the based targets: file I's index byte, then its bytes. */
static void
fuzz_seed_based(const char *dir)
{
	uint8_t	*buf;
	char	*p;
	size_t	 i;

	for (i = 0; i < fuzz.nfiles && i < 256; i++) {
		buf = xmalloc(fuzz.files[i].len + 1);
		buf[0] = (uint8_t)i;
		memcpy(buf + 1, fuzz.files[i].data, fuzz.files[i].len);
		xasprintf(&p, "%s/seed-%03zu", dir, i);
		fuzz_write(p, buf, fuzz.files[i].len + 1);
		free(p);
		free(buf);
	}
}

/*
 * Write the seed corpus of the target into DIR: the based targets' files
 * as they are, and small sound inputs of the others (fuzz-seeds.c).
 */
void
fuzz_seeds(const char *dir)
{
	fuzz_init();
	util_mkdir_p(dir, 0755);
	if (fuzz_based())
		fuzz_seed_based(dir);
	else
		fuzz_seeds_write(fuzz.target, dir, fuzz.work);
}
