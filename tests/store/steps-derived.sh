#!/bin/sh
# A profile whose task rows carry a Step Id but that has no step trace of
# its own (the demo's kernel_details) gets its steps from the tasks: per
# device and step (the demo's two ranks are on devices 0 and 1, the
# Rank column left out here), the first task's start to the last task's end, computed
# here again from op_summary; a step_trace_time.csv of its own wins, its
# floats' binary tails rounded in tables but kept in CSV.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$GEN" demo "$T/d" -s 5 -n 400 -r 2 -t 4 >/dev/null || exit 1
"$NPUPROF" show -q --db "$T/d.db" --format csv "$T/d" op_summary >"$T/ops"
"$NPUPROF" show -q --db "$T/d.db" --format csv "$T/d" step_trace |
    cut -d, -f2,3,4,6,7 >"$T/got"
"$PY" - "$T/ops" >"$T/want" <<'PY'
import csv, sys
def ns(t):
    i, f = t.strip().split(".")
    return int(i) * 1000 + int(f.ljust(3, "0")[:3])
def us(v):
    return "%d.%03d" % (v // 1000, v % 1000)
steps = {}
for r in csv.DictReader(open(sys.argv[1])):
    k = (int(r["Device_id"]), int(r["Step Id"]))
    s = ns(r["Task Start Time(us)"])
    e = s + ns(r["Task Duration(us)"])
    lo, hi = steps.get(k, (s, e))
    steps[k] = (min(lo, s), max(hi, e))
print("Device_id,Iteration ID,FP Start(us),Iteration End(us),Iteration Time(us)")
for (d, st), (lo, hi) in sorted(steps.items()):
    t = "%.3f" % ((hi - lo) / 1000.0)
    t = t.rstrip("0").rstrip(".")
    print("%d,%d,%s,%s,%s" % (d, st, us(lo), us(hi), t))
PY
same_file "$T/got" "$T/want" \
    "steps from the Step Id: first start to last end, per device"
"$NPUPROF" show -q --db "$T/d.db" --format csv "$T/d" info |
    grep -q '^steps,from the Step Id of the task rows'
ok $? "the info table says where the steps came from"

# With a step_trace_time.csv, that file is the Steps table.
for r in 0 1; do
	printf 'Step,Computing,Free\n1,7129.459999999992,2\n' \
	    >"$T/d/demo_rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"
done
"$NPUPROF" show -q --db "$T/d2.db" --format csv "$T/d" step_trace >"$T/own"
is "$(head -n 1 "$T/own")" "Rank,Step,Computing,Free" \
    "a step_trace_time.csv of its own wins"
# A binary float's tail: exact in CSV, rounded where people read it.
grep -q '^0,1,7129.459999999992,2$' "$T/own"
ok $? "CSV keeps the file's text"
"$NPUPROF" show -q --db "$T/d2.db" "$T/d" step_trace | grep -q ' 7129\.46 '
ok $? "the table shows it rounded to 3 decimals"
done_testing
