#!/bin/sh
# MindSpore's FRAMEWORK/mindspore.op_range of an un-analysed profile
# (npuprof-gen prof -Z): op ranges become spans of process MindSpore, named
# as MindSpore names them (launch ranges, a graph's ranges, stages, Python
# frames), "flow" ranges become async_mindspore flows, and what MindSpore
# leaves out (instants, ranges at time 0, flow ids of two starts) is
# counted and warned with its offset. The generator writes the spans and
# flows it expects; the store must hold exactly those. Damaged files warn
# with the file and offset and keep what is sound.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"

spans() {	# spans DB: name|pid|tid|start|end, sorted
	sqlite3 -separator '|' "$1" "SELECT n.s, a.pid, a.tid, a.start_ns,
	    a.end_ns FROM api a JOIN str l ON l.id = a.level
	    JOIN str n ON n.id = a.name WHERE l.s = 'MindSpore'" |
	    LC_ALL=C sort
}

flows() {	# flows DB: phase|id|tid|ts, sorted
	sqlite3 -separator '|' "$1" "SELECT phase, id, tid, ts_ns FROM flows
	    WHERE cat = 'async_mindspore' AND name = 'mindspore_to_self'" |
	    LC_ALL=C sort
}

load() {	# load NAME: import $T/NAME/in, warnings in $T/NAME/err
	"$NPUPROF" import -q --db "$T/$1/s.db" "$T/$1/in" 2>/dev/null
	st=$?
	"$NPUPROF" show --db "$T/$1/s.db" --format tsv "$T/$1/in" warnings \
	    2>/dev/null | tail -n +2 |
	    sed 's/\t/: offset /; s/\t/: /' >"$T/$1/err"
}

d="$T/one"
"$GEN" prof "$d/in" -e "$d/want" -s 5 -n 60 -T 2 -Z >/dev/null
ok $? "generate a MindSpore profile"
load one
is $st 0 "import"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" operator_memory \
    >"$d/opmem.csv"
same_file "$d/opmem.csv" "$d/want/ms_operator_memory.csv" \
    "operator_memory of mindspore.memory_usage, as MindSpore makes it"
# mindspore.record_shapes: a row of name and input shapes per record, with
# the generator's odd records (fields in another order, no shapes, a name
# twice, a name not UTF-8, a field running past its record).
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" operator_details \
    >"$d/opdet.csv"
same_file "$d/opdet.csv" "$d/want/ms_operator_details.csv" \
    "operator_details of mindspore.record_shapes, as MindSpore makes it"
# The generator's eighth record (at 507) has the field past its end, the
# seventh (at 468) the name that is not UTF-8.
grep -q "record_shapes: offset 507: a record's fields run past its end" \
    "$d/err"
ok $? "record_shapes: the field past its record warned at its offset"
grep -q "record_shapes: offset 468: 1 name or shape field not UTF-8" "$d/err"
ok $? "record_shapes: the name that is not UTF-8 counted at its record"
LC_ALL=C sort "$d/want/ms_spans.txt" >"$d/want.spans"
spans "$d/s.db" >"$d/got.spans"
same_file "$d/got.spans" "$d/want.spans" \
    "every op range is its span, named as MindSpore names it"
[ "$(wc -l <"$d/want.spans")" -gt 60 ]
ok $? "of launches, graph ranges, stages and Python frames ($(wc -l \
    <"$d/want.spans") spans)"
LC_ALL=C sort "$d/want/ms_flows.txt" >"$d/want.flows"
flows "$d/s.db" >"$d/got.flows"
same_file "$d/got.flows" "$d/want.flows" \
    "each flow id of one \"flow\" range and one other is a flow"
# async_npu flows, as MindSpore draws them: from the launch range (whose
# name holds KernelLaunch) around each task's host task record, on its
# thread, to the task; a graph's launch range draws none, and its tasks
# are counted.
sqlite3 -separator '|' "$d/s.db" "SELECT s.tid, s.ts_ns, e.device, e.tid,
    e.ts_ns FROM flows s JOIN flows e ON e.id = s.id AND e.cat = s.cat
    AND e.phase = 'f' WHERE s.phase = 's' AND s.cat = 'async_npu'
    AND s.name = 'mindspore_to_npu'" | LC_ALL=C sort >"$d/got.npu"
LC_ALL=C sort "$d/want/ms_npu_flows.txt" >"$d/want.npu"
same_file "$d/got.npu" "$d/want.npu" \
    "an async_npu flow from its launch range to each task launched in one"
[ "$(wc -l <"$d/want.npu")" -gt 40 ]
ok $? "of most tasks ($(wc -l <"$d/want.npu") flows)"
n=$(($(q "$d/s.db" "select count(*) from task where launch_ns is not null")
    - $(wc -l <"$d/want.npu")))
grep -q "PROF_[^:]*: offset N/A: $n launched device tasks in no MindSpore" \
    "$d/err"
ok $? "the tasks of no launch range counted"
is "$(q "$d/s.db" "select name from lane where pid = 1 and tid is null")" \
    MindSpore "its process is named MindSpore"
is "$(q "$d/s.db" "select count(*) from lane where pid = 1 and
    name = 'Thread ' || tid")" 2 "its threads Thread N"
# cpu_op_execute_timestamp_0.txt: each run of a host CPU op a span of
# process CPU OP (pid 2), start epoch ns, duration ms rounded to the ns
# half to even (12.3457 ns is 12, 2.5 is 2, 3.5 is 4); a line of two
# fields and two bad runs skipped, counted at their lines.
cpuops() {	# cpuops DB: name|pid|tid|start|end|args, sorted
	sqlite3 -separator '|' "$1" "SELECT n.s, a.pid, a.tid, a.start_ns,
	    a.end_ns, a.args FROM api a JOIN str l ON l.id = a.level
	    JOIN str n ON n.id = a.name WHERE l.s = 'CPU OP'" | LC_ALL=C sort
}
cpuops "$d/s.db" >"$d/got.cpu"
LC_ALL=C sort "$d/want/ms_cpu_spans.txt" >"$d/want.cpu"
same_file "$d/got.cpu" "$d/want.cpu" "CPU ops: every run its span"
is "$(wc -l <"$d/got.cpu")" 14 "CPU ops: of fourteen runs"
is "$(q "$d/s.db" "select name from lane where pid = 2 and tid is null")" \
    "CPU OP" "CPU ops: their process is named CPU OP"
is "$(q "$d/s.db" "select count(*) from lane where pid = 2 and
    name = 'Thread ' || tid")" 5 "CPU ops: their threads Thread N"
grep -q "cpu_op_execute_timestamp_0.txt: offset 618: 1 lines that are not" \
    "$d/err"
ok $? "CPU ops: the line not UTF-8 counted at its offset"
grep -q "cpu_op_execute_timestamp_0.txt: offset 667: 1 runs of a start," \
    "$d/err"
ok $? "CPU ops: the duration of a clock stepped back counted at its line"
grep -q "cpu_op_execute_timestamp_0.txt: offset 227: 1 lines without a" \
    "$d/err"
ok $? "CPU ops: the line of two fields counted at its offset"
grep -q "cpu_op_execute_timestamp_0.txt: offset 263: 2 runs that are not" \
    "$d/err"
ok $? "CPU ops: the two bad runs counted at their line"
# pipeline_profiling_0.json: the dataset pipeline's ops become
# minddata_pipeline_raw as MindSpore's analysis writes it (the inlined
# MapOp passed over for its children, a queue without samples, Python's
# float repr).
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    minddata_pipeline_raw >"$d/minddata.csv"
same_file "$d/minddata.csv" "$d/want/ms_minddata.csv" \
    "dataset pipeline: minddata_pipeline_raw as MindSpore writes it"
! grep -q "no minddata_cpu_utilization_0.json" "$d/err"
ok $? "dataset pipeline: its CPU use and device trace beside it"
# With them, minddata_pipeline_summary: a row per key, a column per op by
# id (op 6, which the walk never reaches, too), the CPU use of op -1 left
# out, a short trace line skipped; the findings in our words.
summary() {	# the table as CSV, without the padding of short rows
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
	    minddata_pipeline_summary 2>/dev/null | sed 's/\(,N\/A\)*$//'
}
summary >"$d/summary.csv"
same_file "$d/summary.csv" "$d/want/ms_minddata_summary.csv" \
    "dataset pipeline: minddata_pipeline_summary of its three files"
# An analysed folder's minddata_pipeline_summary_0.csv (rows as long as
# their values, CR LF) reads as the same table, its short rows no fault.
a="$T/analysed/in/x_ascend_ms/ASCEND_PROFILER_OUTPUT"
mkdir -p "$a"
sed 's/$/\r/' "$d/want/ms_minddata_summary.csv" \
    >"$a/minddata_pipeline_summary_0.csv"
load analysed
"$NPUPROF" show -q --db "$T/analysed/s.db" --format csv "$T/analysed/in" \
    minddata_pipeline_summary | sed 's/\(,N\/A\)*$//' >"$d/analysed.csv"
same_file "$d/analysed.csv" "$d/want/ms_minddata_summary.csv" \
    "an analysed folder's summary CSV: the same table"
! grep -q 'cells than the header' "$T/analysed/err"
ok $? "and its short rows not warned about"
grep -q "device_queue_profiling_0.txt: offset 66: 1 lines of fewer than" \
    "$d/err"
ok $? "dataset pipeline: the short trace line counted at its offset"
! grep -q "dataset_iterator\|files of no kind" "$d/err"
ok $? "dataset pipeline: the CPU use and trace are no unknown files"
f=$(ls -d "$d"/in/*/FRAMEWORK)
cp "$f/minddata_cpu_utilization_0.json" "$d/cpu.json"
cp "$f/device_queue_profiling_0.txt" "$d/trace.txt"
put_back() {	# the CPU use and trace as generated
	cp "$d/cpu.json" "$f/minddata_cpu_utilization_0.json"
	cp "$d/trace.txt" "$f/device_queue_profiling_0.txt"
}
# CPU use of six ops for seven: the numbers, no findings, said so.
sed 's/,{"metrics":{"sys_utilization":\[1\],"user_utilization":\[1\]},"op_id":6}//' \
    "$d/cpu.json" >"$f/minddata_cpu_utilization_0.json"
load one
is "$(summary | cut -d, -f1 | tr '\n' ' ')" "op_ids op_names pipeline_ops \
num_workers queue_average_size queue_utilization_pct queue_empty_freq_pct \
children_ids parent_id avg_cpu_pct per_pipeline_time per_push_queue_time \
per_batch_time " "dataset pipeline, CPU use of fewer ops: no findings"
grep -q "profiling_0.json: offset N/A: 7 ops but the CPU use of 6" "$d/err"
ok $? "and said why"
# Where MindSpore's summary fails: no table, said where; the raw table
# stays.
for bad in \
    'cpu.json|"op_id":6}/"op_id":7}|utilization_0.json: offset N/A: an op_id' \
    'trace.txt|0 0 3 7 1020/0 0 3 x 1020|profiling_0.txt: offset 53: a field' \
    'trace.txt|0 1 3 4/0 3 3 4|profiling_0.txt: offset 86: a time record'; do
	file=${bad%%|*} rest=${bad#*|}
	case $file in
	cpu.json) to="$f/minddata_cpu_utilization_0.json" ;;
	*) to="$f/device_queue_profiling_0.txt" ;;
	esac
	put_back
	sed "s/${rest%%|*}/" "$d/$file" >"$to"
	load one
	grep -q "${rest#*|}" "$d/err"
	ok $? "dataset pipeline summary, ${rest#*|}: warned"
	is "$(q "$d/s.db" "select count(*) from generic where
	    name = 'minddata_pipeline_summary'")" 0 "and no summary"
	is "$(q "$d/s.db" "select count(*) from minddata_pipeline_raw")" 5 \
	    "but minddata_pipeline_raw"
done
put_back
# Workers of text, divided into the CPU use: the pipeline's fault.
p=$(ls "$f"/pipeline_profiling_0.json)
cp "$p" "$d/pipeline.json"
sed 's/"num_workers":4,/"num_workers":"4",/' "$d/pipeline.json" >"$p"
load one
grep -q "pipeline_profiling_0.json: offset N/A: num_workers that is not a" \
    "$d/err"
ok $? "dataset pipeline summary, workers of text: warned at the pipeline"
cp "$d/pipeline.json" "$p"
# A DeviceQueue op whose input is empty 2 samples of 3, a Map of little
# CPU use over a starved queue: that finding, and the bottleneck.
p=$(ls "$f"/pipeline_profiling_0.json)
cp "$p" "$d/pipeline.json"
sed 's/DataQueueOp/DeviceQueueOp/; s/"size":\[10,12,13\]/"size":[0,0,13]/
    s/"size":\[4,5\]/"size":[0,1]/' "$d/pipeline.json" >"$p"
sed 's/"user_utilization":\[260,270\]/"user_utilization":[26,27]/' \
    "$d/cpu.json" >"$f/minddata_cpu_utilization_0.json"
load one
summary | grep -q '^queue_analysis_details,"DeviceQueue(id=0): its input queue is empty 66.67%'
ok $? "dataset pipeline summary: the device queue's empty input found"
is "$(summary | grep '^bottleneck_warning')" "bottleneck_warning,Map(id=2)" \
    "dataset pipeline summary: the Map over a starved queue the bottleneck"
cp "$d/pipeline.json" "$p"
# Python's rules on odd values: an empty string of CPU use zips to
# nothing (a mean of 0); an object of children twice the key "x" is one
# key, its last value; leading zeros are no digits of a trace field.
sed 's/"children":\[0\]/"children":{"x":1,"x":2,"a'"'"'b":3}/' \
    "$d/pipeline.json" >"$p"
sed 's/"sys_utilization":\[1\],"user_utilization":\[1\]},"op_id":6/"sys_utilization":"","user_utilization":[1]},"op_id":6/' \
    "$d/cpu.json" >"$f/minddata_cpu_utilization_0.json"
{ cat "$d/trace.txt"; printf '0 0 5 %s7 2000\n' \
    0000000000000000000000000000000000000000; } \
    >"$f/device_queue_profiling_0.txt"
load one
is "$(summary | grep '^children_ids' | sed 's/.*,\[\],\[\],//')" \
    "\"{'x': 2, \"\"a'b\"\": 3}\"" \
    "dataset pipeline summary: object children as Python's dict prints them"
is "$(summary | grep '^avg_cpu_pct,' | cut -d, -f8)" 0 \
    "dataset pipeline summary: CPU use of an empty string, a mean of 0"
is "$(summary | grep '^per_pipeline_time')" "per_pipeline_time,6.667" \
    "dataset pipeline summary: a trace field of leading zeros read"
put_back
# Without them MindSpore 2.5 on writes no table: ours is built, said so.
f=$(ls -d "$d"/in/*/FRAMEWORK)
mv "$f/device_queue_profiling_0.txt" "$d/trace.txt"
load one
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    minddata_pipeline_raw >"$d/minddata.csv"
same_file "$d/minddata.csv" "$d/want/ms_minddata.csv" \
    "dataset pipeline without a device trace: the table all the same"
grep -q "profiling_0.json: offset N/A: no minddata_cpu_utilization_0.json" \
    "$d/err"
ok $? "and a warning that MindSpore writes none then"
is "$(q "$d/s.db" "select count(*) from generic where
    name = 'minddata_pipeline_summary'")" 0 "and no summary, which needs it"
mv "$d/trace.txt" "$f/device_queue_profiling_0.txt"
# What MindSpore's analysis fails on: no table, and said why.
p=$(ls "$d"/in/*/FRAMEWORK/pipeline_profiling_0.json)
cp "$p" "$d/pipeline.json"
for bad in 'op_id":0,/op_id":9,/no op of id 0' \
    '"length":64/"length":0/an output queue of length 0' \
    '"op_id":3/"op_id":1/an op_id twice' \
    '"sampling_interval":10}/"sampling_interval":10/not JSON'; do
	sed "s/${bad%/*}/" "$d/pipeline.json" >"$p"
	load one
	grep -q "pipeline_profiling_0.json: offset N/A: ${bad##*/}" "$d/err"
	ok $? "dataset pipeline with ${bad##*/}: warned"
	is "$(q "$d/s.db" "select count(*) from generic where
	    name = 'minddata_pipeline_raw'")" 0 "and no table"
done
# Ops without queues pulled up breadth first, an op reached twice listed
# twice, as MindSpore's walk does (five children, then six more); faults
# in an op the walk never reaches (op 8's metrics) do not matter.
printf '%s' '{"op_info":[{"op_id":0,"children":[1,2,3,4,5]},
{"op_id":1,"children":[2,3,4,5,6,7]},{"op_id":2},{"op_id":3},
{"op_id":4,"metrics":{"output_queue":{"length":2,"size":[1]}}},
{"op_id":5},{"op_id":6},{"op_id":7},{"op_id":8,"metrics":5}],
"sampling_interval":1}' >"$p"
load one
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    minddata_pipeline_raw | tail -n +2 >"$d/pulled.csv"
printf '%s\n' '0,,,,,,,1,,"[4, 4]"' '4,,,[1],1.0,2,0.5,1,0,' \
    '4,,,[1],1.0,2,0.5,1,0,' >"$d/pulled.want"
same_file "$d/pulled.csv" "$d/pulled.want" \
    "dataset pipeline: children pulled up, an op reached twice twice"
# Ids as Python's dict keys: the root -0.0 is op 0; children "12" are
# the ids "1" and "2", a string's characters.
printf '%s' '{"op_info":[{"op_id":-0.0,"children":"12"},{"op_id":"1",
"metrics":{"output_queue":{"length":4,"size":[1,2]}}},{"op_id":"2"}],
"sampling_interval":10}' >"$p"
load one
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    minddata_pipeline_raw | tail -n +2 >"$d/ids.csv"
printf '%s\n' "-0.0,,,,,,,10,,['1']" '1,,,"[1, 2]",1.5,4,0.375,10,-0.0,' \
    >"$d/ids.want"
same_file "$d/ids.csv" "$d/ids.want" \
    "dataset pipeline: ids compared and iterated as Python does"
cp "$d/pipeline.json" "$p"
is "$(q "$d/s.db" "select value from meta where key = 'framework'")" \
    "MindSpore FRAMEWORK/ (raw)" "info says where the spans came from"
F=mindspore.op_range
for w in "op ranges of no length, the first here: instants" \
    "op ranges starting at time 0" \
    "indexes MindSpore does not know, the first here: named Default" \
    "not UTF-8, the first here: read as N/A" \
    "flow ids without exactly one"; do
	grep -q "$F.*1 .*$w" "$d/err"
	ok $? "warned: $w"
done
grep -q "$F: offset [0-9][0-9]*: 1 op ranges of no length" "$d/err"
ok $? "with the offset of the record"
# Nested as the analysed trace nests them: a launch range holds its ACL
# call, a stage its launch.
is "$(q "$d/s.db" "select count(*) from api c join api p on p.id = c.parent
    join str l on l.id = p.level join str cl on cl.id = c.level
    where l.s = 'MindSpore' and cl.s = 'acl'")" \
    "$(grep -c -e '::KernelLaunch::' -e '^Graph::Launch::' \
    "$d/want.spans")" "each ACL call nests in its launch range"
is "$(q "$d/s.db" "select count(*) from api c join api p on p.id = c.parent
    join str n on n.id = p.name join str l on l.id = c.level
    where n.s = 'RunOp' and l.s = 'MindSpore'")" \
    "$(grep -c '^RunOp|' "$d/want.spans")" \
    "each stage holds the launch range inside it"

# The mindspore stacks: MindSpore's ranges over the CANN call path. Every
# task is there once, and a line with its MindSpore frames taken off is a
# line of the cann stacks (the same tasks under the same calls).
stacks() {	# stacks SRC: the folded stacks of the sound profile
	"$NPUPROF" show --db "$d/s.db" ${1:+--stacks "$1"} "$d/in" stacks \
	    2>/dev/null
}
stacks cann >"$d/cann.folded"
stacks mindspore >"$d/ms.folded"
stacks >"$d/auto.folded"
same_file "$d/auto.folded" "$d/ms.folded" \
    "stacks: auto takes MindSpore's ranges when a profile has them"
is "$(awk '{ s += $NF } END { print s }' "$d/ms.folded")" \
    "$(awk '{ s += $NF } END { print s }' "$d/cann.folded")" \
    "stacks mindspore: as much device time as cann"
grep -q '^Kernel::KernelLaunch::[^;]*;aclnn[^;]*;launch;' "$d/ms.folded"
ok $? "a kernel launch range over the ACL call it made"
cut -d'|' -f1 "$d/want.spans" | LC_ALL=C sort -u >"$d/ms.names"
awk 'NR == FNR { ms[$0] = 1; next }
{
	w = $NF
	sub(/ [0-9]+$/, "")
	n = split($0, f, ";")
	for (i = 1; i < n && f[i] in ms; i++)
		;
	p = f[i]
	for (i++; i <= n; i++)
		p = p ";" f[i]
	sum[p] += w
}
END { for (p in sum) print p, sum[p] }' "$d/ms.names" "$d/ms.folded" |
    LC_ALL=C sort >"$d/ms.stripped"
LC_ALL=C sort "$d/cann.folded" >"$d/cann.sorted"
same_file "$d/ms.stripped" "$d/cann.sorted" \
    "without MindSpore's frames, the cann stacks"
[ "$(grep -c ';' "$d/ms.folded")" -gt "$(grep -c ';' "$d/cann.folded")" ]
ok $? "and more paths with them"

dam() {		# dam NAME: a copy of the sound input to damage
	rm -rf "$T/$1"
	mkdir -p "$T/$1"
	cp -R "$d/in" "$T/$1/in"
	G=$(echo "$T/$1"/in/*_ascend_ms/FRAMEWORK)
}

# Cut inside the last record: the ones before it stay.
dam cut
sz=$(wc -c <"$G/$F")
head -c $((sz - 7)) "$G/$F" >"$T/cut/x"
mv "$T/cut/x" "$G/$F"
load cut
is $st 0 "cut file: import succeeds"
grep -q "$F: offset [0-9]*: record cut short" "$T/cut/err"
ok $? "cut file: warned at the record's offset"
is "$(spans "$T/cut/s.db" | wc -l)" "$(($(wc -l <"$d/want.spans") - 1))" \
    "cut file: only the cut record lost"

# A record shorter than the fixed part, then its fields cut inside.
dam short
printf '\001\000\010\000\000\000abcdefgh' >>"$G/$F"
load short
at=$(wc -c <"$d/in"/*_ascend_ms/FRAMEWORK/$F)
grep -q "$F: offset $at: 1 records shorter than their fixed part" \
    "$T/short/err"
ok $? "short record: warned at its offset"
is "$(spans "$T/short/s.db" | wc -l)" "$(wc -l <"$d/want.spans")" \
    "short record: every sound one kept"

# record_shapes cut inside its last record: the records before stay.
dam shapes
R=$G/mindspore.record_shapes
head -c $(($(wc -c <"$R") - 5)) "$R" >"$T/shapes/x"
mv "$T/shapes/x" "$R"
load shapes
grep -q "record_shapes: offset [0-9]*: record cut short" "$T/shapes/err"
ok $? "record_shapes cut: warned at the record's offset"
is "$("$NPUPROF" show -q --db "$T/shapes/s.db" --format csv "$T/shapes/in" \
    operator_details | wc -l)" \
    "$(($(wc -l <"$d/want/ms_operator_details.csv") - 1))" \
    "record_shapes cut: only the cut record lost"

# Records of no bytes are listed as empty rows, as MindSpore lists them;
# a NUL byte ends our cell (MindSpore keeps the rest), counted; a file
# whose name only starts like record_shapes is not read, but named.
dam shapes2
R=$G/mindspore.record_shapes
at=$(wc -c <"$R")
printf '\003\000\000\000\000\000' >>"$R"
printf '\003\000\011\000\000\000\000\000\003\000\000\000A\000B' >>"$R"
cp "$R" "$G/mindspore.record_shapes.bak"
load shapes2
"$NPUPROF" show -q --db "$T/shapes2/s.db" --format csv "$T/shapes2/in" \
    operator_details | tail -n 2 >"$T/shapes2/last"
printf ',\nA,\n' >"$T/shapes2/want"
same_file "$T/shapes2/last" "$T/shapes2/want" \
    "record_shapes: an empty record an empty row, a NUL ends the cell"
is "$("$NPUPROF" show -q --db "$T/shapes2/s.db" --format csv \
    "$T/shapes2/in" operator_details | wc -l)" \
    "$(($(wc -l <"$d/want/ms_operator_details.csv") + 2))" \
    "record_shapes: the .bak file not read"
grep -q "record_shapes: offset $at: 1 record of no bytes" "$T/shapes2/err"
ok $? "record_shapes: the empty record counted at its offset"
grep -q "shapes: offset $((at + 6)): 1 name or shape field holding a NUL" \
    "$T/shapes2/err"
ok $? "record_shapes: the NUL byte counted at its record"
grep -q "FRAMEWORK: offset N/A: 1 file of no kind we know.*shapes.bak" \
    "$T/shapes2/err"
ok $? "record_shapes: the .bak file named as not decoded"

# An empty file: nothing to read, nothing to pair.
dam empty
: >"$G/$F"
load empty
is $st 0 "empty file: import succeeds"
is "$(spans "$T/empty/s.db" | wc -l)" 0 "empty file: no spans"

# An op_range_N file of a version other than 2.4 and 2.5: said, not
# guessed at.
dam old
printf '\001\000\003\000\000\000abc' >"$G/op_range_0"
load old
grep -q \
    "op_range_0.*MindSpore 2.6.0 op ranges .* not decoded: only the layout" \
    "$T/old/err"
ok $? "an op_range_N file: warned as not decoded"
is "$(spans "$T/old/s.db" | wc -l)" "$(wc -l <"$d/want.spans")" \
    "an op_range_N file: the rest is read"

# No host clock: the file is not read, and says why.
dam noclock
rm "$T/noclock"/in/*_ascend_ms/PROF_*/host/host_start.log
load noclock
grep -q "$F.*no host_start.log or host frequency.*not read" \
    "$T/noclock/err"
ok $? "no host_start.log: warned, not guessed"
is "$(spans "$T/noclock/s.db" | wc -l)" 0 "no host_start.log: no spans"
# old VER GEN-ARGS...: a MindSpore VER profile of op_range_<rank>
# generated (as v<VER without the dot>), imported, and its spans, self
# flows, async_npu flows and args compared with the generator's; then
# the custom infos VER's reader fails on (sequence number $kind modulo
# 6) counted, if $kind is set.
old() {
	v=$1
	shift
	o="$T/v$(echo "$v" | tr -d .)"
	"$GEN" prof "$o/in" -e "$o/want" -s 5 -n 60 -T 2 "$@" >/dev/null
	ok $? "generate a MindSpore $v profile"
	load "$(basename "$o")"
	is $st 0 "$v: import"
	spans "$o/s.db" >"$o/got.spans"
	LC_ALL=C sort "$o/want/ms_spans.txt" >"$o/want.spans"
	same_file "$o/got.spans" "$o/want.spans" \
	    "$v: every op range is its span"
	flows "$o/s.db" >"$o/got.flows"
	LC_ALL=C sort "$o/want/ms_flows.txt" >"$o/want.flows"
	same_file "$o/got.flows" "$o/want.flows" \
	    "$v: the mindspore_to_self flows"
	sqlite3 -separator '|' "$o/s.db" "SELECT s.tid, s.ts_ns, e.device,
	    e.tid, e.ts_ns FROM flows s JOIN flows e ON e.id = s.id AND
	    e.cat = s.cat AND e.phase = 'f' WHERE s.phase = 's' AND
	    s.cat = 'async_npu'" | LC_ALL=C sort >"$o/got.npu"
	LC_ALL=C sort "$o/want/ms_npu_flows.txt" >"$o/want.npu"
	same_file "$o/got.npu" "$o/want.npu" "$v: the async_npu flows"
	sqlite3 -separator '|' "$o/s.db" "SELECT n.s, a.tid, a.start_ns,
	    a.args FROM api a JOIN str l ON l.id = a.level JOIN str n ON
	    n.id = a.name WHERE l.s = 'MindSpore'" | LC_ALL=C sort \
	    >"$o/got.args"
	LC_ALL=C sort "$o/want/ms_args.txt" >"$o/want.args"
	same_file "$o/got.args" "$o/want.args" \
	    "$v: sequence number, forward thread and custom info as args"
	[ -n "$kind" ] || return 0
	bad=$(sed -n 's/.*"Sequence number":\([0-9]*\),.*/\1/p' \
	    "$o/want.args" | awk -v k="$kind" '$1 % 6 == k' | wc -l)
	grep -q "op_range_0: offset [0-9]*: $bad custom infos" "$o/err"
	ok $? "$v: custom infos its reader fails on counted"
}
# MindSpore 2.5 (npuprof-gen prof -O): op_range_<rank>, 74-byte fixed
# parts, each range's name written whole, the sequence number, forward
# thread and custom info as args; read because profiler_info says 2.5.
# Its reader fails on custom info kind 4 ("a:b:c;d:e").
kind=4 old 2.5 -O
# MindSpore 2.5 and later: the memory pool's records become
# operator_memory (the owner in field 3 for 2.5), with the generator's
# odd addresses (a release first, an allocation replaced, a release too
# many) counted where MindSpore's pairing loses or bends a row.
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" operator_memory \
    >"$o/opmem.csv"
same_file "$o/opmem.csv" "$o/want/ms_operator_memory.csv" \
    "2.5: operator_memory of mindspore.memory_usage"
grep -q "1 memory release with no allocation before it" "$o/err"
ok $? "2.5: the release too many counted"
grep -q "1 memory allocation followed by another" "$o/err"
ok $? "2.5: the allocation replaced counted"
grep -q "op_range_0: offset [0-9]*: 1 name fields that are not UTF-8" \
    "$o/err"
ok $? "2.5: a name that is not UTF-8 reads N/A, warned"
# MindSpore 2.4 (-V 2.4) writes the same layout; its reader takes every
# key:value pair of a custom info (and fails on kind 5's empty part) and
# links any two ranges of a flow id: the two "flow" ranges of id 7 too.
kind=5 old 2.4 -V 2.4
grep -q '^s|7|' "$o/want.flows"
ok $? "2.4: id 7's two flow ranges linked (as the generator expects)"
# 2.4 writes its CPU ops beside FRAMEWORK/, as its pool totals.
cpuops "$o/s.db" >"$o/got.cpu"
LC_ALL=C sort "$o/want/ms_cpu_spans.txt" >"$o/want.cpu"
same_file "$o/got.cpu" "$o/want.cpu" "2.4: CPU ops beside FRAMEWORK/ read"
# The rank's file in FRAMEWORK/ too: read once, from there.
top=$(ls -d "$o"/in/*_ascend_ms)
cp "$top/cpu_op_execute_timestamp_0.txt" "$top/FRAMEWORK/"
load v24
cpuops "$o/s.db" >"$o/got.cpu"
same_file "$o/got.cpu" "$o/want.cpu" "2.4: CPU ops in both places read once"
rm "$top/FRAMEWORK/cpu_op_execute_timestamp_0.txt"
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" \
    minddata_pipeline_raw >"$o/minddata.csv"
same_file "$o/minddata.csv" "$o/want/ms_minddata.csv" \
    "2.4: its dataset pipeline beside FRAMEWORK/ read"
# Another rank's CPU ops, or a profile whose activities leave out the
# CPU: not read, as MindSpore reads none, and said so.
top=$(ls -d "$o"/in/*_ascend_ms)
c=cpu_op_execute_timestamp
mv "$top/${c}_0.txt" "$top/FRAMEWORK/${c}_1.txt"
load v24
grep -q "${c}_1.txt: offset N/A: MindSpore CPU ops of another rank" "$o/err"
ok $? "CPU ops of another rank: warned"
is "$(cpuops "$o/s.db" | wc -l)" 0 "and not read"
mv "$top/FRAMEWORK/${c}_1.txt" "$top/FRAMEWORK/${c}_0.txt"
a='"profiler_parameters":{"activities":["NPU"]}'
sed -i "s/\"rank_id\":0}/\"rank_id\":0,$a}/" "$top/profiler_info_0.json"
load v24
grep -q "${c}_0.txt: offset N/A: MindSpore CPU ops of a profile whose" "$o/err"
ok $? "CPU ops of a profile without CPU activity: warned"
is "$(cpuops "$o/s.db" | wc -l)" 0 "and not read"
# MindSpore 2.3 (-V 2.3): 73-byte fixed parts, no custom info, its own
# clock pair in profiler_info (system_cnt, system_time), process 0, a
# range of no length a span, flow ids linked as 2.4 does, and a launch up
# to 1 ms before a launch range still in it (the generator's op 6, whose
# range reads N/A, takes the next op's).
kind= old 2.3 -V 2.3
grep -q '^Instant|0|' "$o/want.spans"
ok $? "2.3: the range of no length a span (as the generator expects)"
! grep -q 'custom infos' "$o/err"
ok $? "2.3: no custom info read"
# Without its clock pair MindSpore 2.3's times cannot be converted.
f=$(ls -d "$o"/in/*_ascend_ms)/profiler_info_0.json
sed -i 's/,"system_cnt".*/}/' "$f"
load v23
grep -q "op_range_0: offset N/A: MindSpore 2.3.1 op ranges without system_cnt" \
    "$o/err"
ok $? "2.3 without system_cnt and system_time: not read, warned"
is "$(spans "$o/s.db" | wc -l)" 0 "and no MindSpore spans"
# q_stage DB: 1 if a MindSpore stage range (RunOp) starts async_npu flows.
q_stage() {
	sqlite3 "$1" "SELECT count(*) > 0 FROM flows f JOIN api a ON
	    a.tid = f.tid AND a.start_ns = f.ts_ns JOIN str n ON n.id = a.name
	    WHERE f.cat = 'async_npu' AND f.phase = 's' AND n.s = 'RunOp'"
}
# MindSpore 2.3's release candidates (-V 2.3rc2, -V 2.3rc1): 57-byte
# fixed parts (no flow id, no step), so no "flow" ranges and no
# mindspore_to_self flows; a call stack's frames split after their ';'
# (every third launch range has one); every range of a thread a launch
# range, with no slack before it. rc2 writes 2.3's clock pair; rc1 does
# not (MindSpore takes the analysing machine's clock then): the CANN
# host's clock converts its ticks, as for 2.4.
for rc in 1 2; do
	kind= old 2.3rc$rc -V 2.3rc$rc
	is "$(wc -l <"$o/want.flows")" 0 "2.3rc$rc: no self flows expected"
	grep -q '^flow|0|' "$o/want.spans"
	ok $? "2.3rc$rc: a range named flow a span (as the generator expects)"
	! grep -q "flow ids without" "$o/err"
	ok $? "2.3rc$rc: no flow ids read"
	grep -q 'Call stack":"model.py(3): f;\\r\\ntrain' "$o/got.args"
	ok $? "2.3rc$rc: a call stack split after its ';'"
	is "$(q_stage "$o/s.db")" 1 "2.3rc$rc: a stage's range starts flows"
done
is "$(q_stage "$T/v23/s.db")" 0 "2.3: a stage's range starts none"
grep -q 'stack":"model.py(3): f;train.py(9): g\\r\\nrun' "$T/v23/want.args"
ok $? "2.3: a call stack split at its '|' (as the generator expects)"
# Without profiler_info's ms_version: not read, and said so.
o="$T/v25"
rm -f "$o"/in/*_ascend_ms/profiler_info_0.json
load v25
grep -q "op_range_0: offset N/A: MindSpore (version unknown" "$o/err"
ok $? "op_range_N of no known version: not decoded, warned"
is "$(spans "$o/s.db" | wc -l)" 0 "and no MindSpore spans"

# A MindSpore and a torch_npu collection of one rank in one store: the
# MindSpore import nests the rank's host spans again at the commit, mstx
# markers too, so torch_npu's spans loaded after it on a thread of those
# markers must wait for that walk, not nest as they load without them.
# The op ranges are cut so that the markers' thread has no span of
# MindSpore's own (found by review: two Dequeue spans lost their parent).
c=$T/comb
"$GEN" prof "$c/pt" -s 5 -n 200 -T 2 -Y -u 20 -r 0/1 >/dev/null
"$GEN" prof "$c/ms" -s 5 -n 200 -T 2 -Z -u 20 -r 0/1 >/dev/null
mkdir "$c/in"
cp -r "$c/ms/gen5_ascend_ms" "$c/in/a_ms"
cp -r "$c/pt/gen5_ascend_pt" "$c/in/b_pt"
truncate -s 400 "$c/in/a_ms/FRAMEWORK/mindspore.op_range"
"$NPUPROF" import -q --stores one --db "$c/s.db" "$c/in" 2>/dev/null
ok $? "a MindSpore and a torch_npu collection of one rank import together"
is "$(q "$c/s.db" "SELECT count(*), sum(ifnull(p.s LIKE 'markex-%', 0))
    FROM api c JOIN str n ON n.id = c.name AND n.s = 'Dequeue@aten::cast'
    LEFT JOIN api pa ON pa.id = c.parent LEFT JOIN str p ON p.id = pa.name
    WHERE EXISTS (SELECT 1 FROM api m JOIN str mn ON mn.id = m.name
    WHERE mn.s LIKE 'markex-%' AND m.tid = c.tid AND m.rank IS c.rank
    AND m.start_ns <= c.start_ns AND m.end_ns >= c.end_ns)")" "2|2" \
    "torch_npu spans within MindSpore's mstx markers nest under them"
done_testing
