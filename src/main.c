/*
 * npuprof-tui: options, set-up and teardown. This is the only file that
 * sees every layer: it finds or builds the store for PATH through the
 * importers, then hands the store to show or to the UI.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "npuprof.h"
#include "store.h"
#include "importer.h"
#include "demo.h"
#include "collect.h"
#include "export.h"
#include "ui.h"
#include "cli.h"

#define EXIT_DATA	1
#define EXIT_USAGE	2

/* A cluster this big (bytes of input) gets a store per profile. */
#define MAIN_SET_BYTES	(512LL << 20)

enum main_stores {
	STORES_AUTO,
	STORES_ONE,
	STORES_RANK
};

struct main_opts {
	const char	*db;
	bool		 reimport;
	bool		 quiet;
	const char	*format;
	const char	*sort;
	const char	*filter;
	const char	*stats;
	int64_t		 limit;
	int64_t		 device;
	int64_t		 rank;
	const char	*output;
	bool		 force;
	const char	*range;
	int64_t		 split_mb;
	const char	*weight;
	const char	*stacks;
	int64_t		 step;
	bool		 folded;
	bool		 format_set;
	const char	*theme;
	bool		 no_mouse;
	bool		 timeline;
	bool		 indexes;
	uint64_t	 given;		/* MAIN_OPT() of each long option */
	const char	*replay;
	int		 jobs;
	enum main_stores stores;
	bool		 compare;
	int64_t		 base_step;
};

struct main_progress {
	struct timespec	 start;
	struct timespec	 last;
	bool		 shown;
	char		*file;		/* the file being read */
	int64_t		 size;		/* and its size */
	int64_t		 records;	/* read so far */
	char		 phase[16];	/* last shown */
};

/* What the UI's re-import callback needs. */
struct main_reimport {
	const char		*path;
	char			*db;
	const struct main_opts	*o;
};

static double	main_t0;
static volatile sig_atomic_t main_child;	/* an import of a set's */
/*
 * The UI opens a store before its indexes are built and builds them in
 * the background (store-index.c); import leaves them to the first command
 * that reads the store (unless --indexes); every other command builds
 * them first.
 */
static bool main_index_later;
/* Ctrl-C while the indexes are built: the build stops, then the import. */
static volatile sig_atomic_t main_indexing, main_interrupted;

static const char *main_usage_text =
"usage: npuprof-tui [--db FILE] [--reimport] [--device ID] [--rank N]\n"
"                   [-j N] [--stores auto|one|rank]\n"
"                   [--theme NAME|FILE] [--no-mouse] [--replay FILE] PATH\n"
"       npuprof-tui import [--db FILE] [--reimport] [-j N]\n"
"                   [--stores auto|one|rank] [--indexes] [--timeline]\n"
"                   PATH\n"
"       npuprof-tui show [--format table|csv|tsv|json] [--sort SPEC]\n"
"                        [--filter REGEX] [--limit N] [--device ID]\n"
"                        [--rank N] [--step N | --range S:E]\n"
"                        [--stats auto|file|computed]\n"
"                        [--db FILE] [--reimport] PATH [TABLE...]\n"
"       npuprof-tui --compare [--rank N] [--base-step N] [--step N]\n"
"                   BASE NEW\n"
"       npuprof-tui show --compare [--rank N] [--base-step N] [--step N]\n"
"                        [--format F] [--sort S] [--limit N] BASE NEW\n"
"                        [kernel_compare] [api_compare]\n"
"                        [communication_compare] [overall]\n"
"                        [op_compare] [memory_compare]\n"
"                        [op_statistic_compare] [api_statistic_compare]\n"
"       npuprof-tui export summary [--format csv|json] [--output DIR]\n"
"                        [--device ID] [--rank N] [--force] [--db FILE]\n"
"                        PATH\n"
"       npuprof-tui export timeline [--output DIR] [--device ID]\n"
"                        [--rank N] [--range START:END] [--split-mb N]\n"
"                        [--force] [--db FILE] PATH\n"
"       npuprof-tui show [--weight device|host]\n"
"                        [--stacks auto|cann|python|ops|modules|\n"
"                        mindspore]\n"
"                        [--step N] [--range S:E] [--filter REGEX]\n"
"                        PATH stacks\n"
"       npuprof-tui export --folded --compare [--rank N] [--step N]\n"
"                        [--base-step N] [--weight W] [--stacks SRC]\n"
"                        BASE NEW\n"
"       npuprof-tui export --folded [--weight W] [--stacks SRC] [--step N]\n"
"                        [--range S:E] [--filter REGEX] [--db FILE] PATH\n"
"       npuprof-tui demo [DIR]\n"
"       npuprof-tui collect -m MAIN (--config BOARD.ini | --host HOST)\n"
"                           [--output DIR] [--all] [-- ARGS...]\n"
"       npuprof-tui collect --pull [USER@]HOST:DIR [--output DIR] [--all]\n"
"       npuprof-tui --help | --version\n";

static const char *main_help_text =
"\n"
"Commands:\n"
"  (none)   open PATH in the terminal UI (without a terminal on\n"
"           stdout: print like show)\n"
"  import   build or refresh the store for PATH only\n"
"  show     print tables of PATH to the terminal or a pipe\n"
"  export   write the vendor's summary CSV/JSON files or timeline\n"
"           trace JSON (msprof_*.json) of PATH into a directory;\n"
"           legacy and SVP data as the legacy files,\n"
"           <name>_<device>_<model>_<iteration>.csv\n"
"           --folded: write PATH's call stacks as folded stacks\n"
"           (a;b;c N) to stdout, for flamegraph.pl, inferno, speedscope\n"
"  demo     write the built-in demo profile to DIR and open it\n"
"  collect  run MAIN on a board over ssh with profiling on and copy the\n"
"           data back (npuprof-tui collect --help for its options)\n"
"\n"
"Options:\n"
"  --db FILE         the store to use (default: beside PATH, else the\n"
"                    cache directory)\n"
"  --reimport        rebuild the store even if it is current\n"
"  --indexes         import: also build the store's indexes now, not\n"
"                    when a command first reads the store\n"
"  --timeline        import: also build the timeline's tables (and the\n"
"                    indexes) now, not the first time a timeline is\n"
"                    shown\n"
"  -j, --jobs N      import N profiles of a cluster at a time (default:\n"
"                    the cores online)\n"
"  --stores HOW      a folder of several profiles: one store (one), a\n"
"                    store per profile and the cluster's made of theirs\n"
"                    (rank), or rank when its files reach 512 MiB (auto,\n"
"                    the default); see CLUSTERS in npuprof-tui(1)\n"
"  --format FMT      show: table (default), csv, tsv or json;\n"
"                    export summary: csv (default) or json\n"
"  --sort SPEC       show: sort on columns, e.g. '-Total Time(us),OP Type'\n"
"                    (a leading - sorts descending; part of a name is enough;\n"
"                    op_summary's PMU columns by their full name)\n"
"  --filter REGEX    show: keep rows where any cell matches REGEX, or\n"
"                    COLUMN:REGEX for one column (PCRE2)\n"
"  --limit N         show: at most N rows per table (lines of stacks)\n"
"  --device ID       only device ID (a number, or host)\n"
"  --rank N          only rank N\n"
"  --theme NAME|FILE UI: colour theme dark, light, mono or a YAML file\n"
"  --no-mouse        UI: leave the mouse to the terminal\n"
"  --replay FILE     UI: read keys from FILE instead of the terminal and\n"
"                    print how long each took (for measurements)\n"
"  --stats WHICH     show: statistics as the tool wrote them (file), as\n"
"                    computed from the task rows (computed), or the\n"
"                    file when there is one (auto, the default)\n"
"  --output DIR      export: the directory to write to (default: .)\n"
"  --force           export: replace files that exist\n"
"  --range S:E       show, stacks: only the rows that start in the window\n"
"                    (op_statistic, api_statistic computed from them);\n"
"                    export timeline: only events in the window; S and E\n"
"                    are epoch microseconds, or times with a unit (s, ms,\n"
"                    us, ns) from the start of the profile; either may be\n"
"                    empty\n"
"  --split-mb N      export timeline: start a new _slice_<i> file after\n"
"                    N megabytes\n"
"  --weight W        stacks: ns of device time (device, the default) or\n"
"                    of host span self time (host)\n"
"  --stacks SRC      stacks: the CANN call path (cann), Python call\n"
"                    stacks (python), op type > name > shapes (ops),\n"
"                    nn.Module > PyTorch op (modules), MindSpore's\n"
"                    op ranges > CANN call path (mindspore), or the\n"
"                    first of python, mindspore, cann, ops there is\n"
"                    (auto)\n"
"  --step N          show, stacks: only step N (the kernels of it;\n"
"                    op_statistic, api_statistic computed from its\n"
"                    tasks and spans; its rows of step_trace)\n"
"  --folded          export: PATH's call stacks as folded stacks\n"
"  --compare         the two paths are runs BASE and NEW: the UI opens on\n"
"                    NEW with a Compare view; show prints them side by\n"
"                    side as msprof-analyze compare does,\n"
"                    kernel_compare (the default), api_compare (PyTorch\n"
"                    ops), communication_compare (HCCL ops and tasks),\n"
"                    overall (computing by kind, uncovered\n"
"                    communication by group, free and end-to-end time),\n"
"                    op_compare and memory_compare (the top PyTorch ops'\n"
"                    kernels' time and allocations),\n"
"                    op_statistic_compare, api_statistic_compare (any\n"
"                    input's statistic tables side by side);\n"
"                    export --folded writes both runs' stacks, each path\n"
"                    with the base's time and new's (for flamegraph.pl)\n"
"  --base-step N     --compare: step N of BASE (default: --step's)\n"
"  -q, --quiet       no progress and no warnings (errors still)\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"Collect options (see REMOTE COLLECTION in npuprof-tui(1)):\n"
"  -m, --main MAIN   the application to copy to the board and run\n"
"  --host [USER@]HOST[:PORT]  the board, with your own ssh config and keys\n"
"  --config BOARD.ini  the board and its password from the vendor's file\n"
"  --output DIR      where the JOB/PROF directories go (default: .)\n"
"  --all             import what was copied and print its op_statistic\n"
"  --switch, --acl-api, --aacpu on|off, --interval N, --aac-metrics NAME\n"
"                    the profiler keys of acl.json (--acl_api and\n"
"                    --aac_metrics too)\n"
"  --remote-dir DIR  the working directory on the board (kept)\n"
"  --ssh-config FILE, --ssh-option OPT  passed to ssh as -F and -o\n"
"  --accept-new-host-key  accept the key of a board not yet known\n"
"  --pull [USER@]HOST:DIR  only copy DIR back from the board\n"
"\n"
"Tables: %s; stacks (folded call stacks; with --format, one row per\n"
"frame); advice (what to fix, with the numbers that prove it; its\n"
"thresholds in config.yaml) and advice_rules (its rules).\n"
"\n"
"PATH: a raw PROF_* collection (host/, device_N/ with data/ slices) or\n"
"one of its host/ or device_N/ directories, a mindstudio_profiler_output/\n"
"or exported PROF_* directory, a PyTorch *_ascend_pt/ or\n"
"ASCEND_PROFILER_OUTPUT/ directory, a legacy summary/ directory, a\n"
"legacy timeline/ folder (<module>_<dev>_<model>_<iter>.json, times\n"
"made epoch with start_info.N), a legacy JOB* directory, one vendor\n"
"CSV file, a chrome-trace JSON file (trace_view.json, msprof_*.json)\n"
"or a folder of them, a vendor SQLite export\n"
"(msprof_*.db, ascend_pytorch_profiler_N.db), or a folder holding\n"
"several of these.\n"
"See npuprof-tui(1).\n";

static void
main_help(void)
{
	fputs(main_usage_text, stdout);
	printf(main_help_text, store_tables_names_help());
}

/* Remove the half-built store on Ctrl-C; the previous one is untouched. */
static void
main_interrupt(int sig)
{
	const char	*tmp = store_load_tmp();
	static const char msg[] = "\ninterrupted: the previous store, if any, "
	    "is unchanged\n";

	/*
	 * A build of indexes rolls itself back, then the command ends; a
	 * second Ctrl-C (the build waits for a lock) ends it at once, which
	 * the journal also rolls back.
	 */
	if (main_indexing && !main_interrupted) {
		main_interrupted = 1;
		return;
	}
	if (tmp != NULL)
		unlink(tmp);
	util_tty_restore();
	cli_set_kill();
	/* The parent of a set's imports speaks for them. */
	if (!main_child && write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
		_exit(130);
	_exit(128 + sig);
}

/* SQLite's progress handler for the build of the indexes. */
static int
main_index_check(void *arg)
{
	(void)arg;
	return main_interrupted;
}

/*
 * Build the indexes of the store DB now (store-index.c), Ctrl-C stopping
 * that build only; a store that cannot be written is read without them,
 * which is said unless QUIET.
 */
static void
main_index(const char *db, bool quiet)
{
	char	*why = NULL;

	main_indexing = 1;
	signal(SIGINT, main_interrupt);
	signal(SIGTERM, main_interrupt);
	signal(SIGHUP, main_interrupt);
	if (store_index_ensure(db, false, main_index_check, NULL, NULL, NULL,
	    &why) != 0) {
		if (!main_interrupted && !quiet)
			log_infox("reading '%s' without its indexes: %s", db,
			    why);
		free(why);
	}
	main_indexing = 0;
	if (main_interrupted) {
		if (!main_child)
			fputs("\ninterrupted: the store is whole; its indexes "
			    "are built when it is next opened\n", stderr);
		exit(130);
	}
}

static double
main_elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* How far the import is, 0 to 1, from the files done and the bytes read. */
static double
main_progress_fraction(struct main_progress *mp,
    const struct store_progress *p)
{
	struct stat	 st;
	double		 f = 0;

	if (p->file != NULL && (mp->file == NULL ||
	    strcmp(mp->file, p->file) != 0)) {
		free(mp->file);
		mp->file = xstrdup(p->file);
		mp->size = stat(p->file, &st) == 0 ? st.st_size : -1;
	}
	if (p->bytes_total > 0)
		f = (double)p->bytes_done / (double)p->bytes_total;
	else if (mp->size > 0)
		f = (double)p->bytes_done / (double)mp->size;
	if (f > 1)
		f = 1;
	if (p->files_total > 0)
		f = ((double)p->files_done + f) / (double)p->files_total;
	return f > 1 ? 1 : f;
}

/*
 * Show import progress on stderr, at most ten times a second but at once
 * when the phase changes: a bar, the phase, files, records, megabytes
 * read, the rate and the time left.
 */
static void
main_progress(void *arg, const struct store_progress *p)
{
	struct main_progress	*mp = arg;
	struct timespec		 now;
	double			 secs, rate, f;
	char			 bar[21], eta[32];
	bool			 changed;
	int			 i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	mp->records = p->records;
	/*
	 * After the reading (indexing, statistics, timeline) there is no
	 * fraction to give: say which phase runs instead of a stuck ETA.
	 */
	if (p->file == NULL && p->bytes_total == 0) {
		fprintf(stderr, "\r\033[K[%s] read %lld records in %.1fs; now "
		    "%s...", "####################", (long long)p->records,
		    main_elapsed(&mp->start, &now), p->phase);
		mp->last = now;
		mp->shown = true;
		return;
	}
	/* A new phase is shown at once. */
	changed = strncmp(mp->phase, p->phase, sizeof mp->phase - 1) != 0;
	if (changed)
		snprintf(mp->phase, sizeof mp->phase, "%s", p->phase);
	if (mp->shown && !changed && main_elapsed(&mp->last, &now) < 0.1)
		return;
	mp->last = now;
	mp->shown = true;
	secs = main_elapsed(&mp->start, &now);
	rate = secs > 0 ? (double)p->records / secs : 0;
	f = main_progress_fraction(mp, p);
	for (i = 0; i < 20; i++)
		bar[i] = i < (int)(f * 20) ? '#' : '.';
	bar[20] = '\0';
	if (f > 0.01 && secs > 0.5)
		snprintf(eta, sizeof eta, "ETA %.0fs", secs * (1 - f) / f);
	else
		snprintf(eta, sizeof eta, "ETA ?");
	fprintf(stderr, "\r\033[K[%s] %3.0f%% %-9s file %lld/%lld  %lld "
	    "records  %.1f MB  %.0f rec/s  %s", bar, f * 100, p->phase,
	    (long long)p->files_done + (p->files_done < p->files_total),
	    (long long)p->files_total, (long long)p->records,
	    (double)p->bytes_done / 1e6, rate, eta);
}

/*
 * Build the store for PATH at DB unless it is current. Return 0, or -1
 * with *cause set.
 */
static int
main_import_one(const char *path, const char *db, bool quiet, char **cause)
{
	struct main_progress	 mp;
	struct store_progress	 p;
	struct store		*s;
	int			 rc;

	/*
	 * Catch Ctrl-C before the temporary store exists: a job started in
	 * the background by a script begins with SIGINT ignored, and one
	 * that arrived in between would let the import run to completion.
	 */
	signal(SIGINT, main_interrupt);
	signal(SIGTERM, main_interrupt);
	signal(SIGHUP, main_interrupt);
	if ((s = store_load_begin(db, path, cause)) == NULL) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		return -1;
	}
	memset(&mp, 0, sizeof mp);
	clock_gettime(CLOCK_MONOTONIC, &mp.start);
	if (!quiet && isatty(STDERR_FILENO))
		store_load_set_progress(s, main_progress, &mp);
	if (importer_run(s, path, cause) != 0) {
		if (mp.shown)
			fputs("\r\033[K", stderr);
		free(mp.file);
		store_load_abort(s);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		return -1;
	}
	rc = store_load_commit(s, cause);
	if (rc == 0 && !main_index_later) {
		if (mp.shown) {
			memset(&p, 0, sizeof p);
			p.phase = "indexing";
			p.records = mp.records;
			main_progress(&mp, &p);
		}
		/*
		 * The store is whole without its indexes; one that cannot be
		 * indexed now is indexed by the next command that opens it.
		 */
		main_index(db, quiet);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (mp.shown)
		fputs("\r\033[K", stderr);
	free(mp.file);
	return rc;
}

/* A profile of a set into its store, in a child of cli_set_import(). */
static int
main_import_unit(void *arg, const char *path, const char *db, char **cause)
{
	(void)arg;
	main_child = 1;
	/* Even under the UI: no reader of this store builds them later. */
	main_index_later = false;
	return main_import_one(path, db, true, cause);
}

/*
 * What the store DB is: -1 none (or not readable), 0 one store, 1 a set of
 * stores; for a set, *WHY is set when one of its ranks' stores is gone or
 * no longer current. *BYTES gets the size of the inputs it was built from.
 */
static int
main_store_kind(const char *db, int64_t *bytes, char **why)
{
	struct store	*s;
	char		*cause = NULL;
	int		 kind;

	*bytes = 0;
	if (access(db, F_OK) != 0 || (s = store_open(db, &cause)) == NULL) {
		free(cause);
		return -1;
	}
	kind = store_set_is(s) ? 1 : 0;
	if (kind == 1 && store_set_current(s, why) != 1 && *why == NULL)
		*why = xstrdup("its ranks' stores cannot be read");
	*bytes = store_manifest_sum(s);
	store_free(s);
	return kind;
}

/* Free what importer_units() returned. */
static void
main_units_free(char **units, size_t n, char **unread, int *unerr,
    size_t nunread)
{
	util_strv_free(units, n);
	util_strv_free(unread, nunread);
	free(unerr);
}

/*
 * Build the store for PATH at DB unless it is current (FORCE: even if
 * it is). A folder of several profiles becomes a set of stores, one per
 * profile, with --stores rank or when its files are large. Return 0, or
 * -1 with *cause set.
 */
static int
main_import(const char *path, const char *db, bool force,
    const struct main_opts *o, char **cause)
{
	struct cli_set	 cs;
	char		**units, **unread, *why = NULL;
	size_t		 n, nunread;
	int		*unerr;
	int64_t		 bytes;
	int		 rc, kind;
	bool		 set, current;

	kind = main_store_kind(db, &bytes, &why);
	current = !force && why == NULL && store_manifest_current(db, path,
	    &why) == 1;
	/*
	 * A current store built as asked needs no walk of the profiles: a
	 * set is kept unless one store is asked for; one store, unless a
	 * set is (or its inputs, the same as at its build, are large).
	 */
	if (current && (kind == 1 ? o->stores != STORES_ONE :
	    o->stores == STORES_ONE || (o->stores == STORES_AUTO &&
	    bytes < MAIN_SET_BYTES)))
		return 0;
	units = importer_units(path, &n, &unread, &unerr, &nunread);
	/* Auto keeps a set a set, however small its folder. */
	set = n > 1 && (o->stores == STORES_RANK || (o->stores ==
	    STORES_AUTO && (kind == 1 || (current ? bytes :
	    store_manifest_bytes(path)) >= MAIN_SET_BYTES)));
	if (current && kind == (set ? 1 : 0)) {
		main_units_free(units, n, unread, unerr, nunread);
		return 0;
	}
	if (!force && kind >= 0 && !o->quiet)
		log_infox("re-importing '%s': %s", path, why != NULL ? why :
		    set ? "a store per rank was asked for" : "one store was "
		    "asked for");
	free(why);
	if (!set) {
		main_units_free(units, n, unread, unerr, nunread);
		return main_import_one(path, db, o->quiet, cause);
	}
	memset(&cs, 0, sizeof cs);
	cs.root = path;
	cs.db = db;
	cs.units = units;
	cs.n = n;
	cs.unread = unread;
	cs.unerr = unerr;
	cs.nunread = nunread;
	cs.jobs = o->jobs;
	cs.force = force;
	cs.quiet = o->quiet;
	cs.import = main_import_unit;
	signal(SIGINT, main_interrupt);
	signal(SIGTERM, main_interrupt);
	signal(SIGHUP, main_interrupt);
	rc = cli_set_import(&cs, cause);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	main_units_free(units, n, unread, unerr, nunread);
	return rc;
}

/*
 * Whether PATH (ST its stat) can be read: a directory listed, a file
 * opened. -1 with errno set if not, so that a permission problem is
 * reported as one, not as a folder without profiling data.
 */
static int
main_check_readable(const char *path, const struct stat *st)
{
	DIR	*d;
	int	 fd;

	if (S_ISDIR(st->st_mode)) {
		if ((d = opendir(path)) == NULL)
			return -1;
		closedir(d);
		return 0;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK)) == -1)
		return -1;
	close(fd);
	return 0;
}

/* Open the store for PATH, importing first if needed; exits on error. */
static struct store *
main_store(const char *path, const struct main_opts *o)
{
	struct store	*s;
	struct stat	 st;
	char		*db, *cause = NULL;

	if (stat(path, &st) != 0 || main_check_readable(path, &st) != 0) {
		log_errx("cannot open '%s': %s", path, strerror(errno));
		exit(EXIT_DATA);
	}
	db = o->db != NULL ? xstrdup(o->db) : store_default_path(path);
	/* A build of its indexes killed: rolled back before it is read. */
	store_index_recover(db);
	if (main_import(path, db, o->reimport, o, &cause) != 0) {
		log_errx("%s", cause);
		exit(EXIT_DATA);
	}
	/* A store the UI left without its indexes gets them now. */
	if (!main_index_later) {
		main_index(db, o->quiet);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	if ((s = store_open(db, &cause)) == NULL) {
		log_errx("%s", cause);
		exit(EXIT_DATA);
	}
	free(db);
	return s;
}

static int64_t
main_parse_device(const char *arg)
{
	int64_t	 v;

	if (strcmp(arg, "host") == 0)
		return NP_HOST_DEVICE;
	if (util_parse_int(arg, strlen(arg), &v) != 0 || v < 0) {
		log_usagex("", "bad device id '%s'", arg);
	}
	return v;
}

static int64_t
main_parse_count(const char *what, const char *arg)
{
	int64_t	 v;

	if (util_parse_int(arg, strlen(arg), &v) != 0 || v < 0) {
		log_usagex("", "bad %s '%s'", what, arg);
	}
	return v;
}

enum {
	OPT_DB = 256,
	OPT_REIMPORT,
	OPT_FORMAT,
	OPT_SORT,
	OPT_FILTER,
	OPT_LIMIT,
	OPT_DEVICE,
	OPT_RANK,
	OPT_STATS,
	OPT_OUTPUT,
	OPT_FORCE,
	OPT_RANGE,
	OPT_SPLIT_MB,
	OPT_WEIGHT,
	OPT_STACKS,
	OPT_STEP,
	OPT_FOLDED,
	OPT_THEME,
	OPT_NO_MOUSE,
	OPT_REPLAY,
	OPT_STORES,
	OPT_COMPARE,
	OPT_BASE_STEP,
	OPT_TIMELINE,
	OPT_INDEXES
};

#define MAIN_OPT(o)	(1ULL << ((o) - OPT_DB))

/* The long options of show, and of the UI, which prints as show does. */
#define MAIN_OPTS_SHOW (MAIN_OPT(OPT_DB) | MAIN_OPT(OPT_REIMPORT) |	\
	MAIN_OPT(OPT_FORMAT) | MAIN_OPT(OPT_SORT) | MAIN_OPT(OPT_FILTER) |	\
	MAIN_OPT(OPT_LIMIT) | MAIN_OPT(OPT_DEVICE) | MAIN_OPT(OPT_RANK) |	\
	MAIN_OPT(OPT_STATS) | MAIN_OPT(OPT_RANGE) | MAIN_OPT(OPT_WEIGHT) |	\
	MAIN_OPT(OPT_STACKS) | MAIN_OPT(OPT_STEP) | MAIN_OPT(OPT_STORES) |	\
	MAIN_OPT(OPT_COMPARE) | MAIN_OPT(OPT_BASE_STEP))

/* Which long options each command takes. */
static const struct {
	const char	*cmd;		/* NULL: the UI */
	uint64_t	 opts;
} main_cmd_opts[] = {
	{ NULL, MAIN_OPTS_SHOW | MAIN_OPT(OPT_THEME) |
	    MAIN_OPT(OPT_NO_MOUSE) | MAIN_OPT(OPT_REPLAY) },
	{ "show", MAIN_OPTS_SHOW },
	{ "import", MAIN_OPT(OPT_DB) | MAIN_OPT(OPT_REIMPORT) |
	    MAIN_OPT(OPT_STORES) | MAIN_OPT(OPT_TIMELINE) |
	    MAIN_OPT(OPT_INDEXES) },
	{ "export", MAIN_OPT(OPT_DB) | MAIN_OPT(OPT_REIMPORT) |
	    MAIN_OPT(OPT_FORMAT) | MAIN_OPT(OPT_OUTPUT) | MAIN_OPT(OPT_FORCE) |
	    MAIN_OPT(OPT_DEVICE) | MAIN_OPT(OPT_RANK) | MAIN_OPT(OPT_RANGE) |
	    MAIN_OPT(OPT_SPLIT_MB) | MAIN_OPT(OPT_WEIGHT) |
	    MAIN_OPT(OPT_STACKS) | MAIN_OPT(OPT_STEP) | MAIN_OPT(OPT_FOLDED) |
	    MAIN_OPT(OPT_FILTER) | MAIN_OPT(OPT_COMPARE) |
	    MAIN_OPT(OPT_BASE_STEP) | MAIN_OPT(OPT_STORES) },
	{ "demo", 0 }
};

static const struct option main_long_opts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "reimport", no_argument, NULL, OPT_REIMPORT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "stats", required_argument, NULL, OPT_STATS },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "split-mb", required_argument, NULL, OPT_SPLIT_MB },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "stacks", required_argument, NULL, OPT_STACKS },
	{ "step", required_argument, NULL, OPT_STEP },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "stores", required_argument, NULL, OPT_STORES },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "base-step", required_argument, NULL, OPT_BASE_STEP },
	{ "timeline", no_argument, NULL, OPT_TIMELINE },
	{ "indexes", no_argument, NULL, OPT_INDEXES },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The cores this process may use: -j's default. */
static int
main_cores(void)
{
	long	 n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

/* Parse the options of every command; return the index of the first arg. */
static int
main_options(int argc, char **argv, struct main_opts *o)
{
	int	 ch;

	memset(o, 0, sizeof *o);
	o->device = NP_NA;
	o->rank = NP_NA;
	o->format = "table";
	o->step = NP_NA;
	o->base_step = NP_NA;
	o->limit = -1;
	optind = 1;
	opterr = 0;
	o->jobs = main_cores();
	while ((ch = getopt_long(argc, argv, ":qhVj:", main_long_opts,
	    NULL)) != -1) {
		if (ch >= OPT_DB && ch <= OPT_INDEXES)
			o->given |= MAIN_OPT(ch);
		switch (ch) {
		case OPT_DB:
			o->db = optarg;
			break;
		case OPT_REIMPORT:
			o->reimport = true;
			break;
		case OPT_FORMAT:
			if (store_print_format(optarg) < 0) {
				log_usagex("", "unknown format '%s' "
				    "(table, csv, tsv or json)", optarg);
			}
			o->format = optarg;
			o->format_set = true;
			break;
		case OPT_SORT:
			o->sort = optarg;
			break;
		case OPT_FILTER:
			o->filter = optarg;
			break;
		case OPT_LIMIT:
			o->limit = main_parse_count("limit", optarg);
			break;
		case OPT_DEVICE:
			o->device = main_parse_device(optarg);
			break;
		case OPT_RANK:
			o->rank = main_parse_count("rank", optarg);
			break;
		case OPT_STATS:
			if (strcmp(optarg, "auto") != 0 && strcmp(optarg,
			    "file") != 0 && strcmp(optarg, "computed") != 0) {
				log_usagex("", "bad --stats '%s' "
				    "(auto, file or computed)", optarg);
			}
			o->stats = optarg;
			break;
		case OPT_OUTPUT:
			if (*optarg == '\0')
				log_usagex("", "--output: an empty name");
			o->output = optarg;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_RANGE:
			o->range = optarg;
			break;
		case OPT_SPLIT_MB:
			o->split_mb = main_parse_count("split size", optarg);
			if (o->split_mb == 0)
				log_usagex("", "bad split size '0'");
			/* In bytes it must fit an int64_t. */
			if (o->split_mb > INT64_MAX / (1024 * 1024))
				log_usagex("", "split size '%s' is too big",
				    optarg);
			break;
		case OPT_WEIGHT:
			if (strcmp(optarg, "device") != 0 &&
			    strcmp(optarg, "host") != 0) {
				log_usagex("", "bad --weight '%s' "
				    "(device or host)", optarg);
			}
			o->weight = optarg;
			break;
		case OPT_STACKS:
			if (store_stacks_source_parse(optarg) < 0) {
				log_usagex("", "bad --stacks '%s' (auto, cann, "
				    "python, ops, modules or mindspore)",
				    optarg);
			}
			o->stacks = optarg;
			break;
		case OPT_STEP:
			o->step = main_parse_count("step", optarg);
			break;
		case OPT_BASE_STEP:
			o->base_step = main_parse_count("step", optarg);
			break;
		case OPT_COMPARE:
			o->compare = true;
			break;
		case OPT_FOLDED:
			o->folded = true;
			break;
		case OPT_THEME:
			o->theme = optarg;
			break;
		case OPT_NO_MOUSE:
			o->no_mouse = true;
			break;
		case OPT_TIMELINE:
			o->timeline = true;
			break;
		case OPT_INDEXES:
			o->indexes = true;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			break;
		case OPT_STORES:
			if (strcmp(optarg, "auto") == 0)
				o->stores = STORES_AUTO;
			else if (strcmp(optarg, "one") == 0)
				o->stores = STORES_ONE;
			else if (strcmp(optarg, "rank") == 0)
				o->stores = STORES_RANK;
			else {
				log_usagex("", "bad --stores '%s' (auto, one "
				    "or rank)", optarg);
			}
			break;
		case 'j':
			if (main_parse_count("number of jobs", optarg) < 1 ||
			    main_parse_count("number of jobs", optarg) > 1024)
				log_usagex("", "bad number of jobs '%s' (1 to "
				    "1024)", optarg);
			o->jobs = (int)main_parse_count("jobs", optarg);
			break;
		case 'q':
			o->quiet = true;
			log_set_quiet(true);
			break;
		case 'h':
			main_help();
			exit(0);
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			exit(0);
		default:
			log_usagex("", "%s", util_option_error(argv,
			    main_long_opts, ch));
		}
	}
	return optind;
}

static int
main_term_width(void)
{
	struct winsize	 ws;
	const char	*c;
	int64_t		 v;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (isatty(STDOUT_FILENO) && (c = getenv("COLUMNS")) != NULL &&
	    util_parse_int(c, strlen(c), &v) == 0 && v > 0)
		return (int)v;
	return 0;
}

static bool
main_color(void)
{
	const char	*nc = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && (nc == NULL || *nc == '\0') &&
	    term != NULL && strcmp(term, "dumb") != 0;
}

/*
 * The export options of O: the stacks ones for show's stacks table and
 * export --folded, the files' ones for export summary and timeline.
 */
static void
main_export_opts(const struct main_opts *o, struct export_opts *eo)
{
	export_opts_init(eo);
	if (o->output != NULL)
		eo->output = o->output;
	eo->device = o->device;
	eo->rank = o->rank;
	eo->force = o->force;
	eo->range = o->range;
	eo->split_bytes = o->split_mb * 1024 * 1024;
	eo->quiet = o->quiet;
	eo->folded = o->folded;
	eo->stacks = o->stacks;
	eo->weight = o->weight;
	eo->filter = o->filter;
	eo->step = o->step;
}

/* The call stacks for show's stacks table; NULL after printing why. */
static struct store_stacks *
main_stacks(struct store *s, const struct main_opts *o)
{
	struct export_opts	 eo;
	struct store_stacks	*st;
	struct main_opts	 w = *o;
	char			*cause = NULL;

	w.folded = true;
	main_export_opts(&w, &eo);
	if ((st = export_folded_stacks(s, &eo, &cause)) == NULL) {
		log_errx("%s", cause);
		free(cause);
	}
	return st;
}

/*
 * Print ST as folded lines, the first LIMIT of them (-1: all), in the
 * order of its tree.
 */
static void
main_stacks_fold(const struct store_stacks *st, int64_t limit)
{
	char	*buf = NULL, *p;
	size_t	 len = 0;
	int64_t	 n = 0;
	FILE	*f;

	if (limit < 0) {
		store_stacks_fold(stdout, st);
		return;
	}
	if ((f = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	store_stacks_fold(f, st);
	if (fclose(f) != 0)
		fatal("open_memstream");
	for (p = buf; n < limit && p < buf + len; n++)
		p = strchr(p, '\n') + 1;
	fwrite(buf, 1, (size_t)(p - buf), stdout);
	free(buf);
}

/*
 * The window of --range in S into *W: its ends, relative ones from the
 * first task or span of O's device and rank in S, an open end at the
 * first or last. Return 1, or -1 with *cause set.
 */
static int
main_range_window(struct store *s, const struct main_opts *o,
    struct store_window *w, char **cause)
{
	if (export_file_window(s, o->range, o->device, o->rank, true,
	    &w->from_ns, &w->to_ns, cause) != 0)
		return -1;
	w->iter = w->step = NP_NA;
	w->device = o->device;
	w->rank = o->rank;
	w->ranks = 1;	/* one window on every rank's clock */
	return 1;
}

/*
 * Whether table NAME is shown from the set of stores S itself (the
 * statistics and cluster tables it keeps), not from the ranks' stores: a
 * step or a window of a rank's table needs the rank's tasks.
 */
static bool
main_in_set(struct store *s, const char *name, const struct main_opts *o)
{
	if (!store_set_holds(s, name))
		return false;
	return !store_set_is(s) || (o->step == NP_NA && o->range == NULL) ||
	    strncmp(name, "cluster_", 8) == 0;
}

/*
 * The rows of table *T for Q, of step --step only when given: the table
 * then becomes the one computed for the step (store_window_table).
 */
static struct store_rows *
main_show_table(struct store *s, const struct store_table **t,
    const struct store_query *q, const struct main_opts *o, char **cause)
{
	struct store_window	 w;
	struct store_query	 sq = *q;
	int			 found;

	if (o->step == NP_NA && o->range == NULL)
		return store_query_table(s, *t, q, cause);
	if (o->step != NP_NA && o->range != NULL) {
		xasprintf(cause, "%s: --step and --range together are for "
		    "stacks; a table takes one", store_tables_name(*t));
		return NULL;
	}
	if (o->range != NULL)
		found = main_range_window(s, o, &w, cause);
	else {
		found = store_window_step(s, o->step, o->device, o->rank, &w,
		    cause);
		/*
		 * A set of stores keeps its tasks in the ranks' stores: its
		 * own tables kept by step id (the cluster's) take the step
		 * by id, if the cluster has it.
		 */
		if (found == 0 && store_set_is(s))
			found = store_window_set_step(s, *t, o->step,
			    o->device, o->rank, &w);
		if (found == 0)
			xasprintf(cause, "no step %lld in this profile",
			    (long long)o->step);
	}
	if (found <= 0 || (*t = store_window_table(s, *t, &w, cause)) == NULL)
		return NULL;
	store_window_query(*t, &w, &sq);
	return store_query_table(s, *t, &sq, cause);
}

/* How show prints for O: its format, the terminal's width and colour. */
static void
main_print_opts(const struct main_opts *o, struct store_print_opts *po)
{
	memset(po, 0, sizeof *po);
	po->format = (enum store_print_format)store_print_format(o->format);
	po->width = main_term_width();
	po->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	po->color = main_color();
}

/*
 * The store with the task rows of S for O's rank: S itself, or in a set
 * of stores the rank's own, opened into *RS once. Without --rank a set
 * has no such store: say so and exit. WHAT names what needs it.
 */
static struct store *
main_rank_store(struct store *s, struct store **rs, const char *what,
    const struct main_opts *o)
{
	char	*cause = NULL;

	if (!store_set_is(s))
		return s;
	if (o->rank == NP_NA) {
		log_errx("%s: this cluster keeps each rank's tasks in a store "
		    "of its own; give --rank N", what);
		exit(EXIT_USAGE);
	}
	if (*rs == NULL && (*rs = store_set_open(s, o->rank, &cause)) ==
	    NULL) {
		log_errx("%s", cause);
		exit(EXIT_DATA);
	}
	return *rs;
}

/*
 * Add to the table list R (of a set's own store) the tables of the rank's
 * store U that R has not: those of the rank's tasks.
 */
static void
main_show_rank_tables(struct store_rows *r, struct store *u,
    const struct store_query *q)
{
	struct store_rows	*ur;
	char			*cells[3], *cause = NULL;
	size_t			 i, j, k;

	if ((ur = store_tables_summary(u, q, &cause)) == NULL) {
		free(cause);
		return;
	}
	for (i = 0; i < ur->nrows; i++) {
		for (j = 0; j < r->nrows; j++) {
			if (strcmp(store_rows_cell(r, j, 0),
			    store_rows_cell(ur, i, 0)) == 0)
				break;
		}
		if (j < r->nrows)
			continue;
		for (k = 0; k < 3; k++)
			cells[k] = xstrdup(store_rows_cell(ur, i, k));
		store_rows_add(r, cells, ur->vals + i * ur->ncols);
	}
	store_rows_free(ur);
}

/*
 * Whether table NAME is known: in S, or in a set of stores in the store
 * of O's rank, or (no rank given) in the first rank's store.
 */
static bool
main_show_known(struct store *s, struct store **rs, const char *name,
    const struct main_opts *o)
{
	struct store	*u;
	char		**paths, *cause = NULL;
	int64_t		*first;
	size_t		 n;
	bool		 known;

	if (!store_set_is(s))
		return store_tables_find_rank(s, name, o->rank) != NULL;
	if (store_set_holds(s, name))
		return true;
	if (o->rank != NP_NA)
		return store_tables_find_rank(main_rank_store(s, rs, name, o),
		    name, o->rank) != NULL;
	if (store_set_list(s, &paths, &first, &n, &cause) != 0 || n == 0) {
		free(cause);
		return false;
	}
	if ((u = store_set_open_path(s, paths[0], true, &cause)) == NULL) {
		log_errx("%s", cause);
		exit(EXIT_DATA);
	}
	known = store_tables_find_rank(u, name, NP_NA) != NULL;
	store_free(u);
	store_set_list_free(paths, first, n);
	return known;
}

/*
 * Whether NAME is one of the tables a profile may have (the list of
 * store_tables_names_help()), as a whole word.
 */
static bool
main_table_named(const char *name)
{
	const char	*all = store_tables_names_help(), *p = all;
	size_t		 len = strlen(name);

	while (len > 0 && (p = strstr(p, name)) != NULL) {
		if ((p == all || strchr(" (", p[-1]) != NULL) &&
		    strchr(",); ", p[len]) != NULL && p[len] != '\0')
			return true;
		p += len;
	}
	return false;
}

/* The advice's thresholds from config.yaml, once; a mistake is a warning. */
static void
main_advice_config(void)
{
	static bool	 done;
	char		*why = NULL;

	if (done)
		return;
	done = true;
	if (ui_config_advice(&why) != 0) {
		log_warnx("%s; the thresholds from there on are the defaults", why);
		free(why);
	}
}

/*
 * The advice of S (--rank's rows only), sorted and cut as O asks; the
 * rules that did not apply in *SKIPPED. NULL with *cause set on failure.
 */
static struct store_rows *
main_show_advice(struct store *s, const struct main_opts *o,
    const struct store_print_opts *po, char **skipped, char **cause)
{
	struct store_rows	*r;

	(void)po;
	main_advice_config();
	if ((r = store_advice(s, o->rank, skipped, cause)) == NULL)
		return NULL;
	if (o->sort != NULL && store_rows_sort(r, o->sort, cause) != 0) {
		store_rows_free(r);
		return NULL;
	}
	while (o->limit >= 0 && r->nrows > (size_t)o->limit)
		store_rows_drop_last(r);
	return r;
}

/*
 * Table NAME of every rank of the set S, one rank's store after the other
 * (so rows come by rank) or, with a sort, merged in its order, at most
 * Q's limit in all. *TITLE and *TNAME are set to the table's title and
 * name. NULL with *cause set on failure.
 */
static struct store_rows *
main_show_ranks(struct store *s, const char *name,
    const struct store_query *q, const struct main_opts *o, char **title,
    char **tname, char **cause)
{
	const struct store_table	*t;
	struct store_query		 sq;
	struct store_rows		*all = NULL, *r;
	struct store			*u;
	char				**paths;
	int64_t				*first;
	size_t				 n, i, lost = 0;

	if (store_set_list(s, &paths, &first, &n, cause) != 0)
		return NULL;
	for (i = 0; i < n; i++) {
		sq = *q;
		/* Sorted, each rank's first LIMIT rows may all be wanted. */
		if (q->sort == NULL && q->limit >= 0 && all != NULL &&
		    (sq.limit = q->limit - (int64_t)all->nrows) <= 0)
			break;
		if ((u = store_set_open_path(s, paths[i], true, cause)) ==
		    NULL)
			goto fail;
		if ((t = store_tables_find_rank(u, name, NP_NA)) == NULL) {
			store_free(u);
			continue;
		}
		r = main_show_table(u, &t, &sq, o, cause);
		if (r != NULL && *title == NULL) {
			*title = xstrdup(store_tables_title(t));
			*tname = xstrdup(store_tables_name(t));
		}
		store_free(u);
		if (r == NULL)
			goto fail;
		if (all == NULL)
			all = r;
		else
			lost += store_rows_append(all, r);
	}
	store_set_list_free(paths, first, n);
	if (lost > 0)
		log_warnx("%s: some ranks have columns the first has not; "
		    "--rank N shows them", name);
	if (all == NULL)
		xasprintf(cause, "no rank has a table '%s'", name);
	if (all != NULL && q->sort != NULL) {
		if (store_rows_sort(all, q->sort, cause) != 0) {
			store_rows_free(all);
			return NULL;
		}
		while (q->limit >= 0 && all->nrows > (size_t)q->limit)
			store_rows_drop_last(all);
	}
	return all;
fail:
	store_rows_free(all);
	store_set_list_free(paths, first, n);
	return NULL;
}

static int
main_show_tables(struct store *s, char **names, int n,
    const struct main_opts *o)
{
	const struct store_table	 *t;
	struct store_stacks		 *st;
	struct store_print_opts		  po;
	struct store_query		  q;
	struct store_rows		 *r;
	struct store			 *rs = NULL, *src;
	struct json			 *key = NULL;
	char				 *cause = NULL, *title = NULL;
	char				 *tname = NULL, *skipped = NULL;
	int				  i, rc = 0;

	main_print_opts(o, &po);
	store_query_init(&q);
	q.sort = o->sort;
	q.filter = o->filter;
	q.limit = o->limit;
	q.device = o->device;
	q.rank = o->rank;
	q.origin = o->stats == NULL || strcmp(o->stats, "auto") == 0 ? -1 :
	    strcmp(o->stats, "file") == 0 ? STORE_FROM_FILE :
	    STORE_FROM_TASKS;
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "tables") != 0 &&
		    strcmp(names[i], "stacks") != 0 &&
		    strcmp(names[i], "advice") != 0 &&
		    strcmp(names[i], "advice_rules") != 0 &&
		    !main_show_known(s, &rs, names[i], o)) {
			if (main_table_named(names[i])) {
				log_errx("no table '%s' in this profile ('show"
				    " PATH tables' lists those it has)",
				    names[i]);
				exit(EXIT_USAGE);
			}
			log_usagex("", "unknown table '%s' (tables: %s; "
			    "stacks, advice, advice_rules)", names[i],
			    store_tables_names_help());
		}
	}
	if (po.format == PRINT_JSON && n > 1) {
		fputs("{\n", stdout);
		po.indent = "  ";
		key = json_open(stdout);
	}
	for (i = 0; i < n; i++) {
		t = NULL;
		free(title);
		free(tname);
		title = tname = NULL;
		if (strcmp(names[i], "stacks") == 0) {
			if (!o->format_set && o->sort != NULL) {
				log_errx("stacks: --sort is for its rows "
				    "(--format); folded lines keep the order "
				    "of the tree");
				rc = EXIT_USAGE;
				break;
			}
			st = main_stacks(main_rank_store(s, &rs, "stacks", o),
			    o);
			if (st == NULL) {
				rc = EXIT_DATA;
				break;
			}
			if (!o->format_set) {
				if (n > 1)
					printf("%s# stacks\n", i > 0 ? "\n" :
					    "");
				main_stacks_fold(st, o->limit);
				store_stacks_free(st);
				continue;
			}
			r = store_stacks_rows(st);
			store_stacks_free(st);
			if (o->sort != NULL && store_rows_sort(r, o->sort,
			    &cause) != 0) {
				store_rows_free(r);
				r = NULL;
			}
			while (r != NULL && o->limit >= 0 && r->nrows >
			    (size_t)o->limit)
				store_rows_drop_last(r);
		} else if (strcmp(names[i], "advice") == 0) {
			r = main_show_advice(o->rank != NP_NA &&
			    store_set_is(s) ? main_rank_store(s, &rs, "advice",
			    o) : s, o, &po, &skipped, &cause);
			title = xstrdup("Advice");
		} else if (strcmp(names[i], "advice_rules") == 0) {
			main_advice_config();
			r = store_advice_rules_table();
			title = xstrdup("Advice rules");
		} else if (strcmp(names[i], "tables") == 0) {
			r = store_tables_summary(s, &q, &cause);
			/* A rank's tables in a set: its tasks' ones too. */
			if (r != NULL && store_set_is(s) && o->rank != NP_NA)
				main_show_rank_tables(r, main_rank_store(s,
				    &rs, "tables", o), &q);
		}
		else if (main_in_set(s, names[i], o) || o->rank != NP_NA) {
			src = main_in_set(s, names[i], o) ? s :
			    main_rank_store(s, &rs, names[i], o);
			t = store_tables_find_rank(src, names[i], o->rank);
			r = main_show_table(src, &t, &q, o, &cause);
		} else
			r = main_show_ranks(s, names[i], &q, o, &title, &tname,
			    &cause);
		if (r == NULL) {
			log_errx("%s", cause);
			free(cause);
			rc = EXIT_USAGE;
			break;
		}
		if (t != NULL)
			title = xstrdup(store_tables_title(t));
		if (po.format == PRINT_TABLE) {
			if (i > 0)
				fputc('\n', stdout);
			printf("%s%s%s\n", po.color ? "\033[1m" : "",
			    title != NULL ? title :
			    strcmp(names[i], "stacks") == 0 ? "Stacks" :
			    "Tables",
			    po.color ? "\033[0m" : "");
		} else if (po.format == PRINT_JSON && n > 1) {
			printf("%s  ", i > 0 ? ",\n" : "");
			fflush(stdout);
			json_next(key);
			json_str(key, t != NULL ? store_tables_name(t) :
			    tname != NULL ? tname : names[i]);
			fputs(": ", stdout);
		}
		else if (n > 1)
			printf("%s# %s\n", i > 0 ? "\n" : "",
			    t != NULL ? store_tables_name(t) : tname != NULL ?
			    tname : names[i]);
		store_print_rows(stdout, r, &po);
		if (po.format == PRINT_TABLE && r->nrows == 0)
			puts("(no rows)");
		if (skipped != NULL && po.format == PRINT_TABLE)
			printf("(rules not applied: %s)\n", skipped);
		else if (skipped != NULL && !o->quiet)
			log_infox("advice: rules not applied: %s", skipped);
		free(skipped);
		skipped = NULL;
		store_rows_free(r);
	}
	if (rc == 0 && po.format == PRINT_JSON && n > 1)
		fputs("\n}\n", stdout);
	free(title);
	free(tname);
	json_free(key);
	store_free(rs);
	if (rc != 0)
		return rc;
	return fflush(stdout) == 0 ? 0 : EXIT_DATA;
}

/*
 * Whether the --device of O, if any, is one of S's devices with tasks or
 * statistics; if not, say so with the devices there are. A profile that
 * names none (only memory tables, say) takes any. WHAT and PATH as for
 * main_has_rank().
 */
static bool
main_has_device(struct store *s, const struct main_opts *o,
    const char *what, const char *path)
{
	struct strbuf	 b;
	int64_t		*ids;
	size_t		 n, i;
	char		*cause = NULL;
	bool		 found = false;

	if (o->device == NP_NA)
		return true;
	if (store_query_devices(s, &ids, &n, &cause) != 0) {
		free(cause);
		return true;
	}
	strbuf_init(&b);
	for (i = 0; i < n; i++) {
		found = found || ids[i] == o->device;
		if (ids[i] == NP_HOST_DEVICE)
			strbuf_addf(&b, "%shost", i > 0 ? ", " : "");
		else
			strbuf_addf(&b, "%s%lld", i > 0 ? ", " : "",
			    (long long)ids[i]);
	}
	/* Devices of counters, flows or vendor tables only are there too. */
	if (!found && n > 0)
		found = store_query_has_device(s, o->device);
	if (!found && n > 0 && what != NULL)
		log_errx("--compare: the %s run '%s' has no device %lld "
		    "(devices %s)", what, path, (long long)o->device, b.s);
	else if (!found && n > 0)
		log_errx("no device %lld in this profile (devices %s)",
		    (long long)o->device, b.s);
	strbuf_release(&b);
	free(ids);
	return found || n == 0;
}

/*
 * Whether the --rank of O, if any, is one of S's ranks; if not, say so
 * with the ranks there are, as for a step the profile lacks (an empty
 * table would look like a rank without rows). WHAT, if not NULL, names
 * the run of --compare at PATH.
 */
static bool
main_has_rank(struct store *s, const struct main_opts *o, const char *what,
    const char *path)
{
	struct strbuf	 b;
	int64_t		*ids;
	size_t		 n, i;
	char		*cause = NULL;
	bool		 found = false, none;

	if (o->rank == NP_NA)
		return true;
	if (store_query_ranks(s, &ids, &n, &cause) != 0) {
		free(cause);
		return true;
	}
	strbuf_init(&b);
	for (i = 0; i < n; i++) {
		found = found || ids[i] == o->rank;
		if (i < 10)
			strbuf_addf(&b, "%s%lld", i > 0 ? ", " : " (ranks ",
			    (long long)ids[i]);
	}
	if (n > 0)
		strbuf_adds(&b, n > 10 ? ", ...)" : ")");
	/* Ranks only the vendor's tables name are there too. */
	if (!found)
		found = store_query_has_rank(s, o->rank);
	none = !found && n == 0 && !store_query_has_rank(s, NP_NA);
	if (none && what != NULL)
		log_errx("--compare: the %s run '%s' has no rank ids: --rank "
		    "selects nothing in it", what, path);
	else if (none)
		log_errx("no rank ids in this profile: --rank selects nothing "
		    "(leave it out)");
	else if (!found && what != NULL)
		log_errx("--compare: the %s run '%s' has no rank %lld%s", what,
		    path, (long long)o->rank, b.s != NULL ? b.s : "");
	else if (!found)
		log_errx("no rank %lld in this profile%s", (long long)o->rank,
		    b.s != NULL ? b.s : "");
	strbuf_release(&b);
	free(ids);
	return found;
}

/* Both: --rank and --device are of S (main_has_rank, main_has_device). */
static bool
main_has_ids(struct store *s, const struct main_opts *o, const char *what,
    const char *path)
{
	return main_has_rank(s, o, what, path) &&
	    main_has_device(s, o, what, path);
}

/*
 * The store of PATH for a comparison: of one rank (--rank, which a store
 * of several ranks needs), opened into *RS for a set of stores. WHAT
 * names the run in messages. Exits on error.
 */
static struct store *
main_compare_store(const char *path, struct store **rs, const char *what,
    const struct main_opts *o)
{
	struct store	*s;
	int64_t		*ids;
	size_t		 n = 0;
	char		*cause = NULL;

	s = main_store(path, o);
	if (!main_has_ids(s, o, what, path)) {
		store_free(s);
		exit(EXIT_USAGE);
	}
	/* The set's store is closed apart from its rank's, *RS. */
	if (store_set_is(s)) {
		main_rank_store(s, rs, "--compare", o);
		return s;
	}
	if (o->rank == NP_NA && store_query_ranks(s, &ids, &n, &cause) == 0) {
		free(ids);
		if (n > 1) {
			log_errx("--compare: the %s run '%s' holds %zu ranks; "
			    "give --rank N", what, path, n);
			exit(EXIT_USAGE);
		}
	}
	free(cause);
	return s;
}

/* Two runs opened for a comparison, each of one rank. */
struct main_runs {
	struct store		*b, *c;		/* as opened */
	struct store		*brs, *crs;	/* their rank's, in a set */
	struct store		*base, *new;	/* the ones compared */
	struct store_compare	 co;
};

/* Open runs BASE and NEW (ARGV) as O says into *R; exits on error. */
static void
main_runs_open(char **argv, const struct main_opts *o, struct main_runs *r)
{
	memset(r, 0, sizeof *r);
	r->b = main_compare_store(argv[0], &r->brs, "base", o);
	r->c = main_compare_store(argv[1], &r->crs, "comparison", o);
	r->base = r->brs != NULL ? r->brs : r->b;
	r->new = r->crs != NULL ? r->crs : r->c;
	r->co.base_rank = r->co.rank = o->rank;
	r->co.step = o->step;
	r->co.base_step = o->base_step != NP_NA ? o->base_step : o->step;
}

static void
main_runs_close(struct main_runs *r)
{
	store_free(r->brs);
	store_free(r->crs);
	store_free(r->b);
	store_free(r->c);
}

/* The comparison tables: name, title, what makes them, what they hold. */
static const struct {
	const char	 *name;
	const char	 *title;
	struct store_rows *(*make)(struct store *, struct store *,
			     const struct store_compare *, char **);
	const char	 *what;
} main_compare_tables[] = {
	{ "kernel_compare", "Kernel Compare", store_compare_kernels,
	  "kernels" },
	{ "api_compare", "API Compare", store_compare_apis, "PyTorch ops" },
	{ "communication_compare", "Communication Compare",
	  store_compare_comms, "communication ops" },
	{ "overall", "Overall Metrics", store_compare_overall,
	  "end-to-end time" },
	{ "op_compare", "Operator Compare Statistic", store_compare_ops,
	  "PyTorch ops" },
	{ "memory_compare", "Memory Compare Statistic", store_compare_memory,
	  "PyTorch ops" },
	{ "op_statistic_compare", "Op Statistic Compare",
	  store_compare_op_stats, "op statistics" },
	{ "api_statistic_compare", "API Statistic Compare",
	  store_compare_api_stats, "API statistics" }
};

#define MAIN_NCOMPARE \
	(sizeof main_compare_tables / sizeof main_compare_tables[0])

/* Warn of what table K of runs B and C cannot see, as the tool would not. */
static void
main_compare_gaps(struct store *b, struct store *c, size_t k,
    const struct main_opts *o)
{
	const char	*name = main_compare_tables[k].name, *gap;
	bool		 memory = strcmp(name, "memory_compare") == 0;

	if (o->quiet || (!memory && strcmp(name, "op_compare") != 0))
		return;
	if ((gap = store_compare_ops_gap(b, memory)) != NULL)
		log_warnx("%s: the base run %s", name, gap);
	if ((gap = store_compare_ops_gap(c, memory)) != NULL)
		log_warnx("%s: the comparison run %s", name, gap);
}

/* Print comparison table K of B and C as O asks; return an exit status. */
static int
main_show_compared(struct store *b, struct store *c, size_t k,
    const struct store_compare *co, const struct main_opts *o, int nth,
    int n)
{
	struct store_print_opts	 po;
	struct store_rows	*r;
	char			*cause = NULL;

	main_print_opts(o, &po);
	main_compare_gaps(b, c, k, o);
	r = main_compare_tables[k].make(b, c, co, &cause);
	if (r != NULL && o->sort != NULL && store_rows_sort(r, o->sort,
	    &cause) != 0) {
		log_errx("%s", cause);
		free(cause);
		store_rows_free(r);
		return EXIT_USAGE;
	}
	if (r == NULL) {
		log_errx("%s", cause);
		free(cause);
		return EXIT_DATA;
	}
	while (o->limit >= 0 && r->nrows > (size_t)o->limit)
		store_rows_drop_last(r);
	if (po.format == PRINT_TABLE)
		printf("%s%s%s%s\n", nth > 0 ? "\n" : "", po.color ?
		    "\033[1m" : "", main_compare_tables[k].title, po.color ?
		    "\033[0m" : "");
	else if (n > 1)
		printf("%s# %s\n", nth > 0 ? "\n" : "",
		    main_compare_tables[k].name);
	store_print_rows(stdout, r, &po);
	if (po.format == PRINT_TABLE && r->nrows == 0)
		printf("(no rows: a run has no %s)\n",
		    main_compare_tables[k].what);
	store_rows_free(r);
	return 0;
}

/*
 * show --compare BASE NEW [TABLE...]: the comparison tables of two runs
 * (kernel_compare when none is named). Return an exit status.
 */
static int
main_show_compare(int argc, char **argv, const struct main_opts *o)
{
	struct main_runs	 runs;
	size_t			 k, *which;
	int			 i, n, rc = 0;

	if (argc < 2)
		log_usagex("", "show --compare: BASE and NEW, then tables");
	n = argc > 2 ? argc - 2 : 1;
	which = xcalloc((size_t)n, sizeof *which);
	for (i = 2; i < argc; i++) {
		for (k = 0; k < MAIN_NCOMPARE; k++) {
			if (strcmp(argv[i], main_compare_tables[k].name) == 0)
				break;
		}
		if (k == MAIN_NCOMPARE)
			log_usagex("", "unknown comparison table '%s' "
			    "(overall, op_compare, memory_compare, "
			    "kernel_compare, api_compare, "
			    "communication_compare, op_statistic_compare, "
			    "api_statistic_compare)", argv[i]);
		which[i - 2] = k;
	}
	if (o->filter != NULL || o->range != NULL)
		log_usagex("", "--%s is not for comparison tables",
		    o->filter != NULL ? "filter" : "range");
	if (o->format_set && strcmp(o->format, "json") == 0 && n > 1)
		log_usagex("", "--format json prints one comparison table at "
		    "a time");
	main_runs_open(argv, o, &runs);
	for (i = 0; i < n && rc == 0; i++)
		rc = main_show_compared(runs.base, runs.new, which[i],
		    &runs.co, o, i, n);
	free(which);
	main_runs_close(&runs);
	return rc != 0 ? rc : fflush(stdout) == 0 ? 0 : EXIT_DATA;
}

static int
main_show(int argc, char **argv, const struct main_opts *o)
{
	struct store	*s;
	char		*def[] = { "op_statistic" };
	char		*svp[] = { "aa_core_metrics", "op_statistic",
			    "acl_statistic", "frequency" };
	char		*cause = NULL;
	int64_t		 from, to;
	int		 rc, n = 0, i;

	if (o->compare)
		return main_show_compare(argc, argv, o);
	if (argc < 1)
		log_usagex("", "show: no PATH");
	if (o->range != NULL && export_file_parse_range(o->range, 0, &from,
	    &to, &cause) != 0)
		log_usagex("", "%s", cause);
	s = main_store(argv[0], o);
	if (!main_has_ids(s, o, NULL, NULL)) {
		store_free(s);
		return EXIT_USAGE;
	}
	/* An SVP run: the four tables the vendor's show prints. */
	for (i = 0; i < 4 && store_tables_find(s, "aa_core_metrics") != NULL;
	    i++) {
		if (store_tables_find(s, svp[i]) != NULL)
			svp[n++] = svp[i];
	}
	if (argc > 1)
		rc = main_show_tables(s, argv + 1, argc - 1, o);
	else if (n > 0)
		rc = main_show_tables(s, svp, n, o);
	else
		rc = main_show_tables(s, def, 1, o);
	store_free(s);
	return rc;
}

/*
 * import --timeline: build the timeline's tables of store S now, or of
 * each rank's store of a set. -1 with *cause set on failure.
 */
static int
main_import_timeline(struct store *s, char **cause)
{
	struct store	*rs;
	char		**paths;
	int64_t		*ranks;
	size_t		 n, i;
	int		 rc = 0;

	if (!store_set_is(s))
		return store_timeline_ensure(s, cause);
	if (store_set_list(s, &paths, &ranks, &n, cause) != 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		if ((rs = store_set_open_path(s, paths[i], false, cause)) ==
		    NULL ||
		    store_timeline_ensure(rs, cause) != 0)
			rc = -1;
		store_free(rs);
	}
	store_set_list_free(paths, ranks, n);
	return rc;
}

static int
main_import_cmd(int argc, char **argv, const struct main_opts *o)
{
	struct store	*s;
	char		*records = NULL, *cause = NULL;

	if (argc != 1)
		log_usagex("", argc == 0 ? "import: no PATH" :
		    "import: one PATH only");
	/* The tables only: the first reader builds the indexes. */
	main_index_later = !o->indexes;
	s = main_store(argv[0], o);
	if (o->timeline && main_import_timeline(s, &cause) != 0) {
		log_errx("%s", cause);
		free(cause);
		store_free(s);
		return EXIT_DATA;
	}
	store_meta_get(s, "records", &records);
	if (!o->quiet)
		printf("%s: %s records in '%s'\n", argv[0],
		    records != NULL ? records : "0", store_path(s));
	free(records);
	store_free(s);
	return 0;
}

/*
 * The UI's R key: import PATH again if its inputs changed and hand back
 * the new store (the old one is freed); OLD itself if they did not; or
 * NULL with *cause set and the old store kept.
 */
static struct store *
main_reimport(void *arg, struct store *old, char **cause)
{
	struct main_reimport	*r = arg;
	struct store		*s;
	char			*why = NULL;

	/*
	 * Nothing changed: the store in use stays, and the UI says so. A
	 * set's ranks' stores are checked by the import itself.
	 */
	if (!store_set_is(old) && store_manifest_current(r->db, r->path,
	    &why) == 1)
		return old;
	free(why);
	/*
	 * The old store's background build (its indexes, its timeline) is
	 * stopped first: the new store takes its file's name, journals and
	 * all. The Timeline view starts it again if the import fails.
	 */
	store_timeline_stop(old);
	util_tty_quiet();
	if (main_import(r->path, r->db, false, r->o, cause) != 0 ||
	    (s = store_open(r->db, cause)) == NULL) {
		util_tty_unquiet();
		return NULL;
	}
	util_tty_unquiet();
	store_free(old);
	return s;
}

/* No TERM, or a dumb one: curses could not draw there. */
static bool
main_dumb_term(void)
{
	const char	*term = getenv("TERM");

	return term == NULL || *term == '\0' || strcmp(term, "dumb") == 0;
}

/*
 * Open PATH: the UI on a terminal that can draw it, otherwise what show
 * prints (as less and git fall back on a dumb terminal).
 */
/*
 * The UI on run NEW with the Compare view of BASE against it: --compare
 * BASE NEW. Return an exit status.
 */
static int
main_open_compare(char **argv, const struct main_opts *o)
{
	struct main_runs	 runs;
	struct ui_opts		 uo;
	char			*cause = NULL;
	int			 rc = 0;

	util_tty_quiet();
	main_runs_open(argv, o, &runs);
	util_tty_unquiet();
	memset(&uo, 0, sizeof uo);
	uo.theme = o->theme;
	uo.no_mouse = o->no_mouse;
	uo.device = o->device;
	/* The runs' stores are of one rank each already. */
	uo.rank = runs.crs != NULL ? o->rank : NP_NA;
	uo.replay = o->replay;
	uo.t0 = main_t0;
	uo.base = runs.base;
	uo.compare = &runs.co;
	if (ui_run(runs.new, &uo, &cause) != 0) {
		log_errx("%s", cause);
		free(cause);
		rc = EXIT_DATA;
	}
	main_runs_close(&runs);
	if (ui_interrupted()) {
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	return rc;
}

static int
main_open(int argc, char **argv, const struct main_opts *o)
{
	struct main_reimport	 r;
	struct ui_opts		 uo;
	struct store		*s;
	char			*cause = NULL;
	int			 rc = 0;

	if (o->compare && argc != 2)
		log_usagex("", "--compare: BASE and NEW");
	if (!o->compare && argc != 1)
		log_usagex("", argc == 0 ? "no PATH" : "one PATH only, "
		    "or a command first (show, import, export, demo, "
		    "collect)");
	if (!isatty(STDOUT_FILENO) && o->replay == NULL)
		return main_show(argc, argv, o);
	if (o->replay == NULL && main_dumb_term()) {
		if (!o->quiet)
			log_infox("terminal '%s' cannot show the UI; printing "
			    "as show does", getenv("TERM") != NULL &&
			    *getenv("TERM") != '\0' ? getenv("TERM") :
			    "(unset)");
		return main_show(argc, argv, o);
	}
	if (o->compare)
		return main_open_compare(argv, o);
	main_index_later = true;
	util_tty_quiet();
	s = main_store(argv[0], o);
	util_tty_unquiet();
	if (!main_has_ids(s, o, NULL, NULL)) {
		store_free(s);
		return EXIT_USAGE;
	}
	memset(&r, 0, sizeof r);
	r.path = argv[0];
	r.db = o->db != NULL ? xstrdup(o->db) : store_default_path(argv[0]);
	r.o = o;
	memset(&uo, 0, sizeof uo);
	uo.theme = o->theme;
	uo.no_mouse = o->no_mouse;
	uo.device = o->device;
	uo.rank = o->rank;
	uo.reimport = main_reimport;
	uo.reimport_arg = &r;
	uo.replay = o->replay;
	uo.t0 = main_t0;
	if (ui_run(s, &uo, &cause) != 0) {
		log_errx("%s", cause);
		free(cause);
		rc = EXIT_DATA;
	}
	store_free(ui_store() != NULL ? ui_store() : s);
	/* Its indexes were built while the UI read it: see store-index.c. */
	store_index_settle(r.db);
	free(r.db);
	if (ui_interrupted()) {
		/* Die of the signal, as the shell expects (status 130). */
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	return rc;
}

/*
 * export KIND PATH, or export --folded PATH: the vendor's files or the
 * call stacks, written by export.c.
 */
/*
 * export --folded --compare BASE NEW: the stacks of both runs as
 * differential folded lines (path, base time, new time). Return an exit
 * status.
 */
static int
main_export_diff(int argc, char **argv, const struct main_opts *o)
{
	struct export_opts	 eo;
	struct store_stacks	*sa, *sb = NULL;
	struct main_runs	 runs;
	struct main_opts	 w = *o;
	char			*cause = NULL;
	int			 rc = 0;

	if (argc != 2)
		log_usagex("", "export --folded --compare: BASE and NEW");
	main_runs_open(argv, o, &runs);
	w.step = runs.co.base_step;
	main_export_opts(&w, &eo);
	if ((sa = export_folded_stacks(runs.base, &eo, &cause)) != NULL) {
		main_export_opts(o, &eo);
		sb = export_folded_stacks(runs.new, &eo, &cause);
	}
	if (sa == NULL || sb == NULL) {
		log_errx("%s", cause);
		free(cause);
		rc = EXIT_DATA;
	} else
		store_stacks_fold_diff(stdout, sa, sb);
	store_stacks_free(sa);
	store_stacks_free(sb);
	main_runs_close(&runs);
	return rc != 0 ? rc : fflush(stdout) == 0 ? 0 : EXIT_DATA;
}

static int
main_export(int argc, char **argv, const struct main_opts *o)
{
	struct export_opts	 eo, co;
	struct store		*s, *rs = NULL;
	char			*cause = NULL;
	int64_t			 from, to;
	int			 rc;

	if (o->compare)
		return main_export_diff(argc, argv, o);
	if (argc != (o->folded ? 1 : 2))
		log_usagex("", o->folded ? "export --folded: one PATH" :
		    "export: a KIND (%s) and a PATH", export_kinds());
	if (!o->folded && !export_kind_valid(argv[0])) {
		log_usagex("", "unknown export kind '%s' (%s)", argv[0],
		    export_kinds());
	}
	if (!o->folded && strcmp(argv[0], "summary") == 0 &&
	    (o->range != NULL || o->split_mb != 0)) {
		log_usagex("", "--range and --split-mb are for export "
		    "timeline");
	}
	if (!o->folded && strcmp(argv[0], "timeline") == 0 &&
	    strcmp(o->format, "table") != 0) {
		log_usagex("", "--format is for export summary");
	}
	main_export_opts(o, &eo);
	if (strcmp(o->format, "json") == 0)
		eo.format = EXPORT_JSON;
	else if (!o->folded && strcmp(o->format, "csv") != 0 &&
	    strcmp(o->format, "table") != 0) {
		log_usagex("", "export writes csv or json, not '%s'",
		    o->format);
	}
	if (o->range != NULL && export_file_parse_range(o->range, 0, &from,
	    &to, &cause) != 0) {
		log_usagex("", "%s", cause);
	}
	s = main_store(argv[o->folded ? 0 : 1], o);
	if (!main_has_ids(s, o, NULL, NULL)) {
		store_free(s);
		return EXIT_USAGE;
	}
	/*
	 * A rank of a set of stores: the cluster's tables, of that rank,
	 * from the set's own store, as one store writes them; the rank's
	 * from its store.
	 */
	rc = 0;
	if (!o->folded && strcmp(argv[0], "summary") == 0 &&
	    store_set_is(s) && o->rank != NP_NA) {
		co = eo;
		co.tables = EXPORT_TABLES_CLUSTER;
		rc = export_run(s, argv[0], &co, &cause);
		eo.tables = EXPORT_TABLES_RANK;
	}
	if (rc == 0)
		rc = export_run(main_rank_store(s, &rs, "export", o),
		    o->folded ? NULL : argv[0], &eo, &cause);
	store_free(rs);
	store_free(s);
	if (rc != 0) {
		log_errx("%s", cause);
		free(cause);
		return EXIT_DATA;
	}
	return 0;
}

static int
main_demo(int argc, char **argv, const struct main_opts *o)
{
	struct demo_opts	 g;
	char		*dir, *cause = NULL, *path;
	const char	*cache;
	int		 rc;

	if (argc > 1)
		log_usagex("", "demo: one DIR at most");
	if (argc == 1 && *argv[0] == '\0')
		log_usagex("", "demo: an empty DIR");
	if (argc == 1)
		dir = xstrdup(argv[0]);
	else if ((cache = getenv("XDG_CACHE_HOME")) != NULL && *cache == '/')
		dir = util_path_join(cache, "npuprof-tui/demo");
	else
		xasprintf(&dir, "%s/.cache/npuprof-tui/demo",
		    getenv("HOME") != NULL ? getenv("HOME") : "/tmp");
	demo_opts_init(&g);
	g.flags |= DEMO_STATS;
	if (demo_write(dir, &g, &cause) != 0) {
		log_errx("%s", cause);
		free(cause);
		free(dir);
		return EXIT_DATA;
	}
	log_infox("demo profile written to '%s'", dir);
	path = dir;
	rc = main_open(1, &path, o);
	free(dir);
	return rc;
}

/* collect --all: import a copied directory and print its op_statistic. */
static int
main_collect_import(const char *dir, void *arg)
{
	struct main_opts	*o = arg;
	struct store		*s;
	char			*def[] = { "op_statistic" };
	int			 rc;

	s = main_store(dir, o);
	rc = main_show_tables(s, def, 1, o);
	store_free(s);
	return rc;
}

/* A long option CMD (NULL: the UI) does not take is a usage error. */
static void
main_check_opts(const char *cmd, const struct main_opts *o)
{
	size_t	 i, j;

	for (i = 0; i < sizeof main_cmd_opts / sizeof main_cmd_opts[0]; i++) {
		if ((cmd == NULL) != (main_cmd_opts[i].cmd == NULL) ||
		    (cmd != NULL && strcmp(cmd, main_cmd_opts[i].cmd) != 0))
			continue;
		for (j = 0; main_long_opts[j].name != NULL; j++) {
			if (main_long_opts[j].val < OPT_DB ||
			    main_long_opts[j].val > OPT_INDEXES ||
			    (o->given & MAIN_OPT(main_long_opts[j].val)) == 0 ||
			    (main_cmd_opts[i].opts &
			    MAIN_OPT(main_long_opts[j].val)) != 0)
				continue;
			log_usagex("", "--%s is not an option of %s",
			    main_long_opts[j].name, cmd != NULL ? cmd :
			    "the terminal UI");
		}
	}
}

int
main(int argc, char **argv)
{
	struct main_opts	 o;
	const char		*cmd = NULL;
	int			 first;

	if (collect_askpass_wanted())
		return collect_askpass_main(argc, argv);
	main_t0 = ui_now();
	setlocale(LC_ALL, "");
	util_tighten_umask();
	util_tune_malloc();
	if (argc > 1 && strcmp(argv[1], "collect") == 0) {
		main_options(1, argv, &o);
		return collect_main(argc - 1, argv + 1, main_collect_import,
		    &o);
	}
	if (argc > 1 && (strcmp(argv[1], "import") == 0 ||
	    strcmp(argv[1], "show") == 0 || strcmp(argv[1], "demo") == 0 ||
	    strcmp(argv[1], "export") == 0)) {
		cmd = argv[1];
		argv++;
		argc--;
	}
	first = main_options(argc, argv, &o);
	argc -= first;
	argv += first;
	if (o.compare && cmd != NULL && strcmp(cmd, "show") != 0 &&
	    (strcmp(cmd, "export") != 0 || !o.folded))
		log_usagex("", "--compare is for the UI, show and export "
		    "--folded: npuprof-tui --compare BASE NEW, npuprof-tui "
		    "show --compare BASE NEW [TABLE...], npuprof-tui export "
		    "--folded --compare BASE NEW");
	main_check_opts(cmd, &o);
	if (cmd == NULL)
		return main_open(argc, argv, &o);
	if (strcmp(cmd, "import") == 0)
		return main_import_cmd(argc, argv, &o);
	if (strcmp(cmd, "show") == 0)
		return main_show(argc, argv, &o);
	if (strcmp(cmd, "export") == 0)
		return main_export(argc, argv, &o);
	return main_demo(argc, argv, &o);
}
