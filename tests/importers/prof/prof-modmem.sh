#!/bin/sh
# npu_module_mem from raw data (npuprof-gen prof -K): the memory each
# driver module holds on a device, from npu_module_mem.data, as msprof's
# export prints it (by module, then time; KB) and as torch_npu copies it
# (MB, no device id). The generator writes the rows it expects: four
# samples of eight modules a device, one of them from before the
# collection start (no row), one pair out of time order, an id past the
# module table (named by its number). The store must hold exactly those, on host
# counter ticks and on monotonic ns, across slices, with two devices; the
# analysed twin's CSV gives the same table. Damaged records warn with the
# file and offset and keep what is sound.
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

dam() {		# dam NAME: the msprof collection copied, $F its first slice
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	cp -R "$T/msprof/in" "$T/$1/in"
	o="$T/$1"
	F=$(echo "$o"/in/PROF_*/device_0/data/npu_module_mem.data.0.slice_0)
}

# A size of 2^63 bytes or more (no SQLite integer holds it) and a time
# no collection can have: counted, warned at the first, skipped.
gen big -d 1
F=$(echo "$o"/in/PROF_*/device_0/data/npu_module_mem.data.0.slice_0)
printf '\377\377\377\377\377\377\377\377' |
    dd of="$F" bs=1 seek=$((24 * 3 + 16)) conv=notrunc 2>/dev/null
printf '\377\377\377\377\377\377\377\177' |
    dd of="$F" bs=1 seek=$((24 * 5 + 8)) conv=notrunc 2>/dev/null
load "$o"
grep -q "npu_module_mem.data.0.slice_0: offset 72: 2 module memory records with a size over 2^63 bytes or a time no collection can have, the first here: skipped" \
    "$o/err"
ok $? "damaged records: warned once, at the first"
is "$(($(wc -l <"$o/want/npu_module_mem.csv") - $(wc -l <"$o/got")))" 2 \
    "damaged records: those two rows only are missing"
is "$(grep -vxF -f "$o/want/npu_module_mem.csv" "$o/got")" "" \
    "damaged records: every other row as generated"

# Host counter ticks without the clock pair: no time base, said unread.
dam noclock
rm -f "$o"/in/PROF_*/device_0/host_start.log*
load "$o"
grep -q "npu_module_mem.data.0.slice_0: offset N/A: no host_start.log: the module memory records have no time, not read" \
    "$o/err"
ok $? "no host_start.log: device 0's records are said unread"
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

# No npu_module_mem data: no table at all.
gen none -d 1
rm -f "$o"/in/PROF_*/device_0/data/npu_module_mem.*
load "$o"
is "$(cat "$o/got")" "" "no records: no table"

done_testing
