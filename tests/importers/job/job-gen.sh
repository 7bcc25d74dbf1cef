#!/bin/sh
# Generated legacy JOB directories (both layouts, text and binary GE task
# descriptions with wrapped task ids, several seeds) decode into
# exactly the tables the generator computed from its own values: step
# trace, task description, op_statistic from the HWTS logs joined to the
# ops, the legacy acl_statistic, runtime API spans, task_track, msproftx
# markers, the AI CPU table (text or binary records), op names by hash id
# (one unresolved, in hex), and for binary JOBs the shapes from
# tensor_data_info, step_info and id_map_info; with aicore.data, the PMU
# columns of op_summary.
# Damaged files import what is sound and say where the damage is.
. "$top_srcdir/tests/lib.sh"
[ -x "$GEN" ] || skip_all "no generator at $GEN"

for seed in 1 7; do
	for layout in data flat binary; do
		q=
		[ $layout = flat ] && q=--quirks
		[ $layout = binary ] && q=--binary
		d=$T/s$seed$layout
		"$GEN" job "$d/JOB" -s $seed -n 20 -S 3 -t 6 -a 120 \
		    -e "$d/expect" $q
		ok $? "seed $seed $layout: generate"
		"$NPUPROF" import -q --db "$d.db" "$d/JOB" 2>/dev/null
		ok $? "seed $seed $layout: import"
		for t in step_trace task_desc op_statistic acl_statistic aicpu; do
			"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" \
			    $t >"$d/$t.got"
			same_file "$d/$t.got" "$d/expect/$t.csv" \
			    "seed $seed $layout: $t as generated"
		done
		if [ $layout = data ]; then
			"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" \
			    warnings >"$d/warn"
			grep -q '1 AI CPU thread record without a node record' \
			    "$d/warn" && grep -q '1 AI CPU node record without' \
			    "$d/warn"
			ok $? "seed $seed data: lone AI CPU records are counted"
		fi
		if [ $layout = binary ]; then
			"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" \
			    warnings >"$d/warn"
			grep -q 'AICPU.0.slice_0,896,"1 of 8 AI CPU records skipped' \
			    "$d/warn" && grep -q '1 AI CPU record matches no task' \
			    "$d/warn"
			ok $? "seed $seed binary: AI CPU records skipped or unnamed are counted"
			grep -q '1 of 20 op names are hash ids that no hash_dic line resolves: shown in hex' \
			    "$d/warn"
			ok $? "seed $seed binary: an op name no hash_dic resolves is reported"
		fi
		ge=
		[ $layout = binary ] && ge="ge_step_info ge_id_map"
		for t in runtime_task_track msproftx $ge; do
			"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" \
			    $t >"$d/$t.got"
			same_file "$d/$t.got" "$d/expect/$t.csv" \
			    "seed $seed $layout: $t as generated"
		done
		"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" \
		    api_statistic | awk -F, 'NR == 1 || $2 == "runtime" {
		    print $2 "," $3 "," $4 "," $5 "," $7 "," $8 }' \
		    >"$d/rt.got"
		same_file "$d/rt.got" "$d/expect/runtime_api.csv" \
		    "seed $seed $layout: Runtime.api spans in api_statistic"
	done
done

# AI Core PMU (aicore.data): op_summary's PMU columns as the generator
# computed them from its counters, text and binary task descriptions.
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
for layout in data binary; do
	q=
	[ $layout = binary ] && q=--binary
	d=$T/pmu$layout
	"$GEN" job "$d/JOB" -s 3 -n 20 -S 3 -t 4 -a 50 --pmu $q -e "$d/expect"
	ok $? "pmu $layout: generate"
	"$NPUPROF" import -q --db "$d.db" "$d/JOB" 2>/dev/null
	ok $? "pmu $layout: import"
	[ -n "$PYTHON3" ] || continue
	"$NPUPROF" show -q --db "$d.db" --format csv "$d/JOB" op_summary |
	    "$PYTHON3" -c 'import csv, sys
cols = sys.argv[1].split(",")
print(",".join(cols))
for row in csv.DictReader(sys.stdin):
    print(",".join(row.get(c, "?") for c in cols))' \
	    "$(head -n 1 "$d/expect/pmu.csv")" >"$d/pmu.got"
	same_file "$d/pmu.got" "$d/expect/pmu.csv" \
	    "pmu $layout: AI Core time, cycles and PipeUtilization ratios"
done
d=$T/pmudata/JOB
head -c 1000 "$d/data/aicore.data.0.slice_0" >"$T/cut" &&
    mv "$T/cut" "$d/data/aicore.data.0.slice_0"
"$NPUPROF" import --db "$T/pmucut.db" "$d" >/dev/null 2>"$T/err"
ok $? "a cut aicore.data still imports"
grep -q 'aicore.data.0.slice_0: offset 896: 104 trailing bytes' "$T/err"
ok $? "the cut is reported at its byte offset"

# The HWTS log in slices cut inside records (the log is read as one
# stream): the same per-op times as the whole file.
d=$T/s7data/JOB/data
h=$d/hwts.log.data.45.dev.profiler_default_tag.0.slice_0
size=$(wc -c <"$h")
cut1=$((size / 3 + 13))
cut2=$((size / 3 * 2 + 41))
head -c $cut1 "$h" >"$T/a"
tail -c +$((cut1 + 1)) "$h" | head -c $((cut2 - cut1)) >"$T/b"
tail -c +$((cut2 + 1)) "$h" >"$T/c"
mv "$T/a" "$h"
mv "$T/b" "$d/hwts.log.data.45.dev.profiler_default_tag.0.slice_1"
mv "$T/c" "$d/hwts.log.data.45.dev.profiler_default_tag.0.slice_2"
"$NPUPROF" import --db "$T/sliced.db" "$T/s7data/JOB" >/dev/null 2>"$T/err"
ok $? "an HWTS log in three slices cut inside records imports"
"$NPUPROF" show -q --db "$T/sliced.db" --format csv "$T/s7data/JOB" \
    op_statistic >"$T/sliced.csv"
same_file "$T/sliced.csv" "$T/s7data/expect/op_statistic.csv" \
    "the sliced log gives the op_statistic of the whole one"
grep -q 'trailing bytes' "$T/err"
is $? 1 "records across slice boundaries are not reported as cut"

# How show prints a generated JOB, kept as a golden: the default table
# (op_statistic) and the first rows of the step trace and task description.
d=$T/s1data
"$NPUPROF" show -q --db "$d.db" "$d/JOB" >"$T/show.table"
"$NPUPROF" show -q --db "$d.db" --limit 3 "$d/JOB" step_trace task_desc \
    acl_statistic >>"$T/show.table"
golden "$T/show.table" job-gen.table "seed 1: show prints the JOB tables"

# Damage: a cut step trace, a foreign AclModule file.
d=$T/s1data/JOB
tr=$d/data/training_trace.46.dev.profiler_default_tag.0.slice_0
size=$(wc -c <"$tr")
head -c $((size - 27)) "$tr" >"$tr.cut" && mv "$tr.cut" "$tr"
printf 'not an acl record' >"$d/data/AclModule.acl_rts.0.slice_0"
"$NPUPROF" import --db "$T/bad.db" "$d" >/dev/null 2>"$T/err"
ok $? "damaged JOB still imports"
grep -q "training_trace.*offset $(( (size - 27) / 20 * 20 )): 13 trailing bytes" "$T/err"
ok $? "the cut step trace is reported at its byte offset"
grep -q 'AclModule.acl_rts.0.slice_0: offset 0: not AclModule records' "$T/err"
ok $? "the foreign AclModule file is reported by name"
"$NPUPROF" show -q --db "$T/bad.db" --format csv "$d" step_trace |
    tail -n +2 | wc -l | tr -d ' ' >"$T/n"
is "$(cat "$T/n")" 5 "the five whole iterations remain"
done_testing
