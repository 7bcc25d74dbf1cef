/*
 * npuprof-gen: the generators as a command for tests and benchmarks.
 *
 *	npuprof-gen demo DIR [-s SEED] [-n TASKS] [-S STREAMS] [-t STEPS]
 *	    [-r RANKS] [-a APIS] [-e EXPECT_DIR] [--stats] [--quirks]
 *	npuprof-gen prof DIR [-s SEED] [-n OPS] [-S STREAMS] [-T THREADS]
 *	    [-d DEVICES] [-a APIS] [-c 910B|910A|310P] [-m HOST_MHZ]
 *	    [-H HOST_SLICE] [-D DEV_SLICE] [-k HEAD_SKIP] [-E EVENT_PCT]
 *	    [-P STATIC_PCT] [-M MODEL_PCT] [-w] [-x] [-e EXPECT_DIR]
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
	    "[--stats] [--quirks] [--binary]\n"
	    "       npuprof-gen prof DIR [-s seed] [-n ops] [-S streams] "
	    "[-T threads] [-d devices] [-a apis] [-c chip] [-m host-mhz] "
	    "[-H host-slice] [-D dev-slice] [-k head-skip] [-E event-pct] "
	    "[-P static-pct] [-M model-pct] [-w] [-x] [-e expect-dir]\n");
	return 2;
}

/* The prof command: a raw PROF_* collection and its expected tables. */
static int
main_prof(int argc, char **argv)
{
	struct gen_prof_opts	 o;
	char			*cause = NULL;
	int			 ch;

	gen_prof_opts_init(&o);
	optind = 3;
	while ((ch = getopt(argc, argv, "s:n:S:T:d:a:c:m:H:D:k:E:P:M:wxe:")) !=
	    -1) {
		switch (ch) {
		case 's':
			o.seed = strtoull(optarg, NULL, 10);
			break;
		case 'n':
			o.ops = strtoll(optarg, NULL, 10);
			break;
		case 'S':
			o.streams = atoi(optarg);
			break;
		case 'T':
			o.threads = atoi(optarg);
			break;
		case 'd':
			o.devices = atoi(optarg);
			break;
		case 'a':
			o.apis = atoi(optarg);
			break;
		case 'c':
			if (strcmp(optarg, "910B") == 0)
				o.chip = GEN_PROF_910B;
			else if (strcmp(optarg, "910A") == 0)
				o.chip = GEN_PROF_910A;
			else if (strcmp(optarg, "310P") == 0)
				o.chip = GEN_PROF_310P;
			else
				return usage();
			break;
		case 'm':
			o.host_mhz = atoi(optarg);
			break;
		case 'H':
			o.host_slice = strtoll(optarg, NULL, 10);
			break;
		case 'D':
			o.dev_slice = strtoll(optarg, NULL, 10);
			break;
		case 'k':
			o.head_skip = atoi(optarg);
			break;
		case 'E':
			o.event_pct = atoi(optarg);
			break;
		case 'P':
			o.static_pct = atoi(optarg);
			break;
		case 'M':
			o.model_pct = atoi(optarg);
			break;
		case 'w':
			o.wrap = true;
			break;
		case 'x':
			o.missing_dict = true;
			break;
		case 'e':
			o.expect = optarg;
			break;
		default:
			return usage();
		}
	}
	if (o.host_mhz != 0 && o.host_mhz != 100)
		return usage();
	if (gen_prof_write(argv[2], &o, &cause) != 0) {
		fprintf(stderr, "npuprof-gen: %s\n", cause);
		return 1;
	}
	return 0;
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

	if (argc >= 3 && strcmp(argv[1], "prof") == 0)
		return main_prof(argc, argv);
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
