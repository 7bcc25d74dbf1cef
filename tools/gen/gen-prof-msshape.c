/*
 * MindSpore's recorded input shapes of the raw PROF generator's MindSpore
 * profile (-Z, doc/formats.md section 3.12): FRAMEWORK/
 * mindspore.record_shapes, a record per launch (name, input shapes and
 * input types, as MindSpore writes them), and the operator_details rows
 * MindSpore's analysis makes of them, as ms_operator_details.csv. Among
 * them: shapes with commas and a quote (the CSV quotes them), a record
 * whose fields come in another order, one without its shapes (an empty
 * cell), one whose name field is written twice (the last wins), one whose
 * name is not UTF-8 (N/A) and one whose last field runs past its end (the
 * fields before are kept).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_MSS_NAME	0
#define GEN_MSS_SHAPES	1
#define GEN_MSS_TYPES	2
#define GEN_MSS_TAG	3		/* ReportFileType RECORD_SHAPES */

/* The expected CSV cell of S: quoted if it holds a comma or a quote. */
static void
gen_mss_cell(struct strbuf *b, const char *s)
{
	const char	*p;

	if (strpbrk(s, ",\"\n") == NULL) {
		strbuf_adds(b, s);
		return;
	}
	strbuf_adds(b, "\"");
	for (p = s; *p != '\0'; p++)
		strbuf_addf(b, "%s%c", *p == '"' ? "\"" : "", *p);
	strbuf_adds(b, "\"");
}

/* Record K (of launch name NAME) into B, and its row into ROWS. */
static void
gen_mss_record(struct gen_buf *b, struct strbuf *rows, size_t k,
    const char *name)
{
	struct gen_buf	 rec;
	char		 shapes[96], types[64];

	memset(&rec, 0, sizeof rec);
	snprintf(shapes, sizeof shapes, k % 5 == 3 ? "[[%zu,\"x\"],[]]" :
	    "[[%zu,1024],[1024]]", 8 * (k + 1));
	snprintf(types, sizeof types, "[float16,float16]");
	if (k == 2) {
		/* Another order, and no shapes: an empty cell. */
		gen_prof_bin_tlv_field(&rec, GEN_MSS_TYPES, types);
		gen_prof_bin_tlv_field(&rec, GEN_MSS_NAME, name);
		shapes[0] = '\0';
	} else if (k == 4) {
		/* The name twice: the last one is read. */
		gen_prof_bin_tlv_field(&rec, GEN_MSS_NAME, "first");
		gen_prof_bin_tlv_field(&rec, GEN_MSS_SHAPES, shapes);
		gen_prof_bin_tlv_field(&rec, GEN_MSS_NAME, name);
	} else if (k == 6) {
		/* A name that is not UTF-8 reads N/A. */
		gen_prof_bin_tlv_field(&rec, GEN_MSS_NAME, "Op\xff");
		gen_prof_bin_tlv_field(&rec, GEN_MSS_SHAPES, shapes);
		name = "N/A";
	} else {
		gen_prof_bin_tlv_field(&rec, GEN_MSS_NAME, name);
		gen_prof_bin_tlv_field(&rec, GEN_MSS_SHAPES, shapes);
		if (k == 7) {
			/* A types field that claims more than is left. */
			gen_prof_bin_buf_u16(&rec, GEN_MSS_TYPES);
			gen_prof_bin_buf_u32(&rec, 1000);
			gen_prof_bin_buf_add(&rec, (const unsigned char *)
			    "[f", 2);
		} else
			gen_prof_bin_tlv_field(&rec, GEN_MSS_TYPES, types);
	}
	gen_prof_bin_tlv_record(b, GEN_MSS_TAG, &rec);
	free(rec.p);
	gen_mss_cell(rows, name);
	strbuf_adds(rows, ",");
	gen_mss_cell(rows, shapes);
	strbuf_adds(rows, "\n");
}

/*
 * Write FRAMEWORK/mindspore.record_shapes into DIR for the launches of
 * G, and into EXPECT (if set) the rows operator_details should have, as
 * ms_operator_details.csv.
 */
int
gen_prof_msshape(struct gen_prof *g, const char *dir, const char *expect,
    char **cause)
{
	struct gen_buf	 b;
	struct strbuf	 rows;
	char		 name[64];
	size_t		 i, k = 0;
	int		 rc;

	memset(&b, 0, sizeof b);
	strbuf_init(&rows);
	strbuf_adds(&rows, "Name,Input Shapes\n");
	for (i = 0; i < g->nops && k < 30; i++) {
		if (g->ops[i].acl_e == 0)
			continue;
		snprintf(name, sizeof name, "Default/network/MatMul-op%zu", k);
		gen_mss_record(&b, &rows, k++, name);
	}
	rc = gen_prof_bin_write(dir, "mindspore.record_shapes",
	    (const char *)b.p, b.len, cause);
	if (rc == 0 && expect != NULL)
		rc = gen_prof_bin_write(expect, "ms_operator_details.csv",
		    rows.s, rows.len, cause);
	strbuf_release(&rows);
	free(b.p);
	return rc;
}
