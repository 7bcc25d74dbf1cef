#!/bin/sh
# The API spans of a raw collection sorted in runs on disk: with
# NPUPROF_SPAN_RUN set small, the host reader writes its spans to a
# temporary file in many sorted runs and the store merges them back. The
# store must then be the same, table by table and row by row, as an import
# that sorted every span in memory: the api rows with their depth and
# parent, the tasks the node spans name, and every table built on them.
# Cases: several threads, devices and slices, models, HCCL ops, the V2
# task_track layout, chip V6 and a torch_npu FRAMEWORK half. Where the
# temporary file cannot be made (TMPDIR is no folder), the spans stay in
# memory, with a warning, and nothing changes either.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"

check() {	# check NAME RUN GEN-ARGS...: RUN spans a run
	name=$1
	run=$2
	shift 2
	d="$T/$name"
	mkdir -p "$d"
	"$GEN" prof "$d/in" "$@" 2>/dev/null
	ok $? "$name: generate $*"
	"$NPUPROF" import -q --db "$d/mem.db" "$d/in" 2>"$d/mem.err"
	NPUPROF_SPAN_RUN=$run "$NPUPROF" import -q --db "$d/runs.db" "$d/in" \
	    2>"$d/runs.err"
	ok $? "$name: import in runs of $run spans"
	n=$(sqlite3 "$d/mem.db" "SELECT count(*) FROM api")
	[ "$n" -gt $((run * 3)) ]
	ok $? "$name: more than three runs ($n spans)"
	store_dump "$d/mem.db" >"$d/mem.txt"
	store_dump "$d/runs.db" >"$d/runs.txt"
	same_file "$d/runs.txt" "$d/mem.txt" "$name: the same store"
	same_file "$d/runs.err" "$d/mem.err" "$name: the same warnings"
}

check threads 100 -s 3 -n 800 -S 3 -T 3 -H 1024 -D 1000 -k 24 -E 50 -t 7
check devices 257 -s 4 -n 1200 -d 2 -T 4 -S 3 -P 60 -M 50 -u 30
check extras 64 -s 14 -n 1200 -d 2 -T 3 -M 40 -E 30 -g
check hccl 500 -L -s 72 -n 2500 -T 3 -S 3 -E 30
check v2 128 -s 31 -n 1500 -2 -S 3 -T 2 -E 30 -M 30 -x -u 5
check v6 99 -s 23 -n 900 -c 950 -g -T 3 -D 777 -k 8 -E 30 -M 30 -u 5
check torch 50 -Y -s 21 -n 400 -T 4 -a 30
# Runs large enough that each half is sorted and written on a thread.
check halves 20000 -s 9 -n 30000 -a 4000 -S 2 -T 3
# A run of 2 spans: every span its own run, nearly.
check tiny 2 -s 5 -n 300 -c 310P -w -m 0 -k 40 -D 777 -x -u 6

# No folder for the temporary file: the spans are held in memory, and the
# store says so once (its warning, and the warnings table then present).
d="$T/threads"
TMPDIR="$T/none" NPUPROF_SPAN_RUN=100 "$NPUPROF" import -q \
    --db "$d/nodir.db" "$d/in" 2>"$d/nodir.err"
ok $? "no TMPDIR folder: import succeeds"
store_dump "$d/nodir.db" >"$d/nodir.txt"
w="cannot create '$T/none/npuprof-spans-[^']*' for the sorted API spans:"
w="$w No such file or directory; they are held in memory"
is "$(grep -c "$w" "$d/nodir.txt")" 1 "no TMPDIR folder: warned once"
grep -v -e "$w" -e '^warnings|Offset$' "$d/nodir.txt" >"$d/nodir.rest"
same_file "$d/nodir.rest" "$d/mem.txt" "no TMPDIR folder: the same store"

done_testing
