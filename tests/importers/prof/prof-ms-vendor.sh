#!/bin/sh
# MindSpore 2.3's (and its release candidates') and 2.4's
# op_range_<rank>, and 2.5's and 2.6's
# mindspore.memory_usage, against those versions' own code, where their
# sources are at hand (a development check: skipped on a clean machine).
# MS23_SRC to MS26_SRC name the mindspore/python folder of a MindSpore
# source tree of that version, MS23RC_SRC one of a 2.3 release candidate
# (tag v2.3.0-rc1 or -rc2). ms-vendor.py runs its decoder, trace
# events and self-flow linker on a generated file (npuprof-gen prof
# -V 2.3, -V 2.4; -V 2.3rc1 and -V 2.3rc2 for MS23RC_SRC): every span,
# its args and every mindspore_to_self flow
# must be ours; the one range that starts at counter 0, which both keep
# and we skip (counted), is left out. msmem-vendor.py runs its
# AscendOpMemoryViewer on the memory records of -O (2.5) and -Z (2.6):
# operator_memory must be ours, cell for cell (2.5's divisor of ns to
# "us", 1024, set to 1000, as we divide). msrec-vendor.py runs its
# AscendMemoryViewer on the pool totals of -O and -Z with GE's and APP's
# records as msprof's CSVs hold them: memory_record must be ours, but for
# the TAB that msprof's time cells end in, which MindSpore copies into
# GE's rows and our CSV reader drops. msshape-vendor.py runs its
# MsOperatorDetailsViewer on the recorded shapes of -Z (MS27_SRC, a tree
# with that viewer): operator_details must be ours. mscpu-vendor.py runs
# its CpuOpTimelineCreator (MS26_SRC, a tree with it) on the host CPU ops
# of -Z: every CPU OP span, its thread, µs times and args must be ours.
# msdata-vendor.py runs its MindDataParser and MindDataPipelineRawViewer
# (MS26_SRC, a tree with them) on the dataset pipeline of -Z:
# minddata_pipeline_raw must be ours.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
A=profiler/parser/ascend_analysis
[ -d "${MS23_SRC:-/nonexistent}/mindspore/$A" ] ||
    [ -d "${MS23RC_SRC:-/nonexistent}/mindspore/$A" ] ||
    [ -d "${MS24_SRC:-/nonexistent}/mindspore/$A" ] ||
    [ -d "${MS25_SRC:-/nonexistent}/mindspore/$A" ] ||
    [ -d "${MS26_SRC:-/nonexistent}/mindspore/$A" ] ||
    [ -d "${MS27_SRC:-/nonexistent}/mindspore/profiler" ] ||
    skip_all "no MS23_SRC to MS27_SRC, or MS23RC_SRC, names a mindspore/python"
here="$top_srcdir/tests/importers/prof"

# compare VER SRC: a generated MindSpore VER profile against SRC's reader.
compare() {
	d="$T/v$(echo "$1" | tr -d .)"
	"$GEN" prof "$d/in" -s 5 -n 60 -T 2 -V "$1" >/dev/null
	"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
	ok $? "$1: import a generated profile"
	"$PY" "$here/ms-vendor.py" "$2" "$d"/in/*/FRAMEWORK/op_range_0 \
	    >"$d/v.txt" 2>"$d/v.err"
	ok $? "$1: MindSpore $1's reader ran"
	grep '^X|' "$d/v.txt" | grep -v '^X|AtZero|' | LC_ALL=C sort \
	    >"$d/v.x"
	sqlite3 -separator '|' "$d/s.db" "SELECT 'X', n.s, a.tid, a.args
	    FROM api a JOIN str l ON l.id = a.level JOIN str n ON
	    n.id = a.name WHERE l.s = 'MindSpore'" | LC_ALL=C sort >"$d/x"
	same_file "$d/x" "$d/v.x" "$1: every span and its args as its reader's"
	grep '^F|' "$d/v.txt" | LC_ALL=C sort >"$d/v.f"
	sqlite3 -separator '|' "$d/s.db" "SELECT 'F', phase, id, tid FROM
	    flows WHERE cat = 'async_mindspore'" | LC_ALL=C sort >"$d/f"
	same_file "$d/f" "$d/v.f" "$1: every mindspore_to_self flow as its"
}


# viewer NAME GEN-FLAG TABLE SCRIPT SRC FILE: TABLE of a generated
# profile against what SCRIPT makes of its FRAMEWORK/FILE with SRC's
# viewer, as CSV.
viewer() {
	d="$T/$1"
	"$GEN" prof "$d/in" -s 5 -n 60 -T 2 "$2" >/dev/null
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" "$3" \
	    >"$d/got.csv" 2>/dev/null
	"$PY" "$here/$4" "$5" "$d"/in/*/FRAMEWORK/"$6" "$d/v.csv" \
	    2>"$d/v.err"
	ok $? "$1: MindSpore's viewer of $3 ran"
	tr -d '\r' <"$d/v.csv" >"$d/want.csv"
	same_file "$d/got.csv" "$d/want.csv" "$1: $3 as its viewer's"
}

# record VER SRC GEN-FLAG: memory_record against SRC's viewer.
record() {
	d="$T/r$1"
	"$GEN" prof "$d/in" -e "$d/want" -s 5 -n 60 -T 2 "$3" >/dev/null
	"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
	    memory_record >"$d/got.csv" 2>/dev/null
	"$PY" "$here/msrec-vendor.py" "$2" \
	    "$d"/in/*/FRAMEWORK/cpu_ms_memory_record_0.txt \
	    "$d/want/ms_cann_memory.txt" 0 "$d/v.csv" 2>"$d/v.err"
	ok $? "$1: MindSpore $1's memory viewer ran"
	tr -d '\r' <"$d/v.csv" | sed 's/\t,/,/' >"$d/want.csv"
	same_file "$d/got.csv" "$d/want.csv" "$1: memory_record as its"
}


# cpuops SRC: the CPU OP spans of -Z against SRC's timeline creator.
cpuops() {
	d="$T/cpu"
	"$GEN" prof "$d/in" -s 5 -n 60 -T 2 -Z >/dev/null
	"$NPUPROF" import -q --db "$d/s.db" "$d/in" 2>/dev/null
	"$PY" "$here/mscpu-vendor.py" "$1" \
	    "$d"/in/*/FRAMEWORK/cpu_op_execute_timestamp_0.txt \
	    2>"$d/v.err" | LC_ALL=C sort >"$d/want"
	ok $? "MindSpore's CPU op timeline creator ran"
	sqlite3 -separator '|' "$d/s.db" "SELECT 'X', n.s, a.pid, a.tid,
	    printf('%d.%03d', a.start_ns / 1000, a.start_ns % 1000),
	    printf('%d.%03d', (a.end_ns - a.start_ns) / 1000,
	    (a.end_ns - a.start_ns) % 1000), a.args FROM api a JOIN str l
	    ON l.id = a.level JOIN str n ON n.id = a.name WHERE
	    l.s = 'CPU OP'" | LC_ALL=C sort >"$d/got"
	same_file "$d/got" "$d/want" "CPU ops as its timeline creator's"
}


V=mindspore/profiler/analysis/viewer/ascend_memory_viewer.py
S=mindspore/profiler/analysis/viewer/ms_operator_details_viewer.py
[ -d "${MS23_SRC:-/nonexistent}/mindspore/$A" ] && compare 2.3 "$MS23_SRC"
if [ -d "${MS23RC_SRC:-/nonexistent}/mindspore/$A" ]; then
	compare 2.3rc1 "$MS23RC_SRC"
	compare 2.3rc2 "$MS23RC_SRC"
fi
[ -d "${MS24_SRC:-/nonexistent}/mindspore/$A" ] && compare 2.4 "$MS24_SRC"
[ -d "${MS25_SRC:-/nonexistent}/mindspore/$A" ] &&
    viewer m2.5 -O operator_memory msmem-vendor.py "$MS25_SRC" \
    mindspore.memory_usage
[ -d "${MS26_SRC:-/nonexistent}/mindspore/$A" ] &&
    viewer m2.6 -Z operator_memory msmem-vendor.py "$MS26_SRC" \
    mindspore.memory_usage
[ -f "${MS25_SRC:-/nonexistent}/$V" ] && record 2.5 "$MS25_SRC" -O
[ -f "${MS26_SRC:-/nonexistent}/$V" ] && record 2.6 "$MS26_SRC" -Z
[ -f "${MS27_SRC:-/nonexistent}/$S" ] && viewer shapes -Z operator_details \
    msshape-vendor.py "$MS27_SRC" mindspore.record_shapes
C=mindspore/profiler/analysis/parser/timeline_creator/cpu_op_timeline_creator.py
[ -f "${MS26_SRC:-/nonexistent}/$C" ] && cpuops "$MS26_SRC"
D=mindspore/profiler/analysis/viewer/ms_minddata_viewer.py
[ -f "${MS26_SRC:-/nonexistent}/$D" ] && viewer data -Z \
    minddata_pipeline_raw msdata-vendor.py "$MS26_SRC" \
    pipeline_profiling_0.json

# mdsum SRC NAME [SED-PIPELINE SED-CPU]: minddata_pipeline_summary of -Z
# (its files changed by the seds) against SRC's summary viewer: the
# numbers equal, the findings' cells by the numbers in them.
mdsum() {
	d="$T/mdsum$2"
	"$GEN" prof "$d/in" -s 5 -n 60 -T 2 -Z >/dev/null
	f=$(ls -d "$d"/in/*/FRAMEWORK)
	if [ -n "${3:-}" ]; then
		sed -i "$3" "$f/pipeline_profiling_0.json"
		sed -i "$4" "$f/minddata_cpu_utilization_0.json"
	fi
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
	    minddata_pipeline_summary 2>/dev/null |
	    sed 's/\(,N\/A\)*$//' >"$d/got.csv"
	"$PY" "$here/msdata-vendor.py" "$1" "$f/pipeline_profiling_0.json" \
	    "$d/raw.csv" "$d/v.csv" 2>"$d/v.err"
	ok $? "$2: MindSpore's summary viewer ran"
	tr -d '\r' <"$d/v.csv" >"$d/want.csv"
	"$PY" "$here/msdata-vendor.py" --numbers "$d/got.csv" >"$d/got.n"
	"$PY" "$here/msdata-vendor.py" --numbers "$d/want.csv" >"$d/want.n"
	same_file "$d/got.n" "$d/want.n" \
	    "$2: minddata_pipeline_summary as its viewer's, findings by number"
	is "$(grep -c 'details\|bottleneck' "$d/want.csv")" 4 \
	    "$2: with findings of each kind"
}
if [ -f "${MS26_SRC:-/nonexistent}/$D" ]; then
	mdsum "$MS26_SRC" summary
	# A DeviceQueue op whose input is mostly empty, a starved queue under
	# an op of little CPU use: the bottleneck.
	mdsum "$MS26_SRC" starved 's/DataQueueOp/DeviceQueueOp/;
	    s/"size":\[10,12,13\]/"size":[0,0,13]/;
	    s/"size":\[4,5\]/"size":[0,1]/' \
	    's/"user_utilization":\[260,270\]/"user_utilization":[26,27]/'
fi
done_testing
