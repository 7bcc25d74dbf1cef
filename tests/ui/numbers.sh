#!/bin/sh
# Numbers as people read them: starts and ends in epoch time show from the
# start of the trace ("+us"), the detail page keeps the epoch time; the
# decimal points of a column line up; a duration column that mixes
# magnitudes shows each cell in its own unit.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# The first kernel's start from the trace's first instant, exactly.
"$NPUPROF" show -q --db "$DB" --format csv "$DATA" kernels >"$T/k.csv"
# (Two ranks: Rank, Step Id, ..., the start is the 11th column.)
abs=$(awk -F, 'NR == 2 { print $11 }' "$T/k.csv")
# (Whole us and their ns apart: a double holds 1.78e15 but not 1.78e18.)
rel=$(awk -F, 'NR > 1 { split($11, p, "."); us = p[1] + 0; ns = p[2] + 0
	if (NR == 2 || us < mu || (us == mu && ns < mn)) { mu = us; mn = ns }
	if (NR == 2) { fu = us; fn = ns } }
	END { d = (fu - mu) * 1000 + fn - mn
	printf "+%d.%03d\n", int(d / 1000), d % 1000 }' "$T/k.csv")
start_app 160 24 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of 600' && capture | sed -n 3p | grep -qF " $rel "
ok $? "a task's start shows from the start of the trace ($rel)"
send_keys Enter
wait_for 'row detail' && capture | grep -qF "$abs"
ok $? "its detail page gives the epoch time ($abs)"
send_keys q 2
wait_for 'Op statistic  row 1' && expect_screen numbers-aligned \
    "the decimal points of each column line up"
# Every "Min Time(us)" value on the screen has its point in one column.
capture | awk 'NR == 2 { c = index($0, "Min Time(us)") + 11 }
	NR > 2 && NF > 5 { p = index(substr($0, c - 12, 13), ".")
	if (p) seen[p] = 1 } END { n = 0; for (k in seen) n++; print n }' \
    >"$T/points"
is "$(cat "$T/points")" 1 "the points of Min Time(us) are in one column"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# Durations of many magnitudes: each in its own unit, the header without
# "(us)", the points still in line.
d="$T/m_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
{
	echo 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)'
	echo '1,big,MatMul,AI_CORE,1000.000,79089.520'
	echo '1,mid,MatMul,AI_CORE,2000.000,706.614'
	echo '1,small,Add,AI_VECTOR_CORE,3000.000,0.520'
	echo '1,huge,Conv2D,AI_CORE,4000.000,2500000.000'
	echo '1,edge,Conv2D,AI_CORE,5000.000,1234499.500'
} >"$d/kernel_details.csv"
"$NPUPROF" import -q --db "$T/m.db" "$T/m_ascend_pt" || exit 1
start_app 160 12 -- --db "$T/m.db" "$T/m_ascend_pt"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of 5' && expect_screen numbers-scaled \
    "a duration column of many magnitudes: us, ms and s per cell"
capture | grep -q ' 79.090 ms' && capture | grep -q ' 0.520 us' &&
    capture | grep -q ' 2.500 s$' && capture | sed -n 2p |
    grep -q 'Task Duration$' && ! capture | sed -n 2p |
    grep -q 'Task Duration(us)'
ok $? "79.090 ms, 0.520 us, 2.500 s, under 'Task Duration'"
capture | grep -q ' 1.234 s$'
ok $? "rounded once from the ns: 1234499.500 us is 1.234 s"
send_keys Q
wait_exit
done_testing
