#!/bin/sh
# torch_npu's analysis.db (a db export) gives the same per-rank tables as
# the text files it stands for: a generated cluster written both ways
# (tests/cluster/gen-cluster.py, then its files put into analysis.db as
# torch_npu names the tables and columns) gives the same cluster tables,
# the per-op wait and synchronization ratios, which the database does not
# keep, computed as the JSON's. On the two-rank db sample, every row of
# CommAnalyzerTime and CommAnalyzerMatrix is a row of ours.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/text" --ranks 4 \
    --seed 5 --parallel 2,2 || skip_all "cannot generate"
cp -R "$T/text" "$T/db"
"$PY" - "$T/db" <<'PY' || exit 1
import csv, glob, json, os, sqlite3, sys
for out in glob.glob(os.path.join(sys.argv[1], "*", "ASCEND_PROFILER_OUTPUT")):
    db = sqlite3.connect(os.path.join(out, "analysis.db"))
    db.execute("CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC,"
               " communication_not_overlapped NUMERIC, overlapped NUMERIC,"
               " communication NUMERIC, free NUMERIC, stage NUMERIC,"
               " bubble NUMERIC,"
               " communication_not_overlapped_and_exclude_receive NUMERIC,"
               " preparing NUMERIC)")
    with open(os.path.join(out, "step_trace_time.csv"), newline="") as f:
        for r in csv.DictReader(f):
            db.execute("INSERT INTO StepTraceTime VALUES"
                       " (?,?,?,?,?,?,?,?,?,?)", (r["Step"],
                       float(r["Computing"]),
                       float(r["Communication(Not Overlapped)"]),
                       float(r["Overlapped"]), float(r["Communication"]),
                       float(r["Free"]), float(r["Stage"]),
                       float(r["Bubble"]), None, float(r["Preparing"])))
    db.execute("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT,"
               " group_name TEXT, start_timestamp NUMERIC,"
               " elapse_time NUMERIC, transit_time NUMERIC,"
               " wait_time NUMERIC, synchronization_time NUMERIC,"
               " idle_time NUMERIC, step TEXT, type TEXT)")
    db.execute("CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT,"
               " group_name TEXT, src_rank TEXT, dst_rank TEXT,"
               " transport_type TEXT, transit_size NUMERIC,"
               " transit_time NUMERIC, bandwidth NUMERIC, step TEXT,"
               " type TEXT, op_name TEXT)")
    comm = json.load(open(os.path.join(out, "communication.json")))
    for step, kinds in comm.items():
        for kind, ops in kinds.items():
            for op, info in ops.items():
                if op.startswith("Total"):
                    continue
                t = info["Communication Time Info"]
                name, grp = op.split("@")
                db.execute("INSERT INTO CommAnalyzerTime VALUES"
                           " (?,?,?,?,?,?,?,?,?,?)", (name, grp,
                           t["Start Timestamp(us)"], t["Elapse Time(ms)"],
                           t["Transit Time(ms)"], t["Wait Time(ms)"],
                           t["Synchronization Time(ms)"],
                           t["Idle Time(ms)"], step, kind))
    matrix = json.load(open(os.path.join(out,
                                         "communication_matrix.json")))
    for step, kinds in matrix.items():
        for kind, ops in kinds.items():
            for op, links in ops.items():
                name, grp = op.split("@")
                for link, v in links.items():
                    src, dst = link.split("-")
                    db.execute("INSERT INTO CommAnalyzerMatrix VALUES"
                               " (?,?,?,?,?,?,?,?,?,?,?)", (name, grp, src,
                               dst, v["Transport Type"],
                               v["Transit Size(MB)"], v["Transit Time(ms)"],
                               v["Bandwidth(GB/s)"], step, kind,
                               v.get("Op Name")))
    db.commit()
    for f in ("step_trace_time.csv", "communication.json",
              "communication_matrix.json"):
        os.remove(os.path.join(out, f))
PY
for v in text db; do
	"$NPUPROF" import --db "$T/$v.db" "$T/$v" 2>"$T/$v.err"
	ok $? "$v: import"
	for t in cluster_communication cluster_communication_matrix \
	    cluster_step_trace_time; do
		"$NPUPROF" show -q --db "$T/$v.db" --format csv "$T/$v" $t \
		    >"$T/$v.$t"
	done
done
# cols FILE DROP...: FILE's CSV without the columns numbered DROP; per op,
# whole numbers without ".0" (a NUMERIC column keeps 1700000000000060.0
# and 0.0 as integers).
cols() {
	"$PY" - "$@" <<'PY'
import csv, sys
drop = {int(x) - 1 for x in sys.argv[2:]}
w = csv.writer(sys.stdout, lineterminator="\n")
for i, r in enumerate(csv.reader(open(sys.argv[1], newline=""))):
    if sys.argv[1].endswith("cluster_communication") and i > 0:
        for j in range(4, len(r)):
            if r[j].endswith(".0"):
                r[j] = r[j][:-2]
    w.writerow([c for j, c in enumerate(r) if j not in drop])
PY
}
for v in text db; do
	cols "$T/$v.cluster_communication" >"$T/$v.cc"
done
same_file "$T/db.cc" "$T/text.cc" \
    "cluster_communication from analysis.db, as from the JSON"
same_file "$T/db.cluster_communication_matrix" \
    "$T/text.cluster_communication_matrix" \
    "cluster_communication_matrix from analysis.db, as from the JSON"
# The generated CSV has no Exclude Receive column; the database says NULL.
cols "$T/db.cluster_step_trace_time" 11 >"$T/db.st"
same_file "$T/db.st" "$T/text.cluster_step_trace_time" \
    "cluster_step_trace_time (stages, indexes) from analysis.db"

d="$SAMPLES/msinsight-pt-db/level1"
[ -d "$d" ] || { done_testing; exit 0; }
"$NPUPROF" import -q --db "$T/s.db" "$d" || exit 1
for r in 0 1; do
	a="$d/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db"
	is "$(q "$T/s.db" "SELECT count(*) FROM communication
	    WHERE _rank = $r")" "$(q "$a" 'SELECT count(*) FROM
	    CommAnalyzerTime')" "sample rank $r: a communication row per op"
	is "$(q "$T/s.db" "SELECT count(*) FROM communication_matrix
	    WHERE _rank = $r")" "$(q "$a" 'SELECT count(*) FROM
	    CommAnalyzerMatrix')" "sample rank $r: a matrix row per link"
done
is "$(q "$T/s.db" 'SELECT count(*) FROM cluster_step_trace_time')" 2 \
    "sample: a cluster step row per rank"
done_testing
