#!/bin/sh
# A cluster kept as a store per rank (--stores rank, -j): each profile's
# store is where `import PROFILE` puts it, built by parallel imports; the
# cluster's own store holds the statistics, steps, communication and
# cluster tables; every table (cluster, statistics, tasks, with or without
# --rank, --limit, --step, --filter) prints the same rows as the one-store
# import of the same folder; a changed profile is the only one imported
# again, a store built beforehand (as srun would) is kept; a profile that
# cannot be imported is a warning and the others load; a missing rank
# store is made again (a gone or overwritten one, by the next show); a
# rank in two profiles is an error for that rank; sorted rows of every
# rank merge in the sort's order; export and stacks ask for --rank; a
# set is a run of --compare.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
here="$top_srcdir/tests/cluster"
"$PY" "$here/gen-cluster.py" "$T/c" --ranks 4 --seed 3 --parallel 2,2 \
    --tasks 300 || skip_all "cannot generate a cluster"
r1="$T/c/node_1_18_ascend_pt"

# A profile imported on its own first, as `srun npuprof-tui import` does.
"$NPUPROF" import -q "$r1"
ok $? "one rank imported on its own"
before=$(stat -c %Y.%s "$r1/npuprof-tui.db")
sleep 1
"$NPUPROF" import --stores rank -j 2 "$T/c" >"$T/out" 2>"$T/err"
ok $? "import --stores rank -j 2"
n=$(ls "$T"/c/*/npuprof-tui.db | wc -l)
is "$n" 4 "a store beside each profile"
test -f "$T/c/npuprof-tui.db"
ok $? "and the cluster's own"
grep -q 'importing 3 of 4 profiles into stores of their own, 2 at a time' \
    "$T/err"
ok $? "the three not yet imported, two at a time"
grep -q '1 of 4 profiles' "$T/err"
ok $? "the one built before is kept"
is "$(stat -c %Y.%s "$r1/npuprof-tui.db")" "$before" "and not rewritten"
is "$(q "$T/c/npuprof-tui.db" "SELECT value FROM meta WHERE key = 'stores'")" \
    rank "the store says it is a set"
is "$(q "$T/c/npuprof-tui.db" "SELECT count(*) FROM task")" 0 \
    "and holds no task of any rank"
is "$(q "$T/c/npuprof-tui.db" "SELECT group_concat(rank) FROM (SELECT rank
    FROM rank_store ORDER BY rank)")" "0,1,2,3" "rank_store names four ranks"

"$NPUPROF" import -q --stores one --db "$T/one.db" "$T/c"
ok $? "the same folder into one store"
for args in cluster_step_trace_time cluster_communication \
    cluster_communication_matrix cluster_communication_bandwidth \
    cluster_findings op_statistic steps communication kernels \
    "kernels --rank 2" "kernels --limit 450" "kernels --step 4" \
    "task_time --rank 3" "kernels --filter Cast --limit 7" \
    "op_statistic --rank 1" "cluster_communication --rank 2" \
    "cluster_findings --step 3" "cluster_step_trace_time --step 4" \
    "op_statistic --step 3" "op_statistic --step 3 --rank 1" \
    "cluster_findings --step 3 --rank 1" "kernels --device 1"; do
	"$NPUPROF" show -q --format csv "$T/c" $args >"$T/set.csv"
	"$NPUPROF" show -q --format csv --db "$T/one.db" "$T/c" $args \
	    >"$T/one.csv"
	same_file "$T/set.csv" "$T/one.csv" "show $args: as from one store"
done
is "$(sed 1d "$T/set.csv" | wc -l)" 300 "kernels of one device: one rank's"
# A set as a run of --compare: its rank's store is compared, and both
# stores are closed once.
cp -r "$T/c" "$T/c1"
"$NPUPROF" import -q --stores one "$T/c1" 2>/dev/null
for t in kernel_compare op_statistic_compare; do
	"$NPUPROF" show -q --format csv --compare --rank 2 "$T/c" "$T/c1" $t \
	    >"$T/set.csv"
	ok $? "show --compare --rank 2 of a set and one store: $t"
	"$NPUPROF" show -q --format csv --compare --rank 2 "$T/c1" "$T/c1" \
	    $t >"$T/one.csv"
	same_file "$T/set.csv" "$T/one.csv" "$t: as of the one store with itself"
done
"$NPUPROF" show -q --format csv "$T/c" kernels >"$T/all.csv"
is "$(head -1 "$T/all.csv" | cut -d, -f1)" Rank "every rank: a Rank column"
is "$(sed 1d "$T/all.csv" | cut -d, -f1 | uniq | tr '\n' ' ')" "0 1 2 3 " \
    "rows rank by rank"

# Only the changed profile is imported again.
touch "$T/c/node_2_19_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" import --stores rank "$T/c" >"$T/out" 2>"$T/err"
ok $? "import after one profile changed"
grep -q 'importing 1 of 4 profiles' "$T/err"
ok $? "only that profile is imported again"
grep -q '3 of 4 profiles' "$T/err"
ok $? "the other three stores are kept"
"$NPUPROF" import --stores rank "$T/c" >"$T/out" 2>"$T/err"
is "$(cat "$T/err")" "" "nothing to do when all is current"

"$NPUPROF" show -q --format csv "$T/c" tables >"$T/t.csv"
grep -q '^op_summary,' "$T/t.csv"
ok $((! $?)) "tables of a set: no task tables among all ranks'"
"$NPUPROF" show -q --format csv --rank 2 "$T/c" tables >"$T/t.csv"
is "$(grep '^op_summary,' "$T/t.csv")" "op_summary,Op Summary,300" \
    "tables --rank 2: the rank's task tables too, with its counts"
grep -q '^cluster_findings,' "$T/t.csv"
ok $? "and the cluster's tables"

# --stores auto (the default) keeps a set a set, however small.
touch "$T/c/node_0_17_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" show -q "$T/c" op_statistic >/dev/null
is "$(q "$T/c/npuprof-tui.db" "SELECT value FROM meta WHERE key = 'stores'")" \
    rank "a changed profile, default --stores: still a set"
is "$(q "$T/c/npuprof-tui.db" "SELECT count(*) FROM task")" 0 \
    "still without task rows"

# A rank's store deleted: the set is current no more, the store is made.
mv "$r1/npuprof-tui.db" "$T/r1.db"
"$NPUPROF" import "$T/c" >"$T/out" 2>"$T/err"
grep -q "re-importing .*node_1_18_ascend_pt' is" "$T/err"
ok $? "a rank's store gone: the set is imported again, naming it"
grep -q 'importing 1 of 4 profiles' "$T/err"
ok $? "that profile alone"
test -f "$r1/npuprof-tui.db"
ok $? "its store is back"
printf 'garbage' >"$r1/npuprof-tui.db"
"$NPUPROF" show -q --rank 1 --format csv --limit 2 "$T/c" kernels \
    >"$T/out" 2>"$T/err"
is "$(wc -l <"$T/out")" 3 "a rank's store overwritten: rebuilt, its kernels"

# Sorted across ranks: the rows of every rank merged in the sort's order.
for args in "--sort -Duration,Task Start,Rank --limit 7" \
    "--sort Name,Rank --limit 5" "--sort -Duration,Task Start,Rank"; do
	"$NPUPROF" show -q --format csv "$T/c" kernels $args >"$T/set.csv"
	"$NPUPROF" show -q --format csv --db "$T/one.db" "$T/c" kernels \
	    $args >"$T/one.csv"
	same_file "$T/set.csv" "$T/one.csv" "kernels $args: as one store"
done
"$NPUPROF" show -q --format json "$T/c" kernels op_statistic --limit 1 |
    grep -q '^  "op_summary": \['
ok $? "JSON of several tables: the kernels under their name, op_summary"

# Export and stacks need a rank's store.
"$NPUPROF" show -q "$T/c" stacks >"$T/out" 2>"$T/err"
is $? 2 "stacks of every rank: a usage error"
grep -q 'give --rank N' "$T/err"
ok $? "that says to give --rank"
"$NPUPROF" show -q --rank 1 "$T/c" stacks >"$T/set.txt"
"$NPUPROF" show -q --rank 1 --db "$T/one.db" "$T/c" stacks >"$T/one.txt"
same_file "$T/set.txt" "$T/one.txt" "stacks --rank 1: as from one store"
"$NPUPROF" export -q --rank 2 --output "$T/ex" summary "$T/c"
ok $? "export summary --rank 2"
test -s "$T/ex/op_statistic_0.csv" || test -n "$(ls "$T/ex")"
ok $? "writes the rank's files"
# As one store writes them: the cluster's tables of the rank too (they
# were left out), the same files with the same rows.
"$NPUPROF" export -q --rank 2 --db "$T/one.db" --output "$T/ex1" summary \
    "$T/c"
files() { ls "$1" | sed 's/_[0-9]*\.csv$//; s/_[0-9]*\.json$//' | sort; }
is "$(files "$T/ex" | tr '\n' ' ')" "$(files "$T/ex1" | tr '\n' ' ')" \
    "export summary --rank 2 of a set: the files one store writes"
is "$(cat "$T"/ex/cluster_*.csv | md5sum)" \
    "$(cat "$T"/ex1/cluster_*.csv | md5sum)" "the cluster's rows of rank 2"
# Two exports in one command (the cluster's files, the rank's): one stamp.
is "$(ls "$T/ex" | sed -n 's/.*_\([0-9]\{14\}\)\.[a-z]*$/\1/p' | sort -u |
    wc -l | tr -d ' ')" 1 "every file has the one time stamp"

# A rank's store gone while the set is open: an error naming it.
mv "$r1/npuprof-tui.db" "$T/r1.db"
"$NPUPROF" show -q --rank 1 --format csv "$T/c" kernels >"$T/out" 2>"$T/err"
ok $? "show again: the store is made anew, not an error"
is "$(sed 1d "$T/out" | wc -l)" 300 "with the rank's 300 kernels"

# Two runs of one rank: a warning at import, an error for the rank.
cp -r "$r1" "$T/c/node_1_dup_ascend_pt"
"$NPUPROF" import --stores rank "$T/c" >"$T/out" 2>"$T/err"
grep -q 'rank 1 again' "$T/err"
ok $? "a rank in two profiles: a warning"
"$NPUPROF" show -q --rank 1 "$T/c" kernels >"$T/out" 2>"$T/err"
ok $((! $?)) "the kernels of that rank: an error, not one run's alone"
grep -q 'rank 1 is in 2 profiles' "$T/err"
ok $? "that says so"
rm -rf "$T/c/node_1_dup_ascend_pt"

# A profile that cannot be imported: a warning, the others load.
rm -rf "$T/c/node_3_20_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir "$T/c/node_3_20_ascend_pt/ASCEND_PROFILER_OUTPUT"
"$NPUPROF" import --stores rank "$T/c" >"$T/out" 2>"$T/err"
ok $? "import with a profile that holds nothing"
grep -q 'node_3_20_ascend_pt: not imported' "$T/err"
ok $? "is a warning naming it"
is "$(q "$T/c/npuprof-tui.db" "SELECT group_concat(rank) FROM (SELECT rank
    FROM rank_store ORDER BY rank)")" "0,1,2" "the other three ranks load"
"$NPUPROF" show -q "$T/c" warnings >"$T/out"
grep -q 'not imported' "$T/out"
ok $? "and the warning is kept in the store"

# --stores one on a set: one store again.
"$NPUPROF" import -q --stores one "$T/c"
is "$(q "$T/c/npuprof-tui.db" "SELECT count(*) FROM meta WHERE
    key = 'stores'")" 0 "--stores one rebuilds a set as one store"
"$NPUPROF" import -q --stores bad "$T/c" 2>"$T/err"
is $? 2 "a bad --stores is a usage error"
"$NPUPROF" import -q -j 0 "$T/c" 2>"$T/err"
is $? 2 "so is -j 0"
done_testing
