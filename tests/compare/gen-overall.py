#!/usr/bin/env python3
"""Write two torch_npu runs, BASE and NEW, for the overall comparison
table: every kind of kernel its computing time is split into, and two
communication groups with waits, overlapping each other. Each run is a
<name>_ascend_pt folder with profiler_info_0.json, profiler_metadata.json
(the groups' names) and ASCEND_PROFILER_OUTPUT/ holding kernel_details.csv
(with the PMU columns the split reads) and trace_view.json:

- PyTorch ops (cpu_op) that launch kernels through async_npu flows: a
  convolution forward and one on the backward thread (a fwdbwd flow ends
  there), a matmul, a flash attention forward and its grad, and an add;
- kernels with no flow, told apart by their type: flash attention grad,
  convolution backprop, matmul, paged attention, a tensor move, a GEMM,
  trans and plain vector kernels, an AI CPU kernel without PMU data and
  an MC2 MatmulAllReduce with its C_CORE_SQE tasks;
- Ascend Hardware tasks with their task types and stream ids: SDMA tasks
  on a computing stream (one waiting on events) and on a copy stream, and
  an LCCL kernel_aivec;
- the Overlap Analysis process (Computing, Communication, Communication
  (Not Overlapped), Free);
- the task queue (an enqueue and its dequeue) and operator_memory.csv
  with allocations under the ops, one of a CANN op inside the dequeue;
- the HCCL process: groups 10 (dp) and 20 (tp), each an op thread and
  planes, with Notify_Wait tasks, some after RDMASend pairs (transfers,
  not waits); in NEW the groups are 11 and 21 with the same names, a
  third group 30 (pp) is added, a convolution is slower, a kernel added,
  the waits longer and the CANN op allocates more.

usage: gen-overall.py DIR   (writes DIR/base_ascend_pt, DIR/new_ascend_pt)
"""
import json
import os
import sys

T0 = 1700000000000000.0
HEAD = ("Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,"
        "Accelerator Core,Start Time(us),Duration(us),Wait Time(us),"
        "Block Num,Mix Block Num,HF32 Eligible,Input Shapes,"
        "Input Data Types,Input Formats,Output Shapes,Output Data Types,"
        "Output Formats,Context ID,aicore_time(us),mac_time(us),"
        "aiv_vec_time(us),aic_mac_time(us),aic_mte2_time(us),aiv_time(us)")

# PyTorch ops: name, thread (2 is backward), start, duration (us).
OPS = [("aten::conv2d", 1, 1000, 3000),
       ("aten::mm", 1, 5000, 1000),
       ("npu_fusion_attention", 1, 7000, 1000),
       ("aten::convolution_backward", 2, 10000, 3000),
       ("npu_fusion_attention_grad", 2, 13500, 1000),
       ("aten::add", 1, 15000, 500)]

# Kernels: name, type, stream, start, duration (us), PMU times (aicore,
# mac, aiv_vec; None is N/A), the op (index in OPS) whose flow launched
# it, or None.
BASE_K = [
    ("Conv2D", "Conv2D", 40, 20000.25, 20.5, (18, 12, None), 0),
    ("TransData", "TransData", 40, 20030, 5, (None, 0, 4), 0),
    ("MatMulV2", "MatMulV2", 40, 20040, 15.125, (14, 10, None), 1),
    ("Cast", "Cast", 40, 20060, 2, (None, 0, 1.5), 1),
    ("FlashAttentionScore", "FlashAttentionScore", 40, 20070, 25, (24, 20,
     None), 2),
    ("SoftmaxV2", "SoftmaxV2", 40, 20100, 3, (None, 0, 2), 2),
    ("Conv2DBackpropFilter", "Conv2DBackpropFilter", 40, 20110, 30,
     (29, 25, None), 3),
    ("ReduceSum", "ReduceSum", 40, 20150, 4, (None, 0, 3), 3),
    ("FlashAttentionScoreGrad", "FlashAttentionScoreGrad", 40, 20160, 40,
     (38, 30, None), 4),
    ("Mul", "Mul", 40, 20205, 6, (None, 0, 5), 4),
    ("Add", "Add", 40, 20215, 2, (None, 0, 1.5), 5),
    ("FlashAttentionScoreGrad", "FlashAttentionScoreGrad", 40, 20220, 10,
     (9, 8, None), None),
    ("Conv2DBackpropInput", "Conv2DBackpropInput", 40, 20235, 8,
     (7, 6, None), None),
    ("MatMulV3", "MatMulV3", 40, 20245, 12, (11, 10, None), None),
    ("PagedAttention", "PagedAttention", 40, 20260, 9, (8, 6, 1), None),
    ("aclnnInplaceCopy_TensorMove", "TensorMove", 40, 20270, 3,
     (None, 0, 2), None),
    ("GemmV2", "GemmV2", 40, 20275, 7, (6, 5, None), None),
    ("TransData", "TransData", 40, 20285, 4, (None, 0, 3), None),
    ("Relu", "Relu", 40, 20290, 1.5, (None, 0, 1), None),
    ("DropOutGenMask", "DropOutGenMask", 40, 20295, 5, (None, None,
     None), None),
    ("MatmulAllReduce", "MatmulAllReduce", 40, 20305, 50, (40, 20, None),
     None)]
NEW_K = list(BASE_K)
NEW_K[0] = ("Conv2D", "Conv2D", 40, 20000.25, 35.5, (33, 25, None), 0)
NEW_K.insert(19, ("Gelu", "Gelu", 40, 20292.5, 2.25, (None, 0, 2), None))

# Ascend Hardware tasks that are not in kernel_details: name, task type,
# stream, start, duration.
BASE_HW = [("EVENT_WAIT", "EVENT_WAIT_SQE", 40, 19990, 1),
           ("MEMCPY_ASYNC", "SDMA_SQE", 40, 20400, 5),
           ("MEMCPY_ASYNC", "SDMA_SQE", 40, 20410, 7.5),
           ("MEMCPY_ASYNC", "SDMA_SQE", 50, 20420, 11),
           ("MEMCPY_ASYNC", "PCIE_DMA_SQE", 0, 20440, 13),
           ("kernel_aivec", "AI_VECTOR_CORE", 41, 20450, 6),
           ("C_CORE_SQE", "C_CORE_SQE", 60, 20306, 1),
           ("C_CORE_SQE", "C_CORE_SQE", 60, 20310, 1),
           ("C_CORE_SQE", "C_CORE_SQE", 60, 20330, 1),
           ("C_CORE_SQE", "C_CORE_SQE", 60, 20340, 1),
           ("C_CORE_SQE", "C_CORE_SQE", 60, 20350, 1)]
NEW_HW = BASE_HW + [("MEMCPY_ASYNC", "SDMA_SQE", 40, 20460, 2.5)]

# Overlap Analysis: name, start, duration.
BASE_OV = [("Computing", 20000, 300), ("Communication", 40000, 8000),
           ("Communication(Not Overlapped)", 40000, 5000),
           ("Free", 45000, 1500), ("Computing", 46500, 200),
           ("Communication(Not Overlapped)", 46700, 1300.5),
           ("Free", 48000, 2000)]
NEW_OV = [("Computing", 20000, 330), ("Communication", 40000, 12000),
          ("Communication(Not Overlapped)", 40000, 9000),
          ("Free", 49000, 1000), ("Computing", 50000, 200),
          ("Communication(Not Overlapped)", 50200, 1800),
          ("Free", 52000, 2500.25)]

# HCCL threads: tid, name; then events: name, tid, start, duration.
BASE_THREADS = [(0, "Group 10 Communication"), (1, "Plane 0"),
                (2, "Plane 1"), (3, "Group 20 Communication"),
                (4, "Plane 0")]
BASE_HCCL = [("hcom_allReduce__1_0_1", 0, 40000, 5000),
             ("Notify_Wait", 1, 40100, 1000),
             ("Memcpy", 1, 41200, 2000),
             ("Notify_Wait", 1, 43300, 500),
             ("RDMASend", 2, 40100, 100),
             ("RDMASend", 2, 40300, 100),
             ("Notify_Wait", 2, 40500, 900),
             ("Notify_Wait", 2, 41500, 300),
             ("hcom_allReduce__2_0_1", 0, 46600, 1200),
             ("Notify_Wait", 1, 46700, 600),
             ("Notify_Wait", 2, 46700, 50),
             ("hcom_broadcast__3_0_1", 3, 44000, 3000),
             ("Notify_Wait", 4, 44100, 2000),
             ("Memcpy", 4, 46200, 500)]
NEW_THREADS = [(0, "Group 11 Communication"), (1, "Plane 0"),
               (2, "Plane 1"), (3, "Group 21 Communication"),
               (4, "Plane 0"), (5, "Group 30 Communication"),
               (6, "Plane 0")]
NEW_HCCL = [("hcom_allReduce__1_0_1", 0, 40000, 9000),
            ("Notify_Wait", 1, 40100, 4000),
            ("Memcpy", 1, 44200, 2000),
            ("Notify_Wait", 1, 46300, 500),
            ("RDMASend", 2, 40100, 100),
            ("RDMASend", 2, 40300, 100),
            ("Notify_Wait", 2, 40500, 900),
            ("RDMASend", 2, 41500, 100),
            ("Notify_Wait", 2, 41700, 2500),
            ("hcom_allReduce__2_0_1", 0, 50100, 1500),
            ("Notify_Wait", 1, 50200, 600),
            ("Notify_Wait", 2, 50200, 700),
            ("hcom_broadcast__3_0_1", 3, 47000, 3500),
            ("Notify_Wait", 4, 47100, 2500),
            ("hcom_send__4_0_1", 5, 51000, 800),
            ("Notify_Wait", 6, 51100, 300)]

GROUPS = {"base": {"10": "dp", "20": "tp"},
          "new": {"11": "dp", "21": "tp", "30": "pp"}}


def ts(t):
    return "%.3f" % (T0 + t)


# The task queue: a convolution's launch enqueued, then dequeued on its
# own thread; allocations of operator_memory.csv: name, size (KB),
# allocation and release (us; None: none). A CANN op's allocation within
# the dequeue counts at the enqueue, under the convolution; one in no
# dequeue and one without a time are left out.
QUEUE = [("enqueue", 1, 1100, 10), ("dequeue", 3, 1500, 400)]
BASE_MEM = [("aten::empty_strided", 1024, 1200, 3000),
            ("cann::Conv2D", 512, 1600, 2600),
            ("cann::Lost", 64, 9000, 9100),
            ("aten::empty", 2048, 5500, None),
            ("aten::empty", 16, None, None)]
NEW_MEM = list(BASE_MEM)
NEW_MEM[1] = ("cann::Conv2D", 2048, 1600, 3600)


def trace(kernels, hw, ov, threads, hccl):
    ev = [{"ph": "M", "name": "process_name", "pid": p, "tid": 0,
           "args": {"name": n}} for p, n in
          ((100, "Python"), (200, "Ascend Hardware"), (300, "HCCL"),
           (400, "Overlap Analysis"))]
    ev += [{"ph": "X", "cat": "cpu_op", "name": n, "pid": 100, "tid": tid,
            "ts": ts(t), "dur": d, "args": {}} for n, tid, t, d in OPS]
    # The backward thread: a fwdbwd flow ends on it.
    ev += [{"ph": "X", "cat": cat, "name": cat.capitalize(), "pid": 100,
            "tid": tid, "ts": ts(t), "dur": d, "args": {"correlation_id": 7}}
           for cat, tid, t, d in QUEUE]
    ev += [{"ph": "s", "cat": "fwdbwd", "name": "fwdbwd", "id": 1,
            "pid": 100, "tid": 1, "ts": ts(1500)},
           {"ph": "f", "cat": "fwdbwd", "name": "fwdbwd", "id": 1,
            "pid": 100, "tid": 2, "ts": ts(10500), "bp": "e"}]
    for i, (name, typ, stream, t, d, pmu, op) in enumerate(kernels):
        core = "AI_CPU" if pmu == (None, None, None) else (
            "AI_CORE" if pmu[1] else "AI_VECTOR_CORE")
        ev.append({"ph": "X", "name": name, "pid": 200, "tid": stream,
                   "ts": ts(t), "dur": d,
                   "args": {"Task Type": core, "Stream Id": stream,
                            "Task Id": i}})
        if op is None:
            continue
        o = OPS[op]
        fid = 1000 + i
        ev += [{"ph": "s", "cat": "async_npu", "name": "torch_to_npu",
                "id": fid, "pid": 100, "tid": o[1], "ts": ts(o[2])},
               {"ph": "f", "cat": "async_npu", "name": "torch_to_npu",
                "id": fid, "pid": 200, "tid": stream, "ts": ts(t),
                "bp": "e"}]
    ev += [{"ph": "X", "name": n, "pid": 200, "tid": s, "ts": ts(t),
            "dur": d, "args": {"Task Type": tt, "Stream Id": s}}
           for n, tt, s, t, d in hw]
    names = sorted({n for n, _, _ in ov})
    ev += [{"ph": "M", "name": "thread_name", "pid": 400,
            "tid": names.index(n), "args": {"name": n}} for n in names]
    ev += [{"ph": "X", "name": n, "pid": 400, "tid": names.index(n),
            "ts": ts(t), "dur": d} for n, t, d in ov]
    for tid, name in threads:
        ev += [{"ph": "M", "name": "thread_name", "pid": 300, "tid": tid,
                "args": {"name": name}},
               {"ph": "M", "name": "thread_sort_index", "pid": 300,
                "tid": tid, "args": {"sort_index": tid}}]
    ev += [{"ph": "X", "name": n, "pid": 300, "tid": tid, "ts": ts(t),
            "dur": d, "args": {}} for n, tid, t, d in hccl]
    return ev


def cell(v):
    return "N/A" if v is None else "%g" % v


def write_mem(out, mem):
    with open(os.path.join(out, "operator_memory.csv"), "w") as f:
        f.write("Name,Size(KB),Allocation Time(us),Release Time(us),"
                "Active Release Time(us),Duration(us),Active Duration(us),"
                "Allocation Total Allocated(MB),Allocation Total Reserved(MB)"
                ",Allocation Total Active(MB),Release Total Allocated(MB),"
                "Release Total Reserved(MB),Release Total Active(MB),"
                "Stream Ptr,Device Type\n")
        for name, kb, a, r in mem:
            f.write("%s,%g,%s,%s,%s,%s,%s,1,1,1,1,1,1,8,NPU:0\n" % (
                name, kb, ts(a) if a is not None else "",
                ts(r) if r is not None else "",
                ts(r) if r is not None else "",
                "%g" % (r - a) if r is not None else "",
                "%g" % (r - a) if r is not None else ""))


def write(top, key, kernels, hw, ov, threads, hccl):
    out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(top, "profiler_info_0.json"), "w") as f:
        json.dump({"rank_id": 0}, f)
    with open(os.path.join(top, "profiler_metadata.json"), "w") as f:
        json.dump({"parallel_group_info": {
            g: {"group_name": n, "group_rank": 0, "global_ranks": [0, 1]}
            for g, n in GROUPS[key].items()}}, f)
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        json.dump(trace(kernels, hw, ov, threads, hccl), f)
    write_mem(out, BASE_MEM if key == "base" else NEW_MEM)
    with open(os.path.join(out, "kernel_details.csv"), "w",
              newline="") as f:
        f.write(HEAD + "\r\n")
        for i, (name, typ, stream, t, d, pmu, op) in enumerate(kernels):
            core = "AI_CPU" if pmu == (None, None, None) else (
                "AI_CORE" if pmu[1] else "AI_VECTOR_CORE")
            mc2 = ("%g,%g,%g" % (pmu[1], d / 5, 5) if name ==
                   "MatmulAllReduce" else "N/A,N/A,N/A")
            f.write("1,0,4294967295,%d,%d,%s,%s,dynamic,%s,%s\t,%g,0,8,0,"
                    "NO,\"8,64\",FLOAT16,ND,\"8,64\",FLOAT16,ND,N/A,"
                    "%s,%s,%s,%s\r\n" % (i, stream, name, typ, core, ts(t),
                                         d, cell(pmu[0]), cell(pmu[1]),
                                         cell(pmu[2]), mc2))


write(os.path.join(sys.argv[1], "base_ascend_pt"), "base", BASE_K, BASE_HW,
      BASE_OV, BASE_THREADS, BASE_HCCL)
write(os.path.join(sys.argv[1], "new_ascend_pt"), "new", NEW_K, NEW_HW,
      NEW_OV, NEW_THREADS, NEW_HCCL)
