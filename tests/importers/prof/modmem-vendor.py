#!/usr/bin/env python3
"""The vendor's side of prof-modmem-vendor.sh.

usage: modmem-vendor.py PROF_DIR OUT_CSV

For each device_N/ of PROF_DIR, the npu_module_mem.data slices are joined
in slice order, the bytes short of a whole record dropped at the head;
each 24-byte record is decoded by the vendor's NpuModuleMemDataBean, and
its time turned into local microseconds by the vendor's InfoConfReader
loaded with that device directory (time_from_host_syscnt with the
device's clock pair, then trans_into_local_time). Records from before the
device's collection start are left out and the rest ordered by module id
and time, sizes in whole KB, as msprof's export (its C++ assembler) does.
OUT_CSV gets Device_id,Module,Timestamp(us),Total Reserved(KB),Device.
"""
import os
import re
import sys
from decimal import Decimal

from common_func.info_conf_reader import InfoConfReader
from common_func.ms_constant.number_constant import NumberConstant
from msparser.data_struct_size_constant import StructFmt
from msparser.npu_mem.npu_module_mem_bean import NpuModuleMemDataBean


def device_rows(devdir, device):
    data = os.path.join(devdir, "data")
    pat = re.compile(r"^npu_module_mem\.data\.\d+\.slice_(\d+)$")
    names = sorted((int(m.group(1)), n) for n in os.listdir(data)
                   for m in [pat.match(n)] if m)
    blob = b""
    for _, n in names:
        with open(os.path.join(data, n), "rb") as f:
            blob += f.read()
    size = StructFmt.NPU_MODULE_MEM_SIZE
    blob = blob[len(blob) % size:]
    conf = InfoConfReader()
    conf._host_freq = None
    conf.load_info(devdir)
    begin_us = Decimal(str(conf.get_collect_time()[0]))
    rows = []
    for i in range(0, len(blob), size):
        bean = NpuModuleMemDataBean.decode(blob[i:i + size])
        us = conf.trans_into_local_time(
            conf.time_from_host_syscnt(int(bean.cpu_cycle_count),
                                       NumberConstant.MICRO_SECOND,
                                       is_host=False), use_us=True)
        if Decimal(us) < begin_us:
            continue
        rows.append((bean.module_id, Decimal(us), device,
                     bean.total_size // 1024))
    return rows


def main():
    prof, out = sys.argv[1], sys.argv[2]
    rows = []
    for n in sorted(os.listdir(prof)):
        m = re.match(r"^device_(\d+)$", n)
        if m:
            rows += device_rows(os.path.join(prof, n), int(m.group(1)))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    with open(out, "w") as f:
        f.write("Device_id,Module,Timestamp(us),Total Reserved(KB),"
                "Device\n")
        for mod, us, dev, kb in rows:
            f.write("%d,%d,%s,%d,NPU:%d\n" % (dev, mod, us, kb, dev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
