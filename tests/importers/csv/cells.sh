#!/bin/sh
# Rows whose cells do not fit the header, in task rows and the tool's own
# statistics: a value that is no number (or is negative) in a column that
# is no essential part of the row reads as N/A and keeps the row, with one
# warning naming the column; a row with more cells than the header, or
# fewer, is a warning of its own kind; a row that is both has its cells
# out of place and is skipped. Each kind is counted apart. A memory value
# of inf adds no sample.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

d="$T/p_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
{
	echo 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,aicore_time(us)'
	echo '1,a,MatMul,AI_CORE,100,2,0,8,1.5'
	echo '1,b,MatMul,AI_CORE,200,2,abc,8,1.5'
	echo '1,c,MatMul,AI_CORE,300,2,-1,8,1.5'
	echo '1,d,MatMul,AI_CORE,400,2,0,8,1.5,'
	echo '1,e,MatMul,AI_CORE,500,2,0,8,1.5,9'
	echo '1,f,MatMul,AI_CORE,600,2,0,1.5'
	echo '1,g,MatMul,AI_CORE,700,2,0,8'
} >"$d/kernel_details.csv"
{
	echo 'Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)'
	echo '0,MatMul,AI_CORE,4,8,1,2,3,abc'
	echo '0,Add,AI_CORE,1,2,x,2,2,10'
	echo '0,Mul,AI_CORE,1,2,2,2'
	echo '0,Sub,AI_CORE,1,2,2,2,2,-5'
} >"$d/op_statistic.csv"
{
	echo 'Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance'
	echo 'acl,aclA,10,2,5,4,6,nan'
	echo 'acl,aclB,10,2,5,4,6,1,extra'
} >"$d/api_statistic.csv"
"$NPUPROF" import --db "$T/s.db" "$T/p_ascend_pt" 2>"$T/err"
is $? 0 "import"
is "$(q "$T/s.db" "SELECT group_concat(n || ':' || coalesce(w, 'NA'), ' ')
    FROM (SELECT s.s AS n, t.wait_ns AS w FROM task t JOIN str s ON
    s.id = t.name ORDER BY t.start_ns)")" \
    "a:0 b:NA c:NA d:0 e:0 g:0" \
    "bad and negative wait times read as N/A, their rows kept; the row out of place skipped"
w() {	# w FILE PATTERN: the count of that file's warning
	q "$T/s.db" "SELECT message FROM warnings WHERE file LIKE '%$1'" |
	    grep -e "$2" | sed 's/.*(\([0-9]*\) rows*.*/\1/'
}
is "$(w kernel_details.csv "no number, or is negative, read as N/A and the row kept (the first in column 'Wait Time(us)')")" 2 \
    "one warning names the column, counting both"
is "$(w kernel_details.csv "more cells than the header")" 1 \
    "a cell too many is a warning; a trailing comma is not"
is "$(w kernel_details.csv "fewer cells than the header, the missing ones")" 1 \
    "a row short at its end is a warning of its own"
is "$(w kernel_details.csv "cells are out of place, skipped")" 1 \
    "a row short in its middle (1.5 in Block Dim) is skipped"
"$NPUPROF" show -q --db "$T/s.db" --stats file --format csv \
    "$T/p_ascend_pt" op_statistic >"$T/out"
is "$(grep MatMul "$T/out" | cut -d, -f2,4,9)" "MatMul,4,N/A" \
    "op_statistic: a Ratio of abc is N/A, not 0"
is "$(grep Add "$T/out" | cut -d, -f2,4,6)" "Add,1,N/A" \
    "a Min of x is N/A, the row kept"
is "$(grep -c ,Mul, "$T/out")" 1 "a short row kept"
is "$(grep ,Sub, "$T/out" | cut -d, -f2,9)" "Sub,N/A" \
    "a negative Ratio is N/A"
is "$(w op_statistic.csv "the first in column 'Ratio(%)'")" 3 \
    "one warning for the three bad cells"
is "$(w op_statistic.csv "fewer cells")" 1 "and one for the short row"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/p_ascend_pt" \
    api_statistic >"$T/out"
is "$(grep aclA "$T/out" | awk -F, '{ print $NF }')" "N/A" \
    "api_statistic: a Variance of nan is N/A"
is "$(w api_statistic.csv "more cells")" 1 "a cell too many is a warning"

# memory_record: inf is no sample, and the kinds are counted apart.
{
	echo 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type'
	echo 'PTA,100.000,1,2,1,7,NPU:0'
	echo 'PTA,110.000,inf,2,1,7,NPU:0'
	echo 'PTA,120.000,1,2'
	echo 'PTA,130.000,1,2,1,7,NPU:0'
} >"$d/memory_record.csv"
rm -f "$d/op_statistic.csv" "$d/api_statistic.csv"
"$NPUPROF" import -q --db "$T/m.db" "$T/p_ascend_pt" 2>/dev/null
is "$(q "$T/m.db" "SELECT count(*) FROM warnings WHERE file LIKE
    '%memory_record.csv'")" 2 "memory_record: two kinds, two warnings"
is "$(q "$T/m.db" "SELECT message FROM warnings WHERE file LIKE
    '%memory_record.csv' AND message LIKE '%finite%'" |
    sed 's/.*(\([0-9]*\) rows*.*/\1/')" 1 "inf: one row out of the chart"
done_testing
