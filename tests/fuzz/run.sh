#!/bin/sh
# make fuzz: run each fuzz target for SECONDS, seeded from the generators
# and the built-in seeds. With clang's libFuzzer (CC_FUZZ, else clang if
# it links -fsanitize=fuzzer), the targets are built here with ASan and
# UBSan and coverage-guided; otherwise the driver tests/fuzz/npuprof-fuzz
# mutates blindly. Corpora and crashes stay in fuzz/ of the build
# directory. usage: tests/fuzz/run.sh SECONDS [TARGET...]
# (make fuzz passes FUZZ_CFLAGS, FUZZ_PKGDATADIR, FUZZ_LIBS, FUZZ_SRCS.)
set -u
secs=${1:-60}
shift
targets=${*:-csv trace db prof prof-cpu prof-v6 prof-hccl prof-torch prof-ms
    prof-ms25 job job-binary timeline cluster}
gen=tools/gen/npuprof-gen
drv=tests/fuzz/npuprof-fuzz
out=fuzz
mkdir -p "$out/base"
[ -d "$out/base/prof" ] || "$gen" prof "$out/base/prof" -s 5 -n 300 -p -K \
    >/dev/null
# 910B with AI CPU runs (one nested in a host HCCL op) and V2 task_track
# records; chip V6.
[ -d "$out/base/prof-cpu" ] || "$gen" prof "$out/base/prof-cpu" -s 6 \
    -n 300 -C -2 -d 2 -N >/dev/null
[ -d "$out/base/prof-v6" ] || "$gen" prof "$out/base/prof-v6" -s 7 \
    -n 300 -c 950 >/dev/null
# 910B with HCCL ops (FFTS+ ones too) on two threads.
[ -d "$out/base/prof-hccl" ] || "$gen" prof "$out/base/prof-hccl" -s 8 \
    -n 300 -L -T 2 >/dev/null
# An un-analysed torch_npu folder: FRAMEWORK/ beside its PROF_*.
[ -d "$out/base/prof-torch" ] || "$gen" prof "$out/base/prof-torch" -s 9 \
    -n 200 -T 2 -Y -K >/dev/null
# An un-analysed MindSpore folder: FRAMEWORK/mindspore.op_range.
[ -d "$out/base/prof-ms" ] || "$gen" prof "$out/base/prof-ms" -s 10 \
    -n 200 -T 2 -Z >/dev/null
# The same of MindSpore 2.5: FRAMEWORK/op_range_<rank>.
[ -d "$out/base/prof-ms25" ] || "$gen" prof "$out/base/prof-ms25" -s 12 \
    -n 200 -T 2 -O >/dev/null
[ -d "$out/base/job" ] || "$gen" job "$out/base/job" -n 60 --pmu \
    >/dev/null
# The CANN-era JOB: binary GE records, hash ids, binary AI CPU records.
[ -d "$out/base/job-binary" ] || "$gen" job "$out/base/job-binary" -n 60 \
    --pmu --binary >/dev/null
[ -d "$out/base/timeline" ] || "$gen" legacy-timeline \
    "$out/base/timeline" -n 30 >/dev/null
[ -d "$out/base/csv" ] || "$gen" demo "$out/base/csv" -n 40 >/dev/null
[ -d "$out/base/cluster" ] ||
    python3 "$(dirname "$0")/../cluster/gen-cluster.py" \
    "$out/base/cluster" --ranks 2 --seed 4 --parallel 1,2 >/dev/null

cc=${CC_FUZZ:-}
if [ -z "$cc" ] && command -v clang >/dev/null; then
	echo 'int LLVMFuzzerTestOneInput(const char *d, long n){return 0;}' \
	    >"$out/probe.c"
	clang -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" \
	    2>/dev/null && cc=clang
	rm -f "$out/probe.c" "$out/probe"
fi
if [ -n "$cc" ]; then
	srcs=
	for f in ${FUZZ_SRCS:?}; do
		case $f in *.c) srcs="$srcs $f" ;; esac
	done
	# The make variable's quotes do not survive the environment.
	flags=
	for w in ${FUZZ_CFLAGS:?}; do
		case $w in -DPKGDATADIR=*) ;; *) flags="$flags $w" ;; esac
	done
	flags="$flags -DPKGDATADIR=\"${FUZZ_PKGDATADIR:-/nonexistent}\""
	echo "building the libFuzzer targets with $cc"
	# shellcheck disable=SC2086
	$cc -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined -std=gnu99 $flags \
	    -Wno-everything $srcs ${FUZZ_LIBS:?} -o "$out/npuprof-fuzz-lf" ||
	    exit 1
fi

status=0
for t in $targets; do
	mkdir -p "$out/corpus/$t" "$out/crash/$t"
	# job-binary is the job target on the binary JOB, prof-* the prof
	# target on other raw collections.
	ft=$t
	case $t in job-binary) ft=job ;; prof-*) ft=prof ;; esac
	base=
	case $t in prof|prof-*|job|job-binary|timeline|cluster)
		base="-b $out/base/$t" ;;
	esac
	# shellcheck disable=SC2086
	"$drv" "$ft" $base -w "$out/corpus/$t" || exit 1
	if [ "$t" = csv ]; then
		f=$(find "$out/base/csv" -name kernel_details.csv | head -n 1)
		{ printf '\000'; cat "$f"; } >"$out/corpus/csv/seed-demo"
	fi
	if [ "$t" = trace ]; then
		i=0
		for f in "$out/base/timeline"/*/timeline/*.json; do
			cp "$f" "$out/corpus/trace/seed-timeline-$i"
			i=$((i + 1))
		done
	fi
	if [ -n "$cc" ]; then
		echo "== $t: libFuzzer, $secs s"
		# A whole-profile input is mutated at its full length from
		# the start, not grown from a few bytes.
		lc=
		[ -n "$base" ] && lc=-len_control=0
		# shellcheck disable=SC2086
		FUZZ_TARGET=$ft FUZZ_BASE=$out/base/$t "$out/npuprof-fuzz-lf" \
		    -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
		    -artifact_prefix="$out/crash/$t/" -print_final_stats=1 \
		    $lc "$out/corpus/$t" 2>"$out/$t.log"
		st=$?
		grep -E 'stat::number_of_executed_units|stat::peak_rss|cov:' \
		    "$out/$t.log" | tail -n 3
	else
		echo "== $t: driver (no libFuzzer), $secs s"
		# shellcheck disable=SC2086
		"$drv" "$ft" $base -t "$secs" -o "$out/crash/$t" \
		    -s "$(date +%s)" "$out/corpus/$t"
		st=$?
	fi
	if [ $st -ne 0 ]; then
		echo "$t: FAILED (exit $st); the input is in $out/crash/$t"
		status=1
	fi
done
exit $status
