/*
 * The binary Framework records of a generated CANN-era JOB (doc/formats.md
 * 3.8) besides the task description: tensor_data_info with each op's
 * input and output tensors (which then give the task_desc table its
 * shapes, as no graph_desc_info is written), step_info begin, FP, BP,
 * iteration end and end
 * records per iteration and one id_map_info record, with the expected
 * ge_step_info and ge_id_map tables.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* One 44-byte tensor at OFF: kind, format, data type, shape. */
static void
gen_ge_one(struct strbuf *b, size_t off, int kind, int format, int dtype,
    const char *shape)
{
	const char	*p = shape;
	int		 k = 0;

	gen_prof_bin_put(b, off, (uint64_t)kind, 4);
	gen_prof_bin_put(b, off + 4, (uint64_t)format, 4);
	gen_prof_bin_put(b, off + 8, (uint64_t)dtype, 4);
	while (*p != '\0' && k < 8) {
		gen_prof_bin_put(b, off + 12 + 4 * (size_t)k++,
		    strtoull(p, NULL, 10), 4);
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
}

/*
 * A tensor_data_info record for the op on STREAM, TASK, BATCH, in
 * MindSpore's enums (a MindSpore JOB: its ops are named Default/...): an
 * empty first input (FLOAT16, DEFAULT, marked +200 as MindSpore writes
 * them), input SHAPE (FLOAT32 43, ND 3, unmarked) and output SHAPE
 * (FLOAT16 42, DEFAULT 1, which GE's table would call NHWC), rendered in
 * the task_desc table as ";SHAPE", "FLOAT16;FLOAT32", "DEFAULT;ND",
 * "SHAPE", "FLOAT16", "DEFAULT".
 */
void
gen_ge_tensor(struct strbuf *b, int stream, int task, int batch,
    const char *shape)
{
	size_t	 off = gen_prof_bin_record(b, 256, 0x5a5a);

	gen_prof_bin_put(b, off + 2, 22, 2);
	gen_prof_bin_put(b, off + 4, 1, 4);
	gen_prof_bin_put(b, off + 16, (uint64_t)stream, 4);
	gen_prof_bin_put(b, off + 20, (uint64_t)task, 2);
	gen_prof_bin_put(b, off + 22, (uint64_t)batch, 2);
	gen_prof_bin_put(b, off + 24, 3, 4);
	gen_ge_one(b, off + 28, 0, 201, 242, "");
	gen_ge_one(b, off + 72, 0, 3, 43, shape);
	gen_ge_one(b, off + 116, 1, 1, 42, shape);
}

/*
 * A step_info record of iteration ITER at host time NS with TAG: 0 begin,
 * 1 end, 2 FP start, 3 BP end, 4 iteration end (the step trace's tags);
 * any other tag is written as its number.
 */
void
gen_ge_step(struct strbuf *b, struct strbuf *e, int iter, int tag,
    uint64_t ns)
{
	static const char *const names[] = { "begin", "end", "FP start",
	    "BP end", "iteration end" };
	size_t	 off = gen_prof_bin_record(b, 64, 0x5a5a);
	char	 buf[48], t[16];

	if (e->len == 0)
		strbuf_adds(e, "Model ID,Stream ID,Task ID,Timestamp(us),"
		    "Iteration,Thread ID,Tag\n");
	gen_prof_bin_put(b, off + 2, 25, 2);
	gen_prof_bin_put(b, off + 4, 1, 4);
	gen_prof_bin_put(b, off + 8, 0, 4);
	gen_prof_bin_put(b, off + 12, (uint64_t)tag + 1, 4);
	gen_prof_bin_put(b, off + 16, ns, 8);
	gen_prof_bin_put(b, off + 24, (uint64_t)iter, 8);
	gen_prof_bin_put(b, off + 32, 4300, 4);
	b->s[off + 36] = (char)tag;
	util_fmt_us(buf, sizeof buf, (int64_t)ns, 3, false);
	if (tag >= 0 && tag < 5)
		snprintf(t, sizeof t, "%s", names[tag]);
	else
		snprintf(t, sizeof t, "%d", tag);
	strbuf_addf(e, "1,0,%d,%s,%d,4300,%s\n", tag + 1, buf, iter, t);
}

/* The id_map_info record of graph 3, model 1, session 7. */
void
gen_ge_id_map(struct strbuf *b, struct strbuf *e, uint64_t ns)
{
	size_t	 off = gen_prof_bin_record(b, 32, 0x5a5a);
	char	 buf[48];

	gen_prof_bin_put(b, off + 2, 26, 2);
	gen_prof_bin_put(b, off + 4, 3, 4);
	gen_prof_bin_put(b, off + 8, 1, 4);
	gen_prof_bin_put(b, off + 12, 7, 4);
	gen_prof_bin_put(b, off + 16, ns, 8);
	gen_prof_bin_put(b, off + 24, 1, 2);
	util_fmt_us(buf, sizeof buf, (int64_t)ns, 3, false);
	strbuf_addf(e, "Graph ID,Model ID,Session ID,Timestamp(us),Mode\n"
	    "3,1,7,%s,1\n", buf);
}
