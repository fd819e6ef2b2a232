#!/usr/bin/python3
"""Conditioning of a stored friction QP on the face of K that holds its solution.

    qp_face_conditioning.py DIR      (a `grains run --export-qp` directory,
                                      Coulomb or its zero-friction variant)

Solves the QP with APGD in the diagonal metric of apgd (docs/solvers.md) to a
natural residual of 1e-10 relative to the largest normal impulse, classifies
the contacts (separating: gamma_n = 0; sticking: inside the cone; sliding: on
its surface), and prints the eigenvalues that bound projected and Krylov
methods near the solution: those of Z^T (S A S) Z with Z the free directions
(per sticking contact its three unknowns, per sliding contact the cone's ray
and the rotation of the slip direction, scaled to unit length in the metric),
with and without the cone's curvature |g_t| / |gamma_t| on the rotation
directions. docs/solvers.md ("Friction on piles") quotes its output.
"""
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp


def project(x, mu):
    """Euclidean projection of (n, u, w) triples onto the cones |t| <= mu n."""
    x = x.reshape(-1, 3).copy()
    n, t = x[:, 0], np.hypot(x[:, 1], x[:, 2])
    inside = (t <= mu * n) & (n >= 0)  # n >= 0 matters at mu = 0, where t = 0 passes
    polar = (mu * t <= -n) & ~inside
    onto = ~inside & ~polar
    n_new = (n + mu * t) / (1 + mu * mu)
    with np.errstate(over="ignore"):  # contacts inside the cone: factor unused
        factor = np.divide(mu * n_new, t, out=np.zeros_like(t), where=t > 0)
    x[polar] = 0
    x[onto, 0] = n_new[onto]
    x[onto, 1] *= factor[onto]
    x[onto, 2] *= factor[onto]
    return x.ravel()


def rows_of(contacts):
    """The rows (unknowns) of the given contacts, three each."""
    return (3 * contacts[:, None] + np.arange(3)).ravel()


def residual_rows(gamma, gradient, mu):
    """|gamma - Pi_K(gamma - gradient)| per contact (one row of three),
    gradient = A gamma + b."""
    return np.abs(gamma - project(gamma - gradient, mu)).reshape(-1, 3)


def contact_residuals(gamma, gradient, mu):
    """Each contact's share of the natural residual: max over its three rows
    of |gamma - Pi_K(gamma - gradient)|, gradient = A gamma + b."""
    return residual_rows(gamma, gradient, mu).max(axis=1)


def natural_residual(gamma, gradient, mu):
    """grains' stopping measure |gamma - Pi_K(gamma - gradient)|_inf, gradient
    = A gamma + b, K the cones |t| <= mu n."""
    return contact_residuals(gamma, gradient, mu).max()


POWER_ITERATIONS = 10


def lipschitz_bound(apply, size):
    """1.05 times the largest eigenvalue of the operator `apply`, estimated by
    POWER_ITERATIONS power iterations from the ones vector (the callers count
    those applications)."""
    v = np.ones(size)
    for _ in range(POWER_ITERATIONS):
        w = apply(v)
        largest = np.linalg.norm(w) / np.linalg.norm(v)
        v = w / np.linalg.norm(w)
    return 1.05 * largest


def dense(path):
    """A dense (array) .mtx file of an export as a flat vector."""
    return np.asarray(scipy.io.mmread(path)).ravel()


def read_friction_qp(path, who):
    """A (CSR), b and the friction coefficients of an exported QP with three
    unknowns per contact (Coulomb or its zero-friction variant); exits naming
    `who` otherwise."""
    A = sp.csr_matrix(scipy.io.mmread(path + "/A.mtx"))
    b = dense(path + "/b.mtx")
    mu = np.asarray(scipy.io.mmread(path + "/cones.mtx"))[:, 0]
    if b.size != 3 * mu.size:
        sys.exit(f"{who}: expected three unknowns per contact")
    return A, b, mu


def diagonal_metric(A, mu, tangential_factor=1.0):
    """apgd's metric: per unknown s = diag(A)^-1/2 (normal row alone,
    tangential rows averaged), and the cones' coefficients in it. A
    tangential_factor c other than 1 multiplies the tangential scales by c
    (c^2 times the tangential step), to try other splits of the same diagonal."""
    diag = A.diagonal().reshape(-1, 3)
    s_n = 1 / np.sqrt(diag[:, 0])
    s_t = tangential_factor / np.sqrt(0.5 * (diag[:, 1] + diag[:, 2]))
    return np.stack([s_n, s_t, s_t], 1).ravel(), mu * s_n / s_t


def apgd_in_metric(A, b, mu, relative_tolerance=1e-10, max_iterations=1000000,
                   tangential_factor=1.0, absolute_tolerance=None, check_every=10,
                   start=None, stop=None):
    """APGD (Mazhar et al. 2015) in apgd's diagonal metric from gamma = 0 (or
    from start = (gamma, A gamma)), as grains runs it: stops once the natural
    residual, checked every check_every-th iteration, is at most
    relative_tolerance times max(1, largest impulse) (or at most
    absolute_tolerance, grains' own stop, when given; or once stop(gamma, A
    gamma) holds, when given), or after max_iterations. tangential_factor:
    diagonal_metric's. Returns gamma, A gamma and the iterations."""
    n = b.size
    s, mu_scaled = diagonal_metric(A, mu, tangential_factor)

    def step(v):  # S Pi_{S^-1 K}(S^-1 v)
        return s * project(v / s, mu_scaled)

    def converged(x, gradient):
        target = (absolute_tolerance if absolute_tolerance is not None
                  else relative_tolerance * max(1.0, np.abs(x).max()))
        return natural_residual(x, gradient, mu) <= target

    if start is None:
        x = np.zeros(n)
        Ax = A @ x  # counted, as grains' apgd applies A to its start
    else:
        x, Ax = start
    away = x - 1.0  # L_0 = |A (x_0 - 1)| / |x_0 - 1|, in the metric
    L = np.linalg.norm(s * (A @ away)) / np.linalg.norm(away / s)
    theta, y, Ay = 1.0, x.copy(), Ax.copy()
    xn, Axn = x, Ax  # what max_iterations = 0 returns
    for iteration in range(1, max_iterations + 1):
        while True:
            xn = step(y - (s * s) * (Ay + b) / L)
            Axn = A @ xn
            d = xn - y
            if d @ (Axn - Ay) <= L * np.sum((d / s) ** 2):
                break
            L *= 2
        if iteration % check_every == 0 and (stop(xn, Axn) if stop else converged(xn, Axn + b)):
            return xn, Axn, iteration
        theta_next = 0.5 * (-theta * theta + theta * np.sqrt(theta * theta + 4))
        beta = theta * (1 - theta) / (theta * theta + theta_next)
        if (Ay + b) @ (xn - x) > 0:
            y, Ay, theta = xn.copy(), Axn.copy(), 1.0
        else:
            y, Ay, theta = xn + beta * (xn - x), Axn + beta * (Axn - Ax), theta_next
        x, Ax = xn, Axn
        L *= 0.9
    return xn, Axn, max_iterations


SEPARATING, STICKING, SLIDING = 0, 1, 2
KIND_NAMES = ("separating", "sticking", "sliding")


def contact_kinds(gamma, mu):
    """Per contact of a solution: SEPARATING (gamma_n = 0 to 1e-7 of the
    largest normal impulse), STICKING (strictly inside its cone, or mu = 0)
    or SLIDING (on the cone's surface)."""
    g = gamma.reshape(-1, 3)
    t = np.hypot(g[:, 1], g[:, 2])
    separating = g[:, 0] <= 1e-7 * np.abs(g[:, 0]).max()
    sticking = (mu == 0) | (t < mu * g[:, 0] * (1 - 1e-6))
    return np.where(separating, SEPARATING, np.where(sticking, STICKING, SLIDING))


def main(path):
    A, b, mu = read_friction_qp(path, "qp_face_conditioning.py")
    contacts, n = mu.size, b.size
    s, _ = diagonal_metric(A, mu)
    x, Ax, iteration = apgd_in_metric(A, b, mu)

    g = x.reshape(-1, 3)
    gradient = (Ax + b).reshape(-1, 3)
    kind = contact_kinds(x, mu)
    kinds = {name: int((kind == k).sum()) for k, name in enumerate(KIND_NAMES)}
    rows, cols, vals, curvature = [], [], [], []
    free = 0
    for c in range(contacts):
        n_c, u_c, w_c = g[c]
        t = np.hypot(u_c, w_c)
        if kind[c] == SEPARATING:
            continue
        if kind[c] == STICKING:
            for k in range(3 if mu[c] > 0 else 1):
                rows.append(3 * c + k), cols.append(free), vals.append(1.0)
                free += 1
        else:
            tu, tw = u_c / t, w_c / t
            ray = np.array([1.0, mu[c] * tu, mu[c] * tw]) / np.sqrt(1 + mu[c] ** 2)
            for k in range(3):
                rows.append(3 * c + k), cols.append(free), vals.append(ray[k])
            free += 1
            rows += [3 * c + 1, 3 * c + 2]
            cols += [free, free]
            vals += [-tw, tu]
            slip = abs(gradient[c, 1] * tu + gradient[c, 2] * tw)
            curvature.append((free, slip / t * s[3 * c + 1] ** 2))  # per unit length in the metric
            free += 1
    Z = sp.diags(1 / s) @ sp.csr_matrix((vals, (rows, cols)), shape=(n, free))
    Z = Z @ sp.diags(1 / np.sqrt(np.asarray(Z.multiply(Z).sum(0)).ravel()))
    S = sp.diags(s)
    H = (Z.T @ (S @ A @ S) @ Z).toarray()
    bare = np.linalg.eigvalsh(H)
    for column, value in curvature:
        H[column, column] += value
    curved = np.linalg.eigvalsh(H)
    print(f"{path}: {contacts} contacts, {kinds}, {free} free directions, "
          f"{iteration} APGD iterations")
    print(f"  largest eigenvalue of S A S on the face: {bare[-1]:.3g}")
    print(f"  smallest eigenvalue without the cone's curvature: {bare[0]:.3g}")
    print(f"  smallest eigenvalue with it: {curved[0]:.3g}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
