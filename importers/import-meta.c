/*
 * Small metadata JSON files beside the exported tables (the PyTorch
 * profiler's profiler_info*.json and profiler_metadata.json): versions,
 * profiler level and rank go to the store's meta table and the unit's
 * context. They are read whole with yajl's tree API; they are tiny.
 */
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "import-int.h"

#define META_MAX_BYTES	(4 << 20)

struct meta_key {
	const char	*path[4];	/* yajl wants them non-const */
	const char	*key;
};

static const struct meta_key import_meta_keys[] = {
	{ .path = { "torch_npu_version" }, .key = "torch_npu_version" },
	{ .path = { "cann_version" }, .key = "cann_version" },
	{ .path = { "config", "experimental_config", "_profiler_level" },
	  .key = "profiler_level" },
	{ .path = { "config", "experimental_config", "_aic_metrics" },
	  .key = "aic_metrics" },
	{ .path = { "end_info", "collectionTimeEnd" },
	  .key = "collection_end_ns" },
	{ .path = { "rank_id" }, .key = "rank_id" }
};

static void
import_meta_value(struct store *s, const char *key, yajl_val v)
{
	char	 buf[64];

	if (YAJL_IS_STRING(v))
		store_load_meta(s, key, YAJL_GET_STRING(v));
	else if (YAJL_IS_INTEGER(v)) {
		snprintf(buf, sizeof buf, "%lld", YAJL_GET_INTEGER(v));
		store_load_meta(s, key, buf);
	} else if (v != NULL && YAJL_IS_NUMBER(v))
		store_load_meta(s, key, YAJL_GET_NUMBER(v));
}

/*
 * An id as producers write it: a JSON integer, or a string of one
 * (torch_npu 2.7 writes "rank_id": "0"). Return 0 and set *OUT if V is one.
 */
static int
import_meta_id(yajl_val v, int64_t *out)
{
	const char	*t;
	size_t		 len;

	if (YAJL_IS_INTEGER(v)) {
		*out = YAJL_GET_INTEGER(v);
		return 0;
	}
	if (!YAJL_IS_STRING(v))
		return -1;
	t = YAJL_GET_STRING(v);
	while (*t == ' ')
		t++;
	len = strlen(t);
	while (len > 0 && t[len - 1] == ' ')
		len--;
	return util_parse_int(t, len, out);
}

/*
 * Read the PyTorch profiler's info JSON at PATH into the meta table and set
 * CTX's rank from rank_id. A broken file is a warning, not an error.
 */
int
import_meta_profiler_info(struct store *s, const char *path,
    struct import_ctx *ctx, char **cause)
{
	char		*data, err[256], *dir;
	yajl_val	 root, v;
	int64_t		 rank;
	size_t		 i;

	if (util_read_file(path, &data, NULL, META_MAX_BYTES, cause) != 0)
		return -1;
	store_load_file(s, path);
	if ((root = yajl_tree_parse(data, err, sizeof err)) == NULL) {
		store_load_warning(s, path, -1, "not valid JSON: %s",
		    strtok(err, "\n"));
		free(data);
		return 0;
	}
	for (i = 0; i < sizeof import_meta_keys / sizeof import_meta_keys[0];
	    i++) {
		v = yajl_tree_get(root, (const char **)(uintptr_t)
		    import_meta_keys[i].path, yajl_t_any);
		if (v != NULL)
			import_meta_value(s, import_meta_keys[i].key, v);
	}
	v = yajl_tree_get(root, (const char **)(uintptr_t)
	    import_meta_keys[5].path, yajl_t_any);
	if (v != NULL && import_meta_id(v, &rank) != 0)
		store_load_warning(s, path, -1, "rank_id is not a number: "
		    "the rows of this profile carry no rank");
	else if (v != NULL && rank >= 0) {
		ctx->rank = rank;
		/* The folder the info file is in is the profile. */
		dir = xstrdup(path);
		if (strrchr(dir, '/') != NULL)
			*strrchr(dir, '/') = '\0';
		store_load_rank(s, rank, dir);
		free(dir);
	}
	yajl_tree_free(root);
	free(data);
	return 0;
}
