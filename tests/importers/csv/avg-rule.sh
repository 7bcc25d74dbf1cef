#!/bin/sh
# The average of a computed op_statistic follows the torch_npu that wrote
# the kernel_details: one whose profiler_info names no CANN version (the
# 2025-01 samples) or one before 8.3 rounds it to whole ns, one that names
# CANN 8.3 or later (8.3.RC1's averages are floored on every decisive
# group of a public 4-rank run) floors it as msprof does. Three kernels of
# 1.001, 1.001 and 1.002 us average 1001.333 ns (1.001 either way); of
# 1.001, 1.002 and 1.002 us, 1001.667 ns: 1.002 rounded, 1.001 floored.
. "$top_srcdir/tests/lib.sh"

H='Step Id,Device_id,Name,Type,Accelerator Core,Start Time(us)'
H=$H',Duration(us),Wait Time(us),Block Dim'
for v in old new 82 v9 n10; do
	d=$T/$v/r_ascend_pt
	mkdir -p "$d/ASCEND_PROFILER_OUTPUT"
	{
		printf '%s\n' "$H"
		printf '1,0,Add-1,Add,AI_CORE,1700000000000000.000\t,1.001,0,8\n'
		printf '1,0,Add-2,Add,AI_CORE,1700000000000010.000\t,1.002,0,8\n'
		printf '1,0,Add-3,Add,AI_CORE,1700000000000020.000\t,1.002,0,8\n'
	} >"$d/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
done
printf '{"config": {}, "rank_id": 0}\n' \
    >"$T/old/r_ascend_pt/profiler_info_0.json"
printf '{"config": {}, "rank_id": 0, "torch_npu_version": "2.7.1",'\
' "cann_version": "8.3.RC1"}\n' >"$T/new/r_ascend_pt/profiler_info_0.json"
printf '{"config": {}, "rank_id": 0, "cann_version": "8.2.RC1"}\n' \
    >"$T/82/r_ascend_pt/profiler_info_0.json"
printf '{"config": {}, "rank_id": 0, "cann_version": "V9"}\n' \
    >"$T/v9/r_ascend_pt/profiler_info_0.json"
printf '{"config": {}, "rank_id": 0, "cann_version": 10}\n' \
    >"$T/n10/r_ascend_pt/profiler_info_0.json"

for v in old new 82 v9 n10; do
	"$NPUPROF" show -q --db "$T/$v.db" --format csv --stats computed \
	    "$T/$v/r_ascend_pt" op_statistic >"$T/$v.csv"
	is $? 0 "$v: op_statistic computed"
done
avg() {	# avg FILE: the Avg Time(us) of the Add row
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++)
		if ($i == "Avg Time(us)") c = i; next }
	    $0 ~ /Add/ { print $c }' "$1"
}
is "$(avg "$T/old.csv")" 1.002 "no CANN version named: the average is rounded"
is "$(avg "$T/new.csv")" 1.001 "CANN 8.3.RC1: the average is floored"
is "$(avg "$T/82.csv")" 1.002 "CANN 8.2.RC1: rounded, as before"
is "$(avg "$T/v9.csv")" 1.001 "CANN V9, no minor number: floored"
is "$(avg "$T/n10.csv")" 1.001 "CANN 10 as a JSON number: floored"
"$NPUPROF" show -q --db "$T/old.db" "$T/old/r_ascend_pt" info |
    grep -q 'stats.average.*rounded to ns'
ok $? "info says which rule: rounded"
"$NPUPROF" show -q --db "$T/new.db" "$T/new/r_ascend_pt" info |
    grep -q 'stats.average.*floored to ns, as msprof'
ok $? "info says which rule: floored"
done_testing
