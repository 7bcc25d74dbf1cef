#!/bin/sh
# torch_npu's communication.json and communication_matrix.json become a
# rank's tables communication (one row per op, its own Total Op Info
# too), communication_bandwidth (one per op and transport) and
# communication_matrix (one per link, src and dst apart), numbers kept as
# written; a broken file is one warning and the rest of the rank stays;
# entries that are not objects and keys not known are counted and said.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 2 \
    --seed 3 || skip_all "cannot generate"
r0="$T/c/node_0_17_ascend_pt/ASCEND_PROFILER_OUTPUT"
r1="$T/c/node_1_18_ascend_pt/ASCEND_PROFILER_OUTPUT"
show() { "$NPUPROF" show -q --db "$T/$1.db" --format csv "$T/c" $2; }
count() {	# count FILE EXPR: EXPR over the JSON in FILE, by Python
	"$PY" -c "import json, sys; d = json.load(open(sys.argv[1]));
print($2)" "$1"
}

"$NPUPROF" import --db "$T/a.db" "$T/c" 2>"$T/err"
ok $? "import"
is "$(cat "$T/err")" "" "no warning"
ops=$(count "$r0/communication.json" \
    "sum(len(k) for s in d.values() for k in s.values())")
is "$(show a communication | awk -F, '$1 == 0' | wc -l)" "$ops" \
    "communication: a row per op of the file ($ops)"
links=$(count "$r0/communication_matrix.json" \
    "sum(len(o) for s in d.values() for k in s.values() for o in k.values())")
is "$(show a communication_matrix | awk -F, '$1 == 0' | wc -l)" "$links" \
    "communication_matrix: a row per link ($links)"
bw=$(count "$r0/communication.json" "sum(len(o.get('Communication \
Bandwidth Info', {})) for s in d.values() for k in s.values()
for o in k.values())")
is "$(show a communication_bandwidth | awk -F, '$1 == 0' | wc -l)" "$bw" \
    "communication_bandwidth: a row per op and transport ($bw)"
show a communication | head -1 | grep -q \
    '^Rank,Step,Type,Op Name,Start Timestamp(us),Elapse Time(ms),'
ok $? "communication: the file's key names as columns"
want=$(count "$r0/communication.json" "repr(d['step3']['collective'][\
'hcom_allReduce__3_1_1@10003']['Communication Time Info']\
['Elapse Time(ms)'])")
is "$(show a communication | awk -F, '$1 == 0 && $4 ~ /__3_1_1@/ {
    print $6 }')" "$want" "a number as the file writes it ($want)"
show a communication_matrix | awk -F, '$1 == 1 && $4 ~ /^allreduce-top1/ {
    print $5 "-" $6 }' | tr '\n' ' ' >"$T/l"
is "$(cat "$T/l")" "1-0 1-1 1-0 1-1 " "a link's src and dst apart"

# Damaged: rank 1's communication.json cut short; a step that is not an
# object and a key not known in rank 0's.
head -c 2000 "$r1/communication.json" >"$T/cut" && mv "$T/cut" \
    "$r1/communication.json"
"$PY" - "$r0/communication.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["step9"] = [1, 2]
op = d["step3"]["collective"]["hcom_allReduce__3_0_1@10003"]
op["Communication Time Info"]["Future Time(ms)"] = 1.5
json.dump(d, open(sys.argv[1], "w"), indent=4)
PY
# A link without a src rank in rank 0's matrix.
"$PY" - "$r0/communication_matrix.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["step3"]["collective"]["allreduce-top1@10003"]["-1"] = {
    "Transport Type": "HCCS", "Transit Size(MB)": 1, "Transit Time(ms)": 1}
json.dump(d, open(sys.argv[1], "w"), indent=4)
PY
"$NPUPROF" import --db "$T/b.db" "$T/c" 2>"$T/err"
ok $? "a damaged rank still imports"
grep -q "node_1_18_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json:.*not valid JSON, nothing of it is kept" "$T/err"
ok $? "the cut file: one warning naming it"
is "$(grep -c 'communication.json' "$T/err")" 3 "three warnings in all"
grep -q 'communication_matrix.json: 1 entry skipped: not an object, or a link' \
    "$T/err"
ok $? "a link without a src rank is skipped and counted"
grep -q 'communication.json: 1 entry skipped: not an object' "$T/err"
ok $? "an entry that is not an object is counted"
grep -q '1 value of keys not known (the first: "Future Time(ms)") not kept' \
    "$T/err"
ok $? "a key not known is named"
is "$(show b communication | awk -F, '$1 == 0' | wc -l)" "$ops" \
    "rank 0 keeps its ops"
is "$(show b communication | awk -F, '$1 == 1' | wc -l)" 0 \
    "rank 1's communication is gone"
is "$(show b communication_matrix | awk -F, '$1 == 1' | wc -l)" "$links" \
    "rank 1's matrix stays"
done_testing
