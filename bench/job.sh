#!/bin/sh
# The legacy JOB benchmark (run by bench/run, or alone:
# sh bench/job.sh path/to/npuprof-tui): npuprof-gen job with 64 ops per
# iteration and BENCH_JOB_STEPS iterations (default 2500, 10000 and 40000:
# HWTS logs of 20, 80 and 320 MB, 160k to 2.56M task rows). The HWTS logs
# are streamed, so peak RSS should level off at what SQLite keeps (its
# 8 MB page cache and the index builds at commit) instead of growing
# with the log.
. "$(dirname "$0")/lib.sh" "$@"
T=$(mktemp -d "${TMPDIR:-/tmp}/npjob.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -x "$GEN" ] || make -C "$top" tools/gen/npuprof-gen >/dev/null

for steps in ${BENCH_JOB_STEPS:-2500 10000 40000}; do
	"$GEN" job "$T/j$steps/JOB" -s 1 -n 64 -S 4 -t "$steps" -a 100
	mb=$(du -m "$T/j$steps/JOB/data/hwts.log.data.45.dev.profiler_default_tag.0.slice_0" |
	    cut -f1)
	set -- $("$here/measure" "$NPUPROF" import -q --db "$T/j$steps.db" \
	    "$T/j$steps/JOB")
	awk -v s="$1" -v r="$2" -v n=$((steps * 64)) -v mb="$mb" \
	    -v st="$steps" 'BEGIN { printf "JOB, %d iterations (%d MB HWTS, " \
	    "%d task rows): %.2f s, %.0f rows/s, peak RSS %.1f MB\n", st, mb,
	    n, s, n / s, r }'
	rm -rf "$T/j$steps" "$T/j$steps.db"
done
echo "(reproduce: $GEN job DIR/JOB -s 1 -n 64 -S 4 -t STEPS -a 100;" \
    "$here/measure $NPUPROF import -q --db S.db DIR/JOB)"
