#!/bin/sh
# The timeline's busy time per cell against the ground truth computed by
# tests/store/timeline-truth.py from the generated kernel_details.csv alone, at
# several zoom levels with odd cell edges: busy time and span counts equal
# in every cell; the dominant type equals the truth wherever the frame is
# read span by span (at most 64 spans per cell) and in at least 80% of the
# cells where it comes from the summary bins.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
CELLS="$top_builddir/tests/tl-cells"
"$GEN" demo "$T/d" -s 3 -n 20000 -S 4 || exit 1
"$NPUPROF" import -q --db "$T/s.db" "$T/d" || exit 1
K="$T/d/demo_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$CELLS" "$T/s.db" lanes >"$T/lanes"
is "$(cut -f3 "$T/lanes" | tr '\n' ' ')" \
    "Steps Stream 40 Stream 41 Stream 42 Stream 43 " \
    "the steps (from the tasks' Step Id), then one lane per stream"

frame() {	# frame STREAM T0 T1 W WHAT
	lane=$(awk -F'\t' -v s="$1" '$5 == s { print $1 }' "$T/lanes")
	"$CELLS" "$T/s.db" cells "$lane" "$2" "$3" "$4" | cut -f1,4- >"$T/got"
	"$PY" "$top_srcdir/tests/store/timeline-truth.py" "$K" "$1" "$2" "$3" "$4" \
	    >"$T/want"
	cut -f1-3 "$T/got" >"$T/g3"
	cut -f1-3 "$T/want" >"$T/w3"
	same_file "$T/g3" "$T/w3" "$5: busy time and span count of every cell"
	n=$(awk -F'\t' '{ n += $3 } END { print n + 0 }' "$T/want")
	agree=$(paste "$T/got" "$T/want" | awk -F'\t' '$4 == $8 { a++ }
	    END { print a + 0 }')
	if [ "$n" -le $(($4 * 64)) ]; then
		is "$agree" "$4" "$5: dominant type of every cell (span by span)"
	else
		[ $((agree * 100)) -ge $(($4 * 80)) ]
		ok $? "$5: dominant type from the bins in $agree of $4 cells"
	fi
	paste "$T/got" "$T/want" | awk -F'\t' '($2 > 0 || $3 > 0) != ($4 != "none") { bad++ }
	    END { exit bad > 0 }'
	ok $? "$5: a cell with work is never empty, an empty one has no type"
}

lo=$(awk -F'\t' '$5 == 40 { print $7 }' "$T/lanes")
hi=$(awk -F'\t' '$5 == 40 { print $8 }' "$T/lanes")
frame 40 "$lo" "$hi" 200 "whole lane"
frame 41 $((lo - 777)) $((hi + 12345)) 173 "whole extent, odd edges"
frame 42 "$lo" "$hi" 40 "whole lane, 40 cells"
frame 43 $((lo - 777)) $((hi + 12345)) 31 "whole extent, odd edges, 31 cells"
frame 42 $((lo + 123456789)) $((lo + 223456791)) 137 "a tenth"
frame 43 $((lo + 500000003)) $((lo + 503000000)) 211 "3 ms"
frame 40 $((lo + 700000001)) $((lo + 700002001)) 97 "2 us, cells of 20 ns"
frame 41 $((lo - 100000)) $((lo - 10)) 50 "before the first task"
done_testing
