#!/bin/sh
# The phases of the AI CPU's KFC turns (a raw collection's aicpu.data,
# npuprof-gen prof -C) on the timeline: a lane "Stream 60 KFC" under the
# device, server turns on its first row and compute turns on the second,
# each phase a span of level kfc that the cursor steps to. The lane
# comes after the streams of the MC2 kernel (60) and its tasks (61, 62),
# and before the lane of the MC2 op's group, which holds the op (level
# mc2).
. "$top_srcdir/tests/ui/lib.sh"
"$GEN" prof "$T/p" -s 41 -n 60 -C >/dev/null || skip_all "cannot generate data"
DB=$T/p.db
"$NPUPROF" import -q --db "$DB" "$T/p" || exit 1

start_app 160 30 -- --db "$DB" "$T/p"
wait_for 'Top op types' && send_keys 9
wait_for 'Stream 60 KFC.1' && capture | grep -q '^ *Stream 60 KFC  '
ok $? "the KFC lane and its second row are on the timeline"
capture | awk '/Device 0/ { d = 1 } d && /Stream 60 KFC/ { f = 1 }
    END { exit !f }'
ok $? "under their device"
send_keys G
wait_for 'lane 14 of 14' && send_keys k
wait_for 'lane 13 of 14' && send_keys .
wait_for 'Level: kfc  Thread: 60  Depth: 1' &&
    capture | grep -Eq 'Name: (WaitCompute|Compute) [0-9]+  Level: kfc'
ok $? "the KFC lane's second row holds the compute turns"
send_keys k .
server='Name: (StartServer|Task[A-Za-z]+|Finalize) [0-9]+  Level: kfc'
wait_for 'Level: kfc  Thread: 60  Depth: 0' && capture | grep -Eq "$server"
ok $? "the row above holds the server turns"
send_keys G .
wait_for 'Level: mc2' &&
    capture | grep -Eq 'Name: MatmulAllReduceAicpuKernel_[0-9]{3}_0_1  Level'
ok $? "the last lane, its group's, holds the MC2 op, named as in kfc_op"
capture | grep -q '^ *Group [0-9]*~* '
ok $? "the lane is named after the op's group"
send_keys Q
wait_exit
done_testing
