#!/bin/sh
# show --compare BASE NEW overall on the generated pair of gen-overall.py:
# every part of msprof-analyze's OverallMetrics sheet, written out below as
# the tool itself gives it for this pair (tests/compare/msprof-analyze.sh
# checks the tool when it is installed). Worked by hand, for BASE:
# computing is the overlap analysis's two Computing spans, 300 + 200 us =
# 0.5 ms of an end to end of 50000 - 20000 us = 30 ms (ratio 0.016667),
# of 19 kernels (21 less the AI CPU one without PMU data and the MC2
# one); the conv forward op's kernels are Conv2D (cube, 20.5 us) and a
# TransData (vector, 5), the backward op's on the fwdbwd thread are Conv
# (Backward); Conv2DBackpropInput without a flow is Conv (Backward) (Cube)
# by its type; the MC2 kernel's communication is the C_CORE_SQE pairs
# ending within it, (20311 - 20307) + (20341 - 20331) = 14 us; group dp's
# ops are uncovered 5000 + 1100 us = 6.1 ms; its Plane 1 waits least
# (the Notify_Wait after two RDMASend tasks is a transfer, not a wait):
# 300 + 50 us = 0.35 ms; free time is 30 - 0.5 - 0.006 (LCCL) - 6.3005 =
# 23.1935 ms, of which SDMA copies on the computing stream that waits on
# events, 5 + 7.5 us (not those of the copy stream, nor stream 0). NEW's
# groups have other ids but the same names, so they pair by name; its
# group pp is its own. Then the pair the other way round, a run without
# the overlap analysis, and one whose kernels have no PMU columns.
. "$top_srcdir/tests/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/compare/gen-overall.py" "$T" || exit 1
B="$T/base_ascend_pt"
N="$T/new_ascend_pt"

cat >"$T/all.want" <<'EOT'
Index,Base Duration(ms),Base Duration Ratio,Base Number,Comparison Duration(ms),Comparison Duration Ratio,Comparison Number,Diff Duration(ms),Diff Ratio
Computing Time,0.5,0.016667,19,0.53,0.015362,20,0.03,1.06
  MatmulAllReduce,0.05,0.001667,1,0.05,0.001449,1,0.0,1.0
    Computing,0.025,0.000833,/,0.025,0.000725,/,0.0,1.0
    Communication,0.014,0.000467,/,0.014,0.000406,/,0.0,1.0
  Flash Attention (Forward),0.028,0.000933,2,0.028,0.000812,2,0.0,1.0
    Flash Attention (Forward) (Cube),0.025,0.000833,1,0.025,0.000725,1,0.0,1.0
    Flash Attention (Forward) (Vector),0.003,0.0001,1,0.003,0.000087,1,0.0,1.0
  Flash Attention (Backward),0.056,0.001867,3,0.056,0.001623,3,0.0,1.0
    Flash Attention (Backward) (Cube),0.05,0.001667,2,0.05,0.001449,2,0.0,1.0
    Flash Attention (Backward) (Vector),0.006,0.0002,1,0.006,0.000174,1,0.0,1.0
  Conv (Forward),0.0255,0.00085,2,0.0405,0.001174,2,0.01,1.5882
    Conv (Forward) (Cube),0.0205,0.000683,1,0.0355,0.001029,1,0.01,1.7317
    Conv (Forward) (Vector),0.005,0.000167,1,0.005,0.000145,1,0.0,1.0
  Conv (Backward),0.042,0.0014,3,0.042,0.001217,3,0.0,1.0
    Conv (Backward) (Cube),0.038,0.001267,2,0.038,0.001101,2,0.0,1.0
    Conv (Backward) (Vector),0.004,0.000133,1,0.004,0.000116,1,0.0,1.0
  Matmul,0.029125,0.000971,3,0.029125,0.000844,3,0.0,1.0
    Matmul (Cube),0.027125,0.000904,2,0.027125,0.000786,2,0.0,1.0
    Matmul (Vector),0.002,0.000067,1,0.002,0.000058,1,0.0,1.0
  Page Attention,0.009,0.0003,1,0.009,0.000261,1,0.0,1.0
  Vector,0.0075,0.00025,3,0.00975,0.000283,4,0.0,1.3
    Vector (Trans),0.004,0.000133,1,0.004,0.000116,1,0.0,1.0
    Vector (No Trans),0.0035,0.000117,2,0.00575,0.000167,3,0.0,1.6429
  Cube,0.007,0.000233,1,0.007,0.000203,1,0.0,1.0
  SDMA (Tensor Move),0.003,0.0001,1,0.003,0.000087,1,0.0,1.0
  Other,0.242875,0.008096,/,0.255625,0.007409,/,0.01,1.0525
Uncovered Communication Time,6.3005,0.210017,/,10.8,0.313041,/,4.5,1.7141
  dp: Communication,6.1,0.203333,/,10.4,0.301447,/,4.3,1.7049
    Wait,0.35,0.011667,/,0.7,0.02029,/,0.35,2.0
    Transmit,5.75,0.191667,/,9.7,0.281157,/,3.95,1.687
  tp: Communication,1.3,0.043333,/,2.3,0.066666,/,1.0,1.7692
    Wait,0.9,0.03,/,1.9,0.055072,/,1.0,2.1111
    Transmit,0.4,0.013333,/,0.4,0.011594,/,0.0,1.0
  pp: Group 30 Communication,0.0,0.0,/,0.8,0.023188,/,0.8,INF
    Wait,0.0,0.0,/,0.3,0.008696,/,0.3,INF
    Transmit,0.0,0.0,/,0.5,0.014493,/,0.5,INF
  Uncovered Communication Overlapped,1.3,0.043333,/,2.9,0.084057,/,1.6,2.2308
    dp & tp,1.3,0.043333,/,2.3,0.066666,/,1.0,1.7692
    dp & pp,0.0,0.0,/,0.6,0.017391,/,0.6,INF
Free Time,23.1935,0.773117,/,23.16425,0.671423,/,-0.03,0.9987
  SDMA,0.0125,0.000417,/,0.015,0.000435,/,0.0,1.2
  Free,23.181,0.7727,/,23.14925,0.670988,/,-0.03,0.9986
E2E Time,30.0,1.0,/,34.50025,1.0,/,4.5,1.15
EOT
"$NPUPROF" show -q --compare --format csv "$B" "$N" overall >"$T/all.csv"
same_file "$T/all.csv" "$T/all.want" "overall: every part, as the tool's"

# The other way round: NEW's own group pp is now the base's, and comes
# after the groups paired by name.
"$NPUPROF" show -q --compare --format csv "$N" "$B" overall >"$T/rev.csv"
is "$(grep -n 'pp: Group 30' "$T/rev.csv")" \
    "35:  pp: Group 30 Communication,0.8,0.023188,/,0.0,0.0,/,-0.8,0.0" \
    "reversed: a group only the base has, diff negative, ratio 0"
is "$(sed -n 2p "$T/rev.csv")" \
    "Computing Time,0.53,0.015362,20,0.5,0.016667,19,-0.03,0.9434" \
    "reversed: computing time and count"

# --step does not apply: the whole collection counts, as in the tool.
"$NPUPROF" show -q --compare --format csv --step 1 "$B" "$N" overall \
    >"$T/step.csv"
same_file "$T/step.csv" "$T/all.want" "--step: the whole collection"

# A run without the trace's overlap analysis is an error, not zeros.
mkdir -p "$T/bare_ascend_pt/ASCEND_PROFILER_OUTPUT"
cp "$B/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
    "$T/bare_ascend_pt/ASCEND_PROFILER_OUTPUT/"
"$NPUPROF" show -q --compare "$T/bare_ascend_pt" "$N" overall \
    >"$T/bare.out" 2>"$T/bare.err"
ok $((! $?)) "no overlap analysis: an error"
grep -q "has no Overlap Analysis process in its trace" "$T/bare.err"
ok $? "no overlap analysis: says what is missing"

# Kernels without mac_time(us) and aiv_vec_time(us): computing is not
# split, all of it is Other.
mkdir -p "$T/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT"
cp "$B/profiler_info_0.json" "$T/nopmu_ascend_pt/"
cp "$B/ASCEND_PROFILER_OUTPUT/trace_view.json" \
    "$T/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT/"
cut -d, -f1-23 "$B/ASCEND_PROFILER_OUTPUT/kernel_details.csv" \
    >"$T/nopmu_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" show -q --compare --format csv "$T/nopmu_ascend_pt" "$B" \
    overall >"$T/nopmu.csv"
is "$(grep '^  Other,' "$T/nopmu.csv" | cut -d, -f2,4)" "0.5,/" \
    "no PMU columns: all computing is Other"
is "$(grep '^  Conv (Forward),' "$T/nopmu.csv" | cut -d, -f2-4)" \
    "0.0,0.0,0" "no PMU columns: no kernel split in that run"
done_testing
