/*
 * The import of a cluster as a set of stores: every profile under PATH
 * into a store of its own, where `npuprof-tui import PROFILE` would put
 * it, JOBS at a time in child processes, the stores still current kept as
 * they are; then PATH's own store made of theirs (store-set.c).
 */
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "npuprof.h"
#include "store.h"
#include "importer.h"
#include "cli.h"

#define CLI_SET_CAUSE_MAX	4000

enum cli_set_state {
	SET_CURRENT,		/* the store was current */
	SET_TODO,		/* to build */
	SET_BUILT,
	SET_FAILED
};

struct cli_set_child {
	pid_t		 pid;		/* 0: a free slot */
	int		 fd;		/* its cause, on failure */
	size_t		 unit;
};

/* The children running, for cli_set_kill() in a signal handler. */
static volatile pid_t	*cli_set_pids;
static volatile int	 cli_set_npids;

/*
 * Stop the imports running (from a signal handler: only kill()); each
 * removes its temporary store as it goes.
 */
void
cli_set_kill(void)
{
	int	 i;

	for (i = 0; i < cli_set_npids; i++) {
		if (cli_set_pids != NULL && cli_set_pids[i] > 0)
			kill(cli_set_pids[i], SIGTERM);
	}
}

/* Say how far the stores are, on a terminal, at most ten times a second. */
static void
cli_set_progress(const struct cli_set *cs, size_t done, size_t todo,
    size_t failed, bool last)
{
	static struct timespec	 prev;
	struct timespec		 now;
	char			 bar[21];
	size_t			 i;

	if (cs->quiet || !isatty(STDERR_FILENO) || todo == 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last && done < todo && (now.tv_sec - prev.tv_sec) * 1000000000 +
	    (now.tv_nsec - prev.tv_nsec) < 100000000)
		return;
	prev = now;
	if (last) {
		fputs("\r\033[K", stderr);
		return;
	}
	for (i = 0; i < 20; i++)
		bar[i] = i < done * 20 / todo ? '#' : '.';
	bar[20] = '\0';
	fprintf(stderr, "\r\033[K[%s] %zu/%zu profiles imported, %d at a "
	    "time%s", bar, done, todo, cs->jobs, failed > 0 ? ", some "
	    "failed" : "");
}

/* Start the import of unit I in a child on slot K. */
static int
cli_set_spawn(const struct cli_set *cs, struct cli_set_child *kids0,
    struct cli_set_child *k, size_t i, char **dbs)
{
	char	*cause = NULL;
	int	 p[2], rc;
	size_t	 len;

	if (pipe(p) != 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	if ((k->pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (k->pid == 0) {
		/* Its signal handler must not stop the others. */
		cli_set_npids = 0;
#ifdef __linux__
		/* Die with the parent, however it goes. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
		close(p[0]);
		rc = cs->import(cs->arg, cs->units[i], dbs[i], &cause);
		if (rc != 0 && cause != NULL) {
			len = strlen(cause);
			if (write(p[1], cause, len < CLI_SET_CAUSE_MAX ? len :
			    CLI_SET_CAUSE_MAX) < 0)
				_exit(1);
		}
		_exit(rc == 0 ? 0 : 1);
	}
	close(p[1]);
	k->fd = p[0];
	k->unit = i;
	cli_set_pids[k - kids0] = k->pid;
	return 0;
}

/*
 * Wait for one of our children (never another child of the process, such
 * as collect's askpass helper), read why it failed; return its slot.
 */
static int
cli_set_reap(struct cli_set_child *kids, int jobs, enum cli_set_state *st,
    char **why)
{
	const struct timespec	 nap = { 0, 5000000 };
	char			 buf[CLI_SET_CAUSE_MAX + 1];
	ssize_t			 n;
	pid_t			 pid;
	int			 status, j;

	for (;;) {
		for (j = 0; j < jobs; j++) {
			if (kids[j].pid == 0)
				continue;
			pid = waitpid(kids[j].pid, &status, WNOHANG);
			if (pid == kids[j].pid || (pid == -1 && errno !=
			    EINTR))
				break;
		}
		if (j < jobs)
			break;
		nanosleep(&nap, NULL);
	}
	n = read(kids[j].fd, buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(kids[j].fd);
	if (pid == kids[j].pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0)
		st[kids[j].unit] = SET_BUILT;
	else {
		st[kids[j].unit] = SET_FAILED;
		if (n > 0)
			why[kids[j].unit] = xstrdup(buf);
		else if (pid == kids[j].pid && WIFSIGNALED(status))
			xasprintf(&why[kids[j].unit], "its import ended on "
			    "signal %d", WTERMSIG(status));
		else
			why[kids[j].unit] = xstrdup("its import failed");
	}
	kids[j].pid = 0;
	cli_set_pids[j] = 0;
	return j;
}

/* Build the stores of the units in ST that are SET_TODO, JOBS at a time. */
static void
cli_set_build(const struct cli_set *cs, char **dbs, enum cli_set_state *st,
    char **why)
{
	struct cli_set_child	*kids;
	size_t			 i, next = 0, todo = 0, done = 0, failed = 0;
	int			 running = 0, j;

	for (i = 0; i < cs->n; i++)
		todo += st[i] == SET_TODO;
	if (todo == 0)
		return;
	if (!cs->quiet)
		log_infox("importing %zu of %zu profiles into stores of their"
		    " own, %d at a time", todo, cs->n, cs->jobs);
	kids = xcalloc((size_t)cs->jobs, sizeof *kids);
	cli_set_pids = xcalloc((size_t)cs->jobs, sizeof *cli_set_pids);
	cli_set_npids = cs->jobs;
	for (;;) {
		for (j = 0; j < cs->jobs && next < cs->n; j++) {
			if (kids[j].pid != 0)
				continue;
			while (next < cs->n && st[next] != SET_TODO)
				next++;
			if (next == cs->n)
				break;
			if (cli_set_spawn(cs, kids, &kids[j], next, dbs) != 0) {
				st[next] = SET_FAILED;
				xasprintf(&why[next], "cannot start its import:"
				    " %s", strerror(errno));
				failed++;
				done++;
			} else
				running++;
			next++;
		}
		if (running == 0 && next == cs->n)
			break;
		if (running == 0)
			continue;
		j = cli_set_reap(kids, cs->jobs, st, why);
		running--;
		done++;
		failed += st[kids[j].unit] == SET_FAILED;
		cli_set_progress(cs, done, todo, failed, false);
	}
	cli_set_progress(cs, done, todo, failed, true);
	cli_set_npids = 0;
	free((void *)cli_set_pids);
	cli_set_pids = NULL;
	free(kids);
}

/*
 * Import the units of CS as a set: each into its store (built again with
 * CS->force, else only when not current), then CS->db from them. A unit
 * that fails is a warning in the set's store as long as one is imported.
 * Return 0, or -1 with *cause set.
 */
int
cli_set_import(const struct cli_set *cs, char **cause)
{
	enum cli_set_state	*st;
	struct store		*s;
	char			**dbs, **why, *w = NULL;
	size_t			 i, ok = 0, reused = 0;
	char			 buf[32];
	int			 rc = -1;

	dbs = xcalloc(cs->n, sizeof *dbs);
	why = xcalloc(cs->n, sizeof *why);
	st = xcalloc(cs->n, sizeof *st);
	for (i = 0; i < cs->n; i++) {
		dbs[i] = store_default_path(cs->units[i]);
		st[i] = !cs->force && store_manifest_current(dbs[i],
		    cs->units[i], &w) == 1 ? SET_CURRENT : SET_TODO;
		reused += st[i] == SET_CURRENT;
		free(w);
		w = NULL;
	}
	cli_set_build(cs, dbs, st, why);
	if ((s = store_load_begin(cs->db, cs->root, cause)) == NULL)
		goto out;
	importer_warn_unread(s, cs->unread, cs->unerr, cs->nunread);
	for (i = 0; i < cs->n; i++) {
		/* Only a store current or built now: never a stale one. */
		if (st[i] != SET_CURRENT && st[i] != SET_BUILT) {
			store_load_warning(s, cs->units[i], -1, "not imported:"
			    " %s", why[i] != NULL ? why[i] : "its import did "
			    "not run");
			continue;
		}
		if (store_set_add(s, dbs[i], cs->units[i], &w) != 0) {
			store_load_warning(s, cs->units[i], -1, "%s", w);
			free(w);
			w = NULL;
			continue;
		}
		ok++;
	}
	if (ok == 0) {
		xasprintf(cause, "no profile under '%s' could be imported",
		    cs->root);
		store_load_abort(s);
		goto out;
	}
	store_load_meta(s, "stores", "rank");
	snprintf(buf, sizeof buf, "%zu", ok);
	store_load_meta(s, "stores.count", buf);
	snprintf(buf, sizeof buf, "%zu", reused);
	store_load_meta(s, "stores.reused", buf);
	if (!cs->quiet && reused > 0)
		log_infox("%zu of %zu profiles' stores were current and are "
		    "kept", reused, cs->n);
	rc = store_load_commit(s, cause);
out:
	for (i = 0; i < cs->n; i++) {
		free(dbs[i]);
		free(why[i]);
	}
	free(dbs);
	free(why);
	free(st);
	return rc;
}
