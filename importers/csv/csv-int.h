/*
 * What the exported-file importers share (importers/csv/): msprof's
 * mindstudio_profiler_output, PyTorch's ASCEND_PROFILER_OUTPUT and the SVP
 * summaries. They read .db and trace JSON files through those families.
 */
#ifndef CSV_INT_H
#define CSV_INT_H

#include "db-int.h"
#include "trace-int.h"

/* import-msprof.c */

/* import-pytorch.c */

/* import-summary.c */

/* import-svp.c */
int		 import_svp_aa_core(struct store *, const char *,
		     struct import_ctx *, char **);

#endif /* CSV_INT_H */
