#!/usr/bin/python3
"""scripts/bench/qp_late_change.py.

* Self-stresses: a unit sphere wedged between a floor and a wall (contacts
  at its bottom and its side) has exactly one, the floor pushing up and out
  along z + x and the wall in and down, equal and opposite (no force, no
  torque); either contact alone has none, and two wedged spheres have two.
* The null step: the wedged sphere pushed into its corner, with a small
  slope of b along the self-stress (as a stabilisation term leaves one),
  has its optimum where the wall's cone binds at the end of the flat
  segment (check_null_step); APGD creeps there, the step jumps there, and
  the method then meets the tolerance in under a third of the iterations.
* On the demo's exported QP (1000 spheres landing, Coulomb friction) at
  1e-7: its method needs grains' apgd iterations, stopped at the last
  iteration nothing is left to change, and stopped earlier dgamma.A.dgamma
  from A equals scale du.M.du from the factored form (Dt.mtx, mobility.mtx);
  a null step at the last iteration moves nothing and leaves nothing to do.
usage: qp_late_change_test.py SOURCE_DIR GRAINS"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp

from qp_study_support import ENVIRONMENT, export_demo_qp, finish

TOLERANCE = "1e-7"


def contact_rows(point, normal):
    """The three rows of D^T (normal, two tangents) of a contact on a sphere at the origin."""
    normal = np.asarray(normal, dtype=float)
    first = np.cross(normal, [0.0, 1.0, 0.0] if abs(normal[1]) < 0.9 else [1.0, 0.0, 0.0])
    first /= np.linalg.norm(first)
    second = np.cross(normal, first)
    return [np.concatenate([d, np.cross(point, d)]) for d in (normal, first, second)]


def wedged_spheres(count, scale=0.01):
    """A = scale D^T W D for `count` unit spheres (m = 1, I = 2/5), each on a
    floor and against a wall."""
    blocks = []
    for _ in range(count):
        rows = contact_rows([0.0, 0.0, -1.0], [0.0, 0.0, 1.0]) + contact_rows([1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])
        blocks.append(np.array(rows))
    Dt = sp.block_diag(blocks).tocsr()
    W = sp.block_diag([np.diag([1.0, 1.0, 1.0, 2.5, 2.5, 2.5])] * count)
    return sp.csr_matrix(scale * Dt @ W @ Dt.T), np.full(2 * count, 0.5)


def check_null_step(apgd_in_metric, residual_rows, null_step, self_stress_basis, failures):
    """The sphere moving at (0.3, 0, -1) into the corner of a floor and a wall
    at +x, mu = 0.5, with b sloping by 1e-8 along the self-stress: stopped,
    it takes 1 up from the floor and 0.3 from the wall, and the wedge force on
    top grows until the wall's cone binds, gamma* = (1.3, -0.3, 0, 0.6, 0.3, 0)
    in contact_rows' tangents (forces and torques balance; |t| = 0.3 = mu 0.6
    at the wall, 0.3 < 0.65 at the floor)."""
    scale, tolerance, slope = 0.01, 1e-11, 1e-8
    A, mu = wedged_spheres(1, scale)
    Dt = sp.csr_matrix(np.array(contact_rows([0.0, 0.0, -1.0], [0.0, 0.0, 1.0])
                                + contact_rows([1.0, 0.0, 0.0], [-1.0, 0.0, 0.0])))
    v = self_stress_basis(A, mu, np.arange(2))[:, 0]
    v *= np.sign(v[0]) / np.abs(v).max()  # both normal impulses growing along v
    b = scale * (Dt @ np.array([0.3, 0.0, -1.0, 0.0, 0.0, 0.0])) - slope * v  # downhill along v
    expected = np.array([1.3, -0.3, 0.0, 0.6, 0.3, 0.0])
    plain_end, _, plain = apgd_in_metric(A, b, mu, absolute_tolerance=tolerance, check_every=3)
    x, Ax, _ = apgd_in_metric(A, b, mu, absolute_tolerance=tolerance, check_every=3, max_iterations=30)
    x, Ax, moved = null_step(A, b, mu, x, Ax, np.arange(2))
    jumped = np.abs(x - expected).max()
    x, Ax, more = apgd_in_metric(A, b, mu, absolute_tolerance=tolerance, check_every=3, start=(x, Ax))
    print(f"null step: plain {plain} iterations, ending {np.abs(plain_end - expected).max():.1e} from "
          f"gamma*; 30 + {more} with the step (moved {moved}, then {jumped:.1e} from gamma*), ending "
          f"{np.abs(x - expected).max():.1e} from it")
    if len(moved) != 1 or not jumped <= 1e-4:  # the ends of the flat segment lie 0.4 apart
        failures.append(f"null step: moved {moved}, {jumped:g} from gamma* after it")
    if not (residual_rows(x, Ax + b, mu).max() <= tolerance and 3 * (30 + more) < plain):
        failures.append(f"null step: 30 + {more} iterations against plain {plain}, or the tolerance not met")
    if not np.abs(x - expected).max() <= 1e-4:
        failures.append(f"null step: ends {np.abs(x - expected).max():g} from gamma*")


def main():
    source, grains = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(source, "scripts", "bench"))
    from qp_late_change import null_step, self_stress_basis, self_stresses
    from qp_face_conditioning import apgd_in_metric, residual_rows
    failures = []
    check_null_step(apgd_in_metric, residual_rows, null_step, self_stress_basis, failures)
    for label, count, contacts, expected in (("one wedged sphere", 1, [0, 1], 1),
                                             ("its floor contact alone", 1, [0], 0),
                                             ("its wall contact alone", 1, [1], 0),
                                             ("two wedged spheres", 2, [0, 1, 2, 3], 2)):
        A, mu = wedged_spheres(count)
        found = self_stresses(A, mu, np.array(contacts))
        print(f"{label}: {found} self-stresses")
        if found != expected:
            failures.append(f"{label}: {found} self-stresses, expected {expected}")
    with tempfile.TemporaryDirectory() as work:
        qp = export_demo_qp(source, grains, work)
        summary = subprocess.run([grains, "qp", "solve", qp, "--solver", "apgd", "--tolerance", TOLERANCE,
                                  "--max-iterations", "20000"], check=True, capture_output=True,
                                 text=True, env=ENVIRONMENT).stdout
        grains_iterations = int(re.search(r"converged, (\d+) iterations", summary).group(1))
        out = subprocess.run(["/usr/bin/python3", os.path.join(source, "scripts", "bench", "qp_late_change.py"),
                              "--tolerance", TOLERANCE, "--at", "0.333,1",
                              "--null-step-at", str(grains_iterations), qp], check=True,
                             capture_output=True, text=True, env=ENVIRONMENT).stdout
    print(out)
    met = re.search(r"met after (\d+) iterations", out)
    rows = re.findall(r"after (\d+): .*largest change to come (\S+) at .*dgamma\.A\.dgamma (\S+), "
                      r"from the bodies (\S+)", out)
    if not met or len(rows) != 2:
        sys.exit(f"FAIL: unexpected output {out!r}")
    if int(met.group(1)) != grains_iterations:
        failures.append(f"{met.group(1)} iterations, grains' apgd {grains_iterations}")
    early, last = rows
    if int(last[0]) != grains_iterations or float(last[1]) != 0.0:
        failures.append(f"stopped after {last[0]}: change to come {last[1]}, expected 0 after {grains_iterations}")
    # Stopped where the method ends, the null step has nothing to move and the
    # method nothing left to do.
    expected_null = (f"null step after {grains_iterations}: 0 contacts missing, 0 self-stresses moved, "
                     f"0 missing after the step; then 0 iterations, {grains_iterations} in all (met;")
    if expected_null not in out:
        failures.append(f"null step at the end: expected {expected_null!r}")
    from_A, from_bodies = float(early[2]), float(early[3])
    if not (from_A > 0 and abs(from_A - from_bodies) <= 1e-4 * from_A):
        failures.append(f"after {early[0]}: dgamma.A.dgamma {from_A:g} from A, {from_bodies:g} from the bodies")
    finish("qp_late_change", failures)


if __name__ == "__main__":
    main()
