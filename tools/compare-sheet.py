#!/usr/bin/env python3
"""Write a sheet of msprof-analyze compare's xlsx as the CSV that
`npuprof-tui show --compare --format csv` prints for the same table: the
three title rows dropped, the base and comparison columns named with
"Base " and "Comparison " in front, numbers as Python prints them (a
float column's whole numbers, which the xlsx keeps as integers, too), inf
as INF, and the quotes torch_npu wraps input shapes in left out (the store
keeps shapes without them). A development and test aid; needs openpyxl.

With --close OURS.csv, compare OURS with the sheet instead and print the
cells that differ, numbers allowed to differ by half a nanosecond per
call (the store keeps times to the nanosecond, HCCL traces give them to
1/32 ns), for OverallMetrics by 2.5e-6 (we print its times and ratios
rounded to 6 decimals, and the store keeps times to the nanosecond), for
OperatorCompareStatistic and MemoryCompareStatistic by 10 ns and a unit
of a ratio's fourth decimal (their sums add many times, each kept to the
nanosecond); exit 1 if any does.
Its Index column's TABs become two spaces each.

usage: compare-sheet.py RESULT.xlsx SHEET >OUT.csv
       compare-sheet.py --close OURS.csv RESULT.xlsx SHEET
"""
import csv
import io
import sys

import openpyxl

# Our name of each of the sheet's columns, in its order.
NAMES = {
    "KernelCompare": [
        "Order Id", "Kernel", "Input Shape", "Base Total Duration(us)",
        "Base Avg Duration(us)", "Base Max Duration(us)",
        "Base Min Duration(us)", "Base Calls",
        "Comparison Total Duration(us)", "Comparison Avg Duration(us)",
        "Comparison Max Duration(us)", "Comparison Min Duration(us)",
        "Comparison Calls", "Diff Total Ratio", "Diff Avg Ratio"],
    "ApiCompare": [
        "Order Id", "api name", "Base Total Duration(ms)",
        "Base Self Time(ms)", "Base Avg Duration(ms)", "Base Calls",
        "Comparison Total Duration(ms)", "Comparison Self Time(ms)",
        "Comparison Avg Duration(ms)", "Comparison Calls",
        "Diff Total Ratio", "Diff Self Ratio", "Diff Avg Ratio",
        "Diff Calls Ratio"],
    "CommunicationCompare": [
        "Order Id", "Base Communication OP Name", "Base Task Name",
        "Base Calls", "Base Total Duration(us)", "Base Avg Duration(us)",
        "Base Max Duration(us)", "Base Min Duration(us)",
        "Comparison Communication OP Name", "Comparison Task Name",
        "Comparison Calls", "Comparison Total Duration(us)",
        "Comparison Avg Duration(us)", "Comparison Max Duration(us)",
        "Comparison Min Duration(us)", "Diff Duration(us)", "Diff Ratio"],
    "OperatorCompareStatistic": [
        "Top", "Operator Name", "Base Device Duration(ms)",
        "Base Operator Number", "Comparison Device Duration(ms)",
        "Comparison Operator Number", "Diff Duration(ms)", "Diff Ratio"],
    "MemoryCompareStatistic": [
        "Top", "Operator Name", "Base Allocated Duration(ms)",
        "Base Allocated Memory(MB)", "Base Operator Number",
        "Comparison Allocated Duration(ms)",
        "Comparison Allocated Memory(MB)", "Comparison Operator Number",
        "Diff Memory(MB)", "Diff Ratio"],
    "OverallMetrics": [
        "Index", "Base Duration(ms)", "Base Duration Ratio", "Base Number",
        "Comparison Duration(ms)", "Comparison Duration Ratio",
        "Comparison Number", "Diff Duration(ms)", "Diff Ratio"],
}

# Columns of counts; the others hold floats, which the xlsx gives back as
# integers when whole.
COUNTS = {"Order Id", "Top", "Base Calls", "Comparison Calls",
          "Base Number", "Comparison Number", "Base Operator Number",
          "Comparison Operator Number"}


def cell(v, col, row, names):
    if v is None:
        return ""
    # The tool's total of a side without ops is the integer 0.
    if col.endswith("Total Duration(us)") and v == 0 and \
            "Communication OP Name" in " ".join(names):
        side = col.split(" ")[0]
        if row[names.index(side + " Calls")] is None:
            return "0"
    if isinstance(v, int) and col not in COUNTS:
        v = float(v)
    if isinstance(v, float):
        if v == float("inf"):
            return "INF"
        return repr(v)
    if isinstance(v, str) and col == "Input Shape" and len(v) > 1 \
            and v[0] == '"' and v[-1] == '"':
        return v[1:-1]
    if isinstance(v, str) and v.lower() == "inf":
        return "INF"
    # OverallMetrics nests its rows with TABs; we indent two spaces.
    if col == "Index":
        return "  " * (len(v) - len(v.lstrip("\t"))) + v.lstrip("\t")
    return str(v)


def sheet(path, name):
    """The rows of sheet NAME as our CSV's cells, header first."""
    wb = openpyxl.load_workbook(path, read_only=True)
    names = NAMES[name]
    rows = [names]
    if name not in wb.sheetnames:
        return rows
    for i, row in enumerate(wb[name].iter_rows(values_only=True)):
        if i < 3 or all(v is None for v in row):
            continue
        row = row[:len(names)]
        rows.append([cell(v, names[k], row, names)
                     for k, v in enumerate(row)])
    return rows


def close(ours, theirs, tol=None):
    bad = 0
    if len(ours) != len(theirs):
        print("rows: ours %d, the tool's %d" % (len(ours), len(theirs)))
        return 1
    names = theirs[0]
    for r, (a, b) in enumerate(zip(ours, theirs)):
        for k, (x, y) in enumerate(zip(a, b)):
            if x == y:
                continue
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                fx = fy = None
            calls = 1.0
            for c in ("Base Calls", "Comparison Calls"):
                if names[k].startswith(c.split(" ")[0]) and c in names:
                    v = a[names.index(c)]
                    calls = float(v) if v else 1.0
            if tol is not None and fx is not None and \
                    abs(fx - fy) <= tol.get("Ratio" if "Ratio" in names[k]
                                            else "", tol[""]):
                continue
            if tol is None and fx is not None and \
                    abs(fx - fy) <= 0.0005 * calls + 1e-9:
                continue
            print("row %d %s: ours %s, the tool's %s" % (r, names[k], x, y))
            bad += 1
    return 1 if bad else 0


def main():
    if sys.argv[1] == "--close":
        with open(sys.argv[2], newline="") as f:
            ours = list(csv.reader(f))
        # OverallMetrics: times and ratios to 6 decimals, and the
        # store's nanosecond. The operator sheets sum many kernels, each
        # kept to the nanosecond: 10 ns, and a unit of the ratios' fourth
        # decimal where a sum's last nanoseconds move its rounding.
        tol = None
        if sys.argv[4] == "OverallMetrics":
            tol = {"": 2.5e-6}
        elif sys.argv[4] in ("OperatorCompareStatistic",
                             "MemoryCompareStatistic"):
            tol = {"": 1e-5, "Ratio": 1.0001e-4}
        sys.exit(close(ours, sheet(sys.argv[3], sys.argv[4]), tol))
    out = csv.writer(sys.stdout, lineterminator="\n")
    for row in sheet(sys.argv[1], sys.argv[2]):
        out.writerow(row)


main()
