/*
 * The board password's one path: from BOARD.ini into our memory, to a
 * small server process listening on a socket in a private (0700)
 * directory, to our own binary run by ssh as its SSH_ASKPASS helper, to
 * ssh through the helper's standard output. It never appears in an
 * argument vector or an environment: the helper finds the server by the
 * socket's name in NPUPROF_ASKPASS_SOCKET. A pipe would be simpler, but
 * ssh closes every descriptor above stderr when it starts. The server
 * answers only processes of our own user and exits when we do.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"

struct collect_askpass {
	char	*dir;
	char	*path;
	pid_t	 pid;
	int	 alive;		/* the server exits when this closes */
};

/* Serve PASSWORD on LISTEN_FD until ALIVE_FD closes; never returns. */
static __dead void
collect_askpass_serve(int listen_fd, int alive_fd, const char *password,
    const char *path, const char *dir)
{
	struct pollfd	 pfd[2];
	struct ucred	 cred;
	socklen_t	 len;
	int		 fd;

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	pfd[0].fd = listen_fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = alive_fd;
	pfd[1].events = POLLIN;
	for (;;) {
		if (poll(pfd, 2, -1) == -1 && errno != EINTR)
			break;
		if (pfd[1].revents != 0)
			break;
		if ((pfd[0].revents & POLLIN) == 0)
			continue;
		if ((fd = accept(listen_fd, NULL, NULL)) == -1)
			continue;
		len = sizeof cred;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
		    cred.uid == getuid()) {
			/* A helper that went away needs nothing more. */
			(void)!write(fd, password, strlen(password));
		}
		close(fd);
	}
	unlink(path);
	rmdir(dir);
	_exit(0);
}

/*
 * Start the server for PASSWORD (borrowed; the server keeps a copy in its
 * own memory only). Return it, or NULL with *cause.
 */
struct collect_askpass *
collect_askpass_start(const char *password, char **cause)
{
	struct collect_askpass	*ap;
	struct sockaddr_un	 sun;
	const char		*tmp = getenv("TMPDIR");
	int			 fd, alive[2];

	ap = xcalloc(1, sizeof *ap);
	xasprintf(&ap->dir, "%s/npuprof-askpass.XXXXXX",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp");
	if (mkdtemp(ap->dir) == NULL) {
		xasprintf(cause, "cannot create '%s': %s", ap->dir,
		    strerror(errno));
		free(ap->dir);
		free(ap);
		return NULL;
	}
	ap->path = util_path_join(ap->dir, "s");
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(ap->path) >= sizeof sun.sun_path) {
		xasprintf(cause, "socket path '%s' is too long", ap->path);
		goto fail;
	}
	strcpy(sun.sun_path, ap->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1 || bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(fd, 4) != 0 || pipe2(alive, O_CLOEXEC) != 0) {
		xasprintf(cause, "cannot listen on '%s': %s", ap->path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		goto fail;
	}
	fflush(NULL);
	if ((ap->pid = fork()) == -1)
		fatal("fork");
	if (ap->pid == 0) {
		close(alive[1]);
		collect_askpass_serve(fd, alive[0], password, ap->path,
		    ap->dir);
	}
	close(fd);
	close(alive[0]);
	ap->alive = alive[1];
	return ap;

fail:
	unlink(ap->path);
	rmdir(ap->dir);
	free(ap->path);
	free(ap->dir);
	free(ap);
	return NULL;
}

/* The socket's path, for the helper's environment; borrowed from AP. */
const char *
collect_askpass_socket(struct collect_askpass *ap)
{
	return ap->path;
}

/* Stop the server and remove its socket and directory. */
void
collect_askpass_stop(struct collect_askpass *ap)
{
	if (ap == NULL)
		return;
	close(ap->alive);
	kill(ap->pid, SIGTERM);
	while (waitpid(ap->pid, NULL, 0) == -1 && errno == EINTR)
		;
	unlink(ap->path);
	rmdir(ap->dir);
	free(ap->path);
	free(ap->dir);
	free(ap);
}

/* Were we started by ssh as the askpass helper? */
bool
collect_askpass_wanted(void)
{
	return getenv(COLLECT_ASKPASS_ENV) != NULL;
}

/*
 * The helper: ssh runs us with its prompt as the one argument and reads
 * the answer from our stdout. Only a password prompt is answered; a host
 * key question or a key passphrase gets a refusal, so the password can
 * never become the answer to something else.
 */
int
collect_askpass_main(int argc, char **argv)
{
	struct sockaddr_un	 sun;
	const char		*path = getenv(COLLECT_ASKPASS_ENV);
	char			 buf[1024];
	size_t			 len = 0;
	ssize_t			 n;
	int			 fd;

	if (argc != 2 || (!util_has_suffix(argv[1], "assword: ") &&
	    !util_has_suffix(argv[1], "assword:")))
		return 1;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path)
		return 1;
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0)
		return 1;
	while (len < sizeof buf - 1 && (n = read(fd, buf + len,
	    sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len == 0 || len >= sizeof buf - 1)
		return 1;
	buf[len++] = '\n';
	n = write(STDOUT_FILENO, buf, len);
	explicit_bzero(buf, sizeof buf);
	return n == (ssize_t)len ? 0 : 1;
}
