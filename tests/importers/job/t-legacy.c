/*
 * Legacy and SVP file names: which are legacy, and the model and
 * iteration they carry (import_rows_legacy()); the names of GE tensor
 * codes as each producer gives them (job_ge_enum()).
 */
#include <stdlib.h>

#include "job-int.h"
#include "tap.h"

/* Code V named as a format or a data type, MindSpore's JOB or not. */
static void
code(uint32_t v, bool format, bool ms, const char *want, const char *what)
{
	struct strbuf	 b;

	strbuf_init(&b);
	job_ge_enum(&b, v, format, ms);
	is_str(b.s != NULL ? b.s : "", want, "%s", what);
	strbuf_release(&b);
}

/* The stem of FILE, or "-" if it is not a legacy name; sets *M and *I. */
static char *
legacy(const char *file, int64_t *m, int64_t *i)
{
	char	*stem = import_rows_legacy(file, m, i);

	return stem != NULL ? stem : xstrdup("-");
}

int
main(void)
{
	static const char *const modern[] = {
		"op_summary_20260601142441.csv",
		"op_summary_slice_0_20260601142441.csv",
		"kernel_details.csv", "op_summary_0.csv", "op_summary_0_1.csv",
		"op_summary_0.resnet.x.csv",
		"op_summary_0.m.a.b.c.d.e.f.csv", NULL
	};
	char	*s;
	int64_t	 m, i;
	size_t	 k;

	s = legacy("summary/op_summary_0_1_1.csv", &m, &i);
	is_str(s, "op_summary_0_1_1", "device, model, iteration");
	ok(m == 1 && i == 1, "model 1, iteration 1");
	free(s);
	s = legacy("op_statistic_2_5_10_7.csv", &m, &i);
	is_str(s, "op_statistic_2_5_10_7", "an SVP op_statistic with a count");
	ok(m == 5 && i == 7, "model second, iteration last");
	free(s);
	s = legacy("op_summary_0.resnet.v2.3.1.1.10.0.800.csv", &m, &i);
	is_str(s, "op_summary_0.resnet.v2.3.1.1.10.0.800",
	    "an SVP op_summary whose model name has a dot");
	ok(m == 3 && i == NP_NA, "its model id, no iteration");
	free(s);
	for (k = 0; modern[k] != NULL; k++) {
		s = legacy(modern[k], &m, &i);
		is_str(s, "-", "%s is not a legacy name", modern[k]);
		ok(m == NP_NA && i == NP_NA, "and has no model or iteration");
		free(s);
	}
	code(1, true, false, "NHWC", "GE format 1");
	code(1, true, true, "DEFAULT", "format 1 in a MindSpore JOB");
	code(201, true, false, "DEFAULT", "a format MindSpore marked (+200)");
	code(29, true, false, "FRACTAL_NZ", "GE format 29");
	code(0x101, true, false, "NHWC:1", "a GE sub-format");
	code(UINT32_MAX, true, false, "UNDEFINED", "GE's undefined format");
	code(10, true, true, "FRAC_NZ", "MindSpore format 10");
	code(99, true, true, "99", "a format MindSpore has no name for");
	code(42, false, false, "DT_HIFLOAT4", "GE data type 42");
	code(42, false, true, "FLOAT16", "data type 42 in a MindSpore JOB");
	code(243, false, false, "FLOAT32", "a data type MindSpore marked");
	code(5, false, false, "5", "GE's unused data type 5");
	code(3, false, true, "3", "below MindSpore's first data type");
	return done_testing();
}
