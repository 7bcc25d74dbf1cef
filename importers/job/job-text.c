/*
 * The Framework files of a legacy JOB that describe ops: task_desc_info
 * in its two forms (the MindSpore-era text lines "op_name block_dim
 * task_id stream_id", and the 256-byte GE records of doc/formats.md 3.8 with
 * names inline or as hash ids resolved through hash_dic), graph_desc_info
 * text lines ("op_name:N op_type:T input_id:0 input_format:F
 * input_data_type:D input_shape:"S" ... output_id:0 ...") that add the op
 * type and tensors, and the point file ("tag op_name") naming the ops that
 * mark the training points. The result is the JOB's op table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_TEXT_GE_SIZE	256
#define JOB_TEXT_MAGIC		0x5a5a

/* MindSpore's VM backend data type numbers (26..42). */
static const char *const job_text_vm_types[] = {
	"BEGIN", "BOOL", "INT", "INT8", "INT16", "INT32", "INT64", "UINT",
	"UINT8", "UINT16", "UINT32", "UINT64", "FLOAT", "FLOAT16", "FLOAT32",
	"FLOAT64", "END"
};

static uint16_t
job_text_u16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
job_text_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
job_text_u64(const unsigned char *p)
{
	return job_text_u32(p) | (uint64_t)job_text_u32(p + 4) << 32;
}

static struct job_op *
job_text_add(struct job *j)
{
	struct job_op	*op;

	j->ops = util_grow(j->ops, j->nops, 1, sizeof *j->ops);
	op = &j->ops[j->nops++];
	memset(op, 0, sizeof *op);
	op->batch = 0;
	op->model = NP_NA;
	return op;
}

/*
 * A string field of a GE record: inline text of at most MAX bytes (kind
 * 1), else a hash id, kept as its digits with *HASH set until
 * job_text_hashes() resolves it.
 */
static char *
job_text_field(const unsigned char *rec, size_t kind_off, size_t off,
    size_t max, bool *hash)
{
	char	*s;

	*hash = rec[kind_off] != 1;
	if (!*hash)
		return xstrndup((const char *)rec + off, max);
	xasprintf(&s, "%llu", (unsigned long long)job_text_u64(rec + off));
	return s;
}

/*
 * Decode 256-byte GE task records. Names given as hash ids stay numbers
 * until job_text_hashes() resolves them. Records with a bad magic are
 * skipped and reported once.
 */
static void
job_text_task_binary(struct job *j, const char *path, const char *data,
    size_t len)
{
	const unsigned char	*r;
	struct job_op		*op;
	size_t			 off, bad = 0, first = 0;
	uint32_t		 ttype;

	for (off = 0; off + JOB_TEXT_GE_SIZE <= len; off += JOB_TEXT_GE_SIZE) {
		r = (const unsigned char *)data + off;
		if (job_text_u16(r) != JOB_TEXT_MAGIC) {
			if (bad++ == 0)
				first = off;
			continue;
		}
		op = job_text_add(j);
		ttype = job_text_u32(r + 4);
		op->ai_cpu = ttype == 1;
		op->name = job_text_field(r, 8, 16, 120, &op->name_hash);
		op->type = job_text_field(r, 136, 144, 56, &op->type_hash);
		op->block_dim = job_text_u32(r + 220) & 0xffff;
		op->model = job_text_u32(r + 224);
		op->stream = job_text_u32(r + 228) % 2048;
		op->task = job_text_u16(r + 232);
		op->batch = job_text_u16(r + 234);
	}
	if (bad > 0)
		store_load_warning(j->s, path, (int64_t)first, "%zu task_desc "
		    "record%s without the 0x5a5a magic skipped", bad,
		    bad == 1 ? "" : "s");
	if (len % JOB_TEXT_GE_SIZE != 0)
		store_load_warning(j->s, path, (int64_t)(len - len %
		    JOB_TEXT_GE_SIZE), "%zu trailing bytes are not a whole "
		    "record", len % JOB_TEXT_GE_SIZE);
}

/* Decode text task lines; a line that does not parse is reported once. */
static void
job_text_task_lines(struct job *j, const char *path, const char *data,
    size_t len)
{
	const char	*p = data, *end = data + len, *nl;
	char		*line, *f[5], *save;
	struct job_op	*op;
	int64_t		 v[3], bad = 0, first = 0;
	int		 n;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		line = xstrndup(p, (size_t)(nl - p));
		n = 0;
		for (f[n] = strtok_r(line, " \t\r", &save); f[n] != NULL &&
		    n < 4; f[n] = strtok_r(NULL, " \t\r", &save))
			n++;
		if (n == 0) {
			free(line);
			continue;
		}
		if (n != 4 || util_parse_int(f[1], strlen(f[1]), &v[0]) != 0 ||
		    util_parse_int(f[2], strlen(f[2]), &v[1]) != 0 ||
		    util_parse_int(f[3], strlen(f[3]), &v[2]) != 0) {
			if (bad++ == 0)
				first = p - data;
			free(line);
			continue;
		}
		op = job_text_add(j);
		op->name = xstrdup(f[0]);
		/* A name of digits only is a hash id, as in binary records. */
		op->name_hash = strspn(f[0], "0123456789") == strlen(f[0]);
		op->block_dim = v[0];
		op->task = v[1];
		op->stream = v[2];
		free(line);
	}
	if (bad > 0)
		store_load_warning(j->s, path, first, "%lld task_desc line%s "
		    "not 'op_name block_dim task_id stream_id' skipped",
		    (long long)bad, bad == 1 ? "" : "s");
}

/*
 * Add the ops of a task_desc_info file (all its slices in DATA). The form
 * is told by the first record: the GE magic means binary. Return the
 * number of ops added.
 */
int
job_text_task_desc(struct job *j, const char *data, size_t len)
{
	size_t		 before = j->nops;
	const char	*path = job_files_first(j, JOB_TASK_DESC);

	if (len >= 2 && job_text_u16((const unsigned char *)data) ==
	    JOB_TEXT_MAGIC)
		job_text_task_binary(j, path, data, len);
	else
		job_text_task_lines(j, path, data, len);
	return (int)(j->nops - before);
}

static struct job_op *
job_text_find(struct job *j, const char *name)
{
	size_t	 i;

	for (i = 0; i < j->nops; i++) {
		if (strcmp(j->ops[i].name, name) == 0)
			return &j->ops[i];
	}
	return NULL;
}

/* Append VALUE to a ";"-joined list. */
static void
job_text_append(char **list, const char *value)
{
	char	*s;

	if (*list == NULL) {
		*list = xstrdup(value);
		return;
	}
	xasprintf(&s, "%s;%s", *list, value);
	free(*list);
	*list = s;
}

static void
job_text_graph_attr(struct job_op *op, bool out, const char *key,
    const char *value)
{
	char		*shape = NULL;
	const char	*v = value;
	int64_t		 n;
	size_t		 len = strlen(value);

	if (strcmp(key, "data_type") == 0 && util_parse_int(value, len,
	    &n) == 0 && n >= 26 && n <= 42)
		v = job_text_vm_types[n - 26];
	else if (strcmp(key, "shape") == 0 && len >= 2 && value[0] == '"')
		v = shape = xstrndup(value + 1, len - 2);
	if (strcmp(key, "format") == 0)
		job_text_append(out ? &op->out_formats : &op->in_formats, v);
	else if (strcmp(key, "data_type") == 0)
		job_text_append(out ? &op->out_dtypes : &op->in_dtypes, v);
	else if (strcmp(key, "shape") == 0)
		job_text_append(out ? &op->out_shapes : &op->in_shapes, v);
	free(shape);
}

/* One graph_desc_info line: fill in the op it names. */
static void
job_text_graph_line(struct job *j, char *line)
{
	struct job_op	*op = NULL;
	char		*tok, *save, *colon;
	bool		 out = false;

	for (tok = strtok_r(line, " \t\r", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\r", &save)) {
		if ((colon = strchr(tok, ':')) == NULL)
			continue;
		*colon++ = '\0';
		if (strcmp(tok, "op_name") == 0)
			op = job_text_find(j, colon);
		else if (op == NULL)
			return;
		else if (strcmp(tok, "op_type") == 0 && op->type == NULL)
			op->type = xstrdup(colon);
		else if (strcmp(tok, "input_id") == 0)
			out = false;
		else if (strcmp(tok, "output_id") == 0)
			out = true;
		else if (util_has_prefix(tok, "input_") ||
		    util_has_prefix(tok, "output_"))
			job_text_graph_attr(op, out, strchr(tok, '_') + 1,
			    colon);
	}
}

/* Add op types and tensors from graph_desc_info text. */
void
job_text_graph_desc(struct job *j, const char *data, size_t len)
{
	const char	*p = data, *end = data + len, *nl;
	char		*line;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		line = xstrndup(p, (size_t)(nl - p));
		job_text_graph_line(j, line);
		free(line);
	}
}

/*
 * Keep the point file ("tag op_name" lines: the ops whose step trace
 * tags mark FP start, BP end and the all-reduce points) as the generic
 * table training_points.
 */
void
job_text_point(struct job *j, const char *data, size_t len)
{
	static char	*cols[] = { "Tag", "Op Name" };
	const char	*p = data, *end = data + len, *nl, *sp;
	char		*cells[2];

	if (job_files_table(j, NULL, "training_points", cols, 2) != 0) {
		return;
	}
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((sp = memchr(p, ' ', (size_t)(nl - p))) == NULL)
			continue;
		cells[0] = xstrndup(p, (size_t)(sp - p));
		cells[1] = xstrndup(sp + 1, (size_t)(nl - sp - 1));
		cells[1][strcspn(cells[1], "\r")] = '\0';
		store_load_generic_row(j->s, cells, 2);
		free(cells[0]);
		free(cells[1]);
	}
}

/* The hash id *FIELD holds as digits in *ID; false if it holds none. */
static bool
job_text_id(const char *field, uint64_t *id)
{
	char	*end;

	if (!isdigit((unsigned char)*field))
		return false;
	errno = 0;
	*id = strtoull(field, &end, 10);
	return *end == '\0' && errno == 0;
}

/* Replace the hash id *FIELD by its string in D; false if D has none. */
static bool
job_text_lookup(const struct prof_dicts *d, char **field)
{
	uint64_t	 id, i;

	if (!job_text_id(*field, &id) || !util_map_get(&d->hash, id, &i))
		return false;
	free(*field);
	*field = xstrdup(d->strs[i]);
	return true;
}

/* Rewrite the hash id *FIELD (digits) in hex; false if it is not one. */
static bool
job_text_hex(char **field)
{
	uint64_t	 id;

	if (!job_text_id(*field, &id))
		return false;
	free(*field);
	xasprintf(field, "0x%016llx", (unsigned long long)id);
	return true;
}

/*
 * Resolve op names and types given as hash ids through the hash_dic files
 * ("id:string" lines, read as the raw decoder reads its dictionary).
 */
void
job_text_hashes(struct job *j, const char *data, size_t len)
{
	struct prof_dicts	 d;
	struct job_op		*op;
	size_t			 i;

	memset(&d, 0, sizeof d);
	prof_dict_parse(j->s, job_files_first(j, JOB_HASH_DIC), data, len,
	    &d);
	for (i = 0; i < j->nops; i++) {
		op = &j->ops[i];
		if (op->name_hash && job_text_lookup(&d, &op->name))
			op->name_hash = false;
		if (op->type_hash && job_text_lookup(&d, &op->type))
			op->type_hash = false;
	}
	prof_dict_release(&d);
}

/*
 * Ops whose name or type is a hash id no dictionary resolved: show the id
 * in hex and say once how many, naming the task description.
 */
static void
job_text_unresolved(struct job *j)
{
	struct job_op	*op;
	size_t		 i, n = 0;

	for (i = 0; i < j->nops; i++) {
		op = &j->ops[i];
		if (op->name_hash && job_text_hex(&op->name))
			n++;
		if (op->type_hash)
			job_text_hex(&op->type);
	}
	if (n > 0)
		store_load_warning(j->s, job_files_first(j, JOB_TASK_DESC), -1,
		    "%zu of %zu op names are hash ids that %s: shown in hex",
		    n, j->nops, job_files_first(j, JOB_HASH_DIC) != NULL ?
		    "no hash_dic line resolves" : "the JOB has no hash_dic to "
		    "resolve");
}

/*
 * Keep the op table as the generic table task_desc, so a JOB whose device
 * logs are missing still shows what ran where.
 */
void
job_text_table(struct job *j)
{
	static char	*cols[] = { "Task ID", "Stream ID", "Block Dim",
	    "Op Name", "OP Type", "Input Shapes", "Input Data Types",
	    "Input Formats", "Output Shapes", "Output Data Types",
	    "Output Formats" };
	struct job_op	*op;
	char		 v[3][24], *cells[11];
	size_t		 i;

	if (j->nops == 0)
		return;
	job_text_unresolved(j);
	if (job_files_table(j, NULL, "task_desc", cols, 11) != 0) {
		return;
	}
	for (i = 0; i < j->nops; i++) {
		op = &j->ops[i];
		snprintf(v[0], sizeof v[0], "%lld", (long long)op->task);
		snprintf(v[1], sizeof v[1], "%lld", (long long)op->stream);
		snprintf(v[2], sizeof v[2], "%lld", (long long)op->block_dim);
		cells[0] = v[0];
		cells[1] = v[1];
		cells[2] = v[2];
		cells[3] = op->name;
		cells[4] = op->type != NULL ? op->type : "N/A";
		cells[5] = op->in_shapes != NULL ? op->in_shapes : "N/A";
		cells[6] = op->in_dtypes != NULL ? op->in_dtypes : "N/A";
		cells[7] = op->in_formats != NULL ? op->in_formats : "N/A";
		cells[8] = op->out_shapes != NULL ? op->out_shapes : "N/A";
		cells[9] = op->out_dtypes != NULL ? op->out_dtypes : "N/A";
		cells[10] = op->out_formats != NULL ? op->out_formats : "N/A";
		store_load_generic_row(j->s, cells, 11);
	}
}

void
job_text_ops_free(struct job *j)
{
	struct job_op	*op;
	size_t		 i;

	for (i = 0; i < j->nops; i++) {
		op = &j->ops[i];
		free(op->name);
		free(op->type);
		free(op->in_shapes);
		free(op->in_dtypes);
		free(op->in_formats);
		free(op->out_shapes);
		free(op->out_dtypes);
		free(op->out_formats);
	}
	free(j->ops);
	j->ops = NULL;
	j->nops = 0;
}
