#!/bin/sh
# npu_module_mem from raw data (npuprof-gen prof -K): the memory each
# driver module holds on a device, from npu_module_mem.data, as msprof's
# export prints it (by module, then time; KB) and as torch_npu copies it
# (MB, no device id). The generator writes the rows it expects: four
# samples of eight modules a device, one of them from before the
# collection start (no row), one pair out of time order, an id past the
# module table (named by its number), the devices' third samples at one
# time (by device then). The store must hold exactly those, on host
# counter ticks and on monotonic ns, across slices, with two devices, each
# row with its device's rank, with torch_npu's columns for every PROF_* of
# a torch_npu folder. Damaged records warn with the file and offset and
# keep what is sound.
. "$top_srcdir/tests/lib.sh"

load() {	# load DIR: import DIR/in, warnings in DIR/err, table in DIR/got
	"$NPUPROF" import -q --db "$1/s.db" "$1/in" 2>/dev/null
	st=$?
	"$NPUPROF" show --db "$1/s.db" --format tsv "$1/in" warnings \
	    2>/dev/null | tail -n +2 |
	    sed 's/\t/: offset /; s/\t/: /' >"$1/err"
	"$NPUPROF" show -q --db "$1/s.db" --format csv "$1/in" \
	    npu_module_mem >"$1/got" 2>/dev/null
}

gen() {		# gen NAME ARGS...: a collection with module memory in $T/NAME
	rm -rf "${T:?}/$1"
	o="$T/$1"
	shift
	"$GEN" prof "$o/in" -e "$o/want" -s 5 -n 60 -T 2 -K "$@" >/dev/null
}

for c in "msprof:-d 2 -m 100 -D 100" "mono:-d 2" "torch:-Y" \
    "torch-ticks:-Y -m 100 -D 50" "mindspore:-Z"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	gen "$name" ${c#*:}
	ok $? "$name: generate"
	load "$o"
	is $st 0 "$name: import"
	same_file "$o/got" "$o/want/npu_module_mem.csv" \
	    "$name: npu_module_mem as generated"
	is "$(grep -c 'npu_module_mem' "$o/err")" 0 \
	    "$name: no warning of the module memory records"
done
# npu_mem: the driver's samples of the process (APP) and of the device,
# in file order (one pair out of time order stays so), whole KB, the one
# from before the start left out, an unknown event named Unknown; and
# their ddr and hbm bytes as the counter lanes NPU MEM <event>/<key>.
for name in msprof mono; do
	o="$T/$name"
	"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" npu_mem \
	    >"$o/npu_mem.got"
	same_file "$o/npu_mem.got" "$o/want/npu_mem.csv" \
	    "$name: npu_mem as generated"
done
o="$T/msprof"
is "$(cut -d, -f2 "$o/want/npu_mem.csv" | sort | uniq -c |
    awk '{ printf "%s %s ", $1, $2 }')" "6 APP 4 Device 2 Unknown 1 event " \
    "npu_mem: both events and an unknown one"
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" counters \
    >"$o/counters"
is "$(grep -c ',NPU MEM app/ddr,' "$o/counters")" 6 \
    "npu_mem: a ddr sample of the APP lane per APP row"
is "$(grep -c ',NPU MEM device/hbm,' "$o/counters")" 4 \
    "npu_mem: an hbm sample of the device lane per Device row"
is "$(grep -c ',NPU MEM Unknown' "$o/counters")" 0 \
    "npu_mem: no lane of an unknown event"

w="$T/msprof/want/npu_module_mem.csv"
is "$(head -n 1 "$w")" \
    "Device_id,Component,Timestamp(us),Total Reserved(KB),Device" \
    "msprof's columns"
is "$(grep -c ',NPU:1$' "$w")" 32 "32 rows of device 1"
is "$(grep -c ',90,' "$w")" 8 "a module past the table: its number"
is "$(grep -c ',IDEDH,' "$w")" 8 \
    "module 2 named as torch_npu's text export names it"
is "$(grep -c ',AML,' "$w")" 8 "module 74 too"
is "$(sed -n '2p' "$w" | cut -d, -f2)" IDEDH "module 2 first"
is "$(sed -n '$p' "$w" | cut -d, -f2)" 90 "module 90 last"
is "$(head -n 1 "$T/torch/want/npu_module_mem.csv")" \
    "Component,Timestamp(us),Total Reserved(MB),Device" \
    "torch_npu's columns in a torch_npu folder"
is "$(head -n 1 "$T/mindspore/want/npu_module_mem.csv" | cut -d, -f1)" \
    Device_id "msprof's columns in a MindSpore folder"
# Sizes are whole KB, truncated: 1023 bytes more make no more KB.
is "$(grep -c ',163840,NPU:0$' "$w")" 1 "KB truncated"
# Both devices' third samples at one time: device 0's row first.
is "$(cut -d, -f1-3 "$w" | awk -F, 'NR > 1 { print $2 "," $3 }' |
    uniq -d | wc -l | tr -d ' ')" 8 "eight times shared by both devices"
is "$(awk -F, 'NR > 1 { k = $2 "," $3; if (k == p) print d $1
    p = k; d = $1 }' "$w" | sort -u)" 01 \
    "a time both devices share: device 0 first"

# Each device's rows carry its rank: without the host's, each device's
# info.json gives its own.
gen ranks -d 2
for dv in 0 1; do
	f=$(echo "$o"/in/PROF_*/device_$dv/info.json.$dv)
	sed "s/\"rank_id\":-1/\"rank_id\":$((dv + 4))/" "$f" >"$o/i" &&
	    mv "$o/i" "$f"
done
load "$o"
is "$(sqlite3 "$o/s.db" "SELECT _device || ':' || _rank || ':' || count(*)
    FROM npu_module_mem GROUP BY _device, _rank ORDER BY 1" |
    tr '\n' ' ')" \
    "0:4:32 1:5:32 " "each device's rows with its own rank"
is "$(sqlite3 "$o/s.db" "SELECT DISTINCT device || ':' || rank FROM task
    ORDER BY 1" | tr '\n' ' ')" "0:4 1:5 " "as its tasks have it"

# A torch_npu folder with a second PROF_*: its rows take torch_npu's
# columns too, in the one table.
gen pt2 -Y
p=$(echo "$o"/in/*_ascend_pt/PROF_*)
cp -R "$p" "${p}X"
load "$o"
# (Two collections: show adds a Rank column.)
is "$(head -n 1 "$o/got")" \
    "Rank,Component,Timestamp(us),Total Reserved(MB),Device" \
    "a second PROF_* of a torch_npu folder: torch_npu's columns"
is "$(($(wc -l <"$o/got") - 1))" \
    "$((2 * ($(wc -l <"$o/want/npu_module_mem.csv") - 1)))" \
    "a second PROF_*: its rows too"

# A bare device directory: its own rows, msprof's columns.
d=$(echo "$T"/msprof/in/PROF_*/device_1)
"$NPUPROF" import -q --db "$T/bare.db" "$d" 2>/dev/null
is "$("$NPUPROF" show -q --db "$T/bare.db" --format csv "$d" \
    npu_module_mem | tail -n +2 | cut -d, -f5 | sort | uniq -c |
    awk '{ print $1 " " $2 }')" "32 NPU:1" "a bare device_1: its 32 rows"

# The analysed twin: torch_npu's npu_module_mem.csv, the time cell ending
# in a TAB as the vendor writes it, gives the same table.
mkdir -p "$T/twin/in/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $2 = $2 "\t" } { print }' \
    "$T/torch/want/npu_module_mem.csv" \
    >"$T/twin/in/r_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv"
load "$T/twin"
same_file "$T/twin/got" "$T/torch/got" "the analysed twin: the same table"

# export summary writes it as msprof does: the time cell ends in a TAB.
"$NPUPROF" export summary --output "$T/msprof/ex" --db "$T/msprof/s.db" \
    "$T/msprof/in" >/dev/null 2>&1
awk -F, 'BEGIN { OFS = "," } NR > 1 { $3 = $3 "\t" } { print }' "$w" \
    >"$T/msprof/ex.want"
same_file "$(ls "$T"/msprof/ex/npu_module_mem_*.csv)" "$T/msprof/ex.want" \
    "export summary: npu_module_mem_<time>.csv as msprof writes it"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $6 = $6 "\t" } { print }' \
    "$T/msprof/want/npu_mem.csv" >"$T/msprof/exn.want"
same_file "$(ls "$T"/msprof/ex/npu_mem_*.csv)" "$T/msprof/exn.want" \
    "export summary: npu_mem_<time>.csv as msprof writes it"

dam() {		# dam NAME [FROM]: collection FROM (msprof) copied, $F its
		# first module memory slice
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	cp -R "$T/${2:-msprof}/in" "$T/$1/in"
	o="$T/$1"
	F=$(echo "$o"/in/PROF_*/device_0/data/npu_module_mem.data.0.slice_0)
}

# A size of 2^63 bytes (no SQLite integer holds it) and a time no
# collection can have: counted, warned at the first, skipped. A size of
# 2^63 - 1 bytes is kept.
gen big -d 1
F=$(echo "$o"/in/PROF_*/device_0/data/npu_module_mem.data.0.slice_0)
printf '\000\000\000\000\000\000\000\200' |
    dd of="$F" bs=1 seek=$((24 * 3 + 16)) conv=notrunc 2>/dev/null
printf '\377\377\377\377\377\377\377\177' |
    dd of="$F" bs=1 seek=$((24 * 5 + 8)) conv=notrunc 2>/dev/null
printf '\377\377\377\377\377\377\377\177' |
    dd of="$F" bs=1 seek=$((24 * 7 + 16)) conv=notrunc 2>/dev/null
load "$o"
m="2 module memory records with a size over 2^63 bytes or a time no"
grep -q "slice_0: offset 72: $m collection can have, the first here" \
    "$o/err"
ok $? "damaged records: warned once, at the first"
is "$(($(wc -l <"$o/want/npu_module_mem.csv") - $(wc -l <"$o/got")))" 2 \
    "damaged records: those two rows only are missing"
is "$(grep -c ',9007199254740991,NPU:0$' "$o/got")" 1 \
    "a size of 2^63 - 1 bytes kept, as KB"
is "$(grep -vxF -f "$o/want/npu_module_mem.csv" "$o/got" |
    grep -vc ',9007199254740991,')" 0 \
    "damaged records: every other row as generated"

# Host counter ticks without the clock pair: no time base, said unread.
dam noclock
rm -f "$o"/in/PROF_*/device_0/host_start.log*
load "$o"
m="no host_start.log: the module memory records have no time, not read"
grep -q "npu_module_mem.data.0.slice_0: offset N/A: $m" "$o/err"
ok $? "no host_start.log: device 0's records are said unread"
m="no host_start.log: the memory samples have no time, not read"
is "$(grep -c "npu_mem.data.0.slice_0: offset N/A: $m" "$o/err")" 1 \
    "no host_start.log: device 0's memory samples said unread, once"
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" npu_mem >"$o/nm"
is "$(grep -c '^0,' "$o/nm")" 0 "no host_start.log: no npu_mem rows of device 0"
is "$(grep -c ',NPU:0$' "$o/got")" 0 "no host_start.log: no rows of device 0"
is "$(grep -c ',NPU:1$' "$o/got")" 32 "no host_start.log: device 1 kept"

# A stream whose head was overwritten (a ring buffer's): the bytes short
# of a whole record are skipped at the head, as the vendor skips them, so
# the records stay whole; the ones lost are the oldest.
dam head
dd if="$F" of="$o/cut" bs=1 skip=30 2>/dev/null
mv "$o/cut" "$F"
load "$o"
is $st 0 "a lost head: imported"
is "$(($(wc -l <"$w") - $(wc -l <"$o/got")))" 1 \
    "a lost head: one row fewer (the other lost record was no row)"
is "$(grep -vxF -f "$w" "$o/got")" "" "a lost head: every other row kept"

# npu_mem in the vendor's file order: by slice number, the app channel's
# first on a tie; each channel one stream. Device 0's samples split into
# two slices, and an app channel of two slices of a sample each (copies
# of the first and the fifth row): app 0, data 0, app 1, data 1.
# (The mono collection: one slice a file.)
dam order mono
D=$(echo "$o"/in/PROF_*/device_0/data)
f="$D/npu_mem.data.0.slice_0"
dd if="$f" of="$D/npu_mem.app.0.slice_0" bs=32 skip=1 count=1 2>/dev/null
dd if="$f" of="$D/npu_mem.app.0.slice_1" bs=32 skip=5 count=1 2>/dev/null
dd if="$f" of="$D/npu_mem.data.0.slice_1" bs=32 skip=3 2>/dev/null
dd if="$f" of="$D/x" bs=32 count=3 2>/dev/null && mv "$D/x" "$f"
load "$o"
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" npu_mem |
    grep '^0,' | cut -d, -f5 | tr '\n' ' ' >"$o/got.mem"
grep '^0,' "$T/mono/want/npu_mem.csv" | cut -d, -f5 >"$o/rows"
r() { sed -n "${1}p" "$o/rows"; }
is "$(cat "$o/got.mem")" \
    "$(r 1) $(r 1) $(r 2) $(r 5) $(r 3) $(r 4) $(r 5) $(r 6) " \
    "npu_mem: slices by number, the app channel's first on a tie"

# A DDR or HBM size over 2^62 bytes: counted, warned, skipped; 2^62 kept.
dam npubig mono
f=$(echo "$o"/in/PROF_*/device_0/data/npu_mem.data.0.slice_0)
printf '\001\000\000\000\000\000\000\100' |
    dd of="$f" bs=1 seek=$((32 * 2 + 16)) conv=notrunc 2>/dev/null
printf '\000\000\000\000\000\000\000\100' |
    dd of="$f" bs=1 seek=$((32 * 3 + 24)) conv=notrunc 2>/dev/null
load "$o"
m="1 memory sample with a time or a size no collection can have"
grep -q "npu_mem.data.0.slice_0: offset 64: $m" "$o/err"
ok $? "npu_mem: a size over 2^62 bytes warned at its offset"
"$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" npu_mem >"$o/nm"
is "$(grep -c '^0,' "$o/nm")" 5 "npu_mem: that sample only left out"
is "$(grep -c ',4503599627370496,' "$o/nm")" 1 "npu_mem: 2^62 bytes kept"

# Without start_info nothing says when the collection started: the sample
# from before it is kept (its times stay on the monotonic clock, warned).
dam nostart
rm -f "$o"/in/PROF_*/device_0/start_info*
load "$o"
grep -q "device_0: offset N/A: no start_info" "$o/err"
ok $? "no start_info: warned"
is "$(grep -c ',NPU:0$' "$o/got")" 33 "no start_info: every sample a row"

# No npu_module_mem data: no table at all.
gen none -d 1
rm -f "$o"/in/PROF_*/device_0/data/npu_module_mem.*
load "$o"
tables=$("$NPUPROF" show -q --db "$o/s.db" --format csv "$o/in" tables)
ok $? "no records: the tables listed"
is "$(echo "$tables" | grep -c npu_module_mem)" 0 "no records: no table"

done_testing
