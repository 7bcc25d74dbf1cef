#!/bin/sh
# A cluster of raw PROF_* collections (doc/formats.md sections 8.5, 8.7
# and 8.8): four generated ranks (npuprof-gen prof -L -r R/4, peers of
# one another) whose communication, communication_matrix and
# step_trace_time are computed at import from their HCCL tasks. The
# cluster tables must be those cluster-ref.py computes from the torch_npu
# files hccl-expect.py writes for the same numbers, and findings come out
# of them; with -j 2 and a set of stores too.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
tables="cluster_communication cluster_communication_matrix
    cluster_step_trace_time cluster_communication_bandwidth"

mkdir -p "$T/out"
for r in 0 1 2 3; do
	"$GEN" prof "$T/raw/r$r" -L -T 1 -s $((90 + r)) -n 1500 -r $r/4 \
	    -e "$T/want$r"
	ok $? "rank $r generated"
	"$PY" "$top_srcdir/tests/importers/prof/hccl-expect.py" --torch $r \
	    "$T/want$r" "$T/ref/rank$r"
	ok $? "rank $r: its torch_npu files written"
done
"$PY" "$top_srcdir/tests/cluster/cluster-ref.py" "$T/ref" "$T/out"
ok $? "reference cluster tables computed"

for t in $tables; do
	"$NPUPROF" show -q --db "$T/c.db" --format csv "$T/raw" $t \
	    >"$T/$t.csv"
	ok $? "$t shown"
	same_file "$T/$t.csv" "$T/out/$t.csv" "$t as the reference"
done
n=$(grep -c '^slow link,' "$(
	"$NPUPROF" show -q --db "$T/c.db" --format csv "$T/raw" \
	    cluster_findings >"$T/find.csv"; echo "$T/find.csv")")
[ "$n" -gt 0 ]
ok $? "cluster_findings names slow links ($n)"
is "$("$NPUPROF" show -q --db "$T/c.db" --format csv "$T/raw" info |
    grep -c '^ranks,4$')" 1 "info: four ranks"

# The same as a set of per-rank stores, built two at a time.
"$NPUPROF" import -q --stores rank -j 2 "$T/raw"
ok $? "import --stores rank -j 2"
for t in $tables; do
	"$NPUPROF" show -q --stores rank --format csv "$T/raw" $t \
	    >"$T/set.$t.csv"
	same_file "$T/set.$t.csv" "$T/out/$t.csv" "stores: $t"
done
done_testing
