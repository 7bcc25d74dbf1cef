/*
 * The sampled system tables of the vendor's SQLite exports as counter
 * series, the same store rows a trace's C events become, so the timeline
 * draws them as sparklines and export timeline writes them as counters:
 * AICORE_FREQ (MHz), HBM bandwidth per HBM and direction, LLC hit rate
 * and throughput per LLC and mode, NPU_MEM ddr and hbm per type, ACC_PMU
 * bandwidth and outstanding levels per accelerator, SOC_BANDWIDTH_LEVEL.
 * Each series is named after its table and the sample's ids, its key is
 * the column the value comes from, and the value is kept as the database
 * holds it. A table that is missing is skipped; one that cannot be read
 * is a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/* A query whose rows are device, time, series name, key and value. */
struct db_counter_source {
	const char	*table;
	const char	*needs;		/* columns the query reads */
	const char	*sql;
};

static const struct db_counter_source db_counter_sources[] = {
	{ "AICORE_FREQ", "deviceId timestampNs freq",
	  "SELECT deviceId, timestampNs, 'AI Core Freq', 'MHz', freq"
	  " FROM AICORE_FREQ" },
	{ "HBM", "deviceId timestampNs bandwidth hbmId type",
	  "SELECT deviceId, timestampNs, 'HBM ' || hbmId || '/' || "
	  DB_STR("type", "HBM.type") ", 'bandwidth', bandwidth FROM HBM" },
	{ "LLC", "deviceId llcId timestampNs hitRate throughput mode",
	  "SELECT deviceId, timestampNs, 'LLC ' || llcId || ' ' || "
	  DB_STR("mode", "LLC.mode") " || '/hitRate', 'hitRate', hitRate"
	  " FROM LLC"
	  " UNION ALL SELECT deviceId, timestampNs, 'LLC ' || llcId || ' ' ||"
	  " " DB_STR("mode", "LLC.mode") " || '/throughput', 'throughput',"
	  " throughput FROM LLC" },
	{ "NPU_MEM", "type ddr hbm timestampNs deviceId",
	  "SELECT deviceId, timestampNs, 'NPU MEM ' || "
	  DB_STR("type", "NPU_MEM.type") " || '/ddr', 'ddr', ddr FROM NPU_MEM"
	  " UNION ALL SELECT deviceId, timestampNs, 'NPU MEM ' || "
	  DB_STR("type", "NPU_MEM.type") " || '/hbm', 'hbm', hbm FROM NPU_MEM" },
	{ "ACC_PMU", "accId readBwLevel writeBwLevel readOstLevel"
	  " writeOstLevel timestampNs deviceId",
	  "SELECT deviceId, timestampNs, 'Acc PMU ' || accId ||"
	  " '/readBwLevel', 'readBwLevel', readBwLevel FROM ACC_PMU"
	  " UNION ALL SELECT deviceId, timestampNs, 'Acc PMU ' || accId ||"
	  " '/writeBwLevel', 'writeBwLevel', writeBwLevel FROM ACC_PMU"
	  " UNION ALL SELECT deviceId, timestampNs, 'Acc PMU ' || accId ||"
	  " '/readOstLevel', 'readOstLevel', readOstLevel FROM ACC_PMU"
	  " UNION ALL SELECT deviceId, timestampNs, 'Acc PMU ' || accId ||"
	  " '/writeOstLevel', 'writeOstLevel', writeOstLevel FROM ACC_PMU" },
	{ "SOC_BANDWIDTH_LEVEL", "l2BufferBwLevel mataBwLevel timestampNs"
	  " deviceId",
	  "SELECT deviceId, timestampNs, 'L2 Buffer Bw Level',"
	  " 'l2BufferBwLevel', l2BufferBwLevel FROM SOC_BANDWIDTH_LEVEL"
	  " UNION ALL SELECT deviceId, timestampNs, 'Mata Bw Level',"
	  " 'mataBwLevel', mataBwLevel FROM SOC_BANDWIDTH_LEVEL" }
};

#define DB_COUNTER_NSOURCES						\
	(sizeof db_counter_sources / sizeof db_counter_sources[0])

/* True if F's table T has every column of the space-separated COLS. */
static bool
db_counters_has(struct store_foreign *f, const char *t, const char *cols)
{
	char	*copy, *c, *last = NULL;
	bool	 ok = true;

	copy = xstrdup(cols);
	for (c = strtok_r(copy, " ", &last); c != NULL && ok;
	    c = strtok_r(NULL, " ", &last))
		ok = store_foreign_has(f, t, c);
	free(copy);
	return ok;
}

/* Load one source; return its samples. */
static int64_t
db_counters_source(struct store *s, struct store_foreign *f,
    const char *path, const struct db_counter_source *src, int64_t rank)
{
	struct store_foreign_rows	*r;
	struct store_counter		 c;
	char				*why = NULL;
	int64_t				 n = 0, total = 0;
	int				 rc;

	if ((r = store_foreign_query(f, src->sql, &why)) == NULL) {
		store_load_warning(s, path, -1, "cannot read %s: %s",
		    src->table, why);
		free(why);
		return 0;
	}
	memset(&c, 0, sizeof c);
	c.rank = rank;
	c.pid = c.tid = NP_NA;
	while ((rc = store_foreign_next(r, &why)) == 1) {
		total++;
		c.ts_ns = store_foreign_int(r, 1);
		if (c.ts_ns == NP_NA || store_foreign_real(r, 4, &c.value) != 0)
			continue;
		c.device = store_foreign_int(r, 0);
		c.name = store_foreign_text(r, 2);
		c.key = store_foreign_text(r, 3);
		store_trace_load_counter(s, &c);
		n++;
	}
	if (rc < 0) {
		store_load_warning(s, path, -1, "%s read in part: %s",
		    src->table, why);
		free(why);
	}
	db_rows_nonint(s, path, src->table, r, total);
	store_foreign_rows_free(r);
	if (n < total)
		store_load_warning(s, path, -1, "%lld of %lld %s samples "
		    "skipped: no time, or a value that is no number",
		    (long long)(total - n), (long long)total, src->table);
	return n;
}

/*
 * Load the counter tables of the vendor database F (file PATH) for the
 * rank of CTX. Return the samples loaded.
 */
int64_t
db_counters_load(struct store *s, struct store_foreign *f, const char *path,
    struct import_ctx *ctx)
{
	int64_t	 n = 0;
	size_t	 i;

	for (i = 0; i < DB_COUNTER_NSOURCES; i++) {
		if (db_counters_has(f, db_counter_sources[i].table,
		    db_counter_sources[i].needs))
			n += db_counters_source(s, f, path,
			    &db_counter_sources[i], ctx->rank);
	}
	return n;
}
