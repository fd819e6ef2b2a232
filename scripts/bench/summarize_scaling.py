#!/usr/bin/python3
"""Summary of scripts/bench/scaling.sh: per case (strong/weak, ranks) the
median and minimum over repeats of the mean wall time per step, the solver
iterations per step, and the bytes sent per step by the busiest rank."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runs import load_runs, mean  # noqa: E402

runs_by_case = load_runs(sys.argv[1], r"(strong|weak)_p(\d+)_r(\d+)",
                         lambda m: (m.group(1), int(m.group(2))))
cases = {
    key: [{
        "ms": mean(rows, "wall_s", 1e3),
        "it": mean(rows, "iterations"),
        "bytes_max": mean(rows, "bytes_sent_max"),
        "bytes_mean": mean(rows, "bytes_sent_mean"),
        "bodies": int(rows[-1]["bodies"]),
        "contacts": int(rows[-1]["contacts"]),
        "imbalance": float(rows[-1]["load_imbalance"]),
    } for rows in runs]
    for key, runs in runs_by_case.items()
}

print(f"{'case':>7} {'ranks':>5} {'bodies':>7} {'ms/step med':>11} {'min':>8} {'it/step':>8} "
      f"{'kB/step/rank max':>16} {'mean':>8} {'imbal':>6} {'runs':>4}")
med = {}
for (kind, p), runs in sorted(cases.items()):
    ms = [r["ms"] for r in runs]
    med[(kind, p)] = (statistics.median(ms), min(ms))
    print(f"{kind:>7} {p:>5} {runs[0]['bodies']:>7} {statistics.median(ms):>11.1f} {min(ms):>8.1f} "
          f"{statistics.median(r['it'] for r in runs):>8.1f} "
          f"{statistics.median(r['bytes_max'] for r in runs) / 1e3:>16.1f} "
          f"{statistics.median(r['bytes_mean'] for r in runs) / 1e3:>8.1f} "
          f"{runs[0]['imbalance']:>6.3f} {len(runs):>4}")
for kind in ("strong", "weak"):
    if (kind, 1) in med and (kind, 2) in med:
        a, b = med[(kind, 1)], med[(kind, 2)]
        label = "speedup" if kind == "strong" else "efficiency"
        print(f"{kind}: {label} (1 rank / 2 ranks time per step): median {a[0] / b[0]:.2f}, "
              f"minimum {a[1] / b[1]:.2f}")
