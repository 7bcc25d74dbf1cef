#!/usr/bin/env python3
"""Write a sheet of msprof-analyze compare's xlsx as the CSV that
`npuprof-tui show --compare --format csv` prints for the same table: the
three title rows dropped, the base and comparison columns named with
"Base " and "Comparison " in front, numbers as Python prints them (a
float column's whole numbers, which the xlsx keeps as integers, too), inf as
INF, and the quotes torch_npu wraps input shapes in left out (the store
keeps shapes without them). A development and test aid; needs openpyxl.

usage: compare-sheet.py RESULT.xlsx SHEET >OUT.csv
"""
import csv
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
}


# Columns of counts; the others hold floats, which the xlsx gives back as
# integers when whole.
COUNTS = {"Order Id", "Base Calls", "Comparison Calls"}


def cell(v, col):
    if v is None:
        return ""
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
    return str(v)


def main():
    wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
    names = NAMES[sys.argv[2]]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(names)
    if sys.argv[2] not in wb.sheetnames:
        return
    for i, row in enumerate(wb[sys.argv[2]].iter_rows(values_only=True)):
        if i < 3 or all(v is None for v in row):
            continue
        out.writerow([cell(v, names[k]) for k, v in
                      enumerate(row[:len(names)])])


main()
