#!/bin/sh
# show --step N and the UI's s: the rows of one step. Kernels keep the
# tasks with that step id; op_statistic is computed afresh from them, each
# row equal to its group of kernels; Steps keeps the step's row;
# api_statistic is computed from the API spans starting in the step's
# interval (checked here against SQL over the store's spans); a step the
# profile lacks, or a table without task rows or spans, is an error; so
# is a step kept by its interval on several ranks without --rank.
. "$top_srcdir/tests/lib.sh"

d="$T/d"
"$GEN" demo "$d" -n 300 -r 2 >/dev/null || skip_all "cannot generate data"
"$NPUPROF" import -q --db "$T/d.db" "$d" || skip_all "cannot import"
show() { "$NPUPROF" show -q --db "$T/d.db" --format csv "$@"; }

show --step 3 "$d" kernels >"$T/k3"
ok $? "show --step 3 kernels"
# Two ranks: the first column is the Rank, then the Step Id.
n3=$(show "$d" kernels | awk -F, 'NR > 1 && $2 == 3' | wc -l)
is "$(sed 1d "$T/k3" | wc -l)" "$n3" "the kernels of step 3, all $n3"
is "$(awk -F, 'NR > 1 && $2 != 3' "$T/k3" | wc -l)" 0 \
    "and none of another step"

# Each op_statistic row of the step: its kernels' count and total time.
# Tasks of the step id that ran past the step's interval stay in: shrink
# step 2 of the step table under its tasks.
cp "$T/d.db" "$T/d2.db"
q "$T/d2.db" "UPDATE step SET iter_time_ns = iter_time_ns / 2 WHERE
    iter = 2"
n2=$(show "$d" kernels | awk -F, 'NR > 1 && $2 == 2' | wc -l)
is "$("$NPUPROF" show -q --db "$T/d2.db" --format csv --step 2 "$d" \
    kernels | sed 1d | wc -l)" "$n2" \
    "tasks of the step id outside the step table's interval stay ($n2)"
show --step 3 "$d" op_statistic >"$T/o3"
ok $? "show --step 3 op_statistic"
awk -F, 'NR == FNR { if (FNR > 1) {
		k = $1 SUBSEP $3 SUBSEP $8 SUBSEP $10; n[k]++
		sum[k] += $12 * 1000 }
		next }
	FNR > 1 { k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; rows++
		got = sprintf("%.0f", sum[k]); want = sprintf("%.0f", $6 * 1000)
		if (n[k] != $5 || got != want) { bad++; print "bad: " $0 } }
	END { print rows + 0, bad + 0 }' "$T/k3" "$T/o3" >"$T/cmp"
is "$(tail -1 "$T/cmp")" "22 0" \
    "each of the step's 22 op_statistic rows sums its kernels"
head -1 "$T/o3" | grep -q '^Rank,Device_id,OP Type,Core Type,Count,Total'
ok $? "with op_statistic's columns"

show --step 3 "$d" steps | awk -F, 'NR > 1 { print $1 ":" $3 }' \
    | tr '\n' ' ' >"$T/s3"
is "$(cat "$T/s3")" "0:3 1:3 " "Steps keeps step 3 of each rank"

show --step 99 "$d" kernels >/dev/null 2>"$T/err"
is "$?" 2 "a step the profile lacks fails"
grep -q 'no step 99 in this profile' "$T/err"
ok $? "and says so"
show --step 3 "$d" api_statistic >/dev/null 2>"$T/err"
grep -q 'needs the API spans' "$T/err"
ok $? "api_statistic of a step without spans says what it needs"

# A raw collection: API spans and a step trace, no step ids on tasks.
p="$T/p"
"$GEN" prof "$p" -s 7 -n 2000 -t 4 >/dev/null 2>&1 ||
    skip_all "cannot generate a raw collection"
"$NPUPROF" import -q --db "$T/p.db" "$p" || skip_all "cannot import"
"$NPUPROF" show -q --db "$T/p.db" --format csv --step 2 "$p" \
    api_statistic | sed 1d | awk -F, '{ print $2 "|" $3 "|" $5 "|" $4 }' |
    sort >"$T/a2"
ok $? "show --step 2 api_statistic on raw data"
# The spans starting in step 2's interval, grouped as api_statistic.
q "$T/p.db" "WITH w AS (SELECT min(iter_end_ns - iter_time_ns) AS a,
    max(iter_end_ns) + 1 AS b FROM step WHERE iter = 2)
    SELECT l.s, n.s, count(*), printf('%.3f', sum(x.end_ns - x.start_ns)
    / 1000.0) FROM api x JOIN str l ON l.id = x.level JOIN str n
    ON n.id = x.name, w WHERE x.start_ns >= w.a AND x.start_ns < w.b
    AND x.start_ns > 0 AND l.s IN ('acl', 'model', 'node',
    'communication', 'hccl', 'runtime') GROUP BY x.rank, l.s, n.s" |
    awk -F'|' '{ t = $4; sub(/0+$/, "", t); sub(/\.$/, "", t)
    print $1 "|" $2 "|" $3 "|" t }' | sort >"$T/a2.sql"
same_file "$T/a2" "$T/a2.sql" \
    "each row counts and sums the spans starting in the step"
[ -s "$T/a2" ]
ok $? "and there are such rows"

# Two raw ranks, their clocks apart, no step ids on the tasks: a step's
# rows are kept by its interval, which each rank has of its own, so the
# step needs a rank; with one it keeps that rank's tasks of the interval.
for r in 0 1; do
	"$GEN" prof "$T/c/r$r" -s "1$r" -n 600 -t 3 -r "$r/2" >/dev/null 2>&1 ||
	    skip_all "cannot generate a raw rank"
done
"$NPUPROF" import -q --db "$T/c.db" "$T/c" || skip_all "cannot import"
for t in kernels op_statistic api_statistic; do
	"$NPUPROF" show -q --db "$T/c.db" --step 2 "$T/c" $t >/dev/null \
	    2>"$T/err"
	is $? 2 "two ranks, no step ids: --step 2 $t without --rank fails"
	grep -q 'step 2 is on 2 ranks, each in an interval of its own' \
	    "$T/err"
	ok $? "and says why"
done
n=$(q "$T/c.db" "SELECT count(*) FROM task t, (SELECT min(iter_end_ns -
    iter_time_ns) AS a, max(iter_end_ns) + 1 AS b FROM step WHERE iter = 2
    AND rank = 1) w, str k ON k.id = t.task_type WHERE t.rank = 1
    AND t.start_ns >= w.a AND t.start_ns < w.b AND k.s IN ('AI_CORE',
    'AI_CPU', 'AI_VECTOR_CORE', 'MIX_AIC', 'MIX_AIV')")
"$NPUPROF" show -q --db "$T/c.db" --format csv --step 2 --rank 1 "$T/c" \
    kernels | sed 1d | wc -l >"$T/n"
is "$(cat "$T/n")" "$n" "all $n of the step's interval on that rank"
"$NPUPROF" show -q --db "$T/c.db" --format csv --step 2 "$T/c" steps \
    >/dev/null
ok $? "steps, kept by step id, need no rank"
"$NPUPROF" show -q --db "$T/c.db" --step 2 "$T/c" stacks >/dev/null \
    2>"$T/err"
ok $((! $?)) "the stacks of step 2 (spans by the interval) without --rank fail"
grep -q 'step 2 is on 2 ranks' "$T/err"
ok $? "and say why"
"$NPUPROF" show -q --db "$T/c.db" --step 2 --rank 0 "$T/c" stacks \
    >/dev/null
ok $? "with --rank 0 they are shown"
done_testing
