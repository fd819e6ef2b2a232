#!/usr/bin/python3
"""scripts/bench/qp_residual_spread.py on a synthetic exported QP with known
residuals: A = I on four Coulomb contacts (mu = 0.5), warm start gamma =
(1, 0, 0) each, b chosen so that the gradient A gamma + b is (g, 0, 0) with g
= 1e-6, 1e-5 and 3e-4 on the first three (residual g: the cone keeps the
normal step) and (0, 1, 0) on the fourth, which the projection puts on the
cone's surface at (1.2, -0.6, 0): residual 0.6. The solution (gamma_n = 1 - g,
and the fourth contact's optimum) has residual 0 everywhere, and a second
export with a zero warm start is reported as such.
usage: qp_residual_spread_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.sparse as sp


def write_qp(path, warm):
    os.makedirs(path)
    n = 4
    gamma = np.tile([1.0, 0.0, 0.0], n)
    gradient = np.zeros(3 * n)
    gradient[[0, 3, 6]] = [1e-6, 1e-5, 3e-4]
    gradient[10] = 1.0
    b = gradient - gamma  # A = I
    # The solution: min 1/2 |g|^2 + b.g over the cones is the projection of -b.
    solution = -b.copy()
    solution[9:12] = [1.2, -0.6, 0.0]  # Pi(1, -1, 0) onto |t| <= 0.5 n
    scipy.io.mmwrite(os.path.join(path, "A.mtx"), sp.identity(3 * n, format="csr"))
    scipy.io.mmwrite(os.path.join(path, "b.mtx"), b.reshape(-1, 1))
    scipy.io.mmwrite(os.path.join(path, "cones.mtx"), np.full((n, 1), 0.5))
    scipy.io.mmwrite(os.path.join(path, "warm_start.mtx"),
                     (gamma if warm else np.zeros(3 * n)).reshape(-1, 1))
    scipy.io.mmwrite(os.path.join(path, "solution.mtx"), solution.reshape(-1, 1))
    with open(os.path.join(path, "problem.yaml"), "w") as f:
        f.write("format: grains-qp-2\nmodel: coulomb\nblock_size: 3\nrun_tolerance: 2.0e-4\n")


def main():
    script = os.path.join(sys.argv[1], "scripts", "bench", "qp_residual_spread.py")
    with tempfile.TemporaryDirectory() as tmp:
        warm, zero = os.path.join(tmp, "warm"), os.path.join(tmp, "zero")
        write_qp(warm, True)
        write_qp(zero, False)
        out = subprocess.run(["/usr/bin/python3", script, warm, zero], check=True,
                             capture_output=True, text=True).stdout
    print(out)
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 3 and cells[0] in (warm, zero):
            rows[(cells[0], cells[1])] = cells
    failures = []

    def expect(what, got, wanted):
        if got != wanted:
            failures.append(f"{what}: {got!r}, expected {wanted!r}")

    w = rows.get((warm, "warm start"))
    if w is None:
        sys.exit("no warm-start row for the synthetic QP")
    # contacts, 50, 90, 99, 99.9 %, worst, > tau, > tau / 0.3
    expect("contacts", w[2], "4")
    expect("90 % (linear between 3e-4 and 0.6)", w[4], "4.2e-01")
    expect("worst", w[7], "6.0e-01")
    expect("contacts above tau = 2e-4", w[8], "2")
    expect("contacts above tau / 0.3 (only the fourth)", w[9], "1")
    s = rows.get((warm, "solution"))
    if s is None:
        sys.exit("no solution row")
    expect("solution's worst", s[7], "0.0e+00")
    z = rows.get((zero, "warm start"))
    expect("zero warm start", z[2] if z else None, "zero (exported after a re-solve)")
    if failures:
        sys.exit("\n".join(failures))
    print("qp_residual_spread: all checks passed")


if __name__ == "__main__":
    main()
