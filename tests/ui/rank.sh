#!/bin/sh
# The rank selector: r lists the ranks of a two-rank profile, choosing one
# reopens the views on that rank only, and "all ranks" brings every row back.
. "$top_srcdir/tests/ui/lib.sh"
make_data

open_demo 4 'Kernels  row 1 of 600'
send_keys r
wait_for 'Choose a rank' && expect_screen rank-choose \
    "r lists all ranks, then each rank"
send_keys j j Enter
wait_for 'rank 1' && wait_for 'Kernels  row 1 of 300' &&
    expect_screen rank-1 "choosing rank 1 keeps its 300 tasks"
send_keys 2
wait_for 'Op statistic  row 1 of 11' && ok 0 "other views follow the rank"
send_keys r
wait_for 'Choose a rank'
send_keys g Enter
wait_gone 'rank 1' && ok 0 "all ranks again: the bar no longer names rank 1"
send_keys 4
wait_for 'Kernels  row 1 of 600' && ok 0 "every task is back"
send_keys F1 PgDn j j
wait_for 'Choose the rank' && ok 0 "the help lists r"
send_keys q Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
