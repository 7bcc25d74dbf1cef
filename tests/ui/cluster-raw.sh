#!/bin/sh
# The Cluster tab of a folder of raw PROF_* ranks (their communication
# tables and step_trace_time computed at import from HCCL tasks): one
# bar per rank for "the run" (msprof's one step), the link grid of the
# run, the findings with their numbers; Enter on a rank's line shows that
# rank in every view; the Summary names the rank of each bar.
. "$top_srcdir/tests/ui/lib.sh"

for r in 0 1 2 3; do
	"$GEN" prof "$T/raw/r$r" -L -T 1 -s $((90 + r)) -n 1500 -r $r/4 ||
	    skip_all "cannot generate"
done
"$NPUPROF" import -q --db "$T/c.db" "$T/raw" || skip_all "cannot import"

start_app 130 40 -- --db "$T/c.db" "$T/raw"
# The Summary of four ranks: each bar says whose it is.
wait_for 'Top op types' && capture | grep -q 'Top op types by device time (.* rows: .* types on 4 ranks)'
ok $? "the Summary counts rows and types of 4 ranks"
n=$(capture | awk '/Top op types/ { on = 1; next } on && /^$/ { exit }
    on && /^   \[rank [0-3]\] / { n++ } END { print n + 0 }')
is "$n" 10 "and every op type bar names its rank"
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
