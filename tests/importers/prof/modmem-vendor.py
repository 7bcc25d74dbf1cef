#!/usr/bin/env python3
"""The vendor's side of prof-modmem-vendor.sh.

usage: modmem-vendor.py PROF_DIR OUT_CSV [NPU_MEM_CSV]

For each device_N/ of PROF_DIR, the npu_module_mem.data slices are joined
in slice order, the bytes short of a whole record dropped at the head;
each 24-byte record is decoded by the vendor's NpuModuleMemDataBean, and
its time turned into local microseconds by the vendor's InfoConfReader
loaded with that device directory (time_from_host_syscnt with the
device's clock pair, then trans_into_local_time). Records from before the
device's collection start are left out and the rest ordered by module id
and time, sizes in whole KB, as msprof's export (its C++ assembler) does.
OUT_CSV gets Device_id,Module,Timestamp(us),Total Reserved(KB),Device.

NPU_MEM_CSV, if given, gets the npu_mem table: each device directory's
npu_mem.app and then npu_mem.data slices (each a stream with the head
rule), each 32-byte record unpacked with the vendor's struct format and
decoded by its NpuMemDataBean (the V1 layout of the generated folders);
the records in file order by slice number, the app channel's first on a
tie (the vendor's dispatch sorts the files by slice number; a tie it
leaves to the directory listing), each channel read as one stream (the
vendor's parser starts every file afresh, so a record cut by a slice
boundary reads as rubbish there);
its time made absolute from the four terms InfoConfReader's
get_absolute_time_by_sampling_timestamp adds (the sample's us, the
device's start log time, the host-device delta and the local time
offset), added exactly: the vendor adds them in floating point, which at
today's epoch rounds to 256 ns, where genuine torch_npu files of January
2025 show exact times. Records before the device's collection start are
left out, the rest in file order with the event names and whole KB of
msprof's C++ export.
"""
import os
import re
import struct
import sys
from decimal import Decimal

from common_func.info_conf_reader import InfoConfReader
from common_func.ms_constant.number_constant import NumberConstant
from msparser.data_struct_size_constant import StructFmt
from msparser.npu_mem.npu_mem_bean import NpuMemDataBean
from msparser.npu_mem.npu_module_mem_bean import NpuModuleMemDataBean


def slices(data, kind, size):
    """The slices of KIND in DATA as one stream, less its partial head,
    and the slice number each record starts in."""
    pat = re.compile(r"^" + re.escape(kind) + r"\.\d+\.slice_(\d+)$")
    names = sorted((int(m.group(1)), n) for n in os.listdir(data)
                   for m in [pat.match(n)] if m)
    blob = b""
    starts = []
    for num, n in names:
        starts.append((len(blob), num))
        with open(os.path.join(data, n), "rb") as f:
            blob += f.read()
    skip = len(blob) % size
    recs = []
    for at in range(skip, len(blob) - size + 1, size):
        num = max((s for s in starts if s[0] <= at), default=(0, 0))[1]
        recs.append((num, blob[at:at + size]))
    return recs


def stream(data, kind, size):
    """The slices of KIND in DATA as one stream, less its partial head."""
    return b"".join(r for _, r in slices(data, kind, size))


def device_rows(devdir, device):
    size = StructFmt.NPU_MODULE_MEM_SIZE
    blob = stream(os.path.join(devdir, "data"), "npu_module_mem.data", size)
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


def npu_mem_rows(devdir, device):
    conf = InfoConfReader()
    conf._host_freq = None
    conf.load_info(devdir)
    begin_ns = int(conf.get_collect_time()[0]) * 1000
    size = StructFmt.NPU_MEM_DATA_SIZE
    names = {0: "APP", 1: "Device"}
    rows = []
    recs = []
    for channel, kind in enumerate(("npu_mem.app", "npu_mem.data")):
        recs += [(num, channel, i, r) for i, (num, r) in enumerate(
            slices(os.path.join(devdir, "data"), kind, size))]
    # The files by slice number, the app channel's first on a tie.
    for _, _, _, raw in sorted(recs):
        rec = struct.unpack(StructFmt.NPU_MEM_FMT, raw)
        bean = NpuMemDataBean().npu_mem_decode(rec)
        ns = int((Decimal(bean.timestamp) * 1000 +
                  Decimal(conf.get_start_timestamp()) +
                  Decimal(repr(conf.get_delta_time())) * 10 ** 9 +
                  Decimal(repr(conf.get_local_time_offset())) * 1000
                  ).to_integral_value())
        if ns < begin_ns:
            continue
        rows.append("%d,%s,%d,%d,%d,%d.%03d" % (
            device, names.get(bean.event, "Unknown"),
            bean.ddr // 1024, bean.hbm // 1024,
            (bean.ddr + bean.hbm) // 1024, ns // 1000, ns % 1000))
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
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            f.write("Device_id,event,ddr(KB),hbm(KB),memory(KB),"
                    "timestamp(us)\n")
            for n in sorted(os.listdir(prof)):
                m = re.match(r"^device_(\d+)$", n)
                if m:
                    for r in npu_mem_rows(os.path.join(prof, n),
                                          int(m.group(1))):
                        f.write(r + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
