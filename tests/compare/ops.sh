#!/bin/sh
# show --compare BASE NEW op_compare and memory_compare: the top PyTorch
# ops of each run (those under a ProfilerStep, or under no op) by name,
# written out below as msprof-analyze's OperatorCompareStatistic and
# MemoryCompareStatistic sheets give them (tests/compare/msprof-analyze.sh
# checks the tool itself). On the pair of gen-overall.py: aten::conv2d
# launched Conv2D (20.5 us, 35.5 in NEW) and a TransData (5 us) through
# its async_npu flows, 0.0255 ms; its allocations are an aten one (1024
# KB for 1.8 ms) and a CANN one counted at the enqueue of the dequeue it
# happened in (512 KB for 1 ms; 2048 KB for 2 ms in NEW), while a CANN
# allocation in no dequeue and one without a time are left out; sorted by
# the difference, largest first. On the pair of gen-pair.py (no flows, no
# allocations): the counts, with a warning that their times and sizes
# count as 0, and --step 1 keeps the ops of ProfilerStep#1.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/compare/gen-overall.py" "$T/o" || exit 1
"$PY" "$top_srcdir/tests/compare/gen-pair.py" "$T/p" || exit 1

cat >"$T/ops.want" <<'EOT'
Top,Operator Name,Base Device Duration(ms),Base Operator Number,Comparison Device Duration(ms),Comparison Operator Number,Diff Duration(ms),Diff Ratio
1,aten::conv2d,0.0255,1,0.0405,1,0.01,1.5882
2,aten::mm,0.017125,1,0.017125,1,0.0,1.0
3,npu_fusion_attention,0.028,1,0.028,1,0.0,1.0
4,aten::convolution_backward,0.034,1,0.034,1,0.0,1.0
5,npu_fusion_attention_grad,0.046,1,0.046,1,0.0,1.0
6,aten::add,0.002,1,0.002,1,0.0,1.0
EOT
"$NPUPROF" show -q --compare --format csv "$T/o/base_ascend_pt" \
    "$T/o/new_ascend_pt" op_compare >"$T/ops.csv"
same_file "$T/ops.csv" "$T/ops.want" "op_compare: kernels through flows"

cat >"$T/mem.want" <<'EOT'
Top,Operator Name,Base Allocated Duration(ms),Base Allocated Memory(MB),Base Operator Number,Comparison Allocated Duration(ms),Comparison Allocated Memory(MB),Comparison Operator Number,Diff Memory(MB),Diff Ratio
1,aten::conv2d,2.8,1.5,1,3.8,3.0,1,1.5,2.0
2,aten::mm,0.0,2.0,1,0.0,2.0,1,0.0,1.0
3,npu_fusion_attention,0.0,0.0,1,0.0,0.0,1,0.0,1.0
4,aten::convolution_backward,0.0,0.0,1,0.0,0.0,1,0.0,1.0
5,npu_fusion_attention_grad,0.0,0.0,1,0.0,0.0,1,0.0,1.0
6,aten::add,0.0,0.0,1,0.0,0.0,1,0.0,1.0
EOT
"$NPUPROF" show -q --compare --format csv "$T/o/base_ascend_pt" \
    "$T/o/new_ascend_pt" memory_compare >"$T/mem.csv"
same_file "$T/mem.csv" "$T/mem.want" \
    "memory_compare: allocations under the ops, CANN ones at their enqueue"

cat >"$T/pair.want" <<'EOT'
Top,Operator Name,Base Device Duration(ms),Base Operator Number,Comparison Device Duration(ms),Comparison Operator Number,Diff Duration(ms),Diff Ratio
1,aten::linear,0.0,2,0.0,2,0.0,1.0
2,aten::relu,0.0,1,0.0,1,0.0,1.0
3,aten::add,0.0,1,0.0,1,0.0,1.0
4,aten::gelu,0.0,0,0.0,1,0.0,1.0
EOT
"$NPUPROF" show --compare --format csv "$T/p/base_ascend_pt" \
    "$T/p/new_ascend_pt" op_compare >"$T/pair.csv" 2>"$T/pair.err"
same_file "$T/pair.csv" "$T/pair.want" \
    "the ops under ProfilerSteps; an op only NEW has"
grep -q "op_compare: the base run has no async_npu flows" "$T/pair.err"
ok $? "runs without flows: zeros, as the tool shows them, and a warning"
"$NPUPROF" show --compare --format csv "$T/p/base_ascend_pt" \
    "$T/p/new_ascend_pt" memory_compare 2>&1 >/dev/null |
    grep -q "memory_compare: the comparison run has no operator_memory.csv"
ok $? "runs without operator_memory.csv: a warning"
cat >"$T/step.want" <<'EOT'
Top,Operator Name,Base Device Duration(ms),Base Operator Number,Comparison Device Duration(ms),Comparison Operator Number,Diff Duration(ms),Diff Ratio
1,aten::linear,0.0,1,0.0,1,0.0,1.0
2,aten::relu,0.0,1,0.0,1,0.0,1.0
EOT
"$NPUPROF" show -q --compare --format csv --step 1 "$T/p/base_ascend_pt" \
    "$T/p/new_ascend_pt" op_compare >"$T/step.csv"
same_file "$T/step.csv" "$T/step.want" "--step 1: the ops of ProfilerStep#1"
"$NPUPROF" show -q --compare --format csv --step 9 "$T/p/base_ascend_pt" \
    "$T/p/new_ascend_pt" memory_compare >"$T/none.csv" 2>"$T/none.err"
ok $((! $?)) "a step no run has: an error, as in the tool"
grep -q "the base run has no PyTorch ops under ProfilerStep#9" "$T/none.err"
ok $? "a step no run has: says which run"
done_testing
