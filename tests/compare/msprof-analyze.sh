#!/bin/sh
# kernel_compare, api_compare, communication_compare and overall against
# msprof-analyze's compare itself, when it is installed (python3 -c
# 'import msprof_analyze' works, or MSPROF_ANALYZE names a source tree of
# it) with openpyxl: its KernelCompare, ApiCompare and
# CommunicationCompare sheets for the generated pair (all steps, and step
# 1 of both, each way round) and for the two ranks of the samples (all
# steps and their step 50), written as our CSV by tools/compare-sheet.py;
# equal cell for cell but for the samples' communication times, which
# their trace gives to 1/32 ns and the store keeps to the nanosecond
# (compared to within half a nanosecond per call); its OverallMetrics
# sheet for the pair of gen-overall.py each way round, one without PMU
# columns and the samples' ranks, to the sixth decimal we print (and the
# store's nanosecond); and op_compare and memory_compare against its
# OperatorCompareStatistic and MemoryCompareStatistic sheets (all
# comparisons on, as by default, but the module one, which replaces them
# where the trace has Python calls) for both pairs, with and without a
# step, and the samples, to 10 ns. Skipped where the tool is not there,
# as on a clean machine.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
need_msprof_analyze openpyxl

compare() {	# compare NAME BASE NEW [STEP]: ours against the tool's
	rm -rf "$T/$1.out" && mkdir "$T/$1.out"
	"$PY" -c 'import sys
from msprof_analyze.cli.entrance import msprof_analyze_cli
args = ["msprof-analyze", "compare", "-bp", sys.argv[1], "-d", sys.argv[2],
    "--output_path", sys.argv[3], "--enable_kernel_compare",
    "--enable_api_compare", "--enable_communication_compare"]
if len(sys.argv) > 4:
    args += ["--base_step", sys.argv[4], "--comparison_step", sys.argv[4]]
sys.argv = args
msprof_analyze_cli()' "$2" "$3" "$T/$1.out" ${4:-} >/dev/null 2>&1
	for t in KernelCompare:kernel_compare ApiCompare:api_compare; do
		"$PY" "$top_srcdir/tools/compare-sheet.py" "$T/$1.out"/*.xlsx \
		    "${t%%:*}" >"$T/$1.${t#*:}.want"
		"$NPUPROF" show -q --compare --format csv ${4:+--step $4} \
		    "$2" "$3" "${t#*:}" >"$T/$1.${t#*:}.csv"
		same_file "$T/$1.${t#*:}.csv" "$T/$1.${t#*:}.want" \
		    "$1: ${t#*:} as msprof-analyze"
	done
	"$NPUPROF" show -q --compare --format csv ${4:+--step $4} "$2" "$3" \
	    communication_compare >"$T/$1.comm.csv"
	case $1 in
	samples*)
		"$PY" "$top_srcdir/tools/compare-sheet.py" --close \
		    "$T/$1.comm.csv" "$T/$1.out"/*.xlsx CommunicationCompare
		ok $? "$1: communication_compare as msprof-analyze, to 0.5 ns"
		;;
	*)
		"$PY" "$top_srcdir/tools/compare-sheet.py" "$T/$1.out"/*.xlsx \
		    CommunicationCompare >"$T/$1.comm.want"
		same_file "$T/$1.comm.csv" "$T/$1.comm.want" \
		    "$1: communication_compare as msprof-analyze"
		;;
	esac
}

overall() {	# overall NAME BASE NEW: ours against OverallMetrics
	rm -rf "$T/$1.out" && mkdir "$T/$1.out"
	"$PY" -c 'import sys
from msprof_analyze.cli.entrance import msprof_analyze_cli
sys.argv = ["msprof-analyze", "compare", "-bp", sys.argv[1], "-d",
    sys.argv[2], "--output_path", sys.argv[3], "--enable_profiling_compare"]
msprof_analyze_cli()' "$2" "$3" "$T/$1.out" >/dev/null 2>&1
	"$NPUPROF" show -q --compare --format csv "$2" "$3" overall \
	    >"$T/$1.overall.csv"
	"$PY" "$top_srcdir/tools/compare-sheet.py" --close \
	    "$T/$1.overall.csv" "$T/$1.out"/*.xlsx OverallMetrics
	ok $? "$1: overall as msprof-analyze's OverallMetrics"
}

ops() {	# ops NAME BASE NEW [STEP]: ours against the operator sheets
	rm -rf "$T/$1.out" && mkdir "$T/$1.out"
	"$PY" -c 'import sys
from msprof_analyze.cli.entrance import msprof_analyze_cli
args = ["msprof-analyze", "compare", "-bp", sys.argv[1], "-d",
    sys.argv[2], "--output_path", sys.argv[3], "--disable_module"]
if len(sys.argv) > 4:
    args += ["--base_step", sys.argv[4], "--comparison_step", sys.argv[4]]
sys.argv = args
msprof_analyze_cli()' "$2" "$3" "$T/$1.out" ${4:-} >/dev/null 2>&1
	for t in OperatorCompareStatistic:op_compare \
	    MemoryCompareStatistic:memory_compare; do
		"$NPUPROF" show -q --compare --format csv ${4:+--step $4} \
		    "$2" "$3" "${t#*:}" >"$T/$1.${t#*:}.csv"
		"$PY" "$top_srcdir/tools/compare-sheet.py" --close \
		    "$T/$1.${t#*:}.csv" "$T/$1.out"/*.xlsx "${t%%:*}"
		ok $? "$1: ${t#*:} as msprof-analyze's ${t%%:*}"
	done
}

"$PY" "$top_srcdir/tests/compare/gen-overall.py" "$T/o" || exit 1
ops ops "$T/o/base_ascend_pt" "$T/o/new_ascend_pt"
ops ops-reversed "$T/o/new_ascend_pt" "$T/o/base_ascend_pt"
overall overall "$T/o/base_ascend_pt" "$T/o/new_ascend_pt"
overall overall-reversed "$T/o/new_ascend_pt" "$T/o/base_ascend_pt"
mkdir -p "$T/o/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT"
cp "$T/o/base_ascend_pt/profiler_info_0.json" "$T/o/nopmu_ascend_pt/"
cp "$T/o/base_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
    "$T/o/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT/"
cut -d, -f1-23 "$T/o/base_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
    >"$T/o/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
overall overall-no-pmu "$T/o/nopmu_ascend_pt" "$T/o/new_ascend_pt"

"$PY" "$top_srcdir/tests/compare/gen-pair.py" "$T/p" || exit 1
compare generated "$T/p/base_ascend_pt" "$T/p/new_ascend_pt"
compare generated-step-1 "$T/p/base_ascend_pt" "$T/p/new_ascend_pt" 1
compare generated-reversed "$T/p/new_ascend_pt" "$T/p/base_ascend_pt"
compare generated-reversed-step-1 "$T/p/new_ascend_pt" \
    "$T/p/base_ascend_pt" 1
ops pair-ops "$T/p/base_ascend_pt" "$T/p/new_ascend_pt"
ops pair-ops-step-1 "$T/p/base_ascend_pt" "$T/p/new_ascend_pt" 1
S="$SAMPLES/msinsight-pt-text/level1"
if [ -d "$S" ]; then
	# --compare keeps a store beside each run (one --db cannot hold
	# both), so the runs are copies: the samples are only read.
	cp -R "$S" "$T/text" && chmod -R u+w "$T/text" || exit 1
	S="$T/text"
	compare samples-rank0-rank1 "$S/rank0_ascend_pt" "$S/rank1_ascend_pt"
	compare samples-rank1-rank0 "$S/rank1_ascend_pt" "$S/rank0_ascend_pt"
	compare samples-step-50 "$S/rank0_ascend_pt" "$S/rank1_ascend_pt" 50
	overall samples-overall "$S/rank0_ascend_pt" "$S/rank1_ascend_pt"
	overall samples-overall-reversed "$S/rank1_ascend_pt" \
	    "$S/rank0_ascend_pt"
	ops samples-ops "$S/rank0_ascend_pt" "$S/rank1_ascend_pt"
	cp -R "$SAMPLES/msinsight-pt-db/level1" "$T/db" &&
	    chmod -R u+w "$T/db" || exit 1
	D="$T/db"
	rm -rf "$T/db.out" && mkdir "$T/db.out"
	"$PY" -c 'import sys
from msprof_analyze.cli.entrance import msprof_analyze_cli
sys.argv = ["msprof-analyze", "compare", "-bp", sys.argv[1], "-d",
    sys.argv[2], "--output_path", sys.argv[3],
    "--enable_communication_compare"]
msprof_analyze_cli()' "$D/rank0_ascend_pt" "$D/rank1_ascend_pt" \
	    "$T/db.out" >/dev/null 2>&1
	"$NPUPROF" show -q --compare --format csv "$D/rank0_ascend_pt" \
	    "$D/rank1_ascend_pt" communication_compare >"$T/db.comm.csv"
	"$PY" "$top_srcdir/tools/compare-sheet.py" --close \
	    "$T/db.comm.csv" "$T/db.out"/*.xlsx CommunicationCompare
	ok $? "database exports: communication_compare as msprof-analyze"
	ops samples-db-ops "$D/rank0_ascend_pt" "$D/rank1_ascend_pt"
	overall samples-db-overall "$D/rank0_ascend_pt" "$D/rank1_ascend_pt"
	ops samples-ops-step-50 "$S/rank0_ascend_pt" "$S/rank1_ascend_pt" 50
fi
done_testing
