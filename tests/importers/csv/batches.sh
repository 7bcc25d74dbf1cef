#!/bin/sh
# An op_summary of many rows is written by a thread of its own, in batches
# of 4096 rows: every row arrives once and in the file's order, names first
# met in a later batch are interned with it, each row keeps its own PMU
# cells, a bad row in the middle is skipped and reported at its offset,
# and the statistics count every row.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

N=10000
d="$T/p/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
awk -v n=$N 'BEGIN {
	printf "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,"
	printf "Task Type,Task Start Time(us),Task Duration(us),"
	printf "Task Wait Time(us),Block Dim,aicore_time(us),aic_mac_ratio\n"
	for (i = 1; i <= n; i++) {
		if (i == 5000) {	# no start time: skipped
			printf "0,1,%d,3,Bad_%d,Bad,AI_CORE,,1.000,0,2,1,0.5\n",
			    i, i
			continue
		}
		# A new op type every 1000 rows, a name of its own per row.
		r = i % 3 == 0 ? "N/A" : sprintf("0.%d", i % 9)
		printf "0,1,%d,%d,Op_%d,Type%d,AI_CORE,%.0f.%03d,%d.%03d,0," \
		    "2,%d.%d,%s\n", i % 65536, i % 4, i, int(i / 1000),
		    1700000000000000 + i * 10, i % 1000, 1 + i % 7, i % 1000,
		    i, i % 10, r
	}
}' >"$d/op_summary_0_1_1.csv"

"$NPUPROF" import -q --db "$T/s.db" "$T/p" 2>"$T/err"
ok $? "import"
is "$(q "$T/s.db" 'select count(*) from task')" $((N - 1)) \
    "every sound row is a task"
q "$T/s.db" 'select n.s from task t join str n on n.id = t.name
    order by t.id' >"$T/names"
awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) if (i != 5000)
    print "Op_" i }' >"$T/want"
same_file "$T/names" "$T/want" "in the file's order, each once"
is "$(q "$T/s.db" "select count(*) from str where s like 'Type%'")" 11 \
    "the op types met in later batches are interned"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/p" op_summary |
    awk -F, 'NR > 1 { print $(NF - 1) "," $NF }' >"$T/pmu"
awk -v n=$N 'BEGIN { for (i = 1; i <= n; i++) if (i != 5000) {
	r = i % 3 == 0 ? "N/A" : sprintf("0.%d", i % 9)
	printf "%d.%d,%s\n", i, i % 10, r } }' >"$T/pwant"
same_file "$T/pmu" "$T/pwant" "each row keeps its own PMU cells"
at=$(grep -b 'Bad_5000' "$d/op_summary_0_1_1.csv" | cut -d: -f1)
is "$(q "$T/s.db" "select offset from warning where message like
    'row without a readable start time%'")" "$at" \
    "the bad row is reported at its offset"
is "$(q "$T/s.db" "select count from op_stat where op_type = 'Type4'")" \
    1000 "op_statistic counts the rows of a batch"
is "$(q "$T/s.db" "select sum(count) from op_stat")" $((N - 1)) \
    "and every row once"
done_testing
