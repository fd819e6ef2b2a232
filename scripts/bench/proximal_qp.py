#!/usr/bin/python3
"""Does a proximal-point outer loop make the frictional QP cheap? (docs/solvers.md,
"Friction on piles").

    proximal_qp.py DIR [RELATIVE_EPS] [TOLERANCE]

A contact compliance eps I (qp_variant.py ... compliance R) makes apgd
converge in far fewer applications of A on a frictional pile, but it solves
another problem: contacts overlap by eps g_n. The proximal-point method
removes that bias: it solves min 1/2 g.(A + eps I) g + (b - eps c).g over the
cones for a centre c, moves the centre to the result and repeats, so the
fixed point is the solution of the rigid problem. Each subproblem is solved
by APGD in apgd's diagonal metric (of A + eps I), warm-started from the last
iterate, to max(TOLERANCE, 0.3 x the rigid problem's residual) at the start
of the subproblem; the loop stops once the rigid problem's natural residual
is at most TOLERANCE (default 1e-4). Plain centres (the method itself) and
centres extrapolated with Nesterov's weights (Guler's accelerated proximal
point) are run side by side. eps is RELATIVE_EPS times the mean normal
diagonal of A (default 1e-3). Prints the outer iterations, the applications
of A (backtracking trials and Lipschitz estimates counted) and the
objective of the rigid problem.
"""
import sys

import numpy as np

from qp_face_conditioning import apgd_in_metric, natural_residual, read_friction_qp

INNER_FRACTION = 0.3


class CountingOperator:
    """A + shift I, with its products counted."""

    def __init__(self, A, shift):
        self.A, self.shift, self.products = A, shift, 0

    def __matmul__(self, v):
        self.products += 1
        return self.A @ v + self.shift * v

    def diagonal(self):
        return self.A.diagonal() + self.shift


def proximal(A0, b, mu, eps, tolerance, accelerated):
    A = CountingOperator(A0, eps)
    x = np.zeros(b.size)
    Ax = np.zeros(b.size)  # (A + eps I) x
    previous, alpha, outer = x, 1.0, 0
    while True:
        rigid_Ax = Ax - eps * x
        residual = natural_residual(x, rigid_Ax + b, mu)
        if residual <= tolerance:
            return outer, A.products, 0.5 * x @ rigid_Ax + b @ x
        outer += 1
        centre = x
        if accelerated and outer > 1:
            alpha_next = 0.5 * (-alpha * alpha + alpha * np.sqrt(alpha * alpha + 4))
            centre = x + alpha * (1 - alpha) / (alpha * alpha + alpha_next) * (x - previous)
            alpha = alpha_next
        shifted_b = b - eps * centre
        target = max(tolerance, INNER_FRACTION * residual)

        def stop(xn, Axn):
            return (natural_residual(xn, Axn + shifted_b, mu) <= target
                    or natural_residual(xn, Axn - eps * xn + b, mu) <= tolerance)

        previous = x
        x, Ax, _ = apgd_in_metric(A, shifted_b, mu, check_every=3, start=(x, Ax), stop=stop)


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    path = sys.argv[1]
    relative = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-3
    tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4
    A, b, mu = read_friction_qp(path, "proximal_qp.py")
    eps = relative * float(np.mean(A.diagonal()[::3]))
    print(f"{path}: {mu.size} contacts, eps = {relative:g} x mean normal diagonal = {eps:.4g}, "
          f"tolerance {tolerance:g}")
    for accelerated in (False, True):
        outer, products, objective = proximal(A, b, mu, eps, tolerance, accelerated)
        name = "accelerated" if accelerated else "plain"
        print(f"  {name:>11s}: {outer} outer iterations, {products} applications of A, "
              f"objective {objective:.12g}")


if __name__ == "__main__":
    main()
