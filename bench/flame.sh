#!/bin/sh
# The Flame tab on a big store: the time from the key that opens it (8)
# until its call tree is on screen, measured with --replay (no terminal
# needed), three runs, and the import that made the store.
# Usage: bench/flame.sh NPUPROF; BENCH_FLAME_ROWS sets the task rows
# (2000000), BENCH_FLAME_DIR reuses a directory from an earlier run
# (DIR/d, DIR/s.db).
. "$(dirname "$0")/lib.sh" "$@"
ROWS=${BENCH_FLAME_ROWS:-2000000}
if [ -n "${BENCH_FLAME_DIR:-}" ]; then
	T=$BENCH_FLAME_DIR
	mkdir -p "$T"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/npflame.XXXXXX")
	trap 'rm -rf "$T"' EXIT
fi
[ -x "$GEN" ] || make -C "$top" tools/gen/npuprof-gen >/dev/null

if [ ! -s "$T/s.db" ]; then
	"$GEN" demo "$T/d" -n "$ROWS" >/dev/null
	set -- $("$here/measure" "$NPUPROF" import -q --db "$T/s.db" "$T/d")
	echo "import of $ROWS task rows: $1 s"
fi

printf '8\n' >"$T/keys"
for run in 1 2 3; do
	TERM=xterm LINES=50 COLUMNS=160 "$NPUPROF" --replay "$T/keys" \
	    --db "$T/s.db" "$T/d" </dev/null 2>"$T/report" >/dev/null || true
	echo "  run $run: open the Flame tab: $(sed -n 's/^key 8 //p' \
	    "$T/report") ms"
done
echo "(reproduce: $GEN demo DIR -n $ROWS; $NPUPROF import --db S.db DIR;"
echo " echo 8 >KEYS; TERM=xterm LINES=50 COLUMNS=160 $NPUPROF"
echo " --replay KEYS --db S.db DIR)"
