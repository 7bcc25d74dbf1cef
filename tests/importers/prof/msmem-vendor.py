#!/usr/bin/env python3
"""MindSpore 2.5's or 2.6's own operator_memory of a
FRAMEWORK/mindspore.memory_usage file (a development check, never run
in CI).

Usage: msmem-vendor.py MS_PYTHON MEMORY_USAGE_FILE OUT_CSV

MS_PYTHON is the mindspore/python folder of a MindSpore 2.5 or 2.6
source tree (github.com/mindspore-ai/mindspore). Its
profiler/analysis/viewer/ascend_op_memory_viewer.py and the TLV decoder
it imports (profiler/parser/ascend_analysis) are copied into a scratch
tree beside stubs for the rest (its logger, file manager and activity
names), and its AscendOpMemoryViewer writes operator_memory.csv from the
file, copied to OUT_CSV; with its ns-to-us divisor set to 1000 (2.5's
is 1024, which we do not follow). Nothing of MindSpore's is copied into
the repository: this only calls it.
"""
import os
import shutil
import sys

import msscratch

KEEP = ["mindspore/profiler/parser/ascend_analysis",
        "mindspore/profiler/analysis/viewer/ascend_op_memory_viewer.py"]
STUBS = {
    "mindspore/__init__.py": msscratch.ROOT,
    "mindspore/profiler/__init__.py": "",
    "mindspore/profiler/parser/__init__.py": "",
    "mindspore/profiler/analysis/__init__.py": "",
    "mindspore/profiler/analysis/viewer/__init__.py": "",
    "mindspore/profiler/common/__init__.py": "",
    "mindspore/profiler/common/validator/__init__.py": "",
    "mindspore/profiler/common/validator/validate_path.py":
        "def validate_and_normalize_path(p, *a, **k):\n    return p\n",
    "mindspore/profiler/common/log.py": msscratch.LOGGER,
    "mindspore/profiler/common/constant.py": msscratch.ACTIVITY,
    "mindspore/profiler/common/file_manager.py": msscratch.FILE_MANAGER,
}


def main():
    ms_python, path, out = sys.argv[1:4]
    root = msscratch.make(ms_python, KEEP, STUBS)
    try:
        from mindspore.profiler.analysis.viewer.ascend_op_memory_viewer \
            import AscendOpMemoryViewer
        fw = os.path.join(root, "fw")
        os.makedirs(fw)
        shutil.copy(path, os.path.join(fw, "mindspore.memory_usage"))
        # MindSpore 2.5 divides ns by 1024 for its "us": we divide by
        # 1000 (doc/formats.md 3.12), so the check does too.
        AscendOpMemoryViewer.NS_TO_US = 1000
        viewer = AscendOpMemoryViewer(
            profile_memory=True, framework_path=fw,
            ascend_profiler_output_path=root, ascend_ms_dir=root,
            activities=["CPU"])
        viewer.save()
        shutil.copy(os.path.join(root, "operator_memory.csv"), out)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
