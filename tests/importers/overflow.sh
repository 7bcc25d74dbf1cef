#!/bin/sh
# Times that are each valid but whose sum does not fit in 64 bits of ns
# (damaged or hostile data) never wrap: the group's total, average and
# ratio are N/A with a warning naming it, the other groups keep their
# numbers, and the UBSan build (--enable-asan) sees no overflow.
. "$top_srcdir/tests/lib.sh"

mkdir "$T/k"
cat >"$T/k/kernel_details.csv" <<'CSV'
Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)
1,a,MatMul,AI_CORE,100,9000000000000000
1,b,MatMul,AI_CORE,200,9000000000000000
1,c,Add,AI_CORE,300,5
CSV
"$NPUPROF" show --db "$T/k.db" --format csv "$T/k" op_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "an overflowing sum does not stop the import"
is "$(grep MatMul "$T/out")" \
    "0,MatMul,AI_CORE,2,N/A,9000000000000000,N/A,9000000000000000,N/A" \
    "its total, average and ratio are N/A, its min and max exact"
is "$(grep Add "$T/out")" "0,Add,AI_CORE,1,5,5,5,5,N/A" \
    "the other group's ratio is N/A too: its device total is unknown"
grep -q "op_statistic: the total time of MatMul/AI_CORE does not fit" \
    "$T/err"
ok $? "a warning names the group"

cat >"$T/t.json" <<'JSON'
[{"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"CANN"}},
{"name":"AscendCL@aclnnBig","ph":"X","pid":2,"tid":1,"ts":1,
 "dur":9000000000000000},
{"name":"AscendCL@aclnnBig","ph":"X","pid":2,"tid":1,"ts":2,
 "dur":9000000000000000},
{"name":"AscendCL@aclnnSmall","ph":"X","pid":2,"tid":1,"ts":3,"dur":2}]
JSON
"$NPUPROF" show --db "$T/t.db" --format csv "$T/t.json" api_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "an overflowing API sum does not stop the import"
is "$(grep aclnnBig "$T/out" | cut -d, -f3-6)" "aclnnBig,N/A,2,N/A" \
    "its time and average are N/A"
is "$(grep aclnnSmall "$T/out" | cut -d, -f3-6)" "aclnnSmall,2,1,2" \
    "the other API keeps its numbers"
grep -q "api_statistic: the total time of acl/aclnnBig does not fit" \
    "$T/err"
ok $? "a warning names it"
done_testing
