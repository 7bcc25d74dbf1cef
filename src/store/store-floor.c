/*
 * The least SQLite itself can spend on a bulk load into our schema: bare
 * INSERTs of task rows shaped like the ones an import writes (every column
 * the kernel rows fill, strings already interned), then the store's
 * indexes, with the load's pragmas. No parsing, no statistics, no
 * timeline tables. bench/floor prints it beside the store API's own cost,
 * so an import rate can be read against what the database allows.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store-int.h"

/* The task table's columns after its row id. */
#define STORE_FLOOR_COLS	32

/* CPU seconds this process has used. */
double
store_floor_cpu(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Bind row I: values spread like the demo's (streams, op types, shapes). */
static void
store_floor_bind(sqlite3_stmt *stmt, int64_t i, int64_t start_ns)
{
	uint64_t	r = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
	int		c;

	sqlite3_bind_int64(stmt, 1, 0);			/* device */
	sqlite3_bind_int64(stmt, 2, 0);			/* rank */
	sqlite3_bind_int64(stmt, 3, 1);			/* model_id */
	sqlite3_bind_int64(stmt, 4, i % 8);		/* stream */
	sqlite3_bind_int64(stmt, 5, i & 0xffff);	/* task */
	sqlite3_bind_int64(stmt, 6, 0);			/* batch */
	sqlite3_bind_null(stmt, 7);			/* context */
	sqlite3_bind_int64(stmt, 8, start_ns);
	sqlite3_bind_int64(stmt, 9, (int64_t)(r >> 40) % 200000);
	sqlite3_bind_int64(stmt, 10, (int64_t)(r >> 30) % 1000);
	sqlite3_bind_int64(stmt, 11, (int64_t)(r >> 20) % 48);
	sqlite3_bind_null(stmt, 12);			/* mix_block_num */
	sqlite3_bind_int64(stmt, 13, i / 10000);	/* step */
	sqlite3_bind_null(stmt, 14);			/* conn */
	sqlite3_bind_null(stmt, 15);			/* api */
	sqlite3_bind_int64(stmt, 16, 1 + (int64_t)(r >> 50) % 4000);
	sqlite3_bind_int64(stmt, 17, 1 + (int64_t)(r >> 52) % 40);
	for (c = 18; c <= 26; c++)	/* core type, state, shapes... */
		sqlite3_bind_int64(stmt, c, 1 + (int64_t)(r >> c) % 200);
	sqlite3_bind_null(stmt, 27);			/* pmu_set */
	sqlite3_bind_null(stmt, 28);			/* pmu */
	sqlite3_bind_null(stmt, 29);			/* model_name */
	sqlite3_bind_int64(stmt, 30, 1);		/* colset */
	sqlite3_bind_null(stmt, 31);			/* unlisted */
	sqlite3_bind_null(stmt, 32);			/* launch_ns */
}

/*
 * Write N task rows into a new store-shaped file at PATH and index them.
 * Set *insert_s and *index_s to the CPU seconds of each half. On failure
 * return -1 and set *cause.
 */
int
store_floor(const char *path, int64_t n, double *insert_s,
    double *index_s, char **cause)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*stmt = NULL;
	char		 sql[256];
	size_t		 len;
	int64_t		 i, start_ns = 1700000000000000000LL;
	double		 t0, t1;
	int		 c;

	len = (size_t)snprintf(sql, sizeof sql,
	    "INSERT INTO task VALUES (NULL");
	for (c = 0; c < STORE_FLOOR_COLS; c++)
		len += (size_t)snprintf(sql + len, sizeof sql - len, ", ?");
	snprintf(sql + len, sizeof sql - len, ")");

	unlink(path);
	/* SQLite set up as the importer has it, for a fair floor. */
	store_open_init();
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, store_load_pragmas, NULL, NULL, NULL) !=
	    SQLITE_OK ||
	    sqlite3_exec(db, store_schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, db != NULL ?
		    sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}

	t0 = store_floor_cpu();
	for (i = 0; i < n; i++) {
		start_ns += 1000 + i % 5000;
		store_floor_bind(stmt, i, start_ns);
		sqlite3_step(stmt);
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	t1 = store_floor_cpu();
	*insert_s = t1 - t0;

	if (sqlite3_exec(db, store_schema_index_sql, NULL, NULL,
	    NULL) != SQLITE_OK || sqlite3_exec(db, "COMMIT", NULL, NULL,
	    NULL) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	*index_s = store_floor_cpu() - t1;
	sqlite3_close(db);
	return 0;
}
