#!/usr/bin/env python3
"""Compares the physics columns of two metrics.csv files bit for bit (as
written: 17 significant digits round-trip a double). Left out: wall-clock
columns (wall_s, time_*_s) and the partition statistics, which describe how
the work was split (bodies_*/contacts_min/max/mean, load_imbalance,
repartitions, bytes_sent_*).
Usage: compare_metrics.py REFERENCE OTHER [FIRST_STEP]
Rows of OTHER are matched to REFERENCE by step; FIRST_STEP (default 1) skips
earlier steps (a restarted run starts later). Exit 0 when identical, 1 with
the first differing step and columns otherwise."""
import csv
import sys

PARTITION = {'bodies_min', 'bodies_max', 'bodies_mean', 'contacts_min', 'contacts_max',
             'contacts_mean', 'load_imbalance', 'repartitions', 'bytes_sent_max',
             'bytes_sent_mean'}


def physics(column):
    return not (column == 'wall_s' or column.endswith('_s') or column in PARTITION)


def main():
    reference = {int(r['step']): r for r in csv.DictReader(open(sys.argv[1]))}
    other = list(csv.DictReader(open(sys.argv[2])))
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rows = [r for r in other if int(r['step']) >= first]
    if not rows:
        print(f'{sys.argv[2]}: no rows from step {first}')
        return 1
    for row in rows:
        ref = reference.get(int(row['step']))
        if ref is None:
            print(f'{sys.argv[2]}: step {row["step"]} is not in {sys.argv[1]}')
            return 1
        differ = [c for c in ref if physics(c) and ref[c] != row.get(c)]
        if differ:
            print(f'{sys.argv[2]}: step {row["step"]} differs in ' +
                  ', '.join(f'{c} ({ref[c]} against {row.get(c)})' for c in differ[:4]))
            return 1
    print(f'{sys.argv[2]}: steps {rows[0]["step"]}-{rows[-1]["step"]} identical')
    return 0


if __name__ == '__main__':
    sys.exit(main())
