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
#include <ftw.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"

#define COLLECT_EXIT_DATA	1
#define COLLECT_EXIT_USAGE	2
#define COLLECT_PREFIX		"board: "

struct collect_run {
	const char		*main;
	const char		*config;
	const char		*host;
	const char		*pull;
	const char		*output;
	const char		*remote_dir;
	const char		*ssh_config;
	struct collect_argv	 ssh_options;
	struct collect_acl	 acl;
	bool			 accept_new;
	bool			 all;
	bool			 quiet;
	char			**args;
	int			 nargs;

	struct collect_target	 t;
	struct collect_board	 board;
	struct collect_askpass	*askpass;
	char			*rdir;		/* remote working directory */
	char			*rout;		/* remote profiler output */
	bool			 rtemp;		/* rdir is ours to remove */
	char			*ltmp;		/* local temporary directory */
	struct collect_argv	 got;		/* copied back, local paths */
	struct timespec		 mark;
	struct strbuf		 times;
};

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

static __dead void
collect_usage(void)
{
	fputs(collect_usage_text, stderr);
	exit(COLLECT_EXIT_USAGE);
}

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
		log_warnx("bad --%s '%s' (on or off)", opt, arg);
		collect_usage();
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
	while ((ch = getopt_long(argc, argv, "+m:qh", collect_long_opts,
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
				log_warnx("bad --interval '%s'", optarg);
				collect_usage();
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
			collect_argv_add(&r->ssh_options, optarg);
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
			collect_usage();
		}
	}
	r->args = argv + optind;
	r->nargs = argc - optind;
	if (r->pull != NULL ? r->main != NULL || r->nargs != 0 :
	    r->main == NULL || (r->config == NULL) == (r->host == NULL))
		collect_usage();
	if (r->pull != NULL && r->host != NULL)
		collect_usage();
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
	} else if (colon != NULL)
		r->t.port = xstrdup(colon + 1);
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
	if (r->board.port != NULL && *r->board.port != '\0')
		r->t.port = xstrdup(r->board.port);
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

static int
collect_rmtree_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove the directory tree PATH, ignoring what cannot be removed. */
static void
collect_rmtree(const char *path)
{
	nftw(path, collect_rmtree_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Run the remote command CMD and return what it printed, or NULL with
 * *cause naming WHAT when ssh or the command failed.
 */
static char *
collect_remote(struct collect_run *r, const char *cmd, const char *what,
    char **cause)
{
	char	*out = NULL;
	int	 rc;

	rc = collect_ssh_command(&r->t, cmd, &out, cause);
	if (rc == 0)
		return out;
	free(out);
	if (rc == 255)
		xasprintf(cause, "cannot connect to '%s' (ssh said why "
		    "above)", r->t.host);
	else if (rc > 0)
		xasprintf(cause, "cannot %s on '%s' (exit %d)", what,
		    r->t.host, rc);
	return NULL;
}

/* Create the remote working and output directories. */
static int
collect_prepare(struct collect_run *r, char **cause)
{
	char	*cmd, *q, *out, *nl;

	if (r->remote_dir != NULL) {
		q = collect_ssh_quote(r->remote_dir);
		xasprintf(&cmd, "mkdir -p -- %s && cd -- %s && d=$(pwd) && "
		    "command -v tar >/dev/null && o=$(mktemp -d "
		    "\"$d/npuprof-out.XXXXXX\") && printf '%%s\\n%%s\\n' "
		    "\"$d\" \"$o\"", q, q);
		free(q);
	} else {
		cmd = xstrdup("command -v tar >/dev/null && d=$(mktemp -d "
		    "\"${TMPDIR:-/tmp}/npuprof-collect.XXXXXX\") && "
		    "o=$(mktemp -d \"$d/out.XXXXXX\") && "
		    "printf '%s\\n%s\\n' \"$d\" \"$o\"");
		r->rtemp = true;
	}
	out = collect_remote(r, cmd, "create a working directory (is tar "
	    "installed?)", cause);
	free(cmd);
	if (out == NULL || (nl = strchr(out, '\n')) == NULL || nl[1] != '/') {
		if (out != NULL)
			xasprintf(cause, "unexpected answer from '%s'",
			    r->t.host);
		r->rtemp = false;
		free(out);
		return -1;
	}
	*nl = '\0';
	nl[1 + strcspn(nl + 1, "\n")] = '\0';
	r->rdir = xstrdup(out);
	r->rout = xstrdup(nl + 1);
	free(out);
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

/* Copy the folder DIR holding MAIN and our acl.json into R->rdir. */
static int
collect_upload(struct collect_run *r, const char *dir, const char *base,
    char **cause)
{
	char	*parent, *slash, *member, *qd, *qm, *cmd;
	char	*tar[7];
	int	 rc;

	parent = xstrdup(dir);
	slash = strrchr(parent, '/');
	slash[slash == parent ? 1 : 0] = '\0';
	xasprintf(&member, "./%s", base);
	tar[0] = "-C";
	tar[1] = parent;
	tar[2] = member;
	tar[3] = "-C";
	tar[4] = r->ltmp;
	tar[5] = "./npuprof-acl.json";
	tar[6] = NULL;
	qd = collect_ssh_quote(r->rdir);
	qm = collect_ssh_quote(member);
	xasprintf(&cmd, "cd -- %s && tar -xf - && "
	    "mv -f -- ./npuprof-acl.json %s/acl.json", qd, qm);
	rc = collect_ssh_upload(&r->t, tar, cmd, cause);
	free(cmd);
	free(qm);
	free(qd);
	free(member);
	free(parent);
	return rc;
}

/*
 * Run MAIN with its arguments in the uploaded folder BASE, its output
 * streamed here. The shell's pid, which exec hands on to MAIN, is the
 * process group sshd made for the session: it is saved so an interrupt
 * can stop MAIN and its children. Return the remote exit status.
 */
static int
collect_exec(struct collect_run *r, const char *base)
{
	struct strbuf	 b;
	char		*path, *q;
	int		 i, rc;

	strbuf_init(&b);
	path = util_path_join(r->rdir, base);
	q = collect_ssh_quote(path);
	strbuf_addf(&b, "cd -- %s && ", q);
	free(q);
	free(path);
	path = util_path_join(r->rdir, "npuprof.pid");
	q = collect_ssh_quote(path);
	strbuf_addf(&b, "echo $$ >%s && exec ./", q);
	free(q);
	free(path);
	q = collect_ssh_quote(util_basename(r->main));
	strbuf_adds(&b, q);
	free(q);
	for (i = 0; i < r->nargs; i++) {
		q = collect_ssh_quote(r->args[i]);
		strbuf_addf(&b, " %s", q);
		free(q);
	}
	strbuf_adds(&b, " </dev/null 2>&1");
	rc = collect_ssh_stream(&r->t, b.s, COLLECT_PREFIX);
	strbuf_release(&b);
	return rc;
}

/*
 * Stop what is left of the application when KILL, and remove the remote
 * working directory when it is ours. Failures are only reported.
 */
static void
collect_cleanup(struct collect_run *r, bool kill)
{
	struct strbuf	 b;
	char		*q, *pid, *out = NULL, *cause = NULL;

	if (r->rdir == NULL)
		return;
	strbuf_init(&b);
	pid = util_path_join(r->rdir, "npuprof.pid");
	q = collect_ssh_quote(pid);
	if (kill) {
		strbuf_addf(&b, "p=$(cat %s 2>/dev/null); if [ -n \"$p\" ]; "
		    "then kill -TERM -- \"-$p\" 2>/dev/null || "
		    "kill -TERM \"$p\" 2>/dev/null; i=0; while [ $i -lt 50 ] "
		    "&& kill -0 -- \"-$p\" 2>/dev/null; do sleep 0.1 "
		    "2>/dev/null || sleep 1; i=$((i + 1)); done; "
		    "kill -KILL -- \"-$p\" 2>/dev/null; fi; ", q);
	}
	free(q);
	q = collect_ssh_quote(r->rtemp ? r->rdir : pid);
	strbuf_addf(&b, "rm -rf -- %s", q);
	free(q);
	free(pid);
	if (collect_ssh_command(&r->t, b.s, &out, &cause) != 0)
		log_warnx("cannot clean up '%s' on '%s'", r->rdir, r->t.host);
	free(cause);
	free(out);
	strbuf_release(&b);
}

/* The JOB* and PROF_* directories in the remote output, one a line. */
static char *
collect_find(struct collect_run *r, char **cause)
{
	char	*q, *cmd, *out;

	q = collect_ssh_quote(r->rout);
	xasprintf(&cmd, "cd -- %s && for d in JOB* PROF_*; do "
	    "if [ -d \"$d\" ]; then printf '%%s\\n' \"$d\"; fi; done", q);
	out = collect_remote(r, cmd, "list the output", cause);
	free(cmd);
	free(q);
	return out;
}

/*
 * Copy the directories NAMES of the remote RPARENT to --output, through
 * a temporary directory there, then rename each into place. An existing
 * directory is never overwritten. Return 0, or -1 with *cause.
 */
static int
collect_fetch(struct collect_run *r, const char *rparent,
    struct collect_argv *names, char **cause)
{
	struct strbuf	 b;
	char		*tmp, *q, *from, *to;
	size_t		 i;
	int		 rc;

	for (i = 0; i < names->n; i++) {
		to = util_path_join(r->output, names->v[i]);
		rc = access(to, F_OK);
		if (rc == 0) {
			xasprintf(cause, "'%s' exists: not overwritten", to);
			free(to);
			return -1;
		}
		free(to);
	}
	if (util_mkdir_p(r->output, 0777) != 0) {
		xasprintf(cause, "cannot create '%s': %s", r->output,
		    strerror(errno));
		return -1;
	}
	tmp = util_path_join(r->output, ".npuprof-collect.XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		xasprintf(cause, "cannot create '%s': %s", tmp,
		    strerror(errno));
		free(tmp);
		return -1;
	}
	strbuf_init(&b);
	q = collect_ssh_quote(rparent);
	strbuf_addf(&b, "cd -- %s && tar -cf - --", q);
	free(q);
	for (i = 0; i < names->n; i++) {
		q = collect_ssh_quote(names->v[i]);
		strbuf_addf(&b, " %s", q);
		free(q);
	}
	rc = collect_ssh_download(&r->t, b.s, tmp, cause);
	strbuf_release(&b);
	for (i = 0; rc == 0 && !collect_ssh_interrupted() && i < names->n;
	    i++) {
		from = util_path_join(tmp, names->v[i]);
		to = util_path_join(r->output, names->v[i]);
		if (access(to, F_OK) == 0) {
			xasprintf(cause, "'%s' exists: not overwritten", to);
			rc = -1;
		} else if (rename(from, to) != 0) {
			xasprintf(cause, "cannot rename '%s' to '%s': %s",
			    from, to, strerror(errno));
			rc = -1;
		} else
			collect_argv_add(&r->got, to);
		free(from);
		free(to);
	}
	collect_rmtree(tmp);
	free(tmp);
	return rc;
}

/* Split the lines of TEXT into NAMES, keeping only plain names. */
static void
collect_names(const char *text, struct collect_argv *names)
{
	const char	*s, *nl;
	char		*name;

	for (s = text; *s != '\0'; s = *nl != '\0' ? nl + 1 : nl) {
		nl = s + strcspn(s, "\n");
		name = xstrndup(s, (size_t)(nl - s));
		if (*name != '\0' && strchr(name, '/') == NULL &&
		    strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
			collect_argv_add(names, name);
		free(name);
	}
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
	collect_cleanup(r, true);
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
	char			*dir = NULL, *base = NULL, *found;
	int			 status, rc = -1;

	if (collect_check_main(r, &dir, &base, cause) != 0)
		goto out;
	if (r->config != NULL && collect_target_ini(r, cause) != 0)
		goto out;
	collect_start(r);
	if (collect_prepare(r, cause) != 0)
		goto out;
	collect_done(r, "connect");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	collect_start(r);
	if (collect_write_acl(r, dir, cause) != 0 ||
	    collect_upload(r, dir, base, cause) != 0) {
		collect_cleanup(r, false);
		goto out;
	}
	collect_done(r, "upload");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	collect_start(r);
	status = collect_exec(r, base);
	collect_done(r, "run");
	if (collect_ssh_interrupted()) {
		rc = collect_interrupted(r);
		goto out;
	}
	if (status != 0)
		log_warnx("'%s' exited with status %d on '%s'", r->main,
		    status, r->t.host);
	collect_start(r);
	if ((found = collect_find(r, cause)) == NULL) {
		collect_cleanup(r, false);
		goto out;
	}
	collect_names(found, &names);
	free(found);
	if (names.n == 0) {
		xasprintf(cause, "'%s' wrote no JOB* or PROF_* directory in "
		    "'%s' on '%s'", r->main, r->rout, r->t.host);
		collect_cleanup(r, false);
		rc = status != 0 ? status : -1;
		goto out;
	}
	if (collect_fetch(r, r->rout, &names, cause) != 0) {
		if (collect_ssh_interrupted()) {
			rc = collect_interrupted(r);
			goto out;
		}
		if (r->rtemp)
			log_warnx("the data stays on '%s' in '%s': copy it "
			    "with --pull", r->t.host, r->rout);
		r->rtemp = false;
		goto out;
	}
	collect_done(r, "download");
	collect_cleanup(r, false);
	rc = status;
	if (r->all && (status = collect_import(r, cb, arg)) != 0 && rc == 0)
		rc = status;
out:
	collect_argv_free(&names);
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
		log_warnx("bad --pull '%s' (want [USER@]HOST:DIR)", r->pull);
		collect_usage();
	}
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	if ((slash = strrchr(path, '/')) == NULL)
		parent = xstrdup(".");
	else
		parent = xstrndup(path, slash == path ? 1 : (size_t)(slash -
		    path));
	collect_names(util_basename(path), &names);
	if (names.n == 0)
		xasprintf(cause, "bad remote directory '%s'", path);
	else {
		collect_start(r);
		rc = collect_fetch(r, parent, &names, cause);
		if (rc == 0)
			collect_done(r, "download");
	}
	if (collect_ssh_interrupted() && rc != 0)
		rc = 128 + collect_ssh_interrupted();
	else if (rc == 0 && r->all)
		rc = collect_import(r, cb, arg);
	collect_argv_free(&names);
	free(parent);
	free(path);
	return rc;
}

/* Free what the run holds and remove local temporary files. */
static void
collect_release(struct collect_run *r)
{
	collect_askpass_stop(r->askpass);
	collect_board_release(&r->board);
	if (r->ltmp != NULL)
		collect_rmtree(r->ltmp);
	free(r->ltmp);
	free(r->rdir);
	free(r->rout);
	free(r->t.host);
	free(r->t.user);
	free(r->t.port);
	collect_argv_free(&r->got);
	collect_argv_free(&r->ssh_options);
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
	const char		*tmp = getenv("TMPDIR");
	char			*cause = NULL;
	int			 rc;

	memset(&r, 0, sizeof r);
	strbuf_init(&r.times);
	collect_acl_set(&r, "switch", "on");
	collect_options(argc, argv, &r);
	if (r.output == NULL)
		r.output = ".";
	r.t.config = r.ssh_config;
	r.t.options = &r.ssh_options;
	r.t.accept_new = r.accept_new;
	if (r.host != NULL && collect_parse_host(&r, r.host, NULL) != 0) {
		log_warnx("bad --host '%s' (want [USER@]HOST[:PORT])",
		    r.host);
		collect_usage();
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
	if (cause != NULL) {
		fprintf(stderr, "%s: %s\n", log_progname(), cause);
		free(cause);
	}
	collect_report(&r);
	collect_release(&r);
	return rc < 0 ? COLLECT_EXIT_DATA : rc;
}
