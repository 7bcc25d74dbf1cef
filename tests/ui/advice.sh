#!/bin/sh
# The Advice tab (E) on the bad run of gen-advice.py: the overall
# breakdown, then the findings, high ones first, each with its suggestion
# and evidence, wrapped to the screen and again on a resize; j and k step
# from finding to finding; Enter on the AI CPU finding opens Kernels
# filtered to Cast, q comes back, Enter on the launch gap opens the
# timeline on the kernel after the gap; Enter on a finding without a view
# says how to see it.
. "$top_srcdir/tests/ui/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/advice/gen-advice.py" "$T" || exit 1

start_app 160 60 -- "$T/bad_ascend_pt"
wait_for ' Collection'
capture | head -1 | grep -q ' E Advice '
ok $? "the tab bar names the Advice tab, E"
send_keys E
wait_for 'Advice: ' && ok 0 "E opens the Advice tab"
capture | grep -q '^ Where the time goes'
ok $? "the overall breakdown first"
capture | grep -q '^   Computing Time: 3.500 ms, 35.0% of 10.000 ms'
ok $? "with its numbers"
capture | grep -q '^ high   Scheduling free-time: the device is free'
ok $? "then the findings, high ones first"
capture -e | grep 'free-time:' | grep -q "$(printf '\033\\[1m')"
ok $? "a high finding stands out"
capture | grep -q '^        waiting, 1.000 ms transmitting$'
ok $? "a long finding wraps under itself"
capture | tail -1 | grep -q 'Advice  18 findings'
ok $? "the status line counts the findings"
# Narrower: wrapped again to the new width, no word cut off.
tmux_ resize-window -x 80 -y 60
settle
want='The host does not keep the device busy: see launch-gap for where; fewer
and larger ops (fusion, graph mode), TASK_QUEUE_ENABLE=2, a larger
ACLNN_CACHE_LIMIT, and no host work inside the step (data loading, logging)
help.'
capture | tr -s ' \n' '  ' | grep -qF "$(echo "$want" | tr '\n' ' ')"
ok $? "a resize wraps the findings again"
tmux_ resize-window -x 160 -y 60
settle
send_keys j j j j
sleep 0.3
send_keys Enter
wait_for 'filter OP Type:^Cast$' && wait_for 'Kernels  row 1 of 3  ' &&
    ok 0 "Enter on the AI CPU finding: Kernels, the Cast kernels"
send_keys q
wait_for 'Advice  18 findings'
send_keys j
sleep 0.3
send_keys Enter
wait_for 'Timeline ' && wait_for 'Name: Relu_gap' &&
    ok 0 "Enter on the launch gap: the timeline on the kernel after it"
send_keys q
wait_for 'Advice  18 findings'
send_keys j j j j j j j j j
sleep 0.3
send_keys Enter
wait_for 'show PATH env_variables prints it' &&
    ok 0 "Enter where no view shows it: how to see it"
# G on a short screen shows the end of the text, past the last finding
# (the rules not applied): j has nothing left to scroll; so does PgDn.
tmux_ resize-window -x 60 -y 20
settle
send_keys G
sleep 0.3
capture >"$T/end"
send_keys j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j
sleep 0.3
capture | diff - "$T/end" >/dev/null
ok $? "G shows the end of the text"
send_keys g
sleep 0.3
for i in 1 2 3 4 5 6 7 8 9 10; do
	send_keys PPage
done
sleep 0.3
for i in $(seq 1 30); do
	send_keys NPage
done
sleep 0.5
capture | diff - "$T/end" >/dev/null
ok $? "PgDn gets there too"
# A key the Advice view has no use for says so.
send_keys /
wait_for '/ does nothing in the Advice view (? lists its keys)' &&
    ok 0 "a key of no use here says so"
# A taller screen after G: the text from its top, no blank tail.
tmux_ resize-window -x 160 -y 120
settle
capture | grep -q '^ Where the time goes'
ok $? "after G, a screen tall enough shows the text from its top"
# The help says what the keys do here, once each.
tmux_ resize-window -x 160 -y 60
settle
send_keys '?'
wait_for 'Advice view'
capture | grep -q '^   j Down  *down  *Step to the next finding'
ok $? "help: j steps from finding to finding"
capture | grep -q 'Move down one row'
ok $((! $?)) "and is not listed again as moving a row"
send_keys q 8
wait_for 'Flame'
send_keys '?'
wait_for 'Flame view'
capture | grep -q '^   j Down  *down  *The heaviest callee; in a tree, the next'
ok $? "help in the Flame view: j selects the heaviest callee"
send_keys q
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
