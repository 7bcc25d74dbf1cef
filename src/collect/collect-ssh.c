/*
 * Running OpenSSH's ssh, and tar at both ends of it, for collect. Every
 * process is started from an argument vector with fork and execvp, never
 * through a local shell, so nothing the board sends is ever evaluated
 * here; the one string a shell sees is the remote command, whose every
 * variable part is quoted with collect_ssh_quote(). The user's ssh
 * configuration, agent, ProxyJump, ControlMaster and known_hosts apply
 * unchanged: we add only the options the command line asked for.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"

/* The most a captured remote command may print. */
#define COLLECT_SSH_MAX_OUTPUT	(1024 * 1024)

static volatile sig_atomic_t	collect_ssh_signal;	/* the last */
static volatile sig_atomic_t	collect_ssh_nsignals;	/* how many */
static sig_atomic_t		collect_ssh_handled;	/* of them */

/*
 * An ssh we started, and the signals already handled when it started:
 * any other one is passed on to it.
 */
struct collect_ssh_child {
	pid_t		 pid;
	sig_atomic_t	 seen;
	bool		 passed;
};

void
collect_ssh_argv_add(struct collect_argv *a, const char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void
collect_ssh_argv_free(struct collect_argv *a)
{
	size_t	 i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/*
 * S quoted for a POSIX shell: in single quotes, with each single quote
 * written as '\''. The caller frees the result.
 */
char *
collect_ssh_quote(const char *s)
{
	struct strbuf	 b;

	strbuf_init(&b);
	strbuf_addc(&b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_adds(&b, "'\\''");
		else
			strbuf_addc(&b, *s);
	}
	strbuf_addc(&b, '\'');
	return strbuf_detach(&b);
}

static void
collect_ssh_catch(int sig)
{
	collect_ssh_signal = sig;
	collect_ssh_nsignals++;
}

/*
 * Note SIGINT, SIGTERM and SIGHUP instead of dying, and let them interrupt
 * waits (no SA_RESTART), so the flow can stop the remote application and
 * clean up before it exits.
 */
void
collect_ssh_catch_signals(void)
{
	util_catch_signal(SIGINT, collect_ssh_catch);
	util_catch_signal(SIGTERM, collect_ssh_catch);
	util_catch_signal(SIGHUP, collect_ssh_catch);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * The interrupts so far are being handled (a clean-up starts): from now
 * on an ssh is stopped only by a new one, a second Ctrl-C.
 */
void
collect_ssh_cleaning(void)
{
	collect_ssh_handled = collect_ssh_nsignals;
}

/* The signal that interrupted us, or 0. */
int
collect_ssh_interrupted(void)
{
	return collect_ssh_signal;
}

/* The ssh command line that runs CMD on the target. */
static void
collect_ssh_argv(const struct collect_target *t, const char *cmd,
    struct collect_argv *a)
{
	size_t	 i;

	collect_ssh_argv_add(a, "ssh");
	collect_ssh_argv_add(a, "-T");
	if (t->config != NULL) {
		collect_ssh_argv_add(a, "-F");
		collect_ssh_argv_add(a, t->config);
	}
	for (i = 0; t->options != NULL && i < t->options->n; i++) {
		collect_ssh_argv_add(a, "-o");
		collect_ssh_argv_add(a, t->options->v[i]);
	}
	if (t->user != NULL) {
		collect_ssh_argv_add(a, "-l");
		collect_ssh_argv_add(a, t->user);
	}
	if (t->port != NULL) {
		collect_ssh_argv_add(a, "-p");
		collect_ssh_argv_add(a, t->port);
	}
	if (t->accept_new)
		collect_ssh_argv_add(a, "-oStrictHostKeyChecking=accept-new");
	else if (t->askpass != NULL) {
		/* Never let the helper see a yes/no host key question. */
		collect_ssh_argv_add(a, "-oStrictHostKeyChecking=yes");
	}
	if (t->askpass != NULL)
		collect_ssh_argv_add(a, "-oNumberOfPasswordPrompts=1");
	collect_ssh_argv_add(a, "--");
	collect_ssh_argv_add(a, t->host);
	collect_ssh_argv_add(a, cmd);
}

/*
 * Start ARGV as child C with IN and OUT (or ours when -1) as standard
 * input and output. With ASKPASS, ssh is told to ask our own binary for
 * the password, which fetches it from the socket ASKPASS: only the
 * socket's name is in the environment. Return 0, or -1 with *cause.
 */
static int
collect_ssh_spawn(struct collect_ssh_child *c, char **argv,
    const char *askpass, int in, int out, char **cause)
{
	sigset_t set, old;
	char	 self[PATH_MAX];
	ssize_t	 n;

	c->seen = collect_ssh_handled;
	c->passed = false;
	/*
	 * Until the child has the default actions back, our handlers would
	 * take a SIGTERM we pass on to it and lose it, and ssh would run
	 * on: so the signals wait, blocked, until then.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	if ((c->pid = fork()) == -1) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		xasprintf(cause, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (c->pid != 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGPIPE, SIG_DFL);
	if ((in != -1 && dup2(in, STDIN_FILENO) == -1) ||
	    (out != -1 && dup2(out, STDOUT_FILENO) == -1))
		_exit(127);
	unsetenv(COLLECT_ASKPASS_ENV);
	if (askpass != NULL) {
		n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			_exit(127);
		self[n] = '\0';
		setenv("SSH_ASKPASS", self, 1);
		setenv("SSH_ASKPASS_REQUIRE", "force", 1);
		setenv(COLLECT_ASKPASS_ENV, askpass, 1);
	}
	execvp(argv[0], argv);
	log_errx("cannot run '%s': %s", argv[0], strerror(errno));
	_exit(127);
}

/*
 * When an interrupt not yet handled came, pass SIGTERM on to C, once.
 * The count is looked at before every wait, not only when a wait is
 * interrupted: a signal that came just before a blocking call would
 * interrupt nothing.
 */
static void
collect_ssh_pass(struct collect_ssh_child *c)
{
	if (collect_ssh_nsignals != c->seen && !c->passed) {
		kill(c->pid, SIGTERM);
		c->passed = true;
	}
}

/*
 * Wait for C and return its exit status, or 128 plus the signal that
 * killed it. When we are interrupted meanwhile, pass SIGTERM on once.
 * The wait polls (every 50 ms), so that no interrupt goes unseen.
 */
static int
collect_ssh_wait(struct collect_ssh_child *c)
{
	struct timespec	 ts = { 0, 50 * 1000 * 1000 };
	pid_t		 r;
	int		 st;

	for (;;) {
		collect_ssh_pass(c);
		if ((r = waitpid(c->pid, &st, WNOHANG)) == c->pid)
			break;
		if (r == -1 && errno != EINTR)
			return 127;
		nanosleep(&ts, NULL);
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

/*
 * Read from FD, passing SIGTERM to C once if we are interrupted; the
 * read waits for data at most 100 ms at a time, to look at the count.
 */
static ssize_t
collect_ssh_read(int fd, char *buf, size_t size, struct collect_ssh_child *c)
{
	struct pollfd	 pfd;
	ssize_t		 n;

	for (;;) {
		collect_ssh_pass(c);
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if ((n = poll(&pfd, 1, 100)) == 0 || (n == -1 &&
		    errno == EINTR))
			continue;
		if ((n = read(fd, buf, size)) == -1 && errno == EINTR)
			continue;
		return n;
	}
}

static int
collect_ssh_devnull(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/*
 * Run CMD on the target and return the exit status of ssh (255 when ssh
 * itself failed), with what it printed in *OUT (caller frees). Return -1
 * with *cause when ssh could not even be started.
 */
int
collect_ssh_command(const struct collect_target *t, const char *cmd,
    char **out, char **cause)
{
	struct collect_argv	 a = { NULL, 0 };
	struct strbuf		 b;
	struct collect_ssh_child c;
	char			 buf[8192];
	int			 p[2], in, rc;
	ssize_t			 n;

	*out = NULL;
	if (pipe2(p, O_CLOEXEC) != 0) {
		xasprintf(cause, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	in = collect_ssh_devnull();
	collect_ssh_argv(t, cmd, &a);
	rc = collect_ssh_spawn(&c, a.v, t->askpass, in, p[1], cause);
	collect_ssh_argv_free(&a);
	close(p[1]);
	close(in);
	if (rc == -1) {
		close(p[0]);
		return -1;
	}
	strbuf_init(&b);
	while ((n = collect_ssh_read(p[0], buf, sizeof buf, &c)) > 0) {
		if (b.len < COLLECT_SSH_MAX_OUTPUT)
			strbuf_add(&b, buf, (size_t)n);
	}
	close(p[0]);
	if (b.s == NULL)
		strbuf_adds(&b, "");
	*out = strbuf_detach(&b);
	return collect_ssh_wait(&c);
}

/* Write the complete lines of B with PREFIX to stdout, keep the rest. */
static void
collect_ssh_lines(struct strbuf *b, const char *prefix, bool all)
{
	char	*nl, *s = b->s;
	size_t	 left = b->len;

	while (left > 0) {
		nl = memchr(s, '\n', left);
		if (nl == NULL && !all)
			break;
		fputs(prefix, stdout);
		fwrite(s, 1, nl != NULL ? (size_t)(nl - s) : left, stdout);
		fputc('\n', stdout);
		left -= nl != NULL ? (size_t)(nl - s) + 1 : left;
		s = nl != NULL ? nl + 1 : s;
	}
	memmove(b->s, s, left);
	b->len = left;
	fflush(stdout);
}

/*
 * Run CMD on the target with its output on our stdout, each line after
 * PREFIX. Return the exit status of ssh, which is the remote command's.
 */
int
collect_ssh_stream(const struct collect_target *t, const char *cmd,
    const char *prefix)
{
	struct collect_argv	 a = { NULL, 0 };
	struct strbuf		 b;
	struct collect_ssh_child c;
	char			 buf[8192], *cause = NULL;
	int			 p[2], in, rc;
	ssize_t			 n;

	if (pipe2(p, O_CLOEXEC) != 0)
		fatal("pipe2");
	in = collect_ssh_devnull();
	collect_ssh_argv(t, cmd, &a);
	rc = collect_ssh_spawn(&c, a.v, t->askpass, in, p[1], &cause);
	collect_ssh_argv_free(&a);
	close(p[1]);
	close(in);
	if (rc == -1) {
		log_warnx("%s", cause);
		free(cause);
		close(p[0]);
		return 255;
	}
	strbuf_init(&b);
	strbuf_adds(&b, "");
	while ((n = collect_ssh_read(p[0], buf, sizeof buf, &c)) > 0) {
		strbuf_add(&b, buf, (size_t)n);
		collect_ssh_lines(&b, prefix, false);
	}
	collect_ssh_lines(&b, prefix, true);
	strbuf_release(&b);
	close(p[0]);
	return collect_ssh_wait(&c);
}

/*
 * Run FROM with its standard output into TO's standard input, and wait
 * for both. Return 0 when both succeed, else -1 with *cause naming WHAT.
 */
static int
collect_ssh_pipeline(char **from, const char *from_askpass, char **to,
    const char *to_askpass, const char *what, char **cause)
{
	struct collect_ssh_child	 fc, tc;
	int				 p[2], in, rc, from_rc, to_rc;

	if (pipe2(p, O_CLOEXEC) != 0) {
		xasprintf(cause, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	in = collect_ssh_devnull();
	rc = collect_ssh_spawn(&fc, from, from_askpass, in, p[1], cause);
	close(in);
	close(p[1]);
	if (rc == -1) {
		close(p[0]);
		return -1;
	}
	rc = collect_ssh_spawn(&tc, to, to_askpass, p[0], -1, cause);
	close(p[0]);
	if (rc == -1) {
		kill(fc.pid, SIGTERM);
		collect_ssh_wait(&fc);
		return -1;
	}
	from_rc = collect_ssh_wait(&fc);
	to_rc = collect_ssh_wait(&tc);
	if (from_rc == 0 && to_rc == 0)
		return 0;
	xasprintf(cause, "%s failed (exit %d and %d)", what, from_rc, to_rc);
	return -1;
}

/*
 * Pack with `tar -cf - TAR_ARGS...` here and run REMOTE_CMD on the target
 * with the archive on its standard input. Return 0, or -1 with *cause.
 */
int
collect_ssh_upload(const struct collect_target *t, char **tar_args,
    const char *remote_cmd, char **cause)
{
	struct collect_argv	 tar = { NULL, 0 }, ssh = { NULL, 0 };
	int			 rc;

	collect_ssh_argv_add(&tar, "tar");
	collect_ssh_argv_add(&tar, "-cf");
	collect_ssh_argv_add(&tar, "-");
	for (; *tar_args != NULL; tar_args++)
		collect_ssh_argv_add(&tar, *tar_args);
	collect_ssh_argv(t, remote_cmd, &ssh);
	rc = collect_ssh_pipeline(tar.v, NULL, ssh.v, t->askpass, "upload",
	    cause);
	collect_ssh_argv_free(&tar);
	collect_ssh_argv_free(&ssh);
	return rc;
}

/*
 * Run REMOTE_CMD, which writes a tar archive, on the target and unpack
 * it into the existing directory DIR. Owners and modes from the board are
 * not kept, so the files get our umask. Return 0, or -1 with *cause.
 */
int
collect_ssh_download(const struct collect_target *t, const char *remote_cmd,
    const char *dir, char **cause)
{
	struct collect_argv	 tar = { NULL, 0 }, ssh = { NULL, 0 };
	int			 rc;

	collect_ssh_argv(t, remote_cmd, &ssh);
	collect_ssh_argv_add(&tar, "tar");
	collect_ssh_argv_add(&tar, "-C");
	collect_ssh_argv_add(&tar, dir);
	collect_ssh_argv_add(&tar, "--no-same-owner");
	collect_ssh_argv_add(&tar, "--no-same-permissions");
	collect_ssh_argv_add(&tar, "-xf");
	collect_ssh_argv_add(&tar, "-");
	rc = collect_ssh_pipeline(ssh.v, t->askpass, tar.v, NULL, "download",
	    cause);
	collect_ssh_argv_free(&tar);
	collect_ssh_argv_free(&ssh);
	return rc;
}
