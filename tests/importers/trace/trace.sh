#!/bin/sh
# Chrome-trace JSON on generated input: exact times and 64-bit ids, args
# kept as JSON, files cut short or written twice, and a trace beside the
# kernel_details.csv of the same run linking to its rows instead of
# doubling them. The store is read back with the sqlite3 command.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to write the traces with"

cat >"$T/t.json" <<'JSON'
{"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "thread_name", "pid": 7, "tid": 70, "args": {"name": "Thread 70"}},
{"name": "AscendCL@aclnnAdd", "pid": 7, "tid": 70, "ts": "1700000000000000.123", "dur": 10.5, "ph": "X", "args": {"connection_id": 18446744073709551615, "nested": {"a": [1, "x\"y", null, true], "b": 1.5e3}}},
{"name": "Node@launch", "pid": 7, "tid": 70, "ts": 1700000000000002.001, "dur": "0.999", "ph": "X", "args": {"connection_id": 12}},
{"name": "HostToDevice", "ph": "s", "cat": "HostToDevice", "id": "18446744073709551615", "pid": 7, "tid": 70, "ts": "1700000000000000.124"},
{"name": "add", "pid": 2048, "tid": 3, "ts": "1700000000000005.000", "dur": 2.001, "ph": "X", "args": {"Model Id": 4294967295, "Task Type": "AI_CORE", "Physic Stream Id": 3, "Task Id": 9, "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": 18446744073709551615}},
{"name": "HostToDevice", "ph": "f", "cat": "HostToDevice", "id": "18446744073709551615", "pid": 2048, "tid": 3, "ts": "1700000000000005.000", "bp": "e"},
{"name": "AI Core Freq", "ph": "C", "pid": 2049, "tid": 0, "ts": 1700000000000006, "args": {"MHz": 1800, "note": "text is no sample"}}
], "displayTimeUnit": "ns"}
JSON

"$NPUPROF" import -q --db "$T/t.db" "$T/t.json" 2>"$T/err"
ok $? "a trace file given as PATH imports"
is "$(cat "$T/err")" "" "a sound trace warns about nothing"
is "$(q "$T/t.db" "SELECT level, name, start_ns, end_ns, conn, device FROM api_spans ORDER BY start_ns")" \
"acl|aclnnAdd|1700000000000000123|1700000000000010623|-1|64
node|launch|1700000000000002001|1700000000000003000|12|64" \
    "CANN spans: level from the layer, ts string or number to exact ns, 2^64-1 as int64 -1"
is "$(q "$T/t.db" "SELECT args FROM api_spans WHERE name = 'aclnnAdd'")" \
    '{"connection_id":18446744073709551615,"nested":{"a":[1,"x\"y",null,true],"b":1.5e3}}' \
    "args are kept as JSON text, numbers as written"
is "$(q "$T/t.db" "SELECT device, stream, task, batch, context, model_id, start_ns, dur_ns, conn, api FROM task")" \
    "0|3|9|0||4294967295|1700000000000005000|2001|-1|1" \
    "a device task: device from the pid, no context for 0xFFFFFFFF, linked to its launch"
is "$(q "$T/t.db" "SELECT phase, id, pid, tid, ts_ns, device FROM flows ORDER BY phase DESC")" \
"s|18446744073709551615|7|70|1700000000000000124|64
f|18446744073709551615|2048|3|1700000000000005000|0" \
    "flow endpoints keep their 64-bit id exactly"
is "$(q "$T/t.db" "SELECT name, key, ts_ns, value FROM counters")" \
    "AI Core Freq|MHz|1700000000000006000|1800.0" "counters: numeric args only"
is "$(q "$T/t.db" "SELECT pid, tid, name FROM lane ORDER BY pid, tid")" \
"7||CANN
7|70|Thread 70" "metadata names the lanes"

# A file cut short inside the 6th event keeps the five before it.
size=$(wc -c <"$T/t.json")
cut=$(grep -b '"name": "add"' "$T/t.json" | cut -d: -f1)
head -c $((cut + 40)) "$T/t.json" >"$T/cut.json"
"$NPUPROF" import --db "$T/cut.db" "$T/cut.json" >/dev/null 2>"$T/err"
ok $? "a trace cut short still imports"
is "$(q "$T/cut.db" "SELECT count(*) FROM api") $(q "$T/cut.db" "SELECT count(*) FROM flow") $(q "$T/cut.db" "SELECT count(*) FROM task")" \
    "2 1 0" "every event before the cut is kept, the cut one is not"
is "$(q "$T/cut.db" "SELECT offset, message FROM warnings")" \
    "$((cut + 40))|the file ends inside the trace (cut short?); 5 events before it imported, the rest of the file skipped" \
    "one warning says where the file ends"
grep -q "cut.json: offset $((cut + 40)):" "$T/err"
ok $? "the warning names the file and offset on stderr"

# Arrays written one after the other, as torch_npu does when it saves twice.
"$PYTHON3" - "$T" <<'PY'
import json, sys
t = sys.argv[1]
ev = json.load(open(t + "/t.json"))["traceEvents"]
a, b = json.dumps(ev[:3]), json.dumps(ev[3:])
open(t + "/cat1.json", "w").write(a + b)
open(t + "/cat2.json", "w").write(a + "\n" + b + "\n")
open(t + "/cat3.json", "w").write(a + "\n" + b + "\n}garbage")
PY
set -- $("$PYTHON3" - "$T" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1] + "/t.json"))["traceEvents"]
a, b = json.dumps(ev[:3]), json.dumps(ev[3:])
print(len(a), len(a) + 1, len(a) + 1 + len(b) + 1)
PY
)
for f in cat1 cat2 cat3; do
	"$NPUPROF" import -q --db "$T/$f.db" "$T/$f.json" 2>/dev/null
	is "$(q "$T/$f.db" "SELECT count(*) FROM api") $(q "$T/$f.db" "SELECT count(*) FROM task") $(q "$T/$f.db" "SELECT count(*) FROM counter")" \
	    "2 1 1" "$f: both arrays are read"
done
is "$(q "$T/cat1.db" "SELECT offset FROM warnings")" "$1" "'][': one warning at the second array"
is "$(q "$T/cat2.db" "SELECT offset FROM warnings")" "$2" "']<newline>[': one warning at the second array"
is "$(q "$T/cat3.db" "SELECT offset, message FROM warnings ORDER BY offset")" \
"$2|a second JSON value starts here (arrays written one after the other); reading on
$3|the trace is followed by something that is not JSON; 8 events before it imported, the rest of the file skipped" \
    "trailing garbage: a warning at its offset"

# Not JSON at all: nothing to import, and the reason.
printf '[{"ph": "X", "name": ' >"$T/bad.json"
"$NPUPROF" import --db "$T/bad.db" "$T/bad.json" >/dev/null 2>"$T/err"
ok $? "a trace cut inside its first event imports nothing but does not fail"
grep -q 'cut short' "$T/err"
ok $? "and says the file was cut short"

# A PyTorch folder: kernel_details.csv rows first, then the trace's device
# tasks link to them (one task, not two), and tasks the CSV leaves out
# stay spans of their lane.
d="$T/run_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
cat >"$d/kernel_details.csv" <<'CSV'
Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num
0,4294967295,9,3,add,Add,dynamic,AI_CORE,1700000000000005.000	,2.001,0,1
CSV
"$PYTHON3" - "$T/t.json" "$d/trace_view.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
extra = dict(ev[5]); extra["name"] = "notify"; extra["ts"] = "1700000000000009.000"
extra["args"] = dict(extra["args"], **{"Task Id": 10, "Task Type": "Notify Wait"})
json.dump(ev + [extra], open(sys.argv[2], "w"))
PY
"$NPUPROF" import -q --db "$T/pt.db" "$T/run_ascend_pt" 2>"$T/err"
ok $? "a PyTorch folder with CSV and trace imports"
is "$(q "$T/pt.db" "SELECT count(*), count(conn), count(api) FROM task")" "1|1|1" \
    "the CSV row is the one task, linked to the trace's connection and launch"
is "$(q "$T/pt.db" "SELECT o.s, t.conn FROM task t JOIN str o ON o.id = t.op_type")" \
    "Add|-1" "the linked row keeps its CSV columns"
is "$(q "$T/pt.db" "SELECT level, name FROM api_spans WHERE level = 'Ascend Hardware'")" \
    "Ascend Hardware|notify" "a task the CSV leaves out is a span of its lane"
# Spans that come before their process's name take its level at the end
# of the file (the commit then reads api_statistic from the table, not
# from what the load counted): the same rows as with the name first.
for o in first last; do
	mkdir -p "$T/order-$o"
	{
		echo '['
		[ $o = first ] && echo '{"ph": "M", "name": "process_name",
		    "pid": 2, "tid": 0, "args": {"name": "AscendCL"}},'
		echo '{"name": "AscendCL@aclnnMul", "pid": 2, "tid": 5, "ts":
		    "1700000000000030", "dur": 10, "ph": "X"},'
		echo '{"name": "AscendCL@aclnnAdd", "pid": 2, "tid": 5, "ts":
		    "1700000000000050", "dur": 4, "ph": "X"},'
		[ $o = last ] && echo '{"ph": "M", "name": "process_name",
		    "pid": 2, "tid": 0, "args": {"name": "AscendCL"}},'
		echo '{"name": "AscendCL@aclnnMul", "pid": 2, "tid": 5, "ts":
		    "1700000000000070", "dur": 6, "ph": "X"}'
		echo ']'
	} >"$T/order-$o/trace_view.json"
	"$NPUPROF" show -q --db "$T/order-$o.db" --format csv "$T/order-$o" \
	    api_statistic >"$T/order-$o.csv" 2>/dev/null
done
same_file "$T/order-last.csv" "$T/order-first.csv" \
    "api_statistic with the process named after its first spans"
is "$(grep -c aclnnMul "$T/order-last.csv")" 1 "which it counts"

# Counter values written as strings are samples when they are JSON
# numbers; null, and strings past a double's range or naming NaN, are
# counted; hex and other text are labels; an event of 40 args is a warning
# (those past the 32nd are not read one by one); "dur": "" is a bad
# duration, not 0.
{
	echo '['
	echo '{"name": "Mem", "ph": "C", "pid": 1, "tid": 0, "ts": 10,'
	echo ' "args": {"KB": "2160232.0", "MB": null, "label": "x",'
	echo ' "hex": "0x10", "big": "1e999", "nan": "NaN"}},'
	printf '{"name": "Many", "ph": "C", "pid": 1, "tid": 0, "ts": 11,'
	printf ' "args": {'
	for i in $(seq 1 40); do
		printf '"s%d": %d%s' "$i" "$i" "$([ "$i" -lt 40 ] && echo ,)"
	done
	echo '}},'
	printf '{"name": "Nest", "ph": "C", "pid": 1, "tid": 0, "ts": 13,'
	printf ' "args": {'
	for i in $(seq 1 32); do
		printf '"n%d": %d, ' "$i" "$i"
	done
	echo '"deep": {"a": 1}}},'
	echo '{"name": "aten::to", "ph": "X", "pid": 2, "tid": 2, "ts": 12,'
	echo ' "dur": ""}'
	echo ']'
} >"$T/vals.json"
"$NPUPROF" import -q --db "$T/vals.db" "$T/vals.json" 2>/dev/null
is "$(q "$T/vals.db" "SELECT value FROM counters WHERE key = 'KB'")" \
    2160232.0 "a number in a string is a sample"
is "$(q "$T/vals.db" "SELECT count(*) FROM warnings WHERE message LIKE
    '3 counter values not a finite number, no samples'")" 1 \
    "null, \"1e999\" and \"NaN\" are no samples, and counted; labels are not"
is "$(q "$T/vals.db" "SELECT count(*) FROM counters WHERE key IN ('hex',
    'label')")" 0 "hex in a string is a label, as other text"
is "$(q "$T/vals.db" "SELECT count(*) FROM counters WHERE key LIKE 's%'")" \
    32 "32 of the 40 series read"
is "$(q "$T/vals.db" "SELECT count(*) FROM warnings WHERE message LIKE
    'an event with more than 32 arguments (1 event,%'")" 1 \
    "and a warning says the rest were not; 32 and a nested one are not"
is "$(q "$T/vals.db" "SELECT count(*) FROM api")" 0 \
    "a span with an empty dur is skipped"
is "$(q "$T/vals.db" "SELECT offset FROM warnings WHERE message LIKE
    'bad dur (event ''aten::to''); 1 event skipped'")" \
    "$(grep -bo '{"name": "aten::to"' "$T/vals.json" | cut -d: -f1)" \
    "and counted, at the event's offset"
is "$(q "$T/vals.db" "SELECT offset FROM warnings WHERE message LIKE
    '3 counter values%'")" \
    "$(grep -bo '{"name": "Mem"' "$T/vals.json" | cut -d: -f1)" \
    "a counter's bad value too"
done_testing
