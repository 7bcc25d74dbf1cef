#!/bin/sh
# npu_module_mem of raw collections against the vendor's own code, where
# its sources are at hand (a development check: skipped on a clean
# machine). MSPROF_SRC names the analysis/ folder of a source tree of
# github.com/Ascend/msprof. modmem-vendor.py decodes the records of a
# generated collection (npuprof-gen prof -K) with the vendor's record
# bean and turns their times into local microseconds with its
# InfoConfReader; every row's device, time, KB and order must be ours.
# The module names are not compared: the vendor's tables disagree with
# each other (doc/formats.md section 4.12). The npu_mem samples the same
# way, with its NpuMemDataBean and the terms of its absolute time, added
# exactly (section 4.13): npu_mem must be its rows, cell for cell.
. "$top_srcdir/tests/lib.sh"

need_msprof_src msparser
here="$top_srcdir/tests/importers/prof"

for c in "ticks:-d 2 -m 100 -D 100" "mono:-d 2" "seed9:-s 9 -m 100 -D 37" \
    "head:-d 2 -m 100" "torch:-Y -m 100" "torchslices:-Y -D 64" \
    "mindspore:-Z"; do
	name=${c%%:*}
	d="$T/$name"
	# shellcheck disable=SC2086
	"$GEN" prof "$d/in" -s 5 -n 60 -T 2 -K ${c#*:} >/dev/null
	ok $? "$name: generate"
	p=$(find "$d/in" -maxdepth 2 -name 'PROF_*' | head -n 1)
	if [ "$name" = head ]; then
		# A stream whose oldest 30 bytes were overwritten.
		f="$p/device_1/data/npu_module_mem.data.1.slice_0"
		dd if="$f" of="$d/cut" bs=1 skip=30 2>/dev/null
		mv "$d/cut" "$f"
	fi
	"$PY" "$here/modmem-vendor.py" "$p" "$d/vendor.csv" "$d/npu_mem.csv"
	ok $? "$name: the vendor's bean and InfoConfReader ran"
	"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
	# torch_npu's columns: its time and MB against the vendor's KB.
	case $name in
	torch*)
		"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
		    npu_module_mem | cut -d, -f2,4 >"$d/ours.csv"
		awk -F, 'NR == 1 { print "Timestamp(us),Device"; next }
		    { print $3 "," $5 }' "$d/vendor.csv" >"$d/theirs.csv"
		;;
	*)
		"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
		    npu_module_mem | cut -d, -f1,3- >"$d/ours.csv"
		cut -d, -f1,3- "$d/vendor.csv" >"$d/theirs.csv"
		;;
	esac
	same_file "$d/ours.csv" "$d/theirs.csv" \
	    "$name: devices, times, KB and order as the vendor's"
	is "$(wc -l <"$d/ours.csv")" "$(wc -l <"$d/theirs.csv")" \
	    "$name: as many rows"
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" npu_mem \
	    >"$d/npu_mem.ours"
	same_file "$d/npu_mem.ours" "$d/npu_mem.csv" \
	    "$name: npu_mem as the vendor's"
done

done_testing
