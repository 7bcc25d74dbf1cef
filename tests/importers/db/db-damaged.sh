#!/bin/sh
# A vendor database with NULL and extreme times and without its enum and
# link tables: every row that cannot be loaded is counted in one warning
# per table and reason, no NULL takes part in a sum, and a missing
# ENUM_API_TYPE falls back to the vendor's fixed level numbers with a
# warning instead of an empty api_statistic.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to write the database with"

"$PYTHON3" - "$T/msprof_0.db" <<'PY'
import sqlite3, sys
T = 10 ** 12
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER
    PRIMARY KEY, blockNum INTEGER, taskType INTEGER, opType INTEGER);
CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER,
    globalTid INTEGER, connectionId INTEGER PRIMARY KEY, name INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,
    connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,
    fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,
    callchainId INTEGER, type INTEGER);
""")
db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", enumerate([
    "MatMul_1", "MatMul", "AI_CORE", "aclnnMatMul", "aten::mm"]))
# Ten compute tasks of 1 us; three with a NULL time, one whose
# difference overflows.
rows = []
for i in range(10):
    rows.append((T + i * 10000, T + i * 10000 + 1000, i))
rows[2] = (None, T + 21000, 2)
rows[3] = (T + 30000, None, 3)
rows[4] = (None, None, 4)
rows[5] = (-9223372036854775000, 9223372036854775000, 5)
for s, e, g in rows:
    db.execute("INSERT INTO TASK VALUES (?, ?, 0, ?, ?, 0, 2, 4294967295,"
        " 2, ?, 0)", (s, e, g, g, g))
    db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (0, ?, 8, 2, 1)", (g,))
# Four CANN APIs of level 20000 (acl), one with a NULL end, and one of a
# level number no vendor table names.
for i, (t, e) in enumerate([(20000, 500), (20000, 700), (20000, None),
                            (5000, 300), (99, 100)]):
    db.execute("INSERT INTO CANN_API VALUES (?, ?, ?, 4294967297, ?, 3)",
        (T + i * 1000, None if e is None else T + i * 1000 + e, t, i))
db.execute("INSERT INTO PYTORCH_API VALUES (?, ?, 4294967297, NULL, 4,"
    " 1, 0, NULL, NULL, NULL, 50001)", (str(T), str(T + 9000)))
db.commit()
PY

"$NPUPROF" show --db "$T/s.db" --format csv "$T/msprof_0.db" op_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "a damaged database imports"
is "$(cut -d, -f2-7 "$T/out" | tail -n 1)" "MatMul,AI_CORE,6,6,1,1" \
    "only the six sound tasks count, each 1 us"
grep -q "3 of 10 TASK rows skipped: no startNs or endNs" "$T/err"
ok $? "NULL times are counted in one warning"
grep -q "1 of 10 TASK rows skipped: endNs - startNs out of range" "$T/err"
ok $? "an overflowing difference is counted apart"
grep -q "1 of 5 CANN_API rows skipped: no startNs or endNs" "$T/err"
ok $? "and so are the API rows"
grep -q "no ENUM_API_TYPE table: API levels are taken from the vendor" \
    "$T/err"
ok $? "a missing ENUM_API_TYPE is a warning"
grep -q "no PYTORCH_CALLCHAINS table: PyTorch ops have no call stacks" \
    "$T/err"
ok $? "so are the missing link tables"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/msprof_0.db" \
    api_statistic >"$T/out"
is "$(cut -d, -f2,3,5 "$T/out" | sort | tr '\n' ' ')" \
    "Level,API Name,Count acl,aclnnMatMul,2 runtime,aclnnMatMul,1 " \
    "api_statistic keeps its levels from the fixed numbers"
grep -q "1 of 5 CANN_API rows: type number no ENUM_API_TYPE row names" \
    "$T/err"
ok $? "an API of a level no table names is counted, not lost silently"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/msprof_0.db" \
    warnings >"$T/w"
is "$(grep -c ' rows' "$T/w")" 4 "show warnings lists the counts"
done_testing
