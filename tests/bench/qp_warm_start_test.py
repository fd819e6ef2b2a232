#!/usr/bin/python3
"""scripts/bench/qp_warm_start.py on the demo's exported QP (1000 spheres
landing, Coulomb friction, the run's warm start). Its method needs grains'
apgd iterations from zero and from the stored warm start (`grains qp solve
--warm-start stored`); the starts it builds take the reference on exactly
the contacts they name and the warm start elsewhere; and the exact start
stops at the first check.
usage: qp_warm_start_test.py SOURCE_DIR GRAINS"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from qp_study_support import ENVIRONMENT, export_demo_qp, finish

TOLERANCE = 1e-6


def grains_iterations(grains, qp, warm_start):
    summary = subprocess.run([grains, "qp", "solve", qp, "--solver", "apgd", "--tolerance",
                              str(TOLERANCE), "--max-iterations", "20000", "--warm-start",
                              warm_start], check=True, capture_output=True, text=True,
                             env=ENVIRONMENT).stdout
    found = re.search(r"converged, (\d+) iterations", summary)
    if not found:
        sys.exit(f"grains qp solve did not converge from {warm_start}:\n{summary}")
    return int(found.group(1))


def main():
    source, grains = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_face_conditioning import read_friction_qp, rows_of
    from qp_warm_start import (CHECK_EVERY, carried, dense, iterations_from, reference_solution,
                               starts)
    failures = []
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        A, b, mu = read_friction_qp(qp, "qp_warm_start_test.py")
        warm = dense(qp + "/warm_start.mtx")
        reference = reference_solution(A, b, mu, dense(qp + "/solution.mtx"))
        expected = {"zero": grains_iterations(grains, qp, "zero"),
                    "warm": grains_iterations(grains, qp, "stored")}
    kept = carried(warm)
    print(f"{kept.sum()} of {mu.size} contacts carried by the warm start")
    if not 0 < kept.sum() < mu.size:
        failures.append("the demo's warm start should carry some contacts and not others")
    built = starts(warm, reference)
    for name, start in built.items():
        iterations, residual = iterations_from(A, b, mu, start, TOLERANCE)
        print(f"{name}: {iterations} iterations from a residual of {residual:.2e}"
              + (f" (grains' apgd {expected[name]})" if name in expected else ""))
        if name in expected and iterations != expected[name]:
            failures.append(f"{name}: {iterations} iterations, grains' apgd {expected[name]}")
        if name == "exact" and iterations != CHECK_EVERY:
            failures.append(f"exact start: {iterations} iterations, expected {CHECK_EVERY}")
    rows = rows_of(np.flatnonzero(kept))
    others = rows_of(np.flatnonzero(~kept))
    for name, (on_kept, on_others) in {"zero exact": (warm, reference),
                                       "carried exact": (reference, warm)}.items():
        if not (np.array_equal(built[name][rows], on_kept[rows])
                and np.array_equal(built[name][others], on_others[others])):
            failures.append(f"{name}: not the reference and the warm start on the parts it names")
    finish("qp_warm_start", failures)


if __name__ == "__main__":
    main()
