#!/usr/bin/env python3
"""Write torch_npu runs for the advice: DIR/bad_ascend_pt with one
instance of each problem the rules look for, and DIR/good_ascend_pt, the
same run without them. The bad run has:

- kernels (kernel_details.csv, on stream 40 of device 0): MatMulV2 whose
  mte2 pipe is busy 90% (memory bound), TransData busy 30% at most
  (headroom), Add; two Cast kernels on the AI CPU while a third runs on
  the AI Core; 12 of 20 kernels of dynamic shape; a 2000 us gap before
  the kernel Relu_gap after kernels that follow each other closely;
- the trace: an overlap analysis with 4 ms free of 10 ms and 2.5 ms of
  communication uncovered (1.5 ms of it waiting), 12
  AscendCL@aclrtSynchronizeStream and 4 AscendCL@aclMallocMemInner
  spans of 3 ms, 25 SyncBatchNorm ops, an Adam optimizer step (the good
  run's is NpuFusedAdam), an HCCL group whose plane waits
  and copies 1000000 bytes over HCCS (not a multiple of 512);
- communication.json with an op waiting 60% of its time, every op
  moving 4 MB over SDMA (32 MB in the good run), and one of four moving
  32 MB over HCCS at 5 GB/s where the others reach 20 or more;
- memory_record.csv peaking at 3000 MB reserved;
- profiler_metadata.json with ACLNN_CACHE_LIMIT unset and
  ASCEND_LAUNCH_BLOCKING=1.

With --repeat N the kernels come N times over (for bench/advice.sh: 21
kernels each time, the gap before each Relu_gap).

usage: gen-advice.py DIR [--repeat N]
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
        "aiv_vec_time(us),aic_mac_ratio,aic_mte2_ratio,aic_scalar_ratio,"
        "aiv_vec_ratio,aiv_mte2_ratio,aiv_scalar_ratio")


def kernels(bad):
    """name, type, core, duration, (mac, mte2, scalar, vec, vmte2,
    vscalar) ratios or None, dynamic."""
    k = []
    for i in range(4):
        k.append(("MatMulV2_%d" % i, "MatMulV2", "AI_CORE", 100,
                  (0.3, 0.9 if bad else 0.5, 0.1, None, None, None),
                  bad and i < 3))
    for i in range(4):
        k.append(("TransData_%d" % i, "TransData", "AI_VECTOR_CORE", 60,
                  (None, None, None, 0.2 if bad else 0.6,
                   0.3 if bad else 0.7, 0.1), bad))
    for i in range(8):
        k.append(("Add_%d" % i, "Add", "AI_VECTOR_CORE", 5,
                  (None, None, None, 0.6, 0.5, 0.1), bad and i < 5))
    k.append(("Cast_0", "Cast", "AI_CPU" if bad else "AI_VECTOR_CORE", 30,
              None if bad else (None, None, None, 0.6, 0.5, 0.1), False))
    k.append(("Cast_1", "Cast", "AI_CPU" if bad else "AI_VECTOR_CORE", 30,
              None if bad else (None, None, None, 0.6, 0.5, 0.1), False))
    k.append(("Cast_2", "Cast", "AI_VECTOR_CORE", 4,
              (None, None, None, 0.6, 0.5, 0.1), False))
    k.append(("Relu_gap", "Relu", "AI_VECTOR_CORE", 5,
              (None, None, None, 0.6, 0.5, 0.1), False))
    return k


def cell(v):
    return "N/A" if v is None else "%g" % v


REPEAT = int(sys.argv[3]) if len(sys.argv) > 3 and \
    sys.argv[2] == "--repeat" else 1


def write_kernels(out, bad):
    t = 1000.0
    rows = []
    with open(os.path.join(out, "kernel_details.csv"), "w",
              newline="") as f:
        f.write(HEAD + "\r\n")
        for i, (name, typ, core, dur, r, dyn) in enumerate(
                kernels(bad) * REPEAT):
            if name == "Relu_gap":
                t += 2000 if bad else 10
            cube = r is not None and r[0] is not None
            f.write("1,0,4294967295,%d,40,%s,%s,%s,%s,%.3f\t,%g,0,8,0,NO,"
                    "\"8,64\",FLOAT16,ND,\"8,64\",FLOAT16,ND,N/A,%s,%s,%s,"
                    "%s\r\n" % (
                        i, name, typ, "dynamic" if dyn else "static", core,
                        T0 + t, dur, cell(dur * 0.9 if cube else None),
                        cell(dur * r[0] if cube else None),
                        cell(dur * r[3] if r is not None and not cube
                             else None),
                        ",".join(cell(x) for x in r) if r is not None
                        else "N/A,N/A,N/A,N/A,N/A,N/A"))
            rows.append((t, dur))
            t += dur + 2
    return rows


def ts(t):
    return "%.3f" % (T0 + t)


def write_trace(out, bad):
    ev = [{"ph": "M", "name": "process_name", "pid": p, "tid": 0,
           "args": {"name": n}} for p, n in
          ((100, "Python"), (110, "CANN"), (300, "HCCL"),
           (400, "Overlap Analysis"))]
    ev.append({"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1",
               "pid": 100, "tid": 1, "ts": ts(0), "dur": 10000,
               "args": {}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "Optimizer.step#%s.step"
               % ("Adam" if bad else "NpuFusedAdam"), "pid": 100, "tid": 1,
               "ts": ts(9000), "dur": 500, "args": {}})
    for i in range(25 if bad else 2):
        ev.append({"ph": "X", "cat": "cpu_op", "name": "SyncBatchNorm",
                   "pid": 100, "tid": 1, "ts": ts(100 + i * 10),
                   "dur": 5, "args": {}})
    for i in range(12 if bad else 1):
        ev.append({"ph": "X", "name": "AscendCL@aclrtSynchronizeStream",
                   "pid": 110, "tid": 1, "ts": ts(500 + i * 20), "dur": 10,
                   "args": {}})
    for i in range(4):
        ev.append({"ph": "X", "name": "AscendCL@aclMallocMemInner",
                   "pid": 110, "tid": 1, "ts": ts(1000 + i * 3100),
                   "dur": 3000 if bad else 10, "args": {}})
    names = ["Computing", "Communication", "Communication(Not Overlapped)",
             "Free"]
    ev += [{"ph": "M", "name": "thread_name", "pid": 400, "tid": i,
            "args": {"name": n}} for i, n in enumerate(names)]
    free = 4000 if bad else 500
    unc = 2500 if bad else 200
    ov = [("Computing", 0, 10000 - free - unc),
          ("Communication", 10000 - free - unc, unc),
          ("Communication(Not Overlapped)", 10000 - free - unc, unc),
          ("Free", 10000 - free, free)]
    ev += [{"ph": "X", "name": n, "pid": 400, "tid": names.index(n),
            "ts": ts(t), "dur": d} for n, t, d in ov if d > 0]
    for tid, name in ((0, "Group 0 Communication"), (1, "Plane 0")):
        ev += [{"ph": "M", "name": "thread_name", "pid": 300, "tid": tid,
                "args": {"name": name}},
               {"ph": "M", "name": "thread_sort_index", "pid": 300,
                "tid": tid, "args": {"sort_index": tid}}]
    c0 = 10000 - free - unc
    wait = 1500 if bad else 50
    size = 1000000 if bad else 1048576
    ev += [{"ph": "X", "name": "hcom_allReduce__1_0_1", "pid": 300,
            "tid": 0, "ts": ts(c0), "dur": unc, "args": {}},
           {"ph": "X", "name": "Notify_Wait", "pid": 300, "tid": 1,
            "ts": ts(c0), "dur": wait, "args": {}},
           {"ph": "X", "name": "Memcpy", "pid": 300, "tid": 1,
            "ts": ts(c0 + wait), "dur": unc - wait,
            "args": {"transport type": "SDMA", "link type": "HCCS",
                     "size(Byte)": size}}]
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        json.dump(ev, f)


def write_comm(out, bad):
    def op(wait, transit, gbs=20.0):
        mb = 4 if bad else 32
        return {"Communication Time Info": {
            "Start Timestamp(us)": T0 + 5000, "Elapse Time(ms)":
            wait + transit, "Transit Time(ms)": transit, "Wait Time(ms)":
            wait, "Synchronization Time(ms)": 0, "Idle Time(ms)": 0,
            "Wait Time Ratio": round(wait / (wait + transit), 4),
            "Synchronization Time Ratio": 0},
            "Communication Bandwidth Info": {"SDMA": {
                "Transit Size(MB)": mb, "Transit Time(ms)": 0.25,
                "Bandwidth(GB/s)": mb / 0.25, "Large Packet Ratio": 0,
                "Size Distribution": {str(mb): [1, 0.25]}}, "HCCS": {
                "Transit Size(MB)": 32, "Transit Time(ms)": 32 / gbs,
                "Bandwidth(GB/s)": gbs, "Large Packet Ratio": 0,
                "Size Distribution": {"32": [1, 32 / gbs]}}}}
    coll = {"hcom_allReduce__1_0_1@g0": op(1.5 if bad else 0.05, 1.0),
            "hcom_allReduce__2_0_1@g0": op(0.1, 1.0),
            "hcom_allReduce__3_0_1@g0": op(0.1, 1.0, 5.0 if bad else 20.0),
            "hcom_allReduce__4_0_1@g0": op(0.1, 1.0, 21.0)}
    coll["Total Op Info"] = op(1.6 if bad else 0.15, 2.0)
    with open(os.path.join(out, "communication.json"), "w") as f:
        json.dump({"step1": {"p2p": {}, "collective": coll}}, f)


def write_memory(out, bad):
    with open(os.path.join(out, "memory_record.csv"), "w") as f:
        f.write("Component,Timestamp(us),Total Allocated(MB),"
                "Total Reserved(MB),Total Active(MB),Stream Ptr,"
                "Device Type\n")
        for i, mb in enumerate((1000, 3000 if bad else 1500, 2000)):
            f.write("APP,%.3f,,%g,,,NPU:0\n" % (T0 + i * 1000, mb))
            f.write("PTA,%.3f,%g,%g,%g,,NPU:0\n" % (T0 + i * 1000, mb / 2,
                                                   mb / 2, mb / 2))


def write(top, bad):
    out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(top, "profiler_info_0.json"), "w") as f:
        json.dump({"rank_id": 0}, f)
    env = {"ASCEND_GLOBAL_LOG_LEVEL": "3", "HCCL_RDMA_TC": "",
           "HCCL_RDMA_SL": "", "ACLNN_CACHE_LIMIT": "" if bad else "100000",
           "HOST_CACHE_CAPACITY": "20",
           "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True",
           "ASCEND_LAUNCH_BLOCKING": "1" if bad else "", "HCCL_ALGO": ""}
    with open(os.path.join(top, "profiler_metadata.json"), "w") as f:
        json.dump({"ENV_VARIABLES": env}, f)
    write_kernels(out, bad)
    write_trace(out, bad)
    write_comm(out, bad)
    write_memory(out, bad)


write(os.path.join(sys.argv[1], "bad_ascend_pt"), True)
write(os.path.join(sys.argv[1], "good_ascend_pt"), False)
