#!/bin/sh
# export timeline's counters and markers: every counter sample of a trace
# comes out as a "C" event on a process named, labelled and sorted as the
# trace had it (several keys of one sample in one event), --range keeps the
# samples in the window, and msproftx markers (no duration) are instant
# "i" events while ranges stay "X" events. trace-check validates every
# file; a golden keeps the layout.
. "$top_srcdir/tests/lib.sh"
[ -x "$GEN" ] || skip_all "no generator at $GEN"

CHECK="$top_builddir/tests/trace-check"
export SOURCE_DATE_EPOCH=1780000000
STAMP=20260528202640

mkdir -p "$T/tr"
cat >"$T/tr/msprof_1.json" <<'EOT'
[{"name":"process_name","pid":2464,"tid":0,"ph":"M","args":{"name":"Ascend Hardware"}},
{"name":"process_labels","pid":2464,"tid":0,"ph":"M","args":{"labels":"NPU 0"}},
{"name":"process_sort_index","pid":2464,"tid":0,"ph":"M","args":{"sort_index":13}},
{"name":"thread_name","pid":2464,"tid":5,"ph":"M","args":{"name":"Stream 5"}},
{"name":"MatMul","pid":2464,"tid":5,"ts":"1700000000000100.000","dur":20.5,"ph":"X","args":{"Model Id":4294967295,"Task Type":"AI_CORE","Physic Stream Id":5,"Task Id":7,"Batch Id":0,"Subtask Id":4294967295,"connection_id":1}},
{"name":"process_name","pid":2496,"tid":0,"ph":"M","args":{"name":"AI Core Freq"}},
{"name":"process_labels","pid":2496,"tid":0,"ph":"M","args":{"labels":"NPU 0"}},
{"name":"process_sort_index","pid":2496,"tid":0,"ph":"M","args":{"sort_index":14}},
{"name":"AI Core Freq","pid":2496,"tid":0,"ts":"1700000000000000.000","ph":"C","args":{"MHz":1800}},
{"name":"AI Core Freq","pid":2496,"tid":0,"ts":"1700000000000150.000","ph":"C","args":{"MHz":1650}},
{"name":"process_name","pid":2720,"tid":0,"ph":"M","args":{"name":"Acc PMU"}},
{"name":"process_sort_index","pid":2720,"tid":0,"ph":"M","args":{"sort_index":21}},
{"name":"read_bandwidth","pid":2720,"tid":0,"ts":"1700000000000050.000","ph":"C","args":{"value":12.25,"acc_id":3}},
{"name":"read_bandwidth","pid":2720,"tid":0,"ts":"1700000000000250.000","ph":"C","args":{"value":0.1,"acc_id":3}}
]
EOT
"$NPUPROF" export timeline -q --db "$T/tr.db" --output "$T/to" "$T/tr"
ok $? "export timeline of a trace with counters"
f=$T/to/msprof_$STAMP.json
is "$("$CHECK" "$f")" "M 11 X 1 s 0 f 0 C 4 i 0" \
    "valid, one C event per sample of the input"
golden "$f" export-tracks.json "counter tracks golden"
grep -q '"name":"read_bandwidth","pid":672,.*"args":{"value":12.25,"acc_id":3}}' \
    "$f"
ok $? "the keys of one sample share an event, in their order"
grep -q '"pid":448,"tid":0,"ph":"M","args":{"name":"AI Core Freq"}' "$f" &&
    grep -q '"pid":448,"tid":0,"ph":"M","args":{"sort_index":14}' "$f"
ok $? "the counter process keeps its name, and its sort index as the layer"
# Relative times count from the first sample (ts ...000), as the UI's:
# 100us:200us holds the task and the sample at 150 us, not the one at 250.
"$NPUPROF" export timeline -q --range 100us:200us --db "$T/tr.db" \
    --output "$T/tw" "$T/tr"
ok $? "--range"
is "$("$CHECK" "$T"/tw/*.json)" "M 8 X 1 s 0 f 0 C 1 i 0" \
    "only the sample inside the window, and only its process"

# A legacy JOB's msproftx: four ranges and one marker.
"$GEN" job "$T/job" -s 2 -n 20 -S 3 -t 6 -a 120 || exit 1
"$NPUPROF" export timeline -q --db "$T/job.db" --output "$T/jo" "$T/job"
ok $? "export timeline of a legacy JOB"
"$CHECK" "$T"/jo/*.json >"$T/c"
ok $? "valid"
grep -q ' i 1$' "$T/c"
ok $? "the marker is one instant event"
grep -q '"name":"step 2","pid":[0-9]*,"tid":4300,"ts":"[0-9.]*","ph":"i","s":"t"' \
    "$T"/jo/*.json
ok $? "named by its message, on its thread"
is "$(grep -c '"name":"step [0134]",.*"ph":"X"' "$T"/jo/*.json)" 4 \
    "the ranges are X events"

need_samples
MS=$SAMPLES/oamtools-msprof-cann852-matmul-export/mindstudio_profiler_output
if [ -d "$MS" ]; then
	"$NPUPROF" export timeline -q --db "$T/ms.db" --output "$T/mt" "$MS"
	ok $? "export timeline of an msprof export"
	c() { sed 's/.* \(C [0-9]*\) .*/\1/'; }
	is "$("$CHECK" "$T"/mt/*.json | c)" "$("$CHECK" "$MS"/msprof_*.json | c)" \
	    "the vendor's counter events, all of them"
	grep -q '"name":"AI Core Freq","pid":[0-9]*,"tid":0,"ts":"1782291497388998.000","ph":"C","args":{"MHz":1800}}' \
	    "$T"/mt/*.json
	ok $? "as the vendor wrote them"
fi
done_testing
