/*
 * The least SQLite itself can spend on a bulk load into our schema: bare
 * INSERTs of task rows shaped like the ones an import writes (every column
 * the kernel rows fill, strings already interned), then the store's
 * indexes, with the load's pragmas. No parsing, no statistics, no
 * timeline tables. bench/floor prints it beside the store API's own cost,
 * so an import rate can be read against what the database allows; and
 * beside the floor of a design that stores less (issue #24): the same
 * tasks as blocks of STORE_FLOOR_BLOCK rows, each column delta- and
 * varint-coded into one blob per block, one SQLite row a block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store-int.h"

/* The task table's columns after its row id. */
#define STORE_FLOOR_COLS	32
#define STORE_FLOOR_BLOCK	1024

/* CPU seconds this process has used. */
double
store_floor_cpu(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The values of row I (columns 1 to STORE_FLOOR_COLS into V, NP_NA for a
 * NULL), spread like the demo's: streams, op types, shapes.
 */
static void
store_floor_values(int64_t *v, int64_t i, int64_t start_ns)
{
	uint64_t	r = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
	int		c;

	for (c = 1; c <= STORE_FLOOR_COLS; c++)
		v[c] = NP_NA;
	v[1] = 0;				/* device */
	v[2] = 0;				/* rank */
	v[3] = 1;				/* model_id */
	v[4] = i % 8;				/* stream */
	v[5] = i & 0xffff;			/* task */
	v[6] = 0;				/* batch; 7 context */
	v[8] = start_ns;
	v[9] = (int64_t)(r >> 40) % 200000;
	v[10] = (int64_t)(r >> 30) % 1000;
	v[11] = (int64_t)(r >> 20) % 48;	/* 12 mix_block_num */
	v[13] = i / 10000;			/* step; 14 conn, 15 api */
	v[16] = 1 + (int64_t)(r >> 50) % 4000;
	v[17] = 1 + (int64_t)(r >> 52) % 40;
	for (c = 18; c <= 26; c++)	/* core type, state, shapes... */
		v[c] = 1 + (int64_t)(r >> c) % 200;
	v[30] = 1;				/* colset; the rest NULL */
}

/* Bind row I's values. */
static void
store_floor_bind(sqlite3_stmt *stmt, int64_t i, int64_t start_ns)
{
	int64_t	 v[STORE_FLOOR_COLS + 1];
	int	 c;

	store_floor_values(v, i, start_ns);
	for (c = 1; c <= STORE_FLOOR_COLS; c++)
		store_load_bind_i64(stmt, c, v[c]);
}

/* Append V to B (at *LEN) as a zigzag varint. */
static void
store_floor_varint(unsigned char *b, size_t *len, int64_t v)
{
	uint64_t	 u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);

	while (u >= 0x80) {
		b[(*len)++] = (unsigned char)(u | 0x80);
		u >>= 7;
	}
	b[(*len)++] = (unsigned char)u;
}

/*
 * The floor of storing less: N tasks into a new file at PATH as blocks of
 * STORE_FLOOR_BLOCK, each column of a block delta- and varint-coded, one
 * row (first start, count, blob) a block, and the one index a block
 * table needs (by first start). Set *secs to the CPU seconds and *bytes
 * to the blobs' size. On failure return -1 and set *cause.
 */
int
store_floor_blocks(const char *path, int64_t n, double *secs,
    int64_t *bytes, char **cause)
{
	sqlite3		*db = NULL;
	sqlite3_stmt	*stmt = NULL;
	int64_t		(*v)[STORE_FLOOR_COLS + 1], i, j, k, prev, first;
	int64_t		 start_ns = 1700000000000000000LL;
	unsigned char	*b;
	size_t		 len;
	double		 t0;
	int		 c;

	unlink(path);
	store_open_init();
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, store_load_pragmas, NULL, NULL, NULL) !=
	    SQLITE_OK ||
	    sqlite3_exec(db, "CREATE TABLE task_block(first_ns INTEGER, n"
	    " INTEGER, data BLOB); BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO task_block VALUES (?, ?, ?)",
	    -1, &stmt, NULL) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, db != NULL ?
		    sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	v = xreallocarray(NULL, STORE_FLOOR_BLOCK, sizeof *v);
	b = xmalloc((size_t)STORE_FLOOR_BLOCK * STORE_FLOOR_COLS * 10);
	*bytes = 0;
	t0 = store_floor_cpu();
	for (i = 0; i < n; i += k) {
		k = n - i < STORE_FLOOR_BLOCK ? n - i : STORE_FLOOR_BLOCK;
		for (j = 0; j < k; j++) {
			start_ns += 1000 + (i + j) % 5000;
			store_floor_values(v[j], i + j, start_ns);
		}
		first = v[0][8];
		len = 0;
		for (c = 1; c <= STORE_FLOOR_COLS; c++) {
			for (j = 0, prev = 0; j < k; j++) {
				store_floor_varint(b, &len, v[j][c] - prev);
				prev = v[j][c];
			}
		}
		sqlite3_bind_int64(stmt, 1, first);
		sqlite3_bind_int64(stmt, 2, k);
		sqlite3_bind_blob(stmt, 3, b, (int)len, SQLITE_STATIC);
		sqlite3_step(stmt);
		sqlite3_reset(stmt);
		*bytes += (int64_t)len;
	}
	sqlite3_finalize(stmt);
	free(v);
	free(b);
	if (sqlite3_exec(db, "CREATE INDEX task_block_first ON"
	    " task_block(first_ns); COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		xasprintf(cause, "%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	*secs = store_floor_cpu() - t0;
	sqlite3_close(db);
	return 0;
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
