#!/usr/bin/python3
"""Whether two runs' metrics.csv agree in every column but the wall-clock
ones (wall_s and time_*_s), row for row: exit 0 if so, 1 (with the first
difference) if not. Used by the script tests.

Usage: same_metrics.py A/metrics.csv B/metrics.csv [--rows N] [--after-step S]
--rows N: also require N rows; --after-step S: compare only rows with step > S.
"""
import argparse
import csv
import sys


def load(path, after_step):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return [], []
    keep = [k for k in rows[0] if k != "wall_s" and not (k.startswith("time_") and k.endswith("_s"))]
    return keep, [[r[k] for k in keep] for r in rows if int(r["step"]) > after_step]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rows", type=int)
    parser.add_argument("--after-step", type=int, default=-1)
    args = parser.parse_args()
    columns, a = load(args.a, args.after_step)
    _, b = load(args.b, args.after_step)
    if args.rows is not None and (len(a) != args.rows or len(b) != args.rows):
        print(f"metrics: {len(a)} and {len(b)} rows, expected {args.rows}")
        return 1
    if a != b:
        print(f"metrics differ: {len(a)} and {len(b)} rows")
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                diff = [f"{c}: {u} vs {v}" for c, u, v in zip(columns, x, y) if u != v]
                print(f"  first difference in row {i}: {'; '.join(diff[:4])}")
                break
        return 1
    print(f"metrics identical but for wall times ({len(a)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
