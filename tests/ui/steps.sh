#!/bin/sh
# The Steps view of a profile whose steps come from its tasks' Step Id
# (the demo): one row per device and step, and t on a step opens the
# timeline framing that step, selected, with its start in the footer.
. "$top_srcdir/tests/ui/lib.sh"
make_data

start=$("$NPUPROF" show -q --db "$DB" --format csv "$DATA" step_trace |
    awk -F, '$1 == "0" && $3 == "2" { print $4 }')
start_app 120 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 5
wait_for 'Steps  row 1 of 10' && ok 0 "5: a row per device and step"
send_keys j t
wait_for 'Name: Step 2' && capture | grep -q "Start(us): $start "
ok $? "t on step 2: the timeline frames it ($start)"
send_keys q
wait_for 'Steps  row 2 of 10' && ok 0 "q goes back to the Steps view"
send_keys Q
wait_exit
done_testing
