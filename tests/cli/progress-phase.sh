#!/bin/sh
# The import progress on a terminal: while reading, the bar with its
# percentage and ETA; after the reading, each later phase (statistics,
# and indexing with --indexes) by name, never a percentage stuck near the
# end with "ETA 0s". The timeline is no phase of the import: it is built
# when first shown.
. "$top_srcdir/tests/lib.sh"
command -v script >/dev/null 2>&1 || skip_all "no script(1) for a terminal"
"$GEN" demo "$T/d" -n 20000 >/dev/null || exit 1
script -qc "'$NPUPROF' import --db '$T/s.db' '$T/d'" /dev/null |
    tr '\r' '\n' >"$T/out"
grep -q 'read [0-9]* records in [0-9.]*s; now statistics\.\.\.' "$T/out"
ok $? "after the reading: 'now statistics...'"
! grep -q 'indexing' "$T/out" && ! grep -q 'timeline' "$T/out"
ok $? "no indexing without --indexes, and no timeline"
rm -f "$T/s.db"
script -qc "'$NPUPROF' import --indexes --db '$T/s.db' '$T/d'" /dev/null |
    tr '\r' '\n' >"$T/out2"
grep -q 'read [0-9]* records in [0-9.]*s; now indexing\.\.\.' "$T/out2"
ok $? "with --indexes: 'now indexing...' after the statistics"
cat "$T/out2" >>"$T/out"
! grep -q 'indexing .*ETA' "$T/out"
ok $? "no ETA once the reading is done"
done_testing
