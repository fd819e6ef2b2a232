#!/usr/bin/python3
"""Summary of scripts/bench/scaling.sh: per case (strong/weak, ranks) the
median and minimum over repeats of the mean wall time per step, the solver
iterations per step, and the bytes sent per step by the busiest rank."""
import csv
import os
import re
import statistics
import sys

root = sys.argv[1]
cases = {}
for name in sorted(os.listdir(root)):
    m = re.fullmatch(r"(strong|weak)_p(\d+)_r(\d+)", name)
    path = os.path.join(root, name, "metrics.csv")
    if not m or not os.path.exists(path):
        continue
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        continue
    n = len(rows)
    cases.setdefault((m.group(1), int(m.group(2))), []).append({
        "ms": 1e3 * sum(float(r["wall_s"]) for r in rows) / n,
        "it": sum(int(r["iterations"]) for r in rows) / n,
        "bytes_max": sum(float(r["bytes_sent_max"]) for r in rows) / n,
        "bytes_mean": sum(float(r["bytes_sent_mean"]) for r in rows) / n,
        "bodies": int(rows[-1]["bodies"]),
        "contacts": int(rows[-1]["contacts"]),
        "imbalance": float(rows[-1]["load_imbalance"]),
    })

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
