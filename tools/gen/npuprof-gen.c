/*
 * npuprof-gen: the generators as a command for tests and benchmarks.
 *
 *	npuprof-gen demo|job|svp|legacy-timeline DIR [-s SEED] [-n N]
 *	    [-S STREAMS] [-t STEPS] [-r RANKS] [-a APIS] [-e EXPECT_DIR]
 *	    [--stats] [--quirks] [--binary] [--pmu] [--anchor]
 *	npuprof-gen prof DIR [-s SEED] [-n OPS] [-S STREAMS] [-T THREADS]
 *	    [-d DEVICES] [-a APIS] [-c 910B|910A|310P|950] [-m HOST_MHZ]
 *	    [-H HOST_SLICE] [-D DEV_SLICE] [-k HEAD_SKIP] [-E EVENT_PCT]
 *	    [-P STATIC_PCT] [-M MODEL_PCT] [-t STEPS] [-u MARKERS] [-w]
 *	    [-x] [-p] [-A] [-F] [-g] [-G] [-2] [-C] [-L] [-N] [-Y] [-Z]
 *	    [-O] [-K] [-V 2.3|2.3rc1|2.3rc2|2.4|2.5] [-r RANK/RANKS]
 *	    [-e EXPECT_DIR]
 *	npuprof-gen spans DB ROOT [-n OPS]
 *
 * job writes a legacy JOB directory (--quirks: the flattened layout,
 * --binary: binary GE task records, --pmu: aicore.data PMU records,
 * --anchor: dev_start.log, host_start.log and start_info that make its
 * times epoch times, with the ACL calls inside the iterations), svp
 * an SVP board's JOB with its exported summary/ and timeline/,
 * legacy-timeline the device_N/ directories of a CANN 6.x export with
 * their timeline/ JSON (-r devices, -t iterations, -n tasks in all).
 *
 * spans writes a store for ROOT straight through the load interface:
 * host API spans (acl containing node containing runtime, plus python
 * spans) on two threads and the device tasks they launch, linked by
 * connection id or by the span's row id, with some tasks left unlinked,
 * so the timeline export's spans and flows are tested against links known
 * exactly. It prints what it loaded: "tasks N spans M flows K".
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "store.h"

static int
npuprof_gen_usage(void)
{
	fprintf(stderr, "usage: npuprof-gen demo|job|svp|legacy-timeline DIR "
	    "[-s seed] [-n tasks] "
	    "[-S streams] [-t steps] [-r ranks] [-a apis] [-e expect-dir] "
	    "[--stats] [--quirks] [--binary] [--pmu] [--anchor]\n"
	    "       npuprof-gen prof DIR [-s seed] [-n ops] [-S streams] "
	    "[-T threads] [-d devices] [-a apis] [-c chip] [-m host-mhz] "
	    "[-H host-slice] [-D dev-slice] [-k head-skip] [-E event-pct] "
	    "[-P static-pct] [-M model-pct] [-t steps] [-u markers] [-w] "
	    "[-x] [-p] [-A] [-F] [-g] [-G] [-2] [-C] [-L] [-N] [-Y] [-Z] "
	    "[-O] [-K] [-V 2.3|2.3rc1|2.3rc2|2.4|2.5] [-r rank/ranks] "
	    "[-e expect-dir]\n"
	    "       npuprof-gen spans DB ROOT [-n ops]\n");
	return 2;
}

/* npuprof_gen_span() inside the span PARENT (a row id). */
static void
npuprof_gen_span_in(struct store *s, int64_t tid, const char *level,
    const char *name, int64_t start, int64_t end, int64_t conn,
    int64_t depth, int64_t parent, int64_t *id)
{
	struct store_api	 a;

	store_load_api_init(&a, tid, start, end, level, name);
	a.rank = 0;
	a.pid = 4242;
	a.conn = conn;
	a.depth = depth;
	a.parent = parent;
	a.args = strcmp(level, "acl") == 0 ? "{\"Mode\":\"ACL_NN\"}" : NULL;
	*id = store_load_api(s, &a);
}

static void
npuprof_gen_span(struct store *s, int64_t tid, const char *level,
    const char *name,
    int64_t start, int64_t end, int64_t conn, int64_t depth, int64_t *id)
{
	npuprof_gen_span_in(s, tid, level, name, start, end, conn, depth, NP_NA,
	    id);
}

/* Write the spans store DB for ROOT with OPS launched operators. */
static int
npuprof_gen_spans(const char *db, const char *root, int64_t ops)
{
	static const char *const names[] = { "MatMulV2", "Add", "Cast" };
	struct store		*s;
	struct store_task	 t;
	char			*cause = NULL, name[64];
	int64_t			 i, t0 = 1780000000000000000LL, id, spans = 0;
	int64_t			 flows = 0, tasks = 0, tid, at;

	if ((s = store_load_begin(db, root, &cause)) == NULL)
		goto fail;
	for (i = 0; i < ops; i++) {
		tid = 100 + i % 2;
		at = t0 + i * 10000;
		snprintf(name, sizeof name, "aclnn%s", names[i % 3]);
		npuprof_gen_span(s, tid, "acl", name, at, at + 8000, 2 * i + 1,
		    0, &id);
		npuprof_gen_span_in(s, tid, "node", "launch", at + 1000, at
		    + 6000,
		    i % 3 == 1 ? NP_NA : 2 * i + 2, 1, id, &id);
		npuprof_gen_span_in(s, tid, "runtime", "KernelLaunch", at
		    + 2000,
		    at + 5000, NP_NA, 2, id, &id);
		spans += 3;
		memset(&t, 0, sizeof t);
		t.device = 0;
		t.rank = 0;
		t.model_id = 4294967295LL;
		t.stream = 40 + i % 3;
		t.task = i;
		t.batch = 0;
		t.context = NP_NA;
		t.start_ns = at + 7000;
		t.dur_ns = 1000 + 20 * (i % 50);
		t.wait_ns = NP_NA;	/* computed by export */
		t.block_num = t.mix_block_num = t.step = NP_NA;
		/* Link by connection id, by span row id, or not at all. */
		t.conn = i % 3 == 0 ? 2 * i + 2 : NP_NA;
		t.api = i % 3 == 1 ? id - 1 : NP_NA;
		flows += i % 3 != 2;
		t.name = names[i % 3];
		t.op_type = names[i % 3];
		t.task_type = "AI_CORE";
		store_load_task(s, &t);
		tasks++;
	}
	npuprof_gen_span(s, 7, "python", "torch/nn/modules/module.py: forward",
	    t0,
	    t0 + ops * 10000, NP_NA, 0, &id);
	spans++;
	if (store_load_commit(s, &cause) != 0)
		goto fail;
	printf("tasks %lld spans %lld flows %lld\n", (long long)tasks,
	    (long long)spans, (long long)flows);
	return 0;
fail:
	fprintf(stderr, "npuprof-gen: %s\n", cause);
	return 1;
}

/* The prof command: a raw PROF_* collection and its expected tables. */
static int
npuprof_gen_prof(int argc, char **argv)
{
	struct gen_prof_opts	 o;
	char			*cause = NULL;
	int			 ch;

	gen_prof_opts_init(&o);
	optind = 3;
	while ((ch = getopt(argc, argv,
	    "s:n:S:T:d:a:c:m:H:D:k:E:P:M:t:u:r:V:wxpAFgG2CLNYZOKe:")) != -1) {
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
			else if (strcmp(optarg, "950") == 0)
				o.chip = GEN_PROF_950;
			else
				return npuprof_gen_usage();
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
		case 't':
			o.steps = atoi(optarg);
			break;
		case 'u':
			o.markers = atoi(optarg);
			break;
		case 'w':
			o.wrap = true;
			break;
		case 'x':
			o.missing_dict = true;
			break;
		case 'p':
			o.pmu = true;
			break;
		case 'A':
			o.arith = true;
			break;
		case 'F':
			o.freq = true;
			break;
		case 'g':
			o.extras = true;
			break;
		case 'G':
			o.extras = o.copies = true;
			break;
		case '2':
			o.track_v2 = true;
			break;
		case 'C':
			o.aicpu = true;
			break;
		case 'L':
			o.hccl = true;
			break;
		case 'N':
			o.nest = true;
			break;
		case 'Y':
			o.torch = true;
			break;
		case 'Z':
			o.mindspore = true;
			break;
		case 'O':
			o.mindspore = o.ms25 = true;
			break;
		case 'K':
			o.modmem = true;
			break;
		case 'V':
			/*
			 * op_range_<rank> as MindSpore 2.3 to 2.5 writes it,
			 * or 2.3.0rc1 (no clock pair) and rc2.
			 */
			if (strcmp(optarg, "2.3") != 0 &&
			    strcmp(optarg, "2.3rc1") != 0 &&
			    strcmp(optarg, "2.3rc2") != 0 &&
			    strcmp(optarg, "2.4") != 0 &&
			    strcmp(optarg, "2.5") != 0)
				return npuprof_gen_usage();
			o.mindspore = o.ms25 = true;
			o.ms24 = strcmp(optarg, "2.4") == 0;
			o.ms23 = strncmp(optarg, "2.3", 3) == 0;
			o.ms23rc = strncmp(optarg, "2.3rc", 5) == 0 ?
			    optarg[5] - '0' : 0;
			break;
		case 'r':
			/* R/N: rank R of N. */
			if (sscanf(optarg, "%d/%d", &o.rank, &o.ranks) != 2 ||
			    o.rank < 0 || o.ranks < 1 || o.rank >= o.ranks)
				return npuprof_gen_usage();
			break;
		case 'e':
			o.expect = optarg;
			break;
		default:
			return npuprof_gen_usage();
		}
	}
	if (o.host_mhz != 0 && o.host_mhz != 100)
		return npuprof_gen_usage();
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
		{ "pmu", no_argument, NULL, 'U' },
		{ "anchor", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	struct demo_opts	 g;
	char		*cause = NULL;
	int		 ch, rc;

	/* A DIR that looks like an option ("--help") is a slip, not a DIR. */
	if (argc >= 3 && argv[2][0] == '-')
		return npuprof_gen_usage();
	if (argc >= 4 && strcmp(argv[1], "spans") == 0)
		return npuprof_gen_spans(argv[2], argv[3], argc >= 6 &&
		    strcmp(argv[4], "-n") == 0 ? strtoll(argv[5], NULL, 10) :
		    30);
	if (argc >= 3 && strcmp(argv[1], "prof") == 0)
		return npuprof_gen_prof(argc, argv);
	if (argc < 3 || (strcmp(argv[1], "demo") != 0 &&
	    strcmp(argv[1], "job") != 0 && strcmp(argv[1], "svp") != 0 &&
	    strcmp(argv[1], "legacy-timeline") != 0))
		return npuprof_gen_usage();
	demo_opts_init(&g);
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
			g.flags |= DEMO_STATS;
			break;
		case 'Q':
			g.flags |= DEMO_QUIRKS;
			break;
		case 'B':
			g.flags |= GEN_BINARY;
			break;
		case 'U':
			g.flags |= GEN_PMU;
			break;
		case 'H':
			g.flags |= GEN_ANCHOR;
			break;
		default:
			return npuprof_gen_usage();
		}
	}
	if (strcmp(argv[1], "job") == 0)
		rc = gen_job_write(argv[2], &g, &cause);
	else if (strcmp(argv[1], "svp") == 0)
		rc = gen_svp_write(argv[2], &g, &cause);
	else if (strcmp(argv[1], "legacy-timeline") == 0)
		rc = gen_tracedir_write(argv[2], &g, &cause);
	else
		rc = demo_write(argv[2], &g, &cause);
	if (rc != 0) {
		fprintf(stderr, "npuprof-gen: %s\n", cause);
		return 1;
	}
	return 0;
}
