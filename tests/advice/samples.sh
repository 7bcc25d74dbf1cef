#!/bin/sh
# show PATH advice on a real torch_npu rank (../shared/samples, skipped
# without it): the findings msprof-analyze's advisor reports for the same
# rank, with its numbers: the overall summary (136.581 ms end to end, of
# it 8.874 ms computing, 101.963 ms of communication uncovered, all of it
# transmitting, and 25.744 ms free; Conv 1.116 + 1.966 ms, Matmul 1.066,
# Vector 4.146, SDMA 0.574), the two communication ops whose data are not
# aligned to 512 bytes (397.008 us of their tasks), every op of dynamic
# shape, ForeachAddList memory bound, TransData with headroom, the three
# environment variables it names, and the plain SGD a fused one replaces;
# and the same rank exported as a database, its breakdown as the tool
# works one out from a database.
. "$top_srcdir/tests/lib.sh"

need_samples
R="$SAMPLES/msinsight-pt-text/level1/rank0_ascend_pt"
[ -d "$R" ] || skip_all "no $R"
"$NPUPROF" show -q --db "$T/r.db" --format csv "$R" advice \
    >"$T/a.csv" || exit 1

has() {	# has DESCRIPTION REGEX: a line of the advice matches
	grep -q -- "$2" "$T/a.csv"
	ok $? "$1"
}
has "overall: computing" \
    '^info,Overall,overall,0,"Computing Time: 8.874 ms, 6.5% of 136.581 ms'
has "overall: conv forward" '"  Conv (Forward): 1.116 ms'
has "overall: conv backward" '"  Conv (Backward): 1.966 ms'
has "overall: matmul" '"  Matmul: 1.066 ms'
has "overall: vector" '"  Vector: 4.146 ms'
has "overall: tensor moves" '"  SDMA (Tensor Move): 0.574 ms'
has "overall: uncovered communication, all transmit" \
    '"    Transmit: 101.963 ms, 74.7% of 136.581 ms'
has "overall: free" '"Free Time: 25.744 ms, 18.8% of 136.581 ms'
has "two unaligned communication ops, 397.008 us of their tasks" \
    '^high,Communication,alignment,0,"data not a multiple of 512 bytes goes over SDMA between chips in 2 communication ops: 4 tasks, 397.008 us'
has "dynamic shapes" '^high,Computing,dynamic-shape,0,187 of 187 kernels'
has "ForeachAddList memory bound" \
    '^medium,Computing,bound,0,"ForeachAddList is memory bound'
has "TransData with headroom" '^high,Computing,headroom,0,"TransData takes'
for v in ACLNN_CACHE_LIMIT HOST_CACHE_CAPACITY PYTORCH_NPU_ALLOC_CONF; do
	has "environment: $v" "^medium,Environment,env,0,$v is not set"
done
is "$(grep -c ',Environment,env,' "$T/a.csv")" 3 \
    "environment: those three only"
has "a fused SGD" '^medium,Scheduling,fused-optimizer,0,"the optimizer steps with SGD once'

# The same rank exported as a database: the breakdown as the tool works
# it out from a database (no overlap analysis there).
D="$SAMPLES/msinsight-pt-db/level1/rank0_ascend_pt"
if [ -d "$D" ]; then
	"$NPUPROF" show -q --db "$T/d.db" --format csv "$D" advice \
	    >"$T/a.csv" || exit 1
	has "database export: computing" \
	    '^info,Overall,overall,0,"Computing Time: 8.903 ms, 6.5% of 137.919 ms'
	has "database export: its group waits 2.676 ms" \
	    '"    Wait: 2.676 ms, 1.9% of 137.919 ms'
	has "database export: uncovered communication" \
	    '^high,Communication,uncovered-communication,0,"communication group 90.91.105.46%enp189s0f0_60000_0_1736410538306028 is uncovered by computing 98.072 ms'
fi
done_testing
