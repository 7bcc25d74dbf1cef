#!/bin/sh
# A MindSpore run never analysed (npuprof-gen prof -Z) on the timeline:
# its host CPU ops (cpu_op_execute_timestamp_0.txt) are a group "CPU OP
# (pid 2)" under the rank, below MindSpore's own ranges, a lane per
# runtime worker; the cursor steps to a run and the footer names the op,
# its level and worker, and its time to the ns as the file gave it
# (12.5 µs: 0.0125 ms).
. "$top_srcdir/tests/ui/lib.sh"
"$GEN" prof "$T/p" -s 5 -n 60 -T 2 -Z >/dev/null ||
    skip_all "cannot generate data"
DB=$T/p.db
"$NPUPROF" import -q --db "$DB" "$T/p" || exit 1

start_app 160 30 -- --db "$DB" "$T/p"
wait_for 'Top op types' && send_keys 9
wait_for 'CPU OP (pid 2) (5)' && capture | grep -q '^ *CPU OP 3 '
ok $? "a group of CPU OP lanes, one per worker"
capture | awk '/MindSpore \(pid 1\)/ { m = 1 } m && /CPU OP \(pid 2\)/ {
    f = 1 } END { exit !f }'
ok $? "below MindSpore's own ranges"
# Down past MindSpore's group (its row and five lanes) and the CPU OP
# group's row to its first lane, worker 3, then to its first run.
send_keys j j j j j j
wait_for 'lane 6 of' && send_keys .
wait_for 'Level: CPU OP  Thread: 3' &&
    capture | grep -q 'Name: Default/network/Add-op1  Level: CPU OP'
ok $? "the cursor steps to a CPU op's run, named after the op"
capture | grep -q 'Duration(us): 12.500'
ok $? "its duration to the ns, 0.0125 ms"
send_keys Q
wait_exit
done_testing
