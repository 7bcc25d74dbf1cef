#!/bin/sh
# The PMU columns of an exported op_summary keep each cell as the profiler
# wrote it, whatever it holds: a comma inside a quoted cell or a column
# name, quotes, N/A, a number in exponent form. Each value stays under its
# own column in every output format.
. "$top_srcdir/tests/lib.sh"

d="$T/p/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
{
	printf 'Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,'
	printf 'Task Type,Task Start Time(us),Task Duration(us),'
	printf 'Task Wait Time(us),Block Dim,aicore_time(us),"odd,name",'
	printf 'aic_mac_ratio\r\n'
	printf '0,1,5,3,MatMul_1,MatMul,AI_CORE,1782291497409494.490\t,7.840,'
	printf '0,2,7.285,"1,2",0.0\r\n'
	printf '0,1,6,3,Add_1,Add,AI_VECTOR_CORE,1782291497409504.490\t,2.5,'
	printf '0,2,N/A,"x ""q""",1e-05\r\n'
} >"$d/op_summary_20260101000000.csv"

"$NPUPROF" show -q --db "$T/p.db" --format csv "$T/p" op_summary \
    >"$T/csv" 2>"$T/err"
ok $? "show op_summary"
is "$(head -n 1 "$T/csv" | cut -d, -f22-)" \
    'aicore_time(us),"odd,name",aic_mac_ratio' "a column name with a comma"
is "$(sed -n 2p "$T/csv" | cut -d, -f22-)" '7.285,"1,2",0.0' \
    "a cell with a comma stays one cell; 0.0 keeps its decimal"
is "$(sed -n 3p "$T/csv" | cut -d, -f22-)" 'N/A,"x ""q""",1e-05' \
    "N/A, quotes and exponent form as written"

"$NPUPROF" show -q --db "$T/p.db" --format json "$T/p" op_summary \
    >"$T/json" 2>"$T/err"
grep -q '"odd,name":"1,2","aic_mac_ratio":0.0' "$T/json"
ok $? "json: each value under its own name"
grep -q '"aicore_time(us)":null' "$T/json"
ok $? "json: N/A is null"

"$NPUPROF" show -q --db "$T/p.db" --sort -aic_mac_ratio "$T/p" op_summary \
    >/dev/null 2>"$T/err"
st=$?
[ $st -le 2 ]
ok $? "sorting by a PMU column does not crash (exit $st)"
done_testing
