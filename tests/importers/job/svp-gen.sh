#!/bin/sh
# Generated SVP board JOBs: the exported summary/ gives the four tables the
# vendor's show prints (AA Core metrics with Memory Bound and the total
# row, op statistic, acl statistic, frequency), equal to what the generator
# computed, and timeline/ the tasks and ACL spans behind them; without
# summary/ and timeline/ the AclModule records are decoded and the
# raw file of the unpublished format is named as not recognised.
. "$top_srcdir/tests/lib.sh"
[ -x "$GEN" ] || skip_all "no generator at $GEN"

for seed in 1 5; do
	d=$T/s$seed
	"$GEN" svp "$d/JOB0001" -s $seed -a 60 -e "$d/expect"
	ok $? "seed $seed: generate"
	"$NPUPROF" show -q --db "$d.db" "$d/JOB0001" >"$d/show" 2>/dev/null
	ok $? "seed $seed: show"
	grep -E '^(aa_core_metrics|op_statistic_csv|acl_statistic|frequency)$' \
	    "$d/show" | tr '\n' ' ' >"$d/titles"
	is "$(cat "$d/titles")" \
	    "aa_core_metrics op_statistic_csv acl_statistic frequency " \
	    "seed $seed: show prints the four SVP tables in order"
	for t in aa_core_metrics frequency op_statistic; do
		"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB0001" $t \
		    >"$d/$t.got"
		same_file "$d/$t.got" "$d/expect/$t.csv" "seed $seed: $t"
	done
	"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB0001" \
	    acl_statistic >"$d/acl.got"
	same_file "$d/acl.got" "$d/expect/svp_acl_statistic.csv" \
	    "seed $seed: acl_statistic as exported"
	# timeline/: the Task Scheduler tasks and AscendCL spans behind the
	# statistics, on the board's monotonic clock.
	"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB0001" \
	    task_time >"$d/tt.got"
	same_file "$d/tt.got" "$d/expect/svp_task_time.csv" \
	    "seed $seed: timeline task_time_*.json tasks as generated"
	"$NPUPROF" show -q --db "$d.db" --format csv --stats computed \
	    "$d/JOB0001" api_statistic | awk -F, '{ print $2 "," $3 "," $4 \
	    "," $5 "," $7 "," $8 }' >"$d/api.got"
	same_file "$d/api.got" "$d/expect/svp_acl_api.csv" \
	    "seed $seed: timeline acl_*.json spans in api_statistic at level acl"
	"$NPUPROF" import --reimport --db "$d.db" "$d/JOB0001" >/dev/null \
	    2>"$d/err"
	grep -q 'timeline: no start_info beside the timeline files: times stay on the host monotonic clock' "$d/err"
	ok $? "seed $seed: the import says the times stay monotonic"
done

# The raw JOB alone: AclModule decoded, the board's own file reported.
d=$T/s1
rm -r "$d/JOB0001/summary" "$d/JOB0001/timeline"
"$NPUPROF" import --db "$T/raw.db" "$d/JOB0001" >/dev/null 2>"$T/err"
ok $? "raw SVP JOB imports its AclModule records"
grep -q 'aacore.data.0.slice_0: file not recognised.*import the board.s exported summary/ and timeline/' "$T/err"
ok $? "the unknown raw file is named, with the advice"
"$NPUPROF" show -q --db "$T/raw.db" --format csv "$d/JOB0001" \
    acl_statistic >"$T/acl.got"
same_file "$T/acl.got" "$d/expect/acl_statistic.csv" \
    "raw SVP JOB: acl_statistic computed from AclModule"
rm "$d/JOB0001/data/AclModule."*
"$NPUPROF" import --db "$T/none.db" "$d/JOB0001" >/dev/null 2>"$T/err"
is $? 1 "a JOB with nothing decodable fails"
grep -q 'import its exported summary/ and timeline/' "$T/err"
ok $? "and says what to import instead"
done_testing
