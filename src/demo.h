/*
 * The demo profile that npuprof-tui demo writes and opens, and that the
 * tests use as a PyTorch-style input with known statistics (demo.c).
 */
#ifndef DEMO_H
#define DEMO_H

#include "npuprof.h"

enum demo_flags {
	DEMO_STATS = 1 << 0,	/* write the tool's own statistic files */
	DEMO_QUIRKS = 1 << 1	/* CRLF, BOM, quoted shapes, N/A rows */
};

struct demo_opts {
	uint64_t	 seed;
	int64_t		 tasks;
	int		 streams;
	int		 steps;
	int		 ranks;
	int		 apis;
	int		 flags;		/* enum demo_flags */
	const char	*expect;	/* directory for expected tables */
};

/* demo.c */
void		 demo_opts_init(struct demo_opts *);
int		 demo_write(const char *, const struct demo_opts *, char **);

#endif /* DEMO_H */
