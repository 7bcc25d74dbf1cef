#!/bin/sh
# The man page's STORE section against the schema a real import builds:
# every table of a raw PROF and a demo store (but the vendor tables kept
# as they are, which "generic" lists) is documented with exactly its
# columns, in order, and every view is named.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"
MAN="$top_builddir/man/npuprof-tui.1"
"$GEN" prof "$T/p" -n 200 -g -u 5 -t 2 >/dev/null 2>&1 &&
    "$NPUPROF" import -q --db "$T/p.db" "$T"/p/PROF_* 2>/dev/null
ok $? "a raw PROF store is built"
"$GEN" demo "$T/d" -n 200 --stats >/dev/null 2>&1 &&
    "$NPUPROF" import -q --db "$T/d.db" "$T/d" 2>/dev/null
ok $? "a demo store is built"

# The documented column list of table $1, as "a,b,c".
documented() {
	sed -n "s/^\.\(It \)*Sy $1 Ns ( \(.*\) )[ .,;]*\$/\2/p" "$MAN" |
	    sed 's/ , /,/g'
}

for db in "$T/p.db" "$T/d.db"; do
	for t in $(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE
	    type = 'table' AND name NOT IN (SELECT tbl FROM generic)
	    ORDER BY name"); do
		cols=$(sqlite3 "$db" "SELECT group_concat(name, ',') FROM
		    (SELECT name FROM pragma_table_info('$t') ORDER BY cid)")
		is "$(documented "$t")" "$cols" \
		    "$(basename "$db"): table $t documented with its columns"
	done
	for v in $(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE
	    type = 'view' ORDER BY name"); do
		grep -qE "Sy $v( |\$)" "$MAN"
		ok $? "$(basename "$db"): view $v documented"
	done
done
done_testing
