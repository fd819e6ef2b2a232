#!/usr/bin/python3
"""Table of the chainmail runs' overlaps from their metrics.csv files."""
import csv
import sys


def summary(path):
    rows = list(csv.DictReader(open(path)))
    col = lambda k: [float(r[k]) for r in rows]
    true = col("max_true_overlap")
    constraint = col("max_constraint_overlap")
    late = true[len(true) // 2:]
    return {
        "steps": len(rows),
        "true_max": max(true),
        "true_late_mean": sum(late) / len(late),
        "constraint_max": max(constraint),
        "rec_max": int(max(col("recursions"))),
        "rec_mean": sum(col("recursions")) / len(rows),
        "contacts": int(col("contacts")[-1]),
        "wall": sum(col("wall_s")),
    }


out_dir = sys.argv[1]
print("| method | steps | max true overlap [m] | mean true overlap, 2nd half [m] | "
      "max constraint-level overlap [m] | recursions/step (mean, max) | constraints (last) "
      "| wall [s] |")
print("|---|---|---|---|---|---|---|---|")
for name in sys.argv[2:]:
    s = summary(f"{out_dir}/{name}/metrics.csv")
    print(f"| {name} | {s['steps']} | {s['true_max']:.3e} | {s['true_late_mean']:.3e} | "
          f"{s['constraint_max']:.3e} | {s['rec_mean']:.2f}, {s['rec_max']} | {s['contacts']} | "
          f"{s['wall']:.1f} |")
