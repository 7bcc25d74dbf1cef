#!/usr/bin/env python3
"""MindSpore's own memory_record of a generated MindSpore profile (a
development check, never run in CI).

Usage: msrec-vendor.py MS_PYTHON MEMORY_RECORD_TXT CANN_TXT RANK OUT_CSV

MS_PYTHON is the mindspore/python folder of a MindSpore 2.5 or later
source tree (github.com/mindspore-ai/mindspore). Its
profiler/analysis/viewer/ascend_memory_viewer.py is copied into a scratch
tree beside stubs for the rest (its base class, logger, file manager and
activity names), and its AscendMemoryViewer writes memory_record.csv from
MindSpore's cpu_ms_memory_record_<rank>.txt and from msprof's
memory_record and npu_mem CSVs, which are made here from the generator's
CANN_TXT (npuprof-gen's ms_cann_memory.txt: GE's and APP's byte counts,
turned into KB cells with Python's round(bytes / 1024, 3), as msprof
writes them). The result is copied to OUT_CSV. Nothing of MindSpore's is
copied into the repository: this only calls it.
"""
import csv
import os
import shutil
import sys

import msscratch

KEEP = ["mindspore/profiler/analysis/viewer/ascend_memory_viewer.py"]
STUBS = {
    **msscratch.VIEWER_STUBS,
    "mindspore/__init__.py": "",
    "mindspore/profiler/common/file_manager.py":
        "import csv, os\nclass FileManager:\n"
        "    @staticmethod\n"
        "    def get_csv_file_list_by_start_name(d, name):\n"
        "        return sorted(os.path.join(d, f) for f in os.listdir(d)\n"
        "                      if f.startswith(name) and f.endswith('.csv'))\n"
        "    @staticmethod\n    def combine_csv_file(files, target):\n"
        "        pass\n"
        "    @staticmethod\n    def read_csv_file(p):\n"
        "        if not os.path.isfile(p):\n            return []\n"
        "        with open(p, newline='') as f:\n"
        "            return list(csv.reader(f))\n"
        "    @staticmethod\n    def create_csv_file(p, data, headers=None):\n"
        "        with open(p, 'w', newline='') as f:\n"
        "            w = csv.writer(f)\n            w.writerow(headers)\n"
        "            w.writerows(data)\n",
}


def msprof_csvs(cann, out):
    """msprof's memory_record and npu_mem CSVs of the generator's lines."""
    ge = [["Device_id", "Component", "Timestamp(us)", "Total Allocated(KB)",
           "Total Reserved(KB)", "Device"]]
    app = [["Device_id", "event", "ddr(KB)", "hbm(KB)", "memory(KB)",
            "timestamp(us)"]]
    with open(cann) as f:
        for line in f:
            p = line.rstrip("\n").split("|")
            if p[0] == "GE":
                ge.append([p[4], "GE", p[1] + "\t",
                           round(int(p[2]) / 1024, 3),
                           round(int(p[3]) / 1024, 3), "NPU:" + p[4]])
            else:
                kb = round(int(p[2]) / 1024, 3)
                app.append(["0", "APP", 0, kb, kb, p[1] + "\t"])
    for name, rows in (("memory_record_0.csv", ge), ("npu_mem_0.csv", app)):
        with open(os.path.join(out, name), "w", newline="") as f:
            csv.writer(f).writerows(rows)


def main():
    ms_python, record, cann, rank, out = sys.argv[1:6]
    root = msscratch.make(ms_python, KEEP, STUBS)
    try:
        from mindspore.profiler.analysis.viewer.ascend_memory_viewer \
            import AscendMemoryViewer
        fw = os.path.join(root, "fw")
        msprof = os.path.join(root, "msprof")
        res = os.path.join(root, "out")
        for d in (fw, msprof, res):
            os.makedirs(d)
        shutil.copy(record, os.path.join(
            fw, "cpu_ms_memory_record_%s.txt" % rank))
        msprof_csvs(cann, msprof)
        viewer = AscendMemoryViewer(
            profile_memory=True, rank_id=int(rank), framework_path=fw,
            ascend_profiler_output_path=res, ascend_ms_dir=root,
            msprof_profile_output_path=msprof, activities=["CPU"])
        viewer.save()
        shutil.copy(os.path.join(res, "memory_record.csv"), out)
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
