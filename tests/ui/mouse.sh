#!/bin/sh
# The mouse in a table view: a click on a header sorts on that column (a
# second click inverts it), a click on a row moves the cursor there, and
# the wheel scrolls three rows; in a text view (the Summary) it scrolls
# three lines. Events are sent as the X10 mouse reports
# TERM=screen's kmous announces: ESC [ M, the button, then column and line,
# each plus 33.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# mouse BUTTON X Y: one report; button 0 press, 3 release, 64/65 wheel.
mouse() {
	send_keys -H 1b 5b 4d "$(printf %x $((32 + $1)))" \
	    "$(printf %x $((33 + $2)))" "$(printf %x $((33 + $3)))"
}

open_demo 2 'Op statistic  row 1 of 22'
mouse 0 54 1
mouse 3 54 1
wait_for 'sort -Count' && expect_screen mouse-sort \
    "a click on a header sorts on it, numbers largest first"
mouse 0 54 1
mouse 3 54 1
wait_for 'sort Count' && ok 0 "a second click inverts the order"
mouse 0 5 6
mouse 3 5 6
wait_for 'row 5 of 22' && ok 0 "a click on a row moves the cursor there"
mouse 65 5 6
wait_for 'row 8 of 22' && ok 0 "the wheel scrolls down three rows"
mouse 64 5 6
wait_for 'row 5 of 22' && ok 0 "and up three rows"
# The wheel in a text view (the Summary) scrolls it too.
send_keys 1
settle
capture | sed -n 2p >"$T/top"
mouse 65 5 6
settle
capture | sed -n 2p | cmp -s - "$T/top"
ok $((! $?)) "the wheel scrolls the Summary down"
mouse 64 5 6
settle
capture | sed -n 2p | cmp -s - "$T/top"
ok $? "and back up"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
