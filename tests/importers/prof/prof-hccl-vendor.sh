#!/bin/sh
# The communication tables of raw collections against the vendor's own
# code, where its sources are at hand (a development check: skipped on a
# clean machine). MSPROF_SRC names the analysis/ folder of a source tree
# of github.com/Ascend/msprof, MSPROF_ANALYZE a source tree of
# Ascend/msprof-analyze. hccl-vendor.py feeds the generated HCCL tasks
# through the vendor's merge of ops and tasks, its naming, its
# communication and matrix parsers and msprof-analyze's adapters; the
# import must give the same tables, digit for digit.
. "$top_srcdir/tests/lib.sh"

need_msprof_src msparser
need_msprof_analyze
here="$top_srcdir/tests/importers/prof"

check() {	# check NAME GEN-ARGS...
	d="$T/$1"
	shift
	"$GEN" prof "$d/in" -e "$d/want" -L "$@"
	ok $? "$(basename "$d"): generate -L $*"
	mkdir -p "$d/v"
	"$PY" "$here/hccl-vendor.py" "$d/want" "$d/v" 2>/dev/null
	ok $? "$(basename "$d"): the vendor's tables"
	for t in communication communication_bandwidth communication_matrix \
	    step_trace_time; do
		"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" $t \
		    >"$d/$t.csv"
		same_file "$d/$t.csv" "$d/v/$t.csv" \
		    "$(basename "$d"): $t as the vendor's"
	done
}

check one -s 71 -n 1200
check threads -s 72 -n 2500 -T 3 -S 3 -E 30
check devices -s 73 -n 2500 -d 2 -T 2 -M 30
check interleaved -s 61 -n 2000 -T 3 -d 2 -S 3
check big -s 75 -n 6000 -T 2 -d 2
done_testing
