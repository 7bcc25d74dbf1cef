#!/bin/sh
# The Flame tab on a big store, measured with --replay (no terminal
# needed), three runs: the time from the key that opens it (8) until the
# view is on screen, and until its call tree is built (the tree is built
# in the background; the view shows how long it has been building).
# Usage: bench/flame.sh NPUPROF; BENCH_FLAME_ROWS sets the task rows
# (2000000) of a generated demo, or with BENCH_FLAME_KIND=prof the ops of
# a raw PROF collection (its API spans make the CANN call tree);
# BENCH_FLAME_DIR reuses a directory from an earlier run (DIR/d, DIR/s.db).
. "$(dirname "$0")/lib.sh" "$@"
ROWS=${BENCH_FLAME_ROWS:-2000000}
KIND=${BENCH_FLAME_KIND:-demo}
if [ -n "${BENCH_FLAME_DIR:-}" ]; then
	T=$BENCH_FLAME_DIR
	mkdir -p "$T"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/npflame.XXXXXX")
	trap 'rm -rf "$T"' EXIT
fi
[ -x "$GEN" ] || make -C "$top" tools/gen/npuprof-gen >/dev/null

if [ ! -s "$T/s.db" ]; then
	if [ "$KIND" = prof ]; then
		"$GEN" prof "$T/p" -s 3 -n "$ROWS" >/dev/null
		mv "$T"/p/PROF_* "$T/d"
	else
		"$GEN" demo "$T/d" -n "$ROWS" >/dev/null
	fi
	set -- $("$here/measure" "$NPUPROF" import -q --indexes --db "$T/s.db" \
	    "$T/d")
	echo "import of $ROWS $KIND rows: $1 s"
fi

printf '8\n' >"$T/keys"
for run in 1 2 3; do
	TERM=xterm LINES=50 COLUMNS=160 "$NPUPROF" --replay "$T/keys" \
	    --db "$T/s.db" "$T/d" </dev/null 2>"$T/report" >/dev/null || true
	set -- $(sed -n 's/^key 8 //p' "$T/report")
	echo "  run $run: the Flame tab on screen in $1 ms, its tree" \
	    "built in ${3:-$1} ms"
done
echo "(reproduce: $GEN $KIND DIR -n $ROWS;" \
    "$NPUPROF import --indexes --db S.db DIR;"
echo " echo 8 >KEYS; TERM=xterm LINES=50 COLUMNS=160 $NPUPROF"
echo " --replay KEYS --db S.db DIR)"
