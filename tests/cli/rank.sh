#!/bin/sh
# A store of several ranks says which rank each row is of: a Rank column
# first in every table with rows of several ranks, rows in rank order;
# --rank N keeps rank N's rows and leaves the column out. A profile whose
# ranks are all unknown, or one rank, has no such column.
. "$top_srcdir/tests/lib.sh"

d="$T/d"
"$GEN" demo "$d" -s 4 -n 200 -r 2 >/dev/null || skip_all "cannot generate"
show() { "$NPUPROF" show -q --db "$T/d.db" --format csv "$@"; }
for t in op_statistic api_statistic kernels task_time step_trace; do
	show "$d" $t | head -1 | grep -q '^Rank,'
	ok $? "$t: the Rank column first"
done
is "$(show "$d" op_statistic | awk -F, 'NR > 1 { print $1 }' | uniq |
    tr '\n' ' ')" "0 1 " "op_statistic: rank 0's rows, then rank 1's"
is "$(show "$d" kernels | awk -F, 'NR > 1 { n[$1]++ } END {
    print n[0] + 0, n[1] + 0 }')" \
    "$(q "$T/d.db" "SELECT sum(rank = 0), sum(rank = 1) FROM task" |
    tr '|' ' ')" "kernels: each task once, with its rank"
show --rank 1 "$d" op_statistic >"$T/r1"
head -1 "$T/r1" | grep -q '^Device_id,OP Type'
ok $? "--rank 1: no Rank column"
is "$(sed 1d "$T/r1" | wc -l)" \
    "$(show "$d" op_statistic | awk -F, '$1 == 1' | wc -l)" \
    "--rank 1: rank 1's rows"
show --format json "$d" op_statistic | grep -q '{"Rank":0,'
ok $? "JSON names the rank of each row"
# A rank the profile lacks: an error naming the ranks, not empty tables.
show --rank 5 "$d" op_statistic >/dev/null 2>"$T/err"
is $? 2 "--rank 5 of ranks 0 and 1 fails"
grep -q 'no rank 5 in this profile (ranks 0, 1)' "$T/err"
ok $? "and names the ranks there are"

# A device the profile lacks, alone or with a rank: the same; one that
# only flows or counters name is no error (show-trace.sh).
show --device 7 "$d" op_statistic >/dev/null 2>"$T/err"
is $? 2 "--device 7 of devices 0 and 1 fails"
grep -q 'no device 7 in this profile (devices 0, 1' "$T/err"
ok $? "and names the devices there are"
show --rank 1 --device 7 "$d" kernels >/dev/null 2>"$T/err"
is $? 2 "so with --rank"
show --device 1 "$d" op_statistic >/dev/null
is $? 0 "--device 1 is there"
# A raw collection has no rank ids: --rank selected nothing, silently.
"$GEN" prof "$T/raw" -s 4 -n 50 >/dev/null || exit 1
"$NPUPROF" show -q --db "$T/raw.db" --format csv --rank 0 "$T/raw" \
    op_statistic >"$T/out" 2>"$T/err"
is $? 2 "--rank on a profile without rank ids fails"
grep -q 'no rank ids in this profile: --rank selects nothing' "$T/err"
ok $? "and says why"
"$NPUPROF" export summary -q --db "$T/raw.db" --rank 0 --output "$T/xo" \
    "$T/raw" 2>"$T/err"
is $? 2 "export too"

# One rank: no column.
"$GEN" demo "$T/one" -s 4 -n 50 -r 1 >/dev/null || exit 1
"$NPUPROF" show -q --db "$T/one.db" --format csv "$T/one" op_statistic |
    head -1 | grep -q '^Device_id,'
ok $? "one rank: no Rank column"
done_testing
