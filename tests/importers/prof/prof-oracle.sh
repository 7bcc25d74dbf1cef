#!/bin/sh
# The raw PROF importer against the vendor oracle: genprof.py (in the
# shared folder) writes raw PROF_* collections whose truth.json the
# vendor's own parser agreed with; we import each one and compare our
# op_statistic and api_statistic with compare.py. Cases: 910B (stars_soc),
# 910A and 310P (hwts), a mono-ns host, event pairs and unaging spans,
# records across small slices with stray bytes at the head of the first
# device slice, and a task-id wrap with flips on both sides.
. "$top_srcdir/tests/lib.sh"
ORACLE=${SHARED:-$top_srcdir/../shared}/oracle
[ -f "$ORACLE/genprof.py" ] || skip_all "no oracle in $ORACLE"
PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"

check() {	# check NAME GENPROF-ARGS...: generate, import, compare
	name=$1
	shift
	d="$T/$name"
	mkdir -p "$d/out"
	"$PY" "$ORACLE/genprof.py" --out "$d/gen" "$@" >/dev/null
	ok $? "$name: genprof $*"
	[ -n "${HEAD_SKIP:-}" ] && head_skip "$d/gen"
	"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
	    "$d/gen" op_statistic >"$d/out/op_statistic.csv" 2>"$d/err"
	ok $? "$name: show op_statistic"
	"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
	    "$d/gen" api_statistic >"$d/out/api_statistic.csv" 2>>"$d/err"
	ok $? "$name: show api_statistic"
	"$PY" "$ORACLE/compare.py" "$d/gen/truth.json" "$d/out" >"$d/cmp"
	st=$?
	ok $st "$name: $(tail -n 1 "$d/cmp")"
	[ $st -eq 0 ] || sed 's/^/#   /' "$d/cmp" | head -20
	want=$(sed -n 's/.*"device_tasks": \([0-9]*\).*/\1/p' \
	    "$d/gen/truth.json")
	got=$("$NPUPROF" show --db "$d/s.db" --format csv "$d/gen" \
	    op_summary | tail -n +2 | wc -l)
	is "$got" "$want" "$name: one op_summary row per device task"
	[ ! -s "$d/err" ]
	ok $? "$name: no warnings on sound input"
	[ -s "$d/err" ] && sed 's/^/#   /' "$d/err" | head -5
	return 0
}

# Put 24 bytes of a lost ring-buffer head in front of the first device
# slice (doc/formats.md 1.2): the reader must drop total % 64 bytes.
head_skip() {
	f=$(ls "$1"/PROF_*/device_0/data/*.slice_0 | grep -v ts_track)
	{ printf '%024d' 0; cat "$f"; } >"$f.new" && mv "$f.new" "$f"
}

check b910 --seed 1 --ops 2000 --streams 2 --threads 2 --apis 200
check a910 --seed 2 --chip 910A --ops 1500 --streams 3 --apis 100
check p310 --seed 3 --chip 310P --ops 1500 --apis 100 --host-mhz 0
check events --seed 4 --ops 1000 --event-frac 0.5 --unaging-frac 0.5 \
    --static-frac 0.5
HEAD_SKIP=1 check slices --seed 5 --ops 1000 --threads 3 --streams 3 \
    --host-slice-kb 1 --dev-slice-bytes 1000
HEAD_SKIP=1 check slicesA --seed 8 --chip 310P --ops 800 \
    --dev-slice-bytes 777
check wrap --seed 6 --ops 67000 --streams 1 --threads 2 --apis 10
done_testing
