#!/bin/sh
# A legacy (CANN <= 6.0) summary/ directory, written by the test itself:
# files named <table>_<device>_<model>_<iter>.csv, op_statistic with Model
# Name instead of Device_id, acl_statistic with the legacy columns. The
# device comes from the file name; the op_statistic we compute from the
# op_summary rows equals the file's.
. "$top_srcdir/tests/lib.sh"

s="$T/JOB1/device_3/summary"
mkdir -p "$s"
cat >"$s/op_summary_3_1_1.csv" <<'CSV'
Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,Task Type,Task Start Time,Task Duration(us),Task Wait Time(us),Block Dim
resnet50,1,3,5,1,conv1,Conv2D,AI_CORE,1688000000000100.000,120.5,0,32
resnet50,1,4,5,1,relu1,Relu,AI_VECTOR_CORE,1688000000000221.000,3.02,0.5,8
resnet50,1,5,5,1,conv2,Conv2D,AI_CORE,1688000000000225.000,99.5,0.98,32
resnet50,1,6,5,1,relu2,Relu,AI_VECTOR_CORE,1688000000000325.000,2.98,0.5,8
CSV
cat >"$s/op_statistic_3_1_1.csv" <<'CSV'
Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)
resnet50,Conv2D,AI_CORE,2,220,99.5,110,120.5,97.345
resnet50,Relu,AI_VECTOR_CORE,2,6,2.98,3,3.02,2.655
CSV
cat >"$s/acl_statistic_3_1_1.csv" <<'CSV'
Name,Type,Time(%),Time(us),Count,Avg(us),Min(us),Max(us),Process ID,Thread ID
aclmdlExecute,ACL_MODEL,90.1,1000.2,2,500.1,480.2,520,1234,1240
aclrtMemcpy,ACL_RTS,9.9,110,4,27.5,20,35,1234,1240
CSV

"$NPUPROF" show -q --db "$T/j.db" --format csv "$T/JOB1" op_statistic >"$T/file"
ok $? "a legacy summary/ directory imports"
cat >"$T/want" <<'CSV'
Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)
3,Conv2D,AI_CORE,2,220,99.5,110,120.5,97.345
3,Relu,AI_VECTOR_CORE,2,6,2.98,3,3.02,2.655
CSV
same_file "$T/file" "$T/want" "op_statistic of device 3, from the file name"
"$NPUPROF" show -q --db "$T/j.db" --format csv --stats computed "$T/JOB1" \
    op_statistic >"$T/computed"
same_file "$T/computed" "$T/want" "computed from op_summary rows equals the file"
"$NPUPROF" show -q --db "$T/j.db" --format csv "$T/JOB1" acl_statistic \
    >"$T/acl"
head -1 "$T/acl" | grep -q '^Name,Type,Time(%),Time(us),Count'
ok $? "acl_statistic keeps the legacy columns"
grep -q '^aclmdlExecute,ACL_MODEL,90.1,1000.2,2,500.1,480.2,520,1234,1240$' "$T/acl"
ok $? "and its values"
"$NPUPROF" show -q --db "$T/j.db" --format csv "$T/JOB1" kernels >"$T/k"
grep -q '^3,1,4,5,relu1,Relu,N/A,AI_VECTOR_CORE,1688000000000221.000,3.020,0.500000,8,' "$T/k"
ok $? "op_summary rows: device, model, ids, times, Block Dim as Block Num"
done_testing
