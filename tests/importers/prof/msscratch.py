"""A scratch tree of MindSpore's own modules beside stubs, for the
development checks that run MindSpore's readers (ms-vendor.py,
msmem-vendor.py, msrec-vendor.py)."""
import os
import shutil
import sys
import tempfile

# Stubs that several checks share: MindSpore's logger and activity names.
LOGGER = ("import logging\nclass ProfilerLogger:\n"
          "    @staticmethod\n    def init(*a, **k):\n        pass\n"
          "    @staticmethod\n    def get_instance():\n"
          "        return logging.getLogger('p')\n")
ACTIVITY = ("from enum import Enum\nclass ProfilerActivity(Enum):\n"
            "    CPU = 'CPU'\n    NPU = 'NPU'\n")
# The package's root: its logger.
ROOT = "import logging\nlog = logging.getLogger('mindspore')\n"
# The viewers' base class.
BASE_VIEWER = "class BaseViewer:\n    def __init__(self):\n        pass\n"
# The packages of profiler/analysis/viewer/ and what a viewer imports
# from them: its base class, logger and activity names.
VIEWER_STUBS = {
    "mindspore/profiler/__init__.py": "",
    "mindspore/profiler/analysis/__init__.py": "",
    "mindspore/profiler/analysis/viewer/__init__.py": "",
    "mindspore/profiler/analysis/viewer/base_viewer.py": BASE_VIEWER,
    "mindspore/profiler/common/__init__.py": "",
    "mindspore/profiler/common/log.py": LOGGER,
    "mindspore/profiler/common/constant.py": ACTIVITY,
}
# The file reads and writes the viewers make.
FILE_MANAGER = (
    "import csv\nclass FileManager:\n"
    "    @staticmethod\n    def read_file_content(p, mode='r'):\n"
    "        with open(p, mode) as f:\n            return f.read()\n"
    "    @staticmethod\n"
    "    def create_csv_file(p, data, headers=None):\n"
    "        with open(p, 'w', newline='') as f:\n"
    "            w = csv.writer(f)\n"
    "            if headers:\n                w.writerow(headers)\n"
    "            w.writerows(data)\n")


def make(ms_python, keep, stubs):
    """A temporary folder holding KEEP (paths under MS_PYTHON, files or
    folders) and the STUBS (path: text), first on sys.path; the caller
    removes it."""
    root = tempfile.mkdtemp()
    for k in keep:
        src, dst = os.path.join(ms_python, k), os.path.join(root, k)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)
    for name, text in stubs.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)),
                    exist_ok=True)
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    sys.path.insert(0, root)
    return root
