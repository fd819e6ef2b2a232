#!/usr/bin/python3
"""Palmer et al. (2025), Table 3 from colony runs: per step, the constraint count of each
method over ReLCP's (same step, same cell count: division times do not depend
on the method) and the compute time per constraint (wall time of the step
over its constraints), as mean +- standard deviation over the run."""
import csv
import statistics
import sys


def load(path):
    return {int(r["step"]): r for r in csv.DictReader(open(path))}


def mean_std(values):
    if not values:
        return float("nan"), float("nan")
    return statistics.fmean(values), (statistics.pstdev(values) if len(values) > 1 else 0.0)


out_dir, methods = sys.argv[1], sys.argv[2:]
runs = {m: load(f"{out_dir}/{m}/metrics.csv") for m in methods}
base = next((runs[m] for m in methods if m.split(":")[0] == "relcp"), None)
print("| method | steps | final cells | constraints ratio vs ReLCP | time per constraint [us] "
      "| mean wall per step [s] | last step wall [s] | max true overlap [m] |")
print("|---|---|---|---|---|---|---|---|")
for m in methods:
    rows = runs[m]
    ratios = []
    per_constraint = []
    for step, r in rows.items():
        contacts = float(r["contacts"])
        if contacts > 0:
            per_constraint.append(1e6 * float(r["wall_s"]) / contacts)
        if base is not None and step in base and float(base[step]["contacts"]) > 0:
            ratios.append(contacts / float(base[step]["contacts"]))
    ratio_mean, ratio_std = mean_std(ratios)
    pc_mean, pc_std = mean_std(per_constraint)
    last = rows[max(rows)]
    walls = [float(r["wall_s"]) for r in rows.values()]
    overlap = max(float(r["max_true_overlap"]) for r in rows.values())
    print(f"| {m} | {len(rows)} | {int(float(last['bodies']))} | {ratio_mean:.2f} +- {ratio_std:.2f} "
          f"| {pc_mean:.1f} +- {pc_std:.1f} | {statistics.fmean(walls):.4f} | "
          f"{float(last['wall_s']):.4f} | {overlap:.2e} |")
