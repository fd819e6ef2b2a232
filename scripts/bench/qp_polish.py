#!/usr/bin/python3
"""APGD with the last few contacts polished locally (docs/solvers.md,
"Friction on piles").

    qp_polish.py [--trigger F] [--rings K] [--local-factor C] [--tolerance T]
                 [--max-rounds M] DIR...

Near the end of a friction solve a handful of contacts miss the tolerance
while the rest of the pile has met it long ago (at 1e-6 on the N = 4000
impact QP, four contacts after 1,200 of 3,600 iterations). This study
measures what it would save to solve those contacts' neighbourhood alone.
Per DIR (a `grains run --export-qp` directory, three unknowns per contact),
from gamma = 0:

* plain: APGD in apgd's diagonal metric (qp_face_conditioning.py's method)
  to the natural residual T (absolute, at every contact), checked every
  third iteration as grains' apgd does;
* polished: the same method until at most a share F of the contacts miss T
  (or all meet it); then the missing contacts and K rings of contacts
  around them (contacts coupled to them through a body, the block pattern
  of A) are solved alone, the others held, with the same method to C * T;
  their change is added to gamma and A gamma, and the global method goes
  on from there (a fresh start of its momentum) until the next trigger;
  a local solve is cut off after 20,000 iterations (and counted);
  at most M rounds.

Cost is counted in applications of A: a local application costs the share
of A's nonzeros that the patch's block A_PP holds, and carrying a patch's
change to the rest of the pile (A times a change on the patch rows) the
share of A's nonzeros in those columns. The plain result is checked against T at
every contact (the script stops otherwise), the polished one reported as
met or not; both with their objective 1/2 g.A g + b.g.
"""
import argparse
import sys

import numpy as np
import scipy.sparse as sp

from qp_face_conditioning import apgd_in_metric, contact_residuals, natural_residual, read_friction_qp, rows_of


LOCAL_ITERATIONS = 20000  # a local solve that needs more is cut off (and counted)


class CountedMatrix:
    """A sparse matrix whose products with vectors are counted."""

    def __init__(self, matrix):
        self.matrix = matrix
        self.shape = matrix.shape
        self.products = 0

    def diagonal(self):
        return self.matrix.diagonal()

    def __matmul__(self, vector):
        self.products += 1
        return self.matrix @ vector


def objective(A, b, x):
    return 0.5 * x @ (A @ x) + b @ x


def plain(A, b, mu, tolerance):
    counted = CountedMatrix(A)
    x, Ax, iterations = apgd_in_metric(counted, b, mu, absolute_tolerance=tolerance, check_every=3)
    return x, Ax, counted.products, iterations


def polished(A, b, mu, tolerance, trigger, rings, local_factor, max_rounds):
    contacts = mu.size
    pattern = A.tocoo()
    graph = sp.csr_matrix((np.ones(pattern.nnz), (pattern.row // 3, pattern.col // 3)),
                          shape=(contacts, contacts))
    column_nonzeros = np.diff(A.tocsc().indptr)
    applies = 0.0
    start = None
    rounds = []

    def stop(x, Ax):
        miss = contact_residuals(x, Ax + b, mu) > tolerance
        return not miss.any() or miss.sum() <= trigger * contacts

    for _ in range(max_rounds + 1):
        counted = CountedMatrix(A)
        last = len(rounds) == max_rounds
        x, Ax, _ = apgd_in_metric(counted, b, mu, check_every=3, start=start,
                                  absolute_tolerance=tolerance if last else None,
                                  stop=None if last else stop)
        applies += counted.products
        share = contact_residuals(x, Ax + b, mu)
        if share.max() <= tolerance or last:
            break
        patch = share > tolerance
        missing = int(patch.sum())
        for _ in range(rings):
            patch = patch | (graph @ patch.astype(float) > 0)
        members = np.where(patch)[0]
        rows = rows_of(members)
        local = CountedMatrix(A[rows][:, rows].tocsr())
        local_b = b[rows] + Ax[rows] - local.matrix @ x[rows]
        local.products = 0
        x_local, _, local_iterations = apgd_in_metric(
            local, local_b, mu[members], absolute_tolerance=local_factor * tolerance, check_every=3,
            start=(x[rows].copy(), local.matrix @ x[rows]), max_iterations=LOCAL_ITERATIONS)
        applies += local.products * local.matrix.nnz / A.nnz
        change = np.zeros_like(x)
        change[rows] = x_local - x[rows]
        x = x + change
        Ax = Ax + A @ change
        applies += column_nonzeros[rows].sum() / A.nnz
        rounds.append((missing, members.size, local_iterations))
        start = (x, Ax)
    return x, Ax, applies, rounds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trigger", type=float, default=0.01)
    parser.add_argument("--rings", type=int, default=2)
    parser.add_argument("--local-factor", type=float, default=0.5)
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    for path in args.dirs:
        A, b, mu = read_friction_qp(path, "qp_polish.py")
        x0, Ax0, plain_applies, plain_iterations = plain(A, b, mu, args.tolerance)
        plain_worst = natural_residual(x0, Ax0 + b, mu)
        if plain_worst > args.tolerance:
            sys.exit(f"qp_polish.py: {path}: plain APGD stopped at {plain_worst:.3e} > {args.tolerance:g}")
        x, Ax, applies, rounds = polished(A, b, mu, args.tolerance, args.trigger, args.rings,
                                          args.local_factor, args.max_rounds)
        worst = natural_residual(x, Ax + b, mu)
        met = "met" if worst <= args.tolerance else f"NOT met ({worst:.2e})"
        patches = ", ".join(f"{m}->{p}:{i}" for m, p, i in rounds[:6])
        if len(rounds) > 6:
            patches += ", ..."
        print(f"{path}: tolerance {args.tolerance:g}, {mu.size} contacts; plain {plain_applies} "
              f"applications ({plain_iterations} iterations, objective {objective(A, b, x0):.12g}); "
              f"polished {applies:.0f} ({len(rounds)} rounds, {met}, objective "
              f"{objective(A, b, x):.12g}; missing->patch:local iterations {patches})")


if __name__ == "__main__":
    sys.exit(main())
