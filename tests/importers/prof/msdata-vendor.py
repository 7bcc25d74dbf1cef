#!/usr/bin/env python3
"""MindSpore 2.5's or later own minddata_pipeline_raw of a
pipeline_profiling_<rank>.json file (a development check, never run in
CI).

Usage: msdata-vendor.py MS_PYTHON PIPELINE_FILE OUT_CSV [SUMMARY_CSV]
       msdata-vendor.py --numbers CSV


MS_PYTHON is the mindspore/python folder of a MindSpore 2.5 or later
source tree (github.com/mindspore-ai/mindspore). Its MindDataParser
(profiler/analysis/parser/ms_minddata_parser.py) reads the pipeline, the
ops' CPU use and the device trace beside it, and its
MindDataPipelineRawViewer (profiler/analysis/viewer/
ms_minddata_viewer.py) writes minddata_pipeline_raw_0.csv, copied to
OUT_CSV, and its MindDataPiplineSummaryViewer (same file)
minddata_pipeline_summary_0.csv, copied to SUMMARY_CSV; they run in a scratch tree beside stubs for the rest (logger,
file manager, exception classes, base classes). Nothing of MindSpore's
is copied into the repository: this only calls it.

--numbers prints CSV (a summary, MindSpore's or ours) with each cell of
the findings' rows (cpu_analysis_details, queue_analysis_details,
bottleneck_suggestion) replaced by the numbers in it, sorted and each
once: the ops' ids and the figures, which ours must share with
MindSpore's while the words differ.
"""
import csv
import os
import re
import shutil
import sys

import msscratch

KEEP = ["mindspore/profiler/analysis/parser/ms_minddata_parser.py",
        "mindspore/profiler/analysis/viewer/ms_minddata_viewer.py"]
FILE_MANAGER = msscratch.FILE_MANAGER + (
    "    @staticmethod\n    def read_json_file(p):\n"
    "        import json\n        with open(p) as f:\n"
    "            return json.load(f)\n"
    "    @staticmethod\n    def create_json_file(p, data, indent=None):\n"
    "        import json\n        with open(p, 'w') as f:\n"
    "            f.write(json.dumps(data, indent=indent))\n"
    "    @staticmethod\n    def read_txt_file(p):\n"
    "        with open(p) as f:\n"
    "            return [l.strip() for l in f.readlines()]\n")
STUBS = {
    **msscratch.VIEWER_STUBS,
    "mindspore/__init__.py": msscratch.ROOT,
    "mindspore/profiler/analysis/parser/__init__.py": "",
    "mindspore/profiler/analysis/parser/base_parser.py":
        "class BaseParser:\n    def __init__(self, next_parser=None):\n"
        "        pass\n",
    "mindspore/profiler/common/file_manager.py": FILE_MANAGER,
    "mindspore/profiler/common/exceptions/__init__.py": "",
    "mindspore/profiler/common/exceptions/exceptions.py":
        "class ProfilerRawFileException(Exception):\n    pass\n"
        "class ProfilerPathErrorException(Exception):\n    pass\n",
}


WORDS = ("cpu_analysis_details", "queue_analysis_details",
         "bottleneck_suggestion")


def numbers(path):
    """Print the CSV at PATH, the findings' cells as their numbers."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if row and row[0] in WORDS:
                row = [row[0]] + [" ".join(sorted(set(
                    re.findall(r"-?[0-9]+(?:\.[0-9]+)?", c))))
                    for c in row[1:]]
            w.writerow(row)


def main():
    if sys.argv[1] == "--numbers":
        numbers(sys.argv[2])
        return
    ms_python, path, out = sys.argv[1:4]
    root = msscratch.make(ms_python, KEEP, STUBS)
    try:
        from mindspore.profiler.analysis.parser.ms_minddata_parser \
            import MindDataParser
        from mindspore.profiler.analysis.viewer.ms_minddata_viewer \
            import MindDataPipelineRawViewer, \
            MindDataPiplineSummaryViewer
        fw = os.path.join(root, "fw")
        os.makedirs(fw)
        # The pipeline and the files beside it that the parser reads.
        for f in os.listdir(os.path.dirname(path)):
            if f.endswith(("_0.json", "_0.txt")):
                shutil.copy(os.path.join(os.path.dirname(path), f), fw)
        kw = {"rank_id": 0, "activities": ["NPU"], "framework_path": fw,
              "ascend_ms_dir": root, "ascend_profiler_output_path": root}
        data = MindDataParser(**kw)._parse({})
        MindDataPipelineRawViewer(**kw).save(data)
        # Its raw viewer may fail (and write nothing) where its summary
        # does not.
        if os.path.exists(os.path.join(root, "minddata_pipeline_raw_0.csv")):
            shutil.copy(os.path.join(root, "minddata_pipeline_raw_0.csv"),
                        out)
        # The summary reads the ops as the raw viewer left them.
        if len(sys.argv) > 4:
            MindDataPiplineSummaryViewer(**kw).save(data)
            shutil.copy(os.path.join(root,
                                     "minddata_pipeline_summary_0.csv"),
                        sys.argv[4])
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
