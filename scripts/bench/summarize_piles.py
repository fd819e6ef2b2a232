#!/usr/bin/python3
"""Summarise scripts/bench/pile_sizes.sh: per pile size, the median and
minimum over repeats of the mean wall time per step, the time per step per
body, solver iterations per step, and the mean share of each phase
(metrics.csv columns time_*_s, rank 0). Directory names are
n<N>_p<ranks>_t<threads>_r<repeat>."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runs import load_runs, mean  # noqa: E402

PHASES = ["domain", "detect", "assemble", "solve", "update"]

runs_by_case = load_runs(sys.argv[1], r"n(\d+)_p(\d+)_t(\d+)_r(\d+)",
                         lambda m: (int(m.group(1)), int(m.group(2)), int(m.group(3))))
print(f"{'N':>7} {'ranks':>5} {'thr':>3} {'ms/step med':>11} {'min':>9} {'us/step/body':>12} "
      f"{'it/step':>7} {'contacts':>8} " + " ".join(f"{p:>8}" for p in PHASES) + f" {'runs':>4}")
for (n, ranks, threads), runs in sorted(runs_by_case.items()):
    per_step = [mean(rows, "wall_s", 1e3) for rows in runs]
    med = statistics.median(per_step)
    per_body = med * 1e3 / n
    rows = runs[0]
    total = sum(mean(rows, f"time_{p}_s") for p in PHASES) or 1.0
    shares = " ".join(f"{100 * mean(rows, f'time_{p}_s') / total:>7.1f}%" for p in PHASES)
    print(f"{n:>7} {ranks:>5} {threads:>3} {med:>11.1f} {min(per_step):>9.1f} {per_body:>12.2f} "
          f"{statistics.median(mean(r, 'iterations') for r in runs):>7.1f} "
          f"{int(rows[-1]['contacts']):>8} {shares} {len(runs):>4}")
by_size = {}
for (n, ranks, threads), runs in runs_by_case.items():
    by_size.setdefault((ranks, threads), []).append(
        (n, statistics.median(mean(rows, "wall_s") for rows in runs) / n,
         statistics.median(mean(rows, "wall_s") / max(mean(rows, "iterations"), 1.0)
                           for rows in runs) / n))
for (ranks, threads), sizes in sorted(by_size.items()):
    sizes.sort()
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        print(f"ranks {ranks}, threads {threads}: time per step per body at N = {large[0]} "
              f"over N = {small[0]}: {large[1] / small[1]:.2f}; per solver iteration: "
              f"{large[2] / small[2]:.2f}")
medians = {case: statistics.median(mean(rows, "wall_s") for rows in runs)
           for case, runs in runs_by_case.items()}
for (n, ranks, threads), med in sorted(medians.items()):
    serial = medians.get((n, 1, 1))
    if serial and (ranks, threads) != (1, 1):
        print(f"N = {n}: {ranks} rank(s) x {threads} thread(s) over 1 x 1: "
              f"{serial / med:.2f}x faster per step")
