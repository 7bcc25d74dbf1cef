#!/bin/sh
# Chrome-trace JSON on the real samples: a digest of what each sample's
# traces put in the store (golden), api_statistic computed from the CANN
# spans equals the tool's api_statistic.csv in the same folder (same rows,
# numbers within 0.001: the trace rounds durations to 10 ns, so the
# variance may differ in its last digit), the trace's device tasks link to
# the kernel_details rows instead of doubling them, and a real trace cut in
# half keeps what came before the cut.
. "$top_srcdir/tests/lib.sh"
need_samples
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to count CSV rows with"

# Every folder that holds a chrome trace: the unit the walk imports it in.
find "$SAMPLES" \( -name 'trace_view.json' -o -name 'msprof_*.json' -o \
    -path '*profiler_output/trace*.json' \) | sort | while read -r f; do
	d=$(dirname "$f")
	case $d in */ASCEND_PROFILER_OUTPUT) d=$(dirname "$d") ;; esac
	echo "$d"
done | uniq >"$T/units"
[ -s "$T/units" ]
ok $? "samples hold chrome traces ($(wc -l <"$T/units") folders)"

i=0
: >"$T/digest"
while read -r d; do
	i=$((i + 1))
	rel=${d#"$SAMPLES"/}
	"$NPUPROF" import -q --db "$T/u$i.db" "$d" 2>"$T/err"
	ok $? "$rel: imports"
	{
		echo "== $rel"
		q "$T/u$i.db" "SELECT 'tasks', device, count(*), count(conn),
		    count(api), sum(dur_ns), min(start_ns) FROM task
		    GROUP BY device ORDER BY device"
		q "$T/u$i.db" "SELECT 'spans', level, count(*), sum(dur_ns),
		    count(conn), count(args)
		    FROM api_spans GROUP BY level ORDER BY level"
		q "$T/u$i.db" "SELECT 'flows', phase, count(*) FROM flow
		    GROUP BY phase ORDER BY phase"
		q "$T/u$i.db" "SELECT 'counters', name, key, count(*),
		    printf('%.3f', sum(value)) FROM counters GROUP BY name, key
		    ORDER BY 2, 3"
		q "$T/u$i.db" "SELECT 'lanes', count(*), count(tid) FROM lane"
		q "$T/u$i.db" "SELECT 'warnings', count(*) FROM warning"
	} >>"$T/digest"
done <"$T/units"
golden "$T/digest" trace-samples.txt "what the sample traces put in the store"

# numeric compare of two sorted api_statistic CSVs
cmp_api() {
	awk -F, 'NR == FNR { a[FNR] = $0; n = FNR; next }
	    { m = FNR; split(a[FNR], x, ","); split($0, y, ",")
	      if (x[1] != y[1] || x[2] != y[2] || x[3] != y[3] || x[5] != y[5]) {
		print "row " FNR ": " a[FNR] " <> " $0; bad++; next }
	      for (i = 4; i <= 9; i++) {
		d = x[i] - y[i]; if (d < 0) d = -d
		if (d > 0.0010000001) { print "row " FNR " col " i ": " a[FNR] " <> " $0; bad++ } } }
	    END { if (n != m) { print "rows: " n " <> " m; bad++ } exit bad > 0 }' "$1" "$2"
}

# Each folder with a trace and the tool's api_statistic beside it.
find "$SAMPLES" -name 'api_statistic*.csv' | sort | while read -r f; do
	dir=$(dirname "$f")
	ls "$dir" | grep -qE '^(trace_view|msprof_.*)\.json$' || continue
	echo "$dir"
done >"$T/pairs"
[ -s "$T/pairs" ]
ok $? "samples hold traces beside api_statistic files ($(wc -l <"$T/pairs"))"
i=0
while read -r dir; do
	i=$((i + 1))
	rel=${dir#"$SAMPLES"/}
	stats_both "$T/a$i.db" "$dir" api_statistic
	[ -s "$T/file" ] && cmp_api "$T/computed" "$T/file" >"$T/diff"
	r=$?
	ok $r "$rel: api_statistic from the trace equals the tool's ($(wc -l <"$T/file") rows)"
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/diff" | head -10
done <"$T/pairs"

# kernel_details.csv and trace_view.json side by side: one task per row.
find "$SAMPLES" -name trace_view.json -path '*ASCEND_PROFILER_OUTPUT*' |
    sort >"$T/pt"
i=0
while read -r f; do
	i=$((i + 1))
	dir=$(dirname "$f")
	[ -f "$dir/kernel_details.csv" ] || continue
	rel=${dir#"$SAMPLES"/}
	rows=$("$PYTHON3" -c 'import csv, sys
print(sum(1 for _ in csv.DictReader(open(sys.argv[1], newline=""))))' \
	    "$dir/kernel_details.csv")
	"$NPUPROF" import -q --db "$T/k$i.db" "$dir" 2>/dev/null
	got=$(q "$T/k$i.db" "SELECT count(*) FROM task")
	linked=$(q "$T/k$i.db" "SELECT count(*) FROM task WHERE conn IS NOT NULL")
	is "$got" "$rows" "$rel: as many tasks as kernel_details rows ($rows)"
	[ "$linked" -gt $((rows * 9 / 10)) ]
	ok $? "$rel: the trace links most of them ($linked)"
done <"$T/pt"

# A real trace cut in half: the CSV rows stay, the events before the cut
# are kept, one warning says where.
src=$(head -n 1 "$T/pt")
src=$(dirname "$src")
mkdir -p "$T/cut_ascend_pt/ASCEND_PROFILER_OUTPUT"
for f in "$src"/*.csv; do
	ln -s "$f" "$T/cut_ascend_pt/ASCEND_PROFILER_OUTPUT/"
done
half=$(($(wc -c <"$src/trace_view.json") / 2))
head -c $half "$src/trace_view.json" \
    >"$T/cut_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
"$NPUPROF" import -q --db "$T/cut.db" "$T/cut_ascend_pt" 2>/dev/null
ok $? "a real trace cut in half imports"
is "$(q "$T/cut.db" "SELECT offset, message LIKE '%cut short%' FROM warnings")" \
    "$half|1" "one warning at the cut"
"$NPUPROF" import -q --db "$T/whole.db" "$(dirname "$src")" 2>/dev/null
[ "$(q "$T/cut.db" "SELECT count(*) FROM api")" -gt 0 ] &&
    [ "$(q "$T/cut.db" "SELECT count(*) FROM api")" -lt \
    "$(q "$T/whole.db" "SELECT count(*) FROM api")" ]
ok $? "the spans before the cut are kept"

# A kernel_details.csv with its header only, beside the real trace: the
# trace's device tasks stand in for the kernels, and a warning says so
# (they have no op types).
mkdir -p "$T/hdr_ascend_pt/ASCEND_PROFILER_OUTPUT"
head -n 1 "$src/kernel_details.csv" \
    >"$T/hdr_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
ln -s "$src/trace_view.json" "$T/hdr_ascend_pt/ASCEND_PROFILER_OUTPUT/"
"$NPUPROF" import -q --db "$T/hdr.db" "$T/hdr_ascend_pt" 2>/dev/null
ok $? "a header-only kernel_details.csv beside a trace imports"
[ "$(q "$T/hdr.db" "SELECT count(*) FROM task")" -gt 0 ]
ok $? "with the trace's tasks"
is "$(q "$T/hdr.db" "SELECT count(*) FROM warnings WHERE file LIKE
    '%kernel_details.csv' AND message LIKE 'no task rows: the device %'
    AND message LIKE '%read from trace_view.json, which gives no op%'")" \
    1 "and one warning that says so"
done_testing
