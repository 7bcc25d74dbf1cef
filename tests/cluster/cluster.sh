#!/bin/sh
# The cluster tables of a store of several ranks, as msprof-analyze's
# cluster analysis writes them: cluster_step_trace_time,
# cluster_communication (with the per-group "Total Op Info" rows) and
# cluster_communication_matrix (links summed over ranks, local ranks made
# global), checked cell for cell against cluster-ref.py, a Python
# rendering of the tool's arithmetic, on a generated cluster and on the
# two-rank samples; links whose local rank has no global one are left out
# with a warning; --rank keeps a rank's rows; one rank has no cluster; a
# rank that comes twice, or ranks missing below the highest, a warning. cluster_findings names an injected
# slow rank, its straggling and a slow link, with their numbers.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
here="$top_srcdir/tests/cluster"
tables="cluster_communication cluster_communication_matrix
    cluster_step_trace_time cluster_communication_bandwidth"

check() {	# check DIR NAME: our tables against the reference
	rm -rf "$T/ref" && mkdir "$T/ref"
	"$PY" "$here/cluster-ref.py" "$1" "$T/ref" || return 1
	for t in $tables; do
		"$NPUPROF" show -q --db "$T/$2.db" --format csv "$1" $t \
		    >"$T/$2.$t.csv"
		same_file "$T/$2.$t.csv" "$T/ref/$t.csv" \
		    "$2: $t as msprof-analyze computes it"
	done
}

"$PY" "$here/gen-cluster.py" "$T/c" --ranks 4 --seed 2 --lost ||
    skip_all "cannot generate a cluster"
"$NPUPROF" import --db "$T/gen.db" "$T/c" 2>"$T/err"
ok $? "import of a generated 4-rank cluster"
"$NPUPROF" show -q --db "$T/gen.db" --format csv "$T/c" info >"$T/info"
is "$(grep -c '^rank_id,' "$T/info"):$(grep '^ranks,' "$T/info")" \
    "0:ranks,4" "info: four ranks, and no one profile's rank_id as the store's"
check "$T/c" gen
grep -Eq 'cluster_communication_matrix: [0-9]+ links left out: no rank' \
    "$T/err"
ok $? "links without a global rank: one warning with their count"
is "$(grep -c 'links left out' "$T/err")" 1 "and only one"
is "$(sed 1d "$T/gen.cluster_communication.csv" | grep -c 'Total Op Info@')" \
    24 "a Total Op Info row per step, group and rank (2 x 3 x 4)"
is "$("$NPUPROF" show -q --db "$T/gen.db" --format csv --rank 2 "$T/c" \
    cluster_communication | sed 1d | awk -F, '{ print $(NF - 8) }' |
    sort -u)" 2 "--rank 2: rank 2's rows only"
"$NPUPROF" show -q --db "$T/gen.db" --format csv "$T/c" \
    cluster_communication | head -1 | grep -q '^Rank Set,Step,Op Name,Rank,'
ok $? "the cluster tables name the rank themselves, no Rank column first"

# A pipeline-parallel layout (tp 2, pp 2, dp 2): stage rows, the most of
# each column over a stage's ranks, and each rank's DP, PP and TP Index.
"$PY" "$here/gen-cluster.py" "$T/p" --ranks 8 --seed 3 --parallel 2,2 ||
    exit 1
check "$T/p" parallel
is "$(grep ',stage,' "$T/parallel.cluster_step_trace_time.csv" |
    cut -d'"' -f1,2 | tr '\n' ' ')" \
    '3,stage,"(0, 1, 2, 3) 4,stage,"(0, 1, 2, 3) 3,stage,"(4, 5, 6, 7) 4,stage,"(4, 5, 6, 7) ' \
    "two stages, each step"
head -1 "$T/parallel.cluster_step_trace_time.csv" |
    grep -q ',DP Index,PP Index,TP Index$'
ok $? "DP, PP and TP Index columns"
grep -q '^3,rank,5,.*,0,1,1$' "$T/parallel.cluster_step_trace_time.csv"
ok $? "rank 5 is DP 0, PP 1, TP 1"
"$NPUPROF" show -q --db "$T/parallel.db" --format csv "$T/p" \
    parallel_group_info | awk -F, '$1 == 5' | wc -l >"$T/n"
is "$(cat "$T/n")" 3 "parallel_group_info: rank 5's three groups"

# Findings on a cluster with a slow rank (the last) and a slow link
# (rank 0 to 1): each named, with its numbers, and nothing else is.
"$PY" "$here/gen-cluster.py" "$T/f" --ranks 8 --seed 4 --slow-link || exit 1
fshow() { "$NPUPROF" show -q --db "$T/f.db" --format csv "$T/f" "$@"; }
fshow cluster_findings >"$T/find"
is "$(awk -F, '$1 == "slow rank" { print $2 ":" $3 ":" $5 }' "$T/find" |
    tr '\n' ' ')" "3:7:Computing 4:7:Computing " \
    "slow rank: rank 7's computing, in each step, and no other"
want=$(fshow cluster_step_trace_time | awk -F, '$1 == 3 && $2 == "rank" &&
    $3 == 7 { printf "%.4f", $4 }')
is "$(awk -F, '$1 == "slow rank" && $2 == 3 { printf "%.4f", $6 }' \
    "$T/find")" "$want" "with its computing time ($want us)"
is "$(awk -F, '$1 == "straggler" { print $2 ":" $3 ":" $4 }' "$T/find" |
    tr '\n' ' ')" "3:7:10004 4:7:10004 " \
    "straggler: the others wait for rank 7 in the world group"
is "$(awk -F, '$1 == "slow link" { print $2 ":" $4 }' "$T/find" |
    tr '\n' ' ')" "3:0-1 10004 4:0-1 10004 " \
    "slow link: 0-1, in each step, and no other"
is "$(awk -F, '$1 == "high wait" && $3 == 7' "$T/find" | wc -l)" 0 \
    "the slow rank does not wait"
is "$(awk -F, '$1 == "high wait"' "$T/find" | wc -l)" 14 \
    "the 7 others wait, in both steps"
grep -q 'rank 7 waits 0\.[0-9]* ms in group 10004 in step 3, the ranks' \
    "$T/find"
ok $? "each finding says why in words and numbers"

# The advice grades each finding by its own value against its threshold
# (under it for a straggler's wait and a link's bandwidth): high at twice.
awk -F, 'NR > 1 { r = $6 / $8; if ($1 == "straggler") r = $8 / $6
	if ($1 == "slow link") r = $8 / $6
	print (r >= 2 ? "high" : "medium") }' "$T/find" | sort >"$T/sev.want"
fshow advice | awk -F, '$3 == "cluster" { print $1 }' | sort >"$T/sev.got"
same_file "$T/sev.got" "$T/sev.want" \
    "advice: cluster findings graded by their values"
grep -q high "$T/sev.got"
ok $? "the slow rank's among them high"

# --rank keeps the rows of a link either of whose ends is the rank: the
# matrix's by Src or Dst Rank, the slow link findings by their link.
fshow cluster_communication_matrix | sed 1d | sed 's/^"[^"]*",//' >"$T/mx"
want=$(awk -F, '$3 == 1 || $4 == 1' "$T/mx" | wc -l)
is "$(fshow --rank 1 cluster_communication_matrix | sed 1d | wc -l)" \
    "$want" "--rank 1: the matrix's links from or to rank 1 ($want)"
[ "$want" -gt 0 ]
ok $? "which are some"
is "$(fshow --rank 1 cluster_findings | awk -F, '$1 == "slow link"' |
    wc -l)" 2 "--rank 1: the slow link 0-1 findings"
is "$(fshow --rank 5 cluster_findings | awk -F, '$1 == "slow link"' |
    wc -l)" 0 "--rank 5: none"

# export summary: the cluster tables once, beside a folder per rank, all
# their rows.
"$NPUPROF" export summary -q --db "$T/f.db" --output "$T/fx" "$T/f"
ok $? "export summary of the cluster"
for t in cluster_communication_matrix cluster_findings; do
	is "$(cat "$T"/fx/${t}_*.csv | sed 1d | wc -l)" \
	    "$(fshow $t | sed 1d | wc -l)" "$t: written once, every row"
done
is "$(ls "$T"/fx/rank_0 | grep -c '^cluster_')" 0 "none in a rank's folder"

# One rank of it is not a cluster.
"$NPUPROF" show -q --db "$T/one.db" "$T/c/node_0_17_ascend_pt" \
    cluster_communication >/dev/null 2>&1
is $? 2 "one rank: no cluster tables"

# Two runs of the same rank in one folder: said, with both folders.
cp -R "$T/c/node_1_18_ascend_pt" "$T/c/node_1_99_ascend_pt"
"$NPUPROF" import --db "$T/dup.db" "$T/c" 2>"$T/err"
grep -q "node_1_99_ascend_pt: rank 1 again, as in .*node_1_18_ascend_pt" \
    "$T/err"
ok $? "a rank twice: a warning names both folders"

# Ranks 1 and 2 of a 4-rank cluster left out: said, once.
"$PY" "$here/gen-cluster.py" "$T/m" --ranks 4 --seed 2 || exit 1
rm -rf "$T/m/node_1_18_ascend_pt" "$T/m/node_2_19_ascend_pt"
"$NPUPROF" import --db "$T/m.db" "$T/m" 2>"$T/err"
is "$(grep -c 'ranks: 2 ranks below 3 have no profile here (1, 2)' \
    "$T/err")" 1 "missing ranks: one warning naming them"

# Damaged layouts and names: sizes whose product wraps, a context size
# past the world, a rank id of 6e9, a vendor CSV named as a cluster
# table: the import goes on, says what it must, and takes no time.
"$PY" "$here/gen-cluster.py" "$T/x" --ranks 4 --seed 2 --parallel 2,2 ||
    exit 1
for f in "$T"/x/*/profiler_metadata.json; do
	"$PY" - "$f" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["distributed_args"].update(tensor_model_parallel_size=3,
    pipeline_model_parallel_size=6148914691236517207, data_parallel_size=1,
    world_size=5, context_parallel_size=100000000000000)
json.dump(m, open(sys.argv[1], "w"))
PY
done
printf '{"rank_id": 6000000000}' \
    >"$T/x/node_3_20_ascend_pt/profiler_info_3.json"
printf 'Step,Type\n1,x\n' \
    >"$T/x/node_0_17_ascend_pt/ASCEND_PROFILER_OUTPUT/cluster_step_trace_time.csv"
"$NPUPROF" import --db "$T/x.db" "$T/x" 2>"$T/err"
ok $? "a damaged layout imports"
"$NPUPROF" show -q --db "$T/x.db" --format csv "$T/x" \
    cluster_step_trace_time | head -1 | grep -qv 'DP Index'
ok $? "sizes that make no layout: no DP, PP, TP Index"
grep -q 'ranks: 5999999997 ranks below 6000000000 have no profile here (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ...)' "$T/err"
ok $? "a rank id of 6e9: the missing ranks counted, ten named"
is "$(q "$T/x.db" 'SELECT count(*) FROM cluster_step_trace_time_csv')" 1 \
    "a CSV named cluster_step_trace_time is kept apart"
# The largest rank id there is: counted without overflow (UBSan).
"$PY" "$here/gen-cluster.py" "$T/y" --ranks 2 --seed 3 --tasks 20 || exit 1
printf '{"rank_id": 9223372036854775807}' \
    >"$T/y/node_1_18_ascend_pt/profiler_info_1.json"
"$NPUPROF" import --db "$T/y.db" "$T/y" 2>"$T/err"
ok $? "a rank id of INT64_MAX imports"
grep -q 'ranks: 9223372036854775806 ranks below 9223372036854775807 have' \
    "$T/err"
ok $? "and the ranks below it are counted"
# Ranks with steps but no communication files: none is missing.
rm -f "$T"/m/*/ASCEND_PROFILER_OUTPUT/communication*.json
"$PY" "$here/gen-cluster.py" "$T/s" --ranks 4 --seed 2 || exit 1
rm -f "$T"/s/*/ASCEND_PROFILER_OUTPUT/communication*.json
"$NPUPROF" import --db "$T/s.db" "$T/s" 2>"$T/err"
is "$(grep -c 'no profile here' "$T/err")" 0 \
    "steps without communication: no rank said missing"

# The real two-rank samples, when they are there.
if [ -d "$SAMPLES/msinsight-pt-text/level1" ]; then
	check "$SAMPLES/msinsight-pt-text/level1" level1
	check "$SAMPLES/msinsight-server-testdata" testdata
fi
done_testing
