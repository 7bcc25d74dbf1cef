#!/bin/sh
# The vendor's SQLite exports on small databases this test writes, whose
# every value is known: the memory tables printed as the text export
# prints them, STEP_TIME as steps and the step of each task, communication
# tasks and ops as HCCL spans, Python ops holding the CANN calls they make,
# GC_RECORD as spans, TASK_PMU_INFO as the tasks' PMU columns,
# and a table that cannot be read giving one warning while the rest loads.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to write the databases with"

# T0 = 1e12 ns; tid 7 of pid 100; device 1.
"$PYTHON3" - "$T/ascend_pytorch_profiler_0.db" "$T/msprof_1.db" <<'PY'
import sqlite3, sys
T = 10 ** 12
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE META_DATA (name TEXT, value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, hbm NUMERIC,
    timestampNs INTEGER, deviceId INTEGER);
CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER,
    totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER,
    streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER,
    releaseTime INTEGER, activeReleaseTime INTEGER, duration INTEGER,
    activeDuration INTEGER, allocationTotalAllocated INTEGER,
    allocationTotalReserved INTEGER, allocationTotalActive INTEGER,
    releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER,
    releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER, timestampNs INTEGER,
    totalReserved NUMERIC, deviceId INTEGER);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER
    PRIMARY KEY, blockNum INTEGER, taskType INTEGER, opType INTEGER);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER,
    taskType INTEGER, planeId INTEGER, groupName INTEGER, notifyId INTEGER,
    rdmaType INTEGER, srcRank INTEGER, dstRank INTEGER,
    transportType INTEGER, size INTEGER, dataType INTEGER, linkType INTEGER,
    opId INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER,
    endNs INTEGER, connectionId INTEGER, groupName INTEGER,
    opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER,
    dataType INTEGER, algType INTEGER, count NUMERIC, opType INTEGER);
CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER,
    globalTid INTEGER, connectionId INTEGER PRIMARY KEY, name INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,
    connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,
    fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,
    callchainId INTEGER, type INTEGER);
CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER,
    stackDepth INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
CREATE TABLE GC_RECORD (startNs INTEGER, endNs INTEGER, globalTid INTEGER);
CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER,
    value NUMERIC);
""")
db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", enumerate([
    "", "app", "device", "PTA", "GE", "aten::add", "hcom_allReduce_1",
    "Notify_Wait", "Memcpy", "group0", "MESH-RING", "allReduce", "Add",
    "AI_VECTOR_CORE", "aclnnAdd", "HcclAllReduce", "Add_1",
    "aiv_total_cycles", "aiv_vec_ratio"]))
# Task 1 has both PMU metrics, task 2 only the first.
db.executemany("INSERT INTO TASK_PMU_INFO VALUES (?, ?, ?)", [
    (1, 17, 2048), (1, 18, 0.25), (2, 17, 96)])
db.executemany("INSERT INTO ENUM_API_TYPE VALUES (?, ?)", [(20000, "acl"),
    (5500, "hccl"), (50001, "op")])
db.executemany("INSERT INTO ENUM_MODULE VALUES (?, ?)", [(0, "SLOG"),
    (3, "HCCL")])
db.execute("INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0, 'SDMA')")
db.execute("INSERT INTO RANK_DEVICE_MAP VALUES (0, 1)")
db.executemany("INSERT INTO NPU_MEM VALUES (?, ?, ?, ?, 1)", [
    (1, 1024, 3145728, T + 1000), (2, 0, 2048, T + 1500)])
db.execute("INSERT INTO MEMORY_RECORD VALUES (3, ?, 1572864, 2097152,"
    " NULL, 77, 1)", (T + 2001,))
db.execute("INSERT INTO MEMORY_RECORD VALUES (4, ?, 3, 5, 1, NULL, 1)",
    (T + 2002,))
db.execute("INSERT INTO OP_MEMORY VALUES (5, 1536, ?, ?, NULL, 1500, NULL,"
    " 1048576, 2097152, 1048576, NULL, NULL, NULL, 77, 1)",
    (T + 3000, T + 4500))
db.executemany("INSERT INTO NPU_MODULE_MEM VALUES (?, ?, ?, 1)", [
    (3, T + 5000, 5243904), (0, T + 5000, 0), (0, T + 6000, 1023)])
# Step 1 holds the launch of task 1 (which runs after it); task 2 has no
# launch and starts in step 2; tasks 3 and 4 are communication.
db.executemany("INSERT INTO STEP_TIME VALUES (?, ?, ?)", [
    (1, T + 10000, T + 20000), (2, T + 24000, T + 30000)])
db.executemany("INSERT INTO TASK VALUES (?, ?, 1, ?, ?, 0, 13, ?, 2, ?, 0)",
    [(T + 21000, T + 22000, 10, 1, 4294967295, 5),
     (T + 25000, T + 25100, 99, 2, 4294967295, 6),
     (T + 26000, T + 26500, None, 3, 0, 7),
     (T + 26100, T + 27000, None, 4, 1, 7)])
db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (16, ?, 8, 13, 12)",
    [(1,), (2,)])
db.executemany("INSERT INTO COMMUNICATION_TASK_INFO VALUES (6, ?, ?, ?, 9,"
    " 18, 0, 0, 1, 0, 2048, 3, 0, 1)", [(3, 7, 0), (4, 8, 1)])
db.execute("INSERT INTO COMMUNICATION_OP VALUES (6, ?, ?, 11, 9, 1, 0, 0,"
    " 4, 10, 512, 11)", (T + 25500, T + 29000))
gtid = (100 << 32) | 7
db.executemany("INSERT INTO CANN_API VALUES (?, ?, ?, ?, ?, ?)", [
    (T + 11000, T + 12000, 20000, gtid, 10, 14),
    (T + 25400, T + 25450, 5500, gtid, 11, 15)])
db.execute("INSERT INTO PYTORCH_API VALUES (?, ?, ?, NULL, 5, 1, 0, NULL,"
    " NULL, NULL, 50001)", (str(T + 10500), str(T + 12500), gtid))
db.execute("INSERT INTO GC_RECORD VALUES (?, ?, ?)", (T + 40000, T + 40700,
    gtid))
db.commit()

db = sqlite3.connect(sys.argv[2])
db.executescript("""
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE META_DATA (name TEXT, value TEXT);
CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER, timestampNs INTEGER,
    totalReserved NUMERIC, deviceId INTEGER);
CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, timestampNs INTEGER,
    deviceId INTEGER);
""")
db.execute("INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.2.0')")
db.execute("INSERT INTO ENUM_MODULE VALUES (3, 'HCCL')")
db.execute("INSERT INTO NPU_MODULE_MEM VALUES (3, ?, 5243904, 2)", (T,))
db.commit()
PY

pt="$T/ascend_pytorch_profiler_0.db"
"$NPUPROF" import -q --db "$T/pt.store" "$pt" 2>"$T/err"
ok $? "a generated PyTorch database imports"
is "$(cat "$T/err")" "" "and warns about nothing"

show() {	# show STORE INPUT TABLE
	"$NPUPROF" show -q --db "$1" --format csv "$2" "$3" 2>&1
}
is "$(show "$T/pt.store" "$pt" memory_record)" \
"Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type
APP,1000000001.000,,3.0009765625,,,NPU:1
PTA,1000000002.001,1.5,2.0,,77,NPU:1
GE,1000000002.002,2.86102294921875e-06,4.76837158203125e-06,9.5367431640625e-07,,NPU:1" \
    "memory_record: NPU_MEM's APP rows first, then MEMORY_RECORD, in MB as Python prints them"
is "$(show "$T/pt.store" "$pt" operator_memory)" \
"Name,Size(KB),Allocation Time(us),Release Time(us),Active Release Time(us),Duration(us),Active Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream Ptr,Device Type
aten::add,1.5,1000000003.000,1000000004.500,,1.500,,1.0,2.0,1.0,,,,77,NPU:1" \
    "operator_memory: KB, us and MB, empty where the .db has NULL"
is "$(show "$T/pt.store" "$pt" npu_module_mem)" \
"Component,Timestamp(us),Total Reserved(MB),Device
SLOG,1000000005.000,0.0,NPU:1
SLOG,1000000006.000,0.0,NPU:1
HCCL,1000000005.000,5.0009765625,NPU:1" \
    "npu_module_mem: by module then time, whole KB in MB"
is "$(show "$T/pt.store" "$pt" npu_mem)" \
"Device_id,event,ddr(KB),hbm(KB),memory(KB),timestamp(us)
1,app,1,3072,3073,1000000001.000
1,device,0,2,2,1000000001.500" "npu_mem: msprof's integer KB"

is "$(q "$T/pt.store" "SELECT device, iter, iter_end_ns, iter_time_ns,
    fp_start_ns FROM step ORDER BY iter")" \
"1|1|1000000020000|10000|
1|2|1000000030000|6000|" "STEP_TIME: iteration end and time, device of the rank"
is "$(q "$T/pt.store" "SELECT o.s, t.step FROM task t JOIN str o
    ON o.id = t.op_type ORDER BY t.start_ns")" \
"Add|1
Add|2
allReduce|2" "a task's step holds its launch, else its start"

is "$(q "$T/pt.store" "SELECT name, device, tid, conn,
    json_extract(args, '$.\"transport type\"'),
    json_extract(args, '$.\"data type\"'),
    json_extract(args, '$.\"op name\"'), start_ns, dur_ns
    FROM api_spans WHERE level = 'HCCL' ORDER BY start_ns")" \
"hcom_allReduce_1|1|0|11||||1000000025500|3500
Notify_Wait|1|1||SDMA|3|hcom_allReduce_1|1000000026000|500
Memcpy|1|2||SDMA|3|hcom_allReduce_1|1000000026100|900" \
    "HCCL spans: ops on lane 0, tasks on plane + 1, enum names where known"
is "$(q "$T/pt.store" "SELECT device, conn, dur_ns FROM task
    WHERE task_type = (SELECT id FROM str WHERE s = 'COMMUNICATION')")" \
    "1|11|3500" "the op's task row takes the device of its tasks"

is "$(q "$T/pt.store" "SELECT s.level, s.name, s.depth, p.name
    FROM api_spans s LEFT JOIN api_spans p ON p.id = s.parent
    WHERE s.device = 64 ORDER BY s.start_ns")" \
"python|aten::add|0|
acl|aclnnAdd|1|aten::add
hccl|HcclAllReduce|0|
gc|GC|0|" "the Python op holds the CANN call it makes; GC_RECORD is a span"
is "$(q "$T/pt.store" "SELECT pid, tid, dur_ns FROM api_spans
    WHERE level = 'gc'")" "100|7|700" "GC on the thread of its global tid"
is "$(show "$T/pt.store" "$pt" op_summary | cut -d, -f9,22- | sort)" \
"1000000021.000,2048,0.25
1000000025.000,96,N/A
1000000025.500,N/A,N/A
Task Start Time(us),aiv_total_cycles,aiv_vec_ratio" \
    "TASK_PMU_INFO: each task's PMU metrics, N/A where it has none"

# msprof's flavour: KB headers; a table missing a column is one warning.
ms="$T/msprof_1.db"
"$NPUPROF" import -q --db "$T/ms.store" "$ms" 2>"$T/err"
ok $? "an msprof database with a broken table still imports"
is "$(show "$T/ms.store" "$ms" npu_module_mem)" \
"Device_id,Component,Timestamp(us),Total Reserved(KB),Device
2,HCCL,1000000000.000,5121,NPU:2" "npu_module_mem with msprof's header"
is "$(q "$T/ms.store" "SELECT count(*), file = '$ms',
    message LIKE 'npu_mem not imported: %hbm%' FROM warning")" "1|1|1" \
    "one warning names the file and the table it could not read"
is "$(q "$T/ms.store" "SELECT count(*) FROM generic WHERE name IN
    ('memory_record', 'operator_memory')")" 0 \
    "no PyTorch tables from an msprof database"
done_testing
