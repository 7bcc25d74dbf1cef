#!/bin/sh
# export --folded --compare BASE NEW: the call stacks of both runs of the
# generated pair as differential folded lines (path, base ns, new ns), as
# difffolded.pl writes them for flamegraph.pl: the doubled MatMulV2
# kernels, the Cast that went (0 in NEW), the Gelu that came (0 in BASE);
# --step 1 (and --base-step); one path only is a usage error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/compare/pair.sh"

cat >"$T/all.want" <<EOT
?;N/A_5 5000 5000
Add;Add_1;8 1500 1500
Add;Add_3;8 1500 1500
Add;Add_7;8 1500 1500
Add;Add_8;16 3250 3250
Cast;Cast_4;4 2000 0
Gelu;Gelu_4;8,64 0 5250
MatMulV2;MatMulV2_0;8,64 10000 20000
MatMulV2;MatMulV2_2;8,64 20000 40000
MatMulV2;MatMulV2_6;8,64 12000 12000
EOT
"$NPUPROF" export -q --folded --compare "$B" "$N" >"$T/all.txt"
ok $? "export --folded --compare BASE NEW"
same_file "$T/all.txt" "$T/all.want" \
    "each path with its time in both runs, 0 where a run has not it"
"$NPUPROF" export -q --folded --compare --step 2 "$B" "$N" >"$T/s2.txt"
is "$(grep -c . "$T/s2.txt")" 3 "--step 2: the three kernels of step 2"
is "$(grep MatMulV2 "$T/s2.txt")" "MatMulV2;MatMulV2_6;8,64 12000 12000" \
    "its MatMulV2 the same in both"
"$NPUPROF" export -q --folded --compare --base-step 1 --step 2 "$B" "$N" \
    >"$T/x.txt"
grep -q '^MatMulV2;MatMulV2_0;8,64 10000 0$' "$T/x.txt"
ok $? "--base-step 1 --step 2: step 1 of the base against step 2 of new"
"$NPUPROF" export -q --folded --compare "$B" 2>"$T/err"
is $? 2 "one path: a usage error"
"$NPUPROF" export -q --compare summary "$B" "$N" 2>"$T/err"
is $? 2 "--compare with export summary: a usage error"
done_testing
