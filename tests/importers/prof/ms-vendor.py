#!/usr/bin/env python3
"""MindSpore 2.3's (or its release candidates') or 2.4's own reading of an
op_range_<rank> file (a development check, never run in CI).

Usage: ms-vendor.py MS_PYTHON OP_RANGE_FILE

MS_PYTHON is the mindspore/python folder of a MindSpore 2.3 or 2.4
source tree (github.com/mindspore-ai/mindspore, tag v2.3.0-rcN, v2.3.x
or v2.4.x, told apart by the record size its reader takes: 57, 73 or
74). Its profiler/parser/ascend_analysis modules are copied into a
scratch tree beside stubs for what they import of the rest of MindSpore
(its logger, a path check, the profiler info), and run on the file:
TLVDecoder and MindSporeOpEvent decode the ranges,
FwkFileParser.get_fwk_trace_data makes their trace events and
FwkCANNParser's self-flow linker (none before 2.3.0) their
mindspore_to_self flows. Printed: a line "X|name|tid|args" per complete
event, "F|phase|id|tid" per flow end. Times are left out (the counter
is kept as it is: times are checked by other tests). Where 2.4's reader
fails on a custom info (a part with no ':'), the field is dropped and
the event read again, as npuprof-tui leaves such a custom info out.
Nothing of MindSpore's is copied into the repository: this only calls it.
"""
import json
import shutil
import sys
from decimal import Decimal

import msscratch

ANALYSIS = "mindspore/profiler/parser/ascend_analysis"
STUBS = {
    "mindspore/__init__.py": msscratch.ROOT,
    # 2.3.0rc1 imports its clock reader (the stub of get_local_time below
    # replaces what it reads).
    "mindspore/_c_expression.py": "",
    "mindspore/profiler/__init__.py": "",
    "mindspore/profiler/parser/__init__.py": "",
    "mindspore/profiler/common/__init__.py": "",
    "mindspore/profiler/common/validator/__init__.py": "",
    "mindspore/profiler/common/validator/validate_path.py":
        "def validate_and_normalize_path(p, *a, **k):\n    return p\n",
    "mindspore/profiler/parser/profiler_info.py":
        "class ProfilerInfo:\n    JIT_LEVEL = 'jit_level'\n"
        "    @staticmethod\n    def get_profiler_info():\n"
        "        return {}\n",
}


def main():
    ms_python, path = sys.argv[1:3]
    root = msscratch.make(ms_python, [ANALYSIS], STUBS)
    try:
        run(path)
    finally:
        shutil.rmtree(root)


def run(path):
    from mindspore.profiler.parser.ascend_analysis.profiler_info_parser \
        import ProfilerInfoParser
    ProfilerInfoParser.get_local_time = classmethod(
        lambda cls, syscnt: Decimal(syscnt))
    from mindspore.profiler.parser.ascend_analysis.tlv_decoder import \
        TLVDecoder
    from mindspore.profiler.parser.ascend_analysis.function_event import \
        MindSporeOpEvent
    from mindspore.profiler.parser.ascend_analysis.fwk_file_parser import \
        FwkFileParser
    from mindspore.profiler.parser.ascend_analysis.fwk_cann_parser import \
        FwkCANNParser

    # 2.3 reads no custom info, so never fails on one.
    if hasattr(MindSporeOpEvent, "_get_args"):
        orig = MindSporeOpEvent._get_args

        def args(self, fix):
            try:
                return orig(self, fix)
            except IndexError:
                self._orig_data.pop(9, None)
                return orig(self, fix)

        MindSporeOpEvent._get_args = args
    with open(path, "rb") as f:
        ops = TLVDecoder.decode(f.read(), MindSporeOpEvent,
                                FwkFileParser._op_range_struct_size)
    parser = FwkFileParser.__new__(FwkFileParser)
    FwkFileParser.calculate_dataset_item = lambda self, data: None
    linker = FwkCANNParser.__new__(FwkCANNParser)
    if FwkFileParser._op_range_struct_size in (57, 73):
        # 2.3: the trace events alone; the linker reads the ranges.
        events = parser.get_fwk_trace_data(ops)
        linker._fwk_data = ops
    else:
        events, links, _ = parser.get_fwk_trace_data(ops)
        linker._link_event_dict = links
    for e in events:
        if e.get("ph") == "X":
            print("X|%s|%s|%s" % (e["name"], e["tid"], json.dumps(
                e["args"], ensure_ascii=False, separators=(",", ":"))))
    # 2.3's release candidates have no flow ids, nor a linker for them.
    if hasattr(linker, "_FwkCANNParser__link_msop_self"):
        for f in linker._FwkCANNParser__link_msop_self():
            print("F|%s|%s|%s" % (f["ph"], f["id"], f["tid"]))


if __name__ == "__main__":
    main()
