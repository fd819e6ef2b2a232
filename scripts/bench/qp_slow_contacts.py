#!/usr/bin/python3
"""Which contacts hold a friction solve back (docs/solvers.md, "Friction on
piles").

    qp_slow_contacts.py DIR ITERATIONS [TOLERANCE]

DIR is a `grains run --export-qp` directory with three unknowns per contact
(Coulomb or its zero-friction variant). Solves the QP with APGD in apgd's
diagonal metric to a relative natural residual of 1e-10 (the reference),
runs the same method from gamma = 0 for ITERATIONS iterations, and prints,
per kind of contact at the reference (separating, sticking, sliding), how
many there are, how many of them still miss TOLERANCE (default 1e-4, the
settle benchmark's) after those iterations, and the 99th percentile of
their residuals; then how many of the missing contacts miss mostly in
their tangential rows, how many contacts the iterate has of another kind
than the reference (the face of the cones it has not yet found), and how
far the iterate is from the reference in impulses and in A times the
impulses (the contact velocities): an error
that is large in the impulses and small in their velocities lies along
the soft directions of A.
"""
import sys

import numpy as np

from qp_face_conditioning import (KIND_NAMES, apgd_in_metric, contact_kinds, read_friction_qp,
                                  residual_rows)


def main(path, iterations, tolerance):
    A, b, mu = read_friction_qp(path, "qp_slow_contacts.py")
    reference, A_reference, reference_iterations = apgd_in_metric(A, b, mu)
    kind = contact_kinds(reference, mu)
    x, Ax, _ = apgd_in_metric(A, b, mu, relative_tolerance=0.0, max_iterations=iterations)
    rows = residual_rows(x, Ax + b, mu)
    share = rows.max(axis=1)
    missing = share > tolerance
    print(f"{path}: {mu.size} contacts; reference after {reference_iterations} iterations; "
          f"after {iterations}: {int(missing.sum())} contacts above {tolerance:g}")
    print(f"  {'kind':10s} {'contacts':>8s} {'above':>6s} {'99 %':>8s}")
    for k, name in enumerate(KIND_NAMES):
        mine = kind == k
        if mine.any():
            print(f"  {name:10s} {int(mine.sum()):8d} {int((missing & mine).sum()):6d} "
                  f"{np.percentile(share[mine], 99):8.1e}")
    tangential = np.hypot(rows[:, 1], rows[:, 2]) > rows[:, 0]
    print(f"  missing mostly in the tangential rows: {int((missing & tangential).sum())}")
    other = contact_kinds(x, mu) != kind
    print(f"  of another kind than at the reference: {int(other.sum())} ("
          + ", ".join(f"{name} {int((other & (kind == k)).sum())}"
                      for k, name in enumerate(KIND_NAMES)) + " at the reference)")
    error = x - reference
    print(f"  |gamma - gamma*| / |gamma*| = {np.linalg.norm(error) / np.linalg.norm(reference):.3g}, "
          f"|A (gamma - gamma*)| / |A gamma*| = "
          f"{np.linalg.norm(Ax - A_reference) / np.linalg.norm(A_reference):.3g}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) == 4 else 1e-4)
