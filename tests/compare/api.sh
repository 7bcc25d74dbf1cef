#!/bin/sh
# show --compare BASE NEW api_compare on the generated pair (gen-pair.py):
# the PyTorch ops of both runs grouped by name, each with its total and
# self time (its time less its children's, the ops of every thread in one
# tree by start time, as msprof-analyze builds it) in ms, average and
# calls, and the four ratios, every cell written out below as the tool's
# ApiCompare sheet has it (tests/compare/msprof-analyze.sh checks the tool
# itself); --step 1: the ops under ProfilerStep#1, breadth first; a step
# a run has not is an error, not an empty table; two tables at once.
. "$top_srcdir/tests/lib.sh"

. "$top_srcdir/tests/compare/pair.sh"
H='Order Id,api name,Base Total Duration(ms),Base Self Time(ms),Base Avg Duration(ms),Base Calls,Comparison Total Duration(ms),Comparison Self Time(ms),Comparison Avg Duration(ms),Comparison Calls,Diff Total Ratio,Diff Self Ratio,Diff Avg Ratio,Diff Calls Ratio'

cat >"$T/all.want" <<EOT
$H
1,aten::linear,90.0,25.0,45.0,2,120.0,25.0,60.0,2,1.3333,1.0,1.3333,1.0
2,aten::mm,55.0,55.0,27.5,2,85.0,85.0,42.5,2,1.5455,1.5455,1.5455,1.0
3,aten::add,15.0,15.0,7.5,2,15.0,15.0,7.5,2,1.0,1.0,1.0,1.0
4,aten::relu,20.0,20.0,20.0,1,20.0,20.0,20.0,1,1.0,1.0,1.0,1.0
5,aten::gelu,0.0,0.0,0.0,0,3.0,3.0,3.0,1,INF,INF,INF,INF
EOT
"$NPUPROF" show -q --compare --format csv "$B" "$N" api_compare \
    >"$T/all.csv"
same_file "$T/all.csv" "$T/all.want" \
    "api_compare: ops by name, self time less the children's, in ms"

cat >"$T/step.want" <<EOT
$H
1,aten::linear,50.0,10.0,50.0,1,80.0,10.0,80.0,1,1.6,1.0,1.6,1.0
2,aten::relu,20.0,20.0,20.0,1,20.0,20.0,20.0,1,1.0,1.0,1.0,1.0
3,aten::mm,30.0,30.0,30.0,1,60.0,60.0,60.0,1,2.0,2.0,2.0,1.0
4,aten::add,10.0,10.0,10.0,1,10.0,10.0,10.0,1,1.0,1.0,1.0,1.0
EOT
"$NPUPROF" show -q --compare --format csv --step 1 "$B" "$N" api_compare \
    >"$T/step.csv"
same_file "$T/step.csv" "$T/step.want" \
    "--step 1: the ops under ProfilerStep#1, breadth first"
"$NPUPROF" show -q --compare --step 7 "$B" "$N" api_compare \
    >/dev/null 2>"$T/err"
is $? 1 "a step neither run has: an error"
grep -q 'no PyTorch ops under ProfilerStep#7' "$T/err"
ok $? "that says which"
"$NPUPROF" show -q --compare --step 7 "$B" "$N" >/dev/null 2>"$T/err"
grep -q 'the base run has no kernels in step 7' "$T/err"
ok $? "and for kernel_compare"
"$NPUPROF" show -q --compare --format csv "$B" "$N" kernel_compare \
    api_compare >"$T/two.csv"
is "$(grep -c '^# ' "$T/two.csv")" 2 "two tables: each under its name"
"$NPUPROF" show -q --compare --format json "$B" "$N" kernel_compare \
    api_compare 2>"$T/err"
is $? 2 "JSON of two comparison tables: a usage error"
done_testing
