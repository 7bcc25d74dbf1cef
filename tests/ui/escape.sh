#!/bin/sh
# Esc closes what was opened over a view and never the program: on a top
# view it only says how to quit, and Alt-x (Esc x) does not quit either;
# q quits from a top view, and Esc still closes a detail page.
. "$top_srcdir/tests/ui/lib.sh"
make_data

start_app 100 24 -- --db "$DB" "$DATA"
wait_for 'Top op types'
send_keys Escape
wait_for 'nothing to close: q or Q quits' && ok 0 "Esc on a top view: a hint"
send_keys M-x
sleep 0.3
[ ! -s "$T/rc" ] && capture | grep -q 'Top op types'
ok $? "Alt-x does not quit"
send_keys 4
wait_for 'Kernels  row 1 of 600' && send_keys Enter
wait_for 'op_summary: row detail' && send_keys M-x
# Alt-x is a key of its own, not Esc (which would close the page) then x.
wait_for 'M-x does nothing' && capture | grep -q 'op_summary: row detail'
ok $? "Alt-x on a detail page: a key of its own, not Esc then x"
send_keys Escape
wait_for 'Kernels  row 1 of 600' && ok 0 "Esc closes the detail page"
send_keys Escape
wait_for 'nothing to close' && [ ! -s "$T/rc" ]
ok $? "and again on the table: still running"
send_keys q
wait_exit
is "$rc" 0 "q on a top view quits"

# Esc Esc at once is two Escs; Esc then a key in a prompt cancels it and
# the key is the view's; rxvt's Alt-Right (Esc Esc [ C) is one key.
start_app 100 24 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of 600' && send_keys Enter
wait_for 'op_summary: row detail' && send_keys Escape Escape
wait_for 'nothing to close' && capture | grep -q 'Kernels  row 1 of 600'
ok $? "Esc Esc at once: the detail closes, then the hint"
send_keys / a b
wait_for 'search: ab' && send_keys Escape j
wait_for 'Kernels  row 2 of 600' && ! capture | grep -q 'search: ab'
ok $? "Esc j at once in a prompt: cancelled, and j moves"
send_keys -H 1b 1b 5b 43
wait_for 'M-Right does nothing' && ! capture | grep -q 'Columns shown'
ok $? "Esc Esc [ C (rxvt's Alt-Right) is one key, M-Right"
send_keys Q
wait_exit
# A row detail on a short screen opens at its top.
start_app 100 12 -- --db "$DB" "$DATA"
wait_for 'Collection' && send_keys 2
wait_for 'Op statistic  row 1' && send_keys Enter
wait_for 'op_statistic: row detail' &&
    ok 0 "a row detail on a short screen shows its title"
send_keys Q
wait_exit
done_testing
