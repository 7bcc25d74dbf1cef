#!/usr/bin/env python3
"""Write a small torch_npu cluster as the profiler's analysis leaves it:
one <name>_ascend_pt folder per rank with profiler_info_<rank>.json and
ASCEND_PROFILER_OUTPUT/ holding communication.json,
communication_matrix.json and step_trace_time.csv, numbers as Python's
json and csv write them. Made to exercise the cluster tables: two steps,
collective groups of all ranks and of pairs, point-to-point send and
receive in pairs,
the ranks' own "Total Op Info", values that are JSON integers, an op kind
split in top/middle/bottom parts beside its total, and (with --lost) a
rank that reports no own link, so its local rank has no global one.
The last rank computes three times as long as the others (a slow rank);
with --slow-link the link from rank 0 to rank 1 takes four times as
long as the others of its kind.

With --parallel TP,PP each rank's profiler_metadata.json gives the
Megatron layout and its tensor-, data- and pipeline-parallel groups, and
each rank has an op of each of its groups (a send in a pipeline group).

With --tasks N each rank also has a kernel_details.csv of N kernels
over its two steps (a few op types on two streams, durations from the
rank and the row number), for the tables and views of tasks.

usage: gen-cluster.py DIR [--ranks N] [--seed S] [--lost] [--slow-link]
           [--parallel TP,PP] [--tasks N]
"""
import argparse
import json
import os
import random


def op_info(rnd, start, wait_ms=(0, 0.1), idle=False):
    """An op's time and bandwidth info: WAIT_MS the range of its wait;
    an IDLE op moves nothing (a transit of the integer 0) and waits 0."""
    transit = 0 if idle else round(rnd.uniform(0.5, 3), 9)
    wait = 0.0 if idle else round(rnd.uniform(*wait_ms), 9)
    sync = round(wait * rnd.uniform(0, 1), 9)
    elapse = transit + wait + round(rnd.uniform(0, 5), 9)
    idle = elapse - transit - wait
    bw = {}
    for t in ("RDMA", "HCCS", "PCIE", "SDMA", "SIO"):
        size = rnd.choice([0, round(rnd.uniform(0.001, 64), 6)])
        time = round(rnd.uniform(0.001, 4), 9) if size else 0
        bw[t] = {"Transit Size(MB)": size, "Transit Time(ms)": time,
                 "Bandwidth(GB/s)": round(size / time, 4) if time else 0,
                 "Large Packet Ratio": 0,
                 "Size Distribution": {str(size): [1, time]} if size
                 else {}}
    return {"Communication Time Info": {
        "Start Timestamp(us)": start, "Elapse Time(ms)": elapse,
        "Transit Time(ms)": transit, "Wait Time(ms)": wait,
        "Synchronization Time(ms)": sync, "Idle Time(ms)": idle,
        "Wait Time Ratio": round(wait / (wait + transit), 4)
        if wait + transit else 0,
        "Synchronization Time Ratio": round(sync / (sync + transit), 4)
        if sync + transit else 0},
        "Communication Bandwidth Info": bw}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lost", action="store_true")
    ap.add_argument("--slow-link", action="store_true")
    ap.add_argument("--parallel", metavar="TP,PP")
    ap.add_argument("--tasks", type=int, default=0)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    n = a.ranks
    world = "1000%d" % a.seed
    pairs = ["2000%d%d" % (a.seed, i) for i in range(n // 2)]
    p2p = ["3000%d%d" % (a.seed, i) for i in range(n // 2)]
    for rank in range(n):
        top = os.path.join(a.dir, "node_%d_%d_ascend_pt" % (rank, 17 + rank))
        out = os.path.join(top, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(top, "profiler_info_%d.json" % rank),
                  "w") as f:
            json.dump({"rank_id": rank}, f)
        comm, matrix, steps = {}, {}, []
        t = 1700000000000000.0 + rank * 7.25
        groups = parallel(a, n, rank, top)
        for step in (3, 4):
            coll, pp = {}, {}
            for gid, kind, ranks in groups:
                target = pp if kind == "p2p" else coll
                t += 20.0
                target["hcom_%s__%d_%s@%d" % (
                    "send" if kind == "p2p" else "allReduce", step,
                    gid[-3:], double_hash(gid))] = op_info(rnd, t)
            # The others wait for the slow last rank in the world group.
            wait = (0, 0.05) if rank == n - 1 else (2, 3)
            for i in range(3):
                t += rnd.uniform(100, 900)
                coll["hcom_allReduce__%d_%d_1@%s" % (step, i, world)] = \
                    op_info(rnd, t, wait)
            t += 50.5
            coll["hcom_broadcast__%d_0@%s" % (step, pairs[rank // 2])] = \
                op_info(rnd, t, idle=rnd.random() < 0.5)
            t += 12.0
            peer = rank ^ 1
            kind = "send" if rank % 2 == 0 else "receive"
            pp["hcom_%s__%d_0@%s" % (kind, step, p2p[rank // 2])] = \
                op_info(rnd, t)
            total = {"Communication Time Info": {
                "Elapse Time(ms)": 1.5, "Transit Time(ms)": 0.5,
                "Wait Time(ms)": 0.25, "Synchronization Time(ms)": 0,
                "Idle Time(ms)": 0.75, "Wait Time Ratio": 0.3333,
                "Synchronization Time Ratio": 0}}
            coll["Total Op Info"] = total
            comm["step%d" % step] = {"p2p": pp, "collective": coll}
            mc = {}
            local = rank
            peers = sorted({rank, (rank + 1) % n, (rank + n - 1) % n})
            for part in ("top1", "middle", "bottom1", "total"):
                links = {}
                for dst in peers:
                    if args_lost(a, rank) and dst == local:
                        continue
                    size = round(rnd.uniform(30, 40), 6)
                    time = round(size / rnd.uniform(15, 17), 9)
                    if a.slow_link and (local, dst) == (0, 1):
                        time = round(time * 4, 9)
                    links["%d-%d" % (local, dst)] = {
                        "Transport Type": "LOCAL" if dst == local
                        else "HCCS",
                        "Transit Size(MB)": size, "Transit Time(ms)": time,
                        "Bandwidth(GB/s)": round(size / time, 4),
                        "Op Name": "hcom_allReduce__%d_0_1" % step}
                if part == "total":
                    for v in links.values():
                        del v["Op Name"]
                mc["allreduce-%s@%s" % (part, world)] = links
            here = "%d-%d" % (rank % 2, peer % 2)
            mp = {"send-top1@%s" % p2p[rank // 2]: {here: {
                "Transport Type": "HCCS", "Transit Size(MB)": 0,
                "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0,
                "Op Name": "hcom_send__%d_0" % step},
                "%d-%d" % (rank % 2, rank % 2): {
                "Transport Type": "LOCAL", "Transit Size(MB)": 1.25,
                "Transit Time(ms)": 0.5, "Bandwidth(GB/s)": 2.5,
                "Op Name": "hcom_send__%d_0" % step}}}
            matrix["step%d" % step] = {"p2p": mp, "collective": mc}
            c = rnd.uniform(6000, 6100) * (3 if rank == n - 1 else 1)
            steps.append([step, c, rnd.uniform(2000, 2050), 0,
                          rnd.uniform(2000, 2050), rnd.uniform(100, 110),
                          c * 1.5, 0, rnd.uniform(0, 9)])
        if a.tasks > 0:
            kernels(out, rank, a.tasks)
        with open(os.path.join(out, "communication.json"), "w") as f:
            json.dump(comm, f, indent=4)
        with open(os.path.join(out, "communication_matrix.json"), "w") as f:
            json.dump(matrix, f, indent=4)
        with open(os.path.join(out, "step_trace_time.csv"), "w") as f:
            f.write("Step,Computing,Communication(Not Overlapped),"
                    "Overlapped,Communication,Free,Stage,Bubble,"
                    "Preparing\r\n")
            for s in steps:
                f.write(",".join(str(x) for x in s) + "\r\n")


KERNEL_OPS = (("MatMulV2", "AI_CORE", 61.25), ("Add", "AI_VECTOR_CORE",
               3.5), ("Conv2D", "AI_CORE", 42.0), ("Cast", "AI_VECTOR_CORE",
               2.75), ("hcom_allReduce_", "COMMUNICATION", 120.0))


def kernels(out, rank, n):
    """N kernels of RANK into OUT/kernel_details.csv, half in each of the
    steps 3 and 4, as torch_npu writes them."""
    t = 1700000000000000.0 + rank * 7.25
    lines = ["Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,"
             "OP State,Accelerator Core,Start Time(us),Duration(us),"
             "Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,"
             "Input Shapes,Input Data Types,Input Formats,Output Shapes,"
             "Output Data Types,Output Formats,Context ID,"
             "aicore_time(us),aic_total_cycles\r\n"]
    with open(os.path.join(out, "kernel_details.csv"), "w") as f:
        for i in range(n):
            op, core, base = KERNEL_OPS[i % len(KERNEL_OPS)]
            dur = base + (i * 7919 + rank * 31) % 97 / 10.0
            lines.append('%d,%d,4294967295,%d,%d,%s_%d,%s,dynamic,%s,'
                         '%.3f\t,%.3f,0,8,0,NO,"""8,64""",FLOAT16,ND,'
                         '"""8,64""",FLOAT16,ND,N/A,%.3f,%d\r\n' % (
                             3 if i < n // 2 else 4, rank, i % 65536,
                             40 + i % 2, op, i, op, core, t, dur, dur,
                             int(dur * 1800)))
            t += dur + 1.5
            if len(lines) >= 65536:
                f.write("".join(lines))
                lines = []
        f.write("".join(lines))


def args_lost(a, rank):
    return a.lost and rank == 1


def double_hash(s):
    """The number torch_npu names a group with, from its id."""
    h0 = h1 = 0
    for c in s:
        h0 = (h0 * 29 + ord(c)) & 0xFFFFFFFF
        h1 = (h1 * 131 + ord(c)) & 0xFFFFFFFF
    return (h0 << 32) | h1


def parallel(a, n, rank, top):
    """With --parallel TP,PP: profiler_metadata.json with the Megatron
    layout (distributed_args) and the groups of RANK (parallel_group_info):
    tensor- and data-parallel groups, and pipeline groups whose ranks send
    to each other. Return the groups as (id, kind, ranks)."""
    meta = {"ENV_VARIABLES": {"HCCL_RDMA_TC": ""}}
    groups = []
    if a.parallel:
        tp, pp = (int(x) for x in a.parallel.split(","))
        dp = n // (tp * pp)
        meta["distributed_args"] = {
            "tensor_model_parallel_size": tp,
            "pipeline_model_parallel_size": pp,
            "data_parallel_size": dp, "context_parallel_size": 1,
            "expert_model_parallel_size": 1, "sequence_parallel": True,
            "rank": rank, "world_size": n}
        npp = n // pp
        cand = []
        for i in range(n // tp):
            cand.append(("tp", "collective", list(range(i * tp,
                                                        (i + 1) * tp))))
        for i in range(pp):
            for k in range(tp):
                cand.append(("dp", "collective",
                             list(range(npp * i + k, npp * (i + 1), tp))))
        for p in range(npp):
            cand.append(("pp", "p2p", list(range(p, n, npp))))
        info = {}
        for j, (name, kind, ranks) in enumerate(cand):
            if rank not in ranks:
                continue
            gid = "10.0.0.1%%eth0_60000_0_17%08d" % (j * 7 + a.seed)
            info[gid] = {"group_name": name,
                         "group_rank": ranks.index(rank),
                         "global_ranks": ranks}
            groups.append((gid, kind, ranks))
        meta["parallel_group_info"] = info
    with open(os.path.join(top, "profiler_metadata.json"), "w") as f:
        json.dump(meta, f)
    return groups


main()
