#!/bin/sh
# R re-imports: unchanged inputs keep the store, changed ones rebuild it
# and every view reopens on the new rows, on the tab the user was on;
# Ctrl-C still ends the UI cleanly afterwards (the import had its own).
. "$top_srcdir/tests/ui/lib.sh"
make_data

open_demo 4 'Kernels  row 1 of 600'
send_keys R
wait_for 'nothing changed since the import' &&
    wait_for 'Kernels  row 1 of 600' &&
    ok 0 "R with nothing changed keeps the rows, and says so"
"$GEN" demo "$DATA" -n 200 -r 2 -a 40 --stats >/dev/null
send_keys R
wait_for 'Kernels  row 1 of 400' && expect_screen reimport \
    "R after the inputs changed shows the new rows"
send_keys 2
wait_for 'Op statistic' && ok 0 "the other views reopen on the new store"
send_keys C-c
wait_exit
is "$rc" 130 "Ctrl-C after a re-import still ends the UI as SIGINT (130)"
capture | grep -q 'Op statistic'
[ $? -ne 0 ]
ok $? "and gives the terminal back"
grep -q "re-importing '.*'" "$T/stderr"
ok $? "the re-import says why on stderr"
done_testing
