#!/bin/sh
# The first device directory of a raw collection read on a second core
# while the host's API records load (importers/prof/prof-early.c). The
# store must be the same, table by table and row by row, and the warnings
# the same and in the same order, as an import that reads every device
# directory in its turn (NPUPROF_EARLY_TASKS=0), and as one whose bound the
# directory's task logs pass. Cases: one and two devices, hwts and STARS
# logs, chip V6, PMU, AI CPU and HCCL records, and a collection damaged on
# both sides: the first device's info.json gone and its task logs cut
# mid-record, the host's API records cut mid-record, and a cut
# expand_stream_spec record (read first now, for the device, but warned
# where a read after the task records warns), so that warnings of the
# host and of the device read early interleave as they would in turn.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"

# same NAME DIR: DIR imported early, in turn and past the bound alike
same() {
	name=$1
	d=$2
	"$NPUPROF" import -q --db "$d/early.db" "$d/in" 2>"$d/early.err"
	ok $? "$name: import, the first device early"
	NPUPROF_EARLY_TASKS=0 "$NPUPROF" import -q --db "$d/turn.db" \
	    "$d/in" 2>"$d/turn.err"
	ok $? "$name: import, every device in its turn"
	NPUPROF_EARLY_TASKS=1 "$NPUPROF" import -q --db "$d/bound.db" \
	    "$d/in" 2>"$d/bound.err"
	ok $? "$name: import, the first device past the bound"
	store_dump "$d/early.db" >"$d/early.txt"
	store_dump "$d/turn.db" >"$d/turn.txt"
	store_dump "$d/bound.db" >"$d/bound.txt"
	same_file "$d/early.txt" "$d/turn.txt" "$name: the same store"
	same_file "$d/bound.txt" "$d/turn.txt" \
	    "$name: the same store past the bound"
	same_file "$d/early.err" "$d/turn.err" "$name: the same warnings"
}

check() {	# check NAME GEN-ARGS...
	name=$1
	shift
	d="$T/$name"
	mkdir -p "$d"
	"$GEN" prof "$d/in" "$@" 2>/dev/null
	ok $? "$name: generate $*"
	same "$name" "$d"
}

check one -s 3 -n 800 -S 3 -T 3 -E 50 -t 7
check devices -s 4 -n 1200 -d 2 -T 4 -S 3 -P 60 -M 50 -u 30
check hwts -s 5 -n 300 -c 310P -w -m 0 -k 40 -D 777 -x -u 6
check v6 -s 23 -n 900 -c 950 -g -T 3 -D 777 -k 8 -E 30 -M 30 -u 5
check pmu -s 6 -n 500 -p -A -F -d 2
check aicpu -s 7 -n 500 -C -L -T 2

# Damage on both sides.
d="$T/damaged"
mkdir -p "$d"
"$GEN" prof "$d/in" -s 8 -n 600 -d 2 -T 2 -S 2 2>/dev/null
ok $? "damaged: generate"
p=$(ls -d "$d"/in/PROF_*)
rm -f "$p"/device_0/info.json*
f=$(ls "$p"/device_0/data/stars_soc.data.* | grep -v '\.done$' | tail -n 1)
truncate -s -10 "$f"
f=$(ls "$p"/host/data/*api_event* | grep -v '\.done$' | tail -n 1)
truncate -s -7 "$f"
printf '0123456789' >"$p"/host/data/unaging.compact.expand_stream_spec.slice_0
same damaged "$d"
# The host's first, then the device's: its info.json, then its logs.
sqlite3 "$d/early.db" "SELECT message FROM warning ORDER BY id" |
    grep "truncated last record\|no info.json:\|cut record" >"$d/order.txt"
[ "$(wc -l <"$d/order.txt")" -eq 4 ] &&
    sed -n 1p "$d/order.txt" | grep -q "(33 of 40 bytes)" &&
    sed -n 2p "$d/order.txt" | grep -q "(10 of 64 bytes)" &&
    sed -n 3p "$d/order.txt" | grep -q "no info.json" &&
    sed -n 4p "$d/order.txt" | grep -q "cut record"
ok $? "damaged: the host's warnings, then the device's, in order"
done_testing
