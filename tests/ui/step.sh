#!/bin/sh
# s in a table view keeps one step: op_statistic computed from the step's
# tasks (its first row as show --step prints it), the kernels of the step,
# every step again on an empty answer, errors for a step the profile lacks
# and for a table that cannot be cut by step.
. "$top_srcdir/tests/ui/lib.sh"
make_data
# The demo has two ranks: each table starts with a Rank column.

first=$("$NPUPROF" show -q --db "$DB" --format csv --step 3 "$DATA" \
    op_statistic | awk -F, 'NR == 2 { print $3 " " $6 }')
n3=$("$NPUPROF" show -q --db "$DB" --format csv --step 3 "$DATA" kernels |
    sed 1d | wc -l)
start_app 120 24 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 2 s
wait_for 'step (empty for all):' && type_text 3
send_keys Enter
wait_for 'Op statistic  row 1 of 22  step 3' &&
    capture | sed -n 3p | awk '{ print $3 " " $6 }' | grep -qx "$first"
ok $? "s 3: the op statistic of step 3, first $first as show --step"
# Its detail lists the tasks of that op type in the step, on the device.
count=$(capture | sed -n 3p | awk '{ print $5 }')
send_keys Enter
wait_for 'in the step on this device' &&
    n=$(capture | awk '/Duration\(us\)/ { on = 1; next } on && NF == 0 {
    exit } on { n++ } END { print n + 0 }') && [ "$n" -eq "$count" ]
ok $? "Enter: the op type's $count tasks of the step on its device"
send_keys q 4 s
wait_for 'step (empty for all):' && type_text 3
send_keys Enter
wait_for "Kernels  row 1 of $n3  step 3" &&
    ok 0 "the kernels of step 3: $n3 rows"
# The prompt offers the step shown: a digit typed replaces it (it was
# appended: step 32), End then a digit edits it (step 32).
n2=$("$NPUPROF" show -q --db "$DB" --format csv --step 2 "$DATA" kernels |
    sed 1d | wc -l)
send_keys s
wait_for 'step (empty for all): 3' && type_text 2
send_keys Enter
wait_for "Kernels  row 1 of $n2  step 2" &&
    ok 0 "a digit typed over the offered step replaces it: step 2"
send_keys s End
type_text 2
send_keys Enter
wait_for 'no step 22 in this profile' &&
    ok 0 "End, then a digit: the offered step edited, step 22"
send_keys s C-u Enter
wait_for 'Kernels  row 1 of 600' && ! capture | grep -q 'step 3'
ok $? "an empty answer shows every step again"
send_keys s
wait_for 'step (empty for all):' && type_text 99
send_keys Enter
wait_for 'no step 99 in this profile' &&
    ok 0 "a step the profile lacks: a message, the rows stay"
send_keys 3 s
wait_for 'step (empty for all):' && type_text 3
send_keys Enter
wait_for 'needs the API spans' &&
    ok 0 "api_statistic of a profile without spans says what it needs"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# An op type of many tasks: its detail lists the slowest 100.
"$GEN" demo "$T/big" -n 2000 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/big.db" "$T/big" || exit 1
start_app 120 30 -- --db "$T/big.db" "$T/big"
wait_for 'Top op types' && send_keys 2 Enter
wait_for 'slowest first (first 100)' && wait_for 'Detail  113 lines' &&
    ok 0 "the detail of an op type of 150 tasks lists the first 100"
send_keys Q
wait_exit

# A raw collection's step is a window of time, whose filtered rows are
# read directly, not by a scan: past a page, the count came only with G
# ("row 1 of ?").
"$GEN" prof "$T/raw" -s 3 -n 2000 -t 3 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/raw.db" "$T/raw" || exit 1
nf=$("$NPUPROF" show -q --db "$T/raw.db" --format csv --step 2 \
    --filter Conv "$T/raw" kernels | sed 1d | wc -l)
start_app 120 24 -- --db "$T/raw.db" "$T/raw"
wait_for 'Top op types' && send_keys 4 s
wait_for 'step (empty for all):' && type_text 2
send_keys Enter
wait_for 'step 2' && send_keys '\'
wait_for 'filter (regex' && type_text Conv
send_keys Enter
wait_for "Kernels  row 1 of $nf  step 2  filter Conv" &&
    ok 0 "a filter in a step of a raw collection: row 1 of $nf, counted"
send_keys Q
wait_exit
done_testing
