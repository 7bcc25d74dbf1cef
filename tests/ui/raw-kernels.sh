#!/bin/sh
# The Kernels view of a raw collection whose memcpy tasks run on the
# device holds the vendor's op_summary rows only: its row count is
# op_summary's, not task_time's, its last row (G) is a compute task, and
# a filter on the memcpy task type finds nothing there.
. "$top_srcdir/tests/ui/lib.sh"
"$GEN" prof "$T/p" -n 300 -G >/dev/null || skip_all "cannot generate data"
DB=$T/p.db
"$NPUPROF" import -q --db "$DB" "$T/p" || exit 1
listed=$("$NPUPROF" show -q --db "$DB" --format csv "$T/p" op_summary |
    tail -n +2 | wc -l)
all=$("$NPUPROF" show -q --db "$DB" --format csv "$T/p" task_time |
    tail -n +2 | wc -l)
ok $([ "$all" -gt "$listed" ]; echo $?) \
    "task_time has more rows ($all) than op_summary ($listed)"

start_app 160 30 -- --db "$DB" "$T/p"
wait_for 'Top op types' && send_keys 4
wait_for "Kernels  row 1 of $listed" &&
    ok 0 "Kernels: $listed rows, op_summary's"
send_keys G
wait_for "Kernels  row $listed of $listed" && ok 0 "G: the last row"
capture | grep -q 'SDMA'
ok $((! $?)) "no memcpy (SDMA) task on the screen"
send_keys '\\'
wait_for 'filter (regex or col:regex):' && type_text 'SDMA'
send_keys Enter
wait_for 'no rows match the filter' && ok 0 "a filter on SDMA finds no row"
send_keys Q
wait_exit
done_testing
