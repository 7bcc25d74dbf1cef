#!/bin/sh
# The raw PROF importer benchmark (run by bench/run, or alone:
# sh bench/prof.sh path/to/npuprof-tui). Three inputs:
#  1. npuprof-gen prof with BENCH_PROF_OPS (1,000,000) device tasks on a
#     310P (one task per op, with their ACL, node and runtime spans and
#     host records, task ids wrapping with flips), and the same with
#     twice the ops (BENCH_PROF_OPS2): peak RSS against its 256 MB bound;
#  2. the vendor oracle's `genprof.py --seed 42 --ops 200000 --streams 2
#     --threads 4 --apis 20000`, the input on which the vendor's parser
#     needed 27.4 s and 939 MB (C++ path) on a 2-vCPU machine.
# Wall time depends on what else runs on the machine, so CPU time (user +
# system) is printed beside it; rates use the wall time.
. "$(dirname "$0")/lib.sh" "$@"
OPS=${BENCH_PROF_OPS:-1000000}
ORACLE=${SHARED:-$here/../../shared}/oracle
T=$(mktemp -d "${TMPDIR:-/tmp}/npprof.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -x "$GEN" ] || make -C "$top" tools/gen/npuprof-gen >/dev/null

# run OUT CMD...: wall s, CPU s and peak RSS MB of CMD into OUT.
run() {
	out=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$out" -f '%e %U %S %M' "$@" >/dev/null
		awk '{ printf "%s %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' \
		    "$out" >"$out.2" && mv "$out.2" "$out"
	else
		set -- $("$here/measure" "$@")
		echo "$1 NA $2" >"$out"
	fi
}

report() {	# report WHAT TASKS BYTES
	read -r wall cpu rss <"$T/m"
	awk -v w="$wall" -v c="$cpu" -v r="$rss" -v n="$2" -v b="$3" \
	    -v what="$1" 'BEGIN {
		printf "%s: %.2f s wall (%s s CPU), %.0f tasks/s, " \
		    "%.1f MB/s, peak RSS %.1f MB\n", what, w, c, n / w,
		    b / 1048576 / w, r
		if (c + 0 > 0)
			printf "import wall / CPU time: %.2f (target 0.6 or" \
			    " less)\n", w / c }'
}

echo "generating $OPS ops ..."
"$GEN" prof "$T/p" -s 42 -n "$OPS" -a $((OPS / 10)) -S 4 -T 4 -c 310P -w
# The generator's files written out first: the import is timed, not the
# kernel writing 644 MB back beside it.
sync
bytes=$(du -sb "$T/p" | cut -f1)
run "$T/m" "$NPUPROF" import -q --db "$T/p.db" "$T/p"
read -r imp _ <"$T/m"
cp "$T/p.db" "$T/q.db"
# The indexes, which import leaves to the first reader (show would build
# them): import --indexes builds them alone.
run "$T/i" "$NPUPROF" import -q --indexes --db "$T/p.db" "$T/p"
read -r idx _ <"$T/i"
tasks=$("$NPUPROF" show --db "$T/p.db" --format csv "$T/p" op_summary |
    tail -n +2 | wc -l)
report "import of $tasks device tasks, $((bytes / 1048576)) MB" "$tasks" \
    "$bytes"
echo "(reproduce: $GEN prof DIR -s 42 -n $OPS -a $((OPS / 10)) -S 4 -T 4" \
    "-c 310P -w; /usr/bin/time -v $NPUPROF import -q --db S.db DIR)"
# The timeline built after them, and the UI on the same folder with no
# store yet, which shows the statistics before the indexes and timeline.
run "$T/m" "$NPUPROF" import -q --timeline --db "$T/p.db" "$T/p"
read -r tl _ <"$T/m"
first=$(first_screen "$T/u.db" "$T/p")
rm -f "$T/u.db"*
awk -v i="$imp" -v x="$idx" -v t="$tl" -v f="${first:-0}" 'BEGIN {
	if (f <= 0) { print "UI first screen: not measured"; exit }
	printf "indexes built after it: %.2f s; timeline after them: %.2f s;" \
	    " UI first screen with no store: %.2f s, %.2f of import +" \
	    " indexes + timeline (target 0.25 or less)\n", x, t, f / 1000,
	    f / 1000 / (i + x + t) }'
echo "(reproduce: $NPUPROF import --indexes --db S.db DIR;" \
    "$NPUPROF import --timeline --db S.db DIR; echo '#' >KEYS;" \
    "TERM=xterm LINES=50 COLUMNS=160 $NPUPROF --replay KEYS --db NEW.db" \
    "DIR, first-screen-ms)"
# Both at once, as the UI builds them on a new store: the indexes but the
# first beside the timeline.
run "$T/b" "$NPUPROF" import -q --timeline --db "$T/q.db" "$T/p"
read -r both _ bothrss <"$T/b"
rm -f "$T/q.db"*
awk -v x="$idx" -v t="$tl" -v b="$both" -v r="$bothrss" 'BEGIN {
	printf "indexes and timeline together, as the UI builds them: %.2f" \
	    " s (%.2f s one after the other), peak RSS %.1f MB\n", b, x + t,
	    r }'
echo "(reproduce: $NPUPROF import --db S.db DIR;" \
    "$NPUPROF import --timeline --db S.db DIR)"

# 1b. Twice as many ops (BENCH_PROF_OPS2, 2,000,000; 0 skips it): peak
#     RSS against the 256 MB bound the importer is held to for any size.
OPS2=${BENCH_PROF_OPS2:-$((OPS * 2))}
if [ "$OPS2" -gt 0 ]; then
	rm -rf "$T/p" "$T/p.db"
	"$GEN" prof "$T/p" -s 42 -n "$OPS2" -a $((OPS2 / 10)) -S 4 -T 4 \
	    -c 310P -w
	sync
	bytes=$(du -sb "$T/p" | cut -f1)
	run "$T/m" "$NPUPROF" import -q --db "$T/p.db" "$T/p"
	report "import of $OPS2 ops, $((bytes / 1048576)) MB" "$OPS2" "$bytes"
	echo "(peak RSS against 256 MB, for any size: reproduce as above" \
	    "with -n $OPS2 -a $((OPS2 / 10)))"
	rm -rf "$T/p" "$T/p.db"
fi

if [ -f "$ORACLE/genprof.py" ] && command -v python3 >/dev/null; then
	python3 "$ORACLE/genprof.py" --out "$T/v" --seed 42 --ops 200000 \
	    --streams 2 --threads 4 --apis 20000 >/dev/null
	sync
	bytes=$(du -sb "$T/v" | cut -f1)
	run "$T/m" "$NPUPROF" import -q --db "$T/v.db" "$T/v"
	report "oracle genprof --seed 42 --ops 200000 (vendor: 27.4 s, 939 MB)" \
	    200000 "$bytes"
else
	echo "oracle input skipped: no $ORACLE/genprof.py or python3"
fi

# 3. HCCL ops: the same generator with -L (BENCH_PROF_HCCL_OPS compute
#    ops, 200,000; about one HCCL op in ten launches, ten tasks each),
#    beside the same seed without them: what the HCCL tasks, their ops and
#    the communication tables cost.
HOPS=${BENCH_PROF_HCCL_OPS:-200000}
for l in "" -L; do
	rm -rf "$T/h" "$T/h.db"
	"$GEN" prof "$T/h" -s 7 -n "$HOPS" -T 2 $l >/dev/null
	sync
	bytes=$(du -sb "$T/h" | cut -f1)
	run "$T/m" "$NPUPROF" import -q --db "$T/h.db" "$T/h"
	ops=$("$NPUPROF" show -q --db "$T/h.db" --format csv "$T/h" \
	    op_summary | grep -c ',COMMUNICATION,' || true)
	tasks=$("$NPUPROF" show -q --db "$T/h.db" --format csv "$T/h" \
	    task_time | tail -n +2 | wc -l)
	report "prof -n $HOPS -T 2 ${l:-without -L}: $ops HCCL ops, $tasks device tasks" \
	    "$tasks" "$bytes"
done
echo "(reproduce: $GEN prof DIR -s 7 -n $HOPS -T 2 [-L];" \
    "/usr/bin/time -v $NPUPROF import -q --db S.db DIR)"
