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
