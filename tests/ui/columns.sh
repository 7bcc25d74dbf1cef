#!/bin/sh
# The column chooser (C or F2 in a table view) and the columns no row has
# a value in (Model ID 4294967295 outside graph mode, Context ID N/A):
# hidden at first and said so on the status line, listed with a mark in
# the chooser, shown again with Enter or a; show prints every column.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# The store found exactly the empty columns of the demo's kernels.
empty=$(q "$DB" "SELECT col FROM empty_col WHERE tbl = 'op_summary'
    ORDER BY col" | tr '\n' ,)
is "$empty" "Context ID,Model ID," "the store records the empty columns"
"$NPUPROF" show -q --db "$DB" --format csv --limit 1 "$DATA" kernels |
    head -1 | grep -q 'Model ID'
ok $? "show prints the empty columns all the same"

start_app 160 24 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of 600  2 cols hidden' &&
    capture | sed -n 2p | grep -qv 'Model ID'
ok $? "columns without a value are hidden, the status line says how many"
send_keys C
wait_for 'Columns shown' && expect_screen columns \
    "C lists the columns, the hidden ones unmarked and why"
send_keys j j j Enter
wait_for '[x] Model ID' && send_keys q
wait_for 'Kernels  row 1 of 600  1 col hidden' &&
    capture | sed -n 2p | grep -q 'Model ID'
ok $? "Enter shows a hidden column again"
send_keys F2
wait_for 'Columns shown' && send_keys a q
wait_for 'Kernels  row 1 of 600' && ! capture | grep -q 'hidden'
ok $? "F2 opens it too, a shows every column"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
