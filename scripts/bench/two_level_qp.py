#!/usr/bin/python3
"""A two-level (aggregation coarse-space) correction inside accelerated
projected gradient, on the normal problems of exported contact QPs, against
the same method without it (docs/solvers.md, "Friction on piles").

Usage:
  two_level_qp.py --grains BUILD/grains [--tolerances 1e-4,1e-6]
                  [--every 5,20,50] [--sizes 8,27] [--max-iterations N]
                  LABEL=NORMAL_DIR ...

NORMAL_DIR is a frictionless problem with one row per contact, as
scripts/bench/qp_variant.py normal-only writes it. Both methods run in apgd's
diagonal metric (y = S^-1 gamma, H = S A S with unit diagonal, c = S b),
from gamma = 0, with the step 1/L (L: 10 power iterations, 1.05 margin),
Nesterov's extrapolation and the gradient restart of apgd (without its
backtracking), and stop on grains' natural residual
|gamma - max(0, gamma - (A gamma + b))|_inf.

The two-level method adds, every `every` iterations, a coarse correction:
the free unknowns (y > 0) are aggregated greedily (breadth first over H's
graph, at most `size` per aggregate); P is their piecewise-constant
prolongation, optionally smoothed once, P <- (I - 0.66 H) P on the free
rows (the damped Jacobi smoother of smoothed aggregation); the coarse
problem (P^T H P) e = -P^T (H y + c) is solved exactly; y moves to
max(0, y + t P e), t halved from 1 until the objective decreases (at most 6
trials), and the extrapolated point moves with it. Applications of A
counted: 10 for L, one per iteration, one per trial of the coarse step, and
one each for H P and the smoothing (block products, counted as single
applications: a lower bound on their cost).

For every QP and tolerance it prints a markdown row: apgd's applications of
A (`grains qp solve`, one rank), the method without the correction, and
with it for every interval and aggregate size, plain and smoothed
(applications, iterations in brackets).
"""
import os
import re
import sys
from collections import deque

import numpy as np
import scipy.io
import scipy.linalg as la
import scipy.sparse as sp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mprgp_table import print_header, print_row, qp_spec, qp_table_parser  # noqa: E402
from mprgp_table import solve as grains_solve  # noqa: E402
from qp_face_conditioning import lipschitz_bound  # noqa: E402

SMOOTHING_WEIGHT = 0.66
LINE_SEARCH_TRIALS = 6


def read_normal_qp(path):
    """A (CSR) and b of a frictionless QP with one row per contact."""
    with open(os.path.join(path, "problem.yaml")) as f:
        block = re.search(r"^block_size: (\d+)$", f.read(), flags=re.M)
    if not block or block.group(1) != "1":
        sys.exit(f"two_level_qp.py: {path}: expected block_size 1 "
                 "(scripts/bench/qp_variant.py SRC DST normal-only)")
    A = sp.csr_matrix(scipy.io.mmread(os.path.join(path, "A.mtx")))
    b = np.asarray(scipy.io.mmread(os.path.join(path, "b.mtx"))).ravel()
    return A, b


def aggregates(H, free, size):
    """Per unknown its aggregate (-1 if not free), and the number of
    aggregates: breadth first over H's graph among the free unknowns, in
    index order, at most `size` unknowns each."""
    owner = np.full(H.shape[0], -1)
    count = 0
    for seed in np.flatnonzero(free):
        if owner[seed] >= 0:
            continue
        owner[seed] = count
        members, queue = 1, deque([seed])
        while queue and members < size:
            row = queue.popleft()
            for j in H.indices[H.indptr[row]:H.indptr[row + 1]]:
                if free[j] and owner[j] < 0:
                    owner[j] = count
                    members += 1
                    queue.append(j)
                    if members == size:
                        break
        count += 1
    return owner, count


class Operator:
    """H = S A S and the applications of A made with it."""

    def __init__(self, H):
        self.H, self.applies = H, 0

    def __call__(self, v):
        self.applies += 1
        return self.H @ v

    def block(self, P):
        """H P, counted as one application of A."""
        self.applies += 1
        return self.H @ P


def accelerated(path, tolerance, max_iterations, every=0, size=8, smooth=False):
    """(applications of A to reach the tolerance or None, iterations,
    objective 1/2 gamma^T A gamma + b^T gamma of the last iterate)."""
    A, b = read_normal_qp(path)
    s = 1 / np.sqrt(A.diagonal())
    product = Operator((sp.diags(s) @ A @ sp.diags(s)).tocsr())
    c = s * b
    L = lipschitz_bound(product, b.size)

    def objective(y, Hy):
        return 0.5 * y @ Hy + c @ y

    def residual(y, Hy):
        gamma, gradient = s * y, (Hy + c) / s
        return np.abs(gamma - np.maximum(0, gamma - gradient)).max()

    x, Hx = np.zeros(b.size), np.zeros(b.size)  # H 0 needs no product
    y, Hy = x.copy(), Hx.copy()
    theta = 1.0
    iterations = 0
    while residual(x, Hx) > tolerance:
        if iterations == max_iterations:
            return None, iterations, objective(x, Hx)
        iterations += 1
        x_new = np.maximum(0, y - (Hy + c) / L)
        Hx_new = product(x_new)
        if (Hy + c) @ (x_new - x) > 0:  # apgd's gradient restart
            theta = 1.0
            y, Hy = x_new.copy(), Hx_new.copy()
        else:
            theta_next = 0.5 * (-theta * theta + theta * np.sqrt(theta * theta + 4))
            beta = theta * (1 - theta) / (theta * theta + theta_next)
            y, Hy = x_new + beta * (x_new - x), Hx_new + beta * (Hx_new - Hx)
            theta = theta_next
        x, Hx = x_new, Hx_new
        if every and iterations % every == 0:
            x_moved, Hx_moved = coarse_step(product, c, x, Hx, size, smooth, objective)
            y, Hy = y + (x_moved - x), Hy + (Hx_moved - Hx)
            x, Hx = x_moved, Hx_moved
    return product.applies, iterations, objective(x, Hx)


def coarse_step(product, c, x, Hx, size, smooth, objective):
    free = x > 0
    owner, count = aggregates(product.H, free, size)
    if count == 0:
        return x, Hx
    rows = np.flatnonzero(owner >= 0)
    P = sp.csr_matrix((np.ones(rows.size), (rows, owner[rows])), shape=(x.size, count))
    if smooth:
        P = (P - SMOOTHING_WEIGHT * sp.diags(free.astype(float)) @ product.block(P)).tocsr()
    HP = product.block(P)
    coarse = (P.T @ HP).toarray()
    shift = 1e-12 * np.trace(coarse) / count * np.eye(count)  # self-stresses: singular
    e = la.lstsq(coarse + shift, -(P.T @ (Hx + c)), cond=1e-10)[0]
    direction = P @ e
    reference = objective(x, Hx)
    t = 1.0
    for _ in range(LINE_SEARCH_TRIALS):
        trial = np.maximum(0, x + t * direction)
        H_trial = product(trial)
        if objective(trial, H_trial) < reference:
            return trial, H_trial
        t *= 0.5
    return x, Hx


def main():
    parser = qp_table_parser(__doc__)
    parser.add_argument("--every", default="5,20,50")
    parser.add_argument("--sizes", default="8,27")
    args = parser.parse_args()
    tolerances = [float(t) for t in args.tolerances.split(",")]
    variants = [(int(e), int(z), smooth) for e in args.every.split(",")
                for z in args.sizes.split(",") for smooth in (False, True)]

    columns = ["QP", "tolerance", "`apgd` (grains)", "accelerated PG, one level"]
    columns += [f"two-level every {e}, size {z}{', smoothed' if sm else ''}"
                for e, z, sm in variants]
    print_header(columns)
    for spec in args.qps:
        label, path, _ = qp_spec(spec)
        for tol in tolerances:
            reference = grains_solve(args.grains, path, "apgd", tol, args.max_iterations, False)
            runs = [accelerated(path, tol, args.max_iterations)]
            runs += [accelerated(path, tol, args.max_iterations, e, z, sm) for e, z, sm in variants]
            row = [label, f"{tol:g}", f"{reference['applies']:,} ({reference['iterations']:,})"]
            row += [f"{n:,} ({k:,})" if n is not None else f"(cap, {k:,})" for n, k, _ in runs]
            print_row(row)


if __name__ == "__main__":
    main()
