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

# A raw collection of two devices: the bar counts the bytes of its slices,
# and each phase is shown when it starts: the host's, each device's, each
# join with the host.
"$GEN" prof "$T/p" -s 5 -n 3000 -d 2 >/dev/null || exit 1
script -qc "'$NPUPROF' import --db '$T/p.db' '$T/p'" /dev/null |
    tr '\r' '\n' >"$T/out3"
sed -n 's/^.*\] *\([0-9]*\)% \([a-z]*\) .*/\2 \1/p' "$T/out3" \
    >"$T/raw"
sed 's/^/# /' "$T/raw"
[ "$(sed -n 's/^host //p' "$T/raw" | head -1)" = 0 ]
ok $? "raw: the host's reading starts at 0%"
awk '$2 < last { bad = 1 } { last = $2 } END { exit bad }' "$T/raw"
ok $? "raw: the percentage never goes back"
[ "$(grep -c '^device ' "$T/raw" | tr -d ' ')" -ge 2 ] &&
    awk '$1 == "device" && last != "device" && ($2 == 0 || $2 == 100) {
	bad = 1 } { last = $1 } END { exit bad }' "$T/raw"
ok $? "raw: each device's phase is shown, after the host's bytes"
first=$(sed -n 's/^join //p' "$T/raw" | head -1)
[ -n "$first" ] && [ "$first" -lt 100 ] &&
    grep -q 'read [0-9]* records in [0-9.]*s; now join\.\.\.' "$T/out3"
ok $? "raw: a join before the last device has a percentage, the last not"

# Spans that come by their end (a chrome trace's PyTorch ops) are nested
# once all are read: that phase is named before the statistics.
cat >"$T/trace_view.json" <<'EOF'
[{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
{"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 100}]
EOF
script -qc "'$NPUPROF' import --db '$T/t.db' '$T/trace_view.json'" \
    /dev/null | tr '\r' '\n' >"$T/out4"
phases=$(sed -n 's/.*; now \(.*\)\.\.\.$/\1/p' "$T/out4" | uniq |
    tr '\n' ,)
echo "# $phases"
[ "$phases" = "nesting spans,statistics," ]
ok $? "a trace: 'now nesting spans...' before the statistics"
done_testing
