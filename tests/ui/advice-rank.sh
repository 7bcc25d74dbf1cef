#!/bin/sh
# The Advice tab of a two-rank cluster: Enter on a finding of one rank
# opens its evidence for that rank only, every view then showing that
# rank as after Enter in the Cluster view; r shows all ranks again.
. "$top_srcdir/tests/ui/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 2 \
    --seed 3 --tasks 200 >/dev/null || exit 1

start_app 160 50 -- --db "$T/c.db" "$T/c"
wait_for ' Collection'
send_keys E
wait_for 'findings '
capture | grep -q '^ high   Computing dynamic-shape rank 1: 200 of 200'
ok $? "a finding of rank 1"
send_keys j j
sleep 0.3
send_keys Enter
wait_for 'filter OP State:^dynamic$' && ok 0 "Enter: Kernels, filtered"
wait_for 'Kernels  row 1 of 200 ' && ok 0 "rank 1's 200 kernels, not 400"
capture | head -1 | grep -q 'rank 1'
ok $? "the tab bar says rank 1"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
