#!/bin/sh
# The MC2 ops of raw collections against the vendor's own code, where its
# sources are at hand (a development check: skipped on a clean machine).
# MSPROF_SRC names the analysis/ folder of a source tree of
# github.com/Ascend/msprof. kfc-vendor.py hands the AI CPU's records and
# the device tasks of a generated collection (npuprof-gen prof -C) to the
# vendor's KfcCalculator; tables kfc_op and kfc_task must be its rows,
# cell for cell, and the mc2 spans the MC2 ops its timeline export draws
# from them, args and all (the duration within the 256 ns of its float
# sum at these times).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/importers/prof/mc2.lib"

need_msprof_src mscalculate
here="$top_srcdir/tests/importers/prof"

# compare NAME: the tables of $T/NAME/in against the vendor's.
compare() {
	d="$T/$1"
	mkdir -p "$d/rec" "$d/v"
	for t in task_time kfc_info aicpu_master_task aicpu_flip \
	    device_hccl_op_info mc2_comm_info; do
		"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" $t \
		    >"$d/rec/$t.csv" 2>/dev/null
	done
	sqlite3 -csv "$d/s.db" "SELECT device, stream, task, start_ns, conn
	    FROM task" >"$d/conn.csv"
	"$PY" "$here/kfc-vendor.py" "$d/rec" "$d/rec/task_time.csv" "$d/v" \
	    "$d/conn.csv"
	ok $? "$1: the vendor's KfcCalculator ran"
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_op |
	    tail -n +2 | cut -d, -f1-14 >"$d/kfc_op.csv"
	same_file "$d/kfc_op.csv" "$d/v/kfc_op.csv" "$1: kfc_op as the vendor's"
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" kfc_task |
	    tail -n +2 >"$d/kfc_task.csv"
	same_file "$d/kfc_task.csv" "$d/v/kfc_task.csv" \
	    "$1: kfc_task as the vendor's"
	sqlite3 -csv "$d/s.db" "SELECT a.device, n.s, a.start_ns,
	    a.end_ns - a.start_ns, a.args FROM api a JOIN str v ON v.id =
	    a.level JOIN str n ON n.id = a.name WHERE v.s = 'mc2'" >"$d/mc2.csv"
	is "$("$PY" - "$d/mc2.csv" "$d/v/mc2.csv" <<'PY'
import csv, json, sys
keys = ("rank_size", "connection_id", "model id", "data_type",
        "alg_type", "count")
ours = {}
for dev, name, start, dur, args in csv.reader(open(sys.argv[1])):
    a = json.loads(args)
    ours[(dev, name, "%d.%03d" % divmod(int(start), 1000))] = (
        int(dur), {k: a[k] for k in keys if k in a})
theirs = {}
for dev, name, start, dur, args in csv.reader(open(sys.argv[2])):
    theirs[(dev, name, start)] = (float(dur), json.loads(args))
bad = [k for k in theirs if k not in ours or
       abs(ours[k][0] - theirs[k][0]) > 256 or ours[k][1] != theirs[k][1]]
bad += [k for k in ours if k not in theirs]
print("%d spans, %d unlike" % (len(theirs), len(bad)), *bad)
PY
)" "$(echo "$(wc -l <"$d/v/mc2.csv") spans, 0 unlike")" \
	    "$1: the mc2 spans as the vendor's timeline draws them"
}

"$GEN" prof "$T/devices/in" -s 42 -n 300 -C -d 2 >/dev/null
compare devices
"$GEN" prof "$T/wrap/in" -s 43 -n 800 -C -w -S 2 -2 >/dev/null
compare wrap
# The last task record names a task that never ran, an information
# another: the vendor leaves both out, as we do.
d="$T/join"
"$GEN" prof "$d/in" -s 47 -n 300 -C >/dev/null
f=$(ls "$d"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
o=$(($(wc -c <"$f") - 3 * 256))
printf '\217\001' | dd of="$f" bs=1 seek=$((o + 30)) conv=notrunc 2>/dev/null
o=$(($(wc -c <"$f") - 9 * 256))
printf '\216\001\000\000' |
    dd of="$f" bs=1 seek=$((o + 140 + 88)) conv=notrunc 2>/dev/null
compare join
# damaged NAME: a generated one-device collection in $T/NAME, its
# aicpu.data in $f.
damaged() {
	"$GEN" prof "$T/$1/in" -s 42 -n 300 -C >/dev/null
	f=$(ls "$T/$1"/in/PROF_*/device_0/data/aicpu.data.0.slice_0)
}
# A first and a last task record at one time: the vendor keeps one.
damaged same
{ le 301 2; } | poke "$f" $(($(mc2_rec "$f" 5) + 30))
dd if="$f" bs=1 skip=$(($(mc2_rec "$f" 5) + 16)) count=8 2>/dev/null |
    poke "$f" $(($(mc2_rec "$f" 6) + 16))
compare same
# The op ends before it starts: a negative duration.
damaged neg
{ le 62 2; le 303 2; } | poke "$f" $(($(mc2_rec "$f" 5) + 28))
{ le 301 2; } | poke "$f" $(($(mc2_rec "$f" 6) + 30))
compare neg
# Two informations whose tasks end at once (one named again, earlier):
# the order of tied ends, and so of planes.
damaged tie
{ le 61 2; } | poke "$f" $(($(mc2_rec "$f" 2) + 24 + 96))
{ le 300 4; } | poke "$f" $(($(mc2_rec "$f" 2) + 24 + 88))
{ le 1 8; } | poke "$f" $(($(mc2_rec "$f" 2) + 24 + 48))
compare tie
# RDMA payloads (mc2.lib): a run closed and one not.
damaged payload
mc2_payload "$f"
compare payload
# No informations (level 0): a bare one per task of the streams.
damaged bare
for k in 0 1 2; do
	{ le 99 4; } | poke "$f" $(($(mc2_rec "$f" $k) + 4))
done
compare bare
done_testing
