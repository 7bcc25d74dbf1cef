#!/usr/bin/env python3
"""The MC2 ops of a generated collection by the vendor's own code (a
development check, never run in CI).

Usage: kfc-vendor.py IN_DIR TASK_TIME_CSV OUT_DIR [CONN_CSV]

Needs on PYTHONPATH the analysis/ folder of a source tree of
github.com/Ascend/msprof. The AI CPU's records decoded (IN_DIR's
kfc_info, aicpu_master_task, aicpu_flip, device_hccl_op_info and
mc2_comm_info tables as CSV: npuprof-tui's, which prof-gen.sh checks
against the generator's; from npuprof-gen prof -C without -g, so that
names stay hash numbers as the vendor keeps them) and the device tasks
of the KFC and communication streams (TASK_TIME_CSV, npuprof-tui's
task_time of the collection) are handed to the vendor's KfcCalculator
in place of its databases; its
KfcOP and KfcTask rows are written as the kfc_op and kfc_task tables
npuprof-tui shows, less the columns the vendor has not (the kernel's
stream and task of kfc_op) and those npuprof-tui has not (index and
connection ids); bandwidths with four decimals, as npuprof-tui shows
them. The rows are then saved in a scratch project as the vendor saves
them, and its timeline export draws the MC2 ops of each device from
them: mc2.csv holds per op its device, name, start (us), duration (ns,
as the vendor's float gives it) and args as JSON. CONN_CSV (device,
stream, task, start in ns, connection id: npuprof-tui's task table)
gives the kernels their connection ids; without it they are 0.
Nothing of the vendor's is copied here: this script only calls it.

What the generator does not write down is supplied as it generates it:
the device tasks of those streams have batch 0 and no context; a
kernel's host task is a KERNEL_AICPU task of GE type HCCL_AI_CPU whose
op type is its name less "AicpuKernel"; no device task flips on them.
"""
import csv
import json
import os
import shutil
import sys
import tempfile
from unittest import mock

from common_func.db_name_constant import DBNameConstant
from common_func.hccl_info_common import DeviceHcclSource
from common_func.info_conf_reader import InfoConfReader
from mscalculate.flip.flip_calculator import FlipCalculator
from mscalculate.hccl.kfc_calculator import KfcCalculator
from msmodel.add_info.kfc_info_model import KfcInfoViewModel
from msmodel.hccl.hccl_model import HcclViewModel
from msmodel.task_time.ascend_task_model import AscendTaskViewModel
from viewer.get_hccl_export_data import HCCLExport

NO_CTX = 4294967295
NO_MODEL = 4294967295


def ns(us):
    """Epoch microseconds with three decimals as integer nanoseconds."""
    whole, _, frac = us.partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def us(v):
    sign, v = ("-", -v) if v < 0 else ("", v)
    return "%s%d.%03d" % (sign, v // 1000, v % 1000)


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    try:
        return int(v)
    except ValueError:
        return v


def na(v):
    return "N/A" if v in (-1, NO_CTX, NO_MODEL, "-1") else str(v)


class Inputs:
    def __init__(self, want, task_time, dev, conns):
        self.dev = dev
        self.conns = conns
        pick = lambda t: [r for r in rows(os.path.join(want, t + ".csv"))
                          if r.get("Device_id", str(dev)) == str(dev)]
        self.mc2 = rows(os.path.join(want, "mc2_comm_info.csv"))
        self.kfc_streams = {int(r["Stream ID"]): r["Group Name"]
                            for r in self.mc2}
        self.comm_streams = {}
        for r in self.mc2:
            for s in filter(None, r["Comm Stream IDs"].split(",")):
                self.comm_streams.setdefault(int(s), set()).add(
                    r["Group Name"])
        self.infos = pick("kfc_info")
        self.masters = pick("aicpu_master_task")
        self.flips = pick("aicpu_flip")
        self.opinfos = pick("device_hccl_op_info")
        self.tasks = [r for r in rows(task_time)
                      if r["Device_id"] == str(dev)]

    def ascend(self, r, host, name):
        start = ns(r["task_start(us)"])
        conn = self.conns.get((self.dev, int(r["stream_id"]),
                               int(r["task_id"]), start), 0)
        return AscendTaskViewModel.ASCEND_TASK_TYPE(
            NO_MODEL, 0, int(r["stream_id"]), int(r["task_id"]), NO_CTX, 0,
            start, ns(r["task_stop(us)"]) - start, host, r["kernel_type"],
            conn, name, 0 if name == "N/A" else -1)

    def kfc_data(self, kfc_streams, comm_streams):
        ops, comm = [], []
        for r in sorted(self.tasks, key=lambda r: ns(r["task_start(us)"])):
            s = int(r["stream_id"])
            named = r["kernel_name"] != "N/A"
            if named and (r["kernel_name"].endswith("AicpuKernel") or
                          s in kfc_streams):
                ops.append(self.ascend(r, "KERNEL_AICPU",
                                       r["kernel_name"]))
            if s in comm_streams:
                comm.append(self.ascend(r, "UNKNOWN", "N/A"))
        return ops, comm

    def node_info(self, ops):
        out = {}
        for d in ops:
            key = "%d-%d-%d-%d" % (d.stream_id, d.task_id, d.context_id,
                                   d.batch_id)
            out[key] = [d.op_name, d.op_name[:-len("AicpuKernel")],
                        d.timestamp]
        return out

    def kfc_info(self):
        return [KfcInfoViewModel.KFC_HCCL_INFO_TYPE(
            ns(r["Timestamp(us)"]), r["Name"], num(r["CCL Tag"]),
            r["Group Name"], num(r["Src Rank"]), num(r["Dst Rank"]),
            num(r["Rank Size"]), num(r["Work Flow Mode"]),
            num(r["Plane ID"]), NO_CTX, num(r["Notify ID"]),
            num(r["Stage"]), r["Role"], r["Duration Estimated(us)"],
            num(r["Src Addr"]), num(r["Dst Addr"]), num(r["Size(Byte)"]),
            r["Reduce Op"], r["Data Type"], r["Link Type"],
            r["Transport Type"], r["Rdma Type"], int(r["Stream ID"]),
            int(r["Task ID"]), 0, 0, 0, 0, "N/A", -1) for r in self.infos]

    def flip_data(self):
        return [KfcInfoViewModel.AICPU_TASK_FLIP(
            int(r["Stream ID"]), ns(r["Timestamp(us)"]), int(r["Task ID"]),
            int(r["Flip Num"])) for r in self.flips]

    def master_data(self):
        v = [KfcInfoViewModel.MASTER_STREAM_HCCL_TASK_TYPE(
            ns(r["Timestamp(us)"]), int(r["AI CPU Stream ID"]),
            int(r["AI CPU Task ID"]), int(r["Stream ID"]),
            int(r["Task ID"]), 0, 0, int(r["Type"])) for r in self.masters]
        return sorted(v, key=lambda m: m.timestamp)

    def opinfo_data(self):
        v = [KfcInfoViewModel.HCCL_OP_INFO_TYPE(
            ns(r["Timestamp(us)"]), int(r["Relay"]), int(r["Retry"]),
            r["Data Type"], r["Alg Type"], num(r["Count"]),
            r["Group Name"], int(r["Stream ID"]), int(r["Task ID"]),
            int(r["Rank Size"]), 0) for r in self.opinfos]
        return sorted(v, key=lambda m: m.timestamp)


def patched_conf():
    conf = type(InfoConfReader())
    return mock.patch.multiple(
        conf, get_collect_time=lambda self: (0, 0),
        trans_from_local_time_into_dev_raw_time=lambda self, t: 0,
        get_local_time_offset=lambda self, is_host=False: 0,
        get_json_pid_data=lambda self: 0, is_level0=lambda self: False)


def timeline(dev, calc):
    """The MC2 ops the vendor's timeline draws from CALC's rows."""
    tmp = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tmp, "sqlite"))
        calc._project_path = tmp
        with patched_conf():
            calc.save()
            exp = HCCLExport({"project": tmp})
            with HcclViewModel(tmp, DBNameConstant.DB_HCCL_SINGLE_DEVICE,
                               [DBNameConstant.TABLE_HCCL_TASK_SINGLE_DEVICE]
                               ) as m:
                exp._get_meta_data(m.get_hccl_task(), m.get_kfc_task())
            bars = exp._format_hccl_op_data(DeviceHcclSource.MC2.value)
    finally:
        shutil.rmtree(tmp)
    return [[dev, b[0], b[3], b[4] * 1000, json.dumps(b[5])] for b in bars]


def vendor(inp):
    """KfcCalculator's KfcOP and KfcTask rows of device INP.dev, and the
    MC2 ops its timeline draws from them."""
    class View:
        KFC_HCCL_INFO_TYPE = KfcInfoViewModel.KFC_HCCL_INFO_TYPE
        AICPU_TASK_FLIP = KfcInfoViewModel.AICPU_TASK_FLIP

        def __init__(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        get_aicpu_task_flip = lambda self: inp.flip_data()
        get_kfc_info_data = lambda self: inp.kfc_info()
        get_hccl_op_info_data = lambda self: inp.opinfo_data()
        get_aicpu_master_stream_hccl_task = lambda self: inp.master_data()

    ns_ = "mscalculate.hccl.kfc_calculator."
    with patched_conf(), \
            mock.patch.object(FlipCalculator, "set_device_batch_id",
                              staticmethod(lambda d, p, **k: d)), \
            mock.patch(ns_ + "KfcInfoViewModel", View):
        calc = KfcCalculator([], {"result_dir": "/nonexistent"})
        kfc, comm = inp.kfc_streams, inp.comm_streams
        calc.get_mc2_comm_info_data = lambda: (kfc, comm)
        calc.get_kfc_data = lambda k, c: inp.kfc_data(k, c)
        calc.get_host_task_info = lambda ops: inp.node_info(
            [d.ascend_data for v in ops.values() for d in v])
        calc.get_kfc_host_hccl_op = lambda: {}
        calc.calculate()
    return calc._kfc_op_data, calc._kfc_task_data, timeline(inp.dev, calc)


def main():
    want, task_time, out = sys.argv[1:4]
    conns = {}
    if len(sys.argv) > 4:
        for r in csv.reader(open(sys.argv[4], newline="")):
            if r[4] != "":
                conns[tuple(map(int, r[:4]))] = int(r[4])
    devs = sorted({int(r["Device_id"]) for r in rows(task_time)})
    op_rows, task_rows, bar_rows = [], [], []
    for dev in devs:
        ops, tasks, bars = vendor(Inputs(want, task_time, dev, conns))
        bar_rows += bars
        for v in ops.values():
            for o in v:
                op_rows.append([dev, o[0], o[2], us(o[3]), us(o[4]),
                                o[5], o[7], na(o[8]), na(o[9]), o[10],
                                o[11], na(o[12]), na(o[13]),
                                "HCCL" if o[14] == 0 else "MC2"])
        for v in tasks.values():
            for t in v:
                task_rows.append([dev, t[0], t[2], us(t[3]), t[5],
                                  t[6], t[7], us(t[8]), us(t[9]), t[10],
                                  t[11], t[12], t[13], t[14], t[15],
                                  t[16], t[17], t[18], t[19],
                                  "%.4f" % t[20], na(t[21]),
                                  t[22], t[23], t[24],
                                  "HCCL" if t[26] == 0 else "MC2"])
    with open(os.path.join(out, "kfc_op.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(op_rows)
    with open(os.path.join(out, "kfc_task.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(task_rows)
    with open(os.path.join(out, "mc2.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(bar_rows)


if __name__ == "__main__":
    main()
