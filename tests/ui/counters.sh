#!/bin/sh
# Counter sparklines and an mstx lane in the timeline, on a trace written
# here: a series that ramps up, a one-sample spike that must show at the
# whole-trace zoom and is marked as the peak (p goes there), a series that
# never leaves zero, and the footer of a counter lane; then the same in
# ASCII.
. "$top_srcdir/tests/ui/lib.sh"

DATA="$T/t.json"
{
	echo '['
	echo '{"ph": "M", "name": "process_name", "pid": 3170820704, "tid": 0, "args": {"name": "NPU MEM"}},'
	echo '{"ph": "X", "name": "AscendCL@aclnnAdd", "pid": 7, "tid": 70, "ts": "1000.000", "dur": 9000},'
	i=0
	while [ $i -lt 40 ]; do
		# A ramp of 40 samples, 250 us apart; sample 25 is a spike
		# 10 ns long (the next sample follows it at once).
		v=$((i * 100))
		printf '{"ph": "C", "name": "APP/HBM", "pid": 3170820704, "tid": 0, "ts": "%d.000", "args": {"KB": %d}},\n' \
		    $((1000 + i * 250)) $v
		if [ $i -eq 25 ]; then
			printf '{"ph": "C", "name": "APP/HBM", "pid": 3170820704, "tid": 0, "ts": "%d.010", "args": {"KB": 9000}},\n' \
			    $((1000 + i * 250))
			printf '{"ph": "C", "name": "APP/HBM", "pid": 3170820704, "tid": 0, "ts": "%d.020", "args": {"KB": %d}},\n' \
			    $((1000 + i * 250)) $v
		fi
		printf '{"ph": "C", "name": "APP/DDR", "pid": 3170820704, "tid": 0, "ts": "%d.000", "args": {"KB": 0}},\n' \
		    $((1000 + i * 250))
		i=$((i + 1))
	done
	echo '{"ph": "C", "name": "APP/DDR", "pid": 3170820704, "tid": 0, "ts": "11000.000", "args": {"KB": 0}}'
	echo ']'
} >"$DATA"
DB="$T/s.db"
"$NPUPROF" import -q --timeline --db "$DB" "$DATA" >/dev/null ||
    skip_all "cannot import the trace"

start_app 80 12 -- --db "$DB" "$DATA"
wait_for 'Summary' && send_keys 9
wait_for 'Timeline  lane 1 of 3' && send_keys G
wait_for 'Counter: APP/DDR' && send_keys k
wait_for 'Counter: APP/HBM' && expect_screen timeline-counters \
    "sparklines: a ramp with its spike, a flat zero, the footer"
expect_attrs timeline-counters "the peak is marked in its own colour"
capture | grep -q 'Max: 9000 at +6.25ms (p)'
ok $? "the footer says when the peak came"
send_keys p
wait_for 'Value: 9000' && ok 0 "p takes the cursor to the peak"
send_keys t
wait_for 'Go to time' && type_text "6250015ns" && send_keys Enter
wait_for 'Value: 9000' && send_keys W W W W W W W W
wait_for 'frame 35.2us' && expect_screen timeline-counters-zoom \
    "zoomed in at the spike: the value at the cursor"
send_keys Q

start_app 80 12 TERM=vt100 LC_ALL=C -- --db "$DB" "$DATA"
wait_for 'Summary' && send_keys 9
wait_for 'Timeline  lane 1 of 3' && expect_screen timeline-counters-ascii \
    "ASCII: the density glyphs"
done_testing
