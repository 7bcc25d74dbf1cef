#!/bin/sh
# The UI of --compare BASE NEW on the generated pair: it opens on the
# Compare view over NEW's Summary, kernel_compare with a Diff column,
# sorted by the size of the difference (MatMulV2, 30 us more, first); a
# row that got slower is hot (red), one that got faster green; t goes to
# api_compare, communication_compare (in the tool's order, each op's
# tasks after it), overall (an error here: these runs have no overlap
# analysis), op_compare, memory_compare, op_statistic_compare and
# api_statistic_compare, and round; > sorts on the next column, I inverts,
# < back to |Diff| keeps the first order of ties; q leaves
# NEW's Summary; 8 the differential flame graph (Gelu new, MatMulV2 30
# us more: red); 9 both runs' timelines, one above the other, lined up
# at step 1, a base span's details from the base's store. Then the pair of gen-overall.py: overall in its own
# order, parts under their whole, a slower part hot.
. "$top_srcdir/tests/ui/lib.sh"
. "$top_srcdir/tests/compare/pair.sh"

start_app 160 24 -- --compare "$B" "$N"
wait_for 'Kernel compare: ' && ok 0 "--compare opens on the Compare view"
capture | sed -n 6p | grep -q '^ *1  MatMulV2 .* 30$'
ok $? "the largest difference first: MatMulV2, 30 us more"
capture | tail -1 | grep -q 'sort -|Diff|'
ok $? "the status line names the sort"
capture -e | grep 'Cast ' | grep -q "$(printf '\033\\[32m')"
ok $? "Cast, gone from NEW, got faster: green"
capture -e | grep 'MatMulV2 ' | grep -q "$(printf '\033\\[31m')"
ok $? "MatMulV2 got slower: red"
send_keys t
wait_for 'API compare: ' && capture | sed -n 6p | grep -q 'aten::li'
ok $? "t: api_compare, aten::linear first"
send_keys t
wait_for 'Communication compare: ' && capture | sed -n 7p |
    grep -q '^ *2  |  *Notify_'
ok $? "t: communication_compare, the allreduce's tasks after it"
capture | tail -1 | grep -q 'sort Order Id'
ok $? "in the tool's order"
send_keys t
wait_for 'no Overlap Analysis process' &&
    ok 0 "t: overall, an error where a run has no overlap analysis"
send_keys t
wait_for 'Operator compare: ' && capture | sed -n 6,9p | grep -q 'aten::gelu'
ok $? "t: op_compare, the top ops by name"
send_keys t
wait_for 'Memory compare: ' && ok 0 "t: memory_compare"
send_keys t
wait_for 'Op statistic compare: ' && capture | sed -n 6p |
    grep -q '^ *MatMulV2 '
ok $? "t: op_statistic_compare, MatMulV2 first"
send_keys t
wait_for 'API statistic compare: ' && ok 0 "t: api_statistic_compare"
send_keys t
wait_for 'Kernel compare: ' && ok 0 "t again: back to kernel_compare"
settle
capture | sed -n 3,20p >"$T/diff-order"
send_keys '>'
wait_for 'sort -Order Id'
send_keys '<'
wait_for 'sort -|Diff|' && settle
capture | sed -n 3,20p | cmp -s - "$T/diff-order"
ok $? "back on |Diff| after other sorts: ties in the first order again"
send_keys '>'
wait_for 'sort -Order Id' && capture | sed -n 6p | grep -q '^ *5  Gelu'
ok $? "> sorts on Order Id, largest first"
send_keys I
wait_for 'sort Order Id' && capture | sed -n 6p | grep -q '^ *1  MatMulV2'
ok $? "I inverts it"
# A click on a column's name sorts on it, as in a table: text A to Z,
# numbers largest first; a second click inverts. (X10 reports: ESC [ M,
# the button, then column and line, each plus 33.)
click() {
	send_keys -H 1b 5b 4d 20 "$(printf %x $((33 + $1)))" \
	    "$(printf %x $((33 + $2)))"
	send_keys -H 1b 5b 4d 23 "$(printf %x $((33 + $1)))" \
	    "$(printf %x $((33 + $2)))"
}
click 12 3
wait_for 'sort Kernel ' && capture | sed -n 6p | grep -q '^ *[0-9]  Add '
ok $? "a click on Kernel sorts on it, A to Z"
click 12 3
wait_for 'sort -Kernel ' && capture | sed -n 6p | grep -q '^ *1  MatMulV2 '
ok $? "a second click inverts it"
# Each cut name's … is one column of three bytes.
x=$(capture | sed -n 4p | sed 's/…/./g' |
    awk '{ print index($0, "New Calls") }')
click "$x" 3
wait_for 'sort -Comparison Calls ' &&
    capture | sed -n 6,7p | grep -c '  3  ' | grep -q 2
ok $? "a click on New Calls: a number, largest first"
# A click on the header while the next table is made: nothing to sort.
# (t and the click in one write, so that the click comes first.)
send_keys -H 74 1b 5b 4d 20 2d 24 1b 5b 4d 23 2d 24
wait_for 'API compare: ' && settle && [ ! -s "$T/rc" ]
ok $? "a click while the next table is made is ignored"
send_keys t t t t t t t
wait_for 'Kernel compare: '
send_keys q
wait_for ' Collection' && ok 0 "q: NEW's Summary"
send_keys 8
wait_for 'base 56.75 us  diff +33.25 us' &&
    ok 0 "8: a differential flame graph, NEW's time against the base's"
capture -e | grep ' Gelu ' | grep -q "$(printf '\033\\[41m')"
ok $? "a frame only NEW has is on red"
send_keys j
wait_for 'MatMulV2  total 72 us (80.00%)  base 42 us  diff +30 us' &&
    ok 0 "the selected frame: its base time and the difference"
send_keys 9
wait_for 'runs lined up at step 1' &&
    ok 0 "9: both runs' timelines, lined up at their first step"
capture | grep -q '^.new: Rank 0 HCCL'
ok $? "NEW's lanes first"
send_keys G
wait_for 'lane 16 of 16' && capture | grep -q '^.base: Rank 0 Device 0 (2)'
ok $? "then the base's, below them"
send_keys .
wait_for 'base: Rank 0 Device 0  Name: ' &&
    ok 0 "a span of the base selected, named for its run"
# Cast_4 runs only in the base: its details come from the base's store.
i=0
while [ $i -lt 8 ] && ! capture | grep -q 'Name: Cast_4  Type: AI_VECTOR'; do
	send_keys .
	sleep 0.3
	i=$((i + 1))
done
capture | tail -3 | tr '\n' ' ' |
    grep -q 'Name: Cast_4  Type: AI_VECTOR_CORE.*Duration(us): 2.000'
ok $? ". steps along the base's lane to Cast_4, which only the base has"
send_keys 1
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# A screen too narrow for the table: no number is cut (a cut number reads
# as another), and Right and Left scroll the table sideways, its naming
# columns (Order Id, Kernel) staying; headers say New for Comparison.
start_app 60 24 -- --compare "$B" "$N"
wait_for 'Kernel compare: ' && settle
capture | sed -n '4,$p' | grep -q '[0-9.]…'
ok $((! $?)) "60 columns: no number cut"
capture | sed -n 4p >"$T/head0"
send_keys Right
settle
capture | sed -n 4p | cmp -s - "$T/head0"
ok $((! $?)) "Right scrolls the table"
capture | sed -n 4p | grep -q '^ Order Id  Kernel '
ok $? "the columns that name a row stay"
capture | sed -n 6p | grep -q '^ *1  MatMulV2 '
ok $? "and so does each row's name"
send_keys Right Right Right
settle
capture | sed -n 4p >"$T/h4"
grep -q 'New ' "$T/h4" && ! grep -q Compari "$T/h4"
ok $? "the comparison run's columns say New, not Compari…"
send_keys Left Left Left
settle
# A resize lays the table out again: from 60 columns to 40, the first
# column alone stays; back to 60, the naming ones.
tmux_ resize-window -x 40 -y 24
settle
send_keys Right
settle
capture | sed -n 4p | grep -q '^ Order Id  [^K]'
ok $? "40 columns: Order Id stays, the rest scrolls"
tmux_ resize-window -x 60 -y 24
settle
send_keys Right
settle
capture | sed -n 4p | grep -q '^ Order Id  Kernel '
ok $? "back to 60: Order Id and Kernel stay"
send_keys Left
settle
capture | sed -n 4p | cmp -s - "$T/head0"
ok $? "Left scrolls it back"
# Scrolled sideways, a click finds the column under it, frozen or not.
send_keys Right
settle
x=$(capture | sed -n 4p | sed 's/…/./g' | awk '{ print index($0, "Base Ma") }')
click "$x" 3
wait_for 'sort -Base Max' && ok 0 "scrolled: a click on Base Ma… sorts on it"
# The new order keeps the sideways scroll: the same spot is the same
# column, and a second click inverts it.
click "$x" 3
wait_for 'sort Base Max' && ok 0 "a second click there inverts it"
click 12 3
wait_for 'sort Kernel ' && ok 0 "and on Kernel, which stays"
send_keys Q
wait_exit

"$PY" "$top_srcdir/tests/compare/gen-overall.py" "$T/o" || exit 1
start_app 160 40 -- --compare "$T/o/base_ascend_pt" "$T/o/new_ascend_pt"
wait_for 'Kernel compare: '
send_keys t t t
wait_for 'Overall: ' && capture | sed -n 6p | grep -q '^ *Computing Time '
ok $? "overall: computing time first, in the tool's order"
capture | tail -1 | grep -q "sort as the tool's"
ok $? "overall: the status line says so"
capture | grep -q '^     *Conv (Forward) (Cube) '
ok $? "overall: a part indented under its whole"
capture -e | grep 'Conv (Forward) (Cube)' | grep -q "$(printf '\033\\[31m')"
ok $? "overall: the slower conv forward is red"
send_keys '>'
wait_for 'sort -|Diff|' && capture | sed -n 6,7p | cut -c1-30 | tr -s ' ' |
    tr '\n' '|' | grep -q '^ E2E Time | Uncovered Communication Time |$'
ok $? "overall: > sorts by |Diff|: E2E time, uncovered communication"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
