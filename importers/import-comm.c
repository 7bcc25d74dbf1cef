/*
 * A rank's communication statistics, as torch_npu's analysis writes them
 * beside kernel_details.csv: communication.json (per step, per collective
 * or point-to-point op: its times and, per transport, what it moved) and
 * communication_matrix.json (per step and op kind, per local src-dst link:
 * transport, size, time, bandwidth). They become three generic tables of
 * the rank: communication, communication_bandwidth and
 * communication_matrix (doc/formats.md section 7.3). Numbers are kept as
 * the file writes them. The files are read whole with yajl's tree API: a
 * rank's files hold a few thousand ops.
 */
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "import-int.h"

#define COMM_MAX_BYTES	(512 << 20)

static const char *const import_comm_time_cols[] = {
	"Step", "Type", "Op Name", "Start Timestamp(us)", "Elapse Time(ms)",
	"Transit Time(ms)", "Wait Time(ms)", "Synchronization Time(ms)",
	"Idle Time(ms)", "Wait Time Ratio", "Synchronization Time Ratio"
};
#define COMM_TIME_NCOLS	11
#define COMM_TIME_KEYS	3	/* columns before the time info's keys */

static const char *const import_comm_bw_cols[] = {
	"Step", "Type", "Op Name", "Transport Type", "Transit Size(MB)",
	"Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio",
	"Size Distribution"
};
#define COMM_BW_NCOLS	9
#define COMM_BW_KEYS	4

static const char *const import_comm_matrix_cols[] = {
	"Step", "Type", "Op Name", "Src Rank", "Dst Rank", "Transport Type",
	"Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)",
	"Link Op Name"
};
#define COMM_MATRIX_NCOLS	10
#define COMM_MATRIX_KEYS	5

/* What one file's read has met: for warnings once per kind. */
struct import_comm {
	struct store	*s;
	const char	*path;
	int64_t		 rows;		/* written */
	int64_t		 skipped;	/* entries that were not objects */
	char		*unknown;	/* the first key not known */
	int64_t		 nunknown;
};

/* A cell: the text of a string or of a number as written, else NULL. */
static char *
import_comm_cell(yajl_val v)
{
	if (v == NULL)
		return NULL;
	if (YAJL_IS_STRING(v))
		return xstrdup(YAJL_GET_STRING(v));
	if (YAJL_IS_NUMBER(v))
		return xstrdup(YAJL_GET_NUMBER(v));
	return NULL;
}

/* The step of a key as the file writes it: "step50" is 50. */
static char *
import_comm_step(const char *key)
{
	int64_t	 n;

	if (strncmp(key, "step", 4) == 0 && key[4] != '\0' &&
	    util_parse_int(key + 4, strlen(key + 4), &n) == 0)
		return xstrdup(key + 4);
	return xstrdup(key);
}

/* Note key KEY of an object, kept nowhere, once per file. */
static void
import_comm_unknown(struct import_comm *c, const char *key)
{
	if (c->unknown == NULL)
		c->unknown = xstrdup(key);
	c->nunknown++;
}

/*
 * Fill CELLS[FIRST..] from object O's members named by NAMES[FIRST..N]:
 * other members are noted as unknown, except SKIP (may be NULL).
 */
static void
import_comm_fill(struct import_comm *c, yajl_val o, const char *const *names,
    size_t first, size_t n, char **cells, const char *skip)
{
	size_t	 i, j;

	for (i = 0; i < o->u.object.len; i++) {
		for (j = first; j < n; j++) {
			if (strcmp(o->u.object.keys[i], names[j]) == 0)
				break;
		}
		if (j < n) {
			free(cells[j]);
			cells[j] = import_comm_cell(o->u.object.values[i]);
		} else if (skip == NULL ||
		    strcmp(o->u.object.keys[i], skip) != 0)
			import_comm_unknown(c, o->u.object.keys[i]);
	}
}

/*
 * Write row CELLS (N of them) to the table begun last; the first
 * BORROWED cells are the caller's, the rest are freed and cleared.
 */
static void
import_comm_put(struct import_comm *c, char **cells, size_t n,
    size_t borrowed)
{
	size_t	 i;

	store_load_generic_row(c->s, cells, n);
	c->rows++;
	for (i = 0; i < n; i++) {
		if (i >= borrowed)
			free(cells[i]);
		cells[i] = NULL;
	}
}

/* "size:count:time" per entry of a Size Distribution object, ";" apart. */
static char *
import_comm_sizes(yajl_val o)
{
	struct strbuf	 b;
	yajl_val	 v;
	char		*c;
	size_t		 i, j;

	if (o == NULL || !YAJL_IS_OBJECT(o))
		return NULL;
	strbuf_init(&b);
	for (i = 0; i < o->u.object.len; i++) {
		if (i > 0)
			strbuf_addc(&b, ';');
		strbuf_adds(&b, o->u.object.keys[i]);
		v = o->u.object.values[i];
		for (j = 0; YAJL_IS_ARRAY(v) && j < v->u.array.len; j++) {
			strbuf_addc(&b, ':');
			if ((c = import_comm_cell(v->u.array.values[j]))
			    != NULL)
				strbuf_adds(&b, c);
			free(c);
		}
	}
	return strbuf_detach(&b);
}

/* The bandwidth rows of op NAME: one per transport type. */
static void
import_comm_bandwidth(struct import_comm *c, char **key, yajl_val bw)
{
	char		*cells[COMM_BW_NCOLS] = { NULL };
	yajl_val	 t;
	size_t		 i;

	for (i = 0; i < bw->u.object.len; i++) {
		t = bw->u.object.values[i];
		if (!YAJL_IS_OBJECT(t)) {
			c->skipped++;
			continue;
		}
		memcpy(cells, key, 3 * sizeof *cells);
		cells[3] = (char *)(uintptr_t)bw->u.object.keys[i];
		import_comm_fill(c, t, import_comm_bw_cols, COMM_BW_KEYS,
		    COMM_BW_NCOLS - 1, cells, "Size Distribution");
		cells[COMM_BW_NCOLS - 1] = import_comm_sizes(yajl_tree_get(t,
		    (const char *[]){ "Size Distribution", NULL },
		    yajl_t_object));
		import_comm_put(c, cells, COMM_BW_NCOLS, 4);
	}
}

/*
 * Call FN for each op of ROOT: its step, type (collective or p2p) and
 * name in KEY[0..2] and its object. Entries that are not objects are
 * counted as skipped.
 */
static void
import_comm_walk(struct import_comm *c, yajl_val root,
    void (*fn)(struct import_comm *, char **, yajl_val))
{
	yajl_val	 step, kind;
	char		*key[3];
	size_t		 i, j, k;

	for (i = 0; i < root->u.object.len; i++) {
		step = root->u.object.values[i];
		if (!YAJL_IS_OBJECT(step)) {
			c->skipped++;
			continue;
		}
		key[0] = import_comm_step(root->u.object.keys[i]);
		for (j = 0; j < step->u.object.len; j++) {
			kind = step->u.object.values[j];
			key[1] = (char *)step->u.object.keys[j];
			if (!YAJL_IS_OBJECT(kind)) {
				c->skipped++;
				continue;
			}
			for (k = 0; k < kind->u.object.len; k++) {
				if (!YAJL_IS_OBJECT(kind->u.object.values[k])) {
					c->skipped++;
					continue;
				}
				key[2] = (char *)kind->u.object.keys[k];
				fn(c, key, kind->u.object.values[k]);
			}
		}
		free(key[0]);
	}
}

/* The time row of one op of communication.json. */
static void
import_comm_time_op(struct import_comm *c, char **key, yajl_val op)
{
	char		*cells[COMM_TIME_NCOLS] = { NULL };
	yajl_val	 v;
	size_t		 i;

	for (i = 0; i < op->u.object.len; i++) {
		v = op->u.object.values[i];
		if (strcmp(op->u.object.keys[i], "Communication Time Info")
		    == 0 && YAJL_IS_OBJECT(v))
			import_comm_fill(c, v, import_comm_time_cols,
			    COMM_TIME_KEYS, COMM_TIME_NCOLS, cells, NULL);
		else if (strcmp(op->u.object.keys[i],
		    "Communication Bandwidth Info") != 0)
			import_comm_unknown(c, op->u.object.keys[i]);
	}
	memcpy(cells, key, 3 * sizeof *cells);
	import_comm_put(c, cells, COMM_TIME_NCOLS, 3);
}

/* The bandwidth rows of one op of communication.json. */
static void
import_comm_bw_op(struct import_comm *c, char **key, yajl_val op)
{
	yajl_val	 bw;

	bw = yajl_tree_get(op, (const char *[]){
	    "Communication Bandwidth Info", NULL }, yajl_t_object);
	if (bw != NULL)
		import_comm_bandwidth(c, key, bw);
}

/* The link rows of one op kind of communication_matrix.json. */
static void
import_comm_matrix_op(struct import_comm *c, char **key, yajl_val op)
{
	char		*cells[COMM_MATRIX_NCOLS] = { NULL }, *dash;
	const char	*link;
	yajl_val	 v;
	size_t		 i;

	for (i = 0; i < op->u.object.len; i++) {
		v = op->u.object.values[i];
		link = op->u.object.keys[i];
		/* "src-dst", both ranks there. */
		if (!YAJL_IS_OBJECT(v) || (dash = strchr(link, '-')) == NULL ||
		    dash == link || dash[1] == '\0') {
			c->skipped++;
			continue;
		}
		memcpy(cells, key, 3 * sizeof *cells);
		cells[3] = xstrndup(link, (size_t)(dash - link));
		cells[4] = xstrdup(dash + 1);
		cells[COMM_MATRIX_NCOLS - 1] = import_comm_cell(yajl_tree_get(v,
		    (const char *[]){ "Op Name", NULL }, yajl_t_any));
		import_comm_fill(c, v, import_comm_matrix_cols,
		    COMM_MATRIX_KEYS, COMM_MATRIX_NCOLS - 1, cells, "Op Name");
		import_comm_put(c, cells, COMM_MATRIX_NCOLS, 3);
	}
}

/* Begin generic table NAME with COLS; 0 on success. */
static int
import_comm_table(struct store *s, const char *name, const char *const *cols,
    size_t n, const struct import_ctx *ctx, char **cause)
{
	return store_load_generic_begin(s, name, ctx->device, ctx->rank,
	    (char **)(uintptr_t)cols, n, cause);
}

/*
 * Read the JSON file NAME of DIR whole; NULL (with a warning unless it is
 * absent) if it cannot be read or is not a JSON object.
 */
static yajl_val
import_comm_parse(struct store *s, const char *dir, const char *name,
    char **path)
{
	char		*data, err[256], *why = NULL;
	yajl_val	 root;

	*path = util_path_join(dir, name);
	if (!util_dir_has(dir, name))
		return NULL;
	store_load_file(s, *path);
	if (util_read_file(*path, &data, NULL, COMM_MAX_BYTES, &why) != 0) {
		store_load_warning(s, *path, -1, "%s", why);
		free(why);
		return NULL;
	}
	root = json_tree_parse(data, err, sizeof err);
	free(data);
	if (root == NULL) {
		store_load_warning(s, *path, -1, "not valid JSON, nothing of "
		    "it is kept: %s", strtok(err, "\n"));
		return NULL;
	}
	if (!YAJL_IS_OBJECT(root)) {
		store_load_warning(s, *path, -1, "not a JSON object of steps, "
		    "nothing of it is kept");
		yajl_tree_free(root);
		return NULL;
	}
	return root;
}

/* Say what a file's read left out. */
static void
import_comm_report(struct import_comm *c)
{
	if (c->skipped > 0)
		store_load_warning(c->s, c->path, -1, "%lld entr%s skipped: "
		    "not an object, or a link not named src-dst",
		    (long long)c->skipped, c->skipped == 1 ? "y" : "ies");
	if (c->nunknown > 0)
		store_load_warning(c->s, c->path, -1, "%lld value%s of keys "
		    "not known (the first: \"%s\") not kept",
		    (long long)c->nunknown, c->nunknown == 1 ? "" : "s",
		    c->unknown);
	free(c->unknown);
}

/*
 * Import communication.json and communication_matrix.json of torch_npu's
 * output folder OUT, when there. Problems are warnings. Return the rows
 * written, or -1 with *cause only when the store cannot be written.
 */
int64_t
import_comm_dir(struct store *s, const char *out, struct import_ctx *ctx,
    char **cause)
{
	struct import_comm	 c = { .s = s };
	yajl_val		 root;
	char			*path;
	int64_t			 rows = 0;
	int			 rc = 0;

	if ((root = import_comm_parse(s, out, "communication.json", &path))
	    != NULL) {
		c.path = path;
		if (import_comm_table(s, "communication",
		    import_comm_time_cols, COMM_TIME_NCOLS, ctx, cause) != 0)
			rc = -1;
		else
			import_comm_walk(&c, root, import_comm_time_op);
		c.skipped = 0;
		if (rc == 0 && import_comm_table(s, "communication_bandwidth",
		    import_comm_bw_cols, COMM_BW_NCOLS, ctx, cause) != 0)
			rc = -1;
		else if (rc == 0)
			import_comm_walk(&c, root, import_comm_bw_op);
		import_comm_report(&c);
		yajl_tree_free(root);
	}
	free(path);
	rows = c.rows;
	memset(&c, 0, sizeof c);
	c.s = s;
	if (rc == 0 && (root = import_comm_parse(s, out,
	    "communication_matrix.json", &path)) != NULL) {
		c.path = path;
		if (import_comm_table(s, "communication_matrix",
		    import_comm_matrix_cols, COMM_MATRIX_NCOLS, ctx, cause)
		    != 0)
			rc = -1;
		else
			import_comm_walk(&c, root, import_comm_matrix_op);
		import_comm_report(&c);
		yajl_tree_free(root);
		free(path);
	} else if (rc == 0)
		free(path);
	return rc != 0 ? -1 : rows + c.rows;
}

/*
 * The phases of the AI CPU's KFC server turns (doc/formats.md section
 * 4.10), named as the vendor's timeline names them: a server turn's six,
 * then a compute turn's two.
 */
const char *const import_comm_kfc_phases[IMPORT_COMM_KFC_PHASES] = {
	"StartServer", "TaskWaitRequest", "TaskOrchestration", "TaskLaunch",
	"TaskExecute", "Finalize", "WaitCompute", "Compute"
};

/*
 * The row of a KFC turn's phase as a timeline names it ("Phase N"): 0 for
 * a server turn's, 1 for a compute turn's, which run at the same time;
 * -1 if NAME is none.
 */
int
import_comm_kfc_phase(const char *name)
{
	size_t	 i, len;

	for (i = 0; i < IMPORT_COMM_KFC_PHASES; i++) {
		len = strlen(import_comm_kfc_phases[i]);
		if (strncmp(name, import_comm_kfc_phases[i], len) == 0 &&
		    name[len] == ' ' && name[len + 1] != '\0' &&
		    strspn(name + len + 1, "0123456789") ==
		    strlen(name + len + 1))
			return i < IMPORT_COMM_KFC_SERVER ? 0 : 1;
	}
	return -1;
}
