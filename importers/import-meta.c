/*
 * Small metadata JSON files beside the exported tables (the PyTorch
 * profiler's profiler_info*.json and profiler_metadata.json): versions,
 * profiler level and rank go to the store's meta table and the unit's
 * context, the parallel layout to tables distributed_args and
 * parallel_group_info. They are read whole with yajl's tree API; they are tiny.
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
 * Whether CANN version V ("8.3.RC1", "9.1.0", "V9", "10") is 8.3 or
 * later, whose analysis floors op_statistic's average where the
 * torch_npu of older samples rounds it (doc/formats.md, op_statistic).
 * A version without a minor number is its major's first.
 */
static bool
import_meta_cann_floors(const char *v)
{
	char	*end;
	long	 major, minor = 0;

	if (*v == 'V' || *v == 'v')
		v++;
	if (*v < '0' || *v > '9')
		return false;
	major = strtol(v, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		minor = strtol(end + 1, NULL, 10);
	return major > 8 || (major == 8 && minor >= 3);
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
	if ((root = json_tree_parse(data, err, sizeof err)) == NULL) {
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
	    import_meta_keys[1].path, yajl_t_any);
	if (v != NULL && YAJL_IS_STRING(v))
		ctx->cann_floors = import_meta_cann_floors(YAJL_GET_STRING(v));
	else if (v != NULL && YAJL_IS_NUMBER(v))
		ctx->cann_floors = import_meta_cann_floors(YAJL_GET_NUMBER(v));
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

static const char *const import_meta_dist_keys[] = {
	"world_size", "tensor_model_parallel_size",
	"pipeline_model_parallel_size", "data_parallel_size",
	"context_parallel_size", "expert_model_parallel_size"
};
#define META_NDIST	6

static const char *const import_meta_group_cols[] = {
	"Group Id", "Group Name", "Group Rank", "Global Ranks"
};

/* V as a cell: a string, a number as written, or NULL. */
static char *
import_meta_cell(yajl_val v)
{
	if (v != NULL && YAJL_IS_STRING(v))
		return xstrdup(YAJL_GET_STRING(v));
	if (v != NULL && YAJL_IS_NUMBER(v))
		return xstrdup(YAJL_GET_NUMBER(v));
	return NULL;
}

/*
 * The parallel layout of profiler_metadata.json: distributed_args (the
 * Megatron sizes) as a row of table distributed_args, and each group of
 * parallel_group_info as a row of table parallel_group_info, the global
 * ranks written "0,1,2".
 */
static int
import_meta_parallel(struct store *s, yajl_val root,
    const struct import_ctx *ctx, char **cause)
{
	yajl_val	 d, g, r;
	struct strbuf	 b;
	char		*cells[META_NDIST];
	size_t		 i, j, k;
	int		 rc;

	d = yajl_tree_get(root, (const char *[]){ "distributed_args", NULL },
	    yajl_t_object);
	if (d != NULL) {
		for (i = 0; i < META_NDIST; i++)
			cells[i] = import_meta_cell(yajl_tree_get(d,
			    (const char *[]){ import_meta_dist_keys[i],
			    NULL }, yajl_t_any));
		rc = store_load_generic_begin(s, "distributed_args",
		    ctx->device, ctx->rank, (char **)(uintptr_t)
		    import_meta_dist_keys, META_NDIST, cause);
		if (rc == 0)
			store_load_generic_row(s, cells, META_NDIST);
		for (i = 0; i < META_NDIST; i++)
			free(cells[i]);
		if (rc != 0)
			return -1;
	}
	g = yajl_tree_get(root, (const char *[]){ "parallel_group_info",
	    NULL }, yajl_t_object);
	if (g == NULL || g->u.object.len == 0)
		return 0;
	if (store_load_generic_begin(s, "parallel_group_info", ctx->device,
	    ctx->rank, (char **)(uintptr_t)import_meta_group_cols, 4, cause)
	    != 0)
		return -1;
	strbuf_init(&b);
	for (i = 0; i < g->u.object.len; i++) {
		d = g->u.object.values[i];
		cells[0] = xstrdup(g->u.object.keys[i]);
		cells[1] = import_meta_cell(yajl_tree_get(d, (const char *[]){
		    "group_name", NULL }, yajl_t_any));
		cells[2] = import_meta_cell(yajl_tree_get(d, (const char *[]){
		    "group_rank", NULL }, yajl_t_any));
		r = yajl_tree_get(d, (const char *[]){ "global_ranks", NULL },
		    yajl_t_array);
		strbuf_reset(&b);
		for (j = k = 0; r != NULL && j < r->u.array.len; j++) {
			if (YAJL_IS_NUMBER(r->u.array.values[j]))
				strbuf_addf(&b, "%s%s", k++ > 0 ? "," : "",
				    YAJL_GET_NUMBER(r->u.array.values[j]));
		}
		cells[3] = r != NULL ? xstrdup(b.s != NULL ? b.s : "") : NULL;
		store_load_generic_row(s, cells, 4);
		for (j = 0; j < 4; j++)
			free(cells[j]);
	}
	strbuf_release(&b);
	return 0;
}

/*
 * The environment torch_npu recorded (ENV_VARIABLES: name to value, ""
 * for unset) as rows of table env_variables.
 */
static int
import_meta_env(struct store *s, yajl_val root, const struct import_ctx *ctx,
    char **cause)
{
	static const char *const cols[] = { "Name", "Value" };
	yajl_val	 e;
	char		*cells[2];
	size_t		 i;

	e = yajl_tree_get(root, (const char *[]){ "ENV_VARIABLES", NULL },
	    yajl_t_object);
	if (e == NULL || e->u.object.len == 0)
		return 0;
	if (store_load_generic_begin(s, "env_variables", ctx->device,
	    ctx->rank, (char **)(uintptr_t)cols, 2, cause) != 0)
		return -1;
	for (i = 0; i < e->u.object.len; i++) {
		cells[0] = xstrdup(e->u.object.keys[i]);
		cells[1] = import_meta_cell(e->u.object.values[i]);
		if (cells[1] == NULL)
			cells[1] = xstrdup("");
		store_load_generic_row(s, cells, 2);
		free(cells[0]);
		free(cells[1]);
	}
	return 0;
}

/*
 * Read torch_npu's profiler_metadata.json at PATH: its parallel layout
 * (import_meta_parallel) and environment (import_meta_env). A broken file is a warning; -1 with *cause only
 * when the store cannot be written.
 */
int
import_meta_profiler_metadata(struct store *s, const char *path,
    const struct import_ctx *ctx, char **cause)
{
	char		*data, err[256], *why = NULL;
	yajl_val	 root;
	int		 rc;

	if (util_read_file(path, &data, NULL, META_MAX_BYTES, &why) != 0) {
		store_load_warning(s, path, -1, "%s", why);
		free(why);
		return 0;
	}
	store_load_file(s, path);
	root = json_tree_parse(data, err, sizeof err);
	free(data);
	if (root == NULL || !YAJL_IS_OBJECT(root)) {
		store_load_warning(s, path, -1, "not a valid JSON object: %s",
		    root == NULL ? strtok(err, "\n") : "another value");
		yajl_tree_free(root);
		return 0;
	}
	rc = import_meta_parallel(s, root, ctx, cause);
	if (rc == 0)
		rc = import_meta_env(s, root, ctx, cause);
	yajl_tree_free(root);
	return rc;
}
