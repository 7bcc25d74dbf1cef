#!/bin/sh
# show --compare BASE NEW op_statistic_compare and api_statistic_compare,
# on any input: two raw PROF_* collections of the oracle's generator
# (../shared/oracle, skipped without it) of 200 and 300 ops, against the
# statistics in their truth.json (each op type and API of either run with
# both runs' count, total and average, the difference and the ratio,
# worked out here from the truth alone), rows by the size of the
# difference, largest first; and the torch_npu pair of gen-pair.py, whose
# op statistics come from its kernels: MatMulV2 30 us more, Gelu only in
# NEW, Cast only in the base.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
. "$top_srcdir/tests/compare/pair.sh"

cat >"$T/pair.want" <<'EOT'
OP Type,Core Type,Base Count,Base Total Time(us),Base Avg Time(us),Comparison Count,Comparison Total Time(us),Comparison Avg Time(us),Diff Total Time(us),Diff Ratio
MatMulV2,AI_CORE,3,42.0,14.0,3,72.0,24.0,30.0,1.7143
Gelu,AI_VECTOR_CORE,0,0.0,0.0,1,5.25,5.25,5.25,INF
Cast,AI_VECTOR_CORE,1,2.0,2.0,0,0.0,0.0,-2.0,0.0
Add,AI_VECTOR_CORE,4,7.75,1.938,4,7.75,1.938,0.0,1.0
EOT
"$NPUPROF" show -q --compare --format csv "$B" "$N" op_statistic_compare \
    >"$T/pair.csv"
same_file "$T/pair.csv" "$T/pair.want" \
    "torch_npu: op types of either run, the largest difference first"

GEN=${SHARED:-$top_srcdir/../shared}/oracle/genprof.py
if [ ! -f "$GEN" ]; then
	echo "# no oracle generator: the raw collections are skipped"
	done_testing
	exit $?
fi
"$PY" "$GEN" --out "$T/a" --seed 1 --ops 200 >/dev/null || exit 1
"$PY" "$GEN" --out "$T/b" --seed 2 --ops 300 >/dev/null || exit 1
A=$(ls -d "$T"/a/PROF_*)
C=$(ls -d "$T"/b/PROF_*)

# The expected rows from the two truths, sorted; ours sorted too.
want() {	# want TABLE KEY1 KEY2
	"$PY" - "$T/a/truth.json" "$T/b/truth.json" "$1" "$2" "$3" <<'EOP'
import json, sys
a, b = (json.load(open(p))[sys.argv[3]] for p in sys.argv[1:3])
k1, k2 = sys.argv[4], sys.argv[5]
def by(rows):
    return {(r[k1], r[k2]): r for r in rows}
ra, rb = by(a), by(b)
def num(v):
    return repr(float(round(v, 3)))
out = []
for key in list(ra) + [k for k in rb if k not in ra]:
    x, y = ra.get(key), rb.get(key)
    bt = x["total_us"] if x else 0
    ct = y["total_us"] if y else 0
    bn = x["count"] if x else 0
    cn = y["count"] if y else 0
    ratio = 1.0 if not bt and not ct else (
        "INF" if not bt else repr(round(ct / bt, 4)))
    out.append(",".join([key[0], key[1], str(bn), num(bt),
        num(bt / bn if bn else 0), str(cn), num(ct),
        num(ct / cn if cn else 0), num(round(ct - bt, 3) + 0.0),
        str(ratio)]))
print("\n".join(sorted(out)))
EOP
}
want op_statistic op_type core_type >"$T/op.want"
"$NPUPROF" show -q --compare --format csv "$A" "$C" op_statistic_compare \
    >"$T/op.csv"
tail -n +2 "$T/op.csv" | sort >"$T/op.sorted"
same_file "$T/op.sorted" "$T/op.want" \
    "raw: op_statistic_compare as the two truths give it"
want api_statistic level api_name >"$T/api.want"
"$NPUPROF" show -q --compare --format csv "$A" "$C" api_statistic_compare \
    >"$T/api.csv"
tail -n +2 "$T/api.csv" | sort >"$T/api.sorted"
same_file "$T/api.sorted" "$T/api.want" \
    "raw: api_statistic_compare as the two truths give it"
for t in op api; do
	tail -n +2 "$T/$t.csv" | "$PY" -c 'import csv, sys
d = [abs(float(r[8])) for r in csv.reader(sys.stdin)]
sys.exit(0 if d == sorted(d, reverse=True) else 1)'
	ok $? "$t: the largest difference first"
done
done_testing
