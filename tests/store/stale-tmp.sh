#!/bin/sh
# An import killed with SIGKILL leaves its temporary store; the next
# import into the same place removes it, but never one a live import
# still writes (it holds a lock on its own), nor one made in the last
# minute (its import may not have locked it yet).
. "$top_srcdir/tests/lib.sh"
command -v flock >/dev/null || skip_all "no flock(1)"

"$GEN" demo "$T/d" -n 200 >/dev/null || exit 1
old=$(($(date +%s) - 600))
: >"$T/s.db.tmp-dead01"
: >"$T/.h.db.tmp-dead02"
: >"$T/s.db.tmp-young1"
: >"$T/s.db.tmp-live01"
touch -d "@$old" "$T/s.db.tmp-dead01" "$T/.h.db.tmp-dead02" \
    "$T/s.db.tmp-live01"
flock "$T/s.db.tmp-live01" sleep 60 &
holder=$!
i=0
# Wait until flock(1) holds the lock.
while flock -n "$T/s.db.tmp-live01" true 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
"$NPUPROF" import -q --db "$T/s.db" "$T/d" >/dev/null
ok $? "import"
[ ! -e "$T/s.db.tmp-dead01" ]
ok $? "a dead import's temporary store is removed"
[ -e "$T/s.db.tmp-live01" ]
ok $? "a live import's is left alone"
[ -e "$T/s.db.tmp-young1" ]
ok $? "and so is one made in the last minute"
"$NPUPROF" import -q --db "$T/.h.db" "$T/d" >/dev/null
[ ! -e "$T/.h.db.tmp-dead02" ]
ok $? "a hidden store's dead temporary store is removed too"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# A real one: kill -9 an import while it writes.
"$GEN" demo "$T/big" -n 300000 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/b.db" "$T/big" >/dev/null 2>&1 &
pid=$!
i=0
while ! ls "$T"/b.db.tmp-* >/dev/null 2>&1 && [ $i -lt 400 ]; do
	sleep 0.025
	i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if ls "$T"/b.db.tmp-* >/dev/null 2>&1; then
	ok 0 "kill -9 leaves a temporary store"
	touch -d "@$old" "$T"/b.db.tmp-*
	"$NPUPROF" import -q --db "$T/b.db" "$T/big" >/dev/null
	ok $? "the next import runs"
	! ls "$T"/b.db.tmp-* >/dev/null 2>&1
	ok $? "and removes it"
	[ "$(q "$T/b.db" 'select count(*) from task')" -gt 0 ]
	ok $? "the new store is whole"
else
	echo "ok $((tap_n + 1)) # SKIP the import ended before it could be killed"
	tap_n=$((tap_n + 1))
fi
done_testing
