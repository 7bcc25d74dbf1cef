#!/usr/bin/env python3
"""The communication tables of a generated collection by the vendor's own
code (a development check, never run in CI).

Usage: hccl-vendor.py WANT_DIR OUT_DIR

Needs on PYTHONPATH the analysis/ folder of a source tree of
github.com/Ascend/msprof and a source tree of Ascend/msprof-analyze. The
tasks of WANT_DIR/hccl_truth.csv (what npuprof-gen prof -L wrote) go
through the vendor's HcclCalculator (merge of ops and tasks, op names),
CommunicationParser and CommunicationMatrixParser (communication.json and
communication_matrix.json of msprof --analyze) and msprof-analyze's
adapters of those files; with the compute tasks of the generator's
op_summary, msprof-analyze's step_trace_time of an msprof database. The
result is written as the tables npuprof-tui shows. Nothing of the vendor's is copied here: this script
only calls it. Per type, "Total Op Info" is the vendor's combine() over
that type's ops.
"""
import csv
import dataclasses
import json
import os
import sys
import tempfile
from decimal import Decimal

from common_func.info_conf_reader import InfoConfReader
from mscalculate.hccl.hccl_calculator import HcclCalculator
from mscalculate.hccl.hccl_task import HcclOps, HcclTask
from msparser.cluster.communication_matrix_parser import \
    CommunicationMatrixParser
from msparser.cluster.communication_parser import CommunicationParser
from msparser.cluster.meta_parser import HcclAnalysisTool
from analyzer.communication_matrix_analyzer import CommunicationMatrixAnalyzer
from msprof_analyze.cluster_analyse.communication_group.\
    msprof_communication_matrix_adapter import MsprofCommunicationMatrixAdapter
from msprof_analyze.cluster_analyse.communication_group.\
    msprof_communication_time_adapter import MsprofCommunicationTimeAdapter
from msprof_analyze.cluster_analyse.analysis.msprof_step_trace_time_adapter \
    import MsprofStepTraceTimeAdapter, MsprofStepTraceTimeDBAdapter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib  # noqa: E402
expect = importlib.import_module("hccl-expect")

HcclTask.replace = lambda self, **kw: dataclasses.replace(self, **kw)
HcclAnalysisTool.get_standard_bandwidth = classmethod(lambda cls: {})
# Our device times are epoch ns already: local time is ns / 1000.
InfoConfReader.trans_into_local_time = lambda self, ts, **kw: str(
    (Decimal(str(ts)) / Decimal(1000)).quantize(Decimal("0.000")))
TIME = ["Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)",
        "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)",
        "Wait Time Ratio", "Synchronization Time Ratio"]
BW = ["Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)",
      "Large Packet Ratio"]


def vendor_events(truth, dev, begin):
    ops, tasks, seen = [], [], set()
    for t in truth:
        if t["device"] != dev:
            continue
        if t["op"] not in seen:
            seen.add(t["op"])
            ops.append(HcclOps(device_id=dev, op_name=t["op_name"],
                               task_type="COMMUNICATION",
                               op_type=t["op_type"], thread_id=t["tid"],
                               timestamp=t["op_begin"],
                               duration=t["op_end"] - t["op_begin"],
                               group_name=t["op_group"]))
        tasks.append(HcclTask(
            hccl_name=t["name"], group_name=t["group"],
            plane_id=t["plane"], timestamp=t["start_ns"],
            duration=t["dur_ns"], stream_id=t["stream"], task_id=t["task"],
            context_id=t["ctx"], batch_id=0, host_timestamp=t["host_ts"],
            is_master=t["master"], local_rank=t["local"],
            remote_rank=t["remote"], transport_type=t["transport"],
            link_type=t["link"], rdma_type=t["rdma"], size=t["size"],
            thread_id=t["tid"], device_id=dev))
    ops.sort(key=lambda o: o.timestamp)
    tasks.sort(key=lambda x: (x.host_timestamp, x.timestamp))
    calc = object.__new__(HcclCalculator)
    calc._hccl_op_data = []
    calc.start_time_raw_timestamp = begin
    data = calc._merge_hccl_ops_and_tasks(ops, tasks)
    data.sort(key=lambda x: (x.host_timestamp, x.timestamp))
    calc.update_op_name_by_group_name(data)
    return data


def comm_json(events):
    by_op = {}
    for e in events:
        by_op.setdefault(e.op_name + "@" + e.group_name, []).append(e)
    parser = CommunicationParser({k: {-1: v} for k, v in by_op.items()})
    parser.parse()
    out = {}
    for name, ranks in parser.op_info.items():
        out[name] = ranks[-1]
    return out, by_op


def total(ops):
    """The vendor's combine() over OPS (name -> op info)."""
    parser = CommunicationParser({})
    parser.op_info = {k: {-1: v} for k, v in ops.items()}
    parser.combine()
    return parser.op_info["Total HCCL Operators"][-1]


def matrix_json(by_op):
    info = CommunicationMatrixParser(by_op).run()
    an = object.__new__(CommunicationMatrixAnalyzer)
    return an._process_output(info)


def rows(comm, matrix):
    fmt = expect.fmt
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, "c.json"), os.path.join(d, "m.json")]
        for p, v in zip(paths, (comm, matrix)):
            with open(p, "w") as f:
                json.dump(v, f)
        ctime = MsprofCommunicationTimeAdapter(paths[0]) \
            .generate_comm_time_data()["step"]
        cmat = MsprofCommunicationMatrixAdapter(paths[1]) \
            .generate_comm_matrix_data()["step"]
    t_rows, b_rows, m_rows = [], [], []
    for kind in ("p2p", "collective"):
        ops = {k: comm[k] for k in ctime[kind]}
        if not ops:
            continue
        for name, o in list(ops.items()) + [("Total Op Info",
                                              total(ops))]:
            ti = o["Communication Time Info"]
            t_rows.append(["step", kind, name] + [fmt(ti[k]) for k in TIME])
            for tr, b in o["Communication Bandwidth Info"].items():
                b_rows.append(["step", kind, name, tr] +
                              [fmt(b[k]) for k in BW] +
                              [expect.dist_text(b["Size Distribution"])])
        for name, links in cmat[kind].items():
            for link, v in links.items():
                src, dst = link.split("-")
                m_rows.append(["step", kind, name, src, dst,
                               v["Transport Type"] or "N/A",
                               fmt(v["Transit Size(MB)"]),
                               fmt(v["Transit Time(ms)"]),
                               fmt(v["Bandwidth(GB/s)"]),
                               v.get("Op Name") or "N/A"])
    return t_rows, b_rows, m_rows


def step_row(events, comp):
    """msprof-analyze's step_trace_time of an msprof database, its
    COMMUNICATION_OP being the ops' master task spans and its
    COMPUTE_TASK_INFO the compute tasks COMP."""
    ops = {}
    for e in events:
        if e.is_master != 1:
            continue
        o = ops.setdefault(e.op_name + "@" + e.group_name,
                           [e.op_name, e.timestamp, e.timestamp + e.duration])
        o[1] = min(o[1], e.timestamp)
        o[2] = max(o[2], e.timestamp + e.duration)
    names = {i: o[0] for i, o in enumerate(ops.values())}
    ad = object.__new__(MsprofStepTraceTimeDBAdapter)
    MsprofStepTraceTimeAdapter.__init__(ad, None)
    ad._init_task_info_from_db = lambda: None
    ad.string_id_map = names
    ad.compute_task_info = list(comp)
    ad.communication_op_info = sorted(
        ((i, o[1], o[2]) for i, o in enumerate(ops.values())),
        key=lambda x: (x[1], names[x[0]]))
    row = ad.generate_step_trace_time_data()[0]
    return ["N/A"] + [expect.fmt(v) for v in row[1:]]


def main():
    want, out = sys.argv[1], sys.argv[2]
    begin, truth = expect.read_truth(os.path.join(want, "hccl_truth.csv"))
    got = ([], [], [])
    steps = []
    comp = expect.compute_ranges(want)
    for dev in sorted({t["device"] for t in truth}):
        events = vendor_events(truth, dev, begin)
        steps.append(step_row(events, comp.get(dev, [])))
        events = [e for e in events if e.timestamp >= begin]
        comm, by_op = comm_json(events)
        for g, r in zip(got, rows(comm, matrix_json(by_op))):
            g += r
    for name, r in zip(("communication", "communication_bandwidth",
                        "communication_matrix"), got):
        with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(expect.HEADS[name])
            w.writerows(r)
    with open(os.path.join(out, "step_trace_time.csv"), "w",
              newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(expect.STEP_HEAD)
        w.writerows(steps)


if __name__ == "__main__":
    main()
