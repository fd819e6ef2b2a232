#!/usr/bin/python3
"""scripts/bench/qp_working_set.py on the demo's exported QP (1000 spheres
landing, Coulomb friction). With nothing left out its working-set solve is
the whole solve: one round, the same iterations, plus the one check. With
the unloaded contacts of free separation left out (margin 0) it still ends
with every contact meeting the tolerance, at apgd's optimum (1e-9) within a
relative 1e-6, and leaves some contacts out.
usage: qp_working_set_test.py SOURCE_DIR GRAINS"""
import os
import sys
import tempfile

import numpy as np

from qp_study_support import apgd_optimum, check_optimum, export_demo_qp, finish

TOLERANCE = 1e-7


def main():
    source, grains = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_face_conditioning import contact_residuals, dense, project, read_friction_qp
    from qp_working_set import full_solve, left_out_slack, working_set_solve
    failures = []
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        optimum = apgd_optimum(source, grains, qp)
        A, b, mu = read_friction_qp(qp, "qp_working_set_test.py")
        warm = project(dense(qp + "/warm_start.mtx"), mu)
    iterations, _ = full_solve(A, b, mu, warm, TOLERANCE)
    nothing = np.zeros(mu.size, bool)
    _, cost, rounds, left = working_set_solve(A, b, mu, warm, TOLERANCE, nothing)
    print(f"nothing left out: {cost:.0f} applications in {rounds} rounds; whole solve "
          f"{iterations} iterations")
    if (rounds, left) != (1, 0) or abs(cost - (iterations + 3)) > 1e-9:
        failures.append(f"nothing left out: {cost} applications, {rounds} rounds, {left} left "
                        f"out; expected {iterations + 3}, 1, 0")
    left_out = left_out_slack(A, b, mu, warm) > 0
    gamma, cost, rounds, left = working_set_solve(A, b, mu, warm, TOLERANCE, left_out)
    worst = contact_residuals(gamma, A @ gamma + b, mu).max()
    print(f"margin 0: {left_out.sum()} contacts left out at first, {left} at the end, {rounds} "
          f"rounds, worst residual {worst:.2e}")
    if not left > 0:
        failures.append("margin 0 left no contact out")
    check_optimum("margin 0", cost if worst <= TOLERANCE else None,
                  0.5 * gamma @ (A @ gamma) + b @ gamma, optimum, failures,
                  f" (worst residual {worst:.2e})")
    finish("qp_working_set", failures)


if __name__ == "__main__":
    main()
