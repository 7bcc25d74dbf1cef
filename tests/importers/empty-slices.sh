#!/bin/sh
# An empty raw slice is not skipped silently: the import goes on with the
# other files and one warning names it, in raw PROF and legacy JOB data
# alike, for streamed (device) and whole-file (host) slices.
. "$top_srcdir/tests/lib.sh"

"$GEN" prof "$T/p" -s 1 -n 200 >/dev/null || exit 1
dev=$(find "$T/p" -name 'stars_soc.data.0.slice_0' | head -n 1)
: >"$dev"
"$NPUPROF" show --db "$T/p.db" --format csv "$T/p" api_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "a PROF with an empty device slice imports"
[ "$(wc -l <"$T/out")" -gt 1 ]
ok $? "its host data is there"
grep -q "stars_soc.data.0.slice_0: empty slice: no records" "$T/err"
ok $? "the empty device slice is named in a warning"

"$GEN" job "$T/j" -n 50 >/dev/null || exit 1
: >"$(find "$T/j" -name 'hwts.log.data.*.slice_0')"
: >"$(find "$T/j" -name 'AclModule.acl_op.*.slice_0')"
"$NPUPROF" show --db "$T/j.db" --format csv "$T/j" api_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "a JOB with empty slices imports"
grep -q "hwts.log.data.*slice_0: empty slice: no records" "$T/err"
ok $? "the empty HWTS slice is named"
grep -q "AclModule.acl_op.*slice_0: empty slice: no records" "$T/err"
ok $? "and so is an empty host slice"
"$NPUPROF" show -q --db "$T/j.db" "$T/j" warnings >"$T/w"
is "$(grep -c 'empty slice' "$T/w")" 2 "show warnings lists both"
done_testing
