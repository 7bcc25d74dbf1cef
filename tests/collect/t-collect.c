/*
 * The helpers of collect that need no board: shell quoting (checked by a
 * real shell), the acl.json rewrite, BOARD.ini parsing and the askpass
 * helper's refusal of anything but a password prompt.
 */
#include <sys/wait.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "tap.h"

/* What `sh -c "printf %s QUOTED"` prints, or NULL. */
static char *
t_shell_echo(const char *s)
{
	char	*q, *cmd, buf[4096];
	FILE	*f;
	size_t	 n;

	q = collect_ssh_quote(s);
	xasprintf(&cmd, "printf %%s %s", q);
	free(q);
	if ((f = popen(cmd, "r")) == NULL) {
		free(cmd);
		return NULL;
	}
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	pclose(f);
	free(cmd);
	return xstrdup(buf);
}

static void
t_quote(void)
{
	const char	*cases[] = { "plain", "it's", "''",
	    "$(touch x) `y` $HOME",
	    "a b\tc\nd", "-rf", "\\'\\", "*", "" };
	char		*got;
	size_t		 i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = t_shell_echo(cases[i]);
		ok(got != NULL && strcmp(got, cases[i]) == 0,
		    "quoting survives the shell: case %zu", i);
		free(got);
	}
}

static void
t_acl(void)
{
	struct collect_acl	 set = { .n = 0 };
	char			*out, *cause = NULL;

	set.keys[set.n] = "switch";
	set.values[set.n++] = "on";
	set.keys[set.n] = "output";
	set.values[set.n++] = "/tmp/o";
	out = collect_acl_rewrite("{\"a\": [1, 2.50, 1e3, true, null], "
	    "\"profiler\": {\"switch\": \"off\", \"x\": \"y\"}, "
	    "\"z\": {\"w\": \"\\u00e9\\\"\"}}", &set, &cause);
	ok(out != NULL, "rewrite an acl.json");
	ok(out != NULL && strstr(out, "2.50") != NULL &&
	    strstr(out, "1e3") != NULL, "numbers are kept as written");
	ok(out != NULL && strstr(out, "\"switch\": \"on\"") != NULL &&
	    strstr(out, "\"off\"") == NULL, "switch is replaced");
	ok(out != NULL && strstr(out, "\"x\": \"y\"") != NULL,
	    "other profiler keys are kept");
	ok(out != NULL && strstr(out, "\"output\": \"/tmp/o\"") != NULL,
	    "output is added");
	ok(out != NULL && strstr(out, "\"a\"") < strstr(out, "\"profiler\"") &&
	    strstr(out, "\"profiler\"") < strstr(out, "\"z\""),
	    "the order of keys is kept");
	free(out);

	out = collect_acl_rewrite("  \n", &set, &cause);
	ok(out != NULL && strstr(out, "\"profiler\"") != NULL,
	    "an empty acl.json gets a profiler section");
	free(out);
	out = collect_acl_rewrite("[1]", &set, &cause);
	ok(out == NULL && cause != NULL && strstr(cause, "object") != NULL,
	    "an array is refused");
	free(cause);
	cause = NULL;
	out = collect_acl_rewrite("{\"a\": ", &set, &cause);
	ok(out == NULL && cause != NULL && strstr(cause, "not JSON") != NULL,
	    "broken JSON is refused");
	free(cause);
}

static void
t_ini(void)
{
	struct collect_board	 b;
	char			 path[] = "/tmp/t-collect.XXXXXX";
	char			*cause = NULL;
	const char		*text = "# comment\n[other]\npwd = no\n"
	    "[ssh_config]\r\n ip = 10.0.0.2 \nusername=\"HwHiAiUser\"\n"
	    "; x\npwd = a = b\nport = 2222\n";
	int			 fd;

	if ((fd = mkstemp(path)) == -1 ||
	    write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fatal("mkstemp");
	close(fd);
	ok(collect_ini_read(path, &b, &cause) == 0, "read BOARD.ini");
	ok(b.ip != NULL && strcmp(b.ip, "10.0.0.2") == 0, "ip, trimmed");
	ok(b.username != NULL && strcmp(b.username, "HwHiAiUser") == 0,
	    "username, unquoted");
	ok(b.pwd != NULL && strcmp(b.pwd, "a = b") == 0,
	    "pwd from [ssh_config] only, up to the first =");
	ok(b.port != NULL && strcmp(b.port, "2222") == 0, "port");
	collect_ini_board_release(&b);

	if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1 ||
	    write(fd, "[ssh_config]\nsecret-line\n", 25) != 25)
		fatal("write");
	close(fd);
	ok(collect_ini_read(path, &b, &cause) != 0 && cause != NULL &&
	    strstr(cause, ":2:") != NULL && strstr(cause, "secret") == NULL,
	    "a bad line is refused by number, never quoted");
	free(cause);
	cause = NULL;
	if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1 ||
	    write(fd, "[ssh_config]\npwd=x\n", 19) != 19)
		fatal("write");
	close(fd);
	ok(collect_ini_read(path, &b, &cause) != 0 && cause != NULL &&
	    strstr(cause, "no ip") != NULL, "a missing ip is refused");
	free(cause);
	unlink(path);
}

/* Run the askpass helper with PROMPT; return its exit status and output. */
static int
t_askpass(const char *prompt, char *out, size_t size)
{
	char	*argv[] = { "npuprof-tui", (char *)prompt, NULL };
	int	 p[2], st;
	size_t	 len;
	ssize_t	 n;
	pid_t	 pid;

	if (pipe(p) != 0 || (pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		_exit(collect_askpass_main(2, argv));
	}
	close(p[1]);
	len = 0;
	while (len < size - 1 && (n = read(p[0], out + len,
	    size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
t_helper(void)
{
	struct collect_askpass	*ap;
	char			*cause = NULL, out[256];
	int			 rc;

	ap = collect_askpass_start("s3cret", &cause);
	ok(ap != NULL, "start the password server");
	if (ap == NULL)
		return;
	setenv(COLLECT_ASKPASS_ENV, collect_askpass_socket(ap), 1);
	ok(collect_askpass_wanted(), "the helper is wanted");
	rc = t_askpass("root@board's password: ", out, sizeof out);
	ok(rc == 0 && strcmp(out, "s3cret\n") == 0,
	    "a password prompt is answered (exit %d)", rc);
	ok(t_askpass("Are you sure you want to continue connecting "
	    "(yes/no/[fingerprint])? ", out, sizeof out) == 1 &&
	    *out == '\0', "a host key question is refused");
	ok(t_askpass("Enter passphrase for key '/k': ", out,
	    sizeof out) == 1 && *out == '\0', "a passphrase is refused");
	collect_askpass_stop(ap);
	ok(t_askpass("Password: ", out, sizeof out) == 1 && *out == '\0',
	    "nothing is answered once the server stopped");
	unsetenv(COLLECT_ASKPASS_ENV);
}

int
main(void)
{
	t_quote();
	t_acl();
	t_ini();
	t_helper();
	return done_testing();
}
