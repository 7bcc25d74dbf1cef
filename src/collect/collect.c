/*
 * npuprof-tui collect: the vendor's board flow in one command. Copy the
 * folder holding MAIN to a working directory on the board, switch
 * profiling on in its acl.json, run MAIN there with its output streamed
 * here, copy the JOB or PROF directories it wrote back under --output
 * (under a temporary name, then renamed), and with --all import and show
 * them. --pull only copies back a directory already on the board. The
 * steps are timed; Ctrl-C stops the remote application and cleans up.
 */
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"

#define COLLECT_EXIT_DATA	1

static const char *collect_usage_text =
"usage: npuprof-tui collect -m MAIN (--config BOARD.ini | --host "
"[USER@]HOST[:PORT])\n"
"                           [--output DIR] [--all] [--interval N] "
"[--acl-api on|off]\n"
"                           [--aacpu on|off] [--switch on|off] "
"[--aac-metrics NAME]\n"
"                           [--remote-dir DIR] [--ssh-config FILE]\n"
"                           [--ssh-option OPT] [--accept-new-host-key] "
"[-- ARGS...]\n"
"       npuprof-tui collect --pull [USER@]HOST:DIR [--output DIR] "
"[--all]\n";

/* Start timing a step. */
static void
collect_start(struct collect_run *r)
{
	clock_gettime(CLOCK_MONOTONIC, &r->mark);
}

/* Note how long step WHAT took since collect_start(). */
static void
collect_done(struct collect_run *r, const char *what)
{
	struct timespec	 now;
	double		 secs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = (double)(now.tv_sec - r->mark.tv_sec) +
	    (double)(now.tv_nsec - r->mark.tv_nsec) / 1e9;
	strbuf_addf(&r->times, "%s%s %.2f s", r->times.len > 0 ? ", " : "",
	    what, secs);
}

/* Set profiler key KEY of acl.json to VALUE (borrowed). */
static void
collect_acl_set(struct collect_run *r, const char *key, const char *value)
{
	int	 i;

	for (i = 0; i < r->acl.n; i++) {
		if (strcmp(r->acl.keys[i], key) == 0)
			break;
	}
	if (i == r->acl.n && r->acl.n < 8)
		r->acl.keys[r->acl.n++] = key;
	r->acl.values[i] = value;
}

static const char *
collect_on_off(const char *opt, const char *arg)
{
	if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
		log_usagex("collect ", "bad --%s '%s' (on or off)", opt, arg);
	}
	return arg;
}

enum {
	OPT_CONFIG = 256,
	OPT_HOST,
	OPT_PULL,
	OPT_OUTPUT,
	OPT_ALL,
	OPT_INTERVAL,
	OPT_ACL_API,
	OPT_AACPU,
	OPT_SWITCH,
	OPT_AAC_METRICS,
	OPT_REMOTE_DIR,
	OPT_SSH_CONFIG,
	OPT_SSH_OPTION,
	OPT_ACCEPT_NEW
};

static const struct option collect_long_opts[] = {
	{ "main", required_argument, NULL, 'm' },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "pull", required_argument, NULL, OPT_PULL },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "acl-api", required_argument, NULL, OPT_ACL_API },
	{ "acl_api", required_argument, NULL, OPT_ACL_API },
	{ "aacpu", required_argument, NULL, OPT_AACPU },
	{ "switch", required_argument, NULL, OPT_SWITCH },
	{ "aac-metrics", required_argument, NULL, OPT_AAC_METRICS },
	{ "aac_metrics", required_argument, NULL, OPT_AAC_METRICS },
	{ "remote-dir", required_argument, NULL, OPT_REMOTE_DIR },
	{ "ssh-config", required_argument, NULL, OPT_SSH_CONFIG },
	{ "ssh-option", required_argument, NULL, OPT_SSH_OPTION },
	{ "accept-new-host-key", no_argument, NULL, OPT_ACCEPT_NEW },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Parse the command line of collect into R; exits on a usage error. */
static void
collect_options(int argc, char **argv, struct collect_run *r)
{
	int64_t	 v;
	int	 ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+:m:qh", collect_long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'm':
			r->main = optarg;
			break;
		case OPT_CONFIG:
			r->config = optarg;
			break;
		case OPT_HOST:
			r->host = optarg;
			break;
		case OPT_PULL:
			r->pull = optarg;
			break;
		case OPT_OUTPUT:
			r->output = optarg;
			break;
		case OPT_ALL:
			r->all = true;
			break;
		case OPT_INTERVAL:
			if (util_parse_int(optarg, strlen(optarg), &v) != 0 ||
			    v <= 0) {
				log_usagex("collect ", "bad --interval '%s'",
				    optarg);
			}
			collect_acl_set(r, "interval", optarg);
			break;
		case OPT_ACL_API:
			collect_acl_set(r, "acl_api",
			    collect_on_off("acl-api", optarg));
			break;
		case OPT_AACPU:
			collect_acl_set(r, "aacpu",
			    collect_on_off("aacpu", optarg));
			break;
		case OPT_SWITCH:
			collect_acl_set(r, "switch",
			    collect_on_off("switch", optarg));
			break;
		case OPT_AAC_METRICS:
			collect_acl_set(r, "aac_metrics", optarg);
			break;
		case OPT_REMOTE_DIR:
			r->remote_dir = optarg;
			break;
		case OPT_SSH_CONFIG:
			r->ssh_config = optarg;
			break;
		case OPT_SSH_OPTION:
			collect_ssh_argv_add(&r->ssh_options, optarg);
			break;
		case OPT_ACCEPT_NEW:
			r->accept_new = true;
			break;
		case 'q':
			r->quiet = true;
			log_set_quiet(true);
			break;
		case 'h':
			fputs(collect_usage_text, stdout);
			exit(0);
		default:
			log_usagex("collect ", "%s", util_option_error(argv,
			    collect_long_opts, ch));
		}
	}
	r->args = argv + optind;
	r->nargs = argc - optind;
	if (r->pull != NULL && (r->main != NULL || r->nargs != 0 ||
	    r->host != NULL))
		log_usagex("collect ", "--pull takes no -m, --host or ARGS");
	if (r->pull == NULL && r->main == NULL)
		log_usagex("collect ", "no -m MAIN");
	if (r->pull == NULL && (r->config == NULL) == (r->host == NULL))
		log_usagex("collect ", "one of --config and --host");
}

/* Whether P is a TCP port number, 1 to 65535 in decimal digits. */
static bool
collect_port_ok(const char *p)
{
	size_t	 n = strspn(p, "0123456789");

	return n > 0 && n <= 5 && p[n] == '\0' && atoi(p) >= 1 &&
	    atoi(p) <= 65535;
}

/*
 * Fill R->t from SPEC, [USER@]HOST[:PORT] (an IPv6 address in brackets),
 * or with REST, [USER@]HOST:REST, setting *REST to what follows the colon.
 */
static int
collect_parse_host(struct collect_run *r, const char *spec, char **rest)
{
	const char	*at, *host, *colon, *end;

	if ((at = strchr(spec, '@')) != NULL) {
		r->t.user = xstrndup(spec, (size_t)(at - spec));
		host = at + 1;
	} else
		host = spec;
	if (*host == '[') {
		if ((end = strchr(host, ']')) == NULL)
			return -1;
		r->t.host = xstrndup(host + 1, (size_t)(end - host - 1));
		colon = end[1] == ':' ? end + 1 : NULL;
	} else {
		colon = strchr(host, ':');
		if (colon != NULL && rest == NULL &&
		    strchr(colon + 1, ':') != NULL)
			colon = NULL;	/* a bare IPv6 address */
		r->t.host = colon == NULL ? xstrdup(host) :
		    xstrndup(host, (size_t)(colon - host));
	}
	if (*r->t.host == '\0' || *r->t.host == '-' ||
	    (r->t.user != NULL && *r->t.user == '\0'))
		return -1;
	if (rest != NULL) {
		if (colon == NULL || colon[1] == '\0')
			return -1;
		*rest = xstrdup(colon + 1);
	} else if (colon != NULL) {
		if (!collect_port_ok(colon + 1))
			return -1;
		r->t.port = xstrdup(colon + 1);
	}
	return 0;
}

/* Set up R->t from BOARD.ini, starting the password server if needed. */
static int
collect_target_ini(struct collect_run *r, char **cause)
{
	if (collect_ini_read(r->config, &r->board, cause) != 0)
		return -1;
	r->t.host = xstrdup(r->board.ip);
	if (r->board.username != NULL && *r->board.username != '\0')
		r->t.user = xstrdup(r->board.username);
	if (r->board.port != NULL && *r->board.port != '\0') {
		if (!collect_port_ok(r->board.port)) {
			xasprintf(cause, "%s: port '%s' is not a port number "
			    "(1 to 65535)", r->config, r->board.port);
			return -1;
		}
		r->t.port = xstrdup(r->board.port);
	}
	if (r->board.pwd != NULL && *r->board.pwd != '\0') {
		log_infox("reminder: remove '%s' after use, it holds the "
		    "board password", r->config);
		r->askpass = collect_askpass_start(r->board.pwd, cause);
		if (r->askpass == NULL)
			return -1;
		r->t.askpass = collect_askpass_socket(r->askpass);
	}
	if (r->board.pwd != NULL)
		explicit_bzero(r->board.pwd, strlen(r->board.pwd));
	return 0;
}

/*
 * Read the acl.json beside MAIN, point its profiler output at the remote
 * output directory, and write it as npuprof-acl.json in R->ltmp.
 */
static int
collect_write_acl(struct collect_run *r, const char *dir, char **cause)
{
	char	*path, *text, *out, *why = NULL, *dst;
	int	 rc;

	path = util_path_join(dir, "acl.json");
	if (util_read_file(path, &text, NULL, 1 << 20, cause) != 0) {
		free(path);
		return -1;
	}
	collect_acl_set(r, "output", r->rout != NULL ? r->rout : "");
	out = collect_acl_rewrite(text, &r->acl, &why);
	free(text);
	if (out == NULL) {
		xasprintf(cause, "'%s': %s", path, why);
		free(why);
		free(path);
		return -1;
	}
	free(path);
	if (r->ltmp == NULL) {
		free(out);
		return 0;
	}
	dst = util_path_join(r->ltmp, "npuprof-acl.json");
	rc = util_write_file_atomic(dst, out, strlen(out), true, cause);
	free(dst);
	free(out);
	return rc;
}

/* Import and show what was copied back (--all). */
static int
collect_import(struct collect_run *r, collect_import_cb cb, void *arg)
{
	size_t	 i;
	int	 rc = 0, one;

	collect_start(r);
	for (i = 0; i < r->got.n; i++) {
		if ((one = cb(r->got.v[i], arg)) != 0)
			rc = one;
	}
	collect_done(r, "import");
	return rc;
}

/* Say what was copied back and how long each step took. */
static void
collect_report(struct collect_run *r)
{
	size_t	 i;

	for (i = 0; i < r->got.n; i++)
		log_infox("copied '%s'", r->got.v[i]);
	if (r->times.len > 0)
		log_infox("time: %s", r->times.s);
}

static int
collect_interrupted(struct collect_run *r)
{
	log_warnx("interrupted: stopping the application on '%s' and "
	    "cleaning up", r->t.host);
	collect_remote_cleanup(r, true);
	return 128 + collect_ssh_interrupted();
}

/* Check MAIN and its acl.json here; set *DIR and *BASE (caller frees). */
static int
collect_check_main(struct collect_run *r, char **dir, char **base,
    char **cause)
{
	struct stat	 st;
	char		*abs, *slash;

	if (stat(r->main, &st) != 0) {
		xasprintf(cause, "cannot open '%s': %s", r->main,
		    strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		xasprintf(cause, "'%s' is not a file", r->main);
		return -1;
	}
	abs = util_abspath(r->main);
	slash = strrchr(abs, '/');
	*slash = '\0';
	if (*abs == '\0') {
		xasprintf(cause, "'%s' is in '/': copy it to a folder of its "
		    "own first", r->main);
		free(abs);
		return -1;
	}
	*dir = abs;
	*base = xstrdup(util_basename(abs));
	return collect_write_acl(r, *dir, cause);
}

/* The main flow: prepare, upload, run, copy back, import. */
static int
collect_flow(struct collect_run *r, collect_import_cb cb, void *arg,
    char **cause)
{
	struct collect_argv	 names = { NULL, 0 };
	char			*dir = NULL, *base = NULL, *found, *msg;
	int			 status, rc = -1;

	if (collect_check_main(r, &dir, &base, cause) != 0)
		goto out;
	if (r->config != NULL && collect_target_ini(r, cause) != 0)
		goto out;
	collect_start(r);
	if (collect_remote_prepare(r, cause) != 0) {
		if (collect_ssh_interrupted()) {
			free(*cause);
			*cause = NULL;
			rc = collect_interrupted(r);
		} else {
			collect_remote_cleanup(r, false);
		}
		goto out;
	}
	collect_done(r, "connect");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	collect_start(r);
	if (collect_write_acl(r, dir, cause) != 0 ||
	    collect_remote_upload(r, dir, base, cause) != 0) {
		collect_remote_cleanup(r, false);
		goto out;
	}
	collect_done(r, "upload");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	collect_start(r);
	status = collect_remote_exec(r, base);
	collect_done(r, "run");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	if (status != 0)
		log_warnx("'%s' exited with status %d on '%s'", r->main,
		    status, r->t.host);
	collect_start(r);
	if ((found = collect_remote_find(r, cause)) == NULL) {
		collect_remote_cleanup(r, false);
		goto out;
	}
	collect_remote_names(found, &names);
	free(found);
	if (names.n == 0) {
		xasprintf(cause, "'%s' wrote no JOB* or PROF_* directory in "
		    "'%s' on '%s'", r->main, r->rout, r->t.host);
		collect_remote_cleanup(r, false);
		rc = status != 0 ? status : -1;
		goto out;
	}
	if (collect_remote_fetch(r, r->rout, &names, cause) != 0) {
		if (collect_ssh_interrupted()) {
			rc = collect_interrupted(r);
			goto out;
		}
		if (r->rtemp) {
			xasprintf(&msg, "%s; the data stays on '%s' in '%s': "
			    "copy it with --pull", *cause, r->t.host, r->rout);
			free(*cause);
			*cause = msg;
		}
		r->rtemp = false;
		goto out;
	}
	collect_done(r, "download");
	collect_remote_cleanup(r, false);
	rc = status;
	if (r->all && (status = collect_import(r, cb, arg)) != 0 && rc == 0)
		rc = status;
out:
	collect_ssh_argv_free(&names);
	free(dir);
	free(base);
	return rc;
}

/* --pull: copy back one directory that is already on the board. */
static int
collect_pull(struct collect_run *r, collect_import_cb cb, void *arg,
    char **cause)
{
	struct collect_argv	 names = { NULL, 0 };
	char			*path = NULL, *slash, *parent;
	int			 rc = -1;

	if (r->config != NULL) {
		if (collect_target_ini(r, cause) != 0)
			return -1;
		path = xstrdup(r->pull);
	} else if (collect_parse_host(r, r->pull, &path) != 0) {
		log_usagex("collect ", "bad --pull '%s' "
		    "(want [USER@]HOST:DIR)", r->pull);
	}
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	if ((slash = strrchr(path, '/')) == NULL)
		parent = xstrdup(".");
	else
		parent = xstrndup(path, slash == path ? 1 : (size_t)(slash -
		    path));
	collect_remote_names(util_basename(path), &names);
	if (names.n == 0)
		xasprintf(cause, "bad remote directory '%s'", path);
	else {
		collect_start(r);
		rc = collect_remote_fetch(r, parent, &names, cause);
		if (rc == 0)
			collect_done(r, "download");
	}
	if (collect_ssh_interrupted() && rc != 0)
		rc = 128 + collect_ssh_interrupted();
	else if (rc == 0 && r->all)
		rc = collect_import(r, cb, arg);
	collect_ssh_argv_free(&names);
	free(parent);
	free(path);
	return rc;
}

/* Free what the run holds and remove local temporary files. */
static void
collect_release(struct collect_run *r)
{
	collect_askpass_stop(r->askpass);
	collect_ini_board_release(&r->board);
	if (r->ltmp != NULL)
		collect_remote_rmtree(r->ltmp);
	free(r->ltmp);
	free(r->rdir);
	free(r->rout);
	free(r->t.host);
	free(r->t.user);
	free(r->t.port);
	collect_ssh_argv_free(&r->got);
	collect_ssh_argv_free(&r->ssh_options);
	strbuf_release(&r->times);
}

/*
 * The collect command: ARGV starts with "collect". CB imports and shows
 * a copied directory for --all. Return the exit status: the remote
 * application's, 1 when collecting failed, 128 plus a signal.
 */
int
collect_main(int argc, char **argv, collect_import_cb cb, void *arg)
{
	struct collect_run	 r;
	struct stat		 st;
	const char		*tmp = getenv("TMPDIR");
	char			*cause = NULL;
	int			 rc;
	bool			 made;

	memset(&r, 0, sizeof r);
	strbuf_init(&r.times);
	collect_acl_set(&r, "switch", "on");
	collect_options(argc, argv, &r);
	if (r.output == NULL)
		r.output = ".";
	/*
	 * Made before the application runs on the board, not after; removed
	 * again (if still empty) when made for data that did not come.
	 */
	made = stat(r.output, &st) != 0;
	if (util_mkdir_p(r.output, 0777) != 0 || access(r.output, W_OK |
	    X_OK) != 0) {
		log_errx("cannot write to '%s': %s", r.output,
		    strerror(errno));
		return COLLECT_EXIT_DATA;
	}
	r.t.config = r.ssh_config;
	r.t.options = &r.ssh_options;
	r.t.accept_new = r.accept_new;
	if (r.host != NULL && collect_parse_host(&r, r.host, NULL) != 0) {
		log_usagex("collect ", "bad --host '%s' "
		    "(want [USER@]HOST[:PORT])", r.host);
	}
	collect_ssh_catch_signals();
	xasprintf(&r.ltmp, "%s/npuprof-collect.XXXXXX",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp");
	if (mkdtemp(r.ltmp) == NULL)
		fatal("cannot create '%s'", r.ltmp);
	if (r.pull != NULL)
		rc = collect_pull(&r, cb, arg, &cause);
	else
		rc = collect_flow(&r, cb, arg, &cause);
	if (rc < 0 && collect_ssh_interrupted())
		rc = 128 + collect_ssh_interrupted();
	if (cause != NULL) {
		log_errx("%s", cause);
		free(cause);
	}
	collect_report(&r);
	if (made)
		rmdir(r.output);
	collect_release(&r);
	return rc < 0 ? COLLECT_EXIT_DATA : rc;
}
