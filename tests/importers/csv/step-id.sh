#!/bin/sh
# op_summary keeps the Step Id column where the producer's file had one
# (torch_npu's kernel_details, older op_summary files) and has none where
# it had not (the current msprof op_summary, raw data); a legacy Infer ID
# is not a Step Id. Shapes keep their value: CSV and JSON hold "1,3;4"
# unquoted, export summary writes it pre-quoted as the vendor does.
. "$top_srcdir/tests/lib.sh"

H='Model ID,Task ID,Stream ID,Op Name,OP Type,Task Type,Start Time(us)'
H=$H',Task Duration(us),Task Wait Time(us),Block Dim,Input Shapes'
mkdir -p "$T/a" "$T/b"
printf 'Step Id,%s\n2,4294967295,5,3,Add-op1,Add,AI_CORE,1700000000000000\t,10.5,0,8,"""1,3;4"""\n' \
    "$H" >"$T/a/op_summary_1.csv"
printf 'Device_id,%s\n0,4294967295,5,3,Add-op1,Add,AI_CORE,1700000000000000\t,10.5,0,8,"""1,3;4"""\n' \
    "$H" >"$T/b/op_summary_0_1.csv"

"$NPUPROF" show -q --db "$T/a.db" --format csv "$T/a" op_summary >"$T/a.csv"
is "$(head -n 1 "$T/a.csv" | cut -d, -f1-2)" "Step Id,Device_id" \
    "a file with Step Id: op_summary leads with it"
is "$(sed -n 2p "$T/a.csv" | cut -d, -f1)" 2 "and keeps its value"
"$NPUPROF" show -q --db "$T/b.db" --format csv "$T/b" op_summary >"$T/b.csv"
is "$(head -n 1 "$T/b.csv" | cut -d, -f1)" "Device_id" \
    "a file without Step Id: no such column"

"$NPUPROF" show -q --db "$T/a.db" --format json "$T/a" op_summary |
    grep -q '"Input Shapes":"1,3;4"'
ok $? "JSON: the shape itself"
grep -q ',"1,3;4",' "$T/a.csv"
ok $? "CSV: the shape itself, one quoted field"
"$NPUPROF" export summary -q --db "$T/a.db" --output "$T/o" "$T/a"
ok $? "export summary"
grep -q '^2,.*,"""1,3;4"""$' "$T/o"/op_summary_*.csv
ok $? "export: Step Id kept, the shape pre-quoted as the vendor writes it"

# The raw path knows steps but the vendor's op_summary has no Step Id.
"$GEN" prof "$T/p" -n 20 >/dev/null || exit 1
"$NPUPROF" show -q --db "$T/p.db" --format csv "$T/p" op_summary |
    head -n 1 | grep -q '^Device_id,'
ok $? "raw data: no Step Id column"
done_testing
