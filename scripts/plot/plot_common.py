"""Shared reading and labelling for the plot scripts (python3-matplotlib)."""
import csv
import math
import os

import matplotlib

matplotlib.use("Agg")  # files only: works on clusters and under CI without a display


def read_columns(path):
    """A CSV file as {column: [float, ...]}; empty cells and text become NaN."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"{path}: no rows")
    columns = {}
    for name in rows[0]:
        values = []
        for row in rows:
            try:
                values.append(float(row[name]))
            except (TypeError, ValueError):
                values.append(math.nan)
        columns[name] = values
    return columns


def run_label(path):
    """A run's metrics.csv is labelled by its directory, other files by their name."""
    directory = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if os.path.basename(path) == "metrics.csv" and directory:
        return directory
    return os.path.splitext(os.path.basename(path))[0]


def positive_only(values):
    """Non-positive values become NaN (gaps) so a log axis can show the rest."""
    return [v if v > 0 else math.nan for v in values]
