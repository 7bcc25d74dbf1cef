#!/bin/sh
# The vendor's SQLite exports on the real samples (msinsight-pt-db: PyTorch
# db export, Level0 and Level1, two ranks): each ascend_pt folder imports
# from its ascend_pytorch_profiler_N.db, a digest of what lands in the store
# is golden, and our op_statistic equals a direct SQL aggregate over TASK x
# COMPUTE_TASK_INFO x STRING_IDS computed from the .db itself (doc/formats.md
# section 8: rows of type N/A and communication, write-back and invalid
# core types left out; the ratio over the rows kept).
. "$top_srcdir/tests/lib.sh"
need_samples
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to compute the SQL reference"
find "$SAMPLES" -name 'ascend_pytorch_profiler*.db' -o -name 'msprof_*.db' |
    sort >"$T/dbs"
[ -s "$T/dbs" ] || skip_all "no vendor database among the samples"

# The tool's op_statistic rules as SQL over the vendor database, printed as
# our show prints it (us with 3 decimals, zeros stripped; ratio 3 decimals).
reference() {
	"$PYTHON3" - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
rows = db.execute("""
    SELECT t.deviceId, op.value, ty.value, count(*),
        sum(t.endNs - t.startNs), min(t.endNs - t.startNs),
        max(t.endNs - t.startNs)
    FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId
    JOIN STRING_IDS op ON op.id = c.opType
    JOIN STRING_IDS ty ON ty.id = c.taskType
    WHERE op.value <> 'N/A' AND ty.value NOT IN ('N/A', 'HCCL',
        'COMMUNICATION', 'HCCL_AI_CPU', 'WRITE_BACK', 'INVALID')
    GROUP BY t.deviceId, op.value, ty.value""").fetchall()
def us(ns):
    s = "%.3f" % (ns / 1000.0)
    return s.rstrip("0").rstrip(".")
total = sum(r[4] for r in rows)
for d, op, ty, n, tot, mn, mx in rows:
    # torch_npu rounds the average to whole ns.
    avg = (2 * tot + n) // (2 * n)
    print(",".join([str(d), op, ty, str(n), us(tot), us(mn), us(avg),
        us(mx), us(round(tot * 100.0 / total * 1000))]))
PY
}

i=0
: >"$T/digest"
while read -r db; do
	i=$((i + 1))
	unit=$(dirname "$(dirname "$db")")
	rel=${db#"$SAMPLES"/}
	"$NPUPROF" import -q --db "$T/d$i.db" "$unit" 2>"$T/err"
	ok $? "$rel: its folder imports"
	{
		echo "== $rel"
		q "$T/d$i.db" "SELECT 'tasks', device, rank, count(*),
		    count(conn), count(api), sum(dur_ns), min(start_ns)
		    FROM task GROUP BY device, rank ORDER BY device, rank"
		q "$T/d$i.db" "SELECT 'spans', level, count(*), sum(dur_ns),
		    count(conn), count(args) FROM api_spans GROUP BY level
		    ORDER BY level"
		q "$T/d$i.db" "SELECT 'meta', key, value FROM meta
		    WHERE key LIKE 'db.SCHEMA_VERSION%' ORDER BY key"
		q "$T/d$i.db" "SELECT 'warnings', count(*) FROM warning"
	} >>"$T/digest"
	"$NPUPROF" show -q --db "$T/d$i.db" --format csv --stats computed \
	    "$unit" op_statistic | tail -n +2 | sort >"$T/ours"
	reference "$db" | sort >"$T/ref"
	if [ -s "$T/ref" ]; then
		same_file "$T/ours" "$T/ref" \
		    "$rel: op_statistic equals SQL over TASK x COMPUTE_TASK_INFO x STRING_IDS ($(wc -l <"$T/ref") rows)"
	else
		is "$(cat "$T/ours")" "" \
		    "$rel: no op_statistic rows, as in SQL (Level0 op types are N/A)"
	fi
done <"$T/dbs"
golden "$T/digest" db-samples.txt "what the sample databases put in the store"

# The counter tables as counter series, computed from the .db by the rules
# of db-counters.c: per series its samples, first and last time, lowest
# and highest value.
counters_ref() {
	"$PYTHON3" - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
have = lambda t: db.execute("SELECT 1 FROM sqlite_master WHERE name = ?",
                            (t,)).fetchone() is not None
def st(i):
    r = db.execute("SELECT value FROM STRING_IDS WHERE id = ?", (i,)).fetchone()
    return r[0] if r else str(i)
series = {}
def add(name, key, ts, v):
    series.setdefault((name, key), []).append((ts, float(v)))
if have("AICORE_FREQ"):
    for ts, f in db.execute("SELECT timestampNs, freq FROM AICORE_FREQ"):
        add("AI Core Freq", "MHz", ts, f)
if have("HBM"):
    for ts, b, h, t in db.execute("SELECT timestampNs, bandwidth, hbmId, type FROM HBM"):
        add("HBM %d/%s" % (h, st(t)), "bandwidth", ts, b)
if have("LLC"):
    for l, ts, hr, tp, m in db.execute("SELECT llcId, timestampNs, hitRate, throughput, mode FROM LLC"):
        add("LLC %d %s/hitRate" % (l, st(m)), "hitRate", ts, hr)
        add("LLC %d %s/throughput" % (l, st(m)), "throughput", ts, tp)
if have("NPU_MEM"):
    for t, ddr, hbm, ts in db.execute("SELECT type, ddr, hbm, timestampNs FROM NPU_MEM"):
        add("NPU MEM %s/ddr" % st(t), "ddr", ts, ddr)
        add("NPU MEM %s/hbm" % st(t), "hbm", ts, hbm)
if have("ACC_PMU"):
    cols = ["readBwLevel", "writeBwLevel", "readOstLevel", "writeOstLevel"]
    for r in db.execute("SELECT accId, timestampNs, " + ", ".join(cols) + " FROM ACC_PMU"):
        for c, v in zip(cols, r[2:]):
            add("Acc PMU %d/%s" % (r[0], c), c, r[1], v)
if have("SOC_BANDWIDTH_LEVEL"):
    for l2, mata, ts in db.execute("SELECT l2BufferBwLevel, mataBwLevel, timestampNs FROM SOC_BANDWIDTH_LEVEL"):
        add("L2 Buffer Bw Level", "l2BufferBwLevel", ts, l2)
        add("Mata Bw Level", "mataBwLevel", ts, mata)
for (n, k), v in sorted(series.items()):
    print("%s|%s|%d|%d|%d|%.17g|%.17g" % (n, k, len(v), min(t for t, _ in v),
          max(t for t, _ in v), min(x for _, x in v), max(x for _, x in v)))
PY
}

i=0
while read -r db; do
	i=$((i + 1))
	rel=${db#"$SAMPLES"/}
	counters_ref "$db" >"$T/cref"
	"$PYTHON3" - "$T/d$i.db" >"$T/cours" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
# The memory_record series are the table's, checked below.
for r in db.execute("SELECT n.s, k.s, count(*), min(c.ts_ns), max(c.ts_ns),"
        " min(c.value), max(c.value) FROM counter c JOIN str n ON n.id ="
        " c.name JOIN str k ON k.id = c.key WHERE n.s NOT LIKE 'Memory %'"
        " GROUP BY n.s, k.s ORDER BY n.s, k.s"):
    print("%s|%s|%d|%d|%d|%.17g|%.17g" % r)
PY
	# Each value cell of memory_record is one sample of its series.
	is "$(q "$T/d$i.db" "SELECT count(*) FROM counter c JOIN str n
	    ON n.id = c.name WHERE n.s LIKE 'Memory %'")" \
	    "$(q "$T/d$i.db" "SELECT ifnull(sum((\"Total Allocated(MB)\" <> '')
	    + (\"Total Reserved(MB)\" <> '') + (\"Total Active(MB)\" <> '')),
	    0) FROM memory_record" 2>/dev/null || echo 0)" \
	    "$rel: one memory sample per value of memory_record"
	# TASK_PMU_INFO: every value of every metric, as the task rows hold
	# them (SQLite's text of the NUMERIC value), against the .db.
	"$PYTHON3" - "$db" >"$T/pref" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'TASK_PMU_INFO'").fetchone():
    for n, v in db.execute("SELECT s.value, CAST(p.value AS TEXT) FROM"
            " TASK_PMU_INFO p JOIN STRING_IDS s ON s.id = p.name JOIN"
            " COMPUTE_TASK_INFO c ON c.globalTaskId = p.globalTaskId"):
        print("%s=%s" % (n, v))
PY
	"$NPUPROF" show -q --db "$T/d$i.db" --format csv \
	    "$(dirname "$(dirname "$db")")" op_summary | "$PYTHON3" -c '
import csv, sys
r = csv.reader(sys.stdin)
h = next(r)
k = h.index("Context ID") + 1 if "Context ID" in h else len(h)
for row in r:
    for n, v in zip(h[k:], row[k:]):
        if v != "N/A":
            print("%s=%s" % (n, v))' >"$T/pours"
	LC_ALL=C sort "$T/pref" >"$T/a"
	LC_ALL=C sort "$T/pours" >"$T/b"
	same_file "$T/b" "$T/a" \
	    "$rel: the tasks' PMU values equal TASK_PMU_INFO ($(wc -l <"$T/a") values)"
	LC_ALL=C sort "$T/cref" >"$T/a"
	LC_ALL=C sort "$T/cours" >"$T/b"
	same_file "$T/b" "$T/a" \
	    "$rel: counter series equal the .db's counter tables ($(wc -l <"$T/a") series)"
done <"$T/dbs"

# The memory tables as the text export prints them, computed from the .db
# with Python's own float text (MB and KB cells are repr() of a division).
memory() {
	"$PYTHON3" - "$1" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
def us(ns):
    return "" if ns is None else "%d.%03d" % (ns // 1000, ns % 1000)
def mb(b):
    return "" if b is None else repr(b / 1048576)
def kb(b):
    return "" if b is None else repr(b / 1024)
def s(v):
    return "" if v is None else str(v)
S = "(SELECT value FROM STRING_IDS WHERE id = %s)"
t = sys.argv[2]
if t == "memory_record":
    print("Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),"
          "Total Active(MB),Stream Ptr,Device Type")
    for ts, ddr, hbm, d in db.execute("SELECT timestampNs, ddr, hbm,"
            " deviceId FROM NPU_MEM WHERE " + S % "type" + " = 'app'"
            " ORDER BY deviceId, timestampNs"):
        print(",".join(["APP", us(ts), "", repr((ddr + hbm) // 1024 / 1024),
            "", "", "NPU:%d" % d]))
    for r in db.execute("SELECT " + S % "component" + ", timestamp,"
            " totalAllocated, totalReserved, totalActive, streamPtr, deviceId"
            " FROM MEMORY_RECORD ORDER BY deviceId, rowid"):
        print(",".join([r[0], us(r[1]), mb(r[2]), mb(r[3]), mb(r[4]), s(r[5]),
            "NPU:%d" % r[6]]))
elif t == "operator_memory":
    print("Name,Size(KB),Allocation Time(us),Release Time(us),Active Release"
          " Time(us),Duration(us),Active Duration(us),Allocation Total"
          " Allocated(MB),Allocation Total Reserved(MB),Allocation Total"
          " Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),"
          "Release Total Active(MB),Stream Ptr,Device Type")
    for r in db.execute("SELECT " + S % "name" + ", size, allocationTime,"
            " releaseTime, activeReleaseTime, duration, activeDuration,"
            " allocationTotalAllocated, allocationTotalReserved,"
            " allocationTotalActive, releaseTotalAllocated,"
            " releaseTotalReserved, releaseTotalActive, streamPtr, deviceId"
            " FROM OP_MEMORY ORDER BY deviceId, rowid"):
        print(",".join([r[0], kb(r[1])] + [us(x) for x in r[2:7]] +
            [mb(x) for x in r[7:13]] + [s(r[13]), "NPU:%d" % r[14]]))
elif t == "npu_module_mem":
    print("Component,Timestamp(us),Total Reserved(MB),Device")
    for r in db.execute("SELECT (SELECT name FROM ENUM_MODULE WHERE id ="
            " moduleId), timestampNs, totalReserved, deviceId FROM"
            " NPU_MODULE_MEM ORDER BY deviceId, moduleId, timestampNs"):
        print(",".join([r[0], us(r[1]), repr(r[2] // 1024 / 1024),
            "NPU:%d" % r[3]]))
elif t == "npu_mem":
    print("Device_id,event,ddr(KB),hbm(KB),memory(KB),timestamp(us)")
    for d, e, ddr, hbm, ts in db.execute("SELECT deviceId, " + S % "type" +
            ", ddr, hbm, timestampNs FROM NPU_MEM"
            " ORDER BY deviceId, timestampNs, rowid"):
        print(",".join([str(d), e, str(ddr // 1024), str(hbm // 1024),
            str((ddr + hbm) // 1024), us(ts)]))
PY
}

i=0
while read -r db; do
	i=$((i + 1))
	unit=$(dirname "$(dirname "$db")")
	rel=${db#"$SAMPLES"/}
	# Read as immutable, as the Python above does: a plain open of a .db
	# in WAL mode makes its -wal and -shm files beside it in the samples.
	ro="file:$db?immutable=1"
	for t in memory_record operator_memory npu_module_mem npu_mem; do
		"$NPUPROF" show -q --db "$T/d$i.db" --format csv "$unit" "$t" \
		    >"$T/ours" 2>&1
		memory "$db" "$t" >"$T/ref"
		same_file "$T/ours" "$T/ref" \
		    "$rel: $t equals the .db's rows as the text export prints them ($(($(wc -l <"$T/ref") - 1)) rows)"
	done

	# Communication: one HCCL span per TASK x COMMUNICATION_TASK_INFO
	# row, named by its task type, on lane plane + 1, and one per
	# COMMUNICATION_OP on lane 0.
	q "$T/d$i.db" "SELECT name, tid, count(*), sum(dur_ns) FROM api_spans
	    WHERE level = 'HCCL' GROUP BY 1, 2 ORDER BY 1, 2" >"$T/ours"
	q "$ro" "SELECT s.value, i.planeId + 1, count(*),
	    sum(t.endNs - t.startNs) FROM TASK t JOIN COMMUNICATION_TASK_INFO i
	    ON i.globalTaskId = t.globalTaskId JOIN STRING_IDS s
	    ON s.id = i.taskType GROUP BY 1, 2
	    UNION ALL SELECT s.value, 0, count(*), sum(o.endNs - o.startNs)
	    FROM COMMUNICATION_OP o JOIN STRING_IDS s ON s.id = o.opName
	    GROUP BY 1 ORDER BY 1, 2" >"$T/ref"
	same_file "$T/ours" "$T/ref" \
	    "$rel: HCCL spans equal the communication tasks and ops ($(wc -l <"$T/ref") groups)"
	is "$(q "$T/d$i.db" "SELECT count(*) FROM task
	    WHERE task_type = (SELECT id FROM str WHERE s = 'COMMUNICATION')
	    AND device IS NULL")" 0 \
	    "$rel: communication op tasks have the device of their tasks"

	# Steps: STEP_TIME rows, and each task in the step that holds its
	# launch (the first CANN span of its connection id), else itself.
	is "$(q "$T/d$i.db" "SELECT iter, iter_end_ns, iter_time_ns FROM step")" \
	    "$(q "$ro" "SELECT id, endNs, endNs - startNs FROM STEP_TIME")" \
	    "$rel: step_trace rows are STEP_TIME's"
	q "$T/d$i.db" "SELECT step, count(*) FROM task GROUP BY 1
	    ORDER BY 1" >"$T/ours"
	q "$ro" "WITH k(s) AS (SELECT coalesce((SELECT min(a.startNs)
	    FROM CANN_API a WHERE a.connectionId = t.connectionId), t.startNs)
	    FROM TASK t JOIN COMPUTE_TASK_INFO c
	    ON c.globalTaskId = t.globalTaskId
	    UNION ALL SELECT coalesce((SELECT min(a.startNs) FROM CANN_API a
	    WHERE a.connectionId = o.connectionId), o.startNs)
	    FROM COMMUNICATION_OP o)
	    SELECT (SELECT id FROM STEP_TIME WHERE k.s BETWEEN startNs
	    AND endNs ORDER BY startNs LIMIT 1) AS step, count(*) FROM k
	    GROUP BY 1 ORDER BY 1" >"$T/ref"
	same_file "$T/ours" "$T/ref" "$rel: tasks per step as SQL over the launches"
done <"$T/dbs"

# Nesting: every span's parent is the innermost span of its thread that
# holds it (host spans by thread id, others by process and thread too).
nesting() {
	"$PYTHON3" - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT id, rank, device, pid, tid, start_ns, end_ns,"
    " depth, parent FROM api").fetchall()
def key(r):
    host = r[2] == 64
    return (r[1], host, None if host else r[2], None if host else r[3], r[4])
groups = {}
for r in rows:
    groups.setdefault(key(r), []).append(r)
bad = 0
for g in groups.values():
    g.sort(key=lambda r: (r[5], -r[6], r[0]))
    for i, r in enumerate(g):
        # The innermost earlier span that holds r (ties: later in order).
        best = None
        for p in g[:i]:
            if p[5] <= r[5] and r[6] <= p[6]:
                best = p
        want = None if best is None else best[0]
        if r[8] != want:
            bad += 1
        depth = 0
        p = best
        while p is not None:
            depth += 1
            p = next((x for x in g if x[0] == p[8]), None)
        if r[7] != depth:
            bad += 1
print("%d spans, %d wrong" % (len(rows), bad))
PY
}
n=$(q "$T/d1.db" "SELECT count(*) FROM api")
is "$(nesting "$T/d1.db")" "$n spans, 0 wrong" \
    "every span's parent is the innermost span of its thread that holds it"

# A PyTorch span keeps its call stack and input shapes as args.
db=$(head -n 1 "$T/dbs")
stack=$(q "$T/d1.db" "SELECT count(*) FROM api WHERE args LIKE '%\"Call stack\":\"%'")
[ "$stack" -gt 0 ]
ok $? "PyTorch spans carry their call stacks ($stack)"

# A vendor database given directly as PATH; our own store is not one.
"$NPUPROF" import -q --db "$T/direct.db" "$db" 2>/dev/null
ok $? "a vendor .db given as PATH imports"
"$NPUPROF" import -q --db "$T/again.db" "$T/direct.db" >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "one of our stores is not taken for a vendor database"
done_testing
