/*
 * torch_npu's analysis.db, its db export's twin of the text files
 * step_trace_time.csv, communication.json and communication_matrix.json:
 * StepTraceTime, CommAnalyzerTime, CommAnalyzerBandwidth and
 * CommAnalyzerMatrix become the generic tables the text files give
 * (step_trace_time, communication, communication_bandwidth,
 * communication_matrix), with the text files' column names, so a db
 * export of a cluster gets its cluster tables too. Numbers are written
 * as Python writes them; an op's name is "<op>@<group>" as in the JSON.
 * The database has no per-op wait and synchronization ratios: they are
 * computed as the JSON's are. A table that cannot be read is a warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-int.h"

/*
 * A source table: the generic table it fills, the columns it needs, the
 * SQL (its columns in the generic table's order), and the generic
 * table's column names. Cell kinds: 't' text, 'n' a number, 's' a step
 * ("step50" is 50), 'r' a ratio (the column over itself plus column
 * DB_ANALYSIS_TRANSIT), '-' nothing.
 */
#define DB_ANALYSIS_TRANSIT	5
struct db_analysis {
	const char		*table;
	const char		*needs;		/* the source table */
	const char		*cells;
	const char		*sql;
	const char *const	*cols;
};

static const char *const db_analysis_steps[] = { "Step", "Computing",
    "Communication(Not Overlapped)", "Overlapped", "Communication", "Free",
    "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)",
    "Preparing", NULL };
static const char *const db_analysis_time[] = { "Step", "Type", "Op Name",
    "Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)",
    "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)",
    "Wait Time Ratio", "Synchronization Time Ratio", NULL };
static const char *const db_analysis_matrix[] = { "Step", "Type", "Op Name",
    "Src Rank", "Dst Rank", "Transport Type", "Transit Size(MB)",
    "Transit Time(ms)", "Bandwidth(GB/s)", "Link Op Name", NULL };

static const struct db_analysis db_analysis_sources[] = {
	{ "step_trace_time", "StepTraceTime", "tnnnnnnnnn",
	    "SELECT step, computing, communication_not_overlapped,"
	    " overlapped, communication, free, stage, bubble,"
	    " communication_not_overlapped_and_exclude_receive, %s"
	    " FROM StepTraceTime ORDER BY rowid", db_analysis_steps },
	{ "communication", "CommAnalyzerTime", "sttnnnnnnrr",
	    "SELECT step, type, coalesce(hccl_op_name, '') || '@' ||"
	    " coalesce(group_name, ''),"
	    " start_timestamp, elapse_time, transit_time, wait_time,"
	    " synchronization_time, idle_time, wait_time, synchronization_time"
	    " FROM CommAnalyzerTime ORDER BY rowid", db_analysis_time },
	{ "communication_matrix", "CommAnalyzerMatrix", "stttttnnnt",
	    "SELECT step, type, coalesce(hccl_op_name, '') || '@' ||"
	    " coalesce(group_name, ''), src_rank,"
	    " dst_rank, transport_type, transit_size, transit_time,"
	    " bandwidth, op_name FROM CommAnalyzerMatrix ORDER BY rowid",
	    db_analysis_matrix }
};

/* Column I as a number as Python writes it, into BUF; NULL for none. */
static const char *
db_analysis_num(struct store_foreign_rows *r, int i, char *buf, size_t size)
{
	double	 d;

	if (store_foreign_is_int(r, i)) {
		snprintf(buf, size, "%lld", (long long)store_foreign_int(r, i));
		return buf;
	}
	if (store_foreign_real(r, i, &d) == 0) {
		util_fmt_pyfloat(buf, size, d);
		return buf;
	}
	return store_foreign_text(r, i);
}

/*
 * Column I over itself plus the transit time, rounded to 4 decimals as
 * Python rounds, into BUF; 0 where both are 0, as the JSON has it; NULL
 * where either is no number.
 */
static const char *
db_analysis_ratio(struct store_foreign_rows *r, int i, char *buf, size_t size)
{
	double	 v, transit;

	if (store_foreign_real(r, i, &v) != 0 ||
	    store_foreign_real(r, DB_ANALYSIS_TRANSIT, &transit) != 0)
		return NULL;
	if (v + transit == 0)
		snprintf(buf, size, "0");
	else
		util_fmt_pyfloat(buf, size, util_round4(v / (v + transit)));
	return buf;
}

/* Column I as a step: the N of "stepN", else the text. */
static const char *
db_analysis_step(struct store_foreign_rows *r, int i)
{
	const char	*t = store_foreign_text(r, i);
	int64_t		 n;

	if (t != NULL && strncmp(t, "step", 4) == 0 && t[4] != '\0' &&
	    util_parse_int(t + 4, strlen(t + 4), &n) == 0)
		return t + 4;
	return t;
}

/* Copy source SRC of F into its generic table; rows, or -1 with *cause. */
static int64_t
db_analysis_copy(struct store *s, struct store_foreign *f,
    const struct db_analysis *src, struct import_ctx *ctx, char **cause)
{
	struct store_foreign_rows	*r;
	const char			*cells[16];
	char				 bufs[16][64], *sql;
	size_t				 n, i;
	int64_t				 rows = 0;
	int				 rc;

	for (n = 0; src->cols[n] != NULL; n++)
		continue;
	/* Older exports have no preparing time. */
	xasprintf(&sql, src->sql, store_foreign_has(f, src->needs,
	    "preparing") ? "preparing" : "NULL");
	r = store_foreign_query(f, sql, cause);
	free(sql);
	if (r == NULL)
		return -1;
	if (store_load_generic_begin(s, src->table, ctx->device, ctx->rank,
	    (char **)(uintptr_t)src->cols, n, cause) != 0) {
		store_foreign_rows_free(r);
		return -1;
	}
	while ((rc = store_foreign_next(r, cause)) == 1) {
		for (i = 0; i < n; i++) {
			switch (src->cells[i]) {
			case 'n':
				cells[i] = db_analysis_num(r, (int)i, bufs[i],
				    sizeof bufs[i]);
				break;
			case 's':
				cells[i] = db_analysis_step(r, (int)i);
				break;
			case 'r':
				cells[i] = db_analysis_ratio(r, (int)i, bufs[i],
				    sizeof bufs[i]);
				break;
			case 't':
				cells[i] = store_foreign_text(r, (int)i);
				break;
			default:
				cells[i] = NULL;
			}
		}
		store_load_generic_row(s, (char **)(uintptr_t)cells, n);
		rows++;
	}
	store_foreign_rows_free(r);
	return rc < 0 ? -1 : rows;
}

/* Column I as text, never NULL. */
static const char *
db_analysis_text(struct store_foreign_rows *r, int i)
{
	const char	*t = store_foreign_text(r, i);

	return t != NULL ? t : "";
}

/* One communication_bandwidth row: CELLS, its sizes DIST; frees CELLS. */
static void
db_analysis_bw_row(struct store *s, char **cells, struct strbuf *dist)
{
	size_t	 i;

	cells[8] = dist->s != NULL ? dist->s : "";
	store_load_generic_row(s, cells, 9);
	for (i = 0; i < 8; i++) {
		free(cells[i]);
		cells[i] = NULL;
	}
	strbuf_reset(dist);
}

/*
 * communication_bandwidth from CommAnalyzerBandwidth, whose rows are one
 * per op, transport and packet size: one row per op and transport, the
 * sizes as "size:count:time" apart by ";", as the JSON's are written.
 */
static int64_t
db_analysis_bandwidth(struct store *s, struct store_foreign *f,
    struct import_ctx *ctx, char **cause)
{
	static const char *const cols[] = { "Step", "Type", "Op Name",
	    "Transport Type", "Transit Size(MB)", "Transit Time(ms)",
	    "Bandwidth(GB/s)", "Large Packet Ratio", "Size Distribution" };
	struct store_foreign_rows	*r;
	struct strbuf			 dist, key, last;
	char				*cells[9] = { NULL }, buf[3][64];
	const char			*c;
	int64_t				 rows = 0, count;
	size_t				 i;
	int				 rc;

	r = store_foreign_query(f, "SELECT step, type,"
	    " coalesce(hccl_op_name, '') || '@' || coalesce(group_name, ''),"
	    " transport_type, transit_size, transit_time,"
	    " bandwidth, large_packet_ratio, package_size, count,"
	    " total_duration FROM CommAnalyzerBandwidth ORDER BY rowid",
	    cause);
	if (r == NULL)
		return -1;
	if (store_load_generic_begin(s, "communication_bandwidth",
	    ctx->device, ctx->rank, (char **)(uintptr_t)cols, 9, cause) != 0) {
		store_foreign_rows_free(r);
		return -1;
	}
	strbuf_init(&dist);
	strbuf_init(&key);
	strbuf_init(&last);
	for (;;) {
		rc = store_foreign_next(r, cause);
		strbuf_reset(&key);
		for (i = 0; rc == 1 && i < 4; i++)
			strbuf_addf(&key, "%s\x1f", db_analysis_text(r,
			    (int)i));
		/* The rows of one op and transport end: its row. */
		if (cells[0] != NULL && (rc != 1 || strcmp(key.s, last.s) !=
		    0)) {
			db_analysis_bw_row(s, cells, &dist);
			rows++;
		}
		if (rc != 1)
			break;
		if (cells[0] == NULL) {
			c = db_analysis_step(r, 0);
			cells[0] = xstrdup(c != NULL ? c : "");
			for (i = 1; i < 4; i++)
				cells[i] = xstrdup(db_analysis_text(r,
				    (int)i));
			for (i = 4; i < 8; i++) {
				c = db_analysis_num(r, (int)i, buf[0],
				    sizeof buf[0]);
				cells[i] = c != NULL ? xstrdup(c) : NULL;
			}
			strbuf_reset(&last);
			strbuf_adds(&last, key.s);
		}
		count = store_foreign_int(r, 9);
		if (count == NP_NA || count <= 0)
			continue;
		c = db_analysis_num(r, 8, buf[0], sizeof buf[0]);
		strbuf_addf(&dist, "%s%s:%lld:", dist.len > 0 ? ";" : "",
		    c != NULL ? c : "", (long long)count);
		c = db_analysis_num(r, 10, buf[2], sizeof buf[2]);
		strbuf_adds(&dist, c != NULL ? c : "");
	}
	for (i = 0; i < 8; i++)
		free(cells[i]);
	store_foreign_rows_free(r);
	strbuf_release(&dist);
	strbuf_release(&key);
	strbuf_release(&last);
	return rc < 0 ? -1 : rows;
}

/*
 * Read analysis.db at PATH into the rank's tables (CTX's rank). Tables
 * that cannot be read are warnings. Return the rows read, or -1 with
 * *cause only when the store cannot be written.
 */
int64_t
db_analysis_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct store_foreign	*f;
	char			*why = NULL;
	size_t			 i;
	int64_t			 n, total = 0;

	if ((f = store_foreign_open(path, &why)) == NULL) {
		store_load_warning(s, path, -1, "%s", why);
		free(why);
		return 0;
	}
	store_load_file(s, path);
	for (i = 0; i <= sizeof db_analysis_sources /
	    sizeof *db_analysis_sources; i++) {
		if (i < sizeof db_analysis_sources /
		    sizeof *db_analysis_sources) {
			if (!store_foreign_has_all(f,
			    db_analysis_sources[i].needs))
				continue;
			n = db_analysis_copy(s, f, &db_analysis_sources[i],
			    ctx, &why);
		} else if (store_foreign_has_all(f, "CommAnalyzerBandwidth"))
			n = db_analysis_bandwidth(s, f, ctx, &why);
		else
			continue;
		if (n >= 0) {
			total += n;
			continue;
		}
		if (store_failed(s, cause) != 0) {
			free(why);
			store_foreign_free(f);
			return -1;
		}
		store_load_warning(s, path, -1, "%s", why);
		free(why);
		why = NULL;
	}
	store_foreign_free(f);
	return total;
}
