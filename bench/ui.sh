#!/bin/sh
# The UI on a big store: first screen, per-key latency (p50/p99), sorting,
# filtering and peak RSS, measured with --replay (no terminal needed).
# Usage: bench/ui.sh NPUPROF; BENCH_UI_ROWS sets the task rows (10000000),
# BENCH_UI_DIR reuses a directory from an earlier run (DIR/d, DIR/s.db).
# A key's time runs until its answer is on screen (for a sort or filter,
# the first page); "done-ms" is when its background scan ended.
. "$(dirname "$0")/lib.sh" "$@"
ROWS=${BENCH_UI_ROWS:-10000000}
if [ -n "${BENCH_UI_DIR:-}" ]; then
	T=$BENCH_UI_DIR
	mkdir -p "$T"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/npui.XXXXXX")
	trap 'rm -rf "$T"' EXIT
fi
[ -x "$GEN" ] || make -C "$top" tools/gen/npuprof-gen >/dev/null

if [ ! -s "$T/s.db" ]; then
	"$GEN" demo "$T/d" -n "$ROWS" >/dev/null
	set -- $("$here/measure" "$NPUPROF" import -q --db "$T/s.db" "$T/d")
	echo "import of $ROWS task rows: $1 s"
fi

# Navigation in the statistic table and the kernels, a sort on the task
# duration (indexed), a filter, a column filter.
cat >"$T/keys" <<'EOK'
2
j
j
PgDn
G
g
4
j
PgDn
PgDn
PgDn
G
PgUp
g
PgDn
>
>
>
>
>
>
>
>
>
>
EOK
printf 'F4\ntype Conv2D\nEnter\nF4\nC-u\ntype OP Type:^Relu$\nEnter\n' \
    >>"$T/keys"
TERM=xterm LINES=50 COLUMNS=160 "$here/measure" "$NPUPROF" \
    --replay "$T/keys" --db "$T/s.db" "$T/d" </dev/null 2>"$T/report" \
    >"$T/rss" || true
sed 's/^/  /' "$T/report"
echo "  wall and peak RSS (s, MB): $(cat "$T/rss")"
echo "(reproduce: $GEN demo DIR -n $ROWS; $NPUPROF import --db S.db DIR;"
echo " TERM=xterm LINES=50 COLUMNS=160 $NPUPROF --replay KEYS --db S.db DIR)"
