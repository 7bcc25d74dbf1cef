#!/bin/sh
# The timeline view on a small generated profile: the whole trace, zoomed
# in around the cursor (filled bars, names inside spans), the next span with its
# details in the footer, zoom to a span, undo, go to a time, mark and
# return.
. "$top_srcdir/tests/ui/lib.sh"
make_data

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 9
wait_for 'Timeline  lane 1 of 8  frame 16.41ms' &&
    expect_screen timeline-fit \
    "9 shows the steps and every stream of both ranks"
# Each group under a header naming it: k from the first lane is on it.
capture | sed -n 3p | grep -q '^▾Rank 0 Device 0 (4)$' && send_keys k
wait_for 'Timeline  group of 4' &&
    capture | grep -q 'a group of lanes: c collapses it into one row'
ok $? "a header row names each group and counts its lanes"
send_keys c
wait_for 'lane 1 of 5' && capture | sed -n 3p | grep -q '^▸Rank 0 Device'
ok $? "c on a header collapses its group"
send_keys c
wait_for 'lane 1 of 8' && ok 0 "c again expands it, on its first lane"
# The first lane is rank 0's steps; the streams follow.
send_keys j . W W W W W
wait_for 'frame 513us' && expect_screen timeline-zoom \
    "zoomed in around the next span: names inside spans, its details"
expect_attrs timeline-zoom \
    "spans are filled bars in their colour, the selected one outlined"
capture -e | grep -q "$(printf '\033')\[7m[^ ]*aclnn" &&
capture -e | grep -q '\[[^]]*aclnn[^]]*\]'
ok $? "a span's name is drawn on its bar, the selected span in brackets"
send_keys j j .
wait_for 'lane 4 of 8' && wait_for 'Stream: 42' &&
    ok 0 "j moves down a lane, . finds the next span there"
send_keys z
wait_for 'frame 210us' && expect_screen timeline-span "z zooms to the span"
send_keys u
wait_for 'frame 513us' && ok 0 "u undoes the zoom"
send_keys m 0
wait_for 'frame 16.41ms' && ok 0 "0 fits the whole trace"
send_keys "'"
wait_for 'frame 16.41ms' && ok 0 "' returns to the mark"
send_keys t
wait_for 'Go to time' && type_text "+2ms" && send_keys Enter
wait_for '@2.' && ok 0 "t moves the cursor by a relative time"
# Pans move the cursor with the frame, a quarter of it: on its column
# (it jumped three quarters, the frame re-centred on it first).
send_keys 0
wait_for 'frame 16.41ms' && send_keys W W
wait_for 'frame 4.102ms' && settle
at=$(capture | sed -n 2p | awk '{ print $1 }')
col=$(capture | sed -n 2p | awk '{ print $2 }')
send_keys D
settle
capture | sed -n 2p | awk -v c="$col" '{ exit !($2 != c) }'
ok $? "D moves the frame"
send_keys A
settle
is "$(capture | sed -n 2p | awk '{ print $1 " " $2 }')" "$at $col" \
    "A: the frame and the cursor back where they were, $at"
done_testing
