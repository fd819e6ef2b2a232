#!/usr/bin/python3
"""Where a time step's warm start misses its QP's solution, and what a better
start on which contacts would save.

    qp_warm_start.py [--tolerance T] DIR [DIR ...]

DIR is a `grains run --export-qp` directory of a time step (three unknowns
per contact, Coulomb or its zero-friction variant) with the run's warm start
(the previous step's impulses of the contacts that persist, zero for the
others) and its solution. The script solves the QP to a natural residual of
1e-8 from the run's solution (the reference gamma*), splits the contacts into
those the warm start carries (any impulse) and those it leaves at zero (new
contacts, and contacts the previous step left unloaded), and prints for each
part its count and the warm start's error |w - gamma*| over |gamma*|, and the
median over the carried contacts of each one's change |w_i - gamma*_i| over
the larger of |w_i| and |gamma*_i| (the contact's impulse, three rows, as one
vector: 0 unchanged, 1 vanished or new, 2 reversed). Then it
runs apgd's method (apgd_in_metric of qp_face_conditioning.py, grains' stop:
natural residual <= T at every contact, checked every third iteration) from
seven starts, each projected onto the cones:

    zero            gamma = 0
    warm            the run's warm start
    zero exact      the warm start, with the contacts it leaves at zero set
                    to gamma*
    carried exact   gamma* on the carried contacts, the warm start (zero) on
                    the others
    normals exact   the warm start, with the normal rows of the carried
                    contacts set to gamma*
    tangents exact  the same with their two tangential rows instead
    exact           gamma* everywhere (stops at its first check)

docs/performance.md ("Choosing the time step") quotes its output.
"""
import argparse

import numpy as np

from qp_face_conditioning import (apgd_in_metric, dense, natural_residual, project,
                                  read_friction_qp, rows_of)

REFERENCE_TOLERANCE = 1e-8
CHECK_EVERY = 3


def reference_solution(A, b, mu, start):
    """gamma* to a natural residual of REFERENCE_TOLERANCE, from `start`."""
    start = project(start, mu)
    gamma, _, _ = apgd_in_metric(A, b, mu, absolute_tolerance=REFERENCE_TOLERANCE,
                                 start=(start, A @ start), check_every=CHECK_EVERY)
    return gamma


def carried(warm):
    """Per contact: does the warm start give it any impulse?"""
    return np.abs(warm.reshape(-1, 3)).max(axis=1) > 0


def carried_rows(warm):
    """The rows of the carried contacts: all, normal, tangential."""
    rows = rows_of(np.flatnonzero(carried(warm)))
    return rows, rows[0::3], np.setdiff1d(rows, rows[0::3])


def with_reference_on(warm, reference, rows):
    """The warm start with `rows` taken from the reference."""
    start = warm.copy()
    start[rows] = reference[rows]
    return start


def starts(warm, reference):
    """The seven starts of the table, by name, before projection."""
    rows, normal, tangential = carried_rows(warm)
    zero_exact = with_reference_on(reference, warm, rows)  # the reference, warm where carried
    return {"zero": np.zeros_like(warm), "warm": warm, "zero exact": zero_exact,
            "carried exact": with_reference_on(warm, reference, rows),
            "normals exact": with_reference_on(warm, reference, normal),
            "tangents exact": with_reference_on(warm, reference, tangential),
            "exact": reference}


def iterations_from(A, b, mu, start, tolerance):
    """apgd's iterations to grains' stop from `start` (projected first), and
    the natural residual there."""
    x = project(start, mu)
    Ax = A @ x
    _, _, iterations = apgd_in_metric(A, b, mu, absolute_tolerance=tolerance, start=(x, Ax),
                                      check_every=CHECK_EVERY)
    return iterations, natural_residual(x, Ax + b, mu)


def row_error(rows, warm, reference):
    """|w - gamma*| over `rows`, relative to |gamma*| over all rows."""
    return np.linalg.norm(warm[rows] - reference[rows]) / np.linalg.norm(reference)


def relative_error(part, warm, reference):
    """|w - gamma*| over the contacts in `part`, relative to |gamma*| over all."""
    return row_error(rows_of(np.flatnonzero(part)), warm, reference)


def median_change(warm, reference):
    """Median over the carried contacts of |w_i - gamma*_i| over the larger
    of |w_i| and |gamma*_i| (positive: the warm start carries the contact)."""
    kept = carried(warm)
    change = np.linalg.norm((warm - reference).reshape(-1, 3), axis=1)[kept]
    size = np.maximum(np.linalg.norm(warm.reshape(-1, 3), axis=1),
                      np.linalg.norm(reference.reshape(-1, 3), axis=1))[kept]
    return np.median(change / size)


def study(path, tolerance):
    A, b, mu = read_friction_qp(path, "qp_warm_start.py")
    warm = dense(path + "/warm_start.mtx")
    reference = reference_solution(A, b, mu, dense(path + "/solution.mtx"))
    kept = carried(warm)
    if not kept.any():
        # The last QP of a step with ReLCP re-solves is exported with a zero
        # warm start; its first, with the warm start, is in step_<N>_first.
        print(f"{path}: no warm start stored (the last QP of a step with ReLCP re-solves? "
              f"its first is step_<N>_first); skipped")
        return
    print(f"{path}: {mu.size} contacts, {kept.sum()} carried by the warm start, "
          f"{mu.size - kept.sum()} at zero")
    _, normal, tangential = carried_rows(warm)
    print(f"  warm start error / |gamma*|: carried {relative_error(kept, warm, reference):.3f} "
          f"(normal rows {row_error(normal, warm, reference):.3f}, tangential "
          f"{row_error(tangential, warm, reference):.3f}), at zero "
          f"{relative_error(~kept, warm, reference):.3f}; median change of a carried contact "
          f"{median_change(warm, reference):.3f}")
    for name, start in starts(warm, reference).items():
        iterations, residual = iterations_from(A, b, mu, start, tolerance)
        print(f"  {name:14s} residual {residual:.2e}  iterations {iterations}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("dirs", nargs="+")
    arguments = parser.parse_args()
    for path in arguments.dirs:
        study(path, arguments.tolerance)


if __name__ == "__main__":
    main()
