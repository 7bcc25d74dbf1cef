/*
 * The steps of collect that happen on the board, each one ssh command:
 * create the working directory, upload the application, run it, list and
 * copy back what it wrote, stop it and clean up. Every variable part of
 * a remote command is quoted with collect_ssh_quote().
 */
#include <sys/stat.h>

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"

static int
collect_remote_rmtree_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove the directory tree PATH, ignoring what cannot be removed. */
void
collect_remote_rmtree(const char *path)
{
	nftw(path, collect_remote_rmtree_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Run the remote command CMD and return what it printed, or NULL with
 * *cause naming WHAT when ssh or the command failed; ssh's exit status
 * in *RC.
 */
static char *
collect_remote_run(struct collect_run *r, const char *cmd, const char *what,
    int *rcp, char **cause)
{
	char	*out = NULL;
	int	 rc;

	rc = *rcp = collect_ssh_command(&r->t, cmd, &out, cause);
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

/*
 * Name the directory that prepare creates, PREFIX and ten random letters
 * or digits, here and before anything is made: an interrupt that stops
 * the command that creates it then cannot leave it behind unnamed.
 */
static void
collect_remote_name(struct collect_run *r, const char *prefix)
{
	static const char	 set[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t		 v = util_random64(r);
	int			 n, i;

	n = snprintf(r->rname, sizeof r->rname - 10, "%s", prefix);
	if (n < 0 || (size_t)n >= sizeof r->rname - 10)
		fatalx("%s: prefix too long", __func__);
	for (i = 0; i < 10; i++) {
		r->rname[n + i] = set[v % (sizeof set - 1)];
		v /= sizeof set - 1;
	}
	r->rname[n + i] = '\0';
}

/*
 * Create the remote working and output directories, with mkdir, which
 * fails when the name exists. Without --remote-dir the working directory
 * is a new one in the board's ${TMPDIR:-/tmp}, removed at the end;
 * with it, the output directory is a new one in --remote-dir, kept. A
 * command that fails removes what it made. On failure r->rname stays set
 * only while something may be left (collect_remote_cleanup() then
 * removes it): when an interrupt stopped the session, or the answer was
 * not the one expected.
 */
int
collect_remote_prepare(struct collect_run *r, char **cause)
{
	char	*cmd, *q, *out, *nl;
	int	 rc;

	if (r->remote_dir != NULL) {
		collect_remote_name(r, "npuprof-out.");
		q = collect_ssh_quote(r->remote_dir);
		xasprintf(&cmd, "mkdir -p -- %s && cd -- %s && d=$(pwd) && "
		    "command -v tar >/dev/null && mkdir -m 700 -- "
		    "\"$d/%s\" && printf '%%s\\n%%s\\n' \"$d\" \"$d/%s\"",
		    q, q, r->rname, r->rname);
		free(q);
	} else {
		collect_remote_name(r, "npuprof-collect.");
		xasprintf(&cmd, "command -v tar >/dev/null && "
		    "d=\"${TMPDIR:-/tmp}/%s\" && mkdir -m 700 -- \"$d\" && "
		    "{ d=$(cd -- \"$d\" && pwd) && mkdir -m 700 -- "
		    "\"$d/out\" || { rm -rf -- \"$d\"; exit 1; }; } && "
		    "printf '%%s\\n%%s\\n' \"$d\" \"$d/out\"", r->rname);
		r->rtemp = true;
	}
	out = collect_remote_run(r, cmd, "create a working directory (is tar "
	    "installed?)", &rc, cause);
	free(cmd);
	if (out != NULL && (nl = strchr(out, '\n')) != NULL && nl[1] == '/' &&
	    out[0] == '/') {
		*nl = '\0';
		nl[1 + strcspn(nl + 1, "\n")] = '\0';
		r->rdir = xstrdup(out);
		r->rout = xstrdup(nl + 1);
		free(out);
		return 0;
	}
	free(out);
	r->rtemp = false;
	/*
	 * Our SIGTERM kills ssh before its session starts (exit 143), and
	 * once it runs makes it exit 255, as a failure to connect does.
	 */
	if (rc != 0 && (rc != 255 || !collect_ssh_interrupted()))
		r->rname[0] = '\0';
	if (rc == 0)
		xasprintf(cause, "unexpected answer from '%s'", r->t.host);
	return -1;
}

/* Copy the folder DIR holding MAIN and our acl.json into R->rdir. */
int
collect_remote_upload(struct collect_run *r, const char *dir, const char *base,
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
int
collect_remote_exec(struct collect_run *r, const char *base)
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
 * Remove what a prepare that failed may have made: its directory in the
 * board's ${TMPDIR:-/tmp}, or its output directory in --remote-dir while
 * it is still empty. Nothing runs in either yet.
 */
static void
collect_remote_unprepare(struct collect_run *r)
{
	char	*path, *q, *cmd, *out = NULL, *cause = NULL;

	if (r->rname[0] == '\0')
		return;
	collect_ssh_cleaning();
	if (r->remote_dir != NULL) {
		path = util_path_join(r->remote_dir, r->rname);
		q = collect_ssh_quote(path);
		xasprintf(&cmd, "rmdir -- %s 2>/dev/null || ! [ -e %s ]", q,
		    q);
	} else {
		xasprintf(&path, "%s in the temporary folder", r->rname);
		q = NULL;
		xasprintf(&cmd, "rm -rf -- \"${TMPDIR:-/tmp}/%s\"", r->rname);
	}
	if (collect_ssh_command(&r->t, cmd, &out, &cause) != 0)
		log_warnx("cannot clean up '%s' on '%s'", path, r->t.host);
	r->rname[0] = '\0';
	free(cause);
	free(out);
	free(cmd);
	free(q);
	free(path);
}

/*
 * Stop what is left of the application when KILL, and remove the remote
 * working directory when it is ours. Failures are only reported.
 */
void
collect_remote_cleanup(struct collect_run *r, bool kill)
{
	struct strbuf	 b;
	char		*q, *pid, *out = NULL, *cause = NULL;

	if (r->rdir == NULL) {
		collect_remote_unprepare(r);
		return;
	}
	/* Only a second interrupt stops the clean-up. */
	collect_ssh_cleaning();
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
char *
collect_remote_find(struct collect_run *r, char **cause)
{
	char	*q, *cmd, *out;
	int	 rc;

	q = collect_ssh_quote(r->rout);
	xasprintf(&cmd, "cd -- %s && for d in JOB* PROF_*; do "
	    "if [ -d \"$d\" ]; then printf '%%s\\n' \"$d\"; fi; done", q);
	out = collect_remote_run(r, cmd, "list the output", &rc, cause);
	free(cmd);
	free(q);
	return out;
}

/*
 * Copy the directories NAMES of the remote RPARENT to --output, through
 * a temporary directory there, then rename each into place. An existing
 * directory is never overwritten. Return 0, or -1 with *cause.
 */
int
collect_remote_fetch(struct collect_run *r, const char *rparent,
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
	if (rc == 0 && collect_ssh_interrupted()) {
		xasprintf(cause, "interrupted");
		rc = -1;
	}
	for (i = 0; rc == 0 && i < names->n; i++) {
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
			collect_ssh_argv_add(&r->got, to);
		free(from);
		free(to);
	}
	collect_remote_rmtree(tmp);
	free(tmp);
	return rc;
}

/* Split the lines of TEXT into NAMES, keeping only plain names. */
void
collect_remote_names(const char *text, struct collect_argv *names)
{
	const char	*s, *nl;
	char		*name;

	for (s = text; *s != '\0'; s = *nl != '\0' ? nl + 1 : nl) {
		nl = s + strcspn(s, "\n");
		name = xstrndup(s, (size_t)(nl - s));
		if (*name != '\0' && strchr(name, '/') == NULL &&
		    strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
			collect_ssh_argv_add(names, name);
		free(name);
	}
}
