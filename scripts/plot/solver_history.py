#!/usr/bin/python3
"""Solver convergence histories written by `grains qp solve DIR --solver NAME
--history FILE.csv`: residual and objective against iterations and seconds,
several solvers overlaid (docs/solvers.md, the solver laboratory).

Usage: solver_history.py [--out FILE] HISTORY.csv [HISTORY2.csv ...]
Each history is labelled by its file name (e.g. apgd.csv -> apgd). The
objective is shown as the gap to the lowest objective any history reached.
Needs python3-matplotlib.
"""
import argparse

from plot_common import positive_only, read_columns, run_label
import matplotlib.pyplot as plt  # after plot_common chose the file backend


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("histories", nargs="+", help="history CSV files of grains qp solve")
    parser.add_argument("--out", default="solver_history.png", help="file to write")
    args = parser.parse_args()
    runs = [(run_label(p), read_columns(p)) for p in args.histories]
    for label, h in runs:
        for column in ("iteration", "seconds", "objective", "residual"):
            if column not in h:
                raise SystemExit(f"{label}: no column '{column}' (not a grains qp solve history?)")
    best = min(min(h["objective"]) for _, h in runs)
    scale = max(1.0, abs(best))

    fig, axes = plt.subplots(2, 2, figsize=(11, 7))
    for index, (label, h) in enumerate(runs):
        colour = f"C{index % 10}"
        gap = positive_only([(o - best) / scale for o in h["objective"]])
        for row, (values, name) in enumerate(((positive_only(h["residual"]), "residual"),
                                              (gap, "relative objective gap"))):
            for col, x in enumerate(("iteration", "seconds")):
                ax = axes[row][col]
                ax.plot(h[x], values, color=colour, label=label)
                ax.set_yscale("log")
                ax.set_xlabel("iterations" if x == "iteration" else "seconds")
                ax.set_title(name)
                ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
