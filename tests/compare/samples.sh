#!/bin/sh
# show --compare on the two real ranks of ../shared/samples (skipped
# without them), rank 0 against rank 1: rows of each comparison table
# as msprof-analyze compare gives them for the same pair
# (tests/compare/msprof-analyze.sh checks the tool itself, where it is
# installed), so a clean machine checks the real data too; and the
# communication of the same ranks exported as databases.
. "$top_srcdir/tests/lib.sh"

need_samples
S="$SAMPLES/msinsight-pt-text/level1"
[ -d "$S/rank0_ascend_pt" ] || skip_all "no $S"
# --compare keeps a store beside each run (one --db cannot hold both), so
# the runs are copies: the samples are only read.
cp -R "$S" "$T/text" && chmod -R u+w "$T/text" || exit 1
B="$T/text/rank0_ascend_pt"
N="$T/text/rank1_ascend_pt"

row() {	# row TABLE LINE DESCRIPTION: LINE is a row of TABLE
	"$NPUPROF" show -q --compare --format csv "$B" "$N" "$1" >"$T/$1.csv"
	grep -qxF -- "$2" "$T/$1.csv"
	ok $? "$1: $3"
}
row overall \
    'Computing Time,8.873756,0.064971,185,8.878295,0.067304,185,0.0,1.0005' \
    "computing time and its kernels"
row overall \
    'Uncovered Communication Time,101.963203,0.74654,/,96.359047,0.730476,/,-5.6,0.945' \
    "uncovered communication"
row overall 'E2E Time,136.581009,1.0,/,131.912616,1.0,/,-4.67,0.9658' \
    "end to end"
row op_compare '1,aten::to,0.844977,4,1.277345,4,0.43,1.5117' \
    "the top op that grew most"
row memory_compare \
    '3,DistributedDataParallel.forward,411.86365,360.853516,1,421.69934,360.853516,1,0.0,1.0' \
    "the forward's allocations"
row kernel_compare \
    '1,TransData,"32,3,224,224",124.54,62.27,70.8,53.74,2,123.08,61.54,69.24,53.84,2,0.9883,0.9883' \
    "a kernel group"
row api_compare \
    '2,aten::empty,0.42,0.42,0.03,16,0.46,0.46,0.03,16,1.0952,1.0952,1.0,1.0' \
    "a PyTorch op"
row op_statistic_compare \
    'MatMulV2,AI_CORE,8,921.498,115.187,8,947.559,118.445,26.061,1.0283' \
    "an op type"
"$NPUPROF" show -q --compare --format csv "$B" "$N" communication_compare \
    >"$T/communication_compare.csv"
is "$(sed -n 2p "$T/communication_compare.csv" | cut -d, -f2,4,9,11,16,17)" \
    "allreduce,4,allreduce,4,-5616.59,0.947" \
    "communication_compare: the allreduces"
# The tool's sums keep a binary float's tail, as its CSV does; a table
# rounds it to three decimals.
grep -q '^1,allreduce,,4,105991.87800000001,' "$T/communication_compare.csv"
ok $? "communication_compare's CSV: the tool's unrounded sum"
"$NPUPROF" show -q --compare "$B" "$N" communication_compare >"$T/cc.txt"
is "$(grep -cE '\.[0-9]{7}' "$T/cc.txt"):$(grep -c ' 105991\.878  ' \
    "$T/cc.txt")" "0:1" "its table: no tails, the sum to three decimals"

# The same two ranks exported as databases: their HCCL spans have no
# lanes (the ops are thread 0 of level HCCL), as the tool reads them.
D="$SAMPLES/msinsight-pt-db/level1"
if [ -d "$D/rank1_ascend_pt" ]; then
	cp -R "$D" "$T/db" && chmod -R u+w "$T/db" || exit 1
	D="$T/db"
	"$NPUPROF" show -q --compare --format csv "$D/rank0_ascend_pt" \
	    "$D/rank1_ascend_pt" communication_compare >"$T/db.csv"
	is "$(sed -n 2p "$T/db.csv" | cut -d, -f2,4,9,11,16,17)" \
	    "allreduce,4,allreduce,4,-3517.91,0.9655" \
	    "database exports: communication_compare's allreduces"
	is "$(sed -n 6p "$T/db.csv" | cut -d, -f3,4,10,11)" \
	    "Notify_Wait,112,Notify_Wait,112" \
	    "database exports: their Notify_Wait tasks"
	# No flows: ops and kernels meet through their connection ids.
	"$NPUPROF" show -q --compare --format csv "$D/rank0_ascend_pt" \
	    "$D/rank1_ascend_pt" op_compare >"$T/dbop.csv"
	grep -qxF '1,DistributedDataParallel.forward,2.341748,1,2.352407,1,0.01,1.0046' \
	    "$T/dbop.csv"
	ok $? "database exports: op_compare through connection ids"
	"$NPUPROF" show -q --compare --format csv "$D/rank0_ascend_pt" \
	    "$D/rank1_ascend_pt" memory_compare >"$T/dbmem.csv"
	grep -qxF '1,Optimizer.step#SGD.step,79.388,309.791504,1,77.903,358.354004,1,48.56,1.1568' \
	    "$T/dbmem.csv"
	ok $? "database exports: memory_compare, times as the tool rounds them"
	# No overlap analysis: merged task intervals, as the tool's db path.
	"$NPUPROF" show -q --compare --format csv "$D/rank0_ascend_pt" \
	    "$D/rank1_ascend_pt" overall >"$T/dbov.csv"
	for l in 'Computing Time,8.903431,0.064555,187,8.915634,0.066521,187,0.01,1.0014' \
	    '    Wait,2.675633,0.0194,/,0.00018,0.000001,/,-2.68,0.0001' \
	    'E2E Time,137.919295,1.0,/,134.027198,1.0,/,-3.89,0.9718'; do
		grep -qxF -- "$l" "$T/dbov.csv"
		ok $? "database exports: overall: ${l%%,*}"
	done
	# A step applies there, as in the tool: 50 is their only one.
	"$NPUPROF" show -q --compare --format csv --step 50 \
	    "$D/rank0_ascend_pt" "$D/rank1_ascend_pt" overall >"$T/dbov50.csv"
	same_file "$T/dbov50.csv" "$T/dbov.csv" \
	    "database exports: overall --step 50, their only step"
	"$NPUPROF" show -q --compare --format csv --step 7 \
	    "$D/rank0_ascend_pt" "$D/rank1_ascend_pt" overall \
	    >/dev/null 2>"$T/dbov7.err"
	grep -q "has no step 7" "$T/dbov7.err"
	ok $? "database exports: overall --step 7: no such step, an error"
fi
done_testing
