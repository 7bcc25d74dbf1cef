#!/bin/sh
# A cluster kept as a store per rank: RANKS generated torch_npu ranks of
# TASKS kernels each (default 512 x 50,000, about 4.3 GB of CSV; set
# BENCH_CLUSTER_RANKS and BENCH_CLUSTER_TASKS for less) made by
# tests/cluster/gen-cluster.py with a Megatron layout tp 8, pp 4.
# Reports: the import of SCALE ranks (default 32) with -j 1 and -j
# <cores>, and their ratio (how the import scales with cores); the import
# of all ranks with -j <cores> (wall, CPU, the peak RSS of the largest
# process); the cluster view with the stores current, as the time to the
# first screen and to the findings; a rank's kernels from its store; and
# the import again after one rank changed. Deletes its files.
# usage: bench/cluster-stores.sh NPUPROF
. "$(dirname "$0")/lib.sh" "$@"
ranks=${BENCH_CLUSTER_RANKS:-512}
tasks=${BENCH_CLUSTER_TASKS:-50000}
scale=${BENCH_CLUSTER_SCALE:-32}
cores=$(getconf _NPROCESSORS_ONLN)
command -v python3 >/dev/null || { echo "bench/cluster-stores.sh: needs python3"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/npt-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
python3 "$here/../tests/cluster/gen-cluster.py" "$T/c" --ranks "$ranks" \
    --seed 1 --parallel 8,4 --tasks "$tasks"
mb=$(du -sm "$T/c" | cut -f1)
echo "$ranks ranks x $tasks kernels: $mb MB of input, $cores cores"

# Scaling: the first SCALE ranks, one import at a time, then all cores.
mkdir "$T/s"
for d in $(ls -d "$T"/c/*_ascend_pt | head -n "$scale"); do
	cp -r "$d" "$T/s/"
done
set -- $("$here/measure" "$NPUPROF" import -q --stores rank -j 1 "$T/s")
w1=$1
rm -f "$T"/s/*/npuprof-tui.db "$T/s/npuprof-tui.db"
set -- $("$here/measure" "$NPUPROF" import -q --stores rank -j "$cores" \
    "$T/s")
awk -v a="$w1" -v b="$1" -v n="$scale" -v c="$cores" 'BEGIN {
	printf "import of %d ranks: -j 1 %.2f s, -j %d %.2f s: %.2fx faster\n",
	    n, a, c, b, a / b }'
rm -rf "$T/s"

set -- $("$here/measure" "$NPUPROF" import -q --stores rank -j "$cores" \
    "$T/c")
awk -v s="$1" -v r="$2" -v c="$3" -v n="$ranks" -v t="$tasks" 'BEGIN {
	printf "import of all %d ranks: %.1f s wall, %.1f CPU-s", n, s, c
	printf " (wall %.2f of CPU), %.0f kernels/s,", s / c, n * t / s
	printf " peak RSS of one process %.0f MB\n", r }'
db=$(du -sm "$T/c/npuprof-tui.db" | cut -f1)
all=$(du -cm "$T"/c/*/npuprof-tui.db | tail -1 | cut -f1)
echo "stores: the cluster's $db MB, the ranks' $all MB in all"

set -- $("$here/measure" "$NPUPROF" show -q "$T/c" cluster_findings)
echo "show cluster_findings (stores current): $1 s, peak RSS $2 MB"
printf '0\n' >"$T/keys"
TERM=xterm LINES=50 COLUMNS=160 "$here/measure" "$NPUPROF" \
    --replay "$T/keys" "$T/c" </dev/null 2>"$T/report" >"$T/rss" || true
set -- $(cat "$T/rss")
echo "UI on the Cluster view (stores current): $1 s to quit," \
    "first screen $(sed -n 's/^first-screen-ms //p' "$T/report") ms," \
    "peak RSS $2 MB"
set -- $("$here/measure" "$NPUPROF" show -q --rank 7 --sort -Duration \
    --limit 10 "$T/c" kernels)
echo "show --rank 7 --sort -Duration --limit 10 kernels: $1 s"

touch "$T"/c/node_5_*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
set -- $("$here/measure" "$NPUPROF" import -q --stores rank "$T/c")
echo "import after one rank changed: $1 s wall (one rank imported again)"
echo "(reproduce: python3 tests/cluster/gen-cluster.py DIR --ranks $ranks" \
    "--parallel 8,4 --tasks $tasks; bench/measure $NPUPROF import -q" \
    "--stores rank -j $cores DIR)"
