#!/bin/sh
# The cluster tables at scale: a torch_npu cluster of RANKS ranks (default
# 512) made by tests/cluster/gen-cluster.py (each rank's
# communication.json, communication_matrix.json and step_trace_time.csv,
# with a Megatron layout tp 8, pp 4), imported on one core; reports the
# import, the share the cluster tables take (the same import with every
# rank's communication files out of the way is the rest) and peak RSS.
# Deletes its files.
# usage: bench/cluster.sh NPUPROF [RANKS]
set -eu
npuprof=${1:?usage: bench/cluster.sh NPUPROF [RANKS]}
ranks=${2:-512}
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "bench/cluster.sh: needs python3"; exit 0; }
d=$(mktemp -d "${TMPDIR:-/tmp}/npt-bench.XXXXXX")
trap 'rm -rf "$d"' EXIT
python3 "$here/../tests/cluster/gen-cluster.py" "$d/c" --ranks "$ranks" \
    --seed 1 --parallel 8,4
mb=$(du -sm "$d/c" | cut -f1)
set -- $("$here/measure" "$npuprof" import -q --db "$d/c.db" "$d/c")
echo "import of $ranks ranks ($mb MB of JSON and CSV): $1 s wall, $3 CPU-s, peak RSS $2 MB"
# Without the communication files: steps and their cluster table only.
for f in "$d"/c/*/ASCEND_PROFILER_OUTPUT/communication*.json; do
	mv "$f" "$f.off"
done
set -- $("$here/measure" "$npuprof" import -q --db "$d/s.db" "$d/c")
echo "the same without communication files: $1 s wall, $3 CPU-s (the rest is reading them and the communication cluster tables)"
for f in "$d"/c/*/ASCEND_PROFILER_OUTPUT/communication*.json.off; do
	mv "$f" "${f%.off}"
done
set -- $("$here/measure" "$npuprof" show -q --db "$d/c.db" "$d/c" \
    cluster_findings)
echo "show cluster_findings (store current): $1 s, peak RSS $2 MB"
"$npuprof" show -q --db "$d/c.db" "$d/c" tables | grep cluster_
echo "(reproduce: python3 tests/cluster/gen-cluster.py DIR --ranks $ranks --parallel 8,4; bench/measure $npuprof import -q --db S.db DIR)"
