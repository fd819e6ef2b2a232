#!/usr/bin/python3
"""Self-stresses on the face of a stored Coulomb QP's solution.

    qp_self_stress.py DIR      (a `grains run --export-qp` directory)

Takes the face of the cones that holds the run's own solution (solution.mtx):
all three unknowns of a contact inside its cone, the cone's ray of a contact
on its surface, nothing of a separating one (gamma_n = 0). On that face the QP
is min 1/2 y^T (Z^T A Z) y + (Z^T b)^T y. Prints the null space of Z^T A Z
(self-stresses: impulses that move no body), the part of Z^T b along it
(nonzero: the QP has no minimum on that face, an exact solution must leave
it), and how the gradients at the stored solution and at the run's warm start
split into that null space and the range of A. docs/solvers.md ("What the
tolerance means, and piles at rest") quotes its output.
"""
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp


def read(path, name):
    data = scipy.io.mmread(f"{path}/{name}.mtx")
    return sp.csr_matrix(data) if name == "A" else np.asarray(
        data.todense() if sp.issparse(data) else data).ravel()


def main(path):
    A, b, mu = read(path, "A"), read(path, "b"), read(path, "cones")
    x, warm = read(path, "solution"), read(path, "warm_start")
    if b.size != 3 * mu.size:
        sys.exit("qp_self_stress.py: expected three unknowns per contact")
    g = x.reshape(-1, 3)
    normal, tangential = g[:, 0], np.hypot(g[:, 1], g[:, 2])
    largest = np.abs(normal).max()
    rows, cols, vals = [], [], []
    free = 0
    bodies_dofs = int(scipy.io.mminfo(f"{path}/Dt.mtx")[1])
    for c in range(mu.size):
        if normal[c] <= 1e-9 * largest:
            continue
        if tangential[c] < mu[c] * normal[c] * (1 - 1e-3):
            for k in range(3):
                rows.append(3 * c + k), cols.append(free + k), vals.append(1.0)
            free += 3
        else:
            ray = np.array([1.0, mu[c] * g[c, 1] / tangential[c], mu[c] * g[c, 2] / tangential[c]])
            for k in range(3):
                rows.append(3 * c + k), cols.append(free), vals.append(ray[k] / np.linalg.norm(ray))
            free += 1
    Z = sp.csr_matrix((vals, (rows, cols)), shape=(b.size, free))
    values, vectors = np.linalg.eigh((Z.T @ A @ Z).toarray())
    null = vectors[:, values < 1e-10 * values[-1]]
    print(f"{path}: {mu.size} contacts, {free} free unknowns on the face, "
          f"{bodies_dofs} body degrees of freedom")
    print(f"  null space of Z^T A Z: {null.shape[1]} directions; "
          f"|Z^T b| = {np.linalg.norm(Z.T @ b):.3g}, along the null space {np.linalg.norm(null.T @ (Z.T @ b)):.3g}")
    for name, point in (("stored solution", x), ("warm start", warm)):
        gradient = Z.T @ (A @ point + b)
        along = null @ (null.T @ gradient)
        print(f"  face gradient at the {name}: {np.abs(gradient).max():.3g} (max), "
              f"range of A {np.abs(gradient - along).max():.3g}, null space {np.abs(along).max():.3g}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
