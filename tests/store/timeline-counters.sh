#!/bin/sh
# Counter series as timeline lanes: a trace's C events of a device (msprof
# puts the device in the low 5 bits of the process id), one
# lane per series (a name with two keys gives two), and in every cell of a
# frame the highest value the step function takes there, checked against
# a computation from the generated samples alone at several zoom levels
# with odd cell edges: the value holding when the cell starts and the
# samples inside it; nothing before the first sample or after the last.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to compute the truth with"
CELLS="$top_builddir/tests/tl-cells"

"$PYTHON3" - "$T/t.json" "$T/samples" <<'PY' || exit 1
import json, random, sys
rnd = random.Random(7)
ev = [
    {"ph": "M", "name": "process_name", "pid": 3170820704, "tid": 0, "args": {"name": "NPU MEM"}},
    {"ph": "M", "name": "process_labels", "pid": 3170820704, "tid": 0, "args": {"labels": "NPU 0"}},
    {"ph": "M", "name": "process_name", "pid": 3170820768, "tid": 0, "args": {"name": "Acc PMU"}},
    {"ph": "M", "name": "process_labels", "pid": 3170820768, "tid": 0, "args": {"labels": "NPU 0"}},
]
rows = []
t = 1700000000000000000
for i in range(400):
    t += rnd.choice([1000, 7000, 20000, 333000, 2000000]) + rnd.randrange(1000)
    v = rnd.randrange(0, 2000000) / 2.0
    if rnd.random() < 0.03:
        v = 9000000.5          # a spike between two ordinary samples
    ts = "%d.%03d" % (t // 1000, t % 1000)
    ev.append({"ph": "C", "name": "APP/HBM", "pid": 3170820704, "tid": 0,
               "ts": ts, "args": {"KB": v}})
    rows.append(("APP/HBM", t, v))
    if i % 3 == 0:
        a, b = rnd.randrange(4), rnd.randrange(1000) * 1.5
        ev.append({"ph": "C", "name": "read_bandwidth", "pid": 3170820768,
                   "tid": 0, "ts": ts, "args": {"acc_id": a, "value": b}})
        rows.append(("read_bandwidth acc_id", t, float(a)))
        rows.append(("read_bandwidth value", t, b))
json.dump(ev, open(sys.argv[1], "w"))
with open(sys.argv[2], "w") as f:
    for r in rows:
        f.write("%s\t%d\t%.17g\n" % r)
PY
"$NPUPROF" import -q --db "$T/t.db" "$T/t.json" || exit 1
"$CELLS" "$T/t.db" lanes >"$T/lanes"
awk -F'\t' '$2 == 3 { print $3 "|" $4 "|" $6 }' "$T/lanes" | LC_ALL=C sort \
    >"$T/got"
printf '%s\n' "APP/HBM|Device 0|400" "read_bandwidth acc_id|Device 0|134" \
    "read_bandwidth value|Device 0|134" >"$T/want"
same_file "$T/got" "$T/want" \
    "a lane per series, a name with two keys as two, under the device"

frame() {	# frame SERIES T0 T1 W WHAT
	lane=$(awk -F'\t' -v n="$1" '$3 == n { print $1 }' "$T/lanes")
	"$CELLS" "$T/t.db" cells "$lane" "$2" "$3" "$4" |
	    cut -f2,3,5,6,7 >"$T/got"
	"$PYTHON3" - "$T/samples" "$1" "$2" "$3" "$4" >"$T/want" <<'PY'
import sys
name, t0, t1, w = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = [(int(t), float(v)) for n, t, v in
     (l.rstrip("\n").split("\t") for l in open(sys.argv[1])) if n == name]
last = s[-1][0]
def edge(i):
    q, r = divmod(t1 - t0, w)
    return t0 + q * i + r * i // w
for i in range(w):
    a, b = edge(i), edge(i + 1)
    held = [v for t, v in s if t < a]
    inside = [v for t, v in s if a <= t < b]
    vals = ([held[-1]] if held else []) + inside
    if a > last or not vals:
        print("%d\t%d\t%d\tnone" % (a, b, len(inside)))
    else:
        print("%d\t%d\t%d\tvalue\t%.17g" % (a, b, len(inside), max(vals)))
PY
	same_file "$T/got" "$T/want" "$5: the highest value of every cell"
}

lo=$(awk -F'\t' '$3 == "APP/HBM" { print $7 }' "$T/lanes")
hi=$(awk -F'\t' '$3 == "APP/HBM" { print $8 }' "$T/lanes")
frame "APP/HBM" "$lo" $((hi + 1)) 200 "whole series"
frame "APP/HBM" $((lo - 12345)) $((hi + 999)) 173 "whole, odd edges"
frame "APP/HBM" $((lo + 5000001)) $((lo + 65000003)) 137 "a slice"
frame "APP/HBM" $((lo + 20000000)) $((lo + 20400000)) 97 "fine cells"
frame "APP/HBM" $((lo - 1000000)) $((lo - 10)) 20 "before the first sample"
frame "APP/HBM" $((hi + 1)) $((hi + 100000)) 20 "after the last sample"
frame "read_bandwidth value" "$lo" $((hi + 1)) 61 "a second key, whole"
frame "read_bandwidth acc_id" $((lo + 3000000)) $((lo + 90000000)) 50 \
    "its other key, a slice"
done_testing
