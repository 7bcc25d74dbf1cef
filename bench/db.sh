#!/bin/sh
# The vendor database benchmark (run by bench/run, or alone:
# sh bench/db.sh path/to/npuprof-tui): an ascend_pytorch_profiler_0.db
# that python3 writes with BENCH_DB_TASKS compute tasks (100,000), each
# with 16 TASK_PMU_INFO metrics, and as many PYTORCH_API rows, each with
# a call chain of 8 frames in PYTORCH_CALLCHAINS and one CONNECTION_IDS
# row. The tasks' PMU values, the call stacks and the connection ids are
# lookups for each row into tables the vendor leaves without an index:
# the rate shows whether each is a lookup or a scan.
. "$(dirname "$0")/lib.sh" "$@"
N=${BENCH_DB_TASKS:-100000}
command -v python3 >/dev/null || { echo "db: skipped, no python3"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/npdb.XXXXXX")
trap 'rm -rf "$T"' EXIT

python3 - "$T/ascend_pytorch_profiler_0.db" "$N" <<'PY'
import sqlite3, sys
n = int(sys.argv[2])
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER
    PRIMARY KEY, blockNum INTEGER, taskType INTEGER, opType INTEGER);
CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER,
    value NUMERIC);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,
    connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,
    fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,
    callchainId INTEGER, type INTEGER);
CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER,
    stackDepth INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
""")
db.execute("INSERT INTO ENUM_API_TYPE VALUES (50001, 'op')")
strs = ["MatMul", "Add", "AI_CORE", "aten::mm", "aten::add"]
strs += ["metric_%d" % i for i in range(16)]
strs += ["frame_%d.py(%d): f" % (i, i) for i in range(64)]
db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", enumerate(strs))
T0 = 10 ** 12
db.executemany("INSERT INTO TASK VALUES (?,?,0,?,?,1,2,0,1,?,0)",
    ((T0 + i * 1000, T0 + i * 1000 + 600, i, i, i & 0xFFFF)
    for i in range(n)))
db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,8,2,?)",
    ((i & 1, i, i & 1) for i in range(n)))
db.executemany("INSERT INTO TASK_PMU_INFO VALUES (?,?,?)",
    ((i, 5 + m, i % 997 + m) for i in range(n) for m in range(16)))
db.executemany("INSERT INTO PYTORCH_API VALUES (?,?,7,?,?,?,7,NULL,NULL,"
    "?,50001)", ((str(T0 + i * 1000 - 200), str(T0 + i * 1000 + 100), i,
    3 + (i & 1), i, i) for i in range(n)))
db.executemany("INSERT INTO PYTORCH_CALLCHAINS VALUES (?,?,?)",
    ((i, 21 + (i + d) % 64, d) for i in range(n) for d in range(8)))
db.executemany("INSERT INTO CONNECTION_IDS VALUES (?,?)",
    ((i, i) for i in range(n)))
db.commit()
PY
mb=$(du -m "$T/ascend_pytorch_profiler_0.db" | cut -f1)
set -- $("$here/measure" "$NPUPROF" import -q --db "$T/s.db" \
    "$T/ascend_pytorch_profiler_0.db")
awk -v s="$1" -v r="$2" -v n="$N" -v mb="$mb" 'BEGIN {
	printf "vendor .db, %d tasks with 16 PMU metrics and %d PyTorch ops" \
	    " with 8-frame call chains (%d MB): %.2f s, %.0f rows/s, peak" \
	    " RSS %.1f MB\n", n, n, mb, s, 2 * n / s, r }'
echo "(reproduce: BENCH_DB_TASKS=$N sh bench/db.sh $NPUPROF)"
