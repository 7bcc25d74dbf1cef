#!/bin/sh
# torch_npu's FRAMEWORK/ records of an un-analysed profile (npuprof-gen
# prof -Y): PyTorch op ranges (both the 58- and the older 57-byte fixed
# part), task queue marks, Python tracer calls and names, GC pauses. The
# generator writes the spans and flows it expects; the store must hold
# exactly those, on counter-tick and on nanosecond hosts, with the task
# queue and without. Python call stacks must carry all device time of the
# launched kernels. Damaged files warn with the file and offset and keep
# what is sound.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"

LEVELS="'python','enqueue','dequeue','python_function','GC'"

spans() {	# spans DB: the framework spans, one per line, sorted
	sqlite3 -separator '|' "$1" "SELECT l.s, n.s, a.pid, a.tid,
	    a.start_ns, a.end_ns, coalesce(a.args, '') FROM api a
	    JOIN str l ON l.id = a.level JOIN str n ON n.id = a.name
	    WHERE l.s IN ($LEVELS)" | LC_ALL=C sort
}

count() {	# count DB LEVEL
	sqlite3 "$1" "SELECT count(*) FROM api a JOIN str l ON
	    l.id = a.level WHERE l.s = '$2'"
}

load() {	# load NAME: import $T/NAME/in, warnings in $T/NAME/err
	"$NPUPROF" import -q --db "$T/$1/s.db" "$T/$1/in" 2>/dev/null
	st=$?
	"$NPUPROF" show --db "$T/$1/s.db" --format tsv "$T/$1/in" warnings \
	    2>/dev/null | tail -n +2 |
	    sed 's/\t/: offset /; s/\t/: /' >"$T/$1/err"
}

python_ops() {	# python_ops OPS.csv KERNELS.csv QUEUE: "ROWS ok" if sound
	python3 - "$@" <<'PY'
import csv, sys
ops = list(csv.DictReader(open(sys.argv[1], newline='')))
ker = list(csv.DictReader(open(sys.argv[2], newline='')))
dev = sum(float(k['Task Duration(us)']) for k in ker)
own = sum(float(o['Device Self Duration(us)']) for o in ops)
good = all(float(o['Host Self Duration(us)']) <=
           float(o['Host Total Duration(us)']) and
           float(o['Device Self Duration(us)']) <=
           float(o['Device Total Duration(us)']) + 1e-9 for o in ops)
if sys.argv[3] == 'no':
    good = good and abs(own - dev) < 1e-6 * max(dev, 1)
else:
    good = good and 0 < own <= dev + 1e-6
print(len(ops), 'ok' if good else 'bad: own %r of %r' % (own, dev))
PY
}

check() {	# check NAME GEN-ARGS...
	name=$1
	shift
	d="$T/$name"
	"$GEN" prof "$d/in" -e "$d/want" -Y "$@"
	ok $? "$name: generate $*"
	load "$name"
	is $st 0 "$name: import succeeds"
	spans "$d/s.db" >"$d/spans.got"
	LC_ALL=C sort "$d/want/fwk_spans.txt" >"$d/spans.want"
	same_file "$d/spans.got" "$d/spans.want" "$name: spans as generated"
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" flows |
	    tail -n +2 | LC_ALL=C sort >"$d/flows.got"
	LC_ALL=C sort "$d/want/fwk_flows.csv" >"$d/flows.want"
	same_file "$d/flows.got" "$d/flows.want" "$name: flows as generated"
	F="$d/in/gen${seed}_ascend_pt/FRAMEWORK"
	{
		echo "$F: offset N/A: $(cat "$d/want/fwk_incomplete.txt") memory records are incomplete (an allocation without its free or block free)"
		# The lost start's end is the last mark: 62 bytes.
		[ "$queue" = yes ] &&
		    echo "$F/torch.op_mark: offset $(($(wc -c <"$F/torch.op_mark") - 62)): 1 enqueue ends without a start, the first here: skipped"
	} | LC_ALL=C sort >"$d/err.want"
	LC_ALL=C sort "$d/err" >"$d/err.got"
	same_file "$d/err.got" "$d/err.want" \
	    "$name: incomplete records and the lost enqueue start warned, nothing else"
	# operator_details: a row per PyTorch op but the steps; host self
	# time within the total; without a task queue every kernel is some
	# op's own, with one only those the queue carried.
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" \
	    operator_details >"$d/ops.csv"
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" op_summary \
	    >"$d/kernels.csv"
	is "$(python_ops "$d/ops.csv" "$d/kernels.csv" "$queue")" \
	    "$(($(grep -c '^python|' "$d/want/fwk_spans.txt") - \
	    $(grep -c '^python|ProfilerStep#' "$d/want/fwk_spans.txt"))) ok" \
	    "$name: operator_details rows and sums"
	if [ -f "$d/want/fwk_operator_details.csv" ]; then
		same_file "$d/ops.csv" "$d/want/fwk_operator_details.csv" \
		    "$name: operator_details as generated"
	fi
	# The parameters of module and optimizer calls, named by the tracer.
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" \
	    param_tensor_info >"$d/params.got"
	same_file "$d/params.got" "$d/want/fwk_param_tensor_info.csv" \
	    "$name: param_tensor_info as generated"
	# torch_npu's memory_record rows of the PTA component, and its chart.
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" memory_record \
	    >"$d/memory_record.got"
	same_file "$d/memory_record.got" "$d/want/fwk_memory_record.csv" \
	    "$name: memory_record as generated"
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" operator_memory \
	    >"$d/operator_memory.got"
	cat "$d/want/fwk_operator_memory.csv" "$d/want/fwk_cann_memory.csv" \
	    >"$d/operator_memory.want"
	same_file "$d/operator_memory.got" "$d/operator_memory.want" \
	    "$name: operator_memory as generated, GE's cann:: rows last"
	is "$("$NPUPROF" show --db "$d/s.db" --format csv "$d/in" counters |
	    grep -c ',Memory PTA,')" \
	    "$((3 * $(grep -c '^PTA,' "$d/want/fwk_memory_record.csv")))" \
	    "$name: three memory series samples per PTA row"
	# Kernels take the steps of the ProfilerStep ops, as torch_npu's
	# kernel_details numbers them.
	"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
	    "$d/in" op_summary >"$d/op_summary.got"
	same_file "$d/op_summary.got" "$d/want/fwk_op_summary.csv" \
	    "$name: op_summary with the PyTorch Step Id"
	# Every kernel's device time lands under a Python call stack.
	dev=$("$NPUPROF" export --folded --db "$d/s.db" --stacks python \
	    "$d/in" | awk '{ s += $NF } END { print s + 0 }')
	want=$("$NPUPROF" show --db "$d/s.db" --format csv "$d/in" \
	    op_summary | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == "Task Duration(us)") c = i; next }
	    { split($c, p, "."); s += p[1] * 1000 + p[2] } END { print s }')
	is "$dev" "$want" "$name: Python stacks hold all device time"
	"$NPUPROF" export --folded --db "$d/s.db" --stacks python "$d/in" |
	    grep -Evc '^(train\.py\(9\): <module>;train\.py\(10[0-2]\): step;model\.py\([0-9]+\): forward|ProfilerStep#[12]);aten::[a-z0-9]+;[A-Za-z0-9]+-op[0-9]+ [0-9]+$' \
	    >"$d/odd"
	is "$(cat "$d/odd")" 0 \
	    "$name: stacks run call stack (or step) > op > kernel"
}

queue=yes seed=21 check ticks -s 21 -n 400 -T 4 -a 30
queue=yes seed=22 check mono -s 22 -n 300 -T 3 -c 310P -m 0
queue=no seed=23 check one -s 23 -n 60 -T 1 -d 2

# CANN's info.json says no rank: profiler_info.json's rank_id is taken.
is "$("$NPUPROF" show --db "$T/ticks/s.db" --format csv "$T/ticks/in" info |
    awk -F, '$1 == "rank_id" { print $2 }')" 1 \
    "the rank comes from profiler_info.json (seed 21: rank 1)"
is "$(sqlite3 "$T/ticks/s.db" "SELECT count(*) FROM task WHERE rank = 1")" \
    "$(sqlite3 "$T/ticks/s.db" "SELECT count(*) FROM task")" \
    "every kernel carries that rank"

# The layouts: every seventh op range of the generator is the old one.
d="$T/ticks"
n=$(count "$d/s.db" python)
is "$n" "$(grep -c '^python|' "$d/want/fwk_spans.txt")" \
    "op ranges of both layouts decoded ($n)"
is "$(count "$d/s.db" enqueue)" "$(count "$d/s.db" dequeue)" \
    "every enqueue has its dequeue"

# The UI's Python lanes are named as the analysed trace names them.
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" lanes |
    grep -q '^host,[0-9]*,N/A,Python,'
ok $? "the process is named Python"
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" lanes |
    grep -q ',Python GC,'
ok $? "the GC lane is named Python GC"

dam() {	# dam NAME: a fresh copy of the 'one' input in $T/NAME
	rm -rf "$T/$1"
	mkdir -p "$T/$1"
	cp -R "$T/one/in" "$T/$1/in"
	F="$T/$1/in/gen23_ascend_pt/FRAMEWORK"
}

# An op range file cut inside its last record: the ones before it stay.
dam cut
sz=$(wc -c <"$F/torch.op_range")
head -c $((sz - 10)) "$F/torch.op_range" >"$T/cut/x"
mv "$T/cut/x" "$F/torch.op_range"
load cut
is $st 0 "cut op range: import succeeds"
grep -q 'torch.op_range: offset [0-9]*: record cut short' "$T/cut/err"
ok $? "cut op range: warned at its offset"
is "$(count "$T/cut/s.db" python)" "$(($(count "$T/one/s.db" python) - 1))" \
    "cut op range: only the cut record lost"

# A record of another type: the rest of the file cannot be framed.
dam alien
printf '\011\000\004\000\000\000abcd' >>"$F/torch.op_mark"
load alien
grep -q 'torch.op_mark: offset [0-9]*: record of type 9 and 4 bytes where type 2 was expected' \
    "$T/alien/err"
ok $? "alien record type: warned"
is "$(count "$T/alien/s.db" dequeue)" "$(count "$T/one/s.db" dequeue)" \
    "alien record type: the marks before it kept"

# A tracer file cut inside its last event, and no names.
dam py
sz=$(wc -c <"$F/torch.python_tracer_func")
head -c $((sz - 5)) "$F/torch.python_tracer_func" >"$T/py/x"
mv "$T/py/x" "$F/torch.python_tracer_func"
rm "$F/torch.python_tracer_hash"
load py
grep -q 'torch.python_tracer_func: offset [0-9]*: last record cut short (28 of 33 bytes): skipped' \
    "$T/py/err"
ok $? "cut tracer events: warned"
grep -q 'no torch.python_tracer_hash: Python calls are named by their keys' \
    "$T/py/err"
ok $? "no tracer names: warned"
is "$(sqlite3 "$T/py/s.db" "SELECT count(*) FROM api a JOIN str l ON
    l.id = a.level JOIN str n ON n.id = a.name WHERE l.s =
    'python_function' AND n.s GLOB '[0-9]*'")" \
    "$(count "$T/py/s.db" python_function)" \
    "no tracer names: every call named by its key"

# A GC file cut short, and the clock description gone.
dam gc
printf 'xyz' >>"$F/torch.gc_record"
rm "$T/gc/in/gen23_ascend_pt/profiler_info.json"
load gc
is $st 0 "damaged GC records: import succeeds"
grep -q 'torch.gc_record: offset 72: last record cut short (3 of 24 bytes): skipped' \
    "$T/gc/err"
ok $? "cut GC record: warned at its offset"
grep -q 'no readable profiler_info\*.json: PyTorch times are taken as monotonic ns' \
    "$T/gc/err"
ok $? "no profiler_info.json: said"
is "$(count "$T/gc/s.db" GC)" 3 "damaged GC records: the whole ones kept"

# Two PROF_* beside one FRAMEWORK/: its records are read once.
dam twice
P=$(echo "$T/twice/in/gen23_ascend_pt"/PROF_*)
cp -R "$P" "$P-2"
load twice
is "$(count "$T/twice/s.db" python)" "$(count "$T/one/s.db" python)" \
    "two PROF_* dirs: the PyTorch ops once"
is "$(count "$T/twice/s.db" GC)" 3 "two PROF_* dirs: the GC pauses once"

# An op whose times overflow what a clock can give: counted, not loaded.
dam huge
printf '\001\000\104\000\000\000' >>"$F/torch.op_range"
printf '\000\377\377\377\377\377\377\177' >>"$F/torch.op_range"
printf '\000\377\377\377\377\377\377\177' >>"$F/torch.op_range"
head -c 42 /dev/zero >>"$F/torch.op_range"
printf '\002\000\004\000\000\000huge' >>"$F/torch.op_range"
load huge
is $st 0 "op with overflowing times: import succeeds"
grep -q 'torch.op_range: offset [0-9]*: 1 spans ending before they start, or with times out of range, the first here: skipped' \
    "$T/huge/err"
ok $? "op with overflowing times: counted at its offset"
is "$(count "$T/huge/s.db" python)" "$(count "$T/one/s.db" python)" \
    "op with overflowing times: the others kept"

# Memory records of an unknown size, and a cut one.
dam mem
printf '\003\000\074\000\000\000' >>"$F/torch.memory_usage"
head -c 60 /dev/zero >>"$F/torch.memory_usage"
printf '\003\000\115\000\000\000abc' >>"$F/torch.memory_usage"
load mem
grep -q 'torch.memory_usage: offset [0-9]*: 1 memory records of a size of no known layout (75, 76 or 77 bytes), the first here: skipped' \
    "$T/mem/err"
ok $? "memory record of an unknown size: warned"
grep -q 'torch.memory_usage: offset [0-9]*: record cut short (77 bytes announced): it is skipped' \
    "$T/mem/err"
ok $? "cut memory record: warned"
"$NPUPROF" show --db "$T/mem/s.db" --format csv "$T/mem/in" memory_record \
    >"$T/mem/got.csv"
same_file "$T/mem/got.csv" "$T/one/want/fwk_memory_record.csv" \
    "damaged memory records: the sound ones all kept"

# CANN's memory records: a task memory record of another kind and one
# without the magic number are skipped and warned, the rest kept; a
# process memory file one sample short loses that APP row only.
dam cann
H=$(echo "$T"/cann/in/gen23_ascend_pt/PROF_*/host/data)
M="$H/unaging.additional.task_memory_info.slice_0"
D=$(echo "$T"/cann/in/gen23_ascend_pt/PROF_*/device_0/data)
off=$(wc -c <"$M")
{
	printf '\132\132\020\047\007\000\000\000'
	head -c 248 /dev/zero
	head -c 256 /dev/zero
} >>"$M"
sz=$(wc -c <"$D/npu_mem.app.0.slice_0")
head -c $((sz - 32)) "$D/npu_mem.app.0.slice_0" >"$T/cann/x"
mv "$T/cann/x" "$D/npu_mem.app.0.slice_0"
load cann
is $st 0 "damaged CANN memory records: import succeeds"
grep -q "task_memory_info.slice_0: offset $off: 1 task memory record not of GE's kind (level 10000, type 6, 48 bytes) or with a time no collection can have, the first here: skipped" \
    "$T/cann/err"
ok $? "task memory record of another kind: warned at its offset"
grep -q "task_memory_info.slice_0: offset $((off + 256)): 1 record without" \
    "$T/cann/err"
ok $? "task memory record without the magic number: warned at its offset"
"$NPUPROF" show --db "$T/cann/s.db" --format csv "$T/cann/in" \
    memory_record >"$T/cann/got.csv"
last=$(grep -n '^APP,' "$T/one/want/fwk_memory_record.csv" | tail -n 1 |
    cut -d: -f1)
sed "${last}d" "$T/one/want/fwk_memory_record.csv" >"$T/cann/want.csv"
same_file "$T/cann/got.csv" "$T/cann/want.csv" \
    "damaged CANN memory records: the sound ones all kept"

# GE's records without an allocation: msprof keeps none of them.
dam norel
M=$(echo "$T"/norel/in/gen23_ascend_pt/PROF_*/host/data/unaging.additional.task_memory_info.slice_0)
n=$(($(wc -c <"$M") / 256))
i=1
while [ $i -lt $n ]; do
	dd if="$M" bs=256 skip=$i count=1 2>/dev/null
	i=$((i + 2))
done >"$T/norel/x"
mv "$T/norel/x" "$M"
load norel
grep -q "task_memory_info.slice_0: offset N/A: $((n / 2)) GE task memory records but no allocation: no rows, as msprof writes none" \
    "$T/norel/err"
ok $? "GE's records without an allocation: warned"
"$NPUPROF" show --db "$T/norel/s.db" --format csv "$T/norel/in" \
    memory_record operator_memory >"$T/norel/got.csv"
is "$(grep -c -e '^GE,' -e '^cann::' "$T/norel/got.csv")" 0 \
    "GE's records without an allocation: no GE or cann:: rows"

# A device folder without its clock pair: its process memory samples have
# no time base, and are said unread, not guessed at.
dam noclock
rm -f "$T"/noclock/in/gen23_ascend_pt/PROF_*/device_0/host_start.log*
load noclock
grep -q "npu_mem.app.0.slice_0: offset N/A: no host_start.log: the memory samples have no time, not read" \
    "$T/noclock/err"
ok $? "no host_start.log: the APP samples are said unread"
"$NPUPROF" show --db "$T/noclock/s.db" --format csv "$T/noclock/in" \
    memory_record >"$T/noclock/got.csv"
is "$(grep -c '^APP,' "$T/noclock/got.csv")" 0 "and give no APP rows"

# torch_npu's memory records in two files (every other record each): the
# rows are the same as from one file, merged in time order.
dam twofiles
python3 - "$F/torch.memory_usage" <<'PY'
import struct, sys
path = sys.argv[1]
data = open(path, "rb").read()
recs, i = [], 0
while i + 6 <= len(data):
    n = struct.unpack_from("<I", data, i + 2)[0]
    recs.append(data[i:i + 6 + n])
    i += 6 + n
open(path, "wb").write(b"".join(recs[0::2]))
open(path + ".1", "wb").write(b"".join(recs[1::2]))
PY
load twofiles
"$NPUPROF" show --db "$T/twofiles/s.db" --format csv "$T/twofiles/in" \
    memory_record >"$T/twofiles/got.csv"
same_file "$T/twofiles/got.csv" "$T/one/want/fwk_memory_record.csv" \
    "memory records in two files: merged in time order"

# Damaged parameter records: a tensor of seven fields (the first
# parameter of the first record) is skipped and counted, the others
# kept; a record of another type ends the file with a warning.
d="$T/params-bad"
"$GEN" prof "$d/in" -e "$d/want" -Y -s 24 -n 60 -T 1 >/dev/null
f=$(ls "$d"/in/*/FRAMEWORK/torch.param_tensor_info)
python3 - "$f" <<'PY'
import struct, sys
path = sys.argv[1]
b = bytearray(open(path, "rb").read())
i = b.index(b";")
b[i:i + 1] = b":"
b += struct.pack("<HI", 9, 4) + b"\0\0\0\0"
open(path, "wb").write(bytes(b))
PY
load params-bad
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" param_tensor_info \
    >"$d/params.got"
sed 2d "$d/want/fwk_param_tensor_info.csv" >"$d/params.want"
same_file "$d/params.got" "$d/params.want" \
    "params-bad: the malformed parameter skipped, the others kept"
grep -q 'torch.param_tensor_info: offset 0: 1 parameter not in torch_npu.s layout and 0 records without one' "$d/err"
ok $? "params-bad: the malformed parameter counted"
grep -q 'torch.param_tensor_info: offset [0-9]*: record of type 9 and 4 bytes where type 5 was expected' "$d/err"
ok $? "params-bad: the record of another type warned"

# Odd parameters: a gradient followed by more text is not torch_npu's
# layout (skipped, counted); a size that is no number leaves Bytes N/A; a
# key the tracer does not name is shown as its number; an empty record
# between two is counted, not taken for the end of the file.
d="$T/params-odd"
"$GEN" prof "$d/in" -s 24 -n 60 -T 1 -Y >/dev/null
f=$(ls "$d"/in/*/FRAMEWORK/torch.param_tensor_info)
python3 - "$f" <<'PY'
import struct, sys
ok = "0x1;0x2;float;4;2,3;3,1;20;0"
neg = "0x1;0x2;float;4;-1;1;20;0"
def rec(key, text):
    t = text.encode()
    v = struct.pack("<Q", key) + struct.pack("<HI", 1, len(t)) + t
    return struct.pack("<HI", 5, len(v)) + v
open(sys.argv[1], "wb").write(rec(327680, "w)%s)%s)junk}b)%s)" %
    (ok, ok, neg)) + struct.pack("<HI", 5, 0) + rec(999, "c)%s)" % ok))
PY
load params-odd
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" param_tensor_info |
    tail -n +2 >"$d/params.got"
cat >"$d/params.want" <<'CSV'
327680,nn.Module: Linear,0_0,module,1,b,float,-1,1,20,0,N/A,0x2,,
999,999,,module,0,c,float,"2,3","3,1",20,0,24,0x2,,
CSV
same_file "$d/params.got" "$d/params.want" \
    "params-odd: the odd parameter skipped, Bytes N/A, an unnamed key"
grep -q "offset 0: 1 parameter not in torch_npu.s layout" "$d/err"
ok $? "params-odd: the odd parameter counted at its record"
grep -q "torch.param_tensor_info: offset [0-9]*: 1 records shorter than" \
    "$d/err"
ok $? "params-odd: the empty record counted"

# A MindSpore folder with CANN's memory records: not torch_npu's tables
# (its memory_record is MindSpore's, prof-ms-mem.sh, and its
# operator_memory MindSpore's own, without torch_npu's cann:: rows of
# GE's records).
"$GEN" prof "$T/msmem/in" -s 12 -n 40 -T 2 -O >/dev/null
cp "$T"/one/in/gen23_ascend_pt/PROF_*/host/data/*task_memory_info* \
    "$T"/msmem/in/gen12_ascend_ms/PROF_*/host/data/
load msmem
"$NPUPROF" show -q --db "$T/msmem/s.db" --format csv "$T/msmem/in" \
    memory_record >"$T/msmem/rec"
is "$(head -n 1 "$T/msmem/rec" | tr -d '\r')" \
    "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),\
Total Active(MB),Device Type" "a MindSpore folder: MindSpore's memory_record"
is "$(grep -c -e '^PTA' -e '^WORKSPACE' "$T/msmem/rec")" 0 \
    "a MindSpore folder: no torch_npu rows"
is "$("$NPUPROF" show -q --db "$T/msmem/s.db" --format csv "$T/msmem/in" \
    operator_memory | grep -c '^cann::')" 0 \
    "a MindSpore folder: no cann:: rows in its operator_memory"

done_testing
