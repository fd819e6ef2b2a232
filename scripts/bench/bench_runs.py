"""Shared by the benchmark summaries: the metrics.csv rows of every run
directory under `root` whose name matches `pattern`, grouped by the key that
`key_of(match)` makes of the name. With `extra`, each run is the pair
(rows, extra(name)) instead, for what a script stores next to the run."""
import csv
import os
import re


def load_runs(root, pattern, key_of, extra=None):
    cases = {}
    for name in sorted(os.listdir(root)):
        m = re.fullmatch(pattern, name)
        path = os.path.join(root, name, "metrics.csv")
        if not m or not os.path.exists(path):
            continue
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if rows:
            cases.setdefault(key_of(m), []).append(rows if extra is None else (rows, extra(name)))
    return cases


def mean(rows, column, scale=1.0):
    return scale * sum(float(r[column]) for r in rows) / len(rows)
