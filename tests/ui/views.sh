#!/bin/sh
# Every view of the UI on a small generated profile: summary, the statistic
# tables, kernels, tab switching, detail, help, closing and quitting.
. "$top_srcdir/tests/ui/lib.sh"
make_data

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && expect_screen summary "the summary opens first"
send_keys 2
wait_for 'Op statistic  row 1 of' && expect_screen op-statistic \
    "2 shows the op statistic"
send_keys 3
wait_for 'API statistic  row 1 of' && expect_screen api-statistic \
    "3 shows the API statistic"
send_keys 4
wait_for 'Kernels  row 1 of 600' && expect_screen kernels \
    "4 shows one row per task"
send_keys Tab
wait_for 'Summary  ' && ok 0 "Tab wraps to the summary"
send_keys BTab
wait_for 'Kernels  row' && ok 0 "Shift-Tab goes back"
send_keys 2 j j Enter
wait_for 'op_statistic: row detail' && expect_screen op-detail \
    "Enter on an op type shows its fields and its tasks"
expect_attrs op-detail "the cursor is on the slowest task"
# The third slowest task: Enter shows it, selected, in the timeline.
third=$(capture | awk '/slowest first/ { n = NR } n && NR == n + 4 {
    print "Name: " $4 "  Type: MIX_AIC  Stream: " $3 }')
send_keys j j Enter
wait_for 'Timeline  lane' && capture | grep -qF "$third"
ok $? "j j Enter: the third task in the timeline ($third)"
send_keys q q
wait_for 'Op statistic  row 3 of' && ok 0 "q goes back with the cursor kept"
send_keys 4 G Enter
wait_for 'op_summary: row detail' && expect_screen kernel-detail \
    "Enter on a task shows every field"
name=$(capture | awk '$1 == "Op" && $2 == "Name" { print $3 }')
send_keys Enter
wait_for 'Timeline  lane' && capture | grep -qF "Name: $name "
ok $? "Enter on a task's page shows it in the timeline ($name)"
send_keys q q F1
wait_for 'npuprof-tui keys' && expect_screen help-kernels \
    "F1 shows the keys of the view and the global ones"
send_keys q 1 '?'
wait_for 'npuprof-tui keys' && ok 0 "? opens the help from the summary"
send_keys q 2
wait_for '? help  q quit  / search  \ filter  S sort  C columns' &&
    ok 0 "the status line ends in the view's main keys"
send_keys '?'
wait_for 'npuprof-tui keys' && ok 0 "? opens the help in a table view too"
send_keys q 8
wait_for 'u out  / search  v mode' && ok 0 "the flame view names its keys"
send_keys 1 6
wait_for 'no Memory data in this store' && ok 0 "a view without data says so"
send_keys d
wait_for 'Choose a device' && send_keys d d d q
settle
capture | grep -q 'Choose a device'
ok $((! $?)) "d in the chooser opens no other: one q closes it"
send_keys d
wait_for 'Choose a device' && send_keys j Enter
wait_for 'device 0 rank all' && expect_screen device-0 \
    "the device selector limits every view"
send_keys Q
wait_exit
is "$rc" 0 "Q quits with status 0"
done_testing
