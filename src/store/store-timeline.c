/*
 * The timeline's queries over the tables store-lanes.c builds: the lanes,
 * the busy time and dominant span type of each cell of a frame, and the
 * spans a zoomed-in frame draws or the cursor moves to.
 *
 * A cell's busy time is always exact. When a frame holds at most
 * TL_SCAN_PER_CELL spans a cell, the packed pieces of tl_block meeting it
 * are read in one pass, and busy time, counts and types are all exact.
 * When it holds more, the busy time before each cell edge comes from one
 * seek into tl_block (see store-lanes.c), a cell's being the difference
 * of its edges; the types come from the bins of the coarsest level at most
 * a cell wide (so a frame reads about two bins a cell), a bin across a
 * cell edge shared between the two cells in proportion to the time on
 * each side, and only the colour can differ from the spans'. Prepared
 * statements are kept with the store for the next frame.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

/* Frames with at most this many spans per cell are read span by span. */
#define TL_SCAN_PER_CELL	64
#define TL_MAXLEVEL		44
#define TL_MAXCELLS		100000
#define TL_CACHE_KB		"32768"
#define TL_MMAP_BYTES		"2147418112"	/* SQLite's usual limit */

enum tl_stmt {
	TL_LANE,
	TL_SEEK,
	TL_BBACK,
	TL_BFWD,
	TL_BINPREV,
	TL_BINS,
	TL_NAME_API,
	TL_NAME_STEP,
	TL_NAME_TASK,
	TL_COUNT
};

struct store_tl {
	sqlite3_stmt	*stmt[TL_COUNT];
	sqlite3		*map;		/* for tl_lane, tl_block, tl_bin */
};

static const char *store_timeline_sql[TL_COUNT] = {
	[TL_LANE] = "SELECT kind, k0, nspans FROM tl_lane WHERE id = ?",
	[TL_SEEK] = "SELECT start, ord, cum, cend, data FROM tl_block WHERE"
	    " lane = ?1 AND start < ?2 ORDER BY start DESC, ord DESC LIMIT 1",
	[TL_BBACK] = "SELECT start, ord, cum, cend, data FROM tl_block WHERE"
	    " lane = ?1 AND start < ?2 ORDER BY start DESC, ord DESC",
	[TL_BFWD] = "SELECT start, ord, cum, cend, data FROM tl_block WHERE"
	    " lane = ?1 AND (start, ord) >= (?2, ?3) AND start < ?4"
	    " ORDER BY start, ord",
	[TL_BINPREV] = "SELECT idx, n, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9"
	    " FROM tl_bin WHERE lane = ?1 AND level = ?2 AND idx < ?3"
	    " ORDER BY idx DESC LIMIT 1",
	[TL_BINS] = "SELECT idx, n, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9"
	    " FROM tl_bin WHERE lane = ?1 AND level = ?2 AND idx >= ?3"
	    " AND idx < ?4 ORDER BY idx",
	[TL_NAME_API] = "SELECT n.s FROM api a JOIN str n ON n.id = a.name"
	    " WHERE a.id = ?",
	[TL_NAME_STEP] = "SELECT 'Step ' || iter FROM step WHERE rowid = ?",
	[TL_NAME_TASK] = "SELECT n.s FROM task t JOIN str n ON n.id = t.name"
	    " WHERE t.id = ?"
};

/* What the busy-time seek found at one instant. */
struct tl_edge {
	int64_t		 before;	/* spans starting before it */
	int64_t		 busy;		/* busy time before it */
	int		 type;		/* of the last span before it, or -1 */
};

/* A frame being filled: its cells, edges and per-type scores. */
struct tl_frame {
	int64_t		 t0;
	int64_t		 t1;
	size_t		 w;
	int64_t		*edge;		/* w + 1 */
	double		*score;		/* w * SPAN_NTYPES */
};

void
store_timeline_free(struct store *s)
{
	int	 i;

	if (s->tl == NULL)
		return;
	for (i = 0; i < TL_COUNT; i++)
		sqlite3_finalize(s->tl->stmt[i]);
	sqlite3_close(s->tl->map);
	free(s->tl);
	s->tl = NULL;
}

/* The prepared statement I, reset, or NULL with *cause set. */
static sqlite3_stmt *
store_timeline_stmt(struct store *s, enum tl_stmt i, char **cause)
{
	sqlite3_stmt	*stmt;

	if (store_timeline_ensure(s, cause) != 0)
		return NULL;
	if (s->tl == NULL) {
		s->tl = xcalloc(1, sizeof *s->tl);
		/*
		 * A frame is thousands of seeks: keep the shared lock (and
		 * so the page cache) between statements rather than
		 * locking and checking the file for each, and keep the upper
		 * pages of the trees and the last frames' leaves in memory.
		 * The store is never written once committed.
		 */
		sqlite3_exec(s->db, "PRAGMA locking_mode = EXCLUSIVE;"
		    " PRAGMA cache_size = -" TL_CACHE_KB ";"
		    " PRAGMA tl.cache_size = -" TL_CACHE_KB, NULL, NULL, NULL);
		/*
		 * The summaries every frame reads (tl_lane, tl_block and
		 * tl_bin, which lie together at the end of its file) are
		 * read through a second connection that maps the file: a
		 * zoomed-out frame touches most of tl_block, and mapping
		 * pages the OS cache already holds costs a third of copying
		 * them into fresh memory. The
		 * spans and names a zoomed-in frame reads at random go
		 * through the page cache above, so the mapped pages the
		 * process holds stay those of the summaries.
		 */
		if (sqlite3_open_v2(s->tl_side, &s->tl->map,
		    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) ==
		    SQLITE_OK)
			sqlite3_exec(s->tl->map, "PRAGMA locking_mode ="
			    " EXCLUSIVE; PRAGMA cache_size = -2048;"
			    " PRAGMA mmap_size = " TL_MMAP_BYTES, NULL, NULL,
			    NULL);
		else {
			sqlite3_close(s->tl->map);
			s->tl->map = NULL;
		}
	}
	if ((stmt = s->tl->stmt[i]) != NULL) {
		sqlite3_reset(stmt);
		return stmt;
	}
	if (i < TL_NAME_API && s->tl->map != NULL) {
		if (sqlite3_prepare_v2(s->tl->map, store_timeline_sql[i], -1,
		    &stmt, NULL) != SQLITE_OK) {
			xasprintf(cause, "cannot read the timeline: %s",
			    sqlite3_errmsg(s->tl->map));
			sqlite3_finalize(stmt);
			return NULL;
		}
	} else if (store_prepare(s, &stmt, store_timeline_sql[i], cause) != 0)
		return NULL;
	s->tl->stmt[i] = stmt;
	return stmt;
}

/*
 * The prepared statement that reads the name of a span of TYPE by its row
 * id, kept for the next frame, which names a hundred spans a lane; NULL
 * if it cannot be prepared.
 */
sqlite3_stmt *
store_timeline_name_stmt(struct store *s, int type)
{
	char	*cause = NULL;
	sqlite3_stmt	*stmt;

	stmt = store_timeline_stmt(s, type == SPAN_API ? TL_NAME_API :
	    type == SPAN_STEP ? TL_NAME_STEP : TL_NAME_TASK, &cause);
	free(cause);
	return stmt;
}

static int
store_timeline_failed(struct store *s, sqlite3_stmt *stmt, char **cause)
{
	xasprintf(cause, "cannot read the timeline of '%s': %s", s->path,
	    sqlite3_errmsg(sqlite3_db_handle(stmt)));
	sqlite3_reset(stmt);
	return -1;
}

/*
 * The left edge of cell I of W cells over [T0, T1): T0 + (T1 - T0) * I / W
 * rounded down, without overflow. Cell I is [edge(I), edge(I + 1)).
 */
int64_t
store_timeline_cell_edge(int64_t t0, int64_t t1, size_t w, size_t i)
{
	int64_t	 q = (t1 - t0) / (int64_t)w, r = (t1 - t0) % (int64_t)w;

	return t0 + q * (int64_t)i + r * (int64_t)i / (int64_t)w;
}

/* The cell of F holding instant T, which lies in [t0, t1). */
static size_t
store_timeline_cell(const struct tl_frame *f, int64_t t)
{
	size_t	 i;

	i = (size_t)((double)(t - f->t0) / (double)(f->t1 - f->t0) *
	    (double)f->w);
	if (i >= f->w)
		i = f->w - 1;
	while (i > 0 && f->edge[i] > t)
		i--;
	while (i + 1 < f->w && f->edge[i + 1] <= t)
		i++;
	return i;
}

/* Add SCORE spread evenly over [A, B) of TYPE to the cells of F. */
static void
store_timeline_spread(struct tl_frame *f, int64_t a, int64_t b, int type,
    double score)
{
	int64_t	 lo, hi;
	size_t	 i;
	double	 per;

	if (a >= b || score == 0)
		return;
	per = score / (double)(b - a);
	if (a < f->t0)
		a = f->t0;
	if (b > f->t1)
		b = f->t1;
	if (a >= b)
		return;
	for (i = store_timeline_cell(f, a); i < f->w && f->edge[i] < b; i++) {
		lo = f->edge[i] > a ? f->edge[i] : a;
		hi = f->edge[i + 1] < b ? f->edge[i + 1] : b;
		if (hi > lo)
			f->score[i * SPAN_NTYPES + type] += per *
			    (double)(hi - lo);
	}
}

/* A block of packed pieces being read, as tl_block holds them. */
struct tl_block {
	const uint8_t	*p;
	const uint8_t	*end;
	int64_t		 start;		/* of the piece just read */
	int64_t		 ord;		/* of the next piece */
	int64_t		 cum;		/* busy up to cend */
	int64_t		 cend;		/* furthest end so far */
	int64_t		 clen;		/* of the piece just read */
	int		 type;
};

/* Start reading the block in the current row of STMT. */
static void
store_timeline_block(struct tl_block *k, sqlite3_stmt *stmt)
{
	k->start = sqlite3_column_int64(stmt, 0);
	k->ord = sqlite3_column_int64(stmt, 1);
	k->cum = sqlite3_column_int64(stmt, 2);
	k->cend = sqlite3_column_int64(stmt, 3);
	k->p = sqlite3_column_blob(stmt, 4);
	k->end = k->p + sqlite3_column_bytes(stmt, 4);
	if (k->p == NULL)
		k->end = NULL;
}

/*
 * Read the next piece of K: its start, and its busy time (clen of type)
 * ending at the new cend; false at the end of the block.
 */
static bool
store_timeline_piece(struct tl_block *k)
{
	uint64_t	 v;

	if (k->p == NULL || k->p >= k->end)
		return false;
	k->start += (int64_t)store_pieces_varint(&k->p, k->end);
	v = store_pieces_varint(&k->p, k->end);
	k->clen = (int64_t)(v >> 4);
	k->type = (int)(v & 0xf);
	k->cum += k->clen;
	k->cend += (int64_t)store_pieces_varint(&k->p, k->end);
	k->ord++;
	return true;
}

/*
 * The busy-time seek at instant T on LANE: the block holding the last
 * span starting before T, then that span inside the block.
 */
static int
store_timeline_seek(struct store *s, int64_t lane, int64_t t,
    struct tl_edge *e, char **cause)
{
	sqlite3_stmt	*stmt;
	struct tl_block	 k;
	int		 rc;

	if ((stmt = store_timeline_stmt(s, TL_SEEK, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, lane);
	sqlite3_bind_int64(stmt, 2, t);
	e->before = e->busy = 0;
	e->type = -1;
	if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) {
		if (rc != SQLITE_DONE)
			return store_timeline_failed(s, stmt, cause);
		sqlite3_reset(stmt);
		return 0;
	}
	store_timeline_block(&k, stmt);
	while (store_timeline_piece(&k) && k.start < t) {
		e->type = k.type;
		e->before = k.ord;
		e->busy = k.cum - (k.cend > t ? k.cend - t : 0);
	}
	sqlite3_reset(stmt);
	return 0;
}

/*
 * Spread every piece of the block in the current row of STMT that meets
 * [t0, t1) into the scores of F; count the spans starting in each cell
 * and note the type of the last.
 */
static void
store_timeline_spread_block(struct tl_frame *f, sqlite3_stmt *stmt,
    struct store_cell *cells, int *last)
{
	struct tl_block	 k;
	size_t		 i;

	store_timeline_block(&k, stmt);
	while (store_timeline_piece(&k) && k.start < f->t1) {
		if (k.cend > f->t0)
			store_timeline_spread(f, k.cend - k.clen, k.cend,
			    k.type, (double)k.clen);
		if (k.start >= f->t0) {
			i = store_timeline_cell(f, k.start);
			cells[i].spans++;
			last[i] = k.type;
		}
	}
}

/*
 * Read every piece meeting [t0, t1) into the scores of F, from the packed
 * blocks: first the blocks before t0 whose pieces may reach past it
 * (walking back while the furthest end before a block is past t0), then
 * those starting inside. The pieces are disjoint, so the busy time of a
 * cell is the sum of its scores, exactly.
 */
static int
store_timeline_scan(struct store *s, int64_t lane, struct tl_frame *f,
    struct store_cell *cells, int *last, char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 start = f->t0, ord = 0;
	int		 rc;

	if ((stmt = store_timeline_stmt(s, TL_BBACK, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, lane);
	sqlite3_bind_int64(stmt, 2, f->t0);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		start = sqlite3_column_int64(stmt, 0);
		ord = sqlite3_column_int64(stmt, 1);
		if (sqlite3_column_int64(stmt, 3) <= f->t0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_timeline_failed(s, stmt, cause);
	sqlite3_reset(stmt);

	/* Then forward from the earliest block that matters. */
	if ((stmt = store_timeline_stmt(s, TL_BFWD, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, lane);
	sqlite3_bind_int64(stmt, 2, start);
	sqlite3_bind_int64(stmt, 3, ord);
	sqlite3_bind_int64(stmt, 4, f->t1);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		store_timeline_spread_block(f, stmt, cells, last);
	if (rc != SQLITE_DONE)
		return store_timeline_failed(s, stmt, cause);
	sqlite3_reset(stmt);
	return 0;
}

/* Spread the bins of LEVEL over [t0, t1) into the scores of F. */
static int
store_timeline_bins(struct store *s, int64_t lane, int level,
    struct tl_frame *f, char **cause)
{
	sqlite3_stmt	*stmt;
	int64_t		 w = (int64_t)1 << level, lo, hi, idx, n;
	int		 rc, i, pass;

	lo = f->t0 >= 0 ? f->t0 / w : -((-f->t0 + w - 1) / w);
	hi = (f->t1 - 1 >= 0 ? (f->t1 - 1) / w : -((-(f->t1 - 1) + w - 1) /
	    w)) + 1;
	for (pass = 0; pass < 2; pass++) {
		stmt = store_timeline_stmt(s, pass == 0 ? TL_BINPREV : TL_BINS,
		    cause);
		if (stmt == NULL)
			return -1;
		sqlite3_bind_int64(stmt, 1, lane);
		sqlite3_bind_int(stmt, 2, level);
		sqlite3_bind_int64(stmt, 3, lo);
		sqlite3_bind_int64(stmt, 4, hi);
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			idx = sqlite3_column_int64(stmt, 0);
			n = sqlite3_column_int64(stmt, 1);
			for (i = 0; i < SPAN_NTYPES; i++)
				store_timeline_spread(f, idx * w,
				    (idx + n) * w, i, (double)
				    sqlite3_column_int64(stmt, 2 + i));
		}
		if (rc != SQLITE_DONE)
			return store_timeline_failed(s, stmt, cause);
		sqlite3_reset(stmt);
	}
	return 0;
}

/* The kind, finest bin level (-1 for none) and span count of LANE. */
static int
store_timeline_lane(struct store *s, int64_t lane, int *kind, int *k0,
    int64_t *nspans, char **cause)
{
	sqlite3_stmt	*stmt;

	if ((stmt = store_timeline_stmt(s, TL_LANE, cause)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, lane);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		xasprintf(cause, "no timeline lane %lld", (long long)lane);
		sqlite3_reset(stmt);
		return -1;
	}
	*kind = sqlite3_column_int(stmt, 0);
	*k0 = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? -1 :
	    sqlite3_column_int(stmt, 1);
	*nspans = sqlite3_column_int64(stmt, 2);
	sqlite3_reset(stmt);
	return 0;
}

/* The bin level to colour F from, or -1 to read its spans instead. */
static int
store_timeline_level(const struct tl_frame *f, int k0, int64_t nspans)
{
	int64_t	 cell = (f->t1 - f->t0) / (int64_t)f->w;
	int	 k;

	if (k0 < 0 || nspans <= (int64_t)f->w * TL_SCAN_PER_CELL ||
	    ((int64_t)1 << k0) > cell)
		return -1;
	for (k = k0; k + 2 <= TL_MAXLEVEL; k += 2) {
		if (((int64_t)1 << (k + 2)) > cell)
			break;
	}
	return k;
}

/* The busy time of each cell: the sum of its exact scores. */
static void
store_timeline_busy(struct tl_frame *f, struct store_cell *cells)
{
	size_t	 i;
	int	 t;
	double	 sum;

	for (i = 0; i < f->w; i++) {
		sum = 0;
		for (t = 0; t < SPAN_NTYPES; t++)
			sum += f->score[i * SPAN_NTYPES + t];
		cells[i].busy_ns = (int64_t)(sum + 0.5);
	}
}

/* Pick each cell's type: the best score, else the last span's type. */
static void
store_timeline_types(struct tl_frame *f, struct store_cell *cells,
    const int *last)
{
	size_t	 i;
	int	 t, best;

	for (i = 0; i < f->w; i++) {
		best = -1;
		for (t = 0; t < SPAN_NTYPES; t++) {
			if (f->score[i * SPAN_NTYPES + t] > 0 && (best < 0 ||
			    f->score[i * SPAN_NTYPES + t] >
			    f->score[i * SPAN_NTYPES + best]))
				best = t;
		}
		if (best < 0 && (cells[i].busy_ns > 0 || cells[i].spans > 0))
			best = last[i];
		cells[i].type = best;
	}
}

/*
 * Fill CELLS[0..W) for LANE over [T0, T1), cell I being [E(I), E(I + 1)),
 * E(I) = store_timeline_cell_edge(T0, T1, W, I): the exact busy time, the
 * spans starting in it and the dominant type. On failure return -1 and set
 * *cause.
 */
int
store_timeline_cells(struct store *s, int64_t lane, int64_t t0, int64_t t1,
    size_t w, struct store_cell *cells, char **cause)
{
	struct tl_frame	 f;
	struct tl_edge	 e, prev;
	int64_t		 nspans;
	int		*last, kind, k0, level, rc = -1;
	size_t		 i;

	if (w == 0 || w > TL_MAXCELLS || t1 <= t0) {
		xasprintf(cause, "bad timeline frame");
		return -1;
	}
	if (store_timeline_lane(s, lane, &kind, &k0, &nspans, cause) != 0)
		return -1;
	memset(&f, 0, sizeof f);
	f.t0 = t0;
	f.t1 = t1;
	f.w = w;
	f.edge = xreallocarray(NULL, w + 1, sizeof *f.edge);
	f.score = xcalloc(w * SPAN_NTYPES, sizeof *f.score);
	last = xreallocarray(NULL, w, sizeof *last);
	for (i = 0; i <= w; i++)
		f.edge[i] = store_timeline_cell_edge(t0, t1, w, i);
	memset(cells, 0, w * sizeof *cells);

	if (store_timeline_seek(s, lane, t0, &prev, cause) != 0 ||
	    store_timeline_seek(s, lane, t1, &e, cause) != 0)
		goto out;
	level = store_timeline_level(&f, k0, e.before - prev.before);
	for (i = 0; i < w; i++)
		last[i] = -1;
	if (level < 0) {
		/* Few spans: read them all, busy time included. */
		if ((rc = store_timeline_scan(s, lane, &f, cells, last,
		    cause)) == 0)
			store_timeline_busy(&f, cells);
		goto types;
	}
	for (i = 0; i < w; i++) {
		if (i + 1 < w) {
			if (store_timeline_seek(s, lane, f.edge[i + 1], &e,
			    cause) != 0)
				goto out;
		} else if (store_timeline_seek(s, lane, t1, &e, cause) != 0)
			goto out;
		cells[i].busy_ns = e.busy - prev.busy;
		cells[i].spans = e.before - prev.before;
		last[i] = e.before > prev.before ? e.type :
		    (cells[i].busy_ns > 0 ? e.type : -1);
		prev = e;
	}
	rc = store_timeline_bins(s, lane, level, &f, cause);
types:
	if (rc == 0)
		store_timeline_types(&f, cells, last);
out:
	free(f.edge);
	free(f.score);
	free(last);
	return rc;
}

/*
 * The lanes in display order (per rank: host threads, then per device its
 * steps, its streams and the trace's other device lanes, such as Overlap
 * Analysis, and last its counter series); the caller frees them with
 * store_lanes_free(). On failure return -1 and set *cause.
 */
int
store_lanes(struct store *s, struct store_lane **lanes, size_t *n,
    char **cause)
{
	sqlite3_stmt		*stmt;
	struct store_lane	*l, *v = NULL;
	int			 rc;

	*lanes = NULL;
	*n = 0;
	if (store_timeline_ensure(s, cause) != 0 ||
	    store_prepare(s, &stmt, "SELECT * FROM (SELECT id, kind, device,"
	    " rank, pid, tid, stream, depth, name, grp, nspans, start_ns,"
	    " end_ns, NULL AS unit, NULL AS vmin, NULL AS vmax FROM tl_lane"
	    " UNION ALL " STORE_COUNTER_LANES_SQL ")"
	    " ORDER BY ifnull(rank, -1), kind <> 0 OR ifnull(device, 64) <> 64,"
	    " device, kind = 3, kind = 0, kind, pid, tid, stream, depth",
	    cause) != 0)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		v = util_grow(v, *n, 1, sizeof *v);
		l = &v[(*n)++];
		l->id = sqlite3_column_int64(stmt, 0);
		l->kind = sqlite3_column_int(stmt, 1);
		l->device = store_iter_i64(stmt, 2);
		l->rank = store_iter_i64(stmt, 3);
		l->pid = store_iter_i64(stmt, 4);
		l->tid = store_iter_i64(stmt, 5);
		l->stream = store_iter_i64(stmt, 6);
		l->depth = store_iter_i64(stmt, 7);
		l->name = store_iter_dup(stmt, 8);
		l->group = store_iter_dup(stmt, 9);
		l->nspans = sqlite3_column_int64(stmt, 10);
		l->start_ns = sqlite3_column_int64(stmt, 11);
		l->end_ns = sqlite3_column_int64(stmt, 12);
		l->unit = store_iter_dup(stmt, 13);
		l->vmin = sqlite3_column_double(stmt, 14);
		l->vmax = sqlite3_column_double(stmt, 15);
	}
	sqlite3_finalize(stmt);
	*lanes = v;
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the timeline lanes: %s",
		    sqlite3_errmsg(s->db));
		store_lanes_free(v, *n);
		*lanes = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/*
 * Where the timeline starts: the first start of any span, task, step or
 * counter sample (the import writes it as meta origin_ns), the origin of
 * the times the UI shows relative; NP_NA if the store has none.
 */
int64_t
store_lanes_origin(struct store *s)
{
	char	*v;

	if (s->origin_known)
		return s->origin;
	s->origin_known = true;
	s->origin = NP_NA;
	if (store_meta_get(s, "origin_ns", &v) == 0 &&
	    util_parse_int(v, strlen(v), &s->origin) != 0)
		s->origin = NP_NA;
	free(v);
	return s->origin;
}

void
store_lanes_free(struct store_lane *lanes, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(lanes[i].name);
		free(lanes[i].group);
		free(lanes[i].unit);
	}
	free(lanes);
}
