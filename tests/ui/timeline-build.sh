#!/bin/sh
# The timeline is built the first time a store shows one, in the
# background: the UI opens on the statistics at once, the Timeline view
# says it is building while other views and keys work, t says so instead
# of jumping, and the lanes come when it is done; the next start has them
# at once. Quitting during the build cancels it and leaves no file.
. "$top_srcdir/tests/ui/lib.sh"

DATA="$T/d"
DB="$T/s.db"
"$GEN" demo "$DATA" -n 300000 -S 8 >/dev/null || skip_all "no data"
"$NPUPROF" import -q --db "$DB" "$DATA" >/dev/null || skip_all "no store"
[ ! -e "$DB-timeline" ]
ok $? "the import built no timeline"

# Quit while it is being built: the build stops, nothing is left.
start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys Q
wait_exit
is "$rc" 0 "Q during the build quits at once"
! ls "$DB"-timeline* >/dev/null 2>&1
ok $? "and leaves no timeline file, whole or half built"

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 9
screen_poll 0 'Building the timeline' >/dev/null
building=$?
if [ $building -eq 0 ]; then
	ok 0 "the Timeline view says the timeline is being built"
	send_keys 4
	wait_for 'Kernels  row 1 of' &&
	    ok 0 "another view works meanwhile"
	send_keys t
	if screen_poll 0 'the timeline is being built' >/dev/null; then
		ok 0 "t says the timeline is being built"
	elif capture | grep -q 'Timeline  lane'; then
		ok 0 "t: # SKIP the build ended before t"
	else
		ok 1 "t says the timeline is being built"
		capture | sed 's/^/#   /'
	fi
	send_keys 9
else
	echo "ok $((tap_n + 1)) # SKIP the build ended before the view opened"
	echo "ok $((tap_n + 2)) # SKIP the build ended before the view opened"
	echo "ok $((tap_n + 3)) # SKIP the build ended before the view opened"
	tap_n=$((tap_n + 3))
fi
wait_for 'Timeline  lane 1 of' &&
    capture | grep -q 'Stream' &&
    ok 0 "the lanes appear when the build is done"
[ -f "$DB-timeline" ]
ok $? "the timeline is kept beside the store"
send_keys Q
wait_exit

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 9
wait_for 'Timeline  lane 1 of' &&
    ! capture | grep -q 'Building' &&
    ok 0 "the next start shows the kept timeline at once"
send_keys Q
wait_exit
done_testing
