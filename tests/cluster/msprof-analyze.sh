#!/bin/sh
# The cluster tables against msprof-analyze itself, when it is installed
# (python3 -c 'import msprof_analyze' works, or MSPROF_ANALYZE names a
# source tree of it): its cluster analysis of generated clusters and of
# the two-rank samples, compared by tools/cluster-compare.py. Skipped
# where the tool is not there, as on a clean machine.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
need_msprof_analyze

analyze() {	# analyze DIR OUT
	"$PY" -c 'import sys
from msprof_analyze.cli.entrance import msprof_analyze_cli
sys.argv = ["msprof-analyze", "cluster", "-d", sys.argv[1], "-m", "all",
    "-o", sys.argv[2]]
msprof_analyze_cli()' "$1" "$2" >/dev/null 2>&1
}

compare() {	# compare DIR NAME
	for t in cluster_communication cluster_communication_matrix \
	    cluster_step_trace_time cluster_communication_bandwidth; do
		"$NPUPROF" show -q --db "$T/$2.db" --format csv "$1" $t \
		    >"$T/$2.$t.csv"
	done
	analyze "$1" "$T/$2.out"
	"$PY" "$top_srcdir/tools/cluster-compare.py" \
	    "$T/$2.out/cluster_analysis_output" \
	    "$T/$2.cluster_communication.csv" \
	    "$T/$2.cluster_communication_matrix.csv" \
	    "$T/$2.cluster_step_trace_time.csv" \
	    "$T/$2.cluster_communication_bandwidth.csv" >"$T/$2.cmp"
	ok $? "$2: equal to msprof-analyze"
	sed 's/^/# /' "$T/$2.cmp"
}

for c in "4 2 --lost" "8 5" "6 9 --lost" "16 5 --parallel=2,4" \
    "8 3 --parallel=2,2"; do
	set -- $c
	"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/g$1" \
	    --ranks "$1" --seed "$2" ${3:-} || exit 1
	compare "$T/g$1" "generated-$1-ranks"
done
if [ -d "$SAMPLES/msinsight-pt-text/level1" ]; then
	# The tool wants the rank folders named *_ascend_pt.
	mkdir -p "$T/td"
	cp -R "$SAMPLES/msinsight-server-testdata/test_rank_0" \
	    "$T/td/r0_1_ascend_pt"
	cp -R "$SAMPLES/msinsight-server-testdata/test_rank_1" \
	    "$T/td/r1_1_ascend_pt"
	cp -R "$SAMPLES/msinsight-pt-text/level1" "$T/l1"
	chmod -R u+w "$T/td" "$T/l1"
	compare "$T/l1" level1
	compare "$T/td" testdata
fi
done_testing
