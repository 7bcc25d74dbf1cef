#!/bin/sh
# Golden tests of the raw PROF importer: our C generator (npuprof-gen
# prof) writes raw collections byte for byte per FORMATS.md together with
# the op_statistic, api_statistic and op_summary it expects, computed from
# the generated values; importing the collection must give exactly those
# tables. The cases cover the hard parts: task-id wrap with FLIP records,
# FFTS+ context ids, events as halves, records across slices, stray head
# bytes, aging/unaging files, several threads and devices, static and
# dynamic ops, model spans, a missing dictionary entry, and AI Core PMU
# records (ffts_profile.data, aicore.data) with PipeUtilization metrics.
. "$top_srcdir/tests/lib.sh"

check() {	# check NAME GEN-ARGS...
	name=$1
	shift
	d="$T/$name"
	"$GEN" prof "$d/in" -e "$d/want" "$@" 2>"$d.err"
	ok $? "$name: generate $*"
	for table in op_statistic api_statistic op_summary; do
		"$NPUPROF" show --db "$d/s.db" --stats computed --format csv \
		    "$d/in" $table >"$d/$table.csv" 2>>"$d.err"
		same_file "$d/$table.csv" "$d/want/$table.csv" \
		    "$name: $table as generated"
	done
	[ ! -s "$d.err" ]
	ok $? "$name: no warnings"
	[ -s "$d.err" ] && sed 's/^/#   /' "$d.err" | head -5
	return 0
}

check b910 -s 1 -n 1500 -a 150 -E 30 -M 30 -x
check b910-wrap -s 2 -n 3000 -S 2 -a 20 -w
check b910-slices -s 3 -n 800 -S 3 -T 3 -H 1024 -D 1000 -k 24 -E 50
check b910-devices -s 4 -n 1200 -d 2 -T 4 -S 3 -P 60 -M 50
check p310 -s 5 -n 1000 -c 310P -w -m 0 -k 40 -D 777 -x
check a910 -s 6 -n 900 -c 910A -d 2 -E 50 -P 50 -H 2048
check b910-pmu -s 7 -n 700 -p -D 5000 -k 8
check p310-pmu -s 8 -n 700 -c 310P -p -d 2 -w
done_testing
