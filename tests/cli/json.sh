#!/bin/sh
# JSON output is always valid JSON, whatever bytes the data holds: names
# in GBK or with control characters come out escaped or with U+FFFD for
# the bytes that are not UTF-8; numbers are JSON numbers written as the
# text they are shown as; N/A is null; a trace's args are copied value by
# value with their numbers as written. One table is an array of row
# objects, several tables an object of such arrays.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"

d="$T/p/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
{
	printf 'Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,'
	printf 'Task Type,Task Start Time(us),Task Duration(us),'
	printf 'Task Wait Time(us),Block Dim,aic_mac_ratio\r\n'
	# "测试" in GBK, then ESC [2J, then a lone 0xff
	printf '0,1,5,3,\262\342\312\324_\033[2J\377,MatMul,AI_CORE,'
	printf '1782291497409494.490,7.840,0,2,0.250\r\n'
	printf '0,1,6,3,Add_1,Add,AI_VECTOR_CORE,1782291497409504.490,2.5,'
	printf '0,2,N/A\r\n'
} >"$d/op_summary_20260101000000.csv"

check() {	# check FILE DESCRIPTION PYTHON-ASSERTS: parse, then assert
	python3 - "$1" "$3" >"$T/py" 2>&1 <<'PY'
import json, sys
with open(sys.argv[1], "rb") as f:
    raw = f.read()
raw.decode("utf-8")          # strict: every byte is UTF-8
v = json.loads(raw)
exec(sys.argv[2])
PY
	r=$?
	ok $r "$2"
	[ $r -eq 0 ] || sed 's/^/#   /' "$T/py" | tail -5
}

"$NPUPROF" show -q --db "$T/p.db" --format json "$T/p" op_summary \
    >"$T/one.json"
ok $? "show op_summary as JSON"
check "$T/one.json" "one table: an array of rows, valid UTF-8 JSON" '
assert isinstance(v, list) and len(v) == 2
r = v[0]
assert r["Op Name"] == "\ufffd" * 4 + "_\x1b[2J\ufffd", repr(r["Op Name"])
assert r["Task Duration(us)"] == 7.84 and isinstance(r["Device_id"], int)
assert r["aic_mac_ratio"] == 0.25 and v[1]["aic_mac_ratio"] is None
'
grep -q '"Task Duration(us)":7.840,' "$T/one.json"
ok $? "a number is written as the text it is shown as (7.840)"
grep -qi '\\u001b\[2J' "$T/one.json"
ok $? "ESC is escaped, not written raw"

"$NPUPROF" show -q --db "$T/p.db" --format json "$T/p" op_statistic \
    op_summary >"$T/two.json"
check "$T/two.json" "two tables: an object of arrays" '
assert list(v) == ["op_statistic", "op_summary"], list(v)
assert all(isinstance(t, list) for t in v.values())
'

"$NPUPROF" export summary -q --format json --db "$T/p.db" \
    --output "$T/out" "$T/p" >/dev/null
ok $? "export summary --format json"
for f in "$T"/out/*.json; do
	check "$f" "export summary: $(basename "$f" | sed 's/_[0-9]*\.json//') is valid" \
	    'assert isinstance(v, list)'
done

mkdir "$T/tr"
cat >"$T/tr/trace_view.json" <<TRACE
{"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "CANN"}},
{"name": "AscendCL@aclnnAdd", "pid": 7, "tid": 70, "ts": "1700000000000000.123", "dur": 10.5, "ph": "X", "args": {"big": 18446744073709551615, "nested": {"a": [1, "x\\"y\\u00e9", null, true], "b": 1.50e3}}},
{"name": "AscendCL@lone", "pid": 7, "tid": 70, "ts": "1700000000000020.000", "dur": 1, "ph": "X", "args": {"k": "\\udc00", "\\ud800x": 1}}
]}
TRACE
"$NPUPROF" export timeline -q --db "$T/tr.db" --output "$T/tout" "$T/tr" \
    >/dev/null
ok $? "export timeline of a trace"
check "$T"/tout/msprof_*.json "the timeline is valid JSON, args intact" '
e = [x for x in v if x.get("name") == "AscendCL@aclnnAdd"][0]
a = e["args"]
assert a["nested"] == {"a": [1, "x\"y\u00e9", None, True], "b": 1500.0}, a
assert a["big"] == 18446744073709551615 and e["dur"] == 10.5
'
grep -q '"b":1.50e3' "$T"/tout/msprof_*.json
ok $? "the args' numbers are written as they were read"
check "$T"/tout/msprof_*.json "a lone surrogate in args becomes U+FFFD" '
e = [x for x in v if x.get("name") == "AscendCL@lone"][0]
assert e["args"]["k"] == "\ufffd" * 3, e
'
done_testing
