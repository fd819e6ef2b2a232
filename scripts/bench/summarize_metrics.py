#!/usr/bin/python3
"""Summarise benchmark runs: one line per (N, solver) with the median and
minimum over repeats of the mean wall time per step, and the mean solver
iterations per step, from each run's metrics.csv. Directory names are
n<N>_<solver>_r<repeat>."""
import csv
import os
import re
import statistics
import sys

root = sys.argv[1]
cases = {}
for name in sorted(os.listdir(root)):
    m = re.fullmatch(r"n(\d+)_(\w+?)_r(\d+)", name)
    path = os.path.join(root, name, "metrics.csv")
    if not m or not os.path.exists(path):
        continue
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        continue
    wall = [float(r["wall_s"]) for r in rows]
    iters = [int(r["iterations"]) for r in rows]
    unconverged = sum(1 for r in rows if r["converged"] == "0")
    key = (int(m.group(1)), m.group(2))
    cases.setdefault(key, []).append(
        (sum(wall) / len(wall), sum(iters) / len(iters), unconverged, len(rows),
         int(rows[-1]["contacts"])))

print(f"{'N':>6} {'solver':>8} {'ms/step med':>12} {'ms/step min':>12} {'it/step':>8} "
      f"{'unconv':>7} {'steps':>6} {'contacts':>9} {'runs':>5}")
for (n, solver), runs in sorted(cases.items()):
    per_step = [r[0] * 1e3 for r in runs]
    print(f"{n:>6} {solver:>8} {statistics.median(per_step):>12.2f} {min(per_step):>12.2f} "
          f"{statistics.median(r[1] for r in runs):>8.1f} {runs[0][2]:>7} {runs[0][3]:>6} "
          f"{runs[0][4]:>9} {len(runs):>5}")
