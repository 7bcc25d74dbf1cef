#!/bin/sh
# export summary of legacy (CANN <= 6.0) and SVP inputs: the legacy file
# names <name>_<device>_<model>_<iter> and headers, files read from a
# legacy or SVP summary/ written back byte for byte (Model Name, model and
# iteration kept in the store), a raw JOB's statistics per iteration, the
# board's derived columns and rows left out, and the round trip: a
# re-import of the export exports the same files and holds the same
# tables.
. "$top_srcdir/tests/lib.sh"
[ -x "$GEN" ] || skip_all "no generator at $GEN"

# Rows of TABLE ($3) of PATH ($2) with store $1, as show prints them.
rows() {
	"$NPUPROF" show -q --db "$1" --format csv "$2" "$3"
}

# A legacy summary/ as CANN 6.0 names it, with a Model Name.
S=$T/leg/summary
mkdir -p "$S"
H='Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,OP Type,Task Type,'
H=$H'Task Start Time,Task Duration(us),Task Wait Time(us),Block Dim,'
H=$H'Mix Block Dim,Input Shapes,Input Data Types,Input Formats,Output Shapes,'
H=$H'Output Data Types,Output Formats'
cat >"$S/op_summary_0_1_1.csv" <<EOT
$H
resnet50,1,3,2,1,conv1,Conv2D,AI_CORE,1000.500,20.250,0,32,N/A,"1,3,224,224",FLOAT16,NCHW,"1,64,112,112",FLOAT16,NC1HWC0
resnet50,1,4,2,1,relu1,Relu,AI_VECTOR_CORE,1021.000,3.000,0.250000,8,N/A,"1,64,112,112",FLOAT16,NC1HWC0,"1,64,112,112",FLOAT16,NC1HWC0
EOT
cat >"$S/op_summary_0_1_2.csv" <<EOT
$H
resnet50,1,3,2,2,conv1,Conv2D,AI_CORE,2000.000,21.125,0,32,N/A,"1,3,224,224",FLOAT16,NCHW,"1,64,112,112",FLOAT16,NC1HWC0
EOT
cat >"$S/op_statistic_0_1_1.csv" <<EOT
Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)
resnet50,Conv2D,AI_CORE,1,20.25,20.25,20.25,20.25,87.097
resnet50,Relu,AI_VECTOR_CORE,1,3,3,3,3,12.903
EOT
cat >"$S/step_trace_0_1_1.csv" <<EOT
Iteration ID,FP Start,BP End,Iteration End,Iteration Time(us),FP to BP Time(us),Iteration Refresh(us),Data Aug Bound(us)
1,1000.500,1030.000,1031.000,31.5,29.5,1,0
EOT
cat >"$S/acl_statistic_0_1_1.csv" <<EOT
Name,Type,Time(%),Time(us),Count,Avg(us),Min(us),Max(us),Process ID,Thread ID
aclmdlExecute,ACL_MODEL,100,50.5,2,25.25,20,30.5,100,101
EOT
"$NPUPROF" export summary -q --db "$T/leg.db" --output "$T/lo" "$S"
ok $? "export summary of a legacy summary/"
is "$(ls "$T/lo" | tr '\n' ' ')" "$(ls "$S" | tr '\n' ' ')" \
    "the same legacy file names"
for f in "$S"/*.csv; do
	cmp "$f" "$T/lo/${f##*/}" || echo "${f##*/}"
done >"$T/differ"
is "$(cat "$T/differ")" "" "every file byte for byte as read"
"$NPUPROF" export summary -q --db "$T/leg.db" --output "$T/lo" "$S" \
    2>"$T/err"
is $? 1 "an existing legacy file is not overwritten"
grep -q "op_.*_0_1_.\\.csv' exists (use --force" "$T/err"
ok $? "the message names the file"
"$NPUPROF" export summary -q --format json --db "$T/leg.db" \
    --output "$T/lj" "$S"
ok $? "--format json"
is "$(ls "$T/lj" | tr '\n' ' ')" "acl_statistic_0_1_1.json \
op_statistic_0_1_1.json op_summary_0_1_1.json op_summary_0_1_2.json \
step_trace_0_1_1.json " "JSON files under the legacy names"
grep -q '"Model Name":"resnet50","OP Type":"Conv2D"' \
    "$T/lj/op_statistic_0_1_1.json"
ok $? "Model Name is kept"

# A raw legacy JOB (both task descriptions): one file per device, model
# and iteration, op_statistic too, each equal to the generator's own
# computation for that iteration; without clocks that tie host to device,
# acl_statistic covers the whole run. A re-import of the files exports the
# same files.
for layout in data binary; do
	q=
	[ $layout = binary ] && q=--binary
	d=$T/$layout
	"$GEN" job "$d/JOB" -s 3 -n 20 -S 3 -t 6 -a 120 $q -e "$d/expect" ||
	    exit 1
	"$NPUPROF" export summary -q --db "$d/j.db" --output "$d/o" "$d/JOB"
	ok $? "$layout: export summary of a legacy JOB"
	iters=$(rows "$d/j.db" "$d/JOB" step_trace | awk -F, 'NR > 1 {
	    printf "%s ", $2 }')
	model=$(rows "$d/j.db" "$d/JOB" op_summary | awk -F, 'NR > 1 {
	    print $2 == "N/A" ? 0 : $2 }' | sort -u)
	is "$(cd "$d/o" && ls op_summary_* | sed 's/.*_\([0-9]*\)\.csv/\1/' |
	    sort -n | tr '\n' ' ')" "$iters" \
	    "$layout: one op_summary per iteration"
	[ -f "$d/o/op_summary_0_${model}_1.csv" ]
	ok $? "$layout: named with the device and model ($model)"
	head -n 1 "$d/o/op_summary_0_${model}_1.csv" >"$T/h"
	is "$(cat "$T/h")" "$H" "$layout: the legacy op_summary header"
	is "$(cat "$d"/o/op_summary_* | grep -vc '^Model Name,')" \
	    "$(($(rows "$d/j.db" "$d/JOB" op_summary | wc -l) - 1))" \
	    "$layout: every task row, once"
	is "$(cd "$d/o" && ls op_statistic_* | sed 's/.*_\([0-9]*\)\.csv/\1/' |
	    sort -n | tr '\n' ' ')" "$iters" \
	    "$layout: one op_statistic per iteration"
	for f in "$d"/expect/op_statistic_0_*; do
		cmp "$f" "$d/o/${f##*/}" >/dev/null 2>&1 || echo "${f##*/}"
	done >"$T/differ"
	is "$(cat "$T/differ")" "" \
	    "$layout: each iteration's op_statistic as the generator computed it"
	head -n 1 "$d"/o/step_trace_0_*_1.csv >"$T/h"
	is "$(cat "$T/h")" "Iteration ID,FP Start,BP End,Iteration End,\
Iteration Time(us),FP to BP Time(us),Iteration Refresh(us),\
Data Aug Bound(us)" "$layout: the legacy step_trace header"
	[ -f "$d/o/acl_statistic_0_0_0.csv" ] && ! ls "$d/o" |
	    grep -q 'task_time\|api_statistic'
	ok $? "$layout: acl_statistic, and no task_time or api_statistic"
	"$NPUPROF" export summary -q --db "$d/r.db" --output "$d/o2" "$d/o"
	ok $? "$layout: export of the re-imported export"
	diff -r "$d/o" "$d/o2" >"$T/diff"
	same_file "$T/diff" /dev/null "$layout: the same files, byte for byte"
	rows "$d/j.db" "$d/JOB" acl_statistic >"$T/before"
	rows "$d/r.db" "$d/o" acl_statistic >"$T/after"
	same_file "$T/after" "$T/before" "$layout: round trip: acl_statistic"
	# The files hold op_statistic per iteration; the whole run's comes
	# back computed from the re-imported task rows.
	"$NPUPROF" show -q --stats computed --db "$d/j.db" --format csv \
	    "$d/JOB" op_statistic >"$T/before"
	"$NPUPROF" show -q --stats computed --db "$d/r.db" --format csv \
	    "$d/o" op_statistic >"$T/after"
	same_file "$T/after" "$T/before" \
	    "$layout: round trip: the whole run's op_statistic"
	# The wait time is computed on export; the model id of a step
	# trace row comes back from the file name.
	rows "$d/j.db" "$d/JOB" op_summary | cut -d, -f1-10,12- >"$T/before"
	rows "$d/r.db" "$d/o" op_summary | cut -d, -f1-10,12- >"$T/after"
	same_file "$T/after" "$T/before" "$layout: round trip: op_summary"
	rows "$d/j.db" "$d/JOB" step_trace | cut -d, -f1-9 >"$T/before"
	rows "$d/r.db" "$d/o" step_trace | cut -d, -f1-9 >"$T/after"
	same_file "$T/after" "$T/before" "$layout: round trip: step_trace"
done

# A JOB whose dev_start.log, host_start.log and start_info make host and
# device times epoch times: acl_statistic per iteration too, the ACL calls
# starting in each iteration's window, as the generator placed them.
for layout in data binary; do
	q=
	[ $layout = binary ] && q=--binary
	d=$T/anchor-$layout
	"$GEN" job "$d/JOB" -s 5 -n 12 -S 2 -t 4 -a 90 --anchor $q \
	    -e "$d/expect" || exit 1
	"$NPUPROF" export summary -q --db "$d/j.db" --output "$d/o" "$d/JOB"
	ok $? "$layout, anchored: export summary"
	ls "$d/expect" | grep '_statistic_0_' >"$T/want"
	ls "$d/o" | grep '_statistic_' >"$T/got"
	same_file "$T/got" "$T/want" \
	    "$layout, anchored: acl_statistic and op_statistic per iteration"
	for f in "$d"/expect/*_statistic_0_*; do
		cmp "$f" "$d/o/${f##*/}" >/dev/null 2>&1 || echo "${f##*/}"
	done >"$T/differ"
	is "$(cat "$T/differ")" "" \
	    "$layout, anchored: each as the generator computed it"
done

# An SVP board JOB: the board's exported files, not what show derives.
for seed in 1 4; do
	d=$T/svp$seed
	"$GEN" svp "$d/JOB" -s $seed -n 40 >/dev/null || exit 1
	"$NPUPROF" export summary -q --db "$d/v.db" --output "$d/o" "$d/JOB"
	ok $? "seed $seed: export summary of an SVP JOB"
	is "$(ls "$d/o" | tr '\n' ' ')" "$(ls "$d/JOB/summary" | tr '\n' ' ')" \
	    "seed $seed: the board's file names"
	for f in "$d"/JOB/summary/*.csv; do
		cmp "$f" "$d/o/${f##*/}" || echo "${f##*/}"
	done >"$T/differ"
	is "$(cat "$T/differ")" "" \
	    "seed $seed: byte for byte, no Memory Bound or total row added"
	"$NPUPROF" export summary -q --db "$d/r.db" --output "$d/o2" "$d/o"
	diff -r "$d/o" "$d/o2" >"$T/diff"
	same_file "$T/diff" /dev/null "seed $seed: the round trip is exact"
	for t in aa_core_metrics frequency op_statistic acl_statistic; do
		rows "$d/v.db" "$d/JOB" $t >"$T/before"
		rows "$d/r.db" "$d/o" $t >"$T/after"
		same_file "$T/after" "$T/before" "seed $seed: round trip: $t"
	done
done

# A real CANN 6.x timeline/: its files name device, model and iteration,
# and the export names its op_summary files the same way.
need_samples
S=$SAMPLES/mindinsight-prof-cann6x-timeline
if [ -d "$S" ]; then
	"$NPUPROF" export summary -q --db "$T/x.db" --output "$T/xo" "$S"
	ok $? "export summary of a legacy timeline/"
	find "$S" -name 'msprof_*.json' | sed 's,.*/msprof_,op_summary_,;
	    s,\.json$,.csv,' | sort >"$T/want"
	# Its two devices are ranks 0 and 1 (info.json.N): a directory each.
	ls "$T"/xo/rank_* | grep '^op_summary_' | sort >"$T/got"
	same_file "$T/got" "$T/want" \
	    "op_summary_<dev>_<model>_<iter>.csv as the vendor's msprof_*.json"
	is "$(cat "$T"/xo/rank_*/op_summary_* | grep -vc '^Model Name,')" \
	    "$(($("$NPUPROF" show -q --db "$T/x.db" --format csv "$S" \
	    op_summary | wc -l) - 1))" "every task, once"
fi
done_testing
