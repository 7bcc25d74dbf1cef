#!/usr/bin/env python3
"""The vendor's side of prof-kfc-tree-vendor.sh.

usage: kfc-tree-vendor.py HARNESS MODE CASES SEED

Needs on PYTHONPATH the analysis/ folder of a source tree of
github.com/Ascend/msprof. Makes CASES random sets of spans on one thread
(MODE nested: a node holding a tree of spans; crossing: spans anywhere,
crossing each other; ties: spans on a few instants, so that many start
or end together), of the levels the importer keeps (model, node, HCCL),
some of no length. For each set, the vendor's CANN tree builder
(CANNAnalysisChain.build_tree over an event queue of ApiDataDto, their
records put in the order the API ends, as they are written) marks the
last node right inside each node (kfc_node_event); HARNESS
(t-prof-hccl --spans) says what prof_hccl_kfc_span() gives. Prints
"CASES cases, N different" and up to three sets that differ. Nothing of
the vendor's is copied here: this script only calls it.
"""
import random
import subprocess
import sys

from common_func.constant import Constant
from mscalculate.cann.cann_analysis_chain import CANNAnalysisChain
from mscalculate.cann.cann_database import AdditionalRecordDatabase
from mscalculate.cann.cann_database import ApiDataDatabase
from mscalculate.cann.cann_event_generator import CANNThreadDB
from mscalculate.cann.event_queue import EventQueue
from mscalculate.cann.tree import TreeNode
from profiling_bean.db_dto.api_data_dto import ApiDataDto, invalid_dto

LEVELS = {15000: "model", 10000: "node", 5500: "communication"}
NODE = 10000


def vendor(spans):
    """Node index -> the index of its kfc node, or None, by the vendor."""
    queue = EventQueue(1, 16)
    db = ApiDataDatabase(1)
    index = {}
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][1], i)):
        b, e, lv = spans[i]
        if b == e:
            continue
        dto = ApiDataDto(connection_id=i, start=b, end=e, level=LEVELS[lv],
                         struct_type="x", item_id=str(i), thread_id=1)
        ev = db.put(dto)
        queue.add(ev)
        index[ev] = i
    queue.lock()
    thread = CANNThreadDB(1, queue, db, AdditionalRecordDatabase(1))
    chain = CANNAnalysisChain(1, thread, {})
    root = thread.add_api(invalid_dto(Constant.ROOT_LEVEL, 1, 0,
                                      thread.get_time_bound() + 1, "root"))
    tree = chain.build_tree(TreeNode(root))
    out = {}
    todo = [tree]
    while todo:
        node = todo.pop()
        i = index.get(node.event)
        if i is not None and spans[i][2] == NODE:
            k = node.event.kfc_node_event
            out[i] = index[k] if k is not None else None
        todo.extend(node.children)
    return out


def ours(harness, spans):
    text = "".join("1 %d %d %d\n" % s for s in spans)
    res = subprocess.run([harness, "--spans"], input=text,
                         capture_output=True, text=True, check=True)
    out = {}
    for line in res.stdout.splitlines():
        i, k = line.split()
        out[int(i)] = None if k == "-" else int(k)
    return out


def nested(rng):
    spans = [(10, 1000, NODE)]

    def fill(b, e, depth):
        t = b
        while t < e - 2 and rng.random() < 0.7 and len(spans) < 10:
            cb = rng.randint(t + 1, e - 1)
            ce = rng.randint(cb, e)
            spans.append((cb, ce, rng.choice([NODE, NODE, 5500, 15000])))
            if depth < 3 and ce > cb:
                fill(cb, ce, depth + 1)
            t = ce
    fill(10, 1000, 0)
    return spans


def loose(rng, hi):
    spans = []
    for _ in range(rng.randint(2, 8)):
        b = rng.randint(1, hi - 2)
        e = rng.randint(b, hi)
        spans.append((b, e, rng.choice([NODE, NODE, 5500, 15000])))
    return spans


def main():
    harness, mode = sys.argv[1], sys.argv[2]
    cases, rng = int(sys.argv[3]), random.Random(int(sys.argv[4]))
    bad = []
    for _ in range(cases):
        if mode == "nested":
            spans = nested(rng)
        else:
            spans = loose(rng, 1000 if mode == "crossing" else 14)
        v, o = vendor(spans), ours(harness, spans)
        if any(o.get(i, "missing") != k for i, k in v.items()):
            bad.append(spans)
    print("%d cases, %d different" % (cases, len(bad)))
    for spans in bad[:3]:
        print(" ", spans)
    return 0


if __name__ == "__main__":
    sys.exit(main())
