#!/bin/sh
# A filter typed on a table already sorted in memory walks that order
# (src/store/store-scan-walk.c) instead of reading and sorting the table
# again: 40,000 kernels (two halves for the bitmap readers), sorted on
# Op Name, then filtered on a name, a column, a number, and with the sort
# inverted; on the table's own order and the sorts an index gives (the
# duration, the start time), the filter walks the index. Each view must
# count the rows show prints for the same sort and filter and show the
# same first and last rows, in the same order; clearing the filter gives
# the sorted table back whole.
. "$top_srcdir/tests/ui/lib.sh"

DATA="$T/d"
DB="$T/s.db"
"$GEN" demo "$DATA" -n 40000 >/dev/null || skip_all "cannot generate data"
"$NPUPROF" import -q --db "$DB" "$DATA" >/dev/null ||
    skip_all "cannot import data"

# done_rows: wait until the background work is over.
done_rows() {
	wait_gone 'sorting' && wait_gone 'filtering' && settle
}

# filter REGEX: set the filter (empty: clear it) and wait for its rows.
filter() {
	send_keys '\' C-u
	[ -n "$1" ] && type_text "$1"
	send_keys Enter
	[ -n "$1" ] && wait_for "filter $1"
	done_rows
}

# rows: the task id, stream, op name and duration of the rows on screen.
rows() {
	capture | sed '1,2d;$d' | awk 'NF { print $3, $4, $5, $10 }'
}

# check NAME SORT REGEX DESCRIPTION: the view's count, first and last
# screens are those of show with the same sort and filter.
check() {
	if [ -n "$2" ] && [ -n "$3" ]; then
		"$NPUPROF" show --db "$DB" --format tsv --sort "$2" \
		    --filter "$3" "$DATA" kernels >"$T/$1.tsv"
	elif [ -n "$2" ]; then
		"$NPUPROF" show --db "$DB" --format tsv --sort "$2" \
		    "$DATA" kernels >"$T/$1.tsv"
	else
		"$NPUPROF" show --db "$DB" --format tsv --filter "$3" \
		    "$DATA" kernels >"$T/$1.tsv"
	fi
	n=$(($(wc -l <"$T/$1.tsv") - 1))
	sed 1d "$T/$1.tsv" | awk -F '\t' '{ print $4, $5, $6, $11 }' \
	    >"$T/$1.all"
	wait_for "row 1 of $n "
	rows >"$T/$1.top"
	head -n 17 "$T/$1.all" >"$T/$1.want"
	same_file "$T/$1.top" "$T/$1.want" "$4: the first rows"
	send_keys G
	wait_for "row $n of $n " && settle
	rows >"$T/$1.end"
	tail -n 17 "$T/$1.all" >"$T/$1.want"
	same_file "$T/$1.end" "$T/$1.want" "$4: the last rows"
	send_keys g
	wait_for "row 1 of $n "
}

start_app 160 20 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of 40000'
# The table's own order comes from an index, read as the filter goes.
filter 'Conv2D'
check plain '' 'Conv2D' "a filter on the table in time order"
filter ''
send_keys '>' '>' '>' '>' '>' '>'
wait_for 'sort Op Name'
done_rows
check sorted 'Op Name' '' "sorted on Op Name"

filter 'Conv2D'
check name 'Op Name' 'Conv2D' "a name filter on the sorted table"
filter ''
wait_for 'row 1 of 40000  sort Op Name'
check clear 'Op Name' '' "the filter cleared: the sorted table whole"
filter 'OP Type:^Relu$'
check col 'Op Name' 'OP Type:^Relu$' "a column filter on the sorted table"
filter '^1\.2'
check num 'Op Name' '^1\.2' "a filter on numbers (durations, times)"
filter 'no such kernel'
wait_for 'row 0 of 0' && ok 0 "a filter nothing matches: no rows"

filter ''
send_keys I
wait_for 'sort -Op Name'
done_rows
filter 'Add|Mul'
check desc '-Op Name' 'Add|Mul' "the inverted sort, filtered"

# Sorts an index gives: the duration, then the start time, largest first.
filter ''
send_keys D
wait_for 'sort -Task Duration(us)'
done_rows
filter 'OP Type:^(Relu|Add)$'
check dur '-Task Duration(us)' 'OP Type:^(Relu|Add)$' \
    "a filter on the table sorted on the duration"
send_keys '<'
wait_for 'sort -Task Start Time(us)'
done_rows
check start '-Task Start Time(us)' 'OP Type:^(Relu|Add)$' \
    "and sorted on the start time"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
