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
	set -- $("$here/measure" "$NPUPROF" import -q --indexes --db "$T/s.db" \
	    "$T/d")
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
echo "(reproduce: $GEN demo DIR -n $ROWS;" \
    "$NPUPROF import --indexes --db S.db DIR;"
echo " TERM=xterm LINES=50 COLUMNS=160 $NPUPROF --replay KEYS --db S.db DIR)"

# A filter on a table already sorted in memory: the sort on Op Name (its
# first page is the unfiltered one), then filters that walk the sorted
# order, each cleared again; "first" is when a key's rows were on screen.
{
	echo 4
	for i in 1 2 3 4 5 6; do echo '>'; done
	printf 'F4\ntype Conv2D\nEnter\nF4\nC-u\nEnter\n'
	printf 'F4\ntype OP Type:^MatMulV2$\nEnter\nF4\nC-u\nEnter\n'
	printf 'F4\ntype aclnn_Relu\nEnter\n'
} >"$T/keys2"
TERM=xterm LINES=50 COLUMNS=160 "$here/measure" "$NPUPROF" \
    --replay "$T/keys2" --db "$T/s.db" "$T/d" </dev/null 2>"$T/report2" \
    >"$T/rss2" || true
awk '
$1 == "key" && $2 == ">" { sort = $3; sdone = $5 }
$1 == "key" && $2 == "type" {
	what = $0
	sub(/^key type /, "", what)
	sub(/ [0-9.]+$/, "", what)
}
$1 == "key" && $2 == "Enter" {
	if (what == "") {
		printf "  filter cleared: the sorted rows again in %.1f ms\n",
		    $3
		if (cleared == 0 || $3 > cleared)
			cleared = $3
	} else {
		printf "  filter %s on the sorted table: first page %.1f ms" \
		    " (%.3f of the sort'"'"'s), all rows %.0f ms\n", what, $3,
		    $3 / sort, $5 != "" ? $5 : $3
		if ($3 > worst)
			worst = $3
	}
	what = ""
}
END {
	printf "  sort on Op Name: first page %.0f ms (done %.0f ms)\n", sort,
	    sdone
	printf "  slowest filtered first page: %.1f ms, %.3f of the" \
	    " sort'"'"'s first page (target: at most 3x and under 200 ms)\n",
	    worst, worst / sort
	if (cleared > 0)
		printf "  and %.1f times the unfiltered sorted first page" \
		    " (the filter cleared, slowest: %.1f ms)\n",
		    worst / cleared, cleared
}' "$T/report2"
echo "  wall and peak RSS (s, MB): $(cat "$T/rss2")"
echo "(reproduce: the keys above in a file, one per line:"
echo " TERM=xterm LINES=50 COLUMNS=160 $NPUPROF --replay KEYS --db S.db DIR)"
