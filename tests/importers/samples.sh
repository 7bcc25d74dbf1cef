#!/bin/sh
# Every real sample under ../shared/samples imports without a crash, and
# wherever a sample holds both task rows and the tool's own op_statistic,
# the op_statistic we compute from the rows equals the tool's file: same
# rows and counts, min/avg/max within 0.001 us, ratio within 0.001, and
# the total within 1 ns per task. The vendor sums durations taken from the
# raw counter, while the rows it writes hold durations converted from epoch
# start and end times, which differ by up to 1 ns per task (the learninghub
# sample: op_summary 14.141, task_time 14.140 for the same task).
. "$top_srcdir/tests/lib.sh"
need_samples

: >"$T/tables"
for d in "$SAMPLES"/*/; do
	name=$(basename "$d")
	"$NPUPROF" import -q --db "$T/$name.db" "$d" >/dev/null 2>"$T/err"
	st=$?
	[ $st -le 1 ]
	ok $? "$name: import exits $st without crashing"
	if [ $st -eq 1 ]; then
		[ -s "$T/err" ]
		ok $? "$name: the failure says why: $(head -c 100 "$T/err" | tr '\n' ' ')"
		echo "$name	(not imported)" >>"$T/tables"
		continue
	fi
	"$NPUPROF" show -q --db "$T/$name.db" --format tsv "$d" tables |
	    tail -n +2 | grep -v '^info	' | sed "s/^/$name	/" >>"$T/tables"
done
# What each sample yields, table by table (row counts only: the golden
# holds no sample content).
golden "$T/tables" samples-tables.tsv "every sample yields the same tables and row counts"

# Each folder that holds task rows and an op_statistic file of its own.
find "$SAMPLES" -name 'op_statistic*.csv' | sort | while read -r f; do
	dir=$(dirname "$f")
	ls "$dir" | grep -qE '^(kernel_details|op_summary)' || continue
	echo "$dir"
done >"$T/pairs"
[ -s "$T/pairs" ]
ok $? "samples hold task rows beside op_statistic files ($(wc -l <"$T/pairs"))"

# numeric compare of two sorted op_statistic CSVs
cmp_stats() {
	awk -F, 'NR == FNR { a[FNR] = $0; n = FNR; next }
	    { m = FNR; split(a[FNR], x, ","); split($0, y, ",")
	      if (x[1] != y[1] || x[2] != y[2] || x[3] != y[3] || x[4] != y[4]) {
		print "row " FNR ": " a[FNR] " <> " $0; bad++; next }
	      for (i = 5; i <= 9; i++) {
		d = x[i] - y[i]; if (d < 0) d = -d
		tol = i == 5 ? 0.001 * x[4] : 0.001
		if (d > tol + 0.0000001) { print "row " FNR " col " i ": " a[FNR] " <> " $0; bad++ } } }
	    END { if (n != m) { print "rows: " n " <> " m; bad++ } exit bad > 0 }' "$1" "$2"
}

i=0
while read -r dir; do
	i=$((i + 1))
	rel=${dir#"$SAMPLES"/}
	mkdir -p "$T/p$i"
	ln -s "$dir" "$T/p$i/ASCEND_PROFILER_OUTPUT"
	stats_both "$T/p$i.db" "$T/p$i" op_statistic
	[ -s "$T/file" ] && cmp_stats "$T/computed" "$T/file" >"$T/diff"
	r=$?
	ok $r "$rel: computed op_statistic equals the tool's ($(wc -l <"$T/file") rows)"
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/diff" | head -10
done <"$T/pairs"
done_testing
