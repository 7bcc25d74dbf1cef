#!/bin/sh
# show --compare BASE NEW communication_compare on the generated pair
# (gen-pair.py): per kind of communication op (the HCCL process's spans
# on its "Communication" thread, hcom_allReduce_... named allreduce) its
# calls and times in both runs, then a row per kind of task in it (the
# planes' spans starting within its ops), paired by place as the tool
# pairs them; the diff and ratio of the totals; a kind only NEW has; every
# cell written out below as msprof-analyze's CommunicationCompare sheet
# has it (tests/compare/msprof-analyze.sh checks the tool itself); --step
# 1: the ops starting within ProfilerStep#1.
. "$top_srcdir/tests/lib.sh"

. "$top_srcdir/tests/compare/pair.sh"
H='Order Id,Base Communication OP Name,Base Task Name,Base Calls,Base Total Duration(us),Base Avg Duration(us),Base Max Duration(us),Base Min Duration(us),Comparison Communication OP Name,Comparison Task Name,Comparison Calls,Comparison Total Duration(us),Comparison Avg Duration(us),Comparison Max Duration(us),Comparison Min Duration(us),Diff Duration(us),Diff Ratio'

cat >"$T/all.want" <<EOT
$H
1,allreduce,,2,8000.0,4000.0,5000.0,3000.0,allreduce,,2,11000.0,5500.0,8000.0,3000.0,3000.0,1.375
2,|,Notify_Wait,2,1800.0,900.0,1000.0,800.0,|,Notify_Wait,2,4800.0,2400.0,4000.0,800.0,,
3,|,Memcpy,2,3500.0,1750.0,2000.0,1500.0,|,Memcpy,2,3500.0,1750.0,2000.0,1500.0,,
4,|,Notify_Record,1,500.0,500.0,500.0,500.0,|,Notify_Record,1,500.0,500.0,500.0,500.0,,
5,,,,0,,,,broadcast,,1,1000.0,1000.0,1000.0,1000.0,1000.0,INF
6,,,,0,,,,|,Memcpy,1,500.0,500.0,500.0,500.0,,
EOT
"$NPUPROF" show -q --compare --format csv "$B" "$N" communication_compare \
    >"$T/all.csv"
same_file "$T/all.csv" "$T/all.want" \
    "communication_compare: ops by kind, then their tasks"

cat >"$T/step.want" <<EOT
$H
1,allreduce,,1,5000.0,5000.0,5000.0,5000.0,allreduce,,1,8000.0,8000.0,8000.0,8000.0,3000.0,1.6
2,|,Notify_Wait,1,1000.0,1000.0,1000.0,1000.0,|,Notify_Wait,1,4000.0,4000.0,4000.0,4000.0,,
3,|,Memcpy,1,2000.0,2000.0,2000.0,2000.0,|,Memcpy,1,2000.0,2000.0,2000.0,2000.0,,
4,|,Notify_Record,1,500.0,500.0,500.0,500.0,|,Notify_Record,1,500.0,500.0,500.0,500.0,,
EOT
"$NPUPROF" show -q --compare --format csv --step 1 "$B" "$N" \
    communication_compare >"$T/step.csv"
same_file "$T/step.csv" "$T/step.want" \
    "--step 1: the ops that start in ProfilerStep#1"
"$NPUPROF" show -q --compare --format csv --sort -Diff\ Duration --limit 1 \
    "$B" "$N" communication_compare >"$T/top.csv"
is "$(sed -n 2p "$T/top.csv" | cut -d, -f2)" allreduce \
    "--sort -Diff Duration --limit 1: the kind that grew most"
done_testing
