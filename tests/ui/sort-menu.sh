#!/bin/sh
# The sort menu (S or F6 in a table view): the columns in a list, Enter
# sorts on the chosen one (numbers largest first) and scrolls it into
# view, the Op Name column kept first; the first entry gives the table's
# own order back.
. "$top_srcdir/tests/ui/lib.sh"
make_data

slowest=$("$NPUPROF" show -q --db "$DB" --format csv --sort \
    '-Iteration Time' --limit 1 "$DATA" step_trace | awk -F, 'NR == 2 {
    print $7 }')
start_app 100 24 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 5
wait_for 'Steps  row 1 of 10' && send_keys S
wait_for 'Sort on (Enter' && capture | grep -q "Iteration Time(us)"
ok $? "S lists the columns"
send_keys j j j j j j j Enter
wait_for 'sort -Iteration Time(us)' && capture | sed -n 3p |
    grep -Eq " $slowest( |\$)"
ok $? "Enter sorts on it, the slowest step first ($slowest us)"
send_keys 4
wait_for 'Kernels  row 1 of 600' && send_keys F6
wait_for 'Sort on (Enter' && send_keys G Enter
wait_for 'sort -aic_total_cycles' && capture | sed -n 2p |
    grep -q 'aic_total_cycles'
ok $? "F6, last column: sorted and scrolled into view"
settle
capture | sed -n 2p | grep -q '^Op Name ' &&
    capture | sed -n 3p | grep -q '^aclnn_'
ok $? "scrolled right, the Op Name column stays first"
send_keys S
wait_for 'aic_total_cycles  (sorted, largest first)' && send_keys g Enter
wait_gone 'sort -aic' && capture | sed -n 2p | grep -q '^ *Rank '
ok $? "the first entry: the table's own order, from the first column"
send_keys Q
wait_exit
done_testing
