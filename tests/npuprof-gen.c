/*
 * npuprof-gen: the generators as a command for tests and benchmarks.
 *
 *	npuprof-gen demo|job|svp DIR [-s SEED] [-n TASKS] [-S STREAMS]
 *	    [-t STEPS] [-r RANKS] [-a APIS] [-e EXPECT_DIR] [--stats] [--quirks]
 *	    [--binary]
 *
 * job writes a legacy JOB directory (--quirks: the flattened layout,
 * --binary: binary GE task records), svp
 * an SVP board's JOB with its exported summary/.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static int
usage(void)
{
	fprintf(stderr, "usage: npuprof-gen demo|job|svp DIR [-s seed] [-n tasks] "
	    "[-S streams] [-t steps] [-r ranks] [-a apis] [-e expect-dir] "
	    "[--stats] [--quirks] [--binary]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", no_argument, NULL, 'T' },
		{ "quirks", no_argument, NULL, 'Q' },
		{ "binary", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 }
	};
	struct gen_opts	 g;
	char		*cause = NULL;
	int		 ch, rc;

	if (argc < 3 || (strcmp(argv[1], "demo") != 0 &&
	    strcmp(argv[1], "job") != 0 && strcmp(argv[1], "svp") != 0))
		return usage();
	gen_opts_init(&g);
	optind = 3;
	while ((ch = getopt_long(argc, argv, "s:n:S:t:r:a:e:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 's':
			g.seed = strtoull(optarg, NULL, 10);
			break;
		case 'n':
			g.tasks = strtoll(optarg, NULL, 10);
			break;
		case 'S':
			g.streams = atoi(optarg);
			break;
		case 't':
			g.steps = atoi(optarg);
			break;
		case 'r':
			g.ranks = atoi(optarg);
			break;
		case 'a':
			g.apis = atoi(optarg);
			break;
		case 'e':
			g.expect = optarg;
			break;
		case 'T':
			g.flags |= GEN_STATS;
			break;
		case 'Q':
			g.flags |= GEN_QUIRKS;
			break;
		case 'B':
			g.flags |= GEN_BINARY;
			break;
		default:
			return usage();
		}
	}
	if (strcmp(argv[1], "job") == 0)
		rc = gen_job_write(argv[2], &g, &cause);
	else if (strcmp(argv[1], "svp") == 0)
		rc = gen_svp_write(argv[2], &g, &cause);
	else
		rc = gen_demo_write(argv[2], &g, &cause);
	if (rc != 0) {
		fprintf(stderr, "npuprof-gen: %s\n", cause);
		return 1;
	}
	return 0;
}
