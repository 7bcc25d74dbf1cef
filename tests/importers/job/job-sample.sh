#!/bin/sh
# The real legacy JOB sample (Ascend 910 + MindSpore, 2020) decodes: JOB3's
# step trace is self-consistent (FP start <= BP end <= iteration end,
# positive iteration times, every iteration of the raw file), its task
# description carries op types from graph_desc_info, JOB_AICPU gives the
# rows MindSpore's own parse of the same file gives, JOB3's TDT log gives
# one tdt row per record, and ERROR_JOB and the
# container layout import with a clear word on what is missing.
. "$top_srcdir/tests/lib.sh"
need_samples
J=$SAMPLES/mindinsight-job-legacy-raw
[ -d "$J" ] || skip_all "no mindinsight-job-legacy-raw sample"

show() {	# show NAME DIR TABLE...: CSV rows of TABLE, header dropped
	db=$1 dir=$2
	shift 2
	"$NPUPROF" show -q --db "$T/$db.db" --format csv "$dir" "$@" |
	    tail -n +2
}

"$NPUPROF" import -q --db "$T/job3.db" "$J/JOB3" 2>"$T/err"
ok $? "JOB3 imports"
show job3 "$J/JOB3" step_trace >"$T/steps"
# Each iteration ends with tag 255 (a u64 at the head of each 20-byte
# record): count them in the raw file.
want=$(od -An -v -tu1 -w20 \
    "$J/JOB3/data/training_trace.46.dev.profiler_default_tag.1.slice_0" |
    awk '$1 == 255 && $2 + $3 + $4 + $5 + $6 + $7 + $8 == 0' | wc -l |
    tr -d ' ')
is "$(wc -l <"$T/steps" | tr -d ' ')" "$want" "JOB3: one step_trace row per iteration end ($want)"
awk -F, '{ if (!($3 <= $4 && $4 <= $5 && $6 > 0 && $7 > 0 && $8 > 0)) bad++
    if ($2 != NR) bad++ } END { exit bad > 0 }' "$T/steps"
ok $? "JOB3: FP start <= BP end <= iteration end, times positive, ids 1..n"
awk -F, 'NR > 1 { d = $3 - prev; if (d < 0) d = -d
    if (d - ($6 - $7 - $8) > 0.002 || ($6 - $7 - $8) - d > 0.002) bad++ }
    { prev = $5 } END { exit bad > 0 }' "$T/steps"
ok $? "JOB3: iteration time = data aug bound + FP to BP + refresh"
show job3 "$J/JOB3" task_desc >"$T/ops"
is "$(wc -l <"$T/ops" | tr -d ' ')" \
    "$(wc -l <"$J/JOB3/Framework.host.vm.task_desc_info.1.slice_0" | tr -d ' ')" \
    "JOB3: one task_desc row per text task_desc line"
grep -q '^30092,3,1,Default/AssignAdd-op414,AssignAdd,1;1,INT32;INT32,' "$T/ops"
ok $? "JOB3: task_desc joins graph_desc_info (op type, shapes, types)"
show job3 "$J/JOB3" step_trace_reduce >"$T/reduce"
[ "$(wc -l <"$T/reduce")" -gt 0 ] && awk -F, '$7 <= 0 { bad++ } END { exit bad > 0 }' "$T/reduce"
ok $? "JOB3: all-reduce spans have positive durations"

# Per-op device times: one task row per HWTS end log of a described task
# id (every end in this file follows its start), all with positive
# durations, and an op_statistic over them.
awk '{ print $3 }' "$J/JOB3/Framework.host.vm.task_desc_info.1.slice_0" \
    >"$T/ids"
want=$(od -An -v -tu2 -w64 \
    "$J/JOB3/hwts.log.data.45.dev.profiler_default_tag.1.slice_0" |
    awk 'NR == FNR { id[$1] = 1; next } $1 % 8 == 1 && ($4 in id)' \
    "$T/ids" - | wc -l | tr -d ' ')
show job3 "$J/JOB3" op_summary >"$T/tasks"
is "$(wc -l <"$T/tasks" | tr -d ' ')" "$want" \
    "JOB3: one task row per HWTS end of a described task ($want)"
awk -F, '$10 <= 0 || $6 == "" { bad++ } END { exit bad > 0 }' "$T/tasks"
ok $? "JOB3: every task has an op type and a positive duration"
show job3 "$J/JOB3" op_statistic >"$T/opstat"
awk -F, '{ n += $4 } END { exit n != '"$want"' }' "$T/opstat"
ok $? "JOB3: op_statistic counts every task ($(wc -l <"$T/opstat" | tr -d ' ') op types)"

# The TDT log: one tdt row per NUL-separated record, queue indexes 1..n in
# order, timestamps never going back, and no "not decoded" warning for it.
tdt=$J/JOB3/DATA_PREPROCESS.dev.TDT.1.slice_0
want=$(tr '\0' '\n' <"$tdt" | grep -c .)
show job3 "$J/JOB3" tdt >"$T/tdt"
is "$(wc -l <"$T/tdt" | tr -d ' ')" "$want" "JOB3: one tdt row per TDT record ($want)"
awk -F, '{ if ($4 != NR || $1 < last || $2 != "Enqueue data to dp") bad++
    last = $1 } END { exit bad > 0 }' "$T/tdt"
ok $? "JOB3: TDT indexes 1..n in order, timestamps non-decreasing"
show job3 "$J/JOB3" warnings >"$T/warn"
! grep -q 'TDT' "$T/warn"
ok $? "JOB3: the TDT log is not reported as undecoded"
# A damaged record in a copy of the real log is skipped and reported.
mkdir -p "$T/tdtjob/data"
head -c 186 "$tdt" >"$T/tdtjob/data/DATA_PREPROCESS.dev.TDT.0.slice_0"
printf 'garbage\0' >>"$T/tdtjob/data/DATA_PREPROCESS.dev.TDT.0.slice_0"
tail -c +187 "$tdt" >>"$T/tdtjob/data/DATA_PREPROCESS.dev.TDT.0.slice_0"
"$NPUPROF" import --db "$T/tdt.db" "$T/tdtjob" >/dev/null 2>"$T/err2"
ok $? "a TDT log with a damaged record imports"
grep -q 'DATA_PREPROCESS.dev.TDT.0.slice_0: offset 186: 1 TDT record not of the form' "$T/err2"
ok $? "the damaged record is reported at its offset"
is "$(show tdt "$T/tdtjob" tdt | wc -l | tr -d ' ')" "$want" \
    "the other records are all kept"

"$NPUPROF" import -q --db "$T/aicpu.db" "$J/JOB_AICPU" 2>/dev/null
ok $? "JOB_AICPU imports"
show aicpu "$J/JOB_AICPU" aicpu >"$T/got"
awk '$1 ~ /^[0-9]+$/ { print $1 "," $2 "," $3 "," $4 "," $5 "," $6 }' \
    "$J/JOB_AICPU/expect/output_data_preprocess_aicpu_0.txt" >"$T/want"
same_file "$T/got" "$T/want" "JOB_AICPU: the aicpu rows equal MindSpore's parse"
"$NPUPROF" show -q --db "$T/aicpu.db" --format csv "$J/JOB_AICPU" info |
    grep -q '^aicpu.total_time_ms,4.122000$'
ok $? "JOB_AICPU: total AI CPU time 4.122000 ms as in MindSpore's parse"

"$NPUPROF" import --db "$T/err.db" "$J/ERROR_JOB" 2>"$T/err"
st=$?
[ $st -le 1 ] && grep -q 'task_desc_info' "$T/err"
ok $? "ERROR_JOB: exit $st and says per-op times need task_desc_info"

"$NPUPROF" import -q --db "$T/c.db" "$J/container" 2>/dev/null
ok $? "container/N/data layout imports"
is "$(show c "$J/container" task_desc | wc -l | tr -d ' ')" 4 \
    "container/0/data: the four ops of the JOB2 task_desc"
done_testing
