#!/usr/bin/python3
"""Whether the error APGD leaves on a frictional QP is smooth, the premise
of a multilevel (coarse-space) correction (docs/solvers.md, "Friction on
piles").

    qp_coarse_capture.py DIR ITERATIONS[,ITERATIONS...] [--sizes 8,27,64]

DIR is a `grains run --export-qp` directory with three unknowns per contact.
Solves the QP with APGD in apgd's diagonal metric to a relative natural
residual of 1e-10 (the reference gamma*), then runs the same method from
gamma = 0 for ITERATIONS iterations and measures how much of its error
e = gamma - gamma* a coarse space P of smooth impulse fields holds. The
bodies are aggregated breadth first along the contact graph (at most SIZE
per cluster); each contact that carries load at the reference belongs to the
cluster of its first body, and a cluster's coarse unknowns set the world
vector of every such contact's impulse (seen in the contact's frame, rows
of D^T):
* force: one world vector f per cluster (3 unknowns), impulse f;
* stress: one symmetric tensor s per cluster (6 unknowns), impulse s n,
  n the contact normal (a piecewise-constant stress field);
* both.
For each it prints the share of the error's energy |e|_A^2 = e.A e that the
best coarse correction removes (the Galerkin correction
P (P^T A P)^-1 P^T A e, what an exact coarse solve would do), the share of
|e|^2 that lies in the span of P, and the factor that Galerkin correction
leaves on |e|^2. A multilevel method pays where the slow error is smooth:
large shares here.
"""
import argparse
import sys

import numpy as np
import scipy.io
import scipy.linalg as la
import scipy.sparse as sp

from qp_face_conditioning import apgd_in_metric, natural_residual, read_friction_qp
from two_level_qp import aggregates

STRESS_COMPONENTS = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))


def contact_frames(Dt, contacts):
    """Per contact: its bodies (sorted gids) and its frame (rows n, t1, t2:
    local = frame @ world), read off D^T's linear block of the second body
    (the normal points from the first body to the second)."""
    bodies, frames = [], np.zeros((contacts, 3, 3))
    for c in range(contacts):
        gids = sorted(set(Dt[3 * c].indices // 6))
        bodies.append(gids)
        for k in range(3):
            row = Dt[3 * c + k]
            for col, value in zip(row.indices, row.data):
                if col // 6 == gids[-1] and col % 6 < 3:
                    frames[c, k, col % 6] = value
    return bodies, frames


def clusters(bodies, size):
    """Breadth-first aggregation of the body graph (two_level_qp.py's, over
    the bodies that share a contact): a label per body gid, and their count."""
    count = max(max(g) for g in bodies) + 1
    pairs = np.array([g for g in bodies if len(g) == 2]).reshape(-1, 2)
    graph = sp.coo_matrix((np.ones(2 * len(pairs)),
                           (np.r_[pairs[:, 0], pairs[:, 1]], np.r_[pairs[:, 1], pairs[:, 0]])),
                          shape=(count, count)).tocsr()
    return aggregates(graph, np.ones(count, dtype=bool), size)


def prolongation(bodies, frames, label, loaded, kind):
    """P: coarse unknowns (9 per cluster: force, then stress) -> impulse rows;
    only the columns the kind uses and some contact touches are kept."""
    rows, cols, values = [], [], []
    for c in np.flatnonzero(loaded):
        cluster = label[bodies[c][0]]
        if kind in ("force", "both"):
            for j in range(3):
                for k in range(3):
                    rows.append(3 * c + k)
                    cols.append(9 * cluster + j)
                    values.append(frames[c, k, j])
        if kind in ("stress", "both"):
            normal = frames[c, 0]
            for m, (i, j) in enumerate(STRESS_COMPONENTS):
                world = np.zeros(3)
                world[i] += normal[j]
                if i != j:
                    world[j] += normal[i]
                local = frames[c] @ world
                for k in range(3):
                    rows.append(3 * c + k)
                    cols.append(9 * cluster + 3 + m)
                    values.append(local[k])
    P = sp.csc_matrix((values, (rows, cols)), shape=(3 * frames.shape[0], 9 * (label.max() + 1)))
    return P[:, np.flatnonzero(np.diff(P.indptr))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("iterations")
    parser.add_argument("--sizes", default="8,27,64")
    args = parser.parse_args()
    A, b, mu = read_friction_qp(args.dir, "qp_coarse_capture.py")
    Dt = sp.csr_matrix(scipy.io.mmread(args.dir + "/Dt.mtx"))
    reference, A_reference, reference_iterations = apgd_in_metric(A, b, mu, check_every=20)
    bodies, frames = contact_frames(Dt, mu.size)
    loaded = reference.reshape(-1, 3)[:, 0] > 0
    print(f"{args.dir}: {mu.size} contacts ({int(loaded.sum())} loaded at the reference, "
          f"{reference_iterations} iterations)")
    spaces = []
    for size in (int(s) for s in args.sizes.split(",")):
        label, n = clusters(bodies, size)
        for kind in ("force", "stress", "both"):
            spaces.append((size, n, kind, prolongation(bodies, frames, label, loaded, kind)))
    print("| iterations | natural residual | clusters of | coarse space | unknowns "
          "| share of e.A e removed | share of e.e in span P | e.e left by that correction |")
    print("|---|---|---|---|---|---|---|---|")
    for iterations in (int(k) for k in args.iterations.split(",")):
        x, Ax, _ = apgd_in_metric(A, b, mu, relative_tolerance=0.0, max_iterations=iterations)
        e, Ae = x - reference, Ax - A_reference
        energy, length = e @ Ae, e @ e
        residual = natural_residual(x, Ax + b, mu)
        for size, n, kind, P in spaces:
            H = (P.T @ (A @ P)).toarray()
            rhs = P.T @ Ae
            c = la.lstsq(H, rhs, cond=1e-12)[0]
            G = (P.T @ P).toarray()
            in_span = la.lstsq(G, P.T @ e, cond=1e-12)[0]
            left = e - P @ c
            print(f"| {iterations} | {residual:.2g} | {size} ({n} clusters) | {kind} | {P.shape[1]} "
                  f"| {rhs @ c / energy:.3f} | {(P.T @ e) @ in_span / length:.3f} "
                  f"| {left @ left / length:.3f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
