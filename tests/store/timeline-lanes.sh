#!/bin/sh
# Timeline lane names and groups from a trace's process_name and
# thread_name events: a host thread left with the vendor's default name
# ("Thread 7") is called after its process, so the Python and CANN lanes
# of one thread differ; a named thread keeps its name; a process without a
# name keeps the "Host pid N" group. Then the same on a real trace, with
# host lanes above the device's; and a thread's mstx lane.
. "$top_srcdir/tests/lib.sh"
CELLS="$top_builddir/tests/tl-cells"

cat >"$T/t.json" <<'JSON'
[
{"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "Python"}},
{"ph": "M", "name": "process_labels", "pid": 10, "tid": 0, "args": {"labels": "CPU"}},
{"ph": "M", "name": "thread_name", "pid": 10, "tid": 7, "args": {"name": "Thread 7"}},
{"ph": "M", "name": "thread_name", "pid": 10, "tid": 9, "args": {"name": "Dataloader"}},
{"ph": "M", "name": "process_name", "pid": 20, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "process_labels", "pid": 20, "tid": 0, "args": {"labels": "CPU"}},
{"ph": "M", "name": "thread_name", "pid": 20, "tid": 7, "args": {"name": "Thread 7"}},
{"name": "train_step", "pid": 10, "tid": 7, "ts": "100.000", "dur": 50, "ph": "X", "cat": "python_function"},
{"name": "aten::add", "pid": 10, "tid": 7, "ts": "110.000", "dur": 20, "ph": "X", "cat": "cpu_op"},
{"name": "next_batch", "pid": 10, "tid": 9, "ts": "100.000", "dur": 5, "ph": "X", "cat": "python_function"},
{"name": "unnamed", "pid": 10, "tid": 8, "ts": "100.000", "dur": 5, "ph": "X", "cat": "python_function"},
{"name": "AscendCL@aclnnAdd", "pid": 20, "tid": 7, "ts": "200.000", "dur": 10, "ph": "X"},
{"name": "other", "pid": 30, "tid": 3, "ts": "100.000", "dur": 5, "ph": "X"}
]
JSON
"$NPUPROF" import -q --db "$T/t.db" "$T/t.json" || exit 1
"$CELLS" "$T/t.db" lanes | cut -f3,4 | LC_ALL=C sort >"$T/got"
printf '%s\t%s\n' "CANN 7" "CANN (pid 20)" "Dataloader" "Python (pid 10)" \
    "Python 7" "Python (pid 10)" "Python 7.1" "Python (pid 10)" \
    "Python 8" "Python (pid 10)" "Thread 3" "Host pid 30" >"$T/want"
same_file "$T/got" "$T/want" \
    "lanes named after their thread, or process and thread id; groups after the process"

# A raw PROF with mstx markers: one mstx lane per thread, holding exactly
# the thread's markers and ranges, above the thread's API rows.
"$GEN" prof "$T/p" -s 3 -n 200 -a 20 -T 2 -u 6 -e "$T/pe" >/dev/null ||
    exit 1
"$NPUPROF" import -q --db "$T/p.db" "$T/p" || exit 1
"$CELLS" "$T/p.db" lanes >"$T/pl"
awk -F, 'NR > 1 { n[$2]++ } END { for (t in n) print "Thread " t " mstx", n[t] }' \
    "$T/pe/msprof_tx.csv" | LC_ALL=C sort >"$T/want"
awk -F'\t' '$3 ~ / mstx$/ { print $3, $6 }' "$T/pl" | LC_ALL=C sort >"$T/got"
same_file "$T/got" "$T/want" "an mstx lane per thread with its markers"
awk -F'\t' '{ print $3 }' "$T/pl" | grep -A1 ' mstx$' | grep -v -- '--' |
    awk 'NR % 2 == 0' | grep -c '^Thread [0-9]*$' >"$T/n"
is "$(cat "$T/n")" "$(wc -l <"$T/want" | tr -d ' ')" \
    "each above its thread's first API row"

S="$SHARED/samples/oamtools-torchnpu271-cann910-ascend_pt/hdspace-32g-outer-17_59186_20260601142437309_ascend_pt"
if [ -d "$S" ]; then
	"$NPUPROF" import -q --db "$T/s.db" "$S" || exit 1
	"$CELLS" "$T/s.db" lanes | cut -f3,4 >"$T/s"
	for want in "Computing|Device 0" "Free|Device 0" \
	    "Python 59186|Python (pid 59186)" \
	    "CANN 59239.1|CANN (pid 60606719)" "Stream 46|Device 0"; do
		printf '%s\n' "$want" | tr '|' '\t' >"$T/w"
		grep -qxFf "$T/w" "$T/s"
		ok $? "sample lane: $want"
	done
	! grep -q '^Thread ' "$T/s"
	ok $? "no sample lane left as a bare thread id"
	is "$(cut -f2 "$T/s" | uniq | tr '\n' ,)" \
	    "Python (pid 59186),CANN (pid 60606719),Device 0," \
	    "host lanes above the device's, one block per group"
	is "$(grep 'Device 0' "$T/s" | cut -f1 | tr '\n' ,)" \
	    "Stream 46,Stream 47,Computing,Free,AI Core Freq," \
	    "the device's streams, its other trace lanes, its counters"
fi
done_testing
