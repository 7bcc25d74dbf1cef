#!/usr/bin/env python3
"""The vendor's side of the communication_statistic check.

usage: opstat-vendor.py WANT_DIR OUT_CSV

Needs on PYTHONPATH the analysis/ folder of a source tree of
github.com/Ascend/msprof, and hccl-expect.py beside this file. The HCCL
tasks of a generated collection (WANT_DIR/hccl_truth.csv of npuprof-gen
prof -L), given to their ops and named by hccl-expect.py's merge and
rename (which prof-hccl.sh checks against npuprof-tui's communication
tables), become the vendor's HcclTask records; its HcclCalculator groups
them into ops and op types and works out each type's figures and ratio
(_get_hccl_op_report_data, _create_report). OUT_CSV gets them as msprof's
C++ export prints them: SQLite's round() to 3 decimals of us (its query),
then 3 decimals less trailing zeros (DoubleToStr); each device's rows in
the report's order (by most time), then all rows by total time.
Nothing of the vendor's is copied here: this script only calls it.
"""
import csv
import importlib.util
import os
import sqlite3
import sys

from mscalculate.hccl.hccl_calculator import HcclCalculator
from mscalculate.hccl.hccl_task import HcclTask

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location(
    "hccl_expect", os.path.join(HERE, "hccl-expect.py"))
EXPECT = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(EXPECT)
SQL = sqlite3.connect(":memory:")


def main():
    want, out = sys.argv[1], sys.argv[2]
    begin, truth = EXPECT.read_truth(os.path.join(want, "hccl_truth.csv"))
    ops = {}
    for t in truth:
        ops.setdefault((t["device"], t["op"]), {
            "tid": t["tid"], "begin": t["op_begin"], "end": t["op_end"],
            "name": t["op_name"], "type": t["op_type"]})
    rows = []
    for dev in sorted({t["device"] for t in truth}):
        events = EXPECT.merge([t for t in truth if t["device"] == dev],
                              [o for (d, _), o in sorted(ops.items())
                               if d == dev])
        EXPECT.rename(events, begin)
        tasks = [HcclTask(op_name=e["op_name"], first_timestamp=e["first"],
                          op_type=e["op_type"], is_master=e["master"],
                          timestamp=e["start_ns"], duration=e["dur_ns"])
                 for e in events]
        calc = HcclCalculator.__new__(HcclCalculator)
        calc.start_time_raw_timestamp = begin
        calc._hccl_op_report_data = []
        if not any(t.op_type != "N/A" for t in tasks):
            continue
        calc._create_report(calc._get_hccl_op_report_data(tasks))
        got = []
        for kind, count, total, lo, avg, hi, ratio in \
                calc._hccl_op_report_data:
            q = SQL.execute("SELECT round(?/1000.0, 3), round(?/1000.0, 3),"
                            " round(?/1000.0, 3), round(?/1000.0, 3),"
                            " round(?, 3)", (total, lo, avg, hi, ratio))
            t, lo, avg, hi, ratio = q.fetchone()
            cell = EXPECT.dtos
            got.append((t, kind, [str(dev), kind, str(count), cell(t),
                                  cell(lo), cell(avg), cell(hi),
                                  cell(ratio)]))
        rows += got
    # The export sorts all devices' rows by total time (std::sort, which
    # keeps the report's order on ties for so few rows).
    rows.sort(key=lambda r: -r[0])
    rows = [r[2] for r in rows]
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(EXPECT.STAT_HEAD)
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
