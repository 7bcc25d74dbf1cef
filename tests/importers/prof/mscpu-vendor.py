#!/usr/bin/env python3
"""MindSpore 2.5's or later own reading of a cpu_op_execute_timestamp
file (a development check, never run in CI).

Usage: mscpu-vendor.py MS_PYTHON FILE

MS_PYTHON is the mindspore/python folder of a MindSpore 2.5 or later
source tree (github.com/mindspore-ai/mindspore). Its CpuOpTimelineCreator,
the CPU op events and their pool are copied into a scratch tree beside
stubs for the rest of MindSpore (its logger) and run on the file's lines,
read as its FrameworkParser reads them (text, each line stripped); a line
that is not UTF-8, on which MindSpore's reader fails (and so reads none
of the file), is left out, as npuprof-tui leaves it out; so is an event
whose time is not a number, on which its analysis fails, and one that
ends past what 64-bit ns hold (a clock stepped back during the op),
which npuprof-tui skips and counts. MindSpore turns
ns into µs by the binary float 0.001 (its Decimal is 1e-3 + 2.08e-20),
which puts a start of today's epoch ns some 36 ns late; that factor is
set to the exact 0.001 here, as npuprof-tui converts. Printed: a line
"X|name|pid|tid|ts|dur|args" per complete event, ts and dur in µs as the
events give them. Nothing of MindSpore's is copied into the repository:
this only calls it.
"""
import decimal
import json
import shutil
import sys

import msscratch

PARSER = "mindspore/profiler/analysis/parser"
KEEP = [
    PARSER + "/timeline_creator/cpu_op_timeline_creator.py",
    PARSER + "/timeline_creator/base_timeline_creator.py",
    PARSER + "/timeline_event/cpu_op_event.py",
    PARSER + "/timeline_event/base_event.py",
    PARSER + "/timeline_event/timeline_event_pool.py",
    "mindspore/profiler/common/constant.py",
]
STUBS = {
    "mindspore/__init__.py": msscratch.ROOT,
    "mindspore/profiler/__init__.py": "",
    "mindspore/profiler/common/__init__.py": "",
    "mindspore/profiler/analysis/__init__.py": "",
    PARSER + "/__init__.py": "",
    PARSER + "/timeline_creator/__init__.py": "",
    PARSER + "/timeline_event/__init__.py": "",
}


def main():
    ms_python, path = sys.argv[1:3]
    root = msscratch.make(ms_python, KEEP, STUBS)
    try:
        run(path)
    finally:
        shutil.rmtree(root)


def run(path):
    from mindspore.profiler.common.constant import EventConstant, \
        TimeConstant
    TimeConstant.NS_TO_US = decimal.Decimal("0.001")
    from mindspore.profiler.analysis.parser.timeline_creator.\
        cpu_op_timeline_creator import CpuOpTimelineCreator
    lines = []
    with open(path, "rb") as f:
        for raw in f.read().decode("utf-8", "surrogateescape").splitlines():
            try:
                raw.encode("utf-8")
            except UnicodeEncodeError:
                continue
            lines.append(raw.strip())
    creator = CpuOpTimelineCreator()
    creator.create(lines)
    pool = creator.event_pools[EventConstant.CPU_OP_PID]
    for e in pool.get_complete_events():
        try:
            ts, dur = e.ts, e.dur
        except decimal.InvalidOperation:
            continue
        if (ts + dur) * 1000 > 2 ** 63 - 1:
            continue
        print("X|%s|%s|%s|%s|%s|%s" % (e.name, e.pid, e.tid, ts, dur,
                                       json.dumps(e.args, separators=(
                                           ",", ":"))))


if __name__ == "__main__":
    main()
