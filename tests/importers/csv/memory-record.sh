#!/bin/sh
# torch_npu's memory_record.csv: kept as its table, and each component's
# Total Allocated, Reserved and Active MB become counter series (exact
# times, the trailing TAB the vendor writes ignored, empty cells no
# sample); a row with a value that is not a number stays in the table,
# adds no sample and is warned about with its offset; a step keeps the
# rows of its interval. (tests/ui/memory.sh looks at the chart.)
. "$top_srcdir/tests/lib.sh"

d="$T/p_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$d"
printf 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n' \
    >"$d/kernel_details.csv"
printf '1,a,MatMul,AI_CORE,1736408883573957.900,20\n' >>"$d/kernel_details.csv"
{
	printf 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),'
	printf 'Total Active(MB),Stream Ptr,Device Type\n'
	printf 'APP,1736408883573957.920\t,,2109.6015625,,,NPU:0\n'
	printf 'PTA,1736408883573960.001\t,10.5,20,10.5,281473,NPU:0\n'
	printf 'PTA,1736408883573970.002\t,12.25,20,11,281473,NPU:0\n'
	printf 'PTA,1736408883573980.003\t,lots,20,11,281473,NPU:0\n'
	printf 'PTA,1736408883573990.004\t,8,20,8,281473,NPU:0\n'
} >"$d/memory_record.csv"
"$NPUPROF" import --db "$T/s.db" "$T/p_ascend_pt" 2>"$T/err"
is $? 0 "import"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/p_ascend_pt" \
    memory_record | sed 1d | wc -l >"$T/n"
is "$(cat "$T/n" | tr -d ' ')" 5 "every row stays in the table"
"$NPUPROF" show -q --db "$T/s.db" --format csv "$T/p_ascend_pt" counters |
    awk -F, '$3 ~ /^Memory/ { print $3 "|" $4 "|" $5 "|" $6 }' |
    sort >"$T/c"
cat >"$T/want" <<'EOW'
Memory APP|Total Reserved(MB)|1736408883573957.920|2109.6015625
Memory PTA|Total Active(MB)|1736408883573960.001|10.5
Memory PTA|Total Active(MB)|1736408883573970.002|11.0
Memory PTA|Total Active(MB)|1736408883573990.004|8.0
Memory PTA|Total Allocated(MB)|1736408883573960.001|10.5
Memory PTA|Total Allocated(MB)|1736408883573970.002|12.25
Memory PTA|Total Allocated(MB)|1736408883573990.004|8.0
Memory PTA|Total Reserved(MB)|1736408883573960.001|20.0
Memory PTA|Total Reserved(MB)|1736408883573970.002|20.0
Memory PTA|Total Reserved(MB)|1736408883573990.004|20.0
EOW
same_file "$T/c" "$T/want" \
    "the series per component and value, exact times, no empty samples"
grep -q 'memory_record.csv: offset [0-9]*: no time, or a time or memory value' \
    "$T/err"
ok $? "the row with a bad value is warned about with its offset"

# A step keeps the rows whose time falls in it: the one kernel of step 1
# runs from ...957.900 for 20 us, so three samples are in it.
"$NPUPROF" show -q --db "$T/s.db" --format csv --step 1 \
    "$T/p_ascend_pt" memory_record | sed 1d | cut -d, -f2 |
    tr -d '\t' | tr '\n' ' ' >"$T/in1"
is "$(cat "$T/in1")" \
    "1736408883573957.920 1736408883573960.001 1736408883573970.002 " \
    "show --step keeps the memory rows of the step's interval"
# In a table, the text columns (Component, Device Type) are left-aligned
# and the numbers right-aligned: the file's columns are text that may be
# numbers, and these are not.
"$NPUPROF" show -q --db "$T/s.db" --format table "$T/p_ascend_pt" \
    memory_record | grep '^APP' >"$T/line"
grep -q '^APP  *1736408883573957.920 ' "$T/line"
ok $? "a text column is left-aligned"
grep -q ' NPU:0$' "$T/line"
ok $? "and so is Device Type, the last column"
# A header with a name twice: said, as for kernel_details; the chart
# reads the first.
e="$T/q_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$e"
cp "$d/kernel_details.csv" "$e/"
{
	printf 'Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),'
	printf 'Total Allocated(MB)\n'
	printf 'PTA,1736408883573960.001\t,,20,51\n'
} >"$e/memory_record.csv"
"$NPUPROF" import --db "$T/q.db" "$T/q_ascend_pt" 2>"$T/err" >/dev/null
grep -q "memory_record.csv: offset 0: header: 'Total Allocated(MB)' is there twice (columns 3 and 5): the first is read" \
    "$T/err"
ok $? "memory_record: a name twice in the header is said"
done_testing
