#!/usr/bin/env python3
"""Write two torch_npu runs, BASE and NEW, that differ in known ways, for
the comparison tables: in NEW the MatMulV2 kernels of step 1 take twice
as long, a Gelu kernel is added and the Cast kernel is gone; the rest is
the same. Each run is a <name>_ascend_pt folder with profiler_info_0.json
and ASCEND_PROFILER_OUTPUT/ holding kernel_details.csv (as torch_npu
writes it: shapes in doubled quotes, CRLF) and an empty trace_view.json.

usage: gen-pair.py DIR   (writes DIR/base_ascend_pt and DIR/new_ascend_pt)
"""
import json
import os
import sys

HEAD = ("Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,"
        "Accelerator Core,Start Time(us),Duration(us),Wait Time(us),"
        "Block Num,Mix Block Num,HF32 Eligible,Input Shapes,"
        "Input Data Types,Input Formats,Output Shapes,Output Data Types,"
        "Output Formats,Context ID,aicore_time(us),aic_total_cycles")

# step, op type, core, input shapes, duration (us); "N/A" types are left
# out of the comparison.
BASE = [(1, "MatMulV2", "AI_CORE", "8,64", 10.0),
        (1, "Add", "AI_VECTOR_CORE", "8", 1.5),
        (1, "MatMulV2", "AI_CORE", "8,64", 20.0),
        (1, "Add", "AI_VECTOR_CORE", "8", 1.5),
        (1, "Cast", "AI_VECTOR_CORE", "4", 2.0),
        (1, "N/A", "N/A", "", 5.0),
        (2, "MatMulV2", "AI_CORE", "8,64", 12.0),
        (2, "Add", "AI_VECTOR_CORE", "8", 1.5),
        (2, "Add", "AI_VECTOR_CORE", "16", 3.25)]
NEW = [(1, "MatMulV2", "AI_CORE", "8,64", 20.0),
       (1, "Add", "AI_VECTOR_CORE", "8", 1.5),
       (1, "MatMulV2", "AI_CORE", "8,64", 40.0),
       (1, "Add", "AI_VECTOR_CORE", "8", 1.5),
       (1, "Gelu", "AI_VECTOR_CORE", "8,64", 5.25),
       (1, "N/A", "N/A", "", 5.0),
       (2, "MatMulV2", "AI_CORE", "8,64", 12.0),
       (2, "Add", "AI_VECTOR_CORE", "8", 1.5),
       (2, "Add", "AI_VECTOR_CORE", "16", 3.25)]


def write(top, rows):
    out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(top, "profiler_info_0.json"), "w") as f:
        json.dump({"rank_id": 0}, f)
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        f.write("[]")
    t = 1700000000000000.0
    with open(os.path.join(out, "kernel_details.csv"), "w",
              newline="") as f:
        f.write(HEAD + "\r\n")
        for i, (step, op, core, shape, dur) in enumerate(rows):
            q = '"""%s"""' % shape if shape else ""
            f.write("%d,0,4294967295,%d,40,%s_%d,%s,dynamic,%s,%.3f\t,"
                    "%.3f,0,8,0,NO,%s,FLOAT16,ND,%s,FLOAT16,ND,N/A,%.3f,"
                    "%d\r\n" % (step, i, op, i, op, core, t, dur, q, q,
                                dur, int(dur * 1800)))
            t += dur + 2.0


write(os.path.join(sys.argv[1], "base_ascend_pt"), BASE)
write(os.path.join(sys.argv[1], "new_ascend_pt"), NEW)
