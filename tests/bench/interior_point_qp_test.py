#!/usr/bin/python3
"""scripts/bench/interior_point_qp.py: its Nesterov-Todd scaling and Jordan
algebra on random points inside the cones (W z = W^-1 x, W W^-1 = I,
lambda o (lambda \\ w) = w, the step to the boundary lands on it), and on a
Coulomb QP exported from the demo (step 150, 1000 spheres falling onto the
floor) the interior-point method must reach a natural residual of 1e-6 and
the optimum apgd reaches (`grains qp solve`, tolerance 1e-9) to a relative
1e-6; the table's command line must print a converged count for that QP.
usage: interior_point_qp_test.py SOURCE_DIR GRAINS"""
import os
import sys
import tempfile

import numpy as np


def cone_points(rng, m):
    u = rng.normal(size=(m, 3))
    u[:, 0] = np.hypot(u[:, 1], u[:, 2]) * (1.0 + rng.random(m))
    return u


def check_algebra(failures):
    from interior_point_qp import (apply_blocks, cone_determinant, jordan, jordan_divide,
                                   max_step, nesterov_todd)
    rng = np.random.default_rng(7)
    x, z = cone_points(rng, 50), cone_points(rng, 50)
    W, W_inv = nesterov_todd(x, z)
    lam = apply_blocks(W, z)
    checks = {
        "W z - W^-1 x": np.abs(lam - apply_blocks(W_inv, x)).max(),
        "W W^-1 - I": np.abs(np.einsum("cij,cjk->cik", W, W_inv) - np.eye(3)).max(),
    }
    w = rng.normal(size=(50, 3))
    checks["lambda o (lambda \\ w) - w"] = np.abs(jordan(lam, jordan_divide(lam, w)) - w).max()
    for name, error in checks.items():
        print(f"{name}: {error:.2e}")
        if not error <= 1e-12:
            failures.append(f"{name} is {error:.2e}, not <= 1e-12")
    if not (cone_determinant(lam) > 0).all():
        failures.append("lambda = W z is not inside the cones")
    # A step to the boundary along a direction that leaves the cone lands on it.
    du = rng.normal(size=(1, 3))
    du[0, 0] = -abs(du[0, 0]) - 1.0
    u = x[:1]
    a = max_step(u, du)
    end = u + a * du
    distance = abs(end[0, 0] - np.hypot(end[0, 1], end[0, 2])) / np.abs(u).max()
    print(f"step {a:.6f} to the boundary, off it by {distance:.2e}")
    if not (0 < a < 1 and distance <= 1e-12):
        failures.append(f"max_step: step {a} ends {distance:.2e} off the cone's boundary")


def main(source, grains):
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from interior_point_qp import interior_point  # noqa: E402
    from qp_study_support import (apgd_optimum, check_optimum, check_table_row, export_demo_qp,
                                  finish)

    failures = []
    check_algebra(failures)
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        optimum = apgd_optimum(source, grains, qp)
        applies, iterations, objective, why = interior_point(qp, 1e-6, 1e-11, 60)
        check_optimum("interior point, residual 1e-6", applies, objective, optimum, failures,
                      f" ({why} after {iterations} iterations)")
        check_table_row(source, grains, "interior_point_qp.py",
                        ["--tolerances", "1e-4", "--cg-tolerances", "1e-11", f"demo={qp}"],
                        "| demo | 0.0001 |", "after", failures)
    finish("interior_point_qp_test", failures)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
