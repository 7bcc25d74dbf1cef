#!/bin/sh
# The Cluster tab of a folder of raw PROF_* ranks (their communication
# tables and step_trace_time computed at import from HCCL tasks): one
# bar per rank for "the run" (msprof's one step), the link grid of the
# run, the findings with their numbers; Enter on a rank's line shows that
# rank in every view.
. "$top_srcdir/tests/ui/lib.sh"

for r in 0 1 2 3; do
	"$GEN" prof "$T/raw/r$r" -L -T 1 -s $((90 + r)) -n 1500 -r $r/4 ||
	    skip_all "cannot generate"
done
"$NPUPROF" import -q --db "$T/c.db" "$T/raw" || skip_all "cannot import"

start_app 130 40 -- --db "$T/c.db" "$T/raw"
wait_for ' 0 Cluster ' && send_keys 0
wait_for 'Findings (' && ok 0 "0: the Cluster tab with its findings"
capture | grep -q 'slow link .* over the run: '
ok $? "a slow link, over the run"
is "$(capture | grep -c '^     the run rank [0-3] ')" 4 "a bar per rank"
capture | grep -q '^ Links of the run, group 10.0.0.1%enp189s0f0_'
ok $? "the link grid of the run"
send_keys g
# Four findings, a blank line, the heading: the fifth line down is rank 1.
wait_for 'Findings (' && send_keys j j j j j Enter
wait_for 'rank 1 in every view' && ok 0 "Enter on rank 1's line"
send_keys 4
wait_for ' Kernels  row ' && capture | grep -q ' COMMUNICATION '
ok $? "Kernels: rank 1's rows, its COMMUNICATION rows among them"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
