#!/bin/sh
# memory_record of an un-analysed MindSpore profile (npuprof-gen prof -Z):
# MindSpore's pool totals (cpu_ms_memory_record_<rank>.txt, in FRAMEWORK/
# from 2.5 on, beside it before) merged by time with GE's task memory
# records, a MindSpore+GE row after each, then the APP samples of npu_mem,
# in MindSpore's units (KB / 1000). The generator writes the rows it
# expects; the store must hold exactly those, and the same table and
# memory chart as the analysed twin's memory_record.csv gives. Damaged
# files warn with the file and offset and keep what is sound.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"

load() {	# load DIR: import DIR/in, warnings in DIR/err, table in DIR/got
	"$NPUPROF" import -q --db "$1/s.db" "$1/in" 2>/dev/null
	st=$?
	"$NPUPROF" show --db "$1/s.db" --format tsv "$1/in" warnings \
	    2>/dev/null | tail -n +2 |
	    sed 's/\t/: offset /; s/\t/: /' >"$1/err"
	"$NPUPROF" show -q --db "$1/s.db" --format csv "$1/in" memory_record \
	    >"$1/got" 2>/dev/null
}

gen() {		# gen NAME ARGS...: a MindSpore profile in $T/NAME
	rm -rf "${T:?}/$1"
	o="$T/$1"
	shift
	"$GEN" prof "$o/in" -e "$o/want" -s 5 -n 60 -T 2 -Z "$@" >/dev/null
}

# Each version: the rows as generated, and where its file lies.
for v in 2.6 2.5:-O 2.4:'-V 2.4' 2.3:'-V 2.3'; do
	name=${v%%:*}
	args=
	[ "$name" = "$v" ] || args=${v#*:}
	# shellcheck disable=SC2086
	gen "v$name" $args
	ok $? "$name: generate"
	load "$o"
	is $st 0 "$name: import"
	same_file "$o/got" "$o/want/ms_memory_record.csv" \
	    "$name: memory_record as MindSpore builds it"
	case $name in
	2.[34])	f=$(ls "$o"/in/*_ascend_ms/cpu_ms_memory_record_0.txt) ;;
	*)	f=$(ls "$o"/in/*_ascend_ms/FRAMEWORK/cpu_ms_memory_record_0.txt)
		;;
	esac
	# Read from there: without the file, no MindSpore rows.
	mv "$f" "$o/moved"
	load "$o"
	is "$(grep -c '^MindSpore,' "$o/got")" 0 \
	    "$name: read from $(basename "$(dirname "$f")")/"
	mv "$o/moved" "$f"
	load "$o"
done
d="$T/v2.6"
w="$d/want/ms_memory_record.csv"
is "$(grep -c '^MindSpore,' "$w")" 30 "a MindSpore row per record"
is "$(grep -c '^MindSpore+GE,' "$w")" \
    "$(($(grep -c '^MindSpore,' "$w") + $(grep -c '^GE,' "$w")))" \
    "and a MindSpore+GE row after each MindSpore and GE row"
[ "$(grep -c '^GE,' "$w")" -ge 3 ] && [ "$(grep -c '^APP,' "$w")" -ge 3 ]
ok $? "with GE and APP rows"
tail -n 1 "$w" | grep -q '^APP,'
ok $? "the APP rows last"
# GE's third record falls on a MindSpore record's time: its row first,
# its cell as msprof prints it (940), MindSpore's as Decimal does (94).
awk -F, '$1 == "GE" { c = t = $2; sub(/0+$/, "", t); ge = NR; next }
NR == ge + 2 && $1 == "MindSpore" && $2 == t && c != t { n++ }
END { exit n == 1 ? 0 : 1 }' "$w"
ok $? "a tie: GE's row before MindSpore's, trailing zeros as printed"
grep -q '^MindSpore,[0-9]*,' "$w" && grep -q '^MindSpore,[0-9]*\.5,' "$w"
ok $? "microseconds without trailing zeros"

# The analysed twin: MindSpore's memory_record.csv of the same rows gives
# the same table and the same memory chart.
mkdir -p "$T/twin/in/r_ascend_ms/ASCEND_PROFILER_OUTPUT"
cp "$w" "$T/twin/in/r_ascend_ms/ASCEND_PROFILER_OUTPUT/memory_record.csv"
load "$T/twin"
same_file "$T/twin/got" "$d/got" "the analysed twin: the same table"
# (The raw profile's npu_mem lanes, NPU MEM ..., are not memory_record's.)
"$NPUPROF" show -q --db "$T/twin/s.db" --format csv "$T/twin/in" counters \
    >"$T/twin/counters"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" counters |
    grep -v ',NPU MEM ' >"$d/counters"
same_file "$d/counters" "$T/twin/counters" \
    "the analysed twin: the same memory chart"
is "$(grep -c ',Memory MindSpore+GE,' "$d/counters")" \
    "$((3 * $(grep -c '^MindSpore+GE,' "$w")))" \
    "three series samples per MindSpore+GE row"

dam() {		# dam NAME: a copy of the 2.6 profile, $F its records
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	cp -R "$d/in" "$T/$1/in"
	o="$T/$1"
	F=$(echo "$o"/in/*_ascend_ms/FRAMEWORK/cpu_ms_memory_record_0.txt)
}

# CRLF line ends and a byte order mark: the same rows, no warning.
dam crlf
sed 's/$/\r/' "$F" >"$o/x"
printf '\357\273\277' | cat - "$o/x" >"$F"
load "$o"
same_file "$o/got" "$w" "CRLF and a BOM: the same rows"
is "$(grep -c cpu_ms_memory "$o/err")" 0 "and no warning"

# Blank lines: no row (MindSpore 2.5 would list each at time 0), counted.
dam blank
at=$(head -n 2 "$F" | wc -c)
sed -i '3s/^/\n  \n/' "$F"
load "$o"
same_file "$o/got" "$w" "blank lines: no rows of their own"
grep -q "_0.txt: offset $at: 2 blank lines, the first here: no row" \
    "$o/err"
ok $? "blank lines: counted, with the first one's offset"

# Lines that are not four integers (one starting with a NUL byte too):
# counted, with the first one's offset.
dam bad
at=$(head -n 2 "$F" | wc -c)
sed -i '3i\
12x,1,2,3' "$F"
sed -i '7i\
1750198990024521500,1,2' "$F"
{ head -n 9 "$F"; printf '\0001,2,3,4\n'; tail -n +10 "$F"; } >"$o/x"
mv "$o/x" "$F"
load "$o"
is $st 0 "bad lines: import succeeds"
same_file "$o/got" "$w" "bad lines: skipped, the sound ones kept"
grep -q "_0.txt: offset $at: 3 lines not four integers" "$o/err"
ok $? "bad lines: counted, with the first one's offset"

# More than four fields: the first four read, as MindSpore reads them.
dam extra
at=$(head -n 3 "$F" | wc -c)
sed -i '4s/$/,99/' "$F"
load "$o"
same_file "$o/got" "$w" "more fields: the first four read"
grep -q "_0.txt: offset $at: 1 line with more than four fields" "$o/err"
ok $? "more fields: counted, with the line's offset"

# Another header: another layout, not guessed at; CANN's rows stay.
dam head
sed -i '1s/.*/Timestamp(ns),Allocated,Reserved/' "$F"
load "$o"
grep -q "cpu_ms_memory_record_0.txt: offset 0: not MindSpore's memory" \
    "$o/err"
ok $? "another header: warned at offset 0"
grep -q "_0.txt: offset 0: 30 lines not read after that header" "$o/err"
ok $? "another header: the lines not read counted"
is "$(grep -c '^MindSpore,' "$o/got")" 0 "another header: not read"
is "$(grep -c '^GE,' "$o/got")" "$(grep -c '^GE,' "$w")" \
    "another header: GE's rows still there"

# Another rank's file beside the rank's own: only the own one is read.
# Rank 1's profile, with a rank-0 file that sorts first and says other
# things.
gen r1 -r 1/2
R=$(echo "$o"/in/*_ascend_ms/FRAMEWORK)
sed 's/,[0-9]*,/,1,/' "$R/cpu_ms_memory_record_1.txt" \
    >"$R/cpu_ms_memory_record_0.txt"
load "$o"
same_file "$o/got" "$o/want/ms_memory_record.csv" \
    "another rank's file: not read"
grep -q "_0.txt: offset N/A: MindSpore memory records of another rank" \
    "$o/err"
ok $? "another rank's file: warned"
grep -q ',NPU:1$' "$o/got"
ok $? "rank 1's rows say NPU:1"
# MindSpore's rank is that of its profiler_info_N.json, whatever CANN's
# info.json says: renamed to 0, the file of rank 0 is read, and its rows
# say NPU:0 (GE's keep their device).
mv "$o"/in/*_ascend_ms/profiler_info_1.json \
    "$(echo "$o"/in/*_ascend_ms)/profiler_info_0.json"
mv "$R/cpu_ms_memory_record_1.txt" "$R/x"
mv "$R/cpu_ms_memory_record_0.txt" "$R/cpu_ms_memory_record_1.txt"
mv "$R/x" "$R/cpu_ms_memory_record_0.txt"
load "$o"
sed '/^GE,/!s/,NPU:1$/,NPU:0/' "$o/want/ms_memory_record.csv" >"$o/want0"
same_file "$o/got" "$o/want0" \
    "profiler_info_0.json: the rank-0 file read, its rows NPU:0"
# A name that is not digits names no rank; two names leave it unknown
# (warned): the collection's rank 1 then.
P=$(echo "$o"/in/*_ascend_ms)
mv "$P/profiler_info_0.json" "$P/profiler_info_+0.json"
load "$o"
grep -q '^MindSpore,.*,NPU:1$' "$o/got"
ok $? "profiler_info_+0.json: no rank, the collection's taken"
cp "$P/profiler_info_+0.json" "$P/profiler_info_0.json"
cp "$P/profiler_info_+0.json" "$P/profiler_info_2.json"
load "$o"
grep -q "_ms: offset N/A: 2 profiler_info_N.json files: MindSpore's rank" \
    "$o/err"
ok $? "two profiler_info_N.json: warned"
grep -q '^MindSpore,.*,NPU:1$' "$o/got"
ok $? "two profiler_info_N.json: the collection's rank taken"

# profile_memory off in profiler_info: MindSpore writes no memory_record,
# nor do we; without the CPU among its activities, no MindSpore rows.
dam off
I=$(echo "$o"/in/*_ascend_ms/profiler_info_0.json)
sed -i 's/"profile_memory":true/"profile_memory":false/' "$I"
load "$o"
is "$(wc -c <"$o/got")" 0 "profile_memory false: no memory_record"
sed -i 's/"profile_memory":false/"profile_memory":true/;
    s/"CPU",//' "$I"
load "$o"
is "$(grep -c '^MindSpore,' "$o/got")" 0 \
    "activities without CPU: no MindSpore rows"
is "$(grep -c '^GE,' "$o/got")" "$(grep -c '^GE,' "$w")" \
    "activities without CPU: GE's rows still there"

# A cut file: its last line, cut inside a number, is read as it stands
# (MindSpore reads it so), and warned about; cut inside the header,
# nothing is read.
dam cut
at=$(head -n 1 "$F" | wc -c)
head -c $((at + 40)) "$F" >"$o/x"
mv "$o/x" "$F"
load "$o"
is $st 0 "cut file: import succeeds"
is "$(grep -c '^MindSpore,' "$o/got")" 1 "cut file: the cut line kept"
grep -q "_0.txt: offset $at: the last line has no line end" "$o/err"
ok $? "cut file: warned at the cut line's offset"
head -c 20 "$F" >"$o/x"
mv "$o/x" "$F"
load "$o"
grep -q "not MindSpore's memory records" "$o/err"
ok $? "cut inside the header: warned"

# An empty file and no GE records: the APP rows alone.
dam empty
: >"$F"
rm -f "$o"/in/*_ascend_ms/PROF_*/host/data/*task_memory_info*
load "$o"
is $st 0 "empty file, no GE records: import succeeds"
is "$(tail -n +2 "$o/got" | cut -d, -f1 | sort -u | tr '\n' ' ')" "APP " \
    "empty file, no GE records: the APP rows alone"
done_testing
