#!/bin/sh
# show --range S:E: the rows that start in the window. Kernels keep the
# tasks that start in it (checked against the whole table); op_statistic
# is computed from them; times with a unit count from the origin of the
# UI's times and ruler (the first of anything, a memory sample here);
# stacks take the same window. A bad or empty window, a table
# without times, and --step with --range on a table are errors. --limit
# cuts stacks' folded lines, and --sort sorts stacks' rows.
. "$top_srcdir/tests/lib.sh"

d="$T/d"
"$GEN" demo "$d" -n 300 -r 2 >/dev/null || skip_all "cannot generate data"
"$NPUPROF" import -q --db "$T/d.db" "$d" || skip_all "cannot import"
show() { "$NPUPROF" show -q --db "$T/d.db" --format csv "$@"; }

# Column 11 is Task Start Time(us) (before the quoted shapes).
show "$d" kernels | sed 1d | cut -d, -f1,8,10,11 >"$T/all"
set -- $(cut -d, -f4 "$T/all" | sort -n | awk '{ v[NR] = $1 }
    END { print v[int(NR / 4)], v[int(NR * 3 / 4)] }')
from=$1 to=$2
in=$(awk -F, -v a="$from" -v b="$to" '$4 >= a && $4 < b' "$T/all" | wc -l)
show --range "$from:$to" "$d" kernels >"$T/k"
ok $? "show --range kernels"
is "$(sed 1d "$T/k" | wc -l)" "$in" "the kernels that start in it, all $in"
is "$(sed 1d "$T/k" | awk -F, -v a="$from" -v b="$to" \
    '$11 < a || $11 >= b' | wc -l)" 0 "and none outside it"
is "$(sed 1d "$T/k" | cut -d, -f1 | sort -u | tr '\n' ' ')" "0 1 " \
    "both ranks' rows"

# op_statistic of the window: per rank, op type and core type, the count
# of the window's kernels (but communication's, which it leaves out, as
# the whole profile's does).
show --range "$from:$to" "$d" op_statistic >"$T/o"
ok $? "show --range op_statistic"
awk -F, -v a="$from" -v b="$to" '$4 >= a && $4 < b && $3 != "HCCL" {
	n[$1 "," $2 "," $3]++ } END { for (k in n) print k "," n[k] }' \
    "$T/all" | sort >"$T/o.want"
sed 1d "$T/o" | cut -d, -f1,3,4,5 | sort >"$T/o.got"
same_file "$T/o.got" "$T/o.want" "its counts are the window's kernels'"
is "$(sed 1d "$T/o" | wc -l)" "$(wc -l <"$T/o.want")" "one row per group"

# Relative ends: from the first task, span or sample, an open end is no
# limit.
is "$(show --range 0us: "$d" kernels | sed 1d | wc -l)" \
    "$(wc -l <"$T/all")" "0us: keeps every kernel"
is "$(show --range :0us "$d" kernels | sed 1d | wc -l)" 0 \
    ":0us keeps none"

# A memory sample 1 ms before the first task is the UI's origin: the
# first kernel, +1.002507 ms in the UI, is at 1002507ns to --range too.
cp -R "$d" "$T/e"
m=$(ls -d "$T"/e/*rank0*/ASCEND_PROFILER_OUTPUT)
{
	printf 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),'
	printf 'Total Active(MB),Stream Ptr,Device Type\n'
	printf 'APP,1779999999999001.500\t,,2109.5,,,NPU:0\n'
} >"$m/memory_record.csv"
"$NPUPROF" show -q --db "$T/e.db" --format csv "$T/e" kernels | sed 1d |
    cut -d, -f11 | sort -n | head -n 1 >"$T/first"
is "$(cat "$T/first")" 1780000000000002.507 "the first kernel starts at .2507"
is "$(q "$T/e.db" "SELECT value FROM meta WHERE key = 'origin_ns'")" \
    1779999999999001500 "the memory sample is the origin"
"$NPUPROF" show -q --db "$T/e.db" --format csv --range 1001007ns:1001008ns \
    "$T/e" kernels | sed 1d | cut -d, -f11 | sort -u >"$T/got"
is "$(cat "$T/got")" 1780000000000002.507 \
    "--range counts from it: the kernel at +1001.007 us"

# Errors.
show --range 5:1 "$d" kernels >/dev/null 2>"$T/err"
is $? 2 "an empty window: a usage error"
grep -q "empty range '5:1'" "$T/err"
ok $? "it says so"
show --range 1s:x "$d" kernels >/dev/null 2>"$T/err"
is $? 2 "a bad end: a usage error"
show --range 0us: "$d" info >/dev/null 2>"$T/err"
is $? 2 "a table without times: an error"
grep -q "info has no times" "$T/err"
ok $? "that names it"
# A table kept by step id (step_trace; cluster_findings) keeps a step,
# not a window: it printed every row.
show --range 0us:1ms "$d" step_trace >/dev/null 2>"$T/err"
is $? 2 "a table kept by step: an error for --range"
grep -q "step_trace has no times to keep a step or a window by" "$T/err"
ok $? "that names it"
show --step 1 "$d" step_trace >/dev/null
is $? 0 "and --step keeps its step"
show --step 1 --range 0us: "$d" kernels >/dev/null 2>"$T/err"
is $? 2 "--step and --range on a table: an error"
"$NPUPROF" show -q --compare --range 0us: "$d" "$d" >/dev/null 2>&1
is $? 2 "--range is not for comparison tables"

# Stacks: the window, --limit, --sort.
show() { "$NPUPROF" show -q --db "$T/d.db" "$@"; }
show "$d" stacks >"$T/s"
show --range "$from:$to" "$d" stacks >"$T/sr"
ok $? "stacks of the window"
w=$(awk '{ n += $NF } END { print n + 0 }' "$T/s")
wr=$(awk '{ n += $NF } END { print n + 0 }' "$T/sr")
[ "$wr" -gt 0 ] && [ "$wr" -lt "$w" ]
ok $? "weigh less than all ($wr of $w)"
show --limit 3 "$d" stacks >"$T/s3"
head -n 3 "$T/s" >"$T/s3.want"
same_file "$T/s3" "$T/s3.want" "--limit 3: the first three lines"
is "$(show --limit 0 "$d" stacks | wc -l)" 0 "--limit 0: none"
show --sort -Self "$d" stacks >/dev/null 2>"$T/err"
is $? 2 "--sort of folded lines: a usage error"
show --format csv --sort '-Self(ns)' --limit 4 "$d" stacks >"$T/ss"
ok $? "--sort and --limit of stacks' rows"
is "$(sed 1d "$T/ss" | wc -l)" 4 "four rows"
sed 1d "$T/ss" | awk -F, '{ print $(NF - 3) }' >"$T/ss.got"
sort -rn "$T/ss.got" >"$T/ss.want"
same_file "$T/ss.got" "$T/ss.want" "by self time, descending"
done_testing
