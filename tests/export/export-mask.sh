#!/bin/sh
# export summary writes the op_summary columns its input had: a PyTorch
# Level0 kernel_details (Step Id, Name, Type, Accelerator Core, the times,
# Block Num) gives an op_summary of those columns only, a full one every
# column, and the export re-imports to the same rows and columns.
. "$top_srcdir/tests/lib.sh"

export SOURCE_DATE_EPOCH=1780000000
STAMP=20260528202640
L0HEAD='Step Id,Device_id,Op Name,OP Type,Task Type,Task Start Time(us),'
L0HEAD=$L0HEAD'Task Duration(us),Task Wait Time(us),Block Num'

rows() {
	"$NPUPROF" show -q --db "$1" --format csv "$2" "$3"
}

# A Level0 kernel_details as torch_npu writes it (Step Id first, TABs).
mkdir -p "$T/l0/ASCEND_PROFILER_OUTPUT"
printf '%s\n' 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim' \
    "$(printf '3,MatMul_1,MatMul,AI_CORE,1736405443881410.320\t,50.621,0,20')" \
    "$(printf '3,Cast_2,Cast,AI_VECTOR_CORE,1736405443881500.000\t,6.280,39.059000,8')" \
    >"$T/l0/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" export summary -q --db "$T/l0.db" --output "$T/o" "$T/l0"
ok $? "export summary of a Level0 kernel_details"
f=$T/o/op_summary_$STAMP.csv
is "$(head -n 1 "$f")" "$L0HEAD" "only the Level0 columns"
is "$(sed -n 3p "$f")" "$(printf '3,0,Cast_2,Cast,AI_VECTOR_CORE,1736405443881500.000\t,6.280,39.059000,8')" \
    "the values, as the vendor prints them"
"$NPUPROF" export summary -q --db "$T/r.db" --output "$T/o2" "$T/o"
ok $? "export of the re-imported export"
cmp -s "$f" "$T/o2/op_summary_$STAMP.csv"
ok $? "the same op_summary again"
rows "$T/l0.db" "$T/l0" op_summary >"$T/before"
rows "$T/r.db" "$T/o" op_summary >"$T/after"
same_file "$T/after" "$T/before" "round trip: op_summary"

need_samples
for level in level0 level1; do
	P=$SAMPLES/msinsight-pt-text/$level/rank0_ascend_pt
	[ -d "$P" ] || continue
	"$NPUPROF" export summary -q --db "$T/$level.db" \
	    --output "$T/$level" "$P"
	ok $? "$level sample: export summary"
	head -n 1 "$T/$level/op_summary_$STAMP.csv" >"$T/h"
	if [ $level = level0 ]; then
		is "$(cat "$T/h")" "$L0HEAD" "$level sample: the Level0 columns"
	else
		grep -q '^Step Id,Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,.*,Context ID,aicore_time(us),' "$T/h"
		ok $? "$level sample: every column, PMU ones too"
	fi
	# The trace adds ids a Level0 kernel_details has not: compare what
	# the file had.
	f=1-
	[ $level = level0 ] && f=1,2,6,7,9-13
	rows "$T/$level.db" "$P" op_summary | cut -d, -f$f >"$T/before"
	rows "$T/${level}r.db" "$T/$level" op_summary | cut -d, -f$f >"$T/after"
	same_file "$T/after" "$T/before" "$level sample: round trip"
done
done_testing
