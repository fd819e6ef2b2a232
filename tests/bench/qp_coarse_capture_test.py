#!/usr/bin/python3
"""scripts/bench/qp_coarse_capture.py on a QP whose coarse corrections are
known in closed form. Three unit-mass spheres in a row along x (radius 0.5),
contacts 0-1 and 1-2 with normal +x; body 0 moves at 2 m/s towards body 1,
the others rest. The normal rows of A are [[2, -1], [-1, 2]] and uncoupled
from the tangential ones (the arms lie along the normal), so the optimum is
gamma_n = (4/3, 2/3), gamma_t = 0. From gamma = 0 (0 iterations) the error
is e = -gamma*:
* one cluster of all three bodies: its world force (and its stress, whose
  traction on normal +x is the same vector) reaches e through (1, 1) in the
  normal rows only: the Galerkin correction removes (P.A e)^2 / (P.A P e.A e)
  = 4 / (2 * 8/3) = 0.75 of e.A e, P spans 2 / (20/9) = 0.9 of e.e, and the
  correction leaves (-1/3, 1/3), 0.1 of e.e;
* clusters of one body: each contact has its own cluster, so every
  coarse space holds e exactly (1, 1 and 0).
usage: qp_coarse_capture_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.sparse as sp

from qp_study_support import finish

RADIUS = 0.5


def write_chain_qp(path):
    os.makedirs(path)
    frame = np.eye(3)  # rows n = x, t1 = y, t2 = z
    Dt = np.zeros((6, 18))
    for c, (a, b) in enumerate(((0, 1), (1, 2))):
        r_a, r_b = RADIUS * frame[0], -RADIUS * frame[0]
        for k in range(3):
            t = frame[k]
            Dt[3 * c + k, 6 * b:6 * b + 3] = t
            Dt[3 * c + k, 6 * b + 3:6 * b + 6] = np.cross(r_b, t)
            Dt[3 * c + k, 6 * a:6 * a + 3] = -t
            Dt[3 * c + k, 6 * a + 3:6 * a + 6] = -np.cross(r_a, t)
    inverse_inertia = 1.0 / (0.4 * RADIUS**2)
    W = np.diag(np.tile([1.0, 1.0, 1.0] + [inverse_inertia] * 3, 3))
    A = Dt @ W @ Dt.T
    velocities = np.zeros(18)
    velocities[0] = 2.0  # body 0 towards body 1
    b = Dt @ velocities
    scipy.io.mmwrite(os.path.join(path, "A.mtx"), sp.csr_matrix(A))
    scipy.io.mmwrite(os.path.join(path, "Dt.mtx"), sp.csr_matrix(Dt))
    scipy.io.mmwrite(os.path.join(path, "b.mtx"), b.reshape(-1, 1))
    scipy.io.mmwrite(os.path.join(path, "cones.mtx"), np.full((2, 1), 0.5))


def rows(script, qp, size):
    out = subprocess.run(["/usr/bin/python3", script, qp, "0", "--sizes", str(size)], check=True,
                         capture_output=True, text=True).stdout
    print(out)
    table = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 8 and cells[3] in ("force", "stress", "both"):
            table[cells[3]] = tuple(float(v) for v in cells[5:8])
    return table


def main():
    script = os.path.join(sys.argv[1], "scripts", "bench", "qp_coarse_capture.py")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        qp = os.path.join(tmp, "qp")
        write_chain_qp(qp)
        for size, expected in ((3, (0.75, 0.9, 0.1)), (1, (1.0, 1.0, 0.0))):
            table = rows(script, qp, size)
            for kind in ("force", "stress", "both"):
                got = table.get(kind)
                if got is None or any(abs(g - e) > 2e-3 for g, e in zip(got, expected)):
                    failures.append(f"clusters of {size}, {kind}: {got}, expected {expected}")
    finish("qp_coarse_capture", failures)


if __name__ == "__main__":
    main()
