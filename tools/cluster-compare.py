#!/usr/bin/env python3
"""Compare npuprof-tui's cluster tables with msprof-analyze's output.

usage: cluster-compare.py OUTDIR COMM.csv MATRIX.csv STEPS.csv [BW.csv]

OUTDIR is msprof-analyze's cluster_analysis_output directory (text mode);
the CSV files are `npuprof-tui show --format csv PATH TABLE` of
cluster_communication, cluster_communication_matrix,
cluster_step_trace_time and cluster_communication_bandwidth. Prints the first differences and exits 1 if any
row or cell differs. Numbers are compared as text, after writing the
vendor's values as Python writes them. msprof-analyze takes the ranks in
the order the directory lists them, npuprof-tui in ascending order, so
rows are compared as sets; an order that differs is reported, not failed.
Rank sets ("(2, 10, 14, 6)") are compared in ascending order, as
npuprof-tui writes them: the tool writes a Python set's order.
"""
import csv
import json
import os
import sys

TIME_KEYS = ["Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)",
             "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)",
             "Wait Time Ratio", "Synchronization Time Ratio"]


def rank_tuple(text):
    """A rank set as Python printed it, ascending: the tool's order is
    that of a Python set filled in the order the directory listed the
    ranks, which no two machines need share."""
    t = text.strip()
    if not (t.startswith("(") and t.endswith(")")):
        return text
    items = [x.strip() for x in t[1:-1].split(",") if x.strip()]
    try:
        items = sorted(items, key=int)
    except ValueError:
        return text
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def cell(v):
    if v is None:
        return "N/A"
    if isinstance(v, str):
        return v if v != "" else "N/A"
    return repr(v)


def step_of(key):
    return key[4:] if key.startswith("step") and key[4:].isdigit() else key


def each_op(path):
    """(rank set, step, op, rank, info) of cluster_communication.json."""
    with open(path) as f:
        data = json.load(f)
    for rset, steps in data.items():
        for step, ops in steps.items():
            for op, ranks in ops.items():
                for rank, info in ranks.items():
                    yield rank_tuple(rset), step_of(step), op, str(rank), info


def vendor_comm(path):
    rows = []
    for rset, step, op, rank, info in each_op(path):
        t = info.get("Communication Time Info", {})
        rows.append([rset, step, op, rank] +
                    [cell(t.get(k)) for k in TIME_KEYS])
    return rows


def dist_text(d):
    return ";".join("%s:%s:%s" % (k, cell(v[0]), cell(v[1]))
                    for k, v in d.items())


def vendor_bw(path):
    rows = []
    for rset, step, op, rank, info in each_op(path):
        bw = info.get("Communication Bandwidth Info", {})
        for tr, v in bw.items():
            rows.append([rset, step, op, rank, tr,
                         cell(v.get("Transit Size(MB)")),
                         cell(v.get("Transit Time(ms)")),
                         cell(v.get("Bandwidth(GB/s)")),
                         cell(v.get("Large Packet Ratio")),
                         dist_text(v.get("Size Distribution", {})) or "N/A"])
    return rows


def vendor_matrix(path):
    rows = []
    with open(path) as f:
        data = json.load(f)
    for rset, steps in data.items():
        for step, ops in steps.items():
            for op, links in ops.items():
                for link, v in links.items():
                    src, dst = link.split("-", 1)
                    rows.append([rank_tuple(rset), step_of(step), op, src,
                                 dst,
                                 cell(v.get("Transport Type")),
                                 cell(v.get("Transit Size(MB)")),
                                 cell(v.get("Transit Time(ms)")),
                                 cell(v.get("Bandwidth(GB/s)")),
                                 cell(v.get("Op Name"))])
    return rows


def ours(path, drop=()):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return [[c if c != "" else "N/A" for i, c in enumerate(row)
             if i not in drop] for row in r[1:]]


def compare(name, want, got):
    bad = 0
    if want != got and sorted(want) == sorted(got):
        print("%s: %d rows, equal (in another order of ranks)" %
              (name, len(want)))
        return 0
    if len(want) != len(got):
        print("%s: %d rows, msprof-analyze has %d" % (name, len(got),
                                                     len(want)))
        bad += 1
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            print("%s row %d:\n  msprof-analyze %s\n  npuprof-tui    %s" %
                  (name, i + 1, w, g))
            bad += 1
            if bad > 5:
                break
    print("%s: %d rows, %s" % (name, len(want), "equal" if bad == 0
                                else "DIFFERENT"))
    return bad


def main():
    out, comm, matrix, steps = sys.argv[1:5]
    bad = 0
    p = os.path.join(out, "cluster_communication.json")
    if os.path.exists(p):
        bad += compare("cluster_communication", vendor_comm(p), ours(comm))
        if len(sys.argv) > 5:
            bad += compare("cluster_communication_bandwidth", vendor_bw(p),
                           ours(sys.argv[5]))
    p = os.path.join(out, "cluster_communication_matrix.json")
    if os.path.exists(p):
        bad += compare("cluster_communication_matrix", vendor_matrix(p),
                       ours(matrix))
    p = os.path.join(out, "cluster_step_trace_time.csv")
    if os.path.exists(p):
        with open(p, newline="") as f:
            want = [[c if c != "" else "N/A" for c in r]
                    for r in list(csv.reader(f))[1:]]
        for r in want:
            if len(r) > 2 and r[1] == "stage":
                r[2] = rank_tuple(r[2])
        bad += compare("cluster_step_trace_time", want, ours(steps))
    sys.exit(1 if bad else 0)


main()
