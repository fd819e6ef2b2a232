"""A synthetic exported QP with a known solution, shared by the script tests
of scripts/bench: A = I on three Coulomb contacts (mu = 0.5), so the optimum
is the projection of -b onto the cones. -b = (-1, 0, 0) makes the first
contact separate (optimum (0, 0, 0)), (1, 0.1, 0) the second stick (itself),
(1, 1, 0) the third slide (onto (1.2, 0.6, 0))."""
import os

import numpy as np
import scipy.io
import scipy.sparse as sp

OPTIMUM = np.array([0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 1.2, 0.6, 0.0])
OBJECTIVE = -0.5 * float(OPTIMUM @ OPTIMUM)  # A = I: 1/2 |x|^2 + b.x at x = Pi(-b)


def write_three_contact_qp(path):
    os.makedirs(path)
    b = -np.array([-1.0, 0.0, 0.0, 1.0, 0.1, 0.0, 1.0, 1.0, 0.0])
    scipy.io.mmwrite(os.path.join(path, "A.mtx"), sp.identity(9, format="csr"))
    scipy.io.mmwrite(os.path.join(path, "b.mtx"), b.reshape(-1, 1))
    scipy.io.mmwrite(os.path.join(path, "cones.mtx"), np.full((3, 1), 0.5))
