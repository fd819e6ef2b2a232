#!/usr/bin/python3
"""Summarise scripts/bench/build_ab.sh: per case (N, mu) and build, the median
and minimum over repeats of the wall time (sum of step times), the APGD
iterations and the solve time per iteration; then B / A of the solve time
per iteration and of the wall time, from the runs of the same repeat (median,
minimum and maximum over the repeats). Directory names are
<a|b>_n<N>_mu<mu>_r<repeat>."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runs import load_runs  # noqa: E402


def totals(rows):
    iterations = sum(int(r["iterations"]) for r in rows)
    solve = sum(float(r["time_solve_s"]) for r in rows)
    wall = sum(float(r["wall_s"]) for r in rows)
    return {"wall": wall, "iterations": iterations,
            "us_per_iteration": 1e6 * solve / max(iterations, 1)}


def main(root):
    runs = load_runs(root, r"([ab])_n(\d+)_mu([0-9.]+)_r(\d+)",
                     lambda m: (int(m.group(2)), m.group(3), m.group(1), int(m.group(4))))
    by_case = {}
    for (n, mu, side, rep), [rows] in runs.items():
        by_case.setdefault((n, mu), {}).setdefault(side, {})[rep] = totals(rows)
    print("| N | μ | build | wall to TEND med / min [s] | APGD iterations | "
          "solve per iteration med / min [µs] | runs |")
    print("|---:|---:|---|---|---:|---|---:|")
    ratios = []
    for (n, mu), sides in sorted(by_case.items()):
        for side in sorted(sides):
            reps = sides[side].values()
            walls = [r["wall"] for r in reps]
            per_it = [r["us_per_iteration"] for r in reps]
            print(f"| {n} | {mu} | {side.upper()} | {statistics.median(walls):.2f} / {min(walls):.2f} "
                  f"| {statistics.median(r['iterations'] for r in reps):.0f} "
                  f"| {statistics.median(per_it):.1f} / {min(per_it):.1f} | {len(walls)} |")
        paired = sorted(set(sides.get("a", {})) & set(sides.get("b", {})))
        if paired:
            it_ratio = [sides["b"][r]["us_per_iteration"] / sides["a"][r]["us_per_iteration"]
                        for r in paired]
            wall_ratio = [sides["b"][r]["wall"] / sides["a"][r]["wall"] for r in paired]
            ratios.append((n, mu, it_ratio, wall_ratio))
    print()
    print("| N | μ | B / A solve per iteration, med (min–max) | B / A wall, med (min–max) |")
    print("|---:|---:|---|---|")
    for n, mu, it_ratio, wall_ratio in ratios:
        print(f"| {n} | {mu} | {statistics.median(it_ratio):.3f} ({min(it_ratio):.3f}–"
              f"{max(it_ratio):.3f}) | {statistics.median(wall_ratio):.3f} "
              f"({min(wall_ratio):.3f}–{max(wall_ratio):.3f}) |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
