#!/bin/sh
# t on a row of the Markers view (msprof_tx) opens the timeline on that
# marker or range, on its thread's marker lane, selected.
. "$top_srcdir/tests/ui/lib.sh"
"$GEN" prof "$T/p" -n 50 -u 5 >/dev/null || skip_all "cannot generate data"
DB=$T/p.db
"$NPUPROF" import -q --timeline --db "$DB" "$T/p" || exit 1
row=$("$NPUPROF" show -q --db "$DB" --format csv "$T/p" msprof_tx | sed -n 3p)
msg=$(echo "$row" | cut -d, -f10)
start=$(echo "$row" | cut -d, -f7)
tid=$(echo "$row" | cut -d, -f2)

start_app 160 30 -- --db "$DB" "$T/p"
wait_for 'Top op types' && send_keys 7
wait_for 'Markers  row 1 of' && send_keys j t
wait_for "Name: $msg " && capture | grep -q "Thread: $tid .*Start(us): $start "
ok $? "t on a marker: the timeline on it ($msg, thread $tid, $start)"
capture | grep -q "Level: mstx  Thread: $tid "
ok $? "selected on its thread's marker lane"
send_keys q
wait_for 'Markers  row 2 of' && ok 0 "q goes back to the Markers"
send_keys Q
wait_exit
done_testing
