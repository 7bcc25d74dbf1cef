#!/bin/sh
# The smoke run of the fuzz targets: each decoder family (the legacy JOB
# twice, text and binary; the cluster tables where python3 can make a
# cluster; raw PROF six times: 910B with PMU and memory samples, 910B
# with AI CPU runs on two devices, one of them nested in a host HCCL op,
# and V2 task_track records, chip V6, 910B with HCCL ops, FFTS+ ones too,
# and un-analysed torch_npu (with memory samples) and MindSpore folders
# with their FRAMEWORK/ records)
# runs its seeds
# and then 150 mutations of them (a fixed random seed, so a failure
# repeats) without a crash, a hang or a sanitizer report (under
# --enable-asan). make fuzz runs the same targets for longer.
. "$top_srcdir/tests/lib.sh"
FUZZ="$top_builddir/tests/fuzz/npuprof-fuzz"
runs=${FUZZ_SMOKE_RUNS:-150}

"$GEN" prof "$T/base/prof" -s 5 -n 60 -p -K >/dev/null || exit 1
"$GEN" prof "$T/base/prof-cpu" -s 6 -n 60 -C -2 -d 2 -N >/dev/null ||
    exit 1
"$GEN" prof "$T/base/prof-v6" -s 7 -n 60 -c 950 >/dev/null || exit 1
"$GEN" prof "$T/base/prof-hccl" -s 8 -n 80 -L -T 2 >/dev/null || exit 1
"$GEN" prof "$T/base/prof-torch" -s 9 -n 40 -T 2 -Y -K >/dev/null ||
    exit 1
"$GEN" prof "$T/base/prof-ms" -s 10 -n 40 -T 2 -Z >/dev/null || exit 1
"$GEN" prof "$T/base/prof-ms25" -s 12 -n 40 -T 2 -O >/dev/null || exit 1
"$GEN" job "$T/base/job" -n 20 --pmu >/dev/null || exit 1
"$GEN" job "$T/base/job-binary" -n 20 --pmu --binary >/dev/null || exit 1
"$GEN" legacy-timeline "$T/base/timeline" -n 10 >/dev/null || exit 1
targets="csv trace db prof prof-cpu prof-v6 prof-hccl prof-torch prof-ms"
targets="$targets prof-ms25 job"
targets="$targets job-binary timeline"
# A two-rank cluster, where python3 can write one.
if "${PYTHON3:-python3}" "$top_srcdir/tests/cluster/gen-cluster.py" \
    "$T/base/cluster" --ranks 2 --seed 4 --parallel 1,2 >/dev/null 2>&1
then
	targets="$targets cluster"
fi
for t in $targets; do
	ft=$t
	case $t in job-binary) ft=job ;; prof-*) ft=prof ;; esac
	base=
	case $t in prof|prof-*|job|job-binary|timeline|cluster)
		base="-b $T/base/$t" ;;
	esac
	# shellcheck disable=SC2086
	"$FUZZ" "$ft" $base -w "$T/seeds/$t" >"$T/out" 2>&1
	ok $? "$t: seeds written"
	# shellcheck disable=SC2086
	timeout 600 "$FUZZ" "$ft" $base -n "$runs" -s 7 -o "$T/crash/$t" \
	    "$T/seeds/$t" >"$T/out" 2>&1
	st=$?
	ok $st "$t: $runs mutated inputs run clean"
	if [ $st -ne 0 ]; then
		tail -n 20 "$T/out" | sed 's/^/#   /'
		[ -f "$T/crash/$t/current" ] &&
		    cp "$T/crash/$t/current" "$top_builddir/fuzz-crash-$t" &&
		    echo "#   input kept in $top_builddir/fuzz-crash-$t"
	fi
done
done_testing
