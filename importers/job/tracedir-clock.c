/*
 * The clock of a legacy timeline/ folder. Its files hold host
 * CLOCK_MONOTONIC_RAW microseconds; start_info.N (or start_info) of the
 * collection, beside the folder or in it, holds collectionTimeBegin (epoch
 * us) and clockMonotonicRaw (ns) read at the same instant, so epoch ns =
 * monotonic ns + begin * 1000 - raw (doc/formats.md 2.4, 2.6 step 4). A time
 * already on the epoch (over half of begin) is left alone. info.json.N of
 * the same place gives the rank (rank_id).
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

/*
 * The integer after "KEY" in the JSON TEXT, quoted or not, as the files
 * write them ("clockMonotonicRaw":"56579931060630", "rank_id":0).
 */
static int
tracedir_clock_int(const char *text, const char *key, int64_t *v)
{
	const char	*p, *q;
	char		*k;

	xasprintf(&k, "\"%s\"", key);
	p = strstr(text, k);
	free(k);
	if (p == NULL)
		return -1;
	p += strlen(key) + 2;
	while (*p == ' ' || *p == ':' || *p == '"' || *p == '\t')
		p++;
	q = p;
	if (*q == '-')
		q++;
	while (*q >= '0' && *q <= '9')
		q++;
	return util_parse_int(p, (size_t)(q - p), v);
}

/*
 * The text of the first of NAME.DEVICE and NAME in DIR or its parent, or
 * NULL; *PATH is set to the file read.
 */
static char *
tracedir_clock_file(const char *dir, const char *name, int64_t device,
    char **path)
{
	char	*dirs[2], *cand, *text = NULL, *p, *cause = NULL;
	size_t	 len;
	int	 i, k;

	dirs[0] = xstrdup(dir);
	dirs[1] = xstrdup(dir);
	while ((p = strrchr(dirs[1], '/')) != NULL && p[1] == '\0')
		*p = '\0';
	if ((p = strrchr(dirs[1], '/')) != NULL)
		p[p == dirs[1] ? 1 : 0] = '\0';
	else {
		free(dirs[1]);
		dirs[1] = xstrdup(".");
	}
	*path = NULL;
	for (i = 1; i >= 0 && text == NULL; i--) {
		for (k = 0; k < 2 && text == NULL; k++) {
			if (k == 0 && device != NP_NA)
				xasprintf(&cand, "%s/%s.%lld", dirs[i], name,
				    (long long)device);
			else
				xasprintf(&cand, "%s/%s", dirs[i], name);
			if (util_read_file(cand, &text, &len, 1 << 20,
			    &cause) == 0)
				*path = cand;
			else {
				free(cause);
				cause = NULL;
				text = NULL;
				free(cand);
			}
		}
	}
	free(dirs[0]);
	free(dirs[1]);
	return text;
}

/*
 * Set up CLK for the timeline folder DIR of device DEVICE, and CTX's rank
 * from info.json when it has none. A missing start_info is a warning.
 */
void
tracedir_clock_read(struct store *s, const char *dir, int64_t device,
    struct import_ctx *ctx, struct tracedir_clock *clk)
{
	char	*text, *path;
	int64_t	 begin, raw, rank;

	memset(clk, 0, sizeof *clk);
	if ((text = tracedir_clock_file(dir, "info.json", device,
	    &path)) != NULL) {
		store_load_file(s, path);
		if (ctx->rank == NP_NA && tracedir_clock_int(text, "rank_id",
		    &rank) == 0 && rank >= 0)
			ctx->rank = rank;
		free(text);
		free(path);
	}
	if ((text = tracedir_clock_file(dir, "start_info", device,
	    &path)) == NULL) {
		store_load_warning(s, dir, -1, "no start_info beside the "
		    "timeline files: times stay on the host monotonic clock");
		store_load_meta(s, "timeline.clock", "host monotonic (no "
		    "start_info)");
		return;
	}
	store_load_file(s, path);
	if (tracedir_clock_int(text, "collectionTimeBegin", &begin) != 0 ||
	    tracedir_clock_int(text, "clockMonotonicRaw", &raw) != 0 ||
	    begin <= 0 || raw < 0)
		store_load_warning(s, path, -1, "no collectionTimeBegin and "
		    "clockMonotonicRaw: times stay on the host monotonic "
		    "clock");
	else {
		clk->offset = begin * 1000 - raw;
		clk->below = begin * 1000 / 2;
		store_load_meta(s, "timeline.clock", "epoch (host monotonic "
		    "+ start_info)");
	}
	free(text);
	free(path);
}
