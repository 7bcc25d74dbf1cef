#!/bin/sh
# show's tables of chrome-trace data on a generated trace: spans with their
# nesting, lanes, counters and flows, each as CSV with exact times and ids,
# and filtered by device and by time like the other tables.
. "$top_srcdir/tests/lib.sh"

cat >"$T/t.json" <<'JSON'
{"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "process_labels", "pid": 7, "tid": 0, "args": {"labels": "CPU"}},
{"ph": "M", "name": "process_sort_index", "pid": 7, "tid": 0, "args": {"sort_index": 7}},
{"ph": "M", "name": "thread_name", "pid": 7, "tid": 70, "args": {"name": "Thread 70"}},
{"ph": "M", "name": "process_name", "pid": 2049, "tid": 0, "args": {"name": "HBM"}},
{"name": "AscendCL@aclnnAdd", "pid": 7, "tid": 70, "ts": "1700000000000000.123", "dur": 10.5, "ph": "X", "args": {"connection_id": 12}},
{"name": "Node@launch", "pid": 7, "tid": 70, "ts": 1700000000000002.001, "dur": "0.999", "ph": "X", "args": {"connection_id": 12}},
{"name": "HostToDevice", "ph": "s", "cat": "HostToDevice", "id": "18446744073709551615", "pid": 7, "tid": 70, "ts": "1700000000000002.500"},
{"name": "HostToDevice", "ph": "f", "cat": "HostToDevice", "id": "18446744073709551615", "pid": 2048, "tid": 3, "ts": "1700000000000005.000", "bp": "e"},
{"name": "HBM 0", "ph": "C", "pid": 2049, "tid": 0, "ts": "1700000000000006.5", "args": {"Read(MB/s)": 12.25, "Write(MB/s)": 0}},
{"name": "HBM 0", "ph": "C", "pid": 2049, "tid": 0, "ts": "1700000000000001", "args": {"Read(MB/s)": 3}}
]}
JSON

show() {	# show TABLE [OPTION...]
	t=$1
	shift
	"$NPUPROF" show -q --db "$T/t.db" --format csv "$@" "$T/t.json" "$t" 2>&1
}
show spans >/dev/null
ok $? "show spans of a trace"
is "$(show spans)" \
"Device_id,Level,Name,Process ID,Thread ID,Start(us),Duration(us),Depth,ID,Parent ID,Connection ID
host,acl,aclnnAdd,7,70,1700000000000000.123,10.500,0,1,N/A,12
host,node,launch,7,70,1700000000000002.001,0.999,1,2,1,12" \
    "spans: exact times, depth and parent"
is "$(show lanes)" \
"Device_id,Process ID,Thread ID,Name,Labels,Sort Index
host,7,N/A,CANN,CPU,7
host,7,70,Thread 70,N/A,N/A
1,2049,N/A,HBM,N/A,N/A" "lanes: processes, then their threads"
is "$(show counters)" \
"Device_id,Process,Track,Key,Time(us),Value
1,HBM,HBM 0,Read(MB/s),1700000000000001.000,3.0
1,HBM,HBM 0,Read(MB/s),1700000000000006.500,12.25
1,HBM,HBM 0,Write(MB/s),1700000000000006.500,0.0" \
    "counters: one row per track, key and time, in time order"
is "$(show flows)" \
"Device_id,Category,Name,ID,Phase,Process,Thread ID,Time(us),Binding
host,HostToDevice,HostToDevice,18446744073709551615,s,CANN,70,1700000000000002.500,N/A
0,HostToDevice,HostToDevice,18446744073709551615,f,N/A,3,1700000000000005.000,e" \
    "flows: both ends, the 64-bit id exact"
is "$(show flows --device 0 | tail -n +2 | cut -d, -f5)" "f" \
    "--device picks the device end"
is "$(show counters --sort=-Value --limit 1 | tail -n 1 | cut -d, -f6)" \
    "12.25" "values sort as numbers"
is "$(show tables --format tsv | cut -f1 | tr '\n' ' ')" \
    "Table api_statistic info spans lanes counters flows " "tables lists them"
# A flow of a Python process that comes before the metadata naming the
# process is the host's, not the device the pid would give (4120 & 31).
cat >"$T/early.json" <<'JSON'
[
{"name": "enqueue_to_dequeue", "ph": "s", "cat": "async_task_queue", "id": 5, "pid": 4120, "tid": 1, "ts": "1700000000000001"},
{"ph": "M", "name": "process_name", "pid": 4120, "tid": 0, "args": {"name": "Python"}},
{"name": "aten::add", "pid": 4120, "tid": 1, "ts": "1700000000000000", "dur": 5, "ph": "X", "cat": "cpu_op"}
]
JSON
is "$("$NPUPROF" show -q --db "$T/early.db" --format csv "$T/early.json" \
    flows 2>&1 | tail -n +2 | cut -d, -f1,6)" "host,Python" \
    "a flow before its process's metadata is the host's"

# A key given twice in an event: its last value, as Python's json reads
# it (not the two run together), and one warning that counts them.
cat >"$T/dup.json" <<'JSON'
[{"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
{"ph":"X","name":"Mat","name":"MatMul","pid":9,"tid":3,"ts":"100.5","dur":5,
"dur":7,"ts":900,"args":{"Task Id":1,"Task Id":2,"Stream Id":3}}]
JSON
"$NPUPROF" import --db "$T/dup.db" "$T/dup.json" 2>"$T/dup.err"
"$NPUPROF" show -q --db "$T/dup.db" --format csv "$T/dup.json" kernels |
    sed 1d | cut -d, -f3,5,9,10 >"$T/dup.out"
is "$(cat "$T/dup.out")" "2,MatMul,900.000,7.000" \
    "a repeated key: its last value"
grep -q 'a key given twice in an event (4 times, the first' "$T/dup.err"
ok $? "one warning counts them"

# A negative dur skips the event; a task id that is no integer is N/A,
# not a hash that passes for an id; both are counted.
cat >"$T/odd.json" <<'JSON'
[{"ph":"M","name":"process_name","pid":9,"args":{"name":"Ascend Hardware"}},
{"ph":"X","name":"A","pid":9,"tid":3,"ts":100,"dur":-5.25,
"args":{"Task Id":1,"Stream Id":3}},
{"ph":"X","name":"B","pid":9,"tid":3,"ts":200,"dur":2,
"args":{"Task Id":1.7,"Stream Id":"x"}}]
JSON
"$NPUPROF" import --db "$T/odd.db" "$T/odd.json" 2>"$T/odd.err"
is "$("$NPUPROF" show -q --db "$T/odd.db" --format csv "$T/odd.json" \
    kernels | sed 1d | cut -d, -f3-5)" "N/A,N/A,B" \
    "ids 1.7 and x: N/A; the event of dur -5.25: skipped"
grep -q "negative dur (event 'A'); 1 event skipped" "$T/odd.err"
ok $? "the negative dur is warned"
grep -q "2 task ids (Model, Stream, Task, Batch or Subtask Id) not an" \
    "$T/odd.err"
ok $? "the ids that are no integer are counted"

# A UTF-8 byte order mark before the trace (CSV files may have one too).
mkdir "$T/bom" && { printf '\357\273\277'; cat "$T/dup.json"; } \
    >"$T/bom/trace_view.json"
is "$("$NPUPROF" show -q --db "$T/bom.db" --format csv "$T/bom" kernels |
    sed 1d | cut -d, -f3,5,9,10)" "2,MatMul,900.000,7.000" \
    "a trace after a byte order mark: read"
done_testing
