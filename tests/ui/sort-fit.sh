#!/bin/sh
# Sorting on the last column of a table that fits the screen scrolls
# nothing: the sort mark takes the column's last character, and no gap
# after it is needed. Op statistic of two devices at just its width: the
# Device_id column that tells the two FlashAttentionScore rows apart
# stays on screen, and no "col +" says it was scrolled.
. "$top_srcdir/tests/ui/lib.sh"
"$GEN" prof "$T/p" -n 5000 -S 3 -T 2 -d 2 -t 4 -u 20 >/dev/null ||
    skip_all "cannot generate data"
DB=$T/p.db
"$NPUPROF" import -q --db "$DB" "$T/p" || exit 1
# The table's width sorted on Ratio(%), the mark included, at a wide
# screen; then the screen just as wide.
start_app 200 30 -- --db "$DB" "$T/p"
wait_for 'Top op types' && send_keys 2
wait_for 'Op statistic  row 1 of'
send_keys '>' '>' '>' '>' '>' '>' '>' '>' '>'
wait_for 'sort -Ratio'
w=$(capture | sed -n 2p | LC_ALL=C sed 's/ *$//; s/\xe2\x96[\xb2\xbc]/v/' |
    awk '{ print length($0) }')
tmux_ resize-window -x "$w" -y 30
settle
send_keys '<' '>'
wait_for 'sort -Ratio'
capture | sed -n 2p | grep -q '^Device_id '
ok $? "sorted on Ratio(%) at ${w} columns: Device_id still first"
capture | tail -n 1 | grep -q 'col +'
ok $((! $?)) "and nothing scrolled"
# Narrower: Ratio(%) needs the table scrolled; back with < to OP Type,
# which fits unscrolled, the table is not scrolled any more.
tmux_ resize-window -x $((w - 12)) -y 30
settle
send_keys '<' '>'
wait_for 'col +'
send_keys '<' '<' '<' '<' '<' '<' '<'
wait_for 'sort OP Type'
capture | sed -n 2p | grep -q '^Device_id '
ok $? "sorted back on OP Type: Device_id first again"
send_keys Q
wait_exit
done_testing
