#!/bin/sh
# Memory as a chart: torch_npu's memory_record.csv becomes counter lanes in
# the timeline; t on a row of the Memory view shows its component's chart
# at that row's time, the footer says when the peak came, p goes there.
# A raw collection's memory samples are its Memory view.
. "$top_srcdir/tests/ui/lib.sh"

d="$T/p_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
{
	echo 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)'
	echo '1,a,MatMul,AI_CORE,1000.000,20'
} >"$d/kernel_details.csv"
{
	echo 'Component,Timestamp(us),Total Allocated(MB),Device Type'
	echo 'PTA,1000.000,10.5,NPU:0'
	echo 'PTA,1010.000,12.25,NPU:0'
	echo 'PTA,1020.000,8,NPU:0'
} >"$d/memory_record.csv"
"$NPUPROF" import -q --timeline --db "$T/s.db" "$T/p_ascend_pt" ||
    skip_all "cannot import"
start_app 120 16 -- --db "$T/s.db" "$T/p_ascend_pt"
wait_for 'Top op types' && send_keys 6
wait_for 'Component' && send_keys t
wait_for 'Counter: Memory PTA' &&
    capture | grep -q 'Value: 10.5 .*Max: 12.25 at +10us (p)'
ok $? "t on a row: the memory chart at its time, the peak's time said"
send_keys p
wait_for 'Value: 12.25 ' && ok 0 "p goes to the peak"
# kernel_details without a Stream ID column: its lane is "Stream N/A".
send_keys q 9
wait_for 'Timeline  lane 1' && capture | grep -q '^ Stream N/A '
ok $? "a stream that is not known is named N/A, not a huge number"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# A raw collection's memory samples (npuprof-gen prof -K) are its Memory
# view: npu_mem in msprof's columns, device 0's samples first, in file
# order.
"$GEN" prof "$T/raw" -s 5 -n 60 -T 2 -K -d 2 >/dev/null &&
    "$NPUPROF" import -q --db "$T/r.db" "$T/raw"
ok $? "a raw collection with memory samples: generated and imported"
start_app 120 16 -- --db "$T/r.db" "$T/raw"
wait_for 'Top op types' && send_keys 6
wait_for 'memory(KB)' &&
    capture | grep -q '^ *0 *Device *3000 *70007 *73007 *+113\.690 *$'
ok $? "a raw collection's Memory view: npu_mem, its first sample"
capture | sed -n 4p | grep -q '^ *0 *APP *6000 *140007 *146007 *+1467\.690'
ok $? "then the next in file order"
# Its DDR and HBM bytes are counter lanes of each device in the timeline.
send_keys 9
wait_for 'Timeline  lane' &&
    capture | grep -q '^ NPU MEM device~ .*[▁▂▃▄▅▆▇█]'
ok $? "the timeline: a device's NPU MEM lanes under its streams"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
