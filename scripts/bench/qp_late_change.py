#!/usr/bin/python3
"""What the late iterations of a friction solve still change (docs/solvers.md,
"Friction on piles").

    qp_late_change.py [--tolerance T] [--at F,F,...] DIR...

Per DIR (a `grains run --export-qp` directory with its factored form, Dt.mtx
and mobility.mtx, three unknowns per contact), from gamma = 0: APGD in
apgd's diagonal metric (qp_face_conditioning.py's method, grains' apgd
counts) to the natural residual T at every contact, gamma*; then the same
method stopped at the shares F of those iterations, gamma_k. For each k it
prints

* the contacts that still miss T and the largest residual;
* the largest change of a contact's impulse still to come, |gamma* -
  gamma_k| over its rows, next to that contact's normal impulse;
* what that change does to the motion: the bodies' velocity change
  du = M^-1 D (gamma* - gamma_k) (the largest linear and angular one) and
  the largest also in units of T / scale (A = scale D^T W D + reg I, so the
  residual is scale times a velocity); and dgamma.A.dgamma, from A and from
  the bodies (scale du.M.du + reg |dgamma|^2), as a check of the factored
  form;
* the contacts that miss T at the first share, with their bodies' other
  contacts: how many exact self-stresses (eigenvalues of S A S below 1e-9
  on that block, S apgd's metric) the block holds, impulses that change no
  velocity at all.
"""
import argparse
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

from qp_face_conditioning import apgd_in_metric, diagonal_metric, read_friction_qp, residual_rows

SELF_STRESS = 1e-9  # eigenvalue of S A S below which a direction moves no body


def read_factored(path):
    """D^T (unknowns x 6 bodies), the per-body mobility rows (1/m, inverse
    inertia) and problem.yaml's scale and regularisation."""
    numbers = {}
    try:
        with open(f"{path}/problem.yaml") as problem:
            for line in problem:
                key, _, value = line.partition(":")
                if key in ("scale", "regularisation"):
                    numbers[key] = float(value)
    except (OSError, ValueError) as error:
        sys.exit(f"qp_late_change.py: {path}/problem.yaml: {error}")
    if len(numbers) != 2:
        sys.exit(f"qp_late_change.py: {path}/problem.yaml: expected keys scale and regularisation")
    try:
        Dt = sp.csr_matrix(scipy.io.mmread(f"{path}/Dt.mtx"))
        mobility = np.asarray(scipy.io.mmread(f"{path}/mobility.mtx"), dtype=float)
    except OSError as error:
        sys.exit(f"qp_late_change.py: {path}: needs the factored form (Dt.mtx, mobility.mtx): {error}")
    if mobility.ndim != 2 or mobility.shape[1] != 10:
        sys.exit(f"qp_late_change.py: {path}/mobility.mtx: expected 10 columns (1/m and a 3x3 inverse "
                 f"inertia per body), found shape {mobility.shape}")
    return Dt, mobility, numbers["scale"], numbers["regularisation"]


def velocity_change(Dt, mobility, dgamma):
    """Generalised impulse F = D dgamma per body (6) and du = M^-1 F."""
    force = (Dt.T @ dgamma).reshape(-1, 6)
    bodies = min(force.shape[0], mobility.shape[0])
    force = force[:bodies]
    linear = mobility[:bodies, :1] * force[:, :3]
    angular = np.einsum("bij,bj->bi", mobility[:bodies, 1:].reshape(-1, 3, 3), force[:, 3:])
    return force, linear, angular


def self_stresses(A, mu, contacts):
    """Exact self-stresses of the block of A on the given contacts, in apgd's metric."""
    rows = (3 * contacts[:, None] + np.arange(3)).ravel()
    block = A[rows][:, rows].tocsr()
    s, _ = diagonal_metric(block, mu[contacts])
    eigenvalues = np.linalg.eigvalsh(s[:, None] * block.toarray() * s[None, :])
    return int((eigenvalues < SELF_STRESS).sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tolerance", type=float, default=1e-6)
    parser.add_argument("--at", default="0.333,0.5,0.667",
                        help="shares of the iterations at which to stop (0 < F <= 1)")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    try:
        shares = [float(f) for f in args.at.split(",")]
    except ValueError:
        sys.exit(f"qp_late_change.py: --at {args.at}: expected shares such as 0.333,0.5")
    if not all(0 < f <= 1 for f in shares):
        sys.exit(f"qp_late_change.py: --at {args.at}: every share must lie in (0, 1]")
    for path in args.dirs:
        A, b, mu = read_friction_qp(path, "qp_late_change.py")
        Dt, mobility, scale, regularisation = read_factored(path)
        if Dt.shape[0] != b.size:
            sys.exit(f"qp_late_change.py: {path}/Dt.mtx: {Dt.shape[0]} rows, A has {b.size}")
        final, A_final, iterations = apgd_in_metric(A, b, mu, absolute_tolerance=args.tolerance,
                                                    check_every=3)
        worst = residual_rows(final, A_final + b, mu).max()
        if worst > args.tolerance:
            sys.exit(f"qp_late_change.py: {path}: APGD stopped at {worst:.3e} > {args.tolerance:g}")
        print(f"{path}: {mu.size} contacts, tolerance {args.tolerance:g} met after {iterations} "
              f"iterations, gamma*.A.gamma* {final @ A_final:.4g}")
        stragglers = None
        for share in shares:
            stop = max(3, int(round(share * iterations / 3)) * 3)
            x, Ax, _ = apgd_in_metric(A, b, mu, absolute_tolerance=args.tolerance, check_every=3,
                                      max_iterations=stop)
            residual = residual_rows(x, Ax + b, mu).max(axis=1)
            missing = np.where(residual > args.tolerance)[0]
            if stragglers is None:
                stragglers = missing
            change = final - x
            per_contact = np.abs(change).reshape(-1, 3).max(axis=1)
            largest = int(per_contact.argmax())
            force, linear, angular = velocity_change(Dt, mobility, change)
            from_bodies = scale * float(force[:, :3].ravel() @ linear.ravel()
                                        + force[:, 3:].ravel() @ angular.ravel()) + regularisation * change @ change
            speed = np.linalg.norm(linear, axis=1).max()
            print(f"  after {stop}: {missing.size} contacts miss (largest residual {residual.max():.2e}); "
                  f"largest change to come {per_contact[largest]:.4g} at contact {largest} "
                  f"(normal impulse {final[3 * largest]:.4g}); velocity change up to "
                  f"{speed:.2e} m/s ({speed * scale / args.tolerance:.3g} T/scale) and "
                  f"{np.linalg.norm(angular, axis=1).max():.2e} rad/s; dgamma.A.dgamma "
                  f"{change @ (A @ change):.4e}, from the bodies {from_bodies:.4e}")
        if stragglers is not None and 0 < stragglers.size <= 200:
            bodies = np.unique(Dt[(3 * stragglers[:, None] + np.arange(3)).ravel()].indices // 6)
            columns = (6 * bodies[:, None] + np.arange(6)).ravel()
            touching = np.unique(Dt.tocsc()[:, columns].nonzero()[0] // 3)
            print(f"  contacts missing after the first stop: {stragglers.tolist()[:12]}; with their "
                  f"{bodies.size} bodies' {touching.size} contacts the block of A holds "
                  f"{self_stresses(A, mu, touching)} exact self-stresses")


if __name__ == "__main__":
    sys.exit(main())
