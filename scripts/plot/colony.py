#!/usr/bin/python3
"""Colony size and constraint count against time (Palmer et al. (2025), Fig. 5c).

Usage: colony.py [--out FILE] RUN/metrics.csv [RUN2/metrics.csv ...]
Each metrics.csv (written by grains into its output directory) becomes one
line per panel, labelled by the name of its directory, e.g. a ReLCP run and a
multisphere run of config/colony.yaml. Needs python3-matplotlib.
"""
import argparse

from plot_common import positive_only, read_columns, run_label
import matplotlib.pyplot as plt  # after plot_common chose the file backend


def read_run(path):
    """(time, bodies, contacts) columns of one metrics.csv."""
    m = read_columns(path)
    # A log axis cannot show 0 contacts (the lone first cell): leave a gap.
    return m["time"], m["bodies"], positive_only(m["contacts"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="metrics.csv files, one per run")
    parser.add_argument("--out", default="colony.png", help="PNG to write (colony.png)")
    args = parser.parse_args()

    fig, (size_ax, contact_ax) = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    positive = {size_ax: False, contact_ax: False}
    for path in args.metrics:
        time, bodies, contacts = read_run(path)
        for ax, values in ((size_ax, bodies), (contact_ax, contacts)):
            ax.plot(time, values, label=run_label(path))
            positive[ax] = positive[ax] or any(v > 0 for v in values)
    for ax, title in ((size_ax, "colony size (bodies)"), (contact_ax, "constraints (contacts)")):
        # Log scale needs a positive value (a run without contacts has none).
        ax.set_yscale("log" if positive[ax] else "linear")
        ax.set_xlabel("time [s]")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
