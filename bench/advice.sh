#!/bin/sh
# The advice and the comparison tables on a large run: the bad run of
# tests/advice/gen-advice.py with its kernels REPEAT times over (default
# 50,000 x 21 = 1.05M kernels with PMU columns, a trace with the overlap
# analysis), imported once; then show advice (every rule: a pass over
# the kernels for the launch gaps, one for the PMU pipes, the overall
# breakdown), show --compare overall and op_statistic_compare against the
# good run, each with its wall time and peak RSS.
# usage: bench/advice.sh NPUPROF
. "$(dirname "$0")/lib.sh" "$@"
repeat=${BENCH_ADVICE_REPEAT:-50000}
command -v python3 >/dev/null || { echo "bench/advice.sh: needs python3"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/npt-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
python3 "$here/../tests/advice/gen-advice.py" "$T" --repeat "$repeat"
B="$T/bad_ascend_pt"
G="$T/good_ascend_pt"
n=$((repeat * 21))
set -- $("$here/measure" "$NPUPROF" import -q --indexes "$B")
echo "import of $n kernels: $1 s, peak RSS $2 MB"
"$NPUPROF" import -q --indexes "$G"
set -- $("$here/measure" "$NPUPROF" show -q --format csv "$B" advice)
awk -v s="$1" -v r="$2" -v n="$n" 'BEGIN {
	printf "show advice: %.2f s (%.0f kernels/s), peak RSS %.0f MB\n",
	    s, n / s, r }'
set -- $("$here/measure" "$NPUPROF" show -q --compare --format csv "$G" "$B" \
    overall)
echo "show --compare overall: $1 s, peak RSS $2 MB"
set -- $("$here/measure" "$NPUPROF" show -q --compare --format csv "$G" "$B" \
    op_statistic_compare)
echo "show --compare op_statistic_compare: $1 s, peak RSS $2 MB"
echo "(reproduce: python3 tests/advice/gen-advice.py DIR --repeat $repeat;" \
    "$NPUPROF import DIR/bad_ascend_pt; bench/measure $NPUPROF show -q" \
    "DIR/bad_ascend_pt advice)"
