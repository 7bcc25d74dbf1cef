#!/bin/sh
# The columns without a value that the UI hides (table empty_col): those
# of op_summary are worked out from the task values seen while loading
# (src/store/store-empty.c), and must be the columns in which the store's
# own op_summary view has no value (NULL, '', N/A or 4294967295) in any
# row. Inputs: kernel_details CSV, raw collections with tasks op_summary
# leaves out and with and without graph-mode model ids, a trace whose
# kernels change once loaded and one whose kernels take their steps so
# (then the columns are searched), a job.
. "$top_srcdir/tests/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"

# check NAME: the empty op_summary columns of the store of $T/NAME.
check() {
	db="$T/$1.db"
	"$NPUPROF" import -q --db "$db" "$T/$1" >/dev/null 2>&1
	ok $? "$1: import"
	"$NPUPROF" show -q --db "$db" --format csv --limit 1 "$T/$1" \
	    op_summary | head -n 1 | tr ',' '\n' >"$T/$1.cols"
	: >"$T/$1.want"
	while IFS= read -r c; do
		[ -n "$c" ] || continue
		if [ "$c" = "Step Id" ]; then	# not in the view
			n=$(q "$db" "SELECT count(*) FROM task WHERE
			    unlisted IS NULL AND step IS NOT NULL AND
			    step != 4294967295")
		else
			n=$(q "$db" "SELECT count(*) FROM op_summary WHERE
			    \"$c\" IS NOT NULL AND \"$c\" NOT IN ('', 'N/A',
			    4294967295, '4294967295')") || continue
		fi
		[ "$n" = 0 ] && echo "$c" >>"$T/$1.want"
	done <"$T/$1.cols"
	q "$db" "SELECT col FROM empty_col WHERE tbl = 'op_summary'" |
	    sort >"$T/$1.got"
	sort -o "$T/$1.want" "$T/$1.want"
	same_file "$T/$1.got" "$T/$1.want" \
	    "$1: empty columns as op_summary has them"
}

"$GEN" demo "$T/csv" -n 4000 -S 4 >/dev/null || exit 1
check csv
"$GEN" demo "$T/quirks" -n 3000 -r 2 --stats --quirks >/dev/null
check quirks
"$GEN" prof "$T/raw" -n 2000 -s 3 -w -C -d 2 >/dev/null
check raw
"$GEN" prof "$T/graph" -n 2000 -s 7 -c 310P -M 50 -t 3 >/dev/null
check graph
"$GEN" prof "$T/fwk" -n 2000 -s 5 -F -g -2 >/dev/null
check fwk
# Kernels take their Step Id from FRAMEWORK/'s ProfilerStep ops once
# loaded.
"$GEN" prof "$T/steps" -n 400 -s 24 -Y >/dev/null
check steps
"$GEN" job "$T/job" -n 2000 --pmu --binary >/dev/null
check job
# A torch_npu trace links its kernels to their launches once loaded (the
# columns are then searched), where the samples are at hand.
for d in oamtools-torchnpu271-cann910-ascend_pt msinsight-pt-text; do
	[ -d "$SAMPLES/$d" ] || continue
	cp -R "$SAMPLES/$d" "$T/$d" && chmod -R u+w "$T/$d"
	check "$d"
done
# Hidden columns are kept for what op_summary lists: a raw collection's
# tasks it leaves out have values it does not show.
n=$(q "$T/raw.db" "SELECT count(*) FROM task WHERE unlisted IS NOT NULL")
[ "$n" -gt 0 ]
ok $? "raw: some tasks are not in op_summary ($n)"
done_testing
