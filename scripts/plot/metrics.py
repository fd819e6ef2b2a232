#!/usr/bin/python3
"""A run's metrics.csv against time: kinetic energy, contacts, solver
iterations and residual, overlap (one panel each; several runs overlaid).

Usage: metrics.py [--out FILE] [--columns a,b,...] RUN/metrics.csv [RUN2/metrics.csv ...]
FILE's extension chooses the format (.png, .pdf, .svg). Each run is labelled
by its directory. Needs python3-matplotlib (scripts/install-deps.sh).
"""
import argparse
import math

from plot_common import positive_only, read_columns, run_label
import matplotlib.pyplot as plt  # after plot_common chose the file backend

# column: (title, log scale?)
PANELS = {
    "kinetic_energy": ("kinetic energy [J]", True),
    "contacts": ("contacts (dashed: active)", False),
    "iterations": ("solver iterations per step", False),
    "residual": ("solver residual", True),
    "max_overlap": ("max overlap [m]", True),
    "wall_s": ("wall time per step [s]", False),
}
DEFAULT = "kinetic_energy,contacts,iterations,residual"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="metrics.csv files, one per run")
    parser.add_argument("--out", default="metrics.png", help="file to write (metrics.png)")
    parser.add_argument("--columns", default=DEFAULT,
                        help=f"comma list of panels (default {DEFAULT}; also any metrics column)")
    args = parser.parse_args()
    columns = [c for c in args.columns.split(",") if c]
    runs = [(run_label(p), read_columns(p)) for p in args.metrics]
    for label, m in runs:
        missing = [c for c in columns + ["time"] if c not in m]
        if missing:
            raise SystemExit(f"{label}: no column(s) {', '.join(missing)} in its metrics.csv")

    cols = 2 if len(columns) > 1 else 1
    rows = math.ceil(len(columns) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 3.4 * rows), sharex=True,
                             squeeze=False)
    for ax, column in zip(axes.flat, columns):
        title, log = PANELS.get(column, (column, False))
        for index, (label, m) in enumerate(runs):
            colour = f"C{index % 10}"
            values = positive_only(m[column]) if log else m[column]
            ax.plot(m["time"], values, color=colour, label=label)
            if column == "contacts" and "active_contacts" in m:
                ax.plot(m["time"], m["active_contacts"], color=colour, linestyle="--")
            if column == "residual" and "converged" in m:
                # Steps that stopped above the tolerance stand out.
                bad = [(t, r) for t, r, c in zip(m["time"], m[column], m["converged"]) if c == 0]
                if bad:
                    ax.plot(*zip(*bad), "x", color=colour, label=f"{label}: not converged")
        if log and any(v > 0 for _, m in runs for v in m[column]):
            ax.set_yscale("log")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    for ax in axes.flat[len(columns):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("time [s]")
    axes.flat[0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
