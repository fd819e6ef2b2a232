#!/usr/bin/python3
"""Derive a variant of a contact QP written by `grains run --export-qp`.

    qp_variant.py SRC DST zero-friction   same QP with every mu set to 0
    qp_variant.py SRC DST normal-only     the normal rows only, as a
                                          frictionless problem (block size 1)

The variants let the solver laboratory (`grains qp solve DST ...`) separate
what friction costs a solver from what the normal problem costs; see
docs/performance.md. SRC must hold a three-row-per-contact problem (pyramid
problems have five rows per contact and are rejected).
"""
import os
import re
import shutil
import sys

HEADER = "%%MatrixMarket matrix coordinate real general"


def read_coordinate(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    rows, cols, _ = (int(x) for x in lines[0].split())
    entries = []
    for line in lines[1:]:
        i, j, v = line.split()
        entries.append((int(i), int(j), v))
    return rows, cols, entries


def write_coordinate(path, rows, cols, entries):
    with open(path, "w") as f:
        f.write(HEADER + "\n% written by qp_variant.py\n")
        f.write(f"{rows} {cols} {len(entries)}\n")
        for i, j, v in entries:
            f.write(f"{i} {j} {v}\n")


def set_meta(text, key, value):
    pattern = rf"^{key}: .*$"
    if not re.search(pattern, text, flags=re.M):
        sys.exit(f"qp_variant.py: problem.yaml has no '{key}:' line")
    return re.sub(pattern, f"{key}: {value}", text, flags=re.M)


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("zero-friction", "normal-only"):
        sys.exit(__doc__)
    src, dst, variant = sys.argv[1:]
    with open(os.path.join(src, "problem.yaml")) as f:
        meta = f.read()
    block = int(re.search(r"^block_size: (\d+)$", meta, flags=re.M).group(1))
    if block != 3:
        sys.exit(f"qp_variant.py: {src}: block_size is {block}, expected 3")
    if os.path.exists(dst):
        sys.exit(f"qp_variant.py: {dst} exists; give a new directory")

    if variant == "zero-friction":
        shutil.copytree(src, dst)
        rows, cols, mu = read_coordinate(os.path.join(src, "cones.mtx"))
        write_coordinate(os.path.join(dst, "cones.mtx"), rows, cols,
                         [(i, j, "0") for i, j, _ in mu])
        return

    # normal-only: keep rows/columns 1, 4, 7, ... (1-based), renumbered.
    os.makedirs(dst)
    keep = lambda k: (k - 1) % 3 == 0
    renumber = lambda k: (k - 1) // 3 + 1
    rows, _, entries = read_coordinate(os.path.join(src, "A.mtx"))
    n = rows // 3
    write_coordinate(os.path.join(dst, "A.mtx"), n, n,
                     [(renumber(i), renumber(j), v) for i, j, v in entries
                      if keep(i) and keep(j)])
    for name in ("b.mtx", "warm_start.mtx", "solution.mtx"):
        _, _, entries = read_coordinate(os.path.join(src, name))
        write_coordinate(os.path.join(dst, name), n, 1,
                         [(renumber(i), j, v) for i, j, v in entries if keep(i)])
    contacts, _, mu = read_coordinate(os.path.join(src, "cones.mtx"))
    write_coordinate(os.path.join(dst, "cones.mtx"), contacts, 1,
                     [(i, j, "0") for i, j, _ in mu])
    meta = set_meta(meta, "model", "frictionless")
    meta = set_meta(meta, "block_size", "1")
    meta = set_meta(meta, "unknowns", str(n))
    with open(os.path.join(dst, "problem.yaml"), "w") as f:
        f.write(meta)


if __name__ == "__main__":
    main()
