/*
 * torch_npu's memory_record.csv as counter series beside its table: per
 * component (APP, PTA, GE, ...) its Total Allocated, Reserved and Active
 * MB over time, so the timeline draws memory as a chart, its peak marked,
 * as it draws the counter tracks of a trace. A row whose time or value is
 * not a number adds no sample and is counted by the caller.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import-int.h"

static const char *const import_memory_keys[IMPORT_MEMORY_NVALS] = {
	"Total Allocated(MB)", "Total Reserved(MB)", "Total Active(MB)"
};

/* Find the columns in C; M->on is false if the file lacks time or values. */
void
import_memory_init(struct import_memory *m, struct csv_cols *c)
{
	size_t	 i;
	bool	 any = false;

	m->ts = import_columns_find(c, "Timestamp(us)");
	m->comp = import_columns_find(c, "Component");
	m->dev = import_columns_find(c, "Device Type");
	for (i = 0; i < IMPORT_MEMORY_NVALS; i++) {
		m->val[i] = import_columns_find(c, import_memory_keys[i]);
		any = any || m->val[i] >= 0;
	}
	m->on = m->ts >= 0 && any;
}

/*
 * Cell COL of F (N cells), NULL if the row lacks it or it says no value;
 * the parsers trim its blanks and the TAB after a vendor's time.
 */
static const char *
import_memory_cell(char **f, size_t n, int col)
{
	if (col < 0 || (size_t)col >= n || util_is_na(f[col], strlen(f[col])))
		return NULL;
	return f[col];
}

/*
 * The samples of one row F (N cells) of the file: -1 if it has no time,
 * or its time or one of its values is there but not a number (nothing is
 * added then).
 */
int
import_memory_row(struct store *s, const struct import_memory *m, char **f,
    size_t n, const struct import_ctx *ctx)
{
	struct store_counter	 c;
	char			*name;
	const char		*v, *comp, *dev;
	double			 vals[IMPORT_MEMORY_NVALS];
	bool			 has[IMPORT_MEMORY_NVALS];
	size_t			 i, len;
	int64_t			 d;

	if (!m->on)
		return 0;
	memset(&c, 0, sizeof c);
	if ((v = import_memory_cell(f, n, m->ts)) == NULL ||
	    util_parse_ns(v, strlen(v), &c.ts_ns) != 0)
		return -1;
	for (i = 0; i < IMPORT_MEMORY_NVALS; i++) {
		v = import_memory_cell(f, n, m->val[i]);
		if ((has[i] = v != NULL) && (util_parse_double(v, strlen(v),
		    &vals[i]) != 0 || !isfinite(vals[i])))
			return -1;
	}
	/* "NPU:0" names the device; the file's unit says otherwise. */
	c.device = ctx->device != NP_NA ? ctx->device : 0;
	if ((dev = import_memory_cell(f, n, m->dev)) != NULL) {
		len = strlen(dev);
		util_trim(&dev, &len);
		if (len > 4 && strncmp(dev, "NPU:", 4) == 0 &&
		    util_parse_int(dev + 4, len - 4, &d) == 0)
			c.device = d;
	}
	c.rank = ctx->rank;
	c.pid = NP_NA;
	c.tid = NP_NA;
	len = 0;
	if ((comp = import_memory_cell(f, n, m->comp)) != NULL) {
		len = strlen(comp);
		util_trim(&comp, &len);
	}
	xasprintf(&name, "Memory %.*s", (int)len, comp != NULL ? comp : "");
	c.name = name;
	for (i = 0; i < IMPORT_MEMORY_NVALS; i++) {
		if (!has[i])
			continue;
		c.key = import_memory_keys[i];
		c.value = vals[i];
		store_trace_load_counter(s, &c);
	}
	free(name);
	return 0;
}
