#!/usr/bin/env python3
"""The cluster tables of a folder of torch_npu rank outputs, computed the
way msprof-analyze's cluster analysis computes them, written as
npuprof-tui's show --format csv writes them. A second implementation for
the tests, in Python's own arithmetic: what npuprof-tui derives in C must
equal it cell for cell.

usage: cluster-ref.py DIR OUTDIR
writes OUTDIR/cluster_communication.csv, cluster_communication_matrix.csv,
cluster_communication_bandwidth.csv and cluster_step_trace_time.csv.
"""
import csv
import json
import os
import sys

TIME = ["Start Timestamp(us)", "Elapse Time(ms)", "Transit Time(ms)",
        "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)",
        "Wait Time Ratio", "Synchronization Time Ratio"]
SUMMED = TIME[1:6]


def ratio(a, b):
    return 0 if abs(b) < 1e-15 else round(a / b, 4)


def text(v):
    if v is None:
        return "N/A"
    return v if isinstance(v, str) else repr(v)


def step_of(key):
    return key[4:] if key.startswith("step") and key[4:].isdigit() else key


def ranks(top):
    found = {}
    for root, dirs, files in os.walk(top):
        for f in files:
            if f.startswith("profiler_info") and f.endswith(".json"):
                with open(os.path.join(root, f)) as fh:
                    r = json.load(fh).get("rank_id")
                found[int(r)] = os.path.join(root, "ASCEND_PROFILER_OUTPUT")
    return dict(sorted(found.items()))


def load(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def groups(data):
    coll, p2p = {}, {}
    for rank, files in data.items():
        for d in files:
            for step in d.values():
                for kind, target in (("collective", coll), ("p2p", p2p)):
                    for op in step.get(kind, {}):
                        if not op.startswith("Total"):
                            target.setdefault(op.split("@")[-1],
                                              set()).add(rank)
    return coll, p2p


def rank_set(coll, p2p, kind, grp):
    s = (p2p if kind == "p2p" else coll).get(grp, set())
    return str(tuple(sorted(s)))


def op_struct(data, coll, p2p, matrix=False):
    """rank set -> step -> op -> rank -> the op's info (its links with
    MATRIX), as first given."""
    struct = {}
    for rank, files in data.items():
        for step, sd in files[1 if matrix else 0].items():
            for kind, ops in sd.items():
                for op, info in ops.items():
                    if op.startswith("Total"):
                        continue
                    rs = rank_set(coll, p2p, kind, op.split("@")[-1])
                    struct.setdefault(rs, {}).setdefault(
                        step, {}).setdefault(op, {}).setdefault(rank, info)
    return struct


def comm_table(data, coll, p2p):
    struct = op_struct(data, coll, p2p)
    rows = []
    for rs, steps in struct.items():
        for step, ops in steps.items():
            totals = {}
            for op, rinfo in ops.items():
                g = op.split("@")[-1]
                for rank, info in rinfo.items():
                    t = info.get("Communication Time Info", {})
                    rows.append([rs, step_of(step), op, str(rank)] +
                                [text(t.get(k)) for k in TIME])
                    tot = totals.setdefault(g, {}).setdefault(rank, {})
                    for k in SUMMED:
                        if k in t:
                            tot[k] = tot.get(k, 0.0) + t[k]
            for g, rd in totals.items():
                for rank, tot in rd.items():
                    tr = tot.get("Transit Time(ms)", 0)
                    w = tot.get("Wait Time(ms)", 0)
                    sy = tot.get("Synchronization Time(ms)", 0)
                    rows.append([rs, step_of(step), "Total Op Info@" + g,
                                 str(rank), "N/A"] +
                                [text(tot.get(k)) for k in SUMMED] +
                                [text(ratio(w, w + tr)),
                                 text(ratio(sy, sy + tr))])
    return rows


def dist_text(d):
    return ";".join("%s:%s:%s" % (k, text(v[0]), text(v[1]))
                    for k, v in d.items())


def bw_table(data, coll, p2p):
    struct = op_struct(data, coll, p2p)
    rows = []
    for rs, steps in struct.items():
        for step, ops in steps.items():
            totals = {}
            for op, rinfo in ops.items():
                g = op.split("@")[-1]
                for rank, info in rinfo.items():
                    bw = info.get("Communication Bandwidth Info", {})
                    tot = totals.setdefault(g, {}).setdefault(rank, {})
                    for tr, v in bw.items():
                        rows.append([rs, step_of(step), op, str(rank), tr,
                                     text(v.get("Transit Size(MB)")),
                                     text(v.get("Transit Time(ms)")),
                                     text(v.get("Bandwidth(GB/s)")),
                                     text(v.get("Large Packet Ratio")),
                                     dist_text(v.get("Size Distribution",
                                                     {}))])
                        t = tot.setdefault(tr, {"size": 0, "time": 0,
                                                "dist": {}})
                        t["size"] += v.get("Transit Size(MB)", 0)
                        t["time"] += v.get("Transit Time(ms)", 0)
                        for k, pv in v.get("Size Distribution", {}).items():
                            c = t["dist"].setdefault(k, [0, 0])
                            c[0] += pv[0]
                            c[1] += pv[1]
            for g, rd in totals.items():
                for rank, tot in rd.items():
                    for tr, t in tot.items():
                        rows.append([rs, step_of(step), "Total Op Info@" + g,
                                     str(rank), tr, text(t["size"]),
                                     text(t["time"]),
                                     text(ratio(t["size"], t["time"])),
                                     "N/A", dist_text(t["dist"])])
    return rows


def adds(op):
    return "total" in op or not any(p in op for p in ("top", "middle",
                                                       "bottom"))


def matrix_table(data, coll, p2p):
    struct = op_struct(data, coll, p2p, matrix=True)
    rows, lost = [], 0
    for rs, steps in struct.items():
        for step, ops in steps.items():
            local = {}
            for op, rl in ops.items():
                g = op.split("@")[-1]
                for rank, links in rl.items():
                    for key in links:
                        src, dst = key.split("-", 1)
                        if src == dst:
                            local.setdefault(g, {}).setdefault(src, rank)
            totals = {}
            for op, rl in ops.items():
                g = op.split("@")[-1]
                merged = {}
                for rank, links in rl.items():
                    for key, v in links.items():
                        m = merged.setdefault(key, {"size": 0, "time": 0})
                        m["type"] = v.get("Transport Type")
                        m["op"] = v.get("Op Name", "")
                        m["size"] += v.get("Transit Size(MB)", 0)
                        m["time"] += v.get("Transit Time(ms)", 0)
                out = {}
                for key, m in merged.items():
                    src, dst = key.split("-", 1)
                    gm = local.get(g, {})
                    if src not in gm or dst not in gm:
                        lost += 1
                        continue
                    out[(gm[src], gm[dst])] = m
                for (src, dst), m in out.items():
                    rows.append([rs, step_of(step), op, str(src), str(dst),
                                 text(m["type"]), text(m["size"]),
                                 text(m["time"]),
                                 text(ratio(m["size"], m["time"])),
                                 text(m["op"])])
                    if not adds(op):
                        continue
                    t = totals.setdefault(g, {}).setdefault(
                        (src, dst), {"size": 0, "time": 0})
                    t["type"], t["op"] = m["type"], m["op"]
                    t["size"] += m["size"]
                    t["time"] += m["time"]
            for g, links in totals.items():
                for (src, dst), m in links.items():
                    rows.append([rs, step_of(step), "Total Op Info@" + g,
                                 str(src), str(dst), text(m["type"]),
                                 text(m["size"]), text(m["time"]),
                                 text(ratio(m["size"], m["time"])),
                                 text(m["op"])])
    return rows


def double_hash(s):
    h0 = h1 = 0
    for c in s:
        h0 = (h0 * 29 + ord(c)) & 0xFFFFFFFF
        h1 = (h1 * 131 + ord(c)) & 0xFFFFFFFF
    return (h0 << 32) | h1


def metadata(found):
    """The first rank's distributed_args and every group's name and
    global ranks, by the number torch_npu names the group with."""
    args, info = None, {}
    for rank, out in found.items():
        p = os.path.join(os.path.dirname(out), "profiler_metadata.json")
        if not os.path.exists(p):
            continue
        with open(p) as f:
            m = json.load(f)
        if args is None:
            args = m.get("distributed_args")
        for gid, g in m.get("parallel_group_info", {}).items():
            info.setdefault(str(double_hash(gid)), g)
    return args, info


def stages(coll, p2p, info):
    def ranks_of(grp, s):
        g = info.get(grp)
        return set(g["global_ranks"]) if g and g.get("global_ranks") else s
    links = [ranks_of(g, s) for g, s in p2p.items()
             if info.get(g, {}).get("group_name", "").lower()
             .startswith("pp")]
    if not links:
        return []
    unions = []
    for link in sorted(links, key=min):
        link = set(link)
        for u in [u for u in unions if u & link]:
            link |= u
            unions.remove(u)
        unions.append(link)
    found = []
    for g, s in coll.items():
        s = ranks_of(g, s)
        if any(len(s & u) > 1 for u in unions):
            continue
        s = set(s)
        for st in [st for st in found if st & s]:
            s |= st
            found.remove(st)
        found.append(s)
    return sorted((sorted(st) for st in found), key=lambda x: x[0])


def layout(args, nranks):
    """(DP, PP, TP Index) per rank of the Megatron sizes, or None."""
    if not isinstance(args, dict):
        return None
    keys = ["world_size", "tensor_model_parallel_size",
            "pipeline_model_parallel_size", "data_parallel_size",
            "context_parallel_size", "expert_model_parallel_size"]
    w, tp, pp, dp, cp, ep = (args.get(k, 1) for k in keys)
    tp, pp, dp, ep = tp or 1, pp or 1, dp or 1, ep or 1
    if dp % ep or dp * cp % ep or w != tp * pp * dp or w < nranks:
        return None
    npg = w // pp
    groups = []
    for i in range(pp):
        for k in range(tp * cp):
            groups.append(list(range(npg * i + k, npg * (i + 1), tp * cp)))
    out = [None] * w
    try:
        for i in range(dp):
            mp = [g[i] for g in groups]
            for pi, j in enumerate(range(0, len(mp), tp)):
                for k, r in enumerate(mp[j:j + tp]):
                    out[r] = (i, pi, k)
    except IndexError:
        return None
    return out


def steps_table(found, coll, p2p):
    rows, header, vals_of = [], None, []
    args, info = metadata(found)
    for rank, out in found.items():
        p = os.path.join(out, "step_trace_time.csv")
        if not os.path.exists(p):
            continue
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                keys = [k for k in r if k not in ("Step", "Device_id")]
                if header is None:
                    header = ["Step", "Type", "Index"] + keys
                vals = []
                for k in keys:
                    try:
                        vals.append(float(r[k]))
                    except ValueError:
                        vals.append(0)
                rows.append([r["Step"], "rank", str(rank)] +
                            [repr(v) for v in vals])
                vals_of.append((r["Step"], rank, vals))
    st = stages(coll, p2p, info)
    ptd = layout(args, len({v[1] for v in vals_of}))
    if header and ptd is not None:
        header += ["DP Index", "PP Index", "TP Index"]
        for row in rows:
            m = ptd[int(row[2])] if int(row[2]) < len(ptd) else None
            row += [str(x) for x in m] if m else ["NA"] * 3
    groups = {}
    for step, rank, vals in vals_of:
        stage = next((tuple(x) for x in st if rank in x), ())
        if st:
            groups.setdefault((step, stage), []).append(vals)
    for (step, stage), vs in groups.items():
        row = [step, "stage", str(stage)] + [repr(max(c)) for c in zip(*vs)]
        rows.append(row + (["NA"] * 3 if ptd is not None else []))
    return header, rows


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)


def main():
    top, out = sys.argv[1], sys.argv[2]
    found = ranks(top)
    data = {r: (load(os.path.join(p, "communication.json")),
                load(os.path.join(p, "communication_matrix.json")))
            for r, p in found.items()}
    coll, p2p = groups(data)
    write(os.path.join(out, "cluster_communication.csv"),
          ["Rank Set", "Step", "Op Name", "Rank"] + TIME,
          comm_table(data, coll, p2p))
    write(os.path.join(out, "cluster_communication_matrix.csv"),
          ["Rank Set", "Step", "Op Name", "Src Rank", "Dst Rank",
           "Transport Type", "Transit Size(MB)", "Transit Time(ms)",
           "Bandwidth(GB/s)", "Link Op Name"],
          matrix_table(data, coll, p2p))
    write(os.path.join(out, "cluster_communication_bandwidth.csv"),
          ["Rank Set", "Step", "Op Name", "Rank", "Transport Type",
           "Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)",
           "Large Packet Ratio", "Size Distribution"],
          bw_table(data, coll, p2p))
    header, rows = steps_table(found, coll, p2p)
    if header:
        write(os.path.join(out, "cluster_step_trace_time.csv"), header,
              rows)


main()
