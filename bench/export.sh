#!/bin/sh
# Export benchmark: a store of BENCH_ROWS launched operators (one device
# task and three API spans each, two of three tasks linked by a flow),
# written by "npuprof-gen spans"; then export timeline and export summary.
# Peak RSS must stay flat however many rows there are: both stream.
# Usage: bench/export.sh NPUPROF
. "$(dirname "$0")/lib.sh" "$@"
ROWS=${BENCH_ROWS:-1000000}
T=$(mktemp -d "${TMPDIR:-/tmp}/npbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

mkdir "$T/r" && echo bench >"$T/r/README"
"$GEN" spans "$T/s.db" "$T/r" -n "$ROWS"
set -- $("$here/measure" "$NPUPROF" export timeline -q --db "$T/s.db" \
    --output "$T/t" "$T/r")
mb=$(du -m "$T"/t/*.json | cut -f1)
awk -v s="$1" -v r="$2" -v n="$ROWS" -v mb="$mb" 'BEGIN {
	printf "export timeline: %.2f s, %.0f tasks/s, %d MB of JSON, " \
	    "peak RSS %.1f MB\n", s, n / s, mb, r }'
set -- $("$here/measure" "$NPUPROF" export summary -q --db "$T/s.db" \
    --output "$T/s" "$T/r")
awk -v s="$1" -v r="$2" -v n="$ROWS" 'BEGIN {
	printf "export summary: %.2f s, %.0f rows/s, peak RSS %.1f MB\n",
	    s, n / s, r }'
echo "(reproduce: $GEN spans S.db DIR -n $ROWS; $here/measure $NPUPROF" \
    "export timeline -q --db S.db --output OUT DIR)"
