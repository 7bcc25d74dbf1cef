# Shared shell helpers for the script tests: TAP output, a private
# temporary directory, a fixed environment, and the shared samples.
# Source it first: . "$top_srcdir/tests/lib.sh"

set -u
export LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 TERM=dumb
unset COLUMNS
: "${NPUPROF:?NPUPROF must name the built binary}"
: "${top_srcdir:?}"
: "${top_builddir:?}"
SAMPLES=${SHARED:-$top_srcdir/../shared}/samples
GEN="$top_builddir/tools/gen/npuprof-gen"
T=$(mktemp -d "${TMPDIR:-/tmp}/npt.XXXXXX")
export HOME="$T/home" XDG_CACHE_HOME="$T/cache" XDG_CONFIG_HOME="$T/config"
mkdir -p "$HOME"
trap 'rm -rf "$T"' EXIT
tap_n=0
tap_failed=0

ok() {	# ok CONDITION-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

is() {	# is GOT WANT DESCRIPTION
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2" | head -20
	fi
}

same_file() {	# same_file GOT WANT DESCRIPTION: diff -u on failure
	if diff -u "$2" "$1" >"$T/diff" 2>&1; then
		ok 0 "$3"
	else
		ok 1 "$3"
		sed 's/^/#   /' "$T/diff" | head -40
	fi
}

# store_dump DB: every table of store DB but its random id, row by row, to
# tell two imports apart (sqlite3 needed)
store_dump() {
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE
	    type = 'table' ORDER BY name"); do
		echo "== $t"
		if [ "$t" = meta ]; then
			sqlite3 "$1" "SELECT * FROM meta WHERE key <> 'store_id'
			    ORDER BY rowid"
		else
			sqlite3 "$1" "SELECT * FROM \"$t\" ORDER BY rowid"
		fi
	done
}

golden() {	# golden GOT NAME DESCRIPTION: compare with tests/data/NAME
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$1" "$top_srcdir/tests/data/$2"
	fi
	same_file "$1" "$top_srcdir/tests/data/$2" "$3"
	[ -z "${UPDATE_GOLDEN:-}" ] || return 0
	cmp -s "$1" "$top_srcdir/tests/data/$2" ||
	    echo "#   regenerate with: UPDATE_GOLDEN=1 make check"
}

# unreadable CMD...: run CMD so that what is made mode 000 cannot be read,
# as root too (without the capabilities that let root read it); check
# with `unreadable cat FILE` first, which succeeds where it cannot.
unreadable() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	else
		setpriv --bounding-set -dac_override,-dac_read_search "$@"
	fi
}

skip_all() {	# skip_all REASON: exit 77, which tests/tap-run reports as a skip
	echo "# $1"
	exit 77
}

# need_msprof_src SUBDIR: skip unless $PY (PYTHON3, else python3) runs and
# MSPROF_SRC names the analysis/ folder of github.com/Ascend/msprof (one
# with SUBDIR), which then joins PYTHONPATH.
need_msprof_src() {
	PY=${PYTHON3:-python3}
	command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
	[ -n "${MSPROF_SRC:-}" ] && [ -d "$MSPROF_SRC/$1" ] ||
	    skip_all "MSPROF_SRC does not name the analysis/ folder of msprof"
	PYTHONPATH="$MSPROF_SRC${PYTHONPATH:+:$PYTHONPATH}"
	export PYTHONPATH
}

# need_msprof_analyze [MODULE...]: skip unless msprof-analyze can be
# imported by $PY (installed, or the source tree MSPROF_ANALYZE names,
# which joins PYTHONPATH), with the Python modules named too.
need_msprof_analyze() {
	if [ -n "${MSPROF_ANALYZE:-}" ]; then
		PYTHONPATH="$MSPROF_ANALYZE${PYTHONPATH:+:$PYTHONPATH}"
		export PYTHONPATH
	fi
	m="msprof_analyze.cli.entrance"
	for x in "$@"; do
		m="$m, $x"
	done
	"$PY" -c "import $m" 2>/dev/null ||
	    skip_all "msprof-analyze${1:+ (with $*)} is not installed"
}

need_samples() {
	[ -d "$SAMPLES" ] || skip_all "no samples in $SAMPLES"
}

# q DB SQL: the rows of SQL on store DB, cells joined by |, NULL empty. It
# waits up to 10 s for a lock the UI's background build holds on DB.
q() {
	sqlite3 -batch -noheader -separator '|' -nullvalue '' \
	    -cmd '.timeout 10000' "$1" "$2"
}

stats_both() {	# stats_both DB PATH TABLE: computed and file rows, sorted
	"$NPUPROF" show -q --db "$1" --format csv --stats computed "$2" "$3" |
	    tail -n +2 | sort >"$T/computed"
	"$NPUPROF" show -q --db "$1" --format csv --stats file "$2" "$3" |
	    tail -n +2 | sort >"$T/file"
}

le() {	# le N BYTES: N little-endian in BYTES bytes, on standard output
	_n=$1
	_i=0
	while [ $_i -lt "$2" ]; do
		printf "\\$(printf %03o $((_n & 255)))"
		_n=$((_n >> 8))
		_i=$((_i + 1))
	done
}

poke() {	# poke FILE OFFSET: standard input over FILE at OFFSET
	dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
