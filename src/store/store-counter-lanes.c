/*
 * Counter series (AI Core frequency, HBM and LLC bandwidth, memory, ...)
 * as timeline lanes. A series is a step function: a sample's value holds
 * until the next sample, and the last one holds only at its own instant.
 * A cell shows the highest value the series takes inside it, so a short
 * spike is never lost at any zoom, and a cell before the first sample or
 * after the last one is empty. A frame reads the sample before it and the
 * samples inside it through the index counter_series.
 */
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

#define COUNTER_SERIES							\
	" FROM counter WHERE name = ?1 AND key IS ?2 AND device IS ?3"	\
	" AND rank IS ?4 AND pid IS ?5 AND tid IS ?6"

/* Bind the series of lane L to the first six parameters of STMT. */
static void
store_counter_lanes_bind(sqlite3_stmt *stmt, const struct store_lane *l)
{
	store_load_bind_i64(stmt, 1, l->stream);
	store_load_bind_i64(stmt, 2, l->depth);
	store_load_bind_i64(stmt, 3, l->device);
	store_load_bind_i64(stmt, 4, l->rank);
	store_load_bind_i64(stmt, 5, l->pid);
	store_load_bind_i64(stmt, 6, l->tid);
}

/*
 * The value of lane L's series at instant T: the last sample at or
 * before T, if T is not past the last sample. Return 1 and set *V if
 * there is one, else 0.
 */
int
store_counter_lanes_at(struct store *s, const struct store_lane *l, int64_t t,
    double *v)
{
	sqlite3_stmt	*stmt;
	int		 found = 0;

	if (t > l->end_ns || sqlite3_prepare_v2(s->db, "SELECT value"
	    COUNTER_SERIES " AND ts_ns <= ?7 ORDER BY ts_ns DESC LIMIT 1", -1,
	    &stmt, NULL) != SQLITE_OK)
		return 0;
	store_counter_lanes_bind(stmt, l);
	sqlite3_bind_int64(stmt, 7, t);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		*v = sqlite3_column_double(stmt, 0);
		found = 1;
	}
	sqlite3_finalize(stmt);
	return found;
}

/*
 * When lane L's series first reaches its highest value, into *T: 1 if
 * found, else 0.
 */
int
store_counter_lanes_peak(struct store *s, const struct store_lane *l,
    int64_t *t)
{
	sqlite3_stmt	*stmt;
	int		 found = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT ts_ns" COUNTER_SERIES
	    " AND value >= ?7 ORDER BY ts_ns LIMIT 1", -1, &stmt, NULL) !=
	    SQLITE_OK)
		return 0;
	store_counter_lanes_bind(stmt, l);
	sqlite3_bind_double(stmt, 7, l->vmax);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		*t = sqlite3_column_int64(stmt, 0);
		found = 1;
	}
	sqlite3_finalize(stmt);
	return found;
}

/* The cell of the W cells over [T0, T1) holding T, which lies inside. */
static size_t
store_counter_lanes_cell(int64_t t0, int64_t t1, size_t w, int64_t t)
{
	size_t	 i;

	i = (size_t)((double)(t - t0) / (double)(t1 - t0) * (double)w);
	if (i >= w)
		i = w - 1;
	while (i > 0 && store_timeline_cell_edge(t0, t1, w, i) > t)
		i--;
	while (i + 1 < w && store_timeline_cell_edge(t0, t1, w, i + 1) <= t)
		i++;
	return i;
}

/* Raise cell C to value V. */
static void
store_counter_lanes_put(struct store_cell *c, double v)
{
	if (c->type < 0 || v > c->value)
		c->value = v;
	c->type = 0;
}

/*
 * Fill CELLS[0..W) for counter lane L over [T0, T1), cells as
 * store_timeline_cells() cuts them: each cell's highest value (type 0), the
 * samples in it as spans, type -1 where the series has no value. On
 * failure return -1 and set *cause.
 */
int
store_counter_lanes_cells(struct store *s, const struct store_lane *l,
    int64_t t0, int64_t t1, size_t w, struct store_cell *cells, char **cause)
{
	sqlite3_stmt	*stmt;
	size_t		 i, cur = 0, c;
	double		 held = 0, v;
	bool		 have;
	int		 rc;

	if (w == 0 || t1 <= t0) {
		xasprintf(cause, "bad timeline frame");
		return -1;
	}
	memset(cells, 0, w * sizeof *cells);
	for (i = 0; i < w; i++)
		cells[i].type = -1;
	/* The value holding when the frame starts, then its samples. */
	have = store_counter_lanes_at(s, l, t0 - 1, &held) == 1;
	if (store_prepare(s, &stmt, "SELECT ts_ns, value" COUNTER_SERIES
	    " AND ts_ns >= ?7 AND ts_ns < ?8 ORDER BY ts_ns", cause) != 0)
		return -1;
	store_counter_lanes_bind(stmt, l);
	sqlite3_bind_int64(stmt, 7, t0);
	sqlite3_bind_int64(stmt, 8, t1);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		c = store_counter_lanes_cell(t0, t1, w,
		    sqlite3_column_int64(stmt, 0));
		v = sqlite3_column_double(stmt, 1);
		/* The held value covers the cells up to this sample's. */
		for (i = cur; have && i <= c; i++)
			store_counter_lanes_put(&cells[i], held);
		store_counter_lanes_put(&cells[c], v);
		cells[c].spans++;
		held = v;
		have = true;
		cur = c;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read counter %s: %s", l->name,
		    sqlite3_errmsg(s->db));
		return -1;
	}
	/* The last value holds until the series' last sample. */
	for (i = cur; have && i < w && store_timeline_cell_edge(t0, t1, w, i) <=
	    l->end_ns; i++)
		store_counter_lanes_put(&cells[i], held);
	return 0;
}
