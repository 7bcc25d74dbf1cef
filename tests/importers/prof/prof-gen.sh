#!/bin/sh
# Golden tests of the raw PROF importer: our C generator (npuprof-gen
# prof) writes raw collections byte for byte per doc/formats.md together with
# the op_statistic, api_statistic and op_summary it expects, computed from
# the generated values; importing the collection must give exactly those
# tables. The cases cover the hard parts: task-id wrap with FLIP records,
# FFTS+ context ids, events as halves, records across slices, stray head
# bytes, aging/unaging files, several threads and devices, static and
# dynamic ops, model spans, a missing dictionary entry, and AI Core PMU
# records (ffts_profile.data, aicore.data) with PipeUtilization metrics,
# or with -A ArithmeticUtilization ones (events in sample.json out of
# numeric order), and with -F AI Core frequency changes (lpmFreqConv).
# With -t the device ts_track slices also hold step trace records of two
# interleaved models (framed by model start/end, and iteration ends back
# to back), checked against the expected step_trace; with -u the host
# has mstx markers (marks, ranges and MarkEx messages in several segments
# written out of order), checked against the expected msprof_tx. With -g
# the host also has graph_id_map, fusion_op_info, node_attr_info,
# communication ops (hccl_op_info, hccl_info), memcpys (memcpy_info shared
# over MEMCPY_ASYNC tasks, lost, redundant and old-layout records) and
# capture_stream_info records that give ops a model id, each checked
# against its expected table; with -G the memcpy tasks also run on the
# devices, so their rows get times and bandwidths. With -c 950 (chip V6)
# the device logs are 32 bytes with 32-bit task ids and no stream id;
# with -2 the host's task_track records are in the V2 layout; -C adds
# AI CPU ops and their runs in aicpu.data (table aicpu), KFC server and
# compute turns (table kfc_turn) and the records of the AI CPU's own
# communication (tables kfc_info, device_hccl_op_info, aicpu_flip,
# aicpu_master_task), with the host's mc2_comm_info, and each device's MC2
# op rebuilt from them (tables kfc_op, kfc_task). The memcpy device
# tasks are not compute tasks: as the vendor, op_summary leaves them out
# (they stay in task_time and on the timeline), and info counts them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/importers/prof/mc2.lib"

check() {	# check NAME GEN-ARGS...
	name=$1
	shift
	d="$T/$name"
	"$GEN" prof "$d/in" -e "$d/want" "$@" 2>"$d.err"
	ok $? "$name: generate $*"
	tables=${only:-$(cd "$d/want" && ls | sed 's/\.csv$//')}
	for table in $tables; do
		"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
		    "$d/in" $table >"$d/$table.csv" 2>>"$d.err"
		same_file "$d/$table.csv" "$d/want/$table.csv" \
		    "$name: $table as generated"
	done
	[ ! -s "$d.err" ]
	ok $? "$name: no warnings"
	[ -s "$d.err" ] && sed 's/^/#   /' "$d.err" | head -5
	return 0
}

check b910 -s 1 -n 1500 -a 150 -E 30 -M 30 -x -u 5
check b910-wrap -s 2 -n 3000 -S 2 -a 20 -w -t 2
check b910-slices -s 3 -n 800 -S 3 -T 3 -H 1024 -D 1000 -k 24 -E 50 -t 7
check b910-devices -s 4 -n 1200 -d 2 -T 4 -S 3 -P 60 -M 50 -u 30
check p310 -s 5 -n 1000 -c 310P -w -m 0 -k 40 -D 777 -x -u 6
check a910 -s 6 -n 900 -c 910A -d 2 -E 50 -P 50 -H 2048 -t 4 -u 13
check b910-pmu -s 7 -n 700 -p -D 5000 -k 8
check p310-pmu -s 8 -n 700 -c 310P -p -d 2 -w
check b910-arith -s 9 -n 600 -p -A -F -D 3000 -d 2
check p310-arith -s 10 -n 600 -c 310P -p -A
check b910-freq -s 11 -n 600 -p -F -t 3 -u 4
check b910-extras -s 14 -n 1200 -d 2 -T 3 -M 40 -E 30 -g
check p310-extras -s 15 -n 900 -c 310P -w -g -H 1536 -u 3
check v2 -s 31 -n 1500 -2 -S 3 -T 2 -E 30 -M 30 -x -u 5
check v2-wrap -s 32 -n 3000 -2 -w -S 2 -t 2
check v2-p310 -s 33 -n 900 -2 -c 310P -w -g -d 2
check aicpu -s 41 -n 1500 -C -S 3 -T 2
check aicpu-devices -s 42 -n 2000 -C -d 2 -D 3000 -g -M 30 -t 4
check aicpu-wrap -s 43 -n 800 -C -w -S 2 -2 -t 3
check v6 -s 21 -n 800 -c 950 -S 3 -T 2
check v6-v2 -s 34 -n 800 -2 -c 950 -w -d 2
check v6-wrap -s 22 -n 3000 -c 950 -w -S 2 -d 2
check v6-extras -s 23 -n 900 -c 950 -g -T 3 -D 777 -k 8 -E 30 -M 30 -u 5
only="memcpy_info op_statistic api_statistic op_summary"
check b910-copies -s 16 -n 800 -G -d 2 -D 3000
only="memcpy_info op_statistic op_summary"
check a910-copies -s 17 -n 700 -c 910A -G -w
only=

# Between the compute tasks of the -G cases run memcpy tasks: the Task
# Wait Time of a compute row is still counted from the compute row before
# it, as in the vendor's op_summary, whatever ran in between (checked
# above); the memcpy tasks are in task_time, not in op_summary, and info
# says how many op_summary leaves out.
for name in b910-copies a910-copies; do
	db="$T/$name/s.db"
	all=$("$NPUPROF" show --db "$db" --format csv "$T/$name/in" task_time |
	    tail -n +2 | wc -l)
	listed=$("$NPUPROF" show --db "$db" --format csv "$T/$name/in" \
	    op_summary | tail -n +2 | wc -l)
	copies=$("$NPUPROF" show --db "$db" --format csv "$T/$name/in" \
	    task_time | awk -F, '$2 == "N/A" && $3 ~ /^SDMA/' | wc -l)
	left=$("$NPUPROF" show --db "$db" --format csv "$T/$name/in" info |
	    awk -F, '$1 == "tasks_not_in_op_summary" { print $2 }')
	ok $([ "$copies" -gt 0 ]; echo $?) "$name: memcpy tasks in task_time"
	is "$left" "$((all - listed))" \
	    "$name: info counts the tasks op_summary leaves out"
	is "$left" "$copies" "$name: those are the memcpy tasks"
done
# With -2 the host's task_track records are in the V2 layout: info says
# so. A V1 record among them is damage: a warning, and all read as V1.
is "$("$NPUPROF" show --db "$T/v2/s.db" --format csv "$T/v2/in" info |
    awk -F, '$1 == "task_track_layout" { print $2 }')" V2 \
    "v2: info names the task_track layout"
d="$T/v2-mixed"
"$GEN" prof "$d/v1" -s 36 -n 50 >/dev/null
"$GEN" prof "$d/in" -s 36 -n 300 -2 >/dev/null
f=$(ls "$d"/in/PROF_*/host/data/aging.compact.task_track.slice_0)
dd if="$(ls "$d"/v1/PROF_*/host/data/aging.compact.task_track.slice_0)" \
    of="$f" bs=64 count=1 conv=notrunc 2>/dev/null
"$NPUPROF" import --db "$d/s.db" "$d/in" >/dev/null 2>"$d/err"
ok $? "v2-mixed: imported"
grep -q 'task_track: [0-9]* records look like the V2 layout and 1 like V1' \
    "$d/err"
ok $? "v2-mixed: a warning counts the records of each layout"
# AI CPU runs (-C): a run whose end no AI CPU task holds is N/A; a run
# without an end time is skipped and counted, a record of an unknown kind
# is counted, and the rest stay. The file starts with three data
# preprocessing records, three queue waits and six KFC turns, and ends
# with nine records of the AI CPU's own communication.
is "$(grep -c ',N/A,' "$T/aicpu/aicpu.csv")" 1 "aicpu: one run no task holds"
# Each phase of a KFC turn is also a span named after it and its turn, on
# a lane of its own beside its stream's tasks, with the same times.
db="$T/aicpu/s.db"
is "$(sqlite3 "$db" "SELECT count(*) FROM api a JOIN str l ON l.id =
    a.level WHERE l.s = 'kfc'")" "$(($(wc -l <"$T/aicpu/kfc_turn.csv") - 1))" \
    "aicpu: a span per KFC turn phase"
tail -n +2 "$T/aicpu/kfc_turn.csv" | awk -F, '{ print $1 "|" $2 "|" $5 " " \
    $4 "|" $6 "|" $7 }' >"$T/aicpu/kfc-want"
sqlite3 "$db" "SELECT a.device, a.tid, n.s, printf('%d.%03d', a.start_ns /
    1000, a.start_ns % 1000), printf('%d.%03d', (a.end_ns - a.start_ns) /
    1000, (a.end_ns - a.start_ns) % 1000) FROM api a
    JOIN str l ON l.id = a.level JOIN str n ON n.id = a.name WHERE l.s =
    'kfc' ORDER BY a.id" >"$T/aicpu/kfc-got"
same_file "$T/aicpu/kfc-got" "$T/aicpu/kfc-want" \
    "aicpu: the KFC spans are the table's phases"
is "$(sqlite3 "$db" "SELECT name FROM lane WHERE device = 0 AND tid = 60")" \
    "Stream 60 KFC" "aicpu: the KFC lane is named after its stream"
d="$T/aicpu-bad"
"$GEN" prof "$d/in" -e "$d/want" -s 45 -n 600 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
# Run 0 (record 12): runEndTick (offset 80) to 0; run 1: struct type to 99
# (unknown); KFC server turn 0 (record 6): its TaskLaunch start (offset 48)
# to 0.
printf '\000\000\000\000\000\000\000\000' |
    dd of="$f" bs=1 seek=$((12 * 256 + 80)) conv=notrunc 2>/dev/null
printf 'c' | dd of="$f" bs=1 seek=$((13 * 256 + 4)) conv=notrunc \
    2>/dev/null
printf '\000\000\000\000\000\000\000\000' |
    dd of="$f" bs=1 seek=$((6 * 256 + 48)) conv=notrunc 2>/dev/null
all=$(($(wc -c <"$f") / 256 - 12 - 9))
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" aicpu >"$d/a.csv" \
    2>"$d/err"
ok $? "aicpu-bad: imported"
grep -q '1 AI CPU run without a start or an end time, skipped' "$d/err"
ok $? "aicpu-bad: the run without an end is counted"
grep -q '1 AI CPU record of an unknown kind or level, not decoded' "$d/err"
ok $? "aicpu-bad: the record of an unknown kind is counted"
is "$(tail -n +2 "$d/a.csv" | wc -l | tr -d ' ')" "$((all - 2))" \
    "aicpu-bad: the other runs are kept"
grep -q "1 KFC turn phase without a start time, or with a time out of" \
    "$d/err"
ok $? "aicpu-bad: the KFC phase without a start is counted"
grep -q "aicpu.data.0.slice_0: 1 KFC turn phase" "$d/err"
ok $? "aicpu-bad: the warning names the file"
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_turn >"$d/k.csv"
# The phase before it ends where it starts: 0 us, as the vendor draws it.
awk -F, -v OFS=, 'NR == 1 || $1 != 0 || $4 != 0 || $3 != 7 { print; next }
    $5 == "TaskLaunch" { next } $5 == "TaskOrchestration" { $7 = "0.000" }
    { print }' "$d/want/kfc_turn.csv" >"$d/k-want.csv"
same_file "$d/k.csv" "$d/k-want.csv" \
    "aicpu-bad: the other KFC phases are kept, the one before it 0 us long"
# A KFC phase whose start is a time no collection has (all but the top
# bit set) is left out and counted; so is the phase before it, whose end
# it is; no span goes past the collection.
d="$T/kfc-far"
"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
printf '\377\377\377\377\377\377\377\177' |
    dd of="$f" bs=1 seek=$((6 * 256 + 40)) conv=notrunc 2>/dev/null
"$NPUPROF" import --db "$d/s.db" "$d/in" 2>"$d/err" >/dev/null
ok $? "kfc-far: imported"
grep -q "2 KFC turn phases without a start time, or with a time out of range" \
    "$d/err"
ok $? "kfc-far: the phase and the one it ends are counted"
is "$(sqlite3 "$d/s.db" "SELECT count(*) FROM api a JOIN str l ON l.id =
    a.level WHERE l.s = 'kfc' AND (end_ns < start_ns OR end_ns >
    (SELECT max(start_ns + dur_ns) FROM task) + 1000000000)")" 0 \
    "kfc-far: no KFC span ends before it starts or past the tasks"
# export timeline draws each device's KFC phases on that device's row of
# their stream, as the vendor; importing that trace gives the same spans.
d="$T/aicpu-devices"
mkdir "$d/ex"
"$NPUPROF" export timeline --db "$d/s.db" --output "$d/ex" "$d/in" \
    >/dev/null 2>&1
ok $? "aicpu-devices: exported"
# A line per level (kfc, mc2): its events, their (process, thread) and
# how many processes hold them.
python3 - "$d/ex" >"$d/ex.txt" <<'PY'
import glob, json, sys
ev = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    ev += json.load(open(f))
proc = {e["pid"]: e["args"]["name"] for e in ev
        if e.get("ph") == "M" and e.get("name") == "process_name"}
thr = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
       if e.get("ph") == "M" and e.get("name") == "thread_name"}
for level in ("kfc", "mc2"):
    v = [e for e in ev if e.get("args", {}).get("level") == level]
    print(len(v), sorted({(proc.get(e["pid"]), e["tid"] if level == "kfc"
          else thr.get((e["pid"], e["tid"]))) for e in v}),
          len({e["pid"] for e in v}))
PY
is "$(sed -n 1p "$d/ex.txt")" \
    "48 [('Ascend Hardware', 60)] 2" \
    "aicpu-devices: KFC phases on each device's stream 60 row"
mkdir "$d/rt"
cp "$d"/ex/*.json "$d/rt/"
"$NPUPROF" import --db "$d/rt.db" "$d/rt" >/dev/null 2>&1
is "$(sqlite3 "$d/rt.db" "SELECT count(*) FROM api a JOIN str l ON l.id =
    a.level WHERE l.s = 'kfc'")/$(sqlite3 "$d/rt.db" "SELECT count(*) FROM
    task")" "48/$(sqlite3 "$d/s.db" "SELECT count(*) FROM task")" \
    "aicpu-devices: read back, the phases are spans again, not tasks"
# Device 0's MC2 op on its own row of the device, named after its group
# as the vendor's timeline names it, and read back as such; device 1's
# op, of Source HCCL, has none (the vendor draws only MC2 ones).
is "$(sed -n 2p "$d/ex.txt")" \
    "1 [('Ascend Hardware', 'Group group-world Aicpu Communication')] 1" \
    "aicpu-devices: the MC2 op on its group's row of its device"
is "$(sqlite3 "$d/rt.db" "SELECT count(*) FROM api a JOIN str l ON l.id =
    a.level WHERE l.s = 'mc2'")" 1 \
    "aicpu-devices: read back, the MC2 op is an mc2 span again"
# Each MC2 op of Source MC2 is also a span of level mc2 on its group's
# lane under its device, with kfc_op's name, from the first start to the
# last end of its master kfc_task rows; its args hold the connection id
# of its kernel's task, and the vendor's defaults for an op without an
# op information.
d="$T/aicpu-devices"
is "$(sqlite3 -separator , "$d/s.db" "SELECT a.device, n.s,
    printf('%d.%03d', a.start_ns / 1000, a.start_ns % 1000),
    printf('%d.%03d', (a.end_ns - a.start_ns) / 1000,
    (a.end_ns - a.start_ns) % 1000), l.name FROM api a
    JOIN str v ON v.id = a.level JOIN str n ON n.id = a.name
    JOIN lane l ON l.pid = a.pid AND l.tid = a.tid WHERE v.s = 'mc2'
    ORDER BY a.device" | tr '\n' ' ')" "$(python3 - "$d/want" <<'PY'
import csv, sys
bars = {}
for r in csv.DictReader(open(sys.argv[1] + "/kfc_task.csv")):
    if r["Is Master"] != "1" or r["Source"] != "MC2":
        continue
    ns = lambda v: int(v.replace(".", ""))
    lo, hi = ns(r["Start Time(us)"]), ns(r["Start Time(us)"]) + \
        ns(r["Duration(us)"])
    k = (r["Device_id"], r["Op Name"], r["Op Start Time(us)"],
         r["Group Name"])
    b = bars.setdefault(k, [lo, hi])
    bars[k] = [min(b[0], lo), max(b[1], hi)]
for (dev, name, _, group), (lo, hi) in sorted(bars.items()):
    print("%s,%s,%d.%03d,%d.%03d,Group %s Aicpu Communication" % (
        dev, name, lo // 1000, lo % 1000, (hi - lo) // 1000,
        (hi - lo) % 1000, group), end=" ")
PY
)" "aicpu-devices: each MC2 op a span on its group's lane"
is "$(sqlite3 "$d/s.db" "SELECT json_extract(a.args, '$.connection_id') =
    t.conn, json_extract(a.args, '$.rank_size'), json_extract(a.args,
    '$.data_type'), json_extract(a.args, '$.count'), json_extract(a.args,
    '$.relay') || json_extract(a.args, '$.retry') FROM api a
    JOIN str v ON v.id = a.level JOIN task t ON t.device = a.device AND
    t.stream = json_extract(a.args, '$.\"Stream ID\"') AND t.task =
    json_extract(a.args, '$.\"Task ID\"') WHERE v.s = 'mc2'")" \
    "1|-1|N/A|-1|nono" \
    "aicpu-devices: the MC2 op's connection id is its kernel's"
# The MC2 op's tasks join the communication tables (as msprof --analyze
# takes the vendor's KfcTask rows): on device 0 its master plane holds a
# notify wait, an SDMA copy of 2048 bytes on HCCS and a second wait; on
# device 1 (an HCCL op's) the first wait and the copy. Every task is
# 0.2 us; the op runs 1.4 us on device 0, 0.6 us on device 1.
d="$T/aicpu-devices"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" communication \
    >"$d/comm.csv"
is "$(grep MatmulAllReduceAicpuKernel "$d/comm.csv" | cut -d, -f3,5- |
    tr '\n' ' ')" "MatmulAllReduceAicpuKernel_816_0_1@group-world,0.0014,\
0.0002,0.0004,0.0002,0.0007999999999999999,0.6667,0.5 \
MatmulAllReduceAicpuKernel_816_0_1@group-world,0.0006,0.0002,0.0002,0.0002,\
0.00019999999999999996,0.5,0.5 " \
    "aicpu-devices: the MC2 ops' communication times"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    communication_bandwidth >"$d/bw.csv"
is "$(grep 'MatmulAllReduceAicpuKernel.*,HCCS,' "$d/bw.csv" | head -1 |
    cut -d, -f5-)" "0.002048,0.0002,10.24,0.0,0.002048:1:0.0002" \
    "aicpu-devices: and the HCCS bandwidth of its copy"
# The stream and task fields of the AI CPU's communication records are
# unpacked as a run's, a 32-bit task field kept whole where that rule
# keeps the field: HCCL op info with stream 0x1005 (bit 12: the task's
# high bits come from the stream) and task 0x10005 is stream 5, task 5;
# the other with stream 61 and task 0x10006 keeps task 65542. An
# estimated duration too long for three decimals in a cell is written in
# exponent form.
d="$T/aicpu-ids"
"$GEN" prof "$d/in" -s 48 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
o=$(($(wc -c <"$f") - 6 * 256))
printf '\005\020\005\000\001\000' |
    dd of="$f" bs=1 seek=$((o + 54)) conv=notrunc 2>/dev/null
printf '\006\000\001\000' |
    dd of="$f" bs=1 seek=$((o + 256 + 56)) conv=notrunc 2>/dev/null
o=$(($(wc -c <"$f") - 9 * 256))
printf '\000\000\000\000\000\000\360\177' |
    dd of="$f" bs=1 seek=$((o + 24 + 56)) conv=notrunc 2>/dev/null
printf '\245\134\303\361\051\143\075\110' |
    dd of="$f" bs=1 seek=$((o + 140 + 56)) conv=notrunc 2>/dev/null
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" device_hccl_op_info \
    >"$d/op.csv"
is "$(awk -F, 'NR > 1 && $1 == 0 { print $10 "/" $11 }' "$d/op.csv" |
    tr '\n' ' ')" "5/5 61/65542 " "aicpu-ids: the task field unpacked"
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_info >"$d/k.csv"
is "$(awk -F, 'NR == 2 || NR == 3 { print $14 }' "$d/k.csv" | tr '\n' ' ')" \
    "inf 1.000000e+40 " "aicpu-ids: estimated durations out of range"
# An mc2_comm_info record with more communication streams than the 8 a
# record holds lists none, as the vendor's, and is counted.
d="$T/mc2-bad"
"$GEN" prof "$d/in" -e "$d/want" -s 46 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/host/data/aging.additional.mc2_comm_info.slice_0)
printf '\011' | dd of="$f" bs=1 seek=48 conv=notrunc 2>/dev/null
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" mc2_comm_info \
    >"$d/m.csv" 2>"$d/err"
ok $? "mc2-bad: imported"
grep -q '1 record with more than 8 communication streams' "$d/err"
ok $? "mc2-bad: the record is counted"
sed '2s/,"61,62"$/,/' "$d/want/mc2_comm_info.csv" >"$d/m-want.csv"
same_file "$d/m.csv" "$d/m-want.csv" \
    "mc2-bad: it lists no stream, the other record is kept"
# mc2_damage NAME TASK: a generated -C collection whose last task record
# names task 399 and whose second KFC HCCL information names task TASK;
# its kfc_op and kfc_task tables, and warnings, in $T/NAME.
mc2_damage() {
	d="$T/$1"
	"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
	f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
	o=$(($(wc -c <"$f") - 3 * 256))
	printf '\217\001' |
	    dd of="$f" bs=1 seek=$((o + 30)) conv=notrunc 2>/dev/null
	o=$(($(wc -c <"$f") - 9 * 256))
	printf "$(printf '\\%03o\\%03o' $(($2 % 256)) $(($2 / 256)))\\000\\000" |
	    dd of="$f" bs=1 seek=$((o + 140 + 88)) conv=notrunc 2>/dev/null
	"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_op \
	    >"$d/o.csv" 2>"$d/err"
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_task \
	    >"$d/t.csv" 2>/dev/null
}
# An MC2 op whose last task record names a task that never ran, and a
# KFC HCCL information naming a task that never ran: each is counted. The
# op then ends with its first task, so the three tasks ending after it
# are counted too, and only that first task is a kfc_task row.
mc2_damage mc2-join 398
ok $? "mc2-join: imported"
grep -q '1 first or last task record (aicpu.data kind 12) without a' \
    "$d/err"
ok $? "mc2-join: the last task record without its task is counted"
grep -q '1 KFC HCCL information (aicpu.data kind 13) without a device' \
    "$d/err"
ok $? "mc2-join: the information without its task is counted"
grep -q '3 MC2 communication tasks ending outside every op' "$d/err"
ok $? "mc2-join: the tasks after the op's end are counted"
is "$(tail -n +2 "$d/t.csv" | cut -d, -f11,12 | tr '\n' ' ')" "61,300 " \
    "mc2-join: only the first task is the op's"
# The same last task record, now naming the task of that information: as
# the task never ran, it is not the op's last task (the vendor's op would
# end before it starts).
mc2_damage mc2-join2 399
grep -q '1 first or last task record (aicpu.data kind 12) without a' \
    "$d/err"
ok $? "mc2-join2: the last task record naming a task never run is counted"
is "$(tail -n +2 "$d/o.csv" | cut -d, -f5)" "0.200" \
    "mc2-join2: the op lasts its first task"
# A device flip of stream 61 numbered 5 before its tasks, and the AI
# CPU's flip of it with the same number: the tasks of stream 61 take
# batch 5 from the flip's number, as the vendor's, and still join their
# informations (which take batch 5 from the AI CPU's flip).
d="$T/mc2-flip"
"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
t=$(od -A n -t u8 -j $(($(mc2_rec "$f" 0) + 24 + 48)) -N 8 "$f" |
    tr -d ' ')
t=$((t - 10))
{ le "$t" 8; } | poke "$f" $(($(mc2_rec "$f" 7) + 16))
{ le 5 4; } | poke "$f" $(($(mc2_rec "$f" 7) + 28))
{ le 3584 2; le 0 6; le "$t" 8; le 61 2; le 5 2; le 0 20; } \
    >"$(dirname "$f")/ts_track.data.0.slice_0"
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_task >"$d/t.csv" \
    2>"$d/err"
! grep -q 'without a device task' "$d/err"
ok $? "mc2-flip: every information joins its task after the flip"
is "$(tail -n +2 "$d/t.csv" | awk -F, '{ print $11 ":" $23 }' | sort -u |
    tr '\n' ' ')" "61:5 62:0 " \
    "mc2-flip: the tasks of stream 61 in batch 5, the flip's number"
# A first and a last task record at one time of the AI CPU stream: the
# vendor keeps one, in the first's place with the last's type and task,
# so the op runs from its kernel's start to task 304's end (2 us).
d="$T/mc2-same"
"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
{ le 301 2; } | poke "$f" $(($(mc2_rec "$f" 5) + 30))
dd if="$f" bs=1 skip=$(($(mc2_rec "$f" 5) + 16)) count=8 2>/dev/null |
    poke "$f" $(($(mc2_rec "$f" 6) + 16))
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_op >"$d/o.csv" \
    2>"$d/err"
is "$(tail -n +2 "$d/o.csv" | cut -d, -f5)" "2.000" \
    "mc2-same: the op ends with the last task, from its kernel's start"
grep -q '1 first or last task record at the time of an earlier one' \
    "$d/err"
ok $? "mc2-same: the merge is counted"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_task |
    tail -n +2 | cut -d, -f7 | tr '\n' ' ' >"$d/planes"
is "$(cat "$d/planes")" "1 0 2 0 1 " \
    "mc2-same: task 301, named first, on the main stream's plane 0"
# A first task on stream 62 after the last one on 61: the op ends before
# it starts; its duration is negative, as the vendor's, not N/A.
d="$T/mc2-neg"
"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
{ le 62 2; le 303 2; } | poke "$f" $(($(mc2_rec "$f" 5) + 28))
{ le 301 2; } | poke "$f" $(($(mc2_rec "$f" 6) + 30))
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_op >"$d/o.csv"
is "$(tail -n +2 "$d/o.csv" | cut -d, -f5)" "-0.600" \
    "mc2-neg: a negative op duration shown as it is"
# RDMA payloads (mc2.lib): the payload of task 300 is closed by task
# 303's information, the fifth of the group: 1024 bytes from its stamp
# 804.400 us to the end of 303's task, stamp 804.900 plus 0.200, so
# 0.001024 MB / 0.0007 ms = 1.4629 GB/s. Task 303 is skipped over by the
# closing run and keeps 0; the others have size over duration.
d="$T/mc2-payload"
"$GEN" prof "$d/in" -s 42 -n 300 -C >/dev/null
mc2_payload "$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_info \
    >"$d/i.csv"
w="804.400,RDMA_SEND_PAYLOAD,300 804.500,RESERVED,301"
w="$w 804.800,RDMA_SEND_NOTIFY,302 804.900,RDMA_SEND_PAYLOAD,303"
is "$(tail -n +2 "$d/i.csv" | cut -d, -f2,22,24 | cut -c14- |
    tr '\n' ' ')" "$w 805.200,RESERVED,304 " \
    "mc2-payload: the informations' stamps and RDMA types"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_task \
    >"$d/t.csv"
w="0.200,300,1024,1.4629 0.200,301,2048,10.2400 0.200,302,3072,15.3600"
is "$(tail -n +2 "$d/t.csv" | cut -d, -f9,12,17,20 | tr '\n' ' ')" \
    "$w 0.200,303,4096,0.0000 0.200,304,5120,25.6000 " \
    "mc2-payload: a closed payload run's bandwidth, the others' own"
# An HCCL op's kernel launched by the last node right inside the node of
# a host HCCL op (-N: device 1's, after an init node and the op's HCCL
# task, which never ran and is counted): the op takes the host op's name,
# as the vendor renames it by the kernel's connection id. The MC2 op of
# device 0 keeps its kernel's node's name.
d="$T/mc2-nest"
"$GEN" prof "$d/in" -e "$d/want" -s 42 -n 300 -C -d 2 -N >/dev/null
ok $? "mc2-nest: generated"
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" kfc_op >"$d/o.csv" \
    2>"$d/err"
same_file "$d/o.csv" "$d/want/kfc_op.csv" "mc2-nest: kfc_op as generated"
is "$(tail -n +2 "$d/o.csv" | cut -d, -f1,3 | tr '\n' ' ')" \
    "0,MatmulAllReduceAicpuKernel_816_0_1 1,hcom_allReduce_kfc_0_816_0_1 " \
    "mc2-nest: the HCCL op's kernel named after its host op"
grep -q '1 HCCL task without a device task' "$d/err"
ok $? "mc2-nest: the host op's task that never ran is counted"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" api_statistic \
    >"$d/as.csv"
same_file "$d/as.csv" "$d/want/api_statistic.csv" \
    "mc2-nest: api_statistic as generated, the host ops' spans in it"
# Device 0's op is an MC2 op's (device 0's kernel is launched the same
# way): it keeps its node's name. With the host op's task moved to device
# 0, device 1's kernel keeps its node's name too: the vendor takes the
# host ops of the kernel's device only.
is "$(sed -n 2p "$d/o.csv" | cut -d, -f3)" \
    MatmulAllReduceAicpuKernel_816_0_1 "mc2-nest: an MC2 op not renamed"
d="$T/mc2-nest-dev"
"$GEN" prof "$d/in" -s 42 -n 300 -C -d 2 -N >/dev/null
python3 - "$d"/in/PROF_*/host/data >"$d/moved" <<'PY'
import glob, os, struct, sys
for f in glob.glob(os.path.join(sys.argv[1], "*task_track*")):
    if f.endswith(".done"):
        continue
    b = bytearray(open(f, "rb").read())
    for o in range(0, len(b) - 63, 64):
        dev, stream, task = struct.unpack_from("<HHI", b, o + 24)
        if stream == 62 and task == 501 and dev & 0xFFF == 1:
            struct.pack_into("<H", b, o + 24, dev & 0xF000)
            open(f, "wb").write(b)
            print("moved")
PY
is "$(cat "$d/moved")" moved "mc2-nest-dev: the host op's task moved"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_op >"$d/o.csv"
is "$(tail -n +2 "$d/o.csv" | cut -d, -f1,3 | tr '\n' ' ')" \
    "0,MatmulAllReduceAicpuKernel_816_0_1 \
1,MatmulAllReduceAicpuKernel_816_0_1 " \
    "mc2-nest-dev: a host op of another device names no kernel"
# Chip V6 logs carry no stream id: each task takes the stream of the host
# task with its 32-bit id. Task ids of v6-wrap pass 65535 with no flip.
is "$(awk -F, 'NR > 1 && $3 > 65535' "$T/v6-wrap/want/op_summary.csv" |
    wc -l | tr -d ' ')" "$(awk -F, 'NR > 1 && $3 > 65535' \
    "$T/v6-wrap/op_summary.csv" | wc -l | tr -d ' ')" \
    "v6-wrap: the task ids over 65535 as generated"
ok $([ "$(awk -F, 'NR > 1 && $3 > 65535' "$T/v6-wrap/op_summary.csv" |
    wc -l)" -gt 0 ]; echo $?) "v6-wrap: some task ids are over 65535"
# Without the host's task_track records no device task finds its stream:
# each is kept, on stream 65535, and a warning counts them.
d="$T/v6-lost"
"$GEN" prof "$d/in" -s 24 -n 300 -c 950 >/dev/null
rm -f "$d"/in/PROF_*/host/data/*task_track*
"$NPUPROF" show --db "$d/s.db" --format csv "$d/in" task_time \
    >"$d/tt.csv" 2>"$d/err"
ok $? "v6-lost: imported"
n=$(tail -n +2 "$d/tt.csv" | wc -l | tr -d ' ')
grep -q "$n device tasks of chip V6 have a task id no host task has" \
    "$d/err"
ok $? "v6-lost: a warning counts the $n tasks without a stream"
is "$(awk -F, 'NR > 1 && $4 != 65535' "$d/tt.csv" | wc -l | tr -d ' ')" 0 \
    "v6-lost: all on stream 65535"
done_testing
