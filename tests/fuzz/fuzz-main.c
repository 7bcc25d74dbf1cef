/*
 * The fuzz targets without libFuzzer: runs each input given (a file, or
 * every file of a directory) once, as afl-fuzz expects of a target
 * ("npuprof-fuzz csv @@"), then, with -n or -t, mutates them at random
 * (bit flips, boundary integers, CSV and JSON tokens, cut, repeated and
 * spliced runs) for that many runs or seconds. There is no coverage
 * feedback: this is the fallback when clang's libFuzzer is not there,
 * and the smoke run of make check. -w writes the seed corpus.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "npuprof.h"
#include "fuzz.h"

#define FUZZ_MAX	(1 << 20)	/* bytes of a mutated input */

struct fuzz_input {
	uint8_t	*data;
	size_t	 len;
};

static struct fuzz_input	*fuzz_corpus;
static size_t			 fuzz_ncorpus;
static uint64_t			 fuzz_rng = 0x9e3779b97f4a7c15ULL;

static const char *const fuzz_tokens[] = {
	",", "\"", "\"\"", "\n", "\r\n", "\t", "N/A", "-", "0", "-1",
	"4294967295", "9223372036854775807", "-9223372036854775808",
	"18446744073709551616", "1e308", "-1e308", "nan", "0.0000001",
	"{", "}", "[", "]", ":", "\\u0000", "\\ud800", "null", "true",
	"\"ph\":\"X\"", "\"ph\":\"C\"", "\"ph\":\"M\"", "\"ph\":\"s\"",
	"\"ts\":", "\"dur\":", "\"args\":{", "\xef\xbb\xbf", "\xff\xfe",
	"\x1b[2J", "\x80", NULL
};

static uint64_t
fuzz_rand(void)
{
	return util_rand_next(&fuzz_rng);
}

static size_t
fuzz_below(size_t n)
{
	return n == 0 ? 0 : (size_t)(fuzz_rand() % n);
}

static void
fuzz_add(const char *path)
{
	struct fuzz_input	*in;
	char			*data, *cause = NULL;
	size_t			 len;

	if (util_read_file(path, &data, &len, FUZZ_MAX * 16, &cause) != 0) {
		fprintf(stderr, "npuprof-fuzz: %s\n", cause);
		exit(1);
	}
	fuzz_corpus = xreallocarray(fuzz_corpus, fuzz_ncorpus + 1,
	    sizeof *fuzz_corpus);
	in = &fuzz_corpus[fuzz_ncorpus++];
	in->data = (uint8_t *)data;
	in->len = len;
}

/* A file, or every file of a directory, into the corpus. */
static void
fuzz_load(const char *path)
{
	struct stat	 st;
	char		**names, *p;
	size_t		  n, i;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fuzz_add(path);
		return;
	}
	names = util_dir_list(path, &n);
	for (i = 0; i < n; i++) {
		p = util_path_join(path, names[i]);
		fuzz_add(p);
		free(p);
	}
	util_strv_free(names, n);
}

/* Replace the LEN bytes at AT of B (*N long) by the COUNT bytes of P. */
static void
fuzz_splice(uint8_t *b, size_t *n, size_t at, size_t len, const void *p,
    size_t count)
{
	if (at > *n)
		at = *n;
	if (len > *n - at)
		len = *n - at;
	if (*n - len + count > FUZZ_MAX)
		return;
	memmove(b + at + count, b + at + len, *n - at - len);
	memcpy(b + at, p, count);
	*n = *n - len + count;
}

/* One random change to B, *N bytes long, of capacity FUZZ_MAX. */
static void
fuzz_mutate_once(uint8_t *b, size_t *n)
{
	static const int64_t	 ints[] = { 0, -1, 1, 0x7f, 0x80, 0xff,
	    0x7fffffff, 0xffffffffLL, INT64_MAX, INT64_MIN };
	const struct fuzz_input	*o;
	const char		*t;
	int64_t			 v;
	size_t			 at = fuzz_below(*n + 1), len, k;
	uint8_t			 byte;

	switch (fuzz_below(8)) {
	case 0:
		if (*n > 0)
			b[fuzz_below(*n)] ^= (uint8_t)(1u << fuzz_below(8));
		break;
	case 1:
		byte = (uint8_t)fuzz_rand();
		fuzz_splice(b, n, at, 0, &byte, 1);
		break;
	case 2:
		fuzz_splice(b, n, at, 1 + fuzz_below(16), "", 0);
		break;
	case 3:
		v = ints[fuzz_below(sizeof ints / sizeof *ints)];
		k = (size_t)1 << fuzz_below(4);
		if (at + k <= *n)
			memcpy(b + at, &v, k);
		break;
	case 4:
		for (k = 0; fuzz_tokens[k] != NULL; k++)
			;
		t = fuzz_tokens[fuzz_below(k)];
		fuzz_splice(b, n, at, fuzz_below(3), t, strlen(t));
		break;
	case 5:
		/* Repeat a run of the input. */
		if (*n == 0)
			break;
		len = 1 + fuzz_below(*n - at < 64 ? *n - at + 1 : 64);
		if (at + len <= *n && *n + len <= FUZZ_MAX) {
			uint8_t	 run[64];

			memcpy(run, b + at, len);
			fuzz_splice(b, n, fuzz_below(*n + 1), 0, run, len);
		}
		break;
	case 6:
		/* Cut the input short. */
		*n = at;
		break;
	default:
		/* Splice in a run of another input. */
		o = &fuzz_corpus[fuzz_below(fuzz_ncorpus)];
		if (o->len == 0)
			break;
		k = fuzz_below(o->len);
		len = 1 + fuzz_below(o->len - k);
		fuzz_splice(b, n, at, fuzz_below(len + 1), o->data + k, len);
		break;
	}
}

static void
fuzz_usage(void)
{
	fprintf(stderr, "usage: npuprof-fuzz csv|trace|db|prof|job|timeline "
	    "[-b base] [-n runs] [-t seconds] [-s seed]\n"
	    "                    [-o dir] [-w seed-dir] [input ...]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char	*out = NULL, *seeds = NULL;
	uint8_t		*buf;
	size_t		 i, n, k;
	int64_t		 runs = 0, seconds = 0, done = 0;
	time_t		 start;
	char		*cur = NULL;
	int		 ch;

	if (argc < 2)
		fuzz_usage();
	setenv("FUZZ_TARGET", argv[1], 1);
	argv++;
	argc--;
	while ((ch = getopt(argc, argv, "b:n:o:s:t:w:")) != -1) {
		switch (ch) {
		case 'b':
			setenv("FUZZ_BASE", optarg, 1);
			break;
		case 'n':
			runs = strtoll(optarg, NULL, 10);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			fuzz_rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 't':
			seconds = strtoll(optarg, NULL, 10);
			break;
		case 'w':
			seeds = optarg;
			break;
		default:
			fuzz_usage();
		}
	}
	fuzz_init();
	if (seeds != NULL) {
		fuzz_seeds(seeds);
		fuzz_cleanup();
		return 0;
	}
	for (i = (size_t)optind; i < (size_t)argc; i++)
		fuzz_load(argv[i]);
	for (i = 0; i < fuzz_ncorpus; i++)
		LLVMFuzzerTestOneInput(fuzz_corpus[i].data, fuzz_corpus[i].len);
	if ((runs > 0 || seconds > 0) && fuzz_ncorpus > 0) {
		if (out != NULL) {
			util_mkdir_p(out, 0755);
			cur = util_path_join(out, "current");
		}
		buf = xmalloc(FUZZ_MAX);
		start = time(NULL);
		while ((runs == 0 || done < runs) && (seconds == 0 ||
		    time(NULL) - start < seconds)) {
			k = fuzz_below(fuzz_ncorpus);
			n = fuzz_corpus[k].len < FUZZ_MAX ?
			    fuzz_corpus[k].len : FUZZ_MAX;
			memcpy(buf, fuzz_corpus[k].data, n);
			for (i = 1 + fuzz_below(6); i > 0; i--)
				fuzz_mutate_once(buf, &n);
			/* What crashes is left behind in OUT/current. */
			if (cur != NULL)
				fuzz_write(cur, buf, n);
			LLVMFuzzerTestOneInput(buf, n);
			done++;
		}
		if (cur != NULL)
			unlink(cur);
		printf("%s: %lld runs in %lld s, %zu inputs\n",
		    getenv("FUZZ_TARGET"), (long long)done,
		    (long long)(time(NULL) - start), fuzz_ncorpus);
		free(buf);
		free(cur);
	}
	for (i = 0; i < fuzz_ncorpus; i++)
		free(fuzz_corpus[i].data);
	free(fuzz_corpus);
	fuzz_cleanup();
	return 0;
}
