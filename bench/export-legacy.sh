#!/bin/sh
# Legacy export benchmark: a generated legacy JOB of BENCH_JOB_OPS ops run
# for BENCH_JOB_STEPS iterations (one HWTS task each), imported, then
# export summary writes one op_summary and step_trace file per iteration
# (<name>_<device>_<model>_<iter>.csv). The same number of task rows in a
# modern store (npuprof-gen demo) is exported too, for the ratio.
# Usage: bench/export-legacy.sh NPUPROF
. "$(dirname "$0")/lib.sh" "$@"
OPS=${BENCH_JOB_OPS:-2000}
STEPS=${BENCH_JOB_STEPS:-100}
T=$(mktemp -d "${TMPDIR:-/tmp}/npbench.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$GEN" job "$T/job" -n "$OPS" -t "$STEPS" -S 4 -a 1000 >/dev/null
"$NPUPROF" import -q --indexes --db "$T/j.db" "$T/job"
set -- $("$here/measure" "$NPUPROF" export summary -q --db "$T/j.db" \
    --output "$T/lo" "$T/job")
files=$(ls "$T/lo" | wc -l)
rows=$(cat "$T"/lo/op_summary_* | grep -vc '^Model Name,')
awk -v s="$1" -v r="$2" -v n="$rows" -v f="$files" 'BEGIN {
	printf "legacy export summary: %d task rows in %d files, %.2f s, " \
	    "%.0f rows/s, peak RSS %.1f MB\n", n, f, s, n / s, r }'
"$GEN" demo "$T/d" -n "$rows" -S 4 >/dev/null
"$NPUPROF" import -q --indexes --db "$T/d.db" "$T/d"
set -- $("$here/measure" "$NPUPROF" export summary -q --db "$T/d.db" \
    --output "$T/mo" "$T/d")
awk -v s="$1" -v r="$2" -v n="$rows" 'BEGIN {
	printf "modern export summary of as many rows: %.2f s, %.0f rows/s, " \
	    "peak RSS %.1f MB\n", s, n / s, r }'
echo "(reproduce: $GEN job DIR -n $OPS -t $STEPS -S 4 -a 1000;" \
    "$here/measure $NPUPROF export summary -q --db J.db --output OUT DIR)"
