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
done_testing
