#!/usr/bin/python3
"""scripts/bench/two_level_qp.py: its aggregation (every free unknown in
exactly one aggregate of at most `size` unknowns, connected in the graph of
H, the others in none) on a random sparse graph and on a QP, and on the
normal problem of a QP exported from the demo (step 150, 1000 spheres
falling onto the floor; scripts/bench/qp_variant.py normal-only) the
accelerated projected gradient with and without the coarse correction must
reach a natural residual of 1e-8 and the optimum apgd reaches (`grains qp
solve`, tolerance 1e-9) to a relative 1e-6; the table's command line must
print converged counts for that QP.
usage: two_level_qp_test.py SOURCE_DIR GRAINS"""
import os
import subprocess
import sys
import tempfile
from collections import deque

import numpy as np
import scipy.sparse as sp


def check_aggregation(H, free, size, label, failures):
    from two_level_qp import aggregates
    owner, count = aggregates(H, free, size)
    problems = []
    if (owner[~free] != -1).any():
        problems.append("a fixed unknown has an aggregate")
    if (owner[free] < 0).any():
        problems.append("a free unknown has no aggregate")
    sizes = np.bincount(owner[free], minlength=count) if count else np.zeros(0, int)
    if count and (sizes.min() < 1 or sizes.max() > size):
        problems.append(f"aggregate sizes {sizes.min()}..{sizes.max()}, expected 1..{size}")
    for a in range(count):  # connected: a breadth-first search within it reaches all
        members = np.flatnonzero(owner == a)
        seen, queue = {members[0]}, deque([members[0]])
        while queue:
            row = queue.popleft()
            for j in H.indices[H.indptr[row]:H.indptr[row + 1]]:
                if owner[j] == a and j not in seen:
                    seen.add(j)
                    queue.append(j)
        if len(seen) != members.size:
            problems.append(f"aggregate {a} is not connected")
            break
    print(f"{label}: {count} aggregates of {free.sum()} free unknowns, "
          f"{'ok' if not problems else '; '.join(problems)}")
    failures += [f"{label}: {p}" for p in problems]


def main(source, grains):
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from qp_study_support import (apgd_optimum, check_optimum, check_table_row, export_demo_qp,
                                  finish)
    from two_level_qp import accelerated, read_normal_qp  # noqa: E402

    failures = []
    rng = np.random.default_rng(3)
    graph = sp.random(300, 300, density=0.02, random_state=4, format="csr")
    graph = (graph + graph.T + sp.eye(300)).tocsr()
    check_aggregation(graph, rng.random(300) < 0.7, 8, "random graph", failures)

    with tempfile.TemporaryDirectory() as work:
        qp = os.path.join(work, "normal")
        subprocess.run(["/usr/bin/python3",
                        os.path.join(source, "scripts", "bench", "qp_variant.py"),
                        export_demo_qp(source, grains, work), qp, "normal-only"], check=True)
        A, _ = read_normal_qp(qp)
        check_aggregation(A, np.arange(A.shape[0]) % 3 != 0, 27,
                          "demo QP, every third unknown fixed", failures)
        optimum = apgd_optimum(source, grains, qp)
        for every, smooth in ((0, False), (5, False), (5, True)):
            applies, iterations, objective = accelerated(qp, 1e-8, 20000, every, 8, smooth)
            check_optimum(f"every {every}{', smoothed' if smooth else ''}", applies, objective,
                          optimum, failures, f" in {iterations} iterations")
        check_table_row(source, grains, "two_level_qp.py",
                        ["--tolerances", "1e-6", "--every", "5", "--sizes", "8", f"demo={qp}"],
                        "| demo | 1e-06 |", "(cap", failures)
    finish("two_level_qp_test", failures)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
