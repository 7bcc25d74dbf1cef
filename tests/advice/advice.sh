#!/bin/sh
# show PATH advice on the runs of gen-advice.py: the bad run has one of
# each problem the rules look for, and every finding, with its numbers,
# is written out below (worked by hand in gen-advice.py: the 2000 us gap
# before Relu_gap, 71.8% of the device's 2.787 ms; Cast on the AI CPU
# while one Cast runs on the AI Core; TransData 240 of 749 us of op types
# with PMU data; ...); the overall breakdown comes first, then the
# findings by severity. The good run, the same without the problems, has
# none but the memory peak's information. Then thresholds from
# config.yaml, a mistake in it, --rank, --sort and --limit, the rules
# table, and a run the rules cannot read (no trace).
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/advice/gen-advice.py" "$T" || exit 1
B="$T/bad_ascend_pt"
G="$T/good_ascend_pt"
XDG_CONFIG_HOME="$T/cfg"
export XDG_CONFIG_HOME

cut_cols() {	# the columns a person reads: severity, rule, rank, finding
	"$PY" -c 'import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for r in csv.reader(sys.stdin):
    w.writerow([r[0], r[2], r[3], r[4], r[6]])'
}

cat >"$T/bad.want" <<'EOT'
Severity,Rule,Rank,Finding,Where
info,overall,0,"Computing Time: 3.500 ms, 35.0% of 10.000 ms end to end, 18 kernels",overall
info,overall,0,"  Matmul: 0.400 ms, 4.0% of 10.000 ms end to end, 4 kernels",overall
info,overall,0,"    Matmul (Cube): 0.400 ms, 4.0% of 10.000 ms end to end, 4 kernels",overall
info,overall,0,"  Vector: 0.289 ms, 2.9% of 10.000 ms end to end, 14 kernels",overall
info,overall,0,"    Vector (Trans): 0.244 ms, 2.4% of 10.000 ms end to end, 5 kernels",overall
info,overall,0,"    Vector (No Trans): 0.045 ms, 0.5% of 10.000 ms end to end, 9 kernels",overall
info,overall,0,"  Other: 2.811 ms, 28.1% of 10.000 ms end to end",overall
info,overall,0,"Uncovered Communication Time: 2.500 ms, 25.0% of 10.000 ms end to end",overall
info,overall,0,"  Group 0 Communication: 2.500 ms, 25.0% of 10.000 ms end to end",overall
info,overall,0,"    Wait: 1.500 ms, 15.0% of 10.000 ms end to end",overall
info,overall,0,"    Transmit: 1.000 ms, 10.0% of 10.000 ms end to end",overall
info,overall,0,"Free Time: 4.000 ms, 40.0% of 10.000 ms end to end",overall
info,overall,0,"  Free: 4.000 ms, 40.0% of 10.000 ms end to end",overall
high,free-time,0,"the device is free (neither computing nor communicating) 4.000 ms, 40.0% of the run",overall
high,uncovered-communication,0,"communication group Group 0 Communication is uncovered by computing 2.500 ms, 25.0% of the run: 1.500 ms waiting, 1.000 ms transmitting",overall
high,wait-ratio,0,"1 of 4 communication ops wait 20% of their time or more, 1.500 ms waiting in them; most hcom_allReduce__1_0_1@g0, 60.0%",communication:Wait Time Ratio
high,packet,0,"100.0% of the communication ops that use SDMA (5 of 5) move under 16 MB each, 1.250 ms of transfers in all",communication_bandwidth:Transport Type:^SDMA$
high,aicpu,0,"Cast runs on the AI CPU: 2 kernels, 60.000 us in all, the longest 30.000 us; the same op type runs on the AI Core elsewhere in this run",kernels:OP Type:^Cast$
high,launch-gap,0,"device 0 is idle once for 50 us or more between kernels, 2.002 ms in all, 71.8% of its 2.787 ms; the longest, 2002.000 us, before the kernel Relu_gap at 3.782 ms",task:20
high,headroom,0,"TransData takes 0.240 ms (32.0% of computing kernels' time, 4 kernels) yet its busiest pipe (mte2) is busy only 30%",kernels:OP Type:^TransData$
medium,alignment,0,"data not a multiple of 512 bytes goes over SDMA between chips in a communication op: 1 task, 1000.000 us, 1000000 to 1000000 bytes (hcom_allReduce__1_0_1 among them)",spans:Name:^hcom_allReduce__1_0_1$
medium,bandwidth,0,"1 of 4 HCCS transfers of 1 MB or more run under 50% of their median bandwidth, 20.00 GB/s; the slowest, hcom_allReduce__3_0_1@g0, at 5.00 GB/s",communication_bandwidth:Transport Type:^HCCS$
medium,dynamic-shape,0,12 of 20 kernels (60%) have dynamic shapes: each is compiled or tiled as it runs,kernels:OP State:^dynamic$
medium,synchronize,0,12 stream synchronizations (aclrtSynchronizeStream) take 0.120 ms: the host waits for the device each time,spans:Name:SynchronizeStream
medium,syncbn,0,"25 SyncBatchNorm calls, 0.125 ms: each gathers statistics over the ranks",spans:Name:SyncBatchNorm
medium,fused-optimizer,0,"the optimizer steps with Adam once, 0.500 ms: torch_npu has a fused Adam",spans:Name:^Optimizer.step#Adam
medium,memory-ops,0,4 aclMallocMemInner calls take 12000.000 us: the device waits while memory is allocated or freed,spans:Name:aclMallocMemInner
medium,env,0,ACLNN_CACHE_LIMIT is not set,env_variables
medium,env,0,ASCEND_LAUNCH_BLOCKING is '1',env_variables
medium,bound,0,"MatMulV2 is memory bound: its mte2 pipe is busy 90% of its 0.400 ms (53.4% of computing kernels' time, 4 kernels)",kernels:OP Type:^MatMulV2$
info,memory-peak,0,"memory reserved peaks at 3000.0 MB (APP, NPU:0)",memory_record:Total Reserved
EOT
"$NPUPROF" show -q --format csv "$B" advice | cut_cols >"$T/bad.csv"
same_file "$T/bad.csv" "$T/bad.want" "bad run: every problem, with its numbers"

"$NPUPROF" show -q --format csv "$B" advice >"$T/full.csv"
grep -q '^high,Computing,aicpu,0,.*,"AI CPU kernels are slow' "$T/full.csv"
ok $? "a finding has its category and the rule's suggestion"
grep -q '^medium,Environment,env,0,ACLNN_CACHE_LIMIT is not set,A larger' \
    "$T/full.csv"
ok $? "a finding can have a suggestion of its own"

"$NPUPROF" show -q --format csv "$G" advice | cut_cols |
    grep -v ',overall,' >"$T/good.csv"
cat >"$T/good.want" <<'EOT'
Severity,Rule,Rank,Finding,Where
info,memory-peak,0,"memory reserved peaks at 2000.0 MB (APP, NPU:0)",memory_record:Total Reserved
EOT
same_file "$T/good.csv" "$T/good.want" "good run: nothing to fix"

# Rules that have nothing to read are named, not silently left out.
"$NPUPROF" show "$G" advice >"$T/good.txt" 2>&1
grep -q '^(rules not applied: cluster (needs a cluster.s findings' \
    "$T/good.txt"
ok $? "the table says which rules did not apply, and why"

# Thresholds from config.yaml.
mkdir -p "$T/cfg/npuprof-tui"
printf 'advice:\n  free-time: 0.5\n  aicpu: 100\n  memory-peak: 2500\n' \
    >"$T/cfg/npuprof-tui/config.yaml"
"$NPUPROF" show -q --format csv "$B" advice | cut -d, -f3 | sort -u \
    >"$T/rules"
grep -qx free-time "$T/rules"
ok $((! $?)) "free-time: 0.5: 40% free is no finding"
grep -qx aicpu "$T/rules"
ok $((! $?)) "aicpu: 100: 60 us on the AI CPU is no finding"
is "$("$NPUPROF" show -q --format csv "$B" advice | grep memory-peak |
    cut -d, -f1)" "medium" "memory-peak: 2500: a 3000 MB peak is a finding"
is "$("$NPUPROF" show -q --format csv "$B" advice_rules | "$PY" -c '
import csv, sys
for r in csv.reader(sys.stdin):
    if r[0] == "free-time":
        print(r[3])')" "0.5" "advice_rules shows the threshold"
printf 'advice:\n  no-such-rule: 1\n' >"$T/cfg/npuprof-tui/config.yaml"
"$NPUPROF" show --format csv "$B" advice >"$T/out" 2>"$T/err"
ok $? "a mistake in config.yaml: still advice"
grep -q "config.yaml:2: unknown advice rule 'no-such-rule'" "$T/err"
ok $? "a mistake in config.yaml: a warning naming the line"
for v in inf 1e400 nan; do
	printf 'advice:\n  aicpu: %s\n' "$v" >"$T/cfg/npuprof-tui/config.yaml"
	"$NPUPROF" show --format csv "$B" advice >/dev/null 2>"$T/err"
	grep -q "config.yaml:2: the threshold of 'aicpu' must be a finite number, not '$v'" \
	    "$T/err"
	ok $? "a threshold of $v: a warning naming the line"
done
rm -rf "$T/cfg"

is "$("$NPUPROF" show -q --format csv "$B" advice_rules | tail -n +2 |
    wc -l | tr -d ' ')" 19 "advice_rules: every rule"
"$NPUPROF" show -q --format csv --rank 1 "$B" advice >/dev/null 2>"$T/err"
is $? 2 "--rank 1 of a run of rank 0 only: an error"
grep -q 'no rank 1 in this profile (ranks 0)' "$T/err"
ok $? "that names the rank there is"
is "$("$NPUPROF" show -q --format csv --sort Rule --limit 1 "$B" advice |
    tail -1 | cut -d, -f3)" "aicpu" "--sort Rule --limit 1"

# A run without a trace: the rules that need one say so.
mkdir -p "$T/notrace_ascend_pt/ASCEND_PROFILER_OUTPUT"
cp "$B/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
    "$T/notrace_ascend_pt/ASCEND_PROFILER_OUTPUT/"
"$NPUPROF" show "$T/notrace_ascend_pt" advice >"$T/nt.txt" 2>&1
grep -q "rules not applied: overall (needs the trace's overlap analysis, or a database export)" \
    "$T/nt.txt"
ok $? "no trace: overall is not applied, and why"
grep -q "aicpu *N/A *Cast runs on the AI CPU" "$T/nt.txt"
ok $? "no trace: the kernels' rules still apply"
done_testing
