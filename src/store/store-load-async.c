/*
 * Task and span rows written by a thread of their own. Between
 * store_load_async_begin() and store_load_async_end() an importer's
 * store_load_task() and store_load_api() only work out a row's values
 * (interning its strings, counting it into the statistics and task sums;
 * a span's row id is given in order) and copy them into a batch; a
 * writer thread inserts the batches, new strings first, in the order they
 * came, so reading and parsing the input runs on one core while SQLite
 * writes on another. It inserts up to ASYNC_ROWS rows a statement (as many
 * as SQLite's limit of parameters allows): SQLite's work per statement
 * (its program's start and end, the table's cursor) then comes once for
 * them all, and a row costs about a third less. The load's connection
 * belongs to the writer while a batch is out: in between, the importer
 * may call nothing else that writes the store, and store_load_task()
 * returns no row id.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define ASYNC_BATCH	4096		/* rows a batch holds */
#define ASYNC_DEPTH	3		/* batches in flight */
#define ASYNC_NULL	SIZE_MAX	/* a span without args */
#define ASYNC_ROWS	32		/* most rows an insert statement takes */

struct async_batch {
	int64_t		*v;		/* ASYNC_BATCH rows of TASK_NV */
	size_t		 n;
	size_t		*pmu;		/* per row: offset into blobs */
	size_t		*pmu_len;
	struct strbuf	 blobs;		/* the rows' PMU blobs */
	int64_t		*av;		/* ASYNC_BATCH spans of API_NV */
	size_t		 an;
	size_t		*args;		/* per span: offset into text, or */
	struct strbuf	 text;		/* ASYNC_NULL; their args, each
					   ending in NUL */
	int64_t		*str_id;	/* strings interned by this batch */
	const char	**str;		/* borrowed from the intern table */
	size_t		 nstr;
	size_t		 strcap;
	bool		 full;		/* handed to the writer */
};

struct store_async {
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct async_batch	 b[ASYNC_DEPTH];
	size_t			 fill;		/* the batch being filled */
	size_t			 next;		/* the batch the writer takes */
	bool			 done;
	sqlite3_stmt		*multi[2];	/* the insert of rows[0] tasks,
						   of rows[1] spans; or NULL */
	size_t			 rows[2];
};

/* The PMU blob of task I of B (pmu_len[I] bytes). */
static const void *
store_load_async_pmu(const struct async_batch *b, size_t i)
{
	return b->blobs.s != NULL ? b->blobs.s + b->pmu[i] : "";
}

/* The args of span I of B, or NULL. */
static const char *
store_load_async_args(const struct async_batch *b, size_t i)
{
	return b->args[i] == ASYNC_NULL ? NULL : b->text.s + b->args[i];
}

/*
 * Bind task I of B (SPAN: span I) to the parameters of row K of STMT, an
 * insert of one row or of many.
 */
static void
store_load_async_bind(struct store *s, const struct async_batch *b,
    bool span, sqlite3_stmt *stmt, size_t k, size_t i)
{
	if (span)
		store_load_api_bind(s, stmt, (int)k * (API_NV + 1),
		    b->av + i * API_NV, store_load_async_args(b, i));
	else
		store_load_task_bind(s, stmt, (int)k * TASK_NV,
		    b->v + i * TASK_NV, store_load_async_pmu(b, i),
		    b->pmu_len[i]);
}

/* Insert the N tasks (SPAN: spans) of B, many a statement while they last. */
static void
store_load_async_rows(struct store *s, const struct async_batch *b,
    bool span, size_t n)
{
	struct store_async	*a = s->async;
	sqlite3_stmt		*stmt;
	size_t			 i, k, per;

	for (i = 0; i < n; i += per) {
		if (a->multi[span] != NULL && n - i >= a->rows[span]) {
			stmt = a->multi[span];
			per = a->rows[span];
		} else {
			stmt = s->stmt[span ? STMT_API : STMT_TASK];
			per = 1;
		}
		for (k = 0; k < per; k++)
			store_load_async_bind(s, b, span, stmt, k, i + k);
		store_write(s, stmt);
	}
}

/* Insert batch B: its new strings, then its rows. */
static void
store_load_async_write(struct store *s, struct async_batch *b)
{
	sqlite3_stmt	*stmt = s->stmt[STMT_STR];
	size_t		 i;

	for (i = 0; i < b->nstr; i++) {
		sqlite3_bind_int64(stmt, 1, b->str_id[i]);
		sqlite3_bind_text(stmt, 2, b->str[i], -1, SQLITE_STATIC);
		store_write(s, stmt);
	}
	store_load_async_rows(s, b, false, b->n);
	store_load_async_rows(s, b, true, b->an);
}

static void *
store_load_async_main(void *arg)
{
	struct store		*s = arg;
	struct store_async	*a = s->async;
	struct async_batch	*b;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->b[a->next].full && !a->done)
			pthread_cond_wait(&a->cond, &a->lock);
		b = &a->b[a->next];
		if (!b->full)
			break;
		pthread_mutex_unlock(&a->lock);
		store_load_async_write(s, b);
		pthread_mutex_lock(&a->lock);
		b->n = b->nstr = b->an = 0;
		strbuf_reset(&b->blobs);
		strbuf_reset(&b->text);
		b->full = false;
		a->next = (a->next + 1) % ASYNC_DEPTH;
		pthread_cond_broadcast(&a->cond);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* Free A, whose thread is gone (or never was). */
static void
store_load_async_release(struct store_async *a)
{
	struct async_batch	*b;
	size_t			 i;

	for (i = 0; i < ASYNC_DEPTH; i++) {
		b = &a->b[i];
		free(b->v);
		free(b->pmu);
		free(b->pmu_len);
		free(b->av);
		free(b->args);
		free(b->str_id);
		free(b->str);
		strbuf_release(&b->blobs);
		strbuf_release(&b->text);
	}
	sqlite3_finalize(a->multi[0]);
	sqlite3_finalize(a->multi[1]);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->cond);
	free(a);
}

/*
 * The load's one-row insert ONE (STMT_TASK or STMT_API) made an insert of
 * ASYNC_ROWS rows, or of as many as the connection allows parameters.
 * NULL if fewer than 2 (rows then go one by one) or it cannot be
 * prepared; *ROWS gets the rows. The caller finalizes it.
 */
static sqlite3_stmt *
store_load_async_insert(struct store *s, int one, size_t *rows)
{
	struct strbuf	 sql;
	sqlite3_stmt	*stmt;
	const char	*text = sqlite3_sql(s->stmt[one]), *row;
	int		 per = sqlite3_bind_parameter_count(s->stmt[one]);
	size_t		 k;

	if (text == NULL || per < 1 ||
	    (row = strstr(text, " VALUES ")) == NULL)
		return NULL;
	row += strlen(" VALUES ");
	*rows = (size_t)(sqlite3_limit(s->db, SQLITE_LIMIT_VARIABLE_NUMBER,
	    -1) / per);
	if (*rows > ASYNC_ROWS)
		*rows = ASYNC_ROWS;
	if (*rows < 2)
		return NULL;
	strbuf_init(&sql);
	strbuf_add(&sql, text, (size_t)(row - text));
	for (k = 0; k < *rows; k++) {
		if (k > 0)
			strbuf_adds(&sql, ", ");
		strbuf_adds(&sql, row);
	}
	if (sqlite3_prepare_v2(s->db, sql.s, -1, &stmt, NULL) != SQLITE_OK)
		stmt = NULL;
	strbuf_release(&sql);
	return stmt;
}

/* The row id the next span takes: the next after the store's last. */
static int64_t
store_load_async_api_next(struct store *s)
{
	sqlite3_stmt	*stmt;
	int64_t		 id = 1;

	if (store_load_prepare(s, &stmt, "SELECT max(id) FROM api") != 0)
		return id;
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(stmt, 0) + 1;
	sqlite3_finalize(stmt);
	return id;
}

/*
 * From now on, store_load_task() and store_load_api() hand their rows to
 * a writer thread. If no thread can be had, rows are written as before.
 */
void
store_load_async_begin(struct store *s)
{
	struct store_async	*a;
	struct async_batch	*b;
	size_t			 i;

	if (s->async != NULL)
		return;
	a = xcalloc(1, sizeof *a);
	for (i = 0; i < ASYNC_DEPTH; i++) {
		b = &a->b[i];
		b->v = xreallocarray(NULL, ASYNC_BATCH, TASK_NV *
		    sizeof *b->v);
		b->pmu = xreallocarray(NULL, ASYNC_BATCH, sizeof *b->pmu);
		b->pmu_len = xreallocarray(NULL, ASYNC_BATCH,
		    sizeof *b->pmu_len);
		b->av = xreallocarray(NULL, ASYNC_BATCH, API_NV *
		    sizeof *b->av);
		b->args = xreallocarray(NULL, ASYNC_BATCH, sizeof *b->args);
		strbuf_init(&b->blobs);
		strbuf_init(&b->text);
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	s->api_next = store_load_async_api_next(s);
	a->multi[0] = store_load_async_insert(s, STMT_TASK, &a->rows[0]);
	a->multi[1] = store_load_async_insert(s, STMT_API, &a->rows[1]);
	s->async = a;
	if (pthread_create(&a->thread, NULL, store_load_async_main, s) != 0) {
		s->async = NULL;
		store_load_async_release(a);
	}
}

/* Hand the batch being filled to the writer; wait for the next to be free. */
static void
store_load_async_flush(struct store_async *a)
{
	struct async_batch	*b = &a->b[a->fill];

	if (b->n == 0 && b->an == 0 && b->nstr == 0)
		return;
	pthread_mutex_lock(&a->lock);
	b->full = true;
	a->fill = (a->fill + 1) % ASYNC_DEPTH;
	pthread_cond_broadcast(&a->cond);
	while (a->b[a->fill].full)
		pthread_cond_wait(&a->cond, &a->lock);
	pthread_mutex_unlock(&a->lock);
}

/* Write what is left, stop the writer: the connection is the caller's. */
void
store_load_async_end(struct store *s)
{
	struct store_async	*a = s->async;

	if (a == NULL)
		return;
	store_load_async_flush(a);
	pthread_mutex_lock(&a->lock);
	a->done = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	s->async = NULL;
	store_load_async_release(a);
}

/* The string STR, interned as ID: inserted before the batch's rows. */
void
store_load_async_str(struct store *s, int64_t id, const char *str)
{
	struct async_batch	*b = &s->async->b[s->async->fill];

	if (b->nstr == b->strcap) {
		b->strcap = b->strcap == 0 ? 64 : b->strcap * 2;
		b->str_id = xreallocarray(b->str_id, b->strcap,
		    sizeof *b->str_id);
		b->str = xreallocarray(b->str, b->strcap, sizeof *b->str);
	}
	b->str_id[b->nstr] = id;
	b->str[b->nstr++] = str;
}

/* A task row of values V and PMU blob PMU (LEN bytes, or NULL). */
void
store_load_async_task(struct store *s, const int64_t *v, const void *pmu,
    size_t len)
{
	struct store_async	*a = s->async;
	struct async_batch	*b = &a->b[a->fill];

	memcpy(b->v + b->n * TASK_NV, v, TASK_NV * sizeof *v);
	b->pmu[b->n] = b->blobs.len;
	b->pmu_len[b->n] = pmu != NULL ? len : 0;
	if (pmu != NULL && len > 0)
		strbuf_add(&b->blobs, (const char *)pmu, len);
	if (++b->n == ASYNC_BATCH)
		store_load_async_flush(a);
}

/* A span row of values V (API_NV, its row id first) and ARGS (or NULL). */
void
store_load_async_api(struct store *s, const int64_t *v, const char *args)
{
	struct store_async	*a = s->async;
	struct async_batch	*b = &a->b[a->fill];

	memcpy(b->av + b->an * API_NV, v, API_NV * sizeof *v);
	b->args[b->an] = args == NULL ? ASYNC_NULL : b->text.len;
	if (args != NULL)
		strbuf_add(&b->text, args, strlen(args) + 1);
	if (++b->an == ASYNC_BATCH)
		store_load_async_flush(a);
}
