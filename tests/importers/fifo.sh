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

# A raw MindSpore folder: FIFOs named like its FRAMEWORK/ files.
"$GEN" prof "$T/ms" -s 5 -n 40 -T 2 -Z >/dev/null || exit 1
fw=$(echo "$T"/ms/*_ascend_ms/FRAMEWORK)
for f in cpu_ms_memory_record_0.txt mindspore.record_shapes \
    mindspore.memory_usage; do
	rm "$fw/$f"
	mkfifo "$fw/$f"
done
timeout 30 "$NPUPROF" import -q --db "$T/ms.db" "$T/ms" 2>/dev/null
is $? 0 "FIFOs in a MindSpore FRAMEWORK/ folder do not hang the import"
timeout 30 "$NPUPROF" show -q --db "$T/ms.db" "$T/ms" warnings >"$T/w"
is "$(grep -c 'FRAMEWORK/.*cannot open: not a regular file' "$T/w")" 3 \
    "each FIFO named in a warning"

# A raw torch_npu folder: a FIFO named like its task queue's marks, which
# a reader that lost track of its records once freed unread memory for.
"$GEN" prof "$T/pt" -s 21 -n 40 -Y >/dev/null || exit 1
fw=$(echo "$T"/pt/*_ascend_pt/FRAMEWORK)
rm "$fw/torch.op_mark"
mkfifo "$fw/torch.op_mark"
timeout 30 "$NPUPROF" import -q --db "$T/pt.db" "$T/pt" 2>/dev/null
is $? 0 "a FIFO named torch.op_mark: the import succeeds"
timeout 30 "$NPUPROF" show -q --db "$T/pt.db" "$T/pt" warnings >"$T/w"
is "$(grep -c 'FRAMEWORK/torch.op_mark.*cannot open: not a regular file' \
    "$T/w")" 1 "and is named in one warning"
timeout 30 "$NPUPROF" show -q --db "$T/pt.db" --format csv "$T/pt" \
    op_summary >"$T/ops"
[ "$(wc -l <"$T/ops")" -gt 1 ]
ok $? "the rest of the profile is imported"

mkfifo "$T/board.ini"
timeout 30 "$NPUPROF" collect -q --config "$T/board.ini" -m "$T/out" \
    >/dev/null 2>&1
st=$?
[ $st -ne 124 ]
ok $? "collect --config on a FIFO does not hang (exit $st)"
done_testing
