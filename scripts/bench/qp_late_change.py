#!/usr/bin/python3
"""What the late iterations of a friction solve still change (docs/solvers.md,
"Friction on piles").

    qp_late_change.py [--tolerance T] [--at F,F,...] [--null-step-at N,...] DIR...

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
  velocity at all (blocks of up to 2000 contacts, decomposed densely).

With --null-step-at N it also tries a step along those self-stresses: the
method stopped after N iterations, gamma moved along each exact
self-stress of the block on the missing contacts' bodies' contacts,
downhill (the objective is linear along it) to where the first cone binds,
and the method resumed from there to T (skipped where the block exceeds
2000 contacts); it prints the iterations in all
next to the plain method's, and both objectives.
"""
import argparse
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

from qp_face_conditioning import (apgd_in_metric, contact_residuals, diagonal_metric, natural_residual,
                                  read_friction_qp, rows_of)

SELF_STRESS = 1e-9  # eigenvalue of S A S below which a direction moves no body
LARGEST_BLOCK = 2000  # contacts: the blocks are decomposed densely


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


def self_stress_basis(A, mu, contacts):
    """The exact self-stresses of the block of A on the given contacts (its
    eigenvectors in apgd's metric with eigenvalues below SELF_STRESS, mapped
    back to impulses), one per column."""
    rows = rows_of(contacts)
    block = A[rows][:, rows].tocsr()
    s, _ = diagonal_metric(block, mu[contacts])
    eigenvalues, vectors = np.linalg.eigh(s[:, None] * block.toarray() * s[None, :])
    return s[:, None] * vectors[:, eigenvalues < SELF_STRESS]


def self_stresses(A, mu, contacts):
    """How many exact self-stresses the block of A on the given contacts holds."""
    return self_stress_basis(A, mu, contacts).shape[1]


def neighbourhood(Dt, contacts):
    """The contacts of the bodies the given contacts touch."""
    bodies = np.unique(Dt[rows_of(contacts)].indices // 6)
    columns = (6 * bodies[:, None] + np.arange(6)).ravel()
    return bodies, np.unique(Dt.tocsc()[:, columns].nonzero()[0] // 3)


def inside_cones(gamma, mu):
    g = gamma.reshape(-1, 3)
    slack = 1e-12 * np.abs(g[:, 0]) + 1e-14
    return bool(np.all(g[:, 0] >= -slack) and np.all(np.hypot(g[:, 1], g[:, 2]) <= mu * g[:, 0] + slack))


def null_step(A, b, mu, gamma, A_gamma, contacts):
    """Moves gamma along each exact self-stress v of the block on `contacts`
    downhill (against the sign of (A gamma + b).v, along which the objective
    is linear) to where the first cone binds (bisection, 60 halvings).
    Returns the new gamma, A gamma and the lengths moved. Directions whose
    product with the whole of A is not zero are skipped."""
    rows = rows_of(contacts)
    gamma = gamma.copy()
    moved = []
    if not inside_cones(gamma[rows], mu[contacts]):  # every step below keeps gamma inside
        return gamma, A_gamma, moved
    for v in self_stress_basis(A, mu, contacts).T:
        full = np.zeros_like(gamma)
        full[rows] = v
        if np.abs(A @ full).max() > SELF_STRESS * np.abs(A.diagonal()).max():
            continue
        direction = -np.sign((A_gamma + b) @ full) * v
        low, high = 0.0, 1.0
        while inside_cones(gamma[rows] + high * direction, mu[contacts]) and high < 1e12:
            low, high = high, 2 * high
        for _ in range(60):
            middle = 0.5 * (low + high)
            if inside_cones(gamma[rows] + middle * direction, mu[contacts]):
                low = middle
            else:
                high = middle
        gamma[rows] += low * direction
        moved.append(low)
    return gamma, A @ gamma, moved


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tolerance", type=float, default=1e-6)
    parser.add_argument("--at", default="0.333,0.5,0.667",
                        help="shares of the iterations at which to stop (0 < F <= 1)")
    parser.add_argument("--null-step-at", default="",
                        help="iterations after which to try the self-stress step (comma-separated)")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    try:
        null_steps = [int(n) for n in args.null_step_at.split(",") if n]
    except ValueError:
        sys.exit(f"qp_late_change.py: --null-step-at {args.null_step_at}: expected iteration counts such as 600,1200")
    if not all(n > 0 for n in null_steps):
        sys.exit(f"qp_late_change.py: --null-step-at {args.null_step_at}: every count must be positive")
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
        worst = natural_residual(final, A_final + b, mu)
        if worst > args.tolerance:
            sys.exit(f"qp_late_change.py: {path}: APGD stopped at {worst:.3e} > {args.tolerance:g}")
        print(f"{path}: {mu.size} contacts, tolerance {args.tolerance:g} met after {iterations} "
              f"iterations, gamma*.A.gamma* {final @ A_final:.4g}")
        stragglers = None
        for share in shares:
            stop = max(3, int(round(share * iterations / 3)) * 3)
            x, Ax, _ = apgd_in_metric(A, b, mu, absolute_tolerance=args.tolerance, check_every=3,
                                      max_iterations=stop)
            residual = contact_residuals(x, Ax + b, mu)
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
        bodies, touching = neighbourhood(Dt, stragglers) if stragglers is not None else (None, None)
        if stragglers is not None and 0 < stragglers.size and touching.size <= LARGEST_BLOCK:
            print(f"  contacts missing after the first stop: {stragglers.tolist()[:12]}; with their "
                  f"{bodies.size} bodies' {touching.size} contacts the block of A holds "
                  f"{self_stresses(A, mu, touching)} exact self-stresses")
        for stop in null_steps:
            # `stop` becomes the iterations actually run: the method may converge before it.
            x, Ax, stop = apgd_in_metric(A, b, mu, absolute_tolerance=args.tolerance, check_every=3,
                                         max_iterations=stop)
            missing = np.where(contact_residuals(x, Ax + b, mu) > args.tolerance)[0]
            moved = []
            if missing.size:
                _, touching = neighbourhood(Dt, missing)
                if touching.size > LARGEST_BLOCK:
                    print(f"  null step after {stop}: {missing.size} contacts missing, whose bodies' "
                          f"{touching.size} contacts make a block too large to decompose (> {LARGEST_BLOCK})")
                    continue
                x, Ax, moved = null_step(A, b, mu, x, Ax, touching)
            after = int((contact_residuals(x, Ax + b, mu) > args.tolerance).sum())
            more = 0
            if after:  # the method does not check its start
                x, Ax, more = apgd_in_metric(A, b, mu, absolute_tolerance=args.tolerance, check_every=3,
                                             start=(x, Ax))
            met = "met" if natural_residual(x, Ax + b, mu) <= args.tolerance else "NOT met"
            print(f"  null step after {stop}: {missing.size} contacts missing, {len(moved)} self-stresses "
                  f"moved, {after} missing after the step; then {more} iterations, {stop + more} in all "
                  f"({met}; plain {iterations}); objective {0.5 * x @ Ax + b @ x:.12g}, plain "
                  f"{0.5 * final @ A_final + b @ final:.12g}")


if __name__ == "__main__":
    sys.exit(main())
