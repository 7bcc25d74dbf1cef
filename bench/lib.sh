# Shared start of the benchmark scripts: source it with the script's
# arguments, ". \"$(dirname \"$0\")/lib.sh\" \"$@\"". It sets NPUPROF (the
# binary, the first argument), here (bench/), top (the build directory)
# and GEN (the generators built beside the binary).
set -eu
NPUPROF=${1:?usage: bench/$(basename "$0") path/to/npuprof-tui}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$NPUPROF")
GEN="$top/tools/gen/npuprof-gen"

# first_screen DB DIR: milliseconds from the start of the UI on DIR, with
# no store at DB yet, to its first screen (the Summary, shown once the
# tables and statistics are written; the store's indexes and the timeline
# are built after it, in the background). The UI quits at once after.
first_screen() {
	rm -f "$1" "$1-journal" "$1-timeline"
	printf '# nothing but the first screen\n' >"$1.keys"
	TERM=xterm LINES=50 COLUMNS=160 "$NPUPROF" --replay "$1.keys" \
	    --db "$1" "$2" </dev/null 2>"$1.report" >/dev/null || true
	sed -n 's/^first-screen-ms //p' "$1.report"
	rm -f "$1.keys" "$1.report"
}
