#!/bin/sh
# msprof exports again into the folder it exported to before, each file
# with the stamp of its export: the same table twice, which read both
# would count every row twice. Only the later export's file of each table
# (and slice) is read, and each older one is a warning that names it; the
# slices of one export, whose stamps may differ, are all read.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

h='Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type'
h="$h,Task Start Time(us),Task Duration(us),Task Wait Time(us)"
d="$T/a/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
row() {	# row TASK START DURATION
	echo "0,1,$1,2,Op_$1,MatMul,AI_CORE,$2,$3,0"
}
{ echo "$h"; row 1 100 5; row 2 200 5; } >"$d/op_summary_20250101080000.csv"
{ echo "$h"; row 1 100 7; row 2 200 7; row 3 300 7; } \
    >"$d/op_summary_20250102080000.csv"
"$NPUPROF" import -q --db "$T/a.db" "$T/a/PROF_1" 2>"$T/err"
is $? 0 "two exports of op_summary import"
is "$(q "$T/a.db" "SELECT count(*), sum(dur_ns) FROM task")" "3|21000" \
    "only the later export's rows"
is "$(q "$T/a.db" "SELECT count(*) FROM warnings WHERE file LIKE
    '%op_summary_20250101080000.csv' AND message LIKE
    'not read: ''op_summary_20250102080000.csv'' is a later export%'")" 1 \
    "the older file is a warning naming the later"
"$NPUPROF" show -q --db "$T/a.db" --format csv "$T/a/PROF_1" op_statistic \
    >"$T/out"
is "$(tail -n 1 "$T/out" | cut -d, -f2,4,5)" "MatMul,3,21" \
    "op_statistic counts each task once"

# The slices of one export: stamps a second apart, both read; an older
# export's slice 1 is not.
d="$T/b/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
{ echo "$h"; row 1 100 5; } >"$d/op_summary_slice_0_20250102080000.csv"
{ echo "$h"; row 2 200 5; } >"$d/op_summary_slice_1_20250102080001.csv"
{ echo "$h"; row 9 900 5; } >"$d/op_summary_slice_1_20250101080001.csv"
"$NPUPROF" import -q --db "$T/b.db" "$T/b/PROF_1" 2>/dev/null
is "$(q "$T/b.db" "SELECT group_concat(task) FROM (SELECT task FROM
    task ORDER BY task)")" "1,2" \
    "both slices of the later export, not the older slice"
is "$(q "$T/b.db" "SELECT count(*) FROM warnings WHERE message LIKE
    'not read: %'")" 1 "one warning, for the older slice"

# An export in slices, then one that needs fewer, or none: every older
# slice is the older export's.
d="$T/e/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
{ echo "$h"; row 1 100 5; } >"$d/op_summary_slice_0_20250101080000.csv"
{ echo "$h"; row 2 200 5; } >"$d/op_summary_slice_1_20250101080003.csv"
{ echo "$h"; row 3 300 5; } >"$d/op_summary_slice_0_20250102080000.csv"
"$NPUPROF" import -q --db "$T/e.db" "$T/e/PROF_1" 2>/dev/null
is "$(q "$T/e.db" "SELECT group_concat(task) FROM task")" 3 \
    "a later export of fewer slices: the older export's slice 1 is not read"
rm "$d/op_summary_slice_0_20250102080000.csv"
{ echo "$h"; row 4 400 5; } >"$d/op_summary_20250102080000.csv"
"$NPUPROF" import -q --db "$T/f.db" "$T/e/PROF_1" 2>/dev/null
is "$(q "$T/f.db" "SELECT group_concat(task) FROM task")" 4 \
    "a later export without slices: none of the older's is read"
is "$(q "$T/f.db" "SELECT count(*) FROM warnings WHERE message LIKE
    'not read: ''op_summary_20250102080000.csv'' is a later export%'")" 2 \
    "each older slice is a warning"

# The timeline JSON of two exports: the older is not read either.
d="$T/c/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
{ echo "$h"; row 1 100 5; } >"$d/op_summary_20250102080000.csv"
ev='[{"name":"aclnnMatmul","ph":"X","pid":1,"tid":2,"ts":"90.0","dur":20,'
ev="$ev"'"args":{}}]'
echo "$ev" >"$d/msprof_20250101075959.json"
echo "$ev" >"$d/msprof_20250102075959.json"
"$NPUPROF" import -q --db "$T/c.db" "$T/c/PROF_1" 2>/dev/null
is "$(q "$T/c.db" "SELECT count(*) FROM api")" 1 "the span once"
is "$(q "$T/c.db" "SELECT count(*) FROM warnings WHERE file LIKE
    '%msprof_20250101075959.json' AND message LIKE 'not read: %'")" 1 \
    "the older timeline is a warning"
done_testing
