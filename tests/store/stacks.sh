#!/bin/sh
# Call stacks on generated and real profiles: the folded output of show
# stacks and export --folded matches its golden file; its sums equal what
# an independent reading of the generated kernel_details.csv (or of the
# samples' operator_details.csv) gives; step restriction, search and the
# options' errors.
. "$top_srcdir/tests/lib.sh"

fsum() {	# fsum FILE: the sum of the weights of folded lines
	awk '{ s += $NF } END { printf "%d\n", s }' "$1"
}

"$GEN" demo "$T/g" -s 5 -n 400 -S 2 -t 4 || exit 1
K=$(find "$T/g" -name kernel_details.csv)
"$NPUPROF" show -q --db "$T/g.db" "$T/g" stacks >"$T/g.folded"
ok $? "show stacks"
golden "$T/g.folded" "stacks-g.folded" "ops stacks match their golden file"
"$NPUPROF" export -q --folded --db "$T/g.db" "$T/g" >"$T/e.folded"
same_file "$T/e.folded" "$T/g.folded" \
    "export --folded writes what show stacks does"
! grep -Ev '^[^ ;][^;]*(;[^;]+)* [1-9][0-9]*$' "$T/g.folded" >"$T/bad"
ok $? "every line is frames joined by ';', a space and a positive integer"

if command -v python3 >/dev/null; then
	python3 - "$K" >"$T/want" <<'PY'
import csv, sys
from decimal import Decimal
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ns = lambda r: int(Decimal(r["Duration(us)"].strip()) * 1000)
print(sum(ns(r) for r in rows))
print(sum(ns(r) for r in rows if r["Step Id"] == "2"))
print(sum(ns(r) for r in rows if r["Type"] == "MatMulV2"))
# A window over the middle third of the starts, in epoch microseconds.
st = sorted(Decimal(r["Start Time(us)"].strip()) for r in rows)
lo, hi = st[len(st) // 3], st[2 * len(st) // 3]
print(f"{lo}:{hi}")
print(sum(ns(r) for r in rows
    if lo <= Decimal(r["Start Time(us)"].strip()) < hi))
PY
	is "$(fsum "$T/g.folded")" "$(sed -n 1p "$T/want")" \
	    "folded weights sum to the generated kernels' device time"
	"$NPUPROF" show -q --db "$T/g.db" --step 2 "$T/g" stacks >"$T/s2"
	is "$(fsum "$T/s2")" "$(sed -n 2p "$T/want")" \
	    "--step 2: the device time of the step's kernels"
	"$NPUPROF" show --db "$T/g.db" --filter '^MatMulV2$' "$T/g" stacks \
	    >"$T/mm" 2>"$T/mm.err"
	is "$(fsum "$T/mm")" "$(sed -n 3p "$T/want")" \
	    "--filter keeps the stacks through matching frames"
	mm=$(sed -n 3p "$T/want")
	all=$(sed -n 1p "$T/want")
	grep -q "matches 1 frames covering $mm of $all ns of device time" \
	    "$T/mm.err"
	ok $? "--filter says the share the matching frames cover"
	# A regex PCRE2 gives up on (it backtracks without end on any name
	# of eight characters or more) would pass frames it may match.
	"$NPUPROF" show --db "$T/g.db" --filter '(.*.*.*.*)*(?=#)' "$T/g" \
	    stacks >"$T/gu" 2>"$T/gu.err"
	[ $? -ne 0 ] && [ ! -s "$T/gu" ] && grep -q 'gave up on' "$T/gu.err"
	ok $? "--filter PCRE2 gives up on is an error, not a share"
	"$NPUPROF" show -q --db "$T/g.db" --range "$(sed -n 4p "$T/want")" \
	    "$T/g" stacks >"$T/rg"
	is "$(fsum "$T/rg")" "$(sed -n 5p "$T/want")" \
	    "--range: the device time of the kernels starting in the window"
fi
! grep -v '^MatMulV2;' "$T/mm" >/dev/null
ok $? "--filter: only MatMulV2 stacks left"

"$NPUPROF" show -q --db "$T/g.db" --format csv "$T/g" stacks >"$T/rows.csv"
golden "$T/rows.csv" "stacks-g.csv" \
    "stacks rows (--format csv) match their golden file"
"$NPUPROF" show -q --db "$T/g.db" --format csv --stats computed "$T/g" \
    op_statistic | awk -F, 'NR > 1 { printf "%s %d\n", $2, $5 * 1000 + 0.5 }' |
    sort >"$T/ops.want"
awk -F, 'NR > 1 && $3 == 1 { print $2, $4 }' "$T/rows.csv" | sort >"$T/ops.got"
comm -13 "$T/ops.got" "$T/ops.want" >"$T/ops.diff"
[ -s "$T/ops.want" ] && [ ! -s "$T/ops.diff" ]
ok $? "op type frames total op_statistic's time (which leaves out HCCL)"

"$NPUPROF" show -q --db "$T/g.db" --weight host "$T/g" stacks 2>"$T/err"
is "$?" 1 "kernel rows have no host weight"
grep -q "device time only" "$T/err"
ok $? "and say so"
"$NPUPROF" show -q --db "$T/g.db" --stacks cann "$T/g" stacks 2>"$T/err"
is "$?" 1 "no CANN spans: an error"
"$NPUPROF" show -q --db "$T/g.db" --step 99 "$T/g" stacks 2>"$T/err"
is "$?" 1 "a step the profile lacks: an error"
"$NPUPROF" show -q --db "$T/g.db" --weight cpu "$T/g" stacks 2>/dev/null
is "$?" 2 "bad --weight: usage"
"$NPUPROF" export -q --db "$T/g.db" "$T/g" 2>/dev/null
is "$?" 2 "export without a kind: usage"

# A generated raw PROF collection: the CANN call path per thread. Each
# API's outermost frames hold its host time as the generator's own
# api_statistic has it, and every task hangs below its launch.
"$GEN" prof "$T/p" -s 3 -n 300 -e "$T/p.expect" >/dev/null || exit 1
"$NPUPROF" show -q --db "$T/p.db" --stacks cann --weight host --format tsv \
    "$T/p" stacks >"$T/p.tsv"
ok $? "CANN stacks of a raw collection"
awk -F'\t' 'NR > 1 { n = split($1, p, ";"); dup = 0
	for (i = 1; i < n; i++) if (p[i] == p[n]) dup = 1
	if (!dup) t[p[n]] += $4 }
    END { for (x in t) print x, t[x] }' "$T/p.tsv" | sort >"$T/p.got"
awk -F, 'NR > 1 { printf "%s %.0f\n", $3, $4 * 1000 }' \
    "$T/p.expect/api_statistic.csv" | sort >"$T/p.want"
comm -13 "$T/p.got" "$T/p.want" >"$T/p.diff"
[ -s "$T/p.want" ] && [ ! -s "$T/p.diff" ]
ok $? "each API's frames hold its api_statistic time"
sed 's/^/#   /' "$T/p.diff" | head -5
"$NPUPROF" show -q --db "$T/p.db" --stacks cann "$T/p" stacks >"$T/p.folded"
is "$(fsum "$T/p.folded")" "$(awk -F, 'NR > 1 { s += int($10 * 1000 + 0.5) }
    END { print s }' "$T/p.expect/op_summary.csv")" \
    "device stacks hold every task's time"
! grep -q '^\[unlinked' "$T/p.folded"
ok $? "every task hangs below the API span that launched it"
"$NPUPROF" export -q --folded --stacks cann --db "$T/p.db" "$T/p" |
    head -20 >"$T/p20.folded"
golden "$T/p20.folded" "stacks-prof.folded" \
    "CANN device stacks match their golden file"

# The module hierarchy (with_modules=True): nn.Module spans nest by time,
# ops below them, kernels below the op whose launch made them; the times
# are chosen so every self time is known (a plain Python function inside
# a module is not a frame of its own).
m="$T/mod/ASCEND_PROFILER_OUTPUT"
mkdir -p "$m"
cat >"$m/trace_view.json" <<'EOF'
[
{"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "Python"}},
{"ph": "M", "name": "process_name", "pid": 20, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "process_name", "pid": 30, "tid": 0, "args": {"name": "Ascend Hardware"}},
{"ph": "X", "name": "nn.Module: Net_0", "pid": 10, "tid": 1, "ts": "1000.000", "dur": 100, "cat": "python_function", "args": {"Python id": 2}},
{"ph": "X", "name": "nn.Module: Linear_0", "pid": 10, "tid": 1, "ts": "1010.000", "dur": 30, "cat": "python_function", "args": {"Python id": 3}},
{"ph": "X", "name": "helper", "pid": 10, "tid": 1, "ts": "1012.000", "dur": 2, "cat": "python_function", "args": {"Python id": 4}},
{"ph": "X", "name": "aten::linear", "pid": 10, "tid": 1, "ts": "1015.000", "dur": 20, "cat": "cpu_op", "args": {"Sequence number": -1}},
{"ph": "X", "name": "aclnnMatmul", "pid": 20, "tid": 1, "ts": "1020.000", "dur": 10, "cat": "acl", "args": {"connection_id": 7}},
{"ph": "X", "name": "MatMul_kernel", "pid": 30, "tid": 5, "ts": "1022.000", "dur": 5, "args": {"Task Type": "AI_CORE", "Physic Stream Id": 5, "Task Id": 1, "connection_id": 7}},
{"ph": "X", "name": "aten::relu", "pid": 10, "tid": 1, "ts": "1050.000", "dur": 10, "cat": "cpu_op", "args": {"Sequence number": -1}},
{"ph": "X", "name": "aten::add", "pid": 10, "tid": 1, "ts": "1120.000", "dur": 10, "cat": "cpu_op", "args": {"Sequence number": -1}},
{"ph": "X", "name": "aclnnAdd", "pid": 20, "tid": 1, "ts": "1122.000", "dur": 4, "cat": "acl", "args": {"connection_id": 8}},
{"ph": "X", "name": "Add_kernel", "pid": 30, "tid": 5, "ts": "1125.000", "dur": 3, "args": {"Task Type": "AI_VECTOR_CORE", "Physic Stream Id": 5, "Task Id": 2, "connection_id": 8}}
]
EOF
"$NPUPROF" show -q --db "$T/mod.db" --stacks modules --weight host \
    "$T/mod" stacks >"$T/mh"
printf '%s\n' 'aten::add 10000' 'nn.Module: Net_0 60000' \
    'nn.Module: Net_0;aten::relu 10000' \
    'nn.Module: Net_0;nn.Module: Linear_0 10000' \
    'nn.Module: Net_0;nn.Module: Linear_0;aten::linear 20000' >"$T/mh.want"
same_file "$T/mh" "$T/mh.want" \
    "modules: nn.Module spans nest, ops below; host self times exact"
"$NPUPROF" show -q --db "$T/mod.db" --stacks modules "$T/mod" stacks \
    >"$T/md"
printf '%s\n' 'aten::add;Add_kernel 3000' \
    'nn.Module: Net_0;nn.Module: Linear_0;aten::linear;MatMul_kernel 5000' \
    >"$T/md.want"
same_file "$T/md" "$T/md.want" \
    "modules: each kernel below the op that launched it"
"$NPUPROF" show -q --db "$T/mod.db" "$T/mod" stacks >"$T/ma"
! grep -q 'nn.Module' "$T/ma"
ok $? "modules: auto does not pick the module hierarchy"
"$NPUPROF" show -q --db "$T/g.db" --stacks modules "$T/g" stacks \
    >/dev/null 2>"$T/merr"
grep -q 'no nn.Module spans.*with_modules' "$T/merr"
ok $? "modules: a profile without nn.Module spans says how to get them"

# Real PyTorch profiles with call stacks: operator_details.csv.
if [ -d "$SAMPLES" ] && command -v python3 >/dev/null; then
	for d in "$SAMPLES"/oamtools-torchnpu271-cann910-ascend_pt \
	    "$SAMPLES"/msinsight-pt-text/level1/rank0_ascend_pt; do
		[ -d "$d" ] || continue
		od=$(find "$d" -name operator_details.csv | head -1)
		n=$(basename "$d")
		python3 - "$od" >"$T/want" <<'PY'
import csv, sys
from decimal import Decimal, ROUND_HALF_UP
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
def ns(v):
    d = Decimal(v.strip() or "0") * 1000
    return int(d.quantize(Decimal(1), ROUND_HALF_UP))
print(sum(ns(r["Host Self Duration(us)"]) for r in rows))
print(sum(ns(r["Device Self Duration(us)"]) for r in rows))
print(len(rows))
PY
		# Without trace_view.json, no spans: the rows' stacks.
		o="$T/$n-od/ASCEND_PROFILER_OUTPUT"
		mkdir -p "$o"
		ln -s "$od" "$(dirname "$od")/kernel_details.csv" "$o/"
		"$NPUPROF" show -q --db "$T/$n.db" --stacks python \
		    --weight host "$o" stacks >"$T/h"
		is "$(fsum "$T/h")" "$(sed -n 1p "$T/want")" \
		    "$n: Python stacks hold the host self time of every op"
		"$NPUPROF" show -q --db "$T/$n.db" --stacks python "$o" \
		    stacks >"$T/dv"
		is "$(fsum "$T/dv")" "$(sed -n 2p "$T/want")" \
		    "$n: and the device self time"
		"$NPUPROF" show -q --db "$T/$n.db" --stacks python \
		    --format csv "$o" stacks |
		    awk -F, 'NR > 1 && $3 == 1 { c += $6 } END { print c }' \
		    >"$T/c"
		is "$(cat "$T/c")" "$(sed -n 3p "$T/want")" \
		    "$n: the outermost frames count every op call"
		grep -q '^<string>(1): <module>;\|^/.*<module>;' "$T/h"
		ok $? "$n: stacks start at the outermost Python frame"
		# The whole profile: the Python spans of trace_view.json,
		# each kernel below the op whose launch made it.
		"$NPUPROF" show -q --db "$T/$n-all.db" "$d" stacks >"$T/py"
		"$NPUPROF" show -q --db "$T/$n-all.db" --stacks ops "$d" \
		    stacks >"$T/ops"
		is "$(fsum "$T/py")" "$(fsum "$T/ops")" \
		    "$n: Python stacks from spans hold all the device time"
		grep '^\[unlinked' "$T/py" |
		    grep -v '^\[unlinked device tasks\];hcom_' >"$T/unl"
		[ ! -s "$T/unl" ] && grep -q 'aten::' "$T/py"
		ok $? "$n: every kernel but HCCL's is below a Python op"
		if "$NPUPROF" show -q --db "$T/$n-all.db" \
		    --stacks modules "$d" stacks >"$T/mods" 2>/dev/null; then
			is "$(fsum "$T/mods")" "$(fsum "$T/ops")" \
			    "$n: module stacks hold all the device time"
			grep -q '^[^;]*;nn.Module: [^;]*;.*nn.Module: ' \
			    "$T/mods"
			ok $? "$n: modules nest in modules"
		fi
	done
	# A Level0 profile has no CANN spans: its async_npu flows tie
	# each kernel to the op (or the dequeue) that launched it.
	d="$SAMPLES/msinsight-pt-text/level0/rank0_ascend_pt"
	if [ -d "$d" ]; then
		"$NPUPROF" show -q --db "$T/l0.db" "$d" stacks >"$T/l0py"
		grep '^\[unlinked' "$T/l0py" |
		    grep -v '^\[unlinked device tasks\];hcom_' >"$T/l0unl"
		[ ! -s "$T/l0unl" ] &&
		    grep -q ';aten::copy_;aclnnInplaceCopy;' "$T/l0py"
		ok $? "pt-level0: each kernel but HCCL's is below a Python stack"
	fi
	# The PyTorch .db: PYTORCH_CALLCHAINS give the stacks, the task
	# queue's halves (paired by connection id) the op of each launch.
	d="$SAMPLES/msinsight-pt-db/level1/rank0_ascend_pt"
	if [ -d "$d" ]; then
		"$NPUPROF" show -q --db "$T/db.db" "$d" stacks >"$T/dpy"
		"$NPUPROF" show -q --db "$T/db.db" --stacks ops "$d" \
		    stacks >"$T/dops"
		is "$(fsum "$T/dpy")" "$(fsum "$T/dops")" \
		    "pt-db: Python stacks from the .db hold all the device time"
		grep '^\[unlinked' "$T/dpy" |
		    grep -v '^\[unlinked device tasks\];hcom_' >"$T/dunl"
		[ ! -s "$T/dunl" ] &&
		    grep -q '^<string>(1): <module>;.*;aten::' "$T/dpy"
		ok $? "pt-db: each kernel but HCCL's is below a Python stack"
	fi
fi
done_testing
