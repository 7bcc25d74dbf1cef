/*
 * What main.c shares with the other command-line files (cli-*.c), which
 * like it may see every layer.
 */
#ifndef CLI_H
#define CLI_H

#include "npuprof.h"

/* cli-set.c: a cluster imported as a store per profile */
struct cli_set {
	const char	 *root;		/* the cluster's PATH */
	const char	 *db;		/* and its store */
	char		**units;	/* the profiles under it */
	size_t		  n;
	char		**unread;	/* what its walk could not read */
	const int	 *unerr;	/* and why (errno) */
	size_t		  nunread;
	int		  jobs;		/* imports at a time */
	bool		  force;	/* build every store again */
	bool		  quiet;
	/* Import one profile into a store; -1 with *cause set. */
	int		(*import)(void *, const char *, const char *, char **);
	void		 *arg;
};

int		 cli_set_import(const struct cli_set *, char **);
void		 cli_set_kill(void);

#endif /* CLI_H */
