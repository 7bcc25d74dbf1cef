/*
 * The other binary Framework records of a legacy JOB (doc/formats.md 3.8),
 * each starting with the u16 magic 0x5a5a: tensor_data_info (256 bytes:
 * model @4, iteration @8, stream @16, task @20, batch @22, tensor count
 * @24, five 44-byte tensors @28 of u32 kind (0 input, 1 output), format,
 * data type and shape[8]) fills in the tensors of the op with the same
 * stream, task and batch when graph_desc_info gave none, and is kept as
 * the generic table tensor_data_info; step_info (64 bytes: model @4,
 * stream @8, task @12, time @16, iteration @24, thread @32, tag @36: 0
 * begin, 1 end, 2 FP start, 3 BP end, 4 iteration end) becomes the
 * generic table ge_step_info; id_map_info (32 bytes: graph @4, model @8,
 * session @12, time @16, mode @24) becomes ge_id_map.
 */
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_GE_MAGIC	0x5a5a

/*
 * step_info tags: the tags of the step trace the same call writes (GE's
 * step begin and end, then the FP, BP and iteration end points).
 */
static const char *const job_ge_tags[] = {
	"begin", "end", "FP start", "BP end", "iteration end"
};

struct job_ge_kind {
	const char	*prefix;	/* after Framework.[host.][vm.] */
	const char	*table;
	size_t		 size;
	size_t		 ncols;
	char		*cols[12];
	void		(*record)(struct job *, const unsigned char *);
};

/*
 * MindSpore's own tensor enums (its profiler's framework tables, 1.6 on):
 * MindSpore writes them into the GE records plus 200, and its parser
 * reads every code of its JOBs with them; data types start at 29.
 */
#define JOB_GE_MS_MARK		200
#define JOB_GE_MS_DTYPE0	29

static const char *const job_ge_ms_formats[] = {
	"UNKNOWN", "DEFAULT", "NC1KHKWHWC0", "ND", "NCHW", "NHWC", "HWCN",
	"NC1HWC0", "FRAC_Z", "C1HWNCOC0", "FRAC_NZ", "NC1HWC0_C04",
	"FRACTAL_Z_C04", "NDHWC", "FRACTAL_ZN_LSTM", "FRACTAL_ZN_RNN",
	"ND_RNN_BIAS", "NDC1HWC0", "NCDHW", "FRACTAL_Z_3D", "DHWNC", "DHWCN"
};

static const char *const job_ge_ms_dtypes[] = {
	"NUMBER_TYPE_BEGIN", "BOOL", "INT", "INT8", "INT16", "INT32", "INT64",
	"UINT", "UINT8", "UINT16", "UINT32", "UINT64", "FLOAT", "FLOAT16",
	"FLOAT32", "FLOAT64", "COMPLEX", "NUMBER_TYPE_END"
};

#define JOB_GE_N(a)	(sizeof (a) / sizeof (a)[0])

/*
 * Append the name of tensor code V (a format if FORMAT, else a data
 * type) as its producer names it: a code marked by MindSpore (200 to
 * 255), or any code of a MindSpore JOB (MS), by MindSpore's tables; other
 * codes by GE's, as the raw decoder prints them. A code no table names
 * is written as its number.
 */
void
job_ge_enum(struct strbuf *b, uint32_t v, bool format, bool ms)
{
	const char	*n = NULL;
	uint32_t	 c = v;

	/* Above 255 a GE format carries a sub-format: not a mark. */
	if (v >= JOB_GE_MS_MARK && v < 256) {
		c = v - JOB_GE_MS_MARK;
		ms = true;
	}
	if (!ms) {
		prof_additional_enum(b, v, format);
		return;
	}
	if (format && c < JOB_GE_N(job_ge_ms_formats))
		n = job_ge_ms_formats[c];
	else if (!format && c >= JOB_GE_MS_DTYPE0 &&
	    c - JOB_GE_MS_DTYPE0 < JOB_GE_N(job_ge_ms_dtypes))
		n = job_ge_ms_dtypes[c - JOB_GE_MS_DTYPE0];
	if (n != NULL)
		strbuf_adds(b, n);
	else
		strbuf_addf(b, "%u", v);
}

/*
 * Append one tensor's shape, type and format to the lists of its side;
 * N counts the tensors of each side, so an empty shape keeps its place.
 */
static void
job_ge_tensor(struct job *j, struct strbuf *lists, size_t *n,
    const unsigned char *t)
{
	int		 side = importer_le32(t) == 1 ? 1 : 0;
	struct strbuf	*l = &lists[3 * side];
	uint32_t	 d;
	int		 k;

	if (n[side]++ > 0) {
		strbuf_addc(&l[0], ';');
		strbuf_addc(&l[1], ';');
		strbuf_addc(&l[2], ';');
	}
	for (k = 0; k < 8 && (d = importer_le32(t + 12 + 4 * k)) != 0; k++)
		strbuf_addf(&l[0], "%s%u", k > 0 ? "," : "", d);
	job_ge_enum(&l[1], importer_le32(t + 8), false, j->mindspore);
	job_ge_enum(&l[2], importer_le32(t + 4), true, j->mindspore);
}

/* The tensor list K of OP: input shapes, types, formats, then output. */
static char **
job_ge_field(struct job_op *op, int k)
{
	char	**f[6] = { &op->in_shapes, &op->in_dtypes, &op->in_formats,
	    &op->out_shapes, &op->out_dtypes, &op->out_formats };

	return f[k];
}

/* Set *FIELD to the list B of N tensors, unless it has a value. */
static void
job_ge_set(char **field, struct strbuf *b, size_t n)
{
	if (*field == NULL && n > 0)
		*field = xstrdup(b->len > 0 ? b->s : "");
}

static void
job_ge_tensor_data(struct job *j, const unsigned char *r)
{
	struct strbuf	 l[6];
	struct job_op	*op;
	char		 v[6][24], *cells[12];
	uint32_t	 n = importer_le32(r + 24), i;
	size_t		 sides[2] = { 0, 0 };
	int		 k;

	for (k = 0; k < 6; k++)
		strbuf_init(&l[k]);
	for (i = 0; i < n && i < 5; i++)
		job_ge_tensor(j, l, sides, r + 28 + 44 * i);
	for (i = 0; i < j->nops; i++) {
		op = &j->ops[i];
		if (op->stream != importer_le32(r + 16) % 2048 ||
		    op->task != importer_le16(r + 20) ||
		    op->batch != importer_le16(r + 22))
			continue;
		for (k = 0; k < 6; k++)
			job_ge_set(job_ge_field(op, k), &l[k], sides[k / 3]);
	}
	snprintf(v[0], sizeof v[0], "%u", importer_le32(r + 4));
	snprintf(v[1], sizeof v[1], "%llu",
	    (unsigned long long)importer_le64(r + 8));
	snprintf(v[2], sizeof v[2], "%u", importer_le32(r + 16) % 2048);
	snprintf(v[3], sizeof v[3], "%u", importer_le16(r + 20));
	snprintf(v[4], sizeof v[4], "%u", importer_le16(r + 22));
	snprintf(v[5], sizeof v[5], "%u", n);
	for (k = 0; k < 6; k++) {
		cells[k] = v[k];
		cells[6 + k] = sides[k / 3] == 0 ? "N/A" : l[k].len > 0 ?
		    l[k].s : "";
	}
	store_load_generic_row(j->s, cells, 12);
	for (k = 0; k < 6; k++)
		strbuf_release(&l[k]);
}

/*
 * The first four cells of a step info or id map record R: its three ids
 * and its host time stamp.
 */
static void
job_ge_head(struct job *j, const unsigned char *r, char v[][32])
{
	int64_t	 t;

	t = job_clock_host(&j->clock, importer_le64(r + 16));
	snprintf(v[0], sizeof v[0], "%u", importer_le32(r + 4));
	snprintf(v[1], sizeof v[1], "%u", importer_le32(r + 8));
	snprintf(v[2], sizeof v[2], "%u", importer_le32(r + 12));
	util_fmt_us(v[3], sizeof v[3], t, 3, false);
}

static void
job_ge_step(struct job *j, const unsigned char *r)
{
	char	 v[7][32], *cells[7];
	int	 k;

	job_ge_head(j, r, v);
	snprintf(v[4], sizeof v[4], "%llu",
	    (unsigned long long)importer_le64(r + 24));
	snprintf(v[5], sizeof v[5], "%u", importer_le32(r + 32));
	if (r[36] < sizeof job_ge_tags / sizeof job_ge_tags[0])
		snprintf(v[6], sizeof v[6], "%s", job_ge_tags[r[36]]);
	else
		snprintf(v[6], sizeof v[6], "%u", r[36]);
	for (k = 0; k < 7; k++)
		cells[k] = v[k];
	store_load_generic_row(j->s, cells, 7);
}

static void
job_ge_id_map(struct job *j, const unsigned char *r)
{
	char	 v[5][32], *cells[5];
	int	 k;

	job_ge_head(j, r, v);
	snprintf(v[4], sizeof v[4], "%u", importer_le16(r + 24));
	for (k = 0; k < 5; k++)
		cells[k] = v[k];
	store_load_generic_row(j->s, cells, 5);
}

static const struct job_ge_kind job_ge_kinds[] = {
	{ .prefix = "tensor_data_info", .table = "tensor_data_info",
	  .size = 256, .ncols = 12, .cols = { "Model ID", "Iteration",
	  "Stream ID", "Task ID", "Batch ID", "Tensor Num", "Input Shapes",
	  "Input Data Types", "Input Formats", "Output Shapes",
	  "Output Data Types", "Output Formats" },
	  .record = job_ge_tensor_data },
	{ .prefix = "step_info", .table = "ge_step_info", .size = 64,
	  .ncols = 7, .cols = { "Model ID", "Stream ID", "Task ID",
	  "Timestamp(us)", "Iteration", "Thread ID", "Tag" },
	  .record = job_ge_step },
	{ .prefix = "id_map_info", .table = "ge_id_map", .size = 32,
	  .ncols = 5, .cols = { "Graph ID", "Model ID", "Session ID",
	  "Timestamp(us)", "Mode" }, .record = job_ge_id_map }
};

#define JOB_GE_NKINDS	(sizeof job_ge_kinds / sizeof job_ge_kinds[0])

static const struct job_ge_kind *
job_ge_kind(const char *name)
{
	const char	*p = name + strlen("Framework.");
	size_t		 i;

	if (strncmp(p, "host.", 5) == 0)
		p += 5;
	if (strncmp(p, "vm.", 3) == 0)
		p += 3;
	for (i = 0; i < JOB_GE_NKINDS; i++) {
		if (util_has_prefix(p, job_ge_kinds[i].prefix))
			return &job_ge_kinds[i];
	}
	return NULL;
}

static void
job_ge_file(struct job *j, size_t i, const struct job_ge_kind *k,
    const char *data, size_t len)
{
	size_t		 off, bad = 0, first = 0;

	if (job_files_table(j, j->files[i].path, k->table, (char **)k->cols,
	    k->ncols) != 0)
		return;
	for (off = 0; off + k->size <= len; off += k->size) {
		if (importer_le16((const unsigned char *)data + off) !=
		    JOB_GE_MAGIC) {
			if (bad++ == 0)
				first = off;
			continue;
		}
		k->record(j, (const unsigned char *)data + off);
	}
	if (bad > 0)
		store_load_warning(j->s, j->files[i].path, (int64_t)first,
		    "%zu %s record%s without the 0x5a5a magic skipped", bad,
		    k->prefix, bad == 1 ? "" : "s");
	if (len % k->size != 0)
		store_load_warning(j->s, j->files[i].path, (int64_t)(len -
		    len % k->size), "%zu trailing bytes are not a whole "
		    "%zu-byte %s record", len % k->size, k->size, k->prefix);
}

/*
 * Whether MindSpore wrote J: its Framework files carry MindSpore's vm
 * tags, or its ops MindSpore's full names (Default/..., Gradients/...),
 * as MindSpore's own parser tells its subgraphs apart.
 */
static bool
job_ge_mindspore(const struct job *j)
{
	const char	*n;
	size_t		 i;

	for (i = 0; i < j->nfiles; i++) {
		n = j->files[i].name;
		if (util_has_prefix(n, "Framework.host."))
			n += strlen("Framework.host.");
		else if (util_has_prefix(n, "Framework."))
			n += strlen("Framework.");
		else
			continue;
		if (util_has_prefix(n, "vm.") || util_has_prefix(n, "vm_"))
			return true;
	}
	for (i = 0; i < j->nops; i++) {
		n = j->ops[i].name;
		if (n != NULL && (util_has_prefix(n, "Default/") ||
		    util_has_prefix(n, "Gradients/")))
			return true;
	}
	return false;
}

/*
 * Load J's tensor_data_info, step_info and id_map_info files; run after
 * the task description so tensors reach their ops. Other Framework
 * records are reported as not decoded. Return the number of files read.
 */
int
job_ge_load(struct job *j)
{
	const struct job_ge_kind	*k;
	char				*data;
	size_t				 len, i, next;
	int				 files = 0;

	j->mindspore = job_ge_mindspore(j);
	for (i = 0; i < j->nfiles; i = next) {
		next = i + 1;
		if (j->files[i].kind != JOB_GE_OTHER)
			continue;
		if ((k = job_ge_kind(j->files[i].name)) == NULL) {
			store_load_warning(j->s, j->files[i].path, -1,
			    "Framework records of this kind are not decoded");
			continue;
		}
		next = job_files_read_stem(j, i, &data, &len);
		job_ge_file(j, i, k, data, len);
		free(data);
		files++;
	}
	return files;
}
