#!/usr/bin/env python3
"""MindSpore's own operator_details of a FRAMEWORK/mindspore.record_shapes
file (a development check, never run in CI).

Usage: msshape-vendor.py MS_PYTHON RECORD_SHAPES_FILE OUT_CSV

MS_PYTHON is the mindspore/python folder of a MindSpore source tree
(github.com/mindspore-ai/mindspore) whose profiler has
analysis/viewer/ms_operator_details_viewer.py. That viewer and the TLV
decoder it imports (profiler/common/tlv_decoder.py) are copied into a
scratch tree beside stubs for the rest (its base class, logger, file
manager and constants), and its MsOperatorDetailsViewer writes
operator_details.csv from the file, copied to OUT_CSV. Nothing of
MindSpore's is copied into the repository: this only calls it.
"""
import os
import shutil
import sys

import msscratch

KEEP = ["mindspore/profiler/analysis/viewer/ms_operator_details_viewer.py",
        "mindspore/profiler/common/tlv_decoder.py"]
STUBS = {
    **msscratch.VIEWER_STUBS,
    "mindspore/__init__.py": msscratch.ROOT,
    "mindspore/profiler/common/constant.py":
        "class FileConstant:\n    FIX_SIZE_DATA = 'fix_size_data'\n",
    "mindspore/profiler/common/file_manager.py": msscratch.FILE_MANAGER,
}


def main():
    ms_python, path, out = sys.argv[1:4]
    root = msscratch.make(ms_python, KEEP, STUBS)
    try:
        from mindspore.profiler.analysis.viewer.ms_operator_details_viewer \
            import MsOperatorDetailsViewer
        fw = os.path.join(root, "fw")
        os.makedirs(fw)
        shutil.copy(path, os.path.join(fw, "mindspore.record_shapes"))
        viewer = MsOperatorDetailsViewer(
            framework_path=fw, ascend_profiler_output_path=root,
            ascend_ms_dir=root)
        viewer.save({})
        shutil.copy(os.path.join(root, "operator_details.csv"), out)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
