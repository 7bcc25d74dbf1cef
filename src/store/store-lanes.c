/*
 * The timeline's lanes and busy summaries, built once (the first time a
 * timeline is asked for, into a file of their own: store-lanes-side.c) so
 * that a frame at any zoom reads a few rows per cell, never all the spans
 * of a lane.
 *
 * Spans are read in the order the store holds them, each lane's in start
 * order, the lanes' interleaved, and the lanes built side by side (only
 * API spans an importer wrote out of start order are read again, sorted
 * by lane: store_lanes_sources()). Each becomes a piece: the
 * part of it not covered by earlier spans of the lane, [cend - clen, cend),
 * where cend is the furthest end so far and cum the lane's busy time up to
 * cend. The busy time before any instant x is then exact from the last span
 * starting before x alone: cum - max(0, cend - x), because that span and
 * every earlier one started before x, so what they cover past x is the
 * interval [x, cend). Lanes with more than LANES_PROBE spans also get bins:
 * for levels k0, k0 + 2, ... up to LANES_MAXLEVEL, the busy time of each
 * span type inside the aligned bins of 2^k ns, where a run of wholly busy
 * bins of one type is one row. The pieces are packed by STORE_PIECES_BLOCK,
 * never stored a row each: in tl_block rows, start, clen << 4 | type and
 * cend, each a difference from the piece before, as unsigned LEB128
 * varints, small enough for the page cache to hold, which is where the
 * busy time at a cell edge is read from; they are copied into tl_block in
 * key order once built, so their pages lie together. Each block's tl_span
 * row, under the same key, holds its pieces' lengths and source row ids
 * (a zigzag difference from the piece before), which only the lookups of
 * single spans read. store-timeline.c and store-pieces.c read them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "store-int.h"

#define LANES_PROBE	4096	/* spans read before choosing bin sizes */
#define LANES_MINLEVEL	10
#define LANES_MAXLEVEL	44
#define LANES_NLEVELS	((LANES_MAXLEVEL - LANES_MINLEVEL) / 2 + 1)
#define LANES_OPEN	4096	/* API lanes built at once, unsorted */
/* A source row's columns whose NULL is NP_NA: the key's and the task's. */
#define LANES_NA	0xe3fu

/* The bin being filled at one level. */
struct lanes_bin {
	int64_t		 idx;
	int64_t		 n;		/* bins in the row */
	int64_t		 busy[SPAN_NTYPES];
	int		 run;		/* type of a run of full bins, or -1 */
	bool		 used;
};

/*
 * A lane being built: its pieces' block being packed, its bins being
 * filled, and what tl_lane records of it once done. Lanes are built side
 * by side, as their rows come in the order the store holds them.
 */
struct lanes_lane {
	int64_t			 key[6];
	size_t			 same;		/* the lane before it with the
						   same key hash, + 1, or 0 */
	uint8_t			 data[STORE_PIECES_BLOCK * 30];
	size_t			 len;		/* bytes in data */
	uint8_t			 sdata[STORE_PIECES_BLOCK * 20];
	size_t			 slen;		/* bytes in sdata */
	size_t			 npacked;	/* pieces in data */
	int64_t			 bstart;	/* first start in data */
	int64_t			 bord;
	int64_t			 bcum;		/* busy before it */
	int64_t			 bcend;		/* furthest end before it */
	int64_t			 pstart;	/* the last packed piece */
	int64_t			 pcend;
	int64_t			 pid;
	int64_t			 id;		/* in tl_lane */
	int64_t			 ord;
	int64_t			 cum;
	int64_t			 cend;
	int64_t			 maxdur;
	int64_t			 start;
	int64_t			 end;
	int64_t			 last;		/* row id of the last span */
	uint8_t			*probe;		/* the first pieces, until k0:
						   cs less the ce before, and
						   (ce - cs) << 4 | type, as
						   varints: a device's lanes
						   all probe at once */
	size_t			 probelen;	/* bytes in probe */
	size_t			 probecap;
	size_t			 nprobe;
	int64_t			 probecs;	/* the first piece's cs */
	int64_t			 probece;	/* the last piece's ce */
	int			 k0;		/* -1 until chosen */
	struct lanes_bin	*levels;	/* LANES_NLEVELS, once k0 */
};

struct lanes_build {
	struct store		*s;
	sqlite3_stmt		*lane;
	sqlite3_stmt		*span;
	sqlite3_stmt		*bin;
	sqlite3_stmt		*done;
	sqlite3_stmt		*flow;
	sqlite3_stmt		*block;
	sqlite3_stmt		*meta;		/* lane names, or NULL */
	sqlite3_stmt		*str;		/* a string by its id */
	struct lanes_lane	**lanes;	/* of the source being read */
	size_t			 nlanes;
	struct util_map		 bykey;		/* key hash -> index + 1 */
	struct util_map		 ended;		/* groups of lanes ended */
	bool			 sorted;	/* API spans read sorted by lane */
	signed char		*types;		/* str id -> span type + 1 */
	size_t			 ntypes;
};

static const char *store_lanes_type_names[] = {
#define STORE_SPAN_TYPE_NAME(n, s)	s,
	STORE_SPAN_TYPES(STORE_SPAN_TYPE_NAME)
#undef STORE_SPAN_TYPE_NAME
};

/* The name of span type T ("ai_core"), or "none". */
const char *
store_lanes_type_name(int t)
{
	if (t < 0 || t >= SPAN_NTYPES)
		return "none";
	return store_lanes_type_names[t];
}

/*
 * The span type of a task from its core type: the vendor writes AI_CORE,
 * AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, HCCL, COMMUNICATION, SDMA,
 * MEMCPY_ASYNC, EVENT_RECORD, NOTIFY_WAIT and the like.
 */
static int
store_lanes_classify(const char *core)
{
	if (core == NULL)
		return SPAN_OTHER;
	if (strncasecmp(core, "MIX", 3) == 0)
		return SPAN_MIX;
	if (strcasecmp(core, "AI_VECTOR_CORE") == 0 ||
	    strcasecmp(core, "AIV") == 0)
		return SPAN_AI_VECTOR_CORE;
	if (strcasecmp(core, "AI_CORE") == 0 || strcasecmp(core, "AIC") == 0)
		return SPAN_AI_CORE;
	if (strcasecmp(core, "AI_CPU") == 0 || strcasecmp(core, "AICPU") == 0)
		return SPAN_AI_CPU;
	if (strcasestr(core, "HCCL") != NULL ||
	    strcasestr(core, "HCOM") != NULL ||
	    strcasestr(core, "COMM") != NULL)
		return SPAN_COMM;
	if (strcasestr(core, "MEMCPY") != NULL ||
	    strcasestr(core, "DMA") != NULL)
		return SPAN_MEMCPY;
	if (strcasestr(core, "EVENT") != NULL ||
	    strcasestr(core, "NOTIFY") != NULL)
		return SPAN_EVENT;
	return SPAN_OTHER;
}

/* The span type for the interned core type ID, cached by id. */
static int
store_lanes_task_type(struct lanes_build *b, int64_t id)
{
	size_t	 n;

	if (id < 1)
		return SPAN_OTHER;
	if ((size_t)id >= b->ntypes) {
		n = b->ntypes == 0 ? 256 : b->ntypes;
		while (n <= (size_t)id)
			n *= 2;
		b->types = xreallocarray(b->types, n, 1);
		memset(b->types + b->ntypes, 0, n - b->ntypes);
		b->ntypes = n;
	}
	if (b->types[id] == 0) {
		sqlite3_bind_int64(b->str, 1, id);
		b->types[id] = (signed char)(1 + store_lanes_classify(
		    sqlite3_step(b->str) == SQLITE_ROW ?
		    (const char *)sqlite3_column_text(b->str, 0) : NULL));
		sqlite3_reset(b->str);
	}
	return b->types[id] - 1;
}

static int64_t
store_lanes_floordiv(int64_t a, int64_t w)
{
	int64_t	 q = a / w;

	return (a % w != 0 && a < 0) ? q - 1 : q;
}

static void
store_lanes_bin_flush(struct lanes_build *b, struct lanes_lane *l, int level)
{
	struct lanes_bin	*acc = &l->levels[level];
	sqlite3_stmt		*stmt = b->bin;
	int			 i;

	if (!acc->used)
		return;
	sqlite3_bind_int64(stmt, 1, l->id);
	sqlite3_bind_int(stmt, 2, l->k0 + 2 * level);
	sqlite3_bind_int64(stmt, 3, acc->idx);
	sqlite3_bind_int64(stmt, 4, acc->n);
	for (i = 0; i < SPAN_NTYPES; i++)
		sqlite3_bind_int64(stmt, 5 + i, acc->busy[i]);
	store_write(b->s, stmt);
	memset(acc, 0, sizeof *acc);
	acc->run = -1;
}

/* Add M wholly busy bins of TYPE from IDX at LEVEL. */
static void
store_lanes_bin_full(struct lanes_build *b, struct lanes_lane *l, int level,
    int64_t idx, int64_t m, int type, int64_t w)
{
	struct lanes_bin	*acc = &l->levels[level];

	if (!acc->used || acc->run != type || acc->idx + acc->n != idx) {
		store_lanes_bin_flush(b, l, level);
		acc->used = true;
		acc->idx = idx;
		acc->run = type;
	}
	acc->n += m;
	acc->busy[type] += m * w;
}

/* Add PART ns of TYPE to the bin IDX at LEVEL. */
static void
store_lanes_bin_part(struct lanes_build *b, struct lanes_lane *l, int level,
    int64_t idx, int64_t part, int type)
{
	struct lanes_bin	*acc = &l->levels[level];

	if (!acc->used || acc->n != 1 || acc->idx != idx) {
		store_lanes_bin_flush(b, l, level);
		acc->used = true;
		acc->idx = idx;
		acc->n = 1;
	}
	acc->run = -1;
	acc->busy[type] += part;
}

/* Add the busy interval [CS, CE) of TYPE to the bins of every level. */
static void
store_lanes_bin_add(struct lanes_build *b, struct lanes_lane *l, int64_t cs,
    int64_t ce, int type)
{
	int64_t	 w, idx, start, part, m;
	int	 level;

	for (level = 0; level < LANES_NLEVELS; level++) {
		if (l->k0 + 2 * level > LANES_MAXLEVEL)
			break;
		w = (int64_t)1 << (l->k0 + 2 * level);
		for (start = cs; start < ce; start += part) {
			idx = store_lanes_floordiv(start, w);
			if (start == idx * w && ce - start >= w) {
				m = (ce - start) / w;
				store_lanes_bin_full(b, l, level, idx, m, type,
				    w);
				part = m * w;
				continue;
			}
			part = (idx + 1) * w - start;
			if (part > ce - start)
				part = ce - start;
			store_lanes_bin_part(b, l, level, idx, part, type);
		}
	}
}

/*
 * Choose the finest bin level from the spans probed so far: about four
 * spans' pitch, so the finest bins number at most a quarter of the spans.
 */
static void
store_lanes_choose(struct lanes_build *b, struct lanes_lane *l)
{
	const uint8_t	*p = l->probe, *end = l->probe + l->probelen;
	int64_t		 pitch, cs, ce = l->probecs;
	uint64_t	 v;
	size_t		 i;

	pitch = (l->probece - l->probecs) / (int64_t)l->nprobe;
	l->k0 = LANES_MINLEVEL;
	while (l->k0 < LANES_MAXLEVEL && ((int64_t)1 << l->k0) < 4 * pitch)
		l->k0 += 2;
	l->levels = xcalloc(LANES_NLEVELS, sizeof *l->levels);
	for (i = 0; i < LANES_NLEVELS; i++)
		l->levels[i].run = -1;
	for (i = 0; i < l->nprobe; i++) {
		cs = ce + (int64_t)store_pieces_varint(&p, end);
		v = store_pieces_varint(&p, end);
		ce = cs + (int64_t)(v >> 4);
		store_lanes_bin_add(b, l, cs, ce, (int)(v & 0xf));
	}
	free(l->probe);
	l->probe = NULL;
	l->nprobe = l->probelen = l->probecap = 0;
}

/* Append V to BUF at *LEN as an unsigned LEB128 varint. */
static void
store_lanes_varint(uint8_t *buf, size_t *len, uint64_t v)
{
	while (v >= 0x80) {
		buf[(*len)++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	buf[(*len)++] = (uint8_t)v;
}

static void
store_lanes_block_flush(struct lanes_build *b, struct lanes_lane *l)
{
	sqlite3_stmt	*stmt = b->block;

	if (l->npacked == 0)
		return;
	sqlite3_bind_int64(stmt, 1, l->id);
	sqlite3_bind_int64(stmt, 2, l->bstart);
	sqlite3_bind_int64(stmt, 3, l->bord);
	sqlite3_bind_int64(stmt, 4, l->bcum);
	sqlite3_bind_int64(stmt, 5, l->bcend);
	sqlite3_bind_blob(stmt, 6, l->data, (int)l->len, SQLITE_STATIC);
	store_write(b->s, stmt);
	stmt = b->span;
	sqlite3_bind_int64(stmt, 1, l->id);
	sqlite3_bind_int64(stmt, 2, l->bstart);
	sqlite3_bind_int64(stmt, 3, l->bord);
	sqlite3_bind_blob(stmt, 4, l->sdata, (int)l->slen, SQLITE_STATIC);
	store_write(b->s, stmt);
	l->npacked = l->len = l->slen = 0;
}

/*
 * Pack the piece just added, the span ID [START, END) with busy CLEN of
 * TYPE up to CEND; CUM and PREV_CEND are the lane's busy time and furthest
 * end before it.
 */
static void
store_lanes_pack(struct lanes_build *b, struct lanes_lane *l, int64_t start,
    int64_t end, int64_t id, int64_t clen, int type, int64_t cend,
    int64_t cum, int64_t prev_cend)
{
	uint64_t	 d;

	if (l->npacked == 0) {
		l->bstart = l->pstart = start;
		l->bord = l->ord;
		l->bcum = cum;
		l->bcend = l->pcend = prev_cend;
		l->pid = 0;
	}
	store_lanes_varint(l->data, &l->len, (uint64_t)(start - l->pstart));
	store_lanes_varint(l->data, &l->len, ((uint64_t)clen << 4) |
	    (uint64_t)type);
	store_lanes_varint(l->data, &l->len, (uint64_t)(cend - l->pcend));
	store_lanes_varint(l->sdata, &l->slen, (uint64_t)(end - start));
	d = (uint64_t)id - (uint64_t)l->pid;
	store_lanes_varint(l->sdata, &l->slen, d << 1 ^
	    (uint64_t)-(int64_t)(d >> 63));
	l->pstart = start;
	l->pcend = cend;
	l->pid = id;
	if (++l->npacked == STORE_PIECES_BLOCK)
		store_lanes_block_flush(b, l);
}

/* The lane of KEY (hashed H) among those of the source read, or NULL. */
static struct lanes_lane *
store_lanes_find(struct lanes_build *b, const int64_t key[6], uint64_t h)
{
	struct lanes_lane	*l;
	uint64_t		 i;

	if (!util_map_get(&b->bykey, h, &i))
		return NULL;
	for (; i != 0; i = l->same) {
		l = b->lanes[i - 1];
		if (memcmp(l->key, key, sizeof l->key) == 0)
			return l;
	}
	return NULL;
}

/*
 * Start a lane, KIND and the key columns KEY (hashed H) as in tl_lane,
 * beside those of the source already started.
 */
static struct lanes_lane *
store_lanes_begin(struct lanes_build *b, enum store_lane_kind kind,
    const int64_t key[6], uint64_t h, const char *name, const char *group)
{
	sqlite3_stmt		*stmt = b->lane;
	struct lanes_lane	*l;
	uint64_t		 same = 0;
	int			 i;

	sqlite3_bind_int(stmt, 1, kind);
	for (i = 0; i < 6; i++)
		store_load_bind_i64(stmt, 2 + i, key[i]);
	sqlite3_bind_text(stmt, 8, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 9, group, -1, SQLITE_STATIC);
	store_write(b->s, stmt);
	l = xcalloc(1, sizeof *l);
	memcpy(l->key, key, sizeof l->key);
	l->id = sqlite3_last_insert_rowid(b->s->db);
	l->k0 = -1;
	util_map_get(&b->bykey, h, &same);
	l->same = same;
	b->lanes = util_grow(b->lanes, b->nlanes, 1, sizeof *b->lanes);
	b->lanes[b->nlanes++] = l;
	util_map_set(&b->bykey, h, b->nlanes);
	return l;
}

/* Add the span ID [START, END) of TYPE to the lane; spans come in order. */
static void
store_lanes_span(struct lanes_build *b, struct lanes_lane *l, int64_t start,
    int64_t end, int64_t id, int type)
{
	int64_t		 cs, ce;

	if (end < start)
		end = start;
	if (l->ord == 0) {
		l->cend = start;
		l->start = start;
		l->end = end;
	}
	cs = start > l->cend ? start : l->cend;
	ce = end > cs ? end : cs;
	store_lanes_pack(b, l, start, end, id, ce - cs, type, ce, l->cum,
	    l->cend);
	l->ord++;
	l->cum += ce - cs;
	l->cend = ce;
	if (end > l->end)
		l->end = end;
	if (end - start > l->maxdur)
		l->maxdur = end - start;
	if (ce == cs)
		return;
	if (l->k0 >= 0) {
		store_lanes_bin_add(b, l, cs, ce, type);
		return;
	}
	if (l->probecap - l->probelen < 20) {
		l->probecap = l->probecap == 0 ? 256 : l->probecap * 2;
		l->probe = xreallocarray(l->probe, l->probecap, 1);
	}
	if (l->nprobe == 0)
		l->probecs = l->probece = cs;
	store_lanes_varint(l->probe, &l->probelen, (uint64_t)(cs -
	    l->probece));
	store_lanes_varint(l->probe, &l->probelen, (uint64_t)(ce - cs) << 4 |
	    (uint64_t)type);
	l->probece = ce;
	if (++l->nprobe == LANES_PROBE)
		store_lanes_choose(b, l);
}

/* Finish lane L: flush its bins, record its extent; free it. */
static void
store_lanes_end(struct lanes_build *b, struct lanes_lane *l)
{
	sqlite3_stmt	*stmt = b->done;
	int		 i;

	store_lanes_block_flush(b, l);
	if (l->k0 >= 0) {
		for (i = 0; i < LANES_NLEVELS; i++)
			store_lanes_bin_flush(b, l, i);
	}
	sqlite3_bind_int64(stmt, 1, l->ord);
	sqlite3_bind_int64(stmt, 2, l->start);
	sqlite3_bind_int64(stmt, 3, l->end);
	sqlite3_bind_int64(stmt, 4, l->maxdur);
	store_load_bind_i64(stmt, 5, l->k0 >= 0 ? l->k0 : NP_NA);
	sqlite3_bind_int64(stmt, 6, l->id);
	store_write(b->s, stmt);
	free(l->probe);
	free(l->levels);
	free(l);
}

/* Finish the lanes of the source read, in the order they began. */
static void
store_lanes_end_all(struct lanes_build *b)
{
	size_t	 i;

	for (i = 0; i < b->nlanes; i++)
		store_lanes_end(b, b->lanes[i]);
	b->nlanes = 0;
	util_map_release(&b->bykey);
	util_map_init(&b->bykey);
}

/*
 * Remember that task ID, just added at START, was launched by the API span
 * API, or by the one whose connection id is CONN.
 */
static void
store_lanes_link(struct lanes_build *b, struct lanes_lane *l, int64_t id,
    int64_t start, int64_t api, int64_t conn)
{
	sqlite3_stmt	*stmt = b->flow;

	if (api == NP_NA && conn == NP_NA)
		return;
	sqlite3_bind_int64(stmt, 1, id);
	store_load_bind_i64(stmt, 2, api);
	store_load_bind_i64(stmt, 3, conn);
	sqlite3_bind_int64(stmt, 4, l->id);
	sqlite3_bind_int64(stmt, 5, start);
	sqlite3_bind_int64(stmt, 6, l->ord - 1);
	store_write(b->s, stmt);
}

/* The group a lane of DEVICE, RANK and host PID is shown under. */
static void
store_lanes_group(char *buf, size_t size, int64_t device, int64_t rank,
    int64_t pid)
{
	char	 r[32] = "";

	if (rank != NP_NA)
		snprintf(r, sizeof r, "Rank %lld ", (long long)rank);
	if (device == NP_HOST_DEVICE || device == NP_NA)
		snprintf(buf, size, "%sHost pid %lld", r, (long long)pid);
	else
		snprintf(buf, size, "%sDevice %lld", r, (long long)device);
}

/*
 * The name of the trace's process PID or, with TID, of its thread, from
 * the lane metadata (process_name and thread_name events) into BUF; false
 * when the input named neither.
 */
static bool
store_lanes_meta(struct lanes_build *b, const int64_t key[6], int64_t tid,
    char *buf, size_t size)
{
	sqlite3_stmt	*stmt = b->meta;
	const char	*name;
	bool		 found = false;

	if (stmt == NULL)
		return false;
	store_load_bind_i64(stmt, 1, key[0]);
	store_load_bind_i64(stmt, 2, key[1]);
	store_load_bind_i64(stmt, 3, key[2]);
	store_load_bind_i64(stmt, 4, tid);
	if (sqlite3_step(stmt) == SQLITE_ROW &&
	    (name = (const char *)sqlite3_column_text(stmt, 0)) != NULL &&
	    *name != '\0') {
		snprintf(buf, size, "%s", name);
		found = true;
	}
	sqlite3_reset(stmt);
	return found;
}

/*
 * The group and name of an API lane with KEY. A host thread the trace
 * left with its default name ("Thread 59186") is called after its process
 * instead ("Python 59186", "CANN 59186"), since Python and CANN lanes of
 * one thread would otherwise read the same; other threads keep the name
 * the trace gave them ("Computing", "Stream 47").
 */
static void
store_lanes_api_names(struct lanes_build *b, const int64_t key[6],
    char *name, size_t nsize, char *group, size_t gsize)
{
	char	 proc[40], thread[64], dflt[32], depth[32] = "", r[32] = "";
	bool	 host = key[0] == NP_HOST_DEVICE || key[0] == NP_NA;

	if (key[5] < 0)
		snprintf(depth, sizeof depth, " mstx");
	else if (key[5] > 0)
		snprintf(depth, sizeof depth, ".%lld", (long long)key[5]);
	snprintf(dflt, sizeof dflt, "Thread %lld", (long long)key[3]);
	if (!store_lanes_meta(b, key, key[3], thread, sizeof thread))
		snprintf(thread, sizeof thread, "%s", dflt);
	if (host && store_lanes_meta(b, key, NP_NA, proc, sizeof proc)) {
		if (key[1] != NP_NA)
			snprintf(r, sizeof r, "Rank %lld ", (long long)key[1]);
		snprintf(group, gsize, "%s%s (pid %lld)", r, proc,
		    (long long)key[2]);
		if (strcmp(thread, dflt) == 0)
			snprintf(thread, sizeof thread, "%s %lld", proc,
			    (long long)key[3]);
	}
	snprintf(name, nsize, "%s%s", thread, depth);
}

/* The lane a source row V of KIND starting a key names: its tl_lane row. */
static struct lanes_lane *
store_lanes_new(struct lanes_build *b, enum store_lane_kind kind,
    const int64_t *v, uint64_t h)
{
	char	 name[128], group[128];

	store_lanes_group(group, sizeof group, v[0], v[1], v[2]);
	if (kind == LANE_STREAM && v[4] == NP_NA)
		snprintf(name, sizeof name, "Stream N/A");
	else if (kind == LANE_STREAM)
		snprintf(name, sizeof name, "Stream %lld", (long long)v[4]);
	else if (kind == LANE_STEP)
		snprintf(name, sizeof name, "Steps");
	else
		store_lanes_api_names(b, v, name, sizeof name, group,
		    sizeof group);
	return store_lanes_begin(b, kind, v, h, name, group);
}

/*
 * The lanes of group L's first G key columns are done: end them, and
 * remember the group. True if V's group was done before (not in sorted
 * sources, whose groups cannot come back; a hash that two groups share
 * says so too, and costs a sorted read).
 */
static bool
store_lanes_next_group(struct lanes_build *b, const int64_t *key,
    const int64_t *v, size_t g)
{
	uint64_t	 x;

	util_map_set(&b->ended, util_hash64((const char *)key, g *
	    sizeof *key), 1);
	store_lanes_end_all(b);
	return !b->sorted && util_map_get(&b->ended, util_hash64((const char *)
	    v, g * sizeof *v), &x);
}

/*
 * Lay out the rows of a source query, read ahead by R: the key (six
 * columns), start, end, row id, and for device tasks the core type id, API
 * row id and connection id; build a lane for each key. The rows of a lane
 * come in (start, row id) order, those of a group of lanes (a device's
 * tasks, a rank's steps, a thread's sorted API spans) together, but those
 * of a group's lanes may interleave: they build side by side, and end when
 * the next group starts. API spans in row order are one group, whose
 * threads may interleave, of at most LANES_OPEN lanes. A row before the
 * one its lane had last, of a group that ended, or of a lane past
 * LANES_OPEN returns -2: the source was not in lane order.
 */
static int
store_lanes_source(struct lanes_build *b, struct store_lanes_read *r,
    enum store_lane_kind kind, char **cause)
{
	struct lanes_lane	*l = NULL;
	int64_t			 v[LANES_NCOLS];
	uint64_t		 h;
	size_t			 g;
	int			 rc, type;

	/* Unsorted API spans: their threads' rows may interleave. */
	g = kind == LANE_STREAM ? 1 : kind == LANE_STEP ? 2 : b->sorted ? 4 : 0;
	while ((rc = store_lanes_read_next(r, v, cause)) == 1) {
		if (kind == LANE_STREAM)
			type = store_lanes_task_type(b, v[9]);
		else
			type = kind == LANE_API ? SPAN_API : SPAN_STEP;
		if (l == NULL || memcmp(v, l->key, sizeof l->key) != 0) {
			if (l != NULL && g > 0 && memcmp(v, l->key, g *
			    sizeof *v) != 0 && store_lanes_next_group(b,
			    l->key, v, g)) {
				rc = -2;
				break;
			}
			h = util_hash64((const char *)v, sizeof l->key);
			if ((l = store_lanes_find(b, v, h)) == NULL &&
			    g == 0 && b->nlanes == LANES_OPEN) {
				rc = -2;
				break;
			}
			if (l == NULL)
				l = store_lanes_new(b, kind, v, h);
		}
		if (l->ord > 0 && (v[6] < l->pstart || (v[6] == l->pstart &&
		    v[8] < l->last))) {
			rc = -2;
			break;
		}
		l->last = v[8];
		store_lanes_span(b, l, v[6], v[7], v[8], type);
		if (kind == LANE_STREAM)
			store_lanes_link(b, l, v[8], v[6], v[10], v[11]);
	}
	store_lanes_end_all(b);
	util_map_release(&b->ended);
	util_map_init(&b->ended);
	return rc;
}

/* The id of the interned string STR, or 0 (no string has it) if none. */
static int64_t
store_lanes_str(struct store *s, const char *str)
{
	sqlite3_stmt	*stmt;
	int64_t		 id = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT id FROM str WHERE s = ?", -1,
	    &stmt, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(stmt, 1, str, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return id;
}

/* Create the timeline tables and prepare B's statements; -1 on failure. */
static int
store_lanes_prepare(struct lanes_build *b, char **cause)
{
	struct store	*s = b->s;

	if (store_exec(s, store_schema_lanes_sql, cause) != 0 ||
	    store_prepare(s, &b->lane, "INSERT INTO tl_lane VALUES (NULL, ?,"
	    " ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, 0, NULL)", cause) != 0 ||
	    store_prepare(s, &b->span, "INSERT INTO tl_span VALUES (?, ?, ?,"
	    " ?)", cause) != 0 ||
	    store_exec(s, "CREATE TEMP TABLE tl_bin_build AS SELECT * FROM"
	    " tl_bin WHERE 0", cause) != 0 ||
	    store_prepare(s, &b->bin, "INSERT INTO temp.tl_bin_build VALUES"
	    " (?, ?, ?, ?,"
	    " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", cause) != 0 ||
	    store_prepare(s, &b->done, "UPDATE tl_lane SET nspans = ?,"
	    " start_ns = ?, end_ns = ?, maxdur = ?, k0 = ? WHERE id = ?",
	    cause) != 0 ||
	    store_prepare(s, &b->flow, "INSERT INTO tl_flow VALUES (?, ?, ?,"
	    " ?, ?, ?)", cause) != 0 ||
	    store_exec(s, "CREATE TEMP TABLE tl_block_build(lane, start, ord,"
	    " cum, cend, data)", cause) != 0 ||
	    store_prepare(s, &b->block, "INSERT INTO temp.tl_block_build"
	    " VALUES (?, ?, ?, ?, ?, ?)", cause) != 0 ||
	    store_prepare(s, &b->str, "SELECT s FROM str WHERE id = ?",
	    cause) != 0)
		return -1;
	/* Only traces have lane metadata; the table may be absent. */
	if (sqlite3_prepare_v2(s->db, "SELECT name FROM lane WHERE device"
	    " IS ?1 AND rank IS ?2 AND pid IS ?3 AND tid IS ?4 ORDER BY"
	    " id DESC LIMIT 1", -1, &b->meta, NULL) != SQLITE_OK)
		b->meta = NULL;
	return 0;
}

/*
 * Lay the API spans, steps and device tasks of the store at PATH out in
 * lanes, each a source query read ahead on a connection of its own
 * (store-lanes-read.c), then link tasks to the spans that launched them.
 * Each source gives every lane's rows in (start, row id) order: the tasks
 * by the index of the tables' default order (device, start), which the
 * store has by then, the API spans by row id (an importer writes each
 * thread's spans in start order), unless B is sorted (the spans were not
 * in that order: they are sorted by lane). -2 if they were not.
 */
static int
store_lanes_sources(struct lanes_build *b, const char *path,
    int (*check)(void *), void *arg, char **cause)
{
	static const enum store_lane_kind kinds[3] = { LANE_API, LANE_STEP,
					   LANE_STREAM };
	struct store_lanes_read	*r[3];
	const char		*sql[3];
	char			*api;
	int			 rc = 0;
	size_t			 i;

	/*
	 * A thread's mstx markers and ranges get a lane of their own, depth
	 * -1, above its API rows: a range holds the calls it marks, and
	 * would otherwise push them a row down.
	 */
	xasprintf(&api, "SELECT device, rank, pid, tid, NULL, CASE WHEN level"
	    " = %lld THEN -1 ELSE ifnull(depth, 0) END, start_ns, end_ns, id"
	    " FROM api ORDER BY %s", (long long)store_lanes_str(b->s, "mstx"),
	    b->sorted ? "device, rank, pid, tid, 6, start_ns, id" : "id");
	sql[0] = api;
	sql[1] = "SELECT device, rank, NULL, NULL, NULL, NULL, iter_end_ns -"
	    " iter_time_ns, iter_end_ns, rowid FROM step WHERE iter_end_ns IS"
	    " NOT NULL AND iter_time_ns IS NOT NULL ORDER BY device, rank, 7,"
	    " rowid";
	sql[2] = "SELECT device, rank, NULL, NULL, stream, NULL, start_ns,"
	    " start_ns + dur_ns, id, task_type, api, conn FROM task ORDER BY"
	    " device, start_ns, id";
	/*
	 * Each starts at once; the spans, if sorted, with SQLite's threads
	 * too (a sort buffer more: 16 MB).
	 */
	for (i = 0; i < 3; i++)
		r[i] = store_lanes_read_create(path, sql[i], i == 0, LANES_NA,
		    check, arg);
	for (i = 0; i < 3 && rc == 0; i++)
		rc = store_lanes_source(b, r[i], kinds[i], cause);
	for (i = 0; i < 3; i++)
		store_lanes_read_free(r[i]);
	if (rc == 0 && store_exec(b->s, "UPDATE tl_flow SET api = (SELECT"
	    " a.id FROM api a WHERE a.conn = tl_flow.conn ORDER BY a.depth"
	    " DESC, a.id LIMIT 1) WHERE api IS NULL; CREATE INDEX tl_flow_api"
	    " ON tl_flow(api);", cause) != 0)
		rc = -1;
	free(api);
	return rc;
}

/* Copy the blocks and bins B built into their tables; -1 on failure. */
static int
store_lanes_copy(struct lanes_build *b, char **cause)
{
	/*
	 * The blocks were built beside the spans and bins, whose pages they
	 * would be scattered among, the lanes' side by side; copied here in
	 * key order they fill pages of their own, one after another, so a
	 * frame's seeks (which touch most of them when zoomed out) read a
	 * compact part of the file and the OS maps it in a few large steps.
	 * The bins follow in the order they were written (level by level
	 * within a lane, a group's lanes interleaved): sorting them into key
	 * order first cost 2 CPU-s per million tasks.
	 */
	sqlite3_finalize(b->block);
	sqlite3_finalize(b->bin);
	b->block = b->bin = NULL;
	if (store_exec(b->s, "INSERT INTO tl_block SELECT * FROM"
	    " temp.tl_block_build ORDER BY lane, start, ord;"
	    " DROP TABLE temp.tl_block_build;"
	    " INSERT INTO tl_bin SELECT * FROM temp.tl_bin_build"
	    " ORDER BY rowid; DROP TABLE temp.tl_bin_build;",
	    cause) != 0)
		return -1;
	return 0;
}

/* Finalize B's statements, for another try or the end. */
static void
store_lanes_finalize(struct lanes_build *b)
{
	sqlite3_stmt	**stmt[] = { &b->lane, &b->span, &b->bin, &b->done,
	    &b->flow, &b->block, &b->meta, &b->str };
	size_t		  i;

	for (i = 0; i < sizeof stmt / sizeof stmt[0]; i++) {
		sqlite3_finalize(*stmt[i]);
		*stmt[i] = NULL;
	}
}

/* Create the tables and fill them from the store at PATH: 0, -1, -2. */
static int
store_lanes_fill(struct lanes_build *b, const char *path,
    int (*check)(void *), void *arg, char **cause)
{
	int	 rc;

	if (store_lanes_prepare(b, cause) != 0)
		return -1;
	if ((rc = store_lanes_sources(b, path, check, arg, cause)) != 0)
		return rc;
	return store_lanes_copy(b, cause);
}

/*
 * Build the timeline tables into the main schema of S from the task, api
 * and step rows of the store at PATH, which is attached beside it (see
 * store-lanes-side.c): from the spans as the store holds them, or, when
 * they are not in each lane's order, again from them sorted. CHECK (or
 * NULL), called with ARG, says when to give up. On failure return -1 and
 * set *cause.
 */
int
store_lanes_build(struct store *s, const char *path, int (*check)(void *),
    void *arg, char **cause)
{
	struct lanes_build	 b;
	struct timespec		 t0, t1;
	char			 buf[96];
	int			 rc = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&b, 0, sizeof b);
	b.s = s;
	util_map_init(&b.bykey);
	util_map_init(&b.ended);
	store_load_progress(s, "timeline", NULL, 0, 0);
	/* The file has no journal to roll back: its tables go instead. */
	if ((rc = store_lanes_fill(&b, path, check, arg, cause)) == -2) {
		store_lanes_finalize(&b);
		b.sorted = true;
		rc = store_exec(s, "DROP TABLE main.tl_lane; DROP TABLE"
		    " main.tl_span; DROP TABLE main.tl_block; DROP TABLE"
		    " main.tl_bin; DROP TABLE main.tl_flow; DROP TABLE IF EXISTS"
		    " temp.tl_block_build; DROP TABLE IF EXISTS"
		    " temp.tl_bin_build", cause) != 0 ? -1 :
		    store_lanes_fill(&b, path, check, arg, cause);
		if (rc == -2)
			xasprintf(cause, "the timeline's rows came out of"
			    " order");
	}
	if (rc != 0)
		goto out;
	/* What the timeline's build took, for bench/timeline.sh. */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	snprintf(buf, sizeof buf, "INSERT INTO main.meta VALUES"
	    " ('timeline_seconds', '%.3f')", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	rc = -1;
	if (store_exec(s, buf, cause) != 0 || store_failed(s, cause) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		rc = -1;
	store_lanes_finalize(&b);
	if (rc != 0)
		sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.tl_block_build;"
		    " DROP TABLE IF EXISTS temp.tl_bin_build", NULL, NULL,
		    NULL);
	free(b.lanes);
	util_map_release(&b.bykey);
	util_map_release(&b.ended);
	free(b.types);
	return rc;
}
