#!/bin/sh
# The timeline's ranks lined up at a step (L): on a store of four ranks
# whose steps start at different times, L 4 shifts each rank's lanes so
# that its step 4 starts in the first column of the frame (where, back in
# their own time, the later ranks start a cell or more to the right); the
# status line says so; a range's statistics are refused while lined up;
# an empty answer puts the ranks back; a step no rank has, and a store of
# one rank, are errors.
. "$top_srcdir/tests/ui/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 4 \
    --seed 6 --tasks 40 >/dev/null || skip_all "cannot generate"
"$NPUPROF" import -q --timeline --db "$T/c.db" "$T/c" || skip_all "cannot import"

first() {	# first RANK: the first cell of the rank's Stream 40 row
	capture | grep -A1 "Rank $1 Device $1 (2)" | tail -1 | cut -c18
}

start_app 130 30 -- --db "$T/c.db" "$T/c"
wait_for ' 9 Timeline ' && send_keys 9
wait_for 'Rank 3 Device 3' && send_keys L
wait_for 'Line the ranks up at step' && type_text 4 && send_keys Enter
wait_for 'ranks lined up at step 4' && ok 0 "L 4: the ranks lined up"
capture | tail -1 | grep -q 'at step 4'
ok $? "the status line says at which step"
n=0
for r in 0 1 2 3; do
	[ "$(first $r)" != " " ] && n=$((n + 1))
done
is "$n" 4 "every rank's step 4 starts in the first column"
send_keys a
wait_for 'lined up at a step' && ok 0 "a is refused while lined up"
send_keys L
wait_for 'Line the ranks up at step' && send_keys C-u Enter
wait_for 'ranks in their own time again' && ok 0 "an empty answer: own time"
n=0
for r in 1 2 3; do
	[ "$(first $r)" = " " ] && n=$((n + 1))
done
ok $((n == 0)) "and the later ranks start to the right again ($n)"
send_keys L
wait_for 'Line the ranks up at step' && send_keys C-u && type_text 9 &&
    send_keys Enter
wait_for 'no rank here has a step 9' && ok 0 "a step no rank has: an error"
send_keys Q
wait_exit

"$NPUPROF" import -q --timeline --db "$T/one.db" "$T/c/node_0_17_ascend_pt" || exit 1
start_app 130 30 -- --db "$T/one.db" "$T/c/node_0_17_ascend_pt"
wait_for ' 9 Timeline ' && send_keys 9
wait_for 'Rank 0 Device 0' && send_keys L
wait_for 'one rank here' && ok 0 "one rank: nothing to line up"
capture | grep -q 'Line the ranks up at step'
ok $((! $?)) "said at once, without asking for a step first"
send_keys Q
wait_exit
done_testing
