#!/usr/bin/env python3
"""Write two torch_npu runs, BASE and NEW, that differ in known ways, for
the comparison tables: in NEW the MatMulV2 kernels of step 1 take twice
as long, a Gelu kernel is added and the Cast kernel is gone; its PyTorch
ops of step 1 take longer (aten::mm twice as long, aten::linear around
it 30 ms more) and an aten::gelu op is added in step 2; the rest is the
same. Each run is a <name>_ascend_pt folder with profiler_info_0.json
and ASCEND_PROFILER_OUTPUT/ holding kernel_details.csv (as torch_npu
writes it: shapes in doubled quotes, CRLF) and trace_view.json with the
ops (cpu_op events under ProfilerStep#1 and #2, one on a second thread)
and the HCCL process: allreduce ops on its "Group 0 Communication" thread
and their tasks on "Plane 0"; in NEW the allreduce of step 1 takes 3 ms
more (its Notify_Wait), and a broadcast is added in step 2.

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


# name, thread, start and duration in us from the run's start.
BASE_OPS = [("ProfilerStep#1", 1, 0, 100000),
            ("aten::linear", 1, 1000, 50000),
            ("aten::mm", 1, 2000, 30000),
            ("aten::add", 1, 33000, 10000),
            ("aten::relu", 1, 60000, 20000),
            ("ProfilerStep#2", 1, 200000, 100000),
            ("aten::linear", 1, 201000, 40000),
            ("aten::mm", 1, 202000, 25000),
            ("aten::add", 2, 250000, 5000)]
NEW_OPS = [("ProfilerStep#1", 1, 0, 120000),
           ("aten::linear", 1, 1000, 80000),
           ("aten::mm", 1, 2000, 60000),
           ("aten::add", 1, 63000, 10000),
           ("aten::relu", 1, 85000, 20000),
           ("ProfilerStep#2", 1, 200000, 100000),
           ("aten::linear", 1, 201000, 40000),
           ("aten::mm", 1, 202000, 25000),
           ("aten::add", 2, 250000, 5000),
           ("aten::gelu", 1, 260000, 3000)]


# HCCL: name, thread (0 the ops, 1 the plane), start, duration (us).
BASE_HCCL = [("hcom_allReduce__1_0_1", 0, 40000, 5000),
             ("Notify_Wait", 1, 40100, 1000),
             ("Memcpy", 1, 41200, 2000),
             ("Notify_Record", 1, 43300, 500),
             ("hcom_allReduce__2_0_1", 0, 210000, 3000),
             ("Memcpy", 1, 210100, 1500),
             ("Notify_Wait", 1, 211700, 800)]
NEW_HCCL = [("hcom_allReduce__1_0_1", 0, 40000, 8000),
            ("Notify_Wait", 1, 40100, 4000),
            ("Memcpy", 1, 44200, 2000),
            ("Notify_Record", 1, 46300, 500),
            ("hcom_allReduce__2_0_1", 0, 210000, 3000),
            ("Memcpy", 1, 210100, 1500),
            ("Notify_Wait", 1, 211700, 800),
            ("hcom_broadcast__2_1_1", 0, 220000, 1000),
            ("Memcpy", 1, 220100, 500)]


def trace(ops, hccl):
    """The trace_view.json events of OPS and of HCCL."""
    ev = [{"ph": "X", "cat": "cpu_op", "name": name, "pid": 7, "tid": tid,
           "ts": "%.3f" % (1700000000000000.0 + ts), "dur": dur,
           "args": {}} for name, tid, ts, dur in ops]
    ev += [{"ph": "M", "name": "process_name", "pid": 9, "tid": 0,
            "args": {"name": "HCCL"}},
           {"ph": "M", "name": "thread_name", "pid": 9, "tid": 0,
            "args": {"name": "Group 0 Communication"}},
           {"ph": "M", "name": "thread_sort_index", "pid": 9, "tid": 0,
            "args": {"sort_index": 0}},
           {"ph": "M", "name": "thread_name", "pid": 9, "tid": 1,
            "args": {"name": "Plane 0"}},
           {"ph": "M", "name": "thread_sort_index", "pid": 9, "tid": 1,
            "args": {"sort_index": 1}}]
    ev += [{"ph": "X", "name": name, "pid": 9, "tid": tid,
            "ts": "%.3f" % (1700000000000000.0 + ts), "dur": dur,
            "args": {}} for name, tid, ts, dur in hccl]
    return ev


def write(top, rows, ops, hccl):
    out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(top, "profiler_info_0.json"), "w") as f:
        json.dump({"rank_id": 0}, f)
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        json.dump(trace(ops, hccl), f)
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


write(os.path.join(sys.argv[1], "base_ascend_pt"), BASE, BASE_OPS,
      BASE_HCCL)
write(os.path.join(sys.argv[1], "new_ascend_pt"), NEW, NEW_OPS, NEW_HCCL)
