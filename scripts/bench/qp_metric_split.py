#!/usr/bin/python3
"""Is apgd's diagonal metric the right split between normal and tangential
rows? (docs/solvers.md, "Friction on piles").

    qp_metric_split.py DIR [FACTORS] [TOLERANCE]

DIR is a `grains run --export-qp` directory with three unknowns per contact.
Runs APGD in apgd's diagonal metric from gamma = 0 with the tangential scales
multiplied by each factor c of FACTORS (comma-separated, default
0.5,0.7,1,1.4,2; the tangential step then grows by c^2 against the normal
one) to grains' absolute natural residual TOLERANCE (default 1e-4, checked
every third iteration as apgd does), and prints per factor the iterations,
the applications of A (backtracking trials counted) and the objective.
c = 1 is apgd's own metric, the inverse diagonal of A.
"""
import sys

from qp_face_conditioning import apgd_in_metric, read_friction_qp


class CountingOperator:
    """A with its products counted."""

    def __init__(self, A):
        self.A = A
        self.products = 0

    def __matmul__(self, v):
        self.products += 1
        return self.A @ v

    def diagonal(self):
        return self.A.diagonal()


def main(path, factors, tolerance):
    A, b, mu = read_friction_qp(path, "qp_metric_split.py")
    print(f"{path}: {mu.size} contacts, tolerance {tolerance:g}")
    print(f"  {'factor':>6s} {'iterations':>10s} {'applications':>12s} {'objective':>20s}")
    for factor in factors:
        counted = CountingOperator(A)
        x, Ax, iterations = apgd_in_metric(counted, b, mu, max_iterations=100000,
                                           tangential_factor=factor,
                                           absolute_tolerance=tolerance, check_every=3)
        # Counted as apgd counts them: with the product at gamma = 0 and the one for L_0.
        objective = 0.5 * x @ Ax + b @ x
        print(f"  {factor:6g} {iterations:10d} {counted.products:12d} {objective:20.12g}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__)
    factors = [float(v) for v in sys.argv[2].split(",")] if len(sys.argv) > 2 else [
        0.5, 0.7, 1.0, 1.4, 2.0]
    main(sys.argv[1], factors, float(sys.argv[3]) if len(sys.argv) > 3 else 1e-4)
