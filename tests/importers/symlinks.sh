#!/bin/sh
# The walk of a profile stays inside it: a link to / is not followed (the
# store tracked every file of the machine), links to the profile's parent
# or to itself do not loop, and a link to one of its own ranks does not
# import that rank twice; the manifest lists only the profile's files.
. "$top_srcdir/tests/lib.sh"

"$GEN" demo "$T/p" -n 100 -r 2 >/dev/null || exit 1
ln -s / "$T/p/rootlink"
ln -s .. "$T/p/up"
ln -s . "$T/p/self"
ln -s demo_rank0_ascend_pt "$T/p/again"
ln -s "$T/p/demo_rank1_ascend_pt" "$T/p/zz-abs"

timeout 60 "$NPUPROF" import -q --db "$T/s.db" "$T/p" >/dev/null
is $? 0 "import finishes"
is "$(q "$T/s.db" 'select count(*) from task')" 200 \
    "each rank's 100 tasks once, not again through a link"
is "$(q "$T/s.db" 'select count(distinct rank) from task')" 2 "two ranks"
is "$(q "$T/s.db" 'select count(*) from manifest')" 4 \
    "the manifest lists the profile's four files, nothing under /"
q "$T/s.db" 'select path from input' | grep -q -e again -e zz-abs
is $? 1 "the ranks are read under their own names, not the links'"
"$NPUPROF" import --db "$T/s.db" "$T/p" >"$T/out" 2>"$T/err"
! grep -q 're-importing' "$T/err"
ok $? "the store is current at once (nothing outside changed it)"
done_testing
