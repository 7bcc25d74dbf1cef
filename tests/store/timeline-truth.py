#!/usr/bin/env python3
# The ground truth of the timeline cells, computed from kernel_details.csv
# alone: per stream, the union of the task intervals, and per cell of a
# frame the time it covers and the core type covering most of it. Usage:
#   truth.py KERNEL_DETAILS.CSV STREAM T0 T1 W
# prints one line per cell: index, busy ns, spans starting, type.
import csv
import sys
from decimal import Decimal

TYPES = ["ai_core", "ai_vector_core", "mix", "ai_cpu", "comm", "memcpy",
         "event", "other", "api", "step"]


def span_type(core):
    c = core.upper()
    if c.startswith("MIX"):
        return "mix"
    if c in ("AI_VECTOR_CORE", "AIV"):
        return "ai_vector_core"
    if c in ("AI_CORE", "AIC"):
        return "ai_core"
    if c in ("AI_CPU", "AICPU"):
        return "ai_cpu"
    if "HCCL" in c or "HCOM" in c or "COMM" in c:
        return "comm"
    return "other"


def ns(us):
    return int(Decimal(us.strip()) * 1000)


def main():
    path, stream, t0, t1, w = sys.argv[1:6]
    t0, t1, w = int(t0), int(t1), int(w)
    spans = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            if row["Stream ID"] != stream:
                continue
            s = ns(row["Start Time(us)"])
            spans.append((s, s + ns(row["Duration(us)"]),
                          span_type(row["Accelerator Core"])))
    spans.sort()
    # The union, each piece keeping the type of the span that added it.
    pieces = []
    reach = None
    for s, e, t in spans:
        if reach is not None and s < reach:
            s = reach
        if e > s:
            pieces.append((s, e, t))
            reach = e
        elif reach is None or s > reach:
            reach = s
    edges = [t0 + (t1 - t0) * i // w for i in range(w + 1)]
    for i in range(w):
        a, b = edges[i], edges[i + 1]
        by = {}
        for s, e, t in pieces:
            lo, hi = max(s, a), min(e, b)
            if hi > lo:
                by[t] = by.get(t, 0) + hi - lo
        busy = sum(by.values())
        n = sum(1 for s, e, t in spans if a <= s < b)
        best = "none"
        for t in TYPES:
            if by.get(t, 0) > by.get(best, 0):
                best = t
        print(i, busy, n, best, sep="\t")


main()
