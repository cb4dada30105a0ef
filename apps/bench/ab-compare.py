#!/usr/bin/env python3
"""The table of ab-call.sh: per case (the bench's case id), each build's mean over its rounds of the
median time, and its change against the first build; then the geometric mean of each build's ratio
and its worst case. Cases that failed or are missing in a build are left out of its ratios.

Usage: python3 ab-compare.py OUT_DIR BUILD... (reads OUT_DIR/<build>-<round>.json)
"""
import glob
import json
import math
import os
import statistics
import sys


def means(out, build):
    times = {}
    for path in sorted(glob.glob(os.path.join(out, f"{build}-*.json"))):
        for result in json.load(open(path))["results"]:
            if result.get("status") == "ok":
                times.setdefault(result["case"]["id"], []).append(result["measurement"]["medianMs"])
    return {case: statistics.mean(ms) for case, ms in times.items()}


def main():
    out, builds = sys.argv[1], sys.argv[2:]
    runs = [means(out, b) for b in builds]
    base = runs[0]
    print("| case | n | " + " | ".join(f"{b} ms" for b in builds) + " |")
    print("| --- | --- |" + " --- |" * len(builds))
    ratios = [[] for _ in builds]
    for case, first in base.items():
        series, _, n = case.partition("@")
        cells = [f"{first:.4g}"]
        for i, run in enumerate(runs[1:], start=1):
            if case in run:
                ratio = run[case] / first
                ratios[i].append((ratio, case))
                cells.append(f"{run[case]:.4g} ({(ratio - 1) * 100:+.1f}%)")
            else:
                cells.append("—")
        size = f"2^{int(math.log2(int(n)))}" if n.isdigit() and int(n) > 0 else n
        print(f"| {series} | {size} | " + " | ".join(cells) + " |")
    for b, rs in zip(builds[1:], ratios[1:]):
        if rs:
            worst = max(rs)
            print(f"\n{b} / {builds[0]}: {len(rs)} cases, geometric mean {statistics.geometric_mean([r for r, _ in rs]):.4f}, "
                  f"worst {worst[1]} {(worst[0] - 1) * 100:+.1f}%")


if __name__ == "__main__":
    main()
