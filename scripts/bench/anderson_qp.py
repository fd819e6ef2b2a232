#!/usr/bin/python3
"""Anderson acceleration of the projected gradient on exported contact QPs,
against apgd (docs/solvers.md, "Anderson acceleration, measured").

Usage:
  anderson_qp.py --grains BUILD/grains [--tolerances 1e-4,1e-6]
                 [--memories 5,10] [--step-factors 1.9] [--max-iterations N]
                 [--drop-on-face-change]
                 LABEL=COULOMB_DIR[:MU0_DIR] ...

The method studied (type-II Anderson acceleration, Walker & Ni 2011, of the
fixed-point map of projected gradient): in apgd's diagonal metric S (normal
row alone, tangential rows averaged; the cones rescaled to mu s_n / s_t),
with y = S^-1 gamma, H = S A S and c = S b,
    G(y) = Pi_K'(y - a (H y + c)),   a = step factor / L,
L the largest eigenvalue of H (10 power iterations, 1.05 margin), and
    y_{k+1} = Pi_K'(G(y_k) - dG gamma_k),  gamma_k = argmin |f_k - dF gamma|,
f = G(y) - y and dF, dG the differences of the last m values of f and G
(Tikhonov term 1e-10 trace, a step whose |f| exceeds twice the best so far
drops the history; with --drop-on-face-change also every iteration in which
a contact changes between separating, sticking and sliding, and the number
of drops goes to stderr). One application of A per iteration. The stop is grains'
own: the Euclidean natural residual |gamma - Pi_K(gamma - (A gamma + b))|_inf
below the tolerance, from gamma = 0.

For every QP and tolerance it prints a markdown row: apgd's applications of
A (`grains qp solve`, one rank) on the frictionless variant (MU0_DIR, from
scripts/bench/qp_variant.py zero-friction) and on the Coulomb QP, and the
Anderson method's applications on the Coulomb QP for every memory m and
step factor (the 10 of the power iteration included), and its best count
over apgd's frictionless one.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mprgp_table import (apgd_columns, best_over_base, print_header, print_row,  # noqa: E402
                         qp_spec, qp_table_parser)
from qp_face_conditioning import (POWER_ITERATIONS, diagonal_metric, lipschitz_bound,  # noqa: E402
                                  natural_residual, project, read_friction_qp)


def face(y, mu_scaled):
    """Per contact 0 separating, 1 sticking (inside the cone), 2 sliding."""
    y = y.reshape(-1, 3)
    n, t = y[:, 0], np.hypot(y[:, 1], y[:, 2])
    return np.where(n <= 0, 0, np.where(t < mu_scaled * n * (1 - 1e-9), 1, 2))


def anderson(path, tolerance, memory, step_factor, max_iterations, drop_on_face_change=False):
    """(applications of A to reach the tolerance, None if not within the cap;
    the objective 1/2 gamma^T A gamma + b^T gamma of the last iterate)."""
    A, b, mu = read_friction_qp(path, "anderson_qp.py")
    s, mu_scaled = diagonal_metric(A, mu)

    def H(y):
        return s * (A @ (s * y))

    a = step_factor / lipschitz_bound(H, b.size)
    applies = POWER_ITERATIONS
    c = s * b
    y, Hy = np.zeros(b.size), np.zeros(b.size)  # A 0 needs no product
    values, differences = [], []
    best_step = np.inf
    faces, drops = None, 0
    for iteration in range(max_iterations):
        if natural_residual(s * y, (Hy + c) / s, mu) <= tolerance:
            break
        g = project(y - a * (Hy + c), mu_scaled)
        f = g - y
        step = np.linalg.norm(f)
        if drop_on_face_change:
            new_faces = face(g, mu_scaled)
            if faces is not None and (new_faces != faces).any():
                values, differences = [], []
                drops += 1
            faces = new_faces
        if step > 2 * best_step:
            values, differences = [], []
        best_step = min(best_step, step)
        values.append(g)
        differences.append(f)
        if len(values) > memory + 1:
            values.pop(0)
            differences.pop(0)
        if len(values) > 1:
            dF = np.diff(np.stack(differences, 1), axis=1)
            dG = np.diff(np.stack(values, 1), axis=1)
            M = dF.T @ dF
            weights = np.linalg.solve(M + 1e-10 * np.trace(M) * np.eye(len(M)), dF.T @ f)
            y = project(g - dG @ weights, mu_scaled)
        else:
            y = g
        Hy = H(y)
        applies += 1
    else:
        applies = None
    if drop_on_face_change:
        print(f"{path}, tolerance {tolerance:g}, m = {memory}, a = {step_factor}/L: history "
              f"dropped {drops} times in {iteration + 1} iterations", file=sys.stderr)
    gamma = s * y
    return applies, float(gamma @ (0.5 * (Hy / s) + b))


def main():
    parser = qp_table_parser(__doc__)
    parser.add_argument("--memories", default="5,10")
    parser.add_argument("--step-factors", default="1.9")
    parser.add_argument("--drop-on-face-change", action="store_true")
    args = parser.parse_args()
    tolerances = [float(t) for t in args.tolerances.split(",")]
    variants = [(int(m), float(f)) for m in args.memories.split(",")
                for f in args.step_factors.split(",")]

    columns = ["QP", "tolerance", "`apgd`, μ = 0", "`apgd`, Coulomb"]
    columns += [f"Anderson m = {m}, a = {f}/L, Coulomb" for m, f in variants]
    columns += ["best Anderson / `apgd` μ = 0"]
    print_header(columns)
    for spec in args.qps:
        label, coulomb, mu0 = qp_spec(spec)
        for tol in tolerances:
            base, _, cells = apgd_columns(args.grains, coulomb, mu0, tol, args.max_iterations)
            counts = [anderson(coulomb, tol, m, f, args.max_iterations,
                               args.drop_on_face_change)[0] for m, f in variants]
            row = [label] + cells + [f"{n:,}" if n is not None else "(cap)" for n in counts]
            print_row(row + [best_over_base(counts, base)])


if __name__ == "__main__":
    main()
