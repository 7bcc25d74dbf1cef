/*
 * The memory tables of the vendor's SQLite exports, kept as the generic
 * tables the text export gives: MEMORY_RECORD (with the "APP" rows
 * torch_npu adds from NPU_MEM) as memory_record, OP_MEMORY as
 * operator_memory, NPU_MODULE_MEM as npu_module_mem and NPU_MEM as
 * npu_mem, with the CSV's headers and its cells printed the way the
 * vendor prints them: microseconds with 3 decimals, bytes as MB or KB
 * (Python's shortest float text for the PyTorch files, integer KB for
 * msprof's), devices as "NPU:N". A table that cannot be read is a
 * warning; the others still load.
 */
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/*
 * How a source column becomes a cell, one letter per column:
 *   t  text as it is          i  integer
 *   u  ns as us, 3 decimals   n  device id as "NPU:N"
 *   m  bytes as MB (float)    k  bytes as KB (float)
 *   K  bytes as KB (integer)  M  bytes as integer KB, then MB (float)
 * A NULL is an empty cell, as in the CSV. The query's last column is the
 * row's device, which is not printed.
 */
struct db_source {
	const char	*table;		/* the generic table it fills */
	const char	*needs;		/* vendor tables, space-separated */
	bool		 pytorch;	/* only for PyTorch databases */
	bool		 msprof;	/* only for msprof databases */
	const char	*cells;
	const char	*sql;
};

static const char *const db_tables_memory_record[] = { "Component",
    "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
    "Total Active(MB)", "Stream Ptr", "Device Type", NULL };
static const char *const db_tables_operator_memory[] = { "Name", "Size(KB)",
    "Allocation Time(us)", "Release Time(us)", "Active Release Time(us)",
    "Duration(us)", "Active Duration(us)", "Allocation Total Allocated(MB)",
    "Allocation Total Reserved(MB)", "Allocation Total Active(MB)",
    "Release Total Allocated(MB)", "Release Total Reserved(MB)",
    "Release Total Active(MB)", "Stream Ptr", "Device Type", NULL };
static const char *const db_tables_module_pt[] = { "Component",
    "Timestamp(us)", "Total Reserved(MB)", "Device", NULL };
static const char *const db_tables_module_msprof[] = { "Device_id",
    "Component", "Timestamp(us)", "Total Reserved(KB)", "Device", NULL };
static const char *const db_tables_npu_mem[] = { "Device_id", "event",
    "ddr(KB)", "hbm(KB)", "memory(KB)", "timestamp(us)", NULL };

static const struct {
	const char		 *name;
	const char *const	 *cols;
	bool			  msprof;	/* msprof's header */
} db_tables_headers[] = {
	{ "memory_record", db_tables_memory_record, false },
	{ "operator_memory", db_tables_operator_memory, false },
	{ "npu_module_mem", db_tables_module_pt, false },
	{ "npu_module_mem", db_tables_module_msprof, true },
	{ "npu_mem", db_tables_npu_mem, false }
};

static const struct db_source db_tables_sources[] = {
	/* torch_npu puts the process's own (APP) total first. */
	{ "memory_record", "NPU_MEM STRING_IDS", true, false, "tuMMMin",
	    "SELECT 'APP', m.timestampNs, NULL, m.ddr + m.hbm, NULL, NULL,"
	    " m.deviceId, m.deviceId FROM NPU_MEM m"
	    " WHERE " DB_STR("m.type", "NPU_MEM.type") " = 'app'"
	    " ORDER BY m.deviceId, m.timestampNs" },
	{ "memory_record", "MEMORY_RECORD STRING_IDS", true, false, "tummmin",
	    "SELECT " DB_STR("m.component", "MEMORY_RECORD.component")
	    ", m.timestamp, m.totalAllocated, m.totalReserved,"
	    " m.totalActive, m.streamPtr, m.deviceId, m.deviceId"
	    " FROM MEMORY_RECORD m"
	    " ORDER BY m.deviceId, m.rowid" },
	{ "operator_memory", "OP_MEMORY STRING_IDS", true, false,
	    "tkuuuuummmmmmin",
	    "SELECT " DB_STR("o.name", "OP_MEMORY.name") ", o.size,"
	    " o.allocationTime, o.releaseTime, o.activeReleaseTime, o.duration,"
	    " o.activeDuration, o.allocationTotalAllocated,"
	    " o.allocationTotalReserved, o.allocationTotalActive,"
	    " o.releaseTotalAllocated, o.releaseTotalReserved,"
	    " o.releaseTotalActive, o.streamPtr, o.deviceId, o.deviceId"
	    " FROM OP_MEMORY o ORDER BY o.deviceId, o.rowid" },
	{ "npu_module_mem", "NPU_MODULE_MEM ENUM_MODULE", true, false, "tuMn",
	    "SELECT (SELECT name FROM ENUM_MODULE WHERE id = m.moduleId),"
	    " m.timestampNs, m.totalReserved, m.deviceId, m.deviceId"
	    " FROM NPU_MODULE_MEM m"
	    " ORDER BY m.deviceId, m.moduleId, m.timestampNs" },
	{ "npu_module_mem", "NPU_MODULE_MEM ENUM_MODULE", false, true, "ituKn",
	    "SELECT m.deviceId,"
	    " (SELECT name FROM ENUM_MODULE WHERE id = m.moduleId),"
	    " m.timestampNs, m.totalReserved, m.deviceId, m.deviceId"
	    " FROM NPU_MODULE_MEM m"
	    " ORDER BY m.deviceId, m.moduleId, m.timestampNs" },
	{ "npu_mem", "NPU_MEM STRING_IDS", false, false, "itKKKu",
	    "SELECT m.deviceId, " DB_STR("m.type", "NPU_MEM.type")
	    ", m.ddr, m.hbm,"
	    " m.ddr + m.hbm, m.timestampNs, m.deviceId FROM NPU_MEM m"
	    " ORDER BY m.deviceId, m.timestampNs, m.rowid" }
};

/*
 * Column I of the row as cell kind K: text is borrowed from the row, until
 * the next step; numbers are printed into BUF.
 */
static const char *
db_tables_cell(struct store_foreign_rows *r, int i, char k, char *buf,
    size_t size)
{
	const char	*t;
	int64_t		 v;

	if (k == 't')
		return (t = store_foreign_text(r, i)) != NULL ? t : "";
	if ((v = store_foreign_int(r, i)) == NP_NA)
		return "";
	switch (k) {
	case 'u':
		util_fmt_us(buf, size, v, 3, false);
		break;
	case 'n':
		snprintf(buf, size, "NPU:%lld", (long long)v);
		break;
	case 'm':
		util_fmt_pyfloat(buf, size, (double)v / 1048576.0);
		break;
	case 'k':
		util_fmt_pyfloat(buf, size, (double)v / 1024.0);
		break;
	case 'K':
		snprintf(buf, size, "%lld", (long long)(v / 1024));
		break;
	case 'M':
		util_fmt_pyfloat(buf, size, (double)(v / 1024) / 1024.0);
		break;
	default:
		snprintf(buf, size, "%lld", (long long)v);
		break;
	}
	return buf;
}

/* The header of table NAME in the flavour MSPROF. */
static const char *const *
db_tables_header(const char *name, bool msprof, size_t *n)
{
	const char *const	*cols = NULL;
	size_t			 i;

	for (i = 0; i < sizeof db_tables_headers / sizeof *db_tables_headers;
	    i++) {
		if (strcmp(db_tables_headers[i].name, name) != 0)
			continue;
		cols = db_tables_headers[i].cols;
		if (db_tables_headers[i].msprof == msprof)
			break;
	}
	if (cols == NULL)
		fatalx("%s: no header for %s", __func__, name);
	for (*n = 0; cols[*n] != NULL; (*n)++)
		;
	return cols;
}

/*
 * Copy the rows of source SRC into its generic table; a new device starts
 * a new batch of rows. Return the rows loaded, or -1 with *cause set.
 */
static int64_t
db_tables_copy(struct store *s, struct store_foreign *f, const char *path,
    const struct db_source *src, bool msprof, struct import_ctx *ctx,
    char **cause)
{
	struct store_foreign_rows	 *r;
	const char *const		 *cols;
	const char			**cells;
	char				(*bufs)[64];
	struct import_memory		  mem;
	struct csv_cols			 *cc;
	size_t				  ncols, i;
	int64_t				  n = 0, nochart = 0, dev;
	int64_t				  last = NP_NA;
	int				  rc;

	cols = db_tables_header(src->table, msprof, &ncols);
	/* memory_record is a chart in the timeline too, as from a CSV. */
	memset(&mem, 0, sizeof mem);
	if (strcmp(src->table, "memory_record") == 0) {
		cc = import_columns_create((char **)cols, ncols);
		import_memory_init(&mem, cc);
		import_columns_free(cc);
	}
	if (strlen(src->cells) != ncols)
		fatalx("%s: %s: %zu cells for %zu columns", __func__,
		    src->table, strlen(src->cells), ncols);
	if ((r = store_foreign_query(f, src->sql, cause)) == NULL)
		return -1;
	cells = xcalloc(ncols, sizeof *cells);
	bufs = xcalloc(ncols, sizeof *bufs);
	while ((rc = store_foreign_next(r, cause)) == 1) {
		dev = store_foreign_int(r, (int)ncols);
		if (n == 0 || dev != last) {
			if (store_load_generic_begin(s, src->table,
			    dev != NP_NA ? dev : ctx->device, ctx->rank,
			    (char **)cols, ncols, cause) != 0) {
				rc = -1;
				break;
			}
			last = dev;
		}
		for (i = 0; i < ncols; i++)
			cells[i] = db_tables_cell(r, (int)i, src->cells[i],
			    bufs[i], sizeof bufs[i]);
		store_load_generic_row(s, (char **)cells, ncols);
		if (import_memory_row(s, &mem, (char **)cells, ncols, ctx) != 0)
			nochart++;
		n++;
	}
	free(bufs);
	free(cells);
	db_rows_nonint(s, path, src->table, r, n);
	store_foreign_rows_free(r);
	if (nochart > 0)
		store_load_warning(s, path, -1, "%lld of %lld %s rows: no time "
		    "or memory value, kept in the table, left out of the memory"
		    " chart", (long long)nochart, (long long)n, src->table);
	return rc < 0 ? -1 : n;
}

/*
 * Load the memory tables of the vendor database F (file PATH); PYTORCH
 * says it is torch_npu's, whose headers differ from msprof's. Return the
 * rows loaded; a table that fails is a warning.
 */
int64_t
db_tables_load(struct store *s, struct store_foreign *f, const char *path,
    struct import_ctx *ctx, bool pytorch)
{
	const struct db_source	*src;
	char			*why = NULL;
	int64_t			 n, total = 0;
	size_t			 i;

	for (i = 0; i < sizeof db_tables_sources / sizeof *db_tables_sources;
	    i++) {
		src = &db_tables_sources[i];
		if ((src->pytorch && !pytorch) || (src->msprof && pytorch) ||
		    !store_foreign_has_all(f, src->needs))
			continue;
		n = db_tables_copy(s, f, path, src, !pytorch, ctx, &why);
		if (n < 0) {
			store_load_warning(s, path, -1, "%s not imported: %s",
			    src->table, why);
			free(why);
			why = NULL;
		} else
			total += n;
	}
	return total;
}
