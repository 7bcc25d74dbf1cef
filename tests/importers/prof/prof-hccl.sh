#!/bin/sh
# HCCL ops of raw PROF collections (doc/formats.md sections 3.10 and
# 8.7): npuprof-gen prof -L writes collections whose HCCL ops run their
# tasks (SDMA copies, reduces, notify waits, RDMA payloads on master and
# slave planes, three op kinds on two groups, and an all-reduce as the
# contexts of one FFTS+ task as graph mode runs it) with the truth of every
# task in hccl_truth.csv; hccl-expect.py, an independent Python
# implementation of the vendor's analysis, computes from it the
# communication, communication_bandwidth and communication_matrix tables,
# msprof's communication_statistic (per op type) and the op_summary with
# its COMMUNICATION rows, which the import must
# give digit for digit. The generator's own expected tables must hold
# too. communication_statistic also with a collection that starts in
# the middle of an op and an op type missing from the dictionary, and
# none at profiler level 0. Then damaged collections: device logs cut
# short, hccl_info lost, the HCCL span types missing from the
# dictionary; each warns, names what it left out and loses nothing else.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
here="$top_srcdir/tests/importers/prof"
comm="communication communication_bandwidth communication_matrix
    step_trace_time communication_statistic"

check() {	# check NAME GEN-ARGS...
	name=$1
	shift
	d="$T/$name"
	"$GEN" prof "$d/in" -e "$d/want" -L "$@" 2>"$d.err"
	ok $? "$name: generate -L $*"
	mkdir -p "$d/exp"
	"$PY" "$here/hccl-expect.py" "$d/want" "$d/exp"
	ok $? "$name: expected tables computed"
	for table in $(cd "$d/want" && ls *.csv | sed 's/\.csv$//') $comm; do
		[ "$table" = hccl_truth ] && continue
		want="$d/want/$table.csv"
		[ -f "$d/exp/$table.csv" ] && want="$d/exp/$table.csv"
		# Without step trace records step_trace shows step_trace_time.
		[ "$table" = step_trace ] && [ "$(wc -l <"$want")" -eq 1 ] &&
		    want="$d/exp/step_trace_time.csv"
		"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
		    "$d/in" $table >"$d/$table.csv" 2>>"$d.err"
		same_file "$d/$table.csv" "$want" "$name: $table"
	done
	n=$(grep -c ',COMMUNICATION,' "$d/op_summary.csv")
	[ "$n" -gt 5 ]
	ok $? "$name: op_summary has COMMUNICATION rows ($n)"
	if [ -n "${quirk:-}" ]; then
		grep -q "$quirk" "$d.err"
		ok $? "$name: warned: $quirk"
	else
		[ ! -s "$d.err" ]
		ok $? "$name: no warnings"
		[ -s "$d.err" ] && sed 's/^/#   /' "$d.err" | head -5
	fi
	return 0
}

check one -s 71 -n 1200 -T 1
check wrap-v2 -s 74 -n 3000 -T 1 -w -S 2 -2 -H 1536 -D 2000
# Ops of two threads interleave in host time: the vendor's index then
# stays put, the tasks of two ops share a name, and an RDMA payload may
# lose its closing tasks to the other op; that is warned about.
quirk="RDMA payload runs\{0,1\} without the tasks that close them"
check threads -s 72 -n 2500 -T 3 -S 3 -E 30
check devices -s 73 -n 2500 -d 2 -T 2 -M 30
check interleaved -s 61 -n 2000 -T 3 -d 2 -S 3
# Two devices: each has its own communication_statistic rows.
is "$(tail -n +2 "$T/devices/communication_statistic.csv" | cut -d, -f1 |
    sort -u | tr '\n' ' ')" "0 1 " "devices: statistic rows of each device"
# A collection that starts in the middle of an op: the statistic counts
# only the master tasks that start with the collection or later (each
# device's start_info moved to a whole us at or after the 40th master
# task's start; its epoch offset kept).
d="$T/straddle"
rm -rf "$d"
cp -R "$T/one" "$d"
rm -f "$d/s.db"*
tr="$d/want/hccl_truth.csv"
new=$(awk -F, 'NR > 2 && $13 == 1 && ++n == 40 {
    printf "%.0f\n", int(($17 + 999) / 1000) }' \
    "$tr")
old=$(($(sed -n 1p "$tr" | cut -d, -f2) / 1000))
for f in "$d"/in/PROF_*/device_*/start_info*; do
	case $f in *.done) continue ;; esac
	mono=$(sed 's/.*"clockMonotonicRaw":"\([0-9]*\)".*/\1/' "$f")
	m2=$((mono + (new - old) * 1000))
	t='"collectionTimeBegin":"'
	k='"clockMonotonicRaw":"'
	sed -e "s/$t$old\"/$t$new\"/" -e "s/$k$mono\"/$k$m2\"/" "$f" \
	    >"$f.x" && mv "$f.x" "$f"
done
"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
"$NPUPROF" show -q --db "$d/s.db" --format tsv "$d/in" warnings |
    grep -q "HCCL ops\{0,1\} starting before the collection"
ok $? "straddle: some ops start before the collection"
mkdir -p "$d/exp2"
"$PY" "$here/hccl-expect.py" --begin $((new * 1000)) "$d/want" "$d/exp2"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    communication_statistic >"$d/st.csv"
same_file "$d/st.csv" "$d/exp2/communication_statistic.csv" \
    "straddle: communication_statistic from the tasks after the start"
[ "$(cat "$d/st.csv")" != "$(cat "$T/one/communication_statistic.csv")" ]
ok $? "straddle: not the whole collection's"
# An op type the dictionary lacks reads N/A: its ops make an N/A row.
d="$T/natype"
rm -rf "$d"
cp -R "$T/one" "$d"
rm -f "$d/s.db"*
kind=$(sed -n 3p "$d/want/hccl_truth.csv" | cut -d, -f8)
for f in "$d"/in/PROF_*/host/data/*hash_dic*; do
	case $f in *.done) continue ;; esac
	grep -v ":$kind\$" "$f" >"$f.x" && mv "$f.x" "$f"
done
awk -F, -v k="$kind" 'BEGIN { OFS = "," } NR > 2 && $8 == k { $8 = "N/A" }
    { print }' "$d/want/hccl_truth.csv" >"$d/tr.csv" &&
    mv "$d/tr.csv" "$d/want/hccl_truth.csv"
"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
mkdir -p "$d/exp2"
"$PY" "$here/hccl-expect.py" "$d/want" "$d/exp2"
"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
    communication_statistic >"$d/st.csv"
same_file "$d/st.csv" "$d/exp2/communication_statistic.csv" \
    "an op type not in the dictionary: an N/A row"
is "$(grep -c ',N/A,' "$d/st.csv")" 1 "one N/A row"
# No op type in the dictionary at all: no table, as the vendor writes none.
d="$T/notype"
rm -rf "$d"
cp -R "$T/one" "$d"
rm -f "$d/s.db"*
tail -n +3 "$d/want/hccl_truth.csv" | cut -d, -f8 | sort -u >"$d/kinds"
for f in "$d"/in/PROF_*/host/data/*hash_dic*; do
	case $f in *.done) continue ;; esac
	grep -v -F -f "$d/kinds" "$f" >"$f.x" && mv "$f.x" "$f"
done
"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
ok $? "no op type named: imported"
is "$("$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" tables |
    grep -c communication_statistic)" 0 "no op type named: no statistic"

# At profiler level 0 msprof writes no communication_statistic.
rm -rf "$T/l0"
cp -R "$T/one" "$T/l0"
rm -f "$T/l0/s.db"*
for f in "$T"/l0/in/PROF_*/device_*/sample.json*; do
	sed 's/"profLevel":"l1"/"profLevel":"l0"/' "$f" >"$f.x" && mv "$f.x" "$f"
done
"$NPUPROF" import -q --db "$T/l0/s.db" "$T/l0/in" 2>/dev/null
is "$("$NPUPROF" show -q --db "$T/l0/s.db" --format csv "$T/l0/in" tables |
    grep -c communication_statistic)" 0 "level 0: no communication_statistic"
is "$("$NPUPROF" show -q --db "$T/l0/s.db" --format csv "$T/l0/in" tables |
    grep -c '^communication,')" 1 "level 0: the other tables still"
# HiSilicon's key and value for it: prof_level level0.
for f in "$T"/l0/in/PROF_*/device_*/sample.json*; do
	sed 's/"profLevel":"l0"/"prof_level":"level0"/' "$f" >"$f.x" &&
	    mv "$f.x" "$f"
done
rm -f "$T/l0/s.db"*
"$NPUPROF" import -q --db "$T/l0/s.db" "$T/l0/in" 2>/dev/null
is "$("$NPUPROF" show -q --db "$T/l0/s.db" --format csv "$T/l0/in" tables |
    grep -c communication_statistic)" 0 \
    "prof_level level0: no communication_statistic"
quirk=

# Damaged collections. The last ten records of device 0's logs lost: the
# HCCL tasks that lost their logs are counted, the rest stays.
d="$T/threads"
cp -R "$d/in" "$T/cut"
log=$(ls "$T"/cut/PROF_*/device_0/data/stars_soc.data.*.slice_* |
    grep -v 'done$' | tail -1)
size=$(wc -c <"$log")
head -c $((size - 640)) "$log" >"$T/part" && mv "$T/part" "$log"
"$NPUPROF" show --db "$T/cut.db" --format csv "$T/cut" communication \
    >"$T/cut.csv" 2>"$T/cut.err"
ok $? "cut logs: imported"
grep -q "HCCL tasks\{0,1\} without a device task" "$T/cut.err"
ok $? "cut logs: HCCL tasks without a device task are counted"
[ "$(wc -l <"$T/cut.csv")" -gt 10 ]
ok $? "cut logs: the communication table is still there"

# hccl_info lost: the tasks have no plane or link; they still make ops.
cp -R "$d/in" "$T/noinfo"
rm -f "$T"/noinfo/PROF_*/host/data/*hccl_info*
"$NPUPROF" show --db "$T/noinfo.db" --format csv "$T/noinfo" \
    communication >"$T/noinfo.csv" 2>"$T/noinfo.err"
ok $? "no hccl_info: imported"
grep -q "without an hccl_info record" "$T/noinfo.err"
ok $? "no hccl_info: the tasks are counted"
"$NPUPROF" show --db "$T/noinfo.db" --format csv "$T/noinfo" \
    op_summary >"$T/noinfo-ops.csv" 2>/dev/null
is "$(grep -c ',COMMUNICATION,' "$T/noinfo-ops.csv")" \
    "$(grep -c ',COMMUNICATION,' "$d/op_summary.csv")" \
    "no hccl_info: the same COMMUNICATION rows"

# No "master" in type_info_dic: no op has a master task.
cp -R "$d/in" "$T/nomaster"
dic=$(ls "$T"/nomaster/PROF_*/host/data/*type_info_dic.slice_0)
grep -v ':master$' "$dic" >"$T/dic" && mv "$T/dic" "$dic"
"$NPUPROF" show --db "$T/nomaster.db" --format csv "$T/nomaster" \
    op_summary >"$T/nomaster.csv" 2>"$T/nomaster.err"
ok $? "no master type: imported"
grep -q "HCCL ops\{0,1\} without a master task: no op_summary row" \
    "$T/nomaster.err"
ok $? "no master type: the ops without a master task are counted"
is "$(grep -c ',COMMUNICATION,' "$T/nomaster.csv")" 0 \
    "no master type: no COMMUNICATION rows"
"$NPUPROF" show --db "$T/nomaster.db" --format csv "$T/nomaster" \
    op_statistic >"$T/nomaster-stat.csv" 2>/dev/null
same_file "$T/nomaster-stat.csv" "$d/want/op_statistic.csv" \
    "no master type: op_statistic as before"

# A context range record of an FFTS+ op that is not two ids: warned and
# not used. As in the vendor's parser, the op's tasks then have no device
# context and meet no device task: they are counted, and the other ops
# keep their rows.
d="$T/one"
cp -R "$d/in" "$T/range"
f=$(ls "$T"/range/PROF_*/host/data/*context_id_info.slice_0)
"$PY" - "$f" <<'PYEOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
for o in range(0, len(b) - 255, 256):
    if struct.unpack_from("<H", b, o + 2)[0] == 5500:
        struct.pack_into("<I", b, o + 32, 3)
        break
open(sys.argv[1], "wb").write(b)
PYEOF
"$NPUPROF" show --db "$T/range.db" --format csv "$T/range" communication \
    >"$T/range.csv" 2>"$T/range.err"
ok $? "bad context range: imported"
grep -q "1 HCCL-level context_id_info record without a range of two ids" \
    "$T/range.err"
ok $? "bad context range: warned"
grep -q "HCCL tasks without a device task" "$T/range.err"
ok $? "bad context range: its op's tasks counted as without a device task"
is "$(grep -c "hcom_send" "$T/range.csv")" \
    "$(grep -c "hcom_send" "$d/exp/communication.csv")" \
    "bad context range: the other ops keep their rows"
done_testing
