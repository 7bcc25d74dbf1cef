#!/usr/bin/env python3
"""Expected communication tables of a generated raw collection (-L).

Usage: hccl-expect.py [--torch RANK] [--begin NS] WANT_DIR OUT_DIR

With --begin, the collection starts at NS (epoch) instead of the truth's
start. With --torch, OUT_DIR gets instead the files torch_npu would write for
the same numbers, as rank RANK (device 0 only): communication.json,
communication_matrix.json, step_trace_time.csv, profiler_info_RANK.json,
from which tests/cluster/cluster-ref.py computes the cluster tables.

Reads WANT_DIR/hccl_truth.csv (one row per HCCL task, written by
npuprof-gen prof -L) and WANT_DIR/op_summary.csv, and writes to OUT_DIR
the tables npuprof-tui must show for the collection: communication,
communication_bandwidth, communication_matrix, step_trace_time (from the
compute tasks of the generator's op_summary and the HCCL ops), and
op_summary with one COMMUNICATION row per HCCL op and the wait times that
follow from them, and communication_statistic, msprof's per op type figures
(rounded as the vendor rounds them: Python's round to 6, then SQLite's
round() to 3 decimals of us, printed with trailing zeros dropped).

This is a second, independent implementation of doc/formats.md
sections 3.10, 8.7 and 8.8 (the vendor's analysis as npuprof-tui reproduces
it), written in Python so its numbers are Python's own: the C importer
must print the same digits.
"""
import csv
import json
import os
import re
import sqlite3
import sys

NS_TO_MS = 1000000.0
TRANSIT = ["RDMA", "HCCS", "PCIE", "SDMA", "SIO"]
LARGE = {"RDMA": 0.5, "HCCS": 32, "PCIE": 32, "SIO": 32}
NO_RANK = 4294967295
MATRIX_TYPE = {"HCCS": 0, "PCIE": 1, "RDMA": 2, "LOCAL": 3, "SIO": 4}
MATRIX_NAME = {v: k for k, v in MATRIX_TYPE.items()}
P2P = ("hcom_send", "hcom_receive", "hcom_batchsendrecv")
KINDS = (r"send|reduce|invalid|broadcast|allreduce|receive|allgather|"
         r"reducescatter|scatter|alltoall|alltoallv|alltoallvc|batchsendrecv")


HEADS = {
    "communication": ["Step", "Type", "Op Name", "Start Timestamp(us)",
                      "Elapse Time(ms)", "Transit Time(ms)",
                      "Wait Time(ms)", "Synchronization Time(ms)",
                      "Idle Time(ms)", "Wait Time Ratio",
                      "Synchronization Time Ratio"],
    "communication_bandwidth": ["Step", "Type", "Op Name",
                                "Transport Type", "Transit Size(MB)",
                                "Transit Time(ms)", "Bandwidth(GB/s)",
                                "Large Packet Ratio",
                                "Size Distribution"],
    "communication_matrix": ["Step", "Type", "Op Name", "Src Rank",
                             "Dst Rank", "Transport Type",
                             "Transit Size(MB)", "Transit Time(ms)",
                             "Bandwidth(GB/s)", "Link Op Name"]}

STEP_HEAD = ["Step", "Computing", "Communication(Not Overlapped)",
             "Overlapped", "Communication", "Free", "Stage", "Bubble",
             "Communication(Not Overlapped and Exclude Receive)", "Preparing"]


def read_truth(path):
    with open(path) as f:
        begin = int(f.readline().split(",")[1])
        rows = list(csv.DictReader(f))
    ints = ("device", "tid", "host_ts", "op", "op_begin", "op_end", "plane",
            "master", "stream", "task", "ctx", "start_ns", "dur_ns", "local",
            "remote", "size")
    for r in rows:
        for k in ints:
            r[k] = int(r[k])
        # The stream's flips before the task (0 in older truth files).
        r["batch"] = int(r.get("batch") or 0)
    return begin, rows


def merge(tasks, ops):
    """Per thread, each op in begin order takes the tasks launched up to
    its end; iteration counts a stream-task key's uses."""
    tasks = sorted(tasks, key=lambda t: (t["host_ts"], t["start_ns"]))
    by_thread = {}
    for t in tasks:
        by_thread.setdefault(t["tid"], []).append(t)
    op_threads = {}
    for o in sorted(ops, key=lambda o: o["begin"]):
        op_threads.setdefault(o["tid"], []).append(o)
    seen = {}
    out = []
    for tid, queue in op_threads.items():
        tq = by_thread.get(tid, [])
        i = 0
        for o in queue:
            if i >= len(tq):
                break
            while i < len(tq) and tq[i]["host_ts"] <= o["end"]:
                t = dict(tq[i])
                key = (t["stream"], t["task"], t["ctx"], t["batch"])
                seen[key] = seen.get(key, 0) + 1
                t["iter"] = seen[key]
                t["op_name"] = o["name"]
                t["first"] = o["begin"]
                t["op_type"] = o["type"]
                out.append(t)
                i += 1
    out.sort(key=lambda t: (t["host_ts"], t["start_ns"]))
    return out


def rename(tasks, begin):
    groups = {}
    for t in tasks:
        key = (t["group"], "AicpuKernel" in t["op_name"])
        g = groups.setdefault(key, {"first": 0, "count": -1})
        if t["start_ns"] > begin and t["first"] > g["first"]:
            g["first"] = t["first"]
            g["count"] += 1
        t["op_name"] = "%s_%s_%d_%d" % (t["op_name"], t["group"][-3:],
                                        g["count"], t["iter"])
        t["key"] = t["op_name"] + "@" + t["group"]


def is_sdma_transit(t):
    return (t["name"] in ("Memcpy", "Reduce_Inline")
            and t["transport"] == "SDMA" and t["link"] != "ON_CHIP")


def payload(t):
    return t["rdma"] == "RDMA_SEND_PAYLOAD"


def payload_run(ev, i, jump):
    cnt = 0
    while i + cnt < len(ev) and payload(ev[i + cnt]):
        cnt += 1
    if i + cnt + jump - 2 >= len(ev):
        return cnt, None
    size = sum(e["size"] for e in ev[i:i + cnt]) / 1000 ** 2
    last = ev[i + cnt + jump - 2]
    time = (last["dur_ns"] + last["start_ns"] - ev[i]["start_ns"]) / NS_TO_MS
    return cnt, (time, size)


def jump_of(ev):
    n = ev[0]["op_name"].lower()
    return 3 if "send" in n or "receive" in n else 5


def time_info(ev):
    d = {k: 0 for k in ("start", "elapse", "transit", "wait", "sync",
                        "idle", "wratio", "sratio")}
    plane = next(e["plane"] for e in ev if e["master"] == 1)
    me = [e for e in ev if e["plane"] == plane]
    jump = jump_of(me)
    flag = True
    i = 0
    while i < len(me):
        e = me[i]
        if is_sdma_transit(e):
            flag = False
            d["transit"] += e["dur_ns"] / NS_TO_MS
        if payload(e):
            cnt, res = payload_run(me, i, jump)
            if res is None:
                i += cnt
                continue
            d["transit"] += res[0]
            i += jump + cnt - 1
            flag = False
            continue
        if e["name"] == "Notify_Wait":
            w = e["dur_ns"] / NS_TO_MS
            if flag:
                d["sync"] += w
            d["wait"] += w
        i += 1
    last = max(me, key=lambda e: e["start_ns"] + e["dur_ns"])
    first = min(me, key=lambda e: e["start_ns"])
    d["elapse"] = (last["start_ns"] + last["dur_ns"]
                   - first["start_ns"]) / NS_TO_MS
    d["idle"] = d["elapse"] - d["transit"] - d["wait"]
    ratios(d)
    m = min((e for e in ev if e["master"] == 1), key=lambda e: e["start_ns"])
    d["start"] = float("%d.%03d" % divmod(m["start_ns"], 1000))
    return d


def ratios(d):
    try:
        d["wratio"] = round(d["wait"] / (d["wait"] + d["transit"]), 4)
    except ZeroDivisionError:
        pass
    try:
        d["sratio"] = round(d["sync"] / (d["sync"] + d["transit"]), 4)
    except ZeroDivisionError:
        pass


def new_bw():
    return {t: {"size": 0, "time": 0, "bw": 0, "large": 0, "dist": {}}
            for t in TRANSIT}


def record(b, size, dur):
    b["size"] += size
    b["time"] += dur
    c = b["dist"].setdefault(size, [0, 0])
    c[0] += 1
    c[1] += dur


def bandwidth(b, t):
    if b[t]["time"] != 0:
        b[t]["bw"] = round((b[t]["size"] / 1000) / (b[t]["time"] / 1000.0),
                           4)
    if t == "SDMA":
        return
    n = large = 0
    for size, (cnt, _) in b[t]["dist"].items():
        if size > LARGE[t]:
            large += cnt
        n += cnt
    if n > 0:
        b[t]["large"] = round(large / n, 4)


def planes(ev):
    out = {}
    for e in ev:
        out.setdefault(e["plane"], []).append(e)
    return out.values()


def bw_info(ev):
    b = new_bw()
    jump = jump_of(ev)
    for pe in planes(ev):
        i = 0
        while i < len(pe):
            e = pe[i]
            if is_sdma_transit(e):
                link = e["link"]
                t = ("HCCS" if link == "HCCS_SW" else link
                     if link in ("PCIE", "HCCS", "SIO") else "SDMA")
                record(b[t], e["size"] / 1000 ** 2, e["dur_ns"] / NS_TO_MS)
            if payload(e):
                cnt, res = payload_run(pe, i, jump)
                if res is None:
                    i += cnt
                    continue
                record(b[e["transport"]], res[1], res[0])
                i += jump + cnt - 1
                continue
            i += 1
    for t in TRANSIT:
        if t == "SDMA":
            for k in ("size", "time"):
                b["SDMA"][k] += b["HCCS"][k] + b["PCIE"][k] + b["SIO"][k]
        bandwidth(b, t)
    return b


def links(ev):
    li = {}
    jump = jump_of(ev)
    for pe in planes(ev):
        i = 0
        while i < len(pe):
            e = pe[i]
            if e["local"] == NO_RANK:
                i += 1
                continue
            dst = e["local"] if e["remote"] == NO_RANK else e["remote"]
            key = "%d-%d" % (e["local"], dst)
            if e["transport"] == "SDMA" and e["name"] in ("Memcpy",
                                                          "Reduce_Inline"):
                name = {"ON_CHIP": "LOCAL", "HCCS_SW": "HCCS"}.get(
                    e["link"], e["link"])
                v = li.setdefault(key, [0, 0, 0, 0, 0])
                v[0] = MATRIX_TYPE.get(name, -1)
                size = e["size"] / 1000 ** 2
                v[1] += size
                v[2] += e["dur_ns"] / NS_TO_MS
                v[4] += 1
                if size > LARGE.get(name, 0):
                    v[3] += 1
            if payload(e):
                cnt, res = payload_run(pe, i, jump)
                if res is None:
                    i += cnt
                    continue
                v = li.setdefault(key, [0, 0, 0, 0, 0])
                v[0] = MATRIX_TYPE.get(e["transport"], -1)
                v[2] += res[0]
                v[1] += res[1]
                v[4] += 1
                if res[1] > LARGE.get(e["transport"], 0):
                    v[3] += 1
                i += jump + cnt - 1
                continue
            i += 1
    out = {}
    for key, v in li.items():
        try:
            bw = round(v[1] / v[2], 4)
        except ZeroDivisionError:
            bw = 0
        out[key] = {"type": MATRIX_NAME.get(v[0]), "size": v[1],
                    "time": v[2], "bw": bw}
    return out


def fmt(v):
    return repr(v) if isinstance(v, float) else str(v)


def dist_text(d):
    return ";".join("%s:%d:%s" % (fmt(s), c[0], fmt(c[1]))
                    for s, c in d.items())


def total_of(ops):
    t = {k: 0 for k in ("start", "elapse", "transit", "wait", "sync",
                        "idle", "wratio", "sratio")}
    b = new_bw()
    for o in ops:
        for k in ("elapse", "transit", "wait", "sync", "idle"):
            t[k] += o["time"][k]
        for tr in TRANSIT:
            for k in ("time", "size"):
                b[tr][k] += o["bw"][tr][k]
            if tr != "SDMA":
                for s, c in o["bw"][tr]["dist"].items():
                    x = b[tr]["dist"].setdefault(s, [0, 0])
                    x[0] += c[0]
                    x[1] += c[1]
    ratios(t)
    for tr in TRANSIT:
        bandwidth(b, tr)
    return t, b


def matrix_fold(ops):
    """Per op kind, group and link: the top, middle and bottom ops' links
    and the total, by name in the order they are made."""
    sets = {}
    for o in ops:
        m = re.compile(KINDS).search(o["key"].lower())
        k = m.group() if m else o["key"].split("__")[0]
        group = o["key"].split("@")[-1]
        for link, v in o["links"].items():
            v = dict(v, op=o["key"].split("@")[0])
            sets.setdefault((k, group, link), []).append(v)
    named = {}
    for (k, group, link), data in sets.items():
        data.sort(key=lambda x: x["bw"], reverse=True)
        size = sum(x["size"] for x in data)
        time = sum(x["time"] for x in data)
        bw = 0 if abs(time) < 1e-15 else round(size / time, 4)
        name = lambda w: "%s-%s@%s" % (k, w, group)
        named.setdefault(name("top1"), {})[link] = data[0]
        named.setdefault(name("middle"), {})[link] = data[len(data) // 2]
        named.setdefault(name("bottom1"), {})[link] = data[-1]
        named.setdefault(name("total"), {})[link] = {
            "type": data[0]["type"], "size": size, "time": time, "bw": bw,
            "op": None}
        if len(data) >= 2:
            named.setdefault(name("bottom2"), {})[link] = data[-2]
        if len(data) >= 3:
            named.setdefault(name("bottom3"), {})[link] = data[-3]
    return named


def matrix_rows(ops, kind):
    rows = []
    for name, ls in matrix_fold(ops).items():
        for link, v in ls.items():
            src, dst = link.split("-")
            rows.append(["step", kind, name, src, dst, v["type"] or "N/A",
                         fmt(v["size"]), fmt(v["time"]), fmt(v["bw"]),
                         v["op"] or "N/A"])
    return rows


def op_stats(events, begin):
    """Per op from BEGIN on: its times, bandwidth and links."""
    ops = {}
    for e in events:
        if e["start_ns"] >= begin:
            ops.setdefault(e["key"], []).append(e)
    out = []
    for key, ev in ops.items():
        out.append({"key": key, "p2p": key.lower().startswith(P2P),
                    "time": time_info(ev), "bw": bw_info(ev),
                    "links": links(ev)})
    return out


def tables(events, begin):
    out = op_stats(events, begin)
    comm, bw, matrix = [], [], []
    for p2p, kind in ((True, "p2p"), (False, "collective")):
        these = [o for o in out if o["p2p"] == p2p]
        if not these:
            continue
        t, b = total_of(these)
        for o in these + [{"key": "Total Op Info", "time": t, "bw": b}]:
            ti = o["time"]
            comm.append(["step", kind, o["key"]] + [fmt(ti[k]) for k in (
                "start", "elapse", "transit", "wait", "sync", "idle",
                "wratio", "sratio")])
            for tr in TRANSIT:
                x = o["bw"][tr]
                bw.append(["step", kind, o["key"], tr, fmt(x["size"]),
                           fmt(x["time"]), fmt(x["bw"]), fmt(x["large"]),
                           dist_text(x["dist"])])
        matrix += matrix_rows(these, kind)
    return comm, bw, matrix


def summary_rows(events, begin):
    """One COMMUNICATION row per op: first master start to last end; none
    for an op that starts before BEGIN."""
    ops = {}
    for e in events:
        o = ops.setdefault(e["key"], {"name": e["op_name"], "type":
                                      e["op_type"], "dev": e["device"]})
        if e["master"] == 1:
            end = e["start_ns"] + e["dur_ns"]
            o["start"] = min(o.get("start", e["start_ns"]), e["start_ns"])
            o["end"] = max(o.get("end", end), end)
    return [o for o in ops.values() if "start" in o and o["start"] >= begin]


def us(ns, places):
    return "%d.%s" % (ns // 1000, ("%03d" % (ns % 1000)) + "0" * (places - 3))


def to_ns(text):
    a, b = text.split(".")
    return int(a) * 1000 + int(b[:3].ljust(3, "0"))


def op_summary(want, comm_rows, out):
    with open(os.path.join(want, "op_summary.csv"), newline="") as f:
        rd = csv.reader(f)
        head = next(rd)
        rows = list(rd)
    n = len(head)
    for o in comm_rows:
        r = [str(o["dev"]), "4294967295", "N/A", "N/A", o["name"],
             o["type"], "N/A", "COMMUNICATION", us(o["start"], 3),
             us(o["end"] - o["start"], 3), "0", "0"]
        r += ["N/A"] * (n - len(r))
        rows.append(r)
    # By device, then start; a task before a COMMUNICATION row at its time.
    rows.sort(key=lambda r: (int(r[0]), to_ns(r[8]),
                             r[7] == "COMMUNICATION"))
    prev = None
    for r in rows:
        start, dur = to_ns(r[8]), to_ns(r[9])
        if prev is None or prev[0] != r[0]:
            r[10] = "0"
        else:
            w = start - prev[1]
            r[10] = "0" if w <= 0 else us(w, 6)
        prev = (r[0], start + dur)
    with open(os.path.join(out, "op_summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)


def compute_ranges(want):
    """Per device, the compute tasks' (start, end) in ns: the rows of the
    generator's own op_summary."""
    out = {}
    with open(os.path.join(want, "op_summary.csv"), newline="") as f:
        for r in csv.DictReader(f):
            s = to_ns(r["Task Start Time(us)"])
            out.setdefault(int(r["Device_id"]), []).append(
                (s, s + to_ns(r["Task Duration(us)"])))
    return out


def merge_ranges(ranges):
    """Sorted by start, a range joins the group it starts in; the group's
    first range takes on its end. Returns the groups and the first range
    of each, by position in RANGES."""
    order = sorted(range(len(ranges)), key=lambda i: ranges[i][0])
    ends = [r[1] for r in ranges]
    groups = []
    for i in order:
        if groups and ranges[i][0] <= ends[groups[-1]]:
            ends[groups[-1]] = max(ends[groups[-1]], ranges[i][1])
        else:
            groups.append(i)
    return [(ranges[i][0], ends[i], i) for i in groups], ends


def overlap(comm, comp):
    """Communication not covered by compute, and free gaps, walking both
    in start order as msprof-analyze walks them."""
    items = sorted([(s, e, True) for s, e in comm] +
                   [(s, e, False) for s, e in comp], key=lambda x: x[0])
    pure = free = 0
    if not items:
        return 0, 0
    ms, me, mc = items[0]
    for s, e, c in items[1:]:
        if me - s < 0:
            free += s - me
            if mc:
                pure += me - ms
            ms, me, mc = s, e, c
            continue
        if me - e < 0:
            if mc:
                pure += s - ms
                ms, me, mc = me, e, False
            if c:
                ms, me, mc = me, e, True
        else:
            if mc:
                pure += s - ms
                ms, me, mc = e, me, True
            if c:
                ms, me, mc = e, me, False
    if mc:
        pure += me - ms
    return pure, free


def step_trace_time(comm_ops, comp):
    """The one row of a device's step_trace_time, in us."""
    comm_ops = sorted(comm_ops, key=lambda o: (o["start"], o["name"]))
    comm = [(o["start"], o["end"]) for o in comm_ops]
    recv = [o["name"].startswith("hcom_receive") for o in comm_ops]
    cgroups, ends = merge_ranges(comm)
    pgroups, _ = merge_ranges(comp)
    bubble = sum(ends[i] - comm[i][0] for i in range(len(comm)) if recv[i])
    c = sum(e - s for s, e, _ in pgroups)
    m = sum(e - s for s, e, _ in cgroups)
    pure, free = overlap([(s, e) for s, e, _ in cgroups],
                         [(s, e) for s, e, _ in pgroups])
    vals = [c, pure, m - pure, m, free, free + c + pure - bubble, bubble,
            pure - bubble, 0]
    return ["N/A"] + [repr(v / 1000) for v in vals]


TIME_KEYS = {"start": "Start Timestamp(us)", "elapse": "Elapse Time(ms)",
             "transit": "Transit Time(ms)", "wait": "Wait Time(ms)",
             "sync": "Synchronization Time(ms)", "idle": "Idle Time(ms)",
             "wratio": "Wait Time Ratio",
             "sratio": "Synchronization Time Ratio"}


def torch_op(time, bw):
    return {"Communication Time Info": {TIME_KEYS[k]: v
                                        for k, v in time.items()},
            "Communication Bandwidth Info": {tr: {
                "Transit Size(MB)": x["size"], "Transit Time(ms)": x["time"],
                "Bandwidth(GB/s)": x["bw"], "Large Packet Ratio": x["large"],
                "Size Distribution": {repr(s): c for s, c in
                                      x["dist"].items()}}
                for tr, x in bw.items()}}


def torch_files(events, begin, step, out, rank):
    """A rank's torch_npu output files with the same numbers:
    communication.json, communication_matrix.json, step_trace_time.csv
    (the row STEP) and profiler_info_RANK.json."""
    stats = op_stats(events, begin)
    comm = {"step": {}}
    matrix = {"step": {}}
    for p2p, kind in ((True, "p2p"), (False, "collective")):
        these = [o for o in stats if o["p2p"] == p2p]
        comm["step"][kind] = {o["key"]: torch_op(o["time"], o["bw"])
                              for o in these}
        if these:
            comm["step"][kind]["Total Op Info"] = torch_op(*total_of(these))
        matrix["step"][kind] = {
            name: {link: dict({"Transport Type": v["type"],
                               "Transit Size(MB)": v["size"],
                               "Transit Time(ms)": v["time"],
                               "Bandwidth(GB/s)": v["bw"]},
                              **({"Op Name": v["op"]} if v["op"] else {}))
                   for link, v in ls.items()}
            for name, ls in matrix_fold(these).items()}
    d = os.path.join(out, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "communication.json"), "w") as f:
        json.dump(comm, f)
    with open(os.path.join(d, "communication_matrix.json"), "w") as f:
        json.dump(matrix, f)
    write(d, "step_trace_time", STEP_HEAD, [[""] + step[1:]])
    with open(os.path.join(out, "profiler_info_%d.json" % rank), "w") as f:
        json.dump({"rank_id": rank}, f)


STAT_HEAD = ["Device_id", "OP Type", "Count", "Total Time(us)",
             "Min Time(us)", "Avg Time(us)", "Max Time(us)", "Ratio(%)"]
SQL = sqlite3.connect(":memory:")


def dtos(v):
    """V with 3 decimals less its trailing zeros (msprof's DoubleToStr)."""
    t = ("%.3f" % v).rstrip("0")
    return t[:-1] if t.endswith(".") else t


def sql3(v):
    """SQLite's round(V, 3), printed as msprof prints it."""
    return dtos(SQL.execute("SELECT round(?, 3)", (v,)).fetchone()[0])


def statistic(events, begin, dev):
    """communication_statistic rows of one device as (total, row): per op
    type, its ops (op name, first launch and type) from their master
    tasks that start with the collection or later; types in the order
    their first op comes, then by most time (a stable sort)."""
    if all(e["op_type"] == "N/A" for e in events):
        return []
    ops = {}
    for e in events:
        if not e["master"] or e["start_ns"] < begin:
            continue
        k = (e["op_name"], e["first"], e["op_type"])
        lo, hi = ops.get(k, (e["start_ns"], e["start_ns"] + e["dur_ns"]))
        ops[k] = (min(lo, e["start_ns"]),
                  max(hi, e["start_ns"] + e["dur_ns"]))
    types = {}
    for (_, _, kind), (lo, hi) in ops.items():
        types.setdefault(kind, []).append(hi - lo)
    whole = sum(sum(v) for v in types.values())
    rows = []
    for kind, durs in types.items():
        total = sum(durs)
        ratio = round(float(total / whole * 100), 6) if whole else 0
        avg = round(float(total / len(durs)), 6)
        rows.append((max(durs), SQL.execute(
            "SELECT round(?, 3)", (total / 1000.0,)).fetchone()[0],
            [str(dev), kind, str(len(durs)), sql3(total / 1000.0),
             sql3(min(durs) / 1000.0), sql3(avg / 1000.0),
             sql3(max(durs) / 1000.0), sql3(ratio)]))
    rows.sort(key=lambda r: -r[0])
    return [(r[1], r[2]) for r in rows]


def write(out, name, head, rows):
    with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)


def main():
    torch = None
    start = None
    if sys.argv[1] == "--torch":
        torch = int(sys.argv[2])
        del sys.argv[1:3]
    if sys.argv[1] == "--begin":
        start = int(sys.argv[2])
        del sys.argv[1:3]
    want, out = sys.argv[1], sys.argv[2]
    begin, truth = read_truth(os.path.join(want, "hccl_truth.csv"))
    begin = begin if start is None else start
    ops = {}
    for t in truth:
        ops.setdefault((t["device"], t["op"]), {
            "tid": t["tid"], "begin": t["op_begin"], "end": t["op_end"],
            "name": t["op_name"], "type": t["op_type"]})
    comm_rows = []
    stats = []
    got = {k: [] for k in HEADS}
    for dev in sorted({t["device"] for t in truth}):
        tasks = [t for t in truth if t["device"] == dev]
        dops = [o for (d, _), o in sorted(ops.items()) if d == dev]
        events = merge(tasks, dops)
        rename(events, begin)
        stats += statistic(events, begin, dev)
        comm_rows += summary_rows(events, begin)
        c, b, m = tables(events, begin)
        got["communication"] += c
        got["communication_bandwidth"] += b
        got["communication_matrix"] += m
    comp = compute_ranges(want)
    if torch is not None:
        dev = min(t["device"] for t in truth)
        tasks = [t for t in truth if t["device"] == dev]
        events = merge(tasks, [o for (d, _), o in sorted(ops.items())
                               if d == dev])
        rename(events, begin)
        step = step_trace_time(summary_rows(events, begin), comp.get(dev, []))
        torch_files(events, begin, step, out, torch)
        return
    for k in HEADS:
        write(out, k, HEADS[k], got[k])
    # All devices' rows at once by total time, each device's order kept.
    stats.sort(key=lambda r: -r[0])
    write(out, "communication_statistic", STAT_HEAD, [r[1] for r in stats])
    steps = [step_trace_time([o for o in comm_rows if o["dev"] == dev],
                             comp.get(dev, []))
             for dev in sorted({o["dev"] for o in comm_rows})]
    write(out, "step_trace_time", STEP_HEAD, steps)
    op_summary(want, comm_rows, out)


if __name__ == "__main__":
    main()
