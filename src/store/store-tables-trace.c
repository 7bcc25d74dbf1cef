/*
 * The tables of chrome-trace data and other spans, for show and the UI:
 * spans (every API span with its nesting), lanes (the processes and
 * threads a trace names), counters (one row per counter sample) and flows
 * (the endpoints linking host launches to device tasks). store-tables.c
 * looks names up here after its own tables.
 */
#include "store-int.h"

/* The name a trace gives process PID of the row's rank, if any. */
#define TRACE_PROCESS(a)						\
	"(SELECT l.name FROM lane l WHERE l.pid = " a ".pid"		\
	" AND l.tid IS NULL AND l.rank IS " a ".rank)"

static const struct store_col store_tables_trace_spans[] = {
	{ .name = "Device_id", .expr = "a.device", .fmt = FMT_DEVICE },
	{ .name = "Level", .expr = "l.s", .fmt = FMT_TEXT },
	{ .name = "Name", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "Process ID", .expr = "a.pid", .fmt = FMT_INT },
	{ .name = "Thread ID", .expr = "a.tid", .fmt = FMT_INT },
	{ .name = "Start(us)", .expr = "a.start_ns", .fmt = FMT_US3 },
	{ .name = "Duration(us)", .expr = "a.end_ns - a.start_ns",
	  .fmt = FMT_US3 },
	{ .name = "Depth", .expr = "a.depth", .fmt = FMT_INT },
	{ .name = "ID", .expr = "a.id", .fmt = FMT_INT },
	{ .name = "Parent ID", .expr = "a.parent", .fmt = FMT_INT },
	{ .name = "Connection ID", .expr = "a.conn", .fmt = FMT_INT }
};

static const struct store_col store_tables_trace_lanes[] = {
	{ .name = "Device_id", .expr = "device", .fmt = FMT_DEVICE },
	{ .name = "Process ID", .expr = "pid", .fmt = FMT_INT },
	{ .name = "Thread ID", .expr = "tid", .fmt = FMT_INT },
	{ .name = "Name", .expr = "name", .fmt = FMT_TEXT },
	{ .name = "Labels", .expr = "labels", .fmt = FMT_TEXT },
	{ .name = "Sort Index", .expr = "sort_index", .fmt = FMT_INT }
};

static const struct store_col store_tables_trace_counters[] = {
	{ .name = "Device_id", .expr = "c.device", .fmt = FMT_DEVICE },
	{ .name = "Process", .expr = TRACE_PROCESS("c"), .fmt = FMT_TEXT },
	{ .name = "Track", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "Key", .expr = "k.s", .fmt = FMT_TEXT },
	{ .name = "Time(us)", .expr = "c.ts_ns", .fmt = FMT_US3 },
	{ .name = "Value", .expr = "c.value", .fmt = FMT_REAL }
};

static const struct store_col store_tables_trace_flows[] = {
	{ .name = "Device_id", .expr = "f.device", .fmt = FMT_DEVICE },
	{ .name = "Category", .expr = "c.s", .fmt = FMT_TEXT },
	{ .name = "Name", .expr = "n.s", .fmt = FMT_TEXT },
	{ .name = "ID", .expr = "f.id", .fmt = FMT_NUMTEXT },
	{ .name = "Phase", .expr = "f.phase", .fmt = FMT_TEXT },
	{ .name = "Process", .expr = TRACE_PROCESS("f"), .fmt = FMT_TEXT },
	{ .name = "Thread ID", .expr = "f.tid", .fmt = FMT_INT },
	{ .name = "Time(us)", .expr = "f.ts_ns", .fmt = FMT_US3 },
	{ .name = "Binding", .expr = "f.bp", .fmt = FMT_TEXT }
};

#define TABLE_COLS(a)	.cols = (a), .ncols = sizeof (a) / sizeof (a)[0]

const struct store_table store_tables_trace[] = {
	{ .name = "spans", .aliases = " api_spans ", .title = "Spans",
	  .from = "api a LEFT JOIN str l ON l.id = a.level"
	  " LEFT JOIN str n ON n.id = a.name",
	  TABLE_COLS(store_tables_trace_spans), .device = "a.device",
	  .rank = "a.rank", .time = "a.start_ns",
	  .order = "a.start_ns, a.id" },
	{ .name = "lanes", .aliases = " lane ", .title = "Lanes",
	  .from = "lane", TABLE_COLS(store_tables_trace_lanes),
	  .device = "device", .rank = "rank",
	  .order = "rank, pid, tid IS NOT NULL, tid" },
	{ .name = "counters", .aliases = " counter ", .title = "Counters",
	  .from = "counter c LEFT JOIN str n ON n.id = c.name"
	  " LEFT JOIN str k ON k.id = c.key",
	  TABLE_COLS(store_tables_trace_counters), .device = "c.device",
	  .rank = "c.rank", .time = "c.ts_ns",
	  .order = "c.pid, n.s, k.s, c.ts_ns, c.rowid" },
	{ .name = "flows", .aliases = " flow ", .title = "Flows",
	  .from = "flow f LEFT JOIN str c ON c.id = f.cat"
	  " LEFT JOIN str n ON n.id = f.name",
	  TABLE_COLS(store_tables_trace_flows), .device = "f.device",
	  .rank = "f.rank", .time = "f.ts_ns",
	  .order = "f.ts_ns, f.rowid" }
};

const size_t store_tables_ntrace =
    sizeof store_tables_trace / sizeof store_tables_trace[0];
