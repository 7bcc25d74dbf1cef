#!/bin/sh
# A search typed while a filter still runs over 300,000 kernels: it does
# not say "not found" at the end of the rows found so far, but goes on
# when the filter is done and lands on the one row with the last Conv2D
# task's start time (as the store holds it: the table shows it relative).
. "$top_srcdir/tests/ui/lib.sh"

DATA="$T/d"
DB="$T/s.db"
"$GEN" demo "$DATA" -n 300000 >/dev/null || skip_all "cannot generate data"
"$NPUPROF" import -q --db "$DB" "$DATA" >/dev/null ||
    skip_all "cannot import data"
K="$DATA/demo_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
last=$(grep ',Conv2D,' "$K" | tail -n 1 | cut -d, -f10 | tr -d '\t')
[ -n "$last" ] || skip_all "no Conv2D task"

start_app 160 20 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of' && send_keys F4
wait_for 'filter (regex or col:regex):' && type_text 'Conv2D' &&
    send_keys Enter
send_keys /
wait_for 'search:' && type_text "$last" && send_keys Enter
# When the filter is done the search goes on to the row: the last of the
# filtered rows, the one match (the row shows the start from the start of
# the trace; the search finds the epoch time as the store holds it).
# Up to 90 s: a sanitizer build on a loaded machine filters slowly.
at='row \([0-9]*\) of \1  filter Conv2D  match 1/1 '
i=0
until capture | grep -q "$at" || [ $i -ge 3600 ]; do
	sleep 0.025
	i=$((i + 1))
done
capture | grep -q "$at"
ok $? "the search lands on the last Conv2D task"
capture | grep -q 'not found'
ok $((! $?)) "and never says not found"
send_keys Q
wait_exit
done_testing
