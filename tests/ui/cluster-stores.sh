#!/bin/sh
# The UI on a cluster kept as a store per rank (--stores rank): it opens
# on the Cluster view; the views of tasks are not there until a rank is
# chosen, and trying one says how to choose; Enter on a rank (or r) opens
# that rank's store, so Kernels and the Timeline show its tasks, while
# the Cluster view still shows every rank; r back to all ranks hides them
# again; --rank N opens on the rank's store, its times relative to the
# cluster's start; a rank whose store went away
# while the UI ran is an error in the status line, not an empty view, and
# R makes it again.
. "$top_srcdir/tests/ui/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 4 \
    --seed 6 --tasks 40 >/dev/null || skip_all "cannot generate"
"$NPUPROF" import -q --timeline --stores rank "$T/c" || skip_all "cannot import"

start_app 130 40 -- "$T/c"
wait_for 'Findings (' && ok 0 "a cluster of stores opens on its Cluster view"
capture | head -1 | grep -q ' 4 Kernels'
ok $((! $?)) "no Kernels tab before a rank is chosen"
send_keys 4
wait_for 'choose a rank' && ok 0 "4 says to choose a rank first"
# A step of the ranks' statistics needs a rank's tasks: said, not "no
# step 3 in this profile".
send_keys 2 s
wait_for 'step (empty for all):' && type_text 3
send_keys Enter
wait_for 'choose a rank (Enter on it in the Cluster view)' &&
    ok 0 "s 3 on the ranks' statistics says to choose a rank"
send_keys 0 g Enter
wait_for 'rank 3 in every view' && ok 0 "Enter on a finding: its rank"
capture | head -1 | grep -q ' 4 Kernels .* 9 Timeline '
ok $? "now the Kernels and Timeline tabs are there"
send_keys 4
wait_for 'row 1 of 40' && ok 0 "Kernels: the 40 kernels of rank 3's store"
capture | sed -n 3p | grep -q ' 3 .*MatMulV2_0 '
ok $? "on device 3"
send_keys 9
wait_for 'Rank 3 Device 3' && ok 0 "the timeline of rank 3"
send_keys Tab
wait_for 'Findings (' && capture | grep -q 'step 3 rank 0 '
ok $? "the Cluster view still shows every rank"
send_keys r
wait_for 'Choose a rank' && send_keys g Enter
wait_for 'rank all' && ok 0 "r, all ranks"
capture | head -1 | grep -q ' 4 Kernels'
ok $((! $?)) "and Kernels is gone again"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

start_app 130 40 -- --rank 1 "$T/c"
wait_for ' 4 Kernels ' && send_keys 4
wait_for 'row 1 of 40' && capture | sed -n 3p | grep -q ' 1 .*MatMulV2_0 '
ok $? "--rank 1 opens on rank 1's store"
capture | sed -n 3p | grep -q ' +7\.250 '
ok $? "its times count from the cluster's start, as in one store (+7.250)"
send_keys Q
wait_exit

# A device the rank has not: Kernels shows no rows (no crash).
start_app 130 40 -- --rank 0 --device 2 "$T/c"
wait_for ' 4 Kernels ' && send_keys 4
wait_for 'row 0 of 0' && capture | grep -q '(no rows)'
ok $? "--rank 0 --device 2: no kernels, said so"
send_keys Q
wait_exit
is "$rc" 0 "and quits cleanly"

start_app 130 40 -- "$T/c"
wait_for 'Findings (' &&
    mv "$T/c/node_2_19_ascend_pt/npuprof-tui.db" "$T/gone.db"
send_keys r
wait_for 'Choose a rank' && send_keys g j j j Enter
wait_for 'cannot open store' &&
    capture | grep -q 'node_2_19_ascend_pt/npuprof-tui.db'
ok $? "a rank whose store is gone: an error naming it"
capture | head -1 | grep -q 'rank all'
ok $? "and all ranks still shown"
send_keys R
wait_for 're-imported' && test -f "$T/c/node_2_19_ascend_pt/npuprof-tui.db"
ok $? "R makes the rank's store again"
send_keys Q
wait_exit
done_testing
