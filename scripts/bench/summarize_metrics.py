#!/usr/bin/python3
"""Summarise benchmark runs: one line per (N, solver) with the median and
minimum over repeats of the mean wall time per step, and the mean solver
iterations per step, from each run's metrics.csv. Directory names are
n<N>_<solver>_r<repeat>."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runs import load_runs, mean  # noqa: E402

runs_by_case = load_runs(sys.argv[1], r"n(\d+)_(\w+?)_r(\d+)",
                         lambda m: (int(m.group(1)), m.group(2)))
cases = {
    key: [(mean(rows, "wall_s"), mean(rows, "iterations"),
           sum(1 for r in rows if r["converged"] == "0"), len(rows), int(rows[-1]["contacts"]))
          for rows in runs]
    for key, runs in runs_by_case.items()
}

print(f"{'N':>6} {'solver':>8} {'ms/step med':>12} {'ms/step min':>12} {'it/step':>8} "
      f"{'unconv':>7} {'steps':>6} {'contacts':>9} {'runs':>5}")
for (n, solver), runs in sorted(cases.items()):
    per_step = [r[0] * 1e3 for r in runs]
    print(f"{n:>6} {solver:>8} {statistics.median(per_step):>12.2f} {min(per_step):>12.2f} "
          f"{statistics.median(r[1] for r in runs):>8.1f} {runs[0][2]:>7} {runs[0][3]:>6} "
          f"{runs[0][4]:>9} {len(runs):>5}")
