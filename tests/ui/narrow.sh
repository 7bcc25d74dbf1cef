#!/bin/sh
# At 40 columns the tab bar still names the active tab (the others show
# their numbers), and the timeline's ruler shows whole labels in one unit,
# none cut at the right edge; wide, the ticks keep apart when zoomed in.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# Every tick label of the axis line (line 2) ends in a unit.
ruler_whole() {
	capture | sed -n 2p | tr -s ' ' '\n' | grep '^|' |
	    grep -qv '^|[0-9.]*\(ns\|us\|ms\|s\)$' && return 1
	return 0
}

# timeline COLS LINES: the demo's timeline at that size.
timeline() {
	start_app "$1" "$2" -- --db "$DB" "$DATA"
	wait_for 'Top op types' && send_keys 9
	wait_for 'Timeline  lane'
}

timeline 40 16
capture | sed -n 1p | grep -q ' 1 2 3 4 5 8 9 Timeline'
ok $? "40 columns: the active tab is named, the others numbered"
ruler_whole
ok $? "40 columns: no ruler label is cut"
send_keys Q
wait_exit

timeline 140 20
capture | sed -n 1p | grep -q '8 Flame  9 Timeline'
ok $? "140 columns: every tab named"
ruler_whole
ok $? "140 columns: whole labels"
send_keys + + + + + + + +
wait_for 'frame ' && settle
labels=$(capture | sed -n 2p | tr -s ' ' '\n' | grep '^|')
[ "$(printf '%s\n' "$labels" | sort -u | wc -l)" -eq \
    "$(printf '%s\n' "$labels" | wc -l)" ] && ruler_whole
ok $? "zoomed in: the tick labels differ from each other ($(echo $labels))"
done_testing
