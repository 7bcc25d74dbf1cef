#!/bin/sh
# A store's indexes come after its tables (src/store/store-index.c):
# import leaves them to the first command that reads the store, or builds
# them at once with --indexes; a store without them gives the same rows,
# and the next command that can write it builds them; a journal left by a
# killed write of an old store is removed before a new store takes its
# name, so SQLite never plays it back into the new file.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

names="'task_start', 'task_op', 'task_dur', 'task_unlisted', 'api_start',"
names="$names 'api_conn', 'counter_series'"
nidx() {	# nidx DB: how many of the store's seven indexes DB has
	q "$1" "SELECT count(*) FROM sqlite_master WHERE type = 'index'
	    AND name IN ($names)"
}
built() {	# built DB: meta indexes
	q "$1" "SELECT value FROM meta WHERE key = 'indexes'"
}
unindex() {	# unindex DB: the store as an import leaves it for the UI
	q "$1" "DROP INDEX task_start; DROP INDEX task_op; DROP INDEX task_dur;
	    DROP INDEX task_unlisted; DROP INDEX api_start; DROP INDEX api_conn;
	    DROP INDEX counter_series; DELETE FROM meta WHERE key = 'indexes'"
}
tables() {	# tables OUT: what show prints of the store, sorted three ways
	{
		"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/d" \
		    kernels --sort -Duration --limit 30 &&
		"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/d" \
		    kernels --sort 'Op Name' --limit 30 &&
		"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/d" \
		    op_statistic api_statistic
	} >"$1" 2>"$1.err"
}

"$GEN" demo "$T/d" -n 3000 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/s.db" "$T/d" >/dev/null
ok $? "import"
is "$(built "$T/s.db")" "" "import leaves the indexes to the first reader"
is "$(nidx "$T/s.db")" 0 "none of the seven is built"
sid=$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'store_id'")
"$NPUPROF" import -q --indexes --db "$T/s.db" "$T/d" >/dev/null
ok $? "import --indexes of the same store"
is "$(built "$T/s.db")" built "builds the indexes"
is "$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'store_id'")" "$sid" \
    "not the tables again"
is "$(nidx "$T/s.db")" 7 "all seven of them"
"$NPUPROF" show -q --db "$T/s.db" "$T/d" info >"$T/info"
! grep -q indexes "$T/info"
ok $? "info does not list the store's own key"
tables "$T/with"
ok $? "show with the indexes"
head -n 31 "$T/with" >"$T/with30"

unindex "$T/s.db"
is "$(nidx "$T/s.db")" 0 "the indexes taken away"
# In a folder that cannot be written (no journal can be made there) show
# reads the store as it is: root is refused only by an immutable folder.
mkdir "$T/ro"
cp "$T/s.db" "$T/ro/s.db"
lock_ro() {
	if [ "$(id -u)" != 0 ]; then
		chmod a-w "$T/ro/s.db" "$T/ro"
	else
		chattr +i "$T/ro" 2>/dev/null
	fi
}
unlock_ro() {
	chattr -i "$T/ro" 2>/dev/null
	chmod u+w "$T/ro" "$T/ro/s.db"
}
trap 'unlock_ro 2>/dev/null; rm -rf "$T"' EXIT
if lock_ro && ! : 2>/dev/null >"$T/ro/probe"; then
	"$NPUPROF" show --db "$T/ro/s.db" --format csv "$T/d" \
	    kernels --sort -Duration --limit 30 >"$T/without" 2>"$T/without.err"
	ok $? "show without them"
	same_file "$T/without" "$T/with30" "the same rows, in the same order"
	grep -q "without its indexes" "$T/without.err"
	ok $? "and says it reads without them"
	is "$(nidx "$T/ro/s.db")" 0 \
	    "a store that cannot be written is left as it is"
else
	for d in "show without them" "the same rows" "says so" "left as is"; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP no folder could be made read-only: $d"
	done
fi
unlock_ro
tables "$T/again"
ok $? "show once it can be written"
is "$(built "$T/s.db")" built "the indexes are built before it reads"
is "$(nidx "$T/s.db")" 7 "all seven"
same_file "$T/again" "$T/with" "the same rows again"

# A build of the indexes killed midway leaves a hot journal: the next
# command plays it back and reads the same store, not a new import (which
# a read-only opening would have made of it).
id=$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'store_id'")
(sqlite3 "$T/s.db" "PRAGMA cache_size = 1" "BEGIN" \
    "UPDATE task SET dur_ns = dur_ns + 1" ".shell kill -9 \$PPID") \
    >/dev/null 2>&1
[ -s "$T/s.db-journal" ]
ok $? "a killed write leaves a hot journal beside the store"
tables "$T/played"
same_file "$T/played" "$T/with" "the next command reads the store as it was"
is "$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'store_id'")" "$id" \
    "the same store, not imported again"
[ ! -e "$T/s.db-journal" ]
ok $? "the journal is played back"
# The same with a write-ahead log, as a UI killed before it set the store
# back leaves it.
(sqlite3 "$T/s.db" "PRAGMA journal_mode = WAL" \
    "INSERT INTO meta VALUES ('wal-test', '1')" \
    ".shell kill -9 \$PPID") >/dev/null 2>&1
[ -s "$T/s.db-wal" ]
ok $? "a killed UI leaves a write-ahead log"
tables "$T/played2"
same_file "$T/played2" "$T/with" "the next command reads the store as it was"
is "$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'store_id'")" "$id" \
    "the same store again"
[ ! -e "$T/s.db-wal" ] && [ "$(q "$T/s.db" "PRAGMA journal_mode")" = delete ]
ok $? "and it is back to a rollback journal"
is "$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'wal-test'")" 1 \
    "its log copied in"

# The stores of a set that the UI imports are indexed by their imports.
"$GEN" demo "$T/c" -n 2000 -r 2 >/dev/null || exit 1
echo '# the first screen only' >"$T/keys"
TERM=xterm LINES=50 COLUMNS=160 "$NPUPROF" --replay "$T/keys" --stores rank \
    "$T/c" </dev/null >/dev/null 2>&1
n=0
for r in "$T"/c/*/npuprof-tui.db; do
	[ "$(built "$r")" = built ] && [ "$(nidx "$r")" = 7 ] && n=$((n + 1))
done
is "$n" 2 "the UI's import of a set indexes both ranks' stores"

# A hot journal of the old store, as a write killed midway leaves it:
# sqlite3 changes every task row with a one-page cache, so that changed
# pages reach the file before the commit, and kills itself.
(sqlite3 "$T/s.db" "PRAGMA cache_size = 1" "BEGIN" \
    "UPDATE task SET dur_ns = dur_ns + 1" ".shell kill -9 \$PPID") \
    >/dev/null 2>&1
[ -s "$T/s.db-journal" ]
ok $? "a killed write leaves a journal"
# The store removed by hand, its journal forgotten, and another profile
# imported in its place: were the journal left, the new store would take
# the old one's pages from it when first read.
rm "$T/s.db"
"$GEN" demo "$T/d2" -n 1500 -s 7 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/ref.db" "$T/d2" >/dev/null
"$NPUPROF" import -q --db "$T/s.db" "$T/d2" >/dev/null
ok $? "another store is built in its place"
[ ! -e "$T/s.db-journal" ]
ok $? "the old store's journal is gone"
is "$(q "$T/s.db" "PRAGMA integrity_check")" ok "the new store is sound"
is "$(q "$T/s.db" "SELECT count(*), sum(dur_ns) FROM task")" \
    "$(q "$T/ref.db" "SELECT count(*), sum(dur_ns) FROM task")" \
    "and holds the new profile's tasks"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/d2" op_statistic \
    >"$T/new"
"$NPUPROF" show -q --db "$T/ref.db" --format csv "$T/d2" op_statistic \
    >"$T/ref"
same_file "$T/new" "$T/ref" "its op_statistic"

# The same with a write-ahead log, as a UI's build of the indexes killed
# after a commit leaves it: committed pages not yet copied into the file.
(sqlite3 "$T/s.db" "PRAGMA journal_mode = WAL" \
    "UPDATE task SET dur_ns = dur_ns + 1" ".shell kill -9 \$PPID") \
    >/dev/null 2>&1
[ -s "$T/s.db-wal" ]
ok $? "a killed write leaves a write-ahead log"
rm "$T/s.db"
"$NPUPROF" import -q --db "$T/s.db" "$T/d" >/dev/null
ok $? "another store is built in its place"
[ ! -e "$T/s.db-wal" ] && [ ! -e "$T/s.db-shm" ]
ok $? "the old store's log and its index are gone"
is "$(q "$T/s.db" "PRAGMA integrity_check")" ok "the new store is sound"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/d" kernels \
    --sort -Duration --limit 30 >"$T/again2"
same_file "$T/again2" "$T/with30" "and holds the first profile's tasks"
done_testing
