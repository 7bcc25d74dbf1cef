/*
 * Legacy and SVP file names: which are legacy, and the model and
 * iteration they carry (import_rows_legacy()).
 */
#include <stdlib.h>

#include "job-int.h"
#include "tap.h"

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
	return done_testing();
}
