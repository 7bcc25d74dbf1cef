#!/bin/sh
# a opens the AA Core metrics of an SVP job as a table view that sorts like
# any other; on a store without them it says so.
. "$top_srcdir/tests/ui/lib.sh"

"$GEN" svp "$T/svp" >/dev/null || skip_all "cannot generate an SVP job"
start_app 120 24 -- --db "$T/svp.db" "$T/svp"
wait_for 'Collection'
send_keys a
wait_for 'AA Core metrics  row 1 of 13' && expect_screen aa-core \
    "a shows the per-layer AA Core metrics"
send_keys '>' '>' '>' '>' '>' I
wait_for 'sort Time(us)' && wait_for '  19.75 ' &&
    ok 0 "it sorts on a column, as numbers"
send_keys q
wait_for 'Collection' && ok 0 "q goes back"
send_keys Q
wait_exit

make_data
start_app 100 24 -- --db "$DB" "$DATA"
wait_for 'Top op types'
send_keys a
wait_for 'no AA Core metrics table in this store' &&
    ok 0 "a store without them says so"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
