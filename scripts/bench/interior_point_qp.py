#!/usr/bin/python3
"""A primal-dual interior-point method with conjugate-gradient inner solves on
exported Coulomb contact QPs, against apgd (docs/solvers.md, "Friction on
piles").

Usage:
  interior_point_qp.py --grains BUILD/grains [--tolerances 1e-4,1e-6]
                       [--cg-tolerances 1e-2,1e-4] [--max-iterations N]
                       LABEL=COULOMB_DIR[:MU0_DIR] ...

The method studied is the one Melanz et al. (2017) apply to the cone
complementarity problem of frictional contact: primal-dual interior point
with Nesterov-Todd scaling and Mehrotra's predictor-corrector (as in
Vandenberghe's account of CVXOPT's cone QP solver), here with the Newton
systems solved matrix-free by preconditioned conjugate gradients, so that
its work is counted in applications of A like the other solvers'. With
x = Q gamma, Q = diag(mu, 1, 1) per contact (the friction cones become
second-order cones), P = Q^-1 A Q^-1 and q = Q^-1 b, it solves
    min 1/2 x^T P x + q^T x,  x in K,    dual z = P x + q in K,  x o z = 0,
from x = z = e (a scaled cone axis per contact), by Newton steps on
    P x + q - z = r_d = 0,   lambda o lambda = sigma mu e   (lambda = W z = W^-1 x)
reduced to (P + W^-2) dx = W^-1 d - r_d, d = lambda \\ (sigma mu e - lambda o
lambda - corrector). Two solves per iteration (predictor, corrector); each is
CG with the per-contact 3x3 block inverses of P + W^-2 as preconditioner,
from 0, to a relative residual (--cg-tolerances; also at most 500 steps). P dx
is accumulated from CG's own products, so the iteration needs no other
product with A. The steps stay 0.99 of the way to the cones' boundaries; a step
shorter than 1e-6 counts as a stall (not converged).
The stop is grains' own, on gamma = Q^-1 x (interior, so feasible): the natural
residual |gamma - Pi_K(gamma - (A gamma + b))|_inf below the tolerance.

For every QP and tolerance it prints a markdown row: apgd's applications of
A (`grains qp solve`, one rank, from gamma = 0) on the frictionless variant
(MU0_DIR, from scripts/bench/qp_variant.py zero-friction) and on the Coulomb
QP, and the interior-point method's applications (interior-point iterations
in brackets) for every CG tolerance, and its best count over apgd's
frictionless one. With IP_TRACE=1 in the environment every interior-point
iteration prints its products so far, duality gap, centring, step, dual
residual and natural residual to stderr.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mprgp_table import (apgd_columns, best_over_base, print_header, print_row,  # noqa: E402
                         qp_spec, qp_table_parser)
from qp_face_conditioning import natural_residual, read_friction_qp  # noqa: E402

J = np.array([1.0, -1.0, -1.0])
STEP_FRACTION = 0.99
MAX_CG_STEPS = 500
MIN_STEP = 1e-6


def jordan(u, v):
    """Jordan product u o v of the second-order cone, per contact (rows of 3)."""
    return np.column_stack([(u * v).sum(1), u[:, :1] * v[:, 1:] + v[:, :1] * u[:, 1:]])


def jordan_divide(lam, w):
    """y with lam o y = w, per contact (lam in the cone's interior)."""
    det = cone_determinant(lam)
    y0 = (lam[:, 0] * w[:, 0] - (lam[:, 1:] * w[:, 1:]).sum(1)) / det
    return np.column_stack([y0, (w[:, 1:] - y0[:, None] * lam[:, 1:]) / lam[:, :1]])


def cone_determinant(u):
    """u0^2 - |u1|^2 per contact, factored so that it keeps its digits (and
    its sign) next to the cone's boundary."""
    radius = np.hypot(u[:, 1], u[:, 2])
    return (u[:, 0] - radius) * (u[:, 0] + radius)


def nesterov_todd(x, z):
    """Per contact the symmetric scaling W = beta (2 v v^T - J) with
    W z = W^-1 x = lambda, and W^-1; returned as (m, 3, 3) arrays."""
    xJx, zJz = cone_determinant(x), cone_determinant(z)
    xb, zb = x / np.sqrt(xJx)[:, None], z / np.sqrt(zJz)[:, None]
    g = np.sqrt(0.5 * (1 + (xb * zb).sum(1)))
    wb = (xb + J * zb) / (2 * g)[:, None]
    v = wb.copy()
    v[:, 0] += 1
    v /= np.sqrt(2 * (wb[:, 0] + 1))[:, None]
    beta = (xJx / zJz) ** 0.25
    outer = 2 * v[:, :, None] * v[:, None, :]
    W = beta[:, None, None] * (outer - np.diag(J))
    Jv = J * v
    W_inv = (2 * Jv[:, :, None] * Jv[:, None, :] - np.diag(J)) / beta[:, None, None]
    return W, W_inv


def apply_blocks(blocks, u):
    return np.einsum("cij,cj->ci", blocks, u)


def max_step(u, du):
    """Largest a in [0, 1] with u + a du in the cones (u interior)."""
    # (u0 + a du0)^2 - |u1 + a du1|^2 >= 0 and u0 + a du0 >= 0, per contact.
    qa = du[:, 0] ** 2 - (du[:, 1:] ** 2).sum(1)
    qb = 2 * (u[:, 0] * du[:, 0] - (u[:, 1:] * du[:, 1:]).sum(1))
    qc = cone_determinant(u)
    step = np.ones(len(u))
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = qb * qb - 4 * qa * qc
        roots = np.stack([(-qb - np.sqrt(disc)) / (2 * qa), (-qb + np.sqrt(disc)) / (2 * qa),
                          -qc / qb], 1)
    for column in range(3):
        r = roots[:, column]
        ok = np.isfinite(r) & (r > 0)
        # a root of the quadratic is a boundary crossing only where it is real
        if column < 2:
            ok &= (disc >= 0) & (qa != 0)
        else:
            ok &= qa == 0
        step = np.where(ok, np.minimum(step, r), step)
    axis = np.where(du[:, 0] < 0, -u[:, 0] / du[:, 0], 1.0)  # u0 stays >= 0
    return float(min(step.min(), axis.min(), 1.0))


def interior_point(path, tolerance, cg_tolerance, max_iterations):
    """(applications of A to reach the tolerance, None if not reached;
    interior-point iterations; the objective of the last iterate, None if not
    reached; why it ended: "converged", "cap" or "stalled")."""
    A, b, mu = read_friction_qp(path, "interior_point_qp.py")
    if (mu <= 0).any():
        sys.exit("interior_point_qp.py: every contact needs mu > 0 (a Coulomb QP)")
    m = mu.size
    q_scale = np.column_stack([mu, np.ones(m), np.ones(m)]).ravel()  # Q's diagonal
    applies = 0

    def P(u):
        nonlocal applies
        applies += 1
        return (A @ (u.ravel() / q_scale) / q_scale).reshape(-1, 3)

    # P's 3x3 diagonal blocks, for the preconditioner.
    rows = np.repeat(np.arange(3 * m), np.diff(A.indptr))
    same = rows // 3 == A.indices // 3
    blocks = np.zeros((m, 3, 3))
    np.add.at(blocks, (rows[same] // 3, rows[same] % 3, A.indices[same] % 3),
              A.data[same] / (q_scale[rows[same]] * q_scale[A.indices[same]]))

    q = (b / q_scale).reshape(-1, 3)
    x = np.zeros((m, 3))
    x[:, 0] = 1.0
    z = x.copy()
    Px = P(x)
    e = x.copy()  # the cones' axes

    def cg(W_inv2, rhs):
        """dx with (P + W^-2) dx = rhs, and P dx from the same products."""
        M_inv = np.linalg.inv(blocks + W_inv2)
        dx, Pdx = np.zeros_like(rhs), np.zeros_like(rhs)
        r = rhs.copy()
        s = apply_blocks(M_inv, r)
        p = s.copy()
        rs = (r * s).sum()
        stop = cg_tolerance * np.linalg.norm(rhs)
        for _ in range(MAX_CG_STEPS):
            if np.linalg.norm(r) <= stop:
                break
            Pp = P(p)
            Kp = Pp + apply_blocks(W_inv2, p)
            alpha = rs / (p * Kp).sum()
            dx += alpha * p
            Pdx += alpha * Pp
            r -= alpha * Kp
            s = apply_blocks(M_inv, r)
            rs_next = (r * s).sum()
            p = s + (rs_next / rs) * p
            rs = rs_next
        return dx, Pdx

    def residual():  # gamma = Q^-1 x, A gamma + b = Q (P x + q)
        return natural_residual(x.ravel() / q_scale, (Px.ravel() + q.ravel()) * q_scale, mu)

    for iteration in range(max_iterations):
        if residual() <= tolerance:
            break
        r_d = Px + q - z
        W, W_inv = nesterov_todd(x, z)
        W_inv2 = np.einsum("cij,cjk->cik", W_inv, W_inv)
        lam = apply_blocks(W, z)
        mu_gap = (x * z).sum() / m

        def direction(target):
            d = jordan_divide(lam, target)
            dx, Pdx = cg(W_inv2, apply_blocks(W_inv, d) - r_d)
            return dx, Pdx, Pdx + r_d

        # Predictor (affine) step, then Mehrotra's centring and corrector.
        dx_a, _, dz_a = direction(-jordan(lam, lam))
        a_aff = min(max_step(x, dx_a), max_step(z, dz_a))
        mu_aff = ((x + a_aff * dx_a) * (z + a_aff * dz_a)).sum() / m
        sigma = (mu_aff / mu_gap) ** 3
        correction = jordan(apply_blocks(W_inv, dx_a), apply_blocks(W, dz_a))
        dx, Pdx, dz = direction(sigma * mu_gap * e - jordan(lam, lam) - correction)
        a = STEP_FRACTION * min(max_step(x, dx), max_step(z, dz))
        if not a >= MIN_STEP:  # stalled (round-off at the cones' boundaries)
            return None, iteration + 1, None, "stalled"
        x, Px, z = x + a * dx, Px + a * Pdx, z + a * dz
        if os.environ.get("IP_TRACE"):
            print(iteration, applies, f"gap {mu_gap:.3e} sigma {sigma:.3e} a {a:.3f} "
                  f"r_d {np.abs(r_d).max():.3e} res {residual():.3e}", file=sys.stderr)
    else:
        return None, max_iterations, None, "cap"
    gamma = x.ravel() / q_scale
    objective = float(gamma @ (0.5 * Px.ravel() * q_scale + b))
    return applies, iteration, objective, "converged"


def main():
    parser = qp_table_parser(__doc__)
    parser.add_argument("--cg-tolerances", default="1e-2,1e-4")
    parser.set_defaults(max_iterations=200)
    args = parser.parse_args()
    tolerances = [float(t) for t in args.tolerances.split(",")]
    cg_tolerances = [float(t) for t in args.cg_tolerances.split(",")]

    columns = ["QP", "tolerance", "`apgd`, μ = 0", "`apgd`, Coulomb"]
    columns += [f"interior point, CG to {c:g}, Coulomb" for c in cg_tolerances]
    columns += ["best interior point / `apgd` μ = 0"]
    print_header(columns)
    for spec in args.qps:
        label, coulomb, mu0 = qp_spec(spec)
        for tol in tolerances:
            base, _, cells = apgd_columns(args.grains, coulomb, mu0, tol, 20000)
            results = [interior_point(coulomb, tol, c, args.max_iterations)
                       for c in cg_tolerances]
            row = [label] + cells
            row += [f"{n:,} ({k})" if n is not None else f"({why} after {k} iterations)"
                    for n, k, _, why in results]
            print_row(row + [best_over_base([n for n, _, _, _ in results], base)])


if __name__ == "__main__":
    main()
