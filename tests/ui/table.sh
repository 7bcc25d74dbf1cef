#!/bin/sh
# A table view's keys: moving, paging, horizontal scrolling, sorting,
# filtering (also on one column and with a bad regex), searching and saving.
. "$top_srcdir/tests/ui/lib.sh"
make_data

start_app 100 20 -- --db "$DB" "$DATA"
wait_for 'Top op types'
send_keys 4
wait_for 'Kernels  row 1 of 600'
send_keys j j j
wait_for 'row 4 of 600' && ok 0 "j moves down"
send_keys k
wait_for 'row 3 of 600' && ok 0 "k moves up"
send_keys PgDn
wait_for 'row 20 of 600' && ok 0 "PgDn moves a page"
send_keys G
wait_for 'row 600 of 600' && expect_screen kernels-end "G goes to the end"
send_keys g
wait_for 'row 1 of 600' && ok 0 "g goes to the top"
send_keys l l l
wait_for 'col +' && expect_screen kernels-right "l scrolls the columns"
send_keys h h h
# The last columns are PMU ones: they sort by their values too.
send_keys '<'
wait_for 'sort -aic_total_cycles' && ! capture | grep -q 'unknown sort'
ok $? "< from no sort picks the last column, a PMU column, largest first"
want=$("$NPUPROF" show -q --db "$DB" --format csv --sort -aic_total_cycles \
    --limit 1 "$DATA" op_summary | awk -F, 'NR == 2 { print $NF }')
settle
capture | sed -n 2p | grep -q 'aic_total_cycles' &&
    capture | sed -n 3p | grep -q " $want *$"
ok $? "scrolled into view, its first row the one show puts first ($want)"
send_keys '<'
wait_for 'sort -aicore_time' && ok 0 "< again: the PMU column before it"
send_keys '>' '>'
wait_gone 'sort -aic' && ok 0 "> twice: back to the table's own order"

send_keys 2
wait_for 'Op statistic  row 1 of 22'
send_keys '>' '>' '>' '>' '>' '>'
wait_for 'sort -Total Time' && expect_screen sort-total \
    "> picks the column, numbers sort largest first"
send_keys I
wait_for 'sort Total Time' && expect_screen sort-total-asc \
    "I inverts the order"
send_keys '<'
wait_for 'sort -Count' && ok 0 "< picks the previous column"

send_keys '\'
wait_for 'filter (regex or col:regex):' && type_text 'Conv|MatMul'
send_keys Enter
wait_for 'filter Conv|MatMul' && expect_screen filter-any \
    "a filter keeps the rows with a matching cell"
send_keys F4 C-u
type_text 'core:^AI_VECTOR'
send_keys Enter
wait_for 'filter core:^AI_VECTOR' && expect_screen filter-col \
    "col:regex filters one column, named by a prefix"
send_keys '\' C-u
type_text 'Conv('
send_keys Enter
# The message is too long for the status line after the view's status:
# it goes whole on the line above, and the next key draws the view again.
wait_for 'bad regular expression' && expect_screen filter-bad \
    "a bad regex is reported whole and the old filter stays"
send_keys k
wait_gone 'bad regular expression' &&
    capture | tail -n 2 | head -n 1 | grep -q '^ *$'
ok $? "the next key draws the view over the message again"
send_keys '\'
wait_for 'filter (regex or col:regex): Conv(' &&
    ok 0 "the refused filter is offered again, to correct"
send_keys C-u Enter
wait_for 'row 1 of 22' && ok 0 "an empty filter shows every row"
# A message longer than the screen is wrapped above the status line, not
# cut at its edge.
send_keys '\' C-u
type_text 'Type:x'
send_keys Enter
wait_for "ambiguous filter column 'Type'" &&
    capture | tail -n 3 | tr '\n' ' ' | tr -s ' ' |
    grep -q 'give more of its name, or \\: for a colon of the regex'
ok $? "a long message wraps whole onto the lines above"
send_keys k
wait_gone 'ambiguous filter column'

send_keys 4 /
wait_for 'search:' && type_text 'LayerNorm'
send_keys Enter
wait_for 'Kernels  row 8 of 600' && expect_screen search \
    "/ finds the next row with a matching cell"
expect_attrs search-match "every matching cell on the screen stands out"
capture -e | grep 'aclnn_LayerNorm' | grep -q "$(printf '\033')\[[0-9;]*m[^ ]*LayerNorm"
ok $? "a matching cell is drawn in its own attributes"
# As many matches as rows show keeps with the same regex as a filter.
nhit=$("$NPUPROF" show --format csv --filter LayerNorm --db "$DB" "$DATA" \
    kernels | sed 1d | wc -l)
wait_for "row 8 of 600  match 1/$nhit " &&
    ok 0 "the status line counts the matches: match 1/$nhit"
send_keys n
wait_for 'Kernels  row 11 of 600' && ok 0 "n finds the next one"
wait_for "match 2/$nhit " && send_keys j
wait_for "row 12 of 600  match -/$nhit " &&
    ok 0 "match 2 after n, - on a row that does not match"
send_keys k N
wait_for 'Kernels  row 8 of 600' && ok 0 "N finds the previous one"
# Past the first match, or the last, the search goes on from the other
# end, as less and vi do, and says so.
send_keys N
wait_for 'wrapped to the end' && ok 0 "N on the first match wraps to the end"
wait_for "match $nhit/$nhit " && ok 0 "to the last match, $nhit/$nhit"
send_keys n
wait_for 'wrapped to the start' && wait_for 'Kernels  row 8 of 600' &&
    ok 0 "n on the last match wraps to the first"
# / offers the last search, as less does: Enter takes it.
send_keys /
wait_for 'search: LayerNorm' && ok 0 "/ offers the last search"
send_keys Enter
wait_for 'Kernels  row 11 of 600' && ok 0 "Enter goes to its next match"
send_keys N
wait_for 'Kernels  row 8 of 600'
send_keys C-r
wait_for 'search backward:' && type_text 'Conv2D_0'
send_keys Enter
wait_for 'Kernels  row 1 of 600' && ok 0 "C-r searches backward"
send_keys /
type_text 'no such kernel'
send_keys Enter
wait_for 'not found: no such kernel' && ok 0 "a failed search says so"
# A regex PCRE2 gives up on (it backtracks without end) is not "not
# found": the rows it gave up on may match.
send_keys /
type_text '(?=(.*)*z)'
send_keys Enter
wait_for 'gave up on' && ok 0 "a search PCRE2 gives up on says so"
# Its matches are not counted (the count would be wrong), and counting
# them does not hold the keys up: each cell would cost PCRE2's whole
# match limit.
send_keys j
wait_for 'Kernels  row 2 of 600' && ! capture | tail -n 1 | grep -q 'match '
ok $? "no match count for it, and the next key answers"
send_keys k
wait_for 'Kernels  row 1 of 600'
# Incremental: the cells light up while the search is typed (Kernels row
# 2 is aclnn_Relu_1), and go dark again when it is cancelled.
send_keys /
wait_for 'search:' && type_text 'Relu'
wait_for 'search: Relu' && settle &&
    capture -e | grep 'aclnn_Relu_1' |
    grep -q "$(printf '\033')\[[0-9;]*m[^ ]*Relu"
ok $? "typing a search highlights its matches at once"
send_keys Escape
wait_gone 'search: Relu' && settle &&
    ! capture -e | grep 'aclnn_Relu_1' |
    grep -q "$(printf '\033')\[[0-9;]*m[^ ]*Relu"
ok $? "Esc drops them"

send_keys 2 '\'
type_text 'Conv|MatMul'
send_keys Enter
wait_for 'filter Conv|MatMul'
send_keys P
wait_for 'save as (.csv or .tsv): op_statistic.csv' && send_keys C-u
type_text "$T/saved.tsv"
send_keys Enter
wait_for 'saved 6 rows to' && ok 0 "P saves the view"
"$NPUPROF" show --db "$DB" --format tsv --sort -Count \
    --filter 'Conv|MatMul' "$DATA" op_statistic >"$T/want.tsv"
same_file "$T/saved.tsv" "$T/want.tsv" \
    "the saved file is the view, sorted and filtered, as TSV"
# A file that is there (a vendor CSV of the same name, say) is asked
# about; anything but y keeps it.
echo vendor >"$T/kept.csv"
send_keys P
wait_for "save as (.csv or .tsv): $T/saved.tsv" &&
    ok 0 "P offers the name given last" && send_keys C-u
type_text "$T/kept.csv"
send_keys Enter
wait_for "kept.csv' is there: overwrite it? (y/N)"
ok $? "P on a file that is there asks first"
send_keys Enter
wait_for "not saved: '$T/kept.csv'"
is "$(cat "$T/kept.csv")" vendor "Enter keeps the file"
send_keys P
wait_for 'save as (.csv or .tsv):' && send_keys C-u
type_text "$T/kept.csv"
send_keys Enter
wait_for "overwrite it? (y/N)" && type_text y
send_keys Enter
wait_for 'saved 6 rows to' && ok 0 "y overwrites it"
head -n 1 "$T/kept.csv" | grep -q ',OP Type,Core Type,'
ok $? "with the view"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
