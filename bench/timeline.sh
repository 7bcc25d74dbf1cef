#!/bin/sh
# The timeline benchmark (run by make bench): TL_TASKS tasks (10,000,000)
# across TL_STREAMS streams (32) from the demo generator; the import time,
# then the time the timeline's own file takes to build (the UI builds it
# in the background once the statistics are on screen); then the cells
# queries of full-width frames (TL_CELLS cells, 200, over TL_LANES lanes,
# 40, or all there are) at every zoom level from the whole trace down to
# about 1 us a cell, p50/p99/max per frame and p50/p99 of the frame's CPU
# time, with the peak RSS; then the cold frames, one per zoom level right
# after the store is opened again (an empty SQLite page cache); then the
# same with the spans each redraw of the view reads.
# Usage: bench/timeline.sh path/to/npuprof-tui
. "$(dirname "$0")/lib.sh" "$@"
CELLS="$top/tests/tl-cells"
N=${TL_TASKS:-10000000}
S=${TL_STREAMS:-32}
W=${TL_CELLS:-200}
L=${TL_LANES:-40}
F=${TL_FRAMES:-200}
T=$(mktemp -d "${TMPDIR:-/tmp}/nptl.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -x "$GEN" ] && [ -x "$CELLS" ] ||
    make -C "$top" tools/gen/npuprof-gen tests/tl-cells >/dev/null

echo "timeline: $N tasks across $S streams"
"$GEN" demo "$T/d" -n "$N" -S "$S"
set -- $("$here/measure" "$NPUPROF" import -q --indexes --db "$T/s.db" \
    "$T/d")
imp=$1
cpu=$3
echo "import with its indexes (no timeline): $1 s, $cpu CPU-s," \
    "peak RSS $2 MB," \
    "store $(du -m "$T/s.db" | cut -f1) MB"
# The timeline's tables, built into their own file when first needed;
# import --timeline on the current store builds just them.
set -- $("$here/measure" "$NPUPROF" import -q --timeline --db "$T/s.db" \
    "$T/d")
tl=$(sqlite3 "$T/s.db-timeline" "select value from meta where key =
    'timeline_seconds'" 2>/dev/null)
echo "timeline build: $1 s, $3 CPU-s (its tables: ${tl:-?} s), peak RSS" \
    "$2 MB, file $(du -m "$T/s.db-timeline" | cut -f1) MB"
awk -v i="$imp" -v t="$1" 'BEGIN { if (i + t <= 0) t = 0.01
	printf "statistics on screen after %.2f of the import with the" \
	    " timeline (target 0.25 or less)\n", i / (i + t) }'
# The UI on a new store builds the indexes (but the first) and the
# timeline at once: a store imported without its indexes does the same.
"$NPUPROF" import -q --db "$T/n.db" "$T/d" >/dev/null
set -- $("$here/measure" "$NPUPROF" import -q --timeline --db "$T/n.db" \
    "$T/d")
echo "indexes and timeline together, as the UI builds them: $1 s, $3" \
    "CPU-s, peak RSS $2 MB (reproduce: $NPUPROF import --db N.db DIR;" \
    "$NPUPROF import --timeline --db N.db DIR)"
rm -f "$T/n.db"*
"$CELLS" "$T/s.db" bench "$W" "$L" "$F" >"$T/frames"
set -- $("$here/measure" "$CELLS" "$T/s.db" bench "$W" "$L" 3)
echo "-- cells only"
cat "$T/frames"
echo "peak RSS of the frames: $2 MB"
"$CELLS" "$T/s.db" cold "$W" "$L"
# A redraw of the view also reads the spans it may write names in.
echo "-- cells and spans, as the timeline view redraws"
"$CELLS" "$T/s.db" bench "$W" "$L" "$F" spans
"$CELLS" "$T/s.db" cold "$W" "$L" spans
echo "(reproduce: $GEN demo DIR -n $N -S $S;" \
    "$NPUPROF import --timeline --db S.db DIR;" \
    "$CELLS S.db bench $W $L $F [spans];" \
    "$CELLS S.db cold $W $L [spans])"
