"""The trace events torch_npu's own analysis makes of a FRAMEWORK/ folder.

Usage:
  fwk-vendor.py PT_SRC PROFILE SPANS FLOWS LANES
      PT_SRC is the top of a source tree of github.com/Ascend/pytorch (the
      folder that holds torch_npu/, of which torch_npu/profiler/analysis
      is all that is used); PROFILE a *_ascend_pt/ folder.  Hands the
      folder to the vendor's FwkFileParser as its TorchOpParser,
      TaskQueueParser and TracePreParser do (get_file_data_by_tag of the
      op ranges, get_task_queue_data, get_fwk_trace_data, with its
      ProfilerConfig loaded from the folder; torch_npu 7.1 and before
      read the ops and marks in get_fwk_trace_data itself), and writes
      what its trace events hold, sorted, in the form the test
      prof-fwk-vendor.sh reads our store in:
        SPANS  LEVEL|NAME|PID|TID|START_NS|END_NS|ARGS, one per "X"
               event; LEVEL is our name of its category (cpu_op python,
               enqueue, dequeue, python_function, GC), ARGS its args as
               compact JSON in its key order (empty when it has none);
        FLOWS  CAT|NAME|ID|PHASE|PID|TID|TS_NS|BP, one per "s"/"f" event;
        LANES  PID|TID|NAME of its process (TID 0) and thread name "M"
               events.
      Times: an event's "ts" is a string of µs with three decimals and
      "dur" a float of µs, as torch_npu's own conversion
      (convert_ns2us_str, convert_ns2us_float) writes them; both are
      turned back into ns, exactly (a duration whose float does not give
      back its ns is an error).
  fwk-vendor.py --current FILE
      Keeps in the torch.op_range FILE only the records of the current
      layout (doc/formats.md section 3.11: the 58-byte fixed part, then
      the name as field 2), which is the only one torch_npu's parser still
      reads; prints how many records it dropped.

torch_npu itself is not imported (it needs torch): the parents of its
analysis package (torch_npu, torch_npu.profiler) and the few torch_npu
modules the analysis code imports from outside it (error codes, a path
checker, a warning switch) are stand-ins made here, and the logger the
analysis writes into the profile folder is replaced by one on standard
error.  The vendor takes the first PROF_ folder, device folder (the
device in the process id of its GC lane) and file of each kind its
directory listings give, in the file system's order; its listings are
sorted here, so that it takes the lowest, as we do (on a file system that
lists device_1 before device_0 it would name the GC process by device 1).
Nothing of the vendor's code is copied here: it is imported from
PT_SRC and called.
"""
import inspect
import json
import logging
import os
import struct
import sys
import types


def current_only(path):
    """Keep the op range records of the current layout; the number dropped."""
    data = open(path, "rb").read()
    out, dropped, off = [], 0, 0
    while off + 6 <= len(data):
        typ, n = struct.unpack_from("<HI", data, off)
        rec = data[off + 6:off + 6 + n]
        if typ != 1 or len(rec) < n:
            break
        good = False
        if len(rec) >= 64:
            f, fl = struct.unpack_from("<HI", rec, 58)
            good = f == 2 and 64 + fl <= len(rec)
        if good:
            out.append(data[off:off + 6 + n])
        else:
            dropped += 1
        off += 6 + n
    out.append(data[off:])
    with open(path, "wb") as f:
        f.write(b"".join(out))
    return dropped


def stand_ins(pt_src):
    """Modules torch_npu's analysis imports from outside itself."""
    def module(name, path=None, **attrs):
        m = types.ModuleType(name)
        if path is not None:
            m.__path__ = [path]
        m.__dict__.update(attrs)
        sys.modules[name] = m
        return m

    class Code:
        def __init__(self, name):
            self.name = name
            self.msg = name

    class ErrCode:
        def __getattr__(self, name):
            return Code(name)

    top = os.path.join(pt_src, "torch_npu")
    module("torch_npu", top)
    module("torch_npu.profiler", os.path.join(top, "profiler"))
    module("torch_npu.utils", os.path.join(top, "utils"),
           _should_print_warning=lambda: True)
    module("torch_npu.utils._error_code", ErrCode=ErrCode(),
           prof_error=lambda code: " ErrorCode: %s" % code.name)
    module("torch_npu.utils._path_manager", PathManager=_NoChecks)
    module("torch_npu._init", os.path.join(top, "_init"))
    module("torch_npu._init.common", os.path.join(top, "_init", "common"))
    module("torch_npu._init.common.warning_utils",
           _should_print_warning=lambda: True)


class _NoChecksMeta(type):
    """Every class attribute a no-op: the vendor checks paths with them."""
    def __getattr__(cls, name):
        return lambda *args, **kwargs: None


class _NoChecks(metaclass=_NoChecksMeta):
    DATA_FILE_AUTHORITY = 0o640


def ns(us):
    """The ns of a "ts" string as convert_ns2us_str writes it."""
    whole, _, frac = us.partition(".")
    if len(frac) != 3 or not (whole + frac).lstrip("-").isdigit():
        raise ValueError("unexpected ts %r" % us)
    return int(whole + frac)


def main():
    if sys.argv[1] == "--current":
        print(current_only(sys.argv[2]))
        return 0
    pt_src, prof, spans_out, flows_out, lanes_out = sys.argv[1:6]
    stand_ins(pt_src)
    listdir = os.listdir
    os.listdir = lambda path=".": sorted(listdir(path))
    base = "torch_npu.profiler.analysis."
    try:
        log = __import__(base + "prof_common_func._log", fromlist=["x"])
    except ImportError:
        log = None     # torch_npu 6 and before: no log of the analysis
    if log is not None:
        logger = logging.getLogger("fwk-vendor")
        logger.addHandler(logging.StreamHandler(sys.stderr))
        logger.setLevel(logging.WARNING)
        logger.propagate = False
        log.ProfilerLogger._instance = logger
        log.ProfilerLogger._pid = os.getpid()
    config = __import__(base + "_profiler_config", fromlist=["x"])
    parse = __import__(base + "prof_parse._fwk_file_parser", fromlist=["x"])
    tag = __import__(base + "prof_common_func._file_tag", fromlist=["x"])
    conv = __import__(base + "prof_common_func._constant", fromlist=["x"])

    config.ProfilerConfig().load_info(prof)
    fwk = parse.FwkFileParser(prof)
    if inspect.signature(fwk.get_fwk_trace_data).parameters:
        ops = parse.FwkFileParser(prof).get_file_data_by_tag(
            tag.FileTag.TORCH_OP)
        enq, deq = parse.FwkFileParser(prof).get_task_queue_data()
        events = fwk.get_fwk_trace_data(ops, enq, deq)
    else:
        events = fwk.get_fwk_trace_data()   # torch_npu 7.1 and before

    level = {"cpu_op": "python", "enqueue": "enqueue", "dequeue": "dequeue",
             "python_function": "python_function", "GC": "GC"}
    spans, flows, lanes = [], [], []
    for e in events:
        if e["ph"] == "X":
            start = ns(e["ts"])
            dur = round(e["dur"] * 1000)
            if conv.convert_ns2us_float(dur) != e["dur"]:
                raise ValueError("dur %r is not a whole ns" % e["dur"])
            args = json.dumps(e["args"], separators=(",", ":"),
                              ensure_ascii=False) if e["args"] else ""
            spans.append("%s|%s|%d|%d|%d|%d|%s" % (
                level[e["cat"]], e["name"], e["pid"], e["tid"], start,
                start + dur, args))
        elif e["ph"] in ("s", "f"):
            flows.append("%s|%s|%s|%s|%d|%d|%d|%s" % (
                e["cat"], e["name"], e["id"], e["ph"], e["pid"], e["tid"],
                ns(e["ts"]), e["bp"]))
        elif e["ph"] == "M" and e["name"] in ("process_name",
                                              "thread_name"):
            lanes.append("%d|%d|%s" % (e["pid"], e["tid"],
                                       e["args"]["name"]))
    for path, lines in ((spans_out, spans), (flows_out, flows),
                        (lanes_out, lanes)):
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(l + "\n" for l in sorted(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
