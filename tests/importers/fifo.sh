#!/bin/sh
# A FIFO where a profile file should be never hangs an import: every input
# is opened without blocking and anything but a regular file is skipped
# with one warning naming it; the rest of the profile imports.
. "$top_srcdir/tests/lib.sh"
command -v mkfifo >/dev/null || skip_all "no mkfifo"
command -v timeout >/dev/null || skip_all "no timeout"

"$GEN" demo "$T/d" -n 100 >/dev/null || exit 1
out=$(find "$T/d" -name ASCEND_PROFILER_OUTPUT | head -n 1)
mkfifo "$out/api_statistic.csv" "$out/ascend_pytorch_profiler_0.db"

timeout 30 "$NPUPROF" show --db "$T/s.db" "$T/d" op_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "a FIFO named api_statistic.csv does not hang show"
grep -q 'MatMul' "$T/out"
ok $? "the rest of the profile is imported"
grep -q "api_statistic.csv.*not a regular file" "$T/err"
ok $? "a warning names the FIFO and says why"
timeout 30 "$NPUPROF" show -q --db "$T/s.db" "$T/d" warnings >"$T/w"
grep -q 'api_statistic.csv' "$T/w"
ok $? "and the store keeps it in its warnings"

mkfifo "$T/board.ini"
timeout 30 "$NPUPROF" collect -q --config "$T/board.ini" -m "$T/out" \
    >/dev/null 2>&1
st=$?
[ $st -ne 124 ]
ok $? "collect --config on a FIFO does not hang (exit $st)"
done_testing
