#!/bin/sh
# The timeline's own file: an import builds no timeline tables; the first
# reader (here import --timeline and the cells of tests/tl-cells) builds
# them into STORE-timeline for the store it names, a new build of the
# store removes it, one of another build of the store is built again, a
# dead build's temporary file is swept, and the file is the same however
# often it is built.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
CELLS="$top_builddir/tests/tl-cells"
[ -x "$CELLS" ] || skip_all "tests/tl-cells not built"

"$GEN" demo "$T/d" -n 3000 -S 4 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/s.db" "$T/d" >/dev/null
ok $? "import"
[ ! -e "$T/s.db-timeline" ]
ok $? "the import builds no timeline file"
is "$(q "$T/s.db" "select count(*) from sqlite_master where name like
    'tl%'")" 0 "nor timeline tables in the store"
is "$(q "$T/s.db" "select value = (select min(start_ns) from task) from
    meta where key = 'origin_ns'")" 1 \
    "the store knows where the timeline will start"
id=$(q "$T/s.db" "select value from meta where key = 'store_id'")
[ ${#id} -eq 16 ]
ok $? "and has an id of its own"

old=$(($(date +%s) - 600))
: >"$T/s.db-timeline.tmp-dead01"
touch -d "@$old" "$T/s.db-timeline.tmp-dead01"
"$NPUPROF" import -q --timeline --db "$T/s.db" "$T/d" >/dev/null
ok $? "import --timeline on a current store"
[ -f "$T/s.db-timeline" ]
ok $? "builds the timeline file beside it"
is "$(stat -c %a "$T/s.db-timeline")" 600 "readable by its owner only"
[ ! -e "$T/s.db-timeline.tmp-dead01" ]
ok $? "a dead build's temporary file is removed"
is "$(q "$T/s.db-timeline" "select value from meta where key =
    'store_id'")" "$id" "the file names the store it was built for"
is "$(q "$T/s.db-timeline" "select sum(nspans) from tl_lane where
    kind = 2")" "$(q "$T/s.db" "select count(*) from task")" \
    "every task is on a stream lane"
"$CELLS" "$T/s.db" lanes >"$T/lanes1" && [ -s "$T/lanes1" ]
ok $? "the lanes read back through the store"
# The store's indexes were built beside the timeline (its readers kept
# the store writing ahead meanwhile); it is back to a rollback journal.
is "$(q "$T/s.db" "select value from meta where key = 'indexes'")" built \
    "the store's indexes were built beside it"
is "$(q "$T/s.db" "pragma journal_mode")" delete \
    "and the store is back to a rollback journal"
[ ! -e "$T/s.db-wal" ]
ok $? "with no log left beside it"

# Built again from nothing (the indexes there now), the file holds the
# same rows.
dump() {
	q "$1" "select * from tl_lane;
	    select lane, start, ord, hex(data) from tl_span;
	    select lane, start, ord, cum, cend, hex(data) from tl_block;
	    select * from tl_bin; select * from tl_flow order by task"
}
dump "$T/s.db-timeline" >"$T/dump1"
rm "$T/s.db-timeline"
"$CELLS" "$T/s.db" lanes >"$T/lanes2"
[ -f "$T/s.db-timeline" ]
ok $? "the first reader builds a missing file"
dump "$T/s.db-timeline" >"$T/dump2"
same_file "$T/dump2" "$T/dump1" "and it holds the same tables"
same_file "$T/lanes2" "$T/lanes1" "and the same lanes"

# A new build of the store: the old file goes; one put back is not used.
cp "$T/s.db-timeline" "$T/stale"
"$NPUPROF" import -q --reimport --db "$T/s.db" "$T/d" >/dev/null
[ ! -e "$T/s.db-timeline" ]
ok $? "a new build of the store removes its old timeline file"
id2=$(q "$T/s.db" "select value from meta where key = 'store_id'")
[ "$id2" != "$id" ]
ok $? "the new build has a new id"
cp "$T/stale" "$T/s.db-timeline"
"$CELLS" "$T/s.db" lanes >"$T/lanes3"
is "$(q "$T/s.db-timeline" "select value from meta where key =
    'store_id'")" "$id2" "a file built for another build is built again"
same_file "$T/lanes3" "$T/lanes1" "with the same lanes"

# A file of another schema version is built again too.
sqlite3 "$T/s.db-timeline" "update meta set value = '1' where key =
    'schema'; delete from tl_lane"
"$CELLS" "$T/s.db" lanes >"$T/lanes4"
same_file "$T/lanes4" "$T/lanes1" "a file of another schema is built again"
# So is one of this schema in an older layout of its own tables (the
# schema version alone, as before the pieces were packed).
v=$(q "$T/s.db" "pragma user_version")
sqlite3 "$T/s.db-timeline" "update meta set value = '$v' where key =
    'schema'; delete from tl_lane"
"$CELLS" "$T/s.db" lanes >"$T/lanes6"
same_file "$T/lanes6" "$T/lanes1" "and one of an older layout"

# Where the store's folder cannot be written, the file is a temporary one
# in TMPDIR, removed after. Root writes any folder: it runs as nobody.
as_user=""
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null &&
	    as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$as_user" ]; then
	mkdir "$T/ro" "$T/tmp"
	cp "$T/s.db" "$T/ro/s.db"
	chmod 755 "$T" && chmod 644 "$T/ro/s.db" && chmod 555 "$T/ro" &&
	    chmod 777 "$T/tmp"
	$as_user env TMPDIR="$T/tmp" "$CELLS" "$T/ro/s.db" lanes >"$T/lanes5"
	same_file "$T/lanes5" "$T/lanes1" \
	    "a store in a read-only folder still shows its timeline"
	is "$(ls -A "$T/tmp" "$T/ro" | grep -c timeline)" 0 \
	    "from a temporary file, removed after"
	chmod 755 "$T/ro"
else
	echo "ok $((tap_n + 1)) # SKIP root without setpriv(1)"
	echo "ok $((tap_n + 2)) # SKIP root without setpriv(1)"
	tap_n=$((tap_n + 2))
fi
done_testing
