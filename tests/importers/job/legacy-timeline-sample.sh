#!/bin/sh
# The real CANN 6.x legacy timeline/ sample (two devices of a MindSpore
# AlexNet run): every time becomes epoch time through start_info.N, each
# task and HCCL span is loaded once although msprof_* repeats task_time_*
# and hccl_*, the step trace repeated by every step_trace_* file gives one
# row per iteration, and the numbers agree with an independent reading of
# the files (python3, exact decimals).
. "$top_srcdir/tests/lib.sh"
need_samples
S=$SAMPLES/mindinsight-prof-cann6x-timeline
[ -d "$S" ] || skip_all "no $S"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to read the files with"

# What the files say, per device: tasks (Task Id events of msprof_*,
# times made epoch with start_info in exact decimals), HCCL events,
# iterations of step_trace_*, rank.
expect() {	# expect DEVICE_DIR
	"$PYTHON3" - "$1" <<'PY'
import glob, json, os, sys
from decimal import Decimal, ROUND_HALF_UP
d = sys.argv[1]
dev = os.path.basename(d).split("_")[1]
si = json.load(open(os.path.join(d, "start_info." + dev)))
off = int(si["collectionTimeBegin"]) * 1000 - int(si["clockMonotonicRaw"])
rank = json.load(open(os.path.join(d, "info.json." + dev)))["rank_id"]
def ns(v):
    return int((Decimal(repr(v)) * 1000).quantize(Decimal(1), ROUND_HALF_UP))
tasks = hccl = dur = 0
starts = []
for f in sorted(glob.glob(os.path.join(d, "timeline", "msprof_*.json"))):
    ev = json.load(open(f))
    procs = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    for e in ev:
        if e["ph"] != "X":
            continue
        if "Task Id" in e.get("args", {}):
            tasks += 1
            starts.append(ns(e["ts"]) + off)
            dur += ns(e["dur"])
        elif procs.get(e["pid"]) == "HCCL":
            hccl += 1
iters = set()
for f in glob.glob(os.path.join(d, "timeline", "step_trace_*.json")):
    for e in json.load(open(f)):
        if e.get("cat") == "Iteration Time":
            iters.add(e["args"]["Iteration ID"])
first = min(starts)
print("|".join(str(x) for x in (dev, rank, tasks, sum(t - first for t in starts),
                                dur, first, hccl, len(iters))))
PY
}

for d in "$S"/PROF_*/device_*; do
	dev=${d##*_}
	"$NPUPROF" import --db "$T/d$dev.db" "$d/timeline" >/dev/null \
	    2>"$T/err$dev"
	ok $? "device $dev: timeline/ imports"
	is "$(cat "$T/err$dev")" "" "device $dev: no warning"
	# Sums of epoch ns overflow 64 bits: add them up from the first.
	got=$(q "$T/d$dev.db" "SELECT device, rank, count(*), sum(start_ns -
	    (SELECT min(start_ns) FROM task)), sum(dur_ns), min(start_ns)
	    FROM task GROUP BY device")
	got="$got|$(q "$T/d$dev.db" "SELECT count(*) FROM api_spans
	    WHERE level = 'HCCL'")|$(q "$T/d$dev.db" "SELECT count(*) FROM step")"
	is "$got" "$(expect "$d")" \
	    "device $dev: tasks once each, epoch times exact, HCCL once, one step row per iteration"
	is "$(q "$T/d$dev.db" "SELECT value FROM meta WHERE key =
	    'timeline.clock'")" "epoch (host monotonic + start_info)" \
	    "device $dev: the info table names the clock"
	# Every time of the run lies in the collection window of start_info
	# and end_info (epoch us).
	b=$(sed 's/.*"collectionTimeBegin":"\([0-9]*\)".*/\1/' \
	    "$d/start_info.$dev")
	e=$(sed 's/.*"collectionTimeEnd":"\([0-9]*\)".*/\1/' "$d/end_info.$dev")
	is "$(q "$T/d$dev.db" "SELECT count(*) FROM (SELECT start_ns FROM task
	    UNION ALL SELECT start_ns FROM api UNION ALL SELECT fp_start_ns
	    FROM step UNION ALL SELECT iter_end_ns FROM step) WHERE start_ns
	    < $b * 1000 OR start_ns > $e * 1000")" 0 \
	    "device $dev: tasks, spans and steps lie inside the collection window"
	is "$(q "$T/d$dev.db" "SELECT count(*) FROM step WHERE NOT
	    (fp_start_ns <= bp_end_ns AND bp_end_ns <= iter_end_ns AND
	    fp_bp_ns = bp_end_ns - fp_start_ns AND
	    abs(refresh_ns - (iter_end_ns - bp_end_ns)) <= 1 AND
	    data_aug_ns >= 0)")" 0 \
	    "device $dev: FP start <= BP end <= end, FP to BP and refresh agree with the points"
done

# Model id and iteration from the file names.
is "$(q "$T/d0.db" "SELECT model_id, step, count(*) FROM task GROUP BY 1, 2
    ORDER BY 2" | tr '\n' ' ')" "2|1|490 2|2|490 2|3|490 " \
    "device 0: model 2, iterations 1 to 3 from the file names"
is "$(q "$T/d0.db" "SELECT count(*), count(DISTINCT name) FROM flows")" \
    "20|10" "device 0: one Data_aug Bound flow per iteration"

# The whole sample: two devices, ranks 0 and 1, through the walk.
"$NPUPROF" show -q --db "$T/all.db" --format csv "$S" step_trace \
    >"$T/steps" 2>/dev/null
ok $? "the sample folder shows its step trace"
is "$(q "$T/all.db" "SELECT count(*), count(DISTINCT device || ':' || iter),
    group_concat(DISTINCT device || ':' || rank) FROM step")" "20|20|0:0,1:1" \
    "20 step rows, one per device and iteration, ranks from info.json"

# One file given on its own still finds ../start_info.0.
f=$(ls "$S"/PROF_*/device_0/timeline/msprof_0_2_1.json)
"$NPUPROF" import -q --db "$T/one.db" "$f" 2>/dev/null
is "$(q "$T/one.db" "SELECT count(*), min(start_ns) FROM task")" \
    "490|$(q "$T/d0.db" "SELECT min(start_ns) FROM task")" \
    "a single msprof_*.json imports on the epoch clock"

# Without start_info the times stay monotonic, and the import says so.
mkdir -p "$T/nostart/device_0"
cp -r "$(dirname "$f")" "$T/nostart/device_0/timeline"
"$NPUPROF" import --db "$T/mono.db" "$T/nostart/device_0/timeline" \
    >/dev/null 2>"$T/err"
ok $? "a timeline/ without start_info imports"
grep -q 'no start_info beside the timeline files: times stay on the host monotonic clock' "$T/err"
ok $? "and warns that times stay monotonic"
is "$(q "$T/mono.db" "SELECT min(start_ns) FROM task")" "56635864664910" \
    "the first task at its monotonic time"
done_testing
