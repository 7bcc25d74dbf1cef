#!/bin/sh
# torch_npu's FRAMEWORK/ records against the vendor's own parser, where
# its sources are at hand (a development check: skipped on a clean
# machine). PT_SRC names the top of a source tree of github.com/Ascend/
# pytorch (the folder holding torch_npu/; torch_npu/profiler/analysis is
# all that is used), of torch_npu 7.1 (July 2025) or later: before, its
# enqueues were not named by their dequeues' ops. fwk-vendor.py hands a
# generated folder (npuprof-gen prof -Y) to the vendor's FwkFileParser
# and writes the trace events its get_fwk_trace_data makes: the spans of
# levels python, enqueue, dequeue, python_function and GC (name,
# process, thread, start and end to the ns as its own conversion gives
# them, args), the fwdbwd and async_task_queue flows, and the names of
# the processes and threads must be ours. The vendor's parser reads op
# ranges of the current layout only (doc/formats.md section 3.11): it
# takes those of the two older layouts for current ones and so misreads
# their names and fields. So all is compared on a copy whose
# torch.op_range holds only current records; on the whole folder the
# flows (of the fixed parts, which it reads right) must be ours, and the
# spans where it differs from us exactly our spans of the older records.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip_all "no sqlite3 command"
PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
if [ -z "${PT_SRC:-}" ] || [ ! -f \
    "$PT_SRC/torch_npu/profiler/analysis/prof_parse/_fwk_file_parser.py" ]
then
	skip_all "PT_SRC does not name a source tree of torch_npu"
fi
here="$top_srcdir/tests/importers/prof"

LEVELS="'python','enqueue','dequeue','python_function','GC'"

# ours DIR: import DIR/in into DIR/s.db; our spans, flows and lanes in
# DIR/spans, DIR/flows, DIR/lanes, as fwk-vendor.py writes the vendor's.
ours() {
	"$NPUPROF" import -q --db "$1/s.db" "$1/in" 2>/dev/null
	st=$?
	sqlite3 -separator '|' "$1/s.db" "SELECT l.s, n.s, a.pid, a.tid,
	    a.start_ns, a.end_ns, coalesce(a.args, '') FROM api a
	    JOIN str l ON l.id = a.level JOIN str n ON n.id = a.name
	    WHERE l.s IN ($LEVELS)" | LC_ALL=C sort >"$1/spans"
	sqlite3 -separator '|' "$1/s.db" "SELECT cat, name, id, phase, pid,
	    tid, ts_ns, bp FROM flows WHERE cat IN ('fwdbwd',
	    'async_task_queue')" | LC_ALL=C sort >"$1/flows"
	sqlite3 -separator '|' "$1/s.db" "SELECT pid, coalesce(tid, 0), name
	    FROM lane" | LC_ALL=C sort >"$1/lanes"
	return $st
}

# theirs DIR: the vendor's of DIR/in in DIR/v.spans, v.flows, v.lanes.
theirs() {
	"$PY" "$here/fwk-vendor.py" "$PT_SRC" "$(ls -d "$1"/in/*_ascend_pt)" \
	    "$1/v.spans" "$1/v.flows" "$1/v.lanes" 2>"$1/v.err"
	st=$?
	[ $st -eq 0 ] || sed 's/^/#   /' "$1/v.err" | tail -5
	return $st
}

# check NAME GEN-ARGS...
check() {
	name=$1
	shift
	d="$T/$name"
	"$GEN" prof "$d/all/in" -Y "$@" >/dev/null &&
	    cp -R "$d/all" "$d/cur" &&
	    old=$("$PY" "$here/fwk-vendor.py" --current \
	    "$(ls -d "$d"/cur/in/*_ascend_pt)/FRAMEWORK/torch.op_range")
	ok $? "$name: generate $*, and a copy of current op ranges only"
	ours "$d/cur" && ours "$d/all"
	ok $? "$name: import both"
	theirs "$d/cur" && theirs "$d/all"
	ok $? "$name: the vendor's FwkFileParser ran on both"
	same_file "$d/cur/spans" "$d/cur/v.spans" \
	    "$name: $(wc -l <"$d/cur/v.spans") spans as the vendor's"
	same_file "$d/cur/flows" "$d/cur/v.flows" \
	    "$name: $(wc -l <"$d/cur/v.flows") flows as the vendor's"
	same_file "$d/cur/lanes" "$d/cur/v.lanes" \
	    "$name: process and thread names as the vendor's"
	n=$(wc -l <"$d/all/v.flows")
	same_file "$d/all/flows" "$d/all/v.flows" \
	    "$name: whole folder: $n flows as the vendor's"
	# Where the vendor differs on the whole folder: our spans of the
	# $old op ranges of the older layouts, against its misreadings.
	LC_ALL=C comm -23 "$d/all/spans" "$d/cur/spans" >"$d/older"
	LC_ALL=C comm -23 "$d/all/spans" "$d/all/v.spans" >"$d/unlike"
	same_file "$d/unlike" "$d/older" \
	    "$name: whole folder: the vendor differs on our older op ranges only"
	LC_ALL=C comm -13 "$d/all/spans" "$d/all/v.spans" >"$d/misread"
	is "$(wc -l <"$d/older") $(wc -l <"$d/misread") \
$(grep -vc '^python|' "$d/misread")" "$old $old 0" \
	    "$name: whole folder: $old spans each side, the vendor's all ops"
}

check ticks -s 21 -n 400 -T 4 -a 30
check mono -s 22 -n 300 -T 3 -c 310P -m 0
check one -s 23 -n 60 -T 1 -d 2
done_testing
