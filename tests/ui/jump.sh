#!/bin/sh
# Into the timeline from the tables and around it: t on a Kernels row
# opens the timeline on that task, selected; t on an Op statistic row on
# the first instance of the op type, t again (and n, N in the timeline)
# on the next and previous, wrapping; f follows a launch to its task and
# back; the mouse wheel zooms around the pointer, a drag selects a range
# that a applies to the tables (so does m, move, v) and F to the flame
# graph; c collapses a group,
# x hides lanes by regex, < and > narrow and widen the name column.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# mouse BUTTON X Y: an xterm mouse report (0 press, 3 release, 64 wheel
# up, 65 wheel down) at column X, line Y, counted from 0.
mouse() {
	tmux_ send-keys -H 1b 5b 4d "$(printf %x $((32 + $1)))" \
	    "$(printf %x $((33 + $2)))" "$(printf %x $((33 + $3)))"
}

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1' && send_keys j j
wait_for 'Kernels  row 3' && send_keys t
wait_for 'Name: aclnn_MemSet_2' && expect_screen timeline-jump \
    "t on a Kernels row: the timeline centred on that task, selected"
send_keys q
wait_for 'Kernels  row 3' && ok 0 "q returns to the table"

row=$("$NPUPROF" show -q --format tsv --db "$DB" "$DATA" op_statistic |
    sed -n 2p)
op=$(echo "$row" | cut -f3)
count=$(echo "$row" | cut -f5)
send_keys 2
wait_for 'Op statistic  row 1' && send_keys t
wait_for "$op: instance 1 of $count" &&
    ok 0 "t on an op type: its first instance of $count"
first=$(capture | grep -o 'Task ID: [0-9]*')
send_keys n
wait_for "$op: instance 2 of $count" && ok 0 "n: the next instance"
send_keys q t
wait_for "$op: instance 3 of $count" &&
    ok 0 "t again in the table: the one after"
send_keys N N N
wait_for "$op: instance $count of $count" &&
    ok 0 "N before the first wraps to the last"
send_keys n
wait_for "$op: instance 1 of $count" && capture | grep -qF "$first"
ok $? "n after the last wraps to the first, the same task"
send_keys q

# The mouse: the wheel zooms around the pointer, a drag selects.
send_keys 9
wait_for 'frame 16.41ms' && mouse 64 50 5
wait_for 'frame 8.204ms' && capture | grep -q '^@7.364ms  *|3.3ms  *|5.2ms'
ok $? "the wheel zooms in around the pointer, which stays put"
mouse 65 50 5
wait_for 'frame 16.41ms' && ok 0 "and out"
mouse 0 30 4
mouse 3 60 4
wait_for 'range 6.128ms' && expect_screen timeline-range \
    "a drag selects a range, highlighted with its length"
send_keys a
wait_for 'Op statistic of the tasks starting in' && expect_screen \
    window-range "a: the op statistic of the range"
send_keys q
full=$("$NPUPROF" show -q --db "$DB" "$DATA" stacks | awk '{ s += $NF }
    END { printf "%.2f", s / 1000 }')
wait_for 'range 6.128ms' && send_keys F
wait_for 'Flame  ops device  range 2.57ms-8.698ms' &&
    part=$(capture | sed -n 's/^ all  total \([0-9.]*\) us.*/\1/p') &&
    awk -v p="$part" -v f="$full" 'BEGIN { exit !(p > 0 && p < f) }'
ok $? "F: the flame graph of just the range ($part of $full us)"
send_keys q
wait_for 'range 6.128ms' && send_keys Escape
wait_gone 'range' && wait_for 'cell 198us'
ok $? "Esc drops the range"
# The first lane is rank 0's steps: . walks the tasks of Stream 40.
send_keys j m . . . v
wait_for 'range ' && send_keys a
wait_for 'Op statistic of the tasks starting in [7.364ms, 7.77ms)' &&
    ok 0 "m, then v at another time selects from the mark"
send_keys q

# Lanes: collapse a group, hide by regex, narrow the names.
# Esc on its own: Esc g at once is Alt-g.
wait_for 'range 407us' && send_keys Escape
wait_gone 'range 407us' && send_keys g c
wait_for 'lane 1 of 5' && send_keys '<' '<' '<'
wait_for 'lane 1 of 5' && expect_screen timeline-collapsed \
    "c collapses a rank's device into one row, < narrows the names"
send_keys c '>' '>' '>'
wait_for 'lane 1 of 8' && ok 0 "c again expands it"
send_keys x
wait_for 'Hide lanes' && type_text 'Stream 4[01]|Steps' && send_keys Enter
wait_for 'lane 1 of 2' && capture | grep -q 'Rank 1 Device 1 (1)' &&
    capture | grep -q '^ Stream 42' && ! capture | grep -q 'Stream 40'
ok $? "x hides the lanes whose name matches"
send_keys x
wait_for 'Hide lanes' && send_keys C-u Enter
wait_for 'lane 4 of 8' &&
    ok 0 "an empty regex shows every lane again, the cursor stays"
send_keys x
wait_for 'Hide lanes' && type_text '.' && send_keys Enter
wait_for 'would hide every lane' && ok 0 "hiding every lane is refused"
# A regex PCRE2 gives up on would leave lanes shown it may match.
send_keys x
wait_for 'Hide lanes' && send_keys C-u && type_text '(.*.*.*.*)*(?=#)' &&
    send_keys Enter
wait_for 'gave up on' && capture | grep -q 'lane 4 of 8' &&
    ok 0 "a regex PCRE2 gives up on hides nothing, and says so"

# Flow: from a task to the API span that launched it, and back.
mkdir "$T/sp" && echo spans >"$T/sp/README"
"$GEN" spans "$T/sp.db" "$T/sp" -n 6 >/dev/null || exit 1
start_app 100 24 -- --db "$T/sp.db" "$T/sp"
wait_for 'Top op types' && send_keys 9
# Down past the host's 7 lanes and the device's header to Stream 40.
wait_for 'lane 1 of 10' && send_keys j j j j j j j j .
wait_for 'Stream: 40  Task ID: 0' && send_keys f
wait_for 'Name: launch  Level: node  Thread: 100' &&
    capture | grep -q 'lane 3 of 10'
ok $? "f on a task: the API span that launched it"
send_keys f
wait_for 'Stream: 40  Task ID: 0' && capture | grep -q 'lane 8 of 10'
ok $? "f again: back to the task"
done_testing
