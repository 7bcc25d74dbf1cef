#!/bin/sh
# The UI opens on a store's statistics before its indexes are built and
# builds them in the background once that screen is drawn, before the
# timeline: the index of the task tables' default order first, which
# their pages wait for; the views work meanwhile with the same rows, and
# quitting during the build leaves the store whole for the next command,
# which builds them.
. "$top_srcdir/tests/ui/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

DATA="$T/d"
DB="$T/s.db"
"$GEN" demo "$DATA" -n 300000 -S 8 >/dev/null || skip_all "no data"
built() {
	q "$DB" "SELECT value FROM meta WHERE key = 'indexes'"
}
# wait_built: poll until the store has its indexes, 60 s at most (a slow
# machine, a sanitizer build); each poll is a read that the build's switch
# to write-ahead must wait out, so not too often.
wait_built() {
	i=0
	while [ "$(built)" != built ] && [ $i -lt 300 ]; do
		sleep 0.2
		i=$((i + 1))
	done
}
# The five longest kernels, as show prints them from a store with indexes.
"$NPUPROF" import -q --db "$T/ref.db" "$DATA" >/dev/null ||
    skip_all "no store"
"$NPUPROF" show -q --db "$T/ref.db" --format csv --sort -Duration \
    --limit 5 "$DATA" kernels | cut -d, -f6,11 | tail -n 5 >"$T/want"

# Quit at once: the store is whole, with or without its indexes.
start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types'
state=$(built)
send_keys Q
wait_exit
is "$rc" 0 "Q quits while the indexes may still be built"
if [ "$state" != built ]; then
	ok 0 "the UI opened before the indexes were built"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP the indexes were built before the first screen"
fi
is "$(q "$DB" "PRAGMA integrity_check")" ok "the store is sound"
"$NPUPROF" show -q --db "$DB" --format csv --sort -Duration --limit 5 \
    "$DATA" kernels | cut -d, -f6,11 | tail -n 5 >"$T/got"
same_file "$T/got" "$T/want" "show reads the same five longest kernels"
is "$(built)" built "and the store has its indexes after it"

# Without them again: the UI builds them while its views work. The
# kernels opened at once, in their default order, wait for its index only
# and show the first kernels as show does.
first=$("$NPUPROF" show -q --db "$T/ref.db" --format csv --limit 1 "$DATA" \
    kernels | cut -d, -f6 | tail -n 1)
q "$DB" "DROP INDEX task_start; DROP INDEX task_dur; DROP INDEX task_op;
    DROP INDEX api_start; DELETE FROM meta WHERE key = 'indexes'"
rm -f "$DB-timeline"
start_app 160 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 4
wait_for 'Kernels  row 1 of'
ok $? "the kernels open meanwhile"
wait_for "$first"
ok $? "their first row is the first kernel ($first)"
wait_built
is "$(built)" built "the UI builds the indexes in the background"
is "$(q "$DB" "SELECT count(*) FROM sqlite_master WHERE name IN
    ('task_dur', 'task_op', 'api_start')")" 3 "all of them"
send_keys 9
wait_for 'Timeline  lane 1 of'
ok $? "then the timeline"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
# Built while the UI read the store, they were written ahead (WAL); the
# file is back to a rollback journal once the UI is gone.
[ ! -e "$DB-wal" ] && [ ! -e "$DB-shm" ]
ok $? "no write-ahead log is left"
is "$(q "$DB" "PRAGMA journal_mode")" delete "the store's journal mode again"

# The timeline is there but not the indexes (their build found the store
# busy, or was stopped): the next session builds them alone.
q "$DB" "DROP INDEX task_start; DROP INDEX task_dur;
    DELETE FROM meta WHERE key = 'indexes'"
[ -s "$DB-timeline" ]
ok $? "the timeline's file is kept"
start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types'
wait_built
is "$(built)" built "the indexes are built beside a timeline already there"
send_keys Q
wait_exit
is "$(q "$DB" "SELECT count(*) FROM sqlite_master WHERE name IN
    ('task_start', 'task_dur')")" 2 "both of them"

# A build that takes over a second is named on the status line while it
# runs (the indexes, then the timeline); then nothing.
"$GEN" demo "$T/big" -n 1500000 -S 8 >/dev/null
start_app 160 30 -- --db "$T/big.db" "$T/big"
wait_for 'Top op types'
wait_for '[building '
ok $? "the status line says the build runs"
wait_for '[building timeline '
ok $? "the timeline's, once the indexes are done"
wait_gone '[building '
ok $? "then nothing"
send_keys Q
wait_exit
done_testing
