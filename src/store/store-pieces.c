/*
 * The timeline's pieces (store-lanes.c) one at a time, for the spans a
 * zoomed-in frame draws, the one under the cursor and its neighbours, the
 * flows and the jumps from a table row. The pieces are stored packed by
 * STORE_PIECES_BLOCK, never a row each: tl_block holds each piece's start,
 * busy part and type, which every frame reads (store-timeline.c), and
 * tl_span, under the same key, its end and source row id, which only these
 * lookups read. A cursor holds one block of a lane decoded and moves to
 * the next or previous block when it runs out; every move is an index
 * seek on the blocks' key.
 */
#include <string.h>

#include "store-int.h"

enum {
	PIECES_AT,		/* the last block starting at or before */
	PIECES_AFTER,		/* the first block starting after */
	PIECES_BEFORE		/* the last block starting before */
};

static const char *store_pieces_sql[PIECES_NSTMT] = {
	[PIECES_AT] = "SELECT b.start, b.ord, b.cum, b.cend, b.data, p.data"
	    " FROM tl_block b JOIN tl_span p USING (lane, start, ord) WHERE"
	    " b.lane = ?1 AND (b.start, b.ord) <= (?2, ?3)"
	    " ORDER BY b.start DESC, b.ord DESC LIMIT 1",
	[PIECES_AFTER] = "SELECT b.start, b.ord, b.cum, b.cend, b.data,"
	    " p.data FROM tl_block b JOIN tl_span p USING (lane, start, ord)"
	    " WHERE b.lane = ?1 AND (b.start, b.ord) > (?2, ?3)"
	    " ORDER BY b.start, b.ord LIMIT 1",
	[PIECES_BEFORE] = "SELECT b.start, b.ord, b.cum, b.cend, b.data,"
	    " p.data FROM tl_block b JOIN tl_span p USING (lane, start, ord)"
	    " WHERE b.lane = ?1 AND (b.start, b.ord) < (?2, ?3)"
	    " ORDER BY b.start DESC, b.ord DESC LIMIT 1"
};

/* Read an unsigned LEB128 varint at *P, not past END. */
uint64_t
store_pieces_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t	 v = 0;
	int		 shift = 0;

	while (*p < end && shift < 64) {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		if ((*(*p)++ & 0x80) == 0)
			break;
	}
	return v;
}

/* A cursor on LANE of S, on no piece yet. */
void
store_pieces_init(struct store_pieces *c, struct store *s, int64_t lane)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	c->lane = lane;
}

void
store_pieces_release(struct store_pieces *c)
{
	int	 i;

	for (i = 0; i < PIECES_NSTMT; i++) {
		sqlite3_finalize(c->stmt[i]);
		c->stmt[i] = NULL;
	}
	c->n = 0;
}

/*
 * Decode the block in the row of STMT into C: tl_block's blob gives each
 * piece's start, busy part and type and furthest end (differences from
 * the piece before), tl_span's its length and row id (a zigzag difference
 * from the piece before, from 0 for the first).
 */
static void
store_pieces_decode(struct store_pieces *c, sqlite3_stmt *stmt)
{
	struct store_piece	*p;
	const uint8_t		*b, *bend, *x, *xend;
	int64_t			 start, ord, cum, cend;
	uint64_t		 v, id = 0;

	start = sqlite3_column_int64(stmt, 0);
	ord = sqlite3_column_int64(stmt, 1);
	cum = sqlite3_column_int64(stmt, 2);
	cend = sqlite3_column_int64(stmt, 3);
	b = sqlite3_column_blob(stmt, 4);
	bend = b != NULL ? b + sqlite3_column_bytes(stmt, 4) : NULL;
	x = sqlite3_column_blob(stmt, 5);
	xend = x != NULL ? x + sqlite3_column_bytes(stmt, 5) : NULL;
	c->n = 0;
	while (b != NULL && b < bend && c->n < STORE_PIECES_BLOCK) {
		p = &c->p[c->n++];
		start += (int64_t)store_pieces_varint(&b, bend);
		v = store_pieces_varint(&b, bend);
		p->start = start;
		p->ord = ord++;
		p->clen = (int64_t)(v >> 4);
		p->type = (int)(v & 0xf);
		cum += p->clen;
		cend += (int64_t)store_pieces_varint(&b, bend);
		p->cum = cum;
		p->cend = cend;
		p->end = start;
		if (x != NULL && x < xend) {
			p->end += (int64_t)store_pieces_varint(&x, xend);
			v = store_pieces_varint(&x, xend);
			id += (v >> 1) ^ -(v & 1);
		}
		p->id = (int64_t)id;
	}
}

/*
 * Load into C the block that query WHICH finds from (START, ORD): 1 if
 * there is one, 0 if not (C unchanged), -1 with *cause set on failure.
 */
static int
store_pieces_load(struct store_pieces *c, int which, int64_t start,
    int64_t ord, char **cause)
{
	sqlite3_stmt	*stmt = c->stmt[which];
	int		 rc;

	if (stmt == NULL && store_prepare(c->s, &c->stmt[which],
	    store_pieces_sql[which], cause) != 0)
		return -1;
	stmt = c->stmt[which];
	sqlite3_bind_int64(stmt, 1, c->lane);
	sqlite3_bind_int64(stmt, 2, start);
	sqlite3_bind_int64(stmt, 3, ord);
	if ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
		store_pieces_decode(c, stmt);
	sqlite3_reset(stmt);
	if (rc == SQLITE_ROW)
		return c->n > 0;
	if (rc == SQLITE_DONE)
		return 0;
	xasprintf(cause, "cannot read the timeline: %s",
	    sqlite3_errmsg(c->s->db));
	return -1;
}

/*
 * Put C on the last piece of its lane at or before (START, ORD) in lane
 * order: 1 if there is one, 0 if not (store_pieces_next() then gives the
 * first piece after it), -1 with *cause set on failure.
 */
int
store_pieces_seek(struct store_pieces *c, int64_t start, int64_t ord,
    char **cause)
{
	int	 rc;

	c->n = 0;
	c->from_start = start;
	c->from_ord = ord;
	if ((rc = store_pieces_load(c, PIECES_AT, start, ord, cause)) != 1)
		return rc;
	for (c->i = c->n - 1; c->i > 0; c->i--) {
		if (c->p[c->i].start < start || (c->p[c->i].start == start &&
		    c->p[c->i].ord <= ord))
			break;
	}
	return 1;
}

/* Move C to the next piece of its lane: 1, 0 at the end, or -1. */
int
store_pieces_next(struct store_pieces *c, char **cause)
{
	int	 rc;

	if (c->n > 0 && c->i + 1 < c->n) {
		c->i++;
		return 1;
	}
	rc = store_pieces_load(c, PIECES_AFTER, c->n > 0 ? c->p[0].start :
	    c->from_start, c->n > 0 ? c->p[0].ord : c->from_ord, cause);
	if (rc == 1)
		c->i = 0;
	return rc;
}

/* Move C to the piece before: 1, 0 at the lane's start, or -1. */
int
store_pieces_prev(struct store_pieces *c, char **cause)
{
	int	 rc;

	if (c->n == 0)
		return 0;
	if (c->i > 0) {
		c->i--;
		return 1;
	}
	rc = store_pieces_load(c, PIECES_BEFORE, c->p[0].start, c->p[0].ord,
	    cause);
	if (rc == 1)
		c->i = c->n - 1;
	return rc;
}

/* The piece C is on as *SP, unnamed. */
void
store_pieces_span(const struct store_pieces *c, struct store_span *sp)
{
	const struct store_piece	*p = &c->p[c->i];

	memset(sp, 0, sizeof *sp);
	sp->lane = c->lane;
	sp->start_ns = p->start;
	sp->ord = p->ord;
	sp->end_ns = p->end;
	sp->id = p->id;
	sp->type = p->type;
}

/*
 * Put C on the piece of its lane starting at START whose source row is ID
 * (any, if ID is NP_NA): 1 if there is one, 0 if not, -1 on failure.
 */
int
store_pieces_find(struct store_pieces *c, int64_t start, int64_t id,
    char **cause)
{
	int	 rc;

	if ((rc = store_pieces_seek(c, start, -1, cause)) < 0)
		return -1;
	while ((rc = store_pieces_next(c, cause)) == 1 &&
	    c->p[c->i].start == start) {
		if (id == NP_NA || c->p[c->i].id == id)
			return 1;
	}
	return rc < 0 ? -1 : 0;
}
