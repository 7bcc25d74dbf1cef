#!/bin/sh
# A CSV written twice into one file (the header again in the middle) has
# the repeated header skipped and counted, in task rows and in tables
# kept whole alike; it never becomes a row of data. A row with a NUL byte,
# a Device_id that is none, a negative start time or duration is skipped
# and counted too.
. "$top_srcdir/tests/lib.sh"

d="$T/p_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
h='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)'
printf '%s\r\n1,a,MatMul,AI_CORE,100,2\r\n%s\r\n1,b,MatMul,AI_CORE,200,3\r\n' \
    "$h" "$h" >"$d/kernel_details.csv"
printf 'Step,Computing,Free\n1,10,2\nStep,Computing,Free\n2,11,3\n' \
    >"$d/step_trace_time.csv"
"$NPUPROF" show --db "$T/s.db" --format csv "$T/p_ascend_pt" \
    op_statistic >"$T/out" 2>"$T/err"
is $? 0 "import"
is "$(tail -n 1 "$T/out" | cut -d, -f2-5)" "MatMul,AI_CORE,2,5" \
    "both task rows count, the header between them does not"
grep -q "kernel_details.csv: offset [0-9]*: the header row again, skipped" \
    "$T/err"
ok $? "the repeated header is a warning with its offset"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/p_ascend_pt" \
    step_trace_time >"$T/out"
is "$(cut -d, -f1-3 "$T/out" | tr '\n' ' ')" \
    "Step,Computing,Free 1,10,2 2,11,3 " \
    "a table kept whole does not keep it as a row"
grep -q "step_trace_time.csv: offset 27: the header row again" "$T/err"
ok $? "and warns about it too"

# A NUL byte in a cell would end it early ("1\03" read as 1): the row is
# skipped and counted, the others imported.
mkdir -p "$T/n_ascend_pt/ASCEND_PROFILER_OUTPUT"
printf '%s\n1,a,MatMul,AI_CORE,100,1\0003\n1,b,MatMul,AI_CORE,200,3\n' \
    "$h" >"$T/n_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" show --db "$T/n.db" --format csv "$T/n_ascend_pt" \
    op_statistic >"$T/out" 2>"$T/err"
is "$(tail -n 1 "$T/out" | cut -d, -f2-5)" "MatMul,AI_CORE,1,3" \
    "a row with a NUL byte: not read as another number"
grep "kernel_details.csv: offset 63: row with a NUL byte in a cell" \
    "$T/err" | grep -q 'skipped (1 row, the first here)'
ok $? "it is skipped and counted, at its offset"

# A Device_id that is no device, a negative duration and a negative start
# time: damaged rows, skipped and counted, not read as device 0 and a
# negative time.
mkdir -p "$T/v_ascend_pt/ASCEND_PROFILER_OUTPUT"
{
	echo "$h,Device_id"
	echo "1,a,MatMul,AI_CORE,100,2,x"
	echo "1,b,MatMul,AI_CORE,200,-5,0"
	echo "1,c,MatMul,AI_CORE,300,4,0"
	echo "1,d,MatMul,AI_CORE,-400,6,0"
} >"$T/v_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" show --db "$T/v.db" --format csv "$T/v_ascend_pt" \
    op_statistic >"$T/out" 2>"$T/err"
is "$(tail -n 1 "$T/out" | cut -d, -f1-5)" "0,MatMul,AI_CORE,1,4" \
    "device x, duration -5 and start -400: not counted"
grep -q "start time and duration (neither negative) or device, skipped" \
    "$T/err" && grep -q "skipped (3 rows" "$T/err"
ok $? "all three skipped and counted in one warning"

# A header with a name twice, or two names of one column (kernel_details'
# and op_summary's start times): the first is read, and the header says so
# once; the rows import.
mkdir -p "$T/h_ascend_pt/ASCEND_PROFILER_OUTPUT" "$T/i_ascend_pt/ASCEND_PROFILER_OUTPUT"
{
	echo "$h,Task Start Time(us)"
	echo "1,a,MatMul,AI_CORE,100,2,555"
} >"$T/h_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
{
	echo "$h,Duration(us)"
	echo "1,a,MatMul,AI_CORE,100,2,99"
} >"$T/i_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" show --db "$T/h.db" --format csv "$T/h_ascend_pt" \
    op_statistic >"$T/out" 2>"$T/err"
is "$(tail -n 1 "$T/out" | cut -d, -f2-5)" "MatMul,AI_CORE,1,2" \
    "two start time columns: the row imports"
grep -q "offset 0: header: 'Task Start Time(us)' and 'Start Time(us)' are both there: 'Task Start Time(us)' is read" \
    "$T/err"
ok $? "the clash is a warning naming both and the one read"
"$NPUPROF" show --db "$T/i.db" --format csv "$T/i_ascend_pt" \
    op_statistic >"$T/out" 2>"$T/err"
is "$(tail -n 1 "$T/out" | cut -d, -f2-5)" "MatMul,AI_CORE,1,2" \
    "a duration column twice: the first is read"
grep -q "header: 'Duration(us)' is there twice (columns 6 and 7): the first is read" \
    "$T/err"
ok $? "and the header is a warning"
done_testing
