/*
 * Seeds of the single-file fuzz targets: small sound inputs that reach
 * every path of their decoder (quoted shapes, CRLF, a BOM, PMU columns;
 * every event phase and process kind of a trace; the tables of a vendor
 * database), so mutations start from data that decodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npuprof.h"
#include "store.h"
#include "fuzz.h"

/* CSV seeds: the first byte is the file, as fuzz.c reads it. */
static const char *const fuzz_seeds_csv[] = {
	"\0Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
	"Wait Time(us),Block Num,Mix Block Num,Input Shapes,"
	"aic_mac_ratio,aic_total_cycles\r\n"
	"1,MatMul_1,MatMul,AI_CORE,1700000000000000.125\t,12.5,0.1,8,0,"
	"\"\"\"32,1024;1024,64\"\"\",0.920,1234\r\n"
	"2,Add_2,Add,AI_VECTOR_CORE,1700000000000100.000\t,3,N/A,4,0,"
	"\"\"\"8\"\"\",,77\r\n",
	"\1\xef\xbb\xbf" "Device_id,OP Type,Core Type,Count,Total Time(us),"
	"Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
	"0,MatMul,AI_CORE,2,25,12,12.5,13,83.3\n0,Add,AI_VECTOR_CORE,1,5,5,5,5,"
	"16.7\n",
	"\2Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),"
	"Variance\nhost,acl,aclnnMatMul,10,2,5,4,6,1\n"
	"host,runtime,rtKernelLaunch,3,3,1,1,1,0\n",
	"\3Step,Computing,Communication(Not Overlapped),Overlapped,"
	"Communication,Free,Stage,Bubble\n1,100,20,5,25,3,128,0\n",
	"\4Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,"
	"Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),"
	"Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
	"Input Formats,Output Shapes,Output Data Types,Output Formats,"
	"Context ID,aicore_time(us),aic_total_cycles\n"
	"0,4294967295,3,2,MatMul_1,MatMul,dynamic,AI_CORE,"
	"1700000000000000.125\t,12.5,0,8,0,NO,\"32,64\",FLOAT16,ND,"
	"\"32,64\",FLOAT16,ND,N/A,12.1,1234\n",
	"\5Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),"
	"Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
	"0,N/A,MatMul,AI_CORE,1,12.5,12.5,12.5,12.5,100\n",
	"\6Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,"
	"Task Type,Task Start Time,Task Duration(us),Task Wait Time(us),"
	"Block Dim\nresnet,1,3,2,1,conv1,Conv2D,AI_CORE,1000.5,10.25,0,2\n",
	"\7Layer Id,Layer Name,Layer Type,Total Time(us),Avg Time(us),"
	"Count\n1,conv1,Convolution,10,5,2\n-,-,-,10,5,2\n",
	NULL
};

/* Lengths of the CSV seeds: the first byte may be NUL. */
static size_t
fuzz_seeds_csv_len(size_t i)
{
	return 1 + strlen(fuzz_seeds_csv[i] + 1);
}

static const char *const fuzz_seeds_trace[] = {
	"[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	"\"args\":{\"name\":\"Python\"}},"
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2,\"tid\":0,"
	"\"args\":{\"name\":\"CANN\"}},"
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":2080,\"tid\":0,"
	"\"args\":{\"name\":\"Ascend Hardware\"}},"
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":2080,\"tid\":2,"
	"\"args\":{\"name\":\"Stream 2\"}},"
	"{\"name\":\"aten::mm\",\"ph\":\"X\",\"cat\":\"cpu_op\",\"pid\":1,"
	"\"tid\":7,\"ts\":\"1700000000000000.100\",\"dur\":50.5,"
	"\"args\":{\"Sequence number\":3,\"Input Dims\":[[32,64],[64]]}},"
	"{\"name\":\"AscendCL@aclnnMatMul\",\"ph\":\"X\",\"pid\":2,\"tid\":7,"
	"\"ts\":1700000000000001.000,\"dur\":20,\"args\":{\"connection_id\":"
	"11,\"level\":\"acl\"}},"
	"{\"name\":\"MatMul_1\",\"ph\":\"X\",\"pid\":2080,\"tid\":2,"
	"\"ts\":1700000000000030.000,\"dur\":12.5,\"args\":{\"Task Id\":3,"
	"\"Physic Stream Id\":2,\"Subtask Id\":4294967295,\"Task Type\":"
	"\"AI_CORE\",\"connection_id\":11,\"Model Id\":4294967295}},"
	"{\"name\":\"HostToDevice\",\"ph\":\"s\",\"id\":\"11\",\"cat\":"
	"\"HostToDevice\",\"pid\":2,\"tid\":7,\"ts\":1700000000000001.000},"
	"{\"name\":\"HostToDevice\",\"ph\":\"f\",\"id\":\"11\",\"bp\":\"e\","
	"\"cat\":\"HostToDevice\",\"pid\":2080,\"tid\":2,"
	"\"ts\":1700000000000030.000},"
	"{\"name\":\"APP/Memory\",\"ph\":\"C\",\"pid\":2080,\"tid\":0,"
	"\"ts\":1700000000000030.000,\"args\":{\"KB\":1024.5}},"
	"{\"name\":\"odd\",\"ph\":\"i\",\"pid\":1,\"tid\":7,\"ts\":1}]\n",
	"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u00e9\\n\",\"pid\":"
	"\"host\",\"tid\":\"t\",\"ts\":1,\"dur\":2}],\"displayTimeUnit\":"
	"\"ns\"}][{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,"
	"\"dur\":1}]",
	NULL
};

/* A vendor database: every table the importer reads, a few rows each. */
static const char fuzz_seeds_db_sql[] =
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
    "INSERT INTO STRING_IDS VALUES (0, 'MatMul_1'), (1, 'MatMul'),"
    " (2, 'AI_CORE'), (3, 'aclnnMatMul'), (4, 'aten::mm'),"
    " (5, 'hcom_allReduce_'), (6, 'group'), (7, 'aic_mac_ratio'),"
    " (8, 'SDMA');"
    "CREATE TABLE META_DATA (name TEXT, value TEXT);"
    "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.2.0');"
    "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
    "INSERT INTO ENUM_API_TYPE VALUES (20000, 'acl'), (5000, 'runtime'),"
    " (50001, 'op');"
    "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,"
    " connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,"
    " taskType INTEGER, contextId INTEGER, streamId INTEGER,"
    " taskId INTEGER, modelId INTEGER);"
    "INSERT INTO TASK VALUES (1000000, 1012500, 0, 11, 1, 0, 2,"
    " 4294967295, 2, 3, 0), (1020000, 1021000, 0, 12, 2, 0, 8,"
    " 4294967295, 2, 4, 0), (1030000, 1031000, 0, 13, 3, 0, 2, 0, 3, 5,"
    " 0);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER"
    " PRIMARY KEY, blockNum INTEGER, taskType INTEGER, opType INTEGER);"
    "INSERT INTO COMPUTE_TASK_INFO VALUES (0, 1, 8, 2, 1);"
    "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER,"
    " value NUMERIC);"
    "INSERT INTO TASK_PMU_INFO VALUES (1, 7, 0.92);"
    "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId"
    " INTEGER, taskType INTEGER, planeId INTEGER, groupName INTEGER,"
    " notifyId INTEGER, rdmaType INTEGER, srcRank INTEGER, dstRank"
    " INTEGER, transportType INTEGER, size INTEGER, dataType INTEGER,"
    " linkType INTEGER, opId INTEGER);"
    "INSERT INTO COMMUNICATION_TASK_INFO VALUES (5, 3, 8, 0, 6, 1, 0, 0,"
    " 1, 0, 4096, 0, 0, 1);"
    "CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER,"
    " endNs INTEGER, connectionId INTEGER, groupName INTEGER, opId"
    " INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType"
    " INTEGER, algType INTEGER, count NUMERIC, opType INTEGER,"
    " deviceId INTEGER);"
    "INSERT INTO COMMUNICATION_OP VALUES (5, 1029000, 1032000, 14, 6, 1,"
    " 0, 0, 0, 6, 1024, 5, 0);"
    "CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,"
    " name TEXT);"
    "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0, 'SDMA');"
    "CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, type INTEGER,"
    " globalTid INTEGER, connectionId INTEGER PRIMARY KEY, name"
    " INTEGER);"
    "INSERT INTO CANN_API VALUES (900000, 950000, 20000, 4294967297, 11,"
    " 3), (910000, 920000, 5000, 4294967297, 12, 3);"
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid"
    " INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber"
    " INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes"
    " INTEGER, callchainId INTEGER, type INTEGER);"
    "INSERT INTO PYTORCH_API VALUES ('800000', '990000', 4294967297, 1,"
    " 4, 1, 0, NULL, NULL, 1, 50001);"
    "CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER,"
    " stackDepth INTEGER);"
    "INSERT INTO PYTORCH_CALLCHAINS VALUES (1, 4, 0);"
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
    "INSERT INTO CONNECTION_IDS VALUES (1, 11);"
    "CREATE TABLE GC_RECORD (startNs INTEGER, endNs INTEGER, globalTid"
    " INTEGER);"
    "INSERT INTO GC_RECORD VALUES (700000, 710000, 4294967297);"
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
    "INSERT INTO STEP_TIME VALUES (1, 0, 2000000);"
    "CREATE TABLE NPU_MEM (type INTEGER, ddr NUMERIC, hbm NUMERIC,"
    " timestampNs INTEGER, deviceId INTEGER);"
    "INSERT INTO NPU_MEM VALUES (0, 1024, 2048, 1000000, 0);"
    "CREATE TABLE AICORE_FREQ (deviceId INTEGER, timestampNs INTEGER,"
    " freq INTEGER);"
    "INSERT INTO AICORE_FREQ VALUES (0, 1000000, 1800);";

static void
fuzz_seeds_db(const char *dir, const char *work)
{
	char	*path, *out, *data, *cause = NULL;
	size_t	 len;

	path = util_path_join(work, "seed.db");
	if (store_foreign_write(path, fuzz_seeds_db_sql, &cause) != 0) {
		fprintf(stderr, "fuzz: seed database: %s\n", cause);
		exit(1);
	}
	if (util_read_file(path, &data, &len, 1 << 20, &cause) != 0) {
		fprintf(stderr, "fuzz: %s\n", cause);
		exit(1);
	}
	out = util_path_join(dir, "seed-db");
	fuzz_write(out, (const uint8_t *)data, len);
	unlink(path);
	free(out);
	free(data);
	free(path);
}

/* Write the seeds of TARGET into DIR, using WORK for scratch files. */
void
fuzz_seeds_write(const char *target, const char *dir, const char *work)
{
	char	*p;
	size_t	 i;

	if (strcmp(target, "db") == 0) {
		fuzz_seeds_db(dir, work);
		return;
	}
	for (i = 0; strcmp(target, "csv") == 0 && fuzz_seeds_csv[i] != NULL;
	    i++) {
		xasprintf(&p, "%s/seed-%zu", dir, i);
		fuzz_write(p, (const uint8_t *)fuzz_seeds_csv[i],
		    fuzz_seeds_csv_len(i));
		free(p);
	}
	for (i = 0; strcmp(target, "trace") == 0 &&
	    fuzz_seeds_trace[i] != NULL; i++) {
		xasprintf(&p, "%s/seed-%zu", dir, i);
		fuzz_write(p, (const uint8_t *)fuzz_seeds_trace[i],
		    strlen(fuzz_seeds_trace[i]));
		free(p);
	}
}
