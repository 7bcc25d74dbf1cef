#!/bin/sh
# show --compare BASE NEW kernel_compare on two generated runs that differ
# in known ways (gen-pair.py): the MatMulV2 kernels of step 1 doubled, a
# Gelu kernel added, the Cast kernel gone. Every cell of the table is
# written out below as msprof-analyze's KernelCompare sheet has it (the
# tool's own output, checked by tests/compare/msprof-analyze.sh), for all
# steps and for --step 1; --limit; the errors: one path, a table we do not
# compare, --sort, --compare outside show, a store of several ranks
# without --rank.
. "$top_srcdir/tests/lib.sh"

. "$top_srcdir/tests/compare/pair.sh"
H='Order Id,Kernel,Input Shape,Base Total Duration(us),Base Avg Duration(us),Base Max Duration(us),Base Min Duration(us),Base Calls,Comparison Total Duration(us),Comparison Avg Duration(us),Comparison Max Duration(us),Comparison Min Duration(us),Comparison Calls,Diff Total Ratio,Diff Avg Ratio'

cat >"$T/all.want" <<EOT
$H
1,MatMulV2,"8,64",42.0,14.0,20.0,10.0,3,72.0,24.0,40.0,12.0,3,1.7143,1.7143
2,Add,8,4.5,1.5,1.5,1.5,3,4.5,1.5,1.5,1.5,3,1.0,1.0
3,Add,16,3.25,3.25,3.25,3.25,1,3.25,3.25,3.25,3.25,1,1.0,1.0
4,Cast,4,2.0,2.0,2.0,2.0,1,0.0,0.0,,,,0.0,0.0
5,Gelu,"8,64",0.0,0.0,,,,5.25,5.25,5.25,5.25,1,INF,INF
EOT
"$NPUPROF" show -q --compare --format csv "$B" "$N" >"$T/all.csv"
ok $? "show --compare BASE NEW"
same_file "$T/all.csv" "$T/all.want" \
    "kernel_compare: a row per op type and shapes, base order, then new"

cat >"$T/step.want" <<EOT
$H
1,MatMulV2,"8,64",30.0,15.0,20.0,10.0,2,60.0,30.0,40.0,20.0,2,2.0,2.0
2,Add,8,3.0,1.5,1.5,1.5,2,3.0,1.5,1.5,1.5,2,1.0,1.0
3,Cast,4,2.0,2.0,2.0,2.0,1,0.0,0.0,,,,0.0,0.0
4,Gelu,"8,64",0.0,0.0,,,,5.25,5.25,5.25,5.25,1,INF,INF
EOT
"$NPUPROF" show -q --compare --format csv --step 1 "$B" "$N" \
    kernel_compare >"$T/step.csv"
same_file "$T/step.csv" "$T/step.want" "--step 1: step 1 of both runs"
"$NPUPROF" show -q --compare --format csv --base-step 2 --step 1 "$B" "$N" \
    >"$T/cross.csv"
is "$(sed -n 2p "$T/cross.csv")" \
    '1,MatMulV2,"8,64",12.0,12.0,12.0,12.0,1,60.0,30.0,40.0,20.0,2,5.0,2.5' \
    "--base-step 2 --step 1: base step 2 against new step 1"
"$NPUPROF" show -q --compare --format csv --limit 2 "$B" "$N" >"$T/lim.csv"
is "$(wc -l <"$T/lim.csv")" 3 "--limit 2: two rows"
"$NPUPROF" show -q --compare "$B" "$N" >"$T/table.txt"
is "$(head -1 "$T/table.txt")" "Kernel Compare" "table output has a title"
grep -q 'Gelu .* INF' "$T/table.txt"
ok $? "and INF where the base has none"
"$NPUPROF" show -q --compare --format json "$B" "$N" >"$T/j.json"
"$PY" -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert rows[0]["Diff Total Ratio"] == 1.7143, rows[0]
assert rows[4]["Base Calls"] is None and rows[4]["Diff Total Ratio"] == "INF"
' "$T/j.json"
ok $? "JSON: numbers, null for a missing side, INF as a string"

"$NPUPROF" show -q --compare "$B" 2>"$T/err"
is $? 2 "one path: a usage error"
"$NPUPROF" show -q --compare "$B" "$N" op_statistic 2>"$T/err"
is $? 2 "a table that is not compared: a usage error"
grep -q kernel_compare "$T/err"
ok $? "naming the tables there are"
"$NPUPROF" show -q --compare --format csv --sort '-Diff Total,Kernel' \
    "$B" "$N" >"$T/sorted.csv"
is "$(cut -d, -f1 "$T/sorted.csv" | sed 1d | tr '\n' ' ')" "5 1 2 3 4 " \
    "--sort -Diff Total: INF (text, after the numbers) first, then 1.7143"
"$NPUPROF" show -q --compare --format csv --sort 'Diff Total' --limit 1 \
    "$B" "$N" >"$T/low.csv"
is "$(sed -n 2p "$T/low.csv" | cut -d, -f2)" Cast \
    "--sort 'Diff Total' --limit 1: the kernel that went away"
"$NPUPROF" show -q --compare --filter Add "$B" "$N" 2>"$T/err"
is $? 2 "--filter: a usage error"
"$NPUPROF" show -q --compare --sort Nope "$B" "$N" 2>"$T/err"
is $? 2 "--sort on a column the table has not: a usage error"
grep -q "no sort column 'Nope'" "$T/err"
ok $? "a sort on a column the table has not: an error naming it"
"$NPUPROF" import --compare "$B" "$N" </dev/null >/dev/null 2>"$T/err"
is $? 2 "--compare with import: a usage error"
grep -q 'show --compare BASE NEW' "$T/err"
ok $? "that says how"
"$NPUPROF" --compare "$B" "$N" </dev/null >"$T/pipe.txt"
is "$(head -1 "$T/pipe.txt")" "Kernel Compare" \
    "--compare without a terminal prints as show does"

"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 2 \
    --tasks 20 >/dev/null || exit 1
"$NPUPROF" show -q --compare "$T/c" "$T/c" 2>"$T/err"
is $? 2 "a store of two ranks without --rank: a usage error"
grep -q 'holds 2 ranks; give --rank N' "$T/err"
ok $? "that says so"
"$NPUPROF" show -q --compare --rank 9 "$T/c" "$T/c" >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/err")" "2:npuprof-tui: --compare: the base run '$T/c' \
has no rank 9 (ranks 0, 1)" "--rank of no run: a usage error naming the ranks"
is "$(wc -c <"$T/out")" 0 "and no empty tables"
"$NPUPROF" show -q --compare --rank 1 --format csv "$T/c" "$T/c" \
    >"$T/r1.csv"
col() {	# col N FILE: column N of a CSV, one line per row
	"$PY" -c 'import csv, sys
for r in list(csv.reader(open(sys.argv[2])))[1:]:
    print(r[int(sys.argv[1])])' "$1" "$2"
}
is "$(col 13 "$T/r1.csv" | sort -u)" 1.0 \
    "--rank 1: a run against itself, every ratio 1.0"
is "$(col 7 "$T/r1.csv" | awk '{ n += $1 } END { print n }')" 20 \
    "and all its 20 kernels"
done_testing
