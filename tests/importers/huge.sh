#!/bin/sh
# One huge line or record never takes memory without bound: a CSV row
# over 16 MiB or 10000 cells, a JSON string over 4 MiB and a trace event
# over 16 MiB are read past with one warning naming the file and offset,
# and the rest imports. A vendor CSV of more than 1000 columns keeps the
# first 1000 with a warning, and repeated header names lose no cell.
# (The memory each takes is measured by bench/huge.sh.)
. "$top_srcdir/tests/lib.sh"

k="$T/k"
mkdir "$k"
{
	echo 'Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)'
	echo '1,first,MatMul,AI_CORE,100.000,10.500'
	printf '1,'
	head -c 67108864 /dev/zero | tr '\0' 'x'
	echo
	echo '1,second,MatMul,AI_CORE,200.000,10.500'
	head -c 20000 /dev/zero | tr '\0' ','
	echo
	echo '1,third,Add,AI_CORE,300.000,1.000'
} >"$k/kernel_details.csv"
"$NPUPROF" show --db "$T/k.db" --format csv "$k" op_statistic \
    >"$T/out" 2>"$T/err"
is $? 0 "a 64 MiB line does not stop the import"
is "$(grep -c '^0,' "$T/out")" 2 "the rows around it import"
grep -q 'MatMul,AI_CORE,2,' "$T/out"
ok $? "both MatMul rows count"
grep -q 'kernel_details.csv: offset 101: row of 67108867 bytes is over' \
    "$T/err"
ok $? "the warning names the file, offset and size"
grep -q 'skipped (2 rows)' "$T/err"
ok $? "and counts the wide row too"
"$NPUPROF" show -q --db "$T/k.db" --format csv "$k" warnings >"$T/w"
grep -q 'row of 67108867 bytes' "$T/w"
ok $? "show warnings lists it"

j="$T/trace.json"
{
	printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},\n'
	printf '{"ph":"X","name":"'
	head -c 5000000 /dev/zero | tr '\0' 'n'
	printf '","pid":1,"tid":1,"ts":5,"dur":2},\n'
	printf '{"ph":"X","name":"big","args":{"v":['
	head -c 8500000 /dev/zero | tr '\0' '1' | sed 's/1/1,/g' |
	    head -c 17000000
	printf '1]},"pid":1,"tid":1,"ts":9,"dur":2},\n'
	printf '{"ph":"X","name":"b","pid":1,"tid":1,"ts":20,"dur":2}]\n'
} >"$j"
"$NPUPROF" show --db "$T/j.db" --format csv "$j" api_spans \
    >"$T/out" 2>"$T/err"
is $? 0 "a trace with a huge string and a huge event imports"
is "$(tail -n +2 "$T/out" | cut -d, -f3 | sort | tr '\n' ' ')" "a b " \
    "the events around them import"
grep -q 'trace.json: offset 4194[0-9]*: string over the limit of 4 MiB' \
    "$T/err"
ok $? "the cut string is named with its offset"
grep -q 'event over the limit of 16 MiB or holding a cut string skipped (2 ev' \
    "$T/err"
ok $? "both events are counted as skipped"

# Where a long string is cut, to the byte: at 4 MiB of its text as written,
# escapes counted as their bytes, never inside a UTF-8 character.
for kind in plain escaped euro; do
	printf '[{"ph":"X","name":"' >"$T/cut.json"
	case $kind in
	plain)	head -c 4300000 /dev/zero | tr '\0' 'n'; at=4194304 ;;
	escaped) head -c 2150000 /dev/zero | sed 's/./\\n/g' |
		    tr -d '\n' | head -c 4300000; at=4194304 ;;
	euro)	head -c 1450000 /dev/zero | tr '\0' '~' |
		    sed 's/~/\xe2\x82\xac/g'; at=4194306 ;;
	esac >>"$T/cut.json"
	printf '","pid":1,"tid":1,"ts":5,"dur":2},\n' >>"$T/cut.json"
	printf '{"ph":"X","name":"b","pid":1,"tid":1,"ts":9,"dur":2}]\n' \
	    >>"$T/cut.json"
	"$NPUPROF" import -q --db "$T/cut-$kind.db" "$T/cut.json" 2>/dev/null
	off=$(sqlite3 "$T/cut-$kind.db" "SELECT offset FROM warnings WHERE
	    message LIKE 'string over%'")
	names=$(sqlite3 "$T/cut-$kind.db" "SELECT group_concat(s.s) FROM api
	    JOIN str s ON s.id = api.name")
	is "$off $names" \
	    "$((19 + at)) b" "the $kind string is cut at byte $((19 + at))"
done

w="$T/wide"
mkdir "$w"
awk 'BEGIN {
	for (i = 0; i < 1500; i++) printf "%sc%d", i ? "," : "", i; print ""
	for (i = 0; i < 1500; i++) printf "%s%d", i ? "," : "", i; print ""
}' >"$w/memory_record.csv"
{
	printf 'OP Type,Core Type,Count,Total Time(us),Min Time(us),'
	printf 'Avg Time(us),Max Time(us),Ratio(%%)\nA,AI_CORE,1,1,1,1,1,100\n'
} >"$w/op_statistic.csv"
printf 'a,A,,b\n1,2,3,4\n' >"$w/dup_thing.csv"
"$NPUPROF" show --db "$T/wide.db" --format csv "$w" memory_record \
    >"$T/out" 2>"$T/err"
is $? 0 "a CSV of 1500 columns imports"
is "$(head -n 1 "$T/out" | tr ',' '\n' | wc -l | tr -d ' ')" 1000 \
    "with its first 1000 columns"
is "$(tail -n 1 "$T/out" | cut -d, -f1000)" 999 "and their cells"
grep -q 'memory_record.csv: offset 0: 1500 columns; only the first 1000' \
    "$T/err"
ok $? "and a warning saying so"
"$NPUPROF" show -q --db "$T/wide.db" --format csv "$w" dup_thing >"$T/out"
is "$(cat "$T/out" | tr '\n' ' ')" "a,A.1,,b 1,2,3,4 " \
    "a repeated header name (any case) keeps its cells"
done_testing
