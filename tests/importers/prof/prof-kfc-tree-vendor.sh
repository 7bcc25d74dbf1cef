#!/bin/sh
# The node that launches an AI CPU HCCL op's kernels (prof_hccl_kfc_span,
# which names the op after its host HCCL op) against the vendor's own
# tree builder, where its sources are at hand (a development check:
# skipped on a clean machine). MSPROF_SRC names the analysis/ folder of a
# source tree of github.com/Ascend/msprof. kfc-tree-vendor.py makes
# random sets of spans of the levels the importer keeps (nested ones,
# crossing ones, and ones on a few instants, many starting or ending
# together), has the vendor's CANNAnalysisChain.build_tree mark each
# node's last node right inside, and asks t-prof-hccl --spans for ours:
# they must agree on every set.
. "$top_srcdir/tests/lib.sh"

need_msprof_src mscalculate/cann
harness="$top_builddir/tests/importers/prof/t-prof-hccl"

for m in nested:1 crossing:2 ties:3; do
	out=$("$PY" "$top_srcdir/tests/importers/prof/kfc-tree-vendor.py" \
	    "$harness" "${m%%:*}" 2000 "${m#*:}")
	ok $? "${m%%:*}: the vendor's tree builder ran"
	is "$(echo "$out" | head -n 1)" "2000 cases, 0 different" \
	    "${m%%:*}: the same last node as the vendor's on every set"
done

done_testing
