#!/bin/sh
# A vendor database whose values are damaged in ways SQLite lets through:
# text or a fraction in an INTEGER column, an end before its start, a
# string id STRING_IDS lacks, NULL times of memory samples and of counter
# samples, a step without its id. None of them may turn into a number or
# vanish without a word: each is counted in a warning, and the rest loads.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to write the database with"

"$PYTHON3" - "$T/ascend_pytorch_profiler_0.db" <<'PY'
import sqlite3, sys
T = 10 ** 12
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE META_DATA (name TEXT, value TEXT);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER
    PRIMARY KEY, blockNum INTEGER, taskType INTEGER, opType INTEGER);
CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, hbm NUMERIC,
    timestampNs INTEGER, deviceId INTEGER);
CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER,
    totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER,
    streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE AICORE_FREQ (deviceId INTEGER, timestampNs INTEGER,
    freq INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
""")
db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", enumerate([
    "MatMul_1", "MatMul", "AI_CORE", "app", "PTA"]))
# Eight MatMul tasks of 1 us: task 2 ends in text, task 3 ends before it
# starts, task 4's block count is text, task 5's is a fraction, task 6 is
# named by string id 77, which STRING_IDS lacks.
for i in range(8):
    s, e = T + i * 10000, T + i * 10000 + 1000
    if i == 2:
        e = "12x"
    if i == 3:
        e = s - 1000
    db.execute("INSERT INTO TASK VALUES (?, ?, 0, ?, ?, 0, 2, 4294967295,"
        " 2, ?, 0)", (s, e, i, i, i))
    b = {4: "7abc", 5: 1.5}.get(i, 8)
    db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (?, ?, ?, 2, 1)",
        (77 if i == 6 else 0, i, b))
# NPU_MEM: four app samples, two of them of type 88 (no string); the
# memory_record of PTA: three samples, one with a NULL time.
for i, t in enumerate([3, 88, 3, 88]):
    db.execute("INSERT INTO NPU_MEM VALUES (?, 1024, 2048, ?, 0)",
        (t, T + i * 1000))
for i, ts in enumerate([T, None, T + 2000]):
    db.execute("INSERT INTO MEMORY_RECORD VALUES (4, ?, 1048576, 2097152,"
        " 1048576, 1, 0)", (ts,))
# AICORE_FREQ: three samples, one with a NULL time.
for i, ts in enumerate([T, None, T + 2000]):
    db.execute("INSERT INTO AICORE_FREQ VALUES (0, ?, 1800)", (ts,))
# STEP_TIME: steps 1 and 2, and one without its id.
for i, sid in enumerate([1, None, 2]):
    db.execute("INSERT INTO STEP_TIME VALUES (?, ?, ?)",
        (sid, T + i * 30000, T + i * 30000 + 29000))
db.commit()
PY

"$NPUPROF" import --db "$T/s.db" "$T/ascend_pytorch_profiler_0.db" \
    2>"$T/err" >/dev/null
is $? 0 "a damaged database imports"
"$NPUPROF" show -q --db "$T/s.db" --format csv \
    "$T/ascend_pytorch_profiler_0.db" op_summary >"$T/ops"
is "$(sed 1d "$T/ops" | wc -l | tr -d ' ')" 6 \
    "the six tasks with sound times are in op_summary"
grep -q "1 of 8 TASK rows skipped: endNs before startNs" "$T/err"
ok $? "an end before its start skips the task, counted"
grep -q "1 of 8 TASK rows skipped: no startNs or endNs" "$T/err"
ok $? "an end that is text skips the task, counted"
grep -q "3 of 8 TASK rows: a value that is no integer (the first in column" \
    "$T/err"
ok $? "text and a fraction in integer columns are counted in one warning"
# The task whose block count was text shows N/A, not 7; the fraction
# N/A, not 1.
"$PYTHON3" - "$T/ops" <<'PY' >"$T/blocks"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(r["Block Num"] for r in rows))
PY
is "$(cat "$T/blocks")" "8 8 N/A N/A 8 8" \
    "a block count that is no integer is N/A, not a number cut from it"
grep -q "2 string ids that STRING_IDS lacks (the first 77, in COMPUTE_TASK_INFO.name)" \
    "$T/err"
ok $? "string ids STRING_IDS lacks are counted once each, with a column"
grep -q "(string id 77)" "$T/ops"
ok $? "and the task it names is kept, named by its id"
grep -q "lacks.*NPU_MEM type of app, say) may be left out" "$T/err"
ok $? "the warning says rows chosen by name may be left out"
grep -q "1 of 3 memory_record rows: no time or memory value, kept in the table" \
    "$T/err"
ok $? "a memory sample without its time is counted, kept in the table"
grep -q "1 of 3 AICORE_FREQ samples skipped: no time" "$T/err"
ok $? "so is a counter sample without its time"
grep -q "1 of 3 STEP_TIME rows skipped: no step id" "$T/err"
ok $? "and a step without its id"
"$NPUPROF" show -q --db "$T/s.db" --format csv \
    "$T/ascend_pytorch_profiler_0.db" step_trace | sed 1d | wc -l |
    tr -d ' ' >"$T/n"
is "$(cat "$T/n")" 2 "the two steps with ids load"

# The same without TASK: the kernels' facts have no times. With TASK but
# without COMPUTE_TASK_INFO, no task is known for a kernel.
mkdir "$T/a" "$T/b"
cp "$T/ascend_pytorch_profiler_0.db" "$T/a/"
cp "$T/ascend_pytorch_profiler_0.db" "$T/b/"
"$PYTHON3" -c 'import sqlite3, sys
for p, t in zip(sys.argv[1:], ("TASK", "COMPUTE_TASK_INFO")):
    c = sqlite3.connect(p); c.execute("DROP TABLE " + t); c.commit()' \
    "$T/a/ascend_pytorch_profiler_0.db" "$T/b/ascend_pytorch_profiler_0.db"
"$NPUPROF" import --db "$T/a.db" "$T/a" 2>"$T/err" >/dev/null
grep -q "no TASK table: the rows of COMPUTE_TASK_INFO have no times" \
    "$T/err"
ok $? "a database without TASK says its kernels are not imported"
"$NPUPROF" import --db "$T/b.db" "$T/b" 2>"$T/err" >/dev/null
grep -q "no COMPUTE_TASK_INFO table: TASK's kernels" "$T/err"
ok $? "one without COMPUTE_TASK_INFO says its tasks are not imported"

# More damage in a copy: COMPUTE_TASK_INFO without its key and with a row
# whose globalTaskId is NULL (a NOT IN over it left out every other device
# task), a row naming a task TASK lacks, a step that ends before it
# starts, a fractional string id.
mkdir "$T/c"
cp "$T/ascend_pytorch_profiler_0.db" "$T/c/"
"$PYTHON3" - "$T/c/ascend_pytorch_profiler_0.db" <<'PY'
import sqlite3, sys
T = 10 ** 12
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE x AS SELECT * FROM COMPUTE_TASK_INFO;
DROP TABLE COMPUTE_TASK_INFO;
ALTER TABLE x RENAME TO COMPUTE_TASK_INFO;
INSERT INTO COMPUTE_TASK_INFO VALUES (0, NULL, 8, 2, 1);
INSERT INTO COMPUTE_TASK_INFO VALUES (0, 99, 8, 2, 1);
UPDATE COMPUTE_TASK_INFO SET name = 2.5 WHERE globalTaskId = 7;
""")
db.execute("INSERT INTO TASK VALUES (?, ?, 0, 50, 50, 0, 2, 4294967295,"
    " 2, 50, 0)", (T + 500000, T + 501000))
db.execute("INSERT INTO STEP_TIME VALUES (3, ?, ?)", (T + 100000, T + 99000))
# A task whose end is INT64_MAX, a sentinel: 237 years, were it a time.
db.execute("INSERT INTO TASK VALUES (?, ?, 0, 60, 60, 0, 2, 4294967295,"
    " 2, 60, 0)", (T + 600000, 2 ** 63 - 1))
db.execute("INSERT INTO COMPUTE_TASK_INFO VALUES (0, 60, 8, 2, 1)")
db.commit()
PY
"$NPUPROF" import --db "$T/c.db" "$T/c" 2>"$T/err" >/dev/null
is "$(q "$T/c.db" "SELECT count(*) FROM api WHERE level =
    (SELECT id FROM str WHERE s = 'Ascend Hardware')")" 1 \
    "a NULL globalTaskId leaves the other device tasks in"
grep -q "2 of 11 COMPUTE_TASK_INFO rows name a task TASK does not hold" \
    "$T/err"
ok $? "rows naming a task TASK lacks (99, and NULL) are counted"
grep -q "1 of 4 STEP_TIME rows skipped: endNs before startNs" "$T/err"
ok $? "a step that ends before it starts is skipped, counted"
"$NPUPROF" show -q --db "$T/c.db" --format csv "$T/c" op_summary |
    grep -q '(string id 2.5)'
ok $? "a fractional string id is said as it is, not cut to 2"
grep -q "3 string ids that STRING_IDS lacks" "$T/err"
ok $? "and counted with 77 and 88"
grep -q "1 of 9 TASK rows skipped: a time before 1970 or after 2116" \
    "$T/err"
ok $? "an end of INT64_MAX is skipped, counted"
done_testing
