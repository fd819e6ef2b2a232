#!/usr/bin/python3
"""What leaving a QP's unloaded contacts out of the solve would save.

    qp_working_set.py [--tolerance T] [--margins M1,M2,...] DIR [DIR ...]

DIR is a `grains run --export-qp` directory with three unknowns per contact
(Coulomb or its zero-friction variant) and the run's warm start. The script
runs apgd's method (in Python, apgd_in_metric of qp_face_conditioning.py)
from the warm start to grains' stop (natural residual <= T at every contact)
and counts the contacts that carry no impulse at any of its iterates. Then,
for each margin M, it solves a working set instead: every contact but those
with no warm-start impulse whose velocity g = A gamma + b already lies in the
dual cone with slack, g_n - mu |g_t| > M; then it checks every contact left
out against T with one product of the whole A, adds the ones that miss, and
solves again from there until none misses. Its cost is counted in
applications of the whole A: each product with the working set's A weighted
by its share of the contacts, plus the checks. docs/performance.md ("grains
against LIGGGHTS", the envelope paragraph) quotes its output.
"""
import argparse

import numpy as np

from qp_face_conditioning import (apgd_in_metric, contact_residuals, dense, project,
                                  read_friction_qp, rows_of)


def loaded(gamma):
    """Per contact: does it carry any impulse?"""
    return np.abs(gamma.reshape(-1, 3)).max(axis=1) > 0


def left_out_slack(A, b, mu, warm):
    """Per contact, its margin for being left out: the slack g_n - mu |g_t|
    of its velocity g = A warm + b in the dual cone, or -inf where the warm
    start loads it. A margin M leaves out the contacts whose slack exceeds M."""
    g = (A @ warm + b).reshape(-1, 3)
    slack = g[:, 0] - mu * np.hypot(g[:, 1], g[:, 2])
    return np.where(loaded(warm), -np.inf, slack)


def full_solve(A, b, mu, warm, tolerance):
    """apgd from the warm start; returns its iterations and, per contact,
    whether any iterate loaded it."""
    ever = loaded(warm)
    seen = [0]

    def stop(x, Ax):  # sees every iterate, tests the stop at every third, as apgd
        ever[:] |= loaded(x)
        seen[0] += 1
        return seen[0] % 3 == 0 and contact_residuals(x, Ax + b, mu).max() <= tolerance

    _, _, iterations = apgd_in_metric(A, b, mu, start=(warm, A @ warm), check_every=1, stop=stop)
    return iterations, ever


def working_set_solve(A, b, mu, warm, tolerance, left_out):
    """Solve on the contacts not in left_out, check the others, add those
    that miss, repeat. Returns (gamma, weighted applications, rounds,
    contacts left out at the end)."""
    keep = ~left_out
    gamma = warm.copy()
    cost, rounds = 0.0, 0
    while True:
        rounds += 1
        rows = rows_of(np.flatnonzero(keep))
        A_kept = A[rows][:, rows]
        start = gamma[rows]
        x, _, iterations = apgd_in_metric(A_kept, b[rows], mu[keep],
                                          start=(start, A_kept @ start),
                                          absolute_tolerance=tolerance, check_every=3)
        # apgd's count: one product per iteration, the start's and L_0's
        # (backtracking trials left out, as for the whole solve below).
        cost += (iterations + 2) * keep.mean()
        gamma = np.zeros_like(gamma)
        gamma[rows] = x
        residuals = contact_residuals(gamma, A @ gamma + b, mu)
        cost += 1.0
        missed = (residuals > tolerance) & ~keep
        if not missed.any():
            return gamma, cost, rounds, int(np.sum(~keep))
        keep |= missed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--margins", default="0,1e-4,3e-4,1e-3,3e-3")
    args = parser.parse_args()
    margins = [float(m) for m in args.margins.split(",")]
    print("| QP | contacts | apgd iterations | never loaded | margin | left out | of them loaded "
          "in the whole solve | rounds | working set, applications | whole, applications |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.dirs:
        A, b, mu = read_friction_qp(path, "qp_working_set.py")
        warm = project(dense(path + "/warm_start.mtx"), mu)
        iterations, ever = full_solve(A, b, mu, warm, args.tolerance)
        slack = left_out_slack(A, b, mu, warm)
        for margin in margins:
            left_out = slack > margin
            _, cost, rounds, at_end = working_set_solve(A, b, mu, warm, args.tolerance, left_out)
            print(f"| {path} | {mu.size} | {iterations} | {np.mean(~ever):.1%} | {margin:g} | "
                  f"{at_end / mu.size:.1%} | {np.sum(ever & left_out)} | {rounds} | {cost:.0f} | "
                  f"{iterations + 2} |")


if __name__ == "__main__":
    main()
